// The command encoder's generated opcodes (docs/usage.md, 'CommandEncoder'): one opcode for each
// vkCmd* of Vulkan 1.0-1.4 whose arguments are values a stream word holds (integers, floats,
// VkBool32, enums, bitmasks, VkDeviceSize and handles the encoder's table holds), with each
// argument's kind, width and registry check (the enum's values, the handle's type), and where the
// registry lets the command be recorded (`renderpass`). Emitted twice from this one model: the
// native table and replay switch (native/generated/vulkan_encoder.h) and the typed TypeScript
// surface (lib/generated/vulkan-encoder.ts).
import type { DispatchCommand } from './commands.js';
import type { MarshalCommand, MarshalField, MarshalModel } from './marshal-model.js';
import type { Selection } from './select.js';

/** Generated opcodes start here; the hand-written opcodes (1-8) stay below. */
export const ENCODED_OPCODE_BASE = 0x100;

/**
 * The handle types an encoder table slot can hold, with the slot kinds (HandleKind in
 * native/vulkan/loader/command_stream.h, HANDLE_KIND in lib/vulkan/api/command-encoder.ts) each accepts.
 */
const SLOT_KINDS: ReadonlyMap<string, number> = new Map([
  ['VkPipeline', 1],
  ['VkPipelineLayout', 2],
  ['VkDescriptorSet', 3],
  ['VkBuffer', 4],
  ['VkImage', 5],
]);

/** How an argument is stored in the stream (one word each, U64 two, low word first). */
export type EncodedArgKind = 'U32' | 'I32' | 'F32' | 'U64' | 'Bool32' | 'Enum' | 'Slot';

export interface EncodedArg {
  readonly name: string;
  readonly kind: EncodedArgKind;
  /** The C type of the parameter (VkBuffer, VkIndexType, uint32_t...). */
  readonly cType: string;
  /** Enum: its index in EncodedModel.enums; Slot: the slot kind it needs; -1 otherwise. */
  readonly check: number;
  /** The word it starts at, after the header. */
  readonly word: number;
}

export interface EncodedCommand {
  readonly name: string;
  readonly opcode: number;
  /** The device dispatch table's member. */
  readonly member: string;
  readonly args: readonly EncodedArg[];
  /** Words of the command, header included. */
  readonly words: number;
  /** The registry's `renderpass`: 'inside', 'outside' or 'both'. */
  readonly renderPass: string;
  readonly coreVersion: string;
}

export interface EncodedEnum {
  readonly name: string;
  readonly values: readonly { readonly name: string; readonly value: number }[];
}

export interface EncodedModel {
  readonly commands: readonly EncodedCommand[];
  readonly enums: readonly EncodedEnum[];
  /** The core vkCmd* commands left out, with why (pointers, a handle the table cannot hold). */
  readonly leftOut: readonly { readonly name: string; readonly reason: string }[];
}

const ARG_KINDS: ReadonlySet<string> = new Set(['U32', 'I32', 'F32', 'U64', 'Bool32', 'Enum', 'Slot']);

function argKind(f: MarshalField): EncodedArgKind | string {
  if (f.decl.text.includes('*') || f.decl.arraySizes.length > 0) return 'a pointer or array';
  if (f.shape === 'Count') return 'the count of an array';
  if (f.struct >= 0 || f.shape !== 'Value') return 'a structure';
  switch (f.scalar) {
    case 'U32':
    case 'U16':
    case 'U8':
      return 'U32';
    case 'I32':
      return 'I32';
    case 'F32':
      return 'F32';
    case 'U64':
      return 'U64';
    case 'Bool32':
      return 'Bool32';
    case 'Enum':
      return 'Enum';
    case 'Handle':
      return SLOT_KINDS.has(f.decl.typeName) ? 'Slot' : `a ${f.decl.typeName} (the encoder table holds no such object)`;
    default:
      return `a ${f.scalar} value`;
  }
}

export function buildEncoderModel(sel: Selection, model: MarshalModel, dispatch: readonly DispatchCommand[]): EncodedModel {
  const members = new Map(dispatch.map((d) => [d.name, d.member]));
  const commands: EncodedCommand[] = [];
  const leftOut: { name: string; reason: string }[] = [];
  const enums: EncodedEnum[] = [];
  const enumIndex = new Map<number, number>();
  const candidates = model.commands.filter((c: MarshalCommand) => c.name.startsWith('vkCmd') && c.extensions.length === 0 && c.level === 'device');
  for (const c of candidates) {
    const [first, ...rest] = c.params;
    if (first?.decl.typeName !== 'VkCommandBuffer') continue;
    const args: EncodedArg[] = [];
    let why = '';
    let word = 0;
    for (const p of rest) {
      const kind = argKind(p);
      if (!ARG_KINDS.has(kind)) {
        why = `${p.name} is ${kind}`;
        break;
      }
      let check = -1;
      if (kind === 'Enum') {
        let e = enumIndex.get(p.typeIndex);
        if (e === undefined) {
          const group = model.enumGroups[p.typeIndex];
          if (group === undefined) {
            why = `${p.name}: enum ${p.decl.typeName} has no value table`;
            break;
          }
          e = enums.length;
          enums.push({ name: group.name, values: [...group.values].sort((a, b) => a.value - b.value) });
          enumIndex.set(p.typeIndex, e);
        }
        check = e;
      } else if (kind === 'Slot') {
        check = SLOT_KINDS.get(p.decl.typeName) ?? -1;
      }
      args.push({ name: p.name, kind: kind as EncodedArgKind, cType: p.decl.typeName, check, word });
      word += kind === 'U64' ? 2 : 1;
    }
    if (why !== '') {
      leftOut.push({ name: c.name, reason: why });
      continue;
    }
    const member = members.get(c.name);
    if (member === undefined) throw new Error(`${c.name}: not in the device dispatch table`);
    const signature = sel.registry.commands.get(c.name);
    commands.push({
      name: c.name,
      opcode: ENCODED_OPCODE_BASE + commands.length,
      member,
      args,
      words: 1 + word,
      renderPass: signature?.renderPass ?? 'both',
      coreVersion: c.coreVersion ?? '',
    });
  }
  return { commands, enums, leftOut };
}

const NATIVE_KIND: Record<EncodedArgKind, string> = { U32: 'U32', I32: 'I32', F32: 'F32', U64: 'U64', Bool32: 'Bool32', Enum: 'Enum', Slot: 'Slot' };
const RENDER_PASS: Record<string, string> = { inside: 'Inside', outside: 'Outside', both: 'Both' };

function nativeArg(a: EncodedArg): string {
  const at = `a[${a.word}]`;
  switch (a.kind) {
    case 'U32':
      return a.cType === 'uint32_t' ? at : `static_cast<${a.cType}>(${at})`;
    case 'I32':
      return `static_cast<int32_t>(${at})`;
    case 'F32':
      return `F32Of(${at})`;
    case 'U64':
      return `static_cast<${a.cType}>(U64Of(a + ${a.word}))`;
    case 'Bool32':
      return at;
    case 'Enum':
      return `static_cast<${a.cType}>(${at})`;
    case 'Slot':
      return `HandleOf<${a.cType}>(h[${at}])`;
  }
}

export function emitEncoderHeader(banner: string, m: EncodedModel): string {
  const out: string[] = [];
  out.push(`// ${banner}`);
  out.push('// The command encoder\'s generated opcodes (native/vulkan/loader/command_stream.cc checks and replays them):');
  out.push(`// ${m.commands.length} vkCmd* commands of Vulkan 1.0-1.4 whose arguments are stream words; ${m.leftOut.length} others`);
  out.push('// (pointer or structure arguments, handles an encoder table cannot hold) are recorded per call for now.');
  out.push('#pragma once');
  out.push('');
  out.push('#include <cstdint>');
  out.push('#include <cstring>');
  out.push('#include <type_traits>');
  out.push('');
  out.push('#include "vulkan_commands.h"');
  out.push('');
  out.push('namespace khronos_loader::generated::vkencoder {');
  out.push('');
  out.push(`inline constexpr std::uint16_t kOpcodeBase = 0x${ENCODED_OPCODE_BASE.toString(16)};`);
  out.push(`inline constexpr std::uint16_t kCommandCount = ${m.commands.length};`);
  out.push('');
  out.push('/** How an argument is stored: one word, U64 two (low first), Slot a table index. */');
  out.push('enum class ArgKind : std::uint8_t { U32, I32, F32, U64, Bool32, Enum, Slot };');
  out.push('/** Where the registry lets a command be recorded (its `renderpass`). */');
  out.push('enum class RenderPass : std::uint8_t { Both, Inside, Outside };');
  out.push('');
  out.push('struct Arg {');
  out.push('    const char* name;');
  out.push('    ArgKind kind;');
  out.push('    std::uint8_t word;     // where it starts, after the header');
  out.push('    std::int16_t check;    // Enum: kEnums index; Slot: the HandleKind it needs; -1');
  out.push('};');
  out.push('');
  out.push('struct Command {');
  out.push('    const char* name;');
  out.push('    std::uint16_t firstArg;  // kArgs[firstArg...]');
  out.push('    std::uint8_t argCount;');
  out.push('    std::uint8_t words;      // header included');
  out.push('    RenderPass renderPass;');
  out.push('};');
  out.push('');
  out.push('struct Enum {');
  out.push('    const char* name;');
  out.push('    std::uint16_t firstValue;  // kEnumValues[firstValue...], ascending');
  out.push('    std::uint16_t valueCount;');
  out.push('};');
  out.push('');
  const values: number[] = [];
  const enumRows = m.enums.map((e) => {
    const row = `    {"${e.name}", ${values.length}, ${e.values.length}},`;
    values.push(...e.values.map((v) => v.value));
    return row;
  });
  out.push(`inline constexpr std::int32_t kEnumValues[${Math.max(1, values.length)}] = {`);
  for (let i = 0; i < values.length; i += 12) out.push(`    ${values.slice(i, i + 12).join(', ')},`);
  out.push('};');
  out.push(`inline constexpr Enum kEnums[${Math.max(1, m.enums.length)}] = {`);
  out.push(...enumRows);
  out.push('};');
  out.push('');
  const args: string[] = [];
  const rows = m.commands.map((c) => {
    const row = `    {"${c.name}", ${args.length}, ${c.args.length}, ${c.words}, RenderPass::${RENDER_PASS[c.renderPass] ?? 'Both'}},`;
    for (const a of c.args) args.push(`    {"${a.name}", ArgKind::${NATIVE_KIND[a.kind]}, ${a.word}, ${a.check}},  // ${c.name}`);
    return row;
  });
  out.push(`inline constexpr Arg kArgs[${Math.max(1, args.length)}] = {`);
  out.push(...args);
  out.push('};');
  out.push(`inline constexpr Command kCommands[${m.commands.length}] = {`);
  out.push(...rows);
  out.push('};');
  out.push('');
  out.push('inline std::uint64_t U64Of(const std::uint32_t* w) { return static_cast<std::uint64_t>(w[0]) | (static_cast<std::uint64_t>(w[1]) << 32); }');
  out.push('inline float F32Of(std::uint32_t bits) {');
  out.push('    float f;');
  out.push('    std::memcpy(&f, &bits, sizeof f);');
  out.push('    return f;');
  out.push('}');
  out.push('template <typename T>');
  out.push('T HandleOf(std::uint64_t raw) {');
  out.push('    if constexpr (std::is_pointer_v<T>) {');
  out.push('        return reinterpret_cast<T>(static_cast<std::uintptr_t>(raw));');
  out.push('    } else {');
  out.push('        return static_cast<T>(raw);');
  out.push('    }');
  out.push('}');
  out.push('');
  out.push('/** The dispatch table members the generated opcodes call, as an X-macro list. */');
  out.push('#define KL_VK_ENCODED_MEMBERS(X) \\');
  m.commands.forEach((c, i) => out.push(`    X(${c.member})${i + 1 < m.commands.length ? ' \\' : ''}`));
  out.push('');
  out.push('/** Whether the device\'s table has command `index` (a core command of a version above the device\'s may be null). */');
  out.push('inline bool Available(const VkDeviceDispatchTable& d, std::uint16_t index) noexcept {');
  out.push('    switch (index) {');
  m.commands.forEach((c, i) => out.push(`        case ${i}: return d.${c.member} != nullptr;`));
  out.push('        default: return false;');
  out.push('    }');
  out.push('}');
  out.push('');
  out.push('/** Records command `index` (checked: its arguments `a`, its table slots naming `h`). */');
  out.push('inline void Replay(const VkDeviceDispatchTable& d, VkCommandBuffer cb, std::uint16_t index, [[maybe_unused]] const std::uint32_t* a, [[maybe_unused]] const std::uint64_t* h) noexcept {');
  out.push('    switch (index) {');
  m.commands.forEach((c, i) => out.push(`        case ${i}: d.${c.member}(cb${c.args.map((a) => `, ${nativeArg(a)}`).join('')}); return;`));
  out.push('        default: return;');
  out.push('    }');
  out.push('}');
  out.push('');
  out.push('} // namespace khronos_loader::generated::vkencoder');
  out.push('');
  return out.join('\n');
}

const TS_TYPE: Record<EncodedArgKind, string> = { U32: 'number', I32: 'number', F32: 'number', U64: 'number | bigint', Bool32: 'boolean', Enum: 'number', Slot: 'number' };

function methodName(name: string): string {
  return name; // vkCmdDraw: the registry's name, beside the typed API's own (draw, dispatch...)
}

export function emitEncoderModule(banner: string, m: EncodedModel): string {
  const out: string[] = [];
  out.push(`// ${banner}`);
  out.push('// The command encoder\'s generated opcodes (lib/vulkan/api/command-encoder.ts extends EncodedVulkanCommands):');
  out.push(`// ${m.commands.length} vkCmd* commands of Vulkan 1.0-1.4 whose arguments are stream words, each a method named as`);
  out.push('// the command that checks its arguments and writes one command. Handles are table slots.');
  out.push('/* eslint-disable */');
  out.push('');
  out.push(`/** The first generated opcode (the hand-written ones are below it). */`);
  out.push(`export const ENCODED_OPCODE_BASE = 0x${ENCODED_OPCODE_BASE.toString(16)};`);
  out.push('');
  out.push('/** How an argument is stored (U64: two words, low first; Slot: a table index). */');
  out.push("export type EncodedArgKind = 'U32' | 'I32' | 'F32' | 'U64' | 'Bool32' | 'Enum' | 'Slot';");
  out.push('');
  out.push('export interface EncodedCommandInfo {');
  out.push('  readonly name: string;');
  out.push('  readonly opcode: number;');
  out.push('  /** Words of the command, header included. */');
  out.push('  readonly words: number;');
  out.push("  /** Where the registry lets it be recorded ('inside' a render pass or dynamic rendering, 'outside', 'both'). */");
  out.push('  readonly renderPass: string;');
  out.push('  /** Its arguments after the command buffer: name, kind, the word it starts at, and the slot kind (HANDLE_KIND) or enum it needs. */');
  out.push('  readonly args: readonly { readonly name: string; readonly kind: EncodedArgKind; readonly word: number; readonly slotKind?: number; readonly enum?: string }[];');
  out.push('}');
  out.push('');
  out.push('/** Every generated opcode, at index `opcode - ENCODED_OPCODE_BASE`. */');
  out.push('export const ENCODED_COMMANDS: readonly EncodedCommandInfo[] = [');
  for (const c of m.commands) {
    const args = c.args.map((a) => {
      const extra = a.kind === 'Slot' ? `, slotKind: ${a.check}` : a.kind === 'Enum' ? `, enum: '${m.enums[a.check]?.name}'` : '';
      return `{ name: '${a.name}', kind: '${a.kind}', word: ${a.word}${extra} }`;
    });
    out.push(`  { name: '${c.name}', opcode: 0x${c.opcode.toString(16)}, words: ${c.words}, renderPass: '${c.renderPass}', args: [${args.join(', ')}] },`);
  }
  out.push('];');
  out.push('');
  out.push('/** The values of each enum the generated opcodes take. */');
  out.push('export const ENCODED_ENUMS: Readonly<Record<string, readonly number[]>> = {');
  for (const e of m.enums) out.push(`  ${e.name}: [${e.values.map((v) => v.value).join(', ')}],`);
  out.push('};');
  out.push('');
  out.push('/** The core vkCmd* commands with no opcode yet (recorded per call), and why. */');
  out.push('export const ENCODER_LEFT_OUT: readonly { readonly name: string; readonly reason: string }[] = [');
  for (const l of m.leftOut) out.push(`  { name: '${l.name}', reason: '${l.reason.replace(/'/g, "\\'")}' },`);
  out.push('];');
  out.push('');
  out.push('const F32 = new Float32Array(1);');
  out.push('const F32_BITS = new Uint32Array(F32.buffer);');
  out.push('const TWO_32 = 0x1_0000_0000;');
  out.push('');
  out.push('/**');
  out.push(' * The generated recording methods. A subclass provides the stream: `encodeRoom` checks that it');
  out.push(' * records and makes room for a command of `words` words and returns the stream\'s words (the');
  out.push(' * command goes at `encodeAt`), `encodeCommit` says it was written, `encodeSlot` refuses a table');
  out.push(' * index that does not hold the kind of object a handle argument needs, `encodeRefuse` an argument.');
  out.push(' */');
  out.push('export abstract class EncodedVulkanCommands {');
  out.push('  protected abstract encodeRoom(what: string, words: number): Uint32Array;');
  out.push('  protected abstract get encodeAt(): number;');
  out.push('  protected abstract encodeCommit(words: number): void;');
  out.push('  protected abstract encodeSlot(what: string, name: string, index: number, kind: number): void;');
  out.push('  protected abstract encodeRefuse(what: string, name: string, needs: string, got: unknown): never;');
  out.push('');
  m.commands.forEach((c, i) => {
    const params = c.args.map((a) => `${a.name}: ${TS_TYPE[a.kind]}`).join(', ');
    out.push(`  /** ${c.name} (${c.coreVersion}; recorded ${c.renderPass === 'both' ? 'inside or outside a render pass' : `${c.renderPass} a render pass`}). */`);
    out.push(`  ${methodName(c.name)}(${params}): this {`);
    for (const a of c.args) {
      const n = a.name;
      const what = `'${c.name}', '${n}'`;
      switch (a.kind) {
        case 'U32':
          out.push(`    if (typeof ${n} !== 'number' || ${n} !== ${n} >>> 0) this.encodeRefuse(${what}, 'an integer in [0, 2^32)', ${n});`);
          break;
        case 'I32':
          out.push(`    if (typeof ${n} !== 'number' || ${n} !== (${n} | 0)) this.encodeRefuse(${what}, 'an integer in [-2^31, 2^31)', ${n});`);
          break;
        case 'F32':
          out.push(`    if (typeof ${n} !== 'number') this.encodeRefuse(${what}, 'a number', ${n});`);
          break;
        case 'U64':
          out.push(`    if (typeof ${n} === 'bigint' ? ${n} < 0n || ${n} > 0xffff_ffff_ffff_ffffn : typeof ${n} !== 'number' || !Number.isSafeInteger(${n}) || ${n} < 0) this.encodeRefuse(${what}, 'a non-negative safe integer or a bigint below 2^64', ${n});`);
          break;
        case 'Bool32':
          out.push(`    if (typeof ${n} !== 'boolean') this.encodeRefuse(${what}, 'a boolean', ${n});`);
          break;
        case 'Enum': {
          const e = m.enums[a.check]!;
          out.push(`    if (typeof ${n} !== 'number' || !ENCODED_ENUMS.${e.name}!.includes(${n})) this.encodeRefuse(${what}, 'a ${e.name} value', ${n});`);
          break;
        }
        case 'Slot':
          out.push(`    this.encodeSlot(${what}, ${n}, ${a.check});`);
          break;
      }
    }
    out.push(`    const u = this.encodeRoom('${c.name}', ${c.words});`);
    out.push('    const w = this.encodeAt;');
    out.push(`    u[w] = 0x${(c.opcode | (c.words << 16)).toString(16)}; // opcode ${i} + 0x${ENCODED_OPCODE_BASE.toString(16)}, ${c.words} words`);
    for (const a of c.args) {
      const at = `w + ${1 + a.word}`;
      switch (a.kind) {
        case 'F32':
          out.push(`    F32[0] = ${a.name};`);
          out.push(`    u[${at}] = F32_BITS[0]!;`);
          break;
        case 'U64':
          out.push(`    if (typeof ${a.name} === 'bigint') {`);
          out.push(`      u[${at}] = Number(${a.name} & 0xffff_ffffn);`);
          out.push(`      u[w + ${2 + a.word}] = Number(${a.name} >> 32n);`);
          out.push('    } else {');
          out.push(`      u[${at}] = ${a.name} % TWO_32;`);
          out.push(`      u[w + ${2 + a.word}] = Math.floor(${a.name} / TWO_32);`);
          out.push('    }');
          break;
        case 'Bool32':
          out.push(`    u[${at}] = ${a.name} ? 1 : 0;`);
          break;
        default:
          out.push(`    u[${at}] = ${a.name};`);
      }
    }
    out.push(`    this.encodeCommit(${c.words});`);
    out.push('    return this;');
    out.push('  }');
    out.push('');
  });
  out.push('}');
  out.push('');
  return out.join('\n');
}
