#include "bundled/simxr/spaces.h"

#include <cmath>
#include <vector>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/pose_math.h"
#include "bundled/simxr/scripted_motion.h"
#include "bundled/simxr/two_call.h"

namespace simxr {
namespace {

bool isSupportedReferenceSpace(const Session& session, XrReferenceSpaceType type) {
  switch (type) {
    case XR_REFERENCE_SPACE_TYPE_VIEW:
    case XR_REFERENCE_SPACE_TYPE_LOCAL:
    case XR_REFERENCE_SPACE_TYPE_STAGE:
      return true;
    default:
      return type == kReferenceSpaceLocalFloor && usesApi11(*session.instance);
  }
}

XrPosef referenceOriginInStage(XrReferenceSpaceType type, XrTime time) {
  switch (type) {
    case XR_REFERENCE_SPACE_TYPE_VIEW:
      return headPoseInStage(time);
    case XR_REFERENCE_SPACE_TYPE_LOCAL:
      return localSpaceInStage();
    case XR_REFERENCE_SPACE_TYPE_STAGE:
      return identityPose();
    default: {  // LOCAL_FLOOR: LOCAL dropped to the floor
      XrPosef floor = localSpaceInStage();
      floor.position.y = 0.0f;
      return floor;
    }
  }
}

/** The pose of an action space's controller input, if the action is active for a bound hand. */
std::optional<XrPosef> actionOriginInStage(const Space& space, XrTime time) {
  Session& session = *space.session;
  std::lock_guard lock(session.mutex);
  auto it = session.actions.actions.find(space.action);
  if (it == session.actions.actions.end()) return std::nullopt;
  const AttachedAction& action = it->second;
  const WellKnownPaths& paths = session.instance->wellKnown;
  for (const Hand hand : {Hand::Left, Hand::Right}) {
    const XrPath handPath = hand == Hand::Left ? paths.leftHand : paths.rightHand;
    if (space.subactionPath != XR_NULL_PATH && space.subactionPath != handPath) continue;
    if (!action.hands[static_cast<int>(hand)].active) continue;
    for (const ControllerInput& input : action.bindings) {
      if (input.hand != hand) continue;
      if (input.component == Component::Grip) return gripPoseInStage(hand, time);
      if (input.component == Component::Aim) return aimPoseInStage(hand, time);
    }
  }
  return std::nullopt;
}

/** `space` relative to `base` at `time`, or nothing when either cannot be located. */
std::optional<XrPosef> relativePose(const Space& space, const Space& base, XrTime time) {
  auto a = spacePoseInStage(space, time);
  auto b = spacePoseInStage(base, time);
  if (!a || !b) return std::nullopt;
  return compose(inverse(*b), *a);
}

constexpr XrSpaceLocationFlags kAllLocationFlags =
    XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
    XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT;

/** Velocities by a central difference over ±0.5 ms of the (deterministic) scripted motion. */
void fillVelocity(const Space& space, const Space& base, XrTime time, XrSpaceVelocity& velocity) {
  constexpr XrTime kHalfStep = 500'000;
  auto before = relativePose(space, base, time - kHalfStep);
  auto after = relativePose(space, base, time + kHalfStep);
  velocity.velocityFlags = 0;
  velocity.linearVelocity = XrVector3f{0.0f, 0.0f, 0.0f};
  velocity.angularVelocity = XrVector3f{0.0f, 0.0f, 0.0f};
  if (!before || !after) return;
  const float dt = 2.0f * static_cast<float>(kHalfStep) * 1e-9f;
  velocity.linearVelocity = XrVector3f{(after->position.x - before->position.x) / dt,
                                       (after->position.y - before->position.y) / dt,
                                       (after->position.z - before->position.z) / dt};
  // The rotation from before to after, in the base frame, as an axis-angle rate.
  XrQuaternionf delta = quatMultiply(after->orientation, quatConjugate(before->orientation));
  if (delta.w < 0.0f) delta = XrQuaternionf{-delta.x, -delta.y, -delta.z, -delta.w};
  const float sinHalf = std::sqrt(delta.x * delta.x + delta.y * delta.y + delta.z * delta.z);
  if (sinHalf > 1e-9f) {
    const float angle = 2.0f * std::atan2(sinHalf, delta.w);
    const float scale = angle / (sinHalf * dt);
    velocity.angularVelocity = XrVector3f{delta.x * scale, delta.y * scale, delta.z * scale};
  }
  velocity.velocityFlags = XR_SPACE_VELOCITY_LINEAR_VALID_BIT | XR_SPACE_VELOCITY_ANGULAR_VALID_BIT;
}

}  // namespace

std::shared_ptr<Space> findSpace(XrSpace space) { return HandleRegistry::global().get<Space>(handleValue(space)); }

std::optional<XrPosef> spacePoseInStage(const Space& space, XrTime time) {
  std::optional<XrPosef> origin = space.kind == Space::Kind::Reference
                                      ? std::optional<XrPosef>(referenceOriginInStage(space.referenceType, time))
                                      : actionOriginInStage(space, time);
  if (!origin) return std::nullopt;
  return compose(*origin, space.offset);
}

SIMXR_ENTRY EnumerateReferenceSpaces(XrSession session, uint32_t capacity, uint32_t* countOutput,
                                     XrReferenceSpaceType* spaces) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  std::vector<XrReferenceSpaceType> types{XR_REFERENCE_SPACE_TYPE_VIEW, XR_REFERENCE_SPACE_TYPE_LOCAL,
                                          XR_REFERENCE_SPACE_TYPE_STAGE};
  if (usesApi11(*object->instance)) types.push_back(kReferenceSpaceLocalFloor);
  return answerArray(capacity, countOutput, spaces, static_cast<uint32_t>(types.size()),
                     [&types](uint32_t i, XrReferenceSpaceType& out) { out = types[i]; });
}

SIMXR_ENTRY CreateReferenceSpace(XrSession session, const XrReferenceSpaceCreateInfo* createInfo, XrSpace* space) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_REFERENCE_SPACE_CREATE_INFO) || space == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (!isSupportedReferenceSpace(*object, createInfo->referenceSpaceType)) return XR_ERROR_REFERENCE_SPACE_UNSUPPORTED;
  if (!isValidPose(createInfo->poseInReferenceSpace)) return XR_ERROR_POSE_INVALID;
  auto created = std::make_shared<Space>(object, Space::Kind::Reference, createInfo->poseInReferenceSpace);
  created->referenceType = createInfo->referenceSpaceType;
  *space = toHandle<XrSpace>(HandleRegistry::global().insert(HandleKind::Space, object->handle, created));
  return XR_SUCCESS;
}

SIMXR_ENTRY GetReferenceSpaceBoundsRect(XrSession session, XrReferenceSpaceType referenceSpaceType,
                                        XrExtent2Df* bounds) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (bounds == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (!isSupportedReferenceSpace(*object, referenceSpaceType)) return XR_ERROR_REFERENCE_SPACE_UNSUPPORTED;
  if (referenceSpaceType != XR_REFERENCE_SPACE_TYPE_STAGE) {
    *bounds = XrExtent2Df{0.0f, 0.0f};
    return XR_SPACE_BOUNDS_UNAVAILABLE;
  }
  *bounds = XrExtent2Df{object->instance->config.playAreaWidth, object->instance->config.playAreaDepth};
  return XR_SUCCESS;
}

SIMXR_ENTRY CreateActionSpace(XrSession session, const XrActionSpaceCreateInfo* createInfo, XrSpace* space) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_ACTION_SPACE_CREATE_INFO) || space == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  auto action = findAction(createInfo->action);
  if (!action) return XR_ERROR_HANDLE_INVALID;
  if (action->set->instance != object->instance) return XR_ERROR_VALIDATION_FAILURE;
  if (action->type != XR_ACTION_TYPE_POSE_INPUT) return XR_ERROR_ACTION_TYPE_MISMATCH;
  const XrPath subaction = createInfo->subactionPath;
  if (subaction != XR_NULL_PATH) {
    if (!object->instance->paths.toString(subaction)) return XR_ERROR_PATH_INVALID;
    bool declared = false;
    for (XrPath p : action->subactionPaths) declared = declared || p == subaction;
    if (!declared) return XR_ERROR_PATH_UNSUPPORTED;
  }
  if (!isValidPose(createInfo->poseInActionSpace)) return XR_ERROR_POSE_INVALID;
  auto created = std::make_shared<Space>(object, Space::Kind::Action, createInfo->poseInActionSpace);
  created->action = action->handle;
  created->subactionPath = subaction;
  *space = toHandle<XrSpace>(HandleRegistry::global().insert(HandleKind::Space, object->handle, created));
  return XR_SUCCESS;
}

SIMXR_ENTRY LocateSpace(XrSpace space, XrSpace baseSpace, XrTime time, XrSpaceLocation* location) {
  auto object = findSpace(space);
  auto base = findSpace(baseSpace);
  if (!object || !base) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(location, XR_TYPE_SPACE_LOCATION)) return XR_ERROR_VALIDATION_FAILURE;
  if (object->session != base->session) return XR_ERROR_VALIDATION_FAILURE;
  if (time <= 0) return XR_ERROR_TIME_INVALID;
  auto* velocity = findInNextChainMutable<XrSpaceVelocity>(location, XR_TYPE_SPACE_VELOCITY);
  auto pose = relativePose(*object, *base, time);
  if (pose) {
    location->locationFlags = kAllLocationFlags;
    location->pose = *pose;
  } else {
    location->locationFlags = 0;
    location->pose = identityPose();
  }
  if (velocity != nullptr) fillVelocity(*object, *base, time, *velocity);
  return XR_SUCCESS;
}

// OpenXR 1.1 (promoted from XR_KHR_locate_spaces): many spaces against one base at one time.
SIMXR_ENTRY LocateSpaces(XrSession session, const XrSpacesLocateInfo* locateInfo, XrSpaceLocations* spaceLocations) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(locateInfo, XR_TYPE_SPACES_LOCATE_INFO) || !hasType(spaceLocations, XR_TYPE_SPACE_LOCATIONS)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (locateInfo->spaceCount == 0 || locateInfo->spaces == nullptr || spaceLocations->locations == nullptr ||
      spaceLocations->locationCount != locateInfo->spaceCount) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto* velocities = findInNextChainMutable<XrSpaceVelocities>(spaceLocations, XR_TYPE_SPACE_VELOCITIES);
  if (velocities != nullptr && (velocities->velocities == nullptr || velocities->velocityCount != locateInfo->spaceCount)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto base = findSpace(locateInfo->baseSpace);
  if (!base) return XR_ERROR_HANDLE_INVALID;
  if (base->session != object) return XR_ERROR_VALIDATION_FAILURE;
  if (locateInfo->time <= 0) return XR_ERROR_TIME_INVALID;
  // Validate every space before writing anything, so a failure leaves the outputs untouched.
  std::vector<std::shared_ptr<Space>> spaces;
  spaces.reserve(locateInfo->spaceCount);
  for (uint32_t i = 0; i < locateInfo->spaceCount; ++i) {
    auto space = findSpace(locateInfo->spaces[i]);
    if (!space) return XR_ERROR_HANDLE_INVALID;
    if (space->session != object) return XR_ERROR_VALIDATION_FAILURE;
    spaces.push_back(std::move(space));
  }
  for (uint32_t i = 0; i < locateInfo->spaceCount; ++i) {
    XrSpaceLocationData& out = spaceLocations->locations[i];
    auto pose = relativePose(*spaces[i], *base, locateInfo->time);
    out.locationFlags = pose ? kAllLocationFlags : 0;
    out.pose = pose ? *pose : identityPose();
    if (velocities != nullptr) {
      XrSpaceVelocity velocity{XR_TYPE_SPACE_VELOCITY, nullptr, 0, {}, {}};
      fillVelocity(*spaces[i], *base, locateInfo->time, velocity);
      velocities->velocities[i] = XrSpaceVelocityData{velocity.velocityFlags, velocity.linearVelocity, velocity.angularVelocity};
    }
  }
  return XR_SUCCESS;
}

SIMXR_ENTRY DestroySpace(XrSpace space) {
  return HandleRegistry::global().erase(handleValue(space), HandleKind::Space) ? XR_SUCCESS : XR_ERROR_HANDLE_INVALID;
}

}  // namespace simxr
