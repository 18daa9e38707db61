#include "bundled/simxr/event_queue.h"

#include <algorithm>

namespace simxr {

void EventQueue::pushEntry(const Entry& entry) {
  std::lock_guard lock(mutex_);
  if (entries_.size() >= kCapacity) {
    entries_.pop_front();
    ++lost_;
  }
  entries_.push_back(entry);
}

bool EventQueue::pop(XrEventDataBuffer& out) {
  std::lock_guard lock(mutex_);
  if (lost_ > 0) {
    // The spec's XrEventDataEventsLost comes first, so the application learns of the gap.
    XrEventDataEventsLost lostEvent{XR_TYPE_EVENT_DATA_EVENTS_LOST, nullptr, lost_};
    std::memset(&out, 0, sizeof(out));
    std::memcpy(&out, &lostEvent, sizeof(lostEvent));
    lost_ = 0;
    return true;
  }
  if (entries_.empty()) return false;
  out = entries_.front().event;
  entries_.pop_front();
  return true;
}

void EventQueue::dropSession(uint64_t session) {
  std::lock_guard lock(mutex_);
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.session == session; }),
                 entries_.end());
}

}  // namespace simxr
