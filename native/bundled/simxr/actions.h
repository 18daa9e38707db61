// Action sets, actions, and the per-session action state they get once attached.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bundled/simxr/handle_registry.h"
#include "bundled/simxr/instance.h"
#include "bundled/simxr/interaction_profiles.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

class ActionSet : public HandleObject {
 public:
  static constexpr HandleKind kKind = HandleKind::ActionSet;
  ActionSet(std::shared_ptr<Instance> instance_, std::string name_, std::string localizedName_, uint32_t priority_)
      : instance(std::move(instance_)), name(std::move(name_)), localizedName(std::move(localizedName_)),
        priority(priority_) {}

  const std::shared_ptr<Instance> instance;
  const std::string name;
  const std::string localizedName;
  const uint32_t priority;
  /** Set (under the instance's bindingsMutex) when a session attaches the set: it is then immutable. */
  bool attached = false;
};

class Action : public HandleObject {
 public:
  static constexpr HandleKind kKind = HandleKind::Action;
  Action(std::shared_ptr<ActionSet> set_, std::string name_, std::string localizedName_, XrActionType type_,
         std::vector<XrPath> subactionPaths_)
      : set(std::move(set_)), name(std::move(name_)), localizedName(std::move(localizedName_)), type(type_),
        subactionPaths(std::move(subactionPaths_)) {}

  const std::shared_ptr<ActionSet> set;
  const std::string name;
  const std::string localizedName;
  const XrActionType type;
  const std::vector<XrPath> subactionPaths;
};

/** The state of an action for one hand (or for all hands together), as of the last xrSyncActions. */
struct SubactionState {
  bool active = false;
  float x = 0.0f;  // boolean: 0 or 1; float: the value; vector2f: x
  float y = 0.0f;  // vector2f: y
  bool changed = false;
  XrTime lastChangeTime = 0;
  bool pressed() const { return x != 0.0f; }
};

/** An attached action: its bindings on the simulated controllers and its synced state. */
struct AttachedAction {
  uint64_t set = 0;
  XrActionType type = XR_ACTION_TYPE_BOOLEAN_INPUT;
  std::vector<XrPath> subactionPaths;
  std::vector<ControllerInput> bindings;
  SubactionState hands[2];
  SubactionState combined;
};

/** A session's action state; guarded by the session's mutex. */
struct SessionActions {
  bool attached = false;
  std::vector<uint64_t> attachedSets;
  std::map<uint64_t, AttachedAction> actions;  // by XrAction handle value
  XrPath handProfile = XR_NULL_PATH;           // current interaction profile of both hands
  std::optional<Profile> profile;              // the profile whose suggested bindings are used
  struct ActiveSet {
    uint64_t set;
    XrPath subactionPath;
  };
  std::vector<ActiveSet> activeSets;  // of the last xrSyncActions
  bool syncedWhileFocused = false;
};

std::shared_ptr<ActionSet> findActionSet(XrActionSet actionSet);
std::shared_ptr<Action> findAction(XrAction action);

}  // namespace simxr
