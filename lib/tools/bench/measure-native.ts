// Times a native scenario with the addon's loop (native/tools/bench/openxr_bench.cc): a warm-up run that is
// thrown away, then `repeats` runs of `iterations` calls, summarized.
import type { NativeBenchSamples } from '../native/addon.js';
import { summarize, type Summary } from './stats.js';

export interface MeasurePlan {
  /** Calls (frames for xrWaitFrame) per timed run. */
  readonly iterations: number;
  /** Timed runs; the median of them is the figure. */
  readonly repeats: number;
  /** Calls of the warm-up run (default a tenth of `iterations`, at least 1). */
  readonly warmupIterations?: number;
}

/** A cell's figures: wall-clock ns per call and the calling thread's CPU ns per call. */
export interface Measurement {
  readonly wall: Summary;
  readonly cpu: Summary;
  /** Each timed run's wall ns per call, in the order they ran (interleaved measurements keep them, to pair runs that ran next to each other). */
  readonly wallRuns?: readonly number[];
}

export function warmupIterations(plan: MeasurePlan): number {
  return plan.warmupIterations ?? Math.max(1, Math.ceil(plan.iterations / 10));
}

export function summarizeSamples(samples: NativeBenchSamples): Measurement {
  return { wall: summarize(samples.wallNs), cpu: summarize(samples.cpuNs) };
}

/** What measureNative times: an OpenXR or a Vulkan bench scenario. */
export interface MeasurableScenario {
  measure(mode: 'trampoline' | 'pointer', iterations: number, repeats: number): NativeBenchSamples;
}

export function measureNative(scenario: MeasurableScenario, mode: 'trampoline' | 'pointer', plan: MeasurePlan): Measurement {
  scenario.measure(mode, warmupIterations(plan), 1);
  return summarizeSamples(scenario.measure(mode, plan.iterations, plan.repeats));
}

/** One cell of an interleaved measurement: a scenario and which of its functions is timed. */
export interface InterleavedCell<K extends string> {
  readonly key: K;
  readonly scenario: MeasurableScenario;
  readonly mode: 'trampoline' | 'pointer';
}

/**
 * Several cells' timed runs interleaved after a warm-up of each: round r runs the cells in the
 * given order when r is even and in reverse when odd (A B C D, D C B A, ...), so every cell's mean
 * position in a round is the same. Measured one after the other, the first paid for what the process
 * still had to grow: lavapipe's vkCmdPushConstants allocates per command, and whichever cell ran
 * first measured ~14 ns more a call, for either loader.
 */
export function measureNativeInterleaved<K extends string>(cells: readonly InterleavedCell<K>[], plan: MeasurePlan): Record<K, Measurement> {
  for (const c of cells) c.scenario.measure(c.mode, warmupIterations(plan), 1);
  const runs = cells.map(() => ({ wallNs: [] as number[], cpuNs: [] as number[] }));
  const indices = cells.map((_, i) => i);
  for (let r = 0; r < plan.repeats; r++) {
    for (const i of r % 2 === 0 ? indices : [...indices].reverse()) {
      const c = cells[i]!;
      const s = c.scenario.measure(c.mode, plan.iterations, 1);
      runs[i]!.wallNs.push(...s.wallNs);
      runs[i]!.cpuNs.push(...s.cpuNs);
    }
  }
  const out = {} as Record<K, Measurement>;
  cells.forEach((c, i) => (out[c.key] = { ...summarizeSamples(runs[i]!), wallRuns: runs[i]!.wallNs }));
  return out;
}

/**
 * The cells of loaders timed side by side in one process, for sides [A, B]: A's trampoline, B's
 * trampoline, B's pointer, A's pointer (measureNativeInterleaved reverses every other round): the
 * trampolines are timed next to each other, and neither side always goes first.
 */
export function sideBySideCells<S extends string>(sides: readonly { readonly side: S; readonly scenario: MeasurableScenario }[]): InterleavedCell<`${S}-${'trampoline' | 'pointer'}`>[] {
  const trampolines = sides.map(({ side, scenario }) => ({ key: `${side}-trampoline` as const, scenario, mode: 'trampoline' as const }));
  const pointers = sides.map(({ side, scenario }) => ({ key: `${side}-pointer` as const, scenario, mode: 'pointer' as const }));
  return [...trampolines, ...pointers.reverse()];
}

/** The trampoline and the pointer of one scenario, interleaved (trampoline, pointer, then pointer, trampoline, ...). */
export function measureNativePair(scenario: MeasurableScenario, plan: MeasurePlan): { trampoline: Measurement; pointer: Measurement } {
  return measureNativeInterleaved(
    [
      { key: 'trampoline', scenario, mode: 'trampoline' },
      { key: 'pointer', scenario, mode: 'pointer' },
    ],
    plan,
  );
}
