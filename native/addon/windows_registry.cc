#include "addon/windows_registry.h"

#ifdef _WIN32

#include "common/windows_headers.h"

#include <cstring>

#include "common/windows_registry.h"
#include "addon/errors.h"

namespace kl::napi {

namespace {

Napi::Value ValueData(Napi::Env env, const windows::RegistryValueData& value) {
  switch (value.type) {
    case REG_SZ:
    case REG_EXPAND_SZ:
      return Napi::String::New(env, windows::RegistryString(value.bytes));
    case REG_MULTI_SZ: {
      const auto strings = windows::RegistryMultiString(value.bytes);
      Napi::Array array = Napi::Array::New(env, strings.size());
      for (std::size_t i = 0; i < strings.size(); ++i) array.Set(static_cast<std::uint32_t>(i), Napi::String::New(env, strings[i]));
      return array;
    }
    case REG_DWORD:
      if (value.bytes.size() >= sizeof(std::uint32_t)) {
        std::uint32_t number = 0;
        std::memcpy(&number, value.bytes.data(), sizeof number);
        return Napi::Number::New(env, number);
      }
      break;
    case REG_QWORD:
      if (value.bytes.size() >= sizeof(std::uint64_t)) {
        std::uint64_t number = 0;
        std::memcpy(&number, value.bytes.data(), sizeof number);
        return Napi::Number::New(env, static_cast<double>(number));
      }
      break;
    default:
      break;
  }
  // Other types, and a DWORD or QWORD too short to be one: the bytes as stored.
  Napi::Uint8Array bytes = Napi::Uint8Array::New(env, value.bytes.size());
  if (!value.bytes.empty()) std::memcpy(bytes.Data(), value.bytes.data(), value.bytes.size());
  return bytes;
}

std::string ValueTypeName(const windows::RegistryValueData& value) {
  // A DWORD or QWORD whose data is too short is reported as the bytes it holds.
  if ((value.type == REG_DWORD && value.bytes.size() < 4) || (value.type == REG_QWORD && value.bytes.size() < 8)) return "REG_BINARY";
  return windows::RegistryTypeName(value.type);
}

Napi::Value ReadKey(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsString() || !info[1].IsString()) {
    throw ArgumentError(env, "windowsRegistryReadKey(hive: 'HKLM' | 'HKCU', key: string)");
  }
  const std::string hiveName = info[0].As<Napi::String>().Utf8Value();
  if (hiveName != "HKLM" && hiveName != "HKCU") throw ArgumentError(env, "windowsRegistryReadKey: hive must be 'HKLM' or 'HKCU', not '" + hiveName + "'");
  const auto hive = hiveName == "HKLM" ? windows::RegistryHive::LocalMachine : windows::RegistryHive::CurrentUser;
  std::optional<windows::RegistryKeyContents> contents;
  try {
    contents = windows::ReadRegistryKey(hive, info[1].As<Napi::String>().Utf8Value());
  } catch (const windows::RegistryError& error) {
    Napi::Error js = Napi::Error::New(env, error.what());
    js.Set("code", Napi::String::New(env, "KL_REGISTRY_ERROR"));
    throw js;
  }
  if (!contents) return env.Null();
  Napi::Array values = Napi::Array::New(env, contents->values.size());
  for (std::size_t i = 0; i < contents->values.size(); ++i) {
    const auto& value = contents->values[i];
    Napi::Object js = Napi::Object::New(env);
    js.Set("name", Napi::String::New(env, value.name));
    js.Set("type", Napi::String::New(env, ValueTypeName(value)));
    js.Set("data", ValueData(env, value));
    values.Set(static_cast<std::uint32_t>(i), js);
  }
  Napi::Array subkeys = Napi::Array::New(env, contents->subkeys.size());
  for (std::size_t i = 0; i < contents->subkeys.size(); ++i) subkeys.Set(static_cast<std::uint32_t>(i), Napi::String::New(env, contents->subkeys[i]));
  Napi::Object result = Napi::Object::New(env);
  result.Set("values", values);
  result.Set("subkeys", subkeys);
  return result;
}

Napi::Value HighIntegrity(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), windows::ProcessIsHighIntegrity()); }

}  // namespace

void RegisterWindowsRegistry(Napi::Env env, Napi::Object exports) {
  exports.Set("windowsRegistryReadKey", Napi::Function::New<ReadKey>(env, "windowsRegistryReadKey"));
  exports.Set("windowsHighIntegrity", Napi::Function::New<HighIntegrity>(env, "windowsHighIntegrity"));
}

}  // namespace kl::napi

#else

namespace kl::napi {

void RegisterWindowsRegistry(Napi::Env, Napi::Object) {}

}  // namespace kl::napi

#endif
