// Action sets, actions and suggested interaction profile bindings.
#include "bundled/simxr/actions.h"

#include <cstring>
#include <string_view>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/two_call.h"
#include "generated/openxr_interaction_profiles.h"

namespace simxr {
namespace {

/** Action and action set names: lower-case letters, digits, '-', '_' and '.'. */
bool isValidName(std::string_view name) {
  for (char c : name) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!allowed) return false;
  }
  return true;
}

/** The checks shared by action sets and actions. */
XrResult checkNames(const char* name, std::size_t nameSize, const char* localizedName, std::size_t localizedSize) {
  if (!terminatedWithin(name, nameSize) || !terminatedWithin(localizedName, localizedSize)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (name[0] == '\0') return XR_ERROR_NAME_INVALID;
  if (localizedName[0] == '\0') return XR_ERROR_LOCALIZED_NAME_INVALID;
  if (!isValidName(name)) return XR_ERROR_PATH_FORMAT_INVALID;
  return XR_SUCCESS;
}

bool isTopLevelUserPath(const WellKnownPaths& paths, XrPath path) {
  return path == paths.leftHand || path == paths.rightHand || path == paths.head || path == paths.gamepad;
}

using kl::generated::xr::InteractionProfile;

/** Whether a feature or extension that provides a profile or component is one this instance has. */
bool provided(std::string_view by, XrVersion apiVersion) {
  if (by.empty() || by == "XR_VERSION_1_0") return true;
  return by == "XR_VERSION_1_1" && majorMinor(apiVersion) >= majorMinor(XR_MAKE_VERSION(1, 1, 0));
}

/**
 * A profile of the OpenXR specification's allowlist (generated from xr.xml) that this instance's
 * API version provides; nothing for any other path: xrSuggestInteractionProfileBindings answers
 * XR_ERROR_PATH_UNSUPPORTED for a profile not in the allowlist.
 */
const InteractionProfile* allowlistedProfile(std::string_view path, XrVersion apiVersion) {
  for (const InteractionProfile& profile : kl::generated::xr::kInteractionProfiles) {
    if (profile.path != path) continue;
    for (std::string_view by : profile.requiredBy) {
      if (provided(by, apiVersion)) return &profile;
    }
    return nullptr;
  }
  return nullptr;
}

/**
 * Whether `binding` is a binding path of an allowlisted profile: a top-level user path of it and
 * a component subpath, or the identifier alone ("/user/hand/left/input/trigger", the spec lets the
 * runtime choose the component).
 */
bool isAllowlistedBinding(const InteractionProfile& profile, std::string_view binding, XrVersion apiVersion) {
  for (std::string_view user : profile.userPaths) {
    if (!binding.starts_with(user) || binding.size() == user.size() || binding[user.size()] != '/') continue;
    const std::string_view rest = binding.substr(user.size());
    for (const auto& component : profile.components) {
      if (!provided(component.addedBy, apiVersion) || (!component.userPath.empty() && component.userPath != user)) continue;
      if (component.subpath == rest) return true;
      const std::size_t last = component.subpath.rfind('/');
      if (last > 0 && component.subpath.find('/', 1) < last && component.subpath.substr(0, last) == rest) return true;
    }
  }
  return false;
}

bool isValidActionType(XrActionType type) {
  switch (type) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT:
    case XR_ACTION_TYPE_FLOAT_INPUT:
    case XR_ACTION_TYPE_VECTOR2F_INPUT:
    case XR_ACTION_TYPE_POSE_INPUT:
    case XR_ACTION_TYPE_VIBRATION_OUTPUT:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::shared_ptr<ActionSet> findActionSet(XrActionSet actionSet) {
  return HandleRegistry::global().get<ActionSet>(handleValue(actionSet));
}

std::shared_ptr<Action> findAction(XrAction action) { return HandleRegistry::global().get<Action>(handleValue(action)); }

SIMXR_ENTRY CreateActionSet(XrInstance instance, const XrActionSetCreateInfo* createInfo, XrActionSet* actionSet) {
  auto owner = findInstance(instance);
  if (!owner) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_ACTION_SET_CREATE_INFO) || actionSet == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = checkNames(createInfo->actionSetName, XR_MAX_ACTION_SET_NAME_SIZE, createInfo->localizedActionSetName,
                              XR_MAX_LOCALIZED_ACTION_SET_NAME_SIZE);
      r != XR_SUCCESS) {
    return r;
  }
  auto& registry = HandleRegistry::global();
  std::lock_guard lock(owner->bindingsMutex);  // makes the duplicate check and the insertion one step
  for (const auto& existing : registry.children<ActionSet>(owner->handle)) {
    if (existing->name == createInfo->actionSetName) return XR_ERROR_NAME_DUPLICATED;
    if (existing->localizedName == createInfo->localizedActionSetName) return XR_ERROR_LOCALIZED_NAME_DUPLICATED;
  }
  auto created = std::make_shared<ActionSet>(owner, createInfo->actionSetName, createInfo->localizedActionSetName,
                                             createInfo->priority);
  *actionSet = toHandle<XrActionSet>(registry.insert(HandleKind::ActionSet, owner->handle, created));
  return XR_SUCCESS;
}

SIMXR_ENTRY DestroyActionSet(XrActionSet actionSet) {
  return HandleRegistry::global().erase(handleValue(actionSet), HandleKind::ActionSet) ? XR_SUCCESS
                                                                                         : XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY CreateAction(XrActionSet actionSet, const XrActionCreateInfo* createInfo, XrAction* action) {
  auto set = findActionSet(actionSet);
  if (!set) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_ACTION_CREATE_INFO) || action == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (!isValidActionType(createInfo->actionType)) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = checkNames(createInfo->actionName, XR_MAX_ACTION_NAME_SIZE, createInfo->localizedActionName,
                              XR_MAX_LOCALIZED_ACTION_NAME_SIZE);
      r != XR_SUCCESS) {
    return r;
  }
  if (createInfo->countSubactionPaths != 0 && createInfo->subactionPaths == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  Instance& instance = *set->instance;
  std::vector<XrPath> subactionPaths;
  for (uint32_t i = 0; i < createInfo->countSubactionPaths; ++i) {
    const XrPath path = createInfo->subactionPaths[i];
    if (!instance.paths.toString(path)) return XR_ERROR_PATH_INVALID;
    if (!isTopLevelUserPath(instance.wellKnown, path)) return XR_ERROR_PATH_UNSUPPORTED;
    for (XrPath seen : subactionPaths) {
      if (seen == path) return XR_ERROR_PATH_UNSUPPORTED;  // listed twice
    }
    subactionPaths.push_back(path);
  }
  auto& registry = HandleRegistry::global();
  std::lock_guard lock(instance.bindingsMutex);
  if (set->attached) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  for (const auto& existing : registry.children<Action>(set->handle)) {
    if (existing->name == createInfo->actionName) return XR_ERROR_NAME_DUPLICATED;
    if (existing->localizedName == createInfo->localizedActionName) return XR_ERROR_LOCALIZED_NAME_DUPLICATED;
  }
  auto created = std::make_shared<Action>(set, createInfo->actionName, createInfo->localizedActionName,
                                          createInfo->actionType, std::move(subactionPaths));
  *action = toHandle<XrAction>(registry.insert(HandleKind::Action, set->handle, created));
  return XR_SUCCESS;
}

SIMXR_ENTRY DestroyAction(XrAction action) {
  return HandleRegistry::global().erase(handleValue(action), HandleKind::Action) ? XR_SUCCESS
                                                                                   : XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY SuggestInteractionProfileBindings(XrInstance instance,
                                              const XrInteractionProfileSuggestedBinding* suggestedBindings) {
  auto owner = findInstance(instance);
  if (!owner) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(suggestedBindings, XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING)) return XR_ERROR_VALIDATION_FAILURE;
  if (suggestedBindings->countSuggestedBindings == 0 || suggestedBindings->suggestedBindings == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto profile = owner->paths.toString(suggestedBindings->interactionProfile);
  if (!profile) return XR_ERROR_PATH_INVALID;
  const std::optional<Profile> simulated = profileOf(*profile);
  // Profiles of other devices in the spec's allowlist are accepted (applications suggest for many)
  // but never used; any other profile path is refused, as the spec asks.
  const InteractionProfile* allowlisted = allowlistedProfile(*profile, owner->apiVersion);
  if (!simulated && allowlisted == nullptr) return XR_ERROR_PATH_UNSUPPORTED;

  std::vector<SuggestedBinding> accepted;
  for (uint32_t i = 0; i < suggestedBindings->countSuggestedBindings; ++i) {
    const XrActionSuggestedBinding& suggestion = suggestedBindings->suggestedBindings[i];
    auto action = findAction(suggestion.action);
    if (!action) return XR_ERROR_HANDLE_INVALID;
    if (action->set->instance != owner) return XR_ERROR_VALIDATION_FAILURE;
    auto binding = owner->paths.toString(suggestion.binding);
    if (!binding) return XR_ERROR_PATH_INVALID;
    if (simulated) {
      if (!parseBinding(*simulated, *binding, action->type)) return XR_ERROR_PATH_UNSUPPORTED;
    } else if (!isAllowlistedBinding(*allowlisted, *binding, owner->apiVersion)) {
      return XR_ERROR_PATH_UNSUPPORTED;
    }
    accepted.push_back(SuggestedBinding{action->handle, suggestion.binding});
  }
  std::lock_guard lock(owner->bindingsMutex);
  if (owner->actionSetsAttached) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  owner->suggestedBindings[suggestedBindings->interactionProfile] = std::move(accepted);
  return XR_SUCCESS;
}

}  // namespace simxr
