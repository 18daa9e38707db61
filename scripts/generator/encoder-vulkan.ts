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
 * The run commands, which CommandEncoder.end()'s state walk does not visit one by one (docs/usage.md,
 * 'CommandEncoder'): numbers only, they change no state, and their checks read only the state (and a
 * vkCmdDrawIndexed its own index range), so a run of one of them is checked on its first command. Their
 * generated methods commit with `encodeCommitRun` (the first) and `encodeCommitRunOf` (the others, with
 * their index here); every other command's `encodeCommit` notes where it starts, and the walk visits only those.
 */
const RUN_COMMANDS = ['vkCmdDraw', 'vkCmdDrawIndexed'] as const;

/**
 * The handle types an encoder table slot can hold, with the slot kinds (HandleKind in
 * native/vulkan/loader/command_stream.h, HANDLE_KIND in lib/vulkan/api/command-encoder.ts) each
 * accepts, as a mask (bit k: kind k). A VkPipeline is a compute (1) or a graphics (6) pipeline.
 */
const SLOT_KINDS: ReadonlyMap<string, number> = new Map([
  ['VkPipeline', (1 << 1) | (1 << 6)],
  ['VkPipelineLayout', 1 << 2],
  ['VkDescriptorSet', 1 << 3],
  ['VkBuffer', 1 << 4],
  ['VkImage', 1 << 5],
  ['VkImageView', 1 << 7],
  ['VkRenderPass', 1 << 8],
  ['VkFramebuffer', 1 << 9],
  ['VkQueryPool', 1 << 10],
  ['VkEvent', 1 << 11],
]);

/** A slot word that names no object (VK_NULL_HANDLE), for a handle the registry marks optional. */
export const NULL_SLOT = 0xffff_ffff;

/**
 * What a command does to the render pass scope the stream is in (Vulkan spec, 'Render Pass' and
 * 'Dynamic Rendering'): the registry's `renderpass` says where a command may be recorded, not
 * which commands open and close an instance.
 */
const SCOPE: Readonly<Record<string, number>> = {
  vkCmdBeginRendering: 1, // opens dynamic rendering
  vkCmdBeginRenderPass: 2, // opens a render pass
  vkCmdBeginRenderPass2: 2,
  vkCmdEndRendering: 3, // closes dynamic rendering
  vkCmdEndRenderPass: 4, // closes a render pass
  vkCmdEndRenderPass2: 4,
  vkCmdNextSubpass: 5, // needs a render pass
  vkCmdNextSubpass2: 5,
};

/** How an argument is stored in the stream (one word each, U64 two, low word first). */
export type EncodedArgKind = 'U32' | 'I32' | 'F32' | 'U64' | 'Bool32' | 'Enum' | 'Slot';

export interface EncodedArg {
  readonly name: string;
  readonly kind: EncodedArgKind;
  /** The C type of the parameter (VkBuffer, VkIndexType, uint32_t...). */
  readonly cType: string;
  /** Enum: its index in EncodedModel.enums; Slot: the mask of slot kinds it takes; -1 otherwise. */
  readonly check: number;
  /** The word it starts at, after the header. */
  readonly word: number;
}

/**
 * One element type of the walked layout (commands with arrays, structures or optional pointers):
 * a scalar word (U64 two), an enum's value, a table slot, a structure or union of the model, or the
 * bytes of a `void*` array (four to a word).
 */
export type EncodedElem =
  | { readonly t: 'scalar'; readonly kind: 'U32' | 'I32' | 'F32' | 'Bool32' | 'U64'; readonly cType: string }
  | { readonly t: 'enum'; readonly e: number; readonly cType: string }
  | { readonly t: 'slot'; readonly mask: number; readonly optional: boolean; readonly cType: string }
  | { readonly t: 'struct'; readonly s: number }
  | { readonly t: 'bytes' };

/**
 * One parameter or member in the walked layout, in declaration order: a value (its words in place),
 * a fixed array, a count (its word; the arrays it sizes follow later), an array (`count`'s elements;
 * `presence`: a word 0/1 first, for an optional array beside a count other arrays need), a pointer to
 * one structure (`presence` when optional), and a structure's sType and pNext (no words: sType is
 * the structure's own, pNext NULL).
 */
export interface EncodedNode {
  readonly name: string;
  readonly shape: 'value' | 'fixed' | 'count' | 'array' | 'pointer' | 'stype' | 'next';
  readonly elem: EncodedElem;
  readonly fixed: number;
  /** array: the sibling count's name. */
  readonly count: string;
  readonly presence: boolean;
  /** count: the registry lets it be 0 (its arrays optional). */
  readonly mayBeZero: boolean;
}

export interface EncodedStruct {
  readonly name: string;
  readonly isUnion: boolean;
  /** Words when every member is of fixed size (a union: its largest member's); 0 when it holds arrays or optional pointers. */
  readonly words: number;
  readonly sType: number;
  readonly nodes: readonly EncodedNode[];
}

export interface EncodedCommand {
  readonly name: string;
  readonly opcode: number;
  /** The device dispatch table's member. */
  readonly member: string;
  /** A command of stream words only (the flat table); [] for a walked one. */
  readonly args: readonly EncodedArg[];
  /** A walked command's parameters after the command buffer; [] for a flat one. */
  readonly nodes: readonly EncodedNode[];
  readonly walked: boolean;
  /** Words of the command, header included; 0: a walked command of variable length. */
  readonly words: number;
  /** The registry's `renderpass`: 'inside', 'outside' or 'both'. */
  readonly renderPass: string;
  /** 0, or what it does to the render pass scope (SCOPE). */
  readonly scope: number;
  readonly coreVersion: string;
}

export interface EncodedEnum {
  readonly name: string;
  readonly values: readonly { readonly name: string; readonly value: number }[];
}

export interface EncodedModel {
  readonly commands: readonly EncodedCommand[];
  readonly enums: readonly EncodedEnum[];
  readonly structs: readonly EncodedStruct[];
  /** The core vkCmd* commands left out, with why (a handle the table cannot hold, a pointer array...). */
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

/** Builds the walked layouts (structures, enums) while the commands are read; `why` says what cannot be encoded. */
class LayoutBuilder {
  readonly structs: EncodedStruct[] = [];
  readonly #structIndex = new Map<number, number | string>();
  constructor(
    readonly model: MarshalModel,
    readonly enumOf: (f: MarshalField) => number | string,
  ) {}

  /** The struct's index in `structs`, or why it cannot be encoded. */
  struct(index: number): number | string {
    const known = this.#structIndex.get(index);
    if (known !== undefined) return known;
    const s = this.model.structs[index]!;
    this.#structIndex.set(index, `${s.name} contains itself`);
    const nodes = this.nodes(s.fields, s.name);
    if (typeof nodes === 'string') {
      this.#structIndex.set(index, nodes);
      return nodes;
    }
    let words = 0;
    for (const n of nodes) {
      const w = this.nodeWords(n);
      if (w === undefined) {
        words = -1;
        break;
      }
      words = s.isUnion ? Math.max(words, w) : words + w;
    }
    if (s.isUnion) {
      if (words <= 0) return this.#fail(index, `${s.name} is a union with a member of no fixed size`);
      if (nodes.some((n) => this.hasSlot(n))) return this.#fail(index, `${s.name} is a union with a handle member`);
    }
    const at = this.structs.length;
    this.structs.push({ name: s.name, isUnion: s.isUnion, words: Math.max(0, words), sType: s.structureTypeValue, nodes });
    this.#structIndex.set(index, at);
    return at;
  }

  #fail(index: number, why: string): string {
    this.#structIndex.set(index, why);
    return why;
  }

  hasSlot(n: EncodedNode): boolean {
    if (n.elem.t === 'slot') return true;
    if (n.elem.t === 'struct') return this.structs[n.elem.s]!.nodes.some((m) => this.hasSlot(m));
    return false;
  }

  /** Words of a node of fixed size, undefined for a variable one. */
  nodeWords(n: EncodedNode): number | undefined {
    switch (n.shape) {
      case 'stype':
      case 'next':
        return 0;
      case 'array':
        return undefined;
      case 'pointer':
        return n.presence ? undefined : this.elemWords(n.elem);
      case 'fixed':
        return n.fixed * (this.elemWords(n.elem) ?? NaN);
      default:
        return this.elemWords(n.elem);
    }
  }

  elemWords(e: EncodedElem): number | undefined {
    switch (e.t) {
      case 'scalar':
        return e.kind === 'U64' ? 2 : 1;
      case 'struct': {
        const w = this.structs[e.s]!.words;
        return w > 0 || this.structs[e.s]!.nodes.every((n) => this.nodeWords(n) === 0) ? w : undefined;
      }
      case 'bytes':
        return undefined;
      default:
        return 1;
    }
  }

  elem(f: MarshalField): EncodedElem | string {
    if (f.struct >= 0) {
      const s = this.struct(f.struct);
      return typeof s === 'string' ? s : { t: 'struct', s };
    }
    switch (f.scalar) {
      case 'U32':
      case 'I32':
      case 'F32':
      case 'Bool32':
      case 'U64':
        return { t: 'scalar', kind: f.scalar, cType: f.decl.typeName };
      case 'Enum': {
        const e = this.enumOf(f);
        return typeof e === 'string' ? e : { t: 'enum', e, cType: f.decl.typeName };
      }
      case 'Handle': {
        const mask = SLOT_KINDS.get(f.decl.typeName);
        return mask === undefined ? `a ${f.decl.typeName} (the encoder table holds no such object)` : { t: 'slot', mask, optional: f.optional, cType: f.decl.typeName };
      }
      case 'Address':
        return f.shape === 'Array' ? { t: 'bytes' } : 'an address';
      default:
        return `a ${f.scalar} value`;
    }
  }

  /** The nodes of a parameter list or a structure's members, or why one cannot be encoded. */
  nodes(fields: readonly MarshalField[], owner: string, from = 0): EncodedNode[] | string {
    const nodes: EncodedNode[] = [];
    const base = { fixed: 1, count: '', presence: false, mayBeZero: false };
    for (let i = from; i < fields.length; i++) {
      const f = fields[i]!;
      const where = `${f.name} (of ${owner})`;
      if (f.output) return `${where} is written by the command`;
      if (f.shape === 'StructureType') {
        nodes.push({ ...base, name: f.name, shape: 'stype', elem: { t: 'scalar', kind: 'U32', cType: 'VkStructureType' } });
        continue;
      }
      if (f.shape === 'Next') {
        nodes.push({ ...base, name: f.name, shape: 'next', elem: { t: 'bytes' } });
        continue;
      }
      if (f.lenMember >= 0) return `${where} has its length in another parameter's member`;
      const elem = this.elem(f);
      if (typeof elem === 'string') return `${where} is ${elem}`;
      switch (f.shape) {
        case 'Value':
          if (f.fixedCount > 1) {
            if (elem.t === 'bytes') return `${where} is a fixed array of addresses`;
            nodes.push({ ...base, name: f.name, shape: 'fixed', elem, fixed: f.fixedCount });
          } else {
            nodes.push({ ...base, name: f.name, shape: 'value', elem });
          }
          break;
        case 'Count': {
          if (elem.t !== 'scalar' || (elem.kind !== 'U32' && elem.kind !== 'U64')) return `${where} is a count of another type`;
          nodes.push({ ...base, name: f.name, shape: 'count', elem, mayBeZero: f.optional });
          break;
        }
        case 'Array': {
          const count = fields[f.lenIndex];
          if (count === undefined || f.lenIndex > i || count.shape !== 'Count') return `${where} has no count before it`;
          const countNode = nodes.find((n) => n.name === count.name);
          if (countNode === undefined) return `${where}: its count ${count.name} is not encoded`;
          // An optional array beside a count that may not be 0 (pSizes of vkCmdBindVertexBuffers2) says with a word whether it is there.
          nodes.push({ ...base, name: f.name, shape: 'array', elem, count: count.name, presence: f.optional && !countNode.mayBeZero });
          break;
        }
        case 'Pointer':
          if (elem.t !== 'struct') return `${where} is a pointer to a scalar`;
          nodes.push({ ...base, name: f.name, shape: 'pointer', elem, presence: f.optional });
          break;
        default:
          return `${where} is ${f.shape === 'PointerArray' ? 'an array of pointers' : `a ${f.shape}`}`;
      }
    }
    return nodes;
  }
}

export function buildEncoderModel(sel: Selection, model: MarshalModel, dispatch: readonly DispatchCommand[]): EncodedModel {
  const members = new Map(dispatch.map((d) => [d.name, d.member]));
  const commands: EncodedCommand[] = [];
  const leftOut: { name: string; reason: string }[] = [];
  const enums: EncodedEnum[] = [];
  const enumIndex = new Map<number, number>();
  const enumOf = (p: MarshalField): number | string => {
    let e = enumIndex.get(p.typeIndex);
    if (e === undefined) {
      const group = model.enumGroups[p.typeIndex];
      if (group === undefined) return `enum ${p.decl.typeName} with no value table`;
      e = enums.length;
      enums.push({ name: group.name, values: [...group.values].sort((a, b) => a.value - b.value) });
      enumIndex.set(p.typeIndex, e);
    }
    return e;
  };
  const layouts = new LayoutBuilder(model, enumOf);
  const candidates = model.commands.filter((c: MarshalCommand) => c.name.startsWith('vkCmd') && c.extensions.length === 0 && c.level === 'device');
  for (const c of candidates) {
    const [first, ...rest] = c.params;
    if (first?.decl.typeName !== 'VkCommandBuffer') continue;
    const member = members.get(c.name);
    if (member === undefined) throw new Error(`${c.name}: not in the device dispatch table`);
    const signature = sel.registry.commands.get(c.name);
    const common = { name: c.name, opcode: ENCODED_OPCODE_BASE + commands.length, member, renderPass: signature?.renderPass ?? 'both', scope: SCOPE[c.name] ?? 0, coreVersion: c.coreVersion ?? '' };
    // A command of stream words only keeps the flat table (one check per argument, no walk).
    const args: EncodedArg[] = [];
    let flat = true;
    let word = 0;
    for (const p of rest) {
      const kind = argKind(p);
      if (!ARG_KINDS.has(kind)) {
        flat = false;
        break;
      }
      let check = -1;
      if (kind === 'Enum') {
        const e = enumOf(p);
        if (typeof e === 'string') {
          flat = false;
          break;
        }
        check = e;
      } else if (kind === 'Slot') {
        check = SLOT_KINDS.get(p.decl.typeName) ?? -1;
      }
      args.push({ name: p.name, kind: kind as EncodedArgKind, cType: p.decl.typeName, check, word });
      word += kind === 'U64' ? 2 : 1;
    }
    if (flat) {
      commands.push({ ...common, args, nodes: [], walked: false, words: 1 + word });
      continue;
    }
    // The rest are walked: arrays (their lengths from the registry's len), structures, optional pointers.
    const nodes = layouts.nodes(c.params, c.name, 1); // the command buffer is the call's own
    if (typeof nodes === 'string') {
      leftOut.push({ name: c.name, reason: nodes });
      continue;
    }
    const params = nodes;
    let words: number | undefined = 1;
    for (const n of params) {
      const w = layouts.nodeWords(n);
      words = w === undefined || words === undefined ? undefined : words + w;
    }
    commands.push({ ...common, args: [], nodes: params, walked: true, words: words ?? 0 });
  }
  return { commands, enums, structs: layouts.structs, leftOut };
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
  out.push(`// ${m.commands.length} vkCmd* commands of Vulkan 1.0-1.4: ${m.commands.filter((c) => !c.walked).length} of stream words only (the flat table), ${m.commands.filter((c) => c.walked).length} walked`);
  out.push(`// (arrays, structures, optional pointers, laid out in declaration order); ${m.leftOut.length} others (handles an encoder table`);
  out.push('// cannot hold, arrays of pointers) are recorded per call.');
  out.push('#pragma once');
  out.push('');
  out.push('#include <algorithm>');
  out.push('#include <cstddef>');
  out.push('#include <cstdint>');
  out.push('#include <cstring>');
  out.push('#include <memory>');
  out.push('#include <new>');
  out.push('#include <vector>');
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
  out.push('    std::int16_t check;    // Enum: kEnums index; Slot: the mask of HandleKinds it takes; -1');
  out.push('};');
  out.push('');
  out.push('struct Command {');
  out.push('    const char* name;');
  out.push('    std::uint16_t firstArg;  // kArgs[firstArg...]');
  out.push('    std::uint8_t argCount;');
  out.push('    std::uint16_t words;     // header included; 0: walked, of variable length');
  out.push('    RenderPass renderPass;');
  out.push('    bool walked;             // checked and replayed by CheckWalked / ReplayWalked');
  out.push('    std::uint8_t scope;      // 1/2 opens dynamic rendering / a render pass, 3/4 closes it, 5 needs a render pass');
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
    const row = `    {"${c.name}", ${args.length}, ${c.args.length}, ${c.words}, RenderPass::${RENDER_PASS[c.renderPass] ?? 'Both'}, ${c.walked}, ${c.scope}},`;
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
  // The flat commands whose words need no check of their own (numbers only: no slot, enum or VkBool32)
  // and that open or close no render pass: the decoder's check accepts one on its header and its
  // render pass scope alone, without the per-argument table walk.
  const plain = m.commands.map((c) => !c.walked && c.scope === 0 && c.args.every((a) => a.kind === 'U32' || a.kind === 'I32' || a.kind === 'F32' || a.kind === 'U64'));
  out.push('/**');
  out.push(' * Per command, its whole header word (opcode | length << 16) when it is flat, opens or closes no render pass and');
  out.push(' * has no argument to check (numbers only), else 0: such a command is well formed when its header is this word');
  out.push(' * and its render pass scope allows it.');
  out.push(' */');
  out.push(`inline constexpr std::uint32_t kPlainHeader[${m.commands.length}] = {`);
  m.commands.forEach((c, i) => {
    const header = plain[i] ? `0x${(c.opcode | (c.words << 16)).toString(16).padStart(8, '0')}u` : '0';
    out.push(`    ${header},  // ${c.name}`);
  });
  out.push('};');
  out.push('');
  out.push(...emitWalked(m));
  out.push('/**');
  out.push(' * Records generated command `index` (checked: its arguments from `a` to `end`, its table slots naming `h`). Inlined');
  out.push(' * into the replay loop: a flat command is its call, in the loop\'s own code; a walked one goes to ReplayWalked.');
  out.push(' */');
  out.push('[[gnu::always_inline]] inline void Replay(const VkDeviceDispatchTable& d, VkCommandBuffer cb, std::uint16_t index, const std::uint32_t* a, const std::uint32_t* end, [[maybe_unused]] const std::uint64_t* h, Arena& arena) {');
  out.push('    switch (index) {');
  m.commands.forEach((c, i) => {
    if (!c.walked) out.push(`        case ${i}: d.${c.member}(cb${c.args.map((a) => `, ${nativeArg(a)}`).join('')}); return;`);
  });
  out.push('        default:');
  out.push('            ReplayWalked(d, cb, index, Reader{a, end}, h, arena);');
  out.push('            arena.Reset();');
  out.push('            return;');
  out.push('    }');
  out.push('}');
  out.push('');
  out.push('} // namespace khronos_loader::generated::vkencoder');
  out.push('');
  return out.join('\n');
}


const CHECK_FAULT = 'if (const Fault f = ';

/** The C type of one element (an array's `const T*` points at these). */
function elemCType(m: EncodedModel, e: EncodedElem): string {
  switch (e.t) {
    case 'struct':
      return m.structs[e.s]!.name;
    case 'bytes':
      return 'void';
    default:
      return e.cType;
  }
}

function elemWordsOf(m: EncodedModel, e: EncodedElem): number {
  switch (e.t) {
    case 'scalar':
      return e.kind === 'U64' ? 2 : 1;
    case 'struct':
      return m.structs[e.s]!.words;
    case 'bytes':
      return 0;
    default:
      return 1;
  }
}

/** The fewest words a structure takes (an array of it needs at least one word an element). */
function minWords(m: EncodedModel, s: EncodedStruct): number {
  if (s.words > 0 || s.isUnion) return s.words;
  let n = 0;
  for (const node of s.nodes) {
    if (node.shape === 'array' || node.shape === 'stype' || node.shape === 'next') n += node.presence ? 1 : 0;
    else if (node.shape === 'pointer' && node.presence) n += 1;
    else if (node.shape === 'fixed') n += node.fixed * elemMin(m, node.elem);
    else n += elemMin(m, node.elem);
  }
  return n;
}

function elemMin(m: EncodedModel, e: EncodedElem): number {
  return e.t === 'struct' ? minWords(m, m.structs[e.s]!) : e.t === 'bytes' ? 0 : elemWordsOf(m, e);
}

/** C++ lines checking one element at r.p (and advancing past it). */
function checkElem(m: EncodedModel, e: EncodedElem, ind: string): string[] {
  switch (e.t) {
    case 'scalar': {
      const w = e.kind === 'U64' ? 2 : 1;
      const lines = [`${ind}if (r.Left() < ${w}) return Fault::PastEnd;`];
      if (e.kind === 'Bool32') lines.push(`${ind}if (r.p[0] > 1) return Fault::BadValue;`);
      lines.push(`${ind}r.p += ${w};`);
      return lines;
    }
    case 'enum':
      return [`${ind}if (r.Left() < 1) return Fault::PastEnd;`, `${ind}if (!EnumHas(${e.e}, r.p[0])) return Fault::BadValue;`, `${ind}r.p += 1;`];
    case 'slot':
      return [`${ind}if (r.Left() < 1) return Fault::PastEnd;`, `${ind}${CHECK_FAULT}CheckSlot(r.p[0], 0x${e.mask.toString(16)}u, ${e.optional}, t); f != Fault::None) return f;`, `${ind}r.p += 1;`];
    case 'struct': {
      const s = m.structs[e.s]!;
      if (s.isUnion) return [`${ind}if (r.Left() < ${s.words}) return Fault::PastEnd;`, `${ind}r.p += ${s.words};  // ${s.name}: any bits`];
      return [`${ind}${CHECK_FAULT}Check_${s.name}(r, t); f != Fault::None) return f;`];
    }
    case 'bytes':
      throw new Error('bytes are checked as an array');
  }
}

function checkNodes(m: EncodedModel, nodes: readonly EncodedNode[], ind: string): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    switch (n.shape) {
      case 'stype':
      case 'next':
        break;
      case 'value':
      case 'pointer':
        if (n.presence) {
          out.push(`${ind}if (r.Left() < 1) return Fault::PastEnd;`);
          out.push(`${ind}if (r.p[0] > 1) return Fault::BadValue;  // ${n.name}: there or not`);
          out.push(`${ind}if (*r.p++ == 1) {`);
          out.push(...checkElem(m, n.elem, `${ind}    `));
          out.push(`${ind}}`);
        } else {
          out.push(...checkElem(m, n.elem, ind));
        }
        break;
      case 'fixed':
        out.push(`${ind}for (int i = 0; i < ${n.fixed}; ++i) {  // ${n.name}`);
        out.push(...checkElem(m, n.elem, `${ind}    `));
        out.push(`${ind}}`);
        break;
      case 'count': {
        const u64 = n.elem.t === 'scalar' && n.elem.kind === 'U64';
        out.push(`${ind}if (r.Left() < ${u64 ? 2 : 1}) return Fault::PastEnd;`);
        out.push(`${ind}const std::uint64_t n_${n.name} = ${u64 ? 'U64Of(r.p)' : 'r.p[0]'};`);
        out.push(`${ind}r.p += ${u64 ? 2 : 1};`);
        if (!n.mayBeZero) out.push(`${ind}if (n_${n.name} == 0) return Fault::BadValue;  // the registry: not optional`);
        break;
      }
      case 'array': {
        const count = `n_${n.count}`;
        let inner = ind;
        if (n.presence) {
          out.push(`${ind}if (r.Left() < 1) return Fault::PastEnd;`);
          out.push(`${ind}if (r.p[0] > 1) return Fault::BadValue;  // ${n.name}: there or not`);
          out.push(`${ind}if (*r.p++ == 1) {`);
          inner = `${ind}    `;
        }
        if (n.elem.t === 'bytes') {
          out.push(`${inner}if (${count} % 4 != 0) return Fault::Misaligned;  // ${n.name}: bytes, whole words`);
          out.push(`${inner}if (${count} / 4 > r.Left()) return Fault::PastEnd;`);
          out.push(`${inner}r.p += ${count} / 4;`);
        } else {
          const min = elemMin(m, n.elem);
          if (min < 1) throw new Error(`${n.name}: an array of elements of no words`);
          out.push(`${inner}if (${count} > r.Left() / ${min}) return Fault::PastEnd;  // ${n.name}`);
          out.push(`${inner}for (std::uint64_t i = 0; i < ${count}; ++i) {`);
          out.push(...checkElem(m, n.elem, `${inner}    `));
          out.push(`${inner}}`);
        }
        if (n.presence) out.push(`${ind}}`);
        break;
      }
    }
  }
  return out;
}

/** C++ lines reading one element at r.p into `lv`. */
function readElem(m: EncodedModel, e: EncodedElem, lv: string, ind: string): string[] {
  switch (e.t) {
    case 'scalar':
      switch (e.kind) {
        case 'U64':
          return [`${ind}${lv} = static_cast<${e.cType}>(U64Of(r.p));`, `${ind}r.p += 2;`];
        case 'F32':
          return [`${ind}${lv} = F32Of(*r.p++);`];
        case 'I32':
          return [`${ind}${lv} = static_cast<std::int32_t>(*r.p++);`];
        default:
          return [`${ind}${lv} = static_cast<${e.cType}>(*r.p++);`];
      }
    case 'enum':
      return [`${ind}${lv} = static_cast<${e.cType}>(static_cast<std::int32_t>(*r.p++));`];
    case 'slot':
      return [`${ind}${lv} = HandleOf<${e.cType}>(*r.p == kNullSlot ? 0 : h[*r.p]);`, `${ind}++r.p;`];
    case 'struct': {
      const s = m.structs[e.s]!;
      if (s.isUnion) return [`${ind}std::memcpy(&${lv}, r.p, ${s.words * 4});`, `${ind}r.p += ${s.words};`];
      return [`${ind}Read_${s.name}(r, h, arena, ${lv});`];
    }
    case 'bytes':
      throw new Error('bytes are read as an array');
  }
}

/** C++ lines reading nodes into `prefix + name` (a structure's `out.` or a command's locals `v_`). */
function readNodes(m: EncodedModel, nodes: readonly EncodedNode[], prefix: string, sType: number, ind: string): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    const lv = `${prefix}${n.name}`;
    switch (n.shape) {
      case 'stype':
        out.push(`${ind}${lv} = static_cast<VkStructureType>(${sType});`);
        break;
      case 'next':
        out.push(`${ind}${lv} = nullptr;  // no extension structures in the stream`);
        break;
      case 'value':
        out.push(...readElem(m, n.elem, lv, ind));
        break;
      case 'fixed':
        out.push(`${ind}for (int i = 0; i < ${n.fixed}; ++i) {`);
        out.push(...readElem(m, n.elem, `${lv}[i]`, `${ind}    `));
        out.push(`${ind}}`);
        break;
      case 'count': {
        const u64 = n.elem.t === 'scalar' && n.elem.kind === 'U64';
        out.push(`${ind}const std::uint64_t n_${n.name} = ${u64 ? 'U64Of(r.p)' : 'r.p[0]'};`);
        out.push(`${ind}r.p += ${u64 ? 2 : 1};`);
        out.push(`${ind}${lv} = static_cast<${n.elem.t === 'scalar' ? n.elem.cType : 'std::uint32_t'}>(n_${n.name});`);
        break;
      }
      case 'pointer': {
        const t = elemCType(m, n.elem);
        const inner = n.presence ? `${ind}    ` : ind;
        out.push(`${ind}${lv} = nullptr;`);
        if (n.presence) out.push(`${ind}if (*r.p++ == 1) {`);
        out.push(`${inner}${t}* one_${n.name} = arena.Make<${t}>(1);`);
        out.push(...readElem(m, n.elem, `*one_${n.name}`, inner));
        out.push(`${inner}${lv} = one_${n.name};`);
        if (n.presence) out.push(`${ind}}`);
        break;
      }
      case 'array': {
        const count = `n_${n.count}`;
        const t = elemCType(m, n.elem);
        const inner = n.presence ? `${ind}    ` : ind;
        out.push(`${ind}${lv} = nullptr;`);
        if (n.presence) out.push(`${ind}if (*r.p++ == 1) {`);
        if (n.elem.t === 'bytes') {
          out.push(`${inner}${lv} = ${count} == 0 ? nullptr : r.p;`);
          out.push(`${inner}r.p += ${count} / 4;`);
        } else {
          out.push(`${inner}if (${count} != 0) {`);
          out.push(`${inner}    ${t}* all = arena.Make<${t}>(${count});`);
          out.push(`${inner}    for (std::uint64_t i = 0; i < ${count}; ++i) {`);
          out.push(...readElem(m, n.elem, 'all[i]', `${inner}        `));
          out.push(`${inner}    }`);
          out.push(`${inner}    ${lv} = all;`);
          out.push(`${inner}}`);
        }
        if (n.presence) out.push(`${ind}}`);
        break;
      }
    }
  }
  return out;
}

function localDecl(m: EncodedModel, n: EncodedNode): string {
  const t = elemCType(m, n.elem);
  switch (n.shape) {
    case 'fixed':
      return `${t} v_${n.name}[${n.fixed}]{};`;
    case 'array':
    case 'pointer':
      return `const ${t}* v_${n.name} = nullptr;`;
    default:
      return `${t} v_${n.name}{};`;
  }
}

/** The walked commands' checks and replay, and the structures' readers (native/generated/vulkan_encoder.h). */
function emitWalked(m: EncodedModel): string[] {
  const out: string[] = [];
  out.push('// ---- Walked commands: arrays (lengths from the registry\'s len), structures, optional pointers ----');
  out.push('// Laid out in declaration order: a count is its word (two for a 64-bit one); an array\'s elements follow');
  out.push('// where the array is declared; an optional pointer (and an optional array beside a count others need) is');
  out.push('// a word 0/1 first; a union is its largest member\'s words; sType and pNext take no words (the structure\'s');
  out.push('// own sType, pNext NULL); a handle is a table slot, kNullSlot for VK_NULL_HANDLE where the registry allows it.');
  out.push('');
  out.push('inline constexpr std::uint32_t kNullSlot = 0xffffffffu;');
  out.push('');
  out.push('/** What a walked command\'s check found wrong (command_stream.cc maps it to its Reason). */');
  out.push('enum class Fault : std::uint8_t { None, PastEnd, Leftover, HandleIndex, HandleKind, BadValue, Misaligned };');
  out.push('');
  out.push('struct Reader {');
  out.push('    const std::uint32_t* p;');
  out.push('    const std::uint32_t* end;');
  out.push('    std::size_t Left() const noexcept { return static_cast<std::size_t>(end - p); }');
  out.push('};');
  out.push('');
  out.push('/** The table\'s slot kinds (HandleKind per slot). */');
  out.push('struct Slots {');
  out.push('    const std::uint8_t* kinds;');
  out.push('    std::size_t size;');
  out.push('};');
  out.push('');
  out.push('inline Fault CheckSlot(std::uint32_t v, std::uint32_t mask, bool optional, const Slots& t) noexcept {');
  out.push('    if (v == kNullSlot && optional) return Fault::None;');
  out.push('    if (v >= t.size) return Fault::HandleIndex;');
  out.push('    return t.kinds[v] < 32 && ((mask >> t.kinds[v]) & 1u) != 0 ? Fault::None : Fault::HandleKind;');
  out.push('}');
  out.push('');
  out.push('inline bool EnumHas(int e, std::uint32_t v) noexcept {');
  out.push('    const std::int32_t* first = kEnumValues + kEnums[e].firstValue;');
  out.push('    const std::int32_t* last = first + kEnums[e].valueCount;');
  out.push('    const std::int32_t* it = std::lower_bound(first, last, static_cast<std::int32_t>(v));');
  out.push('    return it != last && *it == static_cast<std::int32_t>(v);');
  out.push('}');
  out.push('');
  out.push('/**');
  out.push(' * Scratch memory for the structures a walked command is replayed with: a first block inside the arena (on the');
  out.push(' * replaying function\'s stack, not zeroed), heap blocks only for a command that needs more. Make() zeroes what it');
  out.push(' * hands out; Reset() after each command keeps the current block.');
  out.push(' */');
  out.push('class Arena {');
  out.push(' public:');
  out.push('    Arena() = default;');
  out.push('    Arena(const Arena&) = delete;');
  out.push('    Arena& operator=(const Arena&) = delete;');
  out.push('    template <typename T>');
  out.push('    T* Make(std::uint64_t count) {');
  out.push('        static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= alignof(std::max_align_t));');
  out.push('        const std::size_t bytes = (static_cast<std::size_t>(count) * sizeof(T) + 15) & ~static_cast<std::size_t>(15);');
  out.push('        if (bytes > size_ - used_) Grow(bytes);');
  out.push('        void* at = base_ + used_;');
  out.push('        used_ += bytes;');
  out.push('        std::memset(at, 0, bytes);');
  out.push('        return std::launder(reinterpret_cast<T*>(at));');
  out.push('    }');
  out.push('    void Reset() noexcept {');
  out.push('        if (heap_.size() > 1) heap_.erase(heap_.begin(), heap_.end() - 1);');
  out.push('        used_ = 0;');
  out.push('    }');
  out.push('');
  out.push(' private:');
  out.push('    void Grow(std::size_t bytes) {');
  out.push('        const std::size_t size = std::max<std::size_t>(bytes, 16384);');
  out.push('        heap_.push_back(std::unique_ptr<std::byte[]>(new std::byte[size]));  // new aligns it for std::max_align_t');
  out.push('        base_ = heap_.back().get();');
  out.push('        size_ = size;');
  out.push('        used_ = 0;');
  out.push('    }');
  out.push('    alignas(std::max_align_t) std::byte first_[2048];');
  out.push('    std::byte* base_ = first_;');
  out.push('    std::size_t size_ = sizeof first_;');
  out.push('    std::size_t used_ = 0;');
  out.push('    std::vector<std::unique_ptr<std::byte[]>> heap_;');
  out.push('};');
  out.push('');
  for (const s of m.structs) {
    if (s.isUnion) {
      out.push(`static_assert(sizeof(${s.name}) == ${s.words * 4}, "${s.name}: its stream words");`);
      continue;
    }
    out.push(`inline Fault Check_${s.name}([[maybe_unused]] Reader& r, [[maybe_unused]] const Slots& t) noexcept;`);
    out.push(`inline void Read_${s.name}([[maybe_unused]] Reader& r, [[maybe_unused]] const std::uint64_t* h, [[maybe_unused]] Arena& arena, ${s.name}& out);`);
  }
  out.push('');
  for (const s of m.structs) {
    if (s.isUnion) continue;
    out.push(`inline Fault Check_${s.name}([[maybe_unused]] Reader& r, [[maybe_unused]] const Slots& t) noexcept {`);
    out.push(...checkNodes(m, s.nodes, '    '));
    out.push('    return Fault::None;');
    out.push('}');
    out.push(`inline void Read_${s.name}([[maybe_unused]] Reader& r, [[maybe_unused]] const std::uint64_t* h, [[maybe_unused]] Arena& arena, ${s.name}& out) {`);
    out.push(...readNodes(m, s.nodes, 'out.', s.sType, '    '));
    out.push('}');
  }
  out.push('');
  out.push('/** Checks walked command `index` whose arguments are r\'s words: the registry\'s rules, and that they take every word. */');
  out.push('inline Fault CheckWalked(std::uint16_t index, Reader r, [[maybe_unused]] const Slots& t) noexcept {');
  out.push('    switch (index) {');
  m.commands.forEach((c, i) => {
    if (!c.walked) return;
    out.push(`        case ${i}: {  // ${c.name}`);
    out.push(...checkNodes(m, c.nodes, '            '));
    out.push('            return r.p == r.end ? Fault::None : Fault::Leftover;');
    out.push('        }');
  });
  out.push('        default: return Fault::None;');
  out.push('    }');
  out.push('}');
  out.push('');
  out.push('/** Records walked command `index` (CheckWalked accepted it) from r\'s words, its table slots naming `h`. */');
  out.push('inline void ReplayWalked(const VkDeviceDispatchTable& d, VkCommandBuffer cb, std::uint16_t index, Reader r, [[maybe_unused]] const std::uint64_t* h, [[maybe_unused]] Arena& arena) {');
  out.push('    switch (index) {');
  m.commands.forEach((c, i) => {
    if (!c.walked) return;
    out.push(`        case ${i}: {  // ${c.name}`);
    for (const n of c.nodes) out.push(`            ${localDecl(m, n)}`);
    out.push(...readNodes(m, c.nodes, 'v_', 0, '            '));
    out.push(`            d.${c.member}(cb${c.nodes.map((n) => `, v_${n.name}`).join('')});`);
    out.push('            return;');
    out.push('        }');
  });
  out.push('        default: return;');
  out.push('    }');
  out.push('}');
  out.push('');
  return out;
}

const TS_TYPE: Record<EncodedArgKind, string> = { U32: 'number', I32: 'number', F32: 'number', U64: 'number | bigint', Bool32: 'boolean', Enum: 'number', Slot: 'number' };

function methodName(name: string): string {
  return name; // vkCmdDraw: the registry's name, beside the typed API's own (draw, dispatch...)
}


function nodeInfo(m: EncodedModel, n: EncodedNode): string {
  const e = n.elem;
  const elem = e.t === 'scalar' ? e.kind : e.t === 'enum' ? 'Enum' : e.t === 'slot' ? 'Slot' : e.t === 'struct' ? 'Struct' : 'Bytes';
  const parts = [`name: '${n.name}'`, `shape: '${n.shape}'`, `elem: '${elem}'`];
  if (n.shape === 'fixed') parts.push(`fixed: ${n.fixed}`);
  if (n.shape === 'array') parts.push(`count: '${n.count}'`);
  if (n.presence) parts.push('presence: true');
  if (n.shape === 'count') parts.push(`mayBeZero: ${n.mayBeZero}`);
  if (e.t === 'struct') parts.push(`struct: ${e.s}`);
  if (e.t === 'slot') parts.push(`slotMask: 0x${e.mask.toString(16)}`, `optional: ${e.optional}`);
  if (e.t === 'enum') parts.push(`enum: '${m.enums[e.e]!.name}'`);
  return `{ ${parts.join(', ')} }`;
}

function elemTs(m: EncodedModel, e: EncodedElem): string {
  switch (e.t) {
    case 'scalar':
      return e.kind === 'Bool32' ? 'boolean' : e.kind === 'U64' ? 'number | bigint' : 'number';
    case 'enum':
      return 'number';
    case 'slot':
      return e.optional ? 'number | null' : 'number';
    case 'struct':
      return `Encoded${m.structs[e.s]!.name}`;
    case 'bytes':
      return 'ArrayBufferView';
  }
}

/** Whether a node may be null (an optional pointer, an optional array). */
function nullable(n: EncodedNode, siblings: readonly EncodedNode[]): boolean {
  if (n.shape === 'pointer') return n.presence;
  if (n.shape === 'array') return n.presence || siblings.find((c) => c.name === n.count)?.mayBeZero === true;
  return false;
}

function nodeTs(m: EncodedModel, n: EncodedNode, siblings: readonly EncodedNode[]): string {
  const e = elemTs(m, n.elem);
  const many = e.includes('|') ? `readonly (${e})[]` : `readonly ${e}[]`;
  let t: string;
  switch (n.shape) {
    case 'fixed':
      t = many;
      break;
    case 'count':
      t = n.elem.t === 'scalar' && n.elem.kind === 'U64' ? 'number | bigint' : 'number';
      break;
    case 'array':
      t = n.elem.t === 'bytes' ? 'ArrayBufferView' : many;
      break;
    default:
      t = e;
  }
  return nullable(n, siblings) ? `${t} | null` : t;
}

/** TypeScript lines checking element `x` (path `p`, a string expression) and adding its words to `n`. */
function tsCheckElem(m: EncodedModel, e: EncodedElem, x: string, p: string, ind: string): string[] {
  const refuse = (needs: string) => `this.encodeRefuse(what, ${p}, '${needs}', ${x})`;
  switch (e.t) {
    case 'scalar':
      switch (e.kind) {
        case 'U32':
          return [`${ind}if (typeof ${x} !== 'number' || ${x} !== ${x} >>> 0) ${refuse('an integer in [0, 2^32)')};`, `${ind}n += 1;`];
        case 'I32':
          return [`${ind}if (typeof ${x} !== 'number' || ${x} !== (${x} | 0)) ${refuse('an integer in [-2^31, 2^31)')};`, `${ind}n += 1;`];
        case 'F32':
          return [`${ind}if (typeof ${x} !== 'number') ${refuse('a number')};`, `${ind}n += 1;`];
        case 'Bool32':
          return [`${ind}if (typeof ${x} !== 'boolean') ${refuse('a boolean')};`, `${ind}n += 1;`];
        case 'U64':
          return [`${ind}if (!isU64(${x})) ${refuse('a non-negative safe integer or a bigint below 2^64')};`, `${ind}n += 2;`];
      }
      break;
    case 'enum': {
      const name = m.enums[e.e]!.name;
      return [`${ind}if (typeof ${x} !== 'number' || !ENCODED_ENUMS.${name}!.includes(${x})) ${refuse(`a ${name} value`)};`, `${ind}n += 1;`];
    }
    case 'slot':
      return [`${ind}${e.optional ? `if (${x} !== null) ` : ''}this.encodeSlot(what, ${p}, ${x}, 0x${e.mask.toString(16)});`, `${ind}n += 1;`];
    case 'struct':
      return [`${ind}n += this.#z${m.structs[e.s]!.name}(what, ${p}, ${x});`];
    case 'bytes':
      break;
  }
  throw new Error('bytes are checked as an array');
}

function tsCheckNodes(m: EncodedModel, nodes: readonly EncodedNode[], val: (name: string) => string, path: (name: string) => string, ind: string): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    const x = val(n.name);
    const p = path(n.name);
    switch (n.shape) {
      case 'stype':
      case 'next':
        break;
      case 'value':
        out.push(...tsCheckElem(m, n.elem, x, p, ind));
        break;
      case 'pointer':
        if (n.presence) {
          out.push(`${ind}n += 1;`);
          out.push(`${ind}if (${x} != null) {`);
          out.push(...tsCheckElem(m, n.elem, x, p, `${ind}  `));
          out.push(`${ind}}`);
        } else {
          out.push(...tsCheckElem(m, n.elem, x, p, ind));
        }
        break;
      case 'fixed':
        out.push(`${ind}if (!Array.isArray(${x}) || ${x}.length !== ${n.fixed}) this.encodeRefuse(what, ${p}, 'an array of ${n.fixed}', ${x});`);
        out.push(`${ind}for (let i = 0; i < ${n.fixed}; i++) {`);
        out.push(`${ind}  const e = ${x}[i]!;`);
        out.push(...tsCheckElem(m, n.elem, 'e', `(named ? \`\${${p}}[\${i}]\` : null)`, `${ind}  `));
        out.push(`${ind}}`);
        break;
      case 'count': {
        const u64 = n.elem.t === 'scalar' && n.elem.kind === 'U64';
        out.push(`${ind}if (typeof ${x} !== 'number' || ${x} !== ${x} >>> 0${n.mayBeZero ? '' : ` || ${x} === 0`}) this.encodeRefuse(what, ${p}, '${n.mayBeZero ? 'an integer in [0, 2^32)' : 'an integer in [1, 2^32) (the registry: not optional)'}', ${x});`);
        out.push(`${ind}n += ${u64 ? 2 : 1};`);
        break;
      }
      case 'array': {
        const count = val(n.count);
        const countNode = nodes.find((c) => c.name === n.count)!;
        if (n.presence) out.push(`${ind}n += 1;`);
        out.push(`${ind}if (${x} == null) {`);
        if (!n.presence) {
          if (countNode.mayBeZero) out.push(`${ind}  if (${count} !== 0) this.encodeRefuse(what, ${p}, \`an array of ${n.count} (\${${count}}) elements\`, ${x});`);
          else out.push(`${ind}  this.encodeRefuse(what, ${p}, \`an array of ${n.count} (\${${count}}) elements\`, ${x});`);
        }
        out.push(`${ind}} else {`);
        const inner = `${ind}  `;
        if (n.elem.t === 'bytes') {
          out.push(`${inner}if (!ArrayBuffer.isView(${x}) || ${x}.byteLength !== ${count} || ${count} % 4 !== 0) this.encodeRefuse(what, ${p}, \`a TypedArray or DataView of ${n.count} (\${${count}}) bytes, a multiple of 4\`, ${x});`);
          out.push(`${inner}n += ${x}.byteLength / 4;`);
        } else {
          out.push(`${inner}if (!Array.isArray(${x}) || ${x}.length !== ${count}) this.encodeRefuse(what, ${p}, \`an array of ${n.count} (\${${count}}) elements\`, ${x});`);
          out.push(`${inner}for (let i = 0; i < ${x}.length; i++) {`);
          out.push(`${inner}  const e = ${x}[i]!;`);
          out.push(...tsCheckElem(m, n.elem, 'e', `(named ? \`\${${p}}[\${i}]\` : null)`, `${inner}  `));
          out.push(`${inner}}`);
        }
        out.push(`${ind}}`);
        break;
      }
    }
  }
  return out;
}

/** TypeScript lines writing element `x` at u[p] (p advanced). */
function tsWriteElem(m: EncodedModel, e: EncodedElem, x: string, ind: string): string[] {
  switch (e.t) {
    case 'scalar':
      switch (e.kind) {
        case 'F32':
          return [`${ind}F32[0] = ${x};`, `${ind}u[p++] = F32_BITS[0]!;`];
        case 'Bool32':
          return [`${ind}u[p++] = ${x} ? 1 : 0;`];
        case 'U64':
          return [`${ind}p = writeU64(u, p, ${x});`];
        default:
          return [`${ind}u[p++] = ${x};`];
      }
    case 'enum':
      return [`${ind}u[p++] = ${x};`];
    case 'slot':
      return [e.optional ? `${ind}u[p++] = ${x} === null ? 0xffff_ffff : ${x};` : `${ind}u[p++] = ${x};`];
    case 'struct':
      return [`${ind}p = this.#w${m.structs[e.s]!.name}(u, p, ${x});`];
    case 'bytes':
      break;
  }
  throw new Error('bytes are written as an array');
}

function tsWriteNodes(m: EncodedModel, nodes: readonly EncodedNode[], val: (name: string) => string, ind: string): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    const x = val(n.name);
    switch (n.shape) {
      case 'stype':
      case 'next':
        break;
      case 'value':
        out.push(...tsWriteElem(m, n.elem, x, ind));
        break;
      case 'count':
        out.push(...(n.elem.t === 'scalar' && n.elem.kind === 'U64' ? [`${ind}p = writeU64(u, p, ${x});`] : [`${ind}u[p++] = ${x};`]));
        break;
      case 'pointer':
        if (n.presence) {
          out.push(`${ind}u[p++] = ${x} == null ? 0 : 1;`);
          out.push(`${ind}if (${x} != null) {`);
          out.push(...tsWriteElem(m, n.elem, x, `${ind}  `));
          out.push(`${ind}}`);
        } else {
          out.push(...tsWriteElem(m, n.elem, x, ind));
        }
        break;
      case 'fixed':
        out.push(`${ind}for (let i = 0; i < ${n.fixed}; i++) {`);
        out.push(...tsWriteElem(m, n.elem, `${x}[i]!`, `${ind}  `));
        out.push(`${ind}}`);
        break;
      case 'array':
        if (n.presence) out.push(`${ind}u[p++] = ${x} == null ? 0 : 1;`);
        out.push(`${ind}if (${x} != null) {`);
        if (n.elem.t === 'bytes') {
          out.push(`${ind}  this.encodeBytes(p, ${x});`);
          out.push(`${ind}  p += ${x}.byteLength / 4;`);
        } else {
          out.push(`${ind}  for (let i = 0; i < ${x}.length; i++) {`);
          out.push(...tsWriteElem(m, n.elem, `${x}[i]!`, `${ind}    `));
          out.push(`${ind}  }`);
        }
        out.push(`${ind}}`);
        break;
    }
  }
  return out;
}

function walkedMethod(m: EncodedModel, c: EncodedCommand): string[] {
  const out: string[] = [];
  const params = c.nodes.map((n) => `${n.name}: ${nodeTs(m, n, c.nodes)}`).join(', ');
  out.push(`  /** ${c.name} (${c.coreVersion}; recorded ${c.renderPass === 'both' ? 'inside or outside a render pass' : `${c.renderPass} a render pass`}; walked: arrays as long as their counts say). */`);
  out.push(`  ${c.name}(${params}): this {`);
  out.push(`    const what = '${c.name}';`);
  out.push('    let n = 1;');
  // The checks run first without names (null: no string built for a member or an element); where one refuses,
  // again with them, which refuses with its name (ENCODED_UNNAMED: what encodeRefuse and encodeSlot throw for a null name).
  out.push('    for (let named = false; ; named = true) {');
  out.push('      try {');
  out.push('        n = 1;');
  out.push(...tsCheckNodes(m, c.nodes, (name) => name, (name) => `(named ? '${name}' : null)`, '        '));
  out.push('        break;');
  out.push('      } catch (error) {');
  out.push('        if (named || error !== ENCODED_UNNAMED) throw error;');
  out.push('      }');
  out.push('    }');
  out.push(`    if (n > 0xffff) this.encodeRefuse(what, 'its arguments', 'at most 65,535 words with the header', n);`);
  out.push('    const u = this.encodeRoom(what, n);');
  out.push('    const w = this.encodeAt;');
  out.push(`    u[w] = (0x${c.opcode.toString(16)} | (n << 16)) >>> 0;`);
  out.push('    let p = w + 1;');
  out.push(...tsWriteNodes(m, c.nodes, (name) => name, '    '));
  out.push('    this.encodeCommit(p - w);');
  out.push('    return this;');
  out.push('  }');
  out.push('');
  return out;
}

function structMethods(m: EncodedModel, st: EncodedStruct): string[] {
  const out: string[] = [];
  const t = `Encoded${st.name}`;
  // `path`: the member's name for messages, or null (the first pass of a walked method's checks, which builds no name).
  out.push(`  #z${st.name}(what: string, path: string | null, v: ${t}): number {`);
  out.push(`    if (typeof v !== 'object' || v === null) this.encodeRefuse(what, path, 'a ${st.name} object', v);`);
  const usesNamed = st.nodes.some((n) => n.shape !== 'stype' && n.shape !== 'next');
  if (usesNamed) out.push('    const named = path !== null;');
  const memberPath = (name: string) => `(named ? \`\${path}.${name}\` : null)`;
  if (st.isUnion) {
    const members = st.nodes.map((n) => n.name);
    // Its one own enumerable member, found without Object.keys (an array a call).
    out.push(`    const key = soleKey(v);`);
    out.push(`    if (${members.map((name) => `key !== '${name}'`).join(' && ')}) this.encodeRefuse(what, path, 'one member of ${st.name} (${members.join(', ')})', v);`);
    out.push('    let n = 0;');
    for (const node of st.nodes) {
      out.push(`    if ('${node.name}' in v) {`);
      out.push(...tsCheckNodes(m, [node], (name) => `v.${name}`, memberPath, '      '));
      out.push('    }');
    }
    out.push(`    return ${st.words};`);
  } else {
    out.push('    let n = 0;');
    out.push(...tsCheckNodes(m, st.nodes, (name) => `v.${name}`, memberPath, '    '));
    out.push('    return n;');
  }
  out.push('  }');
  out.push('');
  const empty = st.nodes.every((n) => n.shape === 'stype' || n.shape === 'next');
  out.push(`  #w${st.name}(${empty ? '_u' : 'u'}: Uint32Array, p: number, ${empty ? '_v' : 'v'}: ${t}): number {`);
  if (st.isUnion) {
    out.push('    const start = p;');
    st.nodes.forEach((node, i) => {
      out.push(`    ${i === 0 ? '' : 'else '}if ('${node.name}' in v) {`);
      out.push(...tsWriteNodes(m, [node], (name) => `v.${name}`, '      '));
      out.push('    }');
    });
    out.push(`    u.fill(0, p, start + ${st.words});`);
    out.push(`    return start + ${st.words};`);
  } else {
    out.push(...tsWriteNodes(m, st.nodes, (name) => `v.${name}`, '    '));
    out.push('    return p;');
  }
  out.push('  }');
  out.push('');
  return out;
}

function typeDecls(m: EncodedModel): string[] {
  const out: string[] = [];
  for (const st of m.structs) {
    const nodes = st.nodes.filter((n) => n.shape !== 'stype' && n.shape !== 'next');
    if (st.isUnion) {
      out.push(`/** ${st.name} in an encoded command: one of its members. */`);
      out.push(`export type Encoded${st.name} = ${nodes.map((n) => `{ readonly ${n.name}: ${nodeTs(m, n, nodes)} }`).join(' | ')};`);
    } else {
      out.push(`/** ${st.name} in an encoded command (sType and pNext are the encoder's: no extension structures; handles are table slots). */`);
      out.push(`export interface Encoded${st.name} {`);
      for (const n of nodes) out.push(`  readonly ${n.name}${nullable(n, nodes) ? '?' : ''}: ${nodeTs(m, n, nodes)};`);
      out.push('}');
    }
    out.push('');
  }
  return out;
}

/** The walked layouts read back (the typed API's state walk reads the stream it checks with this). */
const DECODER = `function isU64(v: unknown): v is number | bigint {
  return typeof v === 'bigint' ? v >= 0n && v <= 0xffff_ffff_ffff_ffffn : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function readU64(u: Uint32Array, at: number): number | bigint {
  const high = u[at + 1]!;
  return high < 0x20_0000 ? high * TWO_32 + u[at]! : (BigInt(high) << 32n) | BigInt(u[at]!);
}

/** A walked value read back: numbers, booleans, bigints, slot numbers (null for none), arrays, objects; bytes as their word range. */
export type DecodedValue = number | bigint | boolean | null | { readonly words: readonly [number, number] } | readonly DecodedValue[] | { readonly [name: string]: DecodedValue };

function decodeElem(node: EncodedNodeInfo, u: Uint32Array, at: { p: number }): DecodedValue {
  switch (node.elem) {
    case 'U64': {
      const v = readU64(u, at.p);
      at.p += 2;
      return v;
    }
    case 'I32':
      return u[at.p++]! | 0;
    case 'F32':
      F32_BITS[0] = u[at.p++]!;
      return F32[0]!;
    case 'Bool32':
      return u[at.p++] === 1;
    case 'Slot': {
      const v = u[at.p++]!;
      return v === 0xffff_ffff ? null : v;
    }
    case 'Struct': {
      const s = ENCODED_STRUCTS[node.struct!]!;
      if (s.isUnion) {
        const words = Array.from(u.subarray(at.p, at.p + s.words));
        at.p += s.words;
        return words;
      }
      return decodeNodes(s.nodes, u, at);
    }
    default:
      return u[at.p++]!;
  }
}

function decodeNodes(nodes: readonly EncodedNodeInfo[], u: Uint32Array, at: { p: number }): { [name: string]: DecodedValue } {
  const out: { [name: string]: DecodedValue } = {};
  for (const n of nodes) {
    switch (n.shape) {
      case 'value':
        out[n.name] = decodeElem(n, u, at);
        break;
      case 'count':
        out[n.name] = n.elem === 'U64' ? decodeElem(n, u, at) : u[at.p++]!;
        break;
      case 'fixed': {
        const all: DecodedValue[] = [];
        for (let i = 0; i < n.fixed!; i++) all.push(decodeElem(n, u, at));
        out[n.name] = all;
        break;
      }
      case 'pointer':
        out[n.name] = n.presence && u[at.p++] !== 1 ? null : decodeElem(n, u, at);
        break;
      case 'array': {
        if (n.presence && u[at.p++] !== 1) {
          out[n.name] = null;
          break;
        }
        const count = Number(out[n.count!] as number | bigint);
        if (n.elem === 'Bytes') {
          out[n.name] = { words: [at.p, at.p + count / 4] };
          at.p += count / 4;
          break;
        }
        const all: DecodedValue[] = [];
        for (let i = 0; i < count; i++) all.push(decodeElem(n, u, at));
        out[n.name] = all;
        break;
      }
    }
  }
  return out;
}

// Per walked command, the words it was last read back from, where they started, and what they read
// as: a frame that records the same command at the same place again reads it back once. (What a
// command reads as depends on its own words and their place alone, a byte array being its word range.)
const DECODE_CACHE: ({ readonly at: number; readonly words: Uint32Array; readonly args: { readonly [name: string]: DecodedValue } } | undefined)[] = [];

/**
 * Reads back the arguments of walked command ENCODED_COMMANDS[index] written at u[at] (its first
 * argument word, after its header): by name, as the generated method took them (a union as its words,
 * a byte array as its word range). The stream must have passed the native check. The same object
 * comes back for the same words at the same place: treat it as read-only.
 */
export function decodeWalked(index: number, u: Uint32Array, at: number): { readonly [name: string]: DecodedValue } {
  const length = (u[at - 1]! >>> 16) - 1; // the argument words, as the header says
  const last = DECODE_CACHE[index];
  if (last !== undefined && last.at === at && last.words.length === length) {
    const words = last.words;
    let i = 0;
    while (i < length && words[i] === u[at + i]) i++;
    if (i === length) return last.args;
  }
  const cursor = { p: at };
  const args = decodeNodes(ENCODED_COMMANDS[index]!.nodes, u, cursor);
  // Kept only when the layout took exactly the header's words (then nothing else went into it).
  if (cursor.p === at + length) DECODE_CACHE[index] = { at, words: u.slice(at, at + length), args };
  return args;
}
`;

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
  const runs = RUN_COMMANDS.map((name) => {
    const run = m.commands.find((c) => c.name === name);
    if (run === undefined || run.walked || !run.args.every((a) => a.kind === 'U32' || a.kind === 'I32')) throw new Error(`the run command ${name} must be a flat command of numbers`);
    return `0x${(run.opcode | (run.words << 16)).toString(16)}`;
  });
  out.push(`/** The whole header words of ${RUN_COMMANDS.join(' and ')}: the run commands, which the encoder's end() walk does not visit one by one (their methods commit with encodeCommitRun and encodeCommitRunOf). */`);
  out.push(`export const ENCODED_RUN_HEADERS = [${runs.join(', ')}] as const;`);
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
  out.push('  /** A flat command\'s arguments after the command buffer: name, kind, the word it starts at, and the mask of slot kinds (bit k: HANDLE_KIND k) or the enum it takes. */');
  out.push('  readonly args: readonly { readonly name: string; readonly kind: EncodedArgKind; readonly word: number; readonly slotMask?: number; readonly enum?: string }[];');
  out.push('  /** Walked (arrays, structures, optional pointers; `words` 0 when of variable length): its parameters\' layout. */');
  out.push('  readonly walked: boolean;');
  out.push('  /** 0, or what it does to the render pass scope: 1/2 opens dynamic rendering / a render pass, 3/4 closes it, 5 needs a render pass. */');
  out.push('  readonly scope: number;');
  out.push('  readonly nodes: readonly EncodedNodeInfo[];');
  out.push('}');
  out.push('');
  out.push("/** One parameter or member of a walked layout (native/generated/vulkan_encoder.h describes the layout). */");
  out.push('export interface EncodedNodeInfo {');
  out.push('  readonly name: string;');
  out.push("  readonly shape: 'value' | 'fixed' | 'count' | 'array' | 'pointer';");
  out.push("  readonly elem: 'U32' | 'I32' | 'F32' | 'Bool32' | 'U64' | 'Enum' | 'Slot' | 'Struct' | 'Bytes';");
  out.push('  /** fixed: its length; array: its count\'s name; presence: a word 0/1 first; Struct: ENCODED_STRUCTS index; Slot: the kinds mask; Enum: its name. */');
  out.push('  readonly fixed?: number;');
  out.push('  readonly count?: string;');
  out.push('  readonly presence?: boolean;');
  out.push('  readonly struct?: number;');
  out.push('  readonly slotMask?: number;');
  out.push('  readonly optional?: boolean;');
  out.push('  readonly enum?: string;');
  out.push('  /** count: the registry lets it be 0. */');
  out.push('  readonly mayBeZero?: boolean;');
  out.push('}');
  out.push('');
  out.push('/** The structures and unions of the walked layouts (a union: `words`, its largest member\'s; `minWords`: the fewest an element takes). */');
  out.push('export const ENCODED_STRUCTS: readonly { readonly name: string; readonly isUnion: boolean; readonly words: number; readonly minWords: number; readonly nodes: readonly EncodedNodeInfo[] }[] = [');
  for (const st of m.structs) out.push(`  { name: '${st.name}', isUnion: ${st.isUnion}, words: ${st.words}, minWords: ${minWords(m, st)}, nodes: [${st.nodes.filter((n) => n.shape !== 'stype' && n.shape !== 'next').map((n) => nodeInfo(m, n)).join(', ')}] },`);
  out.push('];');
  out.push('');
  out.push('/** Every generated opcode, at index `opcode - ENCODED_OPCODE_BASE`. */');
  out.push('export const ENCODED_COMMANDS: readonly EncodedCommandInfo[] = [');
  for (const c of m.commands) {
    const args = c.args.map((a) => {
      const extra = a.kind === 'Slot' ? `, slotMask: 0x${a.check.toString(16)}` : a.kind === 'Enum' ? `, enum: '${m.enums[a.check]?.name}'` : '';
      return `{ name: '${a.name}', kind: '${a.kind}', word: ${a.word}${extra} }`;
    });
    out.push(`  { name: '${c.name}', opcode: 0x${c.opcode.toString(16)}, words: ${c.words}, renderPass: '${c.renderPass}', args: [${args.join(', ')}], walked: ${c.walked}, scope: ${c.scope}, nodes: [${c.nodes.map((n) => nodeInfo(m, n)).join(', ')}] },`);
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
  out.push('function writeU64(u: Uint32Array, at: number, v: number | bigint): number {');
  out.push("  if (typeof v === 'bigint') {");
  out.push('    u[at] = Number(v & 0xffff_ffffn);');
  out.push('    u[at + 1] = Number(v >> 32n);');
  out.push('  } else {');
  out.push('    u[at] = v % TWO_32;');
  out.push('    u[at + 1] = Math.floor(v / TWO_32);');
  out.push('  }');
  out.push('  return at + 2;');
  out.push('}');
  out.push('');
  out.push('/** What encodeRefuse and encodeSlot throw for a null name: a walked method\'s checks then run again with names, to refuse with them. */');
  out.push("export const ENCODED_UNNAMED: object = Object.freeze({ reason: 'an argument refused in the checks without names' });");
  out.push('');
  out.push('/** The one own enumerable key of `v` (a union\'s member), else undefined: no array, as Object.keys would make. */');
  out.push('function soleKey(v: object): string | undefined {');
  out.push('  let key: string | undefined;');
  out.push('  for (const k in v) {');
  out.push('    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;');
  out.push('    if (key !== undefined) return undefined;');
  out.push('    key = k;');
  out.push('  }');
  out.push('  return key;');
  out.push('}');
  out.push('');
  out.push('const F32 = new Float32Array(1);');
  out.push('const F32_BITS = new Uint32Array(F32.buffer);');
  out.push('const TWO_32 = 0x1_0000_0000;');
  out.push('');
  out.push('/**');
  out.push(' * The generated recording methods. A subclass provides the stream: `encodeRoom` checks that it');
  out.push(' * records and makes room for a command of `words` words and returns the stream\'s words (the');
  out.push(' * command goes at `encodeAt`), `encodeCommit` says it was written (`encodeCommitRun` and');
  out.push(' * `encodeCommitRunOf` for the run commands of ENCODED_RUN_HEADERS, which end() does not visit one by one), `encodeSlot` refuses a table');
  out.push(' * index that does not hold the kind of object a handle argument needs, `encodeRefuse` an argument.');
  out.push(' */');
  out.push('export abstract class EncodedVulkanCommands {');
  out.push('  protected abstract encodeRoom(what: string, words: number): Uint32Array;');
  out.push('  protected abstract get encodeAt(): number;');
  out.push('  protected abstract encodeCommit(words: number): void;');
  out.push('  protected abstract encodeCommitRun(words: number): void;');
  out.push('  /** A run command other than the first of ENCODED_RUN_HEADERS (`run`: its index there) was written. */');
  out.push('  protected abstract encodeCommitRunOf(words: number, run: number): void;');
  out.push('  /** Refuses a table index that does not hold a kind of `mask`: `name` names it, or is null (then it throws ENCODED_UNNAMED). */');
  out.push('  protected abstract encodeSlot(what: string, name: string | null, index: number, mask: number): void;');
  out.push('  /** Copies `data`\'s bytes (a whole number of words) to the stream at word `at`. */');
  out.push('  protected abstract encodeBytes(at: number, data: ArrayBufferView): void;');
  out.push('  /** Refuses argument `name` (null: throws ENCODED_UNNAMED, and the walked method checks again with names). */');
  out.push('  protected abstract encodeRefuse(what: string, name: string | null, needs: string, got: unknown): never;');
  out.push('');
  m.commands.forEach((c, i) => {
    if (c.walked) {
      out.push(...walkedMethod(m, c));
      return;
    }
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
    const run = (RUN_COMMANDS as readonly string[]).indexOf(c.name);
    out.push(run === 0 ? `    this.encodeCommitRun(${c.words});` : run > 0 ? `    this.encodeCommitRunOf(${c.words}, ${run});` : `    this.encodeCommit(${c.words});`);
    out.push('    return this;');
    out.push('  }');
    out.push('');
  });
  for (const st of m.structs) out.push(...structMethods(m, st));
  out.push('}');
  out.push('');
  out.push(...typeDecls(m));
  out.push(DECODER);
  return out.join('\n');
}
