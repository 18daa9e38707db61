// The generated Vulkan bindings (vulkanCommands) on the real driver (Mesa lavapipe, or the one
// KHRONOS_LOADER_VK_DRIVER_JSON names), with VK_LAYER_KHRONOS_validation in the chain: a sample of
// the registry's commands called with their results checked, handle lifetimes (use after destroy,
// a parent's destroy taking its children along, the validation layer silent), and bad input
// answered with typed errors before any Vulkan call.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplePath } from '../../lib/core/examples.js';
import {
  VK_API_VERSION_1_3,
  VkStructureType,
  VulkanError,
  vulkanCommands,
  type Device,
  type Instance,
  type PhysicalDevice,
  type VulkanCommands,
} from '../../lib/vulkan/index.js';
import type { VkBuffer, VkDevice, VkImage, VkInstance, VkPhysicalDevice } from '../../lib/vulkan/commands.js';
import { missingRealDriverWithDebianLayers, REAL_DEVICE_NAME, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriverWithDebianLayers();
const WARNING = 0x100;
const WHOLE_SIZE = 0xffffffffffffffffn;
const HOST_VISIBLE_COHERENT = 0x2 | 0x4;
const DEVICE_LOCAL = 0x1;

/** The error a call throws, for its code and message. */
function thrown(call: () => unknown): Error & { code?: string } {
  try {
    call();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('the call did not throw');
}

/** Records the name of every command called through the bindings. */
function recording(vk: VulkanCommands, called: Set<string>): VulkanCommands {
  return new Proxy(vk, {
    get(target, name, receiver) {
      if (typeof name === 'string' && name.startsWith('vk')) called.add(name);
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}

function memoryType(vk: VulkanCommands, pd: VkPhysicalDevice, bits: number, flags: number): number {
  const { pMemoryProperties } = vk.vkGetPhysicalDeviceMemoryProperties(pd);
  const index = pMemoryProperties.memoryTypes.findIndex((t, i) => i < pMemoryProperties.memoryTypeCount && (bits & (1 << i)) !== 0 && (t.propertyFlags & flags) === flags);
  if (index < 0) throw new Error(`no memory type with flags ${flags}`);
  return index;
}

describe.skipIf(skip !== null)('vulkanCommands on the real driver, with the validation layer', () => {
  let instance: Instance;
  let physical: PhysicalDevice;
  let device: Device;

  beforeAll(() => {
    instance = realDriverLoader().createInstance({
      applicationName: 'kl-vkgen',
      apiVersion: VK_API_VERSION_1_3,
      enabledLayerNames: ['VK_LAYER_KHRONOS_validation'],
      enabledExtensionNames: ['VK_EXT_debug_utils'],
    });
    instance.startDebugMessenger();
    physical = instance.enumeratePhysicalDevices()[0]!;
    device = physical.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
  });

  afterAll(() => {
    device?.destroy();
    instance?.destroy();
  });

  it('VKGEN-3: a sample of more than 50 commands (queries, two-call enumerations, create/destroy, memory, a recorded and submitted copy) return what the driver says', () => {
    const called = new Set<string>();
    const vk = recording(vulkanCommands(device), called);
    const dev = vk.deviceHandle as VkDevice;
    // Instance and physical-device queries.
    const { pPhysicalDevices } = vk.vkEnumeratePhysicalDevices(vk.instanceHandle!);
    expect(pPhysicalDevices).toContain(physical.handle);
    const pd = pPhysicalDevices.find((h) => h === physical.handle)!;
    const { pProperties } = vk.vkGetPhysicalDeviceProperties(pd);
    expect(pProperties.deviceName).toMatch(REAL_DEVICE_NAME);
    expect(pProperties.deviceName).toBe(physical.properties.deviceName);
    expect(pProperties.limits.maxImageDimension2D).toBeGreaterThanOrEqual(4096);
    const subgroup = VkStructureType.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    const props2 = vk.vkGetPhysicalDeviceProperties2(pd, { pNext: { sType: subgroup } });
    expect(props2.pProperties.properties.deviceID).toBe(pProperties.deviceID);
    const chained = (props2.pProperties.pNext as unknown as { sType: number; subgroupSize: number }[])[0]!;
    expect(chained.sType).toBe(subgroup);
    expect(chained.subgroupSize).toBeGreaterThan(0);
    expect(typeof vk.vkGetPhysicalDeviceFeatures(pd).pFeatures.robustBufferAccess).toBe('boolean');
    const features13 = vk.vkGetPhysicalDeviceFeatures2(pd, { pNext: { sType: VkStructureType.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES } });
    expect((features13.pFeatures.pNext as unknown as { dynamicRendering: boolean }[])[0]!.dynamicRendering).toBe(true);
    const memory = vk.vkGetPhysicalDeviceMemoryProperties(pd).pMemoryProperties;
    expect(memory.memoryTypeCount).toBeGreaterThan(0);
    expect(vk.vkGetPhysicalDeviceMemoryProperties2(pd).pMemoryProperties.memoryProperties.memoryHeapCount).toBe(memory.memoryHeapCount);
    const families = vk.vkGetPhysicalDeviceQueueFamilyProperties(pd).pQueueFamilyProperties;
    expect(families.map((f) => f.queueCount)).toEqual(physical.queueFamilies.map((f) => f.queueCount));
    const families2 = vk.vkGetPhysicalDeviceQueueFamilyProperties2(pd).pQueueFamilyProperties;
    expect(families2.map((f) => f.queueFamilyProperties.queueFlags)).toEqual(families.map((f) => f.queueFlags));
    const format = vk.vkGetPhysicalDeviceFormatProperties(pd, 'VK_FORMAT_R8G8B8A8_UNORM').pFormatProperties;
    expect(format.optimalTilingFeatures & 0x1).toBe(0x1); // SAMPLED_IMAGE
    expect(vk.vkGetPhysicalDeviceFormatProperties2(pd, 37).pFormatProperties.formatProperties.optimalTilingFeatures).toBe(format.optimalTilingFeatures);
    const imageFormat = vk.vkGetPhysicalDeviceImageFormatProperties(pd, 'VK_FORMAT_R8G8B8A8_UNORM', 'VK_IMAGE_TYPE_2D', 'VK_IMAGE_TILING_OPTIMAL', 0x4 | 0x2, 0);
    expect(imageFormat.pImageFormatProperties.maxExtent.width).toBeGreaterThanOrEqual(4096);
    const extensions = vk.vkEnumerateDeviceExtensionProperties(pd).pProperties.map((e) => e.extensionName);
    expect(extensions).toContain('VK_KHR_maintenance1');
    expect(new Set(extensions).size).toBe(extensions.length);
    expect(Array.isArray(vk.vkEnumerateDeviceLayerProperties(pd).pProperties)).toBe(true);
    expect(Array.isArray(vk.vkGetPhysicalDeviceSparseImageFormatProperties(pd, 37, 'VK_IMAGE_TYPE_2D', 1, 0x4, 'VK_IMAGE_TILING_OPTIMAL').pProperties)).toBe(true);
    const external = vk.vkGetPhysicalDeviceExternalBufferProperties(pd, { usage: 0x1, handleType: 0x1 });
    expect(external.pExternalBufferProperties.sType).toBe(VkStructureType.VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES);

    // Buffers and host-visible memory.
    const queue = vk.vkGetDeviceQueue(dev, 0, 0).pQueue;
    expect(queue).not.toBe(0n);
    const src = vk.vkCreateBuffer(dev, { size: 256, usage: 0x1, sharingMode: 'VK_SHARING_MODE_EXCLUSIVE' }).pBuffer;
    const dst = vk.vkCreateBuffer(dev, { size: 256, usage: 0x2 | 0x20, sharingMode: 0 }).pBuffer;
    const req = vk.vkGetBufferMemoryRequirements(dev, src).pMemoryRequirements;
    expect(req.size).toBeGreaterThanOrEqual(256n);
    expect(vk.vkGetBufferMemoryRequirements2(dev, { buffer: dst }).pMemoryRequirements.memoryRequirements.size).toBeGreaterThanOrEqual(256n);
    const hostType = memoryType(vk, pd, req.memoryTypeBits, HOST_VISIBLE_COHERENT);
    const srcMemory = vk.vkAllocateMemory(dev, { allocationSize: 256, memoryTypeIndex: hostType }).pMemory;
    const dstMemory = vk.vkAllocateMemory(dev, { allocationSize: 256, memoryTypeIndex: hostType }).pMemory;
    expect(vk.vkBindBufferMemory(dev, src, srcMemory, 0).result).toBe(0);
    expect(vk.vkBindBufferMemory2(dev, [{ buffer: dst, memory: dstMemory, memoryOffset: 0 }]).result).toBe(0);
    expect(vk.vkMapMemory(dev, srcMemory, 0, WHOLE_SIZE, 0).ppData).not.toBe(0n);
    vk.vkMapMemory(dev, dstMemory, 0, WHOLE_SIZE, 0);
    const pattern = Uint8Array.from({ length: 256 }, (_, i) => (i * 7 + 3) & 0xff);
    vk.writeMapped(srcMemory, 0, pattern);
    vk.writeMapped(dstMemory, 0, new Uint8Array(256));
    expect(vk.vkFlushMappedMemoryRanges(dev, [{ memory: srcMemory, offset: 0, size: WHOLE_SIZE }]).result).toBe(0);

    // A command buffer recorded with a few vkCmd* and submitted.
    const pool = vk.vkCreateCommandPool(dev, { flags: 0x2, queueFamilyIndex: 0 }).pCommandPool;
    const [cb] = vk.vkAllocateCommandBuffers(dev, { commandPool: pool, level: 'VK_COMMAND_BUFFER_LEVEL_PRIMARY', commandBufferCount: 1 }).pCommandBuffers;
    expect(vk.vkBeginCommandBuffer(cb!, { flags: 0x1 }).result).toBe(0);
    vk.vkCmdFillBuffer(cb!, dst, 128, 128, 0xdeadbeef);
    vk.vkCmdPipelineBarrier(cb!, 0x1000, 0x1000, 0, [{ srcAccessMask: 0x1000, dstAccessMask: 0x1000 }], [], []);
    vk.vkCmdCopyBuffer(cb!, src, dst, [{ srcOffset: 0, dstOffset: 0, size: 128 }]);
    vk.vkCmdPipelineBarrier(cb!, 0x1000, 0x1000, 0, [{ srcAccessMask: 0x1000, dstAccessMask: 0x1000 }], [], []);
    vk.vkCmdUpdateBuffer(cb!, dst, 240, Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]));
    vk.vkCmdPipelineBarrier(cb!, 0x1000, 0x4000, 0, [{ srcAccessMask: 0x1000, dstAccessMask: 0x2000 }], [], []);
    expect(vk.vkEndCommandBuffer(cb!).result).toBe(0);
    const fence = vk.vkCreateFence(dev, {}).pFence;
    expect(vk.vkGetFenceStatus(dev, fence).result).toBe(1); // VK_NOT_READY: a success code, returned
    expect(vk.vkQueueSubmit(queue, [{ pCommandBuffers: [cb!] }], fence).result).toBe(0);
    expect(vk.vkWaitForFences(dev, [fence], true, 10_000_000_000n).result).toBe(0);
    expect(vk.vkGetFenceStatus(dev, fence).result).toBe(0);
    expect(vk.vkInvalidateMappedMemoryRanges(dev, [{ memory: dstMemory, offset: 0, size: WHOLE_SIZE }]).result).toBe(0);
    const bytes = vk.readMapped(dstMemory, 0, 256);
    expect([...bytes.subarray(0, 128)]).toEqual([...pattern.subarray(0, 128)]);
    expect([...bytes.subarray(128, 132)]).toEqual([0xef, 0xbe, 0xad, 0xde]);
    expect([...bytes.subarray(236, 240)]).toEqual([0xef, 0xbe, 0xad, 0xde]);
    expect([...bytes.subarray(240)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(vk.vkResetFences(dev, [fence]).result).toBe(0);
    expect(vk.vkGetFenceStatus(dev, fence).result).toBe(1);
    expect(vk.vkQueueWaitIdle(queue).result).toBe(0);
    expect(vk.vkDeviceWaitIdle(dev).result).toBe(0);
    expect(vk.vkResetCommandBuffer(cb!, 0).result).toBe(0);
    vk.vkUnmapMemory(dev, srcMemory);
    expect(thrown(() => vk.readMapped(srcMemory, 0, 4)).code).toBe('KL_INVALID_ARGUMENT');

    // Images, views, samplers.
    const image = vk.vkCreateImage(dev, {
      imageType: 'VK_IMAGE_TYPE_2D',
      format: 'VK_FORMAT_R8G8B8A8_UNORM',
      extent: { width: 16, height: 16, depth: 1 },
      mipLevels: 1,
      arrayLayers: 1,
      samples: 1,
      tiling: 'VK_IMAGE_TILING_OPTIMAL',
      usage: 0x4 | 0x2 | 0x10,
      sharingMode: 'VK_SHARING_MODE_EXCLUSIVE',
      initialLayout: 'VK_IMAGE_LAYOUT_UNDEFINED',
    }).pImage;
    const imageReq = vk.vkGetImageMemoryRequirements(dev, image).pMemoryRequirements;
    expect(imageReq.size).toBeGreaterThanOrEqual(16n * 16n * 4n);
    const imageMemory = vk.vkAllocateMemory(dev, { allocationSize: imageReq.size, memoryTypeIndex: memoryType(vk, pd, imageReq.memoryTypeBits, DEVICE_LOCAL) }).pMemory;
    expect(vk.vkBindImageMemory(dev, image, imageMemory, 0).result).toBe(0);
    const range = { aspectMask: 0x1, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1 };
    const view = vk.vkCreateImageView(dev, { image, viewType: 'VK_IMAGE_VIEW_TYPE_2D', format: 'VK_FORMAT_R8G8B8A8_UNORM', components: { r: 0, g: 0, b: 0, a: 0 }, subresourceRange: range }).pView;
    const sampler = vk.vkCreateSampler(dev, {
      magFilter: 'VK_FILTER_LINEAR',
      minFilter: 'VK_FILTER_NEAREST',
      mipmapMode: 'VK_SAMPLER_MIPMAP_MODE_NEAREST',
      addressModeU: 'VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE',
      addressModeV: 'VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE',
      addressModeW: 'VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE',
      mipLodBias: 0,
      anisotropyEnable: false,
      maxAnisotropy: 1,
      compareEnable: false,
      compareOp: 'VK_COMPARE_OP_ALWAYS',
      minLod: 0,
      maxLod: 0,
      borderColor: 'VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK',
      unnormalizedCoordinates: false,
    }).pSampler;
    // A clear of the image through a union (VkClearColorValue names one member).
    expect(vk.vkBeginCommandBuffer(cb!, {}).result).toBe(0);
    vk.vkCmdPipelineBarrier(cb!, 0x1, 0x1000, 0, [], [], [
      { srcAccessMask: 0, dstAccessMask: 0x1000, oldLayout: 'VK_IMAGE_LAYOUT_UNDEFINED', newLayout: 'VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL', srcQueueFamilyIndex: 0, dstQueueFamilyIndex: 0, image, subresourceRange: range },
    ]);
    vk.vkCmdClearColorImage(cb!, image, 'VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL', { float32: [0, 0.5, 1, 1] }, [range]);
    expect(vk.vkEndCommandBuffer(cb!).result).toBe(0);
    expect(vk.vkQueueSubmit(queue, [{ pCommandBuffers: [cb!] }], fence).result).toBe(0);
    expect(vk.vkWaitForFences(dev, [fence], true, 10_000_000_000n).result).toBe(0);

    // Synchronization objects: a semaphore, an event (its status a success code).
    const semaphore = vk.vkCreateSemaphore(dev, {}).pSemaphore;
    expect(semaphore).not.toBe(0n);
    const event = vk.vkCreateEvent(dev, {}).pEvent;
    expect(vk.vkGetEventStatus(dev, event).result).toBe(4); // VK_EVENT_RESET
    vk.vkSetEvent(dev, event);
    expect(vk.vkGetEventStatus(dev, event).result).toBe(3); // VK_EVENT_SET
    vk.vkResetEvent(dev, event);
    expect(vk.vkGetEventStatus(dev, event).result).toBe(4);
    const queryPool = vk.vkCreateQueryPool(dev, { queryType: 'VK_QUERY_TYPE_TIMESTAMP', queryCount: 2 }).pQueryPool;

    // Render passes, layouts, descriptors, caches, shaders.
    const attachment = { format: 'VK_FORMAT_R8G8B8A8_UNORM', samples: 1, loadOp: 'VK_ATTACHMENT_LOAD_OP_CLEAR', storeOp: 'VK_ATTACHMENT_STORE_OP_STORE', stencilLoadOp: 2, stencilStoreOp: 1, initialLayout: 0, finalLayout: 'VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL' } as const;
    const renderPass = vk.vkCreateRenderPass(dev, {
      pAttachments: [attachment],
      pSubpasses: [{ pipelineBindPoint: 'VK_PIPELINE_BIND_POINT_GRAPHICS', pColorAttachments: [{ attachment: 0, layout: 'VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL' }] }],
    }).pRenderPass;
    expect(vk.vkGetRenderAreaGranularity(dev, renderPass).pGranularity.width).toBeGreaterThanOrEqual(1);
    const renderPass2 = vk.vkCreateRenderPass2(dev, {
      pAttachments: [attachment],
      pSubpasses: [{ pipelineBindPoint: 0, viewMask: 0, pColorAttachments: [{ attachment: 0, layout: 'VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL', aspectMask: 0x1 }] }],
    }).pRenderPass;
    const setLayout = vk.vkCreateDescriptorSetLayout(dev, { pBindings: [{ binding: 0, descriptorType: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER', descriptorCount: 1, stageFlags: 0x20 }] }).pSetLayout;
    const pipelineLayout = vk.vkCreatePipelineLayout(dev, { pSetLayouts: [setLayout], pPushConstantRanges: [{ stageFlags: 0x20, offset: 0, size: 16 }] }).pPipelineLayout;
    const descriptorPool = vk.vkCreateDescriptorPool(dev, { maxSets: 2, pPoolSizes: [{ type: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER', descriptorCount: 2 }] }).pDescriptorPool;
    const sets = vk.vkAllocateDescriptorSets(dev, { descriptorPool, pSetLayouts: [setLayout, setLayout] }).pDescriptorSets;
    expect(sets).toHaveLength(2);
    expect(new Set(sets).size).toBe(2);
    vk.vkUpdateDescriptorSets(dev, [{ dstSet: sets[0]!, dstBinding: 0, dstArrayElement: 0, descriptorType: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER', pBufferInfo: [{ buffer: dst, offset: 0, range: WHOLE_SIZE }] }], []);
    const cache = vk.vkCreatePipelineCache(dev, {}).pPipelineCache;
    const cacheData = vk.vkGetPipelineCacheData(dev, cache).pData;
    // The header every pipeline cache starts with (Vulkan spec, 'Pipeline Cache'): its length, then version one.
    expect(cacheData.length).toBeGreaterThanOrEqual(32);
    expect(new DataView(cacheData.buffer, cacheData.byteOffset).getUint32(4, true)).toBe(1);
    const spirv = readFileSync(examplePath('shaders/saxpy.spv'));
    const code = Array.from(new Uint32Array(spirv.buffer, spirv.byteOffset, spirv.length / 4));
    const shader = vk.vkCreateShaderModule(dev, { pCode: code }).pShaderModule;
    expect(shader).not.toBe(0n);

    // Destroy: a pool takes its command buffers and sets along.
    expect(vk.liveHandleCount('VkDescriptorSet')).toBe(2);
    vk.vkDestroyShaderModule(dev, shader);
    vk.vkDestroyPipelineCache(dev, cache);
    vk.vkDestroyDescriptorPool(dev, descriptorPool);
    expect(vk.liveHandleCount('VkDescriptorSet')).toBe(0);
    vk.vkDestroyPipelineLayout(dev, pipelineLayout);
    vk.vkDestroyDescriptorSetLayout(dev, setLayout);
    vk.vkDestroyRenderPass(dev, renderPass2);
    vk.vkDestroyRenderPass(dev, renderPass);
    vk.vkDestroyQueryPool(dev, queryPool);
    vk.vkDestroyEvent(dev, event);
    vk.vkDestroySemaphore(dev, semaphore);
    vk.vkDestroySampler(dev, sampler);
    vk.vkDestroyImageView(dev, view);
    vk.vkDestroyImage(dev, image);
    vk.vkFreeMemory(dev, imageMemory);
    vk.vkDestroyFence(dev, fence);
    expect(vk.liveHandleCount('VkCommandBuffer')).toBe(1);
    vk.vkDestroyCommandPool(dev, pool);
    expect(vk.liveHandleCount('VkCommandBuffer')).toBe(0);
    vk.vkDestroyBuffer(dev, src);
    vk.vkDestroyBuffer(dev, dst);
    vk.vkFreeMemory(dev, srcMemory);
    vk.vkFreeMemory(dev, dstMemory);
    expect(called.size, [...called].join(' ')).toBeGreaterThanOrEqual(50);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it('VKGEN-4: a device created through the bindings and destroyed through them takes its children along, newest first; a destroyed handle is refused', () => {
    const vk = vulkanCommands(instance.handle);
    const pd = vk.vkEnumeratePhysicalDevices(instance.handle as VkInstance).pPhysicalDevices[0]!;
    // The timeline semaphore feature asked for through pNext, then used.
    const dev = vk.vkCreateDevice(pd, {
      pNext: { sType: VkStructureType.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, timelineSemaphore: true },
      pQueueCreateInfos: [{ queueFamilyIndex: 0, pQueuePriorities: [1] }],
    }).pDevice;
    const semaphore = vk.vkCreateSemaphore(dev, { pNext: { sType: VkStructureType.VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, semaphoreType: 'VK_SEMAPHORE_TYPE_TIMELINE', initialValue: 5n } }).pSemaphore;
    expect(vk.vkGetSemaphoreCounterValue(dev, semaphore).pValue).toBe(5n);
    expect(vk.vkSignalSemaphore(dev, { semaphore, value: 7n }).result).toBe(0);
    expect(vk.vkGetSemaphoreCounterValue(dev, semaphore).pValue).toBe(7n);
    const buffer = vk.vkCreateBuffer(dev, { size: 64, usage: 0x1, sharingMode: 0 }).pBuffer;
    const req = vk.vkGetBufferMemoryRequirements(dev, buffer).pMemoryRequirements;
    const memory = vk.vkAllocateMemory(dev, { allocationSize: req.size, memoryTypeIndex: memoryType(vk, pd, req.memoryTypeBits, HOST_VISIBLE_COHERENT) }).pMemory;
    vk.vkBindBufferMemory(dev, buffer, memory, 0);
    vk.vkMapMemory(dev, memory, 0, WHOLE_SIZE, 0);
    const pool = vk.vkCreateCommandPool(dev, { queueFamilyIndex: 0 }).pCommandPool;
    vk.vkAllocateCommandBuffers(dev, { commandPool: pool, level: 0, commandBufferCount: 3 });
    vk.vkCreateFence(dev, { flags: 0x1 });
    const counts = () => ['VkDevice', 'VkBuffer', 'VkDeviceMemory', 'VkCommandPool', 'VkCommandBuffer', 'VkFence', 'VkSemaphore'].map((t) => vk.liveHandleCount(t));
    expect(counts()).toEqual([1, 1, 1, 1, 3, 1, 1]);
    vk.vkDestroyDevice(dev);
    expect(counts()).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // The validation layer reports objects a destroyed device still had; there were none.
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
    const destroyed = thrown(() => vk.vkDestroyBuffer(dev, buffer));
    expect(destroyed.code).toBe('KL_HANDLE_DESTROYED');
    expect(destroyed.message).toMatch(/vkDestroyBuffer device: the VkDevice 0x[0-9a-f]+ has been destroyed/);
    expect(thrown(() => vk.readMapped(memory, 0, 4)).code).toBe('KL_INVALID_ARGUMENT');
  });

  it('VKGEN-5: bad input is a typed error before any Vulkan call: member types, array lengths against a sibling, enum names, handle types, unions, extensions not enabled', () => {
    const vk = vulkanCommands(device);
    const dev = vk.deviceHandle as VkDevice;
    const buffer = vk.vkCreateBuffer(dev, { size: 64, usage: 0x1, sharingMode: 0 }).pBuffer;
    const image = vk.vkCreateImage(dev, {
      imageType: 1,
      format: 37,
      extent: { width: 4, height: 4, depth: 1 },
      mipLevels: 1,
      arrayLayers: 1,
      samples: 1,
      tiling: 0,
      usage: 0x4,
      sharingMode: 0,
      initialLayout: 0,
    }).pImage;
    const pool = vk.vkCreateCommandPool(dev, { queueFamilyIndex: 0 }).pCommandPool;
    const [cb] = vk.vkAllocateCommandBuffers(dev, { commandPool: pool, level: 0, commandBufferCount: 1 }).pCommandBuffers;
    vk.vkBeginCommandBuffer(cb!, {});
    const before = vk.liveHandleCount('VkBuffer');

    const member = thrown(() => vk.vkCreateBuffer(dev, { size: 'big' as never, usage: 1, sharingMode: 0 }));
    expect(member.code).toBe('KL_INVALID_ARGUMENT');
    expect(member.message).toMatch(/vkCreateBuffer pCreateInfo\.size/);
    const lengths = thrown(() => vk.vkCmdBindVertexBuffers(cb!, 0, [buffer, buffer], [0n]));
    expect(lengths.code).toBe('KL_INVALID_ARGUMENT');
    expect(lengths.message).toMatch(/pOffsets: has 1 elements but pBuffers has 2/);
    const counted = thrown(() => vk.vkCreateDescriptorSetLayout(dev, { pBindings: [{ binding: 0, descriptorType: 1, descriptorCount: 2, stageFlags: 0x20, pImmutableSamplers: [] }] }));
    expect(counted.message).toMatch(/pImmutableSamplers: has 0 elements but another array sharing descriptorCount has 2|pImmutableSamplers/);
    const enumName = thrown(() => vk.vkCreateBuffer(dev, { size: 64, usage: 1, sharingMode: 'VK_SHARING_MODE_SOMETIMES' as never }));
    expect(enumName.code).toBe('KL_INVALID_ARGUMENT');
    expect(enumName.message).toMatch(/"VK_SHARING_MODE_SOMETIMES" is not a value of VkSharingMode/);
    const handleType = thrown(() => vk.vkDestroyBuffer(dev, image as unknown as VkBuffer));
    expect(handleType.code).toBe('KL_INVALID_ARGUMENT');
    expect(handleType.message).toMatch(/is a VkImage, not a VkBuffer/);
    const unknown = thrown(() => vk.vkDestroyImage(dev, 0x1234n as VkImage));
    expect(unknown.message).toMatch(/0x1234 is not a VkImage these bindings created or retrieved/);
    const union = thrown(() => vk.vkCmdClearColorImage(cb!, image, 7, { float32: [0, 0, 0, 0], uint32: [0, 0, 0, 0] } as never, []));
    expect(union.message).toMatch(/VkClearColorValue is a union: give one of its members, not float32 and uint32/);
    const blend = thrown(() => vk.vkCmdSetBlendConstants(cb!, [1, 2, 3]));
    expect(blend.message).toMatch(/blendConstants: must be an array of 4 numbers/);
    const extension = thrown(() => vk.vkCmdBeginRenderingKHR(cb!, { renderArea: { offset: { x: 0, y: 0 }, extent: { width: 4, height: 4 } }, layerCount: 1, viewMask: 0 }));
    expect(extension).toBeInstanceOf(VulkanError);
    expect(extension.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
    expect(extension.message).toMatch(/vkCmdBeginRenderingKHR belongs to VK_KHR_dynamic_rendering, which this device did not enable/);
    const callback = thrown(() => vulkanCommands(instance).vkCreateDebugUtilsMessengerEXT(instance.handle as never, { messageSeverity: 0x1000, messageType: 1 } as never));
    expect(callback.message).toMatch(/pfnUserCallback: is a function pointer the generated bindings cannot pass/);
    expect(thrown(() => vk.vkDestroyBuffer(dev, 5 as never)).code).toBe('KL_INVALID_ARGUMENT');
    // A required pointer member left out is refused, not passed to the driver as null.
    const spirv = readFileSync(examplePath('shaders/saxpy.spv'));
    const module = vk.vkCreateShaderModule(dev, { pCode: Array.from(new Uint32Array(spirv.buffer, spirv.byteOffset, spirv.length / 4)) }).pShaderModule;
    const layout = vk.vkCreatePipelineLayout(dev, {}).pPipelineLayout;
    const pointer = thrown(() => vk.vkCreateComputePipelines(dev, null, [{ stage: { stage: 0x20, module } as never, layout, basePipelineIndex: -1 }]));
    expect(pointer.code).toBe('KL_INVALID_ARGUMENT');
    expect(pointer.message).toMatch(/vkCreateComputePipelines pCreateInfos\[0\]\.stage\.pName: is required/);
    vk.vkDestroyPipelineLayout(dev, layout);
    vk.vkDestroyShaderModule(dev, module);
    expect(vk.liveHandleCount('VkBuffer')).toBe(before);
    // Still alive and well: the refused calls reached nothing.
    vk.vkEndCommandBuffer(cb!);
    vk.vkDestroyCommandPool(dev, pool);
    vk.vkDestroyImage(dev, image);
    vk.vkDestroyBuffer(dev, buffer);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it('VKGEN-6: bindings made from a raw VkDevice bigint (one the bindings\' own vkCreateDevice made, a typed Device\'s handle) reach the device and its instance: a buffer filled on the GPU reads back, the device\'s own extensions are let through and others refused; a handle that is no live device, or one destroyed, is refused', () => {
    const creator = vulkanCommands(instance.handle);
    const pd = creator.vkEnumeratePhysicalDevices(instance.handle as VkInstance).pPhysicalDevices[0]!;
    const made = creator.vkCreateDevice(pd, { pQueueCreateInfos: [{ queueFamilyIndex: 0, pQueuePriorities: [1] }], ppEnabledExtensionNames: ['VK_KHR_maintenance4'] }).pDevice;
    const vk = vulkanCommands(made);
    expect(vk.deviceHandle).toBe(made);
    expect(vk.instanceHandle).toBe(instance.handle);
    // The instance level through the device's bindings.
    const physicals = vk.vkEnumeratePhysicalDevices(vk.instanceHandle!).pPhysicalDevices;
    expect(physicals).toContain(pd);
    expect(vk.vkGetPhysicalDeviceProperties(pd).pProperties.deviceName).toBe(physical.properties.deviceName);
    // A buffer filled by the GPU, read back.
    const queue = vk.vkGetDeviceQueue(made, 0, 0).pQueue;
    const buffer = vk.vkCreateBuffer(made, { size: 64, usage: 0x2, sharingMode: 0 }).pBuffer;
    const req = vk.vkGetBufferMemoryRequirements(made, buffer).pMemoryRequirements;
    const memory = vk.vkAllocateMemory(made, { allocationSize: req.size, memoryTypeIndex: memoryType(vk, pd, req.memoryTypeBits, HOST_VISIBLE_COHERENT) }).pMemory;
    vk.vkBindBufferMemory(made, buffer, memory, 0);
    vk.vkMapMemory(made, memory, 0, WHOLE_SIZE, 0);
    vk.writeMapped(memory, 0, new Uint8Array(64));
    const pool = vk.vkCreateCommandPool(made, { queueFamilyIndex: 0 }).pCommandPool;
    const [cb] = vk.vkAllocateCommandBuffers(made, { commandPool: pool, level: 0, commandBufferCount: 1 }).pCommandBuffers;
    vk.vkBeginCommandBuffer(cb!, { flags: 0x1 });
    vk.vkCmdFillBuffer(cb!, buffer, 16, 32, 0x01234567);
    vk.vkCmdPipelineBarrier(cb!, 0x1000, 0x4000, 0, [{ srcAccessMask: 0x1000, dstAccessMask: 0x2000 }], [], []);
    vk.vkEndCommandBuffer(cb!);
    const fence = vk.vkCreateFence(made, {}).pFence;
    expect(vk.vkQueueSubmit(queue, [{ pCommandBuffers: [cb!] }], fence).result).toBe(0);
    expect(vk.vkWaitForFences(made, [fence], true, 10_000_000_000n).result).toBe(0);
    const words = new Uint32Array(vk.readMapped(memory, 0, 64).slice().buffer);
    expect([...words]).toEqual([0, 0, 0, 0, ...Array<number>(8).fill(0x01234567), 0, 0, 0, 0]);
    // The extensions the device was created with: VK_KHR_maintenance4's command passes.
    const info = { pCreateInfo: { size: 1000, usage: 0x2, sharingMode: 0 } } as const;
    expect(vk.vkGetDeviceBufferMemoryRequirementsKHR(made, info).pMemoryRequirements.memoryRequirements.size).toBeGreaterThanOrEqual(1000n);
    // A typed Device's handle: its queue and a query; its device did not enable VK_KHR_maintenance4.
    const typed = vulkanCommands(device.handle);
    expect(typed.deviceHandle).toBe(device.handle);
    expect(typed.vkGetDeviceQueue(device.handle as VkDevice, 0, 0).pQueue).not.toBe(0n);
    const notEnabled = thrown(() => typed.vkGetDeviceBufferMemoryRequirementsKHR(device.handle as VkDevice, info));
    expect(notEnabled.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
    expect(notEnabled.message).toMatch(/vkGetDeviceBufferMemoryRequirementsKHR belongs to VK_KHR_maintenance4, which this device did not enable/);
    // Not a handle of this loader: refused before anything reads through it.
    const bogus = thrown(() => vulkanCommands(0x5eed_0000n));
    expect(bogus.code).toBe('KL_INVALID_ARGUMENT');
    expect(bogus.message).toMatch(/0x5eed0000 is not a live VkInstance or VkDevice of this loader/);
    expect(thrown(() => vulkanCommands(physical.handle)).code).toBe('KL_INVALID_ARGUMENT');
    // Destroyed by its creator: the bindings refuse it, and a new binding to it too.
    vk.vkDestroyFence(made, fence);
    vk.vkDestroyCommandPool(made, pool);
    vk.vkFreeMemory(made, memory);
    vk.vkDestroyBuffer(made, buffer);
    creator.vkDestroyDevice(made);
    const gone = thrown(() => vk.vkGetDeviceQueue(made, 0, 0));
    expect(gone.code).toBe('KL_HANDLE_DESTROYED');
    expect(gone.message).toMatch(/the VkDevice of these bindings has been destroyed/);
    expect(thrown(() => vulkanCommands(made)).code).toBe('KL_INVALID_ARGUMENT');
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });
});
