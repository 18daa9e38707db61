// OpenXrHandTracker: an XrHandTrackerEXT (XR_EXT_hand_tracking) of the JavaScript API, with the
// joint locator bound to a caller's Float32Array, the per-frame path: a call unpacks one XrTime,
// makes one xrLocateHandJointsEXT into storage the binding owns and writes 9 floats per joint
// (pose px py pz qx qy qz qw, radius, XrSpaceLocationFlags), allocating nothing.
#pragma once

#include <napi.h>

#include <memory>

#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

// Floats per joint in the locator's output, and the joints of XR_HAND_JOINT_SET_DEFAULT_EXT.
inline constexpr uint32_t kHandJointFloats = 9;
inline constexpr uint32_t kHandJointCount = XR_HAND_JOINT_COUNT_EXT;

class OpenXrHandTracker : public Napi::ObjectWrap<OpenXrHandTracker> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new OpenXrHandTracker(session, hand: number (XR_HAND_LEFT_EXT 1, XR_HAND_RIGHT_EXT 2))
  explicit OpenXrHandTracker(const Napi::CallbackInfo& info);
  ~OpenXrHandTracker() override;
  const std::shared_ptr<HandTrackerCore>& Live(Napi::Env env) const;

 private:
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  // bindLocator(base: OpenXrSpace, out: Float32Array(26 * 9)): a bound locator for
  // openxrLocateHandJoints(locator, time: bigint | number) → 1 when the hand is tracked, else 0
  Napi::Value BindLocator(const Napi::CallbackInfo& info);

  std::shared_ptr<HandTrackerCore> core_;
};

// openxrLocateHandJoints(locator, time) → undefined: 26 joints into the bound output; the bound
// result slot gets 1 when the hand is tracked, else 0.
napi_value CallBoundJointLocator(napi_env env, napi_callback_info info);

}  // namespace kl::napi::xr
