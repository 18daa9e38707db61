// planInstance(): the VulkanInstancePlan (plan.ts) for one vkCreateInstance — the drivers to load,
// the layer chain with the symbols to look up, the device filters — from a discovery. Pure.
import type { PlatformEnv } from '../../core/platform/platform.js';
import { atLeastFileFormat } from '../discovery/layer-manifest.js';
import { readDeviceFilters } from '../discovery/device-filters.js';
import { applyDevicePolicy } from '../discovery/loader-policy.js';
import type { VulkanDiscoveryState } from '../discovery/discover.js';
import { resolveLayerChain, type EnabledVulkanLayer } from '../discovery/layer-policy.js';
import type { DiscoveredVulkanLayer } from '../discovery/layer-discovery.js';
import type { VulkanDeviceConfiguration } from './plan.js';
import type { PlannedVulkanDriver, PlannedVulkanLayer, VulkanInstanceExtensionListing, VulkanInstancePlan, VulkanLayerDeviceExtensions, VulkanPlannedExtension, VulkanPreInstanceFunctions } from './plan.js';

export interface PlanInstanceOptions {
  /** VkInstanceCreateInfo.ppEnabledLayerNames */
  readonly enabledLayerNames?: readonly string[];
  /** VkInstanceCreateInfo.ppEnabledExtensionNames */
  readonly enabledExtensionNames?: readonly string[];
  /** VkInstanceCreateInfo.flags (VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR = 1 lets portability drivers in). */
  readonly flags?: number;
}

const ENUMERATE_PORTABILITY_BIT = 0x1;
const NEGOTIATE = 'vkNegotiateLoaderLayerInterfaceVersion';

/** The symbols the loader looks up in a layer's library, with the manifest's renames. */
export function layerSymbols(layer: DiscoveredVulkanLayer): PlannedVulkanLayer['symbols'] {
  const m = layer.manifest;
  // Manifest 1.1.0 deprecated renaming vkGetInstanceProcAddr / vkGetDeviceProcAddr (interface 2 hands them over).
  const renamesApply = !atLeastFileFormat(m.fileFormat, 1, 1, 0);
  return {
    negotiateLoaderLayerInterfaceVersion: m.functions[NEGOTIATE] ?? NEGOTIATE,
    getInstanceProcAddr: (renamesApply ? m.functions['vkGetInstanceProcAddr'] : undefined) ?? 'vkGetInstanceProcAddr',
    getDeviceProcAddr: (renamesApply ? m.functions['vkGetDeviceProcAddr'] : undefined) ?? 'vkGetDeviceProcAddr',
  };
}

function plannedLayer(e: EnabledVulkanLayer): PlannedVulkanLayer {
  const { layer } = e;
  const m = layer.manifest;
  const pre: VulkanPreInstanceFunctions = layer.kind === 'implicit' ? { ...m.pre_instance_functions } : {};
  return {
    name: layer.name,
    kind: layer.kind,
    origin: e.origin,
    manifestPath: layer.manifestPath,
    libraryPath: layer.libraryPath ?? '',
    symbols: layerSymbols(layer),
    preInstanceFunctions: pre,
    apiVersion: m.apiVersion.packed,
    implementationVersion: m.implementation_version,
    reason: e.reason,
  };
}

/** The chain as the Khronos loader describes it under VK_LOADER_DEBUG=layer. */
function logCallStack(state: VulkanDiscoveryState, layers: readonly PlannedVulkanLayer[]): void {
  const log = (message: string): void => state.ctx.log('info', message, 'vkCreateInstance', 'layer');
  log('vkCreateInstance layer callstack setup to:');
  log('   <Application>');
  log('     ||');
  log('   <Loader>');
  log('     ||');
  for (const l of layers) {
    log(`   ${l.name}`);
    log(`           Type: ${l.kind === 'implicit' ? 'Implicit' : 'Explicit'}`);
    log(`           Manifest: ${l.manifestPath}`);
    log(`           Library:  ${l.libraryPath}`);
    log('     ||');
  }
  log('   <Drivers>');
}

/**
 * The layers' part of vkEnumerateInstanceExtensionProperties, as the Khronos loader computes it
 * (LoaderApplicationInterface, "Instance Extensions"): every enumerable layer's own list, and the
 * union (first occurrence kept) of the implicit layers that are on.
 */
export function instanceExtensionListing(state: VulkanDiscoveryState): VulkanInstanceExtensionListing {
  const copy = (list: readonly VulkanPlannedExtension[]): VulkanPlannedExtension[] => list.map((e) => ({ extensionName: e.extensionName, specVersion: e.specVersion }));
  const layers = state.configured.filter((c) => c.control !== 'off').map((c) => ({ name: c.layer.name, extensions: copy(c.layer.instanceExtensions) }));
  const implicitLayers: VulkanPlannedExtension[] = [];
  for (const info of state.result.layers) {
    if (info.kind !== 'implicit' || !info.enabled) continue;
    for (const e of info.instanceExtensions) {
      if (!implicitLayers.some((x) => x.extensionName === e.extensionName)) implicitLayers.push({ extensionName: e.extensionName, specVersion: e.specVersion });
    }
  }
  return { implicitLayers, layers };
}

/** Each enumerable layer's device_extensions, as the native loader answers and checks them by layer name. */
export function layerDeviceExtensions(state: VulkanDiscoveryState): VulkanLayerDeviceExtensions[] {
  return state.configured
    .filter((c) => c.control !== 'off')
    .map((c) => ({ name: c.layer.name, extensions: c.layer.deviceExtensions.map((e) => ({ extensionName: e.extensionName, specVersion: e.specVersion })) }));
}

/**
 * The plan the pre-instance commands (vkEnumerateInstance*) run with: every selected driver
 * (portability drivers too: there is no create info to leave them out), the layers that are on
 * without an application's request (implicit layers intercept these commands), and the layers'
 * extension lists. Logs nothing: no instance is being created.
 */
export function planEnumeration(state: VulkanDiscoveryState, env: PlatformEnv): VulkanInstancePlan {
  return buildPlan(state, env, {}, true);
}

export function planInstance(state: VulkanDiscoveryState, env: PlatformEnv, options: PlanInstanceOptions = {}): VulkanInstancePlan {
  return buildPlan(state, env, options, false);
}

function buildPlan(state: VulkanDiscoveryState, env: PlatformEnv, options: PlanInstanceOptions, enumeration: boolean): VulkanInstancePlan {
  const decisions: string[] = [];
  const chain = resolveLayerChain({
    layers: state.configured,
    requested: options.enabledLayerNames ?? [],
    filters: state.filters,
    env,
    ...(state.overrideLayer ? { overrideLayer: state.overrideLayer } : {}),
    settingsLayers: state.settings?.layers !== undefined,
    policy: state.policy.layers,
    log: (level, message) => {
      if (!enumeration) state.ctx.log(level, message, 'vkCreateInstance', 'layer');
      if (level !== 'debug') decisions.push(message);
    },
  });
  const extensions = options.enabledExtensionNames ?? [];
  const portability = extensions.includes('VK_KHR_portability_enumeration') && ((options.flags ?? 0) & ENUMERATE_PORTABILITY_BIT) !== 0;
  const drivers: PlannedVulkanDriver[] = [];
  const enumerationDrivers: PlannedVulkanDriver[] = [];
  for (const d of state.result.drivers) {
    if (d.selected) enumerationDrivers.push({ manifestPath: d.manifestPath, libraryPath: d.libraryPath, apiVersion: d.apiVersion, isPortabilityDriver: d.isPortabilityDriver, reason: d.reason });
    if (!d.selected) {
      decisions.push(`driver ${d.manifestPath} not loaded: ${d.reason}`);
      continue;
    }
    if (d.isPortabilityDriver && !portability && !enumeration) {
      decisions.push(`driver ${d.manifestPath} not loaded: a portability driver, and the application did not enable VK_KHR_portability_enumeration with VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR`);
      continue;
    }
    drivers.push({ manifestPath: d.manifestPath, libraryPath: d.libraryPath, apiVersion: d.apiVersion, isPortabilityDriver: d.isPortabilityDriver, reason: d.reason });
    decisions.push(`driver ${d.manifestPath} (${d.libraryPath}): ${d.reason}`);
  }
  const layers = chain.map(plannedLayer);
  layers.forEach((l, i) => decisions.push(`layer ${i} ${l.name} (${l.libraryPath}): ${l.reason}`));
  if (!enumeration) logCallStack(state, layers);
  const envDevice = readDeviceFilters({ secure: (n) => state.ctx.secureEnv(n), env });
  // VK-PO-6: the policy's device fields replace the variables'.
  const device = { ...envDevice, ...applyDevicePolicy(envDevice.filters, state.policy.devices) };
  decisions.push(...device.decisions);
  const deviceConfigurations = deviceConfigurationsOf(state, decisions);
  // VK-DR-4: read as the Khronos loader reads it (plain getenv, exactly "1").
  const keepLibrariesMapped = env.get('VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING') === '1';
  if (keepLibrariesMapped) decisions.push('VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING=1: libraries stay loaded after the instance is destroyed');
  return {
    drivers,
    layers,
    enabledExtensionNames: [...extensions],
    deviceFilters: deviceConfigurations ? { ...device.filters, deviceConfigurations } : device.filters,
    disableInstanceExtensionFilter: device.disableInstanceExtensionFilter,
    ...(keepLibrariesMapped ? { keepLibrariesMapped: true as const } : {}),
    instanceExtensionListing: instanceExtensionListing(state),
    layerDeviceExtensions: layerDeviceExtensions(state),
    enumeration: {
      drivers: enumerationDrivers,
      layers: state.configured
        .filter((c) => c.control !== 'off')
        .map(({ layer: l }) => ({ name: l.name, description: l.manifest.description, apiVersion: l.manifest.apiVersion.packed, implementationVersion: l.manifest.implementation_version })),
    },
    decisions,
  };
}

const uuidText = (b: readonly number[]): string => {
  const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

// VK-DC-1, VK-DC-2: the settings file's device_configurations go to the native terminator of
// vkEnumeratePhysicalDevices; the plan says which entry can decide which device.
function deviceConfigurationsOf(state: VulkanDiscoveryState, decisions: string[]): VulkanDeviceConfiguration[] | undefined {
  const settings = state.settings;
  if (settings?.deviceConfigurations === undefined) return undefined;
  const list = settings.deviceConfigurations;
  if (list.length === 0) decisions.push(`devices: the settings file ${settings.file} has device_configurations but no usable entry, so vkEnumeratePhysicalDevices finds no device`);
  for (const [position, c] of list.entries()) {
    decisions.push(
      `devices: position ${position} is the first Vulkan 1.1 device with deviceUUID ${uuidText(c.deviceUUID)}, driverUUID ${uuidText(c.driverUUID)} and driverVersion ${c.driverVersion} (device_configurations[${c.index}] of ${settings.file}); devices no entry names are left out`,
    );
  }
  return list.map((c) => ({ ...c, deviceUUID: [...c.deviceUUID], driverUUID: [...c.driverUUID] }));
}
