// Emits the self-contained C header with every type, constant and function pointer type of the
// selected registry content, replacing openxr.h / vulkan_core.h for the native code.
import { bannerText, type ApiConfig, type ProtectedPlatformConfig } from './apis.js';
import type { Declaration, Registry, RegistryType } from './registry.js';
import type { ResolvedEnum, SelectedCommand, Selection } from './select.js';

/** The `..._MAX_ENUM` sentinel the Khronos headers add so every enum is 32 bits wide. */
export function maxEnumName(cfg: ApiConfig, reg: Registry, groupName: string): string {
  let base = groupName.startsWith(cfg.typePrefix) ? groupName.slice(cfg.typePrefix.length) : groupName;
  let tag = '';
  for (const t of reg.tags) {
    if (t.length > 0 && base.endsWith(t)) {
      tag = t;
      base = base.slice(0, -t.length);
      break;
    }
  }
  const snake = base.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return `${cfg.macroPrefix}${snake}_MAX_ENUM${tag === '' ? '' : `_${tag}`}`;
}

function hex(value: bigint, wide: boolean): string {
  const unsigned = value < 0n ? BigInt.asUintN(64, value) : value;
  return `0x${unsigned.toString(16).toUpperCase().padStart(wide ? 16 : 8, '0')}${wide ? 'ULL' : ''}`;
}

/** Sorts types by registry position so the output follows the registry's own order. */
function inRegistryOrder(sel: TypeSet, category: string): RegistryType[] {
  const out: RegistryType[] = [];
  for (const name of sel.types) {
    const t = sel.registry.types.get(name);
    if (t !== undefined && t.category === category) out.push(t);
  }
  return out.sort((a, b) => a.order - b.order);
}

function declarationList(params: readonly Declaration[]): string {
  return params.length === 0 ? 'void' : params.map((p) => p.text).join(', ');
}

function constantDefine(c: ResolvedEnum): string {
  let value = c.cValue;
  // The C headers spell unsigned constants with a suffix; the registry gives the type separately.
  if (/^[0-9]+$/.test(value)) {
    if (c.type === 'uint32_t') value += 'U';
    else if (c.type === 'uint64_t') value += 'ULL';
  }
  return `#define ${c.name} ${value}`;
}

/** A set of registry types to emit: a whole selection, or what a protected platform adds to one. */
interface TypeSet {
  readonly registry: Registry;
  readonly types: ReadonlySet<string>;
}

/** Struct definitions ordered so that every by-value member type is complete before its use. */
function orderedAggregates(sel: TypeSet): RegistryType[] {
  const reg = sel.registry;
  const all = [...inRegistryOrder(sel, 'struct'), ...inRegistryOrder(sel, 'union')]
    .filter((t) => t.alias === undefined)
    .sort((a, b) => a.order - b.order);
  const out: RegistryType[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const resolve = (name: string): RegistryType | undefined => {
    let t = reg.types.get(name);
    for (let hops = 0; t?.alias !== undefined && hops < 8; hops++) t = reg.types.get(t.alias);
    return t;
  };
  const visit = (t: RegistryType): void => {
    const s = state.get(t.name);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error(`by-value cycle through ${t.name}`);
    state.set(t.name, 'visiting');
    for (const m of t.members) {
      if (!m.byValue) continue;
      const dep = resolve(m.typeName);
      if (dep !== undefined && (dep.category === 'struct' || dep.category === 'union') && sel.types.has(dep.name)) {
        visit(dep);
      }
    }
    state.set(t.name, 'done');
    out.push(t);
  };
  for (const t of all) visit(t);
  return out;
}

function guardName(fileName: string): string {
  return `KHRONOS_LOADER_GENERATED_${fileName.replace(/\W/g, '_').toUpperCase()}_`;
}

export interface TypesHeaders {
  /** The header to include: everything but the enums. */
  readonly types: string;
  /** The enums, a fragment the types header includes (split off to keep each file small). */
  readonly enums: string;
}

/** The enums fragment's file name, beside the types header. */
export function enumsHeaderName(cfg: ApiConfig): string {
  return cfg.typesHeader.replace(/_types\.h$/, '_enums.h');
}

function emitEnums(cfg: ApiConfig, sel: Selection): string {
  const reg = sel.registry;
  const guard = guardName(enumsHeaderName(cfg));
  const out: string[] = [];
  out.push(`/* ${bannerText(cfg, reg)} */`);
  out.push(`/* The enum types of ${cfg.typesHeader}, which includes this file; do not include it directly. */`);
  out.push(`#ifndef ${guardName(cfg.typesHeader)}`);
  out.push(`#error "include ${cfg.typesHeader}, not ${enumsHeaderName(cfg)}"`);
  out.push('#endif');
  out.push(`#ifndef ${guard}`, `#define ${guard} 1`, '');
  const enums = inRegistryOrder(sel, 'enum');
  for (const t of enums) {
    if (t.alias !== undefined) continue;
    const group = reg.enumGroups.get(t.name);
    const values = sel.groupValues.get(t.name);
    if (group === undefined || values === undefined) continue;
    // OpenXR's flag bits are constants of the flags type (see the bitmasks), not enum types.
    if (group.kind === 'bitmask' && cfg.api === 'openxr') continue;
    if (group.kind === 'bitmask' && group.bitwidth === 64) {
      out.push(`typedef VkFlags64 ${t.name};`);
      for (const v of values) out.push(`static const ${t.name} ${v.name} = ${hex(v.numeric ?? 0n, true)};`);
      continue;
    }
    out.push(`typedef enum ${t.name} {`);
    for (const v of values) if (v.aliasOf === undefined) out.push(`    ${v.name} = ${v.cValue},`);
    for (const v of values) if (v.aliasOf !== undefined) out.push(`    ${v.name} = ${v.aliasOf},`);
    out.push(`    ${maxEnumName(cfg, reg, t.name)} = 0x7FFFFFFF`);
    out.push(`} ${t.name};`);
  }
  for (const t of enums) {
    const target = t.alias === undefined ? undefined : reg.enumGroups.get(t.alias);
    if (t.alias === undefined || (target?.kind === 'bitmask' && cfg.api === 'openxr')) continue;
    out.push(`typedef ${t.alias} ${t.name};`);
  }
  out.push('', `#endif /* ${guard} */`, '');
  return out.join('\n');
}

function pushSection(out: string[], title: string): void {
  out.push('', `/* ---- ${title} ---- */`, '');
}

/** The flags types; OpenXR's flag bits are constants of the flags type, not an enum type of their own. */
function pushBitmasks(
  out: string[],
  cfg: ApiConfig,
  sel: TypeSet,
  groupValues: ReadonlyMap<string, readonly ResolvedEnum[]>,
): void {
  const bitmasks = inRegistryOrder(sel, 'bitmask');
  for (const t of bitmasks) {
    if (t.alias !== undefined) continue;
    out.push(t.text.trim());
    const bits = t.bitvalues === undefined ? undefined : sel.registry.enumGroups.get(t.bitvalues);
    if (bits !== undefined && cfg.api === 'openxr') {
      for (const v of groupValues.get(bits.name) ?? []) {
        out.push(`static const ${t.name} ${v.name} = ${hex(v.numeric ?? 0n, false)};`);
      }
    }
  }
  for (const t of bitmasks) if (t.alias !== undefined) out.push(`typedef ${t.alias} ${t.name};`);
}

/** Structure declarations, function pointer types, structure definitions and the commands' PFN types. */
function pushAggregatesAndFunctions(
  out: string[],
  cfg: ApiConfig,
  sel: TypeSet,
  commands: readonly SelectedCommand[],
): void {
  const reg = sel.registry;
  pushSection(out, 'structure and union declarations');
  const aggregates = orderedAggregates(sel);
  for (const t of aggregates) out.push(`typedef ${t.category} ${t.name} ${t.name};`);
  for (const cat of ['struct', 'union']) {
    for (const t of inRegistryOrder(sel, cat)) if (t.alias !== undefined) out.push(`typedef ${t.alias} ${t.name};`);
  }

  pushSection(out, 'function pointer types');
  for (const t of inRegistryOrder(sel, 'funcpointer')) {
    if (t.returnType !== undefined) {
      out.push(`typedef ${t.returnType} (${cfg.ptrMacro} *${t.name})(${declarationList(t.members)});`);
    } else {
      // Text-form typedefs may forward-declare a struct we already declared above.
      const text = t.text.replace(/typedef\s+struct\s+(\w+)\s+\1\s*;/g, '').trim();
      out.push(text.replace(/\n\s*\n/g, '\n'));
    }
  }

  pushSection(out, 'structures and unions');
  for (const t of aggregates) {
    const attrs = t.mayAlias ? `${cfg.macroPrefix}MAY_ALIAS ` : '';
    out.push(`${t.category} ${attrs}${t.name} {`);
    for (const m of t.members) out.push(`    ${m.text};`);
    out.push('};');
  }

  pushSection(out, 'command function pointer types');
  for (const c of commands) {
    const pfn = `PFN_${c.name}`;
    if (reg.types.has(pfn)) continue; // already a registry funcpointer type (PFN_xrGetInstanceProcAddr...)
    out.push(`typedef ${c.signature.returnType} (${cfg.ptrMacro} *${pfn})(${declarationList(c.signature.params)});`);
  }
}

/**
 * The header of the extensions a macro protects that are built over another API's generated types
 * (OpenXR's Vulkan graphics binding): what <openxr/openxr_platform.h> declares for them when the macro
 * is defined. Their XrStructureType values are in the base enums header, as openxr.h has them.
 */
export function emitPlatformTypesHeader(
  cfg: ApiConfig,
  platformCfg: ProtectedPlatformConfig,
  foreign: ApiConfig,
  sel: Selection,
): string {
  const platform = sel.platform;
  if (platform === undefined) throw new Error(`${cfg.title}: no selection for ${platformCfg.macro}`);
  const reg = sel.registry;
  const guard = guardName(platformCfg.header);
  const types: TypeSet = { registry: reg, types: platform.types };
  const out: string[] = [];
  out.push(`/* ${bannerText(cfg, reg)} */`);
  out.push('/*');
  out.push(` * The extensions ${platformCfg.macro} protects, over the generated ${foreign.typesHeader}`);
  out.push(` * (the registry's ${platformCfg.requires}); their enum values are in ${enumsHeaderName(cfg)}.`);
  out.push(` * Extensions left out (${platform.skipped.length}):`);
  for (const s of platform.skipped) out.push(` *   ${s.name}: ${s.reason}`);
  out.push(' */');
  out.push(`#ifndef ${guard}`, `#define ${guard} 1`, '');
  out.push(`#include "${cfg.typesHeader}"`, `#include "${foreign.typesHeader}"`, '');
  out.push('#ifdef __cplusplus', 'extern "C" {', '#endif');

  pushSection(out, 'extensions present');
  for (const e of platform.extensions) out.push(`#define ${e.name} 1`);

  pushSection(out, 'constants');
  for (const c of platform.constants) out.push(constantDefine(c));

  // OpenXR's flag bits are constants of their flags type (below); any other kind would need the base header.
  const isFlagBits = (t: RegistryType): boolean =>
    cfg.api === 'openxr' && reg.enumGroups.get(t.name)?.kind === 'bitmask';
  for (const category of ['define', 'basetype', 'handle', 'enum']) {
    const unexpected = inRegistryOrder(types, category).filter((t) => !isFlagBits(t));
    if (unexpected.length > 0) {
      throw new Error(`${platformCfg.macro}: ${unexpected.map((t) => t.name).join(', ')} (${category}) would need the base header`);
    }
  }

  pushSection(out, 'bitmasks');
  pushBitmasks(out, cfg, types, sel.groupValues);

  pushAggregatesAndFunctions(out, cfg, types, platform.commands);

  out.push('', '#ifdef __cplusplus', '}', '#endif', '', `#endif /* ${guard} */`, '');
  return out.join('\n');
}

export function emitTypesHeaders(cfg: ApiConfig, sel: Selection): TypesHeaders {
  return { types: emitTypes(cfg, sel), enums: emitEnums(cfg, sel) };
}

function emitTypes(cfg: ApiConfig, sel: Selection): string {
  const reg = sel.registry;
  const guard = guardName(cfg.typesHeader);
  const out: string[] = [];
  const section = (title: string): void => pushSection(out, title);

  out.push(`/* ${bannerText(cfg, reg)} */`);
  out.push('/*');
  out.push(` * Self-contained replacement for the ${cfg.title} C headers: every core version${cfg.api === 'openxr' ? ', the loader negotiation interface' : ''}`);
  out.push(' * and every extension that needs neither a platform header, a protecting macro nor a foreign header.');
  out.push(' * Function pointer types only: no prototypes, the loader resolves every command at run time.');
  out.push(` * Extensions left out (${sel.skipped.length}, plus ${sel.disabled.length} the registry marks disabled or not for this API):`);
  for (const s of sel.skipped) out.push(` *   ${s.name}: ${s.reason}`);
  for (const s of sel.skippedValues) out.push(` *   value ${s.name}: ${s.reason}`);
  out.push(' */');
  out.push(`#ifndef ${guard}`, `#define ${guard} 1`, '');
  out.push(cfg.platformPreamble, '');
  out.push('#ifdef __cplusplus', 'extern "C" {', '#endif');

  section('features and extensions present');
  for (const f of sel.features) if (!f.internal) out.push(`#define ${f.name} 1`);
  for (const e of sel.extensions) out.push(`#define ${e.name} 1`);

  section('defines');
  for (const t of inRegistryOrder(sel, 'define')) out.push(t.text.trim());

  section('constants');
  for (const c of sel.constants) out.push(constantDefine(c));

  section('base types');
  for (const t of inRegistryOrder(sel, 'basetype')) out.push(t.text.trim());

  section('handles');
  const handles = inRegistryOrder(sel, 'handle');
  for (const t of handles) if (t.alias === undefined) out.push(t.text.trim());
  for (const t of handles) if (t.alias !== undefined) out.push(`typedef ${t.alias} ${t.name};`);

  section('enums');
  out.push(`#include "${enumsHeaderName(cfg)}"`);

  section('bitmasks');
  pushBitmasks(out, cfg, sel, sel.groupValues);

  pushAggregatesAndFunctions(out, cfg, sel, sel.commands);

  out.push('', '#ifdef __cplusplus', '}', '#endif', '', `#endif /* ${guard} */`, '');
  return out.join('\n');
}
