// VkPhysicalDeviceFeatures member names in declaration order (the struct is VkBool32s only, and
// the native side hands them over in this order).
import { InternalError } from '../../core/errors.js';

export const PHYSICAL_DEVICE_FEATURE_NAMES = [
  'robustBufferAccess', 'fullDrawIndexUint32', 'imageCubeArray', 'independentBlend', 'geometryShader', 'tessellationShader',
  'sampleRateShading', 'dualSrcBlend', 'logicOp', 'multiDrawIndirect', 'drawIndirectFirstInstance', 'depthClamp', 'depthBiasClamp',
  'fillModeNonSolid', 'depthBounds', 'wideLines', 'largePoints', 'alphaToOne', 'multiViewport', 'samplerAnisotropy',
  'textureCompressionETC2', 'textureCompressionASTC_LDR', 'textureCompressionBC', 'occlusionQueryPrecise', 'pipelineStatisticsQuery',
  'vertexPipelineStoresAndAtomics', 'fragmentStoresAndAtomics', 'shaderTessellationAndGeometryPointSize', 'shaderImageGatherExtended',
  'shaderStorageImageExtendedFormats', 'shaderStorageImageMultisample', 'shaderStorageImageReadWithoutFormat',
  'shaderStorageImageWriteWithoutFormat', 'shaderUniformBufferArrayDynamicIndexing', 'shaderSampledImageArrayDynamicIndexing',
  'shaderStorageBufferArrayDynamicIndexing', 'shaderStorageImageArrayDynamicIndexing', 'shaderClipDistance', 'shaderCullDistance',
  'shaderFloat64', 'shaderInt64', 'shaderInt16', 'shaderResourceResidency', 'shaderResourceMinLod', 'sparseBinding',
  'sparseResidencyBuffer', 'sparseResidencyImage2D', 'sparseResidencyImage3D', 'sparseResidency2Samples', 'sparseResidency4Samples',
  'sparseResidency8Samples', 'sparseResidency16Samples', 'sparseResidencyAliased', 'variableMultisampleRate', 'inheritedQueries',
] as const;

export type PhysicalDeviceFeatureName = (typeof PHYSICAL_DEVICE_FEATURE_NAMES)[number];

/** VkPhysicalDeviceFeatures */
export type PhysicalDeviceFeatures = { readonly [K in PhysicalDeviceFeatureName]: boolean };

export function namePhysicalDeviceFeatures(values: readonly boolean[]): PhysicalDeviceFeatures {
  if (values.length !== PHYSICAL_DEVICE_FEATURE_NAMES.length) {
    throw new InternalError(`VkPhysicalDeviceFeatures has ${values.length} members here, ${PHYSICAL_DEVICE_FEATURE_NAMES.length} names are known`);
  }
  return Object.freeze(Object.fromEntries(PHYSICAL_DEVICE_FEATURE_NAMES.map((n, i) => [n, values[i] === true]))) as PhysicalDeviceFeatures;
}
