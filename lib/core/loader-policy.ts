// The loader policy in code (docs/usage.md, "Loader policy in code"): what createLoader({ layers })
// of either API asks for, checked and read into the environment filters' glob form. Each entry is
// one glob with the filter variables' rules (lib/core/name-filter.ts): "name", "prefix*", "*suffix",
// "*substring*", "*"; the disable list also takes "~implicit~", "~explicit~" and "~all~". The
// policy is applied after the environment and the settings file, so where it speaks it wins.
import { invalidArgument } from './errors.js';
import { classifyGlob, layerDisableFilterFromGlobs, layerDisabledByFilter, matchingGlob, nameFilterFromGlobs, nameMatchesFilter, type LayerDisableFilter, type NameFilter, type NameGlob } from './name-filter.js';

/** createLoader({ layers }) for both APIs. */
export interface LayerPolicyOptions {
  /** Layers to turn on (globs): explicit ones join the chain, implicit ones are on whatever their environment says. */
  readonly enable?: readonly string[];
  /** Layers to take out (globs, "~implicit~", "~explicit~", "~all~"): not listed, not loaded, not loadable. */
  readonly disable?: readonly string[];
  /** Layers `disable` (and the environment's disable filter) must leave alone (globs). */
  readonly allow?: readonly string[];
  /** The chain's order, application side first (globs): the layers each entry matches, then the rest as the loader had them. */
  readonly order?: readonly string[];
  /** Load no implicit layer that the application (its requested names or `enable`) does not name. */
  readonly safe?: boolean;
}

/** The policy read into filters (an empty policy changes nothing). */
export interface LayerPolicy {
  readonly enable: NameFilter;
  readonly disable: LayerDisableFilter;
  readonly allow: NameFilter;
  readonly order: readonly NameGlob[];
  readonly safe: boolean;
}

export const NO_LAYER_POLICY: LayerPolicy = {
  enable: { globs: [] },
  disable: { all: false, implicit: false, explicit: false, names: { globs: [] } },
  allow: { globs: [] },
  order: [],
  safe: false,
};

/** A list of globs: an array of non-empty strings. */
export function globList(what: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidArgument(what, 'an array of layer names or globs ("name", "prefix*", "*suffix", "*part*")', value);
  value.forEach((v, i) => {
    if (typeof v !== 'string' || v === '' || v.includes(',')) throw invalidArgument(`${what}[${i}]`, 'a non-empty name or glob without commas', v);
  });
  return value as string[];
}

/** Checks an options object's keys against the ones it may have. */
export function checkKeys(what: string, value: object, keys: readonly string[]): void {
  for (const k of Object.keys(value)) {
    if (!keys.includes(k)) throw invalidArgument(`${what}.${k}`, `one of ${keys.join(', ')}`, k);
  }
}

/** createLoader({ layers }) checked and read; a wrong option throws InvalidArgumentError naming it. */
export function readLayerPolicy(value: unknown, what = 'options.layers'): LayerPolicy {
  if (value === undefined) return NO_LAYER_POLICY;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(what, 'an object { enable, disable, allow, order, safe }', value);
  checkKeys(what, value, ['enable', 'disable', 'allow', 'order', 'safe']);
  const v = value as Record<string, unknown>;
  if (v['safe'] !== undefined && typeof v['safe'] !== 'boolean') throw invalidArgument(`${what}.safe`, 'a boolean', v['safe']);
  const order = globList(`${what}.order`, v['order']);
  order.forEach((o, i) => {
    if (o.startsWith('~')) throw invalidArgument(`${what}.order[${i}]`, 'a layer name or glob ("~" words are for disable only)', o);
  });
  return {
    enable: nameFilterFromGlobs(globList(`${what}.enable`, v['enable'])),
    disable: layerDisableFilterFromGlobs(globList(`${what}.disable`, v['disable'])),
    allow: nameFilterFromGlobs(globList(`${what}.allow`, v['allow'])),
    order: order.map((o) => classifyGlob(o.toLowerCase())),
    safe: v['safe'] === true,
  };
}

/** Whether `layers.disable` takes this layer out (`allow` and `enable` protect it). */
export function policyDisables(policy: LayerPolicy, name: string, kind: 'implicit' | 'explicit'): boolean {
  return layerDisabledByFilter(name, kind, policy.disable) && !nameMatchesFilter(name, policy.allow) && !nameMatchesFilter(name, policy.enable);
}

/** The `layers.enable` glob that names this layer, if one does. */
export function policyEnableGlob(policy: LayerPolicy, name: string): string | undefined {
  return matchingGlob(name, policy.enable);
}

/**
 * `layers.order` applied to a chain (index 0 nearest the application): the layers matching the
 * first entry, then the second's, ..., each group in the chain's order, then the layers no entry
 * matches in the chain's order. `moved` says where each ordered layer went and why.
 */
export function orderChain<T>(chain: readonly T[], name: (t: T) => string, order: readonly NameGlob[]): { chain: T[]; placed: Map<T, string> } {
  const placed = new Map<T, string>();
  if (order.length === 0) return { chain: [...chain], placed };
  const out: T[] = [];
  order.forEach((glob, i) => {
    for (const item of chain) {
      if (placed.has(item) || !nameMatchesFilter(name(item), { globs: [glob] })) continue;
      placed.set(item, `placed by layers.order[${i}] ("${matchingGlob(name(item), { globs: [glob] }) ?? glob.text}")`);
      out.push(item);
    }
  });
  for (const item of chain) if (!placed.has(item)) out.push(item);
  return { chain: out, placed };
}
