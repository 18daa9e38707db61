// Emits native/generated/openxr_marshal.h: the tables the generic marshaller
// (native/openxr/addon/openxr_marshal.cc) interprets — one row per structure member and command
// parameter, one row per structure and command — and the call thunks, one per distinct
// parameter-class signature (not one per command).
import { bannerText, type ApiConfig } from './apis.js';
import type { MarshalField, MarshalModel } from './marshal-model.js';
import type { Selection } from './select.js';

const FLAG_OPTIONAL = 1;
const FLAG_OUTPUT = 2;

function flags(f: MarshalField): number {
  return (f.optional ? FLAG_OPTIONAL : 0) | (f.output ? FLAG_OUTPUT : 0);
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

export function emitMarshalHeader(cfg: ApiConfig, sel: Selection, model: MarshalModel): string {
  const out: string[] = [];
  out.push(`// ${bannerText(cfg, sel.registry)}`);
  out.push('// The tables of the generated OpenXR bindings (native/openxr/addon/openxr_marshal.cc interprets them).');
  for (const line of platformRuleText(sel)) out.push(...wrap(line, '// '));
  out.push('#pragma once', '');
  out.push('#include <cstddef>', '#include <cstdint>', '');
  out.push(`#include "${cfg.typesHeader}"`);
  if (cfg.protectedPlatform !== undefined) out.push(`#include "${cfg.protectedPlatform.header}"`);
  out.push('');
  out.push('namespace khronos_loader::generated::marshal {', '');
  out.push('// Handles are pointers and every table offset is the compiler\'s (offsetof), but the call thunks');
  out.push('// pass handles and pointers in one 64-bit slot.');
  out.push('static_assert(sizeof(void*) == 8, "the generated OpenXR bindings need a 64-bit target");', '');
  out.push('/** How one value is stored. */');
  out.push('enum class Scalar : std::uint8_t { None, Bool32, U8, I8, U16, I16, U32, I32, U64, I64, F32, F64, Enum, Handle, Char, Address };', '');
  out.push('/** How a member or parameter is laid out around its value (see scripts/generator/marshal-model.ts). */');
  out.push('enum class Shape : std::uint8_t { StructureType, Next, Value, String, StringArray, Array, PointerArray, Pointer, Count, Capacity, CountOutput, Unsupported };', '');
  out.push(`inline constexpr std::uint8_t kOptional = ${FLAG_OPTIONAL};  // may be omitted or null`);
  out.push(`inline constexpr std::uint8_t kOutput = ${FLAG_OUTPUT};    // written by the runtime`, '');
  out.push('/** A structure member (offset meaningful) or a command parameter (offset 0). */');
  out.push('struct Field {');
  out.push('    const char* name;');
  out.push('    std::uint32_t offset;');
  out.push('    Scalar scalar;');
  out.push('    Shape shape;');
  out.push('    std::uint8_t flags;');
  out.push('    std::int16_t structIndex;       // nested / pointed-to structure, -1 for none');
  out.push('    std::uint16_t fixedCount;       // fixed array length (char: buffer size), 1 otherwise');
  out.push('    std::int16_t lenIndex;          // the count of an array, or the array of a count');
  out.push('    std::int16_t countOutputIndex;  // two-call arrays: the count the runtime writes');
  out.push('};', '');
  out.push('struct Struct {');
  out.push('    const char* name;');
  out.push('    std::uint32_t size;');
  out.push('    std::uint32_t align;');
  out.push('    std::int32_t structureType;  // 0: no type member');
  out.push('    std::uint32_t firstField;');
  out.push('    std::uint16_t fieldCount;');
  out.push('    std::uint16_t extenderCount;  // kExtenders[firstExtender...]: what its next chain may hold');
  out.push('    std::uint32_t firstExtender;');
  out.push('    std::uint16_t childCount;     // kChildren[firstChild...]: what may stand behind a pointer to this base header');
  out.push('    std::uint32_t firstChild;');
  out.push('};', '');
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

  out.push('#define KL_F(S, m, sc, sh, fl, st, n, len, co) {#m, static_cast<std::uint32_t>(offsetof(S, m)), Scalar::sc, Shape::sh, fl, st, n, len, co}');
  out.push('#define KL_P(m, sc, sh, fl, st, n, len, co) {#m, 0, Scalar::sc, Shape::sh, fl, st, n, len, co}', '');
  const fieldCount = model.structs.reduce((n, s) => n + s.fields.length, 0);
  out.push(`inline constexpr Field kFields[${fieldCount}] = {`);
  for (const s of model.structs) {
    for (const f of s.fields) {
      const n = f.fixedCountText === '' ? '1' : f.fixedCountText;
      out.push(`    KL_F(${s.name}, ${f.name}, ${f.scalar}, ${f.shape}, ${flags(f)}, ${f.struct}, ${n}, ${f.lenIndex}, ${f.countOutputIndex}),`);
    }
  }
  out.push('};', '');
  const paramCount = model.commands.reduce((n, c) => n + c.params.length, 0);
  out.push(`inline constexpr Field kParams[${paramCount}] = {`);
  for (const c of model.commands) {
    for (const f of c.params) {
      const n = f.fixedCountText === '' ? '1' : f.fixedCountText;
      out.push(`    KL_P(${f.name}, ${f.scalar}, ${f.shape}, ${flags(f)}, ${f.struct}, ${n}, ${f.lenIndex}, ${f.countOutputIndex}),`);
    }
  }
  out.push('};', '');
  out.push('#undef KL_F', '#undef KL_P', '');

  const extenders = model.structs.flatMap((s) => s.extenders);
  out.push(`inline constexpr std::uint16_t kExtenders[${Math.max(extenders.length, 1)}] = {`);
  for (let i = 0; i < extenders.length; i += 20) out.push(`    ${extenders.slice(i, i + 20).join(', ')},`);
  out.push('};', '');
  const children = model.structs.flatMap((s) => s.children);
  out.push(`inline constexpr std::uint16_t kChildren[${Math.max(children.length, 1)}] = {`);
  for (let i = 0; i < children.length; i += 20) out.push(`    ${children.slice(i, i + 20).join(', ')},`);
  out.push('};', '');
  out.push(`inline constexpr Struct kStructs[${model.structs.length}] = {`);
  let field = 0;
  let ext = 0;
  let child = 0;
  for (const s of model.structs) {
    const type = s.structureType ?? '0';
    out.push(`    {"${s.name}", sizeof(${s.name}), alignof(${s.name}), ${type}, ${field}, ${s.fields.length}, ${s.extenders.length}, ${ext}, ${s.children.length}, ${child}},`);
    field += s.fields.length;
    ext += s.extenders.length;
    child += s.children.length;
  }
  out.push('};', '');
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

  out.push('/** One argument in a call thunk\'s 64-bit slot (by-value structures: a pointer to them). */');
  out.push('union Arg {');
  out.push('    void* p;');
  out.push('    std::uint32_t u;');
  out.push('    std::uint64_t q;');
  out.push('    float f;');
  out.push('    double d;');
  out.push('};', '');
  out.push('using Thunk = XrResult (*)(PFN_xrVoidFunction fn, const Arg* a);', '');
  out.push(`/** ${model.thunks.length} call thunks: p pointer or handle, u 32-bit, q 64-bit, f float, d double, S<struct> by value. */`);
  out.push(`inline constexpr Thunk kThunks[${model.thunks.length}] = {`);
  for (const key of model.thunks) {
    const classes = key === '' ? [] : key.split(',');
    const types = classes.map(thunkCType).join(', ');
    const args = classes.map(thunkArg).join(', ');
    out.push(`    // (${key})`);
    out.push(`    [](PFN_xrVoidFunction fn, [[maybe_unused]] const Arg* a) -> XrResult { return reinterpret_cast<XrResult(XRAPI_PTR*)(${types})>(fn)(${args}); },`);
  }
  out.push('};', '');
  out.push('} // namespace khronos_loader::generated::marshal', '');
  return out.join('\n');
}
