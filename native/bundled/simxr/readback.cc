#include "bundled/simxr/readback.h"

#include "bundled/simxr/two_call.h"

#include <cstdio>
#include <cstring>

#include "bundled/simxr/vulkan_entry_points.h"

namespace simxr {
namespace {

constexpr uint32_t kTexelBytes = 4;  // every offered format is 4 bytes a texel

/** A transition of one array layer of mip 0. */
VkImageMemoryBarrier imageBarrier(VkImage image, uint32_t layer, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                                  VkAccessFlags dstAccess) {
  return colourImageBarrier(image, layer, 1, 1, from, to, srcAccess, dstAccess);
}

void barrier(const VulkanDevice& device, VkCommandBuffer cmd, VkPipelineStageFlags from, VkPipelineStageFlags to,
             const VkImageMemoryBarrier& b) {
  device.fn.cmdPipelineBarrier(cmd, from, to, 0, 0, nullptr, 0, nullptr, 1, &b);
}

/** A 1×1 single-sample image a multisampled view's texel is resolved into before the copy. */
VkResult createResolveTarget(const VulkanDevice& device, VkFormat format, DeviceImage& out) {
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {1, 1, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return device.createImage(info, out);
}

/** Records the copy of one view's texel into the readback buffer at `offset`. */
void recordView(const VulkanDevice& device, VkCommandBuffer cmd, const ViewReadback& view, VkImage image,
                VkImage resolveTarget, VkDeviceSize offset) {
  const uint32_t layer = view.arrayIndex;
  // The application left the image in COLOR_ATTACHMENT_OPTIMAL; its writes (by any stage) come first.
  barrier(device, cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          imageBarrier(image, layer, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT));
  VkBufferImageCopy copy{};
  copy.bufferOffset = offset;
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1};
  copy.imageExtent = {1, 1, 1};
  if (resolveTarget == nullptr) {
    copy.imageOffset = {view.x, view.y, 0};
    device.fn.cmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, device.readbackBuffer(), 1, &copy);
  } else {
    barrier(device, cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            imageBarrier(resolveTarget, 0, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                         VK_ACCESS_TRANSFER_WRITE_BIT));
    VkImageResolve resolve{};
    resolve.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1};
    resolve.srcOffset = {view.x, view.y, 0};
    resolve.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    resolve.extent = {1, 1, 1};
    device.fn.cmdResolveImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, resolveTarget,
                              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &resolve);
    barrier(device, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            imageBarrier(resolveTarget, 0, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT));
    copy.imageSubresource.baseArrayLayer = 0;
    device.fn.cmdCopyImageToBuffer(cmd, resolveTarget, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, device.readbackBuffer(), 1,
                                   &copy);
  }
  // Back to the layout the application gets the image in.
  barrier(device, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
          imageBarrier(image, layer, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
                       VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT));
}

}  // namespace

XrResult finishReadback(Session& session) {
  if (session.pendingReadback.empty()) return XR_SUCCESS;
  std::vector<XrSubmittedPixelSIMXR> records = std::move(session.pendingReadback);
  session.pendingReadback.clear();
  VulkanDevice& device = *session.vulkan;
  VkResult read = device.waitSubmitted();
  session.pendingResolveTargets.reset();
  uint8_t texels[VulkanDevice::kReadbackBytes];
  if (read == VK_SUCCESS) read = device.readReadback(texels, records.size() * kTexelBytes);
  if (read != VK_SUCCESS) {
    std::fprintf(stderr, "simxr: reading back the views submitted by xrEndFrame failed (VkResult %d)\n", static_cast<int>(read));
    return XR_ERROR_RUNTIME_FAILURE;
  }
  for (size_t i = 0; i < records.size(); ++i) {
    std::memcpy(records[i].bytes, texels + i * kTexelBytes, kTexelBytes);
    // At most XR_SIMXR_MAX_SUBMITTED_PIXELS are kept: the oldest go first.
    if (session.submittedPixels.size() >= XR_SIMXR_MAX_SUBMITTED_PIXELS) session.submittedPixels.pop_front();
    session.submittedPixels.push_back(records[i]);
  }
  return XR_SUCCESS;
}

XrResult readBackViews(Session& session, XrTime displayTime, const std::vector<ViewReadback>& views) {
  if (views.empty()) return XR_SUCCESS;
  if (views.size() > kMaxReadbackViews || !session.vulkan) return XR_ERROR_RUNTIME_FAILURE;
  // The readback buffer is one: the previous frame's texels are read before it is reused.
  if (XrResult r = finishReadback(session); r != XR_SUCCESS) return r;
  VulkanDevice& device = *session.vulkan;
  std::vector<VkImage> images(views.size());
  auto resolveTargets = std::make_shared<std::vector<DeviceImage>>(views.size());
  for (size_t i = 0; i < views.size(); ++i) {
    Swapchain& swapchain = *views[i].swapchain;
    {
      std::lock_guard lock(swapchain.mutex);
      if (views[i].imageIndex >= swapchain.images.size()) return XR_ERROR_RUNTIME_FAILURE;
      images[i] = swapchain.images[views[i].imageIndex].image.get();
    }
    if (swapchain.sampleCount > 1 && createResolveTarget(device, swapchain.format, (*resolveTargets)[i]) != VK_SUCCESS) {
      return XR_ERROR_RUNTIME_FAILURE;
    }
  }
  // The copy's last barrier (to ALL_COMMANDS) orders everything the application submits later on
  // this queue after it, so the application may draw into these images again without a wait here.
  const VkResult submitted = device.submit([&](VkCommandBuffer cmd) {
    for (size_t i = 0; i < views.size(); ++i) {
      recordView(device, cmd, views[i], images[i], (*resolveTargets)[i].image.get(), i * kTexelBytes);
    }
    VkBufferMemoryBarrier toHost{};
    toHost.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    toHost.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toHost.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toHost.buffer = device.readbackBuffer();
    toHost.offset = 0;
    toHost.size = VK_WHOLE_SIZE;
    device.fn.cmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &toHost, 0,
                                 nullptr);
  });
  if (submitted != VK_SUCCESS) {
    std::fprintf(stderr, "simxr: xrEndFrame: submitting the readback of the views failed (VkResult %d)\n", static_cast<int>(submitted));
    return XR_ERROR_RUNTIME_FAILURE;
  }
  session.pendingResolveTargets = std::move(resolveTargets);
  session.pendingReadback.reserve(views.size());
  for (const ViewReadback& view : views) {
    XrSubmittedPixelSIMXR record{};
    record.frameIndex = session.framesWithLayers;
    record.displayTime = displayTime;
    record.viewIndex = view.viewIndex;
    record.format = view.swapchain->format;
    session.pendingReadback.push_back(record);
  }
  return XR_SUCCESS;
}

SIMXR_ENTRY DrainSubmittedPixelsSIMXR(XrSession session, uint32_t capacity, uint32_t* countOutput,
                                      XrSubmittedPixelSIMXR* pixels) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(object->mutex);
  if (XrResult r = finishReadback(*object); r != XR_SUCCESS) return r;
  return answerDrain(object->submittedPixels, capacity, countOutput, pixels);
}

}  // namespace simxr
