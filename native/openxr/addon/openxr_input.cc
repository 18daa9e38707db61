#include "openxr/addon/openxr_input.h"

#include <cstring>
#include <string>
#include <vector>

#include "openxr/addon/openxr_actions.h"
#include "openxr/addon/openxr_session.h"
#include "include/simxr/simxr_haptics.h"

namespace kl::napi::xr {

namespace {

struct SessionAndAction {
  const std::shared_ptr<SessionCore>& session;
  const std::shared_ptr<ActionCore>& action;
};

SessionAndAction SessionAction(Napi::Env env, const Napi::CallbackInfo& info, const char* usage) {
  if (info.Length() < 2) throw ArgumentError(env, usage);
  const auto& session = OpenXrSession::From(env, info[0])->Live(env);
  const auto& action = OpenXrAction::From(env, info[1])->Live(env);
  if (action->set->instance != session->instance) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the action belongs to another instance");
  return {session, action};
}

float FloatArgument(Napi::Env env, Napi::Value value, const char* what) {
  if (!value.IsNumber()) throw ArgumentError(env, std::string(what) + " must be a number");
  return value.As<Napi::Number>().FloatValue();
}

}  // namespace

Napi::Value ApplyHaptic(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto [session, action] = SessionAction(env, info, "applyHaptic(session, action, subactionPath, duration, frequency, amplitude)");
  if (info.Length() < 6) throw ArgumentError(env, "applyHaptic(session, action, subactionPath, duration, frequency, amplitude)");
  XrHapticActionInfo actionInfo{XR_TYPE_HAPTIC_ACTION_INFO, nullptr, action->handle, PathArgument(env, info[2], "subactionPath")};
  XrHapticVibration vibration{XR_TYPE_HAPTIC_VIBRATION, nullptr, TimeArgument(env, info[3], "duration"), FloatArgument(env, info[4], "frequency"),
                              FloatArgument(env, info[5], "amplitude")};
  const XrResult r = Need(env, session->instance->table.ApplyHapticFeedback, "xrApplyHapticFeedback")(
      session->handle, &actionInfo, reinterpret_cast<const XrHapticBaseHeader*>(&vibration));
  Check(env, r, "xrApplyHapticFeedback");
  return Napi::Number::New(env, r);
}

Napi::Value StopHaptic(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto [session, action] = SessionAction(env, info, "stopHaptic(session, action, subactionPath)");
  XrHapticActionInfo actionInfo{XR_TYPE_HAPTIC_ACTION_INFO, nullptr, action->handle,
                                PathArgument(env, info.Length() > 2 ? info[2] : env.Undefined(), "subactionPath")};
  const XrResult r = Need(env, session->instance->table.StopHapticFeedback, "xrStopHapticFeedback")(session->handle, &actionInfo);
  Check(env, r, "xrStopHapticFeedback");
  return Napi::Number::New(env, r);
}

Napi::Value BoundSources(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto [session, action] = SessionAction(env, info, "boundSources(session, action)");
  auto fn = Need(env, session->instance->table.EnumerateBoundSourcesForAction, "xrEnumerateBoundSourcesForAction");
  XrBoundSourcesForActionEnumerateInfo enumerateInfo{XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO, nullptr, action->handle};
  const auto sources = EnumerateTwoCall(env, "xrEnumerateBoundSourcesForAction", XrPath{XR_NULL_PATH},
                                        [&](uint32_t capacity, uint32_t* count, XrPath* data) {
                                          return fn(session->handle, &enumerateInfo, capacity, count, data);
                                        });
  Napi::Array out = Napi::Array::New(env, sources.size());
  for (uint32_t i = 0; i < sources.size(); ++i) out.Set(i, Napi::BigInt::New(env, static_cast<uint64_t>(sources[i])));
  return out;
}

Napi::Value InputSourceLocalizedName(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[2].IsNumber()) throw ArgumentError(env, "inputSourceLocalizedName(session, source: bigint, whichComponents: number)");
  const auto& session = OpenXrSession::From(env, info[0])->Live(env);
  XrInputSourceLocalizedNameGetInfo getInfo{XR_TYPE_INPUT_SOURCE_LOCALIZED_NAME_GET_INFO, nullptr, PathArgument(env, info[1], "source"),
                                            static_cast<XrInputSourceLocalizedNameFlags>(info[2].As<Napi::Number>().Int64Value())};
  auto fn = Need(env, session->instance->table.GetInputSourceLocalizedName, "xrGetInputSourceLocalizedName");
  auto text = EnumerateTwoCall(env, "xrGetInputSourceLocalizedName", '\0', [&](uint32_t capacity, uint32_t* count, char* data) {
    return fn(session->handle, &getInfo, capacity, count, data);
  });
  return Napi::String::New(env, text.empty() ? std::string() : std::string(text.data(), strnlen(text.data(), text.size())));
}

Napi::Value ReferenceSpaceBounds(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsNumber()) throw ArgumentError(env, "referenceSpaceBounds(session, referenceSpaceType: number)");
  const auto& session = OpenXrSession::From(env, info[0])->Live(env);
  XrExtent2Df bounds{0, 0};
  const XrResult r = Need(env, session->instance->table.GetReferenceSpaceBoundsRect, "xrGetReferenceSpaceBoundsRect")(
      session->handle, static_cast<XrReferenceSpaceType>(info[1].As<Napi::Number>().Int32Value()), &bounds);
  Check(env, r, "xrGetReferenceSpaceBoundsRect");
  if (r == XR_SPACE_BOUNDS_UNAVAILABLE) return env.Null();
  Napi::Object out = Napi::Object::New(env);
  out.Set("width", Napi::Number::New(env, bounds.width));
  out.Set("height", Napi::Number::New(env, bounds.height));
  return out;
}

Napi::Value DrainHapticEvents(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = OpenXrSession::From(env, info[0])->Live(env);
  auto fn = ChainFunction<PFN_xrDrainHapticEventsSIMXR>(env, *core->instance, XR_SIMXR_DRAIN_HAPTIC_EVENTS_NAME,
                                                        "only the simulated runtime records haptic feedback");
  const auto all = DrainAll<XrHapticEventSIMXR>(env, XR_SIMXR_DRAIN_HAPTIC_EVENTS_NAME, [&](uint32_t capacity, uint32_t* count, XrHapticEventSIMXR* data) {
    return fn(core->handle, capacity, count, data);
  });
  Napi::Array out = Napi::Array::New(env, all.size());
  for (uint32_t i = 0; i < all.size(); ++i) {
    const XrHapticEventSIMXR& e = all[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("time", TimeToJs(env, e.time));
    o.Set("source", Napi::BigInt::New(env, static_cast<uint64_t>(e.source)));
    o.Set("action", Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(e.action))));
    o.Set("duration", TimeToJs(env, e.duration));
    o.Set("frequency", Napi::Number::New(env, e.frequency));
    o.Set("amplitude", Napi::Number::New(env, e.amplitude));
    o.Set("stopped", Napi::Boolean::New(env, e.stopped != 0));
    out.Set(i, o);
  }
  return out;
}

}  // namespace kl::napi::xr
