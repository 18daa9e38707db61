// The interaction profiles the simulated controllers answer to: khr/simple_controller,
// oculus/touch_controller and valve/index_controller. Every binding path of a profile names one
// scripted input of one hand (scripted_inputs.h): a component (trigger, thumbstick, a, ...) and
// what of it is read (click, touch, value, x, y, the two-axis vector, a pose, the haptic output).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bundled/simxr/scripted_motion.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

enum class Component : uint8_t { Select, Menu, System, A, B, X, Y, Trigger, Squeeze, Thumbstick, Trackpad, Thumbrest, Grip, Aim, Haptic };
enum class Feature : uint8_t { Click, Touch, Value, Force, X, Y, TwoAxis, Pose, Haptic };

/** The profiles, in the order the runtime prefers them after the configured device's own. */
enum class Profile : uint8_t { Simple, Touch, Index };
constexpr Profile kProfiles[] = {Profile::Simple, Profile::Touch, Profile::Index};

/** "/interaction_profiles/khr/simple_controller" and so on. */
std::string_view profilePath(Profile profile);
/** The profile of a path, or nothing for a profile the simulated controllers are not. */
std::optional<Profile> profileOf(std::string_view path);

/** One input or output of one controller, and its full path atom (".../input/trigger/value"). */
struct ControllerInput {
  Hand hand;
  Component component;
  Feature feature;
  XrPath source;
};

struct ParsedBinding {
  Hand hand;
  Component component;
  Feature feature;
  std::string fullPath;  // the binding with its feature spelled out ("/user/hand/left/input/trigger/value")
};

/**
 * Parses a binding path of `profile` such as "/user/hand/left/input/trigger/value" for an action
 * of `type`. The identifier-only form (".../input/trigger") picks the feature the spec says a
 * runtime picks for that action type (a value for float, a click or value for boolean, the
 * two-axis vector for vector2f). Nothing for a path the profile does not have or a type that
 * cannot read it.
 */
std::optional<ParsedBinding> parseBinding(Profile profile, std::string_view path, XrActionType type);

/** Whether the input is a full path of `profile` (not an identifier-only form). */
bool isFullSourcePath(Profile profile, std::string_view path);

/** The localized names of xrGetInputSourceLocalizedName: "Trigger", "Oculus Touch Controller". */
std::string_view componentName(Component component);
std::string_view profileName(Profile profile);

}  // namespace simxr
