// The application's Vulkan device as a session with XrGraphicsBindingVulkan2KHR sees it: the device
// functions the runtime calls, loaded through the pfnGetInstanceProcAddr the application gave
// xrCreateVulkanInstanceKHR (this package's loader in our tests), and RAII owners for what the
// runtime creates on that device (swapchain images, their memory, the readback buffer, a command
// pool). Shared by the session and its swapchains, so it outlives every image made with it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "generated/openxr_vulkan_types.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

/** A handle the runtime created on the application's device, destroyed (or freed) with it. */
template <class Handle>
class DeviceObject {
 public:
  using Destroy = void(VKAPI_PTR*)(VkDevice, Handle, const VkAllocationCallbacks*);

  DeviceObject() = default;
  DeviceObject(VkDevice device, Handle handle, Destroy destroy) : device_(device), handle_(handle), destroy_(destroy) {}
  DeviceObject(DeviceObject&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, Handle{})), destroy_(other.destroy_) {}
  DeviceObject& operator=(DeviceObject&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, Handle{});
      destroy_ = other.destroy_;
    }
    return *this;
  }
  DeviceObject(const DeviceObject&) = delete;
  DeviceObject& operator=(const DeviceObject&) = delete;
  ~DeviceObject() { reset(); }

  void reset() {
    if (handle_ != Handle{} && destroy_ != nullptr) destroy_(device_, handle_, nullptr);
    handle_ = Handle{};
  }
  Handle get() const { return handle_; }

 private:
  VkDevice device_ = nullptr;
  Handle handle_{};
  Destroy destroy_ = nullptr;
};

/** A layout transition of colour layers [baseLayer, baseLayer + layerCount) of mip levels [0, levelCount) of `image`. */
inline VkImageMemoryBarrier colourImageBarrier(VkImage image, uint32_t baseLayer, uint32_t layerCount, uint32_t levelCount,
                                               VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                                               VkAccessFlags dstAccess) {
  VkImageMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  b.srcAccessMask = srcAccess;
  b.dstAccessMask = dstAccess;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levelCount, baseLayer, layerCount};
  return b;
}

/** The device commands the runtime uses. */
struct DeviceFunctions {
  PFN_vkGetDeviceQueue getDeviceQueue = nullptr;
  PFN_vkCreateImage createImage = nullptr;
  PFN_vkDestroyImage destroyImage = nullptr;
  PFN_vkGetImageMemoryRequirements getImageMemoryRequirements = nullptr;
  PFN_vkAllocateMemory allocateMemory = nullptr;
  PFN_vkFreeMemory freeMemory = nullptr;
  PFN_vkBindImageMemory bindImageMemory = nullptr;
  PFN_vkCreateBuffer createBuffer = nullptr;
  PFN_vkDestroyBuffer destroyBuffer = nullptr;
  PFN_vkGetBufferMemoryRequirements getBufferMemoryRequirements = nullptr;
  PFN_vkBindBufferMemory bindBufferMemory = nullptr;
  PFN_vkMapMemory mapMemory = nullptr;
  PFN_vkInvalidateMappedMemoryRanges invalidateMappedMemoryRanges = nullptr;
  PFN_vkCreateCommandPool createCommandPool = nullptr;
  PFN_vkDestroyCommandPool destroyCommandPool = nullptr;
  PFN_vkAllocateCommandBuffers allocateCommandBuffers = nullptr;
  PFN_vkResetCommandBuffer resetCommandBuffer = nullptr;
  PFN_vkBeginCommandBuffer beginCommandBuffer = nullptr;
  PFN_vkEndCommandBuffer endCommandBuffer = nullptr;
  PFN_vkCmdPipelineBarrier cmdPipelineBarrier = nullptr;
  PFN_vkCmdCopyImageToBuffer cmdCopyImageToBuffer = nullptr;
  PFN_vkCmdResolveImage cmdResolveImage = nullptr;
  PFN_vkCreateFence createFence = nullptr;
  PFN_vkDestroyFence destroyFence = nullptr;
  PFN_vkResetFences resetFences = nullptr;
  PFN_vkWaitForFences waitForFences = nullptr;
  PFN_vkQueueSubmit queueSubmit = nullptr;
};

/** What a session's XrGraphicsBindingVulkan2KHR names, already checked against the instance's records. */
struct VulkanBindingTarget {
  PFN_vkGetInstanceProcAddr getInstanceProcAddr;
  VkInstance instance;
  VkPhysicalDevice physicalDevice;
  VkDevice device;
  uint32_t queueFamilyIndex;
  uint32_t queueIndex;
};

/** An image with its own memory on the application's device. */
struct DeviceImage {
  DeviceObject<VkImage> image;
  DeviceObject<VkDeviceMemory> memory;
};

class VulkanDevice {
 public:
  /**
   * Loads the device functions and creates the command pool, fence and a readback buffer of
   * `readbackBytes`; null and `error` on failure.
   */
  static std::shared_ptr<VulkanDevice> create(const VulkanBindingTarget& target, VkDeviceSize readbackBytes, std::string& error);

  VulkanDevice(const VulkanDevice&) = delete;
  VulkanDevice& operator=(const VulkanDevice&) = delete;
  /** Waits for a submission still in flight: its command buffer and what it uses are freed next. */
  ~VulkanDevice();

  const VulkanBindingTarget target;
  DeviceFunctions fn;
  VkQueue queue = nullptr;

  /** True when optimal-tiling images of `format` support every feature in `features`. */
  bool formatSupports(VkFormat format, VkFormatFeatureFlags features) const;

  /** vkGetPhysicalDeviceImageFormatProperties for what `info` asks. */
  VkResult imageFormatProperties(const VkImageCreateInfo& info, VkImageFormatProperties& out) const;

  /** Creates an image and binds device-local memory to it. */
  VkResult createImage(const VkImageCreateInfo& info, DeviceImage& out) const;

  /**
   * Records commands with `record` and submits them on the binding's queue without waiting for
   * them (one submission in flight at a time per device: a submission first waits for the one
   * before it).
   */
  VkResult submit(const std::function<void(VkCommandBuffer)>& record);

  /** Waits for the submission in flight, if any. */
  VkResult waitSubmitted();

  /** submit(), then waitSubmitted(). */
  VkResult submitAndWait(const std::function<void(VkCommandBuffer)>& record);

  /** The host-visible readback buffer (readbackBytes() bytes), its mapped memory and its invalidation. */
  VkBuffer readbackBuffer() const { return readback_.get(); }
  VkDeviceSize readbackBytes() const { return readbackBytes_; }
  VkResult readReadback(void* destination, VkDeviceSize bytes) const;

 private:
  explicit VulkanDevice(const VulkanBindingTarget& target_) : target(target_) {}

  /** A memory type allowed by `typeBits` with all of `properties`, or UINT32_MAX. */
  uint32_t memoryTypeFor(uint32_t typeBits, VkMemoryPropertyFlags properties) const;

  PFN_vkGetPhysicalDeviceFormatProperties getFormatProperties_ = nullptr;
  PFN_vkGetPhysicalDeviceImageFormatProperties getImageFormatProperties_ = nullptr;
  VkPhysicalDeviceMemoryProperties memoryProperties_{};
  std::mutex submitMutex_;
  DeviceObject<VkCommandPool> commandPool_;
  VkCommandBuffer commandBuffer_ = nullptr;  // freed with the pool
  DeviceObject<VkFence> fence_;
  bool inFlight_ = false;  // commandBuffer_ submitted and not yet waited for (under submitMutex_)
  DeviceObject<VkBuffer> readback_;
  DeviceObject<VkDeviceMemory> readbackMemory_;
  VkMemoryPropertyFlags readbackFlags_ = 0;
  void* readbackMapped_ = nullptr;  // unmapped when the memory is freed
  VkDeviceSize readbackBytes_ = 0;
};

}  // namespace simxr
