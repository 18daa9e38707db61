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
import { ENCODED_COMMANDS, ENCODED_ENUMS, ENCODED_OPCODE_BASE, type EncodedCommandInfo } from '../../lib/generated/vulkan-encoder.js';

const SEED = 14;
const REASONS: readonly CommandStreamRefusal[] = ['unaligned', 'unknown-opcode', 'truncated', 'bad-length', 'count-past-end', 'misaligned', 'handle-index', 'handle-kind', 'bad-value', 'table-mismatch', 'render-pass-scope'];

// The table every stream here is checked against: one slot of each kind, an empty slot, and more.
const K = HANDLE_KIND;
const KINDS = new Uint8Array([K.pipeline, K.pipelineLayout, K.descriptorSet, K.buffer, K.image, 0, K.buffer, K.pipelineLayout]);
const slotsOf = (kind: number) => [...KINDS.keys()].filter((i) => KINDS[i] === kind);
// The VkImageLayout values the typed API takes (IMAGE_LAYOUTS in lib/vulkan/api/image.ts), depth ones included.
const LAYOUTS = [0, 1, 2, 3, 4, 5, 6, 7, 1000241000, 1000241001];

const header = (opcode: number, words: number) => (opcode | (words << 16)) >>> 0;
const u32 = fc.integer({ min: 0, max: 0xffff_ffff });
const slot = (kind: number) => fc.constantFrom(...slotsOf(kind));

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

/** One well-formed generated command (native/generated/vulkan_encoder.h) of those a stream may hold outside a render pass. */
function generatedCommand(): fc.Arbitrary<number[]> {
  const outside = ENCODED_COMMANDS.filter((c) => c.renderPass !== 'inside');
  const argWords = (a: EncodedCommandInfo['args'][number]): fc.Arbitrary<number[]> => {
    if (a.kind === 'Slot') return slot(a.slotKind!).map((v) => [v]);
    if (a.kind === 'Bool32') return fc.constantFrom(0, 1).map((v) => [v]);
    if (a.kind === 'Enum') return fc.constantFrom(...ENCODED_ENUMS[a.enum!]!).map((v) => [v >>> 0]);
    if (a.kind === 'U64') return fc.tuple(u32, u32).map(([lo, hi]) => [lo, hi]);
    return u32.map((v) => [v]);
  };
  return fc.constantFrom(...outside).chain((c) => fc.tuple(...c.args.map(argWords)).map((args) => [header(c.opcode, c.words), ...args.flat()]));
}
const commands = fc.array(command, { minLength: 1, maxLength: 40 });

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
      if (length !== generated.words) return refuse('bad-length', opcode);
      for (const a of generated.args) {
        const v = arg(a.word);
        if (a.kind === 'Slot' && v >= kinds.length) return refuse('handle-index', opcode);
        if (a.kind === 'Slot' && kinds[v] !== a.slotKind) return refuse('handle-kind', opcode);
        if (a.kind === 'Bool32' && v > 1) return refuse('bad-value', opcode);
        if (a.kind === 'Enum' && !ENCODED_ENUMS[a.enum!]!.includes(v | 0)) return refuse('bad-value', opcode);
      }
      if (generated.renderPass === 'inside') return refuse('render-pass-scope', opcode);
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
    at += length;
    index++;
  }
  return index;
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
      .tuple(fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: ENCODED_OPCODE_BASE - 1, max: ENCODED_OPCODE_BASE + ENCODED_COMMANDS.length })), fc.integer({ min: 0, max: 12 }))
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
        expect(r.byteOffset).toBeGreaterThanOrEqual(start * 4);
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
        if (boundaries.includes(cut)) expect(r).toBe(boundaries.indexOf(cut));
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
    const kindsTable = fc.oneof(fc.constant(KINDS), fc.uint8Array({ max: 6, maxLength: 10 }));
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
  }, 120_000);
});
