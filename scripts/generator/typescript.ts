// Emits the TypeScript constants module of one API: versions, result codes, structure types,
// extensions and the dispatch-table command list (whose positions match the native tables).
import { bannerText, registryVersion, type ApiConfig } from './apis.js';
import type { DispatchCommand } from './commands.js';
import type { Extension, Registry } from './registry.js';
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

/** One field of a version macro: `(version >> shift) & mask`, as the registry's macro computes it. */
interface VersionField {
  readonly shift: number;
  readonly mask: bigint;
}

/** Reads the shift and mask of a field macro (XR_VERSION_MAJOR, VK_API_VERSION_MINOR, ...) from its registry text. */
export function versionField(reg: Registry, macro: string, bits: number): VersionField {
  const text = reg.types.get(macro)?.text;
  if (text === undefined) throw new Error(`${reg.api}: the registry defines no ${macro}`);
  const body = text.slice(text.indexOf(')') + 1);
  const shift = /(?:>>|&gt;&gt;)\s*(\d+)/.exec(body);
  const mask = /&(?:amp;)?\s*(0x[0-9a-fA-F]+)/.exec(body);
  const s = shift === null ? 0 : Number(shift[1]);
  const m = mask === null ? (1n << BigInt(bits - s)) - 1n : BigInt(mask[1] as string);
  if (shift === null && mask === null) throw new Error(`${reg.api}: cannot read the field ${macro} computes from "${text}"`);
  return { shift: s, mask: m };
}

/** `(v >> shift) & mask` in TypeScript over a bigint (`big`) or a uint32 number. */
function fieldExpr(f: VersionField, big: boolean): string {
  if (big) return `Number((v >> ${f.shift}n) & 0x${f.mask.toString(16)}n)`;
  return f.shift === 0 ? `(v & 0x${f.mask.toString(16)})` : `((v >>> ${f.shift}) & 0x${f.mask.toString(16)})`;
}

/**
 * The Vulkan enums and flag bits the typed API takes or answers, as named constants: each is an
 * object named as the C type without `Vk` (`FlagBits` read as `Flags`), its keys the value names
 * without the type's prefix, `_BIT` and the type's vendor suffix (`BufferUsageFlags.STORAGE_BUFFER`).
 */
export const VK_TYPED_API_ENUMS: readonly { readonly group: string; readonly use: string }[] = [
  { group: 'VkBufferUsageFlagBits', use: "createBuffer()'s `usage`" },
  { group: 'VkMemoryPropertyFlagBits', use: "findMemoryType()'s `requiredFlags`; `memoryProperties.memoryTypes[].propertyFlags`" },
  { group: 'VkMemoryHeapFlagBits', use: '`memoryProperties.memoryHeaps[].flags`' },
  { group: 'VkQueueFlagBits', use: '`queueFamilies[].queueFlags` of a physical device' },
  { group: 'VkPhysicalDeviceType', use: "a physical device's `properties.deviceType`" },
  { group: 'VkDescriptorType', use: '`descriptorType` of set-layout bindings and descriptor writes; `type` of pool sizes' },
  { group: 'VkShaderStageFlagBits', use: '`stageFlags` of set-layout bindings, push-constant ranges and pushConstants()' },
  { group: 'VkPipelineStageFlagBits', use: "pipelineBarrier()'s and imageBarrier()'s stage masks; submit()'s `waitStage`" },
  { group: 'VkAccessFlagBits', use: "pipelineBarrier()'s and imageBarrier()'s access masks" },
  { group: 'VkCommandPoolCreateFlagBits', use: "createCommandPool()'s `flags`" },
  { group: 'VkFormat', use: "an image's `format`; an OpenXR swapchain's `format`" },
  { group: 'VkImageLayout', use: 'image layouts (the typed command buffer takes their names too: IMAGE_LAYOUTS)' },
  { group: 'VkDebugUtilsMessageSeverityFlagBitsEXT', use: "a debug message's `severity`" },
  { group: 'VkDebugUtilsMessageTypeFlagBitsEXT', use: "a debug message's `types`" },
];

const VENDOR_SUFFIX = /(KHR|EXT|NV|AMD|INTEL|ARM|QCOM|HUAWEI|VALVE|GOOGLE|FB|MESA|LUNARG|NVX|QNX|SEC|MSFT|ANDROID)$/;

/** `BufferUsage` -> `BUFFER_USAGE`. */
function upperSnake(camel: string): string {
  return camel.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The typed-API constants object of one enum group (see VK_TYPED_API_ENUMS). */
function emitTypedApiEnum(out: string[], sel: Selection, group: string, use: string): void {
  const values = sel.groupValues.get(group);
  if (values === undefined) throw new Error(`enum ${group} is not in the selection`);
  const flags = group.includes('FlagBits');
  const vendor = VENDOR_SUFFIX.exec(group)?.[1];
  const stem = group.replace(/^Vk/, '').replace(/FlagBits\w*$/, '');
  const name = group.replace(/^Vk/, '').replace(/FlagBits/, 'Flags');
  const prefix = `VK_${upperSnake(stem)}_`;
  const keys = new Map<string, string>();
  const rows: string[] = [];
  for (const v of values) {
    if (v.aliasOf !== undefined) continue;
    if (!v.name.startsWith(prefix)) throw new Error(`${v.name} of ${group} does not start with ${prefix}`);
    let key = v.name.slice(prefix.length);
    if (flags) key = key.replace(/_BIT(_[A-Z]+)?$/, '$1');
    if (vendor !== undefined && key.endsWith(`_${vendor}`)) key = key.slice(0, -(vendor.length + 1));
    if (!/^[A-Z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`${v.name} of ${group} gives the key "${key}", not an identifier`);
    const prior = keys.get(key);
    if (prior !== undefined) throw new Error(`${v.name} and ${prior} of ${group} both give the key ${key}`);
    keys.set(key, v.name);
    if (v.numeric === undefined) throw new Error(`${v.name} has no integer value`);
    rows.push(`  ${key}: ${flags ? `0x${v.numeric.toString(16)}` : v.numeric.toString()},`);
  }
  const how = flags ? `without ${prefix} and _BIT; combine them with \`|\`` : `without ${prefix}`;
  out.push(`/** ${group} values by name (${how}): ${use}. */`);
  out.push(`export const ${name} = {`, ...rows, '} as const;');
  if (flags) {
    out.push(`/** A ${group.replace('FlagBits', 'Flags')} mask: values of \`${name}\` joined with \`|\` (0 for none). */`);
    out.push(`export type ${name} = number;`, '');
  } else {
    out.push(`/** A ${group} value: one of \`${name}\`'s. */`);
    out.push(`export type ${name} = (typeof ${name})[keyof typeof ${name}];`, '');
  }
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
  return [`// ${bannerText(cfg, sel.registry)}`, '', "import { requireInteger } from '../core/errors.js';", ''];
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
  const [major, minor, patch] = ['XR_VERSION_MAJOR', 'XR_VERSION_MINOR', 'XR_VERSION_PATCH'].map((m) => versionField(sel.registry, m, 64)) as [VersionField, VersionField, VersionField];
  out.push('/** An XrVersion as a person reads it: XR_VERSION_MAJOR, XR_VERSION_MINOR, XR_VERSION_PATCH, the text, and the value itself. */');
  out.push('export interface XrVersionParts {');
  out.push('  readonly major: number;', '  readonly minor: number;', '  readonly patch: number;');
  out.push('  /** "major.minor.patch" */', '  readonly text: string;');
  out.push('  /** The XrVersion value (XR_MAKE_VERSION(major, minor, patch)), for code that compares or passes it on. */', '  readonly packed: bigint;');
  out.push('}', '');
  out.push('/** Splits an XrVersion (a uint64_t: a bigint, or a safe-integer number) into its parts; InvalidArgumentError for anything else. */');
  out.push('export function xrVersionParts(version: bigint | number): XrVersionParts {');
  out.push("  const v = BigInt(requireInteger(version, 'version', 0, 0xffff_ffff_ffff_ffffn));");
  out.push(`  const major = ${fieldExpr(major, true)};`);
  out.push(`  const minor = ${fieldExpr(minor, true)};`);
  out.push(`  const patch = ${fieldExpr(patch, true)};`);
  out.push('  return { major, minor, patch, text: `${major}.${minor}.${patch}`, packed: v };');
  out.push('}', '');
  out.push('/** An XrVersion as "major.minor.patch" (XR_API_VERSION_1_1 -> "1.1.<patch>"). */');
  out.push('export function xrVersionString(version: bigint | number): string {');
  out.push('  return xrVersionParts(version).text;');
  out.push('}', '');
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
  const fields = ['VK_API_VERSION_VARIANT', 'VK_API_VERSION_MAJOR', 'VK_API_VERSION_MINOR', 'VK_API_VERSION_PATCH'].map((m) => versionField(sel.registry, m, 32));
  const [variant, major, minor, patch] = fields as [VersionField, VersionField, VersionField, VersionField];
  out.push('/** A Vulkan API version as a person reads it: VK_API_VERSION_VARIANT, _MAJOR, _MINOR, _PATCH, the text, and the value itself. */');
  out.push('export interface VkVersionParts {');
  out.push('  readonly variant: number;', '  readonly major: number;', '  readonly minor: number;', '  readonly patch: number;');
  out.push('  /** "major.minor.patch" (with "variant " before it when the variant is not 0) */', '  readonly text: string;');
  out.push('  /** The packed value (VK_MAKE_API_VERSION(variant, major, minor, patch)), for code that compares or passes it on. */', '  readonly packed: number;');
  out.push('}', '');
  out.push('/** Splits a packed Vulkan API version (a uint32_t) into its parts; InvalidArgumentError for anything else. */');
  out.push('export function vkVersionParts(version: number): VkVersionParts {');
  out.push("  const v = Number(requireInteger(version, 'version', 0, 0xffff_ffff));");
  out.push(`  const variant = ${fieldExpr(variant, false)};`);
  out.push(`  const major = ${fieldExpr(major, false)};`);
  out.push(`  const minor = ${fieldExpr(minor, false)};`);
  out.push(`  const patch = ${fieldExpr(patch, false)};`);
  out.push('  const text = `${variant === 0 ? \'\' : `variant ${variant} `}${major}.${minor}.${patch}`;');
  out.push('  return { variant, major, minor, patch, text, packed: v };');
  out.push('}', '');
  out.push('/** A packed Vulkan API version as "major.minor.patch" (VK_API_VERSION_1_3 -> "1.3.0"). */');
  out.push('export function vkVersionString(version: number): string {');
  out.push('  return vkVersionParts(version).text;');
  out.push('}', '');
  emitEnum(out, sel, 'VkResult', 'vkResultName', 'Vulkan result codes: negative values are errors.');
  emitEnum(out, sel, 'VkStructureType', 'vkStructureTypeName', 'Values of the `sType` member of Vulkan structures.');
  for (const e of VK_TYPED_API_ENUMS) emitTypedApiEnum(out, sel, e.group, e.use);
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
