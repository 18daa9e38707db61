// Native failures as VulkanError (the package's one class: a VkResult name and code).
import { VulkanError } from '../errors.js';

export { VulkanError };

/** Runs a native call; native errors with a VkResult ('KL_VULKAN_ERROR') become VulkanError, the rest is rethrown. */
export function withVulkanErrors<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'KL_VULKAN_ERROR') {
      const code = (error as { vkResult?: unknown }).vkResult;
      throw new VulkanError(typeof code === 'number' ? code : -13, error.message);
    }
    throw error;
  }
}
