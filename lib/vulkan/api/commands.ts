// Command pools, command buffers and queues. Recording and submission check their arguments and
// pass numbers and kept handles to the native side: no JavaScript objects are created per call.
import { VulkanError } from '../errors.js';
import type { AccessFlags, PipelineStageFlags, ShaderStageFlags } from '../../generated/vulkan.js';
import {
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
function usable<T extends DeviceChild>(name: string, v: unknown, type: Function & { prototype: T }): T {
  if (!(v instanceof type)) throw new TypeError(`${name} must be a ${type.name}`);
  const child = v as T;
  if (child.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `${name} (a ${type.name}) was destroyed`);
  return child;
}

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
    for (const cb of [...this.buffers]) cb.abandon();
    this.buffers.clear();
    this.native.destroy(this.device.liveHandle, 'commandPool', this.handle);
  }
}

export class CommandBuffer extends DeviceChild {
  protected readonly kind = 'VkCommandBuffer';
  readonly #pool: CommandPool;
  readonly #n: NativeVulkanCompute;
  readonly #colour = new Float32Array(4);

  /** @internal */
  constructor(device: DeviceOwner, pool: CommandPool, handle: bigint) {
    super(device, handle);
    this.#pool = pool;
    this.#n = this.native;
  }

  /** vkBeginCommandBuffer (flags: VkCommandBufferUsageFlags; ONE_TIME_SUBMIT = 1). Resets a recorded buffer. */
  begin(flags = 0): this {
    uint('flags', flags);
    this.live();
    try {
      this.#n.beginCommandBuffer(this.handle, flags);
    } catch (error) {
      throw toVulkanError(error);
    }
    return this;
  }

  end(): this {
    this.live();
    try {
      this.#n.endCommandBuffer(this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    return this;
  }

  /** vkResetCommandBuffer */
  reset(): this {
    this.live();
    try {
      this.#n.resetCommandBuffer(this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    return this;
  }

  /** vkCmdBindPipeline (compute bind point). */
  bindPipeline(pipeline: ComputePipeline): this {
    const p = usable('pipeline', pipeline, ComputePipeline);
    this.live();
    this.#n.cmdBindComputePipeline(this.handle, p.handle);
    return this;
  }

  /** vkCmdBindDescriptorSets (compute bind point, one set at `firstSet`). */
  bindDescriptorSet(layout: PipelineLayout, set: DescriptorSet, firstSet = 0): this {
    const l = usable('layout', layout, PipelineLayout);
    const s = usable('set', set, DescriptorSet);
    uint('firstSet', firstSet);
    this.live();
    this.#n.cmdBindComputeDescriptorSet(this.handle, l.handle, firstSet, s.handle);
    return this;
  }

  /** vkCmdPushConstants: `data`'s bytes at `offset` (stageFlags: VkShaderStageFlags, e.g. ShaderStageFlags.COMPUTE). */
  pushConstants(layout: PipelineLayout, stageFlags: ShaderStageFlags, offset: number, data: ArrayBufferView): this {
    const l = usable('layout', layout, PipelineLayout);
    uint('stageFlags', stageFlags);
    uint('offset', offset);
    if (!ArrayBuffer.isView(data)) throw new TypeError('pushConstants: data must be a TypedArray or DataView');
    l.checkPushConstants(stageFlags, offset, data.byteLength);
    this.live();
    this.#n.cmdPushConstants(this.handle, l.handle, stageFlags, offset, data);
    return this;
  }

  /** vkCmdDispatch */
  dispatch(groupCountX: number, groupCountY = 1, groupCountZ = 1): this {
    uint('groupCountX', groupCountX);
    uint('groupCountY', groupCountY);
    uint('groupCountZ', groupCountZ);
    this.live();
    this.#n.cmdDispatch(this.handle, groupCountX, groupCountY, groupCountZ);
    return this;
  }

  /** vkCmdPipelineBarrier with one global VkMemoryBarrier (masks: PipelineStageFlags, AccessFlags). */
  pipelineBarrier(srcStageMask: PipelineStageFlags, dstStageMask: PipelineStageFlags, srcAccessMask: AccessFlags, dstAccessMask: AccessFlags): this {
    checkMemoryBarrierMasks(srcStageMask, dstStageMask, srcAccessMask, dstAccessMask);
    this.live();
    this.#n.cmdPipelineBarrier(this.handle, srcStageMask, dstStageMask, srcAccessMask, dstAccessMask);
    return this;
  }

  /** vkCmdCopyBuffer (one region). */
  copyBuffer(src: VulkanBuffer, dst: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint = 0, dstOffset: number | bigint = 0): this {
    const s = usable('src', src, VulkanBuffer);
    const d = usable('dst', dst, VulkanBuffer);
    size('bytes', bytes);
    size('srcOffset', srcOffset);
    size('dstOffset', dstOffset);
    this.live();
    this.#n.cmdCopyBuffer(this.handle, s.handle, d.handle, srcOffset, dstOffset, bytes);
    return this;
  }

  /**
   * vkCmdPipelineBarrier with one VkImageMemoryBarrier: a layout transition of `image` (colour
   * aspect, every mip level, all its array layers unless `layers` says which).
   */
  imageBarrier(image: Image, barrier: ImageBarrier): this {
    const handle = this.#image('imageBarrier', image);
    const b = BARRIER_WORDS;
    writeImageBarrier(barrier, image.arrayLayers, b, 0);
    this.#n.cmdImageBarrier(this.handle, handle, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!);
    return this;
  }

  /**
   * vkCmdClearColorImage with a float colour (0..1 for UNORM and SRGB formats) over every mip
   * level and the array layers [baseArrayLayer, baseArrayLayer + layerCount). `layout` is the
   * image's layout now: 'transfer-dst-optimal' or 'general'.
   */
  clearColorImage(image: Image, layout: 'transfer-dst-optimal' | 'general', r: number, g: number, b: number, a: number, baseArrayLayer = 0, layerCount = 1): this {
    const handle = this.#image('clearColorImage', image);
    if (layout !== 'transfer-dst-optimal' && layout !== 'general') throw new TypeError("clearColorImage: layout must be 'transfer-dst-optimal' or 'general'");
    if (typeof r !== 'number' || typeof g !== 'number' || typeof b !== 'number' || typeof a !== 'number') throw new TypeError('clearColorImage: the colour is 4 numbers');
    uint('baseArrayLayer', baseArrayLayer);
    uint('layerCount', layerCount);
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

  #image(what: string, image: Image): bigint {
    if (!(image instanceof Image)) throw new TypeError(`${what}: image must be an Image (a swapchain's images)`);
    if (!image.belongsTo(this.device)) throw new TypeError(`${what}: the image belongs to another device`);
    this.live();
    return image.liveHandle;
  }

  protected release(): void {
    this.#n.freeCommandBuffer(this.device.liveHandle, this.#pool.handle, this.handle);
    this.#pool.buffers.delete(this);
  }
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
    const cb = usable('commandBuffer', commandBuffer, CommandBuffer);
    const f = fence === undefined ? undefined : usable('fence', fence, Fence);
    let wait = NO_HANDLE;
    let signal = NO_HANDLE;
    let waitStage = 0x10000;
    if (semaphores !== undefined) {
      if (typeof semaphores !== 'object' || semaphores === null) throw new TypeError('submit: semaphores must be an object');
      if (semaphores.wait !== undefined) wait = usable('semaphores.wait', semaphores.wait, Semaphore).handle;
      if (semaphores.signal !== undefined) signal = usable('semaphores.signal', semaphores.signal, Semaphore).handle;
      if (semaphores.waitStage !== undefined) {
        uint('semaphores.waitStage', semaphores.waitStage);
        waitStage = semaphores.waitStage;
      }
    }
    this.#live();
    try {
      this.#n.queueSubmit(this.handle, cb.handle, f === undefined ? NO_HANDLE : f.handle, wait, waitStage, signal);
    } catch (error) {
      throw toVulkanError(error);
    }
  }

  /** vkQueueWaitIdle (blocks the calling thread: prefer a fence and `await fence.wait()`). */
  waitIdle(): void {
    this.#live();
    withVulkanErrors(() => this.#n.queueWaitIdle(this.handle));
  }
}
