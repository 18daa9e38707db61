// A VkDevice created through the loader's device chain. It owns the objects made from it
// (device-objects.ts, commands.ts): destroy() waits for the device to go idle and destroys them,
// newest first, before the device.
import { QueryPool, VulkanEvent, type QueryPoolOptions } from './queries.js';
import { loadVulkanAddon, type NativeVulkanDevice, type NativeVulkanInstance } from '../native/addon.js';
import { CommandPool, Queue } from './commands.js';
import {
  VulkanBuffer,
  ComputePipeline,
  DescriptorPool,
  DescriptorSetLayout,
  DeviceMemory,
  Fence,
  ImageView,
  PipelineLayout,
  Semaphore,
  ShaderModule,
  type BufferCreateOptions,
  type DescriptorPoolSize,
  type DescriptorSetLayoutBinding,
  type DeviceChild,
  type DeviceLimits,
  type DeviceOwner,
  type PushConstantRange,
} from './device-objects.js';
import { VulkanError, withVulkanErrors } from '../errors.js';
import { describeValue, InvalidArgumentError, InvalidStateError } from '../../core/errors.js';
import { CommandBuffer } from './commands.js';
import { Image } from './image.js';
import { vulkanCompute } from '../native/addon.js';
import type { CommandPoolCreateFlags } from '../../generated/vulkan.js';
import { PHYSICAL_DEVICE_FEATURE_NAMES, type PhysicalDeviceFeatureName } from './physical-device-features.js';
import { Framebuffer, GraphicsPipeline, imageViewInfo, OwnedImage, RenderPass, type FramebufferOptions, type GraphicsPipelineOptions, type ImageCreateOptions, type ImageViewOptions, type RenderPassOptions } from './graphics.js';
import { Sampler, type SamplerOptions } from './device-objects.js';
import { Surface, Swapchain, type SwapchainOptions } from './surface.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;

export interface QueueCreateInfo {
  readonly queueFamilyIndex: number;
  readonly queuePriorities: readonly number[];
}

export interface DeviceCreateOptions {
  readonly queueCreateInfos: readonly QueueCreateInfo[];
  readonly enabledExtensionNames?: readonly string[];
  /**
   * Features to enable: VkPhysicalDeviceFeatures members by name, and the graphics features of
   * later versions the typed API uses: dynamicRendering (Vulkan 1.3, beginRendering) and multiview
   * (Vulkan 1.1, view masks), synchronization2 (Vulkan 1.3, queue.submit2 and the encoder's
   * vkCmdPipelineBarrier2 and kin) and dynamicRenderingLocalRead (Vulkan 1.4 devices only,
   * setRenderingAttachmentLocations).
   */
  readonly enabledFeatures?: Partial<Record<PhysicalDeviceFeatureName | 'dynamicRendering' | 'multiview' | 'synchronization2' | 'dynamicRenderingLocalRead', boolean>>;
}

/** @internal What the typed API knows of the features a device was created with (null: not known, e.g. a device an OpenXR runtime created). */
export interface DeviceGraphicsFeatures {
  readonly dynamicRendering: boolean | null;
  readonly multiview: boolean | null;
  readonly multiDrawIndirect: boolean | null;
  readonly synchronization2: boolean | null;
  readonly dynamicRenderingLocalRead: boolean | null;
}

/**
 * @internal The native form of DeviceCreateOptions.enabledFeatures (InvalidArgumentError for a name
 * the typed API does not enable, or a value that is not a boolean): pass it as `nativeFeatures` next
 * to queueCreateInfos to whatever creates the VkDevice natively (an OpenXR runtime's xrCreateVulkanDeviceKHR too).
 */
export function nativeDeviceFeatures(enabled: DeviceCreateOptions['enabledFeatures']): { core: boolean[]; dynamicRendering: boolean; multiview: boolean; synchronization2: boolean; dynamicRenderingLocalRead: boolean } | undefined {
  if (enabled === undefined) return undefined;
  const f = enabled as Record<string, unknown>;
  if (typeof f !== 'object' || f === null) throw new InvalidArgumentError(`createDevice: options.enabledFeatures must be an object, got ${describeValue(f)}`, 'options.enabledFeatures');
  const known = new Set<string>([...PHYSICAL_DEVICE_FEATURE_NAMES, 'dynamicRendering', 'multiview', 'synchronization2', 'dynamicRenderingLocalRead']);
  for (const [name, on] of Object.entries(f)) {
    if (!known.has(name)) throw new InvalidArgumentError(`createDevice: options.enabledFeatures.${name} is not a feature the typed API enables (VkPhysicalDeviceFeatures members, dynamicRendering, multiview, synchronization2, dynamicRenderingLocalRead)`, `options.enabledFeatures.${name}`);
    if (typeof on !== 'boolean') throw new InvalidArgumentError(`createDevice: options.enabledFeatures.${name} must be a boolean, got ${describeValue(on)}`, `options.enabledFeatures.${name}`);
  }
  return { core: PHYSICAL_DEVICE_FEATURE_NAMES.map((n) => f[n] === true), dynamicRendering: f.dynamicRendering === true, multiview: f.multiview === true, synchronization2: f.synchronization2 === true, dynamicRenderingLocalRead: f.dynamicRenderingLocalRead === true };
}

interface PhysicalDeviceLike {
  readonly handle: bigint;
  readonly queueFamilies: readonly { readonly queueCount: number; readonly timestampValidBits?: number }[];
  readonly properties?: { readonly apiVersion: { readonly major: number; readonly minor: number; readonly text: string } };
}

export class Device implements DeviceOwner {
  readonly #native: NativeVulkanDevice;
  // Kept here, not asked of the native device: every recorded command checks it (through each
  // object it names), and the native getter is an N-API call each time. Only destroy() below
  // destroys the native device (the instance's destroy() goes through it too).
  #destroyed = false;
  readonly #queueCounts: ReadonlyMap<number, number>;
  readonly #onDestroy: (d: Device) => void;
  /** The VkDevice, read once: the per-call paths pass it without asking the native side again. */
  readonly #handle: bigint;
  readonly #children = new Set<DeviceChild>();
  readonly #queues = new Map<string, Queue>();
  // What renders with this device from outside it (an OpenXR session): the device must outlive them.
  readonly #users = new Set<{ readonly description: string }>();

  /** @internal The limits and memory types arguments are checked against. */
  readonly limits: DeviceLimits;
  /** @internal */
  readonly graphicsFeatures: DeviceGraphicsFeatures;

  /** The device extensions it was created with (what vulkanCommands(device) lets through). */
  readonly enabledExtensionNames: readonly string[];
  /** @internal The VkPhysicalDevice it was created on. */
  readonly physicalDeviceHandle: bigint;
  // Each queue family's timestampValidBits (undefined: not known), and the optimal-tiling format features asked for so far.
  readonly #timestampBits: readonly (number | undefined)[];
  readonly #formatFeatures = new Map<number, number>();
  #commands: number | undefined;

  private constructor(
    native: NativeVulkanDevice,
    queueCounts: ReadonlyMap<number, number>,
    onDestroy: (d: Device) => void,
    physicalDevice: bigint,
    features: DeviceGraphicsFeatures,
    extensions: readonly string[],
    families: PhysicalDeviceLike['queueFamilies'],
  ) {
    this.graphicsFeatures = features;
    this.#timestampBits = families.map((f) => f.timestampValidBits);
    this.physicalDeviceHandle = physicalDevice;
    this.enabledExtensionNames = Object.freeze([...extensions]);
    const compute = vulkanCompute();
    const l = compute.physicalDeviceProperties(physicalDevice).limits;
    // A driver reporting less than the specification's required limits ("Required Limits": 128,
    // 65535, 4; an alignment of at most 256) is taken at those limits.
    const wg = l.maxComputeWorkGroupCount;
    const memory = compute.physicalDeviceMemoryProperties(physicalDevice);
    this.limits = Object.freeze({
      maxPushConstantsSize: Math.max(l.maxPushConstantsSize, 128),
      maxComputeWorkGroupCount: [Math.max(wg[0], 65535), Math.max(wg[1], 65535), Math.max(wg[2], 65535)] as const,
      maxBoundDescriptorSets: Math.max(l.maxBoundDescriptorSets, 4),
      minStorageBufferOffsetAlignment: l.minStorageBufferOffsetAlignment >= 1 && l.minStorageBufferOffsetAlignment <= 256 ? l.minStorageBufferOffsetAlignment : 256,
      memoryTypeCount: memory.memoryTypes.length,
      memoryTypeHeapSizes: Object.freeze(memory.memoryTypes.map((t) => memory.memoryHeaps[t.heapIndex]?.size ?? 0n)),
      // "Required Limits": at least 4096 and [-8192, 8191] (a driver reporting less is taken at them).
      maxViewportDimensions: [Math.max(l.maxViewportDimensions[0], 4096), Math.max(l.maxViewportDimensions[1], 4096)] as const,
      viewportBoundsRange: [Math.min(l.viewportBoundsRange[0], -8192), Math.max(l.viewportBoundsRange[1], 8191)] as const,
    });
    this.#native = native;
    this.#queueCounts = queueCounts;
    this.#onDestroy = onDestroy;
    this.#handle = native.handle;
  }

  /** @internal */
  static create(
    instance: NativeVulkanInstance,
    physicalDevice: PhysicalDeviceLike,
    options: DeviceCreateOptions,
    onDestroy: (d: Device) => void,
  ): Device {
    if (typeof options !== 'object' || options === null || !Array.isArray(options.queueCreateInfos)) {
      throw new InvalidArgumentError('createDevice(options): options.queueCreateInfos must be an array');
    }
    // VUID-VkDeviceCreateInfo-queueCreateInfoCount-arraylength
    if (options.queueCreateInfos.length === 0) throw new InvalidArgumentError('createDevice(options): options.queueCreateInfos must name at least one queue family', 'options.queueCreateInfos');
    const counts = new Map<number, number>();
    for (const [qi, q] of options.queueCreateInfos.entries()) {
      if (typeof q !== 'object' || q === null) throw new InvalidArgumentError(`createDevice: options.queueCreateInfos[${qi}] must be an object, got ${describeValue(q)}`, `options.queueCreateInfos[${qi}]`);
      const family = physicalDevice.queueFamilies[q.queueFamilyIndex];
      if (!Number.isInteger(q.queueFamilyIndex) || family === undefined) {
        throw new InvalidArgumentError(`createDevice: queueFamilyIndex ${describeValue(q.queueFamilyIndex)} is not a queue family of this physical device`);
      }
      if (!Array.isArray(q.queuePriorities) || q.queuePriorities.length === 0 || q.queuePriorities.length > family.queueCount) {
        throw new InvalidArgumentError(`createDevice: queuePriorities must hold 1..${family.queueCount} numbers for family ${q.queueFamilyIndex}`);
      }
      // VUID-VkDeviceQueueCreateInfo-pQueuePriorities-00383: each priority in [0, 1].
      (q.queuePriorities as readonly unknown[]).forEach((p, i) => {
        if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
          throw new InvalidArgumentError(`createDevice: options.queueCreateInfos[${qi}].queuePriorities[${i}] must be a number in [0, 1], got ${describeValue(p)}`, `options.queueCreateInfos[${qi}].queuePriorities[${i}]`);
        }
      });
      if (counts.has(q.queueFamilyIndex)) throw new InvalidArgumentError(`createDevice: queue family ${q.queueFamilyIndex} is listed twice`);
      counts.set(q.queueFamilyIndex, q.queuePriorities.length);
    }
    const features = nativeDeviceFeatures(options.enabledFeatures);
    // VUID-VkDeviceCreateInfo-pNext-pNext: the feature structure of a Vulkan 1.4 feature only where the device is of Vulkan 1.4
    // (the typed API records vkCmdSetRenderingAttachmentLocations by its core name, not the extension's).
    const version = physicalDevice.properties?.apiVersion;
    if (features?.dynamicRenderingLocalRead === true && version !== undefined && version.major === 1 && version.minor < 4) {
      throw new InvalidArgumentError(`createDevice: options.enabledFeatures.dynamicRenderingLocalRead needs a Vulkan 1.4 device, and this one is of Vulkan ${version.text}`, 'options.enabledFeatures.dynamicRenderingLocalRead');
    }
    const addon = loadVulkanAddon();
    const native = withVulkanErrors(() => new addon.VulkanDevice(instance, physicalDevice.handle, features === undefined ? options : { ...options, nativeFeatures: features }));
    return new Device(
      native,
      counts,
      onDestroy,
      physicalDevice.handle,
      {
        dynamicRendering: features?.dynamicRendering ?? false,
        multiview: features?.multiview ?? false,
        multiDrawIndirect: options.enabledFeatures?.multiDrawIndirect === true,
        synchronization2: features?.synchronization2 ?? false,
        dynamicRenderingLocalRead: features?.dynamicRenderingLocalRead ?? false,
      },
      options.enabledExtensionNames ?? [],
      physicalDevice.queueFamilies,
    );
  }

  /** @internal Takes ownership of a VkDevice native code created (e.g. an OpenXR runtime's xrCreateVulkanDeviceKHR) with `options`. */
  static adopt(
    instance: NativeVulkanInstance,
    physicalDevice: PhysicalDeviceLike,
    handle: bigint,
    options: DeviceCreateOptions,
    onDestroy: (d: Device) => void,
  ): Device {
    const counts = new Map(options.queueCreateInfos.map((q) => [q.queueFamilyIndex, q.queuePriorities.length] as const));
    const addon = loadVulkanAddon();
    const native = withVulkanErrors(() => new addon.VulkanDevice(instance, physicalDevice.handle, handle));
    // What the creator enabled is known when it says (options.enabledFeatures), else not.
    const features = options.enabledFeatures === undefined ? undefined : nativeDeviceFeatures(options.enabledFeatures);
    return new Device(
      native,
      counts,
      onDestroy,
      physicalDevice.handle,
      {
        dynamicRendering: features?.dynamicRendering ?? null,
        multiview: features?.multiview ?? null,
        multiDrawIndirect: features === undefined ? null : options.enabledFeatures?.multiDrawIndirect === true,
        synchronization2: features?.synchronization2 ?? null,
        dynamicRenderingLocalRead: features?.dynamicRenderingLocalRead ?? null,
      },
      options.enabledExtensionNames ?? [],
      physicalDevice.queueFamilies,
    );
  }

  /** @internal timestampValidBits of queue family `family` (undefined: not known). */
  timestampValidBits(family: number): number | undefined {
    return this.#timestampBits[family];
  }

  /** @internal Whether the device's dispatch table has the later command of bit `bit` (native deviceCommandAvailability; read once). */
  hasCommand(bit: number): boolean {
    this.#commands ??= vulkanCompute().deviceCommandAvailability(this.liveHandle);
    return (this.#commands & bit) !== 0;
  }

  /** @internal VkFormatProperties.optimalTilingFeatures of `format` on the physical device (asked once per format). */
  optimalTilingFeatures(format: number): number {
    let features = this.#formatFeatures.get(format);
    if (features === undefined) {
      features = withVulkanErrors(() => vulkanCompute().physicalDeviceFormatProperties(this.physicalDeviceHandle, format)).optimalTilingFeatures;
      this.#formatFeatures.set(format, features);
    }
    return features;
  }

  /** @internal The native VulkanDevice (an OpenXR session's graphics binding keeps it). */
  get nativeDevice(): NativeVulkanDevice {
    this.liveHandle;
    return this.#native;
  }

  /** @internal Something outside the device (an OpenXR session) renders with it until unretain(). */
  retain(user: { readonly description: string }): void {
    this.liveHandle;
    this.#users.add(user);
  }

  /** @internal */
  unretain(user: { readonly description: string }): void {
    this.#users.delete(user);
  }

  /** @internal VulkanError when something still renders with the device (destroy that first). */
  checkUnused(): void {
    const user = this.#users.values().next();
    if (user.done !== true) {
      throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `${user.value.description} renders with this Vulkan device: destroy it before the device`);
    }
  }

  get isDestroyed(): boolean {
    return this.#destroyed;
  }

  get handle(): bigint {
    return withVulkanErrors(() => this.#native.handle);
  }

  /** vkGetDeviceProcAddr: the first layer's or the driver's function for device commands; 0n for NULL. */
  getDeviceProcAddr(name: string): bigint {
    if (typeof name !== 'string') throw new InvalidArgumentError('getDeviceProcAddr(name): name must be a string');
    return withVulkanErrors(() => this.#native.getDeviceProcAddr(name));
  }

  /** vkGetDeviceQueue for a queue the device was created with. */
  getQueue(family: number, index: number): bigint {
    const count = this.#queueCounts.get(family);
    if (count === undefined) throw new InvalidArgumentError(`getQueue: the device was created with no queue of family ${describeValue(family)}`, 'family');
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw new InvalidArgumentError(`getQueue: index ${describeValue(index)} is outside 0..${count - 1} for family ${family}`, 'index');
    }
    return withVulkanErrors(() => this.#native.getQueue(family, index));
  }

  /** @internal The VkDevice; VulkanError once the device (or its instance) is destroyed. */
  get liveHandle(): bigint {
    if (this.#destroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'the Vulkan device (or its instance) was destroyed');
    return this.#handle;
  }

  /** @internal */
  adopt(child: DeviceChild): void {
    this.#children.add(child);
  }

  /** @internal */
  release(child: DeviceChild): void {
    this.#children.delete(child);
  }

  /** @internal InvalidStateError when a submitted command buffer that has not completed uses `child`. */
  checkNotInUse(child: DeviceChild, action: string): void {
    for (const c of this.#children) {
      if (c instanceof CommandBuffer && c.pending && c.uses(child)) {
        throw new InvalidStateError(`${action}: a submitted command buffer that has not completed uses this ${child.constructor.name} (await its fence, or queue.waitIdle(), first)`);
      }
    }
  }

  /** The queue (family, index) the device was created with, as a Queue (one object per queue). */
  queue(family: number, index = 0): Queue {
    // Only numbers make a cache key; getQueue refuses anything else, naming it.
    if (typeof family !== 'number' || typeof index !== 'number') return new Queue(this, this.getQueue(family, index), family);
    const key = `${family}:${index}`;
    let queue = this.#queues.get(key);
    if (queue === undefined) {
      queue = new Queue(this, this.getQueue(family, index), family);
      this.#queues.set(key, queue);
    }
    return queue;
  }

  /**
   * vkCreateSwapchainKHR on `surface` (needs VK_KHR_swapchain enabled on the device): the options are
   * checked against the surface's capabilities, formats and present modes on this device's physical
   * device first (InvalidArgumentError). Destroyed with the device, or with the surface.
   */
  createSwapchain(surface: Surface, options: SwapchainOptions): Swapchain {
    this.liveHandle;
    return Swapchain.create(this, surface, options);
  }

  createBuffer(options: BufferCreateOptions): VulkanBuffer {
    this.liveHandle;
    return VulkanBuffer.create(this, options);
  }

  /** vkAllocateMemory (pick the type with physicalDevice.findMemoryType()). */
  allocateMemory(size: number | bigint, memoryTypeIndex: number): DeviceMemory {
    this.liveHandle;
    return new DeviceMemory(this, size, memoryTypeIndex);
  }

  /** vkCreateShaderModule from SPIR-V words. */
  createShaderModule(code: Uint32Array): ShaderModule {
    this.liveHandle;
    return new ShaderModule(this, code);
  }

  createDescriptorSetLayout(bindings: readonly DescriptorSetLayoutBinding[]): DescriptorSetLayout {
    this.liveHandle;
    return new DescriptorSetLayout(this, bindings);
  }

  /** vkCreateDescriptorPool (sets can be freed one by one). */
  createDescriptorPool(maxSets: number, poolSizes: readonly DescriptorPoolSize[]): DescriptorPool {
    this.liveHandle;
    return new DescriptorPool(this, maxSets, poolSizes);
  }

  createPipelineLayout(setLayouts: readonly DescriptorSetLayout[], pushConstantRanges: readonly PushConstantRange[] = []): PipelineLayout {
    this.liveHandle;
    return new PipelineLayout(this, setLayouts, pushConstantRanges);
  }

  createComputePipeline(options: { readonly layout: PipelineLayout; readonly module: ShaderModule; readonly entryPoint?: string }): ComputePipeline {
    this.liveHandle;
    return new ComputePipeline(this, options);
  }

  /** vkCreateCommandPool for a queue family (its buffers can be reset one by one; flags: CommandPoolCreateFlags). */
  createCommandPool(queueFamilyIndex: number, flags: CommandPoolCreateFlags = 0): CommandPool {
    this.liveHandle;
    if (!this.#queueCounts.has(queueFamilyIndex)) throw new InvalidArgumentError(`createCommandPool: the device was created with no queue of family ${describeValue(queueFamilyIndex)}`);
    return new CommandPool(this, queueFamilyIndex, flags);
  }

  createFence(signaled = false): Fence {
    this.liveHandle;
    return new Fence(this, signaled);
  }

  /**
   * vkCreateImageView: a view of `image` (one of this device's: createImage's or a swapchain's).
   * `options` says its type, aspect, layers and mip levels; (image, baseArrayLayer, layerCount) is a
   * colour view of those layers (2D for one, 2D array for more).
   */
  createImageView(image: Image, options?: ImageViewOptions): ImageView;
  createImageView(image: Image, baseArrayLayer?: number, layerCount?: number): ImageView;
  createImageView(image: Image, optionsOrBase: ImageViewOptions | number = 0, layerCount = 1): ImageView {
    this.liveHandle;
    if (!(image instanceof Image)) throw new InvalidArgumentError('createImageView(image): image must be an Image');
    if (!image.belongsTo(this)) throw new InvalidArgumentError('createImageView: the image belongs to another device');
    image.checkBacked('createImageView: image'); // VUID-VkImageViewCreateInfo-image-01020: bound to live memory
    if (typeof optionsOrBase === 'number') return new ImageView(this, image, optionsOrBase, layerCount);
    const info = imageViewInfo(image, optionsOrBase);
    image.liveHandle;
    return new ImageView(this, image, info.baseArrayLayer, info.layerCount, info);
  }

  /** vkCreateImage (optimal tiling) with the memory requirements read: bind memory with image.bindMemory(). */
  createImage(options: ImageCreateOptions): OwnedImage {
    this.liveHandle;
    return OwnedImage.create(this, options);
  }

  createSampler(options: SamplerOptions = {}): Sampler {
    this.liveHandle;
    return new Sampler(this, options);
  }

  /** vkCreateRenderPass (viewMask: multiview through VkRenderPassMultiviewCreateInfo). */
  createRenderPass(options: RenderPassOptions): RenderPass {
    this.liveHandle;
    if (typeof options === 'object' && options !== null && options.viewMask !== undefined && options.viewMask !== 0 && this.graphicsFeatures.multiview === false) {
      throw new InvalidStateError('createRenderPass: options.viewMask needs the multiview feature, and the device was created without it (createDevice({ enabledFeatures: { multiview: true } }))');
    }
    return new RenderPass(this, options);
  }

  createFramebuffer(options: FramebufferOptions): Framebuffer {
    this.liveHandle;
    return new Framebuffer(this, options);
  }

  /** vkCreateGraphicsPipelines (one pipeline; viewport and scissor are dynamic state: set them with setViewport/setScissor). */
  createGraphicsPipeline(options: GraphicsPipelineOptions): GraphicsPipeline {
    this.liveHandle;
    const rendering = typeof options === 'object' && options !== null ? options.rendering : undefined;
    if (rendering !== undefined && this.graphicsFeatures.dynamicRendering === false) {
      throw new InvalidStateError('createGraphicsPipeline: options.rendering (dynamic rendering) needs the dynamicRendering feature, and the device was created without it (createDevice({ enabledFeatures: { dynamicRendering: true } }))');
    }
    if (rendering !== undefined && typeof rendering === 'object' && rendering !== null && (rendering.viewMask ?? 0) !== 0 && this.graphicsFeatures.multiview === false) {
      throw new InvalidStateError('createGraphicsPipeline: options.rendering.viewMask needs the multiview feature, and the device was created without it');
    }
    return new GraphicsPipeline(this, options);
  }

  createSemaphore(): Semaphore {
    this.liveHandle;
    return new Semaphore(this);
  }

  /** vkCreateQueryPool of occlusion or timestamp queries (destroyed with the device). */
  createQueryPool(options: QueryPoolOptions): QueryPool {
    this.liveHandle;
    return new QueryPool(this, options);
  }

  /** vkCreateEvent (destroyed with the device). */
  createEvent(): VulkanEvent {
    this.liveHandle;
    return new VulkanEvent(this);
  }

  /** vkDeviceWaitIdle (blocks the calling thread). */
  waitIdle(): void {
    withVulkanErrors(() => vulkanCompute().deviceWaitIdle(this.liveHandle));
    for (const queue of this.#queues.values()) queue.markIdle();
  }

  /** Waits for the device to go idle, destroys what it owns (newest first), then the device. Does nothing once destroyed. */
  destroy(): void {
    if (this.#destroyed) return;
    this.checkUnused();
    for (const child of this.#children) {
      if (child instanceof Fence && child.waiting) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'a fence of this device is being waited on (await fence.wait() first)');
    }
    // Work that used the device's objects must be done before they go (a device that made none
    // is destroyed as it is: vkDestroyDevice leaves waiting to the application).
    if (this.#children.size > 0) this.waitIdle();
    for (const child of [...this.#children].reverse()) child.destroyWithOwner();
    this.#children.clear();
    this.#queues.clear();
    withVulkanErrors(() => this.#native.destroy());
    this.#destroyed = true;
    this.#onDestroy(this);
  }
}
