// ns per xrLocateSpace through the loader's exported trampoline and through the pointer from
// xrGetInstanceProcAddr, with 0, 1 and 4 pass-through layers, for khronos-loader and for the
// Debian Khronos loader (libopenxr_loader) over the same test runtime and the same layers.
// Both sides time the same loop natively (native/napi/bench.cc, bench/native/khronos_locate_space.c).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadNativeAddon, packageRoot } from '../lib/native.js';
import { createInstanceFromPlan, nativeInstanceOf, type Instance } from '../lib/openxr/instance.js';
import type { InstancePlan } from '../lib/openxr/plan.js';

export interface DispatchRow {
  readonly layers: number;
  readonly ours: { trampolineNs: number; procAddrNs: number };
  /** Ours with a second instance live: the trampolines find the table by handle (hash map). */
  readonly oursSeveralLive: { trampolineNs: number; procAddrNs: number };
  readonly khronos: { trampolineNs: number; procAddrNs: number } | { error: string };
}

const testNative = path.join(packageRoot, 'build/test-native');
const runtimeDir = path.join(testNative, 'openxr_test_runtime');
const layerDir = path.join(testNative, 'openxr_test_layers');
const khronosProgram = path.join(packageRoot, 'build/bench/khronos_locate_space');

function passthrough(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `XR_APILAYER_KLTEST_passthrough_${i}`);
}

function plan(layers: readonly string[]): Pick<InstancePlan, 'runtime' | 'apiLayers'> {
  return {
    runtime: {
      manifestPath: path.join(runtimeDir, 'kl_test_runtime.json'),
      libraryPath: path.join(runtimeDir, 'libkl_test_runtime.so'),
      libraryPathKind: 'absolute',
      negotiateFunctionName: 'xrNegotiateLoaderRuntimeInterface',
      reason: 'benchmark',
    },
    apiLayers: layers.map((name, i) => ({
      name,
      kind: 'explicit',
      origin: 'application',
      manifestPath: path.join(layerDir, `${name}.json`),
      libraryPath: path.join(layerDir, `libkl_test_layer_passthrough_${i}.so`),
      libraryPathKind: 'absolute',
      negotiateFunctionName: 'xrNegotiateLoaderApiLayerInterface',
      reason: 'benchmark',
    })),
  };
}

/** Builds the test runtime and layers (as the test setup does) and the Khronos-side program. */
export function buildBenchComponents(): void {
  execFileSync('cmake', ['-S', 'test/native', '-B', testNative, '-DCMAKE_BUILD_TYPE=RelWithDebInfo'], { cwd: packageRoot, stdio: 'ignore' });
  execFileSync('cmake', ['--build', testNative, '--parallel', '2'], { cwd: packageRoot, stdio: 'ignore' });
  execFileSync('mkdir', ['-p', path.dirname(khronosProgram)]);
  execFileSync('cc', ['-O3', '-Wall', '-Wextra', '-Werror', '-o', khronosProgram, path.join(packageRoot, 'bench/native/khronos_locate_space.c'), '-lopenxr_loader']);
}

function ours(layers: number, iterations: number, repeats: number, severalLive: boolean) {
  const options = { applicationName: 'khronos-loader bench', enabledExtensionNames: ['XR_MND_headless'] };
  const instance = createInstanceFromPlan(plan(passthrough(layers)), options);
  let other: Instance | undefined;
  if (severalLive) other = createInstanceFromPlan(plan([]), options);
  try {
    return loadNativeAddon().benchOpenXrLocateSpace(nativeInstanceOf(instance), iterations, repeats);
  } finally {
    other?.destroy();
    instance.destroy();
  }
}

function khronos(layers: number, iterations: number, repeats: number): DispatchRow['khronos'] {
  if (!existsSync(khronosProgram)) return { error: 'the Khronos-side program was not built (is libopenxr-dev installed?)' };
  try {
    const out = execFileSync(khronosProgram, [String(iterations), String(repeats)], {
      env: {
        ...process.env,
        XR_RUNTIME_JSON: path.join(runtimeDir, 'kl_test_runtime.json'),
        XR_API_LAYER_PATH: layerDir,
        XR_ENABLE_API_LAYERS: passthrough(layers).join(':'),
        XR_LOADER_DEBUG: 'none',
      },
    });
    return JSON.parse(out.toString()) as { trampolineNs: number; procAddrNs: number };
  } catch (e) {
    return { error: String((e as Error).message) };
  }
}

type Pair = { trampolineNs: number; procAddrNs: number };

function best(a: Pair | undefined, b: Pair): Pair {
  return a === undefined ? b : { trampolineNs: Math.min(a.trampolineNs, b.trampolineNs), procAddrNs: Math.min(a.procAddrNs, b.procAddrNs) };
}

/**
 * `rounds` passes over every configuration, alternating the two loaders, keeping each cell's
 * best: on a shared machine this filters out the other processes' noise for both sides alike.
 */
export function runOpenXrDispatchBench(iterations = 5_000_000, repeats = 5, layerCounts = [0, 1, 4], rounds = 3): DispatchRow[] {
  const rows = layerCounts.map((layers) => ({ layers, ours: undefined as Pair | undefined, several: undefined as Pair | undefined, khronos: undefined as DispatchRow['khronos'] | undefined }));
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      row.ours = best(row.ours, ours(row.layers, iterations, repeats, false));
      const k = khronos(row.layers, iterations, repeats);
      row.khronos = 'error' in k ? k : row.khronos === undefined || 'error' in row.khronos ? k : best(row.khronos, k);
      row.several = best(row.several, ours(row.layers, iterations, repeats, true));
    }
  }
  return rows.map((r) => ({ layers: r.layers, ours: r.ours!, oursSeveralLive: r.several!, khronos: r.khronos! }));
}

function fmt(n: number): string {
  return n.toFixed(2);
}

export function formatResults(rows: readonly DispatchRow[], iterations: number, repeats: number, rounds: number): string {
  const cpu = execFileSync('lscpu').toString();
  const model = /Model name:\s*(.+)/.exec(cpu)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  const khronosVersion = (() => {
    try {
      return execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libopenxr-loader1']).toString();
    } catch {
      return 'unknown';
    }
  })();
  const lines = [
    '# Benchmark results',
    '',
    '## OpenXR dispatch: ns per `xrLocateSpace`',
    '',
    `- date: ${new Date().toISOString()}`,
    `- machine: ${model}, ${os.cpus().length} cores (${os.platform()} ${os.release()})`,
    `- Node ${process.version}; Debian Khronos loader libopenxr-loader1 ${khronosVersion}`,
    `- method: best of ${repeats} timed loops of ${iterations.toLocaleString('en-US')} calls, over ${rounds} rounds alternating the loaders, measured natively`,
    '  (native/napi/bench.cc for khronos-loader, bench/native/khronos_locate_space.c for the Khronos loader, same loop);',
    '  test runtime `kl_test_runtime` and pass-through test layers (each intercepts `xrLocateSpace` and calls the next)',
    '  from test/native, XR_MND_headless session, LOCAL and VIEW reference spaces.',
    '- "trampoline": the loader\'s exported `xrLocateSpace`; "pointer": what `xrGetInstanceProcAddr` returned.',
    '- "several live": khronos-loader with a second instance live, so the trampoline finds the table by handle.',
    '',
    '| layers | ours: trampoline | ours: pointer | ours, several live: trampoline | Khronos: trampoline | Khronos: pointer |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    const k = 'error' in r.khronos ? ['n/a', 'n/a'] : [fmt(r.khronos.trampolineNs), fmt(r.khronos.procAddrNs)];
    lines.push(`| ${r.layers} | ${fmt(r.ours.trampolineNs)} | ${fmt(r.ours.procAddrNs)} | ${fmt(r.oursSeveralLive.trampolineNs)} | ${k[0]} | ${k[1]} |`);
  }
  const errors = rows.filter((r) => 'error' in r.khronos).map((r) => `- Khronos, ${r.layers} layers: ${(r.khronos as { error: string }).error}`);
  if (errors.length) lines.push('', ...errors);
  lines.push('');
  return lines.join('\n');
}
