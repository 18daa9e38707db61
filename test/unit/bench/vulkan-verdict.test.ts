// The Vulkan bench's trampoline verdict: our median against Khronos's, judged by the spread of the
// interleaved per-process pairs (issue 10's target "trampolines at or below Khronos at every layer count").
import { describe, expect, it } from 'vitest';
import type { VulkanBenchResult, VulkanCell } from '../../../lib/bench/run-vulkan-bench.js';
import { medianInterval, summarize } from '../../../lib/bench/stats.js';
import { compareTrampolines, vulkanTargets, vulkanTrampolineTally } from '../../../lib/bench/vulkan-report.js';

function cell(processWalls: readonly number[]): VulkanCell {
  const wall = summarize(processWalls);
  return { wall, cpu: wall, processWalls };
}

function result(rows: ReadonlyArray<readonly [readonly number[], readonly number[]]>): VulkanBenchResult {
  return {
    command: { name: 'vkGetDeviceQueue' },
    rows: rows.map(([ours, khronos], i) => ({
      label: `row ${i}`,
      passthrough: i,
      realLayers: [],
      layerNames: [],
      cells: { 'ours-trampoline': cell(ours), 'khronos-trampoline': cell(khronos) },
      pointerOrigins: {},
      loaderFiles: {},
    })),
  } as unknown as VulkanBenchResult;
}

describe('BENCH: Vulkan trampoline verdict', () => {
  it('BENCH: medianInterval is the sign-test interval: x(2)..x(8) of 9 samples (96 %), min..max when too few samples for 95 %', () => {
    const nine = medianInterval([9, 1, 8, 2, 7, 3, 6, 4, 5]);
    expect(nine).toMatchObject({ low: 2, high: 8, samples: 9 });
    expect(nine.coverage).toBeCloseTo(1 - (2 * 10) / 512, 10);
    const five = medianInterval([5, 1, 3, 2, 4]);
    expect(five).toMatchObject({ low: 1, high: 5 });
    expect(five.coverage).toBeCloseTo(1 - 2 / 32, 10);
    expect(medianInterval([3])).toMatchObject({ low: 3, high: 3, coverage: 0 });
    // 20 samples: P(B(20, 1/2) <= 5) = 0.0207, so x(6)..x(15).
    expect(medianInterval(Array.from({ length: 20 }, (_, i) => i + 1))).toMatchObject({ low: 6, high: 15 });
    expect(() => medianInterval([])).toThrow(RangeError);
  });

  it('BENCH: met when our median is at or below Khronos; within noise when above but the paired ratios straddle 1; missed when every pair but the outliers is above 1', () => {
    const khronos = [10, 10.2, 9.8, 10.1, 9.9, 10, 10.3, 9.7, 10];
    expect(compareTrampolines(cell(khronos.map((k) => k * 0.98)), cell(khronos))?.verdict).toBe('met');
    expect(compareTrampolines(cell(khronos), cell(khronos))?.verdict).toBe('met');
    // 1 % above in the median, but the pairs go either way: noise.
    const noisy = [10.4, 9.7, 10.3, 9.6, 10.2, 10.1, 10.0, 10.4, 10.1];
    const c = compareTrampolines(cell(noisy), cell(khronos));
    expect(c?.ratio).toBeGreaterThan(1);
    expect(c?.interval.low).toBeLessThanOrEqual(1);
    expect(c?.verdict).toBe('within noise');
    // 3 % slower in every pair but one: missed, whatever the single outlier says.
    const slower = khronos.map((k, i) => (i === 4 ? k * 0.9 : k * 1.03));
    expect(compareTrampolines(cell(slower), cell(khronos))?.verdict).toBe('missed');
    // One process per side: nothing to judge the spread by; above is missed.
    expect(compareTrampolines(cell([10.1]), cell([10]))?.verdict).toBe('missed');
    expect(compareTrampolines({ skipped: 'not installed' }, cell(khronos))).toBeUndefined();
  });

  it('BENCH: the target lines print the ratio, the paired interval and both spreads with the verdict, and the tally counts each verdict', () => {
    const khronos = [10, 10.2, 9.8, 10.1, 9.9, 10, 10.3, 9.7, 10];
    const r = result([
      [khronos.map((k) => k * 0.9), khronos],
      [[10.4, 9.7, 10.3, 9.6, 10.2, 10.1, 10.0, 10.4, 10.1], khronos],
      [khronos.map((k) => k * 1.2), khronos],
    ]);
    const lines = vulkanTargets(r).filter((l) => l.includes('trampoline'));
    expect(lines[0]).toMatch(/row 0, trampoline: ours at or below Khronos: ours ÷ Khronos = 0\.90×; per-process ratios 0\.90–0\.90× \(96 % interval of their median, 9 interleaved pairs\); spreads ±[\d.]+ % \/ ±[\d.]+ % — met$/);
    expect(lines[1]).toMatch(/— within noise$/);
    expect(lines[2]).toMatch(/ours ÷ Khronos = 1\.20×.* — missed$/);
    expect(vulkanTrampolineTally([r])).toBe('3 trampoline rows: 1 met, 1 within noise, 1 missed');
  });
});
