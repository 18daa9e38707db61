// The frame loop: xrWaitFrame (pacing), xrBeginFrame, xrEndFrame and their call-order rules.
#include "simxr/entry_points.h"
#include "simxr/session.h"

namespace simxr {
namespace {

constexpr uint32_t kMaxLayerCount = 16;

bool shouldRender(XrSessionState state) {
  return state == XR_SESSION_STATE_VISIBLE || state == XR_SESSION_STATE_FOCUSED;
}

/** This runtime has no swapchains, so a layer can never reference valid images. */
XrResult checkLayer(const XrCompositionLayerBaseHeader* layer) {
  if (layer == nullptr) return XR_ERROR_LAYER_INVALID;
  switch (layer->type) {
    case XR_TYPE_COMPOSITION_LAYER_PROJECTION:
    case XR_TYPE_COMPOSITION_LAYER_QUAD:
      return XR_ERROR_HANDLE_INVALID;  // its swapchain cannot be a valid handle
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
  object->frameCondition.wait(lock, [&] { return !object->waitedFrame || !object->running || object->destroyed; });
  if (object->destroyed) return XR_ERROR_HANDLE_INVALID;
  if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;

  const FramePacer::Slot slot = object->pacer.nextSlot(monotonicNow());
  lock.unlock();
  sleepUntil(slot.wakeTime);  // other calls on the session proceed meanwhile
  lock.lock();
  if (object->destroyed) return XR_ERROR_HANDLE_INVALID;
  if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;

  object->waitedFrame = slot.predictedDisplayTime;
  object->lastPredictedDisplayTime = slot.predictedDisplayTime;
  // The application's frame loop is now synchronized with the runtime.
  if (object->state == XR_SESSION_STATE_READY) object->transitionTo(XR_SESSION_STATE_SYNCHRONIZED, monotonicNow());
  frameState->predictedDisplayTime = slot.predictedDisplayTime;
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
  for (uint32_t i = 0; i < frameEndInfo->layerCount; ++i) {
    if (XrResult r = checkLayer(frameEndInfo->layers[i]); r != XR_SUCCESS) return r;
  }
  object->begunFrame.reset();
  // A submitted frame is shown: the session becomes visible, then focused (the simulated user
  // has nothing else to look at), unless the application is on its way out.
  if (object->state == XR_SESSION_STATE_SYNCHRONIZED && !object->exitRequested) {
    const XrTime now = monotonicNow();
    object->transitionTo(XR_SESSION_STATE_VISIBLE, now);
    object->transitionTo(XR_SESSION_STATE_FOCUSED, now);
  }
  return XR_SUCCESS;
}

}  // namespace simxr
