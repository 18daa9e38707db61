// The error class for Vulkan failures: `.result` is the VkResult name, `.code` its value (from the
// registry-generated table).
// One class for discovery and the native core alike.
import { VkResult, vkResultName, type VkResultName } from '../generated/vulkan.js';

export class VulkanError extends Error {
  /** The VkResult value, e.g. -6. */
  readonly code: number;
  /** The VkResult name, e.g. "VK_ERROR_LAYER_NOT_PRESENT" (`VkResult(n)` for a value the registry does not name). */
  readonly result: VkResultName | `VkResult(${number})`;
  constructor(result: VkResultName | number, message: string) {
    const code = typeof result === 'number' ? result : VkResult[result];
    const name = typeof result === 'number' ? (vkResultName(result) ?? (`VkResult(${result})` as const)) : result;
    super(`${name}: ${message}`);
    this.name = 'VulkanError';
    this.code = code;
    this.result = name;
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
