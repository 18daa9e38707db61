// The frame query bench: `khronos-loader bench openxr --command frame` with tiny iteration counts (no timing
// thresholds: the targets are judged in the benchmark's report, bench/RESULTS.md).
import { describe, expect, it } from 'vitest';
import { runCli } from '../../lib/tools/cli/main.js';
import { parseFrameBenchArgs } from '../../lib/tools/bench/cli-frame.js';
import type { FrameBenchResult } from '../../lib/tools/bench/frame-bench.js';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('bench openxr --command frame', () => {
  it('BENCH: a row per OpenXR version and space count: N locate calls, the frame query, its work in C, and the ratios against the targets', async () => {
    const { code, stdout, stderr } = await cli(['bench', 'openxr', '--command', 'frame', '--iterations', '640', '--repeats', '3']);
    expect(stderr).toContain('bench: frame, OpenXR 1.1, 64 spaces');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const header = lines.find((l) => l.startsWith('| OpenXR instance')) ?? '';
    for (const column of ['spaces', 'N × space.locate (JS)', 'frame query (JS)', "C: the query's work", 'C: N × xrLocateSpace', 'separate ÷ query', 'query ÷ (C + empty)']) {
      expect(header).toContain(`| ${column} |`);
    }
    const rows = lines.filter((l) => /^\| 1\.[01] \(/.test(l)).map((l) => l.split('|').map((c) => c.trim()));
    expect(rows.map((r) => `${r[1]} ${r[2]}`)).toEqual([
      ...[1, 4, 16, 64].map((n) => `1.0 (xrLocateSpace) ${n}`),
      ...[1, 4, 16, 64].map((n) => `1.1 (xrLocateSpaces) ${n}`),
    ]);
    for (const r of rows) {
      for (const cell of r.slice(3, 7)) expect(cell).toMatch(/^[\d.]+ ns ±[\d.]+ %$/);
      for (const cell of r.slice(7, 9)) expect(cell).toMatch(/^[\d.]+×$/);
    }
    expect(stdout).toMatch(/- frame query target, 16 spaces, simulated runtime, OpenXR 1\.0 \(xrLocateSpace\): frame query ≥ 8× cheaper than 16 space\.locate: [\d.]+× — (met|NOT met)/);
    expect(stdout).toMatch(/- frame query target, 16 spaces, simulated runtime, OpenXR 1\.1 \(xrLocateSpaces\): frame query ≤ 1\.3× \(C \+ one empty N-API call\): [\d.]+× — (met|NOT met)/);
  });

  it('BENCH: --json, --spaces and --api pick the cells; the numbers are per frame', async () => {
    const { code, stdout } = await cli(['bench', 'openxr', '--command=frame', '--spaces', '2,8', '--api', '1.1', '--iterations', '800', '--repeats', '2', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as FrameBenchResult;
    expect(result.runs.map((r) => [r.apiVersion, r.locatePath])).toEqual([['1.1', 'xrLocateSpaces']]);
    expect(result.runs[0]?.rows.map((r) => [r.spaces, r.frames])).toEqual([
      [2, 400],
      [8, 100],
    ]);
    for (const row of result.runs[0]?.rows ?? []) {
      expect(row.queryJs.runs).toBe(2);
      // A frame of 8 separate JavaScript calls costs more than one of its locates in C.
      expect(row.separateJs.median).toBeGreaterThan(row.nativeLoopC.median / row.spaces);
      // The yardstick is timed in the row's rounds, beside its cells; the ratios are per round.
      expect(row.emptyNapiCall.runs).toBe(2);
      expect(row.roundRatios.separateOverQuery).toBeGreaterThan(0);
      expect(row.roundRatios.queryOverFloor).toBeGreaterThan(0);
    }
    expect(result.runs[0]?.emptyNapiCall.median).toBeGreaterThan(0);
  });

  it('BENCH: bad arguments are usage errors (exit 2) naming the argument', async () => {
    expect(parseFrameBenchArgs(['openxr', '--command', 'frame', '--api', '2.0'])).toMatch(/--api needs OpenXR instance versions 1\.0 and\/or 1\.1, separated by commas, got "2\.0"/);
    expect(parseFrameBenchArgs(['openxr', '--command', 'frame', '--spaces', '4,x'])).toMatch(/--spaces needs a whole number/);
    expect(parseFrameBenchArgs(['openxr', '--command', 'frame', '--layers', '2'])).toMatch(/unknown argument "--layers"/);
    const r = await cli(['bench', 'openxr', '--command', 'frame', '--repeats', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--repeats needs a whole number >= 1');
    const missing = await cli(['bench', 'openxr', '--command', 'frame', '--runtime', '/nonexistent/rt.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--runtime needs "simulated" (the runtime bundled with khronos-loader), a runtime name that `khronos-loader runtimes` lists, or a runtime manifest path, got "/nonexistent/rt.json" (/nonexistent/rt.json does not exist)');
  });
});
