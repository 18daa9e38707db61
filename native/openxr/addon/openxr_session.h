// OpenXrSession: an XrSession of the JavaScript API. Lifecycle (begin, end, request exit,
// destroy), reference spaces are made by OpenXrSpace, the frame loop (openxr_frame.cc), the view
// locator bound to a caller's Float32Array, and the session's action calls (openxr_actions.cc).
#pragma once

#include <napi.h>

#include <memory>

#include "openxr/addon/openxr_frame.h"
#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

class OpenXrSession : public Napi::ObjectWrap<OpenXrSession> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new OpenXrSession(instance: OpenXrInstance, systemId: bigint): xrCreateSession (headless: no
  // graphics binding; XR_MND_headless must be enabled on the instance).
  explicit OpenXrSession(const Napi::CallbackInfo& info);
  ~OpenXrSession() override;

  // The live core, or XR_ERROR_HANDLE_INVALID.
  const std::shared_ptr<SessionCore>& Live(Napi::Env env) const;
  static OpenXrSession* From(Napi::Env env, Napi::Value value);

 private:
  Napi::Value Begin(const Napi::CallbackInfo& info);
  Napi::Value End(const Napi::CallbackInfo& info);
  Napi::Value RequestExit(const Napi::CallbackInfo& info);
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  Napi::Value EnumerateReferenceSpaces(const Napi::CallbackInfo& info);
  // openxr_frame.cc
  Napi::Value WaitFrame(const Napi::CallbackInfo& info);
  Napi::Value WaitFrameSync(const Napi::CallbackInfo& info);
  Napi::Value WaitFrameCallback(const Napi::CallbackInfo& info);
  Napi::Value SetWaitFrameQuery(const Napi::CallbackInfo& info);
  Napi::Value WaitFrameResultWaiting(const Napi::CallbackInfo& info);
  Napi::Value BeginFrame(const Napi::CallbackInfo& info);
  Napi::Value EndFrame(const Napi::CallbackInfo& info);
  Napi::Value BindViewLocator(const Napi::CallbackInfo& info);
  // openxr_actions.cc
  Napi::Value AttachActionSets(const Napi::CallbackInfo& info);
  Napi::Value SyncActions(const Napi::CallbackInfo& info);
  Napi::Value BindActionState(const Napi::CallbackInfo& info);
  Napi::Value CurrentInteractionProfile(const Napi::CallbackInfo& info);

  // Stops the frame thread, destroys the session (and so its spaces) if its instance is live.
  XrResult DestroyNow(Napi::Env env);

  std::shared_ptr<SessionCore> core_;
  std::shared_ptr<FrameWaiter> waiter_;
  Napi::ObjectReference frameState_;  // the one object every waitFrame answers with
};

// openxrLocateViews(locator, time: bigint | number) → XrViewStateFlags, 11 floats a view in the bound output.
napi_value CallBoundViewLocator(napi_env env, napi_callback_info info);
// openxrReadActionState(reader) → undefined: the action's state into the bound outputs.
napi_value CallBoundActionState(napi_env env, napi_callback_info info);

}  // namespace kl::napi::xr
