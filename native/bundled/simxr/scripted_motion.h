// The simulated user: head and controller poses and button presses as pure functions of time.
// Same XrTime in, same pose and button state out, always; nothing here has state.
// Poses are in the STAGE frame (origin on the floor at the centre of the play area, +Y up, the
// user facing -Z).
#pragma once

#include "bundled/simxr/xr_api.h"

namespace simxr {

enum class Hand { Left = 0, Right = 1 };
enum class Button { Select, Menu };

struct ButtonSample {
  bool pressed;
  XrTime lastChangeTime;  // when the button last went down or up, at or before the sampled time
};

/** The head (VIEW space origin, between the eyes): a gentle yaw sway, a small nod and bob. */
XrPosef headPoseInStage(XrTime time);

/** The grip pose of a hand: each hand moves on its own loop in front of the user. */
XrPosef gripPoseInStage(Hand hand, XrTime time);

/** The aim pose: the grip pose tilted forward with its origin a little ahead of the grip. */
XrPosef aimPoseInStage(Hand hand, XrTime time);

/** Buttons toggle on fixed schedules: select every 1 s (left) or 1.5 s (right), menu rarely. */
ButtonSample buttonState(Hand hand, Button button, XrTime time);

/** A button held down in [pressStart, pressEnd) of every period (ns), with the exact time of its last edge. */
ButtonSample scheduledPress(int64_t period, int64_t pressStart, int64_t pressEnd, XrTime time);

/** The LOCAL reference space origin: where the head rests, at eye height, facing -Z. */
XrPosef localSpaceInStage();

}  // namespace simxr
