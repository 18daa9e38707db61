// `OpenXrCommands`: the generated bindings' one native entry point. call(index, args) runs
// kCommands[index] of generated/openxr_marshal.h: it refuses commands of extensions the instance
// did not enable (XR_ERROR_FUNCTION_UNSUPPORTED, before any native call), marshals the arguments
// with the generic marshaller, calls through the instance's dispatch table (the loader's own entry
// points for the commands the loader answers), does the two-call idiom, and returns
// { result, ...outputs }. A failure throws the KL_OPENXR_ERROR that TypeScript turns into OpenXrError.
#pragma once

#include <napi.h>

#include <memory>

#include "openxr/loader/loader_instance.h"

namespace kl::napi::xr {

class OpenXrCommands : public Napi::ObjectWrap<OpenXrCommands> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new OpenXrCommands(): the pre-instance commands only; new OpenXrCommands(instance): an
  // OpenXrInstance, or the bigint handle the generated xrCreateInstance returned.
  explicit OpenXrCommands(const Napi::CallbackInfo& info);

 private:
  Napi::Value Call(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  openxr::LoaderInstance& Live(Napi::Env env, const char* command) const;

  std::shared_ptr<openxr::LoaderInstance> instance_;
};

}  // namespace kl::napi::xr
