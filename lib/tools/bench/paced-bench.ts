// `khronos-loader bench openxr --command paced` (docs/performance.md, 'OpenXR: the paced frame'):
// what a frame's reads cost the JavaScript thread inside a paced runFrameLoop, where the thread
// sleeps a display period between frames and wakes with cold caches — not in a hot loop. Per
// frame (median and p99 over the frames of one loop per row, each read bracketed by
// performance.now()): the first space.locate of the frame, 16 separate space.locate calls, one
// frame query of 16 spaces, the views and 4 action states run in onFrame, the views alone, 4
// action-state reads, and the same query run by the session's wait thread before onFrame (what
// onFrame then spends reading it, and a copy of its floats as large as the one made at delivery).
// Beside them: an empty bracket and a read of a tiny buffer, cold at the same point of the frame
// (what waking costs by itself); a C loop making the same reads at the same pacing through this
// loader (native/tools/bench/openxr_paced_bench.cc); the same reads through the Khronos loader
// with koffi (paced-koffi.ts).
import os from 'node:os';
import { createHostPlatform } from '../../core/platform/host.js';
import { runFrameLoop, describeFrameLoopMode, type FrameLoopOptions } from '../../openxr/api/frame-loop.js';
import type { FrameQuery } from '../../openxr/api/frame-query.js';
import type { Action, ActionSet } from '../../openxr/api/action.js';
import type { Instance } from '../../openxr/api/instance.js';
import type { Session } from '../../openxr/api/session.js';
import type { Space } from '../../openxr/api/space.js';
import { POSE_FLOATS, VIEW_FLOATS } from '../../openxr/api/types.js';
import { FRAME_ACTION_FLOATS, FRAME_SPACE_FLOATS } from '../../openxr/api/frame-query.js';
import { nativeRuntimeExtensions } from '../../openxr/native/plan.js';
import { createLoader } from '../../openxr/loader.js';
import { markdownTable } from './markdown-table.js';
import { loadToolsAddon, type NativeOpenXrPacedRig, type NativePacedRead } from '../native/addon.js';
import { nativeInstanceOf } from '../../openxr/api/instance.js';
import { loadKoffi } from './koffi-side.js';
import { koffiPacedLoop, type KoffiPacedModule, type KoffiPacedRead } from './paced-koffi.js';
import { shownPath } from './report.js';

export const PACED_SPACES = 16;
/** Calls that make V8 optimize a reading function before its loop (the rows marked OPTIMIZED). */
const WARM_CALLS = 100_000;
/** The label suffix of the rows whose reading function was optimized before the loop. */
export const OPTIMIZED = ', the reading function optimized first';
const REFERENCE_TYPES = ['view', 'stage', 'local'] as const;
/** The yardstick row of "onFrame reads its floats": the same reads from a plain Float32Array, not optimized. */
export const PLAIN_READS_LABEL = "yardstick: the same reads from a plain Float32Array no loader touched (the wait thread's query delivered in the same loop), not optimized";

export interface PacedBenchOptions {
  readonly runtime: { readonly manifestPath: string; readonly label: string };
  /** ms each row's loop runs (default 3000: 270 frames at 90 Hz). */
  readonly durationMs?: number;
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly onProgress?: (line: string) => void;
  /** The Khronos OpenXR loader for the koffi side (libopenxr_loader.so.1); without it the koffi rows say why they are missing. */
  readonly khronosLoader?: string;
}

/** Which loop a row comes from: runFrameLoop in JavaScript, the C loop through this loader, koffi through the Khronos loader. */
export type PacedSide = 'javascript' | 'c' | 'koffi';

export interface PacedRow {
  readonly read: string;
  readonly side: PacedSide;
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
  /** Why the C or koffi rows are missing, when they are. */
  readonly sidesSkipped: readonly string[];
}

/** ns: the median and the 99th percentile of `samples` (in ms, as performance.now() gives them; `scale` 1e6 → ns). */
function percentiles(samples: ArrayLike<number>, scale = 1e6): { medianNs: number; p99Ns: number } {
  const sorted = Array.from(samples).sort((a, b) => a - b);
  const at = (q: number): number => (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q + 0.5))] ?? Number.NaN) * scale;
  return { medianNs: at(0.5), p99Ns: at(0.99) };
}

/** Samples of one loop, the first 10 frames left out (as the JavaScript rows). */
function settled<T>(samples: readonly T[]): readonly T[] {
  return samples.length > 20 ? samples.slice(10) : samples;
}

/** The C loop's reads, labelled as the JavaScript rows they match. */
const C_READS: readonly (readonly [NativePacedRead, string])[] = [
  ['empty', 'an empty bracket (two clock reads)'],
  ['tiny-read', 'a read of a tiny buffer (4 floats)'],
  ['floats-read', "a read of the frame query's floats, written before the sleep"],
  ['delivery-copy', "the delivery's copy alone: the frame query's floats, written by another thread after xrWaitFrame, copied back to front (memcpy)"],
  ['first-locate', 'first xrLocateSpace of the frame'],
  ['locates', `${PACED_SPACES} xrLocateSpace`],
  ['query', `the frame query's reads (${PACED_SPACES} spaces, the views, 4 action states)`],
  ['views', 'the views (xrLocateViews)'],
  ['actions', '4 action states (xrGetActionStateBoolean, xrGetActionStateFloat)'],
];
const KOFFI_READS: readonly (readonly [KoffiPacedRead, string])[] = [
  ['first-locate', 'first xrLocateSpace of the frame'],
  ['locates', `${PACED_SPACES} xrLocateSpace`],
  ['query', `the frame query's reads (${PACED_SPACES} spaces, the views, 4 action states)`],
];

/** XR_RUNTIME_JSON for a loader library's xrCreateInstance in this process, restored after `run`. */
async function withRuntimeEnv<T>(manifestPath: string, run: () => Promise<T>): Promise<T> {
  const before = process.env.XR_RUNTIME_JSON;
  process.env.XR_RUNTIME_JSON = manifestPath;
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.XR_RUNTIME_JSON;
    else process.env.XR_RUNTIME_JSON = before;
  }
}

/**
 * The floats of the paced rows' frame query (PACED_SPACES spaces, the two views, `actions` action
 * states), as createFrameQuery lays them out: what the session's delivery copies each frame.
 */
export function pacedQueryFloats(actions: number, views = 2): number {
  return PACED_SPACES * FRAME_SPACE_FLOATS + 1 + views * VIEW_FLOATS + actions * FRAME_ACTION_FLOATS;
}

/** The C rows: one paced C loop per read on a fresh rig on this loader's instance. */
function cRows(options: PacedBenchOptions, skipped: string[]): PacedRow[] {
  const rows: PacedRow[] = [];
  for (const [what, label] of C_READS) {
    options.onProgress?.(`paced, C loop: ${label}`);
    const env = { ...(options.baseEnv ?? process.env), XR_RUNTIME_JSON: options.runtime.manifestPath };
    const loader = createLoader({ platform: createHostPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions, logWriter: (text) => process.stderr.write(text) });
    const instance = loader.createInstance({ applicationName: 'khronos-loader bench paced C', enabledExtensionNames: ['XR_MND_headless'] });
    let rig: NativeOpenXrPacedRig | undefined;
    try {
      rig = new (loadToolsAddon().OpenXrPacedRig)({ instance: nativeInstanceOf(instance), spaces: PACED_SPACES });
      if (what === 'actions' && rig.handles.actions.length === 0) {
        skipped.push(`C loop, ${label}: ${rig.handles.actionsSkipped ?? 'no actions'}`);
        continue;
      }
      const kept = settled(Array.from(rig.run(what, options.durationMs ?? 3000, pacedQueryFloats(rig.handles.actions.length))));
      rows.push({ read: `C loop: ${label}`, side: 'c', frames: kept.length, ...percentiles(kept, 1) });
    } catch (error) {
      skipped.push(`C loop, ${label}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      rig?.destroy();
      instance.destroy();
    }
  }
  return rows;
}

/** The koffi rows: one paced koffi loop per read on a rig on the Khronos loader. */
async function koffiRows(options: PacedBenchOptions, skipped: string[]): Promise<PacedRow[]> {
  if (options.khronosLoader === undefined) {
    skipped.push('koffi + Khronos loader: no Khronos OpenXR loader found (KHRONOS_LOADER_XR_KHRONOS_1_1_61 or a distribution package)');
    return [];
  }
  const koffi = await loadKoffi();
  if ('unavailable' in koffi) {
    skipped.push(`koffi + Khronos loader: ${koffi.unavailable}`);
    return [];
  }
  const library = options.khronosLoader;
  const rows: PacedRow[] = [];
  for (const [what, label] of KOFFI_READS) {
    options.onProgress?.(`paced, koffi + Khronos loader: ${label}`);
    await withRuntimeEnv(options.runtime.manifestPath, async () => {
      let rig: NativeOpenXrPacedRig | undefined;
      try {
        rig = new (loadToolsAddon().OpenXrPacedRig)({ loaderLibrary: library, spaces: PACED_SPACES });
        const kept = settled(await koffiPacedLoop(koffi as unknown as KoffiPacedModule, library, rig, what, options.durationMs ?? 3000));
        rows.push({ read: `koffi + Khronos loader: ${label}`, side: 'koffi', frames: kept.length, ...percentiles(kept) });
      } catch (error) {
        skipped.push(`koffi + Khronos loader, ${label}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        rig?.destroy();
      }
    });
  }
  return rows;
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
  setup: (rig: Rig) => { measure: (time: bigint) => number; loop?: Partial<FrameLoopOptions>; warm?: boolean },
): Promise<{ row: PacedRow; mode: string; actionsSkipped: string | undefined }> {
  options.onProgress?.(`paced, ${label}`);
  const rig = createRig(options);
  try {
    const { measure, loop, warm } = setup(rig);
    // As after minutes of frames: V8 optimizes a function called 90 times a second only late.
    if (warm === true) for (let i = 0; i < WARM_CALLS; i++) measure(0n);
    const samples: number[] = [];
    const stats = await runFrameLoop(rig.session, {
      durationMs: options.durationMs ?? 3000,
      ...loop,
      onFrame: (frame) => void samples.push(measure(frame.predictedDisplayTime)),
    });
    // The first frames run before the loop settles: leave out the first 10.
    const kept = samples.length > 20 ? samples.slice(10) : samples;
    const runs = stats.frameQueryRuns === undefined ? {} : { frameQueryRuns: stats.frameQueryRuns };
    return { row: { read: label, side: 'javascript', frames: kept.length, ...percentiles(kept), ...runs }, mode: describeFrameLoopMode(stats.mode), actionsSkipped: rig.actionsSkipped };
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
  // What waking costs by itself, at the same point of a cold frame: nothing between the two
  // clock reads, and one read of a 4-float buffer.
  add(
    await timedLoop(options, 'an empty bracket (performance.now() pair)', () => ({
      measure: () => {
        const t0 = performance.now();
        return performance.now() - t0;
      },
    })),
  );
  for (const warm of [false, true]) {
    const tiny = new Float32Array(4).fill(1);
    add(
      await timedLoop(options, `a read of a tiny buffer (4 floats)${warm ? OPTIMIZED : ''}`, () => ({
        warm,
        measure: () => {
          const t0 = performance.now();
          const sum = (tiny[0] as number) + (tiny[1] as number) + (tiny[2] as number) + (tiny[3] as number);
          const dt = performance.now() - t0;
          return Number.isNaN(sum) ? -dt : dt;
        },
      })),
    );
  }
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
  for (const warm of [false, true]) {
    add(
      await timedLoop(options, `the same query on the wait thread: onFrame reads its floats${warm ? OPTIMIZED : ''}`, (rig) => {
        const query = queryOf(rig);
        const offsets = [...rig.spaces.map((_, i) => query.spaceOffset(i) + 1), query.viewOffset(0), ...rig.actions.map((_, i) => query.actionOffset(i))];
        const sync = rig.set === undefined ? {} : { syncActions: [rig.set] };
        return {
          loop: { frameQuery: query, ...sync },
          warm,
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
    if (!warm) {
      // The yardstick: the same reads (the same offsets, as many floats) from a plain Float32Array no
      // loader touched, in the same paced loop with the same query delivered, by a function of its own
      // that V8 has not optimized. What "onFrame reads its floats" costs above this row is the
      // loader's (its query.out getter, the floats its delivery copied); the rest is V8's interpreter.
      add(
        await timedLoop(options, PLAIN_READS_LABEL, (rig) => {
          const query = queryOf(rig);
          const offsets = [...rig.spaces.map((_, i) => query.spaceOffset(i) + 1), query.viewOffset(0), ...rig.actions.map((_, i) => query.actionOffset(i))];
          const plain = new Float32Array(query.length).fill(0.5);
          const sync = rig.set === undefined ? {} : { syncActions: [rig.set] };
          return {
            loop: { frameQuery: query, ...sync },
            measure: () => {
              const t0 = performance.now();
              let sum = 0;
              for (let i = 0; i < offsets.length; i++) sum += plain[offsets[i] as number] as number;
              const dt = performance.now() - t0;
              return Number.isNaN(sum) ? -dt : dt;
            },
          };
        }),
      );
    }
    // The delivery's copy (native memcpy of layout.length floats before the promise resolves) is not
    // inside onFrame: a JavaScript copy of as many floats, cold at the same point of the frame, bounds it.
    add(
      await timedLoop(options, `the same query on the wait thread: a copy of its floats (bounds the delivery copy)${warm ? OPTIMIZED : ''}`, (rig) => {
        const query = queryOf(rig);
        const scratch = new Float32Array(query.length);
        const sync = rig.set === undefined ? {} : { syncActions: [rig.set] };
        return {
          loop: { frameQuery: query, ...sync },
          warm,
          measure: () => {
            const t0 = performance.now();
            scratch.set(query.out);
            return performance.now() - t0;
          },
        };
      }),
    );
  }
  const queryRow = rows.findIndex((r) => r.read === 'one frame query, run in onFrame');
  rows[queryRow] = { ...rows[queryRow]!, read: `one frame query (${queryLabel}), run in onFrame` };
  const sidesSkipped: string[] = [];
  rows.push(...cRows(options, sidesSkipped));
  rows.push(...(await koffiRows(options, sidesSkipped)));
  return {
    runtime: options.runtime,
    date: new Date().toISOString(),
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, load: os.loadavg().map((l) => Number(l.toFixed(1))), os: `${os.platform()} ${os.release()}` },
    node: process.version,
    durationMs: options.durationMs ?? 3000,
    mode,
    ...(actionsSkipped === undefined ? {} : { actionsSkipped }),
    rows,
    sidesSkipped,
  };
}

const us = (ns: number): string => (ns / 1000).toFixed(2);

/**
 * The verdicts: what the wait thread's "onFrame reads its floats" is made of (an empty bracket and
 * a tiny buffer cold at the same point, the C loop's read after the same sleep), then the targets of
 * the wait thread's query: ≤ 1 µs median (on the test runtime), ≥ 5× below the query in onFrame,
 * ≥ 10× below the koffi + Khronos loader loop.
 */
export function pacedTargets(result: PacedBenchResult): string[] {
  const row = (side: PacedSide, text: string, optimized = false): PacedRow | undefined =>
    result.rows.find((r) => r.side === side && r.read.includes(text) && r.read.endsWith(OPTIMIZED) === optimized);
  const inFrame = row('javascript', 'one frame query');
  const read = row('javascript', 'onFrame reads its floats');
  const copy = row('javascript', 'a copy of its floats');
  const empty = row('javascript', 'an empty bracket');
  const tiny = row('javascript', 'a read of a tiny buffer');
  const tinyHot = row('javascript', 'a read of a tiny buffer', true);
  const readHot = row('javascript', 'onFrame reads its floats', true);
  const copyHot = row('javascript', 'a copy of its floats', true);
  const lines: string[] = [];
  if (read !== undefined && empty !== undefined && tiny !== undefined && tinyHot !== undefined && readHot !== undefined) {
    const c = [row('c', 'an empty bracket'), row('c', 'a read of a tiny buffer'), row('c', "the frame query's floats")];
    const inC = c.every((r) => r !== undefined) ? `; in the C loop after the same sleep: ${c.map((r) => us(r!.medianNs)).join(', ')} µs` : '';
    lines.push(
      `what "onFrame reads its floats" is: in the same cold onFrame an empty bracket costs ${us(empty.medianNs)} µs, a tiny buffer ${us(tiny.medianNs)} µs, ` +
        `the query's floats ${us(read.medianNs)} µs median; with the reading function optimized first ${us(tinyHot.medianNs)} and ${us(readHot.medianNs)} µs${inC}. ` +
        (readHot.medianNs * 2 <= read.medianNs
          ? 'Most of it is a reading function V8 has not optimized yet (called 90 times a second, it runs unoptimized for a long while), not the memory'
          : 'Optimizing the reading function does not remove it: it is what the first touches after the sleep cost'),
    );
  }
  const plain = row('javascript', 'yardstick: the same reads from a plain Float32Array');
  if (read !== undefined && plain !== undefined) {
    const loaderPart = read.medianNs - plain.medianNs;
    lines.push(
      `the loader's part of "onFrame reads its floats", not optimized: ${us(read.medianNs)} µs median against ${us(plain.medianNs)} µs for the same reads from a plain Float32Array ` +
        `(the yardstick): the loader adds ${us(loaderPart)} µs; ${plain.medianNs > 1000 ? `the reads alone, run by V8's interpreter, are above 1 µs, so ≤ 1 µs cannot hold before V8 optimizes the reading function` : 'the reads alone are within 1 µs'}`,
    );
  }
  if (inFrame === undefined || read === undefined || copy === undefined) return lines;
  if (read.frameQueryRuns !== undefined && read.frameQueryRuns.waitThread === 0) {
    return [...lines, `target: not judged on ${result.runtime.label}: its xrWaitFrame gives no display time, so the loop, not the wait thread, ran the query (on the JavaScript thread, before onFrame)`];
  }
  const waitThread = read.medianNs + copy.medianNs;
  const ratio = inFrame.medianNs / waitThread;
  const floor = empty === undefined ? '' : `; an empty bracket at the same point costs ${us(empty.medianNs)} µs by itself`;
  lines.push(
    `target: JavaScript-thread time of the wait thread's query (reads + copy bound) ${us(waitThread)} µs median: ${waitThread <= 1000 ? 'met' : 'missed'} (≤ 1 µs on the test runtime${floor})`,
    `target: ${ratio.toFixed(1)}× below the same query run in onFrame: ${ratio >= 5 ? 'met' : 'missed'} (≥ 5×)`,
  );
  const koffi = row('koffi', "the frame query's reads");
  if (koffi === undefined) lines.push('target: ≥ 10× below the koffi + Khronos loader loop: not measured (no koffi row: see "not measured" above)');
  else {
    const k = koffi.medianNs / waitThread;
    lines.push(`target: ${k.toFixed(1)}× below the koffi + Khronos loader loop's reads (${us(koffi.medianNs)} µs): ${k >= 10 ? 'met' : 'missed'} (≥ 10×)`);
  }
  if (readHot !== undefined && copyHot !== undefined) {
    const hot = readHot.medianNs + copyHot.medianNs;
    lines.push(
      `target, the reading functions optimized first (as after minutes of frames): reads + copy bound ${us(hot)} µs median: ${hot <= 1000 ? 'met' : 'missed'} (≤ 1 µs on the test runtime); ` +
        `${(inFrame.medianNs / hot).toFixed(1)}× below the query in onFrame${koffi === undefined ? '' : `, ${(koffi.medianNs / hot).toFixed(1)}× below the koffi loop's reads`} (both of those not optimized first)`,
      // The copy bound is a JavaScript copy of the whole query; the delivery's is a native memcpy of the same bytes.
      `the reads alone, optimized first: ${us(readHot.medianNs)} µs median: ${readHot.medianNs <= 1000 ? 'within' : 'above'} 1 µs (the copy bound, a JavaScript copy of all the query's floats, adds ${us(copyHot.medianNs)} µs: it bounds the native memcpy of the same bytes from above)`,
    );
  }
  const cCopy = row('c', "the delivery's copy alone");
  const cEmpty = row('c', 'an empty bracket');
  if (cCopy !== undefined && cEmpty !== undefined) {
    // The C clock pair is not free (two clock reads): what the copy adds is above the C loop's own empty bracket.
    const added = Math.max(0, cCopy.medianNs - cEmpty.medianNs);
    const reads = readHot ?? read;
    const total = reads.medianNs + added;
    lines.push(
      `the delivery's copy timed by itself (C, the same pacing, the floats written by another thread after xrWaitFrame): ${us(cCopy.medianNs)} µs median, p99 ${us(cCopy.p99Ns)} µs, ` +
        `an empty bracket in the same C loop ${us(cEmpty.medianNs)} µs: the copy adds ${us(added)} µs (the JavaScript copy that bounded it: ${us(copy.medianNs)} µs); ` +
        `reads${reads === readHot ? ', optimized first,' : ''} + the copy: ${us(total)} µs median: ${total <= 1000 ? 'within' : 'above'} 1 µs`,
    );
  }
  const cQuery = row('c', "the frame query's reads");
  if (cQuery !== undefined) lines.push(`beside the C loop: its reads of the same query cost ${us(cQuery.medianNs)} µs median a frame, ${(cQuery.medianNs / waitThread).toFixed(1)}× the wait thread's JavaScript-thread time`);
  return lines;
}

export function formatPacedBenchMarkdown(result: PacedBenchResult): string {
  const lines = [
    `### Paced frame loop: ${result.runtime.label}`,
    '',
    `- runtime: ${result.runtime.label} (${shownPath(result.runtime.manifestPath)}); ${result.mode}`,
    `- machine: ${result.machine.cpu}, ${result.machine.cores} cores, load ${result.machine.load.join(' ')} (shared with other work), ${result.machine.os}; Node ${result.node}; ${result.date}`,
    `- one runFrameLoop of ${result.durationMs} ms per row, the first 10 frames left out; JavaScript-thread time per frame, performance.now() around the reads (a pair costs about 0.25 µs)`,
    ...(result.actionsSkipped === undefined ? [] : [`- ${result.actionsSkipped}`]),
    '- C loop: the same reads in C through this loader at the same pacing (its own clock reads around them); koffi: through the Khronos loader from JavaScript, xrWaitFrame by koffi\'s asynchronous call',
    ...result.sidesSkipped.map((s) => `- not measured: ${s}`),
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
