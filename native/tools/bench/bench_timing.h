// What the OpenXR and Vulkan benchmark scenarios (bench.cc, vulkan_bench.cc) share: one timing
// loop, the measure(mode, iterations, repeats) call shape, and where a function pointer lives.
#pragma once

#include <napi.h>
#include <time.h>
#ifdef _WIN32
#include "common/windows_headers.h"

#include "common/windows_text.h"
#else
#include <dlfcn.h>
#endif

#include <cstdint>
#include <iterator>
#include <string>

#include "addon/errors.h"

namespace kl::napi::bench {

inline double NowNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

struct Sample {
  double wallNs;
  double cpuNs;
};

// Times `iterations` calls of `call(i)` (inlined: one loop for every loader), wall clock and the
// calling thread's CPU time, per call.
template <typename F>
Sample TimeCalls(uint32_t iterations, F&& call) {
  const double cpu0 = NowNs(CLOCK_THREAD_CPUTIME_ID);
  const double wall0 = NowNs(CLOCK_MONOTONIC);
  for (uint32_t i = 0; i < iterations; ++i) call(i);
  const double wall1 = NowNs(CLOCK_MONOTONIC);
  const double cpu1 = NowNs(CLOCK_THREAD_CPUTIME_ID);
  const double n = iterations == 0 ? 1 : iterations;
  return {(wall1 - wall0) / n, (cpu1 - cpu0) / n};
}

// measure(mode: 'trampoline' | 'pointer', iterations, repeats) → { wallNs: number[], cpuNs: number[] }:
// `sample(pointer, iterations)` once per repeat. Its exceptions pass through to the caller.
template <typename F>
Napi::Value MeasureRepeats(const Napi::CallbackInfo& info, F&& sample) {
  Napi::Env env = info.Env();
  const char* usage = "measure(mode: 'trampoline' | 'pointer', iterations: number, repeats: number)";
  if (info.Length() < 3 || !info[0].IsString() || !info[1].IsNumber() || !info[2].IsNumber()) throw ArgumentError(env, usage);
  const std::string mode = info[0].As<Napi::String>().Utf8Value();
  if (mode != "trampoline" && mode != "pointer") throw ArgumentError(env, usage);
  const uint32_t iterations = info[1].As<Napi::Number>().Uint32Value();
  const uint32_t repeats = info[2].As<Napi::Number>().Uint32Value();
  if (iterations == 0 || repeats == 0) throw ArgumentError(env, "measure: iterations and repeats must be at least 1");
  Napi::Array wall = Napi::Array::New(env, repeats);
  Napi::Array cpu = Napi::Array::New(env, repeats);
  for (uint32_t r = 0; r < repeats; ++r) {
    const Sample s = sample(mode == "pointer", iterations);
    wall.Set(r, Napi::Number::New(env, s.wallNs));
    cpu.Set(r, Napi::Number::New(env, s.cpuNs));
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("wallNs", wall);
  out.Set("cpuNs", cpu);
  return out;
}

// Where a function lives: { file, offset } of its shared object, so two loaders' pointers can be
// told identical across processes (their load addresses differ); null when unknown.
inline Napi::Value PointerOrigin(Napi::Env env, const void* fn) {
#ifdef _WIN32
  HMODULE module = nullptr;
  if (fn == nullptr || !GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                                           static_cast<LPCWSTR>(fn), &module)) {
    return env.Null();
  }
  wchar_t name[32768];
  const DWORD length = GetModuleFileNameW(module, name, static_cast<DWORD>(std::size(name)));
  if (length == 0 || length >= std::size(name)) return env.Null();
  const std::string file = windows::WideToUtf8(name, length);
  const void* base = module;  // a module's handle is its load address
#else
  Dl_info where{};
  if (fn == nullptr || dladdr(fn, &where) == 0 || where.dli_fname == nullptr) return env.Null();
  const std::string file = where.dli_fname;
  const void* base = where.dli_fbase;
#endif
  Napi::Object out = Napi::Object::New(env);
  out.Set("file", Napi::String::New(env, file));
  out.Set("offset", Napi::Number::New(env, static_cast<double>(static_cast<const char*>(fn) - static_cast<const char*>(base))));
  return out;
}

}  // namespace kl::napi::bench
