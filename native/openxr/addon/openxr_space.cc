#include "openxr/addon/openxr_space.h"

#include "openxr/addon/openxr_actions.h"
#include "openxr/addon/openxr_session.h"

namespace kl::napi::xr {

Napi::Function OpenXrSpace::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrSpace",
                     {
                         InstanceMethod<&OpenXrSpace::Destroy>("destroy"),
                         InstanceAccessor<&OpenXrSpace::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&OpenXrSpace::Handle>("handle"),
                         InstanceMethod<&OpenXrSpace::Locate>("locate"),
                         InstanceMethod<&OpenXrSpace::BindLocator>("bindLocator"),
                     });
}

OpenXrSpace::OpenXrSpace(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrSpace>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[1].IsString()) throw ArgumentError(env, "new OpenXrSpace(session, kind, ...)");
  std::shared_ptr<SessionCore> session = OpenXrSession::From(env, info[0])->Live(env);
  const std::string kind = info[1].As<Napi::String>().Utf8Value();
  XrSpace space = XR_NULL_HANDLE;
  if (kind == "reference") {
    if (!info[2].IsNumber()) throw ArgumentError(env, "referenceSpaceType must be a number");
    XrReferenceSpaceCreateInfo createInfo{XR_TYPE_REFERENCE_SPACE_CREATE_INFO, nullptr,
                                          static_cast<XrReferenceSpaceType>(info[2].As<Napi::Number>().Int32Value()),
                                          PoseArgument(env, info.Length() > 3 ? info[3] : env.Undefined())};
    Check(env, Need(env, session->instance->table.CreateReferenceSpace, "xrCreateReferenceSpace")(session->handle, &createInfo, &space),
          "xrCreateReferenceSpace");
  } else if (kind == "action") {
    const auto& action = OpenXrAction::From(env, info[2])->Live(env);
    if (action->set->instance != session->instance) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the action belongs to another instance");
    XrActionSpaceCreateInfo createInfo{XR_TYPE_ACTION_SPACE_CREATE_INFO, nullptr, action->handle,
                                       PathArgument(env, info.Length() > 3 ? info[3] : env.Undefined(), "subactionPath"),
                                       PoseArgument(env, info.Length() > 4 ? info[4] : env.Undefined())};
    Check(env, Need(env, session->instance->table.CreateActionSpace, "xrCreateActionSpace")(session->handle, &createInfo, &space),
          "xrCreateActionSpace");
  } else {
    throw ArgumentError(env, "space kind must be 'reference' or 'action'");
  }
  core_ = std::make_shared<SpaceCore>();
  core_->session = std::move(session);
  core_->handle = space;
  core_->session->instance->RecordChildHandle(openxr::HandleValue(space));
  core_->session->spaces.push_back(core_);
  TagObject(env, info.This().As<Napi::Object>(), kSpaceTag);
}

OpenXrSpace::~OpenXrSpace() {
  // Garbage collected without destroy(): destroy the handle if its session still lives.
  if (core_ && core_->alive()) {
    LoaderInstance& li = *core_->session->instance;
    if (li.table.DestroySpace) li.table.DestroySpace(core_->handle);
    li.ForgetChildHandle(openxr::HandleValue(core_->handle));
    core_->destroyed = true;
    ++core_->session->spacesDestroyed;
  }
}

OpenXrSpace* OpenXrSpace::From(Napi::Env env, Napi::Value value) { return UnwrapTagged<OpenXrSpace>(env, value, kSpaceTag, "a Space"); }

const std::shared_ptr<SpaceCore>& OpenXrSpace::Live(Napi::Env env) const {
  if (!core_->alive()) throw DestroyedError(env, core_->session->alive() ? "space" : "space's session");
  return core_;
}

Napi::Value OpenXrSpace::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  RefuseWhilePinned(env, core->waitPins, "space");
  LoaderInstance& li = *core->session->instance;
  const XrResult r = Need(env, li.table.DestroySpace, "xrDestroySpace")(core->handle);
  core->destroyed = true;
  ++core->session->spacesDestroyed;
  li.ForgetChildHandle(openxr::HandleValue(core->handle));
  Check(env, r, "xrDestroySpace");
  return env.Undefined();
}

Napi::Value OpenXrSpace::IsDestroyed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), !core_->alive()); }

Napi::Value OpenXrSpace::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::BigInt::New(env, openxr::HandleValue(Live(env)->handle));
}

namespace {

XrSpaceLocationFlags LocateInto(const SpaceCore& space, const SpaceCore& base, PFN_xrLocateSpace locate, XrTime time, float* out,
                                XrResult* result) {
  XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, nullptr, 0, {{0, 0, 0, 1}, {0, 0, 0}}};
  *result = locate(space.handle, base.handle, time, &location);
  if (XR_SUCCEEDED(*result)) WritePose(out, location.pose);
  return location.locationFlags;
}

struct BoundLocator : BoundData {
  static constexpr BoundKind kKind = BoundKind::kSpaceLocator;
  BoundLocator() noexcept : BoundData(kKind) {}
  std::shared_ptr<SpaceCore> space, base;
  PFN_xrLocateSpace locate = nullptr;
  float* out = nullptr;
  uint32_t* result = nullptr;  // the flags
  Napi::Reference<Napi::Value> keep, keepResult;  // the Float32Array and the Uint32Array, so `out` and `result` stay valid
};

}  // namespace

napi_value CallBoundLocator(napi_env env, napi_callback_info info) {
  BoundLocator* d = nullptr;
  XrTime time = 0;
  if (!BoundTimeCall(env, info, &d, &time, "openxrLocateSpace(locator, time): locator must be a bound space locator",
                     "locate: time")) {
    return nullptr;
  }
  if (!d->space->alive() || !d->base->alive()) {
    return ThrowFromCallback(DestroyedError(Napi::Env(env), d->space->session->alive() ? "space" : "space's session"));
  }
  XrResult r;
  const XrSpaceLocationFlags flags = LocateInto(*d->space, *d->base, d->locate, time, d->out, &r);
  if (XR_FAILED(r)) return ThrowFromCallback(XrErrorToJs(Napi::Env(env), r, "xrLocateSpace failed"));
  *d->result = static_cast<uint32_t>(flags);
  return nullptr;  // undefined: the flags are in the result slot
}

Napi::Value OpenXrSpace::Locate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3) throw ArgumentError(env, "locate(base: Space, time: bigint, out: Float32Array)");
  const XrTime time = TimeArgument(env, info[1], "locate: time");
  const auto& core = Live(env);
  const auto& base = From(env, info[0])->Live(env);
  if (base->session != core->session) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the base space belongs to another session");
  float* out = Float32Data(env, info[2], 7, "out");
  XrResult r;
  const XrSpaceLocationFlags flags = LocateInto(*core, *base, Need(env, core->session->instance->table.LocateSpace, "xrLocateSpace"),
                                                time, out, &r);
  Check(env, r, "xrLocateSpace");
  return Napi::Number::New(env, static_cast<double>(flags));
}

Napi::Value OpenXrSpace::BindLocator(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3) throw ArgumentError(env, "bindLocator(base: Space, out: Float32Array, result: Uint32Array)");
  const auto& core = Live(env);
  const auto& base = From(env, info[0])->Live(env);
  if (base->session != core->session) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the base space belongs to another session");
  auto d = std::make_unique<BoundLocator>();
  d->out = Float32Data(env, info[1], 7, "out");
  d->keep = Napi::Persistent(info[1]);
  d->result = ResultSlot(env, info[2]);
  d->keepResult = Napi::Persistent(info[2]);
  d->space = core;
  d->base = base;
  d->locate = Need(env, core->session->instance->table.LocateSpace, "xrLocateSpace");
  return MakeBoundData(env, std::move(d));
}

}  // namespace kl::napi::xr
