// xrWaitFrame off the JavaScript thread: one persistent thread per session (started by the first
// asynchronous wait, stopped when the session is destroyed), woken through a condition variable,
// answering through a thread-safe function that is unref'd whenever no wait is pending (so a
// finished application exits). The promise resolves on the JavaScript thread with the session's
// one reused frame-state object.
#pragma once

#include <napi.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

class FrameWaiter : public std::enable_shared_from_this<FrameWaiter> {
 public:
  static std::shared_ptr<FrameWaiter> Start(Napi::Env env, std::shared_ptr<SessionCore> core, Napi::Object frameState);
  ~FrameWaiter();

  // A promise for the next frame; throws XR_ERROR_CALL_ORDER_INVALID while one is pending.
  Napi::Value Request(Napi::Env env);
  // True while a wait is requested or running (a synchronous wait must not run meanwhile).
  bool Busy();
  // Stops the thread. Returns false when xrWaitFrame is still running after a grace period
  // (blocked in the runtime): then the caller destroys the session to release it, and calls Join().
  bool StopThread();
  void Join();
  // JavaScript thread, after the thread stopped: rejects a pending promise, releases the TSFN.
  void Close(Napi::Env env, const char* why);

 private:
  FrameWaiter(std::shared_ptr<SessionCore> core, PFN_xrWaitFrame waitFrame) : core_(std::move(core)), waitFrame_(waitFrame) {}
  void Run();
  void Deliver(Napi::Env env);
  static void CallJs(napi_env env, napi_value, void* context, void*);
  static void Finalize(napi_env, void* data, void*);

  const std::shared_ptr<SessionCore> core_;
  const PFN_xrWaitFrame waitFrame_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool requested_ = false, inFlight_ = false, stop_ = false, hasResult_ = false;
  XrResult result_ = XR_SUCCESS;
  XrFrameState state_{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE};
  std::thread thread_;
  // JavaScript thread only:
  napi_threadsafe_function tsfn_ = nullptr;
  bool tsfnReleased_ = false;
  std::optional<Napi::Promise::Deferred> pending_;
  Napi::ObjectReference frameState_;
};

// Writes { predictedDisplayTime, predictedDisplayPeriod, shouldRender } into `target`: every
// field when `all`, else only those that differ from `shown` (what `target` holds), which it updates.
void FillFrameState(Napi::Env env, Napi::Object target, const XrFrameState& state, XrFrameState& shown, bool all = false);

}  // namespace kl::napi::xr
