// One `bench vulkan` run: for each row (0..N bundled pass-through layers, then real layers such as
// VK_LAYER_KHRONOS_validation) a device command timed through this package's loader and through
// the Khronos loader (libvulkan.so.1), each through its exported trampoline and through the
// vkGetDeviceProcAddr pointer. Both loaders run in the same child processes, with the row's
// VK_DRIVER_FILES / VK_LAYER_PATH / VK_INSTANCE_LAYERS: the chains then call the very same driver
// and layer code at the same addresses, and what differs between the two sides is the loaders
// alone. Each process sets up both (which first alternates from process to process), warms up, and
// interleaves their timed runs; the processes' medians are kept, in order, so the report can pair
// each process's two loaders.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { PointerOrigin } from '../native/addon.js';
import { runBenchChild } from './child-process.js';
import type { Measurement, MeasurePlan } from './measure-native.js';
import { DEFAULT_REPEATS, machineInfo, type MachineInfo } from './run-openxr-bench.js';
import { summarize, type Summary } from './stats.js';
import { presentsToWindow, type VulkanBenchCommandName, type VulkanBenchSide, type VulkanChildRequest, type VulkanChildResult, type VulkanSideResult } from './vulkan-child-protocol.js';
import { createVulkanPassthroughLayers } from './vulkan-layers.js';
import { compareTrampolines, lookConfidence } from './vulkan-verdict.js';
import { findXvfb, startXvfb, type XvfbServer } from './xvfb-server.js';
import { InvalidArgumentError, UnavailableError, invalidArgument } from '../../core/errors.js';

export type VulkanColumnId = 'ours-trampoline' | 'ours-pointer' | 'khronos-trampoline' | 'khronos-pointer';
export const VULKAN_COLUMNS: readonly VulkanColumnId[] = ['ours-trampoline', 'ours-pointer', 'khronos-trampoline', 'khronos-pointer'];
export const VULKAN_COLUMN_TITLES: Readonly<Record<VulkanColumnId, string>> = {
  'ours-trampoline': 'ours: trampoline',
  'ours-pointer': 'ours: pointer',
  'khronos-trampoline': 'Khronos: trampoline',
  'khronos-pointer': 'Khronos: pointer',
};

export interface VulkanBenchCommand {
  readonly name: VulkanBenchCommandName;
  readonly measures: string;
  readonly defaultIterations: number;
}

export const VULKAN_BENCH_COMMANDS: Readonly<Record<VulkanBenchCommandName, VulkanBenchCommand>> = {
  vkGetDeviceQueue: {
    name: 'vkGetDeviceQueue',
    measures: 'vkGetDeviceQueue(device, 0, 0, &queue): a cheap device command (the loader also points the queue at its dispatch table)',
    defaultIterations: 1_000_000,
  },
  vkCmdPushConstants: {
    name: 'vkCmdPushConstants',
    measures:
      'vkCmdPushConstants(commandBuffer, layout, COMPUTE, 0, 16, values) while recording: a command-buffer command that is valid ' +
      'without a bound pipeline (vkCmdDispatch needs a compute pipeline, i.e. a shader, to be valid usage; validation would report every call); ' +
      "each timed run is two recordings of half the calls: a driver that allocates per command (lavapipe) is slower every other recording, as glibc's free lists alternate",
    defaultIterations: 200_000,
  },
  'vkAcquireNextImageKHR+vkQueuePresentKHR': {
    name: 'vkAcquireNextImageKHR+vkQueuePresentKHR',
    measures:
      'one frame presented to a 32×32 XCB window on a private Xvfb: vkAcquireNextImageKHR (with a fence), vkWaitForFences and vkResetFences, vkQueuePresentKHR of the unchanged image ' +
      '(each swapchain image moved to PRESENT_SRC_KHR once at setup), in a present mode that does not wait for a refresh (IMMEDIATE, else MAILBOX); ' +
      "most of a frame is the driver's copy of the image to the X server, so the loaders' part is a few nanoseconds of it",
    defaultIterations: 2_000,
  },
  vkAcquireNextImageKHR: {
    name: 'vkAcquireNextImageKHR',
    measures:
      'vkAcquireNextImageKHR alone, timed call by call (clock reads around each call, the same for both loaders) in the frames of the vkAcquireNextImageKHR+vkQueuePresentKHR row: ' +
      'a 32×32 XCB window on a private Xvfb, IMMEDIATE (else MAILBOX) present mode, one image more than the minimum; the acquire waits while the X server still holds every image',
    defaultIterations: 2_000,
  },
  vkQueuePresentKHR: {
    name: 'vkQueuePresentKHR',
    measures:
      'vkQueuePresentKHR alone, timed call by call (clock reads around each call, the same for both loaders) in the frames of the vkAcquireNextImageKHR+vkQueuePresentKHR row: ' +
      "the driver's copy of a 32×32 image to a private Xvfb in IMMEDIATE (else MAILBOX) present mode",
    defaultIterations: 2_000,
  },
};

export function vulkanBenchCommand(name: string): VulkanBenchCommand {
  const command = (VULKAN_BENCH_COMMANDS as Readonly<Record<string, VulkanBenchCommand>>)[name];
  if (command === undefined) throw invalidArgument('command', `one of ${Object.keys(VULKAN_BENCH_COMMANDS).join(', ')} (the commands bench vulkan can time)`, name);
  return command;
}

/**
 * A measured cell or why it is empty. `processWalls`: each process's median wall ns per call, in
 * the order the processes ran (index p of ours ran in the same process as index p of Khronos).
 */
export type VulkanCell =
  | {
      readonly wall: Summary;
      readonly cpu: Summary;
      readonly processWalls: readonly number[];
      /** Each process's timed runs (wall ns per call), in the order they ran: run r of ours ran next to run r of Khronos in the same process. */
      readonly processRuns?: readonly (readonly number[])[];
    }
  | { readonly skipped: string };

export interface VulkanBenchRow {
  readonly label: string;
  readonly passthrough: number;
  readonly realLayers: readonly string[];
  /** The child processes that timed this row (more than the run's `processes` when its verdict needed more). */
  readonly processes: number;
  /** The layers our instance enabled, nearest the application first. */
  readonly layerNames: readonly string[];
  readonly cells: Partial<Record<VulkanColumnId, VulkanCell>>;
  readonly pointerOrigins: { readonly ours?: PointerOrigin | null; readonly khronos?: PointerOrigin | null };
  /** Each loader's own shared object (where its exports live, as dladdr names it): a pointer into it is the loader's trampoline. */
  readonly loaderFiles: { readonly ours?: string | null; readonly khronos?: string | null };
}

export const KHRONOS_VULKAN_LOADER_CANDIDATES: readonly string[] = [
  '/usr/lib/x86_64-linux-gnu/libvulkan.so.1',
  '/usr/lib/aarch64-linux-gnu/libvulkan.so.1',
  '/usr/lib64/libvulkan.so.1',
  '/usr/local/lib/libvulkan.so.1',
  '/usr/lib/libvulkan.so.1',
];
export const LAVAPIPE_MANIFEST_CANDIDATES: readonly string[] = ['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/share/vulkan/icd.d/lvp_icd.aarch64.json'];
export const SYSTEM_EXPLICIT_LAYER_FOLDER = '/usr/share/vulkan/explicit_layer.d';

/** The Debian package version of libvulkan1, when dpkg knows it. */
export function khronosVulkanLoaderPackageVersion(): string | undefined {
  try {
    const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libvulkan1'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    return version === '' ? undefined : version;
  } catch {
    return undefined;
  }
}

export interface VulkanBenchOptions {
  readonly command: VulkanBenchCommandName;
  /** Rows with this many pass-through copies (default 0, 1, 3). */
  readonly passthroughCounts?: readonly number[];
  /** A row for each of these real layers (found in VK_LAYER_PATH's system folder), e.g. VK_LAYER_KHRONOS_validation. */
  readonly realLayers?: readonly string[];
  /** The driver manifest (default: lavapipe's). */
  readonly driverManifest?: string;
  readonly iterations?: number;
  readonly repeats?: number;
  /** Fresh child processes per row, each timing both loaders (which goes first alternates; default 1). */
  readonly processes?: number;
  /**
   * A row whose trampoline verdict is within noise after `processes` is measured again, a batch of
   * `processes` more at a time, up to this many processes (default `processes`: no more). Every
   * look's interval is then at lookConfidence(looks), so the verdict's error stays within 5 %.
   */
  readonly maxProcesses?: number;
  /** The Khronos loader library; false leaves it out (default: found in the usual places). */
  readonly khronosLoader?: string | false;
  /** The Xvfb binary the presentation commands start (default /usr/bin/Xvfb); false: as if not installed. */
  readonly xvfb?: string | false;
  /** The environment to start from (default process.env; never modified). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly onProgress?: (line: string) => void;
}

export interface VulkanBenchResult {
  readonly command: VulkanBenchCommand;
  /** The presentation commands' X server and the swapchain's present mode, or why the rows were not measured. */
  readonly presentation?: { readonly server: 'Xvfb'; readonly presentMode?: string } | { readonly unavailable: string };
  readonly driver: { readonly manifestPath: string; readonly deviceName?: string };
  readonly plan: MeasurePlan;
  readonly processes: number;
  /** The most processes a row may have taken (rows within noise take more batches). */
  readonly maxProcesses: number;
  /** The confidence of each look's interval, and so of the verdicts' intervals (lookConfidence of the most looks a row may take). */
  readonly verdictConfidence: number;
  /** What the children's GLIBC_TUNABLES was (the bench's own, or the caller's). */
  readonly glibcTunables?: string;
  readonly date: string;
  readonly machine: MachineInfo;
  readonly khronosLoader: { readonly path: string; readonly packageVersion?: string } | { readonly unavailable: string };
  readonly columns: readonly VulkanColumnId[];
  readonly rows: readonly VulkanBenchRow[];
}

interface RowConfig {
  readonly label: string;
  readonly passthrough: number;
  readonly realLayers: readonly string[];
}

/**
 * glibc's allocator made steady in the children (unless the caller sets GLIBC_TUNABLES), so a
 * driver or layer that allocates per recorded command (lavapipe, the validation layer) records at
 * the same speed into both loaders' command buffers in one process:
 * - small free lists off: with them, each recording reused the chunks the other loader's last reset
 *   freed, last-freed first, and lavapipe's vkCmdPushConstants measured 36 to 127 ns a call from
 *   process to process, one loader up to 1.6× the other through the very same driver function (the
 *   pointer); with them off, 38 to 42 ns for both;
 * - fixed mmap and trim thresholds: glibc raises its mmap threshold when a mapped chunk is freed and
 *   gives memory back above the trim threshold, and under the validation layer one loader's
 *   recordings ran about 20 % faster than the other's (455 against 570 ns a call), whichever had
 *   come out ahead when that happened; with both fixed, 455–480 ns for both.
 */
export const BENCH_GLIBC_TUNABLES = 'glibc.malloc.mxfast=0:glibc.malloc.tcache_count=0:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824';

/** The children's GLIBC_TUNABLES: the caller's when set, else the bench's own. */
function childGlibcTunables(base: Readonly<Record<string, string | undefined>>): string {
  return base.GLIBC_TUNABLES ?? BENCH_GLIBC_TUNABLES;
}

/**
 * The row's environment: only the row's driver, the row's layers enabled, implicit layers off, the
 * pass-through copies' folders first on VK_LAYER_PATH in chain order (the same chain for both
 * loaders), glibc's allocator made steady (BENCH_GLIBC_TUNABLES).
 */
export function vulkanRowEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  driverManifest: string,
  passthroughFolders: readonly string[],
  layerNames: readonly string[],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    // A variable of the caller's that chooses drivers or layers would make the sides differ from the row.
    if (v !== undefined && !/^VK_(ICD_FILENAMES|DRIVER_FILES|ADD_DRIVER_FILES|LAYER_PATH|ADD_LAYER_PATH|INSTANCE_LAYERS|LOADER_LAYERS_ENABLE|LOADER_LAYERS_DISABLE|LOADER_DRIVERS_SELECT|LOADER_DRIVERS_DISABLE)$/.test(k)) env[k] = v;
  }
  env.VK_DRIVER_FILES = driverManifest;
  env.VK_LAYER_PATH = [...passthroughFolders, SYSTEM_EXPLICIT_LAYER_FOLDER].join(':');
  env.VK_LOADER_LAYERS_DISABLE = '~implicit~';
  if (layerNames.length > 0) env.VK_INSTANCE_LAYERS = layerNames.join(':');
  env.GLIBC_TUNABLES = childGlibcTunables(base);
  return env;
}

function acrossProcesses(summaries: readonly Summary[]): Summary {
  return summaries.length === 1 && summaries[0] !== undefined ? summaries[0] : summarize(summaries.map((x) => x.median));
}

type SideCells = { readonly ok: true; readonly trampoline: Extract<VulkanCell, { wall: Summary }>; readonly pointer: Extract<VulkanCell, { wall: Summary }>; readonly pointerOrigin: PointerOrigin | null; readonly loaderFile: string | null } | { readonly ok: false; readonly error: string };

/** One side's cells over the processes, or the first reason a process could not time it. */
function combineSide(answers: readonly VulkanChildResult[], side: VulkanBenchSide): SideCells {
  const results: Extract<VulkanSideResult, { ok: true }>[] = [];
  for (const answer of answers) {
    const r = answer.ok ? answer.sides[side] : answer;
    if (r === undefined) return { ok: false, error: `vulkan-child: no ${side} result` };
    if (!r.ok) return r;
    results.push(r);
  }
  const first = results[0];
  if (first === undefined) return { ok: false, error: 'no process ran' };
  const merge = (pick: (a: (typeof results)[number]) => Measurement) => ({
    wall: acrossProcesses(results.map((a) => pick(a).wall)),
    cpu: acrossProcesses(results.map((a) => pick(a).cpu)),
    processWalls: results.map((a) => pick(a).wall.median),
    ...(results.every((a) => pick(a).wallRuns !== undefined) ? { processRuns: results.map((a) => pick(a).wallRuns!) } : {}),
  });
  return { ok: true, trampoline: merge((a) => a.trampoline), pointer: merge((a) => a.pointer), pointerOrigin: first.pointerOrigin, loaderFile: first.loaderFile };
}

export interface RowSampling {
  /** Processes per batch (the first look comes after one batch). */
  readonly processes: number;
  readonly maxProcesses: number;
  /** Each look's interval confidence. */
  readonly confidence: number;
  /** Whether there is a verdict to decide (both loaders timed); without one, a single batch. */
  readonly judge: boolean;
}

/**
 * A row's child processes: a batch, then, while the trampoline verdict of all processes so far is
 * within noise, another batch, until maxProcesses. `ask(p)` runs process p (its index decides which
 * loader goes first, so the crossover pairs stay (even, odd) across batches).
 */
export async function sampleRow(ask: (p: number) => Promise<VulkanChildResult>, sampling: RowSampling, onMore: (line: string) => void = () => undefined): Promise<VulkanChildResult[]> {
  const answers: VulkanChildResult[] = [];
  for (;;) {
    const end = Math.min(answers.length + sampling.processes, sampling.maxProcesses);
    while (answers.length < end) answers.push(await ask(answers.length));
    if (!sampling.judge || answers.length >= sampling.maxProcesses) return answers;
    const o = combineSide(answers, 'ours');
    const k = combineSide(answers, 'khronos');
    if (!o.ok || !k.ok) return answers;
    const c = compareTrampolines(o.trampoline, k.trampoline, sampling.confidence);
    if (c?.verdict !== 'within noise') return answers;
    onMore(`within noise after ${answers.length} processes (${c.interval.low.toFixed(3)}–${c.interval.high.toFixed(3)}×): ${Math.min(sampling.processes, sampling.maxProcesses - answers.length)} more`);
  }
}

function positiveInteger(what: string, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw invalidArgument(what, 'a whole number >= 1', n);
}

export async function runVulkanBench(options: VulkanBenchOptions): Promise<VulkanBenchResult> {
  const command = vulkanBenchCommand(options.command);
  const iterations = options.iterations ?? command.defaultIterations;
  positiveInteger('iterations', iterations);
  // The warm-up as long as a timed run: a driver that allocates per command has then grown its heap
  // to what a run needs, so no timed run pays for it (it was the first run, the trampoline's).
  const plan: MeasurePlan = { iterations, repeats: options.repeats ?? DEFAULT_REPEATS, warmupIterations: iterations };
  positiveInteger('repeats', plan.repeats);
  const processes = options.processes ?? 1;
  positiveInteger('processes', processes);
  const maxProcesses = options.maxProcesses ?? processes;
  positiveInteger('maxProcesses', maxProcesses);
  if (maxProcesses < processes) throw new InvalidArgumentError(`maxProcesses must be at least processes (${processes}), got ${maxProcesses}`, 'maxProcesses');
  const confidence = lookConfidence(Math.ceil(maxProcesses / processes));
  const driverManifest = options.driverManifest ?? LAVAPIPE_MANIFEST_CANDIDATES.find((p) => existsSync(p));
  if (driverManifest === undefined) throw new UnavailableError(`no Vulkan driver to measure on: lavapipe (${LAVAPIPE_MANIFEST_CANDIDATES.join(', ')}) is not installed; pass a driver manifest`);
  const passthroughCounts = options.passthroughCounts ?? [0, 1, 3];
  const realLayers = options.realLayers ?? [];
  const progress = options.onProgress ?? (() => undefined);
  const khronosPath = options.khronosLoader === false ? undefined : (options.khronosLoader ?? KHRONOS_VULKAN_LOADER_CANDIDATES.find((p) => existsSync(p)));
  const version = khronosVulkanLoaderPackageVersion();
  const khronosLoader: VulkanBenchResult['khronosLoader'] =
    options.khronosLoader === false
      ? { unavailable: 'left out (--no-khronos)' }
      : khronosPath === undefined
        ? { unavailable: 'the Khronos Vulkan loader (libvulkan.so.1) is not installed' }
        : { path: khronosPath, ...(version !== undefined ? { packageVersion: version } : {}) };

  const configs: RowConfig[] = [
    ...passthroughCounts.map((n) => ({ label: n === 0 ? 'no layers' : `${n} pass-through`, passthrough: n, realLayers: [] })),
    ...realLayers.map((name) => ({ label: name, passthrough: 0, realLayers: [name] })),
  ];
  // The presentation commands run under an X server of their own; without Xvfb their rows say so.
  let xServer: XvfbServer | undefined;
  let presentation: VulkanBenchResult['presentation'];
  if (presentsToWindow(command.name)) {
    const xvfb = options.xvfb === false ? undefined : (options.xvfb ?? findXvfb());
    if (xvfb === undefined) presentation = { unavailable: 'Xvfb is not installed (Debian package xvfb): the presentation rows need an X server of their own, so they were not measured' };
    else {
      xServer = await startXvfb(xvfb);
      progress(`${command.name}: Xvfb on ${xServer.display}`);
      presentation = { server: 'Xvfb' };
    }
  }
  const layerSet = createVulkanPassthroughLayers(Math.max(0, ...passthroughCounts));
  const rows: VulkanBenchRow[] = [];
  let deviceName: string | undefined;
  try {
    for (const config of configs) {
      if (presentation !== undefined && 'unavailable' in presentation) {
        const skipped = { skipped: presentation.unavailable };
        const cells = { 'ours-trampoline': skipped, 'ours-pointer': skipped, 'khronos-trampoline': skipped, 'khronos-pointer': skipped };
        rows.push({ label: config.label, passthrough: config.passthrough, realLayers: config.realLayers, processes: 0, layerNames: [], cells, pointerOrigins: {}, loaderFiles: {} });
        continue;
      }
      progress(`${command.name}: ${config.label}`);
      const names = [...layerSet.names.slice(0, config.passthrough), ...config.realLayers];
      const env = vulkanRowEnvironment(options.baseEnv ?? process.env, driverManifest, layerSet.folders, names);
      const ask = (p: number) => {
        // ours set up and timed first in even processes, Khronos in odd ones.
        const sides: VulkanBenchSide[] = khronosPath === undefined ? ['ours'] : p % 2 === 0 ? ['ours', 'khronos'] : ['khronos', 'ours'];
        const request: VulkanChildRequest = {
          sides,
          ...(khronosPath !== undefined ? { khronosLibrary: khronosPath } : {}),
          command: command.name,
          plan,
          ...(xServer !== undefined ? { display: xServer.display } : {}),
        };
        return runBenchChild<VulkanChildRequest, VulkanChildResult>('vulkan-child', request, env, (error) => ({ ok: false, error }));
      };
      const answers = await sampleRow(ask, { processes, maxProcesses, confidence, judge: khronosPath !== undefined }, (line) => progress(`${command.name}: ${config.label}: ${line}`));
      const cells: Partial<Record<VulkanColumnId, VulkanCell>> = {};
      const pointerOrigins: { ours?: PointerOrigin | null; khronos?: PointerOrigin | null } = {};
      const loaderFiles: { ours?: string | null; khronos?: string | null } = {};
      const answered = answers.filter((a): a is Extract<VulkanChildResult, { ok: true }> => a.ok);
      const layerNames = answered.find((a) => a.layerNames !== undefined)?.layerNames ?? [];
      deviceName ??= answered.find((a) => a.deviceName !== undefined)?.deviceName;
      const presentMode = answered.find((a) => a.presentMode !== undefined)?.presentMode;
      if (presentation !== undefined && 'server' in presentation && presentMode !== undefined) presentation = { server: 'Xvfb', presentMode };
      const o = combineSide(answers, 'ours');
      if (o.ok) {
        cells['ours-trampoline'] = o.trampoline;
        cells['ours-pointer'] = o.pointer;
        pointerOrigins.ours = o.pointerOrigin;
        loaderFiles.ours = o.loaderFile;
      } else cells['ours-trampoline'] = cells['ours-pointer'] = { skipped: o.error };
      if (khronosPath === undefined) {
        cells['khronos-trampoline'] = cells['khronos-pointer'] = { skipped: 'unavailable' in khronosLoader ? khronosLoader.unavailable : 'not installed' };
      } else {
        const k = combineSide(answers, 'khronos');
        if (k.ok) {
          cells['khronos-trampoline'] = k.trampoline;
          cells['khronos-pointer'] = k.pointer;
          pointerOrigins.khronos = k.pointerOrigin;
          loaderFiles.khronos = k.loaderFile;
        } else cells['khronos-trampoline'] = cells['khronos-pointer'] = { skipped: k.error };
      }
      rows.push({ label: config.label, passthrough: config.passthrough, realLayers: config.realLayers, processes: answers.length, layerNames, cells, pointerOrigins, loaderFiles });
    }
  } finally {
    layerSet.dispose();
    await xServer?.stop();
  }
  return {
    command,
    ...(presentation !== undefined ? { presentation } : {}),
    driver: { manifestPath: driverManifest, ...(deviceName !== undefined ? { deviceName } : {}) },
    plan,
    processes,
    maxProcesses,
    verdictConfidence: confidence,
    glibcTunables: childGlibcTunables(options.baseEnv ?? process.env),
    date: new Date().toISOString(),
    machine: machineInfo(),
    khronosLoader,
    columns: VULKAN_COLUMNS,
    rows,
  };
}
