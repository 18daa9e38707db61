#include "tools/loader_addon.h"

#include <mutex>
#include <string>

#include "addon/errors.h"
#include "common/log.h"

namespace kl::tools {
namespace {

using EmitLogFn = void (*)(int level, const char* source, const char* message);

struct State {
  std::mutex mutex;
  std::shared_ptr<DynamicLibrary> addon;
};

State& Shared() {
  static State* state = new State();  // never destroyed: log sinks may run until the process ends
  return *state;
}

}  // namespace

Napi::Value UseLoaderAddon(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw napi::ArgumentError(env, "useLoaderAddon(path: string)");
  const std::string path = info[0].As<Napi::String>().Utf8Value();
  State& state = Shared();
  std::lock_guard lock(state.mutex);
  if (state.addon) {
    if (state.addon->path() != path) throw Napi::Error::New(env, "useLoaderAddon: already using " + state.addon->path() + ", not " + path);
    return env.Undefined();
  }
  try {
    state.addon = DynamicLibrary::Open(path);
    auto emit = state.addon->RequireFunction<EmitLogFn>("khronosLoaderLog");
    LogSinkRegistry::Get().Add([emit](const LogRecord& r) {
      const std::string source(r.source);
      emit(static_cast<int>(r.level), source.c_str(), r.message.c_str());
    });
  } catch (const LibraryError& e) {
    state.addon.reset();
    throw napi::LibraryErrorToJs(env, e);
  }
  return env.Undefined();
}

const DynamicLibrary& LoaderAddon(Napi::Env env) {
  State& state = Shared();
  std::lock_guard lock(state.mutex);
  if (!state.addon) throw Napi::Error::New(env, "the tools addon has no loader: call useLoaderAddon(path) first (lib's tools loader does)");
  return *state.addon;
}

std::uint64_t HandleArgument(Napi::Env env, Napi::Value value, const char* what) {
  Napi::Value v = value;
  if (v.IsObject() && !v.IsBigInt()) v = v.As<Napi::Object>().Get("handle");
  if (!v.IsBigInt()) throw napi::ArgumentError(env, std::string(what) + " must be a bigint handle or an object with one (handle)");
  bool lossless = true;
  return v.As<Napi::BigInt>().Uint64Value(&lossless);
}

}  // namespace kl::tools
