// VK-PO-1..7: the Vulkan loader policy in code, createLoader({ layers, drivers, devices })
// (docs/usage.md, "Loader policy in code"). Read after the environment and the settings file and
// applied on top of them: where it speaks it wins. Layers: lib/core/loader-policy.ts. Drivers:
// globs over the manifest file names, as VK_LOADER_DRIVERS_SELECT / DISABLE. Devices: the fields of
// VK_LOADER_DEVICE_SELECT, VK_LOADER_*_ID_FILTER and VK_LOADER_DISABLE_SELECT, each replacing its variable.
import { invalidArgument, requireInteger } from '../../core/errors.js';
import { checkKeys, globList, orderChain, policyEnableGlob, readLayerPolicy, type LayerPolicy, type LayerPolicyOptions } from '../../core/loader-policy.js';
import { matchingGlob, nameFilterFromGlobs, type NameFilter } from '../../core/name-filter.js';
import type { VulkanDeviceFilters } from '../plan/plan.js';
import type { DiscoveredVulkanLayer } from './layer-discovery.js';
import type { EnabledVulkanLayer } from './layer-policy.js';

/** An id, or an inclusive [first, last] range of ids. */
export type VulkanIdRange = number | readonly [number, number];

/** createLoader({ devices }): each field replaces the environment variable named beside it. */
export interface VulkanDevicePolicyOptions {
  /** This device is reported first (VK_LOADER_DEVICE_SELECT). */
  readonly select?: { readonly vendorId: number; readonly deviceId: number };
  /** Only devices whose VkPhysicalDeviceProperties.vendorID is in one of these (VK_LOADER_VENDOR_ID_FILTER). */
  readonly vendorIds?: readonly VulkanIdRange[];
  /** ... whose deviceID is in one of these (VK_LOADER_DEVICE_ID_FILTER). */
  readonly deviceIds?: readonly VulkanIdRange[];
  /** ... whose VkPhysicalDeviceDriverProperties.driverID is in one of these (VK_LOADER_DRIVER_ID_FILTER). */
  readonly driverIds?: readonly VulkanIdRange[];
  /** false: the drivers' order, unsorted (VK_LOADER_DISABLE_SELECT); true: sorted even when that variable says otherwise. */
  readonly sort?: boolean;
}

/** createLoader({ drivers }): globs over driver manifest file names ("lvp_icd*.json"). */
export interface VulkanDriverPolicyOptions {
  /** Only these drivers (VK_LOADER_DRIVERS_SELECT's rules), whatever the environment selected or disabled. */
  readonly select?: readonly string[];
  /** Not these drivers, unless `select` names them (VK_LOADER_DRIVERS_DISABLE's rules). */
  readonly disable?: readonly string[];
}

/** The policy part of the Vulkan createLoader() options. */
export interface VulkanLoaderPolicyOptions {
  readonly layers?: LayerPolicyOptions;
  readonly drivers?: VulkanDriverPolicyOptions;
  readonly devices?: VulkanDevicePolicyOptions;
}

export interface VulkanDriverPolicy {
  readonly select: NameFilter;
  readonly disable: NameFilter;
}

export interface VulkanLoaderPolicy {
  readonly layers: LayerPolicy;
  readonly drivers: VulkanDriverPolicy;
  readonly devices: VulkanDevicePolicyOptions;
}

const U32 = 0xffffffff;

function idRanges(what: string, value: unknown): (readonly [number, number])[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalidArgument(what, 'an array of ids or [first, last] ranges', value);
  return value.map((v: unknown, i) => {
    if (Array.isArray(v)) {
      if (v.length !== 2) throw invalidArgument(`${what}[${i}]`, 'an id or a [first, last] range', v);
      const a = Number(requireInteger(v[0], `${what}[${i}][0]`, 0, U32));
      const b = Number(requireInteger(v[1], `${what}[${i}][1]`, a, U32));
      return [a, b] as const;
    }
    const id = Number(requireInteger(v, `${what}[${i}]`, 0, U32));
    return [id, id] as const;
  });
}

function readDevices(value: unknown): VulkanDevicePolicyOptions {
  const what = 'options.devices';
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(what, 'an object { select, vendorIds, deviceIds, driverIds, sort }', value);
  checkKeys(what, value, ['select', 'vendorIds', 'deviceIds', 'driverIds', 'sort']);
  const v = value as Record<string, unknown>;
  const sel = v['select'];
  let select: VulkanDevicePolicyOptions['select'];
  if (sel !== undefined) {
    if (typeof sel !== 'object' || sel === null) throw invalidArgument(`${what}.select`, 'an object { vendorId, deviceId }', sel);
    const s = sel as Record<string, unknown>;
    select = { vendorId: Number(requireInteger(s['vendorId'], `${what}.select.vendorId`, 0, U32)), deviceId: Number(requireInteger(s['deviceId'], `${what}.select.deviceId`, 0, U32)) };
  }
  if (v['sort'] !== undefined && typeof v['sort'] !== 'boolean') throw invalidArgument(`${what}.sort`, 'a boolean', v['sort']);
  const vendorIds = idRanges(`${what}.vendorIds`, v['vendorIds']);
  const deviceIds = idRanges(`${what}.deviceIds`, v['deviceIds']);
  const driverIds = idRanges(`${what}.driverIds`, v['driverIds']);
  return {
    ...(select ? { select } : {}),
    ...(vendorIds ? { vendorIds } : {}),
    ...(deviceIds ? { deviceIds } : {}),
    ...(driverIds ? { driverIds } : {}),
    ...(typeof v['sort'] === 'boolean' ? { sort: v['sort'] } : {}),
  };
}

/** The createLoader() policy options checked and read; a wrong one throws InvalidArgumentError naming it. */
export function readVulkanPolicy(options: VulkanLoaderPolicyOptions): VulkanLoaderPolicy {
  const d: unknown = options.drivers;
  let drivers: VulkanDriverPolicy = { select: { globs: [] }, disable: { globs: [] } };
  if (d !== undefined) {
    if (typeof d !== 'object' || d === null || Array.isArray(d)) throw invalidArgument('options.drivers', 'an object { select, disable }', d);
    checkKeys('options.drivers', d, ['select', 'disable']);
    const r = d as Record<string, unknown>;
    drivers = { select: nameFilterFromGlobs(globList('options.drivers.select', r['select'])), disable: nameFilterFromGlobs(globList('options.drivers.disable', r['disable'])) };
  }
  return { layers: readLayerPolicy(options.layers), drivers, devices: readDevices(options.devices) };
}

// VK-PO-5
/**
 * The drivers rule of the policy over the environment's decision for one driver (its manifest's
 * file name): `disable` takes it out unless `select` names it; a non-empty `select` keeps only
 * what it names, bringing back what the environment left out.
 */
export function driverPolicyDecision(policy: VulkanDriverPolicy, fileName: string, envSelected: boolean): { selected: boolean; rule: string } | undefined {
  const selectGlob = matchingGlob(fileName, policy.select);
  const disableGlob = matchingGlob(fileName, policy.disable);
  if (disableGlob !== undefined && selectGlob === undefined) return { selected: false, rule: `disabled by createLoader({ drivers: { disable } }) ("${disableGlob}")` };
  if (policy.select.globs.length === 0) return undefined;
  if (selectGlob === undefined) return { selected: false, rule: 'not selected by createLoader({ drivers: { select } })' };
  return { selected: true, rule: `selected by createLoader({ drivers: { select } }) ("${selectGlob}")${envSelected ? '' : ', over the environment'}` };
}

// VK-PO-6
/** The device filters: each field the policy gives replaces the environment's; `decisions` says whose each is. */
export function applyDevicePolicy(env: VulkanDeviceFilters, policy: VulkanDevicePolicyOptions): { filters: VulkanDeviceFilters; decisions: string[] } {
  const decisions: string[] = [];
  const pick = <K extends keyof VulkanDeviceFilters>(key: K, given: VulkanDeviceFilters[K] | undefined, option: string, variable: string): VulkanDeviceFilters[K] | undefined => {
    if (given !== undefined) {
      decisions.push(`devices: ${option} from createLoader({ devices })${env[key] !== undefined ? `, instead of ${variable}` : ''}`);
      return given;
    }
    if (env[key] !== undefined) decisions.push(`devices: ${option} from ${variable}`);
    return env[key];
  };
  const deviceSelect = pick('deviceSelect', policy.select, 'select', 'VK_LOADER_DEVICE_SELECT');
  const vendorIdRanges = pick('vendorIdRanges', policy.vendorIds as VulkanDeviceFilters['vendorIdRanges'], 'vendorIds', 'VK_LOADER_VENDOR_ID_FILTER');
  const deviceIdRanges = pick('deviceIdRanges', policy.deviceIds as VulkanDeviceFilters['deviceIdRanges'], 'deviceIds', 'VK_LOADER_DEVICE_ID_FILTER');
  const driverIdRanges = pick('driverIdRanges', policy.driverIds as VulkanDeviceFilters['driverIdRanges'], 'driverIds', 'VK_LOADER_DRIVER_ID_FILTER');
  let disableSort = env.disableSort;
  if (policy.sort !== undefined) {
    decisions.push(`devices: ${policy.sort ? 'sorted' : 'unsorted'} by createLoader({ devices: { sort: ${policy.sort} } })${env.disableSort ? ', instead of VK_LOADER_DISABLE_SELECT' : ''}`);
    disableSort = policy.sort ? undefined : true;
  } else if (disableSort) decisions.push('devices: unsorted by VK_LOADER_DISABLE_SELECT');
  return {
    filters: {
      ...(deviceSelect ? { deviceSelect } : {}),
      ...(disableSort ? { disableSort } : {}),
      ...(deviceIdRanges ? { deviceIdRanges } : {}),
      ...(vendorIdRanges ? { vendorIdRanges } : {}),
      ...(driverIdRanges ? { driverIdRanges } : {}),
    },
    decisions,
  };
}

/** Whether an entry is in the chain's implicit pass (an implicit layer on, or an implicit meta layer's component). */
function isImplicitPass(e: EnabledVulkanLayer): boolean {
  return e.origin === 'implicit' || (e.origin.startsWith('meta:') && e.layer.kind === 'implicit') || (e.origin === 'policy' && e.layer.kind === 'implicit');
}

/** The meta layer (or the layer itself) that put this entry in the chain, for the safe mode. */
function nameOf(e: EnabledVulkanLayer): string {
  return e.origin.startsWith('meta:') ? e.origin.slice(5) : e.layer.name;
}

// VK-PO-2..4
/**
 * The layers rules over the environment's chain: `enable` adds what it names where
 * VK_LOADER_LAYERS_ENABLE puts what it forces on (the Khronos loader 1.4.359, compared in
 * test/system/vulkan-policy-differential.test.ts): an implicit layer in the implicit pass, in the
 * loader's order; explicit layers after the implicit ones and the environment's, before the
 * application's, in the loader's order, also those the application asks for (the first place a
 * name is enabled counts). Safe mode drops implicit layers nobody named; `order` reorders.
 * `available` is the loader's list in its order; `requested` the application's names.
 */
export function applyLayerPolicy(
  chain: readonly EnabledVulkanLayer[],
  available: readonly DiscoveredVulkanLayer[],
  requested: readonly string[],
  policy: LayerPolicy,
  decide: (message: string) => void,
): EnabledVulkanLayer[] {
  let out = [...chain];
  const named = (name: string): boolean => requested.includes(name) || policyEnableGlob(policy, name) !== undefined;
  if (policy.safe) {
    out = out.filter((e) => {
      if (e.layer.kind !== 'implicit' || named(nameOf(e)) || named(e.layer.name)) return true;
      decide(`layer ${e.layer.name} not loaded: safe mode (createLoader({ layers: { safe: true } })) loads no implicit layer the application does not name`);
      return false;
    });
  }
  // A layer enable names that only the application asked for moves to enable's place.
  out = out.filter((e) => e.origin !== 'application' || policyEnableGlob(policy, e.layer.name) === undefined);
  const present = new Set(out.map((e) => e.layer.name));
  const implicitAdded: EnabledVulkanLayer[] = [];
  const added: EnabledVulkanLayer[] = [];
  for (const layer of available) {
    const glob = policyEnableGlob(policy, layer.name);
    if (glob === undefined || present.has(layer.name)) continue;
    present.add(layer.name);
    const into = layer.kind === 'implicit' ? implicitAdded : added;
    if (layer.isMeta) {
      for (const c of layer.manifest.component_layers ?? []) {
        const comp = available.find((l) => l.name === c);
        if (comp && !present.has(c)) {
          present.add(c);
          into.push({ layer: comp, origin: `meta:${layer.name}`, reason: `a component of meta layer ${layer.name}, turned on by createLoader({ layers: { enable } }) ("${glob}")` });
        }
      }
      continue;
    }
    into.push({ layer, origin: 'policy', reason: `turned on by createLoader({ layers: { enable } }) ("${glob}")` });
  }
  const firstApp = out.findIndex((e) => e.origin === 'application');
  out.splice(firstApp === -1 ? out.length : firstApp, 0, ...added);
  // Implicit layers join the implicit pass (the chain's leading implicit entries) in the loader's order.
  const rank = (e: EnabledVulkanLayer): number => available.indexOf(available.find((l) => l.name === nameOf(e)) ?? e.layer);
  for (const e of implicitAdded) {
    let at = 0;
    while (at < out.length && isImplicitPass(out[at]!) && rank(out[at]!) < rank(e)) at++;
    out.splice(at, 0, e);
  }
  const { chain: ordered, placed } = orderChain(out, (e) => e.layer.name, policy.order);
  return ordered.map((e) => (placed.has(e) ? { ...e, reason: `${e.reason}; ${placed.get(e) ?? ''}` } : e));
}
