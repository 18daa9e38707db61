// The frame loop: xrWaitFrame (pacing), xrBeginFrame, xrEndFrame and their call-order rules.
#include <cstdio>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/pose_math.h"
#include "bundled/simxr/readback.h"
#include "bundled/simxr/session.h"
#include "bundled/simxr/spaces.h"
#include "bundled/simxr/swapchain.h"

namespace simxr {
namespace {

constexpr uint32_t kMaxLayerCount = 16;

bool shouldRender(XrSessionState state) {
  return state == XR_SESSION_STATE_VISIBLE || state == XR_SESSION_STATE_FOCUSED;
}

/** Appends the line SIMXR_BLOCKED_WAIT_FILE names (if any): an xrWaitFrame is about to block until xrBeginFrame. */
void noteBlockedWait(const SimConfig& config) {
  if (config.blockedWaitFile.empty()) return;
  if (std::FILE* f = std::fopen(config.blockedWaitFile.c_str(), "a")) {
    std::fputs("xrWaitFrame blocked until xrBeginFrame\n", f);
    std::fclose(f);
  }
}

/** The view count of PRIMARY_STEREO, the only view configuration. */
constexpr uint32_t kViewCount = 2;

/** The layer's space: alive and the session's own. */
XrResult checkSpace(const Session& session, XrSpace space) {
  auto object = findSpace(space);
  return object && object->session.get() == &session ? XR_SUCCESS : XR_ERROR_HANDLE_INVALID;
}

/**
 * A sub-image: the session's swapchain with a released image, an array index it has and a rect
 * inside its images. On success `out` is the view's readback (the released image, the rect).
 */
XrResult checkSubImage(const Session& session, const XrSwapchainSubImage& sub, ViewReadback& out) {
  auto swapchain = findSwapchain(sub.swapchain);
  if (!swapchain || swapchain->session != session.handle) return XR_ERROR_HANDLE_INVALID;
  std::optional<uint32_t> released;
  {
    std::lock_guard lock(swapchain->mutex);
    released = swapchain->lastReleased;
  }
  if (!released) return XR_ERROR_LAYER_INVALID;
  if (sub.imageArrayIndex >= swapchain->arraySize) return XR_ERROR_VALIDATION_FAILURE;
  const XrRect2Di& rect = sub.imageRect;
  if (rect.offset.x < 0 || rect.offset.y < 0 || rect.extent.width <= 0 || rect.extent.height <= 0) {
    return XR_ERROR_SWAPCHAIN_RECT_INVALID;
  }
  if (static_cast<int64_t>(rect.offset.x) + rect.extent.width > swapchain->width ||
      static_cast<int64_t>(rect.offset.y) + rect.extent.height > swapchain->height) {
    return XR_ERROR_SWAPCHAIN_RECT_INVALID;
  }
  // A cube swapchain's layers are arrayIndex × 6 + face; projection and quad layers show face 0.
  out = ViewReadback{swapchain, *released, sub.imageArrayIndex * swapchain->faceCount, rect, 0};
  return XR_SUCCESS;
}

/**
 * XrCompositionLayerDepthInfoKHR (XR_KHR_composition_layer_depth) chained to a projection view:
 * its sub-image as any other (a released image of a depth swapchain of the session, array index
 * and rect inside it); minDepth and maxDepth in [0, 1] with minDepth < maxDepth; nearZ and farZ
 * positive distances in metres (either may be +infinity; nearZ > farZ means reversed depth), not
 * equal. XR_ERROR_VALIDATION_FAILURE otherwise. On success `out` is the depth image's readback,
 * or none for a multisampled depth image (a depth texel cannot be resolved by a copy).
 */
XrResult checkDepthInfo(const Session& session, const XrCompositionLayerDepthInfoKHR& depth, std::optional<ViewReadback>& out) {
  ViewReadback readback{};
  if (XrResult r = checkSubImage(session, depth.subImage, readback); r != XR_SUCCESS) return r;
  if (!isDepthFormat(readback.swapchain->format)) return XR_ERROR_VALIDATION_FAILURE;
  const auto unit = [](float v) { return v >= 0.0f && v <= 1.0f; };  // false for NaN
  if (!unit(depth.minDepth) || !unit(depth.maxDepth) || !(depth.minDepth < depth.maxDepth)) return XR_ERROR_VALIDATION_FAILURE;
  const auto distance = [](float v) { return v > 0.0f; };  // false for NaN; +infinity allowed
  if (!distance(depth.nearZ) || !distance(depth.farZ) || depth.nearZ == depth.farZ) return XR_ERROR_VALIDATION_FAILURE;
  readback.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
  if (readback.swapchain->sampleCount == 1) out = std::move(readback);
  return XR_SUCCESS;
}

/** One layer, as the spec's xrEndFrame checks it; a projection layer's views are added to `readbacks`. */
XrResult checkLayer(const Session& session, const XrCompositionLayerBaseHeader* layer, std::vector<ViewReadback>& readbacks) {
  if (layer == nullptr) return XR_ERROR_LAYER_INVALID;
  switch (layer->type) {
    case XR_TYPE_COMPOSITION_LAYER_PROJECTION: {
      const auto* projection = reinterpret_cast<const XrCompositionLayerProjection*>(layer);
      if (XrResult r = checkSpace(session, projection->space); r != XR_SUCCESS) return r;
      if (projection->viewCount != kViewCount || projection->views == nullptr) return XR_ERROR_VALIDATION_FAILURE;
      for (uint32_t v = 0; v < projection->viewCount; ++v) {
        const XrCompositionLayerProjectionView& view = projection->views[v];
        if (view.type != XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW) return XR_ERROR_VALIDATION_FAILURE;
        if (!isValidPose(view.pose)) return XR_ERROR_POSE_INVALID;
        ViewReadback readback{};
        if (XrResult r = checkSubImage(session, view.subImage, readback); r != XR_SUCCESS) return r;
        readback.viewIndex = v;
        readbacks.push_back(std::move(readback));
        // Without XR_KHR_composition_layer_depth enabled the structure is not this instance's to read.
        const auto* depth = session.instance->compositionLayerDepthEnabled
                                ? findInNextChain<XrCompositionLayerDepthInfoKHR>(&view, XR_TYPE_COMPOSITION_LAYER_DEPTH_INFO_KHR)
                                : nullptr;
        if (depth != nullptr) {
          std::optional<ViewReadback> depthReadback;
          if (XrResult r = checkDepthInfo(session, *depth, depthReadback); r != XR_SUCCESS) return r;
          if (depthReadback) {
            depthReadback->viewIndex = v;
            readbacks.push_back(std::move(*depthReadback));
          }
        }
      }
      return XR_SUCCESS;
    }
    case XR_TYPE_COMPOSITION_LAYER_QUAD: {
      const auto* quad = reinterpret_cast<const XrCompositionLayerQuad*>(layer);
      if (XrResult r = checkSpace(session, quad->space); r != XR_SUCCESS) return r;
      if (!isValidPose(quad->pose)) return XR_ERROR_POSE_INVALID;
      ViewReadback unused{};
      return checkSubImage(session, quad->subImage, unused);
    }
    default:
      return XR_ERROR_LAYER_INVALID;
  }
}

}  // namespace

SIMXR_ENTRY WaitFrame(XrSession session, const XrFrameWaitInfo* frameWaitInfo, XrFrameState* frameState) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (frameWaitInfo != nullptr && !hasType(frameWaitInfo, XR_TYPE_FRAME_WAIT_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  if (!hasType(frameState, XR_TYPE_FRAME_STATE)) return XR_ERROR_VALIDATION_FAILURE;

  std::unique_lock lock(object->mutex);
  if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;
  // A second xrWaitFrame blocks until xrBeginFrame has begun the frame of the first one.
  if (object->waitedFrame && !object->destroyed) noteBlockedWait(object->instance->config);
  object->frameCondition.wait(lock, [&] { return !object->waitedFrame || !object->running || object->destroyed; });
  if (object->destroyed) return XR_ERROR_HANDLE_INVALID;
  if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;

  const FramePacer::Slot slot = object->pacer.nextSlot(monotonicNow());
  lock.unlock();
  if (object->instance->config.waitFrameBlocks) sleepUntil(slot.wakeTime);  // other calls on the session proceed meanwhile
  lock.lock();
  if (object->destroyed) return XR_ERROR_HANDLE_INVALID;
  if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;

  object->waitedFrame = slot.predictedDisplayTime;
  object->lastPredictedDisplayTime = slot.predictedDisplayTime;
  // The application's frame loop is now synchronized with the runtime.
  if (object->state == XR_SESSION_STATE_READY) object->transitionTo(XR_SESSION_STATE_SYNCHRONIZED, monotonicNow());
  frameState->predictedDisplayTime = object->instance->config.waitFrameTimes ? slot.predictedDisplayTime : 0;
  frameState->predictedDisplayPeriod = object->pacer.period();
  frameState->shouldRender = shouldRender(object->state) ? XR_TRUE : XR_FALSE;
  return XR_SUCCESS;
}

SIMXR_ENTRY BeginFrame(XrSession session, const XrFrameBeginInfo* frameBeginInfo) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (frameBeginInfo != nullptr && !hasType(frameBeginInfo, XR_TYPE_FRAME_BEGIN_INFO)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  XrResult result = XR_SUCCESS;
  {
    std::lock_guard lock(object->mutex);
    if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;
    if (!object->waitedFrame) return XR_ERROR_CALL_ORDER_INVALID;
    // A frame begun and never ended is dropped in favour of the new one.
    if (object->begunFrame) result = XR_FRAME_DISCARDED;
    object->begunFrame = object->waitedFrame;
    object->waitedFrame.reset();
  }
  object->frameCondition.notify_all();
  return result;
}

SIMXR_ENTRY EndFrame(XrSession session, const XrFrameEndInfo* frameEndInfo) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(frameEndInfo, XR_TYPE_FRAME_END_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  if (frameEndInfo->layerCount != 0 && frameEndInfo->layers == nullptr) return XR_ERROR_VALIDATION_FAILURE;

  std::lock_guard lock(object->mutex);
  if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;
  if (!object->begunFrame) return XR_ERROR_CALL_ORDER_INVALID;
  if (frameEndInfo->displayTime <= 0 || frameEndInfo->displayTime != *object->begunFrame) return XR_ERROR_TIME_INVALID;
  if (frameEndInfo->environmentBlendMode != XR_ENVIRONMENT_BLEND_MODE_OPAQUE) {
    return XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED;
  }
  if (frameEndInfo->layerCount > kMaxLayerCount) return XR_ERROR_LAYER_LIMIT_EXCEEDED;
  std::vector<ViewReadback> readbacks;
  for (uint32_t i = 0; i < frameEndInfo->layerCount; ++i) {
    if (XrResult r = checkLayer(*object, frameEndInfo->layers[i], readbacks); r != XR_SUCCESS) return r;
  }
  object->begunFrame.reset();
  XrResult result = XR_SUCCESS;
  if (frameEndInfo->layerCount > 0) {
    ++object->framesWithLayers;
    result = readBackViews(*object, frameEndInfo->displayTime, readbacks);
  }
  // A submitted frame is shown: the session becomes visible, then focused (the simulated user
  // has nothing else to look at), unless the application is on its way out.
  if (object->state == XR_SESSION_STATE_SYNCHRONIZED && !object->exitRequested) {
    const XrTime now = monotonicNow();
    object->transitionTo(XR_SESSION_STATE_VISIBLE, now);
    object->transitionTo(XR_SESSION_STATE_FOCUSED, now);
  }
  return result;
}

}  // namespace simxr
