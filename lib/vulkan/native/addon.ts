// The addon's Vulkan surface, as the TypeScript classes see it: the instance and device chains
// (native/vulkan/addon/vulkan_instance.cc, vulkan_device.cc), the objects of the typed API
// (native/vulkan/addon/vulkan_compute.cc and compute_*.cc) and the command streams
// (native/vulkan/addon/vulkan_command_stream.h). Internal: applications use lib/vulkan/api.
import type { AndroidLayerIntrospection } from '../../core/platform/platform.js';
import { loadNativeAddon } from '../../core/native/load.js';
import type { VulkanDeviceConfiguration } from '../plan/plan.js';

/** The plan as the native side takes it (flattened from a VulkanInstancePlan by lib/vulkan/native/plan.ts). */
export interface NativeVulkanPlan {
  readonly drivers: readonly {
    readonly manifestPath: string;
    readonly libraryPath: string;
    readonly apiVersion: number;
    readonly isPortabilityDriver: boolean;
  }[];
  /** Nearest the application first. */
  readonly layers: readonly {
    readonly name: string;
    readonly manifestPath: string;
    readonly libraryPath: string;
    readonly negotiateSymbol: string;
    readonly getInstanceProcAddrSymbol: string;
    readonly getDeviceProcAddrSymbol: string;
    readonly instanceExtensions: readonly string[];
    readonly kind: 'implicit' | 'explicit';
    readonly apiVersion: number;
    readonly implementationVersion: number;
    /** The exported interceptors of an implicit layer (manifest pre_instance_functions). */
    readonly preInstanceFunctions: {
      readonly vkEnumerateInstanceExtensionProperties?: string;
      readonly vkEnumerateInstanceLayerProperties?: string;
      readonly vkEnumerateInstanceVersion?: string;
    };
  }[];
  readonly deviceFilters: {
    readonly deviceSelect?: { readonly vendorId: number; readonly deviceId: number };
    readonly deviceIdRanges?: readonly (readonly [number, number])[];
    readonly vendorIdRanges?: readonly (readonly [number, number])[];
    readonly driverIdRanges?: readonly (readonly [number, number])[];
    readonly disableSort?: true;
    readonly deviceConfigurations?: readonly VulkanDeviceConfiguration[];
  };
  readonly disableInstanceExtensionFilter: boolean;
  /** VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING=1 (absent: libraries unload with their last owner). */
  readonly keepLibrariesMapped?: boolean;
  /** The registry's instance extensions: what the loader knows (drivers' others are filtered out). */
  readonly knownInstanceExtensions: readonly string[];
  /** Drivers' instance extensions never offered (window-system ones this loader does not implement yet). */
  readonly withheldInstanceExtensions: readonly string[];
  /** The layers' part of vkEnumerateInstanceExtensionProperties. */
  readonly instanceExtensionListing?: {
    readonly implicitLayers: readonly NativeVulkanExtension[];
    readonly layers: readonly { readonly name: string; readonly extensions: readonly NativeVulkanExtension[] }[];
  };
  /** Each enumerable layer's device_extensions (by layer name). */
  readonly layerDeviceExtensions?: readonly { readonly name: string; readonly extensions: readonly NativeVulkanExtension[] }[];
  /** What the instance-less commands answer for the whole discovery (every selected driver, every available layer). */
  readonly enumeration?: {
    readonly drivers: NativeVulkanPlan['drivers'];
    readonly layers: readonly { readonly name: string; readonly description: string; readonly apiVersion: number; readonly implementationVersion: number }[];
  };
}

/** VkExtensionProperties */
export interface NativeVulkanExtension {
  readonly extensionName: string;
  readonly specVersion: number;
}

export interface NativeVulkanCreateInfo {
  readonly applicationName: string;
  readonly applicationVersion?: number;
  readonly engineName?: string;
  readonly engineVersion?: number;
  readonly apiVersion?: number;
  readonly flags?: number;
  readonly enabledExtensionNames?: readonly string[];
  /** Chain a VK_EXT_debug_utils messenger into VkInstanceCreateInfo.pNext; its messages are read with takeDebugMessages(). */
  readonly collectCreateMessages?: boolean;
  /**
   * VK_LUNARG_direct_driver_loading: the addon opens each library, and chains a
   * VkDirectDriverLoadingListLUNARG with their vk_icdGetInstanceProcAddr into VkInstanceCreateInfo.pNext
   * (the extension must be among enabledExtensionNames for the loader to use it).
   */
  readonly directDrivers?: VulkanDirectDrivers;
}

/** Drivers handed to vkCreateInstance directly (VK_LUNARG_direct_driver_loading), not found through manifests. */
export interface VulkanDirectDrivers {
  /**
   * 'exclusive' (VK_DIRECT_DRIVER_LOADING_MODE_EXCLUSIVE_LUNARG): only these drivers, no manifest driver;
   * 'inclusive' (VK_DIRECT_DRIVER_LOADING_MODE_INCLUSIVE_LUNARG): these beside the manifest drivers.
   */
  readonly mode: 'exclusive' | 'inclusive';
  /** Driver libraries exporting vk_icdGetInstanceProcAddr (loader/driver interface version 7). */
  readonly libraries: readonly string[];
}

/** A VK_EXT_debug_utils message (VkDebugUtilsMessengerCallbackDataEXT, flattened). */
export interface NativeVulkanMessage {
  readonly severity: number;
  readonly types: number;
  readonly messageIdName: string;
  readonly message: string;
}

export interface NativeVulkanPhysicalDevice {
  readonly handle: bigint;
  readonly properties: {
    readonly deviceName: string;
    readonly vendorID: number;
    readonly deviceID: number;
    readonly deviceType: number;
    readonly apiVersion: number;
    readonly driverVersion: number;
  };
  readonly queueFamilies: readonly { readonly queueFlags: number; readonly queueCount: number; readonly timestampValidBits: number }[];
}

export interface NativeVulkanInstance {
  enumeratePhysicalDevices(): NativeVulkanPhysicalDevice[];
  enumeratePhysicalDeviceGroups(): { readonly physicalDevices: readonly bigint[]; readonly subsetAllocation: boolean }[];
  getInstanceProcAddr(name: string): bigint;
  destroy(): void;
  startDebugMessenger(): void;
  takeDebugMessages(): NativeVulkanMessage[];
  /** A messenger calling `listener` with each message (at once on this thread); returns its id. */
  addDebugListener(listener: (message: NativeVulkanMessage) => void, severities: number, types: number): number;
  removeDebugListener(id: number): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  readonly layerNames: string[];
}

export interface NativeVulkanDeviceCreateInfo {
  readonly queueCreateInfos: readonly { readonly queueFamilyIndex: number; readonly queuePriorities: readonly number[] }[];
  readonly enabledExtensionNames?: readonly string[];
  /** The features to enable (lib/vulkan/api/device.ts nativeDeviceFeatures); core: VkPhysicalDeviceFeatures in declaration order. */
  readonly nativeFeatures?: { readonly core: readonly boolean[]; readonly dynamicRendering: boolean; readonly multiview: boolean; readonly synchronization2: boolean; readonly dynamicRenderingLocalRead: boolean };
}

export interface NativeVulkanDevice {
  getDeviceProcAddr(name: string): bigint;
  getQueue(family: number, index: number): bigint;
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
}

/** The generated bindings' native half (native/vulkan/addon/vulkan_commands.h). */
export interface NativeVulkanCommands {
  /** Runs kCommands[index] of native/generated/vulkan_marshal.h with the JavaScript arguments. */
  call(index: number, args: readonly unknown[]): unknown;
  readMapped(memory: bigint, offset: number, size: number): Uint8Array;
  writeMapped(memory: bigint, offset: number, bytes: Uint8Array): void;
  liveHandleCount(type: string): number;
  /** vkCreate{Xlib,Xcb,Wayland}SurfaceKHR from native handles (native/vulkan/addon/vulkan_surface.cc); the surface is tracked as created by these bindings. */
  createPlatformSurface(kind: 'xlib' | 'xcb' | 'wayland', display: bigint, window: bigint | number): bigint;
  /** Makes a live non-dispatchable handle of `from` (bindings of the same instance) usable by these bindings; they never destroy it. */
  shareHandle(from: NativeVulkanCommands, handle: bigint): void;
  /** Makes a VkSemaphore the typed API made on these bindings' device usable by them (acquire, present); they never destroy it. */
  adoptSemaphore(semaphore: bigint): void;
  /** vkGetPhysicalDevice{Xlib,Xcb,Wayland}PresentationSupportKHR (native/vulkan/addon/vulkan_surface.cc). */
  platformPresentationSupport(kind: 'xlib' | 'xcb' | 'wayland', physicalDevice: bigint, queueFamilyIndex: number, display: bigint, visualId: bigint | number): boolean;
  readonly instance: bigint | null;
  readonly device: bigint | null;
}

export interface NativeVulkanAddon {
  /** No target: the pre-instance commands only; a VkInstance; or a device with its enabled extensions. */
  readonly VulkanCommands: new (target?: bigint | NativeVulkanDevice, deviceExtensions?: readonly string[]) => NativeVulkanCommands;
  readonly VulkanInstance: {
    new (plan: NativeVulkanPlan, createInfo: NativeVulkanCreateInfo): NativeVulkanInstance;
    /** Adopts a VkInstance native code created through the exported vkCreateInstance (an OpenXR runtime's xrCreateVulkanInstanceKHR). */
    new (handle: bigint): NativeVulkanInstance;
  };
  readonly VulkanDevice: new (
    instance: NativeVulkanInstance,
    physicalDevice: bigint,
    /** A create info, or a VkDevice native code created on the instance (adopted). */
    createInfoOrHandle: NativeVulkanDeviceCreateInfo | bigint,
  ) => NativeVulkanDevice;
  /** The instance extensions available with the plan's drivers, filtered, plus the loader's own (no layers'). */
  vulkanInstanceExtensions(plan: NativeVulkanPlan): NativeVulkanExtension[];
  /** A pre-instance function through the implicit layers' interceptors. */
  vulkanPreInstance(plan: NativeVulkanPlan, command: 'vkEnumerateInstanceVersion'): number;
  vulkanPreInstance(plan: NativeVulkanPlan, command: 'vkEnumerateInstanceExtensionProperties', layerName?: string): NativeVulkanExtension[];
  vulkanPreInstance(plan: NativeVulkanPlan, command: 'vkEnumerateInstanceLayerProperties'): string[];
  /** Publishes the plan the exported vkCreateInstance / vkEnumerateInstance* use for native callers. */
  vulkanPublishPlan(plan: NativeVulkanPlan): void;
  /** The addon's exported vkGetInstanceProcAddr (0n: NULL), as native code calls it. */
  vulkanGetInstanceProcAddr(instance: bigint, name: string): bigint;
  /** Which libvulkan.so.1 the process holds (native/vulkan/loader/process_loader.h). */
  vulkanProcessLoader(): { kind: 'none' | 'this-package' | 'other'; path: string };
  /** Loads and binds this package's process loader library; throws KL_VULKAN_ERROR with `library` when refused. */
  vulkanProvideProcessLoader(libraryPath: string): { kind: 'none' | 'this-package' | 'other'; path: string };
  /** Android: a layer library's own description, from its introspection functions. */
  vulkanIntrospectLayerLibrary(path: string): AndroidLayerIntrospection;
  readonly vulkanCompute: NativeVulkanCompute;
  readonly vulkanCommandStream: NativeCommandStream;
}

export function loadVulkanAddon(): NativeVulkanAddon {
  return loadNativeAddon() as unknown as NativeVulkanAddon;
}

export type DeviceChildKind =
  | 'buffer'
  | 'memory'
  | 'shaderModule'
  | 'descriptorSetLayout'
  | 'descriptorPool'
  | 'pipelineLayout'
  | 'pipeline'
  | 'commandPool'
  | 'fence'
  | 'semaphore'
  | 'imageView'
  | 'image'
  | 'sampler'
  | 'renderPass'
  | 'framebuffer'
  | 'queryPool'
  | 'event';

export interface NativePhysicalDeviceLimits {
  readonly maxComputeSharedMemorySize: number;
  readonly maxComputeWorkGroupCount: readonly [number, number, number];
  readonly maxComputeWorkGroupInvocations: number;
  readonly maxComputeWorkGroupSize: readonly [number, number, number];
  readonly maxPushConstantsSize: number;
  readonly maxStorageBufferRange: number;
  readonly maxBoundDescriptorSets: number;
  readonly maxMemoryAllocationCount: number;
  readonly minStorageBufferOffsetAlignment: number;
  readonly nonCoherentAtomSize: number;
  readonly timestampPeriod: number;
  readonly maxViewportDimensions: readonly [number, number];
  readonly viewportBoundsRange: readonly [number, number];
}

export interface NativePhysicalDeviceProperties {
  readonly deviceName: string;
  readonly vendorID: number;
  readonly deviceID: number;
  readonly deviceType: number;
  readonly apiVersion: number;
  readonly driverVersion: number;
  readonly limits: NativePhysicalDeviceLimits;
}

export interface NativeMemoryProperties {
  readonly memoryTypes: readonly { readonly propertyFlags: number; readonly heapIndex: number }[];
  readonly memoryHeaps: readonly { readonly size: bigint; readonly flags: number }[];
}

export interface NativeBufferInfo {
  readonly handle: bigint;
  /** VkMemoryRequirements */
  readonly size: number;
  readonly alignment: number;
  readonly memoryTypeBits: number;
}

type Size = number | bigint;

export interface NativeVulkanCompute {
  physicalDeviceProperties(pd: bigint): NativePhysicalDeviceProperties;
  physicalDeviceFeatures(pd: bigint): boolean[];
  physicalDeviceMemoryProperties(pd: bigint): NativeMemoryProperties;
  /** vkGetPhysicalDeviceFormatProperties (VkFormatFeatureFlags of each tiling and of buffers). */
  physicalDeviceFormatProperties(pd: bigint, format: number): { readonly linearTilingFeatures: number; readonly optimalTilingFeatures: number; readonly bufferFeatures: number };
  physicalDeviceExtensions(pd: bigint): { extensionName: string; specVersion: number }[];
  createBuffer(device: bigint, size: Size, usage: number): NativeBufferInfo;
  allocateMemory(device: bigint, size: Size, memoryTypeIndex: number): bigint;
  bindBufferMemory(device: bigint, buffer: bigint, memory: bigint, offset: Size): void;
  mapMemory(device: bigint, memory: bigint, offset: Size, size: Size): ArrayBuffer;
  unmapMemory(device: bigint, memory: bigint, mapping: ArrayBuffer): void;
  flushMemory(device: bigint, memory: bigint, offset: Size, size: Size): void;
  invalidateMemory(device: bigint, memory: bigint, offset: Size, size: Size): void;
  createShaderModule(device: bigint, code: Uint32Array): bigint;
  createDescriptorSetLayout(
    device: bigint,
    bindings: readonly { binding: number; descriptorType: number; descriptorCount: number; stageFlags: number }[],
  ): bigint;
  createDescriptorPool(device: bigint, maxSets: number, poolSizes: readonly { type: number; descriptorCount: number }[]): bigint;
  allocateDescriptorSet(device: bigint, pool: bigint, layout: bigint): bigint;
  freeDescriptorSet(device: bigint, pool: bigint, set: bigint): void;
  updateDescriptorSetBuffers(
    device: bigint,
    set: bigint,
    writes: readonly { binding: number; descriptorType: number; buffer: bigint; offset: Size; range?: Size }[],
  ): void;
  createPipelineLayout(device: bigint, setLayouts: readonly bigint[], pushConstantRanges: readonly { stageFlags: number; offset: number; size: number }[]): bigint;
  createComputePipeline(device: bigint, layout: bigint, module: bigint, entryPoint: string): bigint;
  createCommandPool(device: bigint, queueFamilyIndex: number, flags: number): bigint;
  allocateCommandBuffer(device: bigint, pool: bigint): bigint;
  freeCommandBuffer(device: bigint, pool: bigint, commandBuffer: bigint): void;
  beginCommandBuffer(commandBuffer: bigint, flags: number): void;
  endCommandBuffer(commandBuffer: bigint): void;
  resetCommandBuffer(commandBuffer: bigint): void;
  cmdBindComputePipeline(commandBuffer: bigint, pipeline: bigint): void;
  cmdBindComputeDescriptorSet(commandBuffer: bigint, layout: bigint, firstSet: number, set: bigint): void;
  cmdPushConstants(commandBuffer: bigint, layout: bigint, stageFlags: number, offset: number, data: ArrayBufferView): void;
  cmdDispatch(commandBuffer: bigint, x: number, y: number, z: number): void;
  cmdPipelineBarrier(commandBuffer: bigint, srcStageMask: number, dstStageMask: number, srcAccessMask: number, dstAccessMask: number): void;
  cmdCopyBuffer(commandBuffer: bigint, src: bigint, dst: bigint, srcOffset: Size, dstOffset: Size, size: Size): void;
  /** One VkImageMemoryBarrier (every mip level; the colour aspect unless aspectMask says). */
  cmdImageBarrier(
    commandBuffer: bigint,
    image: bigint,
    oldLayout: number,
    newLayout: number,
    srcStageMask: number,
    dstStageMask: number,
    srcAccessMask: number,
    dstAccessMask: number,
    baseArrayLayer: number,
    layerCount: number,
    aspect?: number,
  ): void;
  createImageView(device: bigint, image: bigint, format: number, baseArrayLayer: number, layerCount: number): bigint;
  updateDescriptorSetImages(
    device: bigint,
    set: bigint,
    writes: readonly { binding: number; descriptorType: number; imageView?: bigint; imageLayout: number; sampler?: bigint }[],
  ): void;
  /** `rgba`: the float colour, 4 numbers. */
  cmdClearColorImage(commandBuffer: bigint, image: bigint, layout: number, rgba: Float32Array, baseArrayLayer: number, layerCount: number): void;
  cmdClearDepthStencilImage(commandBuffer: bigint, image: bigint, layout: number, depth: number, stencil: number, aspectMask: number, baseArrayLayer: number, layerCount: number): void;
  createFence(device: bigint, signaled: boolean): bigint;
  fenceStatus(device: bigint, fence: bigint): boolean;
  resetFence(device: bigint, fence: bigint): void;
  /** Resolves true when signalled, false on timeout (nanoseconds). */
  waitFence(device: bigint, fence: bigint, timeout: Size): Promise<boolean>;
  createSemaphore(device: bigint): bigint;
  queueSubmit(queue: bigint, commandBuffer: bigint, fence: bigint, waitSemaphore: bigint, waitStage: number, signalSemaphore: bigint): void;
  /** vkQueueSubmit2 of one VkSubmitInfo2 (stage masks: VkPipelineStageFlags2). */
  queueSubmit2(queue: bigint, commandBuffers: readonly bigint[], fence: bigint, waits: readonly bigint[], waitStages: readonly bigint[], signals: readonly bigint[], signalStages: readonly bigint[]): void;
  queueWaitIdle(queue: bigint): void;
  deviceWaitIdle(device: bigint): void;
  // Query pools and events (native/vulkan/addon/compute_queries.cc)
  createQueryPool(device: bigint, queryType: number, queryCount: number, pipelineStatistics: number): bigint;
  /** 64-bit results into `out` (with availability: result, availability per query); false for VK_NOT_READY. */
  queryPoolResults(device: bigint, queryPool: bigint, firstQuery: number, queryCount: number, flags: number, out: BigUint64Array): boolean;
  createEvent(device: bigint): bigint;
  eventStatus(device: bigint, event: bigint): boolean;
  setEvent(device: bigint, event: bigint, set: boolean): void;
  /** op 0 vkCmdResetQueryPool(first a, count b), 1 vkCmdBeginQuery(query a, flags b), 2 vkCmdEndQuery(query a), 3 vkCmdWriteTimestamp(query a, stage b). */
  cmdQuery(commandBuffer: bigint, op: number, queryPool: bigint, a: number, b: number): void;
  cmdCopyQueryPoolResults(commandBuffer: bigint, queryPool: bigint, firstQuery: number, queryCount: number, buffer: bigint, offset: Size, stride: Size, flags: number): void;
  cmdEvent(commandBuffer: bigint, event: bigint, stageMask: number, set: boolean): void;
  destroy(device: bigint, kind: DeviceChildKind, handle: bigint): void;
  // Graphics (native/vulkan/addon/graphics_objects.cc, graphics_commands.cc, vulkan_record_calls.cc)
  createImage(
    device: bigint,
    options: { imageType: number; format: number; width: number; height: number; depth: number; mipLevels: number; arrayLayers: number; samples: number; usage: number; flags: number },
  ): { handle: bigint; size: number; alignment: number; memoryTypeBits: number };
  bindImageMemory(device: bigint, image: bigint, memory: bigint, offset: Size): void;
  createImageViewOf(
    device: bigint,
    image: bigint,
    options: { viewType: number; format: number; aspect: number; baseMipLevel: number; levelCount: number; baseArrayLayer: number; layerCount: number },
  ): bigint;
  createSampler(device: bigint, options: Readonly<Record<string, number>>): bigint;
  createRenderPass(device: bigint, options: NativeRenderPassInfo): bigint;
  createFramebuffer(device: bigint, renderPass: bigint, attachments: readonly bigint[], width: number, height: number, layers: number): bigint;
  createGraphicsPipeline(device: bigint, options: NativeGraphicsPipelineInfo): bigint;
  cmdBeginRendering(
    commandBuffer: bigint,
    x: number,
    y: number,
    width: number,
    height: number,
    layerCount: number,
    viewMask: number,
    colors: readonly NativeRenderingAttachment[],
    depth: NativeRenderingAttachment | null,
    clearValues: ArrayBuffer,
  ): void;
  cmdBeginRenderPass(commandBuffer: bigint, renderPass: bigint, framebuffer: bigint, x: number, y: number, width: number, height: number, clearValueCount: number, clearValues: ArrayBuffer): void;
  cmdEndRendering(commandBuffer: bigint, renderPass: 0 | 1): void;
  cmdBindGraphicsPipeline(commandBuffer: bigint, pipeline: bigint): void;
  cmdBindGraphicsDescriptorSet(commandBuffer: bigint, layout: bigint, firstSet: number, set: bigint): void;
  cmdBindVertexBuffer(commandBuffer: bigint, binding: number, buffer: bigint, offset: number): void;
  cmdBindIndexBuffer(commandBuffer: bigint, buffer: bigint, offset: number, indexType: number): void;
  cmdSetViewport(commandBuffer: bigint, x: number, y: number, width: number, height: number, minDepth: number, maxDepth: number): void;
  cmdSetScissor(commandBuffer: bigint, x: number, y: number, width: number, height: number): void;
  // Vulkan 1.3 / 1.4 commands (native/vulkan/addon/vulkan_record_calls.cc): call them only where deviceCommandAvailability says the device has them.
  cmdSetViewportWithCount(commandBuffer: bigint, x: number, y: number, width: number, height: number, minDepth: number, maxDepth: number): void;
  cmdSetScissorWithCount(commandBuffer: bigint, x: number, y: number, width: number, height: number): void;
  cmdPushConstants2(commandBuffer: bigint, layout: bigint, stageFlags: number, offset: number, data: ArrayBufferView): void;
  cmdSetRenderingAttachmentLocations(commandBuffer: bigint, locations: Uint32Array): void;
  /** regions: 20 words per VkImageBlit (srcSubresource, srcOffsets, dstSubresource, dstOffsets). */
  cmdBlitImage(commandBuffer: bigint, srcImage: bigint, srcLayout: number, dstImage: bigint, dstLayout: number, regions: Uint32Array, filter: number): void;
  /** Bits of the later commands the device's dispatch table has: 1 SetViewportWithCount, 2 SetScissorWithCount, 4 PushConstants2, 8 SetRenderingAttachmentLocations, 16 QueueSubmit2. */
  deviceCommandAvailability(device: bigint): number;
  cmdDraw(commandBuffer: bigint, vertexCount: number, instanceCount: number, firstVertex: number, firstInstance: number): void;
  cmdDrawIndexed(commandBuffer: bigint, indexCount: number, instanceCount: number, firstIndex: number, vertexOffset: number, firstInstance: number): void;
  cmdDrawIndirect(commandBuffer: bigint, indexed: 0 | 1, buffer: bigint, offset: number, drawCount: number, stride: number): void;
  cmdCopyBufferImage(
    commandBuffer: bigint,
    toImage: boolean,
    buffer: bigint,
    image: bigint,
    layout: number,
    bufferOffset: number,
    bufferRowLength: number,
    bufferImageHeight: number,
    aspect: number,
    mipLevel: number,
    baseArrayLayer: number,
    layerCount: number,
    x: number,
    y: number,
    z: number,
    width: number,
    height: number,
    depth: number,
  ): void;
}

export interface NativeRenderingAttachment {
  readonly view: bigint;
  readonly layout: number;
  readonly loadOp: number;
  readonly storeOp: number;
}

export interface NativeRenderPassInfo {
  readonly attachments: readonly {
    format: number;
    samples: number;
    loadOp: number;
    storeOp: number;
    stencilLoadOp: number;
    stencilStoreOp: number;
    initialLayout: number;
    finalLayout: number;
  }[];
  readonly subpasses: readonly { colors: readonly { attachment: number; layout: number }[]; depth: { attachment: number; layout: number } | null; viewMask: number }[];
  readonly dependencies: readonly {
    srcSubpass: number;
    dstSubpass: number;
    srcStageMask: number;
    dstStageMask: number;
    srcAccessMask: number;
    dstAccessMask: number;
    dependencyFlags: number;
  }[];
  readonly multiview: boolean;
}

export interface NativeGraphicsPipelineInfo {
  readonly layout: bigint;
  readonly renderPass: bigint;
  readonly subpass: number;
  readonly stages: readonly { stage: number; module: bigint; entryPoint: string }[];
  readonly bindings: readonly { binding: number; stride: number; inputRate: number }[];
  readonly attributes: readonly { location: number; binding: number; format: number; offset: number }[];
  readonly topology: number;
  readonly primitiveRestart: boolean;
  readonly polygonMode: number;
  readonly cullMode: number;
  readonly frontFace: number;
  readonly lineWidth: number;
  readonly samples: number;
  readonly depthTest: boolean;
  readonly depthWrite: boolean;
  readonly compareOp: number;
  readonly blend: readonly { enable: boolean; srcColor: number; dstColor: number; colorOp: number; srcAlpha: number; dstAlpha: number; alphaOp: number; writeMask: number }[];
  readonly colorFormats: readonly number[];
  readonly depthFormat: number;
  readonly stencilFormat: number;
  readonly viewMask: number;
}

/** The functions behind the typed Vulkan API's objects (native/vulkan/addon/vulkan_compute.cc and compute_*.cc): handles are bigints here; the classes in lib/vulkan/api own them. */
export function vulkanCompute(): NativeVulkanCompute {
  return loadVulkanAddon().vulkanCompute;
}

/** The addon's functions (native/vulkan/addon/vulkan_command_stream.h). */
export interface NativeCommandStream {
  validate(stream: ArrayBuffer, byteLength: number, kinds: Uint8Array): number;
  /**
   * Checks the stream whole, then records it; with `starts` (the word offsets of the commands its writer
   * noted: all but the runs of the commands of headers `runHeader` and `runHeader2`, by default the same),
   * -1 and no Vulkan call when the stream is not as noted (native/vulkan/loader/command_stream.h, Starts).
   */
  record(commandBuffer: bigint, beginFlags: number, stream: ArrayBuffer, byteLength: number, handles: BigUint64Array, kinds: Uint8Array, starts?: Uint32Array | null, startCount?: number, runHeader?: number, runHeader2?: number): number;
  cLoop(commandBuffer: bigint, pipeline: bigint, layout: bigint, set: bigint, commands: number, frames: number): number;
  /** The record bench's frame of draws through the exported vkCmd* (begin rendering, bind, viewport, scissor, push constants, `draws` vkCmdDraw(3), end): mean wall ns per frame. */
  drawLoop(commandBuffer: bigint, pipeline: bigint, layout: bigint, vertexBuffer: bigint, view: bigint, width: number, height: number, draws: number, frames: number): number;
}

/** @internal */
export function nativeCommandStream(): NativeCommandStream {
  return loadVulkanAddon().vulkanCommandStream;
}
