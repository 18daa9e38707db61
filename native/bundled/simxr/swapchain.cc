// Swapchains: Vulkan sessions get real VkImages on the application's device (XR_KHR_vulkan_enable2);
// headless sessions have no graphics API, list no format, and so can create no swapchain.
#include "bundled/simxr/swapchain.h"

#include <algorithm>
#include <bit>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/session.h"
#include "bundled/simxr/two_call.h"

namespace simxr {
namespace {

/** The formats a Vulkan session offers, in order of preference (the xrvk contract). */
constexpr VkFormat kFormats[] = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM,
                                 VK_FORMAT_B8G8R8A8_UNORM};
/**
 * The depth formats (XR_KHR_composition_layer_depth), offered after the colour ones: 32-bit float,
 * 16-bit, then the two with stencil.
 */
constexpr VkFormat kDepthFormats[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM, VK_FORMAT_D24_UNORM_S8_UINT,
                                      VK_FORMAT_D32_SFLOAT_S8_UINT};
/** What the runtime itself needs of every swapchain image: the layout it hands out, and its readback. */
constexpr VkFormatFeatureFlags kRequiredFeatures =
    VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
constexpr VkFormatFeatureFlags kRequiredDepthFeatures =
    VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
constexpr uint32_t kImageCount = 3;
constexpr XrSwapchainCreateFlags kKnownCreateFlags =
    XR_SWAPCHAIN_CREATE_PROTECTED_CONTENT_BIT | XR_SWAPCHAIN_CREATE_STATIC_IMAGE_BIT;
constexpr XrSwapchainUsageFlags kKnownUsageFlags =
    XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
    XR_SWAPCHAIN_USAGE_UNORDERED_ACCESS_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_SRC_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT |
    XR_SWAPCHAIN_USAGE_SAMPLED_BIT | XR_SWAPCHAIN_USAGE_MUTABLE_FORMAT_BIT;

/** The formats `device` supports for swapchain images, in kFormats order. */
std::vector<VkFormat> offeredFormats(const VulkanDevice& device) {
  std::vector<VkFormat> out;
  for (VkFormat f : kFormats) {
    if (device.formatSupports(f, kRequiredFeatures)) out.push_back(f);
  }
  for (VkFormat f : kDepthFormats) {
    if (device.formatSupports(f, kRequiredDepthFeatures)) out.push_back(f);
  }
  return out;
}

/**
 * The VkImageUsageFlags for XrSwapchainUsageFlags. The runtime adds COLOR_ATTACHMENT (images are
 * handed out in COLOR_ATTACHMENT_OPTIMAL, which needs it) or, for a depth format,
 * DEPTH_STENCIL_ATTACHMENT (handed out in DEPTH_STENCIL_ATTACHMENT_OPTIMAL), and TRANSFER_SRC (its
 * readback). A colour attachment usage asked of a depth format stays: the device refuses it.
 */
VkImageUsageFlags imageUsage(VkFormat format, XrSwapchainUsageFlags usage) {
  VkImageUsageFlags out = (isDepthFormat(format) ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
                          VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  if ((usage & XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT) != 0) out |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  if ((usage & XR_SWAPCHAIN_USAGE_UNORDERED_ACCESS_BIT) != 0) out |= VK_IMAGE_USAGE_STORAGE_BIT;
  if ((usage & XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT) != 0) out |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if ((usage & XR_SWAPCHAIN_USAGE_SAMPLED_BIT) != 0) out |= VK_IMAGE_USAGE_SAMPLED_BIT;
  return out;
}

/** The spec's checks of XrSwapchainCreateInfo against this session; XR_SUCCESS and the image create info when they pass. */
XrResult checkCreateInfo(const Session& session, const XrSwapchainCreateInfo& info, VkImageCreateInfo& image) {
  if ((info.createFlags & ~kKnownCreateFlags) != 0 || (info.usageFlags & ~kKnownUsageFlags) != 0) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if ((info.createFlags & XR_SWAPCHAIN_CREATE_PROTECTED_CONTENT_BIT) != 0) return XR_ERROR_FEATURE_UNSUPPORTED;
  const VulkanDevice& device = *session.vulkan;
  const auto formats = offeredFormats(device);
  if (std::find(formats.begin(), formats.end(), static_cast<VkFormat>(info.format)) == formats.end()) {
    return XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED;
  }
  // Depth usage needs a depth format; a depth format can be no storage image.
  const bool depth = isDepthFormat(static_cast<VkFormat>(info.format));
  if ((info.usageFlags & XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0 && !depth) return XR_ERROR_FEATURE_UNSUPPORTED;
  if (depth && (info.usageFlags & (XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_UNORDERED_ACCESS_BIT)) != 0) {
    return XR_ERROR_FEATURE_UNSUPPORTED;
  }
  // XrSystemGraphicsProperties::maxSwapchainImageWidth/Height.
  const SimConfig& config = session.instance->config;
  if (info.width == 0 || info.height == 0 || info.width > config.viewWidth * 2 || info.height > config.viewHeight * 2) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (info.sampleCount == 0 || !std::has_single_bit(info.sampleCount) || info.sampleCount > kMaxSwapchainSampleCount ||
      info.arraySize == 0 || info.mipCount == 0) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (info.faceCount != 1 && info.faceCount != 6) return XR_ERROR_VALIDATION_FAILURE;
  if (info.faceCount == 6 && (info.width != info.height || info.sampleCount != 1)) return XR_ERROR_VALIDATION_FAILURE;
  if (info.mipCount > std::bit_width(std::max(info.width, info.height))) return XR_ERROR_VALIDATION_FAILURE;
  if (info.sampleCount > 1 && info.mipCount != 1) return XR_ERROR_VALIDATION_FAILURE;

  image = VkImageCreateInfo{};
  image.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  image.flags = (info.faceCount == 6 ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0) |
                ((info.usageFlags & XR_SWAPCHAIN_USAGE_MUTABLE_FORMAT_BIT) != 0 ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0);
  image.imageType = VK_IMAGE_TYPE_2D;
  image.format = static_cast<VkFormat>(info.format);
  image.extent = {info.width, info.height, 1};
  image.mipLevels = info.mipCount;
  image.arrayLayers = info.arraySize * info.faceCount;
  image.samples = static_cast<VkSampleCountFlagBits>(info.sampleCount);
  image.tiling = VK_IMAGE_TILING_OPTIMAL;
  image.usage = imageUsage(image.format, info.usageFlags);
  image.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  image.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  // What the device cannot make with these usages (a storage sRGB image, too many samples or layers).
  VkImageFormatProperties limits{};
  if (device.imageFormatProperties(image, limits) != VK_SUCCESS) return XR_ERROR_FEATURE_UNSUPPORTED;
  if ((limits.sampleCounts & image.samples) == 0 || limits.maxArrayLayers < image.arrayLayers ||
      limits.maxMipLevels < image.mipLevels) {
    return XR_ERROR_FEATURE_UNSUPPORTED;
  }
  return XR_SUCCESS;
}

/**
 * Brings every image, all mips and layers, from UNDEFINED to COLOR_ATTACHMENT_OPTIMAL, or
 * DEPTH_STENCIL_ATTACHMENT_OPTIMAL for a depth format (XR_KHR_vulkan_enable2's rule).
 */
VkResult transitionNewImages(Swapchain& swapchain) {
  VulkanDevice& device = *swapchain.device;
  return device.submitAndWait([&](VkCommandBuffer cmd) {
    std::vector<VkImageMemoryBarrier> barriers;
    for (const auto& image : swapchain.images) {
      VkImageMemoryBarrier b = colourImageBarrier(image.image.get(), 0, VK_REMAINING_ARRAY_LAYERS, VK_REMAINING_MIP_LEVELS,
                                                  VK_IMAGE_LAYOUT_UNDEFINED, swapchain.layout, 0,
                                                  VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
      b.subresourceRange.aspectMask = swapchain.aspects;
      barriers.push_back(b);
    }
    device.fn.cmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                                 nullptr, static_cast<uint32_t>(barriers.size()), barriers.data());
  });
}

}  // namespace

bool isDepthFormat(VkFormat format) {
  return std::find(std::begin(kDepthFormats), std::end(kDepthFormats), format) != std::end(kDepthFormats);
}

VkImageAspectFlags formatAspects(VkFormat format) {
  if (format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT) {
    return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
  }
  return isDepthFormat(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

VkImageLayout handedOutLayout(VkFormat format) {
  return isDepthFormat(format) ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
}

void Swapchain::onDestroyed() {
  // A readback xrEndFrame submitted may still be copying from these images.
  device->waitSubmitted();
  std::lock_guard lock(mutex);
  images.clear();  // each image destroyed and its memory freed (DeviceObject)
  acquired.clear();
  lastReleased.reset();
}

std::shared_ptr<Swapchain> findSwapchain(XrSwapchain swapchain) {
  return HandleRegistry::global().get<Swapchain>(handleValue(swapchain));
}

SIMXR_ENTRY EnumerateSwapchainFormats(XrSession session, uint32_t capacity, uint32_t* countOutput, int64_t* formats) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  // A headless session has no graphics API and so no format.
  const auto offered = object->vulkan ? offeredFormats(*object->vulkan) : std::vector<VkFormat>{};
  return answerArray(capacity, countOutput, formats, static_cast<uint32_t>(offered.size()),
                     [&](uint32_t i, int64_t& out) { out = offered[i]; });
}

SIMXR_ENTRY CreateSwapchain(XrSession session, const XrSwapchainCreateInfo* createInfo, XrSwapchain* swapchain) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_SWAPCHAIN_CREATE_INFO) || swapchain == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  // xrEnumerateSwapchainFormats lists no format for a headless session: whatever was asked is unsupported.
  if (!object->vulkan) return XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED;
  VkImageCreateInfo imageInfo{};
  if (XrResult r = checkCreateInfo(*object, *createInfo, imageInfo); r != XR_SUCCESS) return r;

  auto chain = std::make_shared<Swapchain>(object->vulkan, object->handle, *createInfo);
  const uint32_t count = (createInfo->createFlags & XR_SWAPCHAIN_CREATE_STATIC_IMAGE_BIT) != 0 ? 1 : kImageCount;
  chain->images.resize(count);
  for (auto& image : chain->images) {
    if (VkResult r = chain->device->createImage(imageInfo, image); r != VK_SUCCESS) {
      return r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? XR_ERROR_OUT_OF_MEMORY
                                                                                      : XR_ERROR_RUNTIME_FAILURE;
    }
  }
  if (transitionNewImages(*chain) != VK_SUCCESS) return XR_ERROR_RUNTIME_FAILURE;
  *swapchain = toHandle<XrSwapchain>(HandleRegistry::global().insert(HandleKind::Swapchain, object->handle, chain));
  return XR_SUCCESS;
}

SIMXR_ENTRY DestroySwapchain(XrSwapchain swapchain) {
  return HandleRegistry::global().erase(handleValue(swapchain), HandleKind::Swapchain) ? XR_SUCCESS
                                                                                         : XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY EnumerateSwapchainImages(XrSwapchain swapchain, uint32_t capacity, uint32_t* countOutput,
                                     XrSwapchainImageBaseHeader* images) {
  auto object = findSwapchain(swapchain);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(object->mutex);
  return answerArray(
      capacity, countOutput, reinterpret_cast<XrSwapchainImageVulkan2KHR*>(images),
      static_cast<uint32_t>(object->images.size()),
      [&](uint32_t i, XrSwapchainImageVulkan2KHR& out) { out.image = object->images[i].image.get(); },
      XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR);
}

SIMXR_ENTRY AcquireSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageAcquireInfo* acquireInfo,
                                  uint32_t* index) {
  auto object = findSwapchain(swapchain);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (acquireInfo != nullptr && !hasType(acquireInfo, XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (index == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(object->mutex);
  // A static swapchain's one image is acquired once; otherwise an image still acquired cannot be
  // handed out again (the next one in order is not yet released).
  if ((object->createFlags & XR_SWAPCHAIN_CREATE_STATIC_IMAGE_BIT) != 0 && object->everAcquired) {
    return XR_ERROR_CALL_ORDER_INVALID;
  }
  if (object->acquired.size() >= object->images.size()) return XR_ERROR_CALL_ORDER_INVALID;
  *index = object->nextIndex;
  object->acquired.push_back(object->nextIndex);
  object->nextIndex = (object->nextIndex + 1) % static_cast<uint32_t>(object->images.size());
  object->everAcquired = true;
  return XR_SUCCESS;
}

SIMXR_ENTRY WaitSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageWaitInfo* waitInfo) {
  auto object = findSwapchain(swapchain);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(waitInfo, XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(object->mutex);
  // Only the oldest acquired image can be waited on, and only once until it is released.
  if (object->acquired.empty() || object->oldestWaited) return XR_ERROR_CALL_ORDER_INVALID;
  // The image is ready at once: the runtime's own work on it (the readback in xrEndFrame) is
  // finished before xrEndFrame returns.
  object->oldestWaited = true;
  return XR_SUCCESS;
}

SIMXR_ENTRY ReleaseSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageReleaseInfo* releaseInfo) {
  auto object = findSwapchain(swapchain);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (releaseInfo != nullptr && !hasType(releaseInfo, XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  std::lock_guard lock(object->mutex);
  // Only a waited image can be released.
  if (!object->oldestWaited) return XR_ERROR_CALL_ORDER_INVALID;
  object->lastReleased = object->acquired.front();
  object->acquired.pop_front();
  object->oldestWaited = false;
  return XR_SUCCESS;
}

}  // namespace simxr
