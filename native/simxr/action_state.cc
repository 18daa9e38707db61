// Attaching action sets to a session, syncing actions against the scripted controllers, and
// reading action state.
#include <algorithm>
#include <string>

#include "simxr/actions.h"
#include "simxr/entry_points.h"
#include "simxr/scripted_motion.h"
#include "simxr/session.h"
#include "simxr/two_call.h"

namespace simxr {
namespace {

struct Sample {
  bool pressed;
  XrTime lastChangeTime;
};

/**
 * Combines button samples as "any pressed": pressed since the first of the pressed ones went
 * down; released since the last of them went up.
 */
Sample combine(const std::vector<Sample>& samples) {
  Sample out{false, 0};
  bool anyPressed = false;
  for (const auto& s : samples) anyPressed = anyPressed || s.pressed;
  out.pressed = anyPressed;
  bool first = true;
  for (const auto& s : samples) {
    if (anyPressed && !s.pressed) continue;
    if (first) {
      out.lastChangeTime = s.lastChangeTime;
      first = false;
    } else {
      out.lastChangeTime = anyPressed ? std::min(out.lastChangeTime, s.lastChangeTime)
                                      : std::max(out.lastChangeTime, s.lastChangeTime);
    }
  }
  return out;
}

/** Stores a new sample, computing changedSinceLastSync against the previous synced state. */
void update(SubactionState& state, bool active, const Sample& sample) {
  const bool wasActive = state.active;
  const bool was = state.pressed;
  state.active = active;
  state.pressed = active && sample.pressed;
  state.lastChangeTime = active ? sample.lastChangeTime : 0;
  state.changed = active && wasActive && was != state.pressed;
}

Sample sampleInputs(const AttachedAction& action, Hand hand, XrTime time) {
  std::vector<Sample> samples;
  for (const ControllerInput& input : action.bindings) {
    if (input.hand != hand) continue;
    if (input.kind == InputKind::SelectClick || input.kind == InputKind::MenuClick) {
      auto s = buttonState(hand, input.kind == InputKind::SelectClick ? Button::Select : Button::Menu, time);
      samples.push_back(Sample{s.pressed, s.lastChangeTime});
    }
  }
  return samples.empty() ? Sample{false, 0} : combine(samples);
}

bool isBound(const AttachedAction& action, Hand hand) {
  return std::any_of(action.bindings.begin(), action.bindings.end(),
                     [hand](const ControllerInput& input) { return input.hand == hand; });
}

/** Looks up the attached action for a get-state call; validates the subaction path. */
XrResult findStateFor(Session& session, const XrActionStateGetInfo* getInfo, XrActionType expected,
                      const SubactionState*& out) {
  auto action = findAction(getInfo->action);
  if (!action) return XR_ERROR_HANDLE_INVALID;
  auto it = session.actions.actions.find(action->handle);
  if (it == session.actions.actions.end()) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  const AttachedAction& attached = it->second;
  if (attached.type != expected) return XR_ERROR_ACTION_TYPE_MISMATCH;
  const XrPath subaction = getInfo->subactionPath;
  if (subaction == XR_NULL_PATH) {
    out = &attached.combined;
    return XR_SUCCESS;
  }
  if (!session.instance->paths.toString(subaction)) return XR_ERROR_PATH_INVALID;
  if (std::find(attached.subactionPaths.begin(), attached.subactionPaths.end(), subaction) ==
      attached.subactionPaths.end()) {
    return XR_ERROR_PATH_UNSUPPORTED;
  }
  static const SubactionState kNeverBound{};  // /user/head, /user/gamepad: nothing is bound there
  const WellKnownPaths& paths = session.instance->wellKnown;
  if (subaction == paths.leftHand) {
    out = &attached.hands[0];
  } else if (subaction == paths.rightHand) {
    out = &attached.hands[1];
  } else {
    out = &kNeverBound;
  }
  return XR_SUCCESS;
}

template <class State>
XrResult getState(XrSession session, const XrActionStateGetInfo* getInfo, State* state, XrStructureType stateType,
                  XrActionType actionType, void (*fill)(const SubactionState&, State&)) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(getInfo, XR_TYPE_ACTION_STATE_GET_INFO) || !hasType(state, stateType)) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(object->mutex);
  const SubactionState* found = nullptr;
  if (XrResult r = findStateFor(*object, getInfo, actionType, found); r != XR_SUCCESS) return r;
  fill(*found, *state);
  return XR_SUCCESS;
}

/** Validates a haptic call's action: attached, a vibration output, a declared subaction path. */
XrResult checkHapticAction(Session& session, const XrHapticActionInfo* info) {
  if (!hasType(info, XR_TYPE_HAPTIC_ACTION_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  auto action = findAction(info->action);
  if (!action) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(session.mutex);
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
  return XR_SUCCESS;
}

}  // namespace

SIMXR_ENTRY AttachSessionActionSets(XrSession session, const XrSessionActionSetsAttachInfo* attachInfo) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(attachInfo, XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  if (attachInfo->countActionSets == 0 || attachInfo->actionSets == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  Instance& instance = *object->instance;
  std::vector<std::shared_ptr<ActionSet>> sets;
  for (uint32_t i = 0; i < attachInfo->countActionSets; ++i) {
    auto set = findActionSet(attachInfo->actionSets[i]);
    if (!set) return XR_ERROR_HANDLE_INVALID;
    if (set->instance != object->instance) return XR_ERROR_VALIDATION_FAILURE;
    sets.push_back(std::move(set));
  }

  std::lock_guard sessionLock(object->mutex);
  SessionActions& actions = object->actions;
  if (actions.attached) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  bool anyBinding = false;
  {
    std::lock_guard bindingsLock(instance.bindingsMutex);
    instance.actionSetsAttached = true;
    const auto suggested = instance.suggestedBindings.find(instance.wellKnown.simpleController);
    for (const auto& set : sets) {
      set->attached = true;
      actions.attachedSets.push_back(set->handle);
      for (const auto& action : HandleRegistry::global().children<Action>(set->handle)) {
        AttachedAction attached;
        attached.set = set->handle;
        attached.type = action->type;
        attached.subactionPaths = action->subactionPaths;
        if (suggested != instance.suggestedBindings.end()) {
          for (const SuggestedBinding& binding : suggested->second) {
            if (binding.action != action->handle) continue;
            auto parsed = parseSimpleControllerBinding(*instance.paths.toString(binding.binding));
            const XrPath source = *instance.paths.intern(parsed->fullPath);
            attached.bindings.push_back(ControllerInput{parsed->hand, parsed->kind, source});
          }
        }
        anyBinding = anyBinding || !attached.bindings.empty();
        actions.actions.emplace(action->handle, std::move(attached));
      }
    }
  }
  actions.attached = true;
  if (anyBinding) {
    // The simulated controllers now answer to the suggested simple_controller bindings.
    actions.handProfile = instance.wellKnown.simpleController;
    XrEventDataInteractionProfileChanged event{XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED, nullptr, session};
    instance.events.push(event, object->handle);
  }
  return XR_SUCCESS;
}

SIMXR_ENTRY GetCurrentInteractionProfile(XrSession session, XrPath topLevelUserPath,
                                         XrInteractionProfileState* interactionProfile) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(interactionProfile, XR_TYPE_INTERACTION_PROFILE_STATE)) return XR_ERROR_VALIDATION_FAILURE;
  const WellKnownPaths& paths = object->instance->wellKnown;
  if (!object->instance->paths.toString(topLevelUserPath)) return XR_ERROR_PATH_INVALID;
  const bool hand = topLevelUserPath == paths.leftHand || topLevelUserPath == paths.rightHand;
  if (!hand && topLevelUserPath != paths.head && topLevelUserPath != paths.gamepad) return XR_ERROR_PATH_UNSUPPORTED;
  std::lock_guard lock(object->mutex);
  if (!object->actions.attached) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  interactionProfile->interactionProfile = hand ? object->actions.handProfile : XR_NULL_PATH;
  return XR_SUCCESS;
}

SIMXR_ENTRY SyncActions(XrSession session, const XrActionsSyncInfo* syncInfo) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(syncInfo, XR_TYPE_ACTIONS_SYNC_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  if (syncInfo->countActiveActionSets != 0 && syncInfo->activeActionSets == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  const WellKnownPaths& paths = object->instance->wellKnown;

  std::lock_guard lock(object->mutex);
  SessionActions& actions = object->actions;
  std::vector<SessionActions::ActiveSet> active;
  for (uint32_t i = 0; i < syncInfo->countActiveActionSets; ++i) {
    const XrActiveActionSet& entry = syncInfo->activeActionSets[i];
    auto set = findActionSet(entry.actionSet);
    if (!set) return XR_ERROR_HANDLE_INVALID;
    if (std::find(actions.attachedSets.begin(), actions.attachedSets.end(), set->handle) == actions.attachedSets.end()) {
      return XR_ERROR_ACTIONSET_NOT_ATTACHED;
    }
    const XrPath subaction = entry.subactionPath;
    if (subaction != XR_NULL_PATH) {
      if (!object->instance->paths.toString(subaction)) return XR_ERROR_PATH_INVALID;
      if (subaction != paths.leftHand && subaction != paths.rightHand && subaction != paths.head &&
          subaction != paths.gamepad) {
        return XR_ERROR_PATH_UNSUPPORTED;
      }
    }
    active.push_back(SessionActions::ActiveSet{set->handle, subaction});
  }

  const bool focused = object->state == XR_SESSION_STATE_FOCUSED;
  const XrTime time = object->sampleTime();
  for (auto& [handle, action] : actions.actions) {
    std::vector<Sample> activeSamples;
    for (const Hand hand : {Hand::Left, Hand::Right}) {
      const XrPath handPath = hand == Hand::Left ? paths.leftHand : paths.rightHand;
      const bool setActive = std::any_of(active.begin(), active.end(), [&](const SessionActions::ActiveSet& a) {
        return a.set == action.set && (a.subactionPath == XR_NULL_PATH || a.subactionPath == handPath);
      });
      const bool isActive = focused && setActive && isBound(action, hand);
      const Sample sample = sampleInputs(action, hand, time);
      update(action.hands[static_cast<int>(hand)], isActive, sample);
      if (isActive) activeSamples.push_back(sample);
    }
    update(action.combined, !activeSamples.empty(), activeSamples.empty() ? Sample{false, 0} : combine(activeSamples));
  }
  actions.activeSets = std::move(active);
  actions.syncedWhileFocused = focused;
  return focused ? XR_SUCCESS : XR_SESSION_NOT_FOCUSED;
}

SIMXR_ENTRY GetActionStateBoolean(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStateBoolean* state) {
  return getState<XrActionStateBoolean>(session, getInfo, state, XR_TYPE_ACTION_STATE_BOOLEAN,
                                        XR_ACTION_TYPE_BOOLEAN_INPUT, [](const SubactionState& s, XrActionStateBoolean& out) {
                                          out.currentState = s.pressed ? XR_TRUE : XR_FALSE;
                                          out.changedSinceLastSync = s.changed ? XR_TRUE : XR_FALSE;
                                          out.lastChangeTime = s.lastChangeTime;
                                          out.isActive = s.active ? XR_TRUE : XR_FALSE;
                                        });
}

SIMXR_ENTRY GetActionStateFloat(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStateFloat* state) {
  return getState<XrActionStateFloat>(session, getInfo, state, XR_TYPE_ACTION_STATE_FLOAT, XR_ACTION_TYPE_FLOAT_INPUT,
                                      [](const SubactionState& s, XrActionStateFloat& out) {
                                        out.currentState = s.pressed ? 1.0f : 0.0f;
                                        out.changedSinceLastSync = s.changed ? XR_TRUE : XR_FALSE;
                                        out.lastChangeTime = s.lastChangeTime;
                                        out.isActive = s.active ? XR_TRUE : XR_FALSE;
                                      });
}

SIMXR_ENTRY GetActionStateVector2f(XrSession session, const XrActionStateGetInfo* getInfo,
                                   XrActionStateVector2f* state) {
  // The simple controller has no two-axis input, so such an action is never bound and never active.
  return getState<XrActionStateVector2f>(session, getInfo, state, XR_TYPE_ACTION_STATE_VECTOR2F,
                                         XR_ACTION_TYPE_VECTOR2F_INPUT,
                                         [](const SubactionState& s, XrActionStateVector2f& out) {
                                           out.currentState = XrVector2f{0.0f, 0.0f};
                                           out.changedSinceLastSync = XR_FALSE;
                                           out.lastChangeTime = 0;
                                           out.isActive = s.active ? XR_TRUE : XR_FALSE;
                                         });
}

SIMXR_ENTRY GetActionStatePose(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStatePose* state) {
  return getState<XrActionStatePose>(session, getInfo, state, XR_TYPE_ACTION_STATE_POSE, XR_ACTION_TYPE_POSE_INPUT,
                                     [](const SubactionState& s, XrActionStatePose& out) {
                                       out.isActive = s.active ? XR_TRUE : XR_FALSE;
                                     });
}

SIMXR_ENTRY EnumerateBoundSourcesForAction(XrSession session, const XrBoundSourcesForActionEnumerateInfo* enumerateInfo,
                                           uint32_t capacity, uint32_t* countOutput, XrPath* sources) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(enumerateInfo, XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  auto action = findAction(enumerateInfo->action);
  if (!action) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(object->mutex);
  auto it = object->actions.actions.find(action->handle);
  if (it == object->actions.actions.end()) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  const auto& bindings = it->second.bindings;
  return answerArray(capacity, countOutput, sources, static_cast<uint32_t>(bindings.size()),
                     [&bindings](uint32_t i, XrPath& out) { out = bindings[i].source; });
}

SIMXR_ENTRY GetInputSourceLocalizedName(XrSession session, const XrInputSourceLocalizedNameGetInfo* getInfo,
                                        uint32_t capacity, uint32_t* countOutput, char* buffer) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(getInfo, XR_TYPE_INPUT_SOURCE_LOCALIZED_NAME_GET_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  constexpr XrInputSourceLocalizedNameFlags kAllFlags = XR_INPUT_SOURCE_LOCALIZED_NAME_USER_PATH_BIT |
                                                        XR_INPUT_SOURCE_LOCALIZED_NAME_INTERACTION_PROFILE_BIT |
                                                        XR_INPUT_SOURCE_LOCALIZED_NAME_COMPONENT_BIT;
  if (getInfo->whichComponents == 0 || (getInfo->whichComponents & ~kAllFlags) != 0) return XR_ERROR_VALIDATION_FAILURE;
  auto source = object->instance->paths.toString(getInfo->sourcePath);
  if (!source) return XR_ERROR_PATH_INVALID;
  {
    std::lock_guard lock(object->mutex);
    if (!object->actions.attached) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  }
  auto parsed = parseSimpleControllerBinding(*source);
  if (!parsed || parsed->fullPath != *source) return XR_ERROR_PATH_UNSUPPORTED;
  std::string name;
  auto append = [&name](std::string_view part) {
    if (!name.empty()) name += ' ';
    name += part;
  };
  if (getInfo->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_USER_PATH_BIT) {
    append(parsed->hand == Hand::Left ? "Left Hand" : "Right Hand");
  }
  if (getInfo->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_INTERACTION_PROFILE_BIT) append("Simple Controller");
  if (getInfo->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_COMPONENT_BIT) append(componentName(parsed->kind));
  return answerString(capacity, countOutput, buffer, name);
}

SIMXR_ENTRY ApplyHapticFeedback(XrSession session, const XrHapticActionInfo* hapticActionInfo,
                                const XrHapticBaseHeader* hapticFeedback) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(hapticFeedback, XR_TYPE_HAPTIC_VIBRATION)) return XR_ERROR_VALIDATION_FAILURE;
  // The simulated controllers have no motor: a valid vibration is accepted and felt by nobody.
  return checkHapticAction(*object, hapticActionInfo);
}

SIMXR_ENTRY StopHapticFeedback(XrSession session, const XrHapticActionInfo* hapticActionInfo) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  return checkHapticAction(*object, hapticActionInfo);
}

}  // namespace simxr
