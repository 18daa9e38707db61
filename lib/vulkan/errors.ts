// The error class for Vulkan failures: `.result` is the VkResult name, `.code` its value (from the
// registry-generated table).
import { VkResult, type VkResultName } from '../generated/vulkan.js';

export class VulkanError extends Error {
  /** The VkResult value, e.g. -6. */
  readonly code: number;
  constructor(
    /** The VkResult name, e.g. "VK_ERROR_LAYER_NOT_PRESENT". */
    readonly result: VkResultName,
    message: string,
  ) {
    super(`${result}: ${message}`);
    this.name = 'VulkanError';
    this.code = VkResult[result];
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
