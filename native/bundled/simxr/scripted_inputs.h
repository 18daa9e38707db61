// The simulated controllers' buttons, triggers, squeezes, thumbsticks and trackpads as pure
// functions of time, like scripted_motion.h's poses (schedules in native/bundled/simxr/README.md).
#pragma once

#include "bundled/simxr/interaction_profiles.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

struct InputSample {
  /** Click and touch: 0 or 1; value and force: 0..1; x, y and the two-axis vector: -1..1 (y is the vector's y). */
  float x = 0.0f;
  float y = 0.0f;
  /** The exact time of the last change for inputs that switch on a schedule; 0 for those that move continuously. */
  XrTime edge = 0;
};

/** What `feature` of `component` on `hand` reads at `time` (poses and the haptic output read 0). */
InputSample sampleInput(Hand hand, Component component, Feature feature, XrTime time);

}  // namespace simxr
