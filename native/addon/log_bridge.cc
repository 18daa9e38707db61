#include "addon/log_bridge.h"

#include <deque>
#include <optional>
#include <utility>

#include "addon/errors.h"
#include "addon/pending_promise.h"

namespace kl::napi {

struct LogBridge::Channel {
  std::mutex mutex;
  bool open = true;       // false once released or finalized: records are dropped
  bool scheduled = false;  // a call of the function is queued and will drain `pending`
  // A record, or a flush marker: the promise resolved once every record queued before it is delivered.
  struct Entry {
    LogRecord record;
    std::optional<Napi::Promise::Deferred> flushed;
  };
  std::deque<Entry> pending;
  napi_threadsafe_function function = nullptr;

  // On the environment's thread: the records queued so far, in order.
  static void Deliver(napi_env env, napi_value handler, void* context, void* /*data*/) {
    if (env == nullptr || handler == nullptr) return;  // Node emptying its queue at teardown
    Channel& c = **static_cast<std::shared_ptr<Channel>*>(context);
    std::deque<Entry> entries;
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      entries.swap(c.pending);
      c.scheduled = false;
    }
    Napi::Env e(env);
    Napi::Function fn(env, handler);
    for (const Entry& entry : entries) {
      if (entry.flushed) {
        entry.flushed->Resolve(e.Undefined());
        continue;
      }
      const LogRecord& r = entry.record;
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
  void Emit(const LogRecord& record) { Queue(Entry{record, std::nullopt}); }
  // Queues an entry; false when the channel is closing and nothing will be delivered.
  bool Queue(Entry entry) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!open) return false;
    pending.push_back(std::move(entry));
    if (scheduled) return true;
    scheduled = napi_call_threadsafe_function(function, nullptr, napi_tsfn_nonblocking) == napi_ok;
    if (!scheduled) pending.clear();  // closing: nobody is left to deliver to
    return scheduled;
  }
};

LogBridge::~LogBridge() { Detach(nullptr); }

void LogBridge::Detach(napi_env env) {
  if (sink_token_ != 0) LogSinkRegistry::Get().Remove(sink_token_);
  sink_token_ = 0;
  if (channel_) {
    std::lock_guard<std::mutex> lock(channel_->mutex);
    // Already finalized by the environment's teardown (a worker stopping) when no longer open.
    if (channel_->open) napi_release_threadsafe_function(channel_->function, napi_tsfn_release);
    channel_->open = false;
    // A flush still waiting is settled: nothing queued before it will be delivered any more.
    for (const Channel::Entry& entry : channel_->pending) {
      if (entry.flushed && env != nullptr) entry.flushed->Resolve(Napi::Env(env).Undefined());
    }
    channel_->pending.clear();
  }
  channel_.reset();
}

void LogBridge::SetHandler(Napi::Env env, Napi::Value handler) {
  Detach(env);
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

Napi::Value LogBridge::Flush(Napi::Env env) {
  // Records are delivered in the order they were queued, so the marker's turn comes after every
  // record emitted before this call. Without a handler nothing is waiting to be delivered.
  Napi::Promise::Deferred deferred = NewPendingPromise(env);
  Napi::Promise promise = deferred.Promise();
  if (!channel_ || !channel_->Queue(Channel::Entry{LogRecord{LogLevel::Debug, "", ""}, deferred})) deferred.Resolve(env.Undefined());
  return promise;
}

}  // namespace kl::napi
