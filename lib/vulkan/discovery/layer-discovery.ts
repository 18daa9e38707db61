// VK-LD-1..5, VK-ML-1, VK-ML-4: finding layers, as the Khronos loader's loader_scan_for_layers
// does. Implicit layers first (their folders in order), then the override layer picks the explicit
// search (its override_paths, when it has them), then explicit layers; a name found twice keeps
// its first layer; meta layers whose components are not all there (or not of the same API
// major.minor) are dropped; an active override layer's blacklisted layers are dropped.
// Manifests are read; libraries never are.
import { resolveLibraryPath, type LibraryPathKind } from '../../core/library-path.js';
import { pathOps } from '../../core/platform/platform.js';
import type { VulkanDiscoveryContext } from './context.js';
import {
  OVERRIDE_LAYER_NAME,
  parseLayerManifest,
  type VulkanDeviceExtensionProperty,
  type VulkanExtensionProperty,
  type VulkanLayerKind,
  type VulkanLayerManifest,
} from './layer-manifest.js';
import { implicitLayerState } from './implicit-layer-state.js';
import type { LayerFilters } from './layer-filters.js';
import { logSearch, manifestFilesIn, readJsonManifest, type ManifestFile } from './manifest-files.js';
import { searchPlan, type VulkanManifestKind, type VulkanSearchSource } from './search-folders.js';
import { windowsLayerEntries } from './windows-registry.js';
import { androidIntrospectedLayers, androidLayerLibraries, type AndroidLayerLibrary } from './android-layers.js';

export interface DiscoveredVulkanLayer {
  readonly name: string;
  readonly kind: VulkanLayerKind;
  readonly manifestPath: string;
  readonly source: VulkanSearchSource;
  readonly manifest: VulkanLayerManifest;
  /** What dlopen gets; undefined for meta layers. */
  readonly libraryPath?: string;
  readonly libraryPathKind?: LibraryPathKind;
  /** Whether the library file exists; undefined for bare names (the system search decides) and meta layers. */
  readonly libraryExists?: boolean;
  readonly isMeta: boolean;
  readonly isOverride: boolean;
  // VK-ML-2
  /** The manifest's own extensions, and for a meta layer those of every component. */
  readonly instanceExtensions: readonly VulkanExtensionProperty[];
  readonly deviceExtensions: readonly VulkanDeviceExtensionProperty[];
}

export interface LayerDiscoveryResult {
  /** Every usable layer: implicit first, then explicit, each in search order. */
  readonly layers: readonly DiscoveredVulkanLayer[];
  readonly searched: { readonly implicit: readonly string[]; readonly explicit: readonly string[] };
  /** The override layer in force (valid, and applying to this executable), if any. */
  readonly overrideLayer?: DiscoveredVulkanLayer;
  /** Layers dropped because the override layer blacklists them. */
  readonly blacklisted: readonly string[];
  /** Android: the layer libraries found (their properties come from native introspection). */
  readonly androidLayerLibraries: readonly AndroidLayerLibrary[];
}

function loadLayers(ctx: VulkanDiscoveryContext, ref: ManifestFile, kind: VulkanLayerKind): DiscoveredVulkanLayer[] {
  const json = readJsonManifest(ctx, ref.file);
  if ('error' in json) {
    ctx.report(json.error);
    return [];
  }
  const parsed = parseLayerManifest(ref.file, json.value, kind, ctx.platform.pointerBits);
  for (const d of parsed.diagnostics) ctx.report(d);
  return parsed.layers.map((m) => discoveredLayer(ctx, m, kind, ref.file, ref.source));
}

/** A parsed manifest's layer with its library resolved against the manifest's folder. */
export function discoveredLayer(ctx: VulkanDiscoveryContext, m: VulkanLayerManifest, kind: VulkanLayerKind, manifestPath: string, source: VulkanSearchSource): DiscoveredVulkanLayer {
  const dir = pathOps(ctx.platform).dirname(manifestPath);
  const lib = m.library_path !== undefined ? resolveLibraryPath(ctx.platform, dir, m.library_path) : undefined;
  if (lib && lib.exists === false) {
    ctx.report({ severity: 'warning', file: manifestPath, field: 'library_path', reason: `${m.name}: the library ${lib.path} does not exist; loading the layer will fail` });
  }
  return {
    name: m.name,
    kind,
    manifestPath,
    source,
    manifest: m,
    ...(lib ? { libraryPath: lib.path, libraryPathKind: lib.kind } : {}),
    ...(lib && lib.exists !== undefined ? { libraryExists: lib.exists } : {}),
    isMeta: m.component_layers !== undefined,
    isOverride: kind === 'implicit' && m.name === OVERRIDE_LAYER_NAME && m.component_layers !== undefined,
    instanceExtensions: m.instance_extensions,
    deviceExtensions: m.device_extensions,
  };
}

function manifestsFor(ctx: VulkanDiscoveryContext, kind: VulkanManifestKind, overridePaths?: readonly string[]): { files: ManifestFile[]; searched: string[] } {
  const plan = searchPlan(ctx, kind, overridePaths);
  if (plan.replacedBy) ctx.log('info', `Using ${plan.replacedBy} instead of the standard ${kind === 'implicit_layer' ? 'implicit' : 'explicit'} layer folders`, undefined, 'layer');
  // On Windows the standard places are the registry's (searchPlan gives only the variables' entries).
  const entries = ctx.platform.os === 'windows' && !plan.replacedBy ? [...plan.entries, ...windowsLayerEntries(ctx, kind)] : plan.entries;
  const files = manifestFilesIn(ctx, entries);
  const searched = entries.map((e) => e.path);
  logSearch(ctx, kind === 'implicit_layer' ? 'implicit' : 'explicit', searched, files);
  return { files, searched };
}

/**
 * VK-ML-4: of the override layers found, the one applying to this executable (its app_keys name
 * it) wins over a global one (no or empty app_keys); the rest are dropped.
 */
function chooseOverrideLayer(ctx: VulkanDiscoveryContext, implicit: DiscoveredVulkanLayer[]): DiscoveredVulkanLayer | undefined {
  let global: DiscoveredVulkanLayer | undefined;
  let forApp: DiscoveredVulkanLayer | undefined;
  for (const l of implicit) {
    if (!l.isOverride) continue;
    const keys = l.manifest.app_keys ?? [];
    if (keys.length === 0) {
      if (global) ctx.log('warn', 'remove_all_non_valid_override_layers: Multiple global override layers found. Using the first global layer found', undefined, 'layer');
      else global = l;
    } else if (keys.includes(ctx.platform.executablePath)) {
      if (forApp) ctx.log('warn', 'remove_all_non_valid_override_layers: Multiple override layers where the same path in app_keys was found. Using the first layer found', undefined, 'layer');
      else forApp = l;
    } else {
      ctx.log('info', `--Override layer found but not used because app '${ctx.platform.executablePath}' is not in 'app_keys' list!`, undefined, 'layer');
    }
  }
  const chosen = forApp ?? global;
  if (forApp) ctx.log('info', `Using the override layer for app key ${ctx.platform.executablePath}`, undefined, 'layer');
  else if (global) ctx.log('info', 'Using the global override layer', undefined, 'layer');
  for (let i = implicit.length - 1; i >= 0; i--) {
    const l = implicit[i];
    if (l && l.isOverride && l !== chosen) implicit.splice(i, 1);
  }
  return chosen;
}

/** VK-ML-1/2: checks a meta layer's components (recursively) and gathers their extensions. */
function verifyMetaLayer(
  ctx: VulkanDiscoveryContext,
  meta: DiscoveredVulkanLayer,
  byName: ReadonlyMap<string, DiscoveredVulkanLayer>,
  visiting: Set<string>,
): { ok: true; instance: VulkanExtensionProperty[]; device: VulkanDeviceExtensionProperty[] } | { ok: false } {
  const instance = [...meta.manifest.instance_extensions];
  const device = [...meta.manifest.device_extensions];
  visiting.add(meta.name);
  const components = meta.manifest.component_layers ?? [];
  for (const [i, name] of components.entries()) {
    const fail = (reason: string): { ok: false } => {
      ctx.report({ severity: 'warning', file: meta.manifestPath, field: `component_layers[${i}]`, reason: `meta layer ${meta.name}: ${reason}; the meta layer is unusable (VK-ML-1)` });
      return { ok: false };
    };
    if (name === meta.name || visiting.has(name)) return fail(`component ${name} lists the meta layer itself`);
    const comp = byName.get(name);
    if (!comp) return fail(`component layer ${name} was not found`);
    const a = meta.manifest.apiVersion;
    const b = comp.manifest.apiVersion;
    if (a.major !== b.major || a.minor !== b.minor) return fail(`component layer ${name} is for Vulkan ${b.major}.${b.minor}, the meta layer for ${a.major}.${a.minor}`);
    if (comp.isMeta) {
      const inner = verifyMetaLayer(ctx, comp, byName, visiting);
      if (!inner.ok) return fail(`component meta layer ${name} is unusable`);
      instance.push(...inner.instance.filter((e) => !instance.some((x) => x.extensionName === e.extensionName)));
      device.push(...inner.device.filter((e) => !device.some((x) => x.extensionName === e.extensionName)));
    } else {
      instance.push(...comp.instanceExtensions.filter((e) => !instance.some((x) => x.extensionName === e.extensionName)));
      device.push(...comp.deviceExtensions.filter((e) => !device.some((x) => x.extensionName === e.extensionName)));
    }
  }
  visiting.delete(meta.name);
  return { ok: true, instance, device };
}

/** `filters` decide, with its own variables, whether the override layer is on (and so its override_paths apply). */
export function discoverVulkanLayers(ctx: VulkanDiscoveryContext, filters: LayerFilters): LayerDiscoveryResult {
  const all: DiscoveredVulkanLayer[] = [];
  const implicitFound = manifestsFor(ctx, 'implicit_layer');
  const implicit: DiscoveredVulkanLayer[] = [];
  for (const ref of implicitFound.files) implicit.push(...loadLayers(ctx, ref, 'implicit'));
  let overrideLayer = chooseOverrideLayer(ctx, implicit);
  const overrideOn = overrideLayer !== undefined && implicitLayerState(overrideLayer.manifest, filters, ctx.platform.env).enabled;
  const overridePaths = overrideOn ? overrideLayer?.manifest.override_paths : undefined;
  if (overridePaths?.length) ctx.log('info', `Override layer has override paths set to ${overridePaths.join(ctx.platform.pathSeparator)}`, undefined, 'layer');
  const explicitFound = manifestsFor(ctx, 'explicit_layer', overridePaths);
  const explicit: DiscoveredVulkanLayer[] = [];
  for (const ref of explicitFound.files) explicit.push(...loadLayers(ctx, ref, 'explicit'));
  // VK-LD-2: Android's layers come from their libraries' introspection, not from manifests.
  const androidLibraries = ctx.platform.os === 'android' ? androidLayerLibraries(ctx) : [];
  for (const a of androidIntrospectedLayers(ctx, androidLibraries)) explicit.push(discoveredLayer(ctx, a.manifest, 'explicit', a.library.path, a.library.source));

  // VK-LD-5: the first layer of a name (in search order, implicit before explicit) is the one.
  const byName = new Map<string, DiscoveredVulkanLayer>();
  for (const l of [...implicit, ...explicit]) {
    const first = byName.get(l.name);
    if (first) {
      ctx.report({ severity: 'warning', file: l.manifestPath, field: 'name', reason: `duplicate layer name ${l.name}: ${first.manifestPath} was found first; this one is ignored` });
      continue;
    }
    byName.set(l.name, l);
    all.push(l);
  }

  // VK-ML-1: meta layers are usable only with every component present and compatible.
  const verified: DiscoveredVulkanLayer[] = [];
  for (const l of all) {
    if (!l.isMeta) {
      verified.push(l);
      continue;
    }
    const check = verifyMetaLayer(ctx, l, byName, new Set());
    if (!check.ok) {
      ctx.log('warn', `Removing meta-layer ${l.name} from instance layer list since it appears invalid.`, undefined, 'layer');
      if (l === overrideLayer) overrideLayer = undefined;
      continue;
    }
    verified.push({ ...l, instanceExtensions: check.instance, deviceExtensions: check.device });
    if (l === overrideLayer) overrideLayer = verified[verified.length - 1];
  }

  // VK-ML-4: an active override layer's blacklist removes those layers altogether; one that is off
  // (its disable variable, a filter) blacklists nothing, as both Khronos loaders do.
  const blacklist = new Set(overrideOn ? (overrideLayer?.manifest.blacklisted_layers ?? []) : []);
  const blacklisted: string[] = [];
  const layers = verified.filter((l) => {
    if (!blacklist.has(l.name)) return true;
    blacklisted.push(l.name);
    ctx.log('info', `loader_remove_layers_in_blacklist: Override layer is active and layer ${l.name} is in the blacklist inside of it. Removing that layer from current layer list.`, undefined, 'layer');
    return false;
  });
  return {
    layers,
    searched: { implicit: implicitFound.searched, explicit: explicitFound.searched },
    ...(overrideLayer ? { overrideLayer } : {}),
    blacklisted,
    androidLayerLibraries: androidLibraries,
  };
}
