// From the TypeScript plan to the native side: the plain plan the native OpenXrInstance takes,
// and native failures as OpenXrError.
import { loadNativeAddon, type NativeOpenXrPlan } from '../../native.js';
import { xrResultName } from '../../generated/openxr.js';
import { OpenXrError, type XrResultName } from '../errors.js';
import type { InstancePlan } from '../discovery/plan.js';
import type { ExtensionProperty } from '../discovery/manifest.js';
import type { DiscoveredRuntime } from '../discovery/runtime-discovery.js';

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

/** An OpenXrError for an XrResult value, whatever result it is (the name from the generated table). */
export function openXrErrorFromCode(code: number, message: string): OpenXrError {
  const name = xrResultName(code) ?? `XR_RESULT_${code}`;
  const error = new OpenXrError(name as XrResultName, message);
  // errors.ts knows a subset of codes; the generated table knows them all.
  Object.defineProperty(error, 'code', { value: code, enumerable: true });
  return error;
}

/** Native errors with an XrResult ('KL_OPENXR_ERROR') become OpenXrError; anything else is rethrown as is. */
export function rethrowNative(error: unknown): never {
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_OPENXR_ERROR') {
    const code = (error as Error & { xrResult: number }).xrResult;
    throw openXrErrorFromCode(code, error.message);
  }
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_HANDLE_DESTROYED') {
    throw openXrErrorFromCode(-12, error.message);
  }
  throw error;
}

/** The runtime's own instance extensions, asked of the runtime (negotiated, then unloaded). */
export function runtimeExtensionsFromNative(runtime: NativeOpenXrPlan['runtime']): { extensionName: string; extensionVersion: number }[] {
  try {
    return loadNativeAddon().openxrRuntimeExtensions(runtime);
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
