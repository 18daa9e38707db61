// Emits native/generated/openxr_marshal.h and vulkan_marshal.h: the tables the generic marshaller
// (native/addon/marshal/struct_marshaller.cc) interprets — one row per structure member and command
// parameter, one row per structure and command — and the call thunks, one per distinct
// parameter-class signature (not one per command).
import { bannerText, type ApiConfig } from './apis.js';
import type { MarshalField, MarshalModel } from './marshal-model.js';
import type { Selection } from './select.js';

// The flag bits of native/addon/marshal/marshal_tables.h.
const FLAG_OPTIONAL = 1;
const FLAG_OUTPUT = 2;
const FLAG_SIZED_BY_SIBLING = 4;
const FLAG_REQUIRED = 8;
const FLAG_LEN_BYTES = 16;

function flags(f: MarshalField): number {
  return (
    (f.optional ? FLAG_OPTIONAL : 0) |
    (f.output ? FLAG_OUTPUT : 0) |
    (f.sizedBySibling ? FLAG_SIZED_BY_SIBLING : 0) |
    (f.required ? FLAG_REQUIRED : 0) |
    (f.lenBytes ? FLAG_LEN_BYTES : 0)
  );
}

/** The platform rule, stated once: the header repeats it so a reader of the tables sees it. */
export function platformRuleText(sel: Selection): string[] {
  const lines = [
    'Platform rule: the tables cover every structure and command of OpenXR 1.0, 1.1 and of every extension',
    'that needs no platform header. Extensions the registry marks with a platform or a protecting macro',
    '(XR_USE_PLATFORM_WIN32, _ANDROID, _EGL, _XLIB, XR_USE_GRAPHICS_API_D3D11/12, _METAL, _OPENGL(_ES), ...)',
    'name types of those headers and are left out on every target; their commands are not in the tables. The Vulkan',
    'graphics binding (XR_USE_GRAPHICS_API_VULKAN) is in: its Vulkan handles are 64-bit handles, its Vulkan',
    'structures pointers (bigint addresses), and its commands are resolved by name through xrGetInstanceProcAddr.',
    `Left out (${sel.skipped.length}): ${sel.skipped.map((s) => s.name).join(' ')}`,
  ];
  return lines;
}

function wrap(text: string, prefix: string, width = 110): string[] {
  const out: string[] = [];
  let line = prefix;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > width && line !== prefix) {
      out.push(line.trimEnd());
      line = prefix;
    }
    line += `${word} `;
  }
  if (line.trim() !== prefix.trim()) out.push(line.trimEnd());
  return out;
}

function thunkCType(cls: string): string {
  switch (cls) {
    case 'p':
      return 'void*';
    case 'u':
      return 'std::uint32_t';
    case 'q':
      return 'std::uint64_t';
    case 'f':
      return 'float';
    case 'd':
      return 'double';
    default:
      return cls.slice(1);
  }
}

function thunkArg(cls: string, i: number): string {
  switch (cls) {
    case 'p':
      return `a[${i}].p`;
    case 'u':
      return `a[${i}].u`;
    case 'q':
      return `a[${i}].q`;
    case 'f':
      return `a[${i}].f`;
    case 'd':
      return `a[${i}].d`;
    default:
      return `*static_cast<const ${cls.slice(1)}*>(a[${i}].p)`;
  }
}

/** What differs between the two APIs' marshal headers. */
interface HeaderApi {
  readonly title: string;
  readonly namespace: string;
  readonly interpreter: string;
  readonly resultType: string;
  readonly pfnType: string;
  readonly callMacro: string;
  readonly typeMember: string;
  readonly structureTypeName: string;
  readonly ruleLines: readonly string[];
}

/** The rows of every structure member and command parameter, and the structure rows (both APIs). */
function emitSharedTables(out: string[], model: MarshalModel, structOut: string[] = out): void {
  structOut.push('#define KL_F(S, m, sc, sh, fl, st, n, len, co, ty, lm) {#m, static_cast<std::uint32_t>(offsetof(S, m)), Scalar::sc, Shape::sh, fl, st, n, len, co, ty, lm}');
  for (const o of new Set([out, structOut])) o.push('#define KL_P(m, sc, sh, fl, st, n, len, co, ty, lm) {#m, 0, Scalar::sc, Shape::sh, fl, st, n, len, co, ty, lm}', '');
  const fieldCount = model.structs.reduce((n, s) => n + s.fields.length, 0);
  structOut.push(`inline constexpr Field kFields[${fieldCount}] = {`);
  for (const s of model.structs) {
    for (const f of s.fields) {
      const n = f.fixedCountText === '' ? '1' : f.fixedCountText;
      const cols = `${f.scalar}, ${f.shape}, ${flags(f)}, ${f.struct}, ${n}, ${f.lenIndex}, ${f.countOutputIndex}, ${f.typeIndex}, ${f.lenMember}`;
      // A bit-field has no offset to take: it is never marshalled (Unsupported).
      structOut.push(f.decl.bitfield !== undefined ? `    KL_P(${f.name}, ${cols}),  // bit-field of ${s.name}` : `    KL_F(${s.name}, ${f.name}, ${cols}),`);
    }
  }
  structOut.push('};', '');
  if (structOut !== out) structOut.push('#undef KL_F', '#undef KL_P', '');
  const paramCount = model.commands.reduce((n, c) => n + c.params.length, 0);
  out.push(`inline constexpr Field kParams[${paramCount}] = {`);
  for (const c of model.commands) {
    for (const f of c.params) {
      const n = f.fixedCountText === '' ? '1' : f.fixedCountText;
      out.push(`    KL_P(${f.name}, ${f.scalar}, ${f.shape}, ${flags(f)}, ${f.struct}, ${n}, ${f.lenIndex}, ${f.countOutputIndex}, ${f.typeIndex}, ${f.lenMember}),`);
    }
  }
  out.push('};', '');
  out.push(structOut === out ? '#undef KL_F' : '', '#undef KL_P', '');

  const extenders = model.structs.flatMap((s) => s.extenders);
  structOut.push(`inline constexpr std::uint16_t kExtenders[${Math.max(extenders.length, 1)}] = {`);
  for (let i = 0; i < extenders.length; i += 20) structOut.push(`    ${extenders.slice(i, i + 20).join(', ')},`);
  structOut.push('};', '');
  const children = model.structs.flatMap((s) => s.children);
  structOut.push(`inline constexpr std::uint16_t kChildren[${Math.max(children.length, 1)}] = {`);
  for (let i = 0; i < children.length; i += 20) structOut.push(`    ${children.slice(i, i + 20).join(', ')},`);
  structOut.push('};', '');
  structOut.push(`inline constexpr Struct kStructs[${model.structs.length}] = {`);
  let field = 0;
  let ext = 0;
  let child = 0;
  for (const s of model.structs) {
    const type = s.structureType ?? '0';
    structOut.push(
      `    {"${s.name}", sizeof(${s.name}), alignof(${s.name}), ${type}, ${field}, ${s.fields.length}, ${s.extenders.length}, ${ext}, ${s.children.length}, ${child}, ${s.isUnion}},`,
    );
    field += s.fields.length;
    ext += s.extenders.length;
    child += s.children.length;
  }
  structOut.push('};', '');
  const values = model.enumGroups.flatMap((g) => g.values);
  out.push(`inline constexpr EnumValue kEnumValues[${Math.max(values.length, 1)}] = {`);
  for (const v of values) out.push(`    {"${v.name}", ${v.value}},`);
  if (values.length === 0) out.push('    {"", 0},');
  out.push('};', '');
  out.push(`inline constexpr EnumGroup kEnumGroups[${Math.max(model.enumGroups.length, 1)}] = {`);
  let first = 0;
  for (const g of model.enumGroups) {
    out.push(`    {"${g.name}", ${first}, ${g.values.length}},`);
    first += g.values.length;
  }
  if (model.enumGroups.length === 0) out.push('    {"", 0, 0},');
  out.push('};', '');
}

function emitThunks(out: string[], api: HeaderApi, thunks: readonly string[], vulkan: boolean): void {
  out.push('/** One argument in a call thunk\'s 64-bit slot (by-value structures: a pointer to them). */');
  out.push('union Arg {');
  out.push('    void* p;');
  out.push('    std::uint32_t u;');
  out.push('    std::uint64_t q;');
  out.push('    float f;');
  out.push('    double d;');
  out.push('};', '');
  if (vulkan) {
    out.push('/** A command\'s return widened to 64 bits (void: 0; VkResult: sign-extended). */');
    out.push(`using Thunk = std::int64_t (*)(${api.pfnType} fn, const Arg* a);`, '');
  } else {
    out.push(`using Thunk = ${api.resultType} (*)(${api.pfnType} fn, const Arg* a);`, '');
  }
  out.push(`/** ${thunks.length} call thunks: p pointer or handle, u 32-bit, q 64-bit, f float, d double, S<struct> by value${vulkan ? '; before the colon the return: v void, r VkResult, u 32-bit, q 64-bit, p pointer' : ''}. */`);
  out.push(`inline constexpr Thunk kThunks[${thunks.length}] = {`);
  for (const key of thunks) {
    const [ret, paramKey] = vulkan ? (key.split(':') as [string, string]) : ['', key];
    const classes = paramKey === '' ? [] : paramKey.split(',');
    const types = classes.map(thunkCType).join(', ');
    const args = classes.map(thunkArg).join(', ');
    out.push(`    // (${key})`);
    if (!vulkan) {
      out.push(`    [](${api.pfnType} fn, [[maybe_unused]] const Arg* a) -> ${api.resultType} { return reinterpret_cast<${api.resultType}(${api.callMacro}*)(${types})>(fn)(${args}); },`);
      continue;
    }
    const cRet = { v: 'void', r: 'VkResult', u: 'std::uint32_t', q: 'std::uint64_t', p: 'PFN_vkVoidFunction' }[ret] ?? 'void';
    const call = `reinterpret_cast<${cRet}(${api.callMacro}*)(${types})>(fn)(${args})`;
    const body =
      ret === 'v'
        ? `${call}; return 0;`
        : ret === 'p'
          ? `return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(${call}));`
          : `return static_cast<std::int64_t>(${call});`;
    out.push(`    [](${api.pfnType} fn, [[maybe_unused]] const Arg* a) -> std::int64_t { ${body} },`);
  }
  out.push('};', '');
}

function emitHeaderStart(out: string[], cfg: ApiConfig, sel: Selection, api: HeaderApi): void {
  out.push(`// ${bannerText(cfg, sel.registry)}`);
  out.push(`// The tables of the generated ${api.title} bindings (${api.interpreter} interprets them with the shared`);
  out.push('// marshaller, native/addon/marshal/struct_marshaller.h).');
  for (const line of api.ruleLines) out.push(...wrap(line, '// '));
  out.push('#pragma once', '');
  out.push('#include <cstddef>', '#include <cstdint>', '');
  out.push('#include "addon/marshal/marshal_tables.h"');
  out.push(`#include "${cfg.typesHeader}"`);
  if (cfg.protectedPlatform !== undefined) out.push(`#include "${cfg.protectedPlatform.header}"`);
  out.push('');
  out.push(`namespace ${api.namespace} {`, '');
  out.push('// Handles are pointers or 64-bit values and every table offset is the compiler\'s (offsetof), but the');
  out.push('// call thunks pass handles and pointers in one 64-bit slot.');
  out.push(`static_assert(sizeof(void*) == 8, "the generated ${api.title} bindings need a 64-bit target");`, '');
  out.push('using kl::marshal::EnumGroup;', 'using kl::marshal::EnumValue;', 'using kl::marshal::Field;', 'using kl::marshal::Scalar;', 'using kl::marshal::Shape;', 'using kl::marshal::Struct;');
  out.push('using kl::marshal::kOptional;', 'using kl::marshal::kOutput;', '');
}

export function emitMarshalHeader(cfg: ApiConfig, sel: Selection, model: MarshalModel): string {
  const api: HeaderApi = {
    title: 'OpenXR',
    namespace: 'khronos_loader::generated::marshal',
    interpreter: 'native/openxr/addon/openxr_commands.cc',
    resultType: 'XrResult',
    pfnType: 'PFN_xrVoidFunction',
    callMacro: 'XRAPI_PTR',
    typeMember: 'type',
    structureTypeName: 'XrStructureType',
    ruleLines: platformRuleText(sel),
  };
  const out: string[] = [];
  emitHeaderStart(out, cfg, sel, api);
  out.push('/** Command.dispatchIndex of a command outside XrDispatchTable: resolved with xrGetInstanceProcAddr. */');
  out.push('inline constexpr std::uint32_t kByName = 0xffffffffu;', '');
  out.push('struct Command {');
  out.push('    const char* name;');
  out.push('    std::uint32_t dispatchIndex;  // position in XrDispatchTable, or kByName');
  out.push('    std::uint32_t firstParam;     // kParams[firstParam...]');
  out.push('    std::uint16_t paramCount;');
  out.push('    std::uint16_t thunk;          // kThunks[thunk]');
  out.push('    std::uint16_t coreMinor;      // core commands: the minor version that added them; 0xffff: an extension\'s');
  out.push('    bool createsHandle;           // the last parameter receives a new handle');
  out.push('    bool destroysHandle;');
  out.push('    const char* extensions;       // the extensions that provide it, space-separated ("" for core)');
  out.push('};', '');
  emitSharedTables(out, model);
  out.push(`inline constexpr Command kCommands[${model.commands.length}] = {`);
  let param = 0;
  for (const c of model.commands) {
    const minor = c.coreVersion === undefined ? '0xffff' : (/_1_(\d+)$/.exec(c.coreVersion)?.[1] ?? '0');
    const index = c.dispatchIndex < 0 ? 'kByName' : String(c.dispatchIndex);
    out.push(
      `    {"${c.name}", ${index}, ${param}, ${c.params.length}, ${c.thunk}, ${minor}, ${c.createsHandle}, ${c.destroysHandle}, "${c.extensions.join(' ')}"},`,
    );
    param += c.params.length;
  }
  out.push('};', '');
  emitTablesAccessor(out, api);
  emitThunks(out, api, model.thunks, false);
  out.push(`} // namespace ${api.namespace}`, '');
  return out.join('\n');
}

function emitTablesAccessor(out: string[], api: HeaderApi): void {
  out.push('/** These tables for the shared marshaller (built once; constant after). */');
  out.push('inline const kl::marshal::Tables& Tables() {');
  out.push('    static const kl::marshal::Tables tables({kStructs, std::size(kStructs), kFields, kExtenders, kChildren, kEnumGroups,');
  out.push(`                                             std::size(kEnumGroups), kEnumValues, "${api.typeMember}", "${api.structureTypeName}", ${api.title === 'Vulkan'}});`);
  out.push('    return tables;');
  out.push('}', '');
}

/** The platform rule of the Vulkan bindings, stated once (the header and the TypeScript module repeat it). */
export function vulkanRuleText(model: MarshalModel): string[] {
  return [
    `The tables cover ${model.commands.length} commands and ${model.structs.length} structures and unions: every command and type of Vulkan 1.0 to 1.4`,
    'and of the KHR and EXT extensions of the registry that need no platform header (VK_EXT_headless_surface is in).',
    'Window-system extensions (VK_KHR_xlib_surface, _xcb_surface, _wayland_surface, _win32_surface, ...) name types of those',
    'headers and are left out on every target for now; vendor extensions (NV, AMD, ARM, ...) and provisional ones are left out.',
    'Handles are bigints (dispatchable ones are pointers, the others 64-bit values); function pointers (pfnUserCallback,',
    'VkAllocationCallbacks) are null only: no JavaScript function reaches a driver, and a structure that needs one is refused.',
    'A bit-field member (VkAccelerationStructureInstanceKHR) is not marshalled.',
  ];
}

/**
 * Emits native/generated/vulkan_marshal.h (parameters, commands, enums, handle types, call thunks)
 * and vulkan_marshal_structs.h (the structure rows it includes): one file would pass 1 MiB.
 */
export function emitVulkanMarshalHeader(cfg: ApiConfig, sel: Selection, model: MarshalModel): { readonly main: string; readonly structs: string } {
  const api: HeaderApi = {
    title: 'Vulkan',
    namespace: 'khronos_loader::generated::vkmarshal',
    interpreter: 'native/vulkan/addon/vulkan_commands.cc',
    resultType: 'VkResult',
    pfnType: 'PFN_vkVoidFunction',
    callMacro: 'VKAPI_PTR',
    typeMember: 'sType',
    structureTypeName: 'VkStructureType',
    ruleLines: vulkanRuleText(model),
  };
  const out: string[] = [];
  emitHeaderStart(out, cfg, sel, api);
  out.push('/** Where a command is dispatched: through the instance (global commands with none) or the device. */');
  out.push('enum class Level : std::uint8_t { Global, Instance, PhysicalDevice, Device };', '');
  out.push('struct Command {');
  out.push('    const char* name;');
  out.push('    std::uint32_t firstParam;     // kParams[firstParam...]');
  out.push('    std::uint16_t paramCount;');
  out.push('    std::uint16_t thunk;          // kThunks[thunk]');
  out.push('    Level level;');
  out.push('    std::uint8_t returns;         // v void, r VkResult, u 32-bit, q 64-bit, p pointer (as a character)');
  out.push('    std::uint16_t coreMinor;      // core commands: the minor version that added them; 0xffff: an extension\'s');
  out.push('    bool destroys;                // vkDestroy* / vkFree*: its handle parameters end');
  out.push('    bool instanceExtensions;      // every extension that provides it is an instance extension');
  out.push('    const char* extensions;       // the extensions that provide it, space-separated ("" for core)');
  out.push('};', '');
  out.push('/** A handle type: what it is created from, what destroys it. */');
  out.push('struct HandleType {');
  out.push('    const char* name;');
  out.push('    bool dispatchable;');
  out.push('    const char* parents;          // the registry\'s parent types, space-separated');
  out.push('    std::int32_t destroyCommand;  // kCommands index (vkDestroy*, vkFreeMemory), -1 for none');
  out.push('    bool freedWithParent;         // freed by its parent\'s destroy or reset (command buffers, descriptor sets)');
  out.push('};', '');
  const structOut: string[] = [`// ${bannerText(cfg, sel.registry)}`];
  structOut.push('// The structure rows of the generated Vulkan bindings: included by vulkan_marshal.h only.');
  structOut.push('#pragma once', '');
  structOut.push(`namespace ${api.namespace} {`, '');
  emitSharedTables(out, model, structOut);
  structOut.push(`} // namespace ${api.namespace}`, '');
  const at = out.indexOf('#define KL_P(m, sc, sh, fl, st, n, len, co, ty, lm) {#m, 0, Scalar::sc, Shape::sh, fl, st, n, len, co, ty, lm}');
  out.splice(at, 0, `} // namespace ${api.namespace}`, '', '#include "vulkan_marshal_structs.h"', '', `namespace ${api.namespace} {`, '');
  out.push(`inline constexpr Command kCommands[${model.commands.length}] = {`);
  let param = 0;
  for (const c of model.commands) {
    const minor = c.coreVersion === undefined ? '0xffff' : (/_1_(\d+)$/.exec(c.coreVersion)?.[1] ?? '0');
    const level = { global: 'Global', instance: 'Instance', physicalDevice: 'PhysicalDevice', device: 'Device' }[c.level] ?? 'Global';
    const ret = model.thunks[c.thunk]?.split(':')[0] ?? 'v';
    const instanceExtensions = c.extensions.length > 0 && c.extensions.every((e) => sel.extensions.find((x) => x.name === e)?.type === 'instance');
    out.push(`    {"${c.name}", ${param}, ${c.params.length}, ${c.thunk}, Level::${level}, '${ret}', ${minor}, ${c.destroysHandle}, ${instanceExtensions}, "${c.extensions.join(' ')}"},`);
    param += c.params.length;
  }
  out.push('};', '');
  out.push(`inline constexpr HandleType kHandleTypes[${model.handleTypes.length}] = {`);
  for (const h of model.handleTypes) {
    out.push(`    {"${h.name}", ${h.dispatchable}, "${h.parents.join(' ')}", ${h.destroyCommand}, ${h.freedWithParent}},`);
  }
  out.push('};', '');
  emitTablesAccessor(out, api);
  emitThunks(out, api, model.thunks, true);
  out.push(`} // namespace ${api.namespace}`, '');
  return { main: out.join('\n'), structs: structOut.join('\n') };
}
