#include "bundled/simxr/vulkan_device.h"

#include <cstring>

namespace simxr {
namespace {

/** Loads `name` through vkGetDeviceProcAddr into `slot`; false (and the name in `missing`) when absent. */
template <class F>
bool load(PFN_vkGetDeviceProcAddr gdpa, VkDevice device, const char* name, F& slot, std::string& missing) {
  slot = reinterpret_cast<F>(gdpa(device, name));
  if (slot == nullptr && missing.empty()) missing = name;
  return slot != nullptr;
}

constexpr uint64_t kFenceTimeoutNs = 10'000'000'000;  // a readback that takes 10 s is a lost device

}  // namespace

std::shared_ptr<VulkanDevice> VulkanDevice::create(const VulkanBindingTarget& target, VkDeviceSize readbackBytes, std::string& error) {
  std::shared_ptr<VulkanDevice> self(new VulkanDevice(target));
  auto gipa = target.getInstanceProcAddr;
  auto gdpa = reinterpret_cast<PFN_vkGetDeviceProcAddr>(gipa(target.instance, "vkGetDeviceProcAddr"));
  auto getMemoryProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(
      gipa(target.instance, "vkGetPhysicalDeviceMemoryProperties"));
  self->getFormatProperties_ = reinterpret_cast<PFN_vkGetPhysicalDeviceFormatProperties>(
      gipa(target.instance, "vkGetPhysicalDeviceFormatProperties"));
  self->getImageFormatProperties_ = reinterpret_cast<PFN_vkGetPhysicalDeviceImageFormatProperties>(
      gipa(target.instance, "vkGetPhysicalDeviceImageFormatProperties"));
  if (gdpa == nullptr || getMemoryProperties == nullptr || self->getFormatProperties_ == nullptr ||
      self->getImageFormatProperties_ == nullptr) {
    error = "the application's vkGetInstanceProcAddr gave no vkGetDeviceProcAddr, vkGetPhysicalDeviceMemoryProperties, "
            "vkGetPhysicalDeviceFormatProperties or vkGetPhysicalDeviceImageFormatProperties";
    return nullptr;
  }
  getMemoryProperties(target.physicalDevice, &self->memoryProperties_);

  DeviceFunctions& f = self->fn;
  const VkDevice d = target.device;
  std::string missing;
  load(gdpa, d, "vkGetDeviceQueue", f.getDeviceQueue, missing);
  load(gdpa, d, "vkCreateImage", f.createImage, missing);
  load(gdpa, d, "vkDestroyImage", f.destroyImage, missing);
  load(gdpa, d, "vkGetImageMemoryRequirements", f.getImageMemoryRequirements, missing);
  load(gdpa, d, "vkAllocateMemory", f.allocateMemory, missing);
  load(gdpa, d, "vkFreeMemory", f.freeMemory, missing);
  load(gdpa, d, "vkBindImageMemory", f.bindImageMemory, missing);
  load(gdpa, d, "vkCreateBuffer", f.createBuffer, missing);
  load(gdpa, d, "vkDestroyBuffer", f.destroyBuffer, missing);
  load(gdpa, d, "vkGetBufferMemoryRequirements", f.getBufferMemoryRequirements, missing);
  load(gdpa, d, "vkBindBufferMemory", f.bindBufferMemory, missing);
  load(gdpa, d, "vkMapMemory", f.mapMemory, missing);
  load(gdpa, d, "vkInvalidateMappedMemoryRanges", f.invalidateMappedMemoryRanges, missing);
  load(gdpa, d, "vkCreateCommandPool", f.createCommandPool, missing);
  load(gdpa, d, "vkDestroyCommandPool", f.destroyCommandPool, missing);
  load(gdpa, d, "vkAllocateCommandBuffers", f.allocateCommandBuffers, missing);
  load(gdpa, d, "vkResetCommandBuffer", f.resetCommandBuffer, missing);
  load(gdpa, d, "vkBeginCommandBuffer", f.beginCommandBuffer, missing);
  load(gdpa, d, "vkEndCommandBuffer", f.endCommandBuffer, missing);
  load(gdpa, d, "vkCmdPipelineBarrier", f.cmdPipelineBarrier, missing);
  load(gdpa, d, "vkCmdCopyImageToBuffer", f.cmdCopyImageToBuffer, missing);
  load(gdpa, d, "vkCmdResolveImage", f.cmdResolveImage, missing);
  load(gdpa, d, "vkCreateFence", f.createFence, missing);
  load(gdpa, d, "vkDestroyFence", f.destroyFence, missing);
  load(gdpa, d, "vkResetFences", f.resetFences, missing);
  load(gdpa, d, "vkWaitForFences", f.waitForFences, missing);
  load(gdpa, d, "vkQueueSubmit", f.queueSubmit, missing);
  if (!missing.empty()) {
    error = "vkGetDeviceProcAddr gave no " + missing + " for the application's device";
    return nullptr;
  }
  f.getDeviceQueue(d, target.queueFamilyIndex, target.queueIndex, &self->queue);
  if (self->queue == nullptr) {
    error = "vkGetDeviceQueue gave no queue for the binding's queue family and index";
    return nullptr;
  }

  VkCommandPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = target.queueFamilyIndex;
  VkCommandPool pool = nullptr;
  if (VkResult r = f.createCommandPool(d, &poolInfo, nullptr, &pool); r != VK_SUCCESS) {
    error = "vkCreateCommandPool failed (" + std::to_string(r) + ")";
    return nullptr;
  }
  self->commandPool_ = DeviceObject<VkCommandPool>(d, pool, f.destroyCommandPool);
  VkCommandBufferAllocateInfo allocateInfo{};
  allocateInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocateInfo.commandPool = pool;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocateInfo.commandBufferCount = 1;
  if (VkResult r = f.allocateCommandBuffers(d, &allocateInfo, &self->commandBuffer_); r != VK_SUCCESS) {
    error = "vkAllocateCommandBuffers failed (" + std::to_string(r) + ")";
    return nullptr;
  }
  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = nullptr;
  if (VkResult r = f.createFence(d, &fenceInfo, nullptr, &fence); r != VK_SUCCESS) {
    error = "vkCreateFence failed (" + std::to_string(r) + ")";
    return nullptr;
  }
  self->fence_ = DeviceObject<VkFence>(d, fence, f.destroyFence);

  VkBufferCreateInfo bufferInfo{};
  bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bufferInfo.size = readbackBytes;
  self->readbackBytes_ = readbackBytes;
  bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = nullptr;
  if (VkResult r = f.createBuffer(d, &bufferInfo, nullptr, &buffer); r != VK_SUCCESS) {
    error = "vkCreateBuffer failed (" + std::to_string(r) + ")";
    return nullptr;
  }
  self->readback_ = DeviceObject<VkBuffer>(d, buffer, f.destroyBuffer);
  VkMemoryRequirements requirements{};
  f.getBufferMemoryRequirements(d, buffer, &requirements);
  uint32_t type = self->memoryTypeFor(requirements.memoryTypeBits,
                                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (type == UINT32_MAX) type = self->memoryTypeFor(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  if (type == UINT32_MAX) {
    error = "the device has no host-visible memory type for the readback buffer";
    return nullptr;
  }
  self->readbackFlags_ = self->memoryProperties_.memoryTypes[type].propertyFlags;
  VkMemoryAllocateInfo memoryInfo{};
  memoryInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  memoryInfo.allocationSize = requirements.size;
  memoryInfo.memoryTypeIndex = type;
  VkDeviceMemory memory = nullptr;
  if (VkResult r = f.allocateMemory(d, &memoryInfo, nullptr, &memory); r != VK_SUCCESS) {
    error = "vkAllocateMemory for the readback buffer failed (" + std::to_string(r) + ")";
    return nullptr;
  }
  self->readbackMemory_ = DeviceObject<VkDeviceMemory>(d, memory, f.freeMemory);
  if (VkResult r = f.bindBufferMemory(d, buffer, memory, 0); r != VK_SUCCESS) {
    error = "vkBindBufferMemory failed (" + std::to_string(r) + ")";
    return nullptr;
  }
  if (VkResult r = f.mapMemory(d, memory, 0, VK_WHOLE_SIZE, 0, &self->readbackMapped_); r != VK_SUCCESS) {
    error = "vkMapMemory for the readback buffer failed (" + std::to_string(r) + ")";
    return nullptr;
  }
  return self;
}

uint32_t VulkanDevice::memoryTypeFor(uint32_t typeBits, VkMemoryPropertyFlags properties) const {
  for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount; ++i) {
    if ((typeBits & (1u << i)) != 0 && (memoryProperties_.memoryTypes[i].propertyFlags & properties) == properties) return i;
  }
  return UINT32_MAX;
}

bool VulkanDevice::formatSupports(VkFormat format, VkFormatFeatureFlags features) const {
  VkFormatProperties properties{};
  getFormatProperties_(target.physicalDevice, format, &properties);
  return (properties.optimalTilingFeatures & features) == features;
}

VkResult VulkanDevice::imageFormatProperties(const VkImageCreateInfo& info, VkImageFormatProperties& out) const {
  return getImageFormatProperties_(target.physicalDevice, info.format, info.imageType, info.tiling, info.usage, info.flags,
                                   &out);
}

VkResult VulkanDevice::createImage(const VkImageCreateInfo& info, DeviceImage& out) const {
  const VkDevice d = target.device;
  VkImage image = nullptr;
  if (VkResult r = fn.createImage(d, &info, nullptr, &image); r != VK_SUCCESS) return r;
  out.image = DeviceObject<VkImage>(d, image, fn.destroyImage);
  VkMemoryRequirements requirements{};
  fn.getImageMemoryRequirements(d, image, &requirements);
  uint32_t type = memoryTypeFor(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type == UINT32_MAX) type = memoryTypeFor(requirements.memoryTypeBits, 0);
  if (type == UINT32_MAX) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  VkMemoryAllocateInfo memoryInfo{};
  memoryInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  memoryInfo.allocationSize = requirements.size;
  memoryInfo.memoryTypeIndex = type;
  VkDeviceMemory memory = nullptr;
  if (VkResult r = fn.allocateMemory(d, &memoryInfo, nullptr, &memory); r != VK_SUCCESS) return r;
  out.memory = DeviceObject<VkDeviceMemory>(d, memory, fn.freeMemory);
  return fn.bindImageMemory(d, image, memory, 0);
}

VulkanDevice::~VulkanDevice() { waitSubmitted(); }

VkResult VulkanDevice::submit(const std::function<void(VkCommandBuffer)>& record) {
  std::lock_guard lock(submitMutex_);
  const VkDevice d = target.device;
  VkFence fence = fence_.get();
  if (inFlight_) {
    // The command buffer and fence are reused: the previous submission must be done first.
    if (VkResult r = fn.waitForFences(d, 1, &fence, VK_TRUE, kFenceTimeoutNs); r != VK_SUCCESS) return r;
    inFlight_ = false;
  }
  if (VkResult r = fn.resetCommandBuffer(commandBuffer_, 0); r != VK_SUCCESS) return r;
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = fn.beginCommandBuffer(commandBuffer_, &begin); r != VK_SUCCESS) return r;
  record(commandBuffer_);
  if (VkResult r = fn.endCommandBuffer(commandBuffer_); r != VK_SUCCESS) return r;
  if (VkResult r = fn.resetFences(d, 1, &fence); r != VK_SUCCESS) return r;
  VkSubmitInfo submitInfo{};
  submitInfo.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &commandBuffer_;
  if (VkResult r = fn.queueSubmit(queue, 1, &submitInfo, fence); r != VK_SUCCESS) return r;
  inFlight_ = true;
  return VK_SUCCESS;
}

VkResult VulkanDevice::waitSubmitted() {
  std::lock_guard lock(submitMutex_);
  if (!inFlight_) return VK_SUCCESS;
  VkFence fence = fence_.get();
  const VkResult r = fn.waitForFences(target.device, 1, &fence, VK_TRUE, kFenceTimeoutNs);
  if (r == VK_SUCCESS) inFlight_ = false;
  return r;
}

VkResult VulkanDevice::submitAndWait(const std::function<void(VkCommandBuffer)>& record) {
  if (VkResult r = submit(record); r != VK_SUCCESS) return r;
  return waitSubmitted();
}

VkResult VulkanDevice::readReadback(void* destination, VkDeviceSize bytes) const {
  if ((readbackFlags_ & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) == 0) {
    VkMappedMemoryRange range{};
    range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
    range.memory = readbackMemory_.get();
    range.offset = 0;
    range.size = VK_WHOLE_SIZE;
    if (VkResult r = fn.invalidateMappedMemoryRanges(target.device, 1, &range); r != VK_SUCCESS) return r;
  }
  std::memcpy(destination, readbackMapped_, static_cast<size_t>(bytes));
  return VK_SUCCESS;
}

}  // namespace simxr
