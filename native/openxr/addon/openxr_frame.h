// xrWaitFrame off the JavaScript thread: one persistent thread per session (started by the first
// asynchronous wait, stopped when the session is destroyed), woken through a condition variable,
// answering through a thread-safe function that is unref'd whenever no wait is pending (so a
// finished application exits). The promise resolves on the JavaScript thread with the session's
// one reused frame-state object.
//
// A frame query may be attached (SetQuery): the thread then runs it right after xrWaitFrame
// returns, at that frame's predictedDisplayTime (after xrSyncActions when asked), into the
// query's own output, the back buffer, which JavaScript never reads. Delivering the frame on the
// JavaScript thread copies it into the front buffer (the application's query.out) before the
// promise resolves. The back buffer is written only between a request and its result (the
// thread's part, handed over under the mutex) and copied only after that result, on the
// JavaScript thread, while no wait is running: the two never overlap (docs/usage.md, "Reads done
// before JavaScript wakes", says which calls the thread makes under the OpenXR spec's rules).
#pragma once

#include <napi.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "openxr/addon/openxr_frame_query.h"
#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

class FrameWaiter : public std::enable_shared_from_this<FrameWaiter> {
 public:
  static std::shared_ptr<FrameWaiter> Start(Napi::Env env, std::shared_ptr<SessionCore> core, Napi::Object frameState);
  ~FrameWaiter();

  // A promise for the next frame; throws XR_ERROR_CALL_ORDER_INVALID while one is pending.
  Napi::Value Request(Napi::Env env);
  // The same wait answered by calling `callback(error, frameState)` on the JavaScript thread
  // instead of settling a promise (error null on success): the frame loop's wait, which
  // allocates no promise per frame (docs/performance.md, 'The frame loop's young generation').
  void RequestCallback(Napi::Env env, Napi::Function callback);
  // True while a wait is requested or running (a synchronous wait must not run meanwhile).
  bool Busy();
  // True when the thread finished a wait whose result the JavaScript thread has not yet delivered.
  bool ResultWaiting();
  // Stops the thread. Returns false when xrWaitFrame is still running after a grace period
  // (blocked in the runtime): then the caller destroys the session to release it, and calls Join().
  bool StopThread();
  void Join();
  // JavaScript thread, while no wait is pending: attaches a bound frame query (`query`, whose
  // output is the back buffer) with its front buffer (`front`, the application's Float32Array) and
  // the action sets xrSyncActions syncs first (none: no sync); an undefined query detaches.
  void SetQuery(Napi::Env env, Napi::Value query, Napi::Value front, std::vector<XrActiveActionSet> sync,
                std::vector<std::shared_ptr<ActionSetCore>> syncSets);
  // JavaScript thread, after the thread stopped: rejects a pending promise, releases the TSFN.
  void Close(Napi::Env env, const char* why);

 private:
  FrameWaiter(std::shared_ptr<SessionCore> core, PFN_xrWaitFrame waitFrame) : core_(std::move(core)), waitFrame_(waitFrame) {}
  void Run();
  // The wait thread: xrSyncActions (when asked) and the attached query at `time`.
  void RunQuery(XrTime time);
  void Deliver(Napi::Env env);
  // The checks and the wake-up shared by both kinds of request.
  void BeginRequest(Napi::Env env);
  void Wake(Napi::Env env);
  // Settles the pending wait: the promise, or the callback (which must not throw).
  void Settle(Napi::Value error, Napi::Value frameState);
  // JavaScript thread: pins / unpins the handles the attached query and sync use.
  void Pin(bool pin);
  static void CallJs(napi_env env, napi_value, void* context, void*);
  static void Finalize(napi_env, void* data, void*);

  const std::shared_ptr<SessionCore> core_;
  const PFN_xrWaitFrame waitFrame_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool requested_ = false, inFlight_ = false, stop_ = false, hasResult_ = false;
  XrResult result_ = XR_SUCCESS;
  XrFrameState state_{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE};
  // The attached query, set on the JavaScript thread only while no wait is pending and read by
  // the thread only while one runs (the request under the mutex orders the two).
  FrameQuery* query_ = nullptr;
  std::vector<XrActiveActionSet> sync_;
  PFN_xrSyncActions syncActions_ = nullptr;
  // The thread's query outcome for the frame in state_ (under the mutex with it).
  bool queryRan_ = false;
  XrResult queryResult_ = XR_SUCCESS;
  std::string queryMessage_;
  std::thread thread_;
  // JavaScript thread only:
  napi_threadsafe_function tsfn_ = nullptr;
  bool tsfnReleased_ = false;
  std::optional<Napi::Promise::Deferred> pending_;
  Napi::FunctionReference pendingCallback_;  // a callback request's callback (empty otherwise)
  Napi::ObjectReference frameState_;
  Napi::Reference<Napi::Value> queryRef_, frontRef_;  // keep the bound query and the front buffer alive
  float* front_ = nullptr;
  std::vector<std::shared_ptr<ActionSetCore>> syncSets_;
  bool pinned_ = false;
};

// Writes { predictedDisplayTime, predictedDisplayPeriod, shouldRender } into `target`: every
// field when `all`, else only those that differ from `shown` (what `target` holds), which it updates.
void FillFrameState(Napi::Env env, Napi::Object target, const XrFrameState& state, XrFrameState& shown, bool all = false);

}  // namespace kl::napi::xr
