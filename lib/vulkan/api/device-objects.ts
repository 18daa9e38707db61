// The objects a Device owns (buffers, memory, shader modules, descriptor set layouts, pools and
// sets, pipeline layouts, compute pipelines, command pools and buffers, fences, semaphores) and
// its queues. Each is destroyed by its own destroy() or with its owner; after that, using it
// throws VulkanError. Wrong arguments throw TypeError. Recording and submission pass numbers and
// the handles these objects keep, so those calls create nothing on the JavaScript heap.
import { constants as bufferConstants } from 'node:buffer';
import { VulkanError } from '../errors.js';
import { vulkanCompute, type DeviceChildKind, type NativeVulkanCompute } from '../native/addon.js';
import { toVulkanError, withVulkanErrors } from '../errors.js';
import { IMAGE_LAYOUTS, type Image, type ImageLayoutName } from './image.js';
import type { BufferUsageFlags, DescriptorType, ShaderStageFlags } from '../../generated/vulkan.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;
const VK_ERROR_MEMORY_MAP_FAILED = -5;
const VK_WHOLE_SIZE = 0xffff_ffff_ffff_ffffn;
/** The largest ArrayBuffer this Node can make (one mapping must fit in one). */
const MAX_ARRAY_BUFFER_BYTES = bufferConstants.MAX_LENGTH;

function destroyedError(what: string): VulkanError {
  return new VulkanError(VK_ERROR_VALIDATION_FAILED, `the ${what} (or the device that owns it) was destroyed`);
}

/** @internal TypeError unless `v` fits a uint32_t. */
export function checkUint(name: string, v: unknown): asserts v is number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffff_ffff) throw new TypeError(`${name} must be an integer in [0, 2^32)`);
}

/** @internal TypeError unless `v` is a VkDeviceSize (a non-negative safe integer or bigint). */
export function checkSize(name: string, v: unknown): asserts v is number | bigint {
  const ok = typeof v === 'bigint' ? v >= 0n : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (!ok) throw new TypeError(`${name} must be a non-negative integer (number or bigint)`);
}

/** What a child needs of its device (the Device class implements it). */
export interface DeviceOwner {
  /** @internal The VkDevice; throws VulkanError when the device is destroyed. */
  readonly liveHandle: bigint;
  readonly isDestroyed: boolean;
  /** @internal */
  adopt(child: DeviceChild): void;
  /** @internal */
  release(child: DeviceChild): void;
}

/** A Vulkan object a device owns. */
export abstract class DeviceChild {
  readonly handle: bigint;
  protected readonly device: DeviceOwner;
  protected readonly native: NativeVulkanCompute;
  #destroyed = false;
  protected abstract readonly kind: string;

  protected constructor(device: DeviceOwner, handle: bigint) {
    this.device = device;
    this.handle = handle;
    this.native = vulkanCompute();
    device.adopt(this);
  }

  get isDestroyed(): boolean {
    return this.#destroyed || this.device.isDestroyed;
  }

  /** Throws VulkanError when this object or its device is gone. */
  protected live(): void {
    if (this.#destroyed || this.device.isDestroyed) throw destroyedError(this.kind);
  }

  /** Does nothing once destroyed (by itself, its pool or its device). */
  destroy(): void {
    if (this.isDestroyed) return;
    this.release();
    this.#destroyed = true;
    this.device.release(this);
  }

  /** @internal Called by the device when it goes first: released here, the device forgets it. */
  destroyWithOwner(): void {
    if (this.#destroyed) return;
    this.release();
    this.#destroyed = true;
  }

  /** @internal Its parent object (a pool) freed it: nothing left to release. */
  abandon(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.device.release(this);
  }

  /** The vkDestroy or vkFree call of this object (and of the children it owns). */
  protected abstract release(): void;
}

/** A child whose release is one vkDestroy* call. */
abstract class SimpleChild extends DeviceChild {
  protected abstract readonly nativeKind: DeviceChildKind;
  protected release(): void {
    this.native.destroy(this.device.liveHandle, this.nativeKind, this.handle);
  }
}

export class DeviceMemory extends SimpleChild {
  protected readonly kind = 'VkDeviceMemory';
  protected readonly nativeKind = 'memory';
  readonly size: number | bigint;
  readonly memoryTypeIndex: number;
  #mapping: ArrayBuffer | null = null;

  /** @internal */
  constructor(device: DeviceOwner, size: number | bigint, memoryTypeIndex: number) {
    checkSize('size', size);
    checkUint('memoryTypeIndex', memoryTypeIndex);
    super(device, withVulkanErrors(() => vulkanCompute().allocateMemory(device.liveHandle, size, memoryTypeIndex)));
    this.size = size;
    this.memoryTypeIndex = memoryTypeIndex;
  }

  /** vkMapMemory: the range as an ArrayBuffer, detached by unmap() and by destroy(). */
  map(offset: number | bigint = 0, size: number | bigint = VK_WHOLE_SIZE): ArrayBuffer {
    checkSize('offset', offset);
    checkSize('size', size);
    // The ArrayBuffer spans exactly what the driver mapped: never a byte past the allocation.
    const length = this.#range('map', offset, size, false);
    if (length > BigInt(MAX_ARRAY_BUFFER_BYTES)) {
      throw new RangeError(`map: ${length} bytes is more than one ArrayBuffer can hold here (${MAX_ARRAY_BUFFER_BYTES}); map a smaller range`);
    }
    this.live();
    if (this.#mapping !== null) throw new VulkanError(VK_ERROR_MEMORY_MAP_FAILED, 'the memory is already mapped (unmap it first)');
    this.#mapping = withVulkanErrors(() => this.native.mapMemory(this.device.liveHandle, this.handle, offset, length));
    return this.#mapping;
  }

  /**
   * vkFlushMappedMemoryRanges: makes host writes to non-coherent memory visible to the device
   * (offset and size multiples of limits.nonCoherentAtomSize, or size to the end).
   */
  flush(offset: number | bigint = 0, size: number | bigint = VK_WHOLE_SIZE): void {
    this.#mappedRange('flush', offset, size);
    withVulkanErrors(() => this.native.flushMemory(this.device.liveHandle, this.handle, offset, size));
  }

  /** vkInvalidateMappedMemoryRanges: makes device writes to non-coherent memory visible to the host. */
  invalidate(offset: number | bigint = 0, size: number | bigint = VK_WHOLE_SIZE): void {
    this.#mappedRange('invalidate', offset, size);
    withVulkanErrors(() => this.native.invalidateMemory(this.device.liveHandle, this.handle, offset, size));
  }

  /**
   * The length of [offset, offset + size) (size VK_WHOLE_SIZE: to the end), or RangeError unless it
   * lies inside the allocation (VUID-vkMapMemory-offset-00679, -size-00680, -size-00681;
   * VUID-VkMappedMemoryRange-size-00685).
   */
  #range(what: string, offset: number | bigint, size: number | bigint, allowEmpty: boolean): bigint {
    const total = BigInt(this.size);
    const start = BigInt(offset);
    if (start >= total) throw new RangeError(`${what}: offset ${offset} is not below the allocation's size ${this.size}`);
    if (BigInt(size) === VK_WHOLE_SIZE) return total - start;
    const length = BigInt(size);
    if ((length === 0n && !allowEmpty) || start + length > total) {
      throw new RangeError(`${what}: offset ${offset} + size ${size} must lie inside the allocation (size ${this.size})${allowEmpty ? '' : ', size above 0'}`);
    }
    return length;
  }

  #mappedRange(what: string, offset: unknown, size: unknown): void {
    checkSize('offset', offset);
    checkSize('size', size);
    this.#range(what, offset, size, true);
    this.live();
    if (this.#mapping === null) throw new VulkanError(VK_ERROR_MEMORY_MAP_FAILED, `${what}: the memory is not mapped`);
  }

  get isMapped(): boolean {
    return this.#mapping !== null;
  }

  /** vkUnmapMemory; the ArrayBuffer map() gave is detached first (byteLength 0). */
  unmap(): void {
    this.live();
    if (this.#mapping === null) throw new VulkanError(VK_ERROR_MEMORY_MAP_FAILED, 'the memory is not mapped');
    this.#unmap();
  }

  #unmap(): void {
    if (this.#mapping === null) return;
    this.native.unmapMemory(this.device.liveHandle, this.handle, this.#mapping);
    this.#mapping = null;
  }

  protected override release(): void {
    this.#unmap();
    super.release();
  }
}

export interface BufferCreateOptions {
  readonly size: number | bigint;
  /** VkBufferUsageFlags, e.g. BufferUsageFlags.STORAGE_BUFFER | BufferUsageFlags.TRANSFER_DST. */
  readonly usage: BufferUsageFlags;
}

/** A VkBuffer. Not called `Buffer`: a named or `import *` import would shadow Node's global Buffer. */
export class VulkanBuffer extends SimpleChild {
  protected readonly kind = 'VkBuffer';
  protected readonly nativeKind = 'buffer';
  readonly size: number | bigint;
  /** VkMemoryRequirements */
  readonly memoryRequirements: { readonly size: number; readonly alignment: number; readonly memoryTypeBits: number };
  #memory: DeviceMemory | null = null;

  /** @internal */
  static create(device: DeviceOwner, options: BufferCreateOptions): VulkanBuffer {
    if (typeof options !== 'object' || options === null) throw new TypeError('createBuffer(options): options must be an object');
    checkSize('size', options.size);
    checkUint('usage', options.usage);
    const info = withVulkanErrors(() => vulkanCompute().createBuffer(device.liveHandle, options.size, options.usage));
    return new VulkanBuffer(device, info.handle, options.size, info);
  }

  private constructor(device: DeviceOwner, handle: bigint, size: number | bigint, req: VulkanBuffer['memoryRequirements']) {
    super(device, handle);
    this.size = size;
    this.memoryRequirements = { size: req.size, alignment: req.alignment, memoryTypeBits: req.memoryTypeBits };
  }

  /** vkBindBufferMemory */
  bindMemory(memory: DeviceMemory, offset: number | bigint = 0): void {
    if (!(memory instanceof DeviceMemory)) throw new TypeError('bindMemory(memory): memory must be a DeviceMemory');
    checkSize('offset', offset);
    this.live();
    if (memory.isDestroyed) throw destroyedError('VkDeviceMemory');
    withVulkanErrors(() => this.native.bindBufferMemory(this.device.liveHandle, this.handle, memory.handle, offset));
    this.#memory = memory;
  }

  get memory(): DeviceMemory | null {
    return this.#memory;
  }
}

export class ShaderModule extends SimpleChild {
  protected readonly kind = 'VkShaderModule';
  protected readonly nativeKind = 'shaderModule';
  /** @internal */
  constructor(device: DeviceOwner, code: Uint32Array) {
    if (!(code instanceof Uint32Array) || code.length === 0) throw new TypeError('createShaderModule(code): code must be a non-empty Uint32Array of SPIR-V words');
    if (code[0] !== 0x07230203) throw new TypeError('createShaderModule(code): code does not start with the SPIR-V magic number 0x07230203');
    super(device, withVulkanErrors(() => vulkanCompute().createShaderModule(device.liveHandle, code)));
  }
}

export interface DescriptorSetLayoutBinding {
  readonly binding: number;
  /** VkDescriptorType, e.g. DescriptorType.STORAGE_BUFFER */
  readonly descriptorType: DescriptorType;
  readonly descriptorCount?: number;
  /** VkShaderStageFlags, e.g. ShaderStageFlags.COMPUTE */
  readonly stageFlags: ShaderStageFlags;
}

export class DescriptorSetLayout extends SimpleChild {
  protected readonly kind = 'VkDescriptorSetLayout';
  protected readonly nativeKind = 'descriptorSetLayout';
  /** @internal */
  constructor(device: DeviceOwner, bindings: readonly DescriptorSetLayoutBinding[]) {
    if (!Array.isArray(bindings)) throw new TypeError('createDescriptorSetLayout(bindings): bindings must be an array');
    const flat = bindings.map((b: DescriptorSetLayoutBinding, i) => {
      if (typeof b !== 'object' || b === null) throw new TypeError(`bindings[${i}] must be an object`);
      checkUint(`bindings[${i}].binding`, b.binding);
      checkUint(`bindings[${i}].descriptorType`, b.descriptorType);
      checkUint(`bindings[${i}].stageFlags`, b.stageFlags);
      const descriptorCount = b.descriptorCount ?? 1;
      checkUint(`bindings[${i}].descriptorCount`, descriptorCount);
      return { binding: b.binding, descriptorType: b.descriptorType, descriptorCount, stageFlags: b.stageFlags };
    });
    super(device, withVulkanErrors(() => vulkanCompute().createDescriptorSetLayout(device.liveHandle, flat)));
  }
}

export interface DescriptorBufferWrite {
  readonly binding: number;
  /** VkDescriptorType: DescriptorType.STORAGE_BUFFER, UNIFORM_BUFFER, ... */
  readonly descriptorType: DescriptorType;
  readonly buffer: VulkanBuffer;
  readonly offset?: number | bigint;
  readonly range?: number | bigint;
}

/** A descriptor set; freed with its pool (or by destroy()). */
/**
 * A VkImageView of an Image (one mip level; the given array layers). The device owns it, but its
 * image may belong to someone else (a swapchain): destroy the view before that owner goes; once
 * the image is gone the view is unusable (VulkanError).
 */
export class ImageView extends SimpleChild {
  protected readonly kind = 'VkImageView';
  protected readonly nativeKind = 'imageView';
  readonly image: Image;

  /** @internal */
  constructor(device: DeviceOwner, image: Image, baseArrayLayer: number, layerCount: number) {
    checkUint('baseArrayLayer', baseArrayLayer);
    checkUint('layerCount', layerCount);
    if (layerCount < 1 || baseArrayLayer + layerCount > image.arrayLayers) throw new TypeError(`the layers [${baseArrayLayer}, ${baseArrayLayer + layerCount}) are not inside the image's ${image.arrayLayers}`);
    super(device, withVulkanErrors(() => vulkanCompute().createImageView(device.liveHandle, image.liveHandle, image.format, baseArrayLayer, layerCount)));
    this.image = image;
  }

  override get isDestroyed(): boolean {
    return super.isDestroyed || this.image.isDestroyed;
  }

  protected override live(): void {
    super.live();
    if (this.image.isDestroyed) throw destroyedError('VkImageView\'s image');
  }

  /** @internal The VkImageView; VulkanError when it or its image is gone. */
  get liveHandle(): bigint {
    this.live();
    return this.handle;
  }
}

/** One image descriptor: `view` in the layout it will be in when the set is used. */
export interface DescriptorImageWrite {
  readonly binding: number;
  /** VkDescriptorType: DescriptorType.STORAGE_IMAGE, SAMPLED_IMAGE, ... */
  readonly descriptorType: DescriptorType;
  readonly view: ImageView;
  readonly layout: ImageLayoutName;
}

export class DescriptorSet extends DeviceChild {
  protected readonly kind = 'VkDescriptorSet';
  readonly #pool: DescriptorPool;

  /** @internal */
  constructor(device: DeviceOwner, pool: DescriptorPool, handle: bigint) {
    super(device, handle);
    this.#pool = pool;
  }

  /** vkUpdateDescriptorSets with buffer descriptors. */
  writeBuffers(writes: readonly DescriptorBufferWrite[]): void {
    if (!Array.isArray(writes)) throw new TypeError('writeBuffers(writes): writes must be an array');
    const flat = writes.map((w: DescriptorBufferWrite, i) => {
      if (typeof w !== 'object' || w === null || !(w.buffer instanceof VulkanBuffer)) throw new TypeError(`writes[${i}].buffer must be a VulkanBuffer`);
      checkUint(`writes[${i}].binding`, w.binding);
      checkUint(`writes[${i}].descriptorType`, w.descriptorType);
      if (w.buffer.isDestroyed) throw destroyedError('VkBuffer');
      const offset = w.offset ?? 0;
      checkSize(`writes[${i}].offset`, offset);
      if (w.range !== undefined) checkSize(`writes[${i}].range`, w.range);
      return { binding: w.binding, descriptorType: w.descriptorType, buffer: w.buffer.handle, offset, ...(w.range !== undefined && { range: w.range }) };
    });
    this.live();
    this.native.updateDescriptorSetBuffers(this.device.liveHandle, this.handle, flat);
  }

  /** vkUpdateDescriptorSets with image descriptors (storage or sampled images). */
  writeImages(writes: readonly DescriptorImageWrite[]): void {
    if (!Array.isArray(writes)) throw new TypeError('writeImages(writes): writes must be an array');
    const flat = writes.map((w: DescriptorImageWrite, i) => {
      if (typeof w !== 'object' || w === null || !(w.view instanceof ImageView)) throw new TypeError(`writes[${i}].view must be an ImageView`);
      checkUint(`writes[${i}].binding`, w.binding);
      checkUint(`writes[${i}].descriptorType`, w.descriptorType);
      const imageLayout = (IMAGE_LAYOUTS as Record<string, number>)[w.layout as string];
      if (imageLayout === undefined) throw new TypeError(`writes[${i}].layout must be one of ${Object.keys(IMAGE_LAYOUTS).join(', ')}`);
      return { binding: w.binding, descriptorType: w.descriptorType, imageView: w.view.liveHandle, imageLayout };
    });
    this.live();
    this.native.updateDescriptorSetImages(this.device.liveHandle, this.handle, flat);
  }

  protected release(): void {
    withVulkanErrors(() => this.native.freeDescriptorSet(this.device.liveHandle, this.#pool.handle, this.handle));
    this.#pool.sets.delete(this);
  }
}

export class DescriptorPool extends SimpleChild {
  protected readonly kind = 'VkDescriptorPool';
  protected readonly nativeKind = 'descriptorPool';
  /** @internal */
  constructor(device: DeviceOwner, maxSets: number, poolSizes: readonly DescriptorPoolSize[]) {
    checkUint('maxSets', maxSets);
    if (!Array.isArray(poolSizes)) throw new TypeError('poolSizes must be an array');
    const flat = poolSizes.map((p: DescriptorPoolSize, i) => {
      if (typeof p !== 'object' || p === null) throw new TypeError(`poolSizes[${i}] must be an object`);
      checkUint(`poolSizes[${i}].type`, p.type);
      checkUint(`poolSizes[${i}].descriptorCount`, p.descriptorCount);
      return { type: p.type, descriptorCount: p.descriptorCount };
    });
    super(device, withVulkanErrors(() => vulkanCompute().createDescriptorPool(device.liveHandle, maxSets, flat)));
  }

  /** @internal the sets allocated from this pool and not freed */
  readonly sets = new Set<DescriptorSet>();

  /** vkAllocateDescriptorSets (one set). */
  allocateSet(layout: DescriptorSetLayout): DescriptorSet {
    if (!(layout instanceof DescriptorSetLayout)) throw new TypeError('allocateSet(layout): layout must be a DescriptorSetLayout');
    this.live();
    if (layout.isDestroyed) throw destroyedError('VkDescriptorSetLayout');
    const set = new DescriptorSet(this.device, this, withVulkanErrors(() => this.native.allocateDescriptorSet(this.device.liveHandle, this.handle, layout.handle)));
    this.sets.add(set);
    return set;
  }

  /** vkDestroyDescriptorPool frees its sets too. */
  protected override release(): void {
    for (const set of [...this.sets]) set.abandon();
    this.sets.clear();
    super.release();
  }
}

/** A VkDescriptorPoolSize: how many descriptors of one type a pool holds. */
export interface DescriptorPoolSize {
  /** VkDescriptorType, e.g. DescriptorType.STORAGE_BUFFER */
  readonly type: DescriptorType;
  readonly descriptorCount: number;
}

export interface PushConstantRange {
  /** VkShaderStageFlags, e.g. ShaderStageFlags.COMPUTE */
  readonly stageFlags: ShaderStageFlags;
  readonly offset: number;
  readonly size: number;
}

export class PipelineLayout extends SimpleChild {
  protected readonly kind = 'VkPipelineLayout';
  protected readonly nativeKind = 'pipelineLayout';
  /** @internal */
  constructor(device: DeviceOwner, setLayouts: readonly DescriptorSetLayout[], pushConstantRanges: readonly PushConstantRange[] = []) {
    if (!Array.isArray(setLayouts) || setLayouts.some((l) => !(l instanceof DescriptorSetLayout))) {
      throw new TypeError('createPipelineLayout(setLayouts): setLayouts must be an array of DescriptorSetLayout');
    }
    if (!Array.isArray(pushConstantRanges)) throw new TypeError('pushConstantRanges must be an array');
    const ranges = pushConstantRanges.map((r: PushConstantRange, i) => {
      checkUint(`pushConstantRanges[${i}].stageFlags`, r.stageFlags);
      checkUint(`pushConstantRanges[${i}].offset`, r.offset);
      checkUint(`pushConstantRanges[${i}].size`, r.size);
      return { stageFlags: r.stageFlags, offset: r.offset, size: r.size };
    });
    if (setLayouts.some((l) => l.isDestroyed)) throw destroyedError('VkDescriptorSetLayout');
    super(device, withVulkanErrors(() => vulkanCompute().createPipelineLayout(device.liveHandle, setLayouts.map((l) => l.handle), ranges)));
    this.pushConstantRanges = ranges;
  }

  /** The push-constant ranges the layout was created with. */
  readonly pushConstantRanges: readonly PushConstantRange[];

  /**
   * @internal RangeError unless `size` bytes at `offset` may be pushed for `stageFlags` with this
   * layout (VUID-vkCmdPushConstants-offset-00368/-size-00369/-size-00370/-offset-01795,
   * -stageFlags-requiredbitmask): a driver copies them into a fixed-size block without checking.
   */
  checkPushConstants(stageFlags: number, offset: number, size: number): void {
    if (stageFlags === 0) throw new RangeError('pushConstants: stageFlags must name at least one shader stage');
    if (offset % 4 !== 0 || size % 4 !== 0 || size === 0) throw new RangeError(`pushConstants: offset (${offset}) and data's byte length (${size}) must be multiples of 4, the length above 0`);
    // Indexed loops: this runs per recorded command, and must allocate nothing (NODE-3).
    const ranges = this.pushConstantRanges;
    for (let at = offset; at < offset + size; at += 4) {
      let stagesCovered = 0;
      for (let i = 0; i < ranges.length; i++) {
        const r = ranges[i]!;
        if (at >= r.offset && at < r.offset + r.size) stagesCovered |= r.stageFlags;
      }
      if ((stagesCovered & stageFlags) !== stageFlags) {
        throw new RangeError(`pushConstants: byte ${at} is in no push-constant range of the layout for every stage of 0x${stageFlags.toString(16)}`);
      }
    }
  }
}

export class ComputePipeline extends SimpleChild {
  protected readonly kind = 'VkPipeline';
  protected readonly nativeKind = 'pipeline';
  readonly layout: PipelineLayout;
  /** @internal */
  constructor(device: DeviceOwner, options: { readonly layout: PipelineLayout; readonly module: ShaderModule; readonly entryPoint?: string }) {
    if (typeof options !== 'object' || options === null) throw new TypeError('createComputePipeline(options): options must be an object');
    if (!(options.layout instanceof PipelineLayout)) throw new TypeError('options.layout must be a PipelineLayout');
    if (!(options.module instanceof ShaderModule)) throw new TypeError('options.module must be a ShaderModule');
    const entryPoint = options.entryPoint ?? 'main';
    if (typeof entryPoint !== 'string') throw new TypeError('options.entryPoint must be a string');
    if (options.layout.isDestroyed) throw destroyedError('VkPipelineLayout');
    if (options.module.isDestroyed) throw destroyedError('VkShaderModule');
    super(device, withVulkanErrors(() => vulkanCompute().createComputePipeline(device.liveHandle, options.layout.handle, options.module.handle, entryPoint)));
    this.layout = options.layout;
  }
}

export class Fence extends SimpleChild {
  protected readonly kind = 'VkFence';
  protected readonly nativeKind = 'fence';
  #waits = 0;
  /** @internal */
  constructor(device: DeviceOwner, signaled = false) {
    if (typeof signaled !== 'boolean') throw new TypeError('createFence(signaled): signaled must be a boolean');
    super(device, withVulkanErrors(() => vulkanCompute().createFence(device.liveHandle, signaled)));
  }

  /** vkGetFenceStatus */
  get signaled(): boolean {
    this.live();
    // try/catch, not withVulkanErrors: a closure per call would be garbage in every frame that polls.
    try {
      return this.native.fenceStatus(this.device.liveHandle, this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
  }

  /** vkResetFences */
  reset(): void {
    this.live();
    try {
      this.native.resetFence(this.device.liveHandle, this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
  }

  /**
   * vkWaitForFences on a native thread (the event loop keeps running): true when signalled,
   * false when `timeoutNs` passed first. The fence and its device cannot be destroyed meanwhile.
   */
  async wait(timeoutNs: number | bigint = VK_WHOLE_SIZE): Promise<boolean> {
    checkSize('timeoutNs', timeoutNs);
    this.live();
    this.#waits++;
    try {
      return await this.native.waitFence(this.device.liveHandle, this.handle, timeoutNs);
    } catch (error) {
      throw toVulkanError(error);
    } finally {
      this.#waits--;
    }
  }

  /** @internal */
  get waiting(): boolean {
    return this.#waits > 0;
  }

  protected override release(): void {
    if (this.#waits > 0) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'the VkFence is being waited on (await fence.wait() first)');
    super.release();
  }
}

export class Semaphore extends SimpleChild {
  protected readonly kind = 'VkSemaphore';
  protected readonly nativeKind = 'semaphore';
  /** @internal */
  constructor(device: DeviceOwner) {
    super(device, withVulkanErrors(() => vulkanCompute().createSemaphore(device.liveHandle)));
  }
}
