// The runtime's readback of submitted projection views (the xrvk contract): after xrEndFrame has
// validated its layers, the centre texel of each projection view's image (and of its depth image,
// XrCompositionLayerDepthInfoKHR) is copied on the binding's queue and kept as an XrSubmittedPixelSIMXR until xrDrainSubmittedPixelsSIMXR takes it.
// xrEndFrame does not wait for the copy (the application's frame would wait for the GPU): the next
// readback or the drain does.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "bundled/simxr/session.h"
#include "bundled/simxr/swapchain.h"

namespace simxr {

/** One projection view to read back: the image the view showed and its imageRect (read at the grid's cell centres). */
struct ViewReadback {
  std::shared_ptr<Swapchain> swapchain;
  uint32_t imageIndex;
  uint32_t arrayIndex;
  XrRect2Di rect;
  uint32_t viewIndex;
  /** What is copied: VK_IMAGE_ASPECT_COLOR_BIT, or VK_IMAGE_ASPECT_DEPTH_BIT of a depth swapchain. */
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
};

/**
 * Submits the readback of `views` (at most kMaxReadbackViews), to be recorded under the session's
 * current framesWithLayers and `displayTime`, without waiting for it; finishes the one before
 * first. Call with the session's mutex held.
 */
XrResult readBackViews(Session& session, XrTime displayTime, const std::vector<ViewReadback>& views);

/** Waits for the session's pending readback, if any, and records its texels. Call with the session's mutex held. */
XrResult finishReadback(Session& session);

/** The most views one xrEndFrame reads back: 16 projection layers of 2 views, each with depth. */
constexpr uint32_t kMaxReadbackViews = 64;

/** The readback buffer a session's device needs for `config`'s grid: 4 bytes a texel, kMaxReadbackViews views. */
VkDeviceSize readbackBufferBytes(const SimConfig& config);

}  // namespace simxr
