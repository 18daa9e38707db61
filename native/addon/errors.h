// Turning native failures into JavaScript errors with stable, typed fields.
#pragma once

#include <napi.h>

#include "common/dynamic_library.h"

namespace kl::napi {

// An Error whose `code` is 'KL_LIBRARY_ERROR' and which carries `path`, `symbol`, `reason`.
inline Napi::Error LibraryErrorToJs(Napi::Env env, const LibraryError& error) {
  Napi::Error js = Napi::Error::New(env, error.what());
  js.Set("code", Napi::String::New(env, "KL_LIBRARY_ERROR"));
  js.Set("path", Napi::String::New(env, error.path()));
  js.Set("symbol", error.symbol().empty() ? env.Null() : Napi::String::New(env, error.symbol()));
  js.Set("reason", Napi::String::New(env, error.reason()));
  return js;
}

inline Napi::TypeError ArgumentError(Napi::Env env, const std::string& message) {
  Napi::TypeError js = Napi::TypeError::New(env, message);
  js.Set("code", Napi::String::New(env, "KL_INVALID_ARGUMENT"));
  return js;
}

}  // namespace kl::napi
