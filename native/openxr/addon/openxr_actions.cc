#include "openxr/addon/openxr_actions.h"

#include <cstring>
#include <vector>

#include "openxr/addon/openxr_session.h"

namespace kl::napi::xr {

namespace {

std::string StringArgument(Napi::Env env, const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || !info[index].IsString()) throw ArgumentError(env, std::string(what) + " must be a string");
  return info[index].As<Napi::String>().Utf8Value();
}

void CopyName(Napi::Env env, char* out, std::size_t size, const std::string& value, const char* what) {
  if (value.size() >= size) throw ArgumentError(env, std::string(what) + " is longer than " + std::to_string(size - 1) + " bytes");
  std::memcpy(out, value.c_str(), value.size() + 1);
}

Napi::Array ArrayArgument(Napi::Env env, Napi::Value value, const char* what) {
  if (!value.IsArray()) throw ArgumentError(env, std::string(what) + " must be an array");
  return value.As<Napi::Array>();
}

}  // namespace

// --- OpenXrActionSet

Napi::Function OpenXrActionSet::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrActionSet",
                     {
                         InstanceMethod<&OpenXrActionSet::Destroy>("destroy"),
                         InstanceAccessor<&OpenXrActionSet::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&OpenXrActionSet::Handle>("handle"),
                     });
}

OpenXrActionSet::OpenXrActionSet(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrActionSet>(info) {
  Napi::Env env = info.Env();
  std::shared_ptr<LoaderInstance> li = OpenXrInstance::LiveInstanceShared(env, info[0]);
  XrActionSetCreateInfo createInfo{};
  createInfo.type = XR_TYPE_ACTION_SET_CREATE_INFO;
  CopyName(env, createInfo.actionSetName, XR_MAX_ACTION_SET_NAME_SIZE, StringArgument(env, info, 1, "name"), "name");
  CopyName(env, createInfo.localizedActionSetName, XR_MAX_LOCALIZED_ACTION_SET_NAME_SIZE, StringArgument(env, info, 2, "localizedName"),
           "localizedName");
  if (info.Length() < 4 || !info[3].IsNumber()) throw ArgumentError(env, "priority must be a number");
  createInfo.priority = info[3].As<Napi::Number>().Uint32Value();
  XrActionSet set = XR_NULL_HANDLE;
  Check(env, Need(env, li->table.CreateActionSet, "xrCreateActionSet")(li->handle(), &createInfo, &set), "xrCreateActionSet");
  core_ = std::make_shared<ActionSetCore>();
  core_->instance = std::move(li);
  core_->handle = set;
  core_->instance->RecordChildHandle(openxr::HandleValue(set));
  TagObject(env, info.This().As<Napi::Object>(), kActionSetTag);
}

OpenXrActionSet::~OpenXrActionSet() {
  if (core_ && core_->alive()) {
    if (core_->instance->table.DestroyActionSet) core_->instance->table.DestroyActionSet(core_->handle);
    core_->instance->ForgetChildHandle(openxr::HandleValue(core_->handle));
    core_->destroyed = true;
  }
}

OpenXrActionSet* OpenXrActionSet::From(Napi::Env env, Napi::Value value) {
  return UnwrapTagged<OpenXrActionSet>(env, value, kActionSetTag, "an ActionSet");
}

const std::shared_ptr<ActionSetCore>& OpenXrActionSet::Live(Napi::Env env) const {
  if (!core_->alive()) throw DestroyedError(env, "action set");
  return core_;
}

Napi::Value OpenXrActionSet::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  RefuseWhilePinned(env, core->waitPins, "action set");
  const XrResult r = Need(env, core->instance->table.DestroyActionSet, "xrDestroyActionSet")(core->handle);
  core->destroyed = true;
  core->instance->ForgetChildHandle(openxr::HandleValue(core->handle));
  Check(env, r, "xrDestroyActionSet");
  return env.Undefined();
}

Napi::Value OpenXrActionSet::IsDestroyed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), !core_->alive()); }

Napi::Value OpenXrActionSet::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::BigInt::New(env, openxr::HandleValue(Live(env)->handle));
}

// --- OpenXrAction

Napi::Function OpenXrAction::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrAction",
                     {
                         InstanceMethod<&OpenXrAction::Destroy>("destroy"),
                         InstanceAccessor<&OpenXrAction::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&OpenXrAction::Handle>("handle"),
                     });
}

OpenXrAction::OpenXrAction(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrAction>(info) {
  Napi::Env env = info.Env();
  std::shared_ptr<ActionSetCore> set = OpenXrActionSet::From(env, info[0])->Live(env);
  XrActionCreateInfo createInfo{};
  createInfo.type = XR_TYPE_ACTION_CREATE_INFO;
  CopyName(env, createInfo.actionName, XR_MAX_ACTION_NAME_SIZE, StringArgument(env, info, 1, "name"), "name");
  CopyName(env, createInfo.localizedActionName, XR_MAX_LOCALIZED_ACTION_NAME_SIZE, StringArgument(env, info, 2, "localizedName"), "localizedName");
  if (info.Length() < 4 || !info[3].IsNumber()) throw ArgumentError(env, "action type must be a number");
  createInfo.actionType = static_cast<XrActionType>(info[3].As<Napi::Number>().Int32Value());
  std::vector<XrPath> subactionPaths;
  if (info.Length() > 4 && !info[4].IsUndefined()) {
    Napi::Array a = ArrayArgument(env, info[4], "subactionPaths");
    for (uint32_t i = 0; i < a.Length(); ++i) subactionPaths.push_back(PathArgument(env, a.Get(i), "subactionPaths[i]"));
  }
  createInfo.countSubactionPaths = static_cast<uint32_t>(subactionPaths.size());
  createInfo.subactionPaths = subactionPaths.empty() ? nullptr : subactionPaths.data();
  XrAction action = XR_NULL_HANDLE;
  Check(env, Need(env, set->instance->table.CreateAction, "xrCreateAction")(set->handle, &createInfo, &action), "xrCreateAction");
  core_ = std::make_shared<ActionCore>();
  core_->set = std::move(set);
  core_->handle = action;
  core_->type = createInfo.actionType;
  core_->set->instance->RecordChildHandle(openxr::HandleValue(action));
  TagObject(env, info.This().As<Napi::Object>(), kActionTag);
}

OpenXrAction::~OpenXrAction() {
  if (core_ && core_->alive()) {
    LoaderInstance& li = *core_->set->instance;
    if (li.table.DestroyAction) li.table.DestroyAction(core_->handle);
    li.ForgetChildHandle(openxr::HandleValue(core_->handle));
    core_->destroyed = true;
  }
}

OpenXrAction* OpenXrAction::From(Napi::Env env, Napi::Value value) { return UnwrapTagged<OpenXrAction>(env, value, kActionTag, "an Action"); }

const std::shared_ptr<ActionCore>& OpenXrAction::Live(Napi::Env env) const {
  if (!core_->alive()) throw DestroyedError(env, core_->set->alive() ? "action" : "action's action set");
  return core_;
}

Napi::Value OpenXrAction::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  RefuseWhilePinned(env, core->waitPins, "action");
  LoaderInstance& li = *core->set->instance;
  const XrResult r = Need(env, li.table.DestroyAction, "xrDestroyAction")(core->handle);
  core->destroyed = true;
  li.ForgetChildHandle(openxr::HandleValue(core->handle));
  Check(env, r, "xrDestroyAction");
  return env.Undefined();
}

Napi::Value OpenXrAction::IsDestroyed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), !core_->alive()); }

Napi::Value OpenXrAction::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::BigInt::New(env, openxr::HandleValue(Live(env)->handle));
}

// --- Instance: binding suggestions

Napi::Value SuggestBindings(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  if (info.Length() < 4) throw ArgumentError(env, "suggestBindings(instance, profile: bigint, actions, bindings: bigint[])");
  const XrPath profile = PathArgument(env, info[1], "interactionProfile");
  Napi::Array actions = ArrayArgument(env, info[2], "actions");
  Napi::Array bindings = ArrayArgument(env, info[3], "bindings");
  if (actions.Length() != bindings.Length()) throw ArgumentError(env, "actions and bindings must have the same length");
  std::vector<XrActionSuggestedBinding> suggested;
  for (uint32_t i = 0; i < actions.Length(); ++i) {
    const auto& action = OpenXrAction::From(env, actions.Get(i))->Live(env);
    if (action->set->instance.get() != &li) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "an action belongs to another instance");
    suggested.push_back({action->handle, PathArgument(env, bindings.Get(i), "binding")});
  }
  XrInteractionProfileSuggestedBinding s{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING, nullptr, profile,
                                          static_cast<uint32_t>(suggested.size()), suggested.data()};
  Check(env, Need(env, li.table.SuggestInteractionProfileBindings, "xrSuggestInteractionProfileBindings")(li.handle(), &s),
        "xrSuggestInteractionProfileBindings");
  return env.Undefined();
}

// --- Session: attach, sync, state readers

Napi::Value OpenXrSession::AttachActionSets(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  Napi::Array sets = ArrayArgument(env, info.Length() > 0 ? info[0] : env.Undefined(), "actionSets");
  std::vector<XrActionSet> handles;
  for (uint32_t i = 0; i < sets.Length(); ++i) handles.push_back(OpenXrActionSet::From(env, sets.Get(i))->Live(env)->handle);
  XrSessionActionSetsAttachInfo attachInfo{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO, nullptr, static_cast<uint32_t>(handles.size()),
                                           handles.data()};
  Check(env, Need(env, core->instance->table.AttachSessionActionSets, "xrAttachSessionActionSets")(core->handle, &attachInfo),
        "xrAttachSessionActionSets");
  return env.Undefined();
}

// syncActions(actionSets: OpenXrActionSet[], subactionPaths: (bigint | undefined)[]): XR_SUCCESS or XR_SESSION_NOT_FOCUSED
Napi::Value OpenXrSession::SyncActions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  Napi::Array sets = ArrayArgument(env, info.Length() > 0 ? info[0] : env.Undefined(), "actionSets");
  Napi::Array paths = ArrayArgument(env, info.Length() > 1 ? info[1] : env.Undefined(), "subactionPaths");
  std::vector<XrActiveActionSet> active;
  for (uint32_t i = 0; i < sets.Length(); ++i) {
    active.push_back({OpenXrActionSet::From(env, sets.Get(i))->Live(env)->handle, i < paths.Length() ? PathArgument(env, paths.Get(i), "subactionPath") : XR_NULL_PATH});
  }
  XrActionsSyncInfo syncInfo{XR_TYPE_ACTIONS_SYNC_INFO, nullptr, static_cast<uint32_t>(active.size()), active.data()};
  const XrResult r = Need(env, core->instance->table.SyncActions, "xrSyncActions")(core->handle, &syncInfo);
  Check(env, r, "xrSyncActions");
  return Napi::Number::New(env, r);
}

Napi::Value OpenXrSession::CurrentInteractionProfile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  const XrPath topLevel = PathArgument(env, info.Length() > 0 ? info[0] : env.Undefined(), "topLevelUserPath");
  XrInteractionProfileState state{XR_TYPE_INTERACTION_PROFILE_STATE, nullptr, XR_NULL_PATH};
  Check(env, Need(env, core->instance->table.GetCurrentInteractionProfile, "xrGetCurrentInteractionProfile")(core->handle, topLevel, &state),
        "xrGetCurrentInteractionProfile");
  return Napi::BigInt::New(env, state.interactionProfile);
}

namespace {

// out: [currentState (vector2f: x), changedSinceLastSync, isActive, vector2f: y]; time[0]: lastChangeTime
// (an XrTime, so a BigInt64Array: it exceeds 2^53 ns after 104 days of uptime). Pose actions: isActive only.
struct BoundActionState : BoundData {
  static constexpr BoundKind kKind = BoundKind::kActionState;
  BoundActionState() noexcept : BoundData(kKind) {}
  std::shared_ptr<SessionCore> session;
  std::shared_ptr<ActionCore> action;
  // Made once at binding: the call hands the runtime this structure as it is.
  XrActionStateGetInfo getInfo{XR_TYPE_ACTION_STATE_GET_INFO, nullptr, XR_NULL_HANDLE, XR_NULL_PATH};
  XrActionType type = XR_ACTION_TYPE_BOOLEAN_INPUT;
  double* out = nullptr;
  int64_t* time = nullptr;
  Napi::Reference<Napi::Value> keepOut, keepTime;
  PFN_xrGetActionStateBoolean getBoolean = nullptr;
  PFN_xrGetActionStateFloat getFloat = nullptr;
  PFN_xrGetActionStateVector2f getVector2f = nullptr;
  PFN_xrGetActionStatePose getPose = nullptr;
};

template <typename State>
void WriteState(double* o, int64_t* time, double x, double y, const State& s) {
  o[0] = x;
  o[1] = s.changedSinceLastSync == XR_TRUE ? 1 : 0;
  o[2] = s.isActive == XR_TRUE ? 1 : 0;
  o[3] = y;
  *time = s.lastChangeTime;
}

}  // namespace

napi_value CallBoundActionState(napi_env env, napi_callback_info info) {
  BoundActionState* d = nullptr;
  napi_value unused = nullptr;
  if (!BoundDataCall(env, info, &d, &unused)) return ThrowFromCallback(ArgumentError(Napi::Env(env), "openxrReadActionState(reader): reader must be a bound action state reader"));
  if (!d->session->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), "session"));
  if (!d->action->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), "action"));
  const XrActionStateGetInfo* getInfo = &d->getInfo;
  const XrSession session = d->session->handle;
  XrResult r = XR_SUCCESS;
  double* o = d->out;
  switch (d->type) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT: {
      XrActionStateBoolean s{XR_TYPE_ACTION_STATE_BOOLEAN, nullptr, XR_FALSE, XR_FALSE, 0, XR_FALSE};
      r = d->getBoolean(session, getInfo, &s);
      WriteState(o, d->time, s.currentState == XR_TRUE ? 1 : 0, 0, s);
      break;
    }
    case XR_ACTION_TYPE_FLOAT_INPUT: {
      XrActionStateFloat s{XR_TYPE_ACTION_STATE_FLOAT, nullptr, 0, XR_FALSE, 0, XR_FALSE};
      r = d->getFloat(session, getInfo, &s);
      WriteState(o, d->time, s.currentState, 0, s);
      break;
    }
    case XR_ACTION_TYPE_VECTOR2F_INPUT: {
      XrActionStateVector2f s{XR_TYPE_ACTION_STATE_VECTOR2F, nullptr, {0, 0}, XR_FALSE, 0, XR_FALSE};
      r = d->getVector2f(session, getInfo, &s);
      WriteState(o, d->time, s.currentState.x, s.currentState.y, s);
      break;
    }
    default: {
      XrActionStatePose s{XR_TYPE_ACTION_STATE_POSE, nullptr, XR_FALSE};
      r = d->getPose(session, getInfo, &s);
      o[0] = o[1] = o[3] = 0;
      o[2] = s.isActive == XR_TRUE ? 1 : 0;
      *d->time = 0;
      break;
    }
  }
  if (XR_FAILED(r)) return ThrowFromCallback(XrErrorToJs(Napi::Env(env), r, "xrGetActionState failed"));
  return nullptr;  // undefined
}

// bindActionState(action, subactionPath: bigint | undefined, out: Float64Array(4), time: BigInt64Array(1)): () => void
Napi::Value OpenXrSession::BindActionState(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  if (info.Length() < 4) throw ArgumentError(env, "bindActionState(action, subactionPath, out: Float64Array, time: BigInt64Array)");
  const auto& action = OpenXrAction::From(env, info[0])->Live(env);
  if (action->set->instance != core->instance) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the action belongs to another instance");
  if (!info[2].IsTypedArray() || info[2].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array ||
      info[2].As<Napi::TypedArray>().ElementLength() < 4) {
    throw ArgumentError(env, "out must be a Float64Array of at least 4 elements");
  }
  if (!info[3].IsTypedArray() || info[3].As<Napi::TypedArray>().TypedArrayType() != napi_bigint64_array ||
      info[3].As<Napi::TypedArray>().ElementLength() < 1) {
    throw ArgumentError(env, "time must be a BigInt64Array of at least 1 element");
  }
  auto d = std::make_unique<BoundActionState>();
  d->session = core;
  d->action = action;
  d->getInfo.action = action->handle;
  d->getInfo.subactionPath = PathArgument(env, info[1], "subactionPath");
  d->type = action->type;
  d->out = info[2].As<Napi::Float64Array>().Data();
  d->time = static_cast<int64_t*>(info[3].As<Napi::TypedArray>().ArrayBuffer().Data()) + info[3].As<Napi::TypedArray>().ByteOffset() / sizeof(int64_t);
  d->keepOut = Napi::Persistent(info[2]);
  d->keepTime = Napi::Persistent(info[3]);
  const auto& t = core->instance->table;
  switch (action->type) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT:
      d->getBoolean = Need(env, t.GetActionStateBoolean, "xrGetActionStateBoolean");
      break;
    case XR_ACTION_TYPE_FLOAT_INPUT:
      d->getFloat = Need(env, t.GetActionStateFloat, "xrGetActionStateFloat");
      break;
    case XR_ACTION_TYPE_VECTOR2F_INPUT:
      d->getVector2f = Need(env, t.GetActionStateVector2f, "xrGetActionStateVector2f");
      break;
    case XR_ACTION_TYPE_POSE_INPUT:
      d->getPose = Need(env, t.GetActionStatePose, "xrGetActionStatePose");
      break;
    default:
      throw XrErrorToJs(env, XR_ERROR_ACTION_TYPE_MISMATCH, "state readers exist for boolean, float, vector2f and pose actions");
  }
  return MakeBoundData(env, std::move(d));
}

}  // namespace kl::napi::xr
