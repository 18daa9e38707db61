// The N-API surface for OpenXR: `OpenXrInstance` (a LoaderInstance held directly, so calls from
// JavaScript need no lookup) and `openxrRuntimeExtensions`.
#pragma once

#include <napi.h>

#include <memory>
#include <vector>

#include "openxr/addon/xr_error_js.h"
#include "openxr/loader/loader_instance.h"

namespace kl::napi {

class OpenXrInstance : public Napi::ObjectWrap<OpenXrInstance> {
 public:
  static Napi::Function Define(Napi::Env env);
  ~OpenXrInstance() override;
  // new OpenXrInstance(plan, createInfo): negotiates, builds the chain, creates the instance.
  explicit OpenXrInstance(const Napi::CallbackInfo& info);

  // For other native surfaces (bench): the instance, or a thrown JS error when destroyed.
  static openxr::LoaderInstance& LiveInstance(Napi::Env env, Napi::Value value);
  // The same, shared: for native objects (sessions, spaces, ...) that must keep it alive.
  static std::shared_ptr<openxr::LoaderInstance> LiveInstanceShared(Napi::Env env, Napi::Value value);

 private:
  Napi::Value GetInstanceProcAddr(const Napi::CallbackInfo& info);
  Napi::Value GetProperties(const Napi::CallbackInfo& info);
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  Napi::Value LayerNames(const Napi::CallbackInfo& info);
  // XR_EXT_debug_utils through the chain; messages reach the JS callback asynchronously (from
  // whatever thread the runtime, a layer or the loader emits them).
  Napi::Value CreateDebugUtilsMessenger(const Napi::CallbackInfo& info);
  Napi::Value DestroyDebugUtilsMessenger(const Napi::CallbackInfo& info);
  Napi::Value SubmitDebugUtilsMessage(const Napi::CallbackInfo& info);
  openxr::LoaderInstance& Live(Napi::Env env) const;
  void DestroyJsMessengers();

  struct JsMessenger {
    Napi::ThreadSafeFunction tsfn;
    XrDebugUtilsMessengerEXT handle = XR_NULL_HANDLE;
  };
  std::vector<std::unique_ptr<JsMessenger>> jsMessengers_;
  std::shared_ptr<openxr::LoaderInstance> instance_;
};

// openxrRuntimeExtensions({ libraryPath, manifestPath, negotiateFunctionName }):
// [{ extensionName, extensionVersion }] from the runtime itself (negotiated, then
// xrEnumerateInstanceExtensionProperties with a null layer name); the runtime is unloaded after.
Napi::Value OpenXrRuntimeExtensions(const Napi::CallbackInfo& info);

// openxrGetInstanceProcAddr(instance: bigint (0n for XR_NULL_HANDLE), name): bigint — the
// loader's exported xrGetInstanceProcAddr, as native code calls it.
Napi::Value OpenXrGetInstanceProcAddr(const Napi::CallbackInfo& info);

// openxrPublishPlan(plan, lists?): replaces the snapshot the exported instance-less commands work
// from (lists: what xrEnumerateApiLayerProperties / xrEnumerateInstanceExtensionProperties answer).
Napi::Value OpenXrPublishPlan(const Napi::CallbackInfo& info);

}  // namespace kl::napi
