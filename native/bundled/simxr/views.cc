// xrLocateViews: two eyes either side of the head pose, IPD apart, with the configured field of view.
#include <cmath>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/pose_math.h"
#include "bundled/simxr/scripted_motion.h"
#include "bundled/simxr/spaces.h"
#include "bundled/simxr/two_call.h"

namespace simxr {

SIMXR_ENTRY LocateViews(XrSession session, const XrViewLocateInfo* viewLocateInfo, XrViewState* viewState,
                        uint32_t capacity, uint32_t* countOutput, XrView* views) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(viewLocateInfo, XR_TYPE_VIEW_LOCATE_INFO) || !hasType(viewState, XR_TYPE_VIEW_STATE)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto space = findSpace(viewLocateInfo->space);
  if (!space) return XR_ERROR_HANDLE_INVALID;
  if (space->session != object) return XR_ERROR_VALIDATION_FAILURE;
  if (viewLocateInfo->viewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO) {
    return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  }
  const XrTime time = viewLocateInfo->displayTime;
  if (time <= 0) return XR_ERROR_TIME_INVALID;

  const SimConfig& config = object->instance->config;
  auto base = spacePoseInStage(*space, time);
  std::optional<XrPosef> headInBase;
  if (base) headInBase = compose(inverse(*base), headPoseInStage(time));
  viewState->viewStateFlags =
      headInBase ? XR_VIEW_STATE_ORIENTATION_VALID_BIT | XR_VIEW_STATE_POSITION_VALID_BIT |
                       XR_VIEW_STATE_ORIENTATION_TRACKED_BIT | XR_VIEW_STATE_POSITION_TRACKED_BIT
                 : 0;

  constexpr double kDegToRad = 3.14159265358979323846 / 180.0;
  const auto halfH = static_cast<float>(config.horizontalFovDeg * kDegToRad / 2.0);
  const auto halfV = static_cast<float>(config.verticalFovDeg * kDegToRad / 2.0);
  const auto halfIpd = static_cast<float>(config.ipdMeters / 2.0);
  return answerArray(
      capacity, countOutput, views, 2,
      [&](uint32_t i, XrView& view) {
        const float side = i == 0 ? -1.0f : 1.0f;  // view 0 is the left eye
        view.fov = XrFovf{-halfH, halfH, halfV, -halfV};
        if (headInBase) {
          const XrPosef eyeInHead{XrQuaternionf{0.0f, 0.0f, 0.0f, 1.0f}, XrVector3f{side * halfIpd, 0.0f, 0.0f}};
          view.pose = compose(*headInBase, eyeInHead);
        } else {
          view.pose = identityPose();
        }
      },
      XR_TYPE_VIEW);
}

}  // namespace simxr
