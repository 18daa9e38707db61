#include "common/log.h"

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace kl {

namespace {

struct SinkTable {
  mutable std::mutex mutex;
  std::uint64_t next_token = 1;
  // Sinks are shared_ptr so Emit can call them outside the lock while Remove runs.
  std::vector<std::pair<std::uint64_t, std::shared_ptr<LogSink>>> sinks;
};

SinkTable& Table() {
  static SinkTable table;
  return table;
}

}  // namespace

LogSinkRegistry& LogSinkRegistry::Get() {
  static LogSinkRegistry registry;
  return registry;
}

std::uint64_t LogSinkRegistry::Add(LogSink sink) {
  auto& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  const std::uint64_t token = table.next_token++;
  table.sinks.emplace_back(token, std::make_shared<LogSink>(std::move(sink)));
  return token;
}

void LogSinkRegistry::Remove(std::uint64_t token) {
  auto& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  std::erase_if(table.sinks, [token](const auto& entry) { return entry.first == token; });
}

void LogSinkRegistry::Emit(LogLevel level, std::string_view source, std::string message) {
  std::vector<std::shared_ptr<LogSink>> targets;
  {
    auto& table = Table();
    std::lock_guard<std::mutex> lock(table.mutex);
    if (table.sinks.empty()) return;
    targets.reserve(table.sinks.size());
    for (const auto& entry : table.sinks) targets.push_back(entry.second);
  }
  const LogRecord record{level, std::string(source), std::move(message)};
  for (const auto& sink : targets) (*sink)(record);
}

std::size_t LogSinkRegistry::SinkCount() const {
  auto& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  return table.sinks.size();
}

}  // namespace kl
