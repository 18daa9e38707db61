// An XrSession: the lifecycle state machine of the spec (IDLE → READY → SYNCHRONIZED → VISIBLE →
// FOCUSED, and back through STOPPING → IDLE → EXITING after xrRequestExitSession), the frame
// loop's bookkeeping, and the session's action state. xrWaitFrame may run on another thread than
// the other calls, so everything mutable here is guarded by `mutex`.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "bundled/simxr/actions.h"
#include "bundled/simxr/frame_timing.h"
#include "bundled/simxr/handle_registry.h"
#include "include/simxr/simxr_haptics.h"
#include "include/simxr/simxr_readback.h"
#include "bundled/simxr/instance.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

class VulkanDevice;

class Session : public HandleObject {
 public:
  static constexpr HandleKind kKind = HandleKind::Session;

  Session(std::shared_ptr<Instance> instance_, std::shared_ptr<VulkanDevice> vulkan_)
      : instance(std::move(instance_)), vulkan(std::move(vulkan_)), pacer(instance->config.periodNs()) {}

  const std::shared_ptr<Instance> instance;
  /** The application's device from XrGraphicsBindingVulkan2KHR; null for a headless session. */
  const std::shared_ptr<VulkanDevice> vulkan;

  std::mutex mutex;
  /** Signalled when xrBeginFrame consumes a waited frame, or the session stops or is destroyed. */
  std::condition_variable frameCondition;

  XrSessionState state = XR_SESSION_STATE_UNKNOWN;
  bool running = false;
  bool exitRequested = false;
  bool destroyed = false;

  FramePacer pacer;
  /** The predicted display time of a frame xrWaitFrame returned and xrBeginFrame has not yet begun. */
  std::optional<XrTime> waitedFrame;
  /** The predicted display time of the frame xrBeginFrame began and xrEndFrame has not yet ended. */
  std::optional<XrTime> begunFrame;
  XrTime lastPredictedDisplayTime = 0;

  SessionActions actions;

  /** xrEndFrame calls that had layers so far (the frameIndex of the readback records). */
  uint64_t framesWithLayers = 0;
  /** The centre texels read back from submitted projection views, oldest first (readback.cc). */
  std::deque<XrSubmittedPixelSIMXR> submittedPixels;
  /**
   * The records of the readback the last xrEndFrame with layers submitted, their bytes not yet
   * read: the copy runs on the GPU while the application goes on (as a compositor's would), and
   * the next xrEndFrame with layers or xrDrainSubmittedPixelsSIMXR waits for it (readback.cc).
   */
  std::vector<XrSubmittedPixelSIMXR> pendingReadback;
  /** Resolve targets (multisampled views) the pending readback's commands use: freed once it is done. */
  std::shared_ptr<void> pendingResolveTargets;
  /** What xrApplyHapticFeedback / xrStopHapticFeedback reached, oldest first (haptics.cc). */
  std::deque<XrHapticEventSIMXR> hapticEvents;

  /** Changes state and queues XrEventDataSessionStateChanged. Call with `mutex` held. */
  void transitionTo(XrSessionState next, XrTime time);

  /** The time action states and poses are sampled at: the latest predicted display time, else now. */
  XrTime sampleTime() const;

  void onDestroyed() override;
};

std::shared_ptr<Session> findSession(XrSession session);

}  // namespace simxr
