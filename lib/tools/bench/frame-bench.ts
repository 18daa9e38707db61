// `khronos-loader bench openxr --command frame` (docs/performance.md, 'OpenXR: frame queries'):
// what locating N spaces costs per frame from JavaScript — N space.locate calls against one frame
// query — beside the same work in C through this loader (a loop of xrLocateSpace, or
// xrLocateSpaces on a 1.1 instance), for N = 1, 4, 16, 64, on OpenXR 1.0 and 1.1 instances, with
// an empty N-API call as the yardstick.
import os from 'node:os';
import { createHostPlatform } from '../../core/platform/host.js';
import { XR_API_VERSION_1_0, XR_API_VERSION_1_1 } from '../../generated/openxr.js';
import { nativeSessionOf } from '../../openxr/api/handles.js';
import { nativeInstanceOf, type Instance } from '../../openxr/api/instance.js';
import { nativeRuntimeExtensions } from '../../openxr/native/plan.js';
import { nativeSpaceOf, type Space } from '../../openxr/api/space.js';
import { POSE_FLOATS } from '../../openxr/api/types.js';
import { createLoader } from '../../openxr/loader.js';
import { loadToolsAddon } from '../native/addon.js';
import { markdownTable } from './markdown-table.js';
import { shownPath } from './report.js';
import { timeJsLoop } from './measure-js.js';
import { summarize, formatSummary, type Summary } from './stats.js';
import { medianRoundRatio, timeInRounds, type TimedRun } from './rounds.js';
import { FRAME_BENCH_SPACE_COUNTS, type FrameBenchApiVersion } from './frame-spaces.js';

export { FRAME_BENCH_SPACE_COUNTS, type FrameBenchApiVersion };

export interface FrameBenchOptions {
  readonly runtime: { readonly manifestPath: string; readonly label: string };
  readonly apiVersions?: readonly FrameBenchApiVersion[];
  readonly spaceCounts?: readonly number[];
  /**
   * Located spaces per timed run (frames = this ÷ N). Default 40,000: short runs, many of them,
   * so that on a shared machine most runs are not preempted and the median is the uncontended cost.
   */
  readonly locatesPerRun?: number;
  readonly repeats?: number;
  /** The environment the runtime is found in (XR_RUNTIME_JSON is set over it); default process.env. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly onProgress?: (line: string) => void;
}

export interface FrameBenchRow {
  readonly spaces: number;
  /** Frames of the warm-up (locatesPerRun ÷ N). */
  readonly frames: number;
  /** ns per frame: N space.locate calls from JavaScript. */
  readonly separateJs: Summary;
  /** ns per frame: one frame query run from JavaScript. */
  readonly queryJs: Summary;
  /** ns per frame: the query's native work in C through the loader (no JavaScript). */
  readonly nativeC: Summary;
  /** ns per frame: a C loop of N xrLocateSpace (the 1.0 way; on a 1.1 instance too, for comparison). */
  readonly nativeLoopC: Summary;
  /** ns: an empty N-API call taking two numbers, timed in the same rounds as the row's cells. */
  readonly emptyNapiCall: Summary;
  /**
   * The ratios, each the median over the rounds of that round's runs (the cells are timed round
   * by round, so a slow spell of the machine slows a round's runs alike and cancels in its ratio):
   * separate ÷ query, and query ÷ (C + empty).
   */
  readonly roundRatios: { readonly separateOverQuery: number; readonly queryOverFloor: number };
}

export interface FrameBenchRun {
  readonly apiVersion: FrameBenchApiVersion;
  readonly locatePath: string;
  /** ns: an empty N-API call taking two numbers, over all the rows' rounds. */
  readonly emptyNapiCall: Summary;
  readonly rows: readonly FrameBenchRow[];
}

export interface FrameBenchResult {
  readonly runtime: { readonly manifestPath: string; readonly label: string };
  readonly date: string;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly os: string };
  readonly node: string;
  readonly locatesPerRun: number;
  readonly repeats: number;
  readonly runs: readonly FrameBenchRun[];
}

const REFERENCE_TYPES = ['view', 'stage', 'local'] as const;

function benchInstance(options: FrameBenchOptions, apiVersion: FrameBenchApiVersion): { instance: Instance; clock: boolean } {
  const env = { ...(options.baseEnv ?? process.env), XR_RUNTIME_JSON: options.runtime.manifestPath };
  const loader = createLoader({ platform: createHostPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions, logWriter: (text) => process.stderr.write(text) });
  const clock = loader.enumerateInstanceExtensionProperties().some((e) => e.name === 'XR_KHR_convert_timespec_time');
  const instance = loader.createInstance({
    applicationName: 'khronos-loader bench frame',
    apiVersion: apiVersion === '1.1' ? XR_API_VERSION_1_1 : XR_API_VERSION_1_0,
    enabledExtensionNames: ['XR_MND_headless', ...(clock ? ['XR_KHR_convert_timespec_time'] : [])],
  });
  return { instance, clock };
}

function runVersion(options: FrameBenchOptions, apiVersion: FrameBenchApiVersion, counts: readonly number[], locatesPerRun: number, repeats: number): FrameBenchRun {
  const { instance, clock } = benchInstance(options, apiVersion);
  const addon = loadToolsAddon();
  try {
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const base = session.createReferenceSpace('local');
    const most = Math.max(...counts);
    const all: Space[] = Array.from({ length: most }, (_, i) =>
      session.createReferenceSpace(REFERENCE_TYPES[i % REFERENCE_TYPES.length] as (typeof REFERENCE_TYPES)[number], [0.01 * i, 0, -0.01 * i, 0, 0, 0, 1]),
    );
    // One time for every call: a new number per call would make JavaScript allocate a HeapNumber.
    const time = clock ? instance.monotonicNowAsXrTime() + 20_000_000n : 1_000_000_000n;
    const empty = () => addon.benchEmpty(1, 2);
    const rows: FrameBenchRow[] = [];
    const emptyAll: number[] = [];
    let locatePath = 'none';
    for (const n of counts) {
      options.onProgress?.(`frame, OpenXR ${apiVersion}, ${n} spaces`);
      const spaces = all.slice(0, n);
      const frames = Math.max(1, Math.round(locatesPerRun / n));
      const outs = spaces.map(() => new Float32Array(POSE_FLOATS));
      const query = session.createFrameQuery({ spaces: spaces.map((s) => [s, base] as const) });
      locatePath = query.locatePath;
      const out = query.out;
      const natives = spaces.map((s) => nativeSpaceOf(s));
      const bases = spaces.map(() => nativeSpaceOf(base));
      // C runs sized like the JavaScript ones: a warm-up of `frames` says how many frames last about RUN_NS.
      const native = (command: 'xrLocateSpace' | 'xrLocateSpaces'): TimedRun => {
        const timed = (iterations: number) => addon.benchOpenXrFrameNative(nativeInstanceOf(instance), nativeSessionOf(session), natives, bases, command, Number(time), iterations, 1).wallNs[0]!;
        const iterations = Math.max(1, Math.round(RUN_NS / timed(frames)));
        return () => timed(iterations);
      };
      const separate = sizedJsRun(frames, () => {
        for (let i = 0; i < n; i++) (spaces[i] as Space).locate(base, time, outs[i] as Float32Array);
      });
      const queryRun = sizedJsRun(frames, () => query.run(time, out));
      const loopRun = native('xrLocateSpace');
      const locateSpacesRun = query.locatePath === 'xrLocateSpaces' ? native('xrLocateSpaces') : undefined;
      const emptyRun = sizedJsRun(locatesPerRun, empty);
      // In rounds: after a child process's exit, the first rows of a full `npm run bench` measured
      // the C loop 60–70 % and the query 80 % slower, while the yardstick timed apart was not.
      const [separateRuns, queryRuns, loopRuns, emptyRuns, spacesRuns] = timeInRounds(repeats, [separate, queryRun, loopRun, emptyRun, ...(locateSpacesRun ? [locateSpacesRun] : [])]);
      const nativeRuns = spacesRuns ?? loopRuns!;
      emptyAll.push(...emptyRuns!);
      rows.push({
        spaces: n,
        frames,
        separateJs: summarize(separateRuns!),
        queryJs: summarize(queryRuns!),
        nativeC: summarize(nativeRuns),
        nativeLoopC: summarize(loopRuns!),
        emptyNapiCall: summarize(emptyRuns!),
        roundRatios: {
          separateOverQuery: medianRoundRatio(separateRuns!, queryRuns!),
          queryOverFloor: medianRoundRatio(queryRuns!, nativeRuns.map((c, r) => c + emptyRuns![r]!)),
        },
      });
    }
    return { apiVersion, locatePath, emptyNapiCall: summarize(emptyAll), rows };
  } finally {
    instance.destroy();
  }
}

/** How long one timed run lasts (about), in JavaScript and in C: short, so that on a shared machine most runs go unpreempted. */
const RUN_NS = 250_000;

/**
 * Runs of `call`: a warm-up of `warmup` calls, which also sizes each run to about RUN_NS (the same
 * length whatever a call costs, so slower calls are not preempted more often).
 */
function sizedJsRun(warmup: number, call: () => void): TimedRun {
  const start = process.hrtime.bigint();
  for (let i = 0; i < warmup; i++) call();
  const perCall = Number(process.hrtime.bigint() - start) / warmup;
  const plan = { iterations: Math.max(1, Math.round(RUN_NS / perCall)), repeats: 1, warmupIterations: 1 };
  return () => timeJsLoop(plan, call).median;
}

function cpuModel(): string {
  return os.cpus()[0]?.model.trim() ?? 'unknown CPU';
}

export function runFrameBench(options: FrameBenchOptions): FrameBenchResult {
  const counts = options.spaceCounts ?? FRAME_BENCH_SPACE_COUNTS;
  const locatesPerRun = options.locatesPerRun ?? 40_000;
  const repeats = options.repeats ?? 21;
  const runs = (options.apiVersions ?? ['1.0', '1.1']).map((v) => runVersion(options, v, counts, locatesPerRun, repeats));
  return {
    runtime: options.runtime,
    date: new Date().toISOString(),
    machine: { cpu: cpuModel(), cores: os.cpus().length, os: `${os.platform()} ${os.release()}` },
    node: process.version,
    locatesPerRun,
    repeats,
    runs,
  };
}

/** How many times cheaper the query is than N separate locate calls (the median over the rounds). */
export function separateOverQuery(row: FrameBenchRow): number {
  return row.roundRatios.separateOverQuery;
}

/** The query against the same work in C plus the one N-API crossing it cannot avoid (the median over the rounds). */
export function queryOverFloor(row: FrameBenchRow): number {
  return row.roundRatios.queryOverFloor;
}

/** The frame query targets at 16 spaces (docs/performance.md), one line per API version: "- text: value — met / NOT met". */
export function frameTargets(result: FrameBenchResult): string[] {
  const lines: string[] = [];
  for (const run of result.runs) {
    const row = run.rows.find((r) => r.spaces === 16);
    const where = `${result.runtime.label}, OpenXR ${run.apiVersion} (${run.locatePath})`;
    if (!row) {
      lines.push(`- frame query target, 16 spaces, ${where}: not measured`);
      continue;
    }
    const speedup = separateOverQuery(row);
    const floor = queryOverFloor(row);
    lines.push(
      `- frame query target, 16 spaces, ${where}: frame query ≥ 8× cheaper than 16 space.locate: ${speedup.toFixed(2)}× — ${speedup >= 8 ? 'met' : 'NOT met'}`,
      `- frame query target, 16 spaces, ${where}: frame query ≤ 1.3× (C + one empty N-API call): ${floor.toFixed(2)}× — ${floor <= 1.3 ? 'met' : 'NOT met'}`,
    );
  }
  return lines;
}

export interface FrameReportOptions {
  /** Markdown heading level of the title (default 2). */
  readonly headingLevel?: number;
  readonly title?: string;
  /** Leave out the date, machine and Node lines (a report that states them once). */
  readonly omitRunInfo?: boolean;
}

export function formatFrameBenchMarkdown(result: FrameBenchResult, options: FrameReportOptions = {}): string {
  const h = '#'.repeat(options.headingLevel ?? 2);
  const lines = [
    `${h} ${options.title ?? `Frame queries: N spaces located per frame on the ${result.runtime.label}`}`,
    '',
    '- measured: ns per frame to locate N reference spaces in LOCAL at one time: N `space.locate` calls from JavaScript, one ' +
      '`query.run` of a frame query (session.createFrameQuery) from JavaScript, and the query\'s native work in C through this ' +
      'loader\'s dispatch table (a loop of xrLocateSpace; on an OpenXR 1.1 instance one xrLocateSpaces), with the same handles.',
    `- method: per cell a warm-up of ${result.locatesPerRun.toLocaleString('en-US')} located spaces (${result.locatesPerRun.toLocaleString('en-US')} ÷ N frames), then ${result.repeats} rounds, each a timed run of about ${RUN_NS / 1000} µs (as many frames as the warm-up says fit) of every cell of the row in turn, the empty call's included, in JavaScript and in C alike; a cell is the median of its runs, ± half the interquartile range as a percentage of it; a ratio is the median over the rounds of that round's ratio (a slow spell of the machine slows a round's runs alike); all in one process. Short runs, many of them: on a shared machine most go unpreempted, whatever a frame costs.`,
    `- runtime: ${result.runtime.label} (${shownPath(result.runtime.manifestPath)}); no API layers.`,
    `- yardstick: an empty N-API call taking two numbers costs ${result.runs.map((r) => `${formatSummary(r.emptyNapiCall)} (the ${r.apiVersion} rows, timed in each round beside the cells)`).join(', ')} from JavaScript.`,
    '- "separate ÷ query": how many times cheaper the query is; "query ÷ (C + empty)": the query against its work in C plus one N-API crossing (1.00 = no overhead beyond the crossing).',
    ...(options.omitRunInfo ? [] : [`- machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.os}; Node ${result.node}; ${result.date}.`]),
    '',
  ];
  const rows = result.runs.flatMap((run) =>
    run.rows.map((row) => [
      `${run.apiVersion} (${run.locatePath})`,
      String(row.spaces),
      formatSummary(row.separateJs),
      formatSummary(row.queryJs),
      formatSummary(row.nativeC),
      formatSummary(row.nativeLoopC),
      `${separateOverQuery(row).toFixed(2)}×`,
      `${queryOverFloor(row).toFixed(2)}×`,
    ]),
  );
  lines.push(
    markdownTable(
      ['OpenXR instance (query path)', 'spaces', 'N × space.locate (JS)', 'frame query (JS)', 'C: the query\'s work', 'C: N × xrLocateSpace', 'separate ÷ query', 'query ÷ (C + empty)'],
      rows,
      2,
    ),
    '',
  );
  return lines.join('\n');
}
