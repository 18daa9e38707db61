#include "bundled/simxr/readback.h"

#include "bundled/simxr/two_call.h"

#include <cstdio>
#include <cstring>

#include "bundled/simxr/vulkan_entry_points.h"

namespace simxr {
namespace {

constexpr uint32_t kTexelBytes = 4;  // every offered colour format is 4 bytes a texel; a depth texel is 2 or 4

/**
 * The bytes of a texel's copied depth aspect that hold data: 2 for D16_UNORM, 3 for
 * D24_UNORM_S8_UINT (its fourth byte is undefined in a buffer copy), else 4.
 */
uint32_t depthBytes(int64_t format) {
  if (format == VK_FORMAT_D16_UNORM) return 2;
  if (format == VK_FORMAT_D24_UNORM_S8_UINT) return 3;
  return 4;
}

/** A transition of one array layer of mip 0 (colour aspect unless `aspects` says otherwise). */
VkImageMemoryBarrier imageBarrier(VkImage image, uint32_t layer, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                                  VkAccessFlags dstAccess, VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT) {
  VkImageMemoryBarrier b = colourImageBarrier(image, layer, 1, 1, from, to, srcAccess, dstAccess);
  b.subresourceRange.aspectMask = aspects;
  return b;
}

void barrier(const VulkanDevice& device, VkCommandBuffer cmd, VkPipelineStageFlags from, VkPipelineStageFlags to,
             const VkImageMemoryBarrier& b) {
  device.fn.cmdPipelineBarrier(cmd, from, to, 0, 0, nullptr, 0, nullptr, 1, &b);
}

/** The texel (x, y) of cell (column, row) of `rect`'s grid: the cell's centre, rounded down. */
VkOffset3D cellCentre(const XrRect2Di& rect, uint32_t columns, uint32_t rows, uint32_t column, uint32_t row) {
  const auto centre = [](int32_t offset, int32_t extent, uint32_t cells, uint32_t cell) {
    return offset + static_cast<int32_t>((static_cast<int64_t>(2 * cell + 1) * extent) / (2 * static_cast<int64_t>(cells)));
  };
  return {centre(rect.offset.x, rect.extent.width, columns, column), centre(rect.offset.y, rect.extent.height, rows, row), 0};
}

/** A columns × rows single-sample image a multisampled view's texels are resolved into before the copy. */
VkResult createResolveTarget(const VulkanDevice& device, VkFormat format, uint32_t columns, uint32_t rows, DeviceImage& out) {
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {columns, rows, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return device.createImage(info, out);
}

/**
 * Records the copy of one view's grid of texels into the readback buffer from `offset` on, row by
 * row (cell (column, row) at offset + (row × columns + column) × 4).
 */
void recordView(const VulkanDevice& device, VkCommandBuffer cmd, const ViewReadback& view, VkImage image,
                VkImage resolveTarget, VkDeviceSize offset, uint32_t columns, uint32_t rows) {
  const uint32_t layer = view.arrayIndex;
  // The application left the image in the layout it got it in (COLOR_ATTACHMENT_OPTIMAL, or
  // DEPTH_STENCIL_ATTACHMENT_OPTIMAL); its writes (by any stage) come first. A depth-stencil
  // image's transitions name both aspects; the copy takes the depth aspect.
  const VkImageLayout handedOut = view.swapchain->layout;
  const VkImageAspectFlags aspects = view.swapchain->aspects;
  barrier(device, cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          imageBarrier(image, layer, handedOut, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_MEMORY_WRITE_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT, aspects));
  if (resolveTarget == nullptr) {
    std::vector<VkBufferImageCopy> copies;
    copies.reserve(static_cast<size_t>(columns) * rows);
    for (uint32_t row = 0; row < rows; ++row) {
      for (uint32_t column = 0; column < columns; ++column) {
        VkBufferImageCopy copy{};
        copy.bufferOffset = offset + (static_cast<VkDeviceSize>(row) * columns + column) * kTexelBytes;
        copy.imageSubresource = {view.aspect, 0, layer, 1};
        copy.imageOffset = cellCentre(view.rect, columns, rows, column, row);
        copy.imageExtent = {1, 1, 1};
        copies.push_back(copy);
      }
    }
    device.fn.cmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, device.readbackBuffer(),
                                   static_cast<uint32_t>(copies.size()), copies.data());
  } else {
    barrier(device, cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            imageBarrier(resolveTarget, 0, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                         VK_ACCESS_TRANSFER_WRITE_BIT));
    std::vector<VkImageResolve> resolves;
    resolves.reserve(static_cast<size_t>(columns) * rows);
    for (uint32_t row = 0; row < rows; ++row) {
      for (uint32_t column = 0; column < columns; ++column) {
        VkImageResolve resolve{};
        resolve.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1};
        resolve.srcOffset = cellCentre(view.rect, columns, rows, column, row);
        resolve.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        resolve.dstOffset = {static_cast<int32_t>(column), static_cast<int32_t>(row), 0};
        resolve.extent = {1, 1, 1};
        resolves.push_back(resolve);
      }
    }
    device.fn.cmdResolveImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, resolveTarget,
                              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, static_cast<uint32_t>(resolves.size()), resolves.data());
    barrier(device, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            imageBarrier(resolveTarget, 0, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT));
    VkBufferImageCopy copy{};
    copy.bufferOffset = offset;  // tightly packed: row-major, 4 bytes a texel
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {columns, rows, 1};
    device.fn.cmdCopyImageToBuffer(cmd, resolveTarget, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, device.readbackBuffer(), 1,
                                   &copy);
  }
  // Back to the layout the application gets the image in.
  barrier(device, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
          imageBarrier(image, layer, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, handedOut, 0,
                       VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, aspects));
}

}  // namespace

VkDeviceSize readbackBufferBytes(const SimConfig& config) {
  return static_cast<VkDeviceSize>(kMaxReadbackViews) * config.readbackColumns * config.readbackRows * kTexelBytes;
}

XrResult finishReadback(Session& session) {
  if (session.pendingReadback.empty()) return XR_SUCCESS;
  std::vector<XrSubmittedPixelSIMXR> records = std::move(session.pendingReadback);
  session.pendingReadback.clear();
  VulkanDevice& device = *session.vulkan;
  VkResult read = device.waitSubmitted();
  session.pendingResolveTargets.reset();
  std::vector<uint8_t> texels(records.size() * kTexelBytes);
  if (read == VK_SUCCESS) read = device.readReadback(texels.data(), texels.size());
  if (read != VK_SUCCESS) {
    std::fprintf(stderr, "simxr: reading back the views submitted by xrEndFrame failed (VkResult %d)\n", static_cast<int>(read));
    return XR_ERROR_RUNTIME_FAILURE;
  }
  for (size_t i = 0; i < records.size(); ++i) {
    std::memcpy(records[i].bytes, texels.data() + i * kTexelBytes, kTexelBytes);
    // A depth texel's bytes beyond its data are not written by the copy (or undefined): zero.
    if (records[i].aspect == VK_IMAGE_ASPECT_DEPTH_BIT) {
      for (uint32_t b = depthBytes(records[i].format); b < kTexelBytes; ++b) records[i].bytes[b] = 0;
    }
    // At most XR_SIMXR_MAX_SUBMITTED_PIXELS are kept: the oldest go first.
    if (session.submittedPixels.size() >= XR_SIMXR_MAX_SUBMITTED_PIXELS) session.submittedPixels.pop_front();
    session.submittedPixels.push_back(records[i]);
  }
  return XR_SUCCESS;
}

XrResult readBackViews(Session& session, XrTime displayTime, const std::vector<ViewReadback>& views) {
  if (views.empty()) return XR_SUCCESS;
  if (views.size() > kMaxReadbackViews || !session.vulkan) return XR_ERROR_RUNTIME_FAILURE;
  const uint32_t columns = session.instance->config.readbackColumns;
  const uint32_t rows = session.instance->config.readbackRows;
  const VkDeviceSize viewBytes = static_cast<VkDeviceSize>(columns) * rows * kTexelBytes;
  if (views.size() * viewBytes > session.vulkan->readbackBytes()) return XR_ERROR_RUNTIME_FAILURE;
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
    // A multisampled depth view is never read back (checkLayer): only colour texels are resolved.
    if (swapchain.sampleCount > 1 && views[i].aspect == VK_IMAGE_ASPECT_COLOR_BIT &&
        createResolveTarget(device, swapchain.format, columns, rows, (*resolveTargets)[i]) != VK_SUCCESS) {
      return XR_ERROR_RUNTIME_FAILURE;
    }
  }
  // The copy's last barrier (to ALL_COMMANDS) orders everything the application submits later on
  // this queue after it, so the application may draw into these images again without a wait here.
  const VkResult submitted = device.submit([&](VkCommandBuffer cmd) {
    for (size_t i = 0; i < views.size(); ++i) {
      recordView(device, cmd, views[i], images[i], (*resolveTargets)[i].image.get(), i * viewBytes, columns, rows);
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
  session.pendingReadback.reserve(views.size() * columns * rows);
  for (const ViewReadback& view : views) {
    for (uint32_t row = 0; row < rows; ++row) {
      for (uint32_t column = 0; column < columns; ++column) {
        XrSubmittedPixelSIMXR record{};
        record.frameIndex = session.framesWithLayers;
        record.displayTime = displayTime;
        record.viewIndex = view.viewIndex;
        record.format = view.swapchain->format;
        record.aspect = view.aspect;
        const VkOffset3D texel = cellCentre(view.rect, columns, rows, column, row);
        record.x = texel.x;
        record.y = texel.y;
        session.pendingReadback.push_back(record);
      }
    }
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
