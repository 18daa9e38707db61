// The Vulkan bench's trampoline verdict (the target in docs/performance.md, 'Vulkan: dispatch per
// call': "our trampolines at or below Khronos at every layer count"): ours ÷ Khronos from child
// processes that time both loaders, neighbouring processes paired across the set-up order, judged
// by a sign-test interval against a 2 % margin.
import type { VulkanCell } from './run-vulkan-bench.js';
import { medianInterval, summarize, type MedianInterval, type Summary } from './stats.js';
import { medianRoundRatio } from './rounds.js';
import { invalidArgument } from '../../core/errors.js';

export type SpeedVerdict = 'met' | 'within noise' | 'missed';

/**
 * How much slower than Khronos's a trampoline may measure and still be "at" Khronos's: 2 %, 0.05 ns
 * on the cheapest row (a 2.7 ns vkGetDeviceQueue), a fraction of one clock cycle. Equality can only
 * be judged to some resolution; below this one the two loaders' ratio moves with where a process
 * happened to put things, not with the trampolines' instructions.
 */
export const TRAMPOLINE_MARGIN = 0.02;

/** How often a verdict may be wrong, all looks at a row together. */
export const VERDICT_ERROR = 0.05;

/**
 * Each look's interval confidence when a row may be judged after each of up to `looks` batches of
 * processes (the bench measures a row that is within noise again): VERDICT_ERROR shared equally
 * among the looks (Bonferroni), so whichever look decides, the chance that any look's interval
 * missed the true ratio stays within VERDICT_ERROR, the stopping rule whatever it is.
 */
export function lookConfidence(looks: number): number {
  if (!Number.isInteger(looks) || looks < 1) throw invalidArgument('looks', 'a whole number >= 1', looks);
  return 1 - VERDICT_ERROR / looks;
}

export interface TrampolineComparison {
  /** ours ÷ Khronos: the median of the crossover estimates (the table's figure). */
  readonly ratio: number;
  /**
   * The sign-test interval of that median. Each process times both loaders; which one is set up and
   * timed first alternates, and the set-up order alone can move a call by a third (whichever
   * loader's objects the heap placed first). A crossover estimate is the geometric mean of the
   * ratios of two neighbouring processes, one of each order: the order's effect cancels.
   */
  readonly interval: MedianInterval;
  /**
   * met: shown at or below Khronos within TRAMPOLINE_MARGIN (the interval's high end at most
   * 1 + margin). missed: shown slower than that (its low end above 1 + margin). within noise: the
   * interval straddles 1 + margin; more processes would decide.
   */
  readonly verdict: SpeedVerdict;
}

/**
 * Ours ÷ Khronos in each process: the median over its rounds of run r of ours ÷ run r of Khronos
 * (timed next to each other, so a burst of other work on the machine hits both), or, without the
 * runs, the ratio of the process's medians.
 */
export function processRatios(ours: Extract<VulkanCell, { wall: Summary }>, khronos: Extract<VulkanCell, { wall: Summary }>): number[] {
  const processes = Math.min(ours.processWalls.length, khronos.processWalls.length);
  return Array.from({ length: processes }, (_, p) => {
    const o = ours.processRuns?.[p];
    const k = khronos.processRuns?.[p];
    if (o === undefined || k === undefined || o.length !== k.length || o.length === 0) return ours.processWalls[p]! / khronos.processWalls[p]!;
    return medianRoundRatio(o, k);
  });
}

/** The geometric mean of each (even, odd) pair of per-process ratios; one ratio alone stays as it is. */
export function crossoverRatios(perProcess: readonly number[]): number[] {
  if (perProcess.length < 2) return [...perProcess];
  const pairs: number[] = [];
  for (let p = 0; p + 1 < perProcess.length; p += 2) pairs.push(Math.sqrt(perProcess[p]! * perProcess[p + 1]!));
  return pairs;
}

/** How our trampoline compares with Khronos's in one row (both timed in each process), its interval at `confidence`. */
export function compareTrampolines(ours: VulkanCell | undefined, khronos: VulkanCell | undefined, confidence = lookConfidence(1)): TrampolineComparison | undefined {
  if (ours === undefined || khronos === undefined || !('wall' in ours) || !('wall' in khronos)) return undefined;
  const estimates = crossoverRatios(processRatios(ours, khronos)).filter((r) => Number.isFinite(r));
  if (estimates.length === 0) return undefined;
  const interval = medianInterval(estimates, confidence);
  const ratio = summarize(estimates).median;
  const limit = 1 + TRAMPOLINE_MARGIN;
  const verdict: SpeedVerdict = interval.samples === 1 ? (ratio <= limit ? 'met' : 'missed') : interval.high <= limit ? 'met' : interval.low > limit ? 'missed' : 'within noise';
  return { ratio, interval, verdict };
}
