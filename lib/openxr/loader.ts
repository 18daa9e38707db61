// createLoader(): the pre-instance OpenXR calls answered from manifests, and the instance plan.
// Like the Khronos loader, each call discovers afresh, so environment changes between calls count.
import { createContext, type DiscoveryOptions } from './discovery/context.js';
import { discoverWith, resolvePlatform, type DiscoveryResult } from './discovery/discover.js';
import { OpenXrError } from './errors.js';
import { invalidArgument } from '../core/errors.js';
import { layersInForce, mergeExtensions, nullLayerExtensionList } from './discovery/extensions.js';
import type { DiscoveredApiLayer } from './discovery/layer-discovery.js';
import { resolveEnabledLayers, type EnabledLayer } from './discovery/layer-policy.js';
import type { ExtensionProperty } from './discovery/manifest.js';
import type { InstancePlan } from './plan/plan.js';
import { planInstance, requireRuntime, type PlanInstanceRequest, type RuntimeExtensionProvider } from './plan/instance-plan.js';
import { resolveRuntimeChoice } from './discovery/runtime-choice.js';
import { createInstanceFromPlan, type CreateInstanceOptions, type Instance } from './api/instance.js';
import { checkCreateInstanceOptions } from './api/create-instance-options.js';
import { publishOpenXrPlan } from './api/publish-plan.js';
import { nativeRuntimeExtensions } from './native/plan.js';
import { readLayerPolicy, type LayerPolicyOptions } from '../core/loader-policy.js';
import { applyLayerPolicyToDiscovery } from './discovery/loader-policy.js';
import { checkLoaderInitInfo, withLoaderProperties, type LoaderInitInfo } from './discovery/loader-properties.js';

export type { PlanInstanceRequest, RuntimeExtensionProvider, LoaderInitInfo };

export interface ApiLayerProperties {
  readonly layerName: string;
  /** XR_MAKE_VERSION(major, minor, 0) from `api_version`. */
  readonly specVersion: number;
  /** From `implementation_version`. */
  readonly layerVersion: number;
  readonly description: string;
}

export interface LoaderOptions extends DiscoveryOptions {
  runtimeExtensions?: RuntimeExtensionProvider;
  /**
   * The runtime for this loader instead of the active one: a runtime manifest path, or a name
   * listRuntimes() gives (a value with a directory separator or ending in .json is a path).
   * No environment variable is touched, so other loaders keep theirs; XR_RUNTIME_JSON is not used.
   */
  runtime?: string;
  /**
   * The loader policy in code (docs/usage.md "Loader policy in code"): layers to
   * enable, disable, allow and order (the environment filters' globs), and a safe mode that loads
   * no implicit layer the application does not name. It is applied after the environment.
   */
  layers?: LayerPolicyOptions;
}

export interface OpenXrLoader {
  discover(): DiscoveryResult;
  // XR-CI-8
  /** From manifests only; implicit layers their environment turns off are absent. */
  enumerateApiLayerProperties(): ApiLayerProperties[];
  // XR-CI-9
  /** With a layer name: that layer's manifest list. Without: layers in force, the runtime's, the loader's. */
  enumerateInstanceExtensionProperties(layerName?: string | null): ExtensionProperty[];
  // XR-CI-1
  /** The final ordered list (application side first), or throws XR_ERROR_API_LAYER_NOT_PRESENT. */
  resolveEnabledLayers(requested?: readonly string[]): EnabledLayer[];
  // XR-CI-1, XR-CI-2
  /** Everything the native side needs to create an instance, or the exact XrResult error. */
  planInstance(request?: PlanInstanceRequest): InstancePlan;
  /** Plans, then negotiates, builds the chain and creates the instance natively. */
  createInstance(options: CreateInstanceOptions): Instance;
  /**
   * Plans (as planInstance) and publishes the plan for native code in this process: the addon's
   * exported xrCreateInstance then uses its runtime and layers, and the exported enumerate
   * commands answer this loader's lists as of now. Call again to refresh it.
   */
  publishPlan(request?: PlanInstanceRequest): InstancePlan;
  // XR-LI-1
  /**
   * xrInitializeLoaderKHR (XR_KHR_loader_init) for this loader. With `properties`
   * (XR_EXT_loader_init_properties) they replace the previous ones and stand in for environment
   * variables of the same names in every later discovery of this loader (XR_RUNTIME_JSON,
   * XR_API_LAYER_PATH, XR_ENABLE_API_LAYERS, an implicit layer's enable/disable variable, HOME,
   * XDG_*), read even where an elevated process ignores the environment; without, the previous
   * ones stay. Throws XR_ERROR_INITIALIZATION_FAILED while an instance this loader created is live.
   */
  initializeLoader(info?: LoaderInitInfo): void;
}

/** Layers an application can see and ask for: explicit ones, and implicit ones that are on; first of each name. */
export function presentLayers(layers: readonly DiscoveredApiLayer[]): DiscoveredApiLayer[] {
  const seen = new Set<string>();
  return layers.filter((l) => {
    if (l.kind === 'implicit' && !l.enabledByDefault) return false;
    if (seen.has(l.name)) return false;
    seen.add(l.name);
    return true;
  });
}

export function createLoader(options: LoaderOptions = {}): OpenXrLoader {
  // The loader properties (initializeLoader) go over the environment: one map, read at each discovery.
  const properties = new Map<string, string>();
  const base = resolvePlatform(options);
  const platform = withLoaderProperties(base, properties);
  const instances: Instance[] = [];
  // On the real host (no injected platform) the runtime itself is asked for its extensions.
  if (options.runtimeExtensions === undefined && options.platform === undefined) {
    options = { ...options, runtimeExtensions: nativeRuntimeExtensions };
  }
  const runtimeChoice = options.runtime === undefined ? undefined : resolveRuntimeChoice(createContext(platform, { ...options, command: 'createLoader' }, base.env), options.runtime);
  const policy = readLayerPolicy(options.layers);
  const run = (command: string): DiscoveryResult => applyLayerPolicyToDiscovery(discoverWith(createContext(platform, { ...options, command }, base.env), runtimeChoice), policy);

  return {
    discover: () => run(''),
    enumerateApiLayerProperties() {
      const d = run('xrEnumerateApiLayerProperties');
      return presentLayers(d.apiLayers).map((l) => ({
        layerName: l.name,
        specVersion: l.specVersion,
        layerVersion: l.implementationVersion,
        description: l.description,
      }));
    },
    enumerateInstanceExtensionProperties(layerName) {
      if (layerName !== undefined && layerName !== null && typeof layerName !== 'string') {
        throw invalidArgument('layerName', 'an API layer name (a string), or null for the runtime and the layers in force', layerName);
      }
      const d = run('xrEnumerateInstanceExtensionProperties');
      if (layerName) {
        const layer = presentLayers(d.apiLayers).find((l) => l.name === layerName);
        if (!layer) throw new OpenXrError('XR_ERROR_API_LAYER_NOT_PRESENT', `no API layer named ${layerName}`);
        return mergeExtensions(layer.instanceExtensions);
      }
      const runtime = requireRuntime(d);
      const inForce = options.layers === undefined
        ? layersInForce(d.apiLayers, d.enableApiLayers)
        : resolveEnabledLayers(d.apiLayers, layersInForce(d.apiLayers, d.enableApiLayers).filter((l) => l.kind === 'explicit').map((l) => l.name), [], policy).map((e) => e.layer);
      const fromLayers = inForce.map((l) => l.instanceExtensions);
      const fromRuntime = options.runtimeExtensions ? options.runtimeExtensions(runtime) : [];
      return nullLayerExtensionList(fromLayers, fromRuntime);
    },
    resolveEnabledLayers(requested = []) {
      const d = run('xrCreateInstance');
      return resolveEnabledLayers(d.apiLayers, d.enableApiLayers, requested, policy);
    },
    planInstance(request = {}) {
      return planInstance(run('xrCreateInstance'), request, options.runtimeExtensions, policy);
    },
    createInstance(createOptions) {
      checkCreateInstanceOptions(createOptions, 'createInstance(options)');
      const enabledExtensionNames = withHeadlessClock(createOptions.enabledExtensionNames ?? [], () => this.enumerateInstanceExtensionProperties());
      const plan = this.planInstance({ enabledApiLayerNames: createOptions.enabledApiLayerNames ?? [], enabledExtensionNames });
      const instance = createInstanceFromPlan(plan, enabledExtensionNames === createOptions.enabledExtensionNames ? createOptions : { ...createOptions, enabledExtensionNames });
      for (let i = instances.length - 1; i >= 0; --i) if (instances[i]!.isDestroyed) instances.splice(i, 1);
      instances.push(instance);
      return instance;
    },
    initializeLoader(info = {}) {
      const given = checkLoaderInitInfo(info, 'initializeLoader(info)');
      if (instances.some((i) => !i.isDestroyed)) {
        throw new OpenXrError('XR_ERROR_INITIALIZATION_FAILED', 'an instance this loader created is live: destroy it before initializing the loader again');
      }
      if (given === undefined) return;
      properties.clear();
      for (const [name, value] of given) properties.set(name, value);
    },
    publishPlan(request = {}) {
      const plan = this.planInstance(request);
      const layers = this.enumerateApiLayerProperties();
      publishOpenXrPlan(plan, {
        apiLayerProperties: layers,
        instanceExtensions: this.enumerateInstanceExtensionProperties(),
        layerExtensions: Object.fromEntries(layers.map((l) => [l.layerName, this.enumerateInstanceExtensionProperties(l.layerName)])),
      });
      return plan;
    },
  };
}

/**
 * A headless session (XR_MND_headless) of a runtime without a compositor gets predictedDisplayTime
 * 0 from xrWaitFrame: with XR_KHR_convert_timespec_time, when the runtime (or a layer in force)
 * offers it, the frame loop takes frame times from the runtime's clock instead (docs/usage.md,
 * "Frame loop"). Enabled along with XR_MND_headless; the instance's enabledExtensionNames show it.
 */
function withHeadlessClock(names: readonly string[], offered: () => readonly ExtensionProperty[]): readonly string[] {
  if (!names.includes('XR_MND_headless') || names.includes('XR_KHR_convert_timespec_time')) return names;
  return offered().some((e) => e.name === 'XR_KHR_convert_timespec_time') ? [...names, 'XR_KHR_convert_timespec_time'] : names;
}
