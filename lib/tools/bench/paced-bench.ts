// `khronos-loader bench openxr --command paced` (docs/performance.md, 'OpenXR: the paced frame'):
// what a frame's reads cost the JavaScript thread inside a paced runFrameLoop, where the thread
// sleeps a display period between frames and wakes with cold caches — not in a hot loop. Per
// frame (median and p99 over the frames of one loop per row, each read bracketed by
// performance.now()): the first space.locate of the frame, 16 separate space.locate calls, one
// frame query of 16 spaces, the views and 4 action states run in onFrame, the views alone, 4
// action-state reads, and the same query run by the session's wait thread before onFrame (what
// onFrame then spends reading it, and a copy of its floats as large as the one made at delivery).
import os from 'node:os';
import { createHostPlatform } from '../../core/platform/host.js';
import { runFrameLoop, describeFrameLoopMode, type FrameLoopOptions } from '../../openxr/api/frame-loop.js';
import type { FrameQuery } from '../../openxr/api/frame-query.js';
import type { Action, ActionSet } from '../../openxr/api/action.js';
import type { Instance } from '../../openxr/api/instance.js';
import type { Session } from '../../openxr/api/session.js';
import type { Space } from '../../openxr/api/space.js';
import { POSE_FLOATS, VIEW_FLOATS } from '../../openxr/api/types.js';
import { nativeRuntimeExtensions } from '../../openxr/native/plan.js';
import { createLoader } from '../../openxr/loader.js';
import { markdownTable } from './markdown-table.js';
import { shownPath } from './report.js';

export const PACED_SPACES = 16;
const REFERENCE_TYPES = ['view', 'stage', 'local'] as const;

export interface PacedBenchOptions {
  readonly runtime: { readonly manifestPath: string; readonly label: string };
  /** ms each row's loop runs (default 3000: 270 frames at 90 Hz). */
  readonly durationMs?: number;
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly onProgress?: (line: string) => void;
}

export interface PacedRow {
  readonly read: string;
  /** Frames timed (onFrame calls). */
  readonly frames: number;
  /** ns of JavaScript-thread time per frame. */
  readonly medianNs: number;
  readonly p99Ns: number;
  /** With a wait-thread query: the frames whose query the wait thread ran, and those the loop ran on the JavaScript thread (no display time from the runtime). */
  readonly frameQueryRuns?: { readonly waitThread: number; readonly javaScriptThread: number };
}

export interface PacedBenchResult {
  readonly runtime: { readonly manifestPath: string; readonly label: string };
  readonly date: string;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly load: readonly number[]; readonly os: string };
  readonly node: string;
  readonly durationMs: number;
  /** How the loop ran (describeFrameLoopMode). */
  readonly mode: string;
  /** Why the action rows are missing, when they are (a runtime without input). */
  readonly actionsSkipped?: string;
  readonly rows: readonly PacedRow[];
}

/** ns: the median and the 99th percentile of `samples` (ms from performance.now()). */
function percentiles(samples: readonly number[]): { medianNs: number; p99Ns: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q + 0.5))] ?? Number.NaN) * 1e6;
  return { medianNs: at(0.5), p99Ns: at(0.99) };
}

interface Rig {
  readonly instance: Instance;
  readonly session: Session;
  readonly local: Space;
  readonly spaces: readonly Space[];
  readonly actions: readonly { readonly action: Action; readonly subactionPath: string }[];
  readonly set: ActionSet | undefined;
  readonly actionsSkipped?: string;
}

function createRig(options: PacedBenchOptions): Rig {
  const env = { ...(options.baseEnv ?? process.env), XR_RUNTIME_JSON: options.runtime.manifestPath };
  const loader = createLoader({ platform: createHostPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions, logWriter: (text) => process.stderr.write(text) });
  // XR_KHR_convert_timespec_time comes along where the runtime offers it (createInstance).
  const instance = loader.createInstance({ applicationName: 'khronos-loader bench paced', enabledExtensionNames: ['XR_MND_headless'] });
  const hands = ['/user/hand/left', '/user/hand/right'];
  let set: ActionSet | undefined;
  let actions: { action: Action; subactionPath: string }[] = [];
  let actionsSkipped: string | undefined;
  try {
    set = instance.createActionSet({ name: 'paced', localizedName: 'Paced' });
    const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean', subactionPaths: hands });
    const trigger = set.createAction({ name: 'trigger', localizedName: 'Trigger', type: 'float', subactionPaths: hands });
    instance.suggestBindings('/interaction_profiles/khr/simple_controller', [
      { action: select, path: '/user/hand/left/input/select/click' },
      { action: select, path: '/user/hand/right/input/select/click' },
      { action: trigger, path: '/user/hand/left/input/select/click' },
      { action: trigger, path: '/user/hand/right/input/select/click' },
    ]);
    actions = [
      { action: select, subactionPath: hands[0]! },
      { action: select, subactionPath: hands[1]! },
      { action: trigger, subactionPath: hands[0]! },
      { action: trigger, subactionPath: hands[1]! },
    ];
  } catch (error) {
    actionsSkipped = `actions unavailable on this runtime: ${error instanceof Error ? error.message : String(error)}`;
    set = undefined;
    actions = [];
  }
  const session = instance.createSession(instance.getSystem(), { headless: true });
  if (set !== undefined) session.attachActionSets([set]);
  const local = session.createReferenceSpace('local');
  const spaces = Array.from({ length: PACED_SPACES }, (_, i) =>
    session.createReferenceSpace(REFERENCE_TYPES[i % REFERENCE_TYPES.length] as (typeof REFERENCE_TYPES)[number], [0.01 * i, 0, -0.01 * i, 0, 0, 0, 1]),
  );
  return { instance, session, local, spaces, actions, set, ...(actionsSkipped === undefined ? {} : { actionsSkipped }) };
}

/** One paced loop on a fresh session (the session ends when the loop does); `measure` runs in onFrame and returns its ms. */
async function timedLoop(
  options: PacedBenchOptions,
  label: string,
  setup: (rig: Rig) => { measure: (time: bigint) => number; loop?: Partial<FrameLoopOptions> },
): Promise<{ row: PacedRow; mode: string; actionsSkipped: string | undefined }> {
  options.onProgress?.(`paced, ${label}`);
  const rig = createRig(options);
  try {
    const { measure, loop } = setup(rig);
    const samples: number[] = [];
    const stats = await runFrameLoop(rig.session, {
      durationMs: options.durationMs ?? 3000,
      ...loop,
      onFrame: (frame) => void samples.push(measure(frame.predictedDisplayTime)),
    });
    // The first frames run before the loop settles: leave out the first 10.
    const kept = samples.length > 20 ? samples.slice(10) : samples;
    const runs = stats.frameQueryRuns === undefined ? {} : { frameQueryRuns: stats.frameQueryRuns };
    return { row: { read: label, frames: kept.length, ...percentiles(kept), ...runs }, mode: describeFrameLoopMode(stats.mode), actionsSkipped: rig.actionsSkipped };
  } finally {
    rig.instance.destroy();
  }
}

export async function runPacedBench(options: PacedBenchOptions): Promise<PacedBenchResult> {
  const rows: PacedRow[] = [];
  let mode = '';
  let actionsSkipped: string | undefined;
  const add = (r: { row: PacedRow; mode: string; actionsSkipped: string | undefined }): void => {
    rows.push(r.row);
    mode = r.mode;
    actionsSkipped ??= r.actionsSkipped;
  };
  const pose = new Float32Array(POSE_FLOATS);
  add(
    await timedLoop(options, 'first space.locate of the frame', ({ spaces, local }) => ({
      measure: (time) => {
        const t0 = performance.now();
        (spaces[0] as Space).locate(local, time, pose);
        return performance.now() - t0;
      },
    })),
  );
  const outs = Array.from({ length: PACED_SPACES }, () => new Float32Array(POSE_FLOATS));
  add(
    await timedLoop(options, `${PACED_SPACES} separate space.locate`, ({ spaces, local }) => ({
      measure: (time) => {
        const t0 = performance.now();
        for (let i = 0; i < PACED_SPACES; i++) (spaces[i] as Space).locate(local, time, outs[i] as Float32Array);
        return performance.now() - t0;
      },
    })),
  );
  const queryOf = (rig: Rig): FrameQuery =>
    rig.session.createFrameQuery({ spaces: rig.spaces.map((s) => [s, rig.local] as const), views: { space: rig.local }, actions: rig.actions, locateWith: 'xrLocateSpace' });
  const what = (rig: Rig): string => `${PACED_SPACES} spaces, the views${rig.actions.length > 0 ? ', 4 action states' : ''}`;
  let queryLabel = '';
  add(
    await timedLoop(options, 'one frame query, run in onFrame', (rig) => {
      const query = queryOf(rig);
      queryLabel = what(rig);
      return {
        measure: (time) => {
          const t0 = performance.now();
          query.run(time);
          return performance.now() - t0;
        },
      };
    }),
  );
  add(
    await timedLoop(options, 'the views (session.locateViews)', ({ session, local }) => {
      const views = new Float32Array(session.viewCount() * VIEW_FLOATS);
      return {
        measure: (time) => {
          const t0 = performance.now();
          session.locateViews(local, time, views);
          return performance.now() - t0;
        },
      };
    }),
  );
  if (actionsSkipped === undefined) {
    add(
      await timedLoop(options, '4 action states (getBoolean, getFloat)', ({ actions, session }) => ({
        measure: () => {
          const t0 = performance.now();
          let v = 0;
          for (let i = 0; i < actions.length; i++) {
            const a = actions[i]!;
            v += a.action.type === 'boolean' ? Number(a.action.getBoolean(a.subactionPath, session).currentState) : a.action.getFloat(a.subactionPath, session).currentState;
          }
          const dt = performance.now() - t0;
          return v < 0 ? -dt : dt;
        },
      })),
    );
  }
  // The wait thread's query: onFrame reads what it needs from query.out (the 16 positions' y, the
  // views' first float, the actions' values), nothing more.
  add(
    await timedLoop(options, 'the same query on the wait thread: onFrame reads its floats', (rig) => {
      const query = queryOf(rig);
      const offsets = [...rig.spaces.map((_, i) => query.spaceOffset(i) + 1), query.viewOffset(0), ...rig.actions.map((_, i) => query.actionOffset(i))];
      const sync = rig.set === undefined ? {} : { syncActions: [rig.set] };
      return {
        loop: { frameQuery: query, ...sync },
        measure: () => {
          const t0 = performance.now();
          const out = query.out;
          let sum = 0;
          for (let i = 0; i < offsets.length; i++) sum += out[offsets[i] as number] as number;
          const dt = performance.now() - t0;
          return Number.isNaN(sum) ? -dt : dt;
        },
      };
    }),
  );
  // The delivery's copy (native memcpy of layout.length floats before the promise resolves) is not
  // inside onFrame: a JavaScript copy of as many floats, cold at the same point of the frame, bounds it.
  add(
    await timedLoop(options, 'the same query on the wait thread: a copy of its floats (bounds the delivery copy)', (rig) => {
      const query = queryOf(rig);
      const scratch = new Float32Array(query.length);
      const sync = rig.set === undefined ? {} : { syncActions: [rig.set] };
      return {
        loop: { frameQuery: query, ...sync },
        measure: () => {
          const t0 = performance.now();
          scratch.set(query.out);
          return performance.now() - t0;
        },
      };
    }),
  );
  rows[2] = { ...rows[2]!, read: `one frame query (${queryLabel}), run in onFrame` };
  return {
    runtime: options.runtime,
    date: new Date().toISOString(),
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, load: os.loadavg().map((l) => Number(l.toFixed(1))), os: `${os.platform()} ${os.release()}` },
    node: process.version,
    durationMs: options.durationMs ?? 3000,
    mode,
    ...(actionsSkipped === undefined ? {} : { actionsSkipped }),
    rows,
  };
}

const us = (ns: number): string => (ns / 1000).toFixed(2);

/** The verdicts of the wait-thread target: ≤ 1 µs median, ≥ 5× below the query in onFrame. */
export function pacedTargets(result: PacedBenchResult): string[] {
  const inFrame = result.rows.find((r) => r.read.startsWith('one frame query'));
  const read = result.rows.find((r) => r.read.includes('onFrame reads its floats'));
  const copy = result.rows.find((r) => r.read.includes('a copy of its floats'));
  if (inFrame === undefined || read === undefined || copy === undefined) return [];
  if (read.frameQueryRuns !== undefined && read.frameQueryRuns.waitThread === 0) {
    return [`target: not judged on ${result.runtime.label}: its xrWaitFrame gives no display time, so the loop, not the wait thread, ran the query (on the JavaScript thread, before onFrame)`];
  }
  const waitThread = read.medianNs + copy.medianNs;
  const ratio = inFrame.medianNs / waitThread;
  return [
    `target: JavaScript-thread time of the wait thread's query (reads + copy bound) ${us(waitThread)} µs median: ${waitThread <= 1000 ? 'met' : 'missed'} (≤ 1 µs on the test runtime)`,
    `target: ${ratio.toFixed(1)}× below the same query run in onFrame: ${ratio >= 5 ? 'met' : 'missed'} (≥ 5×)`,
    'target: ≥ 10× below the koffi + Khronos loader loop: not measured by this command (no koffi side yet)',
  ];
}

export function formatPacedBenchMarkdown(result: PacedBenchResult): string {
  const lines = [
    `### Paced frame loop: ${result.runtime.label}`,
    '',
    `- runtime: ${result.runtime.label} (${shownPath(result.runtime.manifestPath)}); ${result.mode}`,
    `- machine: ${result.machine.cpu}, ${result.machine.cores} cores, load ${result.machine.load.join(' ')} (shared with other work), ${result.machine.os}; Node ${result.node}; ${result.date}`,
    `- one runFrameLoop of ${result.durationMs} ms per row, the first 10 frames left out; JavaScript-thread time per frame, performance.now() around the reads (a pair costs about 0.25 µs)`,
    ...(result.actionsSkipped === undefined ? [] : [`- ${result.actionsSkipped}`]),
    '',
    markdownTable(
      ['read, per paced frame', 'frames', 'median µs', 'p99 µs'],
      result.rows.map((r) => [
        r.frameQueryRuns === undefined ? r.read : `${r.read} (queried by the wait thread ${r.frameQueryRuns.waitThread}, by the loop on the JavaScript thread ${r.frameQueryRuns.javaScriptThread} frames)`,
        String(r.frames),
        us(r.medianNs),
        us(r.p99Ns),
      ]),
    ),
  ];
  return lines.join('\n');
}
