// OpenXrHandTracker: an XrHandTrackerEXT (XR_EXT_hand_tracking) of the JavaScript API, with the
// joint locator bound to a caller's Float32Array, the per-frame path: a call unpacks one XrTime and
// makes one xrLocateHandJointsEXT whose jointLocations array IS the caller's memory (the runtime's
// XrHandJointLocationEXT layout, 10 floats a joint: flags as a uint64, orientation xyzw, position
// xyz, radius; docs/usage.md), so nothing is copied and nothing allocated.
#pragma once

#include <napi.h>

#include <cstddef>
#include <memory>

#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

// Floats per joint in the locator's output (one XrHandJointLocationEXT), and the joints of
// XR_HAND_JOINT_SET_DEFAULT_EXT. lib/openxr/api/types.ts names the same offsets (HAND_JOINT_*).
inline constexpr uint32_t kHandJointStride = sizeof(XrHandJointLocationEXT) / sizeof(float);
inline constexpr uint32_t kHandJointCount = XR_HAND_JOINT_COUNT_EXT;
static_assert(sizeof(XrHandJointLocationEXT) == 10 * sizeof(float), "XrHandJointLocationEXT: 40 bytes, 10 floats");
static_assert(offsetof(XrHandJointLocationEXT, locationFlags) == 0 * sizeof(float), "flags at float 0 (a uint64)");
static_assert(offsetof(XrHandJointLocationEXT, pose) + offsetof(XrPosef, orientation) == 2 * sizeof(float), "orientation at float 2");
static_assert(offsetof(XrHandJointLocationEXT, pose) + offsetof(XrPosef, position) == 6 * sizeof(float), "position at float 6");
static_assert(offsetof(XrHandJointLocationEXT, radius) == 9 * sizeof(float), "radius at float 9");

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
  // bindLocator(base: OpenXrSpace, out: Float32Array(26 * 10), 8-byte aligned, result: Uint32Array): a bound locator for
  // openxrLocateHandJoints(locator, time: bigint | number) → 1 when the hand is tracked, else 0
  Napi::Value BindLocator(const Napi::CallbackInfo& info);

  std::shared_ptr<HandTrackerCore> core_;
};

// openxrLocateHandJoints(locator, time) → undefined: the runtime writes 26 joints into the bound
// output; the bound result slot gets 1 when the hand is tracked, else 0.
napi_value CallBoundJointLocator(napi_env env, napi_callback_info info);

}  // namespace kl::napi::xr
