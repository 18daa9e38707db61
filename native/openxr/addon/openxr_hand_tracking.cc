#include "openxr/addon/openxr_hand_tracking.h"

#include <cstdint>
#include <string>

#include "openxr/addon/openxr_session.h"
#include "openxr/addon/openxr_space.h"

namespace kl::napi::xr {

Napi::Function OpenXrHandTracker::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrHandTracker",
                     {
                         InstanceMethod<&OpenXrHandTracker::Destroy>("destroy"),
                         InstanceAccessor<&OpenXrHandTracker::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&OpenXrHandTracker::Handle>("handle"),
                         InstanceMethod<&OpenXrHandTracker::BindLocator>("bindLocator"),
                     });
}

OpenXrHandTracker::OpenXrHandTracker(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrHandTracker>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsNumber()) throw ArgumentError(env, "new OpenXrHandTracker(session, hand: number)");
  std::shared_ptr<SessionCore> session = OpenXrSession::From(env, info[0])->Live(env);
  XrHandTrackerCreateInfoEXT createInfo{XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT, nullptr,
                                        static_cast<XrHandEXT>(info[1].As<Napi::Number>().Int32Value()), XR_HAND_JOINT_SET_DEFAULT_EXT};
  XrHandTrackerEXT tracker = XR_NULL_HANDLE;
  Check(env,
        Need(env, session->instance->table.CreateHandTrackerEXT, "xrCreateHandTrackerEXT (enable XR_EXT_hand_tracking on the instance)")(
            session->handle, &createInfo, &tracker),
        "xrCreateHandTrackerEXT");
  core_ = std::make_shared<HandTrackerCore>();
  core_->session = std::move(session);
  core_->handle = tracker;
  core_->session->instance->RecordChildHandle(openxr::HandleValue(tracker));
  core_->session->handTrackers.push_back(core_);
  TagObject(env, info.This().As<Napi::Object>(), kHandTrackerTag);
}

OpenXrHandTracker::~OpenXrHandTracker() {
  // Garbage collected without destroy(): destroy the handle if its session still lives.
  if (core_ && core_->alive()) {
    LoaderInstance& li = *core_->session->instance;
    if (li.table.DestroyHandTrackerEXT) li.table.DestroyHandTrackerEXT(core_->handle);
    li.ForgetChildHandle(openxr::HandleValue(core_->handle));
    core_->destroyed = true;
  }
}

const std::shared_ptr<HandTrackerCore>& OpenXrHandTracker::Live(Napi::Env env) const {
  if (!core_->alive()) throw DestroyedError(env, core_->session->alive() ? "hand tracker" : "hand tracker's session");
  return core_;
}

Napi::Value OpenXrHandTracker::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  LoaderInstance& li = *core->session->instance;
  const XrResult r = Need(env, li.table.DestroyHandTrackerEXT, "xrDestroyHandTrackerEXT")(core->handle);
  core->destroyed = true;
  li.ForgetChildHandle(openxr::HandleValue(core->handle));
  Check(env, r, "xrDestroyHandTrackerEXT");
  return env.Undefined();
}

Napi::Value OpenXrHandTracker::IsDestroyed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), !core_->alive()); }

Napi::Value OpenXrHandTracker::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::BigInt::New(env, openxr::HandleValue(Live(env)->handle));
}

namespace {

struct BoundJointLocator : BoundData {
  static constexpr BoundKind kKind = BoundKind::kHandJointLocator;
  BoundJointLocator() noexcept : BoundData(kKind) {}
  std::shared_ptr<HandTrackerCore> tracker;
  std::shared_ptr<SpaceCore> base;
  PFN_xrLocateHandJointsEXT locate = nullptr;
  XrHandJointLocationEXT* joints = nullptr;  // the caller's Float32Array: the runtime writes there
  uint32_t* result = nullptr;                // isActive
  Napi::Reference<Napi::Value> keep, keepResult;  // the Float32Array and the Uint32Array, so `joints` and `result` stay valid
};

}  // namespace

napi_value CallBoundJointLocator(napi_env env, napi_callback_info info) {
  BoundJointLocator* d = nullptr;
  XrTime time = 0;
  if (!BoundTimeCall(env, info, &d, &time, "openxrLocateHandJoints(locator, time): locator must be a bound hand joint locator",
                     "locate: time")) {
    return nullptr;
  }
  if (!d->tracker->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), d->tracker->session->alive() ? "hand tracker" : "hand tracker's session"));
  if (!d->base->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), "base space"));
  const XrHandJointsLocateInfoEXT locateInfo{XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT, nullptr, d->base->handle, time};
  XrHandJointLocationsEXT locations{XR_TYPE_HAND_JOINT_LOCATIONS_EXT, nullptr, XR_FALSE, kHandJointCount, d->joints};
  const XrResult r = d->locate(d->tracker->handle, &locateInfo, &locations);
  if (XR_FAILED(r)) return ThrowFromCallback(XrErrorToJs(Napi::Env(env), r, "xrLocateHandJointsEXT failed"));
  *d->result = locations.isActive == XR_TRUE ? 1 : 0;
  return nullptr;  // undefined: isActive is in the result slot
}

Napi::Value OpenXrHandTracker::BindLocator(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3) throw ArgumentError(env, "bindLocator(base: Space, out: Float32Array, result: Uint32Array)");
  const auto& core = Live(env);
  const auto& base = OpenXrSpace::From(env, info[0])->Live(env);
  if (base->session != core->session) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the base space belongs to another session");
  auto d = std::make_unique<BoundJointLocator>();
  float* out = Float32Data(env, info[1], static_cast<std::size_t>(kHandJointCount) * kHandJointStride, "out");
  // The runtime writes XrHandJointLocationEXT structures there (a uint64 first): their alignment.
  if (reinterpret_cast<std::uintptr_t>(out) % alignof(XrHandJointLocationEXT) != 0) {
    throw ArgumentError(env, "out must start at a multiple of " + std::to_string(alignof(XrHandJointLocationEXT)) + " bytes (its byteOffset)");
  }
  d->joints = reinterpret_cast<XrHandJointLocationEXT*>(out);
  d->keep = Napi::Persistent(info[1]);
  d->result = ResultSlot(env, info[2]);
  d->keepResult = Napi::Persistent(info[2]);
  d->tracker = core;
  d->base = base;
  d->locate = Need(env, core->session->instance->table.LocateHandJointsEXT, "xrLocateHandJointsEXT");
  return MakeBoundData(env, std::move(d));
}

}  // namespace kl::napi::xr
