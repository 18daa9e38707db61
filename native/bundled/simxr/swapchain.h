// An XrSwapchain of a Vulkan session: real VkImages with their own memory on the application's
// device, and the acquire → wait → release cycle of the spec. Destroying the swapchain (directly,
// or with its session or instance) destroys the images and frees their memory.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "bundled/simxr/handle_registry.h"
#include "bundled/simxr/vulkan_device.h"
#include "generated/openxr_vulkan_types.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

/** The depth formats a Vulkan session offers, after the colour ones (XR_KHR_composition_layer_depth). */
bool isDepthFormat(VkFormat format);
/** The aspects of `format`'s texels: DEPTH (and STENCIL) for a depth format, else COLOR. */
VkImageAspectFlags formatAspects(VkFormat format);
/** The layout XR_KHR_vulkan_enable2 hands a swapchain image of `format` out in, and wants it back in. */
VkImageLayout handedOutLayout(VkFormat format);

class Swapchain : public HandleObject {
 public:
  static constexpr HandleKind kKind = HandleKind::Swapchain;

  Swapchain(std::shared_ptr<VulkanDevice> device_, uint64_t session_, const XrSwapchainCreateInfo& info)
      : device(std::move(device_)), session(session_), createFlags(info.createFlags), format(static_cast<VkFormat>(info.format)),
        sampleCount(info.sampleCount), width(info.width), height(info.height), faceCount(info.faceCount),
        arraySize(info.arraySize), mipCount(info.mipCount) {}

  const std::shared_ptr<VulkanDevice> device;
  const uint64_t session;  // the owning XrSession's handle value
  const XrSwapchainCreateFlags createFlags;
  const VkFormat format;
  const uint32_t sampleCount;
  const uint32_t width;
  const uint32_t height;
  const uint32_t faceCount;
  const uint32_t arraySize;
  const uint32_t mipCount;
  /** COLOR, or DEPTH (| STENCIL) for a depth format. */
  const VkImageAspectFlags aspects = formatAspects(format);
  /** COLOR_ATTACHMENT_OPTIMAL, or DEPTH_STENCIL_ATTACHMENT_OPTIMAL for a depth format. */
  const VkImageLayout layout = handedOutLayout(format);

  /** Guards everything below. */
  std::mutex mutex;
  std::vector<DeviceImage> images;
  /** Acquired image indices, oldest first; the oldest is waited on when `oldestWaited`. */
  std::deque<uint32_t> acquired;
  bool oldestWaited = false;
  uint32_t nextIndex = 0;
  bool everAcquired = false;
  /** The image the application released last: what a composition layer shows. */
  std::optional<uint32_t> lastReleased;

  void onDestroyed() override;
};

std::shared_ptr<Swapchain> findSwapchain(XrSwapchain swapchain);

}  // namespace simxr
