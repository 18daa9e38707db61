// Delivers native log records to one JavaScript function per environment (main thread or
// worker), whatever thread emitted them, through a thread-safe function that does not keep
// the event loop alive. Records wait in the bridge's own queue, not in Node's: one the
// environment never got to deliver (it was torn down first) is freed with the bridge.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include "common/log.h"

namespace kl::napi {

class LogBridge {
 public:
  LogBridge() = default;
  LogBridge(const LogBridge&) = delete;
  LogBridge& operator=(const LogBridge&) = delete;
  ~LogBridge();

  // handler(level: number, source: string, message: string); null/undefined detaches.
  void SetHandler(Napi::Env env, Napi::Value handler);
  // A promise resolved once every record emitted before the call has reached the handler.
  Napi::Value Flush(Napi::Env env);

 private:
  struct Channel;
  // `env` null at teardown, when waiting flushes are dropped rather than settled.
  void Detach(napi_env env);

  std::shared_ptr<Channel> channel_;
  std::uint64_t sink_token_ = 0;
};

}  // namespace kl::napi
