#include "simxr/frame_timing.h"

#include <cerrno>
#include <ctime>

namespace simxr {

XrTime monotonicNow() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<XrTime>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void sleepUntil(XrTime time) {
  timespec target{};
  target.tv_sec = static_cast<time_t>(time / 1'000'000'000);
  target.tv_nsec = static_cast<long>(time % 1'000'000'000);
  // clock_nanosleep returns the error number directly; EINTR means a signal woke us early.
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nullptr) == EINTR) {
  }
}

}  // namespace simxr
