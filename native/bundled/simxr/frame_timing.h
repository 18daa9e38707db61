// Display timing: XrTime is CLOCK_MONOTONIC in nanoseconds; frames are paced on a fixed grid of
// display periods that starts when the session begins.
#pragma once

#include <cstdint>

#include "bundled/simxr/xr_api.h"

namespace simxr {

/** Now, as an XrTime (CLOCK_MONOTONIC nanoseconds). */
XrTime monotonicNow();

/** Sleeps until the monotonic clock reaches `time` (returns at once if it already has). */
void sleepUntil(XrTime time);

/**
 * Chooses the frame slots handed out by xrWaitFrame. Period boundaries are epoch + k * period.
 * Each call takes the next boundary after both the previous slot and `now`, so predicted display
 * times strictly increase and a late application skips the boundaries it missed.
 */
class FramePacer {
 public:
  struct Slot {
    XrTime wakeTime;              // when xrWaitFrame returns: the start of the frame's period
    XrTime predictedDisplayTime;  // one period later: when the frame is shown
  };

  explicit FramePacer(int64_t periodNs) : period_(periodNs) {}

  void restart(XrTime epoch) {
    epoch_ = epoch;
    lastIndex_ = 0;
  }

  Slot nextSlot(XrTime now) {
    const int64_t elapsedIndex = now <= epoch_ ? 0 : (now - epoch_) / period_;
    const int64_t index = elapsedIndex + 1 > lastIndex_ + 1 ? elapsedIndex + 1 : lastIndex_ + 1;
    lastIndex_ = index;
    const XrTime wake = epoch_ + index * period_;
    return Slot{wake, wake + period_};
  }

  int64_t period() const { return period_; }

 private:
  int64_t period_;
  XrTime epoch_ = 0;
  int64_t lastIndex_ = 0;
};

}  // namespace simxr
