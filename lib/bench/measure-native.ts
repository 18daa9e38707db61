// Times a native scenario with the addon's loop (native/napi/bench.cc): a warm-up run that is
// thrown away, then `repeats` runs of `iterations` calls, summarized.
import type { NativeBenchSamples } from '../native.js';
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

/**
 * The trampoline and the pointer of one scenario, their timed runs interleaved (trampoline,
 * pointer, then pointer, trampoline, ...) after a warm-up of each. Measured one after the other,
 * the first paid for what the process still had to grow: lavapipe's vkCmdPushConstants allocates
 * per command, and whichever cell ran first measured ~14 ns more a call, for either loader.
 */
export function measureNativePair(scenario: MeasurableScenario, plan: MeasurePlan): { trampoline: Measurement; pointer: Measurement } {
  scenario.measure('trampoline', warmupIterations(plan), 1);
  scenario.measure('pointer', warmupIterations(plan), 1);
  const runs = { trampoline: { wallNs: [] as number[], cpuNs: [] as number[] }, pointer: { wallNs: [] as number[], cpuNs: [] as number[] } };
  for (let r = 0; r < plan.repeats; r++) {
    for (const mode of r % 2 === 0 ? (['trampoline', 'pointer'] as const) : (['pointer', 'trampoline'] as const)) {
      const s = scenario.measure(mode, plan.iterations, 1);
      runs[mode].wallNs.push(...s.wallNs);
      runs[mode].cpuNs.push(...s.cpuNs);
    }
  }
  return { trampoline: summarizeSamples(runs.trampoline), pointer: summarizeSamples(runs.pointer) };
}
