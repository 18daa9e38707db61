// The per-call path against the N-API minimum: space.locate, handTracker.locate and the
// action-state reads (getBoolean, getFloat, getVector2f, getPose) timed from JavaScript beside the yardstick, an empty two-argument N-API call
// of a minimal addon written in plain C without node-addon-api (native/tools/bench/yardstick), in
// the same process and in rounds (rounds.ts), so a ratio is the median over the rounds of that
// round's ratio and a slow spell of a shared machine cancels (docs/performance.md, "The per-call
// path at the N-API minimum").
//
// What the yardstick leaves out: it calls nothing, while each read calls the runtime. Where the
// runtime's call is not trivial (the test runtime's action-state getters take a mutex and look the
// action set up; the simulated runtime computes poses and 26 joints), the ratio measures the
// runtime too. So each read's runtime call is also timed by itself, a C loop through the same
// chain with the same handles (benchOpenXrRuntimeCall), in the same rounds, and the read is judged
// by what it adds above that call: (read − runtime call) ÷ yardstick.
import type { Action } from '../../openxr/api/action.js';
import { nativeInstanceOf, type Instance } from '../../openxr/api/instance.js';
import { loadToolsAddon, loadYardstickAddon, type NativeHandleArgument, type OpenXrRuntimeCallName } from '../native/addon.js';
import { HAND_JOINT_COUNT, HAND_JOINT_STRIDE, POSE_FLOATS } from '../../openxr/api/types.js';
import { medianRoundRatio, timeInRounds, type TimedRun } from './rounds.js';
import { summarize, type Summary } from './stats.js';

/** The calls timed; each cell's `ratio` is its per-call cost ÷ the yardstick's, the median over the rounds. */
export type PerCallName =
  | 'space.locate'
  | 'space.locate (bigint time)'
  | 'handTracker.locate'
  | 'action.getBoolean'
  | 'action.getFloat'
  | 'action.getVector2f'
  | 'action.getPose';

export interface PerCallCell {
  readonly name: PerCallName;
  readonly ns: Summary;
  /** ns per call ÷ the yardstick's (the median over the rounds of the rounds' ratios). */
  readonly ratio: number;
  /** The runtime's own call by itself: a C loop of it through the same chain, same handles. */
  readonly runtime: Summary;
  /** What the read adds above the runtime's own call, ÷ the yardstick: the median over the rounds of (read − runtime) ÷ yardstick. The target is judged on this. */
  readonly pathRatio: number;
}

export interface PerCallResult {
  /** ns per empty(a, b) of the yardstick addon. */
  readonly yardstick: Summary;
  readonly cells: readonly PerCallCell[];
  /** Why a call could not be timed (e.g. the runtime has no XR_EXT_hand_tracking). */
  readonly skipped: Readonly<Partial<Record<PerCallName, string>>>;
}

/** The bound the per-call path is judged by: each call at most this many times the yardstick. */
export const PER_CALL_TARGET_RATIO = 1.5;

/** How long one timed run lasts (about): short, so that on a shared machine most runs go unpreempted. */
const RUN_NS = 250_000;

/** A cell: the read from JavaScript and its runtime call timed by itself in C. */
interface PerCallPlan {
  readonly name: PerCallName;
  readonly read: TimedRun;
  readonly runtime: TimedRun;
}

function sizedRun(warmup: number, call: () => unknown): TimedRun {
  const timeCalls = (n: number): number => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) call();
    return Number(process.hrtime.bigint() - start) / n;
  };
  const iterations = Math.max(1, Math.round(RUN_NS / timeCalls(warmup)));
  return () => timeCalls(iterations);
}

/** The runtime's own call in a C loop of about RUN_NS (sized by a first run of `warmup` calls). */
function sizedRuntimeRun(instance: Instance, warmup: number, command: OpenXrRuntimeCallName, handles: readonly [NativeHandleArgument, NativeHandleArgument], time: number): TimedRun {
  const addon = loadToolsAddon();
  const native = nativeInstanceOf(instance);
  const timed = (iterations: number) => addon.benchOpenXrRuntimeCall(native, command, handles, time, iterations);
  const iterations = Math.max(1, Math.round(RUN_NS / Math.max(timed(warmup), 0.1)));
  return () => timed(iterations);
}

/**
 * Times the per-call reads on a headless session of `instance` (VIEW in LOCAL for space.locate,
 * the left hand in LOCAL where the instance enabled XR_EXT_hand_tracking, one boolean action):
 * a warm-up of `warmup` calls per cell, then `rounds` rounds. The session is destroyed afterwards.
 */
export function measurePerCall(instance: Instance, rounds = 21, warmup = 200_000): PerCallResult {
  const empty = loadYardstickAddon().empty;
  const session = instance.createSession(instance.getSystem(), { headless: true });
  try {
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const pose = new Float32Array(POSE_FLOATS);
    // One time for every call: a new number per call would make JavaScript allocate a HeapNumber
    // for times above 2^31, and the yardstick gets the same small integers.
    const time = 1_000_000_000;
    const bigTime = 1_000_000_000n;
    const skipped: Partial<Record<PerCallName, string>> = {};
    const locateSpace = sizedRuntimeRun(instance, warmup, 'xrLocateSpace', [view.handle, local.handle], time);
    const cells: PerCallPlan[] = [
      { name: 'space.locate', read: sizedRun(warmup, () => view.locate(local, time, pose)), runtime: locateSpace },
      { name: 'space.locate (bigint time)', read: sizedRun(warmup, () => view.locate(local, bigTime, pose)), runtime: locateSpace },
    ];
    if (instance.enabledExtensionNames.includes('XR_EXT_hand_tracking')) {
      const tracker = session.createHandTracker('left');
      const joints = new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE);
      cells.push({
        name: 'handTracker.locate',
        read: sizedRun(warmup, () => tracker.locate(local, time, joints)),
        runtime: sizedRuntimeRun(instance, warmup, 'xrLocateHandJointsEXT', [tracker.handle, local.handle], time),
      });
    } else {
      skipped['handTracker.locate'] = 'the instance has no XR_EXT_hand_tracking';
    }
    // One action of each type the state reads take, each skipped alone where the runtime refuses
    // its type (the test runtime has boolean and float actions only).
    const reads = [
      ['action.getBoolean', 'boolean', (a: Action) => a.getBoolean(), 'xrGetActionStateBoolean'],
      ['action.getFloat', 'float', (a: Action) => a.getFloat(), 'xrGetActionStateFloat'],
      ['action.getVector2f', 'vector2f', (a: Action) => a.getVector2f(), 'xrGetActionStateVector2f'],
      ['action.getPose', 'pose', (a: Action) => a.getPose(), 'xrGetActionStatePose'],
    ] as const;
    try {
      const set = instance.createActionSet({ name: 'bench', localizedName: 'bench' });
      const made: [PerCallName, Action, (a: Action) => unknown, OpenXrRuntimeCallName][] = [];
      for (const [name, type, read, command] of reads) {
        try {
          made.push([name, set.createAction({ name: type, localizedName: type, type }), read, command]);
        } catch (error) {
          skipped[name] = error instanceof Error ? error.message : String(error);
        }
      }
      session.attachActionSets([set]);
      // Every reader bound before any warm-up: binding one (its first read) after another type's
      // getter was optimized sends that getter back to slower code for a while (V8 finds no type
      // feedback for the binding path, which ran before its feedback was recorded), a one-time
      // cost at an application's start that the per-call figure is not about.
      for (const [, action, read] of made) read(action);
      for (const [name, action, read, command] of made) {
        cells.push({
          name,
          read: sizedRun(warmup, () => read(action)),
          runtime: sizedRuntimeRun(instance, warmup, command, [session.handle, action.handle], time),
        });
      }
    } catch (error) {
      // A runtime without actions at all.
      for (const [name] of reads) skipped[name] ??= error instanceof Error ? error.message : String(error);
    }
    const emptyRun = sizedRun(warmup, () => empty(time, 1));
    // Each round: the yardstick, then every read beside its runtime call.
    const [emptyRuns, ...runs] = timeInRounds(rounds, [emptyRun, ...cells.flatMap((c) => [c.read, c.runtime])]);
    const yardstick = emptyRuns!;
    return {
      yardstick: summarize(yardstick),
      cells: cells.map(({ name }, i) => {
        const read = runs[2 * i]!;
        const runtime = runs[2 * i + 1]!;
        return {
          name,
          ns: summarize(read),
          ratio: medianRoundRatio(read, yardstick),
          runtime: summarize(runtime),
          pathRatio: medianRoundRatio(
            read.map((ns, r) => ns - runtime[r]!),
            yardstick,
          ),
        };
      }),
      skipped,
    };
  } finally {
    session.destroy();
  }
}
