// Paths of the OpenXR test runtime and test layers (built by test/setup/global-setup.ts) and a
// plan builder, so tests drive the native side with exactly the chain they describe.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testNativeDir } from '../helpers/paths.js';
import type { InstancePlan, PlannedApiLayer } from '../../lib/openxr/plan/plan.js';

export const runtimeDir = path.join(testNativeDir, 'openxr_test_runtime');
export const layerDir = path.join(testNativeDir, 'openxr_test_layers');

export function runtimeLibrary(target = 'kl_test_runtime'): string {
  return path.join(runtimeDir, `lib${target}.so`);
}
export function runtimeManifest(target = 'kl_test_runtime'): string {
  return path.join(runtimeDir, `${target}.json`);
}
export function layerManifest(name: string): string {
  return path.join(layerDir, `${name}.json`);
}

export function plannedLayer(name: string, kind: 'explicit' | 'implicit' = 'explicit'): PlannedApiLayer {
  const manifestPath = layerManifest(name);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    api_layer: { library_path: string; functions?: Record<string, string> };
  };
  return {
    name,
    kind,
    origin: kind === 'implicit' ? 'implicit' : 'application',
    manifestPath,
    libraryPath: manifest.api_layer.library_path,
    libraryPathKind: 'absolute',
    negotiateFunctionName: manifest.api_layer.functions?.xrNegotiateLoaderApiLayerInterface ?? 'xrNegotiateLoaderApiLayerInterface',
    reason: 'test plan',
  };
}

export function testPlan(layers: readonly string[] = [], runtimeTarget = 'kl_test_runtime'): Pick<InstancePlan, 'runtime' | 'apiLayers'> {
  return {
    runtime: {
      manifestPath: runtimeManifest(runtimeTarget),
      libraryPath: runtimeLibrary(runtimeTarget),
      libraryPathKind: 'absolute',
      negotiateFunctionName: 'xrNegotiateLoaderRuntimeInterface',
      reason: 'test plan',
    },
    apiLayers: layers.map((l) => plannedLayer(l)),
  };
}

/** Points KL_TEST_TRACE at a fresh file; returns a reader of its lines. */
export function freshTrace(): () => string[] {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'kl-trace-')), 'trace.txt');
  process.env.KL_TEST_TRACE = file;
  return () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0) : []);
}

/** Paths of shared objects mapped into this process. */
export function mappedLibraries(): Set<string> {
  const maps = readFileSync('/proc/self/maps', 'utf8');
  const out = new Set<string>();
  for (const line of maps.split('\n')) {
    const p = line.split(/\s+/)[5];
    if (p && p.endsWith('.so')) out.add(p);
  }
  return out;
}
