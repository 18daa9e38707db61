#include "addon/log_bridge.h"

#include <deque>

#include "addon/errors.h"

namespace kl::napi {

struct LogBridge::Channel {
  std::mutex mutex;
  bool open = true;       // false once released or finalized: records are dropped
  bool scheduled = false;  // a call of the function is queued and will drain `pending`
  std::deque<LogRecord> pending;
  napi_threadsafe_function function = nullptr;

  // On the environment's thread: the records queued so far, in order.
  static void Deliver(napi_env env, napi_value handler, void* context, void* /*data*/) {
    if (env == nullptr || handler == nullptr) return;  // Node emptying its queue at teardown
    Channel& c = **static_cast<std::shared_ptr<Channel>*>(context);
    std::deque<LogRecord> records;
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      records.swap(c.pending);
      c.scheduled = false;
    }
    Napi::Env e(env);
    Napi::Function fn(env, handler);
    for (const LogRecord& r : records) {
      // The JavaScript side's handler never throws; a failure here means the environment is
      // shutting down, when a log record may be dropped but must not abort the process.
      try {
        fn.Call({Napi::Number::New(e, static_cast<int>(r.level)), Napi::String::New(e, r.source), Napi::String::New(e, r.message)});
      } catch (const Napi::Error&) {
        return;
      }
    }
  }
  // When the environment goes away (a worker terminating) Node finalizes the function before the
  // objects whose teardown still logs (instances destroyed by their finalizers): close the
  // channel then, so they never call a finalized function.
  static void Finalize(napi_env /*env*/, void* context, void* /*hint*/) {
    auto* box = static_cast<std::shared_ptr<Channel>*>(context);
    {
      std::lock_guard<std::mutex> lock((*box)->mutex);
      (*box)->open = false;
      (*box)->pending.clear();
    }
    delete box;
  }
  // From any thread.
  void Emit(const LogRecord& record) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!open) return;
    pending.push_back(record);
    if (scheduled) return;
    scheduled = napi_call_threadsafe_function(function, nullptr, napi_tsfn_nonblocking) == napi_ok;
    if (!scheduled) pending.clear();  // closing: nobody is left to deliver to
  }
};

LogBridge::~LogBridge() { Detach(); }

void LogBridge::Detach() {
  if (sink_token_ != 0) LogSinkRegistry::Get().Remove(sink_token_);
  sink_token_ = 0;
  if (channel_) {
    std::lock_guard<std::mutex> lock(channel_->mutex);
    // Already finalized by the environment's teardown (a worker stopping) when no longer open.
    if (channel_->open) napi_release_threadsafe_function(channel_->function, napi_tsfn_release);
    channel_->open = false;
    channel_->pending.clear();
  }
  channel_.reset();
}

void LogBridge::SetHandler(Napi::Env env, Napi::Value handler) {
  Detach();
  if (handler.IsNull() || handler.IsUndefined()) return;
  if (!handler.IsFunction()) throw ArgumentError(env, "setLogHandler(handler): handler must be a function or null");

  auto channel = std::make_shared<Channel>();
  // The function's context keeps the channel alive until Node finalizes the function.
  auto* box = new std::shared_ptr<Channel>(channel);
  const napi_status status = napi_create_threadsafe_function(env, handler, nullptr, Napi::String::New(env, "khronos-loader log"), 0, 1, box,
                                                             &Channel::Finalize, box, &Channel::Deliver, &channel->function);
  if (status != napi_ok) {
    delete box;
    NAPI_THROW_IF_FAILED_VOID(env, status);
  }
  napi_unref_threadsafe_function(env, channel->function);  // logging alone must not keep the process running
  channel_ = channel;
  sink_token_ = LogSinkRegistry::Get().Add([channel](const LogRecord& record) { channel->Emit(record); });
}

}  // namespace kl::napi
