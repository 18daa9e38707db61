// Spaces: the reference spaces VIEW, LOCAL, STAGE (and LOCAL_FLOOR for OpenXR 1.1 instances) and
// action spaces, all located through the STAGE frame of the scripted motion.
#pragma once

#include <memory>
#include <optional>

#include "bundled/simxr/handle_registry.h"
#include "bundled/simxr/session.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

/** LOCAL_FLOOR is core in OpenXR 1.1 (and offered only to 1.1 instances). */
constexpr XrReferenceSpaceType kReferenceSpaceLocalFloor = XR_REFERENCE_SPACE_TYPE_LOCAL_FLOOR;

class Space : public HandleObject {
 public:
  static constexpr HandleKind kKind = HandleKind::Space;
  enum class Kind { Reference, Action };

  Space(std::shared_ptr<Session> session_, Kind kind_, XrPosef offset_)
      : session(std::move(session_)), kind(kind_), offset(offset_) {}

  const std::shared_ptr<Session> session;
  const Kind kind;
  const XrPosef offset;  // poseInReferenceSpace / poseInActionSpace
  XrReferenceSpaceType referenceType = XR_REFERENCE_SPACE_TYPE_STAGE;
  uint64_t action = 0;
  XrPath subactionPath = XR_NULL_PATH;
};

std::shared_ptr<Space> findSpace(XrSpace space);

/** The space's origin in STAGE at `time`, or nothing when it cannot be located (inactive action). */
std::optional<XrPosef> spacePoseInStage(const Space& space, XrTime time);

}  // namespace simxr
