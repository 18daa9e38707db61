// One `bench openxr` run: for each row (a layer configuration) this package's loader through its
// exported trampolines and through xrGetInstanceProcAddr pointers, from JavaScript where the
// typed API has the call, then the Khronos loader (and koffi on it): each side in a child process
// of the same shape, each cell a warm-up and `repeats` timed runs summarized by their median and
// spread.
import os from 'node:os';
import { createPassthroughLayers } from '../../openxr/bundled-layers.js';
import { simulatedRuntime } from '../../openxr/simulated-runtime.js';
import { findKhronosLoader, khronosLoaderPackageVersion, measureKhronosLoader } from './khronos-loader-side.js';
import { runBenchChild } from './child-process.js';
import type { KhronosChildResult, OursChildRequest, OursChildResult } from './child-protocol.js';
import type { PointerOrigin } from '../native/addon.js';
import type { Measurement, MeasurePlan } from './measure-native.js';
import { benchCommand, type BenchCommand, type BenchCommandName } from './openxr-commands.js';
import { configEnvironment, layerCount, type BenchEnvironment, type LayerConfig } from './openxr-scenario.js';
import { summarize, type Summary } from './stats.js';
import type { PerCallCell, PerCallResult } from './measure-per-call.js';
import { invalidArgument } from '../../core/errors.js';

export type ColumnId =
  | 'ours-trampoline'
  | 'ours-pointer'
  | 'ours-several-trampoline'
  | 'ours-js'
  | 'khronos-trampoline'
  | 'khronos-pointer'
  | 'koffi';

export interface ColumnInfo {
  readonly id: ColumnId;
  readonly title: string;
}

export const COLUMNS: Readonly<Record<ColumnId, ColumnInfo>> = {
  'ours-trampoline': { id: 'ours-trampoline', title: 'ours: trampoline' },
  'ours-pointer': { id: 'ours-pointer', title: 'ours: pointer' },
  'ours-several-trampoline': { id: 'ours-several-trampoline', title: 'ours, several live: trampoline' },
  'ours-js': { id: 'ours-js', title: 'ours: JS space.locate' },
  'khronos-trampoline': { id: 'khronos-trampoline', title: 'Khronos: trampoline' },
  'khronos-pointer': { id: 'khronos-pointer', title: 'Khronos: pointer' },
  koffi: { id: 'koffi', title: 'koffi → Khronos' },
};

/** A measured cell (cpu: the calling thread's CPU time, for native loops) or why it is empty. */
export type Cell = { readonly wall: Summary; readonly cpu?: Summary } | { readonly skipped: string };

export interface BenchRow {
  readonly label: string;
  /** API layers in the chain (pass-through copies and real layers). */
  readonly layers: number;
  readonly passthrough: number;
  readonly realLayers: readonly string[];
  /** The layers our instance actually enabled, nearest the application first. */
  readonly apiLayerNames: readonly string[];
  readonly cells: Partial<Record<ColumnId, Cell>>;
  /** Where each loader's xrGetInstanceProcAddr pointer for the command lives (same file and offset: the same function). */
  readonly pointerOrigins: { readonly ours?: PointerOrigin | null; readonly khronos?: PointerOrigin | null };
  /** The per-call reads against the plain-C yardstick in the same process (when the JavaScript form was timed), or why not. */
  readonly perCall?: PerCallResult | { readonly error: string };
}

export interface OpenXrBenchOptions {
  readonly command: BenchCommandName;
  /** Rows with this many pass-through copies (default 0..4). */
  readonly passthroughCounts?: readonly number[];
  /** A row for each of these real layers (found by the usual discovery). */
  readonly realLayers?: readonly string[];
  /** The runtime (default: the shipped simulated runtime). */
  readonly runtime?: { readonly manifestPath: string; readonly label: string };
  /** Calls (frames for xrWaitFrame) per timed run (default per command). */
  readonly iterations?: number;
  /** Timed runs per cell (default 7). */
  readonly repeats?: number;
  /**
   * Fresh child processes per side and row (default 1), alternating the sides. Where a function
   * lands in memory differs from process to process and moves sub-nanosecond figures; with
   * several, a cell is the median of the processes' medians and its spread is theirs.
   */
  readonly processes?: number;
  /** The Khronos loader library; false leaves it out (default: found in the usual places). */
  readonly khronosLoader?: string | false;
  /** Time the JavaScript form (default true, for commands that have one). */
  readonly js?: boolean;
  /** Time koffi on the Khronos loader (default true, for commands with a JavaScript form). */
  readonly koffi?: boolean;
  /** Add a column with a second instance of ours live (the trampolines then look the table up by handle). */
  readonly severalLive?: boolean;
  /** The environment to start from (default process.env; never modified). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Progress lines (to stderr in the CLI). */
  readonly onProgress?: (line: string) => void;
}

export interface OpenXrBenchResult {
  readonly command: BenchCommand;
  readonly runtime: { readonly manifestPath: string; readonly label: string };
  readonly plan: MeasurePlan;
  /** Child processes per side and row. */
  readonly processes: number;
  readonly date: string;
  readonly machine: MachineInfo;
  readonly khronosLoader: { readonly path: string; readonly packageVersion?: string } | { readonly unavailable: string };
  /** Columns in table order. */
  readonly columns: readonly ColumnId[];
  readonly rows: readonly BenchRow[];
  /** The cheapest N-API call (two numbers in, one out), the yardstick for the JavaScript columns. */
  readonly emptyNapiCall?: Summary;
}

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly os: string;
  readonly node: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    os: `${os.platform()} ${os.release()}`,
    node: process.version,
  };
}

export const DEFAULT_REPEATS = 7;

/** The rows: pass-through counts in order, then one row per real layer. */
export function layerConfigs(passthroughCounts: readonly number[], realLayers: readonly string[]): LayerConfig[] {
  return [
    ...passthroughCounts.map((n) => ({ label: n === 0 ? 'no layers' : `${n} pass-through`, passthrough: n, realLayers: [] })),
    ...realLayers.map((name) => ({ label: name, passthrough: 0, realLayers: [name] })),
  ];
}

/** One process's figure, or the median across processes with their spread. */
function acrossProcesses(summaries: readonly Summary[]): Summary {
  return summaries.length === 1 && summaries[0] !== undefined ? summaries[0] : summarize(summaries.map((x) => x.median));
}

function combineMeasurements(list: readonly Measurement[]): Measurement {
  return { wall: acrossProcesses(list.map((m) => m.wall)), cpu: acrossProcesses(list.map((m) => m.cpu)) };
}

function combineOptional<T>(list: readonly (T | { readonly error: string } | undefined)[], combine: (ok: readonly T[]) => T): T | { error: string } | undefined {
  if (list.every((x) => x === undefined)) return undefined;
  const failed = list.find((x): x is { readonly error: string } => typeof x === 'object' && x !== null && 'error' in x);
  if (failed) return { error: failed.error };
  return combine(list.filter((x): x is T => x !== undefined));
}

/** The processes' answers as one: any failure is the answer, else medians across them. */
function combineOurs(answers: readonly OursChildResult[]): OursChildResult {
  const failed = answers.find((a) => !a.ok);
  if (failed || answers.length === 0) return failed ?? { ok: false, error: 'no process ran' };
  const ok = answers as readonly Extract<OursChildResult, { ok: true }>[];
  const first = ok[0]!;
  const severalLive = combineOptional(ok.map((a) => a.severalLive), combineMeasurements);
  const jsCell = combineOptional(ok.map((a) => a.js), acrossProcesses);
  const empties = ok.map((a) => a.emptyNapiCall).filter((x): x is Summary => x !== undefined);
  const perCall = combineOptional(ok.map((a) => a.perCall), combinePerCall);
  return {
    ok: true,
    apiLayerNames: first.apiLayerNames,
    trampoline: combineMeasurements(ok.map((a) => a.trampoline)),
    pointer: combineMeasurements(ok.map((a) => a.pointer)),
    pointerOrigin: first.pointerOrigin,
    ...(severalLive !== undefined ? { severalLive } : {}),
    ...(jsCell !== undefined ? { js: jsCell } : {}),
    ...(empties.length > 0 ? { emptyNapiCall: acrossProcesses(empties) } : {}),
    ...(perCall !== undefined ? { perCall } : {}),
  };
}

/** The processes' per-call figures as one: each cell's ns, runtime and ratios the median across the processes. */
function combinePerCall(list: readonly PerCallResult[]): PerCallResult {
  const first = list[0]!;
  const cells = first.cells.map((cell): PerCallCell => {
    const same = list.map((r) => r.cells.find((c) => c.name === cell.name)).filter((c): c is PerCallCell => c !== undefined);
    return {
      name: cell.name,
      ns: acrossProcesses(same.map((c) => c.ns)),
      ratio: summarize(same.map((c) => c.ratio)).median,
      runtime: acrossProcesses(same.map((c) => c.runtime)),
      pathRatio: summarize(same.map((c) => c.pathRatio)).median,
    };
  });
  return { yardstick: acrossProcesses(list.map((r) => r.yardstick)), cells, skipped: first.skipped };
}

function combineKhronos(answers: readonly KhronosChildResult[]): KhronosChildResult {
  const failed = answers.find((a) => !a.ok);
  if (failed || answers.length === 0) return failed ?? { ok: false, error: 'no process ran' };
  const ok = answers as readonly Extract<KhronosChildResult, { ok: true }>[];
  const koffi = combineOptional(
    ok.map((a) => (a.koffi !== undefined && 'unavailable' in a.koffi ? { error: a.koffi.unavailable } : a.koffi)),
    acrossProcesses,
  );
  return {
    ok: true,
    trampoline: combineMeasurements(ok.map((a) => a.trampoline)),
    pointer: combineMeasurements(ok.map((a) => a.pointer)),
    pointerOrigin: ok[0]?.pointerOrigin ?? null,
    ...(koffi !== undefined ? { koffi: 'error' in koffi ? { unavailable: koffi.error } : koffi } : {}),
  };
}

/** Runs this package's side of a row in ours-child; never throws (the answer says what failed). */
function measureOurs(request: OursChildRequest, env: Readonly<Record<string, string>>): Promise<OursChildResult> {
  return runBenchChild<OursChildRequest, OursChildResult>('ours-child', request, env, (error) => ({ ok: false, error }));
}

export async function runOpenXrBench(options: OpenXrBenchOptions): Promise<OpenXrBenchResult> {
  const command = benchCommand(options.command);
  const plan: MeasurePlan = { iterations: options.iterations ?? command.defaultIterations, repeats: options.repeats ?? DEFAULT_REPEATS };
  if (!Number.isInteger(plan.iterations) || plan.iterations < 1) throw invalidArgument('iterations', 'a whole number >= 1', plan.iterations);
  if (!Number.isInteger(plan.repeats) || plan.repeats < 1) throw invalidArgument('repeats', 'a whole number >= 1', plan.repeats);
  const processes = options.processes ?? 1;
  if (!Number.isInteger(processes) || processes < 1) throw invalidArgument('processes', 'a whole number >= 1', processes);
  const passthroughCounts = options.passthroughCounts ?? [0, 1, 2, 3, 4];
  const realLayers = options.realLayers ?? [];
  const progress = options.onProgress ?? (() => undefined);
  const runtime = options.runtime ?? { manifestPath: simulatedRuntime(), label: 'simulated runtime (simxr)' };
  const khronosPath = options.khronosLoader === false ? undefined : (options.khronosLoader ?? findKhronosLoader());
  const khronosLoader: OpenXrBenchResult['khronosLoader'] =
    options.khronosLoader === false
      ? { unavailable: 'left out (--no-khronos)' }
      : khronosPath === undefined
        ? { unavailable: 'the Khronos OpenXR loader (libopenxr_loader.so.1) is not installed' }
        : { path: khronosPath, ...(khronosLoaderPackageVersion() !== undefined ? { packageVersion: khronosLoaderPackageVersion() } : {}) };
  const js = command.hasJsForm && options.js !== false;
  const koffi = command.hasJsForm && options.koffi !== false;

  const columns: ColumnId[] = ['ours-trampoline', 'ours-pointer'];
  if (options.severalLive) columns.push('ours-several-trampoline');
  if (js) columns.push('ours-js');
  columns.push('khronos-trampoline', 'khronos-pointer');
  if (koffi) columns.push('koffi');

  const maxPassthrough = Math.max(0, ...passthroughCounts);
  const layerSet = createPassthroughLayers(maxPassthrough);
  const env: BenchEnvironment = {
    runtimeManifest: runtime.manifestPath,
    passthroughFolder: layerSet.folder,
    passthroughNames: layerSet.names,
    ...(options.baseEnv ? { baseEnv: options.baseEnv } : {}),
  };
  const rows: BenchRow[] = [];
  let emptyNapiCall: Summary | undefined;
  try {
    for (const config of layerConfigs(passthroughCounts, realLayers)) {
      progress(`${command.name}: ${config.label}`);
      const cells: Partial<Record<ColumnId, Cell>> = {};
      // Each side in child processes of the same shape, with the row's environment, alternating.
      const oursAnswers: OursChildResult[] = [];
      const khronosAnswers: KhronosChildResult[] = [];
      for (let p = 0; p < processes; p++) {
        oursAnswers.push(
          await measureOurs({ env, config, command: command.name, plan, severalLive: options.severalLive === true, js }, configEnvironment(env, config)),
        );
        if (khronosPath !== undefined) {
          khronosAnswers.push(await measureKhronosLoader({ libraryPath: khronosPath, command: command.name, plan, koffi }, configEnvironment(env, config)));
        }
      }
      const ours = combineOurs(oursAnswers);
      let perCall: BenchRow['perCall'];
      let apiLayerNames: readonly string[] = [];
      const pointerOrigins: { ours?: PointerOrigin | null; khronos?: PointerOrigin | null } = {};
      if (!ours.ok) {
        for (const column of columns.filter((c) => c.startsWith('ours-'))) cells[column] = { skipped: ours.error };
      } else {
        apiLayerNames = ours.apiLayerNames;
        pointerOrigins.ours = ours.pointerOrigin;
        cells['ours-trampoline'] = ours.trampoline;
        cells['ours-pointer'] = ours.pointer;
        if (ours.severalLive !== undefined) cells['ours-several-trampoline'] = 'error' in ours.severalLive ? { skipped: ours.severalLive.error } : ours.severalLive;
        if (ours.js !== undefined) cells['ours-js'] = 'error' in ours.js ? { skipped: ours.js.error } : { wall: ours.js };
        emptyNapiCall ??= ours.emptyNapiCall;
        if (ours.perCall !== undefined) perCall = ours.perCall;
      }
      if (khronosPath === undefined) {
        const reason = 'unavailable' in khronosLoader ? khronosLoader.unavailable : 'not installed';
        cells['khronos-trampoline'] = cells['khronos-pointer'] = { skipped: reason };
        if (koffi) cells.koffi = { skipped: reason };
      } else {
        const answer = combineKhronos(khronosAnswers);
        if (!answer.ok) {
          cells['khronos-trampoline'] = cells['khronos-pointer'] = { skipped: answer.error };
          if (koffi) cells.koffi = { skipped: answer.error };
        } else {
          cells['khronos-trampoline'] = answer.trampoline;
          cells['khronos-pointer'] = answer.pointer;
          pointerOrigins.khronos = answer.pointerOrigin;
          if (koffi) cells.koffi = answer.koffi === undefined ? { skipped: 'not measured' } : 'unavailable' in answer.koffi ? { skipped: answer.koffi.unavailable } : { wall: answer.koffi };
        }
      }
      rows.push({
        label: config.label,
        layers: layerCount(config),
        passthrough: config.passthrough,
        realLayers: config.realLayers,
        apiLayerNames,
        cells,
        pointerOrigins,
        ...(perCall !== undefined ? { perCall } : {}),
      });
    }
  } finally {
    layerSet.dispose();
  }
  return {
    command,
    runtime,
    plan,
    processes,
    date: new Date().toISOString(),
    machine: machineInfo(),
    khronosLoader,
    columns,
    rows,
    ...(emptyNapiCall ? { emptyNapiCall } : {}),
  };
}
