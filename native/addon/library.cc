#include "addon/library.h"

#include <cstdint>

#include "addon/errors.h"

namespace kl::napi {

Napi::Function NativeLibrary::Define(Napi::Env env) {
  return DefineClass(env, "NativeLibrary",
                     {
                         InstanceAccessor<&NativeLibrary::Path>("path"),
                         InstanceAccessor<&NativeLibrary::IsOpen>("isOpen"),
                         InstanceMethod<&NativeLibrary::SymbolAddress>("symbolAddress"),
                         InstanceMethod<&NativeLibrary::RequireSymbolAddress>("requireSymbolAddress"),
                         InstanceMethod<&NativeLibrary::Close>("close"),
                     });
}

NativeLibrary::NativeLibrary(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeLibrary>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) {
    ArgumentError(env, "NativeLibrary(path): path must be a string").ThrowAsJavaScriptException();
    return;
  }
  path_ = info[0].As<Napi::String>().Utf8Value();
  try {
    library_ = DynamicLibrary::Open(path_);
  } catch (const LibraryError& error) {
    LibraryErrorToJs(env, error).ThrowAsJavaScriptException();
  }
}

const DynamicLibrary& NativeLibrary::OpenOrThrow(Napi::Env env) const {
  if (!library_) {
    Napi::Error error = Napi::Error::New(env, "library '" + path_ + "' is closed");
    error.Set("code", Napi::String::New(env, "KL_HANDLE_DESTROYED"));
    throw error;
  }
  return *library_;
}

Napi::Value NativeLibrary::Path(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), path_); }

Napi::Value NativeLibrary::IsOpen(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), library_ != nullptr);
}

static std::string SymbolNameArgument(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsString()) {
    throw ArgumentError(info.Env(), "symbol name must be a string");
  }
  return info[0].As<Napi::String>().Utf8Value();
}

Napi::Value NativeLibrary::SymbolAddress(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::string name = SymbolNameArgument(info);
  void* symbol = OpenOrThrow(env).FindSymbol(name.c_str());
  if (symbol == nullptr) return env.Null();
  return Napi::BigInt::New(env, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(symbol)));
}

Napi::Value NativeLibrary::RequireSymbolAddress(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::string name = SymbolNameArgument(info);
  try {
    void* symbol = OpenOrThrow(env).RequireSymbol(name.c_str());
    return Napi::BigInt::New(env, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(symbol)));
  } catch (const LibraryError& error) {
    throw LibraryErrorToJs(env, error);
  }
}

Napi::Value NativeLibrary::Close(const Napi::CallbackInfo& info) {
  library_.reset();
  return info.Env().Undefined();
}

}  // namespace kl::napi
