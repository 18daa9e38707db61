// The C ABI for native code in this process: discovery and policy run here, so the exported
// xrCreateInstance works from a plan the application publishes.
import type { InstancePlan } from '../plan/plan.js';
import type { ExtensionProperty } from '../discovery/manifest.js';
import type { ApiLayerProperties } from '../loader.js';
import { toNativePlan } from '../native/plan.js';
import { loadOpenXrAddon } from '../native/addon.js';
import { invalidArgument } from '../../core/errors.js';

/** What the exported xrEnumerateApiLayerProperties and xrEnumerateInstanceExtensionProperties answer. */
export interface PublishedLists {
  readonly apiLayerProperties: readonly ApiLayerProperties[];
  /** The list for layerName NULL. */
  readonly instanceExtensions: readonly ExtensionProperty[];
  /** Each layer's own list, by layer name. */
  readonly layerExtensions: Readonly<Record<string, readonly ExtensionProperty[]>>;
}

/**
 * Publishes `plan` for native code in this process: from now on the addon's exported
 * xrCreateInstance loads this runtime and these API layers (nearest the application first) and
 * builds the chain as loader.createInstance does; the instance lives until the native caller's
 * xrDestroyInstance. With `lists`, the exported enumerate commands answer them (without, they
 * answer XR_ERROR_RUNTIME_UNAVAILABLE). The native side keeps an immutable copy; call again to
 * replace it.
 */
export function publishOpenXrPlan(plan: Pick<InstancePlan, 'runtime' | 'apiLayers'>, lists?: PublishedLists): void {
  if (typeof plan !== 'object' || plan === null) throw invalidArgument('publishOpenXrPlan(plan): plan', 'an object', plan);
  if (typeof plan.runtime !== 'object' || plan.runtime === null) throw invalidArgument('publishOpenXrPlan(plan): plan.runtime', 'an object', plan.runtime);
  if (!Array.isArray(plan.apiLayers)) throw invalidArgument('publishOpenXrPlan(plan): plan.apiLayers', 'an array', plan.apiLayers);
  loadOpenXrAddon().openxrPublishPlan(toNativePlan(plan), lists);
}
