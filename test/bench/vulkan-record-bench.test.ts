// `khronos-loader bench vulkan --command record` (issue 14): the CLI with tiny frame counts on
// lavapipe (no timing thresholds: the targets live in the benchmark's report, not in tests).
import { describe, expect, it } from 'vitest';
import { runCli } from '../../lib/cli/main.js';
import { parseVulkanBenchArgs } from '../../lib/cli/bench-vulkan.js';
import type { RecordBenchResult } from '../../lib/bench/run-vulkan-record-bench.js';
import { LAVAPIPE_MANIFEST_CANDIDATES } from '../../lib/bench/run-vulkan-bench.js';
import { missingSystemComponent } from '../helpers/system.js';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('bench vulkan --command record', () => {
  it('BENCH #14: the arguments: record takes frames and repeats, and refuses layers', () => {
    expect(parseVulkanBenchArgs(['--command', 'record', '--iterations', '5'])).toMatchObject({ record: true, iterations: 5 });
    expect(parseVulkanBenchArgs(['--command', 'record', '--layers', '1'])).toMatch(/without layers/);
    expect(parseVulkanBenchArgs(['--command', 'recrod'])).toMatch(/record$/);
    expect(parseVulkanBenchArgs(['--command', 'vkCmdPushConstants'])).not.toHaveProperty('record');
  });

  it('BENCH #14: 10,000 commands per frame, per call, through the encoder and in a C loop: a table with the three ways and the two targets, and JSON', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const md = await cli(['bench', 'vulkan', '--command', 'record', '--iterations', '2', '--repeats', '2']);
    expect(md.stderr).toContain('bench: record: 10000 commands per frame');
    expect(md.code).toBe(0);
    for (const row of ['one N-API call per command', 'CommandEncoder (one call at end())', 'C loop through the loader']) expect(md.stdout).toContain(`| ${row}`);
    expect(md.stdout).toMatch(/per-call ÷ encoder = \d+\.\d\d× — (met|NOT met)/);
    expect(md.stdout).toMatch(/encoder ÷ C loop = \d+\.\d\d× — (met|NOT met)/);
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
});
