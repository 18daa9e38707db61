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
import { describeValue, InvalidArgumentError, InvalidStateError } from '../../core/errors.js';
import { readShaderInterface, SpirvFormatError, type ShaderInterface } from './spirv.js';

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
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffff_ffff) throw new InvalidArgumentError(`${name} must be an integer in [0, 2^32), got ${describeValue(v)}`, name);
}

/** @internal TypeError unless `v` is a VkDeviceSize (a non-negative safe integer or bigint). */
export function checkSize(name: string, v: unknown): asserts v is number | bigint {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && !Number.isSafeInteger(v)) {
    throw new InvalidArgumentError(`${name} is ${v}, beyond Number.MAX_SAFE_INTEGER (2^53 - 1), where a number cannot hold every integer: pass a bigint`, name);
  }
  const ok = typeof v === 'bigint' ? v >= 0n && v <= 0xffff_ffff_ffff_ffffn : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (!ok) throw new InvalidArgumentError(`${name} must be a non-negative integer below 2^64 (a safe-integer number or a bigint), got ${describeValue(v)}`, name);
}

/** @internal The limits and memory types the typed API checks arguments against (read once per device). */
export interface DeviceLimits {
  readonly maxPushConstantsSize: number;
  readonly maxComputeWorkGroupCount: readonly [number, number, number];
  readonly maxBoundDescriptorSets: number;
  readonly minStorageBufferOffsetAlignment: number;
  readonly memoryTypeCount: number;
  /** Per memory type: the size in bytes of its heap (VkMemoryHeap::size). */
  readonly memoryTypeHeapSizes: readonly bigint[];
  /** VkPhysicalDeviceLimits::maxViewportDimensions and viewportBoundsRange (setViewport's bounds). */
  readonly maxViewportDimensions: readonly [number, number];
  readonly viewportBoundsRange: readonly [number, number];
}

/** @internal What a fence and a command buffer know of the queue they were submitted to. */
export interface SubmissionQueue {
  /** Submissions up to this serial are known to have completed. */
  readonly completedSerial: number;
  markCompleted(serial: number): void;
}

/** What a child needs of its device (the Device class implements it). */
export interface DeviceOwner {
  /** @internal The VkDevice; throws VulkanError when the device is destroyed. */
  readonly liveHandle: bigint;
  readonly isDestroyed: boolean;
  /** @internal */
  readonly limits: DeviceLimits;
  /** @internal The graphics features the device was created with (null: not known). */
  readonly graphicsFeatures: { readonly dynamicRendering: boolean | null; readonly multiview: boolean | null; readonly multiDrawIndirect: boolean | null; readonly synchronization2: boolean | null; readonly dynamicRenderingLocalRead: boolean | null };
  /** @internal Whether the device's dispatch table has the later command of bit `bit` (commands/later-commands.ts COMMAND_BITS). */
  hasCommand(bit: number): boolean;
  /** @internal timestampValidBits of queue family `family` (undefined: not known). */
  timestampValidBits(family: number): number | undefined;
  /** @internal VkFormatProperties.optimalTilingFeatures of `format`. */
  optimalTilingFeatures(format: number): number;
  /** @internal InvalidStateError when a submitted command buffer that has not completed uses `child` (`action` names what was asked). */
  checkNotInUse(child: DeviceChild, action: string): void;
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

  /** @internal Whether `device` owns this object. */
  ownedBy(device: DeviceOwner): boolean {
    return this.device === device;
  }

  /** Throws VulkanError when this object or its device is gone. */
  protected live(): void {
    if (this.#destroyed || this.device.isDestroyed) throw destroyedError(this.kind);
  }

  /** Does nothing once destroyed (by itself, its pool or its device). */
  destroy(): void {
    if (this.isDestroyed) return;
    // Destroying what a submitted, unfinished command buffer uses is undefined behaviour
    // (VUID-vkDestroyBuffer-buffer-00922 and the like for every object kind).
    this.device.checkNotInUse(this, 'destroy()');
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
    // VUID-VkMemoryAllocateInfo-allocationSize-07897, -memoryTypeIndex-01714
    if (BigInt(size) === 0n) throw new InvalidArgumentError('allocateMemory(size, memoryTypeIndex): size must be above 0, got 0', 'size');
    if (memoryTypeIndex === -1) {
      throw new InvalidArgumentError('allocateMemory(size, memoryTypeIndex): memoryTypeIndex is -1, which findMemoryType() returns when no memory type fits: check its result (or use requireMemoryType(), which throws saying which)', 'memoryTypeIndex');
    }
    checkUint('memoryTypeIndex', memoryTypeIndex);
    const types = device.limits.memoryTypeCount;
    if (memoryTypeIndex >= types) throw new InvalidArgumentError(`allocateMemory(size, memoryTypeIndex): memoryTypeIndex must be below the physical device's ${types} memory types, got ${memoryTypeIndex}`, 'memoryTypeIndex');
    // VUID-vkAllocateMemory-pAllocateInfo-01713: no larger than the type's heap.
    const heap = device.limits.memoryTypeHeapSizes[memoryTypeIndex]!;
    if (BigInt(size) > heap) throw new InvalidArgumentError(`allocateMemory(size, memoryTypeIndex): size must be at most the ${heap} bytes of memory type ${memoryTypeIndex}'s heap, got ${size}`, 'size');
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
      throw new InvalidArgumentError(`map: ${length} bytes is more than one ArrayBuffer can hold here (${MAX_ARRAY_BUFFER_BYTES}); map a smaller range`);
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
    if (start >= total) throw new InvalidArgumentError(`${what}: offset ${offset} is not below the allocation's size ${this.size}`);
    if (BigInt(size) === VK_WHOLE_SIZE) return total - start;
    const length = BigInt(size);
    if ((length === 0n && !allowEmpty) || start + length > total) {
      throw new InvalidArgumentError(`${what}: offset ${offset} + size ${size} must lie inside the allocation (size ${this.size})${allowEmpty ? '' : ', size above 0'}`);
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

/** The Vulkan 1.0 VkBufferUsageFlagBits (TRANSFER_SRC 0x1 … INDIRECT_BUFFER 0x100): the usages a buffer of this API may have. */
export const KNOWN_BUFFER_USAGE = 0x1ff;
const USAGE_TRANSFER_SRC = 0x1;
const USAGE_TRANSFER_DST = 0x2;
const USAGE_UNIFORM_BUFFER = 0x10;
const USAGE_STORAGE_BUFFER = 0x20;

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
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError(`createBuffer(options): options must be an object, got ${describeValue(options)}`, 'options');
    checkSize('options.size', options.size);
    checkUint('options.usage', options.usage);
    // VUID-VkBufferCreateInfo-size-00912, -usage-requiredbitmask, -flags-parameter
    if (BigInt(options.size) === 0n) throw new InvalidArgumentError('createBuffer(options): options.size must be above 0, got 0', 'options.size');
    if (options.usage === 0) throw new InvalidArgumentError('createBuffer(options): options.usage must name at least one VkBufferUsageFlagBits (e.g. STORAGE_BUFFER 0x20), got 0', 'options.usage');
    const unknown = options.usage & ~KNOWN_BUFFER_USAGE;
    if (unknown !== 0) {
      throw new InvalidArgumentError(`createBuffer(options): options.usage has bits 0x${(unknown >>> 0).toString(16)} that are no Vulkan 1.0 VkBufferUsageFlagBits (the known bits are 0x${KNOWN_BUFFER_USAGE.toString(16)}), got 0x${(options.usage >>> 0).toString(16)}`, 'options.usage');
    }
    const info = withVulkanErrors(() => vulkanCompute().createBuffer(device.liveHandle, options.size, options.usage));
    return new VulkanBuffer(device, info.handle, options.size, options.usage, info);
  }

  /** VkBufferUsageFlags the buffer was created with. */
  readonly usage: number;

  private constructor(device: DeviceOwner, handle: bigint, size: number | bigint, usage: number, req: VulkanBuffer['memoryRequirements']) {
    super(device, handle);
    this.size = size;
    this.usage = usage;
    this.memoryRequirements = { size: req.size, alignment: req.alignment, memoryTypeBits: req.memoryTypeBits };
  }

  /** vkBindBufferMemory */
  bindMemory(memory: DeviceMemory, offset: number | bigint = 0): void {
    if (!(memory instanceof DeviceMemory)) throw new InvalidArgumentError(`bindMemory(memory, offset): memory must be a DeviceMemory, got ${describeValue(memory)}`, 'memory');
    checkSize('offset', offset);
    this.live();
    if (memory.isDestroyed) throw destroyedError('VkDeviceMemory');
    // VUID-vkBindBufferMemory-buffer-07459 (bound once), -memory-01035, -memoryOffset-01036, -size-01037
    if (this.#memory !== null) throw new InvalidStateError('bindMemory: the buffer is already bound to memory (a VkBuffer is bound once; create another buffer)');
    if (!memory.ownedBy(this.device)) throw new InvalidArgumentError('bindMemory(memory): memory belongs to another device', 'memory');
    const req = this.memoryRequirements;
    if (((req.memoryTypeBits >>> memory.memoryTypeIndex) & 1) === 0) {
      throw new InvalidArgumentError(`bindMemory(memory): memory is of type ${memory.memoryTypeIndex}, not one of the buffer's memoryRequirements.memoryTypeBits (0x${(req.memoryTypeBits >>> 0).toString(16)})`, 'memory');
    }
    if (BigInt(offset) % BigInt(req.alignment) !== 0n) throw new InvalidArgumentError(`bindMemory(memory, offset): offset must be a multiple of memoryRequirements.alignment (${req.alignment}), got ${offset}`, 'offset');
    if (BigInt(offset) + BigInt(req.size) > BigInt(memory.size)) {
      throw new InvalidArgumentError(`bindMemory(memory, offset): the buffer needs ${req.size} bytes at offset ${offset}, past the allocation's ${memory.size}`, 'offset');
    }
    withVulkanErrors(() => this.native.bindBufferMemory(this.device.liveHandle, this.handle, memory.handle, offset));
    this.#memory = memory;
  }

  get memory(): DeviceMemory | null {
    return this.#memory;
  }

  /**
   * @internal InvalidStateError unless the buffer and its memory are there (a command or a
   * descriptor on a buffer with no memory is undefined behaviour: VUID-vkCmdCopyBuffer-srcBuffer-00119).
   */
  checkBacked(what: string): void {
    this.live();
    if (this.#memory === null) throw new InvalidStateError(`${what}: the buffer has no memory bound (bindMemory() first)`);
    if (this.#memory.isDestroyed) throw new InvalidStateError(`${what}: the buffer's memory was destroyed`);
  }

  /** @internal InvalidArgumentError unless the buffer was created with every bit of `usage`. */
  checkUsage(what: string, usage: number, name: string): void {
    if ((this.usage & usage) !== usage) {
      throw new InvalidArgumentError(`${what}: ${name} needs usage 0x${usage.toString(16)} (${USAGE_NAMES[usage] ?? 'see VkBufferUsageFlagBits'}), it was created with 0x${this.usage.toString(16)}`, name);
    }
  }
}

const USAGE_NAMES: Record<number, string> = {
  [USAGE_TRANSFER_SRC]: 'TRANSFER_SRC',
  [USAGE_TRANSFER_DST]: 'TRANSFER_DST',
  [USAGE_UNIFORM_BUFFER]: 'UNIFORM_BUFFER',
  [USAGE_STORAGE_BUFFER]: 'STORAGE_BUFFER',
};
/** @internal */
export const BUFFER_USAGE = { TRANSFER_SRC: USAGE_TRANSFER_SRC, TRANSFER_DST: USAGE_TRANSFER_DST, UNIFORM_BUFFER: USAGE_UNIFORM_BUFFER, STORAGE_BUFFER: USAGE_STORAGE_BUFFER } as const;

export class ShaderModule extends SimpleChild {
  protected readonly kind = 'VkShaderModule';
  protected readonly nativeKind = 'shaderModule';
  /** @internal */
  constructor(device: DeviceOwner, code: Uint32Array) {
    if (!(code instanceof Uint32Array) || code.length === 0) throw new InvalidArgumentError('createShaderModule(code): code must be a non-empty Uint32Array of SPIR-V words');
    if (code[0] !== 0x07230203) throw new InvalidArgumentError('createShaderModule(code): code does not start with the SPIR-V magic number 0x07230203');
    let shaderInterface: ShaderInterface;
    try {
      shaderInterface = readShaderInterface(code);
    } catch (error) {
      if (error instanceof SpirvFormatError) throw new InvalidArgumentError(`createShaderModule(code): ${error.message}`, 'code');
      throw error;
    }
    super(device, withVulkanErrors(() => vulkanCompute().createShaderModule(device.liveHandle, code)));
    this.interface = shaderInterface;
  }

  /** What the module declares: its resource variables (set, binding, descriptor kinds), push-constant bytes and entry points. */
  readonly interface: ShaderInterface;
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
    if (!Array.isArray(bindings)) throw new InvalidArgumentError('createDescriptorSetLayout(bindings): bindings must be an array');
    const flat = bindings.map((b: DescriptorSetLayoutBinding, i) => {
      if (typeof b !== 'object' || b === null) throw new InvalidArgumentError(`bindings[${i}] must be an object`);
      checkUint(`bindings[${i}].binding`, b.binding);
      checkUint(`bindings[${i}].descriptorType`, b.descriptorType);
      checkUint(`bindings[${i}].stageFlags`, b.stageFlags);
      const descriptorCount = b.descriptorCount ?? 1;
      checkUint(`bindings[${i}].descriptorCount`, descriptorCount);
      checkDescriptorType(`bindings[${i}].descriptorType`, b.descriptorType);
      checkStageFlags(`bindings[${i}].stageFlags`, b.stageFlags, true);
      return { binding: b.binding, descriptorType: b.descriptorType, descriptorCount, stageFlags: b.stageFlags };
    });
    // VUID-VkDescriptorSetLayoutCreateInfo-binding-00279: each binding number once.
    const byBinding = new Map<number, { readonly descriptorType: number; readonly descriptorCount: number; readonly stageFlags: number }>();
    flat.forEach((b, i) => {
      if (byBinding.has(b.binding)) throw new InvalidArgumentError(`createDescriptorSetLayout(bindings): bindings[${i}].binding ${b.binding} is listed twice`, `bindings[${i}].binding`);
      byBinding.set(b.binding, b);
    });
    super(device, withVulkanErrors(() => vulkanCompute().createDescriptorSetLayout(device.liveHandle, flat)));
    this.bindings = byBinding;
    // "Identically defined" (the specification's "Pipeline Layout Compatibility"): the same bindings.
    this.key = [...flat].sort((a, b) => a.binding - b.binding).map((b) => `${b.binding}:${b.descriptorType}:${b.descriptorCount}:${b.stageFlags}`).join(',');
  }

  /** @internal The layout's bindings by binding number. */
  readonly bindings: ReadonlyMap<number, { readonly descriptorType: number; readonly descriptorCount: number; readonly stageFlags: number }>;
  /** @internal Equal for identically defined layouts. */
  readonly key: string;
}

/** VkDescriptorType values of Vulkan 1.0 (SAMPLER 0 … INPUT_ATTACHMENT 10). */
const MAX_DESCRIPTOR_TYPE = 10;
/** VkShaderStageFlagBits of Vulkan 1.0 (VERTEX 0x1 … COMPUTE 0x20), and ALL. */
const KNOWN_STAGES = 0x3f;
const STAGE_ALL = 0x7fffffff;
const STAGE_COMPUTE = 0x20;

function checkDescriptorType(name: string, type: number): void {
  if (type > MAX_DESCRIPTOR_TYPE) throw new InvalidArgumentError(`${name} must be a Vulkan 1.0 VkDescriptorType (0..${MAX_DESCRIPTOR_TYPE}; STORAGE_BUFFER is 7), got ${type}`, name);
}

function checkStageFlags(name: string, flags: number, zeroAllowed: boolean): void {
  if (flags === 0 && !zeroAllowed) throw new InvalidArgumentError(`${name} must name at least one shader stage (COMPUTE is 0x20), got 0`, name);
  if (flags !== STAGE_ALL && (flags & ~KNOWN_STAGES) !== 0) {
    throw new InvalidArgumentError(`${name} must be VkShaderStageFlags of Vulkan 1.0 (bits of 0x${KNOWN_STAGES.toString(16)}, or ALL 0x7fffffff), got 0x${(flags >>> 0).toString(16)}`, name);
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
  /** VkFormat of the view. */
  readonly format: number;
  /** VkImageAspectFlags the view covers (colour 0x1, depth 0x2, stencil 0x4). */
  readonly aspect: number;
  readonly baseArrayLayer: number;
  readonly layerCount: number;

  /**
   * @internal `options` null: a colour view of one mip level and the given layers (2D for one
   * layer, 2D_ARRAY for more); otherwise the checked view the typed API's createImageView(image, options) asks for.
   */
  constructor(
    device: DeviceOwner,
    image: Image,
    baseArrayLayer: number,
    layerCount: number,
    options: { viewType: number; format: number; aspect: number; baseMipLevel: number; levelCount: number; baseArrayLayer: number; layerCount: number } | null = null,
  ) {
    if (options === null) {
      checkUint('baseArrayLayer', baseArrayLayer);
      checkUint('layerCount', layerCount);
      if (layerCount < 1 || baseArrayLayer + layerCount > image.arrayLayers) throw new InvalidArgumentError(`the layers [${baseArrayLayer}, ${baseArrayLayer + layerCount}) are not inside the image's ${image.arrayLayers}`);
    }
    super(
      device,
      withVulkanErrors(() =>
        options === null
          ? vulkanCompute().createImageView(device.liveHandle, image.liveHandle, image.format, baseArrayLayer, layerCount)
          : vulkanCompute().createImageViewOf(device.liveHandle, image.liveHandle, options),
      ),
    );
    this.image = image;
    this.format = options === null ? image.format : options.format;
    this.aspect = options === null ? 0x1 : options.aspect;
    this.baseArrayLayer = options === null ? baseArrayLayer : options.baseArrayLayer;
    this.layerCount = options === null ? layerCount : options.layerCount;
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
  /** The sampler of a COMBINED_IMAGE_SAMPLER descriptor. */
  readonly sampler?: Sampler;
}

export class DescriptorSet extends DeviceChild {
  protected readonly kind = 'VkDescriptorSet';
  readonly #pool: DescriptorPool;
  /** The layout the set was allocated with. */
  readonly layout: DescriptorSetLayout;
  // What each binding was last written with (a descriptor never written is undefined to read).
  readonly #written = new Map<number, VulkanBuffer | ImageView>();
  /** @internal Counts the writes: a command buffer that bound the set is invalid after a later write. */
  updateSerial = 0;

  /** @internal */
  constructor(device: DeviceOwner, pool: DescriptorPool, handle: bigint, layout: DescriptorSetLayout) {
    super(device, handle);
    this.#pool = pool;
    this.layout = layout;
  }

  /** @internal The pool the set came from. */
  get pool(): DescriptorPool {
    return this.#pool;
  }

  /** @internal Whether a binding of the set was last written with `child` (a buffer or an image view). */
  references(child: DeviceChild): boolean {
    for (const r of this.#written.values()) if (r === child || (r instanceof VulkanBuffer && r.memory === child)) return true;
    return false;
  }

  /**
   * @internal Why binding `binding` cannot be read now (never written, or what it was written with
   * is gone), or null. Allocates nothing when it can.
   */
  unreadable(binding: number): string | null {
    const r = this.#written.get(binding);
    if (r === undefined) return `binding ${binding} of the set was never written (writeBuffers()/writeImages() first)`;
    if (r.isDestroyed) return `binding ${binding} of the set names a destroyed ${r instanceof VulkanBuffer ? 'VulkanBuffer' : 'ImageView'}`;
    if (r instanceof VulkanBuffer && (r.memory === null || r.memory.isDestroyed)) return `binding ${binding} of the set names a buffer whose memory was destroyed`;
    return null;
  }

  /** @internal Why a written binding can no longer be read (its resource or memory destroyed), or null. */
  brokenWrite(): string | null {
    for (const binding of this.#written.keys()) {
      const why = this.unreadable(binding);
      if (why !== null) return why;
    }
    return null;
  }

  #target(what: string, i: number, binding: number, descriptorType: number): void {
    const b = this.layout.bindings.get(binding);
    // VUID-VkWriteDescriptorSet-dstBinding-00315, -descriptorType-00319
    if (b === undefined) throw new InvalidArgumentError(`${what}: writes[${i}].binding ${binding} is not a binding of the set's layout (it has ${[...this.layout.bindings.keys()].join(', ') || 'none'})`, `writes[${i}].binding`);
    if (b.descriptorType !== descriptorType) {
      throw new InvalidArgumentError(`${what}: writes[${i}].descriptorType must be the layout's type for binding ${binding} (${b.descriptorType}), got ${descriptorType}`, `writes[${i}].descriptorType`);
    }
  }

  /** vkUpdateDescriptorSets with buffer descriptors. */
  writeBuffers(writes: readonly DescriptorBufferWrite[]): void {
    if (!Array.isArray(writes)) throw new InvalidArgumentError('writeBuffers(writes): writes must be an array');
    const flat = writes.map((w: DescriptorBufferWrite, i) => {
      if (typeof w !== 'object' || w === null || !(w.buffer instanceof VulkanBuffer)) throw new InvalidArgumentError(`writes[${i}].buffer must be a VulkanBuffer`);
      checkUint(`writes[${i}].binding`, w.binding);
      checkUint(`writes[${i}].descriptorType`, w.descriptorType);
      if (w.buffer.isDestroyed) throw destroyedError('VkBuffer');
      const offset = w.offset ?? 0;
      checkSize(`writes[${i}].offset`, offset);
      if (w.range !== undefined) checkSize(`writes[${i}].range`, w.range);
      this.#target('writeBuffers', i, w.binding, w.descriptorType);
      if (!w.buffer.ownedBy(this.device)) throw new InvalidArgumentError(`writeBuffers: writes[${i}].buffer belongs to another device`, `writes[${i}].buffer`);
      w.buffer.checkBacked(`writeBuffers: writes[${i}].buffer`);
      // VUID-VkWriteDescriptorSet-descriptorType-00330/-00331 (usage), -00327/-00328 (alignment), VkDescriptorBufferInfo-offset-00340, -range-00341
      const storage = w.descriptorType === 7 || w.descriptorType === 9;
      const uniform = w.descriptorType === 6 || w.descriptorType === 8;
      if (!storage && !uniform) throw new InvalidArgumentError(`writeBuffers: writes[${i}].descriptorType ${w.descriptorType} is no buffer descriptor (UNIFORM_BUFFER 6, STORAGE_BUFFER 7, their DYNAMIC 8 and 9)`, `writes[${i}].descriptorType`);
      w.buffer.checkUsage('writeBuffers', storage ? BUFFER_USAGE.STORAGE_BUFFER : BUFFER_USAGE.UNIFORM_BUFFER, `writes[${i}].buffer`);
      const size = BigInt(w.buffer.size);
      if (BigInt(offset) >= size) throw new InvalidArgumentError(`writeBuffers: writes[${i}].offset must be below the buffer's size ${w.buffer.size}, got ${offset}`, `writes[${i}].offset`);
      if (storage && BigInt(offset) % BigInt(this.device.limits.minStorageBufferOffsetAlignment) !== 0n) {
        throw new InvalidArgumentError(`writeBuffers: writes[${i}].offset must be a multiple of minStorageBufferOffsetAlignment (${this.device.limits.minStorageBufferOffsetAlignment}), got ${offset}`, `writes[${i}].offset`);
      }
      if (w.range !== undefined && w.range !== VK_WHOLE_SIZE && (BigInt(w.range) === 0n || BigInt(offset) + BigInt(w.range) > size)) {
        throw new InvalidArgumentError(`writeBuffers: writes[${i}] offset ${offset} + range ${w.range} must lie inside the buffer (size ${w.buffer.size}), range above 0`, `writes[${i}].range`);
      }
      return { binding: w.binding, descriptorType: w.descriptorType, buffer: w.buffer.handle, offset, ...(w.range !== undefined && { range: w.range }) };
    });
    this.live();
    // VUID-vkUpdateDescriptorSets-None-03047: not while a submitted command buffer that has not completed uses the set.
    this.device.checkNotInUse(this, 'writeBuffers()');
    this.native.updateDescriptorSetBuffers(this.device.liveHandle, this.handle, flat);
    writes.forEach((w) => this.#written.set(w.binding, w.buffer));
    this.updateSerial++;
  }

  /** vkUpdateDescriptorSets with image descriptors (storage or sampled images). */
  writeImages(writes: readonly DescriptorImageWrite[]): void {
    if (!Array.isArray(writes)) throw new InvalidArgumentError('writeImages(writes): writes must be an array');
    const flat = writes.map((w: DescriptorImageWrite, i) => {
      if (typeof w !== 'object' || w === null || !(w.view instanceof ImageView)) throw new InvalidArgumentError(`writes[${i}].view must be an ImageView`);
      checkUint(`writes[${i}].binding`, w.binding);
      checkUint(`writes[${i}].descriptorType`, w.descriptorType);
      const imageLayout = (IMAGE_LAYOUTS as Record<string, number>)[w.layout as string];
      if (imageLayout === undefined) throw new InvalidArgumentError(`writes[${i}].layout must be one of ${Object.keys(IMAGE_LAYOUTS).join(', ')}`);
      this.#target('writeImages', i, w.binding, w.descriptorType);
      // The typed API writes images as combined image samplers (1, with writes[i].sampler), sampled (2) or storage (3) images
      // (VUID-VkWriteDescriptorSet-descriptorType-00325: a combined image sampler's sampler is a live VkSampler).
      if (w.descriptorType !== 1 && w.descriptorType !== 2 && w.descriptorType !== 3) throw new InvalidArgumentError(`writeImages: writes[${i}].descriptorType must be COMBINED_IMAGE_SAMPLER 1, SAMPLED_IMAGE 2 or STORAGE_IMAGE 3, got ${w.descriptorType}`, `writes[${i}].descriptorType`);
      if (!w.view.ownedBy(this.device)) throw new InvalidArgumentError(`writeImages: writes[${i}].view belongs to another device`, `writes[${i}].view`);
      if (w.descriptorType === 1) {
        if (!(w.sampler instanceof Sampler)) throw new InvalidArgumentError(`writeImages: writes[${i}].sampler must be a Sampler for a COMBINED_IMAGE_SAMPLER, got ${describeValue(w.sampler)}`, `writes[${i}].sampler`);
        if (w.sampler.isDestroyed) throw destroyedError('VkSampler');
        if (!w.sampler.ownedBy(this.device)) throw new InvalidArgumentError(`writeImages: writes[${i}].sampler belongs to another device`, `writes[${i}].sampler`);
        return { binding: w.binding, descriptorType: w.descriptorType, imageView: w.view.liveHandle, imageLayout, sampler: w.sampler.handle };
      }
      return { binding: w.binding, descriptorType: w.descriptorType, imageView: w.view.liveHandle, imageLayout };
    });
    this.live();
    this.device.checkNotInUse(this, 'writeImages()');
    this.native.updateDescriptorSetImages(this.device.liveHandle, this.handle, flat);
    writes.forEach((w) => this.#written.set(w.binding, w.view));
    this.updateSerial++;
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
    // VUID-VkDescriptorPoolCreateInfo-maxSets-00301, VUID-VkDescriptorPoolSize-descriptorCount-00302
    if (maxSets === 0) throw new InvalidArgumentError('createDescriptorPool(maxSets, poolSizes): maxSets must be above 0, got 0', 'maxSets');
    if (!Array.isArray(poolSizes)) throw new InvalidArgumentError('poolSizes must be an array');
    const flat = poolSizes.map((p: DescriptorPoolSize, i) => {
      if (typeof p !== 'object' || p === null) throw new InvalidArgumentError(`poolSizes[${i}] must be an object`);
      checkUint(`poolSizes[${i}].type`, p.type);
      checkUint(`poolSizes[${i}].descriptorCount`, p.descriptorCount);
      checkDescriptorType(`poolSizes[${i}].type`, p.type);
      if (p.descriptorCount === 0) throw new InvalidArgumentError(`createDescriptorPool: poolSizes[${i}].descriptorCount must be above 0, got 0`, `poolSizes[${i}].descriptorCount`);
      return { type: p.type, descriptorCount: p.descriptorCount };
    });
    super(device, withVulkanErrors(() => vulkanCompute().createDescriptorPool(device.liveHandle, maxSets, flat)));
  }

  /** @internal the sets allocated from this pool and not freed */
  readonly sets = new Set<DescriptorSet>();

  /** vkAllocateDescriptorSets (one set). */
  allocateSet(layout: DescriptorSetLayout): DescriptorSet {
    if (!(layout instanceof DescriptorSetLayout)) throw new InvalidArgumentError('allocateSet(layout): layout must be a DescriptorSetLayout');
    this.live();
    if (layout.isDestroyed) throw destroyedError('VkDescriptorSetLayout');
    if (!layout.ownedBy(this.device)) throw new InvalidArgumentError('allocateSet(layout): layout belongs to another device', 'layout');
    const set = new DescriptorSet(this.device, this, withVulkanErrors(() => this.native.allocateDescriptorSet(this.device.liveHandle, this.handle, layout.handle)), layout);
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
      throw new InvalidArgumentError('createPipelineLayout(setLayouts): setLayouts must be an array of DescriptorSetLayout');
    }
    if (!Array.isArray(pushConstantRanges)) throw new InvalidArgumentError('pushConstantRanges must be an array');
    const maxPush = device.limits.maxPushConstantsSize;
    const ranges = pushConstantRanges.map((r: PushConstantRange, i) => {
      if (typeof r !== 'object' || r === null) throw new InvalidArgumentError(`pushConstantRanges[${i}] must be an object, got ${describeValue(r)}`, `pushConstantRanges[${i}]`);
      checkUint(`pushConstantRanges[${i}].stageFlags`, r.stageFlags);
      checkUint(`pushConstantRanges[${i}].offset`, r.offset);
      checkUint(`pushConstantRanges[${i}].size`, r.size);
      // VUID-VkPushConstantRange-stageFlags-requiredbitmask, -offset-00294, -offset-00295, -size-00296, -size-00297, -size-00298
      checkStageFlags(`pushConstantRanges[${i}].stageFlags`, r.stageFlags, false);
      if (r.offset % 4 !== 0 || r.size % 4 !== 0 || r.size === 0 || r.offset + r.size > maxPush) {
        throw new InvalidArgumentError(
          `pushConstantRanges[${i}]: offset and size must be multiples of 4, size above 0 and offset + size at most maxPushConstantsSize (${maxPush}), got offset ${r.offset} size ${r.size}`,
          `pushConstantRanges[${i}]`,
        );
      }
      return { stageFlags: r.stageFlags, offset: r.offset, size: r.size };
    });
    // VUID-VkPipelineLayoutCreateInfo-pPushConstantRanges-00292: a stage in at most one range.
    ranges.forEach((r, i) => {
      for (let j = 0; j < i; j++) {
        if ((ranges[j]!.stageFlags & r.stageFlags) !== 0) throw new InvalidArgumentError(`pushConstantRanges[${i}] names a stage pushConstantRanges[${j}] names too (one range per stage)`, `pushConstantRanges[${i}].stageFlags`);
      }
    });
    if (setLayouts.length > device.limits.maxBoundDescriptorSets) {
      throw new InvalidArgumentError(`createPipelineLayout(setLayouts): at most maxBoundDescriptorSets (${device.limits.maxBoundDescriptorSets}) set layouts, got ${setLayouts.length}`, 'setLayouts');
    }
    if (setLayouts.some((l) => l.isDestroyed)) throw destroyedError('VkDescriptorSetLayout');
    if (setLayouts.some((l) => !l.ownedBy(device))) throw new InvalidArgumentError('createPipelineLayout(setLayouts): a set layout belongs to another device', 'setLayouts');
    super(device, withVulkanErrors(() => vulkanCompute().createPipelineLayout(device.liveHandle, setLayouts.map((l) => l.handle), ranges)));
    this.pushConstantRanges = ranges;
    this.setLayouts = Object.freeze([...setLayouts]);
    // Compatibility for set N (the specification's "Pipeline Layout Compatibility"): the same push
    // constant ranges and identically defined set layouts 0..N.
    this.pushKey = ranges.map((r) => `${r.stageFlags}:${r.offset}:${r.size}`).join(',');
    let prefix = this.pushKey;
    this.compatKeys = this.setLayouts.map((l) => (prefix = `${prefix}|${l.key}`));
  }

  /** The push-constant ranges the layout was created with. */
  readonly pushConstantRanges: readonly PushConstantRange[];
  /** The descriptor set layouts, by set number. */
  readonly setLayouts: readonly DescriptorSetLayout[];
  /** @internal Equal for layouts with the same push-constant ranges. */
  readonly pushKey: string;
  /** @internal compatKeys[n] is equal for layouts compatible for set n. */
  readonly compatKeys: readonly string[];

  /**
   * @internal RangeError unless `size` bytes at `offset` may be pushed for `stageFlags` with this
   * layout (VUID-vkCmdPushConstants-offset-00368/-size-00369/-size-00370/-offset-01795,
   * -stageFlags-requiredbitmask): a driver copies them into a fixed-size block without checking.
   */
  checkPushConstants(stageFlags: number, offset: number, size: number): void {
    if (stageFlags === 0) throw new InvalidArgumentError('pushConstants: stageFlags must name at least one shader stage');
    if (offset % 4 !== 0 || size % 4 !== 0 || size === 0) throw new InvalidArgumentError(`pushConstants: offset (${offset}) and data's byte length (${size}) must be multiples of 4, the length above 0`);
    // Indexed loops: this runs per recorded command, and must allocate nothing (NODE-3).
    const ranges = this.pushConstantRanges;
    for (let at = offset; at < offset + size; at += 4) {
      let stagesCovered = 0;
      for (let i = 0; i < ranges.length; i++) {
        const r = ranges[i]!;
        if (at >= r.offset && at < r.offset + r.size) stagesCovered |= r.stageFlags;
      }
      if ((stagesCovered & stageFlags) !== stageFlags) {
        throw new InvalidArgumentError(`pushConstants: byte ${at} is in no push-constant range of the layout for every stage of 0x${stageFlags.toString(16)}`);
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
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('createComputePipeline(options): options must be an object');
    if (!(options.layout instanceof PipelineLayout)) throw new InvalidArgumentError('options.layout must be a PipelineLayout');
    if (!(options.module instanceof ShaderModule)) throw new InvalidArgumentError('options.module must be a ShaderModule');
    const entryPoint = options.entryPoint ?? 'main';
    if (typeof entryPoint !== 'string') throw new InvalidArgumentError('options.entryPoint must be a string');
    if (options.layout.isDestroyed) throw destroyedError('VkPipelineLayout');
    if (options.module.isDestroyed) throw destroyedError('VkShaderModule');
    if (!options.layout.ownedBy(device) || !options.module.ownedBy(device)) throw new InvalidArgumentError('createComputePipeline(options): the layout or the module belongs to another device', 'options');
    const needs = checkShaderAgainstLayout(options.module.interface, entryPoint, options.layout);
    super(device, withVulkanErrors(() => vulkanCompute().createComputePipeline(device.liveHandle, options.layout.handle, options.module.handle, entryPoint)));
    this.layout = options.layout;
    this.requiredSets = needs.sets;
    this.requiredBindings = needs.bindings;
    this.pushConstantBytes = needs.push;
    this.pushRanges = needs.push === null ? [] : [needs.push];
  }

  /** @internal pushConstantBytes as a list (what draws and dispatches check alike). */
  readonly pushRanges: readonly { readonly offset: number; readonly end: number }[];

  /** @internal The set numbers the shader declares resources in, ascending. */
  readonly requiredSets: readonly number[];
  /** @internal requiredBindings[i]: the bindings of set requiredSets[i] the shader declares. */
  readonly requiredBindings: readonly (readonly number[])[];
  /** @internal The push-constant bytes [offset, end) the shader declares, or null. */
  readonly pushConstantBytes: { readonly offset: number; readonly end: number } | null;
}

/**
 * InvalidArgumentError unless `layout` covers what the shader declares for the compute stage
 * (VUID-VkComputePipelineCreateInfo-layout-07987 push constants, -07988 a binding for each
 * resource, -07990 of its descriptor type, -07991 with enough descriptors;
 * VUID-VkPipelineShaderStageCreateInfo-pName-00707 the entry point). Returns what dispatches need bound.
 */
export function checkShaderAgainstLayout(
  shader: ShaderInterface,
  entryPoint: string,
  layout: PipelineLayout,
  of: { readonly what: string; readonly stage: number; readonly model: number; readonly stageName: string; readonly argument: string } = {
    what: 'createComputePipeline',
    stage: STAGE_COMPUTE,
    model: 5,
    stageName: 'COMPUTE (0x20)',
    argument: 'options',
  },
): { sets: number[]; bindings: number[][]; push: { offset: number; end: number } | null } {
  const model = shader.entryPoints.get(entryPoint);
  const modelNames: Record<number, string> = { 0: 'Vertex is 0', 4: 'Fragment is 4', 5: 'GLCompute is 5' };
  if (model === undefined) throw new InvalidArgumentError(`${of.what}: the module has no entry point ${JSON.stringify(entryPoint)} (it has ${[...shader.entryPoints.keys()].map((n) => JSON.stringify(n)).join(', ') || 'none'})`, `${of.argument}.entryPoint`);
  if (model !== of.model) throw new InvalidArgumentError(`${of.what}: entry point ${JSON.stringify(entryPoint)} is not a ${of.stageName.split(' ')[0]!.toLowerCase()} shader (execution model ${model}, ${modelNames[of.model] ?? of.model})`, `${of.argument}.entryPoint`);
  const bySet = new Map<number, number[]>();
  for (const r of shader.resources) {
    const where = `the shader's resource at set ${r.set}, binding ${r.binding}`;
    const setLayout = layout.setLayouts[r.set];
    if (setLayout === undefined) throw new InvalidArgumentError(`${of.what}: ${where} is not covered: the layout has ${layout.setLayouts.length} set layout(s)`, 'options.layout');
    const b = setLayout.bindings.get(r.binding);
    if (b === undefined) throw new InvalidArgumentError(`${of.what}: ${where} is not covered: set layout ${r.set} has no binding ${r.binding} (it has ${[...setLayout.bindings.keys()].join(', ') || 'none'})`, 'options.layout');
    if (!r.descriptorTypes.includes(b.descriptorType)) {
      throw new InvalidArgumentError(`${of.what}: ${where} needs descriptorType ${r.descriptorTypes.join(' or ')}, the layout's binding has ${b.descriptorType}`, 'options.layout');
    }
    if ((b.stageFlags & of.stage) === 0) throw new InvalidArgumentError(`${of.what}: ${where}: the layout's binding has no ${of.stageName} in its stageFlags (0x${b.stageFlags.toString(16)})`, 'options.layout');
    if (b.descriptorCount < Math.max(r.count, 1)) throw new InvalidArgumentError(`${of.what}: ${where} is an array of ${r.count}, the layout's binding has descriptorCount ${b.descriptorCount}`, 'options.layout');
    let list = bySet.get(r.set);
    if (list === undefined) bySet.set(r.set, (list = []));
    if (!list.includes(r.binding)) list.push(r.binding);
  }
  const push = shader.pushConstants;
  if (push !== null) {
    for (let at = push.offset; at < push.end; at += 4) {
      if (!layout.pushConstantRanges.some((r) => (r.stageFlags & of.stage) !== 0 && at >= r.offset && at < r.offset + r.size)) {
        throw new InvalidArgumentError(
          `${of.what}: the shader's push constants take bytes [${push.offset}, ${push.end}); byte ${at} is in no push-constant range of the layout for ${of.stageName}`,
          'options.layout',
        );
      }
    }
  }
  const sets = [...bySet.keys()].sort((a, b) => a - b);
  return { sets, bindings: sets.map((n) => bySet.get(n)!.sort((a, b) => a - b)), push };
}

export class Fence extends SimpleChild {
  protected readonly kind = 'VkFence';
  protected readonly nativeKind = 'fence';
  #waits = 0;
  // What the typed API knows of the fence: unsignaled, submitted (with the queue and the serial of
  // that submission) or signaled. A fence submitted and not yet seen signaled is asked natively.
  #state: 'unsignaled' | 'pending' | 'signaled';
  #queue: SubmissionQueue | null = null;
  #serial = 0;
  /** @internal */
  constructor(device: DeviceOwner, signaled = false) {
    if (typeof signaled !== 'boolean') throw new InvalidArgumentError('createFence(signaled): signaled must be a boolean');
    super(device, withVulkanErrors(() => vulkanCompute().createFence(device.liveHandle, signaled)));
    this.#state = signaled ? 'signaled' : 'unsignaled';
  }

  /** vkGetFenceStatus */
  get signaled(): boolean {
    this.live();
    // try/catch, not withVulkanErrors: a closure per call would be garbage in every frame that polls.
    let signaled: boolean;
    try {
      signaled = this.native.fenceStatus(this.device.liveHandle, this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    if (signaled) this.#sawSignaled();
    return signaled;
  }

  #sawSignaled(): void {
    if (this.#state === 'pending' && this.#queue !== null) this.#queue.markCompleted(this.#serial);
    this.#state = 'signaled';
  }

  /** @internal Whether the fence's last submission is not known to have completed (asks the driver when the API does not know). */
  get inFlight(): boolean {
    if (this.#state !== 'pending') return false;
    if (this.#queue !== null && this.#queue.completedSerial >= this.#serial) {
      this.#state = 'signaled';
      return false;
    }
    return !this.signaled;
  }

  /** @internal Whether the fence's last submission was `serial` on `queue`. */
  signals(queue: SubmissionQueue, serial: number): boolean {
    return this.#state === 'pending' && this.#queue === queue && this.#serial === serial;
  }

  /**
   * @internal InvalidStateError unless the fence may be given to vkQueueSubmit
   * (VUID-vkQueueSubmit-fence-00063 unsignaled, -00064 not in use by another submission).
   */
  checkSubmittable(): void {
    if (this.inFlight) throw new InvalidStateError('submit: the fence is in use by an earlier submission that has not completed (await fence.wait() first)');
    if (this.#state === 'signaled') throw new InvalidStateError('submit: the fence is signaled (reset() it before submitting with it again)');
  }

  /** @internal The fence was submitted as `serial` on `queue`. */
  submitted(queue: SubmissionQueue, serial: number): void {
    this.#state = 'pending';
    this.#queue = queue;
    this.#serial = serial;
  }

  /** vkResetFences */
  reset(): void {
    this.live();
    // VUID-vkResetFences-pFences-01123: not while a submission that signals it is running.
    if (this.inFlight) throw new InvalidStateError('reset: the fence is in use by a submission that has not completed (await fence.wait() first)');
    try {
      this.native.resetFence(this.device.liveHandle, this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    this.#state = 'unsignaled';
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
      const signaled = await this.native.waitFence(this.device.liveHandle, this.handle, timeoutNs);
      if (signaled) this.#sawSignaled();
      return signaled;
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
    // VUID-vkDestroyFence-fence-01120 (the device's destroy() waits for idle first, so this holds there).
    if (!this.device.isDestroyed && this.inFlight) throw new InvalidStateError('destroy: the fence is in use by a submission that has not completed (await fence.wait() first)');
    super.release();
  }
}

export class Semaphore extends SimpleChild {
  protected readonly kind = 'VkSemaphore';
  protected readonly nativeKind = 'semaphore';
  // A binary semaphore: whether a submitted signal is pending that no submitted wait consumed yet,
  // and the last submission that used it.
  #signalPending = false;
  #queue: SubmissionQueue | null = null;
  #serial = 0;
  /** @internal */
  constructor(device: DeviceOwner) {
    super(device, withVulkanErrors(() => vulkanCompute().createSemaphore(device.liveHandle)));
  }

  /** @internal InvalidStateError unless a submission may wait on it (VUID-vkQueueSubmit-pWaitSemaphores-03238: a signal pending). */
  checkWaitable(): void {
    this.live();
    if (!this.#signalPending) throw new InvalidStateError('submit: semaphores.wait has no signal pending (submit work that signals it first): the wait would never end');
  }

  /** @internal InvalidStateError unless a submission may signal it (VUID-vkQueueSubmit-pSignalSemaphores-03241: unsignaled). */
  checkSignalable(waitedHere: boolean): void {
    this.live();
    if (this.#signalPending && !waitedHere) throw new InvalidStateError('submit: semaphores.signal is already signaled or has a signal pending (wait on it first)');
  }

  /** @internal */
  used(queue: SubmissionQueue, serial: number, signals: boolean): void {
    this.#signalPending = signals;
    this.#queue = queue;
    this.#serial = serial;
  }

  /** @internal vkAcquireNextImageKHR will signal it (no queue submission: nothing to wait for before destroy). */
  signaledOutsideQueue(): void {
    this.#signalPending = true;
  }

  /** @internal vkQueuePresentKHR waited on it. */
  waitedOutsideQueue(): void {
    this.#signalPending = false;
  }

  protected override release(): void {
    // VUID-vkDestroySemaphore-semaphore-05149: no submission that uses it still running.
    if (!this.device.isDestroyed && this.#queue !== null && this.#queue.completedSerial < this.#serial) {
      throw new InvalidStateError('destroy: the semaphore is used by a submission that has not completed (wait for its fence or the queue first)');
    }
    super.release();
  }
}

/** @internal A name from `table` (InvalidArgumentError naming the choices otherwise). */
export function named<T extends Record<string, number>>(name: string, table: T, v: unknown, fallback?: keyof T): number {
  if (v === undefined && fallback !== undefined) return table[fallback]!;
  const value = typeof v === 'string' && Object.hasOwn(table, v) ? table[v] : undefined;
  if (value === undefined) throw new InvalidArgumentError(`${name} must be one of ${Object.keys(table).map((k) => `'${k}'`).join(', ')}, got ${describeValue(v)}`, name);
  return value;
}

// ---- samplers ---------------------------------------------------------------------------------

const FILTERS = { nearest: 0, linear: 1 } as const;
const ADDRESS_MODES = { repeat: 0, 'mirrored-repeat': 1, 'clamp-to-edge': 2, 'clamp-to-border': 3 } as const;
/** VkCompareOp by name. */
export const COMPARE_OPS = { never: 0, less: 1, equal: 2, 'less-or-equal': 3, greater: 4, 'not-equal': 5, 'greater-or-equal': 6, always: 7 } as const;
const BORDER_COLORS = { 'transparent-black': 0, 'opaque-black': 2, 'opaque-white': 4 } as const;

export interface SamplerOptions {
  readonly magFilter?: keyof typeof FILTERS;
  readonly minFilter?: keyof typeof FILTERS;
  readonly mipmapMode?: keyof typeof FILTERS;
  readonly addressModeU?: keyof typeof ADDRESS_MODES;
  readonly addressModeV?: keyof typeof ADDRESS_MODES;
  readonly addressModeW?: keyof typeof ADDRESS_MODES;
  readonly mipLodBias?: number;
  /** Anisotropic filtering up to this (needs the samplerAnisotropy feature); off when absent. */
  readonly maxAnisotropy?: number;
  /** A depth-compare sampler's operation; off when absent. */
  readonly compareOp?: keyof typeof COMPARE_OPS;
  readonly minLod?: number;
  readonly maxLod?: number;
  readonly borderColor?: keyof typeof BORDER_COLORS;
}

export class Sampler extends SimpleChild {
  protected readonly nativeKind = 'sampler';
  protected readonly kind = 'VkSampler';
  /** @internal */
  constructor(device: DeviceOwner, options: SamplerOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError(`createSampler(options): options must be an object, got ${describeValue(options)}`, 'options');
    const o = options as Record<string, unknown>;
    const num = (name: string, v: unknown, fallback: number): number => {
      if (v === undefined) return fallback;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidArgumentError(`createSampler: options.${name} must be a finite number, got ${describeValue(v)}`, `options.${name}`);
      return v;
    };
    const minLod = num('minLod', o.minLod, 0);
    const maxLod = num('maxLod', o.maxLod, 1000);
    const maxAnisotropy = num('maxAnisotropy', o.maxAnisotropy, 0);
    // VUID-VkSamplerCreateInfo-maxLod-01973, -anisotropyEnable-01071
    if (maxLod < minLod) throw new InvalidArgumentError(`createSampler: options.maxLod (${maxLod}) must be at least options.minLod (${minLod})`, 'options.maxLod');
    if (o.maxAnisotropy !== undefined && maxAnisotropy < 1) throw new InvalidArgumentError(`createSampler: options.maxAnisotropy must be at least 1, got ${maxAnisotropy}`, 'options.maxAnisotropy');
    const flat = {
      magFilter: named('options.magFilter', FILTERS, o.magFilter, 'linear'),
      minFilter: named('options.minFilter', FILTERS, o.minFilter, 'linear'),
      mipmapMode: named('options.mipmapMode', FILTERS, o.mipmapMode, 'linear'),
      addressModeU: named('options.addressModeU', ADDRESS_MODES, o.addressModeU, 'repeat'),
      addressModeV: named('options.addressModeV', ADDRESS_MODES, o.addressModeV, 'repeat'),
      addressModeW: named('options.addressModeW', ADDRESS_MODES, o.addressModeW, 'repeat'),
      mipLodBias: num('mipLodBias', o.mipLodBias, 0),
      maxAnisotropy,
      compareOp: o.compareOp === undefined ? 0xffff_ffff : named('options.compareOp', COMPARE_OPS, o.compareOp),
      minLod,
      maxLod,
      borderColor: named('options.borderColor', BORDER_COLORS, o.borderColor, 'transparent-black'),
    };
    super(device, withVulkanErrors(() => vulkanCompute().createSampler(device.liveHandle, flat)));
  }
}

