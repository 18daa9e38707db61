#include "bundled/simxr/frame_timing.h"

#include <cerrno>
#include <chrono>
#include <ctime>
#include <thread>

namespace simxr {

XrTime monotonicNow() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<XrTime>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

#ifdef _WIN32
// winpthreads' clock_nanosleep takes CLOCK_REALTIME only (EINVAL for CLOCK_MONOTONIC, which would
// leave frames unpaced): sleep the remaining time on the same clock until it is reached.
void sleepUntil(XrTime time) {
  for (XrTime now = monotonicNow(); now < time; now = monotonicNow()) {
    std::this_thread::sleep_for(std::chrono::nanoseconds(time - now));
  }
}
#else
void sleepUntil(XrTime time) {
  timespec target{};
  target.tv_sec = static_cast<time_t>(time / 1'000'000'000);
  target.tv_nsec = static_cast<long>(time % 1'000'000'000);
  // clock_nanosleep returns the error number directly; EINTR means a signal woke us early.
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nullptr) == EINTR) {
  }
}
#endif

}  // namespace simxr
