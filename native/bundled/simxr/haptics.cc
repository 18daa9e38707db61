// xrApplyHapticFeedback and xrStopHapticFeedback: validated as the spec says, then recorded per
// bound haptic output so tests can read back what the controllers were told
// (xrDrainHapticEventsSIMXR, include/simxr_haptics.h).
#include <algorithm>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/session.h"
#include "bundled/simxr/two_call.h"

namespace simxr {
namespace {

/** Validates a haptic call's action (attached, a vibration output, a declared subaction path); the attached action. */
XrResult checkHapticAction(Session& session, const XrHapticActionInfo* info, const AttachedAction*& out) {
  if (!hasType(info, XR_TYPE_HAPTIC_ACTION_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  auto action = findAction(info->action);
  if (!action) return XR_ERROR_HANDLE_INVALID;
  auto it = session.actions.actions.find(action->handle);
  if (it == session.actions.actions.end()) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  if (it->second.type != XR_ACTION_TYPE_VIBRATION_OUTPUT) return XR_ERROR_ACTION_TYPE_MISMATCH;
  if (info->subactionPath != XR_NULL_PATH) {
    if (!session.instance->paths.toString(info->subactionPath)) return XR_ERROR_PATH_INVALID;
    const auto& declared = it->second.subactionPaths;
    if (std::find(declared.begin(), declared.end(), info->subactionPath) == declared.end()) {
      return XR_ERROR_PATH_UNSUPPORTED;
    }
  }
  out = &it->second;
  return XR_SUCCESS;
}

/** Records `event` once per haptic output the action is bound to (on the subaction path's hand, if one). Mutex held. */
void record(Session& session, const XrHapticActionInfo& info, const AttachedAction& action, XrHapticEventSIMXR event) {
  const WellKnownPaths& paths = session.instance->wellKnown;
  event.time = session.sampleTime();
  event.action = info.action;
  for (const ControllerInput& input : action.bindings) {
    if (input.feature != Feature::Haptic) continue;
    const XrPath hand = input.hand == Hand::Left ? paths.leftHand : paths.rightHand;
    if (info.subactionPath != XR_NULL_PATH && info.subactionPath != hand) continue;
    event.source = input.source;
    if (session.hapticEvents.size() >= XR_SIMXR_MAX_HAPTIC_EVENTS) session.hapticEvents.pop_front();
    session.hapticEvents.push_back(event);
  }
}

}  // namespace

SIMXR_ENTRY ApplyHapticFeedback(XrSession session, const XrHapticActionInfo* hapticActionInfo,
                                const XrHapticBaseHeader* hapticFeedback) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(hapticFeedback, XR_TYPE_HAPTIC_VIBRATION)) return XR_ERROR_VALIDATION_FAILURE;
  const auto& vibration = *reinterpret_cast<const XrHapticVibration*>(hapticFeedback);
  if (!(vibration.amplitude >= 0.0f && vibration.amplitude <= 1.0f) || !(vibration.frequency >= 0.0f)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  std::lock_guard lock(object->mutex);
  const AttachedAction* action = nullptr;
  if (XrResult r = checkHapticAction(*object, hapticActionInfo, action); r != XR_SUCCESS) return r;
  // Felt only while the session is focused, as input is read only then.
  if (object->state != XR_SESSION_STATE_FOCUSED) return XR_SESSION_NOT_FOCUSED;
  record(*object, *hapticActionInfo, *action,
         XrHapticEventSIMXR{0, XR_NULL_PATH, XR_NULL_HANDLE, vibration.duration, vibration.frequency, vibration.amplitude, 0});
  return XR_SUCCESS;
}

SIMXR_ENTRY StopHapticFeedback(XrSession session, const XrHapticActionInfo* hapticActionInfo) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(object->mutex);
  const AttachedAction* action = nullptr;
  if (XrResult r = checkHapticAction(*object, hapticActionInfo, action); r != XR_SUCCESS) return r;
  if (object->state != XR_SESSION_STATE_FOCUSED) return XR_SESSION_NOT_FOCUSED;
  record(*object, *hapticActionInfo, *action, XrHapticEventSIMXR{0, XR_NULL_PATH, XR_NULL_HANDLE, 0, 0.0f, 0.0f, 1});
  return XR_SUCCESS;
}

SIMXR_ENTRY DrainHapticEventsSIMXR(XrSession session, uint32_t capacity, uint32_t* countOutput, XrHapticEventSIMXR* events) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(object->mutex);
  return answerDrain(object->hapticEvents, capacity, countOutput, events);
}

}  // namespace simxr
