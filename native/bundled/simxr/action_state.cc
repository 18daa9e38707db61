// Attaching action sets to a session, syncing actions against the scripted controllers, and
// reading action state.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "bundled/simxr/actions.h"
#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/scripted_inputs.h"
#include "bundled/simxr/session.h"
#include "bundled/simxr/two_call.h"

namespace simxr {
namespace {

/** One binding's reading: x (and y for a vector), and the exact time of its last edge (0: moves continuously). */
using Sample = InputSample;

/**
 * Combines boolean samples as "any pressed": pressed since the first of the pressed ones went
 * down; released since the last of them went up. An edge time is exact only when every sample's is.
 */
Sample combineBooleans(const std::vector<Sample>& samples) {
  bool anyPressed = false;
  bool exact = true;
  for (const auto& s : samples) {
    anyPressed = anyPressed || s.x != 0.0f;
    exact = exact && s.edge != 0;
  }
  Sample out{anyPressed ? 1.0f : 0.0f, 0.0f, 0};
  if (!exact) return out;
  bool first = true;
  for (const auto& s : samples) {
    if (anyPressed && s.x == 0.0f) continue;
    out.edge = first ? s.edge : anyPressed ? std::min(out.edge, s.edge) : std::max(out.edge, s.edge);
    first = false;
  }
  return out;
}

/** Combines float and vector samples as the spec says: the one of largest magnitude. */
Sample combineLargest(const std::vector<Sample>& samples) {
  Sample out{};
  float largest = -1.0f;
  for (const auto& s : samples) {
    const float magnitude = std::sqrt(s.x * s.x + s.y * s.y);  // not std::hypot: hypotf needs glibc 2.35
    if (magnitude > largest) {
      largest = magnitude;
      out = s;
    }
  }
  return out;
}

Sample combine(XrActionType type, const std::vector<Sample>& samples) {
  if (samples.empty()) return Sample{};
  return type == XR_ACTION_TYPE_BOOLEAN_INPUT ? combineBooleans(samples) : combineLargest(samples);
}

/**
 * Stores a new sample, computing changedSinceLastSync against the previous synced state. The last
 * change time is the input's exact edge when it has one, else the sync time of the first sync
 * that saw the new value.
 */
void update(SubactionState& state, bool active, const Sample& sample, XrTime syncTime) {
  const bool wasActive = state.active;
  const float wasX = state.x, wasY = state.y;
  state.active = active;
  state.x = active ? sample.x : 0.0f;
  state.y = active ? sample.y : 0.0f;
  state.changed = active && wasActive && (wasX != state.x || wasY != state.y);
  if (!active) {
    state.lastChangeTime = 0;
  } else if (sample.edge != 0) {
    state.lastChangeTime = sample.edge;
  } else if (state.changed || !wasActive) {
    state.lastChangeTime = syncTime;
  }
}

/** What one binding reads for an action of `type`: booleans threshold values at 0.5. */
Sample readBinding(const ControllerInput& input, XrActionType type, XrTime time) {
  Sample s = sampleInput(input.hand, input.component, input.feature, time);
  if (type == XR_ACTION_TYPE_BOOLEAN_INPUT) {
    const bool on = input.feature == Feature::Click || input.feature == Feature::Touch ? s.x != 0.0f : s.x >= 0.5f;
    return Sample{on ? 1.0f : 0.0f, 0.0f, s.edge};
  }
  if (type == XR_ACTION_TYPE_FLOAT_INPUT && input.feature == Feature::Y) return Sample{s.y, 0.0f, s.edge};
  return s;
}

Sample sampleInputs(const AttachedAction& action, Hand hand, XrTime time) {
  std::vector<Sample> samples;
  for (const ControllerInput& input : action.bindings) {
    if (input.hand != hand || input.feature == Feature::Pose || input.feature == Feature::Haptic) continue;
    samples.push_back(readBinding(input, action.type, time));
  }
  return combine(action.type, samples);
}

bool isBound(const AttachedAction& action, Hand hand) {
  return std::any_of(action.bindings.begin(), action.bindings.end(),
                     [hand](const ControllerInput& input) { return input.hand == hand; });
}

/** The profile the controllers answer to: the device's own if suggested, else the first suggested in kProfiles' order. */
std::optional<Profile> chooseProfile(Instance& instance) {
  auto suggested = [&instance](Profile p) {
    auto atom = instance.paths.intern(profilePath(p));
    return atom && instance.suggestedBindings.contains(*atom);
  };
  if (suggested(instance.config.controller)) return instance.config.controller;
  for (Profile p : kProfiles) {
    if (suggested(p)) return p;
  }
  return std::nullopt;
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
  {
    std::lock_guard bindingsLock(instance.bindingsMutex);
    instance.actionSetsAttached = true;
    actions.profile = chooseProfile(instance);
    const auto suggested = actions.profile ? instance.suggestedBindings.find(*instance.paths.intern(profilePath(*actions.profile)))
                                           : instance.suggestedBindings.end();
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
            // Validated when suggested: it parses.
            auto parsed = parseBinding(*actions.profile, *instance.paths.toString(binding.binding), action->type);
            const XrPath source = *instance.paths.intern(parsed->fullPath);
            attached.bindings.push_back(ControllerInput{parsed->hand, parsed->component, parsed->feature, source});
          }
        }
        actions.actions.emplace(action->handle, std::move(attached));
      }
    }
  }
  actions.attached = true;
  if (actions.profile) {
    // The simulated controllers now answer to the chosen profile's suggested bindings.
    actions.handProfile = *instance.paths.intern(profilePath(*actions.profile));
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
      update(action.hands[static_cast<int>(hand)], isActive, sample, time);
      if (isActive) activeSamples.push_back(sample);
    }
    update(action.combined, !activeSamples.empty(), combine(action.type, activeSamples), time);
  }
  actions.activeSets = std::move(active);
  actions.syncedWhileFocused = focused;
  return focused ? XR_SUCCESS : XR_SESSION_NOT_FOCUSED;
}

SIMXR_ENTRY GetActionStateBoolean(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStateBoolean* state) {
  return getState<XrActionStateBoolean>(session, getInfo, state, XR_TYPE_ACTION_STATE_BOOLEAN,
                                        XR_ACTION_TYPE_BOOLEAN_INPUT, [](const SubactionState& s, XrActionStateBoolean& out) {
                                          out.currentState = s.pressed() ? XR_TRUE : XR_FALSE;
                                          out.changedSinceLastSync = s.changed ? XR_TRUE : XR_FALSE;
                                          out.lastChangeTime = s.lastChangeTime;
                                          out.isActive = s.active ? XR_TRUE : XR_FALSE;
                                        });
}

SIMXR_ENTRY GetActionStateFloat(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStateFloat* state) {
  return getState<XrActionStateFloat>(session, getInfo, state, XR_TYPE_ACTION_STATE_FLOAT, XR_ACTION_TYPE_FLOAT_INPUT,
                                      [](const SubactionState& s, XrActionStateFloat& out) {
                                        out.currentState = s.x;
                                        out.changedSinceLastSync = s.changed ? XR_TRUE : XR_FALSE;
                                        out.lastChangeTime = s.lastChangeTime;
                                        out.isActive = s.active ? XR_TRUE : XR_FALSE;
                                      });
}

SIMXR_ENTRY GetActionStateVector2f(XrSession session, const XrActionStateGetInfo* getInfo,
                                   XrActionStateVector2f* state) {
  return getState<XrActionStateVector2f>(session, getInfo, state, XR_TYPE_ACTION_STATE_VECTOR2F,
                                         XR_ACTION_TYPE_VECTOR2F_INPUT,
                                         [](const SubactionState& s, XrActionStateVector2f& out) {
                                           out.currentState = XrVector2f{s.x, s.y};
                                           out.changedSinceLastSync = s.changed ? XR_TRUE : XR_FALSE;
                                           out.lastChangeTime = s.lastChangeTime;
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
  std::optional<Profile> profile;
  {
    std::lock_guard lock(object->mutex);
    if (!object->actions.attached) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
    profile = object->actions.profile;
  }
  // A source is a full input path of the profile in use (what xrEnumerateBoundSourcesForAction answers).
  if (!profile || !isFullSourcePath(*profile, *source)) return XR_ERROR_PATH_UNSUPPORTED;
  const bool left = source->starts_with("/user/hand/left");
  auto parsed = parseBinding(*profile, *source, XR_ACTION_TYPE_FLOAT_INPUT);
  if (!parsed) parsed = parseBinding(*profile, *source, XR_ACTION_TYPE_VECTOR2F_INPUT);
  if (!parsed) parsed = parseBinding(*profile, *source, XR_ACTION_TYPE_POSE_INPUT);
  if (!parsed) parsed = parseBinding(*profile, *source, XR_ACTION_TYPE_VIBRATION_OUTPUT);
  if (!parsed) return XR_ERROR_PATH_UNSUPPORTED;
  std::string name;
  auto append = [&name](std::string_view part) {
    if (!name.empty()) name += ' ';
    name += part;
  };
  if (getInfo->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_USER_PATH_BIT) append(left ? "Left Hand" : "Right Hand");
  if (getInfo->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_INTERACTION_PROFILE_BIT) append(profileName(*profile));
  if (getInfo->whichComponents & XR_INPUT_SOURCE_LOCALIZED_NAME_COMPONENT_BIT) append(componentName(parsed->component));
  return answerString(capacity, countOutput, buffer, name);
}

}  // namespace simxr
