// The settings file's layer configuration applied to the discovered layers (settings.c
// get_settings_layers / combine_settings_layers_with_regular_layers): the configured layers come
// from the manifests the file names, in the file's order; "off" removes a name; the discovered
// layers the file does not name go where "unordered_layer_location" stands, or nowhere when it
// does not appear.
import type { VulkanDiscoveryContext } from './context.js';
import { discoveredLayer, type DiscoveredVulkanLayer } from './layer-discovery.js';
import { parseLayerManifest } from './layer-manifest.js';
import type { ConfiguredVulkanLayer } from './layer-policy.js';
import { readJsonManifest } from './manifest-files.js';
import type { SettingsLayerEntry } from './settings-file.js';

function layerFromSettings(ctx: VulkanDiscoveryContext, entry: Extract<SettingsLayerEntry, { name: string }>): DiscoveredVulkanLayer | undefined {
  const json = readJsonManifest(ctx, entry.path);
  if ('error' in json) {
    ctx.report(json.error);
    return undefined;
  }
  const kind = entry.treatAsImplicitManifest ? 'implicit' : 'explicit';
  const parsed = parseLayerManifest(entry.path, json.value, kind, ctx.platform.pointerBits);
  for (const d of parsed.diagnostics) ctx.report(d);
  const m = parsed.layers.find((l) => l.name === entry.name);
  if (!m) {
    ctx.report({ severity: 'warning', file: entry.path, reason: `the settings file names layer ${entry.name} here, but the manifest does not define it; ignored` });
    return undefined;
  }
  return discoveredLayer(ctx, m, kind, entry.path, 'settings-file');
}

export function applySettingsLayers(
  ctx: VulkanDiscoveryContext,
  entries: readonly SettingsLayerEntry[],
  discovered: readonly DiscoveredVulkanLayer[],
): ConfiguredVulkanLayer[] {
  const before: ConfiguredVulkanLayer[] = [];
  const after: ConfiguredVulkanLayer[] = [];
  const named = new Set<string>();
  let unordered = false;
  for (const entry of entries) {
    if (entry.control === 'unordered_layer_location') {
      unordered = true;
      continue;
    }
    named.add(entry.name);
    const list = unordered ? after : before;
    if (list.some((c) => c.layer.name === entry.name) || (unordered && before.some((c) => c.layer.name === entry.name))) continue;
    if (entry.control === 'off') {
      ctx.log('info', `Layer ${entry.name} is turned off by the loader settings file`, undefined, 'layer');
      continue;
    }
    const layer = layerFromSettings(ctx, entry);
    if (layer) list.push({ layer, control: entry.control });
  }
  const rest: ConfiguredVulkanLayer[] = unordered ? discovered.filter((l) => !named.has(l.name)).map((layer) => ({ layer, control: 'auto' as const })) : [];
  return [...before, ...rest, ...after];
}
