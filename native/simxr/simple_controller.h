// The interaction profile of the simulated controllers: /interaction_profiles/khr/simple_controller.
#pragma once

#include <optional>
#include <string_view>

#include "simxr/scripted_motion.h"
#include "simxr/xr_api.h"

namespace simxr {

enum class InputKind { SelectClick, MenuClick, GripPose, AimPose, Haptic };

/** One input or output of one controller, and its full path atom (".../input/select/click"). */
struct ControllerInput {
  Hand hand;
  InputKind kind;
  XrPath source;
};

constexpr std::string_view kSimpleControllerProfile = "/interaction_profiles/khr/simple_controller";

struct ParsedBinding {
  Hand hand;
  InputKind kind;
  std::string_view fullPath;  // the binding with its component spelled out
};

/**
 * Parses a simple_controller binding path such as "/user/hand/left/input/select/click". The
 * identifier-only forms (".../input/select") are accepted as the spec allows and mean the same
 * component. Nothing for a path the profile does not have.
 */
std::optional<ParsedBinding> parseSimpleControllerBinding(std::string_view path);

/** Whether an action of `type` may be bound to `kind` (boolean/float ← click, pose ← pose, ...). */
bool isCompatible(XrActionType type, InputKind kind);

/** The localized name of a component, for xrGetInputSourceLocalizedName. */
std::string_view componentName(InputKind kind);

}  // namespace simxr
