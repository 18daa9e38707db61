// npm run bench: the standard set, in one run, written to bench/RESULTS.md with its charts.
//  1. Dispatch overhead (docs/performance.md, 'OpenXR: dispatch per call'): xrLocateSpace on the cheap test runtime from
//     test/native (it does almost nothing, so the loader's and the layers' cost shows), 0/1/4
//     pass-through layers: ours through the trampoline, the pointer, with a second instance live,
//     from JavaScript; the Khronos loader and koffi beside it.
//  2. The simulated runtime that ships with the package: xrLocateSpace with 0..4
//     pass-through layers and core_validation when installed, then the other commands.
//  3. Monado, when built (scripts/build-monado.sh): xrLocateSpace with 0..4 pass-through layers and core_validation.
//  4. The generated bindings (docs/usage.md, 'Every command: the generated bindings'): xrGetActionStateFloat, xrLocateSpace and
//     xrGetSystemProperties through openXrCommands beside the hand-written typed API, on the simulated runtime.
//  5. Vulkan dispatch (docs/performance.md, 'Vulkan: dispatch per call'): vkGetDeviceQueue and vkCmdPushConstants on lavapipe with 0/1/3
//     pass-through Vulkan layers and VK_LAYER_KHRONOS_validation, ours beside the Khronos loader,
//     and the same on the Vulkan test driver from test/native (the trampolines alone);
//     vkAcquireNextImageKHR / vkQueuePresentKHR (the pair, and each alone) presented to a window on a
//     private Xvfb on lavapipe, 0/1/3 pass-through layers (docs/performance.md, 'Acquire and present');
//     and 10,000 commands recorded per call, through the CommandEncoder and in a C loop (docs/performance.md,
//     'Vulkan: recording 10,000 commands').
//  6. Frame queries (docs/performance.md, 'OpenXR: frame queries'): N = 1, 4, 16, 64 spaces per frame, N space.locate calls vs one frame
//     query vs the same work in C, OpenXR 1.0 and 1.1 instances, on the test runtime, the simulated
//     runtime and Monado when built.
// KL_BENCH_SCALE (default 1) multiplies every iteration count (e.g. 0.01 for a quick look).
// KL_BENCH_ONLY=vulkan runs part 5 alone, KL_BENCH_ONLY=generated part 4, KL_BENCH_ONLY=frame
// part 6, each replacing only its section of bench/RESULTS.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findKhronosLoader, khronosLoaderPackageVersion } from '../lib/tools/bench/khronos-loader-side.js';
import { formatBenchMarkdown, renderBenchChart } from '../lib/tools/bench/report.js';
import { runOpenXrBench, type BenchRow, type Cell, type OpenXrBenchOptions, type OpenXrBenchResult } from '../lib/tools/bench/run-openxr-bench.js';
import { discover } from '../lib/openxr/discovery/discover.js';
import { runDemo, type DemoResult } from '../lib/tools/cli/demo.js';
import { monadoHeadlessEnv, monadoManifestPath } from '../lib/openxr/monado-headless.js';
import { packageRoot } from '../lib/core/native/load.js';
import type { Summary } from '../lib/tools/bench/stats.js';
import { BENCH_GLIBC_TUNABLES, runVulkanBench, SYSTEM_EXPLICIT_LAYER_FOLDER, khronosVulkanLoaderPackageVersion, type VulkanBenchResult } from '../lib/tools/bench/run-vulkan-bench.js';
import { formatVulkanBenchMarkdown, vulkanTargets, vulkanTrampolineTally } from '../lib/tools/bench/vulkan-report.js';
import { lookConfidence, TRAMPOLINE_MARGIN } from '../lib/tools/bench/vulkan-verdict.js';
import { formatRecordBenchMarkdown, RECORD_DEFAULT_FRAMES, recordTargets, runRecordBench } from '../lib/tools/bench/run-vulkan-record-bench.js';
import { formatFrameBenchMarkdown, frameTargets, runFrameBench, type FrameBenchResult } from '../lib/tools/bench/frame-bench.js';
import { formatGeneratedBench, measureGeneratedBesideHandWritten } from '../lib/tools/bench/generated-commands.js';
import { createHostPlatform } from '../lib/core/platform/host.js';
import { createLoader } from '../lib/openxr/loader.js';
import { simulatedRuntime } from '../lib/openxr/simulated-runtime.js';

const scale = Number(process.env.KL_BENCH_SCALE ?? 1);
const repeats = Number(process.env.KL_BENCH_REPEATS ?? 7);
const iterations = (n: number) => Math.max(1, Math.round(n * scale));
const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** The test runtime (test/native), built as the test setup builds it. */
function buildTestRuntime(): string {
  const out = path.join(packageRoot, 'build/test-native');
  execFileSync('cmake', ['-S', 'test/native', '-B', out, '-DCMAKE_BUILD_TYPE=RelWithDebInfo'], { cwd: packageRoot, stdio: 'ignore' });
  execFileSync('cmake', ['--build', out, '--parallel', '2'], { cwd: packageRoot, stdio: 'ignore' });
  return path.join(out, 'openxr_test_runtime/kl_test_runtime.json');
}

/**
 * A manifest for the Vulkan test driver (test/native, built with the test runtime): its
 * vkCmdPushConstants and vkGetDeviceQueue cost a nanosecond or two, so what the bench measures
 * through it is the loader's trampoline (and the layers), not the driver's own work.
 */
const TEST_DRIVER_LIBRARY = 'build/test-native/vulkan_test_driver/libkl_vk_driver_v7.so';
function testDriverManifest(): string {
  buildTestRuntime();
  const library = path.join(packageRoot, TEST_DRIVER_LIBRARY);
  const manifest = path.join(mkdtempSync(path.join(os.tmpdir(), 'kl-bench-driver-')), 'kl_vk_driver_v7.json');
  writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: library, api_version: '1.3.0' } }));
  return manifest;
}

function cpuModel(): string {
  try {
    const model = /Model name:\s*(.+)/.exec(execFileSync('lscpu').toString())?.[1]?.trim();
    if (model) return model;
  } catch {
    // lscpu is optional
  }
  return 'unknown CPU';
}

function wall(cell: Cell | undefined): Summary | undefined {
  return cell && 'wall' in cell ? cell.wall : undefined;
}

/** A target line: the measured ratio and whether it meets the goal. */
function target(text: string, value: number | undefined, goal: (v: number) => boolean, shown: (v: number) => string): string {
  if (value === undefined || !Number.isFinite(value)) return `- ${text}: not measured`;
  return `- ${text}: ${shown(value)} — ${goal(value) ? 'met' : 'NOT met'}`;
}

/** "libx.so+0x1a2b" when both loaders' pointers are the same function, else undefined. */
function samePointer(origins: BenchRow['pointerOrigins']): string | undefined {
  const { ours, khronos } = origins;
  if (!ours || !khronos || ours.file !== khronos.file || ours.offset !== khronos.offset) return undefined;
  return `${path.basename(ours.file)}+0x${ours.offset.toString(16)}`;
}

/** NODE-4: a 30 s frame loop at 90 Hz misses at most 0.5 % of frames, with event-loop lag p99 under 2 ms. */
function demoTargets(demo: DemoResult): string[] {
  return [
    target('frame loop target, 30 s at 90 Hz: missed frames ≤ 0.5 %', demo.missedPercent, (v) => v <= 0.5, (v) => `${v.toFixed(2)} % missed (${demo.rendered} rendered)`),
    target('frame loop target, 30 s at 90 Hz: event-loop lag p99 < 2 ms', demo.lagP99Ms ?? undefined, (v) => v < 2, (v) => `p99 ${v.toFixed(2)} ms (p50 ${demo.lagP50Ms?.toFixed(2)} ms)`),
  ];
}

function targets(dispatch: OpenXrBenchResult): string[] {
  const lines: string[] = [];
  for (const row of dispatch.rows) {
    for (const mode of ['trampoline', 'pointer'] as const) {
      const ours = wall(row.cells[`ours-${mode}`]);
      const khronos = wall(row.cells[`khronos-${mode}`]);
      const text = `dispatch target, ${row.layers} layers, ${mode}: ours at or below Khronos`;
      const same = mode === 'pointer' ? samePointer(row.pointerOrigins) : undefined;
      if (same !== undefined && ours && khronos) {
        // Both loaders hand out the very same function: what the call costs cannot differ, and
        // the measured gap is how the processes happened to lay out memory (see the spread).
        lines.push(
          `- ${text}: both loaders hand out the same function (${same}), so the call costs the same — met; ` +
            `measured ${ours.median.toFixed(2)} vs ${khronos.median.toFixed(2)} ns, spreads ±${(ours.relativeIqr * 50).toFixed(0)} % / ±${(khronos.relativeIqr * 50).toFixed(0)} % between processes`,
        );
        continue;
      }
      lines.push(target(text, ours && khronos ? ours.median / khronos.median : undefined, (v) => v <= 1, (v) => `ours ÷ Khronos = ${v.toFixed(2)}×`));
    }
  }
  const row0 = dispatch.rows.find((r) => r.layers === 0);
  const js = wall(row0?.cells['ours-js']);
  const koffi = wall(row0?.cells.koffi);
  // The per-call path against the plain-C yardstick in the same process, in rounds (lib/tools/bench/measure-per-call.ts).
  const perCall = row0?.perCall !== undefined && !('error' in row0.perCall) ? row0.perCall : undefined;
  for (const cell of perCall?.cells ?? []) {
    lines.push(
      target(
        `per-call target, no layers: ${cell.name}, above its runtime call, ≤ 1.5× an empty two-argument N-API call in plain C`,
        cell.pathRatio,
        (v) => v <= 1.5,
        (v) => `(${cell.name} − runtime call) ÷ yardstick = ${v.toFixed(2)}× (with the runtime's call ${cell.ratio.toFixed(2)}×)`,
      ),
    );
  }
  if (perCall === undefined) lines.push(target('per-call target, no layers: space.locate ≤ 1.5× an empty two-argument N-API call in plain C', undefined, (v) => v <= 1.5, (v) => `${v}`));
  lines.push(
    target('space.locate target, no layers: JS space.locate ≥ 2× faster than koffi', js && koffi ? koffi.median / js.median : undefined, (v) => v >= 2, (v) => `koffi ÷ space.locate = ${v.toFixed(2)}×`),
  );
  return lines;
}

const GENERATED_START = '<!-- generated-bench:start (bench/run.ts writes this section) -->';
const GENERATED_END = '<!-- generated-bench:end -->';

/** Part 4: the generated bindings' cost per call beside the hand-written typed API. */
function generatedSection(): string[] {
  progress('the generated bindings beside the hand-written typed API');
  const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: '' };
  const instance = createLoader({ platform: createHostPlatform({ env }) }).createInstance({ applicationName: 'bench generated', enabledExtensionNames: ['XR_MND_headless'] });
  try {
    const rows = measureGeneratedBesideHandWritten(instance, 1_000_000_000, { iterations: iterations(200_000), repeats });
    return [
      GENERATED_START,
      '## The generated bindings beside the hand-written typed API',
      '',
      'The same command on the same headless session of the simulated runtime, no layers, from JavaScript:',
      'the generated bindings (`openXrCommands(instance)`, plain objects marshalled through the generated tables on',
      'every call, a fresh result object returned) beside the hand-written typed API (bound once, writing into',
      'reused storage). The hand-written per-frame paths are unchanged; the generated ones are for everything else.',
      '',
      ...formatGeneratedBench(rows),
      '',
      `- date: ${new Date().toISOString()}; load average at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(', ')} (a shared machine); KL_BENCH_SCALE ${scale}`,
      GENERATED_END,
      '',
    ];
  } finally {
    instance.destroy();
  }
}

const VULKAN_START = '<!-- vulkan-bench:start (bench/run.ts writes this section) -->';
const VULKAN_END = '<!-- vulkan-bench:end -->';

/** Part 3: the Vulkan tables as one Markdown section between markers. */
async function vulkanSection(): Promise<string> {
  const validation = existsSync(path.join(SYSTEM_EXPLICIT_LAYER_FOLDER, 'VkLayer_khronos_validation.json')) ? ['VK_LAYER_KHRONOS_validation'] : [];
  // 26 processes per row, each timing both loaders: 13 crossover pairs. A row whose interval still
  // straddles the margin is measured again, 26 more at a time, up to 78 (39 pairs): the trampolines
  // sit within a percent of Khronos's, so one row in a run straddled at 13 pairs.
  const processes = Number(process.env.KL_BENCH_PROCESSES ?? 26);
  const maxProcesses = Math.max(processes, Number(process.env.KL_BENCH_MAX_PROCESSES ?? processes * 3));
  const confidence = lookConfidence(Math.ceil(maxProcesses / processes));
  const results: VulkanBenchResult[] = [];
  const loadAtStart = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  for (const [command, n] of [['vkGetDeviceQueue', 1_000_000], ['vkCmdPushConstants', 200_000]] as const) {
    results.push(await runVulkanBench({ command, passthroughCounts: [0, 1, 3], realLayers: validation, iterations: iterations(n), repeats, processes, maxProcesses, onProgress: progress }));
  }
  // Acquire and present under a private Xvfb: a frame costs hundreds of microseconds, so fewer
  // frames and processes than the dispatch rows (the loaders' part is far inside the X server's noise).
  const presentProcesses = Number(process.env.KL_BENCH_PRESENT_PROCESSES ?? 6);
  const presentation: VulkanBenchResult[] = [];
  for (const command of ['vkAcquireNextImageKHR+vkQueuePresentKHR', 'vkAcquireNextImageKHR', 'vkQueuePresentKHR'] as const) {
    presentation.push(
      await runVulkanBench({ command, passthroughCounts: [0, 1, 3], iterations: iterations(200), repeats, processes: presentProcesses, maxProcesses: presentProcesses, onProgress: progress }),
    );
  }
  // The same commands on the test driver: the trampolines with no driver work around them.
  const driverManifest = testDriverManifest();
  const alone: VulkanBenchResult[] = [];
  for (const command of ['vkGetDeviceQueue', 'vkCmdPushConstants'] as const) {
    alone.push(await runVulkanBench({ command, passthroughCounts: [0, 1, 3], iterations: iterations(1_000_000), repeats, processes, maxProcesses, driverManifest, onProgress: progress }));
  }
  const record = await runRecordBench({ frames: iterations(RECORD_DEFAULT_FRAMES), repeats, onProgress: progress });
  // And on the test driver, whose commands only count: the crossing and the encoder alone.
  const recordAlone = await runRecordBench({ frames: iterations(RECORD_DEFAULT_FRAMES), repeats, driverManifest, onProgress: progress });
  const recordAloneNamed = { ...recordAlone, driver: { ...recordAlone.driver, manifestPath: `${TEST_DRIVER_LIBRARY}, a manifest written for the run` } };
  const first = results[0];
  const load = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  const version = khronosVulkanLoaderPackageVersion();
  const lines = [
    VULKAN_START,
    '## Vulkan on lavapipe and on the test driver: dispatch and recording',
    '',
    '`khronos-loader bench vulkan` measures any one of these tables on an installed package.',
    '',
    `- date: ${first?.date ?? new Date().toISOString()}; load average (1, 5, 15 min) at the start: ${loadAtStart}, at the end: ${load} (above the core count: other work was running)`,
    `- machine: ${cpuModel()}, ${first?.machine.cores ?? '?'} cores (${first?.machine.os ?? ''}); Node ${process.version}`,
    `- Khronos loader: ${first && 'path' in first.khronosLoader ? `${first.khronosLoader.path}${version ? `, Debian libvulkan1 ${version}` : ''}` : 'not installed'}, dlopened beside ours in the same child processes (the same driver and layer code for both)`,
    `- ${processes} fresh child processes per row (a row whose trampoline verdict was within noise: ${processes} more at a time, up to ${maxProcesses}), each timing both loaders, which one first alternating; glibc's allocator made steady in them (GLIBC_TUNABLES=${BENCH_GLIBC_TUNABLES}); KL_BENCH_SCALE ${scale}`,
    '',
    '### Targets',
    '',
    `The trampolines: ours ÷ Khronos is the median of crossover estimates (two neighbouring processes, one timing ours first and one Khronos first, each process's ratio the median over its rounds of the two loaders' runs that ran next to each other); met when its sign-test interval lies at or below ${(1 + TRAMPOLINE_MARGIN).toFixed(2)} (at Khronos within ${TRAMPOLINE_MARGIN * 100} %, or below), missed when it lies above, within noise when it straddles; ` +
      `a row within noise is measured again and judged on all its processes, each look's interval at ${(confidence * 100).toFixed(1)} % or more, so that, whichever look decides, a verdict is wrong at most 5 % of the time. ` +
      'On the test driver (test/native: its commands cost a nanosecond or two) the trampoline and the layers are what is measured. ' +
      'On lavapipe they are a nanosecond or two inside a driver call of 5 ns (vkGetDeviceQueue) to about 40 ns (vkCmdPushConstants, which allocates per command), ' +
      'so there the interval is as wide as the driver\'s own time varies between the two loaders\' command buffers.',
    '',
    `- On the test driver: ${vulkanTrampolineTally(alone)}.`,
    `- On lavapipe: ${vulkanTrampolineTally(results)}.`,
    `- Acquire and present on lavapipe under Xvfb (${presentProcesses} processes a row, no second look): ${vulkanTrampolineTally(presentation)}.`,
    '',
    ...alone.flatMap((r) => vulkanTargets(r, 'the test driver')),
    ...results.flatMap((r) => vulkanTargets(r)),
    ...presentation.flatMap((r) => vulkanTargets(r)),
    ...recordTargets(record).map((line) => `${line} — on lavapipe`),
    ...recordTargets(recordAlone).map((line) => `${line} — on the test driver`),
    '',
    ...alone.map((r) =>
      formatVulkanBenchMarkdown(
        // The manifest is a temporary file; say what it names.
        { ...r, driver: { ...r.driver, manifestPath: `${TEST_DRIVER_LIBRARY}, a manifest written for the run` } },
        { headingLevel: 3, omitRunInfo: true, title: `Vulkan \`${r.command.name}\` on the test driver: the trampoline alone` },
      ),
    ),
    ...results.map((r) => formatVulkanBenchMarkdown(r, { headingLevel: 3, omitRunInfo: true })),
    ...presentation.map((r) => formatVulkanBenchMarkdown(r, { headingLevel: 3, omitRunInfo: true })),
    formatRecordBenchMarkdown(record, 3),
    formatRecordBenchMarkdown(recordAloneNamed, 3, 'on the test driver: the crossing and the encoder alone'),
    VULKAN_END,
    '',
  ];
  return lines.join('\n');
}

/** Replaces one marked section of bench/RESULTS.md (or appends it), keeping the rest. */
function spliceSection(existing: string, section: string, startMarker: string, endMarker: string): string {
  const start = existing.indexOf(startMarker);
  const end = existing.indexOf(endMarker);
  if (start < 0 || end < start) return `${existing.trimEnd()}\n\n${section}`;
  return `${existing.slice(0, start)}${section}${existing.slice(end + endMarker.length).replace(/^\n+/, '')}`;
}

const FRAME_START = '<!-- frame-bench:start (bench/run.ts writes this section) -->';
const FRAME_END = '<!-- frame-bench:end -->';

/** Part 6: frame queries, one table per runtime, the targets judged on each. */
function frameSection(testRuntime: string): string {
  // Short runs, many of them: on a shared machine most runs then go unpreempted (lib/tools/bench/frame-bench.ts).
  const locatesPerRun = iterations(40_000);
  const runs: FrameBenchResult[] = [];
  const bench = (manifestPath: string, label: string) => {
    progress(`frame queries on the ${label}`);
    runs.push(runFrameBench({ runtime: { manifestPath, label }, locatesPerRun, repeats: Math.max(repeats, 21), onProgress: progress }));
  };
  bench(testRuntime, 'test runtime');
  bench(simulatedRuntime(), 'simulated runtime');
  const monado = monadoManifestPath(packageRoot, process.env);
  if (existsSync(monado)) {
    // Monado reads its settings from the environment of the process it is loaded into: this one.
    const saved = { ...process.env };
    for (const [k, v] of Object.entries(monadoHeadlessEnv())) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    try {
      bench(monado, 'Monado runtime');
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  }
  const first = runs[0];
  const load = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  return [
    FRAME_START,
    '## Frame queries: one native call per frame',
    '',
    '`khronos-loader bench openxr --command frame [--runtime manifest]` measures any one of these tables on an installed package.',
    'The targets are about the crossing from JavaScript, so the test runtime (whose xrLocateSpace and xrLocateSpaces do almost',
    'nothing) is where they are judged; on the simulated runtime and Monado the runtime\'s own work per space dominates.',
    '',
    `- date: ${first?.date ?? new Date().toISOString()}; load average at the end: ${load} (a shared machine: other work was running)`,
    `- machine: ${cpuModel()}, ${first?.machine.cores ?? '?'} cores (${first?.machine.os ?? ''}); Node ${process.version}; KL_BENCH_SCALE ${scale}`,
    '',
    '### Targets',
    '',
    ...runs.flatMap(frameTargets),
    '',
    'Reading the tables: "C: the query\'s work" leaves the results in the runtime\'s structures; the query also copies',
    'them into the documented Float32Array layout (8 floats per space) and checks, in JavaScript, that the output is still',
    'the one it was bound to — what "query ÷ (C + empty)" shows above 1.00 on the test runtime. On the simulated runtime',
    'and Monado a locate costs the runtime 0.1–1 µs, so the crossings saved are a small part of a frame. Monado\'s',
    'xrLocateSpaces (commit 598080453545) costs several times a loop of its xrLocateSpace for the same spaces, in C as',
    'from JavaScript: there `createFrameQuery({ ..., locateWith: \'xrLocateSpace\' })` is the faster choice. On this',
    'shared machine the sub-100 ns cells move by ±20 ns from one run to the next (a C cell too).',
    '',
    'Every per-frame call (space.locate, the frame query, locateViews, action states, hand joints, endFrame) is one native',
    'function per kind, handed what was bound as an external (native/openxr/addon/openxr_handles.h). Before 2026-11-23 each binding',
    'was a JavaScript function of its own, and a call site that had seen several (16 spaces, or a second query) took V8\'s',
    'generic call path, about 25 ns more a call: on the test runtime 16 space.locate went from 1059 to 735 ns and the',
    '16-space query from 112 to 84 ns (1.0) and 95 to 78 ns (1.1); the copies were then reordered (the xrLocateSpace path',
    'copies after all its calls, the xrLocateSpaces one through locals) and the yardstick became the lower of the empty call',
    'measured before and after the rows. Across six runs of the final code "query ÷ (C + empty)" at 16 spaces measured',
    '0.99–1.29 (1.0) and 1.05–1.22 (1.1), against 1.2–1.75 and 0.9–1.55 before.',
    '',
    'Since 2026-11-26 a row\'s cells are timed round by round, each round one run of every cell, the empty call\'s too, and',
    'a ratio is the median of the rounds\' ratios. Before, each cell\'s runs came one after the other and the yardstick was',
    'timed before and after the rows: in two full runs the first rows (the 1.0 ones, which follow the Monado children)',
    'measured the C loop 60–70 % and the query about 80 % slower than minutes later, the yardstick not, and 16 spaces',
    'read 1.54× and 1.60×; the same code alone, or after the Monado rows once the slow spell had passed, read 1.16–1.19×.',
    '',
    ...runs.map((r) => formatFrameBenchMarkdown(r, { headingLevel: 3, omitRunInfo: true })),
    FRAME_END,
    '',
  ].join('\n');
}

/** The soak section's heading: '## Soak' and whatever follows it on the line. */
const SOAK_HEADING = /^## Soak\b/m;

/** The section `npm run soak` writes (bench/soak.ts): from its heading to the next one, as it is. */
function soakSection(existing: string): string | undefined {
  const start = existing.search(SOAK_HEADING);
  if (start < 0) return undefined;
  const next = existing.indexOf('\n## ', start + 1);
  return next < 0 ? existing.slice(start) : existing.slice(start, next + 1);
}

async function main(): Promise<void> {
  const resultsFile = path.join(packageRoot, 'bench/RESULTS.md');
  const existing = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '# Benchmark results\n';
  if (process.env.KL_BENCH_ONLY === 'vulkan') {
    const section = await vulkanSection();
    writeFileSync(resultsFile, spliceSection(existing, section, VULKAN_START, VULKAN_END));
    process.stdout.write(section);
    return;
  }
  if (process.env.KL_BENCH_ONLY === 'generated') {
    // Before the Vulkan section, where a full run puts it.
    const section = generatedSection().join('\n');
    const marked = existing.includes(GENERATED_START) ? existing : existing.replace(VULKAN_START, `${GENERATED_START}\n${GENERATED_END}\n\n${VULKAN_START}`);
    writeFileSync(resultsFile, spliceSection(marked, section, GENERATED_START, GENERATED_END));
    process.stdout.write(section);
    return;
  }
  const testRuntime = buildTestRuntime();
  if (process.env.KL_BENCH_ONLY === 'frame') {
    const section = frameSection(testRuntime);
    writeFileSync(resultsFile, spliceSection(existing, section, FRAME_START, FRAME_END));
    process.stdout.write(section);
    return;
  }
  const realLayers = ['XR_APILAYER_LUNARG_core_validation'].filter((name) => discover({ logWriter: () => undefined }).apiLayers.some((l) => l.name === name));
  const sections: { result: OpenXrBenchResult; title: string; chart?: string }[] = [];
  const run = async (title: string, options: OpenXrBenchOptions, chart?: string) => {
    const result = await runOpenXrBench({ repeats, onProgress: progress, ...options });
    if (chart) writeFileSync(path.join(packageRoot, 'bench', chart), renderBenchChart(result));
    sections.push({ result, title, ...(chart ? { chart } : {}) });
    return result;
  };

  const dispatch = await run(
    'Dispatch overhead: `xrLocateSpace` on the test runtime, whose xrLocateSpace does almost nothing',
    {
      command: 'xrLocateSpace',
      passthroughCounts: [0, 1, 4],
      runtime: { manifestPath: testRuntime, label: 'test runtime' },
      iterations: iterations(5_000_000),
      severalLive: true,
      // Sub-nanosecond cells: several processes per side, so memory layout is not one side's luck.
      processes: Number(process.env.KL_BENCH_PROCESSES ?? 5),
    },
    'openxr-dispatch.svg',
  );
  await run(
    '`xrLocateSpace` on the simulated runtime, 0–4 layers',
    { command: 'xrLocateSpace', passthroughCounts: [0, 1, 2, 3, 4], realLayers, iterations: iterations(1_000_000) },
    'openxr-simxr-locate-space.svg',
  );
  for (const command of ['xrLocateViews', 'xrGetActionStateBoolean', 'xrSyncActions'] as const) {
    await run(`\`${command}\` on the simulated runtime`, { command, passthroughCounts: [0, 1, 4], realLayers, iterations: iterations(command === 'xrSyncActions' ? 300_000 : 1_000_000) });
  }
  await run('Frames: `xrWaitFrame` + `xrBeginFrame` + `xrEndFrame` on the simulated runtime', {
    command: 'xrWaitFrame',
    passthroughCounts: [0, 4],
    realLayers,
    iterations: Math.max(2, iterations(45)),
    repeats: Math.min(repeats, 5),
  });
  // 3. Monado, when built (scripts/build-monado.sh): what a layer costs over a real
  //    runtime's xrLocateSpace. Monado runs headless in the children (its settings are environment variables).
  const monado = monadoManifestPath(packageRoot, process.env);
  if (existsSync(monado)) {
    await run('`xrLocateSpace` on Monado, a runtime we did not write', {
      command: 'xrLocateSpace',
      passthroughCounts: [0, 1, 2, 3, 4],
      realLayers,
      runtime: { manifestPath: monado, label: 'Monado runtime' },
      baseEnv: { ...process.env, ...monadoHeadlessEnv() },
      iterations: iterations(1_000_000),
      processes: 3,
    });
  } else progress(`Monado not built (${monado}): its section is left out; scripts/build-monado.sh builds it`);

  const frame = frameSection(testRuntime);

  // 4. The generated bindings beside the hand-written paths.
  const generated = generatedSection();

  // NODE-4's strict figures (the test keeps loose sanity bounds: it runs on a shared CI machine).
  const vulkan = await vulkanSection();

  progress('the 30 s demo frame loop at 90 Hz (NODE-4)');
  const demo = await runDemo({ seconds: 30, hz: 90 });

  const khronos = findKhronosLoader();
  const version = khronosLoaderPackageVersion();
  const first = sections[0]?.result;
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts) in one run; `khronos-loader bench openxr` measures any one of these tables on',
    'an installed package. Figures are medians of repeated runs after a warm-up, ± half the interquartile range.',
    '',
    `- date: ${first?.date ?? new Date().toISOString()}`,
    `- machine: ${cpuModel()}, ${first?.machine.cores ?? '?'} cores (${first?.machine.os ?? ''})`,
    `- Node ${process.version}`,
    `- Khronos loader: ${khronos ? `${khronos}${version ? `, Debian libopenxr-loader1 ${version}` : ''}, run in a child process per row with the same runtime and layers` : 'not installed'}`,
    `- koffi: ${first?.rows[0]?.cells.koffi && 'skipped' in first.rows[0].cells.koffi ? first.rows[0].cells.koffi.skipped : 'installed'}`,
    '',
    '## Targets',
    '',
    ...targets(dispatch),
    ...demoTargets(demo),
    '',
  ];
  for (const s of sections) {
    lines.push(formatBenchMarkdown(s.result, { title: s.title, omitRunInfo: true, ...(s.chart ? { chartLink: s.chart } : {}) }));
    if (s.chart) lines.push(`![${s.title.replace(/`/g, '')}](${s.chart})`, '');
  }
  lines.push(...generated);
  lines.push(frame, vulkan);
  // Results measured by hand elsewhere (the compute example on several machines, the device
  // machine's runs) are kept, appended as they are; so is the soak table `npm run soak` wrote.
  const elsewhere = path.join(packageRoot, 'bench/VULKAN-COMPUTE.md');
  if (existsSync(elsewhere)) lines.push(readFileSync(elsewhere, 'utf8'));
  const soak = soakSection(existing);
  if (soak !== undefined) lines.push(soak);
  const text = lines.join('\n');
  writeFileSync(resultsFile, text);
  process.stdout.write(text);
}

await main();
