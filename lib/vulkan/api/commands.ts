// Command pools, command buffers and queues. Recording and submission check their arguments and
// pass numbers and kept handles to the native side: no JavaScript objects are created per call.
import { VulkanError } from '../errors.js';
import type { AccessFlags, PipelineStageFlags, ShaderStageFlags } from '../../generated/vulkan.js';
import { InvalidArgumentError, InvalidStateError, invalidArgument } from '../../core/errors.js';
import {
  BUFFER_USAGE,
  DescriptorPool,
  DeviceMemory,
  type DeviceLimits,
  type SubmissionQueue,
  VulkanBuffer,
  checkSize as size,
  checkUint as uint,
  ComputePipeline,
  DescriptorSet,
  DeviceChild,
  Fence,
  PipelineLayout,
  Semaphore,
  type DeviceOwner,
} from './device-objects.js';
import { toVulkanError, withVulkanErrors } from '../errors.js';
import { IMAGE_LAYOUTS, Image, type ImageLayoutName } from './image.js';
import { checkMemoryBarrierMasks, IMAGE_BARRIER_WORDS, writeImageBarrier } from './image-barrier.js';
import { vulkanCompute, type NativeVulkanCompute } from '../native/addon.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;
const NO_HANDLE = 0n;

// `Function & { prototype: T }`: VulkanBuffer has a private constructor, which no `new (...) => T` type admits.
function usable<T extends DeviceChild>(name: string, v: unknown, type: Function & { prototype: T }, device?: DeviceOwner): T {
  if (!(v instanceof type)) throw new InvalidArgumentError(`${name} must be a ${type.name}`);
  const child = v as T;
  if (child.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `${name} (a ${type.name}) was destroyed`);
  if (device !== undefined && !child.ownedBy(device)) throw new InvalidArgumentError(`${name} (a ${type.name}) belongs to another device`, name);
  return child;
}

// VkCommandBufferUsageFlagBits
const ONE_TIME_SUBMIT = 0x1;
const SIMULTANEOUS_USE = 0x4;
const KNOWN_BEGIN_FLAGS = 0x7;
// The command buffer lifecycle (the specification's "Command Buffer Lifecycle"); pending is
// executable plus a submission not known to have completed.
const enum Lifecycle {
  Initial = 0,
  Recording = 1,
  Executable = 2,
}
/** Bytes of push constants a command buffer tracks (every device's maxPushConstantsSize fits). */
const PUSH_WORDS = 1024;

export class CommandPool extends DeviceChild {
  protected readonly kind = 'VkCommandPool';
  readonly queueFamilyIndex: number;
  /** @internal the command buffers allocated from this pool and not freed */
  readonly buffers = new Set<CommandBuffer>();

  /** @internal flags: VkCommandPoolCreateFlags (RESET_COMMAND_BUFFER = 2 is always added so buffers can be re-recorded). */
  constructor(device: DeviceOwner, queueFamilyIndex: number, flags = 0) {
    uint('queueFamilyIndex', queueFamilyIndex);
    uint('flags', flags);
    super(device, withVulkanErrors(() => vulkanCompute().createCommandPool(device.liveHandle, queueFamilyIndex, flags | 0x2)));
    this.queueFamilyIndex = queueFamilyIndex;
  }

  /** vkAllocateCommandBuffers (one primary buffer). */
  allocateCommandBuffer(): CommandBuffer {
    this.live();
    const cb = new CommandBuffer(this.device, this, withVulkanErrors(() => this.native.allocateCommandBuffer(this.device.liveHandle, this.handle)));
    this.buffers.add(cb);
    return cb;
  }

  /** vkDestroyCommandPool frees its command buffers too. */
  protected release(): void {
    // VUID-vkDestroyCommandPool-commandPool-00041: none of its buffers pending.
    if (!this.device.isDestroyed) for (const cb of this.buffers) if (cb.pending) throw new InvalidStateError('destroy: a command buffer of the pool was submitted and has not completed (wait for its fence or the queue first)');
    for (const cb of [...this.buffers]) cb.abandon();
    this.buffers.clear();
    this.native.destroy(this.device.liveHandle, 'commandPool', this.handle);
  }
}

/**
 * What the commands recorded since begin() leave bound, and the objects they use: kept so that no
 * command reaches the driver in a state where it would be undefined behaviour (docs/usage.md,
 * "What the typed Vulkan API checks"). Reused arrays and counts: recording allocates nothing.
 */
class RecordingState {
  pipeline: ComputePipeline | null = null;
  readonly boundLayouts: (PipelineLayout | null)[] = [];
  readonly boundSets: (DescriptorSet | null)[] = [];
  pushLayout: PipelineLayout | null = null;
  readonly pushed = new Uint8Array(PUSH_WORDS / 4);
  // The objects the recorded commands use (each once), and each descriptor set's updateSerial then.
  readonly used: (DeviceChild | Image)[] = [];
  readonly usedSerial: number[] = [];
  usedCount = 0;

  clear(): void {
    this.pipeline = null;
    this.boundLayouts.fill(null);
    this.boundSets.fill(null);
    this.pushLayout = null;
    this.pushed.fill(0);
    this.used.fill(null as unknown as DeviceChild, 0, this.usedCount); // drop the references (the array keeps its length)
    this.usedCount = 0;
  }

  use(object: DeviceChild | Image): void {
    const used = this.used;
    const count = this.usedCount;
    for (let i = 0; i < count; i++) {
      if (used[i] === object) {
        if (object instanceof DescriptorSet) this.usedSerial[i] = object.updateSerial;
        return;
      }
    }
    used[count] = object;
    this.usedSerial[count] = object instanceof DescriptorSet ? object.updateSerial : 0;
    this.usedCount = count + 1;
  }

  bindPipeline(p: ComputePipeline): void {
    this.pipeline = p;
    this.use(p);
  }

  /** VUID-vkCmdBindDescriptorSets-firstSet-00360, -pDescriptorSets-00358 (checked before the call). */
  static checkBindSet(l: PipelineLayout, s: DescriptorSet, firstSet: number): void {
    const setLayout = l.setLayouts[firstSet];
    if (setLayout === undefined) throw new InvalidArgumentError(`bindDescriptorSet: firstSet ${firstSet} is not a set of the layout (it has ${l.setLayouts.length})`, 'firstSet');
    if (setLayout !== s.layout && setLayout.key !== s.layout.key) throw new InvalidArgumentError(`bindDescriptorSet: the set was allocated with a set layout unlike the layout's set ${firstSet}`, 'set');
  }

  bindSet(l: PipelineLayout, s: DescriptorSet, firstSet: number): void {
    this.boundLayouts[firstSet] = l;
    this.boundSets[firstSet] = s;
    this.use(l);
    this.use(s);
  }

  push(l: PipelineLayout, offset: number, bytes: number): void {
    // Values pushed with a layout of other push-constant ranges are not kept for this one.
    if (this.pushLayout !== null && this.pushLayout !== l && this.pushLayout.pushKey !== l.pushKey) this.pushed.fill(0);
    this.pushLayout = l;
    this.pushed.fill(1, offset / 4, (offset + bytes) / 4);
    this.use(l);
  }

  /**
   * InvalidStateError unless a dispatch now reads only what is bound and defined: a live compute
   * pipeline (VUID-vkCmdDispatch-None-08606), a set bound for each set the shader declares with a
   * layout compatible with the pipeline's (-08600; -08114: each binding it declares written with
   * a live resource) and its push constants pushed with a compatible layout (-maintenance4-08602);
   * InvalidArgumentError for group counts past maxComputeWorkGroupCount (-groupCountX-00386).
   */
  checkDispatch(limits: DeviceLimits, x: number, y: number, z: number): void {
    const max = limits.maxComputeWorkGroupCount;
    if (x > max[0] || y > max[1] || z > max[2]) {
      throw new InvalidArgumentError(`dispatch: the group counts (${x}, ${y}, ${z}) must be at most maxComputeWorkGroupCount (${max[0]}, ${max[1]}, ${max[2]})`, 'groupCountX');
    }
    const p = this.pipeline;
    if (p === null) throw new InvalidStateError('dispatch: no compute pipeline is bound (bindPipeline() first)');
    if (p.isDestroyed) throw new InvalidStateError('dispatch: the bound compute pipeline was destroyed');
    const sets = p.requiredSets;
    const layoutKeys = p.layout.compatKeys;
    for (let i = 0; i < sets.length; i++) {
      const n = sets[i]!;
      const boundLayout = this.boundLayouts[n];
      const set = this.boundSets[n];
      if (boundLayout === undefined || boundLayout === null || set === undefined || set === null) {
        throw new InvalidStateError(`dispatch: the pipeline's shader uses descriptor set ${n}, and no set is bound there (bindDescriptorSet(layout, set, ${n}) first)`);
      }
      if (boundLayout !== p.layout && boundLayout.compatKeys[n] !== layoutKeys[n]) {
        throw new InvalidStateError(`dispatch: the set bound at ${n} was bound with a pipeline layout not compatible with the pipeline's for set ${n}`);
      }
      if (set.isDestroyed) throw new InvalidStateError(`dispatch: the descriptor set bound at ${n} was destroyed`);
      const bindings = p.requiredBindings[i]!;
      for (let j = 0; j < bindings.length; j++) {
        const why = set.unreadable(bindings[j]!);
        if (why !== null) throw new InvalidStateError(`dispatch: the pipeline's shader reads set ${n}, binding ${bindings[j]}: ${why}`);
      }
    }
    const push = p.pushConstantBytes;
    if (push !== null) {
      const pl = this.pushLayout;
      if (pl === null) throw new InvalidStateError(`dispatch: the pipeline's shader reads push constants [${push.offset}, ${push.end}) and none were pushed (pushConstants() first)`);
      if (pl !== p.layout && pl.pushKey !== p.layout.pushKey) throw new InvalidStateError("dispatch: the push constants were pushed with a layout whose push-constant ranges are not the pipeline layout's");
      for (let at = push.offset; at < push.end; at += 4) {
        if (this.pushed[at >>> 2] !== 1) throw new InvalidStateError(`dispatch: the pipeline's shader reads push-constant bytes [${push.offset}, ${push.end}) and byte ${at} was never pushed`);
      }
    }
  }

  /** InvalidStateError when an object the recorded commands use is gone, or a set they bind was written since. */
  checkStillValid(): void {
    for (let i = 0; i < this.usedCount; i++) {
      const u = this.used[i]!;
      if (u.isDestroyed) throw new InvalidStateError(`submit: a ${u instanceof Image ? 'Image' : u.constructor.name} the recorded commands use was destroyed (record the command buffer again)`);
      if (u instanceof VulkanBuffer && (u.memory === null || u.memory.isDestroyed)) throw new InvalidStateError('submit: the memory of a buffer the recorded commands use was destroyed');
      if (u instanceof DescriptorSet) {
        if (u.updateSerial !== this.usedSerial[i]) throw new InvalidStateError('submit: a descriptor set the recorded commands bind was written after it was bound (record the command buffer again)');
        const why = u.brokenWrite();
        if (why !== null) throw new InvalidStateError(`submit: ${why}`);
      }
    }
  }

  uses(child: DeviceChild): boolean {
    for (let i = 0; i < this.usedCount; i++) {
      const u = this.used[i]!;
      if (u === child) return true;
      if (u instanceof VulkanBuffer && child instanceof DeviceMemory && u.memory === child) return true;
      if (u instanceof DescriptorSet && ((child instanceof DescriptorPool && u.pool === child) || u.references(child))) return true;
    }
    return false;
  }
}

export class CommandBuffer extends DeviceChild {
  protected readonly kind = 'VkCommandBuffer';
  readonly #pool: CommandPool;
  readonly #n: NativeVulkanCompute;
  readonly #colour = new Float32Array(4);

  #lifecycle = Lifecycle.Initial;
  #flags = 0;
  #state = new RecordingState();
  // Where an encoded stream's commands are checked before it is recorded (swapped in on success).
  #scratch = new RecordingState();
  // The last submission: its queue, serial and fence; and whether a one-time recording was submitted.
  #queue: SubmissionQueue | null = null;
  #serial = 0;
  #fence: Fence | null = null;
  #submittedOnce = false;

  /** @internal */
  constructor(device: DeviceOwner, pool: CommandPool, handle: bigint) {
    super(device, handle);
    this.#pool = pool;
    this.#n = this.native;
  }

  /** Whether begin() was called and end() not yet. */
  get isRecording(): boolean {
    return this.#lifecycle === Lifecycle.Recording;
  }

  /** @internal Whether the last submission of the buffer is not known to have completed. */
  get pending(): boolean {
    const queue = this.#queue;
    if (queue === null) return false;
    if (queue.completedSerial >= this.#serial) return false;
    const fence = this.#fence;
    if (fence !== null && fence.signals(queue, this.#serial) && !fence.inFlight) return false;
    return queue.completedSerial < this.#serial;
  }

  /** @internal Whether a command recorded since the last begin() uses `child` (directly, through a set, or as a buffer's memory). */
  uses(child: DeviceChild): boolean {
    return child === this || child === this.#pool || this.#state.uses(child);
  }

  #notPending(what: string): void {
    if (this.pending) throw new InvalidStateError(`${what}: the command buffer was submitted and has not completed (await its fence, or queue.waitIdle(), first)`);
  }

  #recording(what: string): void {
    if (this.#lifecycle !== Lifecycle.Recording) {
      throw new InvalidStateError(
        this.#lifecycle === Lifecycle.Initial ? `${what}: the command buffer is not recording (call begin() first)` : `${what}: the command buffer's recording was ended (call begin() to record it again)`,
      );
    }
  }

  /** vkBeginCommandBuffer (flags: VkCommandBufferUsageFlags; ONE_TIME_SUBMIT = 1). Resets a recorded buffer. */
  begin(flags = 0): this {
    uint('flags', flags);
    if ((flags & ~KNOWN_BEGIN_FLAGS) !== 0) throw new InvalidArgumentError(`begin(flags): flags must be VkCommandBufferUsageFlags (bits of 0x7), got 0x${flags.toString(16)}`, 'flags');
    this.live();
    // VUID-vkBeginCommandBuffer-commandBuffer-00049: not recording, not pending.
    if (this.#lifecycle === Lifecycle.Recording) throw new InvalidStateError('begin: the command buffer is already recording (end() it first)');
    this.#notPending('begin');
    try {
      this.#n.beginCommandBuffer(this.handle, flags);
    } catch (error) {
      throw toVulkanError(error);
    }
    this.#state.clear();
    this.#lifecycle = Lifecycle.Recording;
    this.#flags = flags;
    this.#submittedOnce = false;
    return this;
  }

  end(): this {
    this.live();
    // VUID-vkEndCommandBuffer-commandBuffer-00059
    this.#recording('end');
    try {
      this.#n.endCommandBuffer(this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    this.#lifecycle = Lifecycle.Executable;
    return this;
  }

  /** vkResetCommandBuffer */
  reset(): this {
    this.live();
    // VUID-vkResetCommandBuffer-commandBuffer-00045
    this.#notPending('reset');
    try {
      this.#n.resetCommandBuffer(this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    this.#state.clear();
    this.#lifecycle = Lifecycle.Initial;
    this.#submittedOnce = false;
    return this;
  }

  /** vkCmdBindPipeline (compute bind point). */
  bindPipeline(pipeline: ComputePipeline): this {
    const p = usable('pipeline', pipeline, ComputePipeline, this.device);
    this.live();
    this.#recording('bindPipeline');
    this.#n.cmdBindComputePipeline(this.handle, p.handle);
    this.#state.bindPipeline(p);
    return this;
  }

  /** vkCmdBindDescriptorSets (compute bind point, one set at `firstSet`). */
  bindDescriptorSet(layout: PipelineLayout, set: DescriptorSet, firstSet = 0): this {
    const l = usable('layout', layout, PipelineLayout, this.device);
    const s = usable('set', set, DescriptorSet, this.device);
    uint('firstSet', firstSet);
    this.live();
    this.#recording('bindDescriptorSet');
    RecordingState.checkBindSet(l, s, firstSet);
    this.#n.cmdBindComputeDescriptorSet(this.handle, l.handle, firstSet, s.handle);
    this.#state.bindSet(l, s, firstSet);
    return this;
  }

  /** vkCmdPushConstants: `data`'s bytes at `offset` (stageFlags: VkShaderStageFlags, e.g. ShaderStageFlags.COMPUTE). */
  pushConstants(layout: PipelineLayout, stageFlags: ShaderStageFlags, offset: number, data: ArrayBufferView): this {
    const l = usable('layout', layout, PipelineLayout, this.device);
    uint('stageFlags', stageFlags);
    uint('offset', offset);
    if (!ArrayBuffer.isView(data)) throw new InvalidArgumentError('pushConstants: data must be a TypedArray or DataView');
    const bytes = data.byteLength;
    l.checkPushConstants(stageFlags, offset, bytes);
    this.live();
    this.#recording('pushConstants');
    this.#n.cmdPushConstants(this.handle, l.handle, stageFlags, offset, data);
    this.#state.push(l, offset, bytes);
    return this;
  }

  /** vkCmdDispatch */
  dispatch(groupCountX: number, groupCountY = 1, groupCountZ = 1): this {
    uint('groupCountX', groupCountX);
    uint('groupCountY', groupCountY);
    uint('groupCountZ', groupCountZ);
    this.live();
    this.#recording('dispatch');
    this.#state.checkDispatch(this.device.limits, groupCountX, groupCountY, groupCountZ);
    this.#n.cmdDispatch(this.handle, groupCountX, groupCountY, groupCountZ);
    return this;
  }

  /** vkCmdPipelineBarrier with one global VkMemoryBarrier (masks: PipelineStageFlags, AccessFlags). */
  pipelineBarrier(srcStageMask: PipelineStageFlags, dstStageMask: PipelineStageFlags, srcAccessMask: AccessFlags, dstAccessMask: AccessFlags): this {
    checkMemoryBarrierMasks(srcStageMask, dstStageMask, srcAccessMask, dstAccessMask);
    this.live();
    this.#recording('pipelineBarrier');
    this.#n.cmdPipelineBarrier(this.handle, srcStageMask, dstStageMask, srcAccessMask, dstAccessMask);
    return this;
  }

  /** vkCmdCopyBuffer (one region). */
  copyBuffer(src: VulkanBuffer, dst: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint = 0, dstOffset: number | bigint = 0): this {
    const s = usable('src', src, VulkanBuffer, this.device);
    const d = usable('dst', dst, VulkanBuffer, this.device);
    size('bytes', bytes);
    size('srcOffset', srcOffset);
    size('dstOffset', dstOffset);
    this.live();
    this.#recording('copyBuffer');
    checkCopy(s, d, bytes, srcOffset, dstOffset);
    this.#n.cmdCopyBuffer(this.handle, s.handle, d.handle, srcOffset, dstOffset, bytes);
    this.#state.use(s);
    this.#state.use(d);
    return this;
  }

  /**
   * vkCmdPipelineBarrier with one VkImageMemoryBarrier: a layout transition of `image` (its
   * aspects, image.aspectMask: colour, or depth and stencil; every mip level, all its array layers
   * unless `layers` says which).
   */
  imageBarrier(image: Image, barrier: ImageBarrier): this {
    const handle = this.#image('imageBarrier', image);
    const b = BARRIER_WORDS;
    writeImageBarrier(barrier, image.arrayLayers, b, 0);
    this.#n.cmdImageBarrier(this.handle, handle, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!, image.aspectMask);
    return this;
  }

  /**
   * vkCmdClearColorImage with a float colour (0..1 for UNORM and SRGB formats) over every mip
   * level and the array layers [baseArrayLayer, baseArrayLayer + layerCount). `layout` is the
   * image's layout now: 'transfer-dst-optimal' or 'general'.
   */
  clearColorImage(image: Image, layout: 'transfer-dst-optimal' | 'general', r: number, g: number, b: number, a: number, baseArrayLayer = 0, layerCount = 1): this {
    const handle = this.#image('clearColorImage', image);
    if (layout !== 'transfer-dst-optimal' && layout !== 'general') throw new InvalidArgumentError("clearColorImage: layout must be 'transfer-dst-optimal' or 'general'");
    if (typeof r !== 'number' || typeof g !== 'number' || typeof b !== 'number' || typeof a !== 'number') throw new InvalidArgumentError('clearColorImage: the colour is 4 numbers');
    checkLayers(image, baseArrayLayer, layerCount, 'clearColorImage'); // one call (V8 inlines this method only while it stays small)
    // Through a kept Float32Array: four fractional numbers passed to a native function would each
    // be boxed (a heap object per channel per call).
    const colour = this.#colour;
    colour[0] = r;
    colour[1] = g;
    colour[2] = b;
    colour[3] = a;
    this.#n.cmdClearColorImage(this.handle, handle, IMAGE_LAYOUTS[layout], colour, baseArrayLayer, layerCount);
    return this;
  }

  /**
   * vkCmdClearDepthStencilImage over every mip level and the array layers [baseArrayLayer,
   * baseArrayLayer + layerCount) of an image of a depth/stencil format: its depth aspect to `depth`
   * (in [0, 1]: VUID-VkClearDepthStencilValue-depth-00022) and its stencil aspect, where it has one,
   * to `stencil` (an integer, the low bits used). `layout` is the image's layout now:
   * 'transfer-dst-optimal' or 'general'.
   */
  clearDepthStencilImage(image: Image, layout: 'transfer-dst-optimal' | 'general', depth: number, stencil = 0, baseArrayLayer = 0, layerCount = 1): this {
    const handle = this.#image('clearDepthStencilImage', image);
    if (layout !== 'transfer-dst-optimal' && layout !== 'general') throw new InvalidArgumentError("clearDepthStencilImage: layout must be 'transfer-dst-optimal' or 'general'", 'layout');
    if (typeof depth !== 'number' || !(depth >= 0 && depth <= 1)) throw invalidArgument('clearDepthStencilImage: depth', 'a number in [0, 1]', depth);
    if (typeof stencil !== 'number' || !Number.isInteger(stencil) || stencil < 0 || stencil > 0xffff_ffff) throw invalidArgument('clearDepthStencilImage: stencil', 'an integer in [0, 2^32)', stencil);
    checkLayers(image, baseArrayLayer, layerCount, 'clearDepthStencilImage');
    this.#n.cmdClearDepthStencilImage(this.handle, handle, IMAGE_LAYOUTS[layout], depth, stencil, image.aspectMask, baseArrayLayer, layerCount);
    return this;
  }

  #image(what: string, image: Image): bigint {
    if (!(image instanceof Image)) throw new InvalidArgumentError(`${what}: image must be an Image (a swapchain's images)`);
    if (!image.belongsTo(this.device)) throw new InvalidArgumentError(`${what}: the image belongs to another device`);
    this.live();
    this.#recording(what);
    // Recorded (the command is made right after): kept here, not in the callers, so that
    // clearColorImage stays small enough for V8 to inline it (four numbers unboxed).
    const handle = image.liveHandle;
    this.#state.use(image);
    return handle;
  }

  /**
   * @internal Before an encoded stream is recorded into this buffer (CommandEncoder.end()): the
   * buffer may begin (not recording, not pending), and the stream's commands, walked here with the
   * state checks of the methods above, leave nothing undefined. A stream that is not well formed is
   * walked up to its first malformed command (the native side refuses it whole). Nothing of the
   * buffer's own state changes until encodedRecorded().
   */
  checkEncoded(u: Uint32Array, words: number, objects: readonly unknown[], flags: number): void {
    this.live();
    if (this.#lifecycle === Lifecycle.Recording) throw new InvalidStateError('CommandEncoder.end: the command buffer is recording through its own begin() (end() it first)');
    this.#notPending('CommandEncoder.end');
    if ((flags & ~KNOWN_BEGIN_FLAGS) !== 0) throw new InvalidArgumentError(`CommandEncoder.begin(flags): flags must be VkCommandBufferUsageFlags (bits of 0x7), got 0x${flags.toString(16)}`, 'flags');
    const st = this.#scratch;
    st.clear();
    const limits = this.device.limits;
    for (let w = 0, index = 0; w < words; index++) {
      const header = u[w]!;
      const op = header & 0xffff;
      const length = header >>> 16;
      if (length === 0 || w + length > words) return;
      try {
        if (op === 1 && length === 2) {
          const p = objects[u[w + 1]!];
          if (!(p instanceof ComputePipeline)) return;
          st.bindPipeline(p);
        } else if (op === 2 && length === 4) {
          const l = objects[u[w + 1]!];
          const s = objects[u[w + 2]!];
          if (!(l instanceof PipelineLayout) || !(s instanceof DescriptorSet)) return;
          RecordingState.checkBindSet(l, s, u[w + 3]!);
          st.bindSet(l, s, u[w + 3]!);
        } else if (op === 3 && length >= 5) {
          const l = objects[u[w + 1]!];
          if (!(l instanceof PipelineLayout)) return;
          const offset = u[w + 3]!;
          const bytes = u[w + 4]!;
          if (bytes !== (length - 5) * 4) return;
          l.checkPushConstants(u[w + 2]!, offset, bytes);
          st.push(l, offset, bytes);
        } else if (op === 4 && length === 4) {
          st.checkDispatch(limits, u[w + 1]!, u[w + 2]!, u[w + 3]!);
        } else if (op === 6 && length === 9) {
          const s = objects[u[w + 1]!];
          const d = objects[u[w + 2]!];
          if (!(s instanceof VulkanBuffer) || !(d instanceof VulkanBuffer)) return;
          checkCopy(s, d, readU64(u, w + 7), readU64(u, w + 3), readU64(u, w + 5));
          st.use(s);
          st.use(d);
        } else if ((op === 7 || op === 8) && length >= 2) {
          const image = objects[u[w + 1]!];
          if (!(image instanceof Image)) return;
          if (op === 8 && length === 9) checkLayers(image, u[w + 7]!, u[w + 8]!, 'clearColorImage');
          // The stream's barrier names the colour aspect (native/vulkan/loader/command_stream.h).
          if (op === 7 && image.aspectMask !== 1) throw invalidArgument('imageBarrier: image', "an image of a colour format (a depth image's transitions are recorded per call: CommandBuffer.imageBarrier)", `an image of VkFormat ${image.format}`);
          st.use(image);
        } else if (op !== 5) return;
      } catch (error) {
        if (error instanceof Error) error.message = `command ${index} of the stream: ${error.message}`;
        throw error;
      }
      w += length;
    }
  }

  /** @internal The stream checkEncoded() walked was recorded (begin … end): its state is the buffer's now. */
  encodedRecorded(flags: number): void {
    const state = this.#state;
    this.#state = this.#scratch;
    this.#scratch = state;
    this.#lifecycle = Lifecycle.Executable;
    this.#flags = flags;
    this.#submittedOnce = false;
  }

  /**
   * @internal InvalidStateError unless the buffer may be submitted now (VUID-vkQueueSubmit-pCommandBuffers-00070
   * executable, -00071 not pending unless SIMULTANEOUS_USE, -00072 a ONE_TIME_SUBMIT recording once,
   * -00074 its pool's queue family; every object it uses still there, and no set written since).
   */
  checkSubmittable(queueFamily: number): void {
    this.live();
    if (this.#lifecycle === Lifecycle.Recording) throw new InvalidStateError('submit: the command buffer is still recording (end() it first)');
    if (this.#lifecycle === Lifecycle.Initial) throw new InvalidStateError('submit: the command buffer holds no recording (begin() … end() first)');
    if ((this.#flags & SIMULTANEOUS_USE) === 0 && this.pending) throw new InvalidStateError('submit: the command buffer was submitted and has not completed (await its fence first, or record it with SIMULTANEOUS_USE 0x4)');
    if ((this.#flags & ONE_TIME_SUBMIT) !== 0 && this.#submittedOnce) throw new InvalidStateError('submit: the command buffer was recorded with ONE_TIME_SUBMIT and was submitted already (record it again)');
    if (this.#pool.queueFamilyIndex !== queueFamily) throw new InvalidArgumentError(`submit: the command buffer's pool is for queue family ${this.#pool.queueFamilyIndex}, the queue is of family ${queueFamily}`, 'commandBuffer');
    this.#state.checkStillValid();
  }

  /** @internal The buffer was submitted as `serial` on `queue` with `fence`. */
  submitted(queue: SubmissionQueue, serial: number, fence: Fence | null): void {
    this.#queue = queue;
    this.#serial = serial;
    this.#fence = fence;
    this.#submittedOnce = true;
  }

  protected release(): void {
    this.#n.freeCommandBuffer(this.device.liveHandle, this.#pool.handle, this.handle);
    this.#pool.buffers.delete(this);
  }
}

const TWO_32 = 0x1_0000_0000;
/** A VkDeviceSize as two words (low first): a number when it is a safe integer, else a bigint. */
function readU64(u: Uint32Array, at: number): number | bigint {
  const high = u[at + 1]!;
  return high < 0x20_0000 ? high * TWO_32 + u[at]! : (BigInt(high) << 32n) | BigInt(u[at]!);
}

/** VUID-vkCmdClearColorImage-baseArrayLayer-01735, VkImageSubresourceRange-layerCount-01720 */
/**
 * The clear's image and layers: a colour image for clearColorImage (VUID-vkCmdClearColorImage-image-00007),
 * a depth/stencil one for clearDepthStencilImage (VUID-vkCmdClearDepthStencilImage-image-00014);
 * the layers inside it.
 */
function checkLayers(image: Image, baseArrayLayer: number, layerCount: number, what: 'clearColorImage' | 'clearDepthStencilImage'): void {
  const colour = image.aspectMask === 1;
  if (colour !== (what === 'clearColorImage')) {
    throw invalidArgument(`${what}: image`, colour ? 'an image of a depth/stencil format' : 'an image of a colour format', `an image of VkFormat ${image.format}`);
  }
  uint('baseArrayLayer', baseArrayLayer);
  uint('layerCount', layerCount);
  if (layerCount === 0 || baseArrayLayer + layerCount > image.arrayLayers) {
    throw new InvalidArgumentError(`${what}: the layers [${baseArrayLayer}, ${baseArrayLayer + layerCount}) must be inside the image's ${image.arrayLayers}, layerCount above 0`, 'layerCount');
  }
}

/**
 * InvalidArgumentError / InvalidStateError unless a copy of `bytes` from src at srcOffset to dst
 * at dstOffset is defined: both buffers backed by memory (VUID-vkCmdCopyBuffer-srcBuffer-00119,
 * -dstBuffer-00121), with TRANSFER_SRC / TRANSFER_DST usage (-00118, -00120), the regions inside
 * them (-srcOffset-00113, -dstOffset-00114, -size-00115, -size-00116), not overlapping in one
 * buffer (-pRegions-00117), and bytes above 0 (VkBufferCopy-size-01988).
 */
export function checkCopy(s: VulkanBuffer, d: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint, dstOffset: number | bigint): void {
  s.checkBacked('copyBuffer: src');
  d.checkBacked('copyBuffer: dst');
  s.checkUsage('copyBuffer', BUFFER_USAGE.TRANSFER_SRC, 'src');
  d.checkUsage('copyBuffer', BUFFER_USAGE.TRANSFER_DST, 'dst');
  if (bytes === 0 || bytes === 0n) throw new InvalidArgumentError('copyBuffer: bytes must be above 0, got 0', 'bytes');
  // Numbers below 2^53 add exactly; only a bigint among them takes the BigInt path (recording allocates nothing).
  if (typeof bytes === 'number' && typeof srcOffset === 'number' && typeof dstOffset === 'number' && typeof s.size === 'number' && typeof d.size === 'number') {
    if (srcOffset + bytes > s.size || dstOffset + bytes > d.size || (s === d && srcOffset < dstOffset + bytes && dstOffset < srcOffset + bytes)) copyRefused(s, d, bytes, srcOffset, dstOffset);
    return;
  }
  const n = BigInt(bytes);
  const so = BigInt(srcOffset);
  const dO = BigInt(dstOffset);
  if (so + n > BigInt(s.size) || dO + n > BigInt(d.size) || (s === d && so < dO + n && dO < so + n)) copyRefused(s, d, bytes, srcOffset, dstOffset);
}

function copyRefused(s: VulkanBuffer, d: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint, dstOffset: number | bigint): never {
  if (BigInt(srcOffset) + BigInt(bytes) > BigInt(s.size)) throw new InvalidArgumentError(`copyBuffer: srcOffset ${srcOffset} + bytes ${bytes} is past src's size ${s.size}`, 'bytes');
  if (BigInt(dstOffset) + BigInt(bytes) > BigInt(d.size)) throw new InvalidArgumentError(`copyBuffer: dstOffset ${dstOffset} + bytes ${bytes} is past dst's size ${d.size}`, 'bytes');
  throw new InvalidArgumentError('copyBuffer: the source and destination regions of one buffer overlap', 'dstOffset');
}

// imageBarrier's words, reused (recording allocates nothing).
const BARRIER_WORDS = new Uint32Array(IMAGE_BARRIER_WORDS);

/** An image layout transition (VkImageMemoryBarrier; the stage and access masks are VkPipelineStageFlags / VkAccessFlags: PipelineStageFlags and AccessFlags). */
export interface ImageBarrier {
  readonly oldLayout: ImageLayoutName;
  readonly newLayout: ImageLayoutName;
  readonly srcStageMask: PipelineStageFlags;
  readonly dstStageMask: PipelineStageFlags;
  readonly srcAccessMask?: AccessFlags;
  readonly dstAccessMask?: AccessFlags;
  readonly baseArrayLayer?: number;
  readonly layerCount?: number;
}

export interface SubmitSemaphores {
  readonly wait?: Semaphore;
  /** VkPipelineStageFlags the wait applies to (default PipelineStageFlags.ALL_COMMANDS). */
  readonly waitStage?: PipelineStageFlags;
  readonly signal?: Semaphore;
}

/** A VkQueue of a device (owned by the device; it has nothing to destroy). */
export class Queue {
  readonly handle: bigint;
  readonly familyIndex: number;
  readonly #device: DeviceOwner;
  readonly #n: NativeVulkanCompute;
  #submitted = 0;
  #completed = 0;

  /** @internal Submissions up to this serial are known to have completed (a fence seen signaled, waitIdle()). */
  get completedSerial(): number {
    return this.#completed;
  }

  /** @internal Submissions on one queue complete in order for a fence: all up to `serial` are done. */
  markCompleted(serial: number): void {
    if (serial > this.#completed) this.#completed = serial;
  }

  /** @internal Everything submitted so far has completed (vkQueueWaitIdle, vkDeviceWaitIdle returned). */
  markIdle(): void {
    this.#completed = this.#submitted;
  }

  /** @internal */
  constructor(device: DeviceOwner, handle: bigint, familyIndex: number) {
    this.#device = device;
    this.handle = handle;
    this.familyIndex = familyIndex;
    this.#n = vulkanCompute();
  }

  #live(): void {
    if (this.#device.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'the VkQueue\'s device was destroyed');
  }

  /** vkQueueSubmit of one command buffer; `fence` is signalled when it completes. */
  submit(commandBuffer: CommandBuffer, fence?: Fence, semaphores?: SubmitSemaphores): void {
    const device = this.#device;
    const cb = usable('commandBuffer', commandBuffer, CommandBuffer, device);
    const f = fence === undefined ? undefined : usable('fence', fence, Fence, device);
    let wait = NO_HANDLE;
    let signal = NO_HANDLE;
    let waitStage = 0x10000;
    let waitSemaphore: Semaphore | undefined;
    let signalSemaphore: Semaphore | undefined;
    if (semaphores !== undefined) {
      if (typeof semaphores !== 'object' || semaphores === null) throw new InvalidArgumentError('submit: semaphores must be an object');
      if (semaphores.wait !== undefined) wait = (waitSemaphore = usable('semaphores.wait', semaphores.wait, Semaphore, device)).handle;
      if (semaphores.signal !== undefined) signal = (signalSemaphore = usable('semaphores.signal', semaphores.signal, Semaphore, device)).handle;
      if (semaphores.waitStage !== undefined) {
        uint('semaphores.waitStage', semaphores.waitStage);
        // VUID-VkSubmitInfo-pWaitDstStageMask-requiredbitmask
        if (semaphores.waitStage === 0) throw new InvalidArgumentError('submit: semaphores.waitStage must name at least one pipeline stage, got 0', 'semaphores.waitStage');
        waitStage = semaphores.waitStage;
      }
    }
    this.#live();
    cb.checkSubmittable(this.familyIndex);
    if (f !== undefined) f.checkSubmittable();
    if (waitSemaphore !== undefined) waitSemaphore.checkWaitable();
    if (signalSemaphore !== undefined) signalSemaphore.checkSignalable(signalSemaphore === waitSemaphore);
    try {
      this.#n.queueSubmit(this.handle, cb.handle, f === undefined ? NO_HANDLE : f.handle, wait, waitStage, signal);
    } catch (error) {
      throw toVulkanError(error);
    }
    const serial = ++this.#submitted;
    cb.submitted(this, serial, f ?? null);
    if (f !== undefined) f.submitted(this, serial);
    if (waitSemaphore !== undefined) waitSemaphore.used(this, serial, false);
    if (signalSemaphore !== undefined) signalSemaphore.used(this, serial, true);
  }

  /** vkQueueWaitIdle (blocks the calling thread: prefer a fence and `await fence.wait()`). */
  waitIdle(): void {
    this.#live();
    withVulkanErrors(() => this.#n.queueWaitIdle(this.handle));
    this.markIdle();
  }
}
