// The native Vulkan core's typed entry points: an instance from a discovery plan, its physical
// devices and devices.
export { createInstanceFromPlan, instanceExtensionsOfPlan, Instance, preInstance, publishVulkanPlan, PhysicalDevice } from './instance.js';
export type { CreateInstanceOptions, DebugMessage, DebugMessenger, DebugMessengerOptions, PhysicalDeviceGroup, PhysicalDeviceProperties, QueueFamily } from './instance.js';
export { Device } from './device.js';
export { QUERY_TYPES, QueryPool, VulkanEvent, type QueryPoolOptions, type QueryResultOptions, type QueryType } from './queries.js';
export type { DeviceCreateOptions, QueueCreateInfo } from './device.js';
export { Surface, Swapchain } from './surface.js';
export type { AcquiredImage, AcquireOptions, Extent2D, PresentationTarget, PresentOptions, SurfaceCapabilities, SurfaceFormat, SurfacePhysicalDevice, SurfaceSource, SwapchainOptions } from './surface.js';
export { VulkanError } from '../errors.js';
// Compute (docs/usage.md, 'Vulkan: instances, devices and compute'): the objects a Device makes, its queues, and the physical-device queries.
export {
  VulkanBuffer,
  ComputePipeline,
  DescriptorPool,
  DescriptorSet,
  DescriptorSetLayout,
  DeviceChild,
  DeviceMemory,
  Fence,
  ImageView,
  PipelineLayout,
  COMPARE_OPS,
  Sampler,
  Semaphore,
  ShaderModule,
  type SamplerOptions,
} from './device-objects.js';
// Graphics (docs/usage.md, 'Vulkan: graphics'): images the device owns, render passes, framebuffers, graphics pipelines.
export {
  Framebuffer,
  GraphicsPipeline,
  IMAGE_ASPECT,
  IMAGE_USAGE,
  LOAD_OPS,
  OwnedImage,
  RenderPass,
  STORE_OPS,
  type AttachmentDescription,
  type AttachmentReference,
  type BlendAttachment,
  type FramebufferOptions,
  type GraphicsPipelineOptions,
  type ImageCreateOptions,
  type ImageViewOptions,
  type PipelineRendering,
  type RenderPassOptions,
  type ShaderStage,
  type SubpassDependency,
  type SubpassDescription,
  type VertexAttribute,
  type VertexBinding,
} from './graphics.js';
export type { BufferCreateOptions, DescriptorBufferWrite, DescriptorImageWrite, DescriptorPoolSize, DescriptorSetLayoutBinding, PushConstantRange } from './device-objects.js';
export {
  CommandBuffer,
  CommandPool,
  Queue,
  type BufferImageRegion,
  type DepthClear,
  type ImageBarrier,
  type RenderArea,
  type RenderingAttachment,
  type RenderingInfo,
  type RenderPassBeginInfo,
  type SubmitSemaphores,
} from './commands.js';
// The Vulkan 1.3 and 1.4 commands per call (docs/usage.md, 'Vulkan 1.3 and 1.4 commands per call').
export type { Rect2D, Viewport } from './per-call/later-commands.js';
export type { ImageBlitRegion, ImageSubresourceLayers, Offset3D } from './per-call/blit.js';
export type { SemaphoreSubmit, Submit2Semaphores } from './per-call/submit2.js';
// Encoded command buffers (docs/usage.md, 'CommandEncoder'): a frame's commands written into one ArrayBuffer, recorded in one native call.
export {
  COMMAND_OPCODE,
  CommandEncoder,
  CommandStreamError,
  HANDLE_KIND,
  validateCommandStream,
  type CommandEncoderOptions,
  type CommandStreamRefusal,
  type EncodableObject,
} from './command-encoder.js';
// The encoder's generated vkCmd* opcodes (docs/usage.md, 'The generated vkCmd* opcodes').
export { ENCODED_COMMANDS, ENCODED_OPCODE_BASE, ENCODER_LEFT_OUT, EncodedVulkanCommands, type EncodedArgKind, type EncodedCommandInfo } from '../../generated/vulkan-encoder.js';
// Images others own (an OpenXR swapchain's), and the constants a frame's barriers use.
export { ACCESS, IMAGE_LAYOUTS, Image, PIPELINE_STAGE, type ImageInfo, type ImageLayoutName, type ImageOwner } from './image.js';
export { PHYSICAL_DEVICE_FEATURE_NAMES, type PhysicalDeviceFeatureName, type PhysicalDeviceFeatures } from './physical-device-features.js';
export type { PhysicalDeviceLimits, PhysicalDeviceMemoryProperties } from './instance.js';
// This package's loader as the process's libvulkan.so.1, for runtimes that link against it (Monado).
export {
  PROCESS_VULKAN_LOADER_LIBRARY,
  VulkanProcessLoaderError,
  processVulkanLoader,
  provideProcessVulkanLoader,
  type ProcessVulkanLoaderState,
  type ProvideProcessVulkanLoaderOptions,
} from './process-loader.js';
