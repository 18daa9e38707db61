// The error class that carries a VkResult name and code (names from the registry-generated table).
import { vkResultName, type VkResultName } from '../../generated/vulkan.js';

/** A Vulkan failure: `.result` is the VkResult name, `.code` its value. */
export class VulkanError extends Error {
  readonly result: VkResultName | `VkResult(${number})`;
  readonly code: number;
  constructor(code: number, message: string) {
    const name = vkResultName(code) ?? (`VkResult(${code})` as const);
    super(`${name}: ${message}`);
    this.name = 'VulkanError';
    this.result = name;
    this.code = code;
  }
}

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
