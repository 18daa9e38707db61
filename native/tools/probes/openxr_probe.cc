#include "tools/probes/openxr_probe.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/dynamic_library.h"
#include "common/two_call.h"
#include "addon/errors.h"
#include "openxr/loader/api_layer_negotiation.h"
#include "openxr/loader/runtime_negotiation.h"

namespace kl::napi {

namespace {

std::string RequiredString(Napi::Env env, Napi::Object o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsString()) throw ArgumentError(env, std::string("'") + key + "' must be a string");
  return v.As<Napi::String>().Utf8Value();
}

std::string OptionalString(Napi::Env env, Napi::Object o, const char* key, const char* fallback) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return fallback;
  if (!v.IsString()) throw ArgumentError(env, std::string("'") + key + "' must be a string");
  return v.As<Napi::String>().Utf8Value();
}

Napi::Object ArgumentObject(const Napi::CallbackInfo& info, const char* usage) {
  if (info.Length() < 1 || !info[0].IsObject()) throw ArgumentError(info.Env(), usage);
  return info[0].As<Napi::Object>();
}

Napi::Object Failure(Napi::Env env, const char* stage, const std::string& reason) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("ok", false);
  out.Set("stage", stage);
  out.Set("reason", reason);
  return out;
}

// NegotiateRuntime / NegotiateApiLayer say "<what> (<paths>) rejected: <why>"; the report already
// names the component and its files, so keep the why.
std::string RejectionReason(const std::string& message) {
  static const std::string kMarker = " rejected: ";
  const auto at = message.find(kMarker);
  return at == std::string::npos ? message : message.substr(at + kMarker.size());
}

// Opens the library and checks the negotiate symbol: the first two stages, told apart from
// negotiation itself. Returns the failure object, or an empty object when both passed (the
// library then stays open through `library`, so negotiation reuses the same handle).
Napi::Object OpenAndFind(Napi::Env env, const std::string& path, const std::string& symbol,
                         std::shared_ptr<DynamicLibrary>& library) {
  try {
    library = DynamicLibrary::Open(path);
  } catch (const LibraryError& e) {
    return Failure(env, "load", e.reason());
  }
  if (library->FindSymbol(symbol.c_str()) == nullptr) {
    Napi::Object out = Failure(env, "symbol", "the library does not export " + symbol);
    out.Set("symbol", symbol);
    return out;
  }
  return Napi::Object();
}

Napi::Object Success(Napi::Env env, uint32_t interfaceVersion, XrVersion apiVersion) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("ok", true);
  out.Set("stage", "negotiate");
  out.Set("reason", "negotiated");
  out.Set("interfaceVersion", Napi::Number::New(env, interfaceVersion));
  out.Set("apiVersion", openxr::VersionString(apiVersion));
  return out;
}

// The runtime's own instance extensions (XR_NULL_HANDLE, null layer name), for the report.
void AddRuntimeExtensions(Napi::Env env, Napi::Object out, PFN_xrGetInstanceProcAddr getInstanceProcAddr) {
  PFN_xrVoidFunction f = nullptr;
  const XrResult lookup = getInstanceProcAddr(XR_NULL_HANDLE, "xrEnumerateInstanceExtensionProperties", &f);
  if (XR_FAILED(lookup) || f == nullptr) {
    out.Set("extensionsError", "getInstanceProcAddr(XR_NULL_HANDLE, \"xrEnumerateInstanceExtensionProperties\") returned " +
                                   std::to_string(lookup) + (f == nullptr ? " and no function" : ""));
    return;
  }
  auto enumerate = reinterpret_cast<PFN_xrEnumerateInstanceExtensionProperties>(f);
  std::vector<XrExtensionProperties> props;
  const XrResult r = EnumerateTwoCall(props, XrExtensionProperties{XR_TYPE_EXTENSION_PROPERTIES, nullptr, {}, 0}, XR_ERROR_SIZE_INSUFFICIENT,
                                      [&](uint32_t capacity, uint32_t* count, XrExtensionProperties* into) {
                                        return enumerate(nullptr, capacity, count, into);
                                      });
  if (XR_FAILED(r)) {
    out.Set("extensionsError", "xrEnumerateInstanceExtensionProperties returned " + std::to_string(r));
    return;
  }
  Napi::Array list = Napi::Array::New(env, props.size());
  for (uint32_t i = 0; i < props.size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    // Bounded: a runtime that forgets the terminator must not make us read past the array.
    const char* name = props[i].extensionName;
    e.Set("extensionName", std::string(name, strnlen(name, XR_MAX_EXTENSION_NAME_SIZE)));
    e.Set("extensionVersion", Napi::Number::New(env, props[i].extensionVersion));
    list.Set(i, e);
  }
  out.Set("extensions", list);
}

// Creates an instance directly on the runtime (no layers) for what only an instance tells:
// XrInstanceProperties (the runtime's own name and version). `runtimes --check` asks for it.
class ProbeInstance {
 public:
  ProbeInstance(PFN_xrGetInstanceProcAddr getInstanceProcAddr, XrInstance instance) : gipa_(getInstanceProcAddr), instance_(instance) {}
  ProbeInstance(const ProbeInstance&) = delete;
  ProbeInstance& operator=(const ProbeInstance&) = delete;
  ~ProbeInstance() {
    PFN_xrVoidFunction f = nullptr;
    if (XR_SUCCEEDED(gipa_(instance_, "xrDestroyInstance", &f)) && f != nullptr) reinterpret_cast<PFN_xrDestroyInstance>(f)(instance_);
  }
  XrInstance get() const noexcept { return instance_; }

 private:
  PFN_xrGetInstanceProcAddr gipa_;
  XrInstance instance_;
};

void CopyName(char* out, size_t size, const char* text) {
  std::strncpy(out, text, size - 1);
  out[size - 1] = '\0';
}

void AddInstanceProperties(Napi::Object out, PFN_xrGetInstanceProcAddr getInstanceProcAddr, XrVersion apiVersion) {
  PFN_xrVoidFunction f = nullptr;
  XrResult r = getInstanceProcAddr(XR_NULL_HANDLE, "xrCreateInstance", &f);
  if (XR_FAILED(r) || f == nullptr) {
    out.Set("instanceError", "getInstanceProcAddr(XR_NULL_HANDLE, \"xrCreateInstance\") returned " + std::to_string(r) + (f == nullptr ? " and no function" : ""));
    return;
  }
  XrInstanceCreateInfo info{};
  info.type = XR_TYPE_INSTANCE_CREATE_INFO;
  CopyName(info.applicationInfo.applicationName, XR_MAX_APPLICATION_NAME_SIZE, "khronos-loader runtime check");
  info.applicationInfo.applicationVersion = 1;
  CopyName(info.applicationInfo.engineName, XR_MAX_ENGINE_NAME_SIZE, "khronos-loader");
  // The version the runtime negotiated, patch dropped (as an application built for it would ask).
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(XR_VERSION_MAJOR(apiVersion), XR_VERSION_MINOR(apiVersion), 0);
  XrInstance handle = XR_NULL_HANDLE;
  r = reinterpret_cast<PFN_xrCreateInstance>(f)(&info, &handle);
  if (XR_FAILED(r) || handle == XR_NULL_HANDLE) {
    out.Set("instanceError", "xrCreateInstance returned " + std::to_string(r));
    return;
  }
  ProbeInstance instance(getInstanceProcAddr, handle);
  f = nullptr;
  r = getInstanceProcAddr(instance.get(), "xrGetInstanceProperties", &f);
  if (XR_FAILED(r) || f == nullptr) {
    out.Set("instanceError", "getInstanceProcAddr(instance, \"xrGetInstanceProperties\") returned " + std::to_string(r) + (f == nullptr ? " and no function" : ""));
    return;
  }
  XrInstanceProperties props{};
  props.type = XR_TYPE_INSTANCE_PROPERTIES;
  r = reinterpret_cast<PFN_xrGetInstanceProperties>(f)(instance.get(), &props);
  if (XR_FAILED(r)) {
    out.Set("instanceError", "xrGetInstanceProperties returned " + std::to_string(r));
    return;
  }
  // Bounded, as for extension names.
  out.Set("runtimeName", std::string(props.runtimeName, strnlen(props.runtimeName, XR_MAX_RUNTIME_NAME_SIZE)));
  out.Set("runtimeVersion", openxr::VersionString(props.runtimeVersion));
}

}  // namespace

Napi::Value OpenXrProbeRuntime(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object args = ArgumentObject(info, "openxrProbeRuntime({ libraryPath, negotiateFunctionName?, createInstance? })");
  openxr::RuntimeDescription runtime;
  runtime.libraryPath = RequiredString(env, args, "libraryPath");
  runtime.manifestPath = OptionalString(env, args, "manifestPath", "");
  runtime.negotiateFunctionName = OptionalString(env, args, "negotiateFunctionName", "xrNegotiateLoaderRuntimeInterface");
  const Napi::Value createInstance = args.Get("createInstance");
  if (!createInstance.IsUndefined() && !createInstance.IsBoolean()) throw ArgumentError(env, "'createInstance' must be a boolean");

  std::shared_ptr<DynamicLibrary> library;
  Napi::Object failed = OpenAndFind(env, runtime.libraryPath, runtime.negotiateFunctionName, library);
  if (!failed.IsEmpty()) return failed;
  openxr::NegotiatedRuntime negotiated;
  try {
    negotiated = openxr::NegotiateRuntime(runtime);
  } catch (const openxr::XrError& e) {
    return Failure(env, "negotiate", RejectionReason(e.what()));
  }
  Napi::Object out = Success(env, negotiated.interfaceVersion, negotiated.apiVersion);
  AddRuntimeExtensions(env, out, negotiated.getInstanceProcAddr);
  if (createInstance.IsBoolean() && createInstance.As<Napi::Boolean>().Value()) AddInstanceProperties(out, negotiated.getInstanceProcAddr, negotiated.apiVersion);
  return out;
}

Napi::Value OpenXrProbeApiLayer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object args = ArgumentObject(info, "openxrProbeApiLayer({ name, libraryPath, negotiateFunctionName? })");
  openxr::ApiLayerDescription layer;
  layer.name = RequiredString(env, args, "name");
  layer.libraryPath = RequiredString(env, args, "libraryPath");
  layer.manifestPath = OptionalString(env, args, "manifestPath", "");
  layer.negotiateFunctionName = OptionalString(env, args, "negotiateFunctionName", "xrNegotiateLoaderApiLayerInterface");
  // A probe is not an instance: a failure is logged as a warning, not as an instance-breaking error.
  layer.required = false;

  std::shared_ptr<DynamicLibrary> library;
  Napi::Object failed = OpenAndFind(env, layer.libraryPath, layer.negotiateFunctionName, library);
  if (!failed.IsEmpty()) return failed;
  openxr::NegotiatedApiLayer negotiated;
  try {
    negotiated = openxr::NegotiateApiLayer(layer);
  } catch (const openxr::XrError& e) {
    return Failure(env, "negotiate", RejectionReason(e.what()));
  }
  return Success(env, negotiated.interfaceVersion, negotiated.apiVersion);
}

}  // namespace kl::napi
