// An instance's event queue, read by xrPollEvent. Session state changes are pushed while the
// session's own lock is held, so the order of events is the order of the transitions.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>

#include "bundled/simxr/xr_api.h"

namespace simxr {

class EventQueue {
 public:
  /** Queues an event; `session` (0 for none) lets the events of a destroyed session be dropped. */
  template <class T>
  void push(const T& event, uint64_t session) {
    static_assert(sizeof(T) <= sizeof(XrEventDataBuffer));
    Entry entry{};
    std::memcpy(&entry.event, &event, sizeof(T));
    entry.event.next = nullptr;
    entry.session = session;
    pushEntry(entry);
  }

  /** Moves the oldest event into `out`; false when the queue is empty. */
  bool pop(XrEventDataBuffer& out);

  void dropSession(uint64_t session);

  /** More queued events than this and the oldest are dropped and reported as events lost. */
  static constexpr std::size_t kCapacity = 1024;

 private:
  struct Entry {
    XrEventDataBuffer event;
    uint64_t session;
  };
  void pushEntry(const Entry& entry);

  std::mutex mutex_;
  std::deque<Entry> entries_;
  uint32_t lost_ = 0;
};

}  // namespace simxr
