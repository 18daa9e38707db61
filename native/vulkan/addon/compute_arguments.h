// What the typed Vulkan API's native files (compute_*.cc, vulkan_compute.cc) share: the exported
// core commands they call, and the readers of their arguments. Handles travel as bigints; a wrong
// argument is a TypeError (KL_INVALID_ARGUMENT), a failed command a KL_VULKAN_ERROR.
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "addon/errors.h"
#include "vulkan/addon/vulkan.h"
#include "vulkan/loader/trampolines.h"

// The addon's exported core commands (defined in vulkan/loader/trampolines.cc), declared for these files.
#define KL_VK_DECLARE_EXPORTED(name, member, ret, params, args) KL_VK_EXPORT ret VKAPI_CALL name params;
KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORTED)
KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORTED)
#undef KL_VK_DECLARE_EXPORTED

namespace kl::napi::compute {

inline uint64_t U64(Napi::Env env, const Napi::Value& v, const char* what) {
  if (v.IsBigInt()) {
    bool lossless = true;
    return v.As<Napi::BigInt>().Uint64Value(&lossless);
  }
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (d >= 0 && d <= 9007199254740991.0 && d == static_cast<double>(static_cast<uint64_t>(d))) return static_cast<uint64_t>(d);
  }
  throw ArgumentError(env, std::string(what) + " must be a non-negative integer or bigint");
}

inline uint32_t U32(Napi::Env env, const Napi::Value& v, const char* what) {
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (d >= 0 && d <= 4294967295.0 && d == static_cast<double>(static_cast<uint32_t>(d))) return static_cast<uint32_t>(d);
  }
  throw ArgumentError(env, std::string(what) + " must be an integer in [0, 2^32)");
}

inline uint32_t FieldU32(Napi::Env env, Napi::Object o, const char* key) { return U32(env, o.Get(key), key); }

template <typename T>
inline T Handle(Napi::Env env, const Napi::Value& v, const char* what) {
  if (!v.IsBigInt()) throw ArgumentError(env, std::string(what) + " must be a bigint handle");
  bool lossless = true;
  const uint64_t raw = v.As<Napi::BigInt>().Uint64Value(&lossless);
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(static_cast<uintptr_t>(raw));
  } else {
    return static_cast<T>(raw);
  }
}

template <typename T>
inline Napi::BigInt ToJs(Napi::Env env, T handle) {
  if constexpr (std::is_pointer_v<T>) {
    return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle)));
  } else {
    return Napi::BigInt::New(env, static_cast<uint64_t>(handle));
  }
}

inline void Check(Napi::Env env, VkResult res, const char* what) {
  if (res != VK_SUCCESS) throw VkErrorToJs(env, res, std::string(what) + " failed");
}

inline Napi::Array ArrayArg(Napi::Env env, const Napi::Value& v, const char* what) {
  if (!v.IsArray()) throw ArgumentError(env, std::string(what) + " must be an array");
  return v.As<Napi::Array>();
}

inline Napi::Object ObjectAt(Napi::Env env, Napi::Array a, uint32_t i, const char* what) {
  Napi::Value v = a.Get(i);
  if (!v.IsObject()) throw ArgumentError(env, std::string(what) + " entries must be objects");
  return v.As<Napi::Object>();
}

}  // namespace kl::napi::compute
