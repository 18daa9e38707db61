// OpenXrSpace: an XrSpace of the JavaScript API (a reference space or an action space), with
// locate(base, time, out) and the bound locator, the per-frame fast path: a function whose data
// holds both spaces' cores, xrLocateSpace from the dispatch table and the out array's data
// pointer, so a call unpacks one number, makes one indirect call and allocates nothing.
#pragma once

#include <napi.h>

#include <memory>

#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

class OpenXrSpace : public Napi::ObjectWrap<OpenXrSpace> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new OpenXrSpace(session, 'reference', referenceSpaceType: number, pose?: Float32Array)
  // new OpenXrSpace(session, 'action', action: OpenXrAction, subactionPath?: bigint, pose?: Float32Array)
  explicit OpenXrSpace(const Napi::CallbackInfo& info);
  ~OpenXrSpace() override;

  const std::shared_ptr<SpaceCore>& Live(Napi::Env env) const;
  static OpenXrSpace* From(Napi::Env env, Napi::Value value);

 private:
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  // locate(base, time: bigint | number, out: Float32Array(7+)): XrSpaceLocationFlags (the general path)
  Napi::Value Locate(const Napi::CallbackInfo& info);
  // bindLocator(base, out: Float32Array(7+), result: Uint32Array(1+)) → a bound locator for openxrLocateSpace
  Napi::Value BindLocator(const Napi::CallbackInfo& info);

  std::shared_ptr<SpaceCore> core_;
};

// openxrLocateSpace(locator, time: bigint | number) → undefined: the pose in the bound output, the
// XrSpaceLocationFlags in the bound result slot. Three N-API calls (the arguments, the external,
// the time; a fourth for a bigint time) and none to make a return value.
napi_value CallBoundLocator(napi_env env, napi_callback_info info);

}  // namespace kl::napi::xr
