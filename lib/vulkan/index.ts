// `khronos-loader/vulkan`: the Vulkan registry's constants (result codes, structure types,
// extensions, API versions, the enums and flags of the typed API). Layer and driver discovery and the Vulkan call chain build on these.
export {
  VK_API_VERSION_1_0,
  VK_API_VERSION_1_1,
  VK_API_VERSION_1_2,
  VK_API_VERSION_1_3,
  VK_API_VERSION_1_4,
  VK_EXTENSIONS,
  VK_HEADER_VERSION,
  VK_REGISTRY_VERSION,
  VkResult,
  VkStructureType,
  vkMakeApiVersion,
  vkResultName,
  vkStructureTypeName,
  vkVersionParts,
  vkVersionString,
  type VkExtensionName,
  type VkResultName,
  type VkStructureTypeName,
  type VkVersionParts,
  // The enums and flags the typed API takes and answers, by name (BufferUsageFlags.STORAGE_BUFFER, ...).
  AccessFlags,
  BufferUsageFlags,
  CommandPoolCreateFlags,
  DebugUtilsMessageSeverityFlagsEXT,
  DebugUtilsMessageTypeFlagsEXT,
  DescriptorType,
  Format,
  ImageLayout,
  MemoryHeapFlags,
  MemoryPropertyFlags,
  PhysicalDeviceType,
  PipelineStageFlags,
  QueueFlags,
  ShaderStageFlags,
} from '../generated/vulkan.js';

// Discovery and the pre-instance loader surface (docs/usage.md, 'Vulkan discovery').
export { discover, type VulkanDiscoveryResult, type VulkanLayerInfo } from './discovery/discover.js';
export {
  createLoader,
  type VulkanLoader,
  type VulkanInstanceCreateOptions,
  type VulkanLayerProperties,
  type VulkanExtensionProperties,
} from './loader.js';
export type { VulkanDirectDrivers } from './native/addon.js';
export type { VulkanDiscoveryOptions } from './discovery/context.js';
export type { VulkanLoaderPolicyOptions, VulkanDevicePolicyOptions, VulkanDriverPolicyOptions, VulkanIdRange } from './discovery/loader-policy.js';
export type { LayerPolicyOptions } from '../core/loader-policy.js';
export type { PlanInstanceOptions } from './plan/instance-plan.js';
export type { DiscoveredVulkanDriver } from './discovery/driver-discovery.js';
export type { VulkanDiagnostic } from './discovery/diagnostic.js';
export type { VulkanLoaderSettings } from './discovery/settings-file.js';
export type * from './plan/plan.js';
export { VulkanError, VulkanLayerNotPresentError } from './errors.js';
export { VK_LOADER_DEBUG, createVkLogger, formatVkLoaderRecord } from './discovery/vk-loader-debug.js';

// The typed API over the native core (docs/usage.md, 'Vulkan: instances, devices and compute'): instances, physical devices, devices.
export * from './api/index.js';
export { examplePath } from '../core/examples.js';

// The generated bindings: every Vulkan command of vk.xml over plain objects (docs/usage.md, 'Every Vulkan command: vulkanCommands').
export { vulkanCommands, VK_GENERATED_COMMANDS, VK_HANDLE_TYPES, type VulkanCommands } from './commands.js';
export type * as VkTypes from '../generated/vulkan-commands.js';
