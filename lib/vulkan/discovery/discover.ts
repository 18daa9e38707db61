// discover(): everything the Vulkan loader decides before it loads a library — the settings file,
// drivers, layers with their on/off state and why, the filters — as plain data. Never throws:
// every problem is a diagnostic.
import { createHostPlatform } from '../../core/platform/host.js';
import type { Platform } from '../../core/platform/platform.js';
import { formatVulkanVersion } from './api-version.js';
import { createVulkanContext, type VulkanDiscoveryContext, type VulkanDiscoveryOptions } from './context.js';
import type { VulkanDiagnostic } from './diagnostic.js';
import { discoverVulkanDrivers, type DiscoveredVulkanDriver } from './driver-discovery.js';
import { implicitLayerState } from './implicit-layer-state.js';
import { readLayerFilters, type LayerFilters } from './layer-filters.js';
import { discoverVulkanLayers, type DiscoveredVulkanLayer } from './layer-discovery.js';
import type { VulkanDeviceExtensionProperty, VulkanExtensionProperty, VulkanLayerKind } from './layer-manifest.js';
import { activeOverrideComponents, resolveLayerChain, type ConfiguredVulkanLayer } from './layer-policy.js';
import { layerDisabledByFilter, nameMatchesFilter } from './name-filter.js';
import { discoverSettingsFile } from './settings-discovery.js';
import type { VulkanLoaderSettings } from './settings-file.js';
import { applySettingsLayers } from './settings-layers.js';
import { readVulkanPolicy, type VulkanLoaderPolicy } from './loader-policy.js';
import { policyDisables, policyEnableGlob } from '../../core/loader-policy.js';

/** One layer as discover() reports it. */
export interface VulkanLayerInfo {
  readonly name: string;
  readonly kind: VulkanLayerKind;
  readonly manifestPath: string;
  readonly source: string;
  readonly fileFormatVersion: string;
  /** Undefined for meta layers. */
  readonly library?: string;
  readonly libraryExists?: boolean;
  /** "major.minor.patch" and VK_MAKE_API_VERSION of api_version. */
  readonly apiVersion: string;
  readonly specVersion: number;
  readonly implementationVersion: number;
  readonly description: string;
  readonly instanceExtensions: readonly VulkanExtensionProperty[];
  readonly deviceExtensions: readonly VulkanDeviceExtensionProperty[];
  /** Meta layers: the component names in chain order. */
  readonly components?: readonly string[];
  readonly isOverride: boolean;
  /** false when VK_LOADER_LAYERS_DISABLE takes it out of the list (not enumerated, not loadable). */
  readonly available: boolean;
  /** Whether it is in the chain of an instance whose application asks for no layers. */
  readonly enabled: boolean;
  readonly reason: string;
}

export interface VulkanDiscoveryResult {
  readonly drivers: readonly DiscoveredVulkanDriver[];
  readonly layers: readonly VulkanLayerInfo[];
  /** The settings file in force, or null. */
  readonly settingsFile: VulkanLoaderSettings | null;
  readonly overrideLayer: string | null;
  readonly blacklistedLayers: readonly string[];
  /** Android: libVkLayer_*.so candidates (no manifests there; the native side asks each library). */
  readonly androidLayerLibraries: readonly { readonly path: string; readonly source: string }[];
  readonly searched: {
    readonly implicitLayers: readonly string[];
    readonly explicitLayers: readonly string[];
    readonly drivers: readonly string[];
    readonly settingsFile: readonly string[];
  };
  readonly diagnostics: readonly VulkanDiagnostic[];
  readonly platform: { readonly os: Platform['os']; readonly arch: string; readonly elevated: boolean };
}

/** What the loader keeps from one discovery to plan instances with. */
export interface VulkanDiscoveryState {
  readonly ctx: VulkanDiscoveryContext;
  readonly configured: readonly ConfiguredVulkanLayer[];
  readonly filters: LayerFilters;
  readonly overrideLayer?: DiscoveredVulkanLayer;
  readonly settings?: VulkanLoaderSettings;
  /** createLoader({ layers, drivers, devices }), read. */
  readonly policy: VulkanLoaderPolicy;
  readonly result: VulkanDiscoveryResult;
}

function disabledByFilters(layer: DiscoveredVulkanLayer, filters: LayerFilters): boolean {
  return layerDisabledByFilter(layer.name, layer.kind, filters.disable) && !nameMatchesFilter(layer.name, filters.allow);
}

function offReason(layer: DiscoveredVulkanLayer, filters: LayerFilters, ctx: VulkanDiscoveryContext, overrideComponents: ReadonlySet<string>): string {
  if (layer.kind === 'implicit') return implicitLayerState(layer.manifest, filters, ctx.platform.env, overrideComponents).reason;
  return 'explicit: on only when the application, VK_INSTANCE_LAYERS or VK_LOADER_LAYERS_ENABLE asks for it';
}

export function discoverState(platform: Platform, options: VulkanDiscoveryOptions = {}): VulkanDiscoveryState {
  const ctx = createVulkanContext(platform, options);
  const settingsFound = options.settingsFile === 'none' ? { searched: [] } : discoverSettingsFile(ctx);
  const settings = settingsFound.settings;
  const policy = readVulkanPolicy(options);
  const envFilters = readLayerFilters({ secure: (n) => ctx.secureEnv(n), env: platform.env, pathSeparator: platform.pathSeparator });
  // VK-PO-1: what the policy allows or enables, VK_LOADER_LAYERS_DISABLE leaves alone (as VK_LOADER_LAYERS_ALLOW).
  const filters: LayerFilters = { ...envFilters, allow: { globs: [...envFilters.allow.globs, ...policy.layers.allow.globs, ...policy.layers.enable.globs] } };
  const found = discoverVulkanLayers(ctx, filters);
  const drivers = discoverVulkanDrivers(ctx, settings, policy.drivers);
  const all: ConfiguredVulkanLayer[] = settings?.layers
    ? applySettingsLayers(ctx, settings.layers, found.layers)
    : found.layers.map((layer) => ({ layer, control: 'default' as const }));
  // VK-PO-2: a layer the policy enables comes back when the settings file left it out.
  for (const layer of found.layers) {
    if (policyEnableGlob(policy.layers, layer.name) !== undefined && !all.some((c) => c.layer.name === layer.name)) all.push({ layer, control: 'default' });
  }
  // VK-PO-1: a layer the policy disables is out of the list: not enumerated, not loadable.
  const policyRemoved = new Set<string>();
  // VK-LF-2/3: a layer VK_LOADER_LAYERS_DISABLE names (and ALLOW does not, and neither ENABLE nor
  // VK_INSTANCE_LAYERS asks for) is taken out of the list: not enumerated, not loadable.
  const removed = new Set<string>();
  const configured = all.filter((c) => {
    if (policyDisables(policy.layers, c.layer.name, c.layer.kind)) {
      policyRemoved.add(c.layer.name);
      ctx.log('info', `Layer "${c.layer.name}" disabled by createLoader({ layers: { disable } })`, undefined, 'layer');
      return false;
    }
    if (c.control === 'on' || !disabledByFilters(c.layer, filters) || nameMatchesFilter(c.layer.name, filters.enable) || filters.instanceLayers.includes(c.layer.name)) return true;
    removed.add(c.layer.name);
    ctx.log('warn', `Layer "${c.layer.name}" disabled because name matches filter of env var 'VK_LOADER_LAYERS_DISABLE'`, undefined, 'layer');
    return false;
  });
  const baseChain = resolveLayerChain({
    layers: configured,
    requested: [],
    filters,
    env: platform.env,
    ...(found.overrideLayer ? { overrideLayer: found.overrideLayer } : {}),
    settingsLayers: settings?.layers !== undefined,
    log: (level, message) => ctx.log(level, message, undefined, 'layer'),
    policy: policy.layers,
  });
  const overrideComponents = activeOverrideComponents(found.overrideLayer, filters, platform.env);
  const metaOn = new Set<string>();
  for (const e of baseChain) if (e.origin.startsWith('meta:')) metaOn.add(e.origin.slice(5));
  const layers: VulkanLayerInfo[] = all.map(({ layer, control }) => {
    const inChain = baseChain.find((e) => e.layer.name === layer.name);
    const enabled = inChain !== undefined || metaOn.has(layer.name);
    let reason = policyRemoved.has(layer.name)
      ? 'disabled by createLoader({ layers: { disable } }): not enumerated, and an application asking for it gets VK_ERROR_LAYER_NOT_PRESENT'
      : removed.has(layer.name)
      ? 'disabled by VK_LOADER_LAYERS_DISABLE: not enumerated, and an application asking for it gets VK_ERROR_LAYER_NOT_PRESENT'
      : inChain
        ? inChain.reason
        : enabled
          ? 'a meta layer that is on'
          : policy.layers.safe && layer.kind === 'implicit'
            ? 'implicit: off in safe mode (createLoader({ layers: { safe: true } })) unless the application names it'
            : offReason(layer, filters, ctx, overrideComponents);
    if (control === 'on' || control === 'auto') reason += ` (loader settings file: ${control})`;
    return {
      name: layer.name,
      kind: layer.kind,
      manifestPath: layer.manifestPath,
      source: layer.source,
      fileFormatVersion: layer.manifest.file_format_version,
      ...(layer.libraryPath !== undefined ? { library: layer.libraryPath } : {}),
      ...(layer.libraryExists !== undefined ? { libraryExists: layer.libraryExists } : {}),
      apiVersion: formatVulkanVersion(layer.manifest.apiVersion.packed),
      specVersion: layer.manifest.apiVersion.packed,
      implementationVersion: layer.manifest.implementation_version,
      description: layer.manifest.description,
      instanceExtensions: layer.instanceExtensions,
      deviceExtensions: layer.deviceExtensions,
      ...(layer.manifest.component_layers ? { components: layer.manifest.component_layers } : {}),
      isOverride: layer.isOverride,
      available: !removed.has(layer.name) && !policyRemoved.has(layer.name),
      enabled,
      reason,
    };
  });
  const result: VulkanDiscoveryResult = {
    drivers: drivers.drivers,
    layers,
    settingsFile: settings ?? null,
    overrideLayer: found.overrideLayer?.manifestPath ?? null,
    blacklistedLayers: found.blacklisted,
    androidLayerLibraries: found.androidLayerLibraries,
    searched: {
      implicitLayers: found.searched.implicit,
      explicitLayers: found.searched.explicit,
      drivers: drivers.searched,
      settingsFile: settingsFound.searched,
    },
    diagnostics: ctx.diagnostics,
    platform: { os: platform.os, arch: platform.arch, elevated: platform.elevated },
  };
  return { ctx, configured, filters, policy, ...(found.overrideLayer ? { overrideLayer: found.overrideLayer } : {}), ...(settings ? { settings } : {}), result };
}

/** Never throws: every problem is in `diagnostics`. */
export function discover(options: VulkanDiscoveryOptions = {}): VulkanDiscoveryResult {
  return discoverState(options.platform ?? createHostPlatform(), options).result;
}
