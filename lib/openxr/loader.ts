// createLoader(): the pre-instance OpenXR calls answered from manifests, and the instance plan.
// Like the Khronos loader, each call discovers afresh, so environment changes between calls count.
import { createContext, type DiscoveryOptions } from './discovery/context.js';
import { discoverWith, resolvePlatform, type DiscoveryResult } from './discovery/discover.js';
import { OpenXrError } from './errors.js';
import { checkRequestedExtensions, layersInForce, mergeExtensions, nullLayerExtensionList } from './discovery/extensions.js';
import type { DiscoveredApiLayer } from './discovery/layer-discovery.js';
import { resolveEnabledLayers, type EnabledLayer } from './discovery/layer-policy.js';
import type { ExtensionProperty } from './discovery/manifest.js';
import type { InstancePlan } from './discovery/plan.js';
import type { DiscoveredRuntime } from './discovery/runtime-discovery.js';
import { resolveRuntimeChoice } from './discovery/runtime-choice.js';
import { createInstanceFromPlan, type CreateInstanceOptions, type Instance } from './api/instance.js';
import { checkCreateInstanceOptions } from './api/create-instance-options.js';
import { publishOpenXrPlan } from './api/publish-plan.js';
import { nativeRuntimeExtensions } from './native/plan.js';

export interface ApiLayerProperties {
  readonly layerName: string;
  /** XR_MAKE_VERSION(major, minor, 0) from `api_version`. */
  readonly specVersion: number;
  /** From `implementation_version`. */
  readonly layerVersion: number;
  readonly description: string;
}

/** Answers the runtime's own instance extensions (the native side loads the runtime to ask it). */
export type RuntimeExtensionProvider = (runtime: DiscoveredRuntime) => readonly ExtensionProperty[];

export interface LoaderOptions extends DiscoveryOptions {
  runtimeExtensions?: RuntimeExtensionProvider;
  /**
   * The runtime for this loader instead of the active one: a runtime manifest path, or a name
   * listRuntimes() gives (a value with a directory separator or ending in .json is a path).
   * No environment variable is touched, so other loaders keep theirs; XR_RUNTIME_JSON is not used.
   */
  runtime?: string;
}

export interface PlanInstanceRequest {
  readonly enabledApiLayerNames?: readonly string[];
  readonly enabledExtensionNames?: readonly string[];
  /** The runtime's extension list when already known (else the loader's provider is asked, if any). */
  readonly runtimeExtensions?: readonly ExtensionProperty[];
}

export interface OpenXrLoader {
  discover(): DiscoveryResult;
  /** XR-CI-8: from manifests only; implicit layers their environment turns off are absent. */
  enumerateApiLayerProperties(): ApiLayerProperties[];
  /** XR-CI-9. With a layer name: that layer's manifest list. Without: layers in force, the runtime's, the loader's. */
  enumerateInstanceExtensionProperties(layerName?: string | null): ExtensionProperty[];
  /** XR-CI-1: the final ordered list (application side first), or throws XR_ERROR_API_LAYER_NOT_PRESENT. */
  resolveEnabledLayers(requested?: readonly string[]): EnabledLayer[];
  /** XR-CI-1, XR-CI-2: everything the native side needs to create an instance, or the exact XrResult error. */
  planInstance(request?: PlanInstanceRequest): InstancePlan;
  /** Plans (XR-CI-1, XR-CI-2), then negotiates, builds the chain and creates the instance natively. */
  createInstance(options: CreateInstanceOptions): Instance;
  /**
   * Plans (as planInstance) and publishes the plan for native code in this process: the addon's
   * exported xrCreateInstance then uses its runtime and layers, and the exported enumerate
   * commands answer this loader's lists as of now. Call again to refresh it.
   */
  publishPlan(request?: PlanInstanceRequest): InstancePlan;
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
  const platform = resolvePlatform(options);
  // On the real host (no injected platform) the runtime itself is asked for its extensions.
  if (options.runtimeExtensions === undefined && options.platform === undefined) {
    options = { ...options, runtimeExtensions: nativeRuntimeExtensions };
  }
  const runtimeChoice = options.runtime === undefined ? undefined : resolveRuntimeChoice(createContext(platform, { ...options, command: 'createLoader' }), options.runtime);
  const run = (command: string): DiscoveryResult => discoverWith(createContext(platform, { ...options, command }), runtimeChoice);

  const requireRuntime = (d: DiscoveryResult): DiscoveredRuntime => {
    if (!d.runtime) throw new OpenXrError('XR_ERROR_RUNTIME_UNAVAILABLE', d.runtimeUnavailableReason ?? 'no active runtime');
    if (d.runtime.libraryExists === false) {
      throw new OpenXrError('XR_ERROR_RUNTIME_UNAVAILABLE', `the runtime library ${d.runtime.libraryPath} (from ${d.runtime.manifestPath}) does not exist`);
    }
    return d.runtime;
  };

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
      const d = run('xrEnumerateInstanceExtensionProperties');
      if (layerName) {
        const layer = presentLayers(d.apiLayers).find((l) => l.name === layerName);
        if (!layer) throw new OpenXrError('XR_ERROR_API_LAYER_NOT_PRESENT', `no API layer named ${layerName}`);
        return mergeExtensions(layer.instanceExtensions);
      }
      const runtime = requireRuntime(d);
      const fromLayers = layersInForce(d.apiLayers, d.enableApiLayers).map((l) => l.instanceExtensions);
      const fromRuntime = options.runtimeExtensions ? options.runtimeExtensions(runtime) : [];
      return nullLayerExtensionList(fromLayers, fromRuntime);
    },
    resolveEnabledLayers(requested = []) {
      const d = run('xrCreateInstance');
      return resolveEnabledLayers(d.apiLayers, d.enableApiLayers, requested);
    },
    planInstance(request = {}) {
      const d = run('xrCreateInstance');
      const decisions: string[] = [];
      const runtime = requireRuntime(d);
      decisions.push(`runtime ${runtime.manifestPath}: ${runtime.reason}`);
      const enabled = resolveEnabledLayers(d.apiLayers, d.enableApiLayers, request.enabledApiLayerNames ?? []);
      for (const e of enabled) decisions.push(`layer ${e.layer.name} (${e.layer.kind}, ${e.layer.manifestPath}): ${e.reason}`);
      const runtimeExtensions = request.runtimeExtensions ?? (options.runtimeExtensions ? options.runtimeExtensions(runtime) : undefined);
      const requestedExtensions = request.enabledExtensionNames ?? [];
      const { checks, missing } = checkRequestedExtensions(
        requestedExtensions,
        enabled.map((e) => e.layer),
        runtimeExtensions,
      );
      if (missing.length > 0) {
        throw new OpenXrError(
          'XR_ERROR_EXTENSION_NOT_PRESENT',
          `extension${missing.length > 1 ? 's' : ''} ${missing.join(', ')} provided by neither the runtime nor an enabled API layer`,
        );
      }
      for (const c of checks) {
        decisions.push(
          c.providedBy.length
            ? `extension ${c.name}: provided by ${c.providedBy.join(', ')}`
            : `extension ${c.name}: left to the runtime to check (its extension list is not known yet)`,
        );
      }
      return {
        runtime: {
          manifestPath: runtime.manifestPath,
          libraryPath: runtime.libraryPath,
          libraryPathKind: runtime.libraryPathKind,
          negotiateFunctionName: runtime.negotiateFunctionName,
          reason: runtime.reason,
          source: runtime.source,
        },
        apiLayers: enabled.map((e) => ({
          name: e.layer.name,
          kind: e.layer.kind,
          origin: e.origin,
          manifestPath: e.layer.manifestPath,
          libraryPath: e.layer.libraryPath,
          libraryPathKind: e.layer.libraryPathKind,
          negotiateFunctionName: e.layer.negotiateFunctionName,
          reason: e.reason,
        })),
        enabledExtensionNames: [...requestedExtensions],
        extensions: checks,
        decisions,
      };
    },
    createInstance(createOptions) {
      checkCreateInstanceOptions(createOptions, 'createInstance(options)');
      const plan = this.planInstance({
        enabledApiLayerNames: createOptions.enabledApiLayerNames ?? [],
        enabledExtensionNames: createOptions.enabledExtensionNames ?? [],
      });
      return createInstanceFromPlan(plan, createOptions);
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
