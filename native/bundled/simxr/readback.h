// The runtime's readback of submitted projection views (the xrvk contract): after xrEndFrame has
// validated its layers, the centre texel of each projection view's image is copied on the
// binding's queue and kept as an XrSubmittedPixelSIMXR until xrDrainSubmittedPixelsSIMXR takes it.
// xrEndFrame does not wait for the copy (the application's frame would wait for the GPU): the next
// readback or the drain does.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "bundled/simxr/session.h"
#include "bundled/simxr/swapchain.h"

namespace simxr {

/** One projection view to read back: the image the view showed and the texel. */
struct ViewReadback {
  std::shared_ptr<Swapchain> swapchain;
  uint32_t imageIndex;
  uint32_t arrayIndex;
  int32_t x;
  int32_t y;
  uint32_t viewIndex;
};

/**
 * Submits the readback of `views` (at most kMaxReadbackViews), to be recorded under the session's
 * current framesWithLayers and `displayTime`, without waiting for it; finishes the one before
 * first. Call with the session's mutex held.
 */
XrResult readBackViews(Session& session, XrTime displayTime, const std::vector<ViewReadback>& views);

/** Waits for the session's pending readback, if any, and records its texels. Call with the session's mutex held. */
XrResult finishReadback(Session& session);

constexpr uint32_t kMaxReadbackViews = static_cast<uint32_t>(VulkanDevice::kReadbackBytes / 4);

}  // namespace simxr
