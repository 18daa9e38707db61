// Decides what of a registry the generated sources contain: every feature of the API and every
// extension that needs no platform header, no protecting macro and no foreign header, together
// with the transitive closure of the types they use, their enum values and their commands.
import { evaluateDepends } from './depends.js';
import type { Command, Extension, Feature, RawEnum, Registry, RequireBlock } from './registry.js';

export interface SkippedItem {
  readonly name: string;
  readonly reason: string;
}

/** An enum value or constant with its value worked out. */
export interface ResolvedEnum {
  readonly name: string;
  /** The C spelling of the value (registry text, or computed for extension offsets and bits). */
  readonly cValue: string;
  /** The numeric value when it is an integer (aliases take their target's). */
  readonly numeric: bigint | undefined;
  /** For an alias: the non-alias name it finally refers to. */
  readonly aliasOf: string | undefined;
  /** The C type of an API constant, when the registry gives one. */
  readonly type: string | undefined;
  /** The feature or extension that added it; undefined for values written in the group itself. */
  readonly requiredBy: string | undefined;
}

export interface SelectedCommand {
  readonly name: string;
  /** The command with its signature (an alias's target for aliases). */
  readonly signature: Command;
  /** The name the command is an alias of, if it is one. */
  readonly aliasOf: string | undefined;
  /** The feature (public version name, e.g. VK_VERSION_1_1) or extension that first requires it. */
  readonly requiredBy: string;
  /** The feature's raw name (VK_BASE_VERSION_1_0...) or the extension name. */
  readonly requiredByUnit: string;
  /** The extension that first requires it, when that is an extension. */
  readonly extension: Extension | undefined;
}

export interface Selection {
  readonly registry: Registry;
  readonly features: readonly Feature[];
  readonly extensions: readonly Extension[];
  readonly skipped: readonly SkippedItem[];
  readonly disabled: readonly string[];
  /** Registry types to emit (never the C built-ins). */
  readonly types: ReadonlySet<string>;
  /** Values of every enum group to emit, base values first then values added by features/extensions. */
  readonly groupValues: ReadonlyMap<string, readonly ResolvedEnum[]>;
  /** API constants followed by constants that features and extensions add (spec versions, names). */
  readonly constants: readonly ResolvedEnum[];
  readonly commands: readonly SelectedCommand[];
  /** Enum values left out because a macro protects them. */
  readonly skippedValues: readonly SkippedItem[];
  /** The extensions of the protected platform, when the selector was given one. */
  readonly platform: PlatformSelection | undefined;
}

/**
 * A protecting macro whose extensions go into a header of their own (OpenXR's Vulkan graphics
 * binding): the foreign types they use count as available when another generated header defines them.
 */
export interface ProtectedPlatform {
  /** The macro that protects the extensions, e.g. XR_USE_GRAPHICS_API_VULKAN. */
  readonly macro: string;
  /** The header the registry says the foreign types need, e.g. vulkan/vulkan.h. */
  readonly requires: string;
  /** The foreign types the other generated header defines. */
  readonly foreignTypes: ReadonlySet<string>;
}

/** What the protected platform adds; its enum values land in the base selection's groups, as in openxr.h. */
export interface PlatformSelection {
  readonly macro: string;
  readonly extensions: readonly Extension[];
  readonly skipped: readonly SkippedItem[];
  /** Registry types to emit that the base selection does not have. */
  readonly types: ReadonlySet<string>;
  /** Constants the platform's extensions add (spec versions, names). */
  readonly constants: readonly ResolvedEnum[];
  readonly commands: readonly SelectedCommand[];
}

/** The public name of a feature: Vulkan's internal base/compute/graphics features fold into VK_VERSION_x_y. */
export function featurePublicName(registry: Registry, feature: Feature): string {
  if (!feature.internal) return feature.name;
  const prefix = registry.api === 'vulkan' ? 'VK_VERSION_' : 'XR_VERSION_';
  return prefix + feature.number.replace('.', '_');
}

const INTEGER = /^(-?)(0x[0-9a-f]+|[0-9]+)(?:u|ul|ull|l|ll)?$/i;

export function parseInteger(text: string): bigint | undefined {
  const m = INTEGER.exec(text.trim());
  if (m === null || m[2] === undefined) return undefined;
  const v = BigInt(m[2]);
  return m[1] === '-' ? -v : v;
}

/** The registry type name inside a C type spelling such as `const char*` or `void*`. */
function baseTypeName(cType: string): string {
  return cType.replace(/\bconst\b|\bstruct\b|\*/g, ' ').trim();
}

interface Closure {
  readonly types: Set<string>;
  readonly foreign: string | undefined;
}

export class RegistrySelector {
  private readonly registry: Registry;
  private readonly platformInclude: string;
  private readonly platform: ProtectedPlatform | undefined;

  constructor(registry: Registry, platformInclude: string, platform?: ProtectedPlatform) {
    this.registry = registry;
    this.platformInclude = platformInclude;
    this.platform = platform;
  }

  /** C built-ins come from the platform header we replace by hand-written preamble code. */
  private isBuiltin(name: string): boolean {
    const t = this.registry.types.get(name);
    if (t === undefined) return false;
    if (t.category === 'include') return name === this.platformInclude;
    return t.category === '' && t.requires === this.platformInclude;
  }

  /** Follows command aliases to the command that has the signature. */
  resolveCommand(name: string): Command {
    const seen = new Set<string>();
    let cmd = this.registry.commands.get(name);
    while (cmd?.alias !== undefined) {
      if (seen.has(cmd.name)) throw new Error(`command alias loop at ${name}`);
      seen.add(cmd.name);
      cmd = this.registry.commands.get(cmd.alias);
    }
    if (cmd === undefined) throw new Error(`unknown command ${name}`);
    return cmd;
  }

  private commandTypes(name: string): string[] {
    const cmd = this.resolveCommand(name);
    return [baseTypeName(cmd.returnType), ...cmd.params.map((p) => p.typeName)];
  }

  /**
   * Every type reachable from the roots; `foreign` explains the first one that needs an outside header.
   * With `platform`, its protected types and the foreign types another generated header defines are allowed.
   */
  closure(roots: Iterable<string>, platform?: ProtectedPlatform): Closure {
    const types = new Set<string>();
    const seen = new Set<string>();
    const via = new Map<string, string>();
    const stack = [...roots].reverse();
    let foreign: string | undefined;
    const path = (name: string): string => {
      const chain = [name];
      for (let p = via.get(name); p !== undefined; p = via.get(p)) chain.unshift(p);
      return chain.join(' -> ');
    };
    while (stack.length > 0) {
      const name = stack.pop();
      if (name === undefined || seen.has(name)) continue;
      seen.add(name);
      if (this.isBuiltin(name)) continue;
      const t = this.registry.types.get(name);
      if (t === undefined) {
        // XR bitmask value groups are not types; anything else unknown is outside the registry.
        if (!this.registry.enumGroups.has(name)) foreign ??= `${path(name)} is not defined by the registry`;
        continue;
      }
      if (t.category === '' && platform !== undefined && t.requires === platform.requires && platform.foreignTypes.has(name)) {
        continue;
      }
      if (t.category === 'include' || t.category === '') {
        foreign ??= `${path(name)} needs ${t.requires ?? name}`;
        continue;
      }
      if (t.protect !== undefined && t.protect !== platform?.macro) {
        foreign ??= `${path(name)} is protected by ${t.protect}`;
        continue;
      }
      types.add(name);
      for (const dep of [...t.deps].reverse()) {
        if (!seen.has(dep)) {
          if (!via.has(dep)) via.set(dep, name);
          stack.push(dep);
        }
      }
    }
    return { types, foreign };
  }

  private activeBlocks(blocks: readonly RequireBlock[], isAvailable: (n: string) => boolean): RequireBlock[] {
    return blocks.filter((b) => b.depends === undefined || evaluateDepends(b.depends, isAvailable));
  }

  private blockRoots(blocks: readonly RequireBlock[]): string[] {
    const roots: string[] = [];
    for (const b of blocks) {
      roots.push(...b.types);
      for (const c of b.commands) roots.push(...this.commandTypes(c));
      for (const e of b.enums) if (e.extends !== undefined && e.protect === undefined) roots.push(e.extends);
    }
    return roots;
  }

  select(): Selection {
    const reg = this.registry;
    const featureNames = new Set(reg.features.map((f) => f.name));
    const skipped: SkippedItem[] = [];
    const disabled: string[] = [];
    const included = new Set<string>();
    const platformIncluded = new Set<string>();
    for (const ext of reg.extensions) {
      if (ext.supported && ext.platform === undefined && ext.protect !== undefined && ext.protect === this.platform?.macro) {
        platformIncluded.add(ext.name);
      }
      if (!ext.supported) disabled.push(ext.name);
      else if (ext.platform !== undefined) skipped.push({ name: ext.name, reason: `platform "${ext.platform}"` });
      else if (ext.protect !== undefined) skipped.push({ name: ext.name, reason: `protected by ${ext.protect}` });
      else included.add(ext.name);
    }
    const isAvailable = (n: string): boolean => featureNames.has(n) || included.has(n);

    skipped.push(...this.dropUnavailable(included, isAvailable, undefined));
    const platformSkipped = this.dropUnavailable(
      platformIncluded,
      (n) => isAvailable(n) || platformIncluded.has(n),
      this.platform,
    );
    const isAvailableOnPlatform = (n: string): boolean => isAvailable(n) || platformIncluded.has(n);

    const extensions = reg.extensions.filter((e) => included.has(e.name));
    const platformExtensions = reg.extensions.filter((e) => platformIncluded.has(e.name));
    const units: {
      unit: string;
      publicName: string;
      ext: Extension | undefined;
      blocks: RequireBlock[];
      onPlatform: boolean;
    }[] = [];
    for (const f of reg.features) {
      units.push({
        unit: f.name,
        publicName: featurePublicName(reg, f),
        ext: undefined,
        blocks: this.activeBlocks(f.requires, isAvailable),
        onPlatform: false,
      });
    }
    for (const e of extensions) {
      const blocks = this.activeBlocks(e.requires, isAvailable);
      units.push({ unit: e.name, publicName: e.name, ext: e, blocks, onPlatform: false });
    }
    for (const e of platformExtensions) {
      const blocks = this.activeBlocks(e.requires, isAvailableOnPlatform);
      units.push({ unit: e.name, publicName: e.name, ext: e, blocks, onPlatform: true });
    }

    const roots: string[] = [];
    const platformRoots: string[] = [];
    const commands: SelectedCommand[] = [];
    const platformCommands: SelectedCommand[] = [];
    const commandNames = new Set<string>();
    const added = new Map<string, { raw: RawEnum; by: string; extnumber: number | undefined }[]>();
    const extConstants: { raw: RawEnum; by: string }[] = [];
    const platformConstants: { raw: RawEnum; by: string }[] = [];
    const skippedValues: SkippedItem[] = [];
    for (const u of units) {
      const unitRoots = this.blockRoots(u.blocks);
      const { foreign } = this.closure(unitRoots, u.onPlatform ? this.platform : undefined);
      if (foreign !== undefined) throw new Error(`${u.unit} needs a foreign type: ${foreign}`);
      (u.onPlatform ? platformRoots : roots).push(...unitRoots);
      for (const b of u.blocks) {
        for (const name of b.commands) {
          if (commandNames.has(name)) continue;
          commandNames.add(name);
          const own = reg.commands.get(name);
          if (own === undefined) throw new Error(`${u.unit} requires unknown command ${name}`);
          (u.onPlatform ? platformCommands : commands).push({
            name,
            signature: this.resolveCommand(name),
            aliasOf: own.alias,
            requiredBy: u.publicName,
            requiredByUnit: u.unit,
            extension: u.ext,
          });
        }
        for (const raw of b.enums) {
          if (raw.protect !== undefined) {
            skippedValues.push({ name: raw.name, reason: `protected by ${raw.protect}` });
          } else if (raw.extends !== undefined) {
            const list = added.get(raw.extends) ?? [];
            list.push({ raw, by: u.publicName, extnumber: raw.extnumber ?? u.ext?.number });
            added.set(raw.extends, list);
          } else if (raw.value !== undefined || raw.alias !== undefined) {
            (u.onPlatform ? platformConstants : extConstants).push({ raw, by: u.publicName });
          }
        }
      }
    }

    const { types } = this.closure(roots);
    const platformTypes = new Set([...this.closure(platformRoots, this.platform).types].filter((t) => !types.has(t)));
    const groupNames = new Set<string>();
    for (const name of [...types, ...roots, ...platformTypes, ...platformRoots]) {
      if (reg.enumGroups.has(name) && reg.enumGroups.get(name)?.kind !== 'constants') groupNames.add(name);
    }
    for (const t of [...types, ...platformTypes]) {
      const bits = reg.types.get(t)?.bitvalues;
      if (bits !== undefined && reg.enumGroups.has(bits)) groupNames.add(bits);
    }

    const groupValues = new Map<string, ResolvedEnum[]>();
    const byName = new Map<string, { value: ResolvedEnum; alias: string | undefined }>();
    const groupOrder = [...groupNames].sort();
    for (const g of groupOrder) {
      const group = reg.enumGroups.get(g);
      if (group === undefined) continue;
      const values: ResolvedEnum[] = [];
      const aliases = new Map<string, string>();
      const addValue = (raw: RawEnum, by: string | undefined, extnumber: number | undefined): void => {
        const resolved = resolveRaw(raw, group.bitwidth, by, extnumber);
        const prior = byName.get(raw.name);
        if (prior !== undefined) {
          const same = prior.value.cValue === resolved.cValue && prior.alias === raw.alias;
          if (!same && !(prior.value.numeric !== undefined && prior.value.numeric === resolved.numeric)) {
            throw new Error(`enum ${raw.name} is defined twice with different values`);
          }
          return;
        }
        byName.set(raw.name, { value: resolved, alias: raw.alias });
        if (raw.alias !== undefined) aliases.set(raw.name, raw.alias);
        values.push(resolved);
      };
      for (const raw of group.values) {
        if (raw.protect !== undefined) skippedValues.push({ name: raw.name, reason: `protected by ${raw.protect}` });
        else addValue(raw, undefined, undefined);
      }
      for (const a of added.get(g) ?? []) addValue(a.raw, a.by, a.extnumber);
      groupValues.set(g, values);
    }
    // Aliases take their target's value and name the final non-alias target.
    for (const [g, values] of groupValues) {
      groupValues.set(
        g,
        values.map((v) => {
          const alias = byName.get(v.name)?.alias;
          if (alias === undefined) return v;
          let target = alias;
          for (let hops = 0; byName.get(target)?.alias !== undefined; hops++) {
            if (hops > 16) throw new Error(`enum alias loop at ${v.name}`);
            target = byName.get(target)?.alias ?? target;
          }
          const t = byName.get(target);
          if (t === undefined) throw new Error(`enum ${v.name} aliases unknown ${alias}`);
          return { ...v, cValue: target, numeric: t.value.numeric, aliasOf: target };
        }),
      );
    }

    const constants: ResolvedEnum[] = [];
    const constantNames = new Set<string>();
    for (const group of reg.enumGroups.values()) {
      if (group.kind !== 'constants') continue;
      for (const raw of group.values) {
        if (constantNames.has(raw.name)) continue;
        constantNames.add(raw.name);
        constants.push(resolveRaw(raw, 32, undefined, undefined));
      }
    }
    for (const { raw, by } of extConstants) {
      if (constantNames.has(raw.name)) continue;
      constantNames.add(raw.name);
      constants.push(resolveRaw(raw, 32, by, undefined));
    }
    const platform: PlatformSelection | undefined =
      this.platform === undefined
        ? undefined
        : {
            macro: this.platform.macro,
            extensions: platformExtensions,
            skipped: platformSkipped,
            types: platformTypes,
            constants: platformConstants.map(({ raw, by }) => resolveRaw(raw, 32, by, undefined)),
            commands: platformCommands,
          };

    return {
      registry: reg,
      features: reg.features,
      extensions,
      skipped,
      disabled,
      types,
      groupValues,
      constants,
      commands,
      skippedValues,
      platform,
    };
  }

  /**
   * Drops the extensions whose dependencies or types are not available and returns why; dropping one
   * can make another's dependencies unmet, so it repeats until nothing changes.
   */
  private dropUnavailable(
    included: Set<string>,
    isAvailable: (n: string) => boolean,
    platform: ProtectedPlatform | undefined,
  ): SkippedItem[] {
    const skipped: SkippedItem[] = [];
    for (let changed = true; changed; ) {
      changed = false;
      for (const ext of this.registry.extensions) {
        if (!included.has(ext.name)) continue;
        let reason: string | undefined;
        if (ext.depends !== undefined && !evaluateDepends(ext.depends, isAvailable)) {
          reason = `depends on ${ext.depends}, not all available`;
        } else {
          const roots = this.blockRoots(this.activeBlocks(ext.requires, isAvailable));
          reason = this.closure(roots, platform).foreign;
        }
        if (reason !== undefined) {
          included.delete(ext.name);
          skipped.push({ name: ext.name, reason });
          changed = true;
        }
      }
    }
    return skipped;
  }
}

function hex(value: bigint, bitwidth: 32 | 64): string {
  const digits = value.toString(16).toUpperCase().padStart(bitwidth === 64 ? 16 : 8, '0');
  return `0x${digits}${bitwidth === 64 ? 'ULL' : ''}`;
}

/** Works out an enum's value: an explicit value, a bit position, or an extension offset. */
function resolveRaw(raw: RawEnum, bitwidth: 32 | 64, by: string | undefined, extnumber: number | undefined): ResolvedEnum {
  const base = { name: raw.name, aliasOf: undefined, type: raw.type, requiredBy: by };
  if (raw.alias !== undefined) return { ...base, cValue: raw.alias, numeric: undefined, aliasOf: raw.alias };
  if (raw.bitpos !== undefined) {
    const v = 1n << BigInt(raw.bitpos);
    return { ...base, cValue: hex(v, bitwidth), numeric: v };
  }
  if (raw.offset !== undefined) {
    if (extnumber === undefined) throw new Error(`enum ${raw.name} has an offset but no extension number`);
    const magnitude = 1000000000n + BigInt(extnumber - 1) * 1000n + BigInt(raw.offset);
    const v = raw.negative ? -magnitude : magnitude;
    return { ...base, cValue: v.toString(), numeric: v };
  }
  if (raw.value !== undefined) {
    const numeric = parseInteger(raw.value);
    if (numeric !== undefined && bitwidth === 64 && !raw.value.toUpperCase().endsWith('ULL')) {
      return { ...base, cValue: hex(numeric, 64), numeric };
    }
    return { ...base, cValue: raw.value, numeric };
  }
  throw new Error(`enum ${raw.name} has no value`);
}
