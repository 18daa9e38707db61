// The native Vulkan core's typed entry points: an instance from a discovery plan, its physical
// devices and devices.
export { createInstanceFromPlan, instanceExtensionsOfPlan, Instance, preInstance, publishVulkanPlan, PhysicalDevice } from './instance.js';
export type { CreateInstanceOptions, DebugMessage, PhysicalDeviceProperties } from './instance.js';
export { Device } from './device.js';
export type { DeviceCreateOptions, QueueCreateInfo } from './device.js';
export { VulkanError } from './errors.js';
