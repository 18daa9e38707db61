// XR-CI-9 and XR-CI-2: instance extension lists, answered from manifests (never from a layer's
// library, XR-RN-3) plus the runtime's own list when the native side supplies it.
import { XR_EXTENSIONS } from '../../generated/openxr.js';
import type { DiscoveredApiLayer } from './layer-discovery.js';
import type { ExtensionProperty } from './manifest.js';

// XR-CI-12
/** The loader itself implements XR_EXT_debug_utils, so it is always listed. */
export const LOADER_EXTENSIONS: readonly ExtensionProperty[] = [
  { name: 'XR_EXT_debug_utils', extensionVersion: XR_EXTENSIONS.XR_EXT_debug_utils.specVersion },
];

/** Each name once, in order of first appearance, with the highest version seen (as the Khronos loader merges). */
export function mergeExtensions(...lists: ReadonlyArray<readonly ExtensionProperty[]>): ExtensionProperty[] {
  const out: ExtensionProperty[] = [];
  const index = new Map<string, number>();
  for (const list of lists) {
    for (const e of list) {
      const i = index.get(e.name);
      if (i === undefined) {
        index.set(e.name, out.length);
        out.push({ name: e.name, extensionVersion: e.extensionVersion });
      } else {
        const prev = out[i];
        if (prev && e.extensionVersion > prev.extensionVersion) out[i] = { name: e.name, extensionVersion: e.extensionVersion };
      }
    }
  }
  return out;
}

/**
 * The NULL-layer list as the Khronos loader builds it: the layers' extensions (merged, highest
 * version), then the runtime's (a name already listed takes the runtime's version, in place),
 * then the loader's own where absent.
 */
export function nullLayerExtensionList(
  layerLists: ReadonlyArray<readonly ExtensionProperty[]>,
  runtime: readonly ExtensionProperty[],
): ExtensionProperty[] {
  const out = mergeExtensions(...layerLists);
  for (const e of runtime) {
    const i = out.findIndex((x) => x.name === e.name);
    if (i === -1) out.push({ name: e.name, extensionVersion: e.extensionVersion });
    else out[i] = { name: e.name, extensionVersion: e.extensionVersion };
  }
  for (const e of LOADER_EXTENSIONS) if (!out.some((x) => x.name === e.name)) out.push({ ...e });
  return out;
}

/**
 * The layers whose extensions a NULL-layer query reports: implicit layers in force, and explicit
 * layers XR_ENABLE_API_LAYERS names (they will be enabled too), in discovery order.
 */
export function layersInForce(layers: readonly DiscoveredApiLayer[], envRequested: readonly string[]): DiscoveredApiLayer[] {
  const wanted = new Set(envRequested);
  const seen = new Set<string>();
  const out: DiscoveredApiLayer[] = [];
  for (const l of layers) {
    if (l.kind === 'implicit' && l.enabledByDefault && !seen.has(l.name)) {
      seen.add(l.name);
      out.push(l);
    }
  }
  for (const l of layers) {
    if (l.kind === 'explicit' && wanted.has(l.name) && !seen.has(l.name)) {
      seen.add(l.name);
      out.push(l);
    }
  }
  return out;
}

export interface ExtensionCheck {
  readonly name: string;
  /** Who provides it: 'runtime', 'loader', or a layer name. Empty when nobody does. */
  readonly providedBy: readonly string[];
}

/**
 * Which of the requested extensions are provided, and by whom. `runtimeExtensions`
 * undefined means the runtime's list is not known: then nothing is reported missing that the
 * runtime might provide (the runtime's xrCreateInstance checks those itself).
 */
export function checkRequestedExtensions(
  requested: readonly string[],
  enabledLayers: readonly DiscoveredApiLayer[],
  runtimeExtensions: readonly ExtensionProperty[] | undefined,
): { checks: ExtensionCheck[]; missing: string[] } {
  const checks: ExtensionCheck[] = [];
  const missing: string[] = [];
  for (const name of requested) {
    const providedBy: string[] = [];
    if (runtimeExtensions?.some((e) => e.name === name)) providedBy.push('runtime');
    if (LOADER_EXTENSIONS.some((e) => e.name === name)) providedBy.push('loader');
    for (const l of enabledLayers) if (l.instanceExtensions.some((e) => e.name === name)) providedBy.push(l.name);
    checks.push({ name, providedBy });
    if (providedBy.length === 0 && runtimeExtensions !== undefined) missing.push(name);
  }
  return { checks, missing };
}
