// The encoded-command decoder (native/vulkan/loader/command_stream.cc), fuzzed through the
// addon's validate(): whatever the bytes, a stream is either accepted with its command count or
// refused with a CommandStreamError naming the command at fault and why — never a crash, never
// another error. Streams are built here from the format (native/vulkan/loader/command_stream.h), not by
// the CommandEncoder, so every malformation can be written. Seeded: a failure reproduces. The same
// cases also run through the decoder built with AddressSanitizer and UndefinedBehaviorSanitizer
// (test/native/command_stream_fuzz), which replays the accepted ones into reading fake commands.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';
import { findFirst, skipOrFail } from '../helpers/system.js';
import { COMMAND_OPCODE, CommandStreamError, HANDLE_KIND, validateCommandStream, type CommandStreamRefusal } from '../../lib/vulkan/api/command-encoder.js';
import { ENCODED_COMMANDS, ENCODED_ENUMS, ENCODED_OPCODE_BASE, ENCODED_STRUCTS, type EncodedCommandInfo, type EncodedNodeInfo } from '../../lib/generated/vulkan-encoder.js';

const SEED = 14;
const REASONS: readonly CommandStreamRefusal[] = ['unaligned', 'unknown-opcode', 'truncated', 'bad-length', 'count-past-end', 'misaligned', 'handle-index', 'handle-kind', 'bad-value', 'table-mismatch', 'render-pass-scope'];

// The table every stream here is checked against: one slot of each kind, an empty slot, and more.
const K = HANDLE_KIND;
const KINDS = new Uint8Array([K.pipeline, K.pipelineLayout, K.descriptorSet, K.buffer, K.image, 0, K.buffer, K.pipelineLayout, K.graphicsPipeline, K.imageView, K.renderPass, K.framebuffer, K.imageView, K.queryPool, K.event]);
const slotsOf = (kind: number) => [...KINDS.keys()].filter((i) => KINDS[i] === kind);
// The VkImageLayout values the typed API takes (IMAGE_LAYOUTS in lib/vulkan/api/image.ts), depth ones included.
const LAYOUTS = [0, 1, 2, 3, 4, 5, 6, 7, 1000241000, 1000241001];

const header = (opcode: number, words: number) => (opcode | (words << 16)) >>> 0;
const u32 = fc.integer({ min: 0, max: 0xffff_ffff });
const slot = (kind: number) => fc.constantFrom(...slotsOf(kind));
const slotsOfMask = (mask: number) => [...KINDS.keys()].filter((i) => (mask & (1 << KINDS[i]!)) !== 0);
const NULL_SLOT = 0xffff_ffff;

/** One well-formed command, as words. */
const command: fc.Arbitrary<number[]> = fc.oneof(
  slot(K.pipeline).map((p) => [header(COMMAND_OPCODE.bindPipeline, 2), p]),
  fc.tuple(slot(K.pipelineLayout), slot(K.descriptorSet), u32).map(([l, s, first]) => [header(COMMAND_OPCODE.bindDescriptorSet, 4), l, s, first]),
  fc
    .tuple(slot(K.pipelineLayout), u32, fc.nat(64), fc.array(u32, { minLength: 1, maxLength: 32 }))
    .map(([l, stages, offsetWords, data]) => [header(COMMAND_OPCODE.pushConstants, 5 + data.length), l, stages, offsetWords * 4, data.length * 4, ...data]),
  fc.tuple(u32, u32, u32).map((xyz) => [header(COMMAND_OPCODE.dispatch, 4), ...xyz]),
  fc.tuple(u32, u32, u32, u32).map((masks) => [header(COMMAND_OPCODE.pipelineBarrier, 5), ...masks]),
  fc.tuple(slot(K.buffer), slot(K.buffer), fc.array(u32, { minLength: 6, maxLength: 6 })).map(([s, d, sizes]) => [header(COMMAND_OPCODE.copyBuffer, 9), s, d, ...sizes]),
  fc
    .tuple(slot(K.image), fc.constantFrom(...LAYOUTS), fc.constantFrom(...LAYOUTS), fc.array(u32, { minLength: 6, maxLength: 6 }))
    .map(([i, from, to, rest]) => [header(COMMAND_OPCODE.imageBarrier, 10), i, from, to, ...rest]),
  fc.tuple(slot(K.image), fc.constantFrom(1, 7), fc.array(u32, { minLength: 6, maxLength: 6 })).map(([i, layout, rest]) => [header(COMMAND_OPCODE.clearColorImage, 9), i, layout, ...rest]),
  generatedCommand(),
);

/** A small deterministic generator (a walked command's values depend on its counts: built from one seed). */
function rng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) >>> 0;
  };
}

/** The words of a walked layout's well-formed values (native/generated/vulkan_encoder.h's layout). */
function walkedWords(nodes: readonly EncodedNodeInfo[], r: (n: number) => number, out: number[]): void {
  const counts = new Map<string, number>();
  const elem = (n: EncodedNodeInfo): void => {
    switch (n.elem) {
      case 'U64':
        out.push(r(0x1_0000_0000), r(4));
        return;
      case 'Bool32':
        out.push(r(2));
        return;
      case 'Enum': {
        const values = ENCODED_ENUMS[n.enum!]!;
        out.push(values[r(values.length)]! >>> 0);
        return;
      }
      case 'Slot': {
        const slots = slotsOfMask(n.slotMask!);
        out.push(n.optional && r(4) === 0 ? NULL_SLOT : slots[r(slots.length)]!);
        return;
      }
      case 'Struct': {
        const s = ENCODED_STRUCTS[n.struct!]!;
        if (s.isUnion) for (let i = 0; i < s.words; i++) out.push(r(0x1_0000_0000));
        else walkedWords(s.nodes, r, out);
        return;
      }
      default:
        out.push(r(0x1_0000_0000));
    }
  };
  for (const n of nodes) {
    switch (n.shape) {
      case 'value':
        elem(n);
        break;
      case 'fixed':
        for (let i = 0; i < n.fixed!; i++) elem(n);
        break;
      case 'pointer':
        if (n.presence) {
          const there = r(2);
          out.push(there);
          if (there === 1) elem(n);
        } else {
          elem(n);
        }
        break;
      case 'count': {
        const bytes = nodes.some((a) => a.count === n.name && a.elem === 'Bytes');
        const c = (n.mayBeZero ? r(3) : 1 + r(2)) * (bytes ? 4 : 1);
        counts.set(n.name, c);
        out.push(c);
        if (n.elem === 'U64') out.push(0);
        break;
      }
      case 'array': {
        if (n.presence) {
          const there = r(2);
          out.push(there);
          if (there === 0) break;
        }
        const c = counts.get(n.count!)!;
        if (n.elem === 'Bytes') for (let i = 0; i < c / 4; i++) out.push(r(0x1_0000_0000));
        else for (let i = 0; i < c; i++) elem(n);
        break;
      }
    }
  }
}

/** One well-formed generated command (native/generated/vulkan_encoder.h), flat or walked, from those `pick` takes. */
function generatedOf(pick: (c: EncodedCommandInfo) => boolean): fc.Arbitrary<number[]> {
  const argWords = (a: EncodedCommandInfo['args'][number]): fc.Arbitrary<number[]> => {
    if (a.kind === 'Slot') return fc.constantFrom(...slotsOfMask(a.slotMask!)).map((v) => [v]);
    if (a.kind === 'Bool32') return fc.constantFrom(0, 1).map((v) => [v]);
    if (a.kind === 'Enum') return fc.constantFrom(...ENCODED_ENUMS[a.enum!]!).map((v) => [v >>> 0]);
    if (a.kind === 'U64') return fc.tuple(u32, u32).map(([lo, hi]) => [lo, hi]);
    return u32.map((v) => [v]);
  };
  return fc.constantFrom(...ENCODED_COMMANDS.filter(pick)).chain((c) => {
    if (!c.walked) return fc.tuple(...c.args.map(argWords)).map((args) => [header(c.opcode, c.words), ...args.flat()]);
    return fc.nat().map((seed) => {
      const args: number[] = [];
      walkedWords(c.nodes, rng(seed), args);
      return [header(c.opcode, 1 + args.length), ...args];
    });
  });
}

/** Commands a stream may hold outside a render pass (no begin, which opens one). */
function generatedCommand(): fc.Arbitrary<number[]> {
  return generatedOf((c) => c.renderPass !== 'inside' && c.scope === 0);
}

/** A render pass instance: a begin, commands allowed inside, the matching end (each an item: one command). */
const renderBlock: fc.Arbitrary<number[][]> = fc.constantFrom(1, 2).chain((kind) =>
  fc.tuple(
    generatedOf((c) => c.scope === kind),
    fc.array(generatedOf((c) => c.renderPass !== 'outside' && (c.scope === 0 || (kind === 2 && c.scope === 5))), { maxLength: 6 }),
    generatedOf((c) => c.scope === kind + 2),
  ).map(([begin, inside, end]) => [begin, ...inside, end]),
);
const commands = fc.array(fc.oneof({ weight: 4, arbitrary: command.map((c) => [c]) }, { weight: 1, arbitrary: renderBlock }), { minLength: 1, maxLength: 24 }).map((groups) => groups.flat());

/** The command (index) that left a render pass or dynamic rendering open after the first `n` commands, or -1. */
function openerBefore(cmds: readonly number[][], n: number): number {
  let opener = -1;
  for (let i = 0; i < n; i++) {
    const c = ENCODED_COMMANDS[(cmds[i]![0]! & 0xffff) - ENCODED_OPCODE_BASE];
    if (c?.scope === 1 || c?.scope === 2) opener = i;
    if (c?.scope === 3 || c?.scope === 4) opener = -1;
  }
  return opener;
}

function stream(words: readonly number[]): ArrayBuffer {
  return new Uint32Array(words).buffer;
}

/** validate()'s answer: the count, or the refusal's fields (anything else fails the property). */
function check(buffer: ArrayBuffer, byteLength: number, kinds = KINDS): number | CommandStreamError {
  try {
    return validateCommandStream(buffer, byteLength, kinds);
  } catch (error) {
    expect(error).toBeInstanceOf(CommandStreamError);
    const e = error as CommandStreamError;
    expect(REASONS).toContain(e.reason);
    expect(e.byteOffset % 4).toBe(0);
    expect(e.byteOffset).toBeLessThanOrEqual(Math.max(0, byteLength - 1));
    expect(e.result).toBe('VK_ERROR_VALIDATION_FAILED');
    return e;
  }
}

function refusal(words: readonly number[], byteLength = words.length * 4): { reason: string; byteOffset: number; commandIndex: number; opcode: number } {
  const r = check(stream(words), byteLength);
  if (typeof r === 'number') throw new Error(`accepted ${r} commands`);
  return { reason: r.reason, byteOffset: r.byteOffset, commandIndex: r.commandIndex, opcode: r.opcode };
}

// The format of native/vulkan/loader/command_stream.h written out again, as simply as it reads there:
// what the decoder must answer for any stream. (The decoder itself takes a fast path for the
// usual well-formed commands and a full check for the rest; this is neither.)
type Verdict = number | { reason: CommandStreamRefusal; byteOffset: number; commandIndex: number; opcode: number };
const SHAPES: Readonly<Record<number, readonly [length: number, slots: readonly number[]]>> = {
  [COMMAND_OPCODE.bindPipeline]: [2, [K.pipeline]],
  [COMMAND_OPCODE.bindDescriptorSet]: [4, [K.pipelineLayout, K.descriptorSet]],
  [COMMAND_OPCODE.pushConstants]: [5, [K.pipelineLayout]],
  [COMMAND_OPCODE.dispatch]: [4, []],
  [COMMAND_OPCODE.pipelineBarrier]: [5, []],
  [COMMAND_OPCODE.copyBuffer]: [9, [K.buffer, K.buffer]],
  [COMMAND_OPCODE.imageBarrier]: [10, [K.image]],
  [COMMAND_OPCODE.clearColorImage]: [9, [K.image]],
};
function referenceVerdict(words: readonly number[], byteLength: number, kinds: Uint8Array): Verdict {
  let at = 0;
  let index = 0;
  let open = 0; // 1 dynamic rendering, 2 a render pass
  let opener = { at: 0, index: 0, opcode: 0 };
  const refuse = (reason: CommandStreamRefusal, opcode: number): Verdict => ({ reason, byteOffset: at * 4, commandIndex: index, opcode });
  if (byteLength % 4 !== 0) return refuse('unaligned', 0);
  const end = byteLength / 4;
  while (at < end) {
    const opcode = words[at]! & 0xffff;
    const length = words[at]! >>> 16;
    const arg = (k: number) => words[at + 1 + k]!;
    const generated = opcode >= ENCODED_OPCODE_BASE ? ENCODED_COMMANDS[opcode - ENCODED_OPCODE_BASE] : undefined;
    if (generated !== undefined) {
      // A generated command: its length, then each argument in order as the registry checks it, then its render pass scope.
      if (length === 0 || length > end - at) return refuse('truncated', opcode);
      if (generated.words !== 0 && length !== generated.words) return refuse('bad-length', opcode);
      if (generated.walked) {
        const fault = walkReference(generated.nodes, words, at + 1, at + length, kinds);
        if (fault !== null) return refuse(fault, opcode);
      }
      for (const a of generated.args) {
        const v = arg(a.word);
        if (a.kind === 'Slot' && v >= kinds.length) return refuse('handle-index', opcode);
        if (a.kind === 'Slot' && (a.slotMask! & (1 << kinds[v]!)) === 0) return refuse('handle-kind', opcode);
        if (a.kind === 'Bool32' && v > 1) return refuse('bad-value', opcode);
        if (a.kind === 'Enum' && !ENCODED_ENUMS[a.enum!]!.includes(v | 0)) return refuse('bad-value', opcode);
      }
      // The scope: a draw only inside, a copy only outside, an end only of what is open (Vulkan spec, 'Render Pass', 'Dynamic Rendering').
      if (generated.renderPass === 'inside' && open === 0) return refuse('render-pass-scope', opcode);
      if (generated.renderPass === 'outside' && open !== 0) return refuse('render-pass-scope', opcode);
      if ((generated.scope === 3 || generated.scope === 4) && open !== generated.scope - 2) return refuse('render-pass-scope', opcode);
      if (generated.scope === 5 && open !== 2) return refuse('render-pass-scope', opcode);
      if (generated.scope === 1 || generated.scope === 2) {
        open = generated.scope;
        opener = { at, index, opcode };
      }
      if (generated.scope === 3 || generated.scope === 4) open = 0;
      at += length;
      index++;
      continue;
    }
    const shape = SHAPES[opcode];
    if (shape === undefined) return refuse('unknown-opcode', opcode);
    if (length === 0 || length > end - at) return refuse('truncated', opcode);
    if (opcode === COMMAND_OPCODE.pushConstants) {
      if (length < 5) return refuse('bad-length', opcode);
      const [offset, size] = [arg(2), arg(3)];
      if (size === 0 || size % 4 !== 0 || offset % 4 !== 0) return refuse('misaligned', opcode);
      if (size / 4 > length - 5) return refuse('count-past-end', opcode);
      if (size / 4 !== length - 5) return refuse('bad-length', opcode);
    } else if (length !== shape[0]) {
      return refuse('bad-length', opcode);
    }
    for (const [k, kind] of shape[1].entries()) {
      if (arg(k) >= kinds.length) return refuse('handle-index', opcode);
      if (kinds[arg(k)] !== kind) return refuse('handle-kind', opcode);
    }
    if (opcode === COMMAND_OPCODE.imageBarrier && !(LAYOUTS.includes(arg(1)) && LAYOUTS.includes(arg(2)))) return refuse('bad-value', opcode);
    if (opcode === COMMAND_OPCODE.clearColorImage && arg(1) !== 1 && arg(1) !== 7) return refuse('bad-value', opcode);
    const outsideOnly: number[] = [COMMAND_OPCODE.dispatch, COMMAND_OPCODE.copyBuffer, COMMAND_OPCODE.clearColorImage];
    if (open !== 0 && outsideOnly.includes(opcode)) return refuse('render-pass-scope', opcode);
    at += length;
    index++;
  }
  // A stream may not end inside a render pass or dynamic rendering: refused at the command that opened it.
  if (open !== 0) return { reason: 'render-pass-scope', byteOffset: opener.at * 4, commandIndex: opener.index, opcode: opener.opcode };
  return index;
}

/**
 * A walked command's arguments (words [at, end)) checked as the layout says, each value in order:
 * its words there (count-past-end), a VkBool32 0 or 1, an enum's values, a slot of a kind the mask
 * takes (or the null slot where optional), a count of 0 only where the registry allows it, a byte
 * array of whole words, a presence word 0 or 1; then every word taken (bad-length). null: well-formed.
 */
function walkReference(nodes: readonly EncodedNodeInfo[], words: readonly number[], at: number, end: number, kinds: Uint8Array): CommandStreamRefusal | null {
  let p = at;
  const walk = (list: readonly EncodedNodeInfo[]): CommandStreamRefusal | null => {
    const counts = new Map<string, number>();
    const elem = (n: EncodedNodeInfo): CommandStreamRefusal | null => {
      if (n.elem === 'Struct') {
        const s = ENCODED_STRUCTS[n.struct!]!;
        if (!s.isUnion) return walk(s.nodes);
        if (end - p < s.words) return 'count-past-end';
        p += s.words;
        return null;
      }
      const w = n.elem === 'U64' ? 2 : 1;
      if (end - p < w) return 'count-past-end';
      const v = words[p]!;
      if (n.elem === 'Bool32' && v > 1) return 'bad-value';
      if (n.elem === 'Enum' && !ENCODED_ENUMS[n.enum!]!.includes(v | 0)) return 'bad-value';
      if (n.elem === 'Slot' && !(n.optional && v === NULL_SLOT)) {
        if (v >= kinds.length) return 'handle-index';
        if ((n.slotMask! & (1 << kinds[v]!)) === 0 || kinds[v]! >= 32) return 'handle-kind';
      }
      p += w;
      return null;
    };
    const presence = (): CommandStreamRefusal | boolean => {
      if (end - p < 1) return 'count-past-end';
      if (words[p]! > 1) return 'bad-value';
      return words[p++] === 1;
    };
    for (const n of list) {
      let bad: CommandStreamRefusal | null = null;
      switch (n.shape) {
        case 'value':
          bad = elem(n);
          break;
        case 'fixed':
          for (let i = 0; i < n.fixed! && bad === null; i++) bad = elem(n);
          break;
        case 'pointer': {
          const there = n.presence ? presence() : true;
          if (typeof there === 'string') return there;
          if (there) bad = elem(n);
          break;
        }
        case 'count': {
          const w = n.elem === 'U64' ? 2 : 1;
          if (end - p < w) return 'count-past-end';
          const c = w === 2 ? words[p]! + words[p + 1]! * 0x1_0000_0000 : words[p]!;
          p += w;
          if (c === 0 && !n.mayBeZero) return 'bad-value';
          counts.set(n.name, c);
          break;
        }
        case 'array': {
          const there = n.presence ? presence() : true;
          if (typeof there === 'string') return there;
          if (!there) break;
          const c = counts.get(n.count!)!;
          if (n.elem === 'Bytes') {
            if (c % 4 !== 0) return 'misaligned';
            if (c / 4 > end - p) return 'count-past-end';
            p += c / 4;
            break;
          }
          const min = n.elem === 'Struct' ? ENCODED_STRUCTS[n.struct!]!.minWords : n.elem === 'U64' ? 2 : 1;
          if (c > Math.floor((end - p) / min)) return 'count-past-end';
          for (let i = 0; i < c && bad === null; i++) bad = elem(n);
          break;
        }
      }
      if (bad !== null) return bad;
    }
    return null;
  };
  const fault = walk(nodes);
  if (fault !== null) return fault;
  return p === end ? null : 'bad-length';
}

describe('the encoded-command decoder', () => {
  it('well-formed streams of every command are accepted with their command count', () => {
    fc.assert(
      fc.property(commands, (cmds) => {
        expect(check(stream(cmds.flat()), cmds.flat().length * 4)).toBe(cmds.length);
      }),
      { seed: SEED, numRuns: 400 },
    );
    expect(check(new ArrayBuffer(0), 0)).toBe(0);
  });

  it('NODE-2: each kind of malformation is refused with its reason, the byte offset and index of the command at fault', () => {
    const ok = [header(COMMAND_OPCODE.dispatch, 4), 1, 1, 1]; // 16 bytes, command 0
    const at1 = { byteOffset: 16, commandIndex: 1 };
    expect(refusal([...ok, header(0, 1)])).toMatchObject({ reason: 'unknown-opcode', ...at1, opcode: 0 });
    expect(refusal([...ok, header(9, 2), 0])).toMatchObject({ reason: 'unknown-opcode', ...at1, opcode: 9 });
    expect(refusal([...ok, 0xffff_ffff])).toMatchObject({ reason: 'unknown-opcode', ...at1, opcode: 0xffff });
    expect(refusal([...ok, header(COMMAND_OPCODE.dispatch, 4), 1, 1])).toMatchObject({ reason: 'truncated', ...at1 }); // a word short
    expect(refusal([...ok, header(COMMAND_OPCODE.dispatch, 0)])).toMatchObject({ reason: 'truncated', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.dispatch, 3), 1, 1])).toMatchObject({ reason: 'bad-length', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.bindPipeline, 3), 0, 0])).toMatchObject({ reason: 'bad-length', ...at1 });
    // Push constants: a size past the command's end, a size the words do not fill, and alignment.
    expect(refusal([...ok, header(COMMAND_OPCODE.pushConstants, 6), 1, 0x20, 0, 8, 7])).toMatchObject({ reason: 'count-past-end', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.pushConstants, 7), 1, 0x20, 0, 4, 7, 7])).toMatchObject({ reason: 'bad-length', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.pushConstants, 4), 1, 0x20, 0])).toMatchObject({ reason: 'bad-length', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.pushConstants, 6), 1, 0x20, 2, 4, 7])).toMatchObject({ reason: 'misaligned', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.pushConstants, 6), 1, 0x20, 0, 3, 7])).toMatchObject({ reason: 'misaligned', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.pushConstants, 5), 1, 0x20, 0, 0])).toMatchObject({ reason: 'misaligned', ...at1 });
    // Handles: past the table, an empty slot, another kind.
    expect(refusal([...ok, header(COMMAND_OPCODE.bindPipeline, 2), KINDS.length])).toMatchObject({ reason: 'handle-index', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.bindPipeline, 2), 0xffff_ffff])).toMatchObject({ reason: 'handle-index', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.copyBuffer, 9), 3, 5, 0, 0, 0, 0, 4, 0])).toMatchObject({ reason: 'handle-kind', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.bindDescriptorSet, 4), 1, 1, 0])).toMatchObject({ reason: 'handle-kind', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.pushConstants, 6), 0, 0x20, 0, 4, 7])).toMatchObject({ reason: 'handle-kind', ...at1 });
    // Image layouts the typed API does not take.
    expect(refusal([...ok, header(COMMAND_OPCODE.imageBarrier, 10), 4, 8, 1, 0, 0, 0, 0, 0, 1])).toMatchObject({ reason: 'bad-value', ...at1 });
    expect(refusal([...ok, header(COMMAND_OPCODE.clearColorImage, 9), 4, 2, 0, 0, 0, 0, 0, 1])).toMatchObject({ reason: 'bad-value', ...at1 });
    // A byte length that is not whole words.
    expect(refusal(ok, 15)).toMatchObject({ reason: 'unaligned', byteOffset: 0 });
    // The same stream against an empty table: the handle is past its end.
    expect(check(stream([header(COMMAND_OPCODE.bindPipeline, 2), 0]), 8, new Uint8Array(0))).toMatchObject({ reason: 'handle-index' });
  });

  it('(VK-CE-6) walked commands: counts, arrays, structures and optional pointers checked exactly; the render pass scope opened, closed and kept', () => {
    const op = (name: string) => ENCODED_COMMANDS.find((c) => c.name === name)!.opcode;
    const cmd = (name: string, ...args: number[]) => [header(op(name), 1 + args.length), ...args];
    // VkRenderingAttachmentInfo: imageView, imageLayout, resolveMode, resolveImageView, resolveImageLayout, loadOp, storeOp, clearValue (4 words).
    const attachment = (view: number) => [view, 2, 0, NULL_SLOT, 0, 1, 0, 0, 0, 0, 0];
    const begin = (view = 9) => cmd('vkCmdBeginRendering', 0, 0, 0, 64, 64, 1, 0, 1, ...attachment(view), 0, 0);
    const draw = cmd('vkCmdDraw', 3, 1, 0, 0);
    const end = cmd('vkCmdEndRendering');
    const vertexBuffers = (count: number, ...rest: number[]) => cmd('vkCmdBindVertexBuffers', 0, count, ...rest);
    expect(check(stream([...begin(), ...cmd('vkCmdBindPipeline', 0, 8), ...vertexBuffers(2, 3, 6, 0, 0, 16, 0), ...draw, ...draw, ...end]), (begin().length + 3 + 9 + 10 + 1) * 4)).toBe(6);
    // Scope: a draw outside, an end with none open, a begin never closed, a dispatch inside.
    expect(refusal(draw)).toMatchObject({ reason: 'render-pass-scope', byteOffset: 0, commandIndex: 0 });
    expect(refusal(end)).toMatchObject({ reason: 'render-pass-scope', byteOffset: 0 });
    expect(refusal([...cmd('vkCmdEndRenderPass'), ...end])).toMatchObject({ reason: 'render-pass-scope', byteOffset: 0 });
    expect(refusal([...cmd('vkCmdSetLineWidth', 0x3f800000), ...begin(), ...draw])).toMatchObject({ reason: 'render-pass-scope', byteOffset: 8, commandIndex: 1 });
    expect(refusal([...begin(), ...[header(COMMAND_OPCODE.dispatch, 4), 1, 1, 1], ...end])).toMatchObject({ reason: 'render-pass-scope', commandIndex: 1 });
    expect(refusal([...begin(), ...begin(), ...end, ...end])).toMatchObject({ reason: 'render-pass-scope', commandIndex: 1 });
    expect(refusal([...begin(), ...cmd('vkCmdEndRenderPass')])).toMatchObject({ reason: 'render-pass-scope', commandIndex: 1 });
    // Arrays: a count of 0 the registry does not allow, a count past the command, a word left over, a slot of another kind in an array.
    expect(refusal(vertexBuffers(0))).toMatchObject({ reason: 'bad-value' });
    expect(refusal(vertexBuffers(100, 3, 6, 0, 0, 16, 0))).toMatchObject({ reason: 'count-past-end' });
    expect(refusal(vertexBuffers(2, 3, 6, 0, 0, 16, 0, 7))).toMatchObject({ reason: 'bad-length' });
    expect(refusal(vertexBuffers(2, 3, 4, 0, 0, 16, 0))).toMatchObject({ reason: 'handle-kind' });
    expect(refusal(vertexBuffers(2, 3, 60, 0, 0, 16, 0))).toMatchObject({ reason: 'handle-index' });
    // Push constants' bytes: whole words only.
    expect(refusal(cmd('vkCmdPushConstants', 1, 0x20, 0, 6, 1, 2))).toMatchObject({ reason: 'misaligned' });
    expect(check(stream(cmd('vkCmdPushConstants', 1, 0x20, 0, 8, 1, 2)), 28)).toBe(1);
    // A structure's members: the attachment's view must be an ImageView, its enums the registry's; a presence word 0 or 1.
    expect(refusal([...begin(4), ...end])).toMatchObject({ reason: 'handle-kind', commandIndex: 0 });
    const badLayout = begin();
    badLayout[10] = 999; // the attachment's imageLayout
    expect(refusal([...badLayout, ...end])).toMatchObject({ reason: 'bad-value', commandIndex: 0 });
    const badPresence = begin();
    badPresence[badPresence.length - 1] = 2; // pStencilAttachment there or not
    expect(refusal([...badPresence, ...end])).toMatchObject({ reason: 'bad-value', commandIndex: 0 });
    // A render pass: begin (renderPass, framebuffer, area, clear values), next subpass only inside it, end.
    const beginPass = cmd('vkCmdBeginRenderPass', 10, 11, 0, 0, 64, 64, 1, 0, 0, 0, 0, 0);
    expect(check(stream([...beginPass, ...cmd('vkCmdNextSubpass', 0), ...cmd('vkCmdEndRenderPass')]), (beginPass.length + 3) * 4)).toBe(3);
    expect(refusal([...begin(), ...cmd('vkCmdNextSubpass', 0), ...end])).toMatchObject({ reason: 'render-pass-scope', commandIndex: 1 });
  });

  it('arbitrary bytes (any length, any byteLength) are accepted or refused with a CommandStreamError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(u32, { maxLength: 64 }), fc.nat(), (words, cut) => {
        const bytes = words.length * 4;
        check(stream(words), bytes === 0 ? 0 : cut % (bytes + 1));
      }),
      { seed: SEED, numRuns: 3000 },
    );
    // Headers that look right more often: small opcodes and lengths.
    const plausible = fc
      .tuple(fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: ENCODED_OPCODE_BASE - 1, max: ENCODED_OPCODE_BASE + ENCODED_COMMANDS.length })), fc.integer({ min: 0, max: 24 }))
      .map(([op, len]) => header(op, len));
    fc.assert(
      fc.property(fc.array(fc.oneof(plausible, fc.nat(10), u32), { maxLength: 64 }), (words) => {
        check(stream(words), words.length * 4);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('one word of a well-formed stream changed: accepted, or refused at the changed command or later, never before it', () => {
    fc.assert(
      fc.property(commands, fc.nat(), u32, (cmds, where, value) => {
        const words = cmds.flat();
        const i = where % words.length;
        words[i] = value;
        const r = check(stream(words), words.length * 4);
        if (typeof r === 'number') return;
        let start = 0; // where the changed command starts
        for (const c of cmds) {
          if (start + c.length > i) break;
          start += c.length;
        }
        // (A changed end, or a command changed into an end, can leave a render pass open: refused at the begin before it.)
        if (r.reason === 'render-pass-scope' && r.byteOffset < start * 4) expect(ENCODED_COMMANDS[r.opcode - ENCODED_OPCODE_BASE]?.scope).toBeOneOf([1, 2]);
        else expect(r.byteOffset).toBeGreaterThanOrEqual(start * 4);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('a well-formed stream cut anywhere: accepted up to a command boundary, else refused as unaligned or truncated at the cut command', () => {
    fc.assert(
      fc.property(commands, fc.nat(), (cmds, where) => {
        const words = cmds.flat();
        const cut = where % (words.length * 4 + 1);
        const r = check(stream(words), cut);
        const boundaries = [0];
        for (const c of cmds) boundaries.push(boundaries[boundaries.length - 1]! + c.length * 4);
        const opener = boundaries.includes(cut) ? openerBefore(cmds, boundaries.indexOf(cut)) : -1;
        if (opener >= 0) expect(r).toMatchObject({ reason: 'render-pass-scope', byteOffset: boundaries[opener], commandIndex: opener });
        else if (boundaries.includes(cut)) expect(r).toBe(boundaries.indexOf(cut));
        else if (cut % 4 !== 0) expect(r).toMatchObject({ reason: 'unaligned' });
        else {
          const index = boundaries.findIndex((b) => b > cut) - 1;
          expect(r).toMatchObject({ reason: 'truncated', byteOffset: boundaries[index], commandIndex: index });
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('the decoder answers what the format says (a reference written from command_stream.h) for well-formed streams with up to three words changed and cut anywhere: the same count, or the same reason, command and byte offset', () => {
    // Changed words: anything, small numbers (slots, lengths, layouts), and headers of every opcode with lengths near their own.
    const plausibleHeader = fc
      .tuple(fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: ENCODED_OPCODE_BASE - 1, max: ENCODED_OPCODE_BASE + ENCODED_COMMANDS.length })), fc.integer({ min: 0, max: 12 }))
      .map(([op, len]) => header(op, len));
    const changedWord = fc.oneof(u32, fc.nat(12), plausibleHeader);
    fc.assert(
      fc.property(commands, fc.array(fc.tuple(fc.nat(), changedWord), { maxLength: 3 }), fc.nat(), fc.boolean(), (cmds, changes, where, cut) => {
        const words = cmds.flat();
        for (const [i, value] of changes) words[i % words.length] = value;
        const byteLength = cut ? where % (words.length * 4 + 1) : words.length * 4;
        const r = check(stream(words), byteLength);
        const got = typeof r === 'number' ? r : { reason: r.reason, byteOffset: r.byteOffset, commandIndex: r.commandIndex, opcode: r.opcode };
        expect(got).toEqual(referenceVerdict(words, byteLength, KINDS));
      }),
      { seed: SEED, numRuns: 6000 },
    );
  });

  it('the fuzz cases under AddressSanitizer and UndefinedBehaviorSanitizer: the decoder reads nothing outside the stream and the table, validating or replaying, and agrees with the addon', (ctx) => {
    const compiler = findFirst(['/usr/bin/g++', '/usr/local/bin/g++']);
    if (compiler === undefined) skipOrFail(ctx, 'no g++ to build the sanitized decoder');
    const dir = mkdtempSync(path.join(tmpdir(), 'kl-stream-fuzz-'));
    const harness = path.join(dir, 'replay_fuzz');
    execFileSync(compiler, [
      '-std=c++20', '-Wall', '-Wextra', '-Werror', '-fsanitize=address,undefined', '-fno-sanitize-recover=undefined', '-fno-omit-frame-pointer', '-g', '-O1',
      '-I', path.join(repoRoot, 'native'), '-o', harness,
      path.join(repoRoot, 'test/native/command_stream_fuzz/replay_fuzz.cc'), path.join(repoRoot, 'native/vulkan/loader/command_stream.cc'),
    ]);
    // Cases: well-formed streams (replayed), one word changed, cut short, arbitrary words; each against KINDS or a random table.
    const kindsTable = fc.oneof(fc.constant(KINDS), fc.uint8Array({ max: 12, maxLength: 16 }));
    const mutated = fc.tuple(commands, fc.nat(), u32).map(([cmds, where, value]) => {
      const words = cmds.flat();
      words[where % words.length] = value;
      return { words, byteLength: words.length * 4 };
    });
    const cut = fc.tuple(commands, fc.nat()).map(([cmds, where]) => {
      const words = cmds.flat();
      return { words, byteLength: where % (words.length * 4 + 1) };
    });
    const arbitrary = fc.array(fc.oneof(u32, fc.nat(12)), { maxLength: 48 }).map((words) => ({ words, byteLength: words.length * 4 }));
    const valid = commands.map((cmds) => ({ words: cmds.flat(), byteLength: cmds.flat().length * 4 }));
    const cases = fc.sample(fc.tuple(fc.oneof(valid, mutated, cut, arbitrary), kindsTable), { seed: SEED, numRuns: 4000 });
    const parts: Buffer[] = [];
    const u32le = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(n);
      return b;
    };
    const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
    const expected: string[] = [];
    for (const [{ words, byteLength }, kinds] of cases) {
      const bytes = Buffer.from(new Uint32Array(words).buffer).subarray(0, byteLength);
      parts.push(u32le(kinds.length), pad(Buffer.from(kinds)), u32le(byteLength), pad(bytes));
      const r = check(stream(words), byteLength, kinds);
      expected.push(typeof r === 'number' ? `ok ${r}` : `refused ${r.reason} ${r.byteOffset}`);
    }
    const input = path.join(dir, 'cases.bin');
    writeFileSync(input, Buffer.concat(parts));
    const out = execFileSync(harness, [input], { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0', UBSAN_OPTIONS: 'print_stacktrace=1' } });
    const lines = out.trim().split('\n');
    expect(lines).toEqual(expected);
    // Both sides were exercised: many accepted (and so replayed), many refused.
    expect(lines.filter((l) => l.startsWith('ok ') && l !== 'ok 0').length).toBeGreaterThan(800);
    expect(lines.filter((l) => l.startsWith('refused')).length).toBeGreaterThan(800);
  }, 600_000); // a sanitized build and 4,000 cases: 200 s seen on a 2-core machine at load 15
});
