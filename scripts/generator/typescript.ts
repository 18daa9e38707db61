// Emits the TypeScript constants module of one API: versions, result codes, structure types,
// extensions and the dispatch-table command list (whose positions match the native tables).
import { bannerText, registryVersion, type ApiConfig } from './apis.js';
import type { DispatchCommand } from './commands.js';
import type { Extension } from './registry.js';
import type { ResolvedEnum, Selection } from './select.js';
import { parseInteger } from './select.js';

function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function numberOf(v: ResolvedEnum): string {
  if (v.numeric === undefined) throw new Error(`${v.name} has no integer value`);
  return v.numeric.toString();
}

/** `Name = {...} as const`, its name type, and a value -> name function that ignores aliases. */
function emitEnum(out: string[], sel: Selection, group: string, fnName: string, doc: string): void {
  const values = sel.groupValues.get(group);
  if (values === undefined) throw new Error(`enum ${group} is not in the selection`);
  out.push(`/** ${doc} Aliases included. */`);
  out.push(`export const ${group} = {`);
  for (const v of values) out.push(`  ${v.name}: ${numberOf(v)},`);
  out.push('} as const;', '');
  out.push(`export type ${group}Name = keyof typeof ${group};`, '');
  // Built at load time from the object above: a literal Map of a big union is too costly to type-check.
  out.push(`const ${fnName}Aliases: ReadonlySet<string> = new Set([`);
  for (const v of values) if (v.aliasOf !== undefined) out.push(`  ${q(v.name)},`);
  out.push(']);');
  out.push(`const ${fnName}Table = new Map<number, ${group}Name>();`);
  out.push(`for (const name of Object.keys(${group}) as ${group}Name[]) {`);
  out.push(`  if (!${fnName}Aliases.has(name)) ${fnName}Table.set(${group}[name], name);`);
  out.push('}', '');
  out.push(`/** The name of a ${group} value (never an alias), or undefined for a value not in the registry. */`);
  out.push(`export function ${fnName}(value: number): ${group}Name | undefined {`);
  out.push(`  return ${fnName}Table.get(value);`);
  out.push('}', '');
}

function specVersion(ext: Extension): number | undefined {
  for (const b of ext.requires) {
    for (const e of b.enums) {
      if (e.name.endsWith('_SPEC_VERSION') && e.value !== undefined) {
        const v = parseInteger(e.value);
        if (v !== undefined) return Number(v);
      }
    }
  }
  return undefined;
}

function emitExtensions(out: string[], cfg: ApiConfig, sel: Selection, constName: string): void {
  const native = new Set(sel.extensions.map((e) => e.name));
  const platformNote = cfg.api === 'openxr' ? 'the macro that protects it' : 'its platform';
  out.push('/**');
  out.push(` * Every extension the registry supports for ${cfg.title}: number, spec version, type,`);
  out.push(` * ${platformNote} (null if none), and whether the generated native code includes it.`);
  out.push(' */');
  out.push(`export const ${constName} = {`);
  for (const e of sel.registry.extensions) {
    if (!e.supported) continue;
    const platform = cfg.api === 'openxr' ? e.protect : e.platform;
    const spec = specVersion(e);
    out.push(
      `  ${e.name}: { number: ${e.number}, specVersion: ${spec ?? 0}, type: ${q(e.type ?? '')}, platform: ${platform === undefined ? 'null' : q(platform)}, native: ${native.has(e.name)} },`,
    );
  }
  out.push('} as const;', '');
  out.push(`export type ${cfg.typePrefix}ExtensionName = keyof typeof ${constName};`, '');
}

function header(cfg: ApiConfig, sel: Selection): string[] {
  return [`// ${bannerText(cfg, sel.registry)}`, ''];
}

export function emitOpenXrModule(cfg: ApiConfig, sel: Selection, commands: readonly DispatchCommand[]): string {
  const out = header(cfg, sel);
  const v = registryVersion(sel.registry);
  const make = (major: number, minor: number, patch: number): string =>
    `0x${((BigInt(major) << 48n) | (BigInt(minor) << 32n) | BigInt(patch)).toString(16)}n`;
  out.push('/** XR_MAKE_VERSION: major 16 bits, minor 16 bits, patch 32 bits. */');
  out.push('export function xrMakeVersion(major: number, minor: number, patch: number): bigint {');
  out.push('  return ((BigInt(major) & 0xffffn) << 48n) | ((BigInt(minor) & 0xffffn) << 32n) | (BigInt(patch) & 0xffffffffn);');
  out.push('}', '');
  out.push(`export const XR_CURRENT_API_VERSION = ${make(v.major, v.minor, v.patch)};`);
  out.push(`export const XR_API_VERSION_1_0 = ${make(1, 0, v.patch)};`);
  out.push(`export const XR_API_VERSION_1_1 = ${make(1, 1, v.patch)};`);
  out.push(`export const XR_REGISTRY_VERSION = ${q(`${v.major}.${v.minor}.${v.patch}`)};`, '');
  emitEnum(out, sel, 'XrResult', 'xrResultName', 'OpenXR result codes: negative values are errors.');
  emitEnum(out, sel, 'XrStructureType', 'xrStructureTypeName', 'Values of the `type` member of OpenXR structures.');
  emitExtensions(out, cfg, sel, 'XR_EXTENSIONS');
  out.push('/** The commands of the native XrDispatchTable; a command\'s position here is its native index. */');
  out.push('export const XR_COMMANDS = [');
  for (const c of commands) {
    out.push(`  { name: ${q(c.name)}, requiredBy: ${q(c.requiredBy)}, needsInstance: ${c.needsInstance} },`);
  }
  out.push('] as const;', '');
  out.push("export type XrCommandName = (typeof XR_COMMANDS)[number]['name'];", '');
  return out.join('\n');
}

export function emitVulkanModule(cfg: ApiConfig, sel: Selection, commands: readonly DispatchCommand[]): string {
  const out = header(cfg, sel);
  const v = registryVersion(sel.registry);
  const make = (variant: number, major: number, minor: number, patch: number): number =>
    ((variant << 29) | (major << 22) | (minor << 12) | patch) >>> 0;
  out.push('/** VK_MAKE_API_VERSION: variant 3 bits, major 7, minor 10, patch 12. */');
  out.push('export function vkMakeApiVersion(variant: number, major: number, minor: number, patch: number): number {');
  out.push('  return ((variant << 29) | (major << 22) | (minor << 12) | patch) >>> 0;');
  out.push('}', '');
  out.push(`export const VK_HEADER_VERSION = ${v.patch};`);
  out.push(`export const VK_HEADER_VERSION_COMPLETE = ${make(0, v.major, v.minor, v.patch)};`);
  for (const f of sel.features) {
    if (f.internal) continue;
    const m = /^(\d+)\.(\d+)$/.exec(f.number);
    if (m === null) continue;
    out.push(`export const VK_API_VERSION_${m[1]}_${m[2]} = ${make(0, Number(m[1]), Number(m[2]), 0)};`);
  }
  out.push(`export const VK_REGISTRY_VERSION = ${q(`${v.major}.${v.minor}.${v.patch}`)};`, '');
  emitEnum(out, sel, 'VkResult', 'vkResultName', 'Vulkan result codes: negative values are errors.');
  emitEnum(out, sel, 'VkStructureType', 'vkStructureTypeName', 'Values of the `sType` member of Vulkan structures.');
  emitExtensions(out, cfg, sel, 'VK_EXTENSIONS');
  out.push('/**');
  out.push(' * Every command of the native dispatch tables. `level` says which table (physicalDevice');
  out.push(' * commands live in the instance table) and `index` is the position in that table.');
  out.push(' */');
  out.push('export const VK_COMMANDS = [');
  for (const c of commands) {
    const alias = c.aliasOf === '' ? '' : `, aliasOf: ${q(c.aliasOf)}`;
    out.push(`  { name: ${q(c.name)}, level: ${q(c.level)}, index: ${c.index}, requiredBy: ${q(c.requiredBy)}${alias} },`);
  }
  out.push('] as const;', '');
  out.push("export type VkCommandName = (typeof VK_COMMANDS)[number]['name'];");
  out.push("export type VkCommandLevel = (typeof VK_COMMANDS)[number]['level'];", '');
  return out.join('\n');
}
