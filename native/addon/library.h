// `NativeLibrary`: a DynamicLibrary as a JavaScript object (used by diagnostics and tests).
#pragma once

#include <napi.h>

#include <memory>

#include "common/dynamic_library.h"

namespace kl::napi {

class NativeLibrary : public Napi::ObjectWrap<NativeLibrary> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit NativeLibrary(const Napi::CallbackInfo& info);

 private:
  Napi::Value Path(const Napi::CallbackInfo& info);
  Napi::Value IsOpen(const Napi::CallbackInfo& info);
  Napi::Value SymbolAddress(const Napi::CallbackInfo& info);
  Napi::Value RequireSymbolAddress(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
  const DynamicLibrary& OpenOrThrow(Napi::Env env) const;

  std::shared_ptr<DynamicLibrary> library_;
  std::string path_;
};

}  // namespace kl::napi
