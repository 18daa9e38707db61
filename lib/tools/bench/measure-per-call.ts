// The per-call path against the N-API minimum: space.locate, handTracker.locate and the
// action-state reads (getBoolean, getFloat, getVector2f, getPose) timed from JavaScript beside the yardstick, an empty two-argument N-API call
// of a minimal addon written in plain C without node-addon-api (native/tools/bench/yardstick), in
// the same process and in rounds (rounds.ts), so a ratio is the median over the rounds of that
// round's ratio and a slow spell of a shared machine cancels (docs/performance.md, "The per-call
// path at the N-API minimum").
import type { Action } from '../../openxr/api/action.js';
import type { Instance } from '../../openxr/api/instance.js';
import { loadYardstickAddon } from '../native/addon.js';
import { HAND_JOINT_COUNT, HAND_JOINT_FLOATS, POSE_FLOATS } from '../../openxr/api/types.js';
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
  readonly ratio: number;
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

function sizedRun(warmup: number, call: () => unknown): TimedRun {
  const timeCalls = (n: number): number => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) call();
    return Number(process.hrtime.bigint() - start) / n;
  };
  const iterations = Math.max(1, Math.round(RUN_NS / timeCalls(warmup)));
  return () => timeCalls(iterations);
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
    const cells: [PerCallName, TimedRun][] = [
      ['space.locate', sizedRun(warmup, () => view.locate(local, time, pose))],
      ['space.locate (bigint time)', sizedRun(warmup, () => view.locate(local, bigTime, pose))],
    ];
    if (instance.enabledExtensionNames.includes('XR_EXT_hand_tracking')) {
      const tracker = session.createHandTracker('left');
      const joints = new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_FLOATS);
      cells.push(['handTracker.locate', sizedRun(warmup, () => tracker.locate(local, time, joints))]);
    } else {
      skipped['handTracker.locate'] = 'the instance has no XR_EXT_hand_tracking';
    }
    // One action of each type the state reads take, each skipped alone where the runtime refuses
    // its type (the test runtime has boolean and float actions only).
    const reads = [
      ['action.getBoolean', 'boolean', (a: Action) => a.getBoolean()],
      ['action.getFloat', 'float', (a: Action) => a.getFloat()],
      ['action.getVector2f', 'vector2f', (a: Action) => a.getVector2f()],
      ['action.getPose', 'pose', (a: Action) => a.getPose()],
    ] as const;
    try {
      const set = instance.createActionSet({ name: 'bench', localizedName: 'bench' });
      const made: [PerCallName, Action, (a: Action) => unknown][] = [];
      for (const [name, type, read] of reads) {
        try {
          made.push([name, set.createAction({ name: type, localizedName: type, type }), read]);
        } catch (error) {
          skipped[name] = error instanceof Error ? error.message : String(error);
        }
      }
      session.attachActionSets([set]);
      for (const [name, action, read] of made) cells.push([name, sizedRun(warmup, () => read(action))]);
    } catch (error) {
      // A runtime without actions at all.
      for (const [name] of reads) skipped[name] ??= error instanceof Error ? error.message : String(error);
    }
    const emptyRun = sizedRun(warmup, () => empty(time, 1));
    const [emptyRuns, ...runs] = timeInRounds(rounds, [emptyRun, ...cells.map(([, run]) => run)]);
    return {
      yardstick: summarize(emptyRuns!),
      cells: cells.map(([name], i) => ({ name, ns: summarize(runs[i]!), ratio: medianRoundRatio(runs[i]!, emptyRuns!) })),
      skipped,
    };
  } finally {
    session.destroy();
  }
}
