// The runtime's readback of submitted projection views (the xrvk contract): after xrEndFrame has
// validated its layers, the centre texel of each projection view's image is copied on the
// binding's queue and kept as an XrSubmittedPixelSIMXR until xrDrainSubmittedPixelsSIMXR takes it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "simxr/session.h"
#include "simxr/swapchain.h"

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
 * Reads back `views` (at most kMaxReadbackViews) and records them under the session's current
 * framesWithLayers and `displayTime`. Call with the session's mutex held.
 */
XrResult readBackViews(Session& session, XrTime displayTime, const std::vector<ViewReadback>& views);

constexpr uint32_t kMaxReadbackViews = static_cast<uint32_t>(VulkanDevice::kReadbackBytes / 4);

}  // namespace simxr
