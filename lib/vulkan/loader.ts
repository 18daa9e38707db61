// createLoader(): the Vulkan loader's pre-instance surface over one discovery — the layers and
// their extensions as vkEnumerateInstance*Properties report them, the chain an instance would get,
// the plan the native core carries out, and createInstance() which carries it out.
import { createHostPlatform } from '../core/platform/host.js';
import type { VulkanDiscoveryOptions } from './discovery/context.js';
import { discoverState, type VulkanDiscoveryResult, type VulkanDiscoveryState } from './discovery/discover.js';
import { planEnumeration, planInstance, type PlanInstanceOptions } from './plan/instance-plan.js';
import { resolveLayerChain } from './discovery/layer-policy.js';
import type { VulkanInstancePlan } from './plan/plan.js';
import { VulkanLayerNotPresentError } from './errors.js';
import { createInstanceFromPlan, preInstance, type Instance } from './api/instance.js';
import type { VulkanDirectDrivers } from './native/addon.js';
import { invalidArgument, requireInteger } from '../core/errors.js';
import { instanceCreateInfoLines } from './discovery/vk-loader-debug.js';
import { VK_API_VERSION_1_0 } from '../generated/vulkan.js';

/** VkLayerProperties */
export interface VulkanLayerProperties {
  readonly layerName: string;
  readonly specVersion: number;
  readonly implementationVersion: number;
  readonly description: string;
}

/** VkExtensionProperties */
export interface VulkanExtensionProperties {
  readonly extensionName: string;
  readonly specVersion: number;
}

export interface VulkanLoader {
  /** What discovery found (drivers, layers with on/off and why, settings file, problems). */
  readonly discovery: VulkanDiscoveryResult;
  enumerateInstanceLayerProperties(): VulkanLayerProperties[];
  /**
   * vkEnumerateInstanceExtensionProperties as the Khronos loader answers it. With a layer name:
   * that layer's instance extensions from its manifest (a meta layer's include its components');
   * unknown names throw VulkanLayerNotPresentError. Without: the drivers' instance extensions (each
   * driver loaded and asked, as the Khronos loader does; those the loader does not know filtered
   * out unless VK_LOADER_DISABLE_INST_EXT_FILTER, the window-system ones this loader does not
   * implement left out), the loader's own (VK_EXT_debug_report, VK_EXT_debug_utils,
   * VK_KHR_portability_enumeration, VK_LUNARG_direct_driver_loading), then the implicit layers' that are on; no name twice, the first keeping its spec version. The
   * implicit layers' pre-instance interceptors see the call.
   */
  enumerateInstanceExtensionProperties(layerName?: string): VulkanExtensionProperties[];
  /** The final layer chain for these requested names, application side first, meta layers expanded. */
  resolveEnabledLayers(requested: readonly string[]): string[];
  /** The plan for a vkCreateInstance with these names (throws VulkanLayerNotPresentError). */
  planInstance(options?: PlanInstanceOptions): VulkanInstancePlan;
  /** vkCreateInstance: planInstance() carried out by the native core (drivers and layers loaded, chain built). */
  createInstance(options: VulkanInstanceCreateOptions): Instance;
}

/** VkInstanceCreateInfo (and its VkApplicationInfo) as createInstance() takes it. */
export interface VulkanInstanceCreateOptions extends PlanInstanceOptions {
  readonly applicationName: string;
  readonly applicationVersion?: number;
  readonly engineName?: string;
  readonly engineVersion?: number;
  /** VkApplicationInfo.apiVersion (VK_API_VERSION_1_0 when left out). */
  readonly apiVersion?: number;
  /** Chain a VK_EXT_debug_utils messenger into VkInstanceCreateInfo.pNext (read with instance.takeDebugMessages()). */
  readonly collectCreateMessages?: boolean;
  /**
   * VK_LUNARG_direct_driver_loading: driver libraries handed to vkCreateInstance directly, whether or
   * not any manifest names them. The library is opened and its vk_icdGetInstanceProcAddr chained in a
   * VkDirectDriverLoadingListLUNARG; the extension is enabled for you. 'exclusive' uses only these
   * drivers, 'inclusive' adds them to the manifest drivers (VK_LOADER_DRIVERS_SELECT / _DISABLE do not
   * apply to them). A library that cannot be loaded or lacks vk_icdGetInstanceProcAddr throws
   * VulkanError VK_ERROR_INCOMPATIBLE_DRIVER naming the file and the symbol.
   */
  readonly directDrivers?: VulkanDirectDrivers;
}

const DIRECT_DRIVER_LOADING = 'VK_LUNARG_direct_driver_loading';

function checkDirectDrivers(value: unknown): VulkanDirectDrivers {
  if (typeof value !== 'object' || value === null) throw invalidArgument('createInstance(options): options.directDrivers', "an object { mode: 'exclusive' | 'inclusive', libraries: string[] }", value);
  const { mode, libraries } = value as { mode?: unknown; libraries?: unknown };
  if (mode !== 'exclusive' && mode !== 'inclusive') throw invalidArgument('createInstance(options): options.directDrivers.mode', "'exclusive' or 'inclusive'", mode);
  if (!Array.isArray(libraries) || libraries.length === 0 || libraries.some((l) => typeof l !== 'string' || l === '')) {
    throw invalidArgument('createInstance(options): options.directDrivers.libraries', 'a non-empty array of driver library paths', libraries);
  }
  return { mode, libraries: [...(libraries as string[])] };
}

const UINT32_MAX = 0xffffffff;

/** The application info createInstance() hands the native core, checked, with the native defaults filled in. */
function createInfoSummary(app: Omit<VulkanInstanceCreateOptions, keyof PlanInstanceOptions | 'directDrivers'>, layers: readonly string[], extensions: readonly string[]) {
  if (typeof app.applicationName !== 'string') throw invalidArgument('createInstance(options): options.applicationName', 'a string', app.applicationName);
  if (app.engineName !== undefined && typeof app.engineName !== 'string') throw invalidArgument('createInstance(options): options.engineName', 'a string', app.engineName);
  const version = (value: unknown, name: string, fallback: number): number =>
    value === undefined ? fallback : Number(requireInteger(value, `createInstance(options): options.${name}`, 0, UINT32_MAX));
  return {
    applicationName: app.applicationName,
    applicationVersion: version(app.applicationVersion, 'applicationVersion', 0),
    engineName: app.engineName ?? '',
    engineVersion: version(app.engineVersion, 'engineVersion', 0),
    apiVersion: version(app.apiVersion, 'apiVersion', VK_API_VERSION_1_0),
    enabledLayerNames: layers,
    enabledExtensionNames: extensions,
  };
}

function checkNames(what: string, names: unknown): readonly string[] {
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) throw invalidArgument(what, 'an array of strings', names);
  return names as string[];
}

export function createLoader(options: VulkanDiscoveryOptions = {}): VulkanLoader {
  const platform = options.platform ?? createHostPlatform();
  const state: VulkanDiscoveryState = discoverState(platform, options);
  const available = state.configured.filter((c) => c.control !== 'off').map((c) => c.layer);
  return {
    discovery: state.result,
    enumerateInstanceLayerProperties() {
      return available.map((l) => ({
        layerName: l.name,
        specVersion: l.manifest.apiVersion.packed,
        implementationVersion: l.manifest.implementation_version,
        description: l.manifest.description,
      }));
    },
    enumerateInstanceExtensionProperties(layerName?: string) {
      if (layerName !== undefined) {
        if (typeof layerName !== 'string') throw invalidArgument('layerName', 'a string', layerName);
        const layer = available.find((l) => l.name === layerName);
        if (!layer) throw new VulkanLayerNotPresentError(layerName, 0);
        return layer.instanceExtensions.map((e) => ({ ...e }));
      }
      return preInstance.instanceExtensionProperties(planEnumeration(state, platform.env));
    },
    resolveEnabledLayers(requested) {
      const names = checkNames('requested', requested);
      return resolveLayerChain({
        layers: state.configured,
        requested: names,
        filters: state.filters,
        env: platform.env,
        ...(state.overrideLayer ? { overrideLayer: state.overrideLayer } : {}),
        settingsLayers: state.settings?.layers !== undefined,
        policy: state.policy.layers,
      }).map((e) => e.layer.name);
    },
    planInstance(opts: PlanInstanceOptions = {}) {
      if (opts.enabledLayerNames !== undefined) checkNames('enabledLayerNames', opts.enabledLayerNames);
      if (opts.enabledExtensionNames !== undefined) checkNames('enabledExtensionNames', opts.enabledExtensionNames);
      return planInstance(state, platform.env, opts);
    },
    createInstance(opts: VulkanInstanceCreateOptions) {
      if (typeof opts !== 'object' || opts === null) throw invalidArgument('createInstance(options): options', 'an object', opts);
      const { enabledLayerNames, enabledExtensionNames, flags, directDrivers, ...app } = opts;
      const direct = directDrivers !== undefined ? checkDirectDrivers(directDrivers) : undefined;
      if (enabledExtensionNames !== undefined) checkNames('enabledExtensionNames', enabledExtensionNames);
      if (enabledLayerNames !== undefined) checkNames('enabledLayerNames', enabledLayerNames);
      const extensions = direct !== undefined && !(enabledExtensionNames ?? []).includes(DIRECT_DRIVER_LOADING) ? [...(enabledExtensionNames ?? []), DIRECT_DRIVER_LOADING] : enabledExtensionNames;
      // VK-DBG-1: what vkCreateInstance is handed, logged before the layers are looked at (as the Khronos loader does).
      for (const line of instanceCreateInfoLines(createInfoSummary(app, enabledLayerNames ?? [], extensions ?? []))) state.ctx.log('info', line, 'vkCreateInstance');
      const plan = this.planInstance({
        ...(enabledLayerNames !== undefined && { enabledLayerNames }),
        ...(extensions !== undefined && { enabledExtensionNames: extensions }),
        ...(flags !== undefined && { flags }),
      });
      return createInstanceFromPlan(plan, { ...app, ...(flags !== undefined && { flags }), ...(direct !== undefined && { directDrivers: direct }) });
    },
  };
}
