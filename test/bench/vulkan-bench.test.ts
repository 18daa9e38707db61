// `khronos-loader bench vulkan`: the CLI with tiny iteration counts (no timing thresholds: speed
// targets live in the benchmark, not in tests), on lavapipe, with the bundled pass-through Vulkan
// layer, VK_LAYER_KHRONOS_validation and the Khronos loader (Debian libvulkan1).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../lib/tools/cli/main.js';
import { parseBenchArgs } from '../../lib/tools/bench/cli.js';
import { parseVulkanBenchArgs } from '../../lib/tools/bench/cli-vulkan.js';
import { BENCH_GLIBC_TUNABLES, KHRONOS_VULKAN_LOADER_CANDIDATES, LAVAPIPE_MANIFEST_CANDIDATES, vulkanRowEnvironment, type VulkanBenchResult } from '../../lib/tools/bench/run-vulkan-bench.js';
import { runBenchChild } from '../../lib/tools/bench/child-process.js';
import type { VulkanChildRequest, VulkanChildResult } from '../../lib/tools/bench/vulkan-child-protocol.js';
import { VULKAN_PASSTHROUGH_LAYER_PREFIX } from '../../lib/tools/bench/vulkan-layers.js';
import { pointerComparison, vulkanTargets } from '../../lib/tools/bench/vulkan-report.js';
import koffi from 'koffi';
import { measureNativeInterleaved, measureNativePair, sideBySideCells } from '../../lib/tools/bench/measure-native.js';
import { createHostPlatform } from '../../lib/core/platform/host.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/instance.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { loadToolsAddon } from '../../lib/tools/native/addon.js';
import { runVulkanBench } from '../../lib/tools/bench/run-vulkan-bench.js';
import { formatVulkanBenchMarkdown } from '../../lib/tools/bench/vulkan-report.js';

const VALIDATION_MANIFEST = ['/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json'];

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const tiny = ['--iterations', '200', '--repeats', '3'];

function runs(cell: VulkanBenchResult['rows'][number]['cells']['ours-trampoline']): number | string {
  if (cell === undefined) return 'no cell';
  return 'wall' in cell ? cell.wall.runs : cell.skipped;
}

describe('bench vulkan CLI', () => {
  it('BENCH: prints a Markdown table with a row per pass-through count (0/1/3) and the loaders as columns', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const { code, stdout, stderr } = await cli(['bench', 'vulkan', '--command', 'vkCmdPushConstants', ...tiny, '--no-khronos']);
    expect(stderr).toContain('bench: vkCmdPushConstants: 3 pass-through');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const header = lines.find((l) => l.startsWith('| layers |')) ?? '';
    for (const column of ['ours: trampoline', 'ours: pointer', 'Khronos: trampoline', 'Khronos: pointer', 'ours ÷ Khronos: trampoline', 'pointer vs Khronos']) {
      expect(header).toContain(`| ${column} |`);
    }
    const rows = lines.filter((l) => /^\| \d+ \|/.test(l));
    expect(rows.map((r) => r.split('|')[1]?.trim())).toEqual(['0', '1', '3']);
    for (const row of rows) expect(row).toMatch(/^\| \d \| [\d.]+ ns ±[\d.]+ % \| [\d.]+ ns ±[\d.]+ % \| n\/a \[1\] \| n\/a \[1\] \| n\/a \| n\/a \|/);
    expect(stdout).toContain('[1] left out (--no-khronos)');
    expect(stdout).toContain('3 runs of 200 calls');
    expect(stdout).toMatch(/on llvmpipe/);
  });

  it('BENCH: both loaders build the same chain of pass-through copies (each copy in its own folder, VK_LAYER_PATH in chain order: the Khronos loader 1.3.239 orders layers enabled by VK_INSTANCE_LAYERS by discovery), so the top copy is the same file (system: libvulkan1)', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES, 'Khronos Vulkan loader': KHRONOS_VULKAN_LOADER_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const { code, stdout, stderr } = await cli(['bench', 'vulkan', '--command', 'vkCmdPushConstants', '--layers', '3', ...tiny, '--json']);
    expect(code, stderr).toBe(0);
    const [row] = (JSON.parse(stdout) as VulkanBenchResult).rows;
    expect(path.basename(row?.pointerOrigins.ours?.file ?? '')).toBe('libkhronos_vk_layer_passthrough_1.so');
    expect(row?.pointerOrigins.khronos).toEqual(row?.pointerOrigins.ours);
  });

  it('BENCH: --json rows name the enabled pass-through copies in chain order, and each layer hands out its own vkCmdPushConstants (the top copy is what vkGetDeviceProcAddr returns)', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const { code, stdout } = await cli(['bench', 'vulkan', '--command', 'vkCmdPushConstants', '--layers', '0,1,3', ...tiny, '--no-khronos', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as VulkanBenchResult;
    expect(result.plan).toEqual({ iterations: 200, repeats: 3, warmupIterations: 200 });
    expect(result.rows.map((r) => r.layerNames)).toEqual([[], [`${VULKAN_PASSTHROUGH_LAYER_PREFIX}_1`], [1, 2, 3].map((i) => `${VULKAN_PASSTHROUGH_LAYER_PREFIX}_${i}`)]);
    expect(result.rows.map((r) => path.basename(r.pointerOrigins.ours?.file ?? ''))).toEqual([
      'libvulkan_lvp.so',
      'libkhronos_vk_layer_passthrough_1.so',
      'libkhronos_vk_layer_passthrough_1.so',
    ]);
    for (const row of result.rows) {
      expect(runs(row.cells['ours-trampoline'])).toBe(3);
      expect(runs(row.cells['ours-pointer'])).toBe(3);
    }
  });

  it('BENCH: the Khronos loader runs in a child process with the same driver and layers; device-command pointers are the same function as ours (system: libvulkan1, lavapipe)', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES, 'Khronos Vulkan loader': KHRONOS_VULKAN_LOADER_CANDIDATES });
    if (missing) return ctx.skip(missing);
    for (const command of ['vkCmdPushConstants', 'vkGetDeviceQueue'] as const) {
      const { code, stdout } = await cli(['bench', 'vulkan', '--command', command, '--layers', '0,1,3', ...tiny, '--json']);
      expect(code).toBe(0);
      const result = JSON.parse(stdout) as VulkanBenchResult;
      expect('path' in result.khronosLoader).toBe(true);
      for (const row of result.rows) {
        expect(runs(row.cells['khronos-trampoline'])).toBe(3);
        expect(runs(row.cells['khronos-pointer'])).toBe(3);
        const p = pointerComparison(row);
        if (command === 'vkCmdPushConstants') {
          // Straight to the top of the chain for both loaders: lavapipe's function, or the pass-through layer's.
          expect(p.same).toBe(true);
          expect(row.pointerOrigins.khronos?.file).toMatch(row.passthrough === 0 ? /libvulkan_lvp\.so$/ : /libkhronos_vk_layer_passthrough_\d\.so$/);
        } else {
          // vkGetDeviceQueue must pass through the loader (the queue gets its dispatch pointer): each its own trampoline.
          expect(p.loaderOwn).toBe(true);
          expect(row.pointerOrigins.khronos?.file).toMatch(/libvulkan\.so\.1$/);
          expect(row.pointerOrigins.khronos?.file).toBe(row.loaderFiles.khronos);
          expect(row.pointerOrigins.ours?.file).toBe(row.loaderFiles.ours);
        }
      }
    }
    // The Khronos loader was only ever loaded in the children.
    expect(readFileSync('/proc/self/maps', 'utf8')).not.toMatch(/libvulkan\.so\.1/);
  });

  it('BENCH: --driver the Vulkan test driver (whose commands do next to nothing): both loaders record into its command buffers and hand out its own vkCmdPushConstants, so the trampolines are what the rows measure (system: libvulkan1)', async (ctx) => {
    const missing = missingSystemComponent({ 'Khronos Vulkan loader': KHRONOS_VULKAN_LOADER_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'kl-bench-driver-')), 'kl_vk_driver_v7.json');
    const library = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_v7.so');
    writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: library, api_version: '1.3.0' } }));
    for (const command of ['vkCmdPushConstants', 'vkGetDeviceQueue'] as const) {
      const { code, stdout, stderr } = await cli(['bench', 'vulkan', '--command', command, '--driver', manifest, '--layers', '0,1', ...tiny, '--json']);
      expect(code, stderr).toBe(0);
      const result = JSON.parse(stdout) as VulkanBenchResult;
      expect(result.driver.deviceName).toMatch(/^kl-v7\|/);
      for (const row of result.rows) {
        for (const cell of ['ours-trampoline', 'ours-pointer', 'khronos-trampoline', 'khronos-pointer'] as const) expect(runs(row.cells[cell])).toBe(3);
      }
      const [none, one] = result.rows;
      if (command === 'vkCmdPushConstants') {
        expect(none?.pointerOrigins.ours?.file).toBe(library);
        expect(none?.pointerOrigins.khronos?.file).toBe(library);
        expect(one?.pointerOrigins.ours?.file).toMatch(/libkhronos_vk_layer_passthrough_1\.so$/);
      } else {
        expect(pointerComparison(none as VulkanBenchResult['rows'][number]).loaderOwn).toBe(true);
      }
    }
  });

  it('BENCH: one child process times both loaders on the very same driver and layer code, each on its own copy of the timed loop, their runs interleaved; which loader is set up and timed first alternates (system: libvulkan1)', async (ctx) => {
    const missing = missingSystemComponent({ 'Khronos Vulkan loader': KHRONOS_VULKAN_LOADER_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const khronosLibrary = KHRONOS_VULKAN_LOADER_CANDIDATES.find((p) => existsSync(p))!;
    const library = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_v7.so');
    const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'kl-bench-sides-')), 'kl_vk_driver_v7.json');
    writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: library, api_version: '1.3.0' } }));
    const env = vulkanRowEnvironment({ PATH: process.env.PATH }, manifest, [], []);
    expect(env.GLIBC_TUNABLES).toBe(BENCH_GLIBC_TUNABLES);
    expect(vulkanRowEnvironment({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' }, manifest, [], []).GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=1');
    for (const sides of [['ours', 'khronos'], ['khronos', 'ours']] as const) {
      const request: VulkanChildRequest = { sides, khronosLibrary, command: 'vkCmdPushConstants', plan: { iterations: 100, repeats: 3, warmupIterations: 100 } };
      const answer = await runBenchChild<VulkanChildRequest, VulkanChildResult>('vulkan-child', request, env, (error) => ({ ok: false, error }));
      if (!answer.ok) throw new Error(answer.error);
      expect(answer.deviceName).toMatch(/^kl-v7\|/);
      for (const side of sides) {
        const r = answer.sides[side];
        if (!r?.ok) throw new Error(`${side}: ${r?.error ?? 'no result'}`);
        expect(r.trampoline.wall.runs).toBe(3);
        expect(r.pointer.wall.runs).toBe(3);
        // No layers: the driver's own function, the one copy of it in the process.
        expect(r.pointerOrigin?.file).toBe(library);
      }
      expect((answer.sides.ours as { pointerOrigin: unknown }).pointerOrigin).toEqual((answer.sides.khronos as { pointerOrigin: unknown }).pointerOrigin);
      expect((answer.sides.ours as { loaderFile: string }).loaderFile).toMatch(/khronos[-_]loader\.node$/);
      expect((answer.sides.khronos as { loaderFile: string }).loaderFile).toMatch(/libvulkan\.so/);
    }
    const refused = await runBenchChild<VulkanChildRequest, VulkanChildResult>('vulkan-child', { sides: ['ours', 'ours'], command: 'vkGetDeviceQueue', plan: { iterations: 1, repeats: 1 } }, env, (error) => ({ ok: false, error }));
    expect(refused).toEqual({ ok: false, error: expect.stringContaining('sides must be one or two different loaders') });
    // The order of the timed runs: A's and B's trampolines next to each other, then the pointers, reversed every other round.
    const calls: string[] = [];
    const fake = (side: string) => ({ measure: (mode: 'trampoline' | 'pointer', iterations: number) => (calls.push(`${side}-${mode[0]}${iterations}`), { wallNs: [1], cpuNs: [1] }) });
    measureNativeInterleaved(sideBySideCells([{ side: 'k', scenario: fake('k') }, { side: 'o', scenario: fake('o') }]), { iterations: 5, repeats: 2, warmupIterations: 5 });
    expect(calls).toEqual(['k-t5', 'o-t5', 'o-p5', 'k-p5', 'k-t5', 'o-t5', 'o-p5', 'k-p5', 'k-p5', 'o-p5', 'o-t5', 'k-t5']);
    // Two copies of the timed loops: 0 and 1.
    expect(() => new (loadToolsAddon().VulkanBenchScenario)({ command: 'vkGetDeviceQueue', timingLoop: 2 as 0 })).toThrow(/timingLoop must be 0 or 1/);
  });

  it('BENCH: a vkCmdPushConstants timed run is two recordings of half the calls, so a driver that alternates between two states from one reset to the next (lavapipe through glibc\'s free lists) gives every run one of each', () => {
    const library = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_v7.so');
    const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'kl-bench-recordings-')), 'kl_vk_driver_v7.json');
    writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: library, api_version: '1.3.0' } }));
    const env = { VK_DRIVER_FILES: manifest, VK_LOADER_LAYERS_DISABLE: '~implicit~' };
    publishVulkanPlan(createLoader({ platform: createHostPlatform({ env, elevated: false }) }).planInstance({}));
    // The driver's log of what each recording held (vkEndCommandBuffer); the same library our loader opened.
    const recordings = koffi.load(library).func('uint64_t kl_vk_test_driver_recordings(_Out_ uint64_t *counts, uint32_t capacity)');
    const last = (n: number): { ended: number; counts: number[] } => {
      const counts = new BigUint64Array(n);
      const ended = Number(recordings(counts, n) as bigint);
      return { ended, counts: [...counts].map(Number) };
    };
    const scenario = new (loadToolsAddon().VulkanBenchScenario)({ command: 'vkCmdPushConstants' });
    try {
      const before = last(1).ended;
      for (const mode of ['trampoline', 'pointer'] as const) {
        const samples = scenario.measure(mode, 1001, 3);
        expect(samples.wallNs).toHaveLength(3);
        const log = last(6);
        expect(log.ended - before).toBe(mode === 'trampoline' ? 6 : 12);
        expect(log.counts).toEqual([501, 500, 501, 500, 501, 500]);
      }
      scenario.measure('pointer', 1, 1); // one call: one recording
      expect(last(1)).toEqual({ ended: before + 13, counts: [1] });
    } finally {
      scenario.destroy();
    }
  });

  it('BENCH: the Vulkan rows warm up with a run as long as a timed one (what a driver allocates per command is grown before the first timed run), then interleave trampoline and pointer runs', async () => {
    const calls: string[] = [];
    const scenario = { measure: (mode: 'trampoline' | 'pointer', iterations: number, repeats: number) => (calls.push(`${mode[0]}${iterations}x${repeats}`), { wallNs: Array(repeats).fill(1), cpuNs: Array(repeats).fill(1) }) };
    measureNativePair(scenario, { iterations: 50, repeats: 3, warmupIterations: 50 });
    expect(calls).toEqual(['t50x1', 'p50x1', 't50x1', 'p50x1', 'p50x1', 't50x1', 't50x1', 'p50x1']);
    const { code, stdout, stderr } = await cli(['bench', 'vulkan', '--no-khronos', '--layers', '0', ...tiny, '--json']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as VulkanBenchResult;
    expect(result.plan).toEqual({ iterations: 200, repeats: 3, warmupIterations: 200 });
    const markdown = await cli(['bench', 'vulkan', '--no-khronos', '--layers', '0', ...tiny]);
    expect(markdown.stdout).toContain('- method: per cell a warm-up run as long as a timed run, then 3 runs of 200 calls');
    // The allocator settings the children ran with are part of the method.
    expect(markdown.stdout).toContain(`The children ran with GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? BENCH_GLIBC_TUNABLES}.`);
  });

  it('BENCH: "each loader\'s own" is told by where each loader\'s exports live, whatever the files are called (the packaged addon is khronos-loader.node; a Khronos loader may be any libvulkan)', () => {
    const row = (ours: string, khronos: string, oursLoader: string, khronosLoader: string): VulkanBenchResult['rows'][number] => ({
      label: 'no layers',
      passthrough: 0,
      realLayers: [],
      processes: 1,
      layerNames: [],
      cells: {},
      pointerOrigins: { ours: { file: ours, offset: 0x100 }, khronos: { file: khronos, offset: 0x200 } },
      loaderFiles: { ours: oursLoader, khronos: khronosLoader },
    });
    const packaged = '/app/node_modules/khronos-loader/prebuilds/linux-x64/khronos-loader.node';
    const gpuLoader = '/opt/kl/.gpu/vulkan/libvulkan.so.1.4.309';
    const own = pointerComparison(row(packaged, gpuLoader, packaged, gpuLoader));
    expect(own.loaderOwn).toBe(true);
    expect(vulkanTargets({ rows: [row(packaged, gpuLoader, packaged, gpuLoader)], command: { name: 'vkGetDeviceQueue' } } as unknown as VulkanBenchResult).join('\n')).toContain('not applicable (a loader command)');
    // A pointer into another library (a layer) is not the loader's own, even beside the loader's name.
    const other = pointerComparison(row('/x/libkhronos_vk_layer_passthrough_1.so', gpuLoader, packaged, gpuLoader));
    expect(other.loaderOwn).toBeUndefined();
    expect(other.same).toBe(false);
  });

  it('BENCH: a VK_LAYER_KHRONOS_validation row puts the validation layer at the top of both chains (system: validation layer)', async (ctx) => {
    const missing = missingSystemComponent({
      lavapipe: LAVAPIPE_MANIFEST_CANDIDATES,
      'Khronos Vulkan loader': KHRONOS_VULKAN_LOADER_CANDIDATES,
      'VK_LAYER_KHRONOS_validation': VALIDATION_MANIFEST,
    });
    if (missing) return ctx.skip(missing);
    const { code, stdout } = await cli(['bench', 'vulkan', '--command', 'vkCmdPushConstants', '--layers', 'VK_LAYER_KHRONOS_validation', ...tiny, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as VulkanBenchResult;
    expect(result.rows.map((r) => r.label)).toEqual(['no layers', 'VK_LAYER_KHRONOS_validation']);
    const row = result.rows[1]!;
    expect(row.layerNames).toEqual(['VK_LAYER_KHRONOS_validation']);
    expect(row.pointerOrigins.ours?.file).toMatch(/libVkLayer_khronos_validation\.so$/);
    expect(row.pointerOrigins.ours).toEqual(row.pointerOrigins.khronos);
    expect(runs(row.cells['khronos-trampoline'])).toBe(3);
  });

  it('BENCH: a Khronos loader that cannot be loaded leaves its cells empty with the reason', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES });
    if (missing) return ctx.skip(missing);
    const bogus = '/nonexistent/libvulkan.so.1';
    const { code, stdout } = await cli(['bench', 'vulkan', '--layers', '0', ...tiny, '--khronos-loader', bogus, '--json']);
    expect(code).toBe(0);
    const cell = (JSON.parse(stdout) as VulkanBenchResult).rows[0]?.cells['khronos-trampoline'];
    expect(cell && 'skipped' in cell ? cell.skipped : '').toContain(bogus);
  });

  it('BENCH: argument errors name the argument; an unknown command exits 2 with the supported list', async () => {
    expect(parseVulkanBenchArgs(['--layers', 'validation'])).toMatch(/neither a layer count nor a layer name/);
    expect(parseVulkanBenchArgs(['--processes', '0'])).toMatch(/--processes needs a whole number >= 1/);
    expect(parseVulkanBenchArgs(['--frobnicate'])).toMatch(/unknown argument "--frobnicate"/);
    expect(parseVulkanBenchArgs([])).toMatchObject({ command: 'vkGetDeviceQueue', passthroughCounts: [0, 1, 3], realLayers: [] });
    expect(parseVulkanBenchArgs(['--layers=3,0,VK_LAYER_KHRONOS_validation', '--repeats=2'])).toMatchObject({
      passthroughCounts: [0, 3],
      realLayers: ['VK_LAYER_KHRONOS_validation'],
      repeats: 2,
    });
    expect(parseBenchArgs(['webgpu'])).toMatch(/"openxr" or "vulkan", got "webgpu"/);
    const { code, stdout, stderr } = await cli(['bench', 'vulkan', '--command', 'vkCmdDraw']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--command needs one of vkGetDeviceQueue, vkCmdPushConstants, vkAcquireNextImageKHR+vkQueuePresentKHR, vkAcquireNextImageKHR, vkQueuePresentKHR, record, got "vkCmdDraw"');
  });

  it('BENCH: vkAcquireNextImageKHR / vkQueuePresentKHR rows (the pair and each alone) are measured under a private Xvfb on lavapipe beside the Khronos loader, in a present mode that does not wait for a refresh; both chains go through the pass-through layer, and the Xvfb is gone after (system: libvulkan1, xvfb)', async (ctx) => {
    const missing = missingSystemComponent({ lavapipe: LAVAPIPE_MANIFEST_CANDIDATES, 'Khronos Vulkan loader': KHRONOS_VULKAN_LOADER_CANDIDATES, 'Xvfb (xvfb)': ['/usr/bin/Xvfb'] });
    if (missing) return ctx.skip(missing);
    for (const command of ['vkAcquireNextImageKHR+vkQueuePresentKHR', 'vkAcquireNextImageKHR', 'vkQueuePresentKHR']) {
      const { code, stdout, stderr } = await cli(['bench', 'vulkan', '--command', command, '--layers', '0,1', '--iterations', '20', '--repeats', '3', '--json']);
      expect(code, stderr).toBe(0);
      const display = /Xvfb on :(\d+)/.exec(stderr)?.[1];
      expect(display, stderr).toBeDefined();
      // Xvfb removes its socket and lock when it exits; the bench waited for that before it answered.
      expect(existsSync(`/tmp/.X11-unix/X${display}`)).toBe(false);
      expect(existsSync(`/tmp/.X${display}-lock`)).toBe(false);
      const result = JSON.parse(stdout) as VulkanBenchResult;
      expect(result.command.name).toBe(command);
      expect(result.presentation).toMatchObject({ server: 'Xvfb' });
      expect(['IMMEDIATE', 'MAILBOX']).toContain(result.presentation && 'presentMode' in result.presentation ? result.presentation.presentMode : undefined);
      expect(result.rows.map((r) => r.label)).toEqual(['no layers', '1 pass-through']);
      for (const row of result.rows) {
        for (const cell of ['ours-trampoline', 'ours-pointer', 'khronos-trampoline', 'khronos-pointer'] as const) expect(runs(row.cells[cell]), `${command} ${row.label} ${cell}`).toBe(3);
        // The pointer each loader hands out is the top of the chain: lavapipe's, or the pass-through layer's wrapper.
        expect(pointerComparison(row).same).toBe(true);
        expect(path.basename(row.pointerOrigins.ours?.file ?? '')).toBe(row.passthrough === 0 ? 'libvulkan_lvp.so' : 'libkhronos_vk_layer_passthrough_1.so');
      }
      expect(vulkanTargets(result).filter((l) => l.includes(', trampoline: ours at or below Khronos: ours ÷ Khronos = '))).toHaveLength(2);
    }
  });

  it('BENCH: without Xvfb the presentation rows are not measured and the report says why; no child process runs', async () => {
    const result = await runVulkanBench({ command: 'vkQueuePresentKHR', passthroughCounts: [0, 1], iterations: 10, repeats: 1, xvfb: false, khronosLoader: false, driverManifest: '/nonexistent/driver.json' });
    expect(result.presentation).toEqual({ unavailable: expect.stringContaining('Xvfb is not installed (Debian package xvfb)') });
    expect(result.rows.map((r) => [r.label, r.processes, runs(r.cells['ours-trampoline']), runs(r.cells['khronos-pointer'])])).toEqual([
      ['no layers', 0, expect.stringContaining('Xvfb is not installed'), expect.stringContaining('Xvfb is not installed')],
      ['1 pass-through', 0, expect.stringContaining('Xvfb is not installed'), expect.stringContaining('Xvfb is not installed')],
    ]);
    expect(formatVulkanBenchMarkdown(result)).toContain('- window: not measured — Xvfb is not installed (Debian package xvfb)');
  });
});
