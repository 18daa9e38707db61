// Native log records: the loader's C++ code emits them here, and every subscribed sink (the
// N-API bridge of each JavaScript environment) receives them, from whatever thread emitted.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kl {

// Same order and meaning as the TypeScript LogLevel (lib/core/log.ts).
enum class LogLevel : int { Error = 0, Warn = 1, Info = 2, Debug = 3 };

struct LogRecord {
  LogLevel level;
  std::string source;   // e.g. "openxr", "openxr.negotiate", "vulkan"
  std::string message;
};

using LogSink = std::function<void(const LogRecord&)>;

// The one registry of log sinks in the process.
class LogSinkRegistry {
 public:
  static LogSinkRegistry& Get();
  std::uint64_t Add(LogSink sink);
  void Remove(std::uint64_t token);
  void Emit(LogLevel level, std::string_view source, std::string message);
  std::size_t SinkCount() const;
};

inline void Log(LogLevel level, std::string_view source, std::string message) {
  LogSinkRegistry::Get().Emit(level, source, std::move(message));
}

}  // namespace kl
