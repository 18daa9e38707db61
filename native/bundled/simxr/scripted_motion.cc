#include "bundled/simxr/scripted_motion.h"

#include <cmath>

#include "bundled/simxr/pose_math.h"

namespace simxr {
namespace {

constexpr double kTwoPi = 6.283185307179586;
constexpr int64_t kMs = 1'000'000;
constexpr float kEyeHeight = 1.6f;

/** The position of `time` within a period, in [0, 1), computed on integers so it is exact. */
double phase(XrTime time, int64_t periodNs) {
  int64_t r = time % periodNs;
  if (r < 0) r += periodNs;
  return static_cast<double>(r) / static_cast<double>(periodNs);
}

float wave(XrTime time, int64_t periodNs, double amplitude, double phaseOffset = 0.0) {
  return static_cast<float>(amplitude * std::sin(kTwoPi * (phase(time, periodNs) + phaseOffset)));
}

struct Schedule {
  int64_t period;
  int64_t pressStart;  // offset in the period where the press begins
  int64_t pressEnd;    // offset where it is released
};

Schedule scheduleOf(Hand hand, Button button) {
  if (button == Button::Select) {
    return hand == Hand::Left ? Schedule{1000 * kMs, 200 * kMs, 600 * kMs} : Schedule{1500 * kMs, 500 * kMs, 1000 * kMs};
  }
  return hand == Hand::Left ? Schedule{4000 * kMs, 3800 * kMs, 4000 * kMs} : Schedule{5000 * kMs, 4700 * kMs, 5000 * kMs};
}

const XrVector3f kAxisX{1.0f, 0.0f, 0.0f};
const XrVector3f kAxisY{0.0f, 1.0f, 0.0f};
const XrVector3f kAxisZ{0.0f, 0.0f, 1.0f};

}  // namespace

XrPosef headPoseInStage(XrTime time) {
  const float yaw = wave(time, 8000 * kMs, 0.25);
  const float pitch = wave(time, 5000 * kMs, 0.05);
  const XrQuaternionf orientation =
      quatMultiply(quatFromAxisAngle(kAxisY, yaw), quatFromAxisAngle(kAxisX, pitch));
  const XrVector3f position{wave(time, 6000 * kMs, 0.02), kEyeHeight + wave(time, 2000 * kMs, 0.01), 0.0f};
  return XrPosef{orientation, position};
}

XrPosef gripPoseInStage(Hand hand, XrTime time) {
  if (hand == Hand::Left) {
    // A circle of 8 cm radius in the frontal plane, once every 3 s, with a slow roll.
    const XrVector3f position{-0.2f + wave(time, 3000 * kMs, 0.08), 1.3f + wave(time, 3000 * kMs, 0.08, 0.25), -0.35f};
    return XrPosef{quatFromAxisAngle(kAxisZ, wave(time, 3000 * kMs, 0.3)), position};
  }
  // A figure eight, once every 4 s, with a slow yaw.
  const XrVector3f position{0.2f + wave(time, 4000 * kMs, 0.1), 1.3f + wave(time, 2000 * kMs, 0.05), -0.4f};
  return XrPosef{quatFromAxisAngle(kAxisY, wave(time, 4000 * kMs, 0.4)), position};
}

XrPosef aimPoseInStage(Hand hand, XrTime time) {
  const XrPosef gripToAim{quatFromAxisAngle(kAxisX, -0.6f), XrVector3f{0.0f, 0.0f, -0.05f}};
  return compose(gripPoseInStage(hand, time), gripToAim);
}

ButtonSample buttonState(Hand hand, Button button, XrTime time) {
  const Schedule s = scheduleOf(hand, button);
  return scheduledPress(s.period, s.pressStart, s.pressEnd, time);
}

ButtonSample scheduledPress(int64_t period, int64_t pressStart, int64_t pressEnd, XrTime time) {
  int64_t offset = time % period;
  if (offset < 0) offset += period;
  const XrTime periodStart = time - offset;
  if (offset >= pressStart && offset < pressEnd) return ButtonSample{true, periodStart + pressStart};
  if (offset >= pressEnd) return ButtonSample{false, periodStart + pressEnd};
  return ButtonSample{false, periodStart - period + pressEnd};
}

XrPosef localSpaceInStage() {
  return XrPosef{XrQuaternionf{0.0f, 0.0f, 0.0f, 1.0f}, XrVector3f{0.0f, kEyeHeight, 0.0f}};
}

}  // namespace simxr
