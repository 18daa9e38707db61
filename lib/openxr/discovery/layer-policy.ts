// XR-LM-2/3 and XR-CI-1: which layers are on, and in what order.
import type { PlatformEnv } from '../../core/platform/platform.js';
import { OpenXrError } from '../errors.js';
import type { DiscoveredApiLayer } from './layer-discovery.js';
import { NO_LAYER_POLICY, orderChain, policyEnableGlob, type LayerPolicy } from '../../core/loader-policy.js';
import { matchingGlob } from '../../core/name-filter.js';

export interface LayerState {
  readonly enabled: boolean;
  readonly reason: string;
}

/**
 * An implicit layer is on unless its environment says otherwise: with
 * `enable_environment`, only while that variable is set; a set `disable_environment` turns it off
 * and wins over enable. "Set" means present in the environment, even empty (the Khronos loader's
 * getenv() != NULL), and these are ordinary (not secure) reads.
 */
export function implicitLayerState(
  env: Pick<PlatformEnv, 'get'>,
  manifest: { readonly enable_environment?: string; readonly disable_environment?: string },
): LayerState {
  const dis = manifest.disable_environment;
  const en = manifest.enable_environment;
  if (dis === undefined) return { enabled: false, reason: 'implicit layer without disable_environment: never loaded' };
  const disSet = env.get(dis) !== undefined;
  if (disSet) {
    return { enabled: false, reason: `off: its disable_environment variable ${dis} is set${en !== undefined && env.get(en) !== undefined ? ` (it wins over ${en})` : ''}` };
  }
  if (en !== undefined) {
    return env.get(en) !== undefined
      ? { enabled: true, reason: `on: its enable_environment variable ${en} is set (and ${dis} is not)` }
      : { enabled: false, reason: `off: its enable_environment variable ${en} is not set` };
  }
  return { enabled: true, reason: `on: implicit, and its disable_environment variable ${dis} is not set` };
}

/**
 * XR_ENABLE_API_LAYERS split as the current Khronos loader splits it (AddEnvironmentApiLayers):
 * on the path separator, keeping empty entries between separators (an empty name is then "not
 * present") but not a trailing empty one; no trimming.
 */
export function splitEnableApiLayers(value: string | undefined, separator: string): string[] {
  if (!value) return [];
  const out: string[] = [];
  let last = 0;
  let found = value.indexOf(separator);
  while (found !== -1) {
    out.push(value.slice(last, found));
    last = found + 1;
    found = value.indexOf(separator, last);
  }
  if (last < value.length) out.push(value.slice(last));
  return out;
}

/** Why a layer is on; 'policy' is createLoader({ layers: { enable } }). */
export type EnabledLayerOrigin = 'implicit' | 'XR_ENABLE_API_LAYERS' | 'policy' | 'application';

export interface EnabledLayer {
  readonly layer: DiscoveredApiLayer;
  readonly origin: EnabledLayerOrigin;
  readonly reason: string;
}

/**
 * The enabled layers: implicit layers that their environment allows or createLoader({ layers: {
 * enable } }) names (in discovery order), then the XR_ENABLE_API_LAYERS entries, then the explicit
 * layers `enable` names (in its order, as XR_ENABLE_API_LAYERS), then the application's; a name already enabled is dropped (the first is kept). A requested name that
 * no usable layer has → XR_ERROR_API_LAYER_NOT_PRESENT. In safe mode an implicit layer
 * is on only when the application or `enable` names it; `order` reorders the result.
 * The result is ordered from the application (index 0) towards the runtime. Layers the policy
 * disables are taken out of `layers` before this is called (lib/openxr/discovery/loader-policy.ts).
 */
export function resolveEnabledLayers(
  layers: readonly DiscoveredApiLayer[],
  envRequested: readonly string[],
  appRequested: readonly string[],
  policy: LayerPolicy = NO_LAYER_POLICY,
  decide: (message: string) => void = () => {},
): EnabledLayer[] {
  const enabled: EnabledLayer[] = [];
  const names = new Set<string>();
  const add = (l: DiscoveredApiLayer, origin: EnabledLayerOrigin, reason: string): void => {
    names.add(l.name);
    enabled.push({ layer: l, origin, reason });
  };
  // XR-PO-3: in safe mode an implicit layer nobody names waits for the application's request.
  const named = (name: string): boolean => appRequested.includes(name) || policyEnableGlob(policy, name) !== undefined;
  const requestable = new Map<string, DiscoveredApiLayer>();
  for (const l of layers) {
    if (l.kind !== 'implicit' || names.has(l.name) || requestable.has(l.name)) continue;
    if (!l.enabledByDefault) {
      // XR-PO-2: `enable` turns on an implicit layer its environment turns off, in the implicit
      // pass where its enable variable would put it (one without disable_environment stays out:
      // its manifest is invalid, XR-LM-2).
      const glob = policyEnableGlob(policy, l.name);
      if (glob !== undefined && l.disableEnvironment !== undefined) add(l, 'policy', `turned on by createLoader({ layers: { enable } }) ("${glob}")`);
      continue;
    }
    if (policy.safe && !named(l.name)) {
      decide(`layer ${l.name} not loaded: safe mode (createLoader({ layers: { safe: true } })) loads no implicit layer the application does not name`);
      requestable.set(l.name, l);
      continue;
    }
    add(l, 'implicit', l.enabledReason);
  }
  for (const l of layers) if (l.kind === 'explicit' && !requestable.has(l.name)) requestable.set(l.name, l);
  const missing: string[] = [];
  const request = (name: string, origin: EnabledLayerOrigin): void => {
    if (names.has(name)) return;
    const l = requestable.get(name);
    if (!l) {
      const off = layers.find((x) => x.name === name && x.kind === 'implicit' && !x.enabledByDefault);
      const why = off ? `; it is an implicit layer its environment turns off (${off.enabledReason}), so it is not present` : '';
      missing.push(`${JSON.stringify(name)} (asked for by ${origin === 'application' ? 'the application' : 'XR_ENABLE_API_LAYERS'}${why})`);
      return;
    }
    add(l, origin, origin === 'application' ? 'requested by the application' : 'listed in XR_ENABLE_API_LAYERS');
  };
  for (const n of envRequested) request(n, 'XR_ENABLE_API_LAYERS');
  // XR-PO-2: `enable` turns on explicit layers in its entries' order, as XR_ENABLE_API_LAYERS
  // lists them, each entry's layers in the loader's order.
  for (const g of policy.enable.globs) {
    for (const l of layers) {
      const glob = l.kind === 'explicit' && !names.has(l.name) ? matchingGlob(l.name, { globs: [g] }) : undefined;
      if (glob !== undefined) add(l, 'policy', `turned on by createLoader({ layers: { enable } }) ("${glob}")`);
    }
  }
  for (const n of appRequested) request(n, 'application');
  if (missing.length > 0) {
    throw new OpenXrError('XR_ERROR_API_LAYER_NOT_PRESENT', `API layer not found: ${missing.join(', ')}`);
  }
  const { chain, placed } = orderChain(enabled, (e) => e.layer.name, policy.order);
  return chain.map((e) => (placed.has(e) ? { ...e, reason: `${e.reason}; ${placed.get(e) ?? ''}` } : e));
}
