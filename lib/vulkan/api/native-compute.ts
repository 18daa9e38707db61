// The native functions behind the typed Vulkan API (native/napi/vulkan_compute.cc). Internal:
// handles are bigints here; the classes in this folder own them.
import { loadNativeAddon } from '../../native.js';

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
  | 'imageView';

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
  /** One VkImageMemoryBarrier (colour aspect, every mip level). */
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
  ): void;
  createImageView(device: bigint, image: bigint, format: number, baseArrayLayer: number, layerCount: number): bigint;
  updateDescriptorSetImages(
    device: bigint,
    set: bigint,
    writes: readonly { binding: number; descriptorType: number; imageView: bigint; imageLayout: number }[],
  ): void;
  /** `rgba`: the float colour, 4 numbers. */
  cmdClearColorImage(commandBuffer: bigint, image: bigint, layout: number, rgba: Float32Array, baseArrayLayer: number, layerCount: number): void;
  createFence(device: bigint, signaled: boolean): bigint;
  fenceStatus(device: bigint, fence: bigint): boolean;
  resetFence(device: bigint, fence: bigint): void;
  /** Resolves true when signalled, false on timeout (nanoseconds). */
  waitFence(device: bigint, fence: bigint, timeout: Size): Promise<boolean>;
  createSemaphore(device: bigint): bigint;
  queueSubmit(queue: bigint, commandBuffer: bigint, fence: bigint, waitSemaphore: bigint, waitStage: number, signalSemaphore: bigint): void;
  queueWaitIdle(queue: bigint): void;
  deviceWaitIdle(device: bigint): void;
  destroy(device: bigint, kind: DeviceChildKind, handle: bigint): void;
}

export function vulkanCompute(): NativeVulkanCompute {
  return (loadNativeAddon() as unknown as { vulkanCompute: NativeVulkanCompute }).vulkanCompute;
}
