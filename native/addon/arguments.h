// Reading plain JavaScript objects passed to the addon (plans, create infos): a missing or
// mistyped field throws a TypeError naming it.
#pragma once

#include <napi.h>

#include <string>
#include <vector>

#include "addon/errors.h"

namespace kl::napi {

// o[key] as a string; `fallback` when absent (null/undefined) and a fallback is given.
inline std::string GetString(Napi::Env env, Napi::Object o, const char* key, const char* fallback = nullptr) {
  Napi::Value v = o.Get(key);
  if (v.IsString()) return v.As<Napi::String>().Utf8Value();
  if (fallback != nullptr && (v.IsUndefined() || v.IsNull())) return fallback;
  throw ArgumentError(env, std::string("'") + key + "' must be a string");
}

// o[key] as an array of strings; empty when absent.
inline std::vector<std::string> GetStrings(Napi::Env env, Napi::Object o, const char* key) {
  std::vector<std::string> out;
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return out;
  if (!v.IsArray()) throw ArgumentError(env, std::string("'") + key + "' must be an array of strings");
  Napi::Array a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Value e = a.Get(i);
    if (!e.IsString()) throw ArgumentError(env, std::string("'") + key + "' must be an array of strings");
    out.push_back(e.As<Napi::String>().Utf8Value());
  }
  return out;
}

}  // namespace kl::napi
