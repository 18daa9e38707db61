#include "openxr/addon/openxr_system.h"

#include <cstdint>
#include <ctime>
#include <vector>

#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

namespace {

XrSystemId SystemIdArgument(Napi::Env env, const Napi::CallbackInfo& info, std::size_t index) {
  if (info.Length() <= index || !info[index].IsBigInt()) throw ArgumentError(env, "systemId must be a bigint");
  bool lossless = true;
  return static_cast<XrSystemId>(info[index].As<Napi::BigInt>().Uint64Value(&lossless));
}

uint32_t NumberArgument(Napi::Env env, const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || !info[index].IsNumber()) throw ArgumentError(env, std::string(what) + " must be a number");
  return info[index].As<Napi::Number>().Uint32Value();
}

Napi::Value ToBigInt(Napi::Env env, uint64_t value) { return Napi::BigInt::New(env, value); }

Napi::Object EventObject(Napi::Env env, const XrEventDataBuffer& buffer) {
  Napi::Object o = Napi::Object::New(env);
  switch (buffer.type) {
    case XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED: {
      const auto& e = reinterpret_cast<const XrEventDataSessionStateChanged&>(buffer);
      o.Set("type", "sessionStateChanged");
      o.Set("session", ToBigInt(env, openxr::HandleValue(e.session)));
      o.Set("state", Napi::Number::New(env, e.state));
      o.Set("time", TimeToJs(env, e.time));
      break;
    }
    case XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING: {
      const auto& e = reinterpret_cast<const XrEventDataInstanceLossPending&>(buffer);
      o.Set("type", "instanceLossPending");
      o.Set("lossTime", TimeToJs(env, e.lossTime));
      break;
    }
    case XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED: {
      const auto& e = reinterpret_cast<const XrEventDataInteractionProfileChanged&>(buffer);
      o.Set("type", "interactionProfileChanged");
      o.Set("session", ToBigInt(env, openxr::HandleValue(e.session)));
      break;
    }
    case XR_TYPE_EVENT_DATA_EVENTS_LOST: {
      const auto& e = reinterpret_cast<const XrEventDataEventsLost&>(buffer);
      o.Set("type", "eventsLost");
      o.Set("lostEventCount", Napi::Number::New(env, e.lostEventCount));
      break;
    }
    case XR_TYPE_EVENT_DATA_REFERENCE_SPACE_CHANGE_PENDING: {
      const auto& e = reinterpret_cast<const XrEventDataReferenceSpaceChangePending&>(buffer);
      o.Set("type", "referenceSpaceChangePending");
      o.Set("session", ToBigInt(env, openxr::HandleValue(e.session)));
      o.Set("referenceSpaceType", Napi::Number::New(env, e.referenceSpaceType));
      o.Set("changeTime", TimeToJs(env, e.changeTime));
      o.Set("poseValid", Napi::Boolean::New(env, e.poseValid == XR_TRUE));
      break;
    }
    default:
      o.Set("type", "other");
      break;
  }
  o.Set("structureType", Napi::Number::New(env, buffer.type));
  return o;
}

}  // namespace

Napi::Value GetSystem(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  XrSystemGetInfo getInfo{XR_TYPE_SYSTEM_GET_INFO, nullptr, static_cast<XrFormFactor>(NumberArgument(env, info, 1, "formFactor"))};
  XrSystemId system = XR_NULL_SYSTEM_ID;
  Check(env, Need(env, li.table.GetSystem, "xrGetSystem")(li.handle(), &getInfo, &system), "xrGetSystem");
  return ToBigInt(env, system);
}

Napi::Value GetSystemProperties(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = SystemIdArgument(env, info, 1);
  XrSystemProperties p{};
  p.type = XR_TYPE_SYSTEM_PROPERTIES;
  Check(env, Need(env, li.table.GetSystemProperties, "xrGetSystemProperties")(li.handle(), system, &p), "xrGetSystemProperties");
  Napi::Object o = Napi::Object::New(env);
  o.Set("systemId", ToBigInt(env, p.systemId));
  o.Set("vendorId", Napi::Number::New(env, p.vendorId));
  o.Set("systemName", std::string(p.systemName));
  Napi::Object g = Napi::Object::New(env);
  g.Set("maxSwapchainImageWidth", Napi::Number::New(env, p.graphicsProperties.maxSwapchainImageWidth));
  g.Set("maxSwapchainImageHeight", Napi::Number::New(env, p.graphicsProperties.maxSwapchainImageHeight));
  g.Set("maxLayerCount", Napi::Number::New(env, p.graphicsProperties.maxLayerCount));
  o.Set("graphicsProperties", g);
  Napi::Object t = Napi::Object::New(env);
  t.Set("orientationTracking", Napi::Boolean::New(env, p.trackingProperties.orientationTracking == XR_TRUE));
  t.Set("positionTracking", Napi::Boolean::New(env, p.trackingProperties.positionTracking == XR_TRUE));
  o.Set("trackingProperties", t);
  return o;
}

Napi::Value EnumerateViewConfigurations(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = SystemIdArgument(env, info, 1);
  auto fn = Need(env, li.table.EnumerateViewConfigurations, "xrEnumerateViewConfigurations");
  return NumberArray(env, EnumerateTwoCall(env, "xrEnumerateViewConfigurations", XrViewConfigurationType{},
                                           [&](uint32_t capacity, uint32_t* count, XrViewConfigurationType* data) {
                                             return fn(li.handle(), system, capacity, count, data);
                                           }));
}

Napi::Value EnumerateViewConfigurationViews(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = SystemIdArgument(env, info, 1);
  const auto type = static_cast<XrViewConfigurationType>(NumberArgument(env, info, 2, "viewConfigurationType"));
  auto fn = Need(env, li.table.EnumerateViewConfigurationViews, "xrEnumerateViewConfigurationViews");
  const std::vector<XrViewConfigurationView> views = EnumerateTwoCall(
      env, "xrEnumerateViewConfigurationViews", XrViewConfigurationView{XR_TYPE_VIEW_CONFIGURATION_VIEW, nullptr, 0, 0, 0, 0, 0, 0},
      [&](uint32_t capacity, uint32_t* count, XrViewConfigurationView* data) { return fn(li.handle(), system, type, capacity, count, data); });
  Napi::Array a = Napi::Array::New(env, views.size());
  for (uint32_t i = 0; i < views.size(); ++i) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("recommendedImageRectWidth", Napi::Number::New(env, views[i].recommendedImageRectWidth));
    o.Set("maxImageRectWidth", Napi::Number::New(env, views[i].maxImageRectWidth));
    o.Set("recommendedImageRectHeight", Napi::Number::New(env, views[i].recommendedImageRectHeight));
    o.Set("maxImageRectHeight", Napi::Number::New(env, views[i].maxImageRectHeight));
    o.Set("recommendedSwapchainSampleCount", Napi::Number::New(env, views[i].recommendedSwapchainSampleCount));
    o.Set("maxSwapchainSampleCount", Napi::Number::New(env, views[i].maxSwapchainSampleCount));
    a.Set(i, o);
  }
  return a;
}

Napi::Value EnumerateEnvironmentBlendModes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = SystemIdArgument(env, info, 1);
  const auto type = static_cast<XrViewConfigurationType>(NumberArgument(env, info, 2, "viewConfigurationType"));
  auto fn = Need(env, li.table.EnumerateEnvironmentBlendModes, "xrEnumerateEnvironmentBlendModes");
  return NumberArray(env, EnumerateTwoCall(env, "xrEnumerateEnvironmentBlendModes", XrEnvironmentBlendMode{},
                                           [&](uint32_t capacity, uint32_t* count, XrEnvironmentBlendMode* data) {
                                             return fn(li.handle(), system, type, capacity, count, data);
                                           }));
}

Napi::Value StringToPath(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  if (info.Length() < 2 || !info[1].IsString()) throw ArgumentError(env, "path must be a string");
  const std::string text = info[1].As<Napi::String>().Utf8Value();
  XrPath path = XR_NULL_PATH;
  const XrResult r = Need(env, li.table.StringToPath, "xrStringToPath")(li.handle(), text.c_str(), &path);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrStringToPath(\"" + text + "\") failed");
  return ToBigInt(env, path);
}

Napi::Value PathToString(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrPath path = PathArgument(env, info.Length() > 1 ? info[1] : env.Undefined(), "path");
  auto fn = Need(env, li.table.PathToString, "xrPathToString");
  uint32_t count = 0;
  Check(env, fn(li.handle(), path, 0, &count, nullptr), "xrPathToString");
  std::string text(count, '\0');
  Check(env, fn(li.handle(), path, count, &count, text.data()), "xrPathToString");
  if (!text.empty() && text.back() == '\0') text.pop_back();
  return Napi::String::New(env, text);
}

Napi::Value PollEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  XrEventDataBuffer buffer{};
  buffer.type = XR_TYPE_EVENT_DATA_BUFFER;
  const XrResult r = Need(env, li.table.PollEvent, "xrPollEvent")(li.handle(), &buffer);
  Check(env, r, "xrPollEvent");
  if (r == XR_EVENT_UNAVAILABLE) return env.Null();
  return EventObject(env, buffer);
}

Napi::Value ConvertMonotonicNow(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  // xrConvertTimespecTimeToTimeKHR (XR_KHR_convert_timespec_time) is not in the core dispatch
  // table: it is looked up through the chain, as an application would.
  using ConvertTimespec = XrResult(XRAPI_PTR*)(XrInstance, const timespec*, XrTime*);
  PFN_xrVoidFunction fn = nullptr;
  const XrResult found = li.GetInstanceProcAddr("xrConvertTimespecTimeToTimeKHR", &fn);
  if (XR_FAILED(found) || fn == nullptr) {
    throw XrErrorToJs(env, XR_FAILED(found) ? found : XR_ERROR_FUNCTION_UNSUPPORTED,
                      "xrConvertTimespecTimeToTimeKHR is not available (enable XR_KHR_convert_timespec_time)");
  }
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  XrTime time = 0;
  Check(env, reinterpret_cast<ConvertTimespec>(fn)(li.handle(), &now, &time), "xrConvertTimespecTimeToTimeKHR");
  return TimeToJs(env, time);
}

Napi::Value DisplayRefreshRates(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  if (info.Length() < 2 || !info[1].IsBigInt()) throw ArgumentError(env, "session must be a bigint XrSession handle");
  bool lossless = true;
  const auto session = reinterpret_cast<XrSession>(static_cast<std::uintptr_t>(info[1].As<Napi::BigInt>().Uint64Value(&lossless)));
  // XR_FB_display_refresh_rate: looked up through the chain (not in the core dispatch table).
  using GetRate = XrResult(XRAPI_PTR*)(XrSession, float*);
  using EnumerateRates = XrResult(XRAPI_PTR*)(XrSession, uint32_t, uint32_t*, float*);
  PFN_xrVoidFunction get = nullptr;
  PFN_xrVoidFunction enumerate = nullptr;
  if (XR_FAILED(li.GetInstanceProcAddr("xrGetDisplayRefreshRateFB", &get)) || get == nullptr ||
      XR_FAILED(li.GetInstanceProcAddr("xrEnumerateDisplayRefreshRatesFB", &enumerate)) || enumerate == nullptr) {
    throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, "XR_FB_display_refresh_rate is not available (enable the extension)");
  }
  float current = 0.0f;
  Check(env, reinterpret_cast<GetRate>(get)(session, &current), "xrGetDisplayRefreshRateFB");
  const std::vector<float> rates = EnumerateTwoCall(env, "xrEnumerateDisplayRefreshRatesFB", 0.0f, [&](uint32_t capacity, uint32_t* count, float* data) {
    return reinterpret_cast<EnumerateRates>(enumerate)(session, capacity, count, data);
  });
  Napi::Object o = Napi::Object::New(env);
  o.Set("current", Napi::Number::New(env, current));
  o.Set("available", NumberArray(env, rates));
  return o;
}

}  // namespace kl::napi::xr
