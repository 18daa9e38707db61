// VK-LF-1..4, VK-ML-2..4: which layers an instance gets, in what order (loader_enable_instance_layers,
// and enable_correct_layers_from_settings when the settings file configures layers). Index 0 of the
// result is nearest the application. Without a settings file:
//   1. implicit layers that are on, in discovery order (the override layer after the others),
//      except those VK_INSTANCE_LAYERS names: step 2 places them;
//   2. VK_INSTANCE_LAYERS, in its order, implicit layers too (it overrides VK_LOADER_LAYERS_DISABLE
//      and an implicit layer's own enable/disable variables);
//   3. explicit layers VK_LOADER_LAYERS_ENABLE names, in discovery order;
//   4. the application's layers, in its order, unless VK_LOADER_LAYERS_DISABLE (and not ALLOW) names them.
// A meta layer stands for its components in listed order; a name already in the chain is dropped.
// With a settings file's layer configuration the configured order is the chain's order.
import type { PlatformEnv } from '../../core/platform/platform.js';
import { VulkanLayerNotPresentError } from '../errors.js';
import type { VulkanLayerOrigin } from '../plan/plan.js';
import { implicitLayerState } from './implicit-layer-state.js';
import type { LayerFilters } from './layer-filters.js';
import type { DiscoveredVulkanLayer } from './layer-discovery.js';
import { layerDisabledByFilter, nameMatchesFilter } from './name-filter.js';
import type { LayerPolicy } from '../../core/loader-policy.js';
import { applyLayerPolicy } from './loader-policy.js';

/** A discovered layer with the settings file's word on it ('default' when no settings configure layers). */
export interface ConfiguredVulkanLayer {
  readonly layer: DiscoveredVulkanLayer;
  readonly control: 'on' | 'off' | 'auto' | 'default';
}

export interface EnabledVulkanLayer {
  readonly layer: DiscoveredVulkanLayer;
  readonly origin: VulkanLayerOrigin;
  readonly reason: string;
}

export interface LayerPolicyInput {
  /** Every available layer in the loader's order. */
  readonly layers: readonly ConfiguredVulkanLayer[];
  /** The application's ppEnabledLayerNames. */
  readonly requested: readonly string[];
  readonly filters: LayerFilters;
  readonly env: PlatformEnv;
  readonly overrideLayer?: DiscoveredVulkanLayer;
  /** true when a settings file configures the layers. */
  readonly settingsLayers: boolean;
  readonly log?: (level: 'error' | 'warn' | 'info' | 'debug', message: string) => void;
  /** createLoader({ layers }): applied over the environment's chain. */
  readonly policy?: LayerPolicy;
}

const ORIGIN_WORDS: Record<string, string> = {
  implicit: 'an implicit layer that is on',
  VK_INSTANCE_LAYERS: 'named by VK_INSTANCE_LAYERS',
  VK_LOADER_LAYERS_ENABLE: 'forced on by VK_LOADER_LAYERS_ENABLE',
  'settings-file': 'turned on by the loader settings file',
  application: 'asked for by the application',
};

class ChainBuilder {
  readonly chain: EnabledVulkanLayer[] = [];
  /** Names in the chain, meta layers included (a meta layer enabled twice expands once). */
  private readonly names = new Set<string>();
  constructor(private readonly byName: ReadonlyMap<string, DiscoveredVulkanLayer>) {}

  has(name: string): boolean {
    return this.names.has(name);
  }

  add(layer: DiscoveredVulkanLayer, origin: VulkanLayerOrigin, depth = 0): void {
    if (this.names.has(layer.name)) return;
    this.names.add(layer.name);
    if (!layer.isMeta) {
      const why = origin.startsWith('meta:') ? `a component of meta layer ${origin.slice(5)}` : (ORIGIN_WORDS[origin] ?? origin);
      this.chain.push({ layer, origin, reason: why });
      return;
    }
    if (depth > 32) return;
    for (const name of layer.manifest.component_layers ?? []) {
      const comp = this.byName.get(name);
      if (comp) this.add(comp, `meta:${layer.name}`, depth + 1);
    }
  }
}

function disabledByFilters(l: DiscoveredVulkanLayer, filters: LayerFilters): boolean {
  return layerDisabledByFilter(l.name, l.kind, filters.disable) && !nameMatchesFilter(l.name, filters.allow);
}

// VK-ML-3
/** The components of the override layer, when it is itself on; they ignore their own variables. */
export function activeOverrideComponents(override: DiscoveredVulkanLayer | undefined, filters: LayerFilters, env: PlatformEnv): ReadonlySet<string> {
  if (override === undefined || !implicitLayerState(override.manifest, filters, env).enabled) return new Set();
  return new Set(override.manifest.component_layers ?? []);
}

/** The ordered chain, or VulkanLayerNotPresentError for the first requested name nobody provides. */
export function resolveLayerChain(input: LayerPolicyInput): EnabledVulkanLayer[] {
  const chain = environmentChain(input);
  if (input.policy === undefined) return chain;
  const available = input.layers.filter((c) => c.control !== 'off').map((c) => c.layer);
  return applyLayerPolicy(chain, available, input.requested, input.policy, (m) => input.log?.('info', m));
}

/** The chain the environment and the settings file make, as the Khronos loader builds it. */
function environmentChain(input: LayerPolicyInput): EnabledVulkanLayer[] {
  const log = input.log ?? (() => {});
  const available = input.layers.filter((c) => c.control !== 'off');
  const byName = new Map(available.map((c) => [c.layer.name, c.layer] as const));
  input.requested.forEach((name, i) => {
    if (!byName.has(name)) throw new VulkanLayerNotPresentError(name, i);
  });
  const overrideComponents = activeOverrideComponents(input.overrideLayer, input.filters, input.env);
  const b = new ChainBuilder(byName);
  const { filters } = input;

  if (input.settingsLayers) {
    for (const { layer, control } of available) {
      let origin: VulkanLayerOrigin | undefined;
      if (control === 'on') origin = 'settings-file';
      else if (disabledByFilters(layer, filters)) {
        log('warn', `Layer "${layer.name}" disabled because name matches filter of env var 'VK_LOADER_LAYERS_DISABLE'`);
        continue;
      } else if (nameMatchesFilter(layer.name, filters.enable)) origin = 'VK_LOADER_LAYERS_ENABLE';
      else if (filters.instanceLayers.includes(layer.name)) origin = 'VK_INSTANCE_LAYERS';
      else if (input.requested.includes(layer.name)) origin = 'application';
      else if (layer.kind === 'implicit' && implicitLayerState(layer.manifest, filters, input.env, overrideComponents).enabled) origin = 'implicit';
      if (origin) b.add(layer, origin);
    }
    return b.chain;
  }

  // 1. Implicit layers; the override layer goes after every other implicit layer (VK-ML-4).
  const implicit = available.filter((c) => c.layer.kind === 'implicit').map((c) => c.layer);
  // VK-LF-6: an implicit layer VK_INSTANCE_LAYERS names takes its place in that list instead, so the
  // variable orders implicit layers as it orders explicit ones (the current Khronos loader's rule; it
  // matches the name as a substring of the whole value, we match whole names: docs/conformance.md).
  const placedByInstanceLayers = new Set(filters.instanceLayers);
  for (const layer of [...implicit.filter((l) => !l.isOverride), ...implicit.filter((l) => l.isOverride)]) {
    if (placedByInstanceLayers.has(layer.name)) {
      log('info', `Implicit layer "${layer.name}" is placed where VK_INSTANCE_LAYERS names it`);
      continue;
    }
    const state = implicitLayerState(layer.manifest, filters, input.env, overrideComponents);
    if (state.enabled) b.add(layer, 'implicit');
    else log('info', `Implicit layer "${layer.name}" is off: ${state.reason}`);
  }
  // 2. VK_INSTANCE_LAYERS: like VK_LOADER_LAYERS_ENABLE, and stronger than VK_LOADER_LAYERS_DISABLE (VK-LF-4).
  if (filters.instanceLayers.length > 0) log('warn', `env var 'VK_INSTANCE_LAYERS' defined and adding layers "${filters.instanceLayers.join(':')}"`);
  for (const name of filters.instanceLayers) {
    const layer = byName.get(name);
    if (!layer) {
      log('error', `Layer "${name}" was not found but was requested by env var VK_INSTANCE_LAYERS!`);
      continue;
    }
    b.add(layer, 'VK_INSTANCE_LAYERS');
  }
  // 3. VK_LOADER_LAYERS_ENABLE / DISABLE over the explicit layers (VK-LF-1..3).
  for (const { layer } of available) {
    if (layer.kind !== 'explicit') continue;
    const forced = nameMatchesFilter(layer.name, filters.enable) && !b.has(layer.name);
    if (!forced && disabledByFilters(layer, filters)) {
      log('warn', `Layer "${layer.name}" disabled because name matches filter of env var 'VK_LOADER_LAYERS_DISABLE'`);
      continue;
    }
    if (!forced) continue;
    log('warn', `Layer "${layer.name}" force enabled due to env var 'VK_LOADER_LAYERS_ENABLE'`);
    b.add(layer, 'VK_LOADER_LAYERS_ENABLE');
  }
  // 4. The application's layers.
  for (const name of input.requested) {
    const layer = byName.get(name);
    if (!layer || b.has(name)) continue;
    if (disabledByFilters(layer, filters)) {
      log('warn', `Layer "${name}" disabled because name matches filter of env var 'VK_LOADER_LAYERS_DISABLE'`);
      continue;
    }
    b.add(layer, 'application');
  }
  return b.chain;
}
