// `khronos-loader bench openxr`: the CLI with tiny iteration counts (no timing thresholds: speed
// targets live in the benchmark, not in tests).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../lib/tools/cli/main.js';
import { parseBenchArgs } from '../../lib/tools/bench/cli.js';
import { PASSTHROUGH_LAYER_PREFIX } from '../../lib/openxr/bundled-layers.js';
import { KHRONOS_LOADER_CANDIDATES } from '../../lib/tools/bench/khronos-loader-side.js';
import type { OpenXrBenchResult } from '../../lib/tools/bench/run-openxr-bench.js';
import { missingSystemComponent } from '../helpers/system.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'kl-bench-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const tiny = ['--iterations', '200', '--repeats', '3'];

describe('bench openxr CLI', () => {
  it('BENCH: prints a Markdown table with a row per layer count and the loaders as columns, and writes a valid SVG chart', async () => {
    const svgFile = path.join(tmp, 'chart.svg');
    const { code, stdout, stderr } = await cli(['bench', 'openxr', '--layers', '2', ...tiny, '--no-khronos', '--svg', svgFile]);
    expect(stderr).toContain('bench: xrLocateSpace: 2 pass-through');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const header = lines.find((l) => l.startsWith('| layers |')) ?? '';
    for (const column of ['ours: trampoline', 'ours: pointer', 'ours: JS space.locate', 'Khronos: trampoline', 'Khronos: pointer', 'koffi → Khronos']) {
      expect(header).toContain(`| ${column} |`);
    }
    const rows = lines.filter((l) => /^\| \d+ \|/.test(l));
    expect(rows.map((r) => r.split('|')[1]?.trim())).toEqual(['0', '1', '2']);
    for (const row of rows) {
      // Ours measured (a median in ns and its spread), Khronos left out with the reason as a footnote.
      expect(row).toMatch(/^\| \d \| [\d.]+ ns ±[\d.]+ % \| [\d.]+ ns ±[\d.]+ % \| [\d.]+ ns ±[\d.]+ % \| n\/a \[1\] \| n\/a \[1\] \|/);
    }
    expect(stdout).toContain('[1] left out (--no-khronos)');
    expect(stdout).toContain('3 runs of 200 calls');

    const svg = readFileSync(svgFile, 'utf8');
    const errors: string[] = [];
    const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(svg, 'image/svg+xml');
    expect(errors).toEqual([]);
    expect(doc.documentElement?.nodeName).toBe('svg');
    // One line per measured column (three of ours), each through the three layer counts.
    expect(doc.getElementsByTagName('path').length).toBe(3);
    expect(doc.getElementsByTagName('circle').length).toBe(9);
    expect(svg).toContain('ours: trampoline');
  });

  it('BENCH: --json gives rows with the enabled layers and a summary per cell; --layers 2 stacks two pass-through copies', async () => {
    const { code, stdout } = await cli(['bench', 'openxr', '--layers', '2', ...tiny, '--no-khronos', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as OpenXrBenchResult;
    expect(result.command.name).toBe('xrLocateSpace');
    expect(result.plan).toEqual({ iterations: 200, repeats: 3 });
    expect(result.columns).toEqual(['ours-trampoline', 'ours-pointer', 'ours-js', 'khronos-trampoline', 'khronos-pointer', 'koffi']);
    expect(result.rows.map((r) => r.layers)).toEqual([0, 1, 2]);
    expect(result.rows[2]?.apiLayerNames).toEqual([`${PASSTHROUGH_LAYER_PREFIX}_1`, `${PASSTHROUGH_LAYER_PREFIX}_2`]);
    expect(result.rows[0]?.apiLayerNames).toEqual([]);
    for (const row of result.rows) {
      const cell = row.cells['ours-trampoline'];
      expect(cell && 'wall' in cell ? cell.wall.runs : 0).toBe(3);
      expect(cell && 'wall' in cell ? cell.wall.median : 0).toBeGreaterThan(0);
      expect(row.cells['khronos-pointer']).toEqual({ skipped: 'left out (--no-khronos)' });
    }
    expect(result.emptyNapiCall?.runs).toBe(3);
  });

  it('BENCH: --processes N measures each side in N fresh processes and reports the median across them', async () => {
    const { code, stdout } = await cli(['bench', 'openxr', '--layers', '0', '--iterations', '200', '--repeats', '2', '--processes', '3', '--no-khronos', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as OpenXrBenchResult;
    expect(result.processes).toBe(3);
    const cell = result.rows[0]?.cells['ours-trampoline'];
    // One summary over the three processes' medians.
    expect(cell && 'wall' in cell ? cell.wall.runs : 0).toBe(3);
    expect(parseBenchArgs(['openxr', '--processes', '0'])).toMatch(/--processes needs a whole number >= 1/);
  });

  it('BENCH: an unknown command is rejected with the supported list (exit code 2)', async () => {
    const { code, stderr, stdout } = await cli(['bench', 'openxr', '--command', 'xrCreateSwapchain']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--command needs one of xrLocateSpace, xrLocateViews, xrGetActionStateBoolean, xrSyncActions, xrWaitFrame, frame, scene, got "xrCreateSwapchain"');
    expect((await cli(['bench', 'openxr', '--command', 'xrEndFrame'])).stderr).toContain('timed as part of the xrWaitFrame frame');
  });

  it('BENCH: argument errors name the argument', () => {
    expect(parseBenchArgs(['openxr', '--layers', 'core_validation'])).toMatch(/neither a layer count nor an API layer name/);
    expect(parseBenchArgs(['openxr', '--repeats', '0'])).toMatch(/--repeats needs a whole number >= 1/);
    expect(parseBenchArgs(['webgpu'])).toMatch(/"openxr" or "vulkan", got "webgpu"/);
    expect(parseBenchArgs([])).toMatch(/needs a target/);
    expect(parseBenchArgs(['openxr', '--layers=3,XR_APILAYER_LUNARG_core_validation'])).toMatchObject({
      passthroughCounts: [0, 1, 2, 3],
      realLayers: ['XR_APILAYER_LUNARG_core_validation'],
    });
    expect(parseBenchArgs(['openxr', '--layers', 'XR_APILAYER_LUNARG_api_dump'])).toMatchObject({ passthroughCounts: [0], realLayers: ['XR_APILAYER_LUNARG_api_dump'] });
    expect(parseBenchArgs(['openxr'])).toMatchObject({ command: 'xrLocateSpace', passthroughCounts: [0, 1, 2, 3, 4], json: false });
  });

  it('BENCH: a Khronos loader that cannot be loaded leaves its cells empty with the reason', async () => {
    const { code, stdout } = await cli(['bench', 'openxr', '--layers', '0', ...tiny, '--khronos-loader', path.join(tmp, 'libopenxr_loader.so.1'), '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as OpenXrBenchResult;
    const cell = result.rows[0]?.cells['khronos-trampoline'];
    expect(cell && 'skipped' in cell ? cell.skipped : '').toContain(path.join(tmp, 'libopenxr_loader.so.1'));
  });

  it('BENCH: the Khronos loader is measured in a child process on the same runtime and layers (system: libopenxr_loader)', async (ctx) => {
    const missing = missingSystemComponent({ 'Khronos OpenXR loader': KHRONOS_LOADER_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const { code, stdout } = await cli(['bench', 'openxr', '--layers', '1', ...tiny, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as OpenXrBenchResult;
    expect('path' in result.khronosLoader).toBe(true);
    for (const row of result.rows) {
      for (const id of ['khronos-trampoline', 'khronos-pointer'] as const) {
        const cell = row.cells[id];
        expect(cell && 'wall' in cell ? cell.wall.runs : cell).toBe(3);
      }
      // koffi is a devDependency, so in this checkout it is installed and must be measured.
      const koffi = row.cells.koffi;
      expect(koffi && 'wall' in koffi ? koffi.wall.runs : koffi).toBe(3);
      // XR-CI-5: both loaders hand out the top of the chain: the same function, in the same file.
      expect(row.pointerOrigins.ours).toEqual(row.pointerOrigins.khronos);
      expect(row.pointerOrigins.ours?.file).toMatch(row.layers === 0 ? /libkhronos_simxr\.so$/ : /libkhronos_layer_passthrough_1\.so$/);
    }
    const { stdout: markdown } = await cli(['bench', 'openxr', '--layers', '0', ...tiny]);
    expect(markdown).toMatch(/\| 0 \| [\d.]+ ns .* \| [\d.]+ ns ±[\d.]+ % \| [\d.]+ ns ±[\d.]+ % \|/);
    expect(markdown).toMatch(/\| [\d.]+× \| [\d.]+× \|/);
  });
});
