// XR_EXT_hand_tracking: hand trackers (children of their session) and the scripted hands — a
// 26-joint skeleton (XrHandJointEXT order) held at each grip pose, its fingers curling with the
// squeeze (scripted_inputs.h), each hand lost from tracking for one second on a schedule.
#pragma once

#include <memory>

#include "bundled/simxr/handle_registry.h"
#include "bundled/simxr/session.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

class HandTracker : public HandleObject {
 public:
  static constexpr HandleKind kKind = HandleKind::HandTracker;
  HandTracker(std::shared_ptr<Session> session_, Hand hand_) : session(std::move(session_)), hand(hand_) {}
  const std::shared_ptr<Session> session;
  const Hand hand;
};

/** Whether the scripted hand is tracked at `time`: the left one is lost in [7 s, 8 s) of every 8 s, the right in [9 s, 10 s) of every 10 s. */
bool handTracked(Hand hand, XrTime time);

/** The scripted joints of a hand in STAGE at `time` (XR_HAND_JOINT_COUNT_EXT poses and radii). */
void handJointsInStage(Hand hand, XrTime time, XrPosef* poses, float* radii);

}  // namespace simxr
