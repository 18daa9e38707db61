// VK-LF-1..4: the layer filter variables as the Khronos loader reads them. The three glob
// variables are read securely (an elevated process ignores them); VK_INSTANCE_LAYERS is a plain
// list of names separated by the platform's path separator.
import type { PlatformEnv } from '../../core/platform/platform.js';
import { parseLayerDisableFilter, parseNameFilter, type LayerDisableFilter, type NameFilter } from './name-filter.js';

export interface LayerFilters {
  /** VK_LOADER_LAYERS_ENABLE */
  readonly enable: NameFilter;
  /** VK_LOADER_LAYERS_DISABLE */
  readonly disable: LayerDisableFilter;
  /** VK_LOADER_LAYERS_ALLOW */
  readonly allow: NameFilter;
  /** VK_INSTANCE_LAYERS, split */
  readonly instanceLayers: readonly string[];
}

export interface FilterEnv {
  /** A secure read (see DiscoveryContext.secureEnv). */
  secure(name: string): string | undefined;
  readonly env: PlatformEnv;
  readonly pathSeparator: string;
}

export function readLayerFilters(e: FilterEnv): LayerFilters {
  const list = e.env.get('VK_INSTANCE_LAYERS');
  return {
    enable: parseNameFilter(e.secure('VK_LOADER_LAYERS_ENABLE')),
    disable: parseLayerDisableFilter(e.secure('VK_LOADER_LAYERS_DISABLE')),
    allow: parseNameFilter(e.secure('VK_LOADER_LAYERS_ALLOW')),
    instanceLayers: list ? list.split(e.pathSeparator).filter((n) => n !== '') : [],
  };
}

export const NO_LAYER_FILTERS: LayerFilters = {
  enable: { globs: [] },
  disable: { all: false, implicit: false, explicit: false, names: { globs: [] } },
  allow: { globs: [] },
  instanceLayers: [],
};
