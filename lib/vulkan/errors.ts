// The error class for Vulkan failures: `.code` and `.result` are the VkResult's name (the package's
// one code scheme, docs/usage.md "Errors"), `.resultValue` its value (from the registry-generated
// table). One class for discovery and the native core alike; native failures ('KL_VULKAN_ERROR')
// become it here.
import { InvalidArgumentError } from '../core/errors.js';
import { VkResult, vkResultName, type VkResultName } from '../generated/vulkan.js';

export class VulkanError extends Error {
  /** The VkResult name, e.g. 'VK_ERROR_LAYER_NOT_PRESENT' (the same as `result`). */
  readonly code: VkResultName | `VkResult(${number})`;
  /** The VkResult name, e.g. "VK_ERROR_LAYER_NOT_PRESENT" (`VkResult(n)` for a value the registry does not name). */
  readonly result: VkResultName | `VkResult(${number})`;
  /** The VkResult value, e.g. -6. */
  readonly resultValue: number;
  constructor(result: VkResultName | number, message: string) {
    const value = typeof result === 'number' ? result : VkResult[result];
    const name = typeof result === 'number' ? (vkResultName(result) ?? (`VkResult(${result})` as const)) : result;
    super(`${name}: ${message}`);
    this.name = 'VulkanError';
    this.code = name;
    this.result = name;
    this.resultValue = value;
  }
}

/** VK_ERROR_LAYER_NOT_PRESENT for a requested layer the loader does not know. */
export class VulkanLayerNotPresentError extends VulkanError {
  /** The name the application (or caller) asked for. */
  readonly layerName: string;
  /** Its index in the requested list. */
  readonly index: number;
  constructor(layerName: string, index: number) {
    // The Khronos loader's message (loader_validate_layers).
    super('VK_ERROR_LAYER_NOT_PRESENT', `loader_validate_layers: Layer ${index} does not exist in the list of available layers (${layerName})`);
    this.name = 'VulkanLayerNotPresentError';
    this.layerName = layerName;
    this.index = index;
  }
}

/** A native error with a VkResult as VulkanError (anything else unchanged): for catch blocks on per-call paths, which take no closure. */
export function toVulkanError(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_VULKAN_ERROR') {
    const code = (error as { vkResult?: unknown }).vkResult;
    return new VulkanError(typeof code === 'number' ? code : -13, error.message);
  }
  if (error instanceof TypeError && !(error instanceof InvalidArgumentError) && (error as { code?: unknown }).code === 'KL_INVALID_ARGUMENT') {
    return new InvalidArgumentError(error.message); // the addon's argument errors: one class for both sides
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
