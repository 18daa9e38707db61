#include "openxr/addon/openxr.h"

#include <cstring>
#include <string>
#include <vector>

#include "addon/arguments.h"
#include "addon/errors.h"
#include "openxr/loader/instance_registry.h"
#include "openxr/loader/published_plan.h"
#include "openxr/loader/trampolines.h"

namespace kl::napi {

namespace {

uint64_t GetBigUint(Napi::Env env, Napi::Object o, const char* key, uint64_t fallback) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return fallback;
  if (v.IsBigInt()) {
    bool lossless = true;
    return v.As<Napi::BigInt>().Uint64Value(&lossless);
  }
  if (v.IsNumber()) return static_cast<uint64_t>(v.As<Napi::Number>().Int64Value());
  throw ArgumentError(env, std::string("'") + key + "' must be a bigint or a number");
}

openxr::RuntimeDescription ReadRuntime(Napi::Env env, Napi::Value v) {
  if (!v.IsObject()) throw ArgumentError(env, "plan.runtime must be an object");
  Napi::Object o = v.As<Napi::Object>();
  openxr::RuntimeDescription r;
  r.libraryPath = GetString(env, o, "libraryPath");
  r.manifestPath = GetString(env, o, "manifestPath", "");
  r.negotiateFunctionName = GetString(env, o, "negotiateFunctionName", "xrNegotiateLoaderRuntimeInterface");
  return r;
}

openxr::InstancePlan ReadPlan(Napi::Env env, Napi::Value v) {
  if (!v.IsObject()) throw ArgumentError(env, "plan must be an object");
  Napi::Object o = v.As<Napi::Object>();
  openxr::InstancePlan plan;
  plan.runtime = ReadRuntime(env, o.Get("runtime"));
  Napi::Value layers = o.Get("apiLayers");
  if (!layers.IsUndefined()) {
    if (!layers.IsArray()) throw ArgumentError(env, "plan.apiLayers must be an array");
    Napi::Array a = layers.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) {
      if (!a.Get(i).IsObject()) throw ArgumentError(env, "plan.apiLayers entries must be objects");
      Napi::Object l = a.Get(i).As<Napi::Object>();
      openxr::ApiLayerDescription d;
      d.name = GetString(env, l, "name");
      d.libraryPath = GetString(env, l, "libraryPath");
      d.manifestPath = GetString(env, l, "manifestPath", "");
      d.negotiateFunctionName = GetString(env, l, "negotiateFunctionName", "xrNegotiateLoaderApiLayerInterface");
      Napi::Value required = l.Get("required");
      d.required = required.IsBoolean() ? required.As<Napi::Boolean>().Value() : true;
      plan.layers.push_back(std::move(d));
    }
  }
  return plan;
}

void CopyName(char* out, std::size_t size, const std::string& value) {
  std::strncpy(out, value.c_str(), size - 1);
  out[size - 1] = '\0';
}

// A name the fixed-size char array of XrApplicationInfo cannot hold as given (too many UTF-8 bytes
// for it and its terminator, or an embedded NUL that would cut it short) is refused with
// XR_ERROR_NAME_INVALID before anything loads, never silently truncated.
void CopyApplicationInfoName(Napi::Env env, char* out, std::size_t size, const std::string& value, const char* field, const char* limit) {
  if (value.size() > size - 1) {
    throw XrErrorToJs(env, XR_ERROR_NAME_INVALID, std::string(field) + " is " + std::to_string(value.size()) +
                                                      " bytes in UTF-8; XrApplicationInfo holds at most " + std::to_string(size - 1) + " (" + limit + " - 1)");
  }
  if (value.find('\0') != std::string::npos) throw XrErrorToJs(env, XR_ERROR_NAME_INVALID, std::string(field) + " contains a NUL character");
  std::memcpy(out, value.c_str(), value.size() + 1);
}

// Messages a messenger chained into XrInstanceCreateInfo.next receives during creation; handed
// to the JavaScript callback once the native call returns.
struct CollectedMessage {
  XrDebugUtilsMessageSeverityFlagsEXT severity;
  XrDebugUtilsMessageTypeFlagsEXT types;
  std::string messageId, functionName, message;
};

XRAPI_ATTR XrBool32 XRAPI_CALL CollectMessage(XrDebugUtilsMessageSeverityFlagsEXT severity, XrDebugUtilsMessageTypeFlagsEXT types,
                                              const XrDebugUtilsMessengerCallbackDataEXT* data, void* userData) {
  auto* out = static_cast<std::vector<CollectedMessage>*>(userData);
  out->push_back({severity, types, data->messageId ? data->messageId : "", data->functionName ? data->functionName : "",
                  data->message ? data->message : ""});
  return XR_FALSE;
}

Napi::Object MessageToJs(Napi::Env env, const CollectedMessage& m) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("severity", Napi::Number::New(env, static_cast<double>(m.severity)));
  o.Set("types", Napi::Number::New(env, static_cast<double>(m.types)));
  o.Set("messageId", m.messageId);
  o.Set("functionName", m.functionName);
  o.Set("message", m.message);
  return o;
}

void DeliverCollected(Napi::Env env, Napi::Value callback, const std::vector<CollectedMessage>& messages) {
  if (!callback.IsFunction()) return;
  Napi::Function fn = callback.As<Napi::Function>();
  for (const auto& m : messages) fn.Call({MessageToJs(env, m)});
}

XRAPI_ATTR XrBool32 XRAPI_CALL QueueMessage(XrDebugUtilsMessageSeverityFlagsEXT severity, XrDebugUtilsMessageTypeFlagsEXT types,
                                            const XrDebugUtilsMessengerCallbackDataEXT* data, void* userData) {
  auto* tsfn = static_cast<Napi::ThreadSafeFunction*>(userData);
  auto copy = std::make_unique<CollectedMessage>(CollectedMessage{severity, types, data->messageId ? data->messageId : "",
                                                                  data->functionName ? data->functionName : "",
                                                                  data->message ? data->message : ""});
  const napi_status status = tsfn->NonBlockingCall(copy.get(), [](Napi::Env env, Napi::Function fn, CollectedMessage* m) {
    std::unique_ptr<CollectedMessage> owned(m);
    if (env != nullptr && fn != nullptr) fn.Call({MessageToJs(env, *owned)});
  });
  if (status == napi_ok) copy.release();
  return XR_FALSE;
}

}  // namespace

Napi::Function OpenXrInstance::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrInstance",
                     {
                         InstanceMethod<&OpenXrInstance::GetInstanceProcAddr>("getInstanceProcAddr"),
                         InstanceMethod<&OpenXrInstance::GetProperties>("getProperties"),
                         InstanceMethod<&OpenXrInstance::Destroy>("destroy"),
                         InstanceAccessor<&OpenXrInstance::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&OpenXrInstance::Handle>("handle"),
                         InstanceAccessor<&OpenXrInstance::LayerNames>("apiLayerNames"),
                         InstanceMethod<&OpenXrInstance::CreateDebugUtilsMessenger>("createDebugUtilsMessenger"),
                         InstanceMethod<&OpenXrInstance::DestroyDebugUtilsMessenger>("destroyDebugUtilsMessenger"),
                         InstanceMethod<&OpenXrInstance::SubmitDebugUtilsMessage>("submitDebugUtilsMessage"),
                     });
}

OpenXrInstance::OpenXrInstance(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrInstance>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsObject()) throw ArgumentError(env, "new OpenXrInstance(plan, createInfo)");
  openxr::InstancePlan plan = ReadPlan(env, info[0]);
  Napi::Object ci = info[1].As<Napi::Object>();
  const std::string applicationName = GetString(env, ci, "applicationName");
  const std::string engineName = GetString(env, ci, "engineName", "");
  const std::vector<std::string> layers = GetStrings(env, ci, "enabledApiLayerNames");
  const std::vector<std::string> extensions = GetStrings(env, ci, "enabledExtensionNames");
  std::vector<const char*> layerPtrs, extensionPtrs;
  for (const auto& s : layers) layerPtrs.push_back(s.c_str());
  for (const auto& s : extensions) extensionPtrs.push_back(s.c_str());

  XrInstanceCreateInfo createInfo{};
  createInfo.type = XR_TYPE_INSTANCE_CREATE_INFO;
  CopyApplicationInfoName(env, createInfo.applicationInfo.applicationName, XR_MAX_APPLICATION_NAME_SIZE, applicationName, "applicationName", "XR_MAX_APPLICATION_NAME_SIZE");
  CopyApplicationInfoName(env, createInfo.applicationInfo.engineName, XR_MAX_ENGINE_NAME_SIZE, engineName, "engineName", "XR_MAX_ENGINE_NAME_SIZE");
  createInfo.applicationInfo.applicationVersion = static_cast<uint32_t>(GetBigUint(env, ci, "applicationVersion", 0));
  createInfo.applicationInfo.engineVersion = static_cast<uint32_t>(GetBigUint(env, ci, "engineVersion", 0));
  createInfo.applicationInfo.apiVersion = GetBigUint(env, ci, "apiVersion", XR_API_VERSION_1_0);
  createInfo.enabledApiLayerCount = static_cast<uint32_t>(layerPtrs.size());
  createInfo.enabledApiLayerNames = layerPtrs.empty() ? nullptr : layerPtrs.data();
  createInfo.enabledExtensionCount = static_cast<uint32_t>(extensionPtrs.size());
  createInfo.enabledExtensionNames = extensionPtrs.empty() ? nullptr : extensionPtrs.data();

  // A JavaScript debugMessenger becomes an XrDebugUtilsMessengerCreateInfoEXT in the next chain.
  std::vector<CollectedMessage> collected;
  Napi::Value messengerCallback = ci.Get("debugMessenger");
  XrDebugUtilsMessengerCreateInfoEXT messenger{};
  if (messengerCallback.IsFunction()) {
    messenger.type = XR_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger.messageSeverities = XR_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | XR_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                                  XR_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | XR_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageTypes = XR_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | XR_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                             XR_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT | XR_DEBUG_UTILS_MESSAGE_TYPE_CONFORMANCE_BIT_EXT;
    messenger.userCallback = CollectMessage;
    messenger.userData = &collected;
    createInfo.next = &messenger;
  }
  try {
    instance_ = openxr::LoaderInstance::Create(plan, createInfo);
  } catch (const openxr::XrError& e) {
    DeliverCollected(env, messengerCallback, collected);
    throw XrErrorToJs(env, e.result(), e.what());
  }
  DeliverCollected(env, messengerCallback, collected);
}

openxr::LoaderInstance& OpenXrInstance::Live(Napi::Env env) const {
  if (!instance_ || instance_->destroyed()) {
    Napi::Error error = XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "the OpenXR instance has been destroyed");
    error.Set("code", Napi::String::New(env, "KL_HANDLE_DESTROYED"));
    throw error;
  }
  return *instance_;
}

openxr::LoaderInstance& OpenXrInstance::LiveInstance(Napi::Env env, Napi::Value value) {
  if (!value.IsObject()) throw ArgumentError(env, "expected an OpenXrInstance");
  OpenXrInstance* self = Napi::ObjectWrap<OpenXrInstance>::Unwrap(value.As<Napi::Object>());
  if (self == nullptr) throw ArgumentError(env, "expected an OpenXrInstance");
  return self->Live(env);
}

std::shared_ptr<openxr::LoaderInstance> OpenXrInstance::LiveInstanceShared(Napi::Env env, Napi::Value value) {
  LiveInstance(env, value);  // throws unless a live OpenXrInstance
  return Napi::ObjectWrap<OpenXrInstance>::Unwrap(value.As<Napi::Object>())->instance_;
}

Napi::Value OpenXrInstance::GetInstanceProcAddr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "getInstanceProcAddr(name: string)");
  const std::string name = info[0].As<Napi::String>().Utf8Value();
  PFN_xrVoidFunction fn = nullptr;
  const XrResult r = Live(env).GetInstanceProcAddr(name.c_str(), &fn);
  if (XR_FAILED(r) || fn == nullptr) {
    throw XrErrorToJs(env, XR_FAILED(r) ? r : XR_ERROR_FUNCTION_UNSUPPORTED, "xrGetInstanceProcAddr(\"" + name + "\") failed");
  }
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<std::uintptr_t>(fn)));
}

Napi::Value OpenXrInstance::GetProperties(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  openxr::LoaderInstance& li = Live(env);
  if (li.table.GetInstanceProperties == nullptr) throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, "xrGetInstanceProperties is not available");
  XrInstanceProperties props{};
  props.type = XR_TYPE_INSTANCE_PROPERTIES;
  const XrResult r = li.table.GetInstanceProperties(li.handle(), &props);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrGetInstanceProperties failed");
  Napi::Object o = Napi::Object::New(env);
  o.Set("runtimeName", std::string(props.runtimeName));
  o.Set("runtimeVersion", Napi::BigInt::New(env, static_cast<uint64_t>(props.runtimeVersion)));
  return o;
}

void OpenXrInstance::DestroyJsMessengers() {
  for (auto& m : jsMessengers_) {
    if (instance_ && !instance_->destroyed() && instance_->table.DestroyDebugUtilsMessengerEXT != nullptr) {
      instance_->table.DestroyDebugUtilsMessengerEXT(m->handle);
    }
    m->tsfn.Release();
  }
  jsMessengers_.clear();
}

OpenXrInstance::~OpenXrInstance() { DestroyJsMessengers(); }

Napi::Value OpenXrInstance::CreateDebugUtilsMessenger(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsFunction() || !info[1].IsNumber() || !info[2].IsNumber()) {
    throw ArgumentError(env, "createDebugUtilsMessenger(callback, severities: number, types: number)");
  }
  openxr::LoaderInstance& li = Live(env);
  if (li.table.CreateDebugUtilsMessengerEXT == nullptr) {
    throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, "xrCreateDebugUtilsMessengerEXT is not available (enable XR_EXT_debug_utils)");
  }
  auto m = std::make_unique<JsMessenger>();
  m->tsfn = Napi::ThreadSafeFunction::New(env, info[0].As<Napi::Function>(), "khronos-loader debug utils", 0, 1);
  m->tsfn.Unref(env);  // a messenger does not keep the process alive
  XrDebugUtilsMessengerCreateInfoEXT ci{};
  ci.type = XR_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  ci.messageSeverities = info[1].As<Napi::Number>().Uint32Value();
  ci.messageTypes = info[2].As<Napi::Number>().Uint32Value();
  ci.userCallback = QueueMessage;
  ci.userData = &m->tsfn;
  const XrResult r = li.table.CreateDebugUtilsMessengerEXT(li.handle(), &ci, &m->handle);
  if (XR_FAILED(r)) {
    m->tsfn.Release();
    throw XrErrorToJs(env, r, "xrCreateDebugUtilsMessengerEXT failed");
  }
  const uint64_t handle = openxr::HandleValue(m->handle);
  jsMessengers_.push_back(std::move(m));
  return Napi::BigInt::New(env, handle);
}

Napi::Value OpenXrInstance::DestroyDebugUtilsMessenger(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsBigInt()) throw ArgumentError(env, "destroyDebugUtilsMessenger(handle: bigint)");
  openxr::LoaderInstance& li = Live(env);
  bool lossless = true;
  const uint64_t handle = info[0].As<Napi::BigInt>().Uint64Value(&lossless);
  for (auto it = jsMessengers_.begin(); it != jsMessengers_.end(); ++it) {
    if (openxr::HandleValue((*it)->handle) != handle) continue;
    const XrResult r = li.table.DestroyDebugUtilsMessengerEXT((*it)->handle);
    (*it)->tsfn.Release();
    jsMessengers_.erase(it);
    if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrDestroyDebugUtilsMessengerEXT failed");
    return env.Undefined();
  }
  throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "no such debug utils messenger on this instance");
}

Napi::Value OpenXrInstance::SubmitDebugUtilsMessage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsNumber() || !info[1].IsNumber() || !info[2].IsString()) {
    throw ArgumentError(env, "submitDebugUtilsMessage(severity: number, types: number, message: string)");
  }
  openxr::LoaderInstance& li = Live(env);
  if (li.table.SubmitDebugUtilsMessageEXT == nullptr) {
    throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, "xrSubmitDebugUtilsMessageEXT is not available (enable XR_EXT_debug_utils)");
  }
  const std::string message = info[2].As<Napi::String>().Utf8Value();
  XrDebugUtilsMessengerCallbackDataEXT data{};
  data.type = XR_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.messageId = "application";
  data.functionName = "xrSubmitDebugUtilsMessageEXT";
  data.message = message.c_str();
  const XrResult r = li.table.SubmitDebugUtilsMessageEXT(li.handle(), info[0].As<Napi::Number>().Uint32Value(),
                                                         info[1].As<Napi::Number>().Uint32Value(), &data);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrSubmitDebugUtilsMessageEXT failed");
  return env.Undefined();
}

Napi::Value OpenXrInstance::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Live(env);
  // Messengers are children of the instance: they go with it, after hearing its teardown.
  const XrResult r = instance_->Destroy();
  DestroyJsMessengers();
  instance_.reset();
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrDestroyInstance failed");
  return env.Undefined();
}

Napi::Value OpenXrInstance::IsDestroyed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), !instance_ || instance_->destroyed());
}

Napi::Value OpenXrInstance::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::BigInt::New(env, openxr::HandleValue(Live(env).handle()));
}

Napi::Value OpenXrInstance::LayerNames(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& names = Live(env).layerNames();
  Napi::Array a = Napi::Array::New(env, names.size());
  for (uint32_t i = 0; i < names.size(); ++i) a.Set(i, names[i]);
  return a;
}

Napi::Value OpenXrGetInstanceProcAddr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsBigInt() || !info[1].IsString()) {
    throw ArgumentError(env, "openxrGetInstanceProcAddr(instance: bigint, name: string)");
  }
  bool lossless = true;
  const uint64_t handle = info[0].As<Napi::BigInt>().Uint64Value(&lossless);
  const std::string name = info[1].As<Napi::String>().Utf8Value();
  PFN_xrVoidFunction fn = nullptr;
  const XrResult r = ::xrGetInstanceProcAddr(reinterpret_cast<XrInstance>(static_cast<std::uintptr_t>(handle)), name.c_str(), &fn);
  if (XR_FAILED(r) || fn == nullptr) {
    throw XrErrorToJs(env, XR_FAILED(r) ? r : XR_ERROR_FUNCTION_UNSUPPORTED, "xrGetInstanceProcAddr(\"" + name + "\") failed");
  }
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<std::uintptr_t>(fn)));
}

namespace {

std::vector<XrExtensionProperties> ReadExtensions(Napi::Env env, Napi::Value v, const std::string& what) {
  if (!v.IsArray()) throw ArgumentError(env, what + " must be an array");
  Napi::Array a = v.As<Napi::Array>();
  std::vector<XrExtensionProperties> out;
  for (uint32_t i = 0; i < a.Length(); ++i) {
    if (!a.Get(i).IsObject()) throw ArgumentError(env, what + " entries must be objects");
    Napi::Object e = a.Get(i).As<Napi::Object>();
    XrExtensionProperties p{XR_TYPE_EXTENSION_PROPERTIES, nullptr, {}, 0};
    CopyName(p.extensionName, XR_MAX_EXTENSION_NAME_SIZE, GetString(env, e, "name"));
    p.extensionVersion = static_cast<uint32_t>(GetBigUint(env, e, "extensionVersion", 0));
    out.push_back(p);
  }
  return out;
}

void ReadLists(Napi::Env env, Napi::Object lists, openxr::PublishedPlan& plan) {
  Napi::Value layers = lists.Get("apiLayerProperties");
  if (!layers.IsArray()) throw ArgumentError(env, "lists.apiLayerProperties must be an array");
  Napi::Array a = layers.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); ++i) {
    if (!a.Get(i).IsObject()) throw ArgumentError(env, "lists.apiLayerProperties entries must be objects");
    Napi::Object l = a.Get(i).As<Napi::Object>();
    XrApiLayerProperties p{XR_TYPE_API_LAYER_PROPERTIES, nullptr, {}, 0, 0, {}};
    CopyName(p.layerName, XR_MAX_API_LAYER_NAME_SIZE, GetString(env, l, "layerName"));
    p.specVersion = GetBigUint(env, l, "specVersion", 0);
    p.layerVersion = static_cast<uint32_t>(GetBigUint(env, l, "layerVersion", 0));
    CopyName(p.description, XR_MAX_API_LAYER_DESCRIPTION_SIZE, GetString(env, l, "description", ""));
    plan.apiLayers.push_back(p);
  }
  plan.extensions = ReadExtensions(env, lists.Get("instanceExtensions"), "lists.instanceExtensions");
  Napi::Value perLayer = lists.Get("layerExtensions");
  if (!perLayer.IsObject()) throw ArgumentError(env, "lists.layerExtensions must be an object");
  Napi::Object o = perLayer.As<Napi::Object>();
  Napi::Array names = o.GetPropertyNames();
  for (uint32_t i = 0; i < names.Length(); ++i) {
    const std::string name = names.Get(i).As<Napi::String>().Utf8Value();
    plan.layerExtensions.emplace_back(name, ReadExtensions(env, o.Get(name), "lists.layerExtensions." + name));
  }
  plan.hasLists = true;
}

}  // namespace

Napi::Value OpenXrPublishPlan(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  openxr::PublishedPlan plan;
  plan.instance = ReadPlan(env, info.Length() > 0 ? info[0] : env.Undefined());
  if (info.Length() > 1 && !info[1].IsUndefined()) {
    if (!info[1].IsObject()) throw ArgumentError(env, "lists must be an object");
    ReadLists(env, info[1].As<Napi::Object>(), plan);
  }
  openxr::PublishedPlans::Get().Publish(std::make_shared<const openxr::PublishedPlan>(std::move(plan)));
  return env.Undefined();
}

Napi::Value OpenXrRuntimeExtensions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1) throw ArgumentError(env, "openxrRuntimeExtensions(runtime)");
  const openxr::RuntimeDescription runtime = ReadRuntime(env, info[0]);
  openxr::NegotiatedRuntime negotiated;
  try {
    negotiated = openxr::NegotiateRuntime(runtime);
  } catch (const openxr::XrError& e) {
    throw XrErrorToJs(env, e.result(), e.what());
  }
  PFN_xrVoidFunction f = nullptr;
  if (XR_FAILED(negotiated.getInstanceProcAddr(XR_NULL_HANDLE, "xrEnumerateInstanceExtensionProperties", &f)) || f == nullptr) {
    throw XrErrorToJs(env, XR_ERROR_RUNTIME_FAILURE, "the runtime does not provide xrEnumerateInstanceExtensionProperties");
  }
  auto enumerate = reinterpret_cast<PFN_xrEnumerateInstanceExtensionProperties>(f);
  uint32_t count = 0;
  XrResult r = enumerate(nullptr, 0, &count, nullptr);
  std::vector<XrExtensionProperties> props(count, XrExtensionProperties{XR_TYPE_EXTENSION_PROPERTIES, nullptr, {}, 0});
  if (XR_SUCCEEDED(r)) r = enumerate(nullptr, count, &count, props.data());
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "the runtime's xrEnumerateInstanceExtensionProperties failed");
  Napi::Array out = Napi::Array::New(env, count);
  for (uint32_t i = 0; i < count; ++i) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("extensionName", std::string(props[i].extensionName));
    o.Set("extensionVersion", Napi::Number::New(env, props[i].extensionVersion));
    out.Set(i, o);
  }
  return out;
}

}  // namespace kl::napi
