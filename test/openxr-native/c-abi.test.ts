// The C ABI for native callers in the same process: after the application publishes a plan
// (loader.publishPlan), native code that only uses the addon's exported C functions
// (test/native/xr_c_abi) lists layers and extensions, creates an instance over the simulated
// runtime with the bundled pass-through layer, gets a system, a function pointer, and destroys
// the instance.
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { packageRoot } from '../../lib/core/native/load.js';
import { createPassthroughLayers } from '../../lib/openxr/bundled-layers.js';
import { publishOpenXrPlan } from '../../lib/openxr/api/publish-plan.js';
import type { InstancePlan } from '../../lib/openxr/plan/plan.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { SIMULATED_RUNTIME_LIBRARY, SIMULATED_RUNTIME_NAME, simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { mappedLibraries } from './helpers.js';
import { testNativeDir } from '../helpers/paths.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const addonPath = path.join(packageRoot, 'build/Release/khronos_loader.node');
const run = koffi
  .load(path.join(testNativeDir, 'xr_c_abi', 'libkl_xr_c_abi.so'))
  .func('int kl_xr_c_abi_run(const char*, const char*, _Out_ char* report, size_t)');

function runNative(layerName: string): { rc: number; report: string } {
  const buffer = Buffer.alloc(1024);
  const rc = run(addonPath, layerName, buffer, buffer.length) as number;
  return { rc, report: buffer.toString('utf8', 0, buffer.indexOf(0)) };
}

const layers = createPassthroughLayers(1);
afterAll(() => layers.dispose());

function loaderFor(layerPath: string): ReturnType<typeof createLoader> {
  const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: layerPath };
  return createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions });
}

const runtimeLoaded = (): string[] => [...mappedLibraries()].filter((l) => path.basename(l) === SIMULATED_RUNTIME_LIBRARY);
const layerLoaded = (): string[] => [...mappedLibraries()].filter((l) => l.startsWith(layers.folder));

describe('the exported OpenXR C functions for native callers', () => {
  it('XR-CI-1, XR-CI-6, XR-CI-7, NODE-6: with a published plan, native code creates an instance through the exports only, with the plan\'s runtime and layer; both unload after its xrDestroyInstance', () => {
    const [layerName] = layers.names;
    const loader = loaderFor(layers.folder);
    const plan = loader.publishPlan({ enabledApiLayerNames: [layerName!] });
    expect(plan.apiLayers.map((l) => l.name)).toEqual([layerName]);
    expect(runtimeLoaded()).toEqual([]);
    expect(layerLoaded()).toEqual([]);
    const { rc, report } = runNative(layerName!);
    // -36: XR_ERROR_API_LAYER_NOT_PRESENT for a layer outside the plan; -12: XR_ERROR_HANDLE_INVALID for the second destroy.
    expect(report).toBe(
      `layers=0:${loader.enumerateApiLayerProperties().map((l) => l.layerName).join(',')} ` +
        `extensions=0:${loader.enumerateInstanceExtensionProperties().length}:yes layer-extensions=0:0 ` +
        `missing-layer=-36 system=ok runtime=${SIMULATED_RUNTIME_NAME} getSystem=libkhronos_layer_passthrough_1.so destroy=0 again=-12`,
    );
    expect(report).toContain(`layers=0:${layerName}`);
    expect(rc).toBe(0);
    expect(runtimeLoaded()).toEqual([]);
    expect(layerLoaded()).toEqual([]);
  });

  it('XR-CI-6: publishing again replaces the snapshot (a bare plan without layers: xrGetSystem comes from the runtime, the enumerate commands have no lists)', () => {
    publishOpenXrPlan(loaderFor('').planInstance());
    const { rc, report } = runNative('');
    // -51: XR_ERROR_RUNTIME_UNAVAILABLE.
    expect(report).toBe(
      `layers=-51: extensions=-51:0:no layer-extensions=-51:0 missing-layer=-36 system=ok runtime=${SIMULATED_RUNTIME_NAME} ` +
        `getSystem=${SIMULATED_RUNTIME_LIBRARY} destroy=0 again=-12`,
    );
    expect(rc).toBe(0);
    expect(runtimeLoaded()).toEqual([]);
  });

  it('NODE-2: publishing a plan that is not an object throws a TypeError, and the snapshot in force stays (an unknown layer\'s extension list: XR_ERROR_API_LAYER_NOT_PRESENT)', () => {
    const loader = loaderFor('');
    loader.publishPlan();
    expect(() => publishOpenXrPlan(null as unknown as InstancePlan)).toThrow(TypeError);
    expect(() => publishOpenXrPlan({ apiLayers: [] } as unknown as InstancePlan)).toThrow(/plan\.runtime/);
    expect(runNative('').report).toContain(`layer-extensions=-36:0 missing-layer=-36 system=ok runtime=${SIMULATED_RUNTIME_NAME} getSystem=${SIMULATED_RUNTIME_LIBRARY}`);
  });
});
