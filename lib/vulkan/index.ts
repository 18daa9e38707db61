// `khronos-loader/vulkan`: the Vulkan registry's constants (result codes, structure types,
// extensions, API versions). Layer and driver discovery and the Vulkan call chain build on these.
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
  type VkExtensionName,
  type VkResultName,
  type VkStructureTypeName,
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
export type { VulkanDiscoveryOptions } from './discovery/context.js';
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
