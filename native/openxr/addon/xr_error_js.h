// The JS error for an XrError, shared by the product addon and the tools addon: code
// 'KL_OPENXR_ERROR', xrResult (number), message.
#pragma once

#include <napi.h>

#include <string>

#include "openxr/loader/xr_error.h"

namespace kl::napi {

inline Napi::Error XrErrorToJs(Napi::Env env, XrResult result, const std::string& message) {
  Napi::Error js = Napi::Error::New(env, message);
  js.Set("code", Napi::String::New(env, "KL_OPENXR_ERROR"));
  js.Set("xrResult", Napi::Number::New(env, static_cast<double>(result)));
  return js;
}

}  // namespace kl::napi
