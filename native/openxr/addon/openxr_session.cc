#include "openxr/addon/openxr_session.h"

#include "openxr/addon/openxr_vulkan.h"

#include <vector>

namespace kl::napi::xr {

namespace {

template <typename Core>
void MarkChildrenDestroyed(std::vector<std::weak_ptr<Core>>& children, LoaderInstance& li, bool instanceLive) {
  for (const auto& weak : children) {
    if (auto child = weak.lock()) {
      if (instanceLive && !child->destroyed) li.ForgetChildHandle(openxr::HandleValue(child->handle));
      child->destroyed = true;
    }
  }
  children.clear();
}

}  // namespace

Napi::Function OpenXrSession::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrSession",
                     {
                         InstanceMethod<&OpenXrSession::Begin>("begin"),
                         InstanceMethod<&OpenXrSession::End>("end"),
                         InstanceMethod<&OpenXrSession::RequestExit>("requestExit"),
                         InstanceMethod<&OpenXrSession::Destroy>("destroy"),
                         InstanceAccessor<&OpenXrSession::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&OpenXrSession::Handle>("handle"),
                         InstanceMethod<&OpenXrSession::EnumerateReferenceSpaces>("enumerateReferenceSpaces"),
                         InstanceMethod<&OpenXrSession::WaitFrame>("waitFrame"),
                         InstanceMethod<&OpenXrSession::WaitFrameSync>("waitFrameSync"),
                         InstanceMethod<&OpenXrSession::WaitFrameCallback>("waitFrameCallback"),
                         InstanceMethod<&OpenXrSession::SetWaitFrameQuery>("setWaitFrameQuery"),
                         InstanceAccessor<&OpenXrSession::WaitFrameResultWaiting>("waitFrameResultWaiting"),
                         InstanceMethod<&OpenXrSession::BeginFrame>("beginFrame"),
                         InstanceMethod<&OpenXrSession::EndFrame>("endFrame"),
                         InstanceMethod<&OpenXrSession::BindViewLocator>("bindViewLocator"),
                         InstanceMethod<&OpenXrSession::AttachActionSets>("attachActionSets"),
                         InstanceMethod<&OpenXrSession::SyncActions>("syncActions"),
                         InstanceMethod<&OpenXrSession::BindActionState>("bindActionState"),
                         InstanceMethod<&OpenXrSession::CurrentInteractionProfile>("currentInteractionProfile"),
                     });
}

OpenXrSession::OpenXrSession(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrSession>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsBigInt()) throw ArgumentError(env, "new OpenXrSession(instance, systemId: bigint, graphics?: object)");
  std::shared_ptr<LoaderInstance> li = OpenXrInstance::LiveInstanceShared(env, info[0]);
  bool lossless = true;
  const auto system = static_cast<XrSystemId>(info[1].As<Napi::BigInt>().Uint64Value(&lossless));
  XrSessionCreateInfo createInfo{XR_TYPE_SESSION_CREATE_INFO, nullptr, 0, system};
  // A graphics binding (openxr_vulkan.cc) chains into createInfo.next and keeps what it names.
  GraphicsBinding binding;
  if (info.Length() > 2 && !info[2].IsUndefined()) {
    ReadGraphicsBinding(env, info[2], binding);
    createInfo.next = binding.next;
  }
  XrSession session = XR_NULL_HANDLE;
  const XrResult r = Need(env, li->table.CreateSession, "xrCreateSession")(li->handle(), &createInfo, &session);
  if (binding.next == nullptr && (r == XR_ERROR_GRAPHICS_DEVICE_INVALID || r == XR_ERROR_VALIDATION_FAILURE)) {
    throw XrErrorToJs(env, r,
                      "xrCreateSession failed: a session without a graphics binding needs the XR_MND_headless extension "
                      "(enable it when creating the instance: enabledExtensionNames: ['XR_MND_headless'])");
  }
  Check(env, r, "xrCreateSession");
  core_ = std::make_shared<SessionCore>();
  core_->instance = std::move(li);
  core_->handle = session;
  core_->graphics = std::move(binding.keep);
  core_->instance->RecordChildHandle(openxr::HandleValue(session));
  TagObject(env, info.This().As<Napi::Object>(), kSessionTag);
  Napi::Object frameState = Napi::Object::New(env);
  FillFrameState(env, frameState, XrFrameState{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE}, core_->shownFrameState, true);
  frameState_ = Napi::Persistent(frameState);
}

OpenXrSession::~OpenXrSession() {
  // Garbage collected without destroy(): stop the thread and destroy the handle all the same.
  if (core_ && !core_->destroyed) {
    try {
      DestroyNow(Env());
    } catch (...) {
      // Nothing can be reported from a finalizer.
    }
  }
}

OpenXrSession* OpenXrSession::From(Napi::Env env, Napi::Value value) {
  return UnwrapTagged<OpenXrSession>(env, value, kSessionTag, "a Session");
}

const std::shared_ptr<SessionCore>& OpenXrSession::Live(Napi::Env env) const {
  if (!core_->alive()) throw DestroyedError(env, "session");
  return core_;
}

Napi::Value OpenXrSession::Begin(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  if (info.Length() < 1 || !info[0].IsNumber()) throw ArgumentError(env, "begin(viewConfigurationType: number)");
  XrSessionBeginInfo beginInfo{XR_TYPE_SESSION_BEGIN_INFO, nullptr, static_cast<XrViewConfigurationType>(info[0].As<Napi::Number>().Int32Value())};
  Check(env, Need(env, core->instance->table.BeginSession, "xrBeginSession")(core->handle, &beginInfo), "xrBeginSession");
  return env.Undefined();
}

Napi::Value OpenXrSession::End(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  Check(env, Need(env, core->instance->table.EndSession, "xrEndSession")(core->handle), "xrEndSession");
  return env.Undefined();
}

Napi::Value OpenXrSession::RequestExit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  Check(env, Need(env, core->instance->table.RequestExitSession, "xrRequestExitSession")(core->handle), "xrRequestExitSession");
  return env.Undefined();
}

XrResult OpenXrSession::DestroyNow(Napi::Env env) {
  LoaderInstance& li = *core_->instance;
  const bool instanceLive = !li.destroyed();
  XrResult result = XR_SUCCESS;
  bool destroyedHandle = false;
  auto destroyHandle = [&] {
    if (instanceLive && li.table.DestroySession != nullptr) result = li.table.DestroySession(core_->handle);
    destroyedHandle = true;
  };
  if (waiter_) {
    // xrWaitFrame may be blocked in the runtime (a second wait before xrBeginFrame): destroying
    // the session releases it.
    if (!waiter_->StopThread()) destroyHandle();
    waiter_->Join();
  }
  if (!destroyedHandle) destroyHandle();
  core_->destroyed = true;
  if (instanceLive) li.ForgetChildHandle(openxr::HandleValue(core_->handle));
  // The runtime destroyed the session's children with it.
  MarkChildrenDestroyed(core_->swapchains, li, instanceLive);
  MarkChildrenDestroyed(core_->handTrackers, li, instanceLive);
  MarkChildrenDestroyed(core_->spaces, li, instanceLive);
  core_->graphics.reset();  // the Vulkan device may go now
  if (waiter_) waiter_->Close(env, "the session was destroyed while waitFrame() was pending");
  return result;
}

Napi::Value OpenXrSession::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Live(env);
  Check(env, DestroyNow(env), "xrDestroySession");
  return env.Undefined();
}

Napi::Value OpenXrSession::IsDestroyed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), !core_->alive()); }

Napi::Value OpenXrSession::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::BigInt::New(env, openxr::HandleValue(Live(env)->handle));
}

Napi::Value OpenXrSession::EnumerateReferenceSpaces(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  auto fn = Need(env, core->instance->table.EnumerateReferenceSpaces, "xrEnumerateReferenceSpaces");
  return NumberArray(env, EnumerateTwoCall(env, "xrEnumerateReferenceSpaces", XrReferenceSpaceType{},
                                           [&](uint32_t capacity, uint32_t* count, XrReferenceSpaceType* data) {
                                             return fn(core->handle, capacity, count, data);
                                           }));
}

}  // namespace kl::napi::xr
