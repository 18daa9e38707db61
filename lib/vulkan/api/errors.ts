// Native failures as VulkanError (the package's one class: a VkResult name and code).
import { VulkanError } from '../errors.js';

export { VulkanError };

/** A native error with a VkResult as VulkanError (anything else unchanged): for catch blocks on per-call paths, which take no closure. */
export function toVulkanError(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_VULKAN_ERROR') {
    const code = (error as { vkResult?: unknown }).vkResult;
    return new VulkanError(typeof code === 'number' ? code : -13, error.message);
  }
  return error;
}

/** Runs a native call; native errors with a VkResult ('KL_VULKAN_ERROR') become VulkanError, the rest is rethrown. */
export function withVulkanErrors<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw toVulkanError(error);
  }
}
