// The Vulkan bench's trampoline verdict: ours ÷ Khronos from processes that time both loaders,
// neighbouring processes paired across the set-up order, judged by the sign-test interval against
// a 2 % margin (the target "trampolines at or below Khronos at every layer count", docs/performance.md).
import { describe, expect, it } from 'vitest';
import { sampleRow, type VulkanBenchResult, type VulkanCell } from '../../../lib/tools/bench/run-vulkan-bench.js';
import type { VulkanChildResult } from '../../../lib/tools/bench/vulkan-child-protocol.js';
import { parseVulkanBenchArgs } from '../../../lib/tools/bench/cli-vulkan.js';
import { medianInterval, summarize } from '../../../lib/tools/bench/stats.js';
import { vulkanTargets, vulkanTrampolineTally } from '../../../lib/tools/bench/vulkan-report.js';
import { compareTrampolines, crossoverRatios, lookConfidence, processRatios, TRAMPOLINE_MARGIN } from '../../../lib/tools/bench/vulkan-verdict.js';

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
    expect(() => medianInterval([])).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
  });

  it('BENCH: the trampoline ratio pairs neighbouring processes (one of each set-up order) so an order effect cancels: a loader faster only when timed first is at parity', () => {
    // Processes alternate: ours first in even ones, Khronos first in odd ones; whichever goes first
    // measures 2.75 ns, the other 3.55 (the shape of the effect before each loader had its own loop).
    const ours = Array.from({ length: 18 }, (_, p) => (p % 2 === 0 ? 2.75 : 3.55));
    const khronos = Array.from({ length: 18 }, (_, p) => (p % 2 === 0 ? 3.55 : 2.75));
    const estimates = crossoverRatios(ours.map((o, p) => o / khronos[p]!));
    expect(estimates).toHaveLength(9);
    for (const e of estimates) expect(e).toBeCloseTo(1, 12);
    const c = compareTrampolines(cell(ours), cell(khronos));
    expect(c?.ratio).toBeCloseTo(1, 12);
    expect(c?.verdict).toBe('met');
    // Per process alone the ratios are 0.77 and 1.29: an interval from them says nothing.
    expect(medianInterval(ours.map((o, p) => o / khronos[p]!))).toMatchObject({ low: expect.closeTo(0.775, 3), high: expect.closeTo(1.291, 3) });
    // An odd process out has no partner and is left out; one process is one estimate.
    expect(crossoverRatios([1, 2, 3])).toEqual([Math.sqrt(2)]);
    expect(crossoverRatios([1.5])).toEqual([1.5]);
  });

  it('BENCH: a process\'s ratio is the median over its rounds of the two loaders\' runs that ran next to each other, so a burst of other work that slows both cancels', () => {
    // A burst from the 4th run of Khronos (timed just before ours in that round) to the end.
    const ours: VulkanCell = { ...cell([10]), processRuns: [[10, 10, 10, 10, 20, 20, 20]] };
    const khronos: VulkanCell = { ...cell([20]), processRuns: [[10, 10, 10, 20, 20, 20, 20]] };
    expect(processRatios(ours as Extract<VulkanCell, { wall: unknown }>, khronos as Extract<VulkanCell, { wall: unknown }>)).toEqual([1]);
    // Without the runs: the ratio of the process's medians (here what the burst made of it).
    expect(processRatios(cell([10]) as Extract<VulkanCell, { wall: unknown }>, cell([20]) as Extract<VulkanCell, { wall: unknown }>)).toEqual([0.5]);
  });

  it(`BENCH: met when the 95 % interval lies at or below 1 + ${TRAMPOLINE_MARGIN} (at Khronos within the margin, or below); missed when it lies above; within noise when it straddles`, () => {
    const khronos = [10, 10.2, 9.8, 10.1, 9.9, 10, 10.3, 9.7, 10, 10.1, 9.9, 10, 10.2, 9.8, 10, 10.1, 9.9, 10];
    expect(compareTrampolines(cell(khronos.map((k) => k * 0.98)), cell(khronos))?.verdict).toBe('met');
    expect(compareTrampolines(cell(khronos), cell(khronos))?.verdict).toBe('met');
    // 1 % slower in every process: at Khronos within the margin.
    expect(compareTrampolines(cell(khronos.map((k) => k * 1.01)), cell(khronos))?.verdict).toBe('met');
    // 3 % slower in every pair but one: missed, whatever the single outlier says.
    const slower = khronos.map((k, i) => (i === 4 ? k * 0.9 : k * 1.03));
    expect(compareTrampolines(cell(slower), cell(khronos))?.verdict).toBe('missed');
    // At parity in the median, but the pairs range ±5 %: the interval reaches past the margin.
    const noisy = khronos.map((k, i) => k * [1.05, 0.95, 1.0, 1.04, 0.96, 1.0, 1.05, 0.95, 1.0][i % 9]!);
    const n = compareTrampolines(cell(noisy), cell(khronos));
    expect(n?.interval.low).toBeLessThan(1);
    expect(n?.interval.high).toBeGreaterThan(1 + TRAMPOLINE_MARGIN);
    expect(n?.verdict).toBe('within noise');
    // One process: one estimate and no interval; above the margin is missed.
    expect(compareTrampolines(cell([10.3]), cell([10]))?.verdict).toBe('missed');
    expect(compareTrampolines(cell([10.1]), cell([10]))?.verdict).toBe('met');
    expect(compareTrampolines({ skipped: 'not installed' }, cell(khronos))).toBeUndefined();
  });

  it('BENCH: the target lines print the ratio, the crossover interval and both spreads with the verdict, and the tally counts each verdict', () => {
    const khronos = [10, 10.2, 9.8, 10.1, 9.9, 10, 10.3, 9.7, 10, 10.1, 9.9, 10, 10.2, 9.8, 10, 10.1, 9.9, 10];
    const r = result([
      [khronos.map((k) => k * 0.9), khronos],
      [khronos.map((k, i) => k * [1.05, 0.95, 1.0, 1.04, 0.96, 1.0, 1.05, 0.95, 1.0][i % 9]!), khronos],
      [khronos.map((k) => k * 1.2), khronos],
    ]);
    const lines = vulkanTargets(r).filter((l) => l.includes('trampoline'));
    expect(lines[0]).toMatch(/row 0, trampoline: ours at or below Khronos: ours ÷ Khronos = 0\.900×; 96\.1 % interval 0\.900–0\.900× \(9 crossover pairs of processes\); spreads between processes ±[\d.]+ % \/ ±[\d.]+ % — met$/);
    expect(lines[1]).toMatch(/— within noise$/);
    expect(lines[2]).toMatch(/ours ÷ Khronos = 1\.200×.* — missed$/);
    expect(vulkanTrampolineTally([r])).toBe('3 trampoline rows: 1 met, 1 within noise, 1 missed');
  });

  it('BENCH: a row may be judged after each of up to L batches of processes: each look\'s interval at 1 − 5 %/L (Bonferroni), so x(2)..x(12) of 13 pairs after three looks instead of x(3)..x(11)', () => {
    expect(lookConfidence(1)).toBe(0.95);
    expect(lookConfidence(3)).toBeCloseTo(1 - 0.05 / 3, 12);
    expect(() => lookConfidence(0)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
    const thirteen = Array.from({ length: 13 }, (_, i) => i + 1);
    expect(medianInterval(thirteen, lookConfidence(1))).toMatchObject({ low: 3, high: 11 });
    expect(medianInterval(thirteen, lookConfidence(3))).toMatchObject({ low: 2, high: 12 });
    // Two pairs of 13 at 1.05: met at one look's 95 %, within noise at three looks' 98.3 %.
    const ours = pairedWalls([...Array<number>(11).fill(1), 1.05, 1.05]);
    const khronos = Array<number>(26).fill(10);
    expect(compareTrampolines(cell(ours), cell(khronos))?.verdict).toBe('met');
    expect(compareTrampolines(cell(ours), cell(khronos), lookConfidence(3))?.verdict).toBe('within noise');
    // The targets and the tally judge at the run's confidence.
    const r = { ...result([[ours, khronos]]), processes: 26, verdictConfidence: lookConfidence(3) } as VulkanBenchResult;
    expect(vulkanTargets(r)[0]).toMatch(/99\.7 % interval 1\.000–1\.050× \(13 crossover pairs of processes\).* — within noise$/);
    expect(vulkanTrampolineTally([r])).toBe('1 trampoline rows: 0 met, 1 within noise, 0 missed');
  });

  it('BENCH: a row within noise is measured again, a batch at a time, and judged on all its processes; a decided row, or one at the most processes, is not', async () => {
    // Pair estimates of the first batch straddle 1.02 at 98.3 %; the second batch's are at parity.
    const estimates = [...Array<number>(11).fill(1), 1.05, 1.05, ...Array<number>(13).fill(1), ...Array<number>(13).fill(1)];
    const asked: number[] = [];
    const ask = async (p: number) => {
      asked.push(p);
      return childAnswer(10 * estimates[p >> 1]!, 10);
    };
    const more: string[] = [];
    const answers = await sampleRow(ask, { processes: 26, maxProcesses: 78, confidence: lookConfidence(3), judge: true }, (line) => more.push(line));
    expect(answers).toHaveLength(52);
    // Process indices run on across batches, so even ones keep ours first and the pairs stay (even, odd).
    expect(asked).toEqual(Array.from({ length: 52 }, (_, p) => p));
    expect(more).toEqual(['within noise after 26 processes (1.000–1.050×): 26 more']);
    // Still within noise at the most processes: it stops there.
    asked.length = 0;
    const noisy = await sampleRow(async (p) => childAnswer(10 * [1.05, 0.95, 1.0, 1.04, 0.96, 1.0][(p >> 1) % 6]!, 10), { processes: 26, maxProcesses: 60, confidence: lookConfidence(3), judge: true });
    expect(noisy).toHaveLength(60);
    // Met, or missed, after the first batch: no more; without a verdict to judge (no Khronos loader): one batch.
    expect(await sampleRow(async () => childAnswer(10, 10), { processes: 26, maxProcesses: 78, confidence: lookConfidence(3), judge: true })).toHaveLength(26);
    expect(await sampleRow(async () => childAnswer(12, 10), { processes: 26, maxProcesses: 78, confidence: lookConfidence(3), judge: true })).toHaveLength(26);
    expect(await sampleRow(async (p) => childAnswer(10 * estimates[p >> 1]!, 10), { processes: 26, maxProcesses: 78, confidence: lookConfidence(3), judge: false })).toHaveLength(26);
    // A process that could not time a loader ends the row (its cells say why).
    expect(await sampleRow(async () => ({ ok: false, error: 'vkCreateDevice failed' }), { processes: 4, maxProcesses: 12, confidence: lookConfidence(3), judge: true })).toHaveLength(4);
  });

  it('BENCH: --max-processes is at least --processes and has no place in the record bench', () => {
    expect(parseVulkanBenchArgs(['--processes', '26', '--max-processes', '78'])).toMatchObject({ processes: 26, maxProcesses: 78 });
    expect(parseVulkanBenchArgs(['--processes', '26', '--max-processes', '20'])).toMatch(/--max-processes \(20\) must be at least --processes \(26\)/);
    expect(parseVulkanBenchArgs(['--command', 'record', '--max-processes', '4'])).toMatch(/no trampoline verdict/);
  });
});

/** Per-process walls whose crossover pairs are these ratios (both processes of a pair at the ratio; Khronos at 10). */
function pairedWalls(pairRatios: readonly number[]): number[] {
  return pairRatios.flatMap((r) => [10 * r, 10 * r]);
}

/** A child's answer with one timed run per loader. */
function childAnswer(oursNs: number, khronosNs: number): VulkanChildResult {
  const side = (ns: number) => {
    const m = { wall: summarize([ns]), cpu: summarize([ns]), wallRuns: [ns] };
    return { ok: true as const, trampoline: m, pointer: m, pointerOrigin: null, loaderFile: null };
  };
  return { ok: true, sides: { ours: side(oursNs), khronos: side(khronosNs) } };
}
