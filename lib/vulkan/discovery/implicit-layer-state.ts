// VK-LM-2, VK-LF-1..3: whether an implicit layer is on, and why (loader_implicit_layer_is_enabled).
// Its enable_environment must hold the given value (when it has one); VK_LOADER_LAYERS_ENABLE forces
// it on, VK_LOADER_LAYERS_DISABLE off unless VK_LOADER_LAYERS_ALLOW names it; a set
// disable_environment variable wins over all of those. Being a component of the override layer
// turns it on whatever its own variables say (VK-ML-3).
import type { PlatformEnv } from '../../core/platform/platform.js';
import type { LayerFilters } from './layer-filters.js';
import type { VulkanLayerManifest } from './layer-manifest.js';
import { layerDisabledByFilter, nameMatchesFilter } from './name-filter.js';

export interface LayerState {
  readonly enabled: boolean;
  readonly reason: string;
}

export function implicitLayerState(
  m: Pick<VulkanLayerManifest, 'name' | 'enable_environment' | 'disable_environment'>,
  filters: LayerFilters,
  env: PlatformEnv,
  overrideComponents: ReadonlySet<string> = new Set(),
): LayerState {
  const forcedDisabled = layerDisabledByFilter(m.name, 'implicit', filters.disable) && !nameMatchesFilter(m.name, filters.allow);
  const forcedEnabled = nameMatchesFilter(m.name, filters.enable);
  let state: LayerState;
  const en = m.enable_environment;
  if (en === undefined) state = { enabled: true, reason: 'implicit: on by default' };
  else if (env.get(en.name) === en.value) state = { enabled: true, reason: `implicit: its enable_environment ${en.name}=${en.value} is set` };
  else state = { enabled: false, reason: `implicit: off until ${en.name}=${en.value} is set (enable_environment)` };
  if (forcedEnabled) {
    if (!state.enabled) state = { enabled: true, reason: 'implicit: forced on by VK_LOADER_LAYERS_ENABLE' };
  } else if (state.enabled && forcedDisabled) {
    return { enabled: false, reason: 'implicit: disabled by VK_LOADER_LAYERS_DISABLE' };
  }
  const dis = m.disable_environment;
  if (dis !== undefined && env.get(dis.name) !== undefined) {
    state = { enabled: false, reason: `implicit: its disable_environment variable ${dis.name} is set` };
  }
  if (overrideComponents.has(m.name)) {
    state = { enabled: true, reason: `implicit: a component of the override layer (its own variables are ignored)` };
  }
  return state;
}
