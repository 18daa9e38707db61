// The frame loop: waitFrame (asynchronous on the session's own thread, or synchronous),
// beginFrame, endFrame, and the view locator bound to a caller's Float32Array.
#include "addon/pending_promise.h"
#include "openxr/addon/openxr_frame.h"

#include <chrono>
#include <cstring>
#include <vector>

#include "openxr/addon/openxr_actions.h"
#include "openxr/addon/openxr_session.h"
#include "openxr/addon/openxr_space.h"

namespace kl::napi::xr {

// A number beyond the small-integer range is a new heap object each time it is set (and reading
// one back through the API would box it again): compare with what was written last, in C++.
void FillFrameState(Napi::Env env, Napi::Object target, const XrFrameState& state, XrFrameState& shown, bool all) {
  if (all || state.predictedDisplayTime != shown.predictedDisplayTime) {
    target.Set("predictedDisplayTime", TimeToJs(env, state.predictedDisplayTime));
  }
  if (all || state.predictedDisplayPeriod != shown.predictedDisplayPeriod) {
    target.Set("predictedDisplayPeriod", Napi::Number::New(env, static_cast<double>(state.predictedDisplayPeriod)));
  }
  if (all || state.shouldRender != shown.shouldRender) target.Set("shouldRender", Napi::Boolean::New(env, state.shouldRender == XR_TRUE));
  shown = state;
}

// --- FrameWaiter

std::shared_ptr<FrameWaiter> FrameWaiter::Start(Napi::Env env, std::shared_ptr<SessionCore> core, Napi::Object frameState) {
  PFN_xrWaitFrame waitFrame = Need(env, core->instance->table.WaitFrame, "xrWaitFrame");
  std::shared_ptr<FrameWaiter> waiter(new FrameWaiter(std::move(core), waitFrame));
  // The TSFN's context keeps the waiter alive until the TSFN is finalized (after its last call).
  auto* context = new std::shared_ptr<FrameWaiter>(waiter);
  napi_status status = napi_create_threadsafe_function(env, nullptr, nullptr, Napi::String::New(env, "khronos-loader waitFrame"), 0, 1, context,
                                                       &FrameWaiter::Finalize, context, &FrameWaiter::CallJs, &waiter->tsfn_);
  if (status != napi_ok) {
    delete context;
    NAPI_THROW_IF_FAILED(env, status, nullptr);
  }
  napi_unref_threadsafe_function(env, waiter->tsfn_);
  waiter->frameState_ = Napi::Persistent(frameState);
  waiter->thread_ = std::thread([w = waiter.get()] { w->Run(); });
  return waiter;
}

FrameWaiter::~FrameWaiter() {
  StopThread();
  Join();
}

void FrameWaiter::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return requested_ || stop_; });
    if (stop_) return;
    requested_ = false;
    inFlight_ = true;
    lock.unlock();
    XrFrameWaitInfo waitInfo{XR_TYPE_FRAME_WAIT_INFO, nullptr};
    XrFrameState state{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE};
    const XrResult result = waitFrame_(core_->handle, &waitInfo, &state);
    // Without a display time (a headless runtime without a compositor answers 0) there is no time
    // to read at: the frame loop runs the query on the JavaScript thread at the time it gives.
    const bool runQuery = query_ != nullptr && XR_SUCCEEDED(result) && state.predictedDisplayTime != 0;
    if (runQuery) RunQuery(state.predictedDisplayTime);
    lock.lock();
    queryRan_ = runQuery;
    result_ = result;
    state_ = state;
    hasResult_ = true;
    inFlight_ = false;
    done_.notify_all();
    // napi_closing once the session is being destroyed: nothing is waiting any more.
    napi_call_threadsafe_function(tsfn_, nullptr, napi_tsfn_nonblocking);
  }
}

void FrameWaiter::RunQuery(XrTime time) {
  // queryResult_ and queryMessage_ are this thread's until the result is handed over under the mutex.
  queryResult_ = XR_SUCCESS;
  if (!sync_.empty()) {
    const XrActionsSyncInfo syncInfo{XR_TYPE_ACTIONS_SYNC_INFO, nullptr, static_cast<uint32_t>(sync_.size()), sync_.data()};
    const XrResult r = syncActions_(core_->handle, &syncInfo);
    if (XR_FAILED(r)) {
      queryResult_ = r;
      queryMessage_ = "xrSyncActions failed (the frame query's sync on the wait thread)";
      return;
    }
  }
  RunFrameQueryOffThread(*query_, time, queryResult_, queryMessage_);
}

void FrameWaiter::Pin(bool pin) {
  if (pin == pinned_ || query_ == nullptr) return;
  pinned_ = pin;
  PinFrameQuery(*query_, pin);
  for (const auto& set : syncSets_) set->waitPins = pin ? set->waitPins + 1 : set->waitPins - 1;
}

void FrameWaiter::SetQuery(Napi::Env env, Napi::Value query, Napi::Value front, std::vector<XrActiveActionSet> sync,
                           std::vector<std::shared_ptr<ActionSetCore>> syncSets) {
  if (Busy()) throw XrErrorToJs(env, XR_ERROR_CALL_ORDER_INVALID, "the wait thread's frame query changes only while no waitFrame() is pending");
  if (query.IsUndefined() || query.IsNull()) {
    query_ = nullptr;
    front_ = nullptr;
    queryRef_.Reset();
    frontRef_.Reset();
    sync_.clear();
    syncSets_.clear();
    return;
  }
  FrameQuery* q = FrameQueryOf(env, query);
  if (FrameQuerySession(*q) != core_) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the frame query belongs to another session");
  const std::size_t floats = FrameQueryFloats(*q);
  float* f = Float32Data(env, front, floats, "the frame query's out");
  if (f == FrameQueryOutput(*q)) throw ArgumentError(env, "the wait thread's query needs its own output, not the front buffer");
  if (!sync.empty()) syncActions_ = Need(env, core_->instance->table.SyncActions, "xrSyncActions");
  query_ = q;
  front_ = f;
  queryRef_ = Napi::Persistent(query);
  frontRef_ = Napi::Persistent(front);
  sync_ = std::move(sync);
  syncSets_ = std::move(syncSets);
}

bool FrameWaiter::ResultWaiting() {
  std::lock_guard lock(mutex_);
  return hasResult_;
}

bool FrameWaiter::Busy() {
  std::lock_guard lock(mutex_);
  return requested_ || inFlight_ || pending_.has_value() || !pendingCallback_.IsEmpty();
}

Napi::Value FrameWaiter::Request(Napi::Env env) {
  BeginRequest(env);
  pending_.emplace(NewPendingPromise(env));
  Wake(env);
  return pending_->Promise();
}

void FrameWaiter::RequestCallback(Napi::Env env, Napi::Function callback) {
  BeginRequest(env);
  pendingCallback_ = Napi::Persistent(callback);
  Wake(env);
}

void FrameWaiter::BeginRequest(Napi::Env env) {
  if (pending_ || !pendingCallback_.IsEmpty()) {
    throw XrErrorToJs(env, XR_ERROR_CALL_ORDER_INVALID, "waitFrame() is already pending on this session: await it first");
  }
  if (tsfnReleased_) throw DestroyedError(env, "session");
  if (query_ != nullptr) {
    // The thread may use the query's handles until the frame is delivered: check them now, and
    // refuse their destroy() meanwhile.
    const std::string destroyed = FrameQueryDestroyed(*query_);
    if (!destroyed.empty()) throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "the wait thread's frame query: " + destroyed + " has been destroyed");
    for (const auto& set : syncSets_) {
      if (!set->alive()) throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "the wait thread's frame query: an action set it syncs has been destroyed");
    }
    Pin(true);
  }
}

void FrameWaiter::Wake(Napi::Env env) {
  napi_ref_threadsafe_function(env, tsfn_);
  {
    std::lock_guard lock(mutex_);
    requested_ = true;
  }
  wake_.notify_one();
}

void FrameWaiter::Settle(Napi::Value error, Napi::Value frameState) {
  if (pending_) {
    Napi::Promise::Deferred deferred = *pending_;
    pending_.reset();
    if (error.IsNull()) deferred.Resolve(frameState);
    else deferred.Reject(error);
    return;
  }
  if (pendingCallback_.IsEmpty()) return;
  Napi::Function callback = pendingCallback_.Value();
  pendingCallback_.Reset();
  // Not Napi::Function::Call: in a worker being terminated the call fails with no exception value,
  // and node-addon-api aborts the process building an Error of it. Here the failure is left as it
  // is: a terminating environment has nobody to tell, and an exception the callback threw stays
  // pending, which Node reports as uncaught when this callback returns.
  napi_value argv[] = {error, frameState};
  napi_value ignored = nullptr;
  (void)napi_call_function(error.Env(), error.Env().Undefined(), callback, 2, argv, &ignored);
}

bool FrameWaiter::StopThread() {
  std::unique_lock lock(mutex_);
  stop_ = true;
  wake_.notify_all();
  // One display period is the longest a well-behaved xrWaitFrame blocks.
  if (inFlight_) done_.wait_for(lock, std::chrono::milliseconds(500), [&] { return !inFlight_; });
  return !inFlight_;
}

void FrameWaiter::Join() {
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void FrameWaiter::Close(Napi::Env env, const char* why) {
  Pin(false);
  if (pending_ || !pendingCallback_.IsEmpty()) {
    try {
      Settle(XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, why).Value(), env.Undefined());
    } catch (...) {
      // The environment is shutting down: nobody is left to be told.
    }
  }
  if (!tsfnReleased_) {
    tsfnReleased_ = true;
    napi_release_threadsafe_function(tsfn_, napi_tsfn_release);
  }
}

void FrameWaiter::Deliver(Napi::Env env) {
  XrResult result;
  XrFrameState state;
  bool queryRan;
  XrResult queryResult;
  std::string queryMessage;
  {
    std::lock_guard lock(mutex_);
    if (!hasResult_) return;
    hasResult_ = false;
    result = result_;
    state = state_;
    queryRan = queryRan_;
    queryResult = queryResult_;
    if (XR_FAILED(queryResult)) queryMessage = queryMessage_;
  }
  Pin(false);
  if (!pending_ && pendingCallback_.IsEmpty()) return;
  napi_unref_threadsafe_function(env, tsfn_);
  if (XR_FAILED(result)) {
    Settle(XrErrorToJs(env, result, "xrWaitFrame failed").Value(), env.Undefined());
    return;
  }
  core_->lastWaitedDisplayTime = state.predictedDisplayTime;
  if (queryRan) {
    if (XR_FAILED(queryResult)) {
      Settle(XrErrorToJs(env, queryResult, queryMessage).Value(), env.Undefined());
      return;
    }
    // Back to front: the thread is done with the back buffer until the next request.
    std::memcpy(front_, FrameQueryOutput(*query_), FrameQueryFloats(*query_) * sizeof(float));
  }
  Napi::Object target = frameState_.Value();
  FillFrameState(env, target, state, core_->shownFrameState);
  Settle(env.Null(), target);
}

void FrameWaiter::CallJs(napi_env env, napi_value, void* context, void*) {
  if (env == nullptr) return;  // the environment is going away
  auto& waiter = *static_cast<std::shared_ptr<FrameWaiter>*>(context);
  try {
    waiter->Deliver(Napi::Env(env));
  } catch (const Napi::Error& e) {
    try {
      e.ThrowAsJavaScriptException();
    } catch (...) {
      // The environment is terminating (a worker being stopped): nothing can be thrown into it.
    }
  } catch (...) {
  }
}

void FrameWaiter::Finalize(napi_env, void* data, void*) {
  auto* context = static_cast<std::shared_ptr<FrameWaiter>*>(data);
  // At environment teardown this can come before the session's own finalizer: stop the thread
  // here, so it never calls a finalized TSFN.
  (*context)->tsfnReleased_ = true;
  if (!(*context)->StopThread() && !(*context)->core_->instance->destroyed()) {
    // Blocked in the runtime with no JavaScript left to unblock it: destroying the session does.
    auto& li = *(*context)->core_->instance;
    if (li.table.DestroySession) li.table.DestroySession((*context)->core_->handle);
    (*context)->core_->destroyed = true;
  }
  (*context)->Join();
  try {
    (*context)->frameState_.Reset();
  } catch (...) {
    // At environment teardown the reference may already be gone.
  }
  (*context)->pending_.reset();
  try {
    (*context)->pendingCallback_.Reset();
  } catch (...) {
    // At environment teardown the reference may already be gone.
  }
  delete context;
}

// --- Session frame methods

Napi::Value OpenXrSession::WaitFrame(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  if (!waiter_) waiter_ = FrameWaiter::Start(env, core, frameState_.Value());
  return waiter_->Request(env);
}

// waitFrameCallback(callback: (error: Error | null, frameState) => void): waitFrame() answered by a
// call instead of a promise (the frame loop's wait; the callback must not throw).
Napi::Value OpenXrSession::WaitFrameCallback(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsFunction()) throw ArgumentError(env, "waitFrameCallback(callback: function)");
  const auto& core = Live(env);
  if (!waiter_) waiter_ = FrameWaiter::Start(env, core, frameState_.Value());
  waiter_->RequestCallback(env, info[0].As<Napi::Function>());
  return env.Undefined();
}

// setWaitFrameQuery(query: bound frame query | undefined, front: Float32Array, syncSets: OpenXrActionSet[], syncPaths: (bigint | undefined)[])
Napi::Value OpenXrSession::SetWaitFrameQuery(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  if (!waiter_) waiter_ = FrameWaiter::Start(env, core, frameState_.Value());
  std::vector<XrActiveActionSet> sync;
  std::vector<std::shared_ptr<ActionSetCore>> syncSets;
  if (info.Length() > 2 && info[2].IsArray()) {
    Napi::Array sets = info[2].As<Napi::Array>();
    if (info.Length() < 4 || !info[3].IsArray()) throw ArgumentError(env, "setWaitFrameQuery: syncPaths must be an array");
    Napi::Array paths = info[3].As<Napi::Array>();
    for (uint32_t i = 0; i < sets.Length(); ++i) {
      std::shared_ptr<ActionSetCore> set = OpenXrActionSet::From(env, sets.Get(i))->Live(env);
      sync.push_back({set->handle, i < paths.Length() ? PathArgument(env, paths.Get(i), "subactionPath") : XR_NULL_PATH});
      syncSets.push_back(std::move(set));
    }
  }
  waiter_->SetQuery(env, info.Length() > 0 ? info[0] : env.Undefined(), info.Length() > 1 ? info[1] : env.Undefined(), std::move(sync),
                    std::move(syncSets));
  return env.Undefined();
}

// waitFrameResultWaiting → boolean: the wait thread finished a wait (and its frame query) whose frame
// is not yet delivered to JavaScript (the double buffer's test looks at query.out meanwhile).
Napi::Value OpenXrSession::WaitFrameResultWaiting(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), waiter_ != nullptr && waiter_->ResultWaiting());
}

Napi::Value OpenXrSession::WaitFrameSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  if (waiter_ && waiter_->Busy()) {
    throw XrErrorToJs(env, XR_ERROR_CALL_ORDER_INVALID, "waitFrameSync() while waitFrame() is pending on this session");
  }
  // xrWaitFrame blocks until the previous waited frame is begun; only this thread could begin it.
  if (core->lastWaitedDisplayTime != 0 && core->lastWaitedDisplayTime != core->begunDisplayTime) {
    throw XrErrorToJs(env, XR_ERROR_CALL_ORDER_INVALID,
                      "waitFrameSync() would block forever: call beginFrame() for the frame the previous wait returned first");
  }
  XrFrameWaitInfo waitInfo{XR_TYPE_FRAME_WAIT_INFO, nullptr};
  XrFrameState state{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE};
  Check(env, Need(env, core->instance->table.WaitFrame, "xrWaitFrame")(core->handle, &waitInfo, &state), "xrWaitFrame");
  core->lastWaitedDisplayTime = state.predictedDisplayTime;
  Napi::Object target = frameState_.Value();
  FillFrameState(env, target, state, core->shownFrameState);
  return target;
}

Napi::Value OpenXrSession::BeginFrame(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  XrFrameBeginInfo beginInfo{XR_TYPE_FRAME_BEGIN_INFO, nullptr};
  const XrResult r = Need(env, core->instance->table.BeginFrame, "xrBeginFrame")(core->handle, &beginInfo);
  Check(env, r, "xrBeginFrame");
  core->begunDisplayTime = core->lastWaitedDisplayTime;
  return Napi::Number::New(env, r);  // XR_SUCCESS or XR_FRAME_DISCARDED
}

// endFrame(displayTime?: bigint | number, environmentBlendMode?: number): with no layers (valid for a
// headless session). The display time defaults to the begun frame's, exactly as the runtime gave it.
Napi::Value OpenXrSession::EndFrame(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  XrTime displayTime = core->begunDisplayTime;
  if (info.Length() > 0 && !info[0].IsUndefined()) displayTime = TimeArgument(env, info[0], "endFrame: displayTime");
  XrEnvironmentBlendMode blend = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  if (info.Length() > 1 && !info[1].IsUndefined()) {
    if (!info[1].IsNumber()) throw ArgumentError(env, "endFrame(displayTime?: bigint, environmentBlendMode?: number)");
    blend = static_cast<XrEnvironmentBlendMode>(info[1].As<Napi::Number>().Int32Value());
  }
  XrFrameEndInfo endInfo{XR_TYPE_FRAME_END_INFO, nullptr, displayTime, blend, 0, nullptr};
  Check(env, Need(env, core->instance->table.EndFrame, "xrEndFrame")(core->handle, &endInfo), "xrEndFrame");
  return env.Undefined();
}

// --- The view locator: locateViews(time) writes 11 floats per view into the bound array
// (pose px py pz qx qy qz qw, then fov angleLeft angleRight angleUp angleDown) and returns the
// XrViewStateFlags.

namespace {

struct BoundViewLocator : BoundData {
  static constexpr BoundKind kKind = BoundKind::kViewLocator;
  BoundViewLocator() noexcept : BoundData(kKind) {}
  std::shared_ptr<SessionCore> session;
  std::shared_ptr<SpaceCore> space;
  PFN_xrLocateViews locateViews = nullptr;
  XrViewConfigurationType type = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  std::vector<XrView> views;
  float* out = nullptr;
  Napi::Reference<Napi::Value> keep;  // the Float32Array, so `out` stays valid
};

}  // namespace

napi_value CallBoundViewLocator(napi_env env, napi_callback_info info) {
  BoundViewLocator* d = nullptr;
  XrTime time = 0;
  if (!BoundTimeCall(env, info, &d, &time, "openxrLocateViews(locator, time): locator must be a bound view locator",
                     "locateViews: time")) {
    return nullptr;
  }
  if (!d->space->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), d->session->alive() ? "space" : "session"));
  XrViewLocateInfo locateInfo{XR_TYPE_VIEW_LOCATE_INFO, nullptr, d->type, time, d->space->handle};
  XrViewState state{XR_TYPE_VIEW_STATE, nullptr, 0};
  uint32_t count = 0;
  const auto capacity = static_cast<uint32_t>(d->views.size());
  const XrResult r = d->locateViews(d->session->handle, &locateInfo, &state, capacity, &count, d->views.data());
  if (XR_FAILED(r)) return ThrowFromCallback(XrErrorToJs(Napi::Env(env), r, "xrLocateViews failed"));
  float* o = d->out;
  for (uint32_t i = 0; i < count && i < capacity; ++i, o += 11) {
    WritePose(o, d->views[i].pose);
    o[7] = d->views[i].fov.angleLeft;
    o[8] = d->views[i].fov.angleRight;
    o[9] = d->views[i].fov.angleUp;
    o[10] = d->views[i].fov.angleDown;
  }
  napi_value flags = nullptr;
  napi_create_uint32(env, static_cast<uint32_t>(state.viewStateFlags), &flags);
  return flags;
}

// bindViewLocator(space: OpenXrSpace, viewConfigurationType: number, viewCount: number, out: Float32Array): (time) => flags
Napi::Value OpenXrSession::BindViewLocator(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = Live(env);
  if (info.Length() < 4 || !info[1].IsNumber() || !info[2].IsNumber()) {
    throw ArgumentError(env, "bindViewLocator(space, viewConfigurationType: number, viewCount: number, out: Float32Array)");
  }
  auto space = OpenXrSpace::From(env, info[0])->Live(env);
  if (space->session != core) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the space belongs to another session");
  const uint32_t viewCount = info[2].As<Napi::Number>().Uint32Value();
  if (viewCount == 0 || viewCount > 64) throw ArgumentError(env, "viewCount must be 1..64");
  auto d = std::make_unique<BoundViewLocator>();
  d->out = Float32Data(env, info[3], static_cast<std::size_t>(viewCount) * 11, "out");
  d->keep = Napi::Persistent(info[3]);
  d->session = core;
  d->space = std::move(space);
  d->locateViews = Need(env, core->instance->table.LocateViews, "xrLocateViews");
  d->type = static_cast<XrViewConfigurationType>(info[1].As<Napi::Number>().Int32Value());
  d->views.assign(viewCount, XrView{XR_TYPE_VIEW, nullptr, {{0, 0, 0, 1}, {0, 0, 0}}, {0, 0, 0, 0}});
  return MakeBoundData(env, std::move(d));
}

}  // namespace kl::napi::xr
