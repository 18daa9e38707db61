// `khronos-loader bench vulkan --command record` (encoded command buffers, docs/usage.md 'CommandEncoder'): the CLI with tiny frame counts on
// lavapipe (no timing thresholds: the targets live in the benchmark's report, not in tests).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../lib/tools/cli/main.js';
import { parseVulkanBenchArgs } from '../../lib/tools/bench/cli-vulkan.js';
import { drawTargets, recordTargetBand, recordTargets, type RecordBenchResult } from '../../lib/tools/bench/run-vulkan-record-bench.js';
import { recordRatios, type RecordMeasurement } from '../../lib/tools/bench/vulkan-record.js';
import { summarize } from '../../lib/tools/bench/stats.js';
import { LAVAPIPE_MANIFEST_CANDIDATES } from '../../lib/tools/bench/run-vulkan-bench.js';
import koffi from 'koffi';
import { createRecordScenario, recordEncoded, recordPerCall } from '../../lib/tools/bench/vulkan-record.js';
import { createHostPlatform } from '../../lib/core/platform/host.js';
import { COMMAND_OPCODE } from '../../lib/vulkan/api/command-encoder.js';
import { nativeCommandStream } from '../../lib/vulkan/native/addon.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';

// A result of three runs, each way at the same ns a command (10,000 commands), without rounds.
function madeUpResult(perCall: number, encoder: number, cLoop: number): RecordBenchResult {
  const summary = (ns: number) => ({ runs: 3, median: ns * 10_000, min: ns * 10_000, max: ns * 10_000, relativeIqr: 0 });
  return {
    date: '2026-11-26T00:00:00.000Z',
    machine: { cpu: 'test', cores: 1, os: 'test', node: 'v0' } as unknown as RecordBenchResult['machine'],
    driver: { manifestPath: 'x.json', deviceName: 'x' },
    frames: 1,
    repeats: 3,
    measurement: { commands: 10_000, perCall: summary(perCall), encoder: summary(encoder), cLoop: summary(cLoop) },
    draws: { commands: 10_000, perCall: summary(perCall), encoder: summary(encoder), cLoop: summary(cLoop) },
  };
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('bench vulkan --command record', () => {
  it('BENCH: the arguments: record takes frames and repeats, and refuses layers', () => {
    expect(parseVulkanBenchArgs(['--command', 'record', '--iterations', '5'])).toMatchObject({ record: true, iterations: 5 });
    expect(parseVulkanBenchArgs(['--command', 'record', '--layers', '1'])).toMatch(/without layers/);
    expect(parseVulkanBenchArgs(['--command', 'recrod'])).toMatch(/--command needs one of .*, record, got "recrod"$/);
    expect(parseVulkanBenchArgs(['--command', 'vkCmdPushConstants'])).not.toHaveProperty('record');
  });

  it('BENCH: 10,000 commands per frame, per call, through the encoder and in a C loop: a table with the three ways and the two targets, and JSON', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const md = await cli(['bench', 'vulkan', '--command', 'record', '--iterations', '2', '--repeats', '2']);
    expect(md.stderr).toContain('bench: record: 10000 commands per frame');
    expect(md.code).toBe(0);
    for (const row of ['one N-API call per command', 'CommandEncoder (one call at end())', 'C loop through the loader']) expect(md.stdout).toContain(`| ${row}`);
    expect(md.stdout).toMatch(/per-call ÷ encoder = \d+\.\d\d× — (met|NOT met)/);
    expect(md.stdout).toMatch(/encoder ÷ C loop = \d+\.\d\d× — (met|NOT met)/);
    // The frame of 1,000 draws beside it: its table and the three verdicts.
    expect(md.stdout).toContain('Recording 1,000 draws a frame');
    expect(md.stdout).toContain('| CommandEncoder (walked and flat generated opcodes, one call at end())');
    expect(md.stdout).toMatch(/draws target, 1,000 draws a frame: the encoder within 1\.2× of the C loop: encoder ÷ C loop = \d+\.\d\d× — (met|NOT met)/);
    expect(md.stdout).toMatch(/at least 10× less through the encoder: .* — (met|NOT met)/);
    expect(md.stdout).toMatch(/the encoder within 1\.1× of the C loop: encoder ÷ C loop = \d+\.\d\d× — (met|NOT met)/);
    const json = await cli(['bench', 'vulkan', '--command', 'record', '--iterations', '2', '--repeats', '2', '--json']);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as RecordBenchResult;
    expect(result.measurement.commands).toBe(10_000);
    expect(result.driver.deviceName).toMatch(/\S/);
    for (const way of ['perCall', 'encoder', 'cLoop'] as const) {
      expect(result.measurement[way].runs).toBe(2);
      expect(result.measurement[way].median).toBeGreaterThan(0);
    }
  }, 120_000);

  it('BENCH: --driver the Vulkan test driver (its compute objects do nothing, its commands only count): the three ways run on it, so the crossing and the encoder are what its rows measure', async () => {
    const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'kl-record-driver-')), 'kl_vk_driver_v7.json');
    const library = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_v7.so');
    writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: library, api_version: '1.3.0' } }));
    const json = await cli(['bench', 'vulkan', '--command', 'record', '--driver', manifest, '--iterations', '2', '--repeats', '2', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as RecordBenchResult;
    expect(result.driver.deviceName).toMatch(/^kl-v7\|/);
    for (const way of ['perCall', 'encoder', 'cLoop'] as const) expect(result.measurement[way].runs).toBe(2);
  }, 120_000);

  it('BENCH: the three ways record exactly the commands asked for, in groups of the five and then the rest (the test driver counts what reaches it)', () => {
    const library = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_v7.so');
    const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'kl-record-count-')), 'kl_vk_driver_v7.json');
    writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: library, api_version: '1.3.0' } }));
    const env = { VK_DRIVER_FILES: manifest, VK_LOADER_LAYERS_DISABLE: '~implicit~' };
    const instance = createLoader({ platform: createHostPlatform({ env, elevated: false }) }).createInstance({ applicationName: 'kl-record-count' });
    try {
      const s = createRecordScenario(instance);
      const recordings = koffi.load(library).func('uint64_t kl_vk_test_driver_recordings(_Out_ uint64_t *counts, uint32_t capacity)');
      const lastCounts = (n: number): number[] => {
        const counts = new BigUint64Array(n);
        recordings(counts, n);
        return [...counts].map(Number);
      };
      const cLoop = (commands: number, frames: number) => nativeCommandStream().cLoop(s.commandBuffer.handle, s.pipeline.handle, s.layout.handle, s.set.handle, commands, frames);
      for (const commands of [12, 10, 3, 0]) {
        recordPerCall(s, commands);
        recordEncoded(s, commands);
        cLoop(commands, 2);
        expect(lastCounts(4), `${commands} commands`).toEqual([commands, commands, commands, commands]);
      }
      // The encoder's stream: the groups in order, then the rest (12 = two groups, bind pipeline, bind set).
      recordEncoded(s, 12);
      const opcodes: number[] = [];
      const words = new Uint32Array(s.encoder.stream, 0, s.encoder.byteLength / 4);
      for (let w = 0; w < words.length; w += words[w]! >>> 16) opcodes.push(words[w]! & 0xffff);
      const { bindPipeline, bindDescriptorSet, pushConstants, dispatch, pipelineBarrier } = COMMAND_OPCODE;
      const group = [bindPipeline, bindDescriptorSet, pushConstants, dispatch, pipelineBarrier];
      expect(opcodes).toEqual([...group, ...group, bindPipeline, bindDescriptorSet]);
    } finally {
      instance.destroy();
    }
  });

  it('BENCH: the targets\' lines: the ratios and what the encoder adds above the C loop, and no ratio of a negative difference when the encoder measured no slower than the C loop (a driver whose own recording dominates)', () => {
    const [cheaper, near] = recordTargets(madeUpResult(80, 7.8, 2));
    expect(cheaper).toContain('per-call ÷ encoder = 10.26× — met');
    expect(cheaper).toContain('per-call ÷ C loop = 40.00×');
    expect(cheaper).toContain('13.4× less through the encoder'); // (80 - 2) / (7.8 - 2)
    expect(near).toContain('encoder ÷ C loop = 3.90× — NOT met');
    expect(near).toContain('5.8 ns above it');
    const [slowDriver, within] = recordTargets(madeUpResult(270, 161, 165));
    expect(slowDriver).toContain('per-call ÷ encoder = 1.68× — NOT met');
    expect(slowDriver).toContain('the encoder measured no slower than the C loop in this run');
    expect(within).toContain('encoder ÷ C loop = 0.98× — met');
    expect(within).toContain('within its noise');
    expect(`${slowDriver} ${within}`).not.toMatch(/-\d|e\+/); // no negative nanoseconds, no astronomical ratio
  });

  it('BENCH: both targets at once: the drivers they can hold on together (D from W to (N − 10W)/9), and "inside" exactly when both lines say met', () => {
    // This VM's test driver: crossing 78, encoder 5.8 above a 2 ns C loop: no driver (5.8 > 78/19).
    const none = recordTargetBand(madeUpResult(80, 7.8, 2));
    expect(none.crossingNs).toBeCloseTo(78, 9);
    expect(none.encoderNs).toBeCloseTo(5.8, 9);
    expect(none.band).toBeUndefined();
    expect(recordTargets(madeUpResult(80, 7.8, 2))[2]).toContain('on no driver (that needs the encoder\'s work at most crossing/19 = 4.1 ns); this driver records at 2.0 ns');
    // Crossing 77, encoder 1 above 3 ns: D from 1 to (77 − 10)/9 = 7.44; 3 is inside, and both are met.
    const inside = recordTargets(madeUpResult(80, 4, 3));
    expect(recordTargetBand(madeUpResult(80, 4, 3)).band).toEqual({ low: expect.closeTo(1, 9), high: expect.closeTo(67 / 9, 9) });
    expect(inside[2]).toContain('D from 1.0 ns to 7.4 ns; this driver records at 3.0 ns, inside it');
    expect(inside[0]).toContain('— met');
    expect(inside[1]).toContain('— met');
    expect(recordTargets(madeUpResult(80, 3, 1))[2]).toContain('records at 1.0 ns, below it: too fast for "within 2×"');
    // lavapipe-like: the encoder no slower than the C loop; D at most (105 + 40)/9; 165 is above.
    const slow = recordTargets(madeUpResult(270, 161, 165));
    expect(slow[2]).toContain("the encoder's own work (none measured)");
    expect(slow[2]).toContain('D from 0.0 ns to 16.1 ns; this driver records at 165.0 ns, above it: too slow for "≥ 10× cheaper"');
    // Over many runs: the band's verdict is the two targets' verdicts together.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let agreed = 0;
    for (let k = 0; k < 2000; k++) {
      const c = 0.5 + random() * 20;
      const e = c * (0.8 + random() * 2);
      const p = e * (1 + random() * 20);
      const r = madeUpResult(p, e, c);
      const lines = recordTargets(r);
      const bothMet = lines[0]!.includes('— met') && lines[1]!.includes('— met');
      const { band, driverNs } = recordTargetBand(r);
      const near = (x: number, y: number) => Math.abs(x - y) < 1e-9 * Math.max(1, y);
      if (band !== undefined && (near(driverNs, band.low) || near(driverNs, band.high))) continue; // on the edge: rounding decides
      expect(band !== undefined && driverNs >= band.low && driverNs <= band.high, `per call ${p}, encoder ${e}, C loop ${c}`).toBe(bothMet);
      agreed++;
    }
    expect(agreed).toBeGreaterThan(1990);
  });

  it('BENCH: the targets\' ratios are the median of the rounds\' ratios (each round one run of each way), so a slow spell over some rounds cancels', () => {
    const summary = (runs: readonly number[]) => summarize(runs);
    // Rounds 0-3 on a machine twice as slow; per call 80, encoder 8, C loop 2 ns a command otherwise.
    const slow = (ns: number, r: number) => ns * 10_000 * (r < 4 ? 2 : 1);
    const rounds = {
      perCall: Array.from({ length: 7 }, (_, r) => slow(80, r)),
      encoder: Array.from({ length: 7 }, (_, r) => slow(8, r)),
      cLoop: Array.from({ length: 7 }, (_, r) => slow(2, r)),
    };
    // Beside them, the cells as way-after-way timing had them: per call and encoder in the slow
    // spell, the C loop after it (what the medians' ratios would judge by).
    const measurement: RecordMeasurement = { commands: 10_000, perCall: summary(rounds.perCall), encoder: summary(rounds.encoder), cLoop: summary(Array<number>(7).fill(2 * 10_000)), rounds };
    expect(recordRatios(measurement)).toEqual({ perCallOverEncoder: 10, encoderOverCLoop: 4, perCallOverCLoop: 40 });
    const [cheaper, near] = recordTargets({ date: '', machine: {} as RecordBenchResult['machine'], driver: { manifestPath: 'x.json', deviceName: 'x' }, frames: 1, repeats: 7, measurement, draws: measurement });
    expect(cheaper).toContain('per-call ÷ encoder = 10.00× — met');
    expect(near).toContain('encoder ÷ C loop = 4.00× — NOT met');
    // What the encoder adds comes from the same rounds: (4 − 1) × 2 ns, not 16 − 2 from the medians.
    expect(near).toContain("the encoder's own writing and decoding 6.0 ns above it");
    expect(cheaper).toContain('13.0× less through the encoder'); // (40 − 1) / (4 − 1)
    // Without rounds (an older result): the ratio of the medians.
    expect(recordRatios({ ...measurement, rounds: undefined }).encoderOverCLoop).toBeCloseTo(8, 12);
  });

  it('BENCH (VK-CE-7): the frame of draws\' verdicts: encoder ÷ C loop against 1.2× and 1.1×, and what per call and the encoder add above the C loop against 10×, from the rounds\' ratios', () => {
    // 1,007 commands (1,000 draws and 7 others); rounds: per call 60, encoder 11.5, C loop 10 µs a frame (one slow round at twice each).
    const rounds = (us: number) => Array.from({ length: 5 }, (_, r) => us * 1000 * (r === 0 ? 2 : 1));
    const draws: RecordMeasurement = { commands: 1_007, perCall: summarize(rounds(60)), encoder: summarize(rounds(11.5)), cLoop: summarize(rounds(10)), rounds: { perCall: rounds(60), encoder: rounds(11.5), cLoop: rounds(10) } };
    const result = { ...madeUpResult(1, 1, 1), draws };
    const [target, added, near] = drawTargets(result);
    expect(target).toBe('- draws target, 1,000 draws a frame: the encoder within 1.2× of the C loop: encoder ÷ C loop = 1.15× — met');
    expect(added).toContain('33.3× less through the encoder (per call ÷ C loop = 6.00×) — met'); // (6 − 1) / (1.15 − 1)
    expect(near).toContain('encoder ÷ C loop = 1.15× — NOT met');
    const slow = drawTargets({ ...result, draws: { ...draws, encoder: summarize(rounds(13)), rounds: { ...draws.rounds!, encoder: rounds(13) } } });
    expect(slow[0]).toContain('1.30× — NOT met');
    expect(slow[1]).toContain('16.7× less through the encoder'); // (6 − 1) / 0.3
  });
});
