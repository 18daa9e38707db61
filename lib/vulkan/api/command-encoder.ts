// Encoded command buffers (docs/usage.md, 'CommandEncoder'): commands are written from
// JavaScript into one reusable ArrayBuffer (opcode and arguments, objects as indices into a table
// bound once) and recorded natively in one call at end(), through the device's dispatch table, so
// a frame of thousands of commands crosses into the addon once. The native side checks the whole
// stream before it makes any Vulkan call (native/vulkan/loader/command_stream.h has the format).
// Steady-state frames allocate nothing: the stream grows only when a frame needs more room than
// any frame before.
import { Framebuffer, GraphicsPipeline, IMAGE_ASPECT, RenderPass } from './graphics.js';
import { nativeCommandStream, type NativeCommandStream } from '../native/addon.js';
import { VulkanError } from '../errors.js';
import { CommandBuffer, type ImageBarrier } from './commands.js';
// VulkanBuffer is the typed API's buffer class (named Buffer in device-objects.ts before it was renamed).
import { VulkanBuffer, checkSize, checkUint as uint, ComputePipeline, DescriptorSet, ImageView, PipelineLayout } from './device-objects.js';
import { toVulkanError } from '../errors.js';
import { formatAspectMask, IMAGE_LAYOUTS, Image } from './image.js';
import { checkMemoryBarrierMasks, IMAGE_BARRIER_WORDS, writeImageBarrier } from './image-barrier.js';
import { describeValue, InvalidArgumentError, invalidArgument } from '../../core/errors.js';
import { ENCODED_RUN_HEADERS, ENCODED_UNNAMED, EncodedVulkanCommands } from '../../generated/vulkan-encoder.js';
import { QueryPool, VulkanEvent } from './queries.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;

/** The opcode of each command (bits 0-15 of a command's header word; bits 16-31 are its length in words). */
export const COMMAND_OPCODE = {
  bindPipeline: 1,
  bindDescriptorSet: 2,
  pushConstants: 3,
  dispatch: 4,
  pipelineBarrier: 5,
  copyBuffer: 6,
  imageBarrier: 7,
  clearColorImage: 8,
} as const;

/**
 * What a table slot holds; a command checks that its index names the kind it needs (a generated
 * command's VkPipeline takes a compute or a graphics pipeline, the hand-written opcodes a compute one).
 */
export const HANDLE_KIND = { pipeline: 1, pipelineLayout: 2, descriptorSet: 3, buffer: 4, image: 5, graphicsPipeline: 6, imageView: 7, renderPass: 8, framebuffer: 9, queryPool: 10, event: 11 } as const;

/** The objects an encoder's table can hold. */
export type EncodableObject = ComputePipeline | PipelineLayout | DescriptorSet | VulkanBuffer | Image | GraphicsPipeline | ImageView | RenderPass | Framebuffer | QueryPool | VulkanEvent;

/** Why the native side refused a stream (native/vulkan/loader/command_stream.h). */
export type CommandStreamRefusal =
  | 'unaligned'
  | 'unknown-opcode'
  | 'truncated'
  | 'bad-length'
  | 'count-past-end'
  | 'misaligned'
  | 'handle-index'
  | 'handle-kind'
  | 'bad-value'
  | 'table-mismatch'
  | 'render-pass-scope'
  | 'unavailable';

/** A malformed stream, refused before any Vulkan call (VK_ERROR_VALIDATION_FAILED_EXT). */
export class CommandStreamError extends VulkanError {
  readonly reason: CommandStreamRefusal;
  /** Where the command at fault starts. */
  readonly byteOffset: number;
  /** Its opcode (as written, possibly unknown). */
  readonly opcode: number;
  /** How many commands precede it. */
  readonly commandIndex: number;
  constructor(reason: CommandStreamRefusal, byteOffset: number, opcode: number, commandIndex: number, message: string) {
    super(VK_ERROR_VALIDATION_FAILED, message);
    this.name = 'CommandStreamError';
    this.reason = reason;
    this.byteOffset = byteOffset;
    this.opcode = opcode;
    this.commandIndex = commandIndex;
  }
}

/** A native refusal ('KL_COMMAND_STREAM') as CommandStreamError, a VkResult as VulkanError, the rest unchanged. */
export function toCommandStreamError(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_COMMAND_STREAM') {
    const e = error as Error & { reason: CommandStreamRefusal; byteOffset: number; opcode: number; commandIndex: number };
    return new CommandStreamError(e.reason, e.byteOffset, e.opcode, e.commandIndex, e.message);
  }
  return toVulkanError(error);
}

/**
 * Checks a stream against a table's kinds without recording it: the number of commands, or
 * CommandStreamError. (`kinds[i]` is the HANDLE_KIND of slot i.)
 */
export function validateCommandStream(stream: ArrayBuffer, byteLength: number, kinds: Uint8Array): number {
  try {
    return nativeCommandStream().validate(stream, byteLength, kinds);
  } catch (error) {
    throw toCommandStreamError(error);
  }
}

function kindOf(object: unknown): number {
  if (object instanceof ComputePipeline) return HANDLE_KIND.pipeline;
  if (object instanceof PipelineLayout) return HANDLE_KIND.pipelineLayout;
  if (object instanceof DescriptorSet) return HANDLE_KIND.descriptorSet;
  if (object instanceof VulkanBuffer) return HANDLE_KIND.buffer;
  if (object instanceof Image) return HANDLE_KIND.image;
  if (object instanceof GraphicsPipeline) return HANDLE_KIND.graphicsPipeline;
  if (object instanceof ImageView) return HANDLE_KIND.imageView;
  if (object instanceof RenderPass) return HANDLE_KIND.renderPass;
  if (object instanceof Framebuffer) return HANDLE_KIND.framebuffer;
  if (object instanceof QueryPool) return HANDLE_KIND.queryPool;
  if (object instanceof VulkanEvent) return HANDLE_KIND.event;
  throw new InvalidArgumentError('an encoder table holds ComputePipeline, GraphicsPipeline, PipelineLayout, DescriptorSet, VulkanBuffer, Image, ImageView, RenderPass, Framebuffer, QueryPool and VulkanEvent objects');
}

const KIND_NAMES = ['nothing', 'a ComputePipeline', 'a PipelineLayout', 'a DescriptorSet', 'a VulkanBuffer', 'an Image', 'a GraphicsPipeline', 'an ImageView', 'a RenderPass', 'a Framebuffer', 'a QueryPool', 'a VulkanEvent'] as const;

/** What a mask of slot kinds (bit k: HANDLE_KIND k) names, for messages. */
function maskNames(mask: number): string {
  const names = KIND_NAMES.filter((_, k) => k > 0 && (mask & (1 << k)) !== 0);
  return names.length === 0 ? 'an object of the table' : names.join(' or ');
}

// The longest of bindPipeline, bindDescriptorSet, dispatch and pipelineBarrier, and push constants' words before the data.
const FAST_WORDS = 5;
// Literal constants in the recording methods (a const enum is inlined; a module constant is a
// load with a check that it is initialised, more bytecode against V8's inlining budget).
const enum Opcode {
  PushConstants = 3,
}
const enum Header { // opcode | length in words << 16, for the commands of fixed length
  BindPipeline = 1 | (2 << 16),
  BindDescriptorSet = 2 | (4 << 16),
  Dispatch = 4 | (4 << 16),
  PipelineBarrier = 5 | (5 << 16),
}
const enum Kind {
  Pipeline = 1,
  PipelineLayout = 2,
  DescriptorSet = 3,
}
const TWO_32 = 0x1_0000_0000;
const MAX_U64 = 0xffff_ffff_ffff_ffffn;

export interface CommandEncoderOptions {
  /** The stream's first size in bytes (default 64 KiB); it doubles when a frame needs more. */
  readonly initialBytes?: number;
}

/**
 * Records a CommandBuffer from an encoded stream: `begin()`, then the same commands as
 * CommandBuffer's, each naming objects by their index in the table (`slot(object)`), then `end()`,
 * which checks the stream and records it (vkBeginCommandBuffer … vkEndCommandBuffer) in one call.
 */
export class CommandEncoder extends EncodedVulkanCommands {
  readonly commandBuffer: CommandBuffer;
  #native: NativeCommandStream;
  #objects: readonly EncodableObject[] = [];
  #handles = new BigUint64Array(0);
  #kinds = new Uint8Array(0);
  #buffer!: ArrayBuffer;
  #u8!: Uint8Array;
  #u32!: Uint32Array;
  #i32!: Int32Array;
  #f32!: Float32Array;
  #at = 0; // words written
  // Where each command the generated methods and #header() wrote since begin() starts, but those of
  // the run commands (vkCmdDraw, vkCmdDrawIndexed: ENCODED_RUN_HEADERS): end()'s state walk visits these
  // and the first command of each run between them, never a whole run of draws; the native check confirms
  // each gap holds only run commands. As long as the stream in words, so that a command with room in the
  // stream has room here.
  #starts!: Uint32Array;
  #noted = 0;
  // Bit i: a run command ENCODED_RUN_HEADERS[i] (i > 0) was written since begin(). Without a vkCmdDrawIndexed
  // the walk skips each gap of draws whole, and the native check takes only vkCmdDraw in the gaps.
  #runsOf = 0;
  // While recording, the last word where a command of FAST_WORDS words still fits (-1 otherwise):
  // the recording methods' one compare `w > #lastStart` checks both that there is room and that a
  // recording is open (the cold #room() tells which failed).
  #lastStart = -1;
  #flags = 0;
  #recording = false;
  // Words appended with writeWords since begin(): the state walk has the whole stream checked natively before it reads a walked command back.
  #raw = false;
  // The native check of the whole stream, which the state walk asks for before it reads a walked command back.
  readonly #validateWhole = (): void => {
    validateCommandStream(this.#buffer, this.#at * 4, this.#kinds);
  };

  constructor(commandBuffer: CommandBuffer, objects: readonly EncodableObject[], options: CommandEncoderOptions = {}) {
    if (!(commandBuffer instanceof CommandBuffer)) throw new InvalidArgumentError('CommandEncoder: commandBuffer must be a CommandBuffer');
    super();
    const initial = options.initialBytes ?? 65536;
    uint('initialBytes', initial);
    this.commandBuffer = commandBuffer;
    this.#native = nativeCommandStream();
    this.#allocate(Math.max(64, initial - (initial % 4)));
    this.bind(objects);
  }

  /** Binds a new table (the only call here that allocates, besides the stream's growth). Not while recording. */
  bind(objects: readonly EncodableObject[]): this {
    if (!Array.isArray(objects)) throw new InvalidArgumentError('CommandEncoder: objects must be an array');
    if (this.#recording) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'CommandEncoder.bind: the table cannot change while recording (call end() first)');
    const kinds = new Uint8Array(objects.length);
    const handles = new BigUint64Array(objects.length);
    // An index loop, not forEach: a hole in a sparse array is refused as an undefined slot.
    for (let i = 0; i < objects.length; i++) {
      const object = objects[i]!;
      kinds[i] = kindOf(object);
      if (object.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `CommandEncoder: objects[${i}] was destroyed`);
      // A handle of another device in the stream would reach this device's driver (VUID-vkCmdBindPipeline-commonparent and kin).
      if (!this.commandBuffer.ownsObject(object)) throw new InvalidArgumentError(`CommandEncoder: objects[${i}] (${KIND_NAMES[kinds[i]!]}) belongs to another device than the command buffer's`, `objects[${i}]`);
      handles[i] = object.handle;
    }
    this.#objects = [...objects];
    this.#kinds = kinds;
    this.#handles = handles;
    return this;
  }

  /** The table index of `object` (TypeError when the table does not hold it). */
  slot(object: EncodableObject): number {
    const i = this.#objects.indexOf(object);
    if (i < 0) throw new InvalidArgumentError('CommandEncoder.slot: the object is not in the bound table');
    return i;
  }

  /** A copy of the bound table's kinds (HANDLE_KIND per slot), for validateCommandStream. */
  get kinds(): Uint8Array {
    return this.#kinds.slice(); // a copy: the table end() checks against stays the encoder's own
  }

  /** The stream (its first `byteLength` bytes are this recording's). */
  get stream(): ArrayBuffer {
    return this.#buffer;
  }

  get byteLength(): number {
    return this.#at * 4;
  }

  /**
   * Commands in the stream since begin(), those appended with writeWords among them (their headers
   * say where each ends). It walks the stream: the recording methods keep no count, one store less
   * a command.
   */
  get commandCount(): number {
    const u = this.#u32;
    let commands = 0;
    for (let w = 0; w < this.#at; commands++) {
      const length = u[w]! >>> 16;
      if (length === 0) break; // a malformed header in words from writeWords: end() refuses it
      w += length;
    }
    return commands;
  }

  /** Starts a recording (flags: VkCommandBufferUsageFlags for vkBeginCommandBuffer at end()); the stream is reused. */
  begin(flags = 0): this {
    uint('flags', flags);
    this.#flags = flags;
    this.#at = 0;
    this.#noted = 0;
    this.#runsOf = 0;
    this.#raw = false;
    this.#recording = true;
    this.#lastStart = this.#u32.length - FAST_WORDS;
    return this;
  }

  // The five recording methods below are written to stay small: a call site records several kinds
  // of command in a row, and V8 inlines them all into it only while their bytecode adds up to less
  // than its budget (920 bytes in Node 20, cold paths and small helpers counted). So each makes one
  // test, written out: its numbers are integers in [0, 2^32) (`typeof v !== 'number' || v !== v >>> 0`,
  // checkUint's set), a slot is a number whose entry in the table's kinds is the kind it needs (which
  // an index past the table, a fraction or NaN does not have), and the stream has room (one compare
  // with #lastStart). Every other case goes to one cold method, which checks again with the
  // messages, makes room for FAST_WORDS (or says it is not recording) and calls back: the arguments
  // are then good and the room there, so the call back writes.

  /** vkCmdBindPipeline (compute) of table slot `pipeline`. */
  bindPipeline(pipeline: number): this {
    const w = this.#at;
    if (w > this.#lastStart || typeof pipeline !== 'number' || this.#kinds[pipeline] !== Kind.Pipeline) return this.#bindPipelineCold(pipeline);
    const u = this.#u32;
    u[w] = Header.BindPipeline;
    u[w + 1] = pipeline;
    this.#at = w + 2;
    return this;
  }

  #bindPipelineCold(pipeline: number): this {
    this.#slot('bindPipeline', pipeline, Kind.Pipeline);
    this.#room(FAST_WORDS, 'bindPipeline');
    return this.bindPipeline(pipeline);
  }

  /** vkCmdBindDescriptorSets (compute, one set at `firstSet`). */
  bindDescriptorSet(layout: number, set: number, firstSet?: number): this {
    if (firstSet === undefined) firstSet = 0; // (less bytecode than a default parameter)
    const w = this.#at;
    const kinds = this.#kinds;
    if (w > this.#lastStart || typeof layout !== 'number' || typeof set !== 'number' || kinds[layout] !== Kind.PipelineLayout || kinds[set] !== Kind.DescriptorSet || typeof firstSet !== 'number' || firstSet !== firstSet >>> 0) {
      return this.#bindDescriptorSetCold(layout, set, firstSet);
    }
    const u = this.#u32;
    u[w] = Header.BindDescriptorSet;
    u[w + 1] = layout;
    u[w + 2] = set;
    u[w + 3] = firstSet;
    this.#at = w + 4;
    return this;
  }

  #bindDescriptorSetCold(layout: number, set: number, firstSet: number): this {
    this.#slot('bindDescriptorSet', layout, Kind.PipelineLayout);
    this.#slot('bindDescriptorSet', set, Kind.DescriptorSet);
    uint('firstSet', firstSet);
    this.#room(FAST_WORDS, 'bindDescriptorSet');
    return this.bindDescriptorSet(layout, set, firstSet);
  }

  /** vkCmdPushConstants: `data`'s bytes (a multiple of 4, at least 4) at `offset` (a multiple of 4). */
  pushConstants(layout: number, stageFlags: number, offset: number, data: ArrayBufferView): this {
    // Uint32Array data here; any other view, a stream without room, and every refusal in #pushConstantsOf.
    const w = this.#at;
    const words = data instanceof Uint32Array ? data.length : 0;
    if (
      words === 0 || w + words > this.#lastStart || typeof layout !== 'number' || this.#kinds[layout] !== Kind.PipelineLayout ||
      typeof stageFlags !== 'number' || stageFlags !== stageFlags >>> 0 || typeof offset !== 'number' || offset !== (offset & ~3) >>> 0 // a multiple of 4 too
    ) {
      return this.#pushConstantsOf(layout, stageFlags, offset, data);
    }
    const u = this.#u32;
    const d = w + 5; // where the data goes
    u[w] = ((words + 5) << 16) | Opcode.PushConstants;
    u[w + 1] = layout;
    u[w + 2] = stageFlags;
    u[w + 3] = offset;
    u[w + 4] = words * 4;
    // Push constants are a few words: an element loop costs less than set().
    for (let i = 0; i < words; i++) u[d + i] = (data as Uint32Array)[i]!;
    this.#at = d + words;
    return this;
  }

  #pushConstantsOf(layout: number, stageFlags: number, offset: number, data: ArrayBufferView): this {
    this.#slot('pushConstants', layout, Kind.PipelineLayout);
    uint('stageFlags', stageFlags);
    uint('offset', offset);
    if (!ArrayBuffer.isView(data)) throw new InvalidArgumentError('pushConstants: data must be a TypedArray or DataView');
    const bytes = data.byteLength;
    if (bytes === 0 || bytes % 4 !== 0 || offset % 4 !== 0) throw new InvalidArgumentError('pushConstants: offset and the data size must be multiples of 4, the size at least 4');
    const words = bytes / 4;
    const w = this.#header(Opcode.PushConstants, 5 + words, 'pushConstants');
    const u = this.#u32;
    u[w] = layout;
    u[w + 1] = stageFlags;
    u[w + 2] = offset;
    u[w + 3] = bytes;
    const at = w + 4;
    // set() between arrays of one type copies bits (a float NaN's payload too); other views byte by byte.
    if (data instanceof Uint32Array) u.set(data, at);
    else if (data instanceof Int32Array) this.#i32.set(data, at);
    else if (data instanceof Float32Array) this.#f32.set(data, at);
    else this.#u8.set(data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, bytes), at * 4);
    return this;
  }

  /** vkCmdDispatch */
  dispatch(groupCountX: number, groupCountY?: number, groupCountZ?: number): this {
    if (groupCountY === undefined) groupCountY = 1; // (less bytecode than default parameters)
    if (groupCountZ === undefined) groupCountZ = 1;
    const w = this.#at;
    if (w > this.#lastStart || typeof groupCountX !== 'number' || groupCountX !== groupCountX >>> 0 || typeof groupCountY !== 'number' || groupCountY !== groupCountY >>> 0 || typeof groupCountZ !== 'number' || groupCountZ !== groupCountZ >>> 0) return this.#dispatchCold(groupCountX, groupCountY, groupCountZ);
    const u = this.#u32;
    u[w] = Header.Dispatch;
    u[w + 1] = groupCountX;
    u[w + 2] = groupCountY;
    u[w + 3] = groupCountZ;
    this.#at = w + 4;
    return this;
  }

  #dispatchCold(groupCountX: number, groupCountY: number, groupCountZ: number): this {
    uint('groupCountX', groupCountX);
    uint('groupCountY', groupCountY);
    uint('groupCountZ', groupCountZ);
    this.#room(FAST_WORDS, 'dispatch');
    return this.dispatch(groupCountX, groupCountY, groupCountZ);
  }

  /** vkCmdPipelineBarrier with one global VkMemoryBarrier. */
  pipelineBarrier(srcStageMask: number, dstStageMask: number, srcAccessMask: number, dstAccessMask: number): this {
    const w = this.#at;
    if (w > this.#lastStart || typeof srcStageMask !== 'number' || srcStageMask !== srcStageMask >>> 0 || typeof dstStageMask !== 'number' || dstStageMask !== dstStageMask >>> 0 || typeof srcAccessMask !== 'number' || srcAccessMask !== srcAccessMask >>> 0 || typeof dstAccessMask !== 'number' || dstAccessMask !== dstAccessMask >>> 0) {
      return this.#pipelineBarrierCold(srcStageMask, dstStageMask, srcAccessMask, dstAccessMask);
    }
    const u = this.#u32;
    u[w] = Header.PipelineBarrier;
    u[w + 1] = srcStageMask;
    u[w + 2] = dstStageMask;
    u[w + 3] = srcAccessMask;
    u[w + 4] = dstAccessMask;
    this.#at = w + 5;
    return this;
  }

  #pipelineBarrierCold(srcStageMask: number, dstStageMask: number, srcAccessMask: number, dstAccessMask: number): this {
    checkMemoryBarrierMasks(srcStageMask, dstStageMask, srcAccessMask, dstAccessMask, true); // a stage mask 0 is refused by end(), which knows the device's features
    this.#room(FAST_WORDS, 'pipelineBarrier');
    return this.pipelineBarrier(srcStageMask, dstStageMask, srcAccessMask, dstAccessMask);
  }

  /** vkCmdCopyBuffer (one region) between table slots `src` and `dst`. */
  copyBuffer(src: number, dst: number, bytes: number | bigint, srcOffset: number | bigint = 0, dstOffset: number | bigint = 0): this {
    this.#slot('copyBuffer', src, HANDLE_KIND.buffer);
    this.#slot('copyBuffer', dst, HANDLE_KIND.buffer);
    u64('bytes', bytes);
    u64('srcOffset', srcOffset);
    u64('dstOffset', dstOffset);
    const w = this.#header(COMMAND_OPCODE.copyBuffer, 9, 'copyBuffer');
    const u = this.#u32;
    u[w] = src;
    u[w + 1] = dst;
    writeU64(u, w + 2, srcOffset);
    writeU64(u, w + 4, dstOffset);
    writeU64(u, w + 6, bytes);
    return this;
  }

  /** vkCmdPipelineBarrier with one VkImageMemoryBarrier on table slot `image` (as CommandBuffer.imageBarrier). */
  imageBarrier(image: number, barrier: ImageBarrier): this {
    this.#slot('imageBarrier', image, HANDLE_KIND.image);
    // The stream's barrier is of the colour aspect: a depth image's barrier is recorded per call.
    if (formatAspectMask((this.#objects[image] as Image).format) !== IMAGE_ASPECT.color) throw new InvalidArgumentError('imageBarrier: the encoder records barriers of colour images; record a depth/stencil image\'s barrier with CommandBuffer.imageBarrier', 'image');
    this.#needRecording('imageBarrier');
    // The barrier's words first, past the stream's end: a refused barrier leaves no command behind.
    this.#reserve(2 + IMAGE_BARRIER_WORDS);
    writeImageBarrier(barrier, (this.#objects[image] as Image).arrayLayers, this.#u32, this.#at + 2);
    this.#u32[this.#header(COMMAND_OPCODE.imageBarrier, 2 + IMAGE_BARRIER_WORDS, 'imageBarrier')] = image;
    return this;
  }

  /** vkCmdClearColorImage with a float colour on table slot `image` (as CommandBuffer.clearColorImage). */
  clearColorImage(image: number, layout: 'transfer-dst-optimal' | 'general', r: number, g: number, b: number, a: number, baseArrayLayer = 0, layerCount = 1): this {
    this.#slot('clearColorImage', image, HANDLE_KIND.image);
    // VUID-vkCmdClearColorImage-image-00007: not a depth/stencil image.
    if (formatAspectMask((this.#objects[image] as Image).format) !== IMAGE_ASPECT.color) throw new InvalidArgumentError('clearColorImage: the image has a depth/stencil format', 'image');
    if (layout !== 'transfer-dst-optimal' && layout !== 'general') throw new InvalidArgumentError("clearColorImage: layout must be 'transfer-dst-optimal' or 'general'");
    if (typeof r !== 'number' || typeof g !== 'number' || typeof b !== 'number' || typeof a !== 'number') throw new InvalidArgumentError('clearColorImage: the colour is 4 numbers');
    uint('baseArrayLayer', baseArrayLayer);
    uint('layerCount', layerCount);
    const w = this.#header(COMMAND_OPCODE.clearColorImage, 9, 'clearColorImage');
    const u = this.#u32;
    const f = this.#f32;
    u[w] = image;
    u[w + 1] = IMAGE_LAYOUTS[layout];
    f[w + 2] = r;
    f[w + 3] = g;
    f[w + 4] = b;
    f[w + 5] = a;
    u[w + 6] = baseArrayLayer;
    u[w + 7] = layerCount;
    return this;
  }

  /**
   * Appends words encoded elsewhere (whole commands in this format, e.g. kept from an earlier
   * frame). They are checked with the rest at end().
   */
  writeWords(words: Uint32Array): this {
    if (!(words instanceof Uint32Array)) throw new InvalidArgumentError('writeWords: words must be a Uint32Array');
    this.#needRecording('writeWords');
    this.#raw = true;
    this.#reserve(words.length);
    this.#u32.set(words, this.#at);
    this.#at += words.length;
    return this;
  }

  /**
   * Checks the whole stream, then records it into the command buffer (vkBeginCommandBuffer, the
   * commands, vkEndCommandBuffer) in one native call. A malformed stream throws CommandStreamError
   * before any Vulkan call, and the command buffer keeps what it held. Returns the number of
   * commands recorded.
   */
  end(): number {
    this.#needRecording('end');
    this.#recording = false;
    this.#lastStart = -1;
    const cb = this.commandBuffer;
    if (cb.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'CommandEncoder.end: the command buffer (or its pool or device) was destroyed');
    const objects = this.#objects;
    for (let i = 0; i < objects.length; i++) {
      if (objects[i]!.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `CommandEncoder.end: table slot ${i} (${KIND_NAMES[this.#kinds[i]!]}) was destroyed`);
    }
    // The commands' state (a pipeline bound before a dispatch, sets and push constants that cover
    // its shader, buffers backed and in range) is checked in JavaScript as CommandBuffer checks it:
    // the noted commands and the first draw of each run between them (words from writeWords: all).
    // (The five per-frame compute methods note nothing, to stay inside V8's inlining budget: a stream
    // with one of them is walked whole, as before, and checked natively without the noted starts.)
    const asNoted = cb.checkEncoded(this.#u32, this.#at, objects, this.#flags, this.#validateWhole, !this.#raw, this.#raw ? null : this.#starts, this.#noted, this.#runsOf !== 0);
    let count = this.#record(asNoted ? this.#starts : null);
    if (count < 0) {
      // The stream is not as its commands were written (its words changed through `stream`): every
      // command walked, the words checked whole before they are read back, and recorded so.
      cb.checkEncoded(this.#u32, this.#at, objects, this.#flags, this.#validateWhole, false, null, 0);
      count = this.#record(null);
    }
    cb.encodedRecorded(this.#flags);
    return count;
  }

  /** The native check and recording; -1 (nothing recorded) when `starts` is given and the stream is not as noted there. */
  #record(starts: Uint32Array | null): number {
    try {
      // The run commands a gap may hold: vkCmdDrawIndexed only where one was written (else only vkCmdDraw, as the walk assumed).
      const runs = ENCODED_RUN_HEADERS;
      return this.#native.record(this.commandBuffer.handle, this.#flags, this.#buffer, this.#at * 4, this.#handles, this.#kinds, starts, this.#noted, runs[0], (this.#runsOf & 2) !== 0 ? runs[1] : runs[0]);
    } catch (error) {
      throw toCommandStreamError(error);
    }
  }

  // The stream as the generated vkCmd* methods (EncodedVulkanCommands) write it.
  protected encodeRoom(what: string, words: number): Uint32Array {
    // Recording (#lastStart not -1) with room (#lastStart + FAST_WORDS is the stream's length): one compare; else the cold #room.
    const last = this.#lastStart;
    if (last < 0 || this.#at + words > last + FAST_WORDS) this.#room(words, what);
    return this.#u32;
  }

  protected get encodeAt(): number {
    return this.#at;
  }

  protected encodeCommit(words: number): void {
    const at = this.#at;
    this.#starts[this.#noted++] = at;
    this.#at = at + words;
  }

  // The first run command (vkCmdDraw): its start is not noted (end() visits the first of a run only).
  protected encodeCommitRun(words: number): void {
    this.#at += words;
  }

  // The other run commands (vkCmdDrawIndexed): not noted either, and the stream now has one.
  protected encodeCommitRunOf(words: number, run: number): void {
    this.#runsOf |= 1 << run;
    this.#at += words;
  }

  protected encodeSlot(what: string, name: string | null, index: number, mask: number): void {
    const kind = this.#kinds[index];
    if (kind === undefined || (mask & (1 << kind)) === 0 || !Number.isInteger(index)) {
      if (name === null) throw ENCODED_UNNAMED; // (the walked method checks again with names)
      throw new InvalidArgumentError(`${what}: ${name} (table slot ${describeValue(index)}) is not ${maskNames(mask)} (the table has ${this.#kinds.length} slots)`, name);
    }
  }

  protected encodeBytes(at: number, data: ArrayBufferView): void {
    // Bit for bit, whatever the element type (a float NaN's payload too): set() between arrays of one type
    // copies bits, and makes no view (push constants are written each frame); other views through a byte view.
    if (data instanceof Float32Array) this.#f32.set(data, at);
    else if (data instanceof Uint32Array) this.#u32.set(data, at);
    else if (data instanceof Int32Array) this.#i32.set(data, at);
    else this.#u8.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at * 4);
  }

  protected encodeRefuse(what: string, name: string | null, needs: string, got: unknown): never {
    if (name === null) throw ENCODED_UNNAMED; // (the walked method checks again with names)
    throw invalidArgument(`${what}: ${name}`, needs, got);
  }

  #needRecording(what: string): void {
    if (!this.#recording) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `CommandEncoder.${what}: not recording (call begin() first)`);
  }

  #slot(what: string, index: number, kind: number): void {
    // typeof first: indexing with an object converts it to a key (a null-prototype object throws an untyped TypeError).
    if (typeof index !== 'number' || this.#kinds[index] !== kind || !Number.isInteger(index)) {
      throw new InvalidArgumentError(`${what}: table slot ${describeValue(index)} is not ${KIND_NAMES[kind]} (the table has ${this.#kinds.length} slots)`);
    }
  }

  /** Not recording (VulkanError), or makes room for `words` more (the cold side of the recording methods' one compare). */
  #room(words: number, what: string): void {
    this.#needRecording(what);
    this.#reserve(words);
  }

  /** Writes the header of a command of `words` words (`what` names it when not recording); returns where its arguments go. */
  #header(opcode: number, words: number, what: string): number {
    this.#room(words, what);
    const at = this.#at;
    this.#u32[at] = (opcode | (words << 16)) >>> 0;
    this.#starts[this.#noted++] = at;
    this.#at = at + words;
    return at + 1;
  }

  #reserve(words: number): void {
    const need = (this.#at + words) * 4;
    if (need <= this.#buffer.byteLength) return;
    let size = this.#buffer.byteLength * 2;
    while (size < need) size *= 2;
    const old = this.#u32.subarray(0, this.#at);
    const starts = this.#starts.subarray(0, this.#noted);
    this.#allocate(size);
    this.#u32.set(old);
    this.#starts.set(starts);
  }

  #allocate(bytes: number): void {
    this.#buffer = new ArrayBuffer(bytes);
    this.#u8 = new Uint8Array(this.#buffer);
    this.#u32 = new Uint32Array(this.#buffer);
    this.#i32 = new Int32Array(this.#buffer);
    this.#f32 = new Float32Array(this.#buffer);
    this.#starts = new Uint32Array(bytes / 4);
    if (this.#recording) this.#lastStart = this.#u32.length - FAST_WORDS;
  }
}

function u64(name: string, v: number | bigint): void {
  checkSize(name, v);
  if (typeof v === 'bigint' && v > MAX_U64) throw new InvalidArgumentError(`${name} must fit a VkDeviceSize (64 bits)`);
}

function writeU64(u: Uint32Array, at: number, v: number | bigint): void {
  if (typeof v === 'bigint') {
    u[at] = Number(v & 0xffff_ffffn);
    u[at + 1] = Number(v >> 32n);
  } else {
    u[at] = v % TWO_32;
    u[at + 1] = Math.floor(v / TWO_32);
  }
}
