// From the TypeScript plan to the native side: the plain plan the native OpenXrInstance takes,
// and the runtime's own extension list asked of the native side.
import type { NativeOpenXrPlan } from './addon.js';
import { rethrowNative } from '../errors.js';
import type { InstancePlan } from '../plan/plan.js';
import type { ExtensionProperty } from '../discovery/manifest.js';
import type { DiscoveredRuntime } from '../discovery/runtime-discovery.js';
import { loadOpenXrAddon } from './addon.js';

/** Layers the application or XR_ENABLE_API_LAYERS asked for must load; implicit ones that fail are left out. */
export function toNativePlan(plan: Pick<InstancePlan, 'runtime' | 'apiLayers'>): NativeOpenXrPlan {
  return {
    runtime: {
      manifestPath: plan.runtime.manifestPath,
      libraryPath: plan.runtime.libraryPath,
      negotiateFunctionName: plan.runtime.negotiateFunctionName,
    },
    apiLayers: plan.apiLayers.map((l) => ({
      name: l.name,
      manifestPath: l.manifestPath,
      libraryPath: l.libraryPath,
      negotiateFunctionName: l.negotiateFunctionName,
      required: l.kind !== 'implicit' || l.origin !== 'implicit',
    })),
  };
}

/** The runtime's own instance extensions, asked of the runtime (negotiated, then unloaded). */
export function runtimeExtensionsFromNative(runtime: NativeOpenXrPlan['runtime']): { extensionName: string; extensionVersion: number }[] {
  try {
    return loadOpenXrAddon().openxrRuntimeExtensions(runtime);
  } catch (error) {
    rethrowNative(error);
  }
}

/** A RuntimeExtensionProvider (lib/openxr/loader.ts) that asks the runtime library itself. */
export function nativeRuntimeExtensions(runtime: DiscoveredRuntime): ExtensionProperty[] {
  return runtimeExtensionsFromNative({
    manifestPath: runtime.manifestPath,
    libraryPath: runtime.libraryPath,
    negotiateFunctionName: runtime.negotiateFunctionName,
  }).map((e) => ({ name: e.extensionName, extensionVersion: e.extensionVersion }));
}
