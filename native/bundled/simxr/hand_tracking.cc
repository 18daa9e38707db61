#include "bundled/simxr/hand_tracking.h"

#include <cmath>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/pose_math.h"
#include "bundled/simxr/scripted_inputs.h"
#include "bundled/simxr/spaces.h"

namespace simxr {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr uint32_t kJoints = XR_HAND_JOINT_COUNT_EXT;

struct Finger {
  uint32_t first;          // the metacarpal's joint index
  uint32_t bones;          // metacarpal .. distal (the thumb has no intermediate)
  float across;            // where the metacarpal starts across the wrist, metres toward the thumb
  float lengths[4];        // bone lengths, metres
  float radius;            // the metacarpal joint's radius; each joint toward the tip is 1 mm thinner
};

// XrHandJointEXT: PALM 0, WRIST 1, THUMB 2..5, INDEX 6..10, MIDDLE 11..15, RING 16..20, LITTLE 21..25.
constexpr Finger kFingers[] = {
    {2, 3, 0.025f, {0.045f, 0.035f, 0.03f, 0.0f}, 0.012f},
    {6, 4, 0.02f, {0.065f, 0.04f, 0.025f, 0.02f}, 0.011f},
    {11, 4, 0.0f, {0.063f, 0.045f, 0.028f, 0.02f}, 0.011f},
    {16, 4, -0.018f, {0.06f, 0.04f, 0.026f, 0.02f}, 0.01f},
    {21, 4, -0.034f, {0.055f, 0.032f, 0.02f, 0.018f}, 0.009f},
};

const XrVector3f kAxisX{1.0f, 0.0f, 0.0f};
const XrVector3f kForward{0.0f, 0.0f, -1.0f};

XrVector3f scale(const XrVector3f& v, float s) { return XrVector3f{v.x * s, v.y * s, v.z * s}; }

std::shared_ptr<HandTracker> findHandTracker(XrHandTrackerEXT tracker) {
  return HandleRegistry::global().get<HandTracker>(handleValue(tracker));
}

}  // namespace

bool handTracked(Hand hand, XrTime time) {
  const ButtonSample lost = hand == Hand::Left ? scheduledPress(8000 * kMs, 7000 * kMs, 8000 * kMs, time)
                                               : scheduledPress(10000 * kMs, 9000 * kMs, 10000 * kMs, time);
  return !lost.pressed;
}

void handJointsInStage(Hand hand, XrTime time, XrPosef* poses, float* radii) {
  // The wrist sits 6 cm behind the grip; the fingers point along the grip's -Z, the thumb toward
  // the body's midline (+X for the left hand, -X for the right).
  const XrPosef grip = gripPoseInStage(hand, time);
  const XrPosef wrist = compose(grip, XrPosef{XrQuaternionf{0, 0, 0, 1}, XrVector3f{0.0f, 0.0f, 0.06f}});
  const float side = hand == Hand::Left ? 1.0f : -1.0f;
  // Fingers curl with the squeeze: up to 1.2 rad per joint (0.6 for the thumb).
  const float curl = sampleInput(hand, Component::Squeeze, Feature::Value, time).x;
  poses[XR_HAND_JOINT_WRIST_EXT] = wrist;
  radii[XR_HAND_JOINT_WRIST_EXT] = 0.025f;
  for (const Finger& finger : kFingers) {
    const bool thumb = finger.first == XR_HAND_JOINT_THUMB_METACARPAL_EXT;
    const float perJoint = curl * (thumb ? 0.6f : 1.2f);
    XrPosef joint{wrist.orientation, add(wrist.position, rotate(wrist.orientation, XrVector3f{side * finger.across, 0.0f, -0.01f}))};
    for (uint32_t b = 0; b <= finger.bones; ++b) {
      // Each bone after the metacarpal bends by the curl about the hand's X axis.
      if (b > 0 && b < finger.bones) joint.orientation = quatMultiply(joint.orientation, quatFromAxisAngle(kAxisX, -perJoint));
      poses[finger.first + b] = joint;
      radii[finger.first + b] = finger.radius - 0.001f * static_cast<float>(b);
      if (b < finger.bones) joint.position = add(joint.position, rotate(joint.orientation, scale(kForward, finger.lengths[b])));
    }
  }
  // The palm: halfway along the middle finger's metacarpal, oriented as the wrist.
  const XrVector3f& a = poses[XR_HAND_JOINT_MIDDLE_METACARPAL_EXT].position;
  const XrVector3f& b = poses[XR_HAND_JOINT_MIDDLE_PROXIMAL_EXT].position;
  poses[XR_HAND_JOINT_PALM_EXT] = XrPosef{wrist.orientation, XrVector3f{(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2}};
  radii[XR_HAND_JOINT_PALM_EXT] = 0.035f;
}

SIMXR_ENTRY CreateHandTrackerEXT(XrSession session, const XrHandTrackerCreateInfoEXT* createInfo, XrHandTrackerEXT* handTracker) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT) || handTracker == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (createInfo->hand != XR_HAND_LEFT_EXT && createInfo->hand != XR_HAND_RIGHT_EXT) return XR_ERROR_VALIDATION_FAILURE;
  if (createInfo->handJointSet != XR_HAND_JOINT_SET_DEFAULT_EXT) return XR_ERROR_VALIDATION_FAILURE;
  auto created = std::make_shared<HandTracker>(object, createInfo->hand == XR_HAND_LEFT_EXT ? Hand::Left : Hand::Right);
  *handTracker = toHandle<XrHandTrackerEXT>(HandleRegistry::global().insert(HandleKind::HandTracker, object->handle, created));
  return XR_SUCCESS;
}

SIMXR_ENTRY DestroyHandTrackerEXT(XrHandTrackerEXT handTracker) {
  return HandleRegistry::global().erase(handleValue(handTracker), HandleKind::HandTracker) ? XR_SUCCESS
                                                                                          : XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY LocateHandJointsEXT(XrHandTrackerEXT handTracker, const XrHandJointsLocateInfoEXT* locateInfo,
                                XrHandJointLocationsEXT* locations) {
  auto tracker = findHandTracker(handTracker);
  if (!tracker) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(locateInfo, XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT) || !hasType(locations, XR_TYPE_HAND_JOINT_LOCATIONS_EXT)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (locations->jointCount != kJoints || locations->jointLocations == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  auto* velocities = findInNextChainMutable<XrHandJointVelocitiesEXT>(locations, XR_TYPE_HAND_JOINT_VELOCITIES_EXT);
  if (velocities != nullptr && (velocities->jointCount != kJoints || velocities->jointVelocities == nullptr)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto base = findSpace(locateInfo->baseSpace);
  if (!base) return XR_ERROR_HANDLE_INVALID;
  if (base->session != tracker->session) return XR_ERROR_VALIDATION_FAILURE;
  const XrTime time = locateInfo->time;
  if (time <= 0) return XR_ERROR_TIME_INVALID;

  // Joints relative to the base space at `time`, or nothing when untracked or the base cannot be located.
  auto locate = [&](XrTime t, XrPosef* poses, float* radii) {
    auto baseInStage = spacePoseInStage(*base, t);
    if (!baseInStage || !handTracked(tracker->hand, t)) return false;
    handJointsInStage(tracker->hand, t, poses, radii);
    const XrPosef toBase = inverse(*baseInStage);
    for (uint32_t i = 0; i < kJoints; ++i) poses[i] = compose(toBase, poses[i]);
    return true;
  };
  XrPosef poses[kJoints];
  float radii[kJoints];
  const bool active = locate(time, poses, radii);
  locations->isActive = active ? XR_TRUE : XR_FALSE;
  constexpr XrSpaceLocationFlags kAll = XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
                                        XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT;
  for (uint32_t i = 0; i < kJoints; ++i) {
    XrHandJointLocationEXT& out = locations->jointLocations[i];
    out.locationFlags = active ? kAll : 0;
    out.pose = active ? poses[i] : identityPose();
    out.radius = active ? radii[i] : 0.0f;
  }
  if (velocities != nullptr) {
    // Linear velocities by a central difference over ±0.5 ms of the (deterministic) script.
    constexpr XrTime kHalfStep = 500'000;
    XrPosef before[kJoints], after[kJoints];
    float unused[kJoints];
    const bool known = active && locate(time - kHalfStep, before, unused) && locate(time + kHalfStep, after, unused);
    const float dt = 2.0f * static_cast<float>(kHalfStep) * 1e-9f;
    for (uint32_t i = 0; i < kJoints; ++i) {
      XrHandJointVelocityEXT& v = velocities->jointVelocities[i];
      v.velocityFlags = known ? XR_SPACE_VELOCITY_LINEAR_VALID_BIT : 0;
      v.linearVelocity = known ? XrVector3f{(after[i].position.x - before[i].position.x) / dt, (after[i].position.y - before[i].position.y) / dt,
                                            (after[i].position.z - before[i].position.z) / dt}
                               : XrVector3f{0.0f, 0.0f, 0.0f};
      v.angularVelocity = XrVector3f{0.0f, 0.0f, 0.0f};
    }
  }
  return XR_SUCCESS;
}

}  // namespace simxr
