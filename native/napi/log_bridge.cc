#include "napi/log_bridge.h"

#include "napi/errors.h"

namespace kl::napi {

struct LogBridge::Channel {
  std::mutex mutex;
  bool open = true;
  Napi::ThreadSafeFunction function;
};

LogBridge::~LogBridge() { Detach(); }

void LogBridge::Detach() {
  if (sink_token_ != 0) LogSinkRegistry::Get().Remove(sink_token_);
  sink_token_ = 0;
  if (channel_) {
    std::lock_guard<std::mutex> lock(channel_->mutex);
    // Already finalized by the environment's teardown (a worker stopping) when no longer open.
    if (channel_->open) channel_->function.Release();
    channel_->open = false;
  }
  channel_.reset();
}

void LogBridge::SetHandler(Napi::Env env, Napi::Value handler) {
  Detach();
  if (handler.IsNull() || handler.IsUndefined()) return;
  if (!handler.IsFunction()) throw ArgumentError(env, "setLogHandler(handler): handler must be a function or null");

  auto channel = std::make_shared<Channel>();
  // When the environment goes away (a worker terminating) Node finalizes the function before the
  // objects whose teardown still logs (instances destroyed by their finalizers): close the channel
  // then, so they never call a finalized function.
  std::weak_ptr<Channel> weak = channel;
  channel->function = Napi::ThreadSafeFunction::New(env, handler.As<Napi::Function>(), "khronos-loader log", 0, 1, [weak](Napi::Env) {
    if (auto c = weak.lock()) {
      std::lock_guard<std::mutex> lock(c->mutex);
      c->open = false;
    }
  });
  channel->function.Unref(env);  // logging alone must not keep the process running
  channel_ = channel;

  sink_token_ = LogSinkRegistry::Get().Add([channel](const LogRecord& record) {
    std::lock_guard<std::mutex> lock(channel->mutex);
    if (!channel->open) return;
    auto* copy = new LogRecord(record);
    const napi_status status = channel->function.NonBlockingCall(copy, [](Napi::Env env, Napi::Function fn, LogRecord* data) {
      std::unique_ptr<LogRecord> owned(data);
      if (env == nullptr || fn.IsEmpty()) return;
      // The JavaScript side's handler never throws; a failure here means the environment is
      // shutting down, when a log record may be dropped but must not abort the process.
      try {
        fn.Call({Napi::Number::New(env, static_cast<int>(owned->level)), Napi::String::New(env, owned->source),
                 Napi::String::New(env, owned->message)});
      } catch (const Napi::Error&) {
      }
    });
    if (status != napi_ok) delete copy;
  });
}

}  // namespace kl::napi
