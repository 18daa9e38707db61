#include "bundled/simxr/interaction_profiles.h"

#include <span>

namespace simxr {
namespace {

constexpr uint8_t kLeft = 1, kRight = 2, kBoth = 3;

struct ProfileInput {
  std::string_view suffix;  // after "/user/hand/<side>"
  Component component;
  Feature feature;
  uint8_t hands;
};

using C = Component;
using F = Feature;

constexpr ProfileInput kSimple[] = {
    {"/input/select/click", C::Select, F::Click, kBoth}, {"/input/menu/click", C::Menu, F::Click, kBoth},
    {"/input/grip/pose", C::Grip, F::Pose, kBoth},       {"/input/aim/pose", C::Aim, F::Pose, kBoth},
    {"/output/haptic", C::Haptic, F::Haptic, kBoth},
};

constexpr ProfileInput kTouch[] = {
    {"/input/x/click", C::X, F::Click, kLeft},
    {"/input/x/touch", C::X, F::Touch, kLeft},
    {"/input/y/click", C::Y, F::Click, kLeft},
    {"/input/y/touch", C::Y, F::Touch, kLeft},
    {"/input/menu/click", C::Menu, F::Click, kLeft},
    {"/input/a/click", C::A, F::Click, kRight},
    {"/input/a/touch", C::A, F::Touch, kRight},
    {"/input/b/click", C::B, F::Click, kRight},
    {"/input/b/touch", C::B, F::Touch, kRight},
    {"/input/system/click", C::System, F::Click, kRight},
    {"/input/squeeze/value", C::Squeeze, F::Value, kBoth},
    {"/input/trigger/value", C::Trigger, F::Value, kBoth},
    {"/input/trigger/touch", C::Trigger, F::Touch, kBoth},
    {"/input/thumbstick", C::Thumbstick, F::TwoAxis, kBoth},
    {"/input/thumbstick/x", C::Thumbstick, F::X, kBoth},
    {"/input/thumbstick/y", C::Thumbstick, F::Y, kBoth},
    {"/input/thumbstick/click", C::Thumbstick, F::Click, kBoth},
    {"/input/thumbstick/touch", C::Thumbstick, F::Touch, kBoth},
    {"/input/thumbrest/touch", C::Thumbrest, F::Touch, kBoth},
    {"/input/grip/pose", C::Grip, F::Pose, kBoth},
    {"/input/aim/pose", C::Aim, F::Pose, kBoth},
    {"/output/haptic", C::Haptic, F::Haptic, kBoth},
};

constexpr ProfileInput kIndex[] = {
    {"/input/system/click", C::System, F::Click, kBoth},
    {"/input/system/touch", C::System, F::Touch, kBoth},
    {"/input/a/click", C::A, F::Click, kBoth},
    {"/input/a/touch", C::A, F::Touch, kBoth},
    {"/input/b/click", C::B, F::Click, kBoth},
    {"/input/b/touch", C::B, F::Touch, kBoth},
    {"/input/squeeze/value", C::Squeeze, F::Value, kBoth},
    {"/input/squeeze/force", C::Squeeze, F::Force, kBoth},
    {"/input/trigger/click", C::Trigger, F::Click, kBoth},
    {"/input/trigger/value", C::Trigger, F::Value, kBoth},
    {"/input/trigger/touch", C::Trigger, F::Touch, kBoth},
    {"/input/thumbstick", C::Thumbstick, F::TwoAxis, kBoth},
    {"/input/thumbstick/x", C::Thumbstick, F::X, kBoth},
    {"/input/thumbstick/y", C::Thumbstick, F::Y, kBoth},
    {"/input/thumbstick/click", C::Thumbstick, F::Click, kBoth},
    {"/input/thumbstick/touch", C::Thumbstick, F::Touch, kBoth},
    {"/input/trackpad", C::Trackpad, F::TwoAxis, kBoth},
    {"/input/trackpad/x", C::Trackpad, F::X, kBoth},
    {"/input/trackpad/y", C::Trackpad, F::Y, kBoth},
    {"/input/trackpad/force", C::Trackpad, F::Force, kBoth},
    {"/input/trackpad/touch", C::Trackpad, F::Touch, kBoth},
    {"/input/grip/pose", C::Grip, F::Pose, kBoth},
    {"/input/aim/pose", C::Aim, F::Pose, kBoth},
    {"/output/haptic", C::Haptic, F::Haptic, kBoth},
};

struct ProfileInfo {
  std::string_view path;
  std::string_view name;  // localized
  std::span<const ProfileInput> inputs;
};

// Indexed by Profile.
constexpr ProfileInfo kProfileInfo[] = {
    {"/interaction_profiles/khr/simple_controller", "Simple Controller", kSimple},
    {"/interaction_profiles/oculus/touch_controller", "Oculus Touch Controller", kTouch},
    {"/interaction_profiles/valve/index_controller", "Valve Index Controller", kIndex},
};

const ProfileInfo& infoOf(Profile profile) { return kProfileInfo[static_cast<int>(profile)]; }
std::span<const ProfileInput> inputsOf(Profile profile) { return infoOf(profile).inputs; }

bool readable(XrActionType type, Feature feature) {
  switch (type) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT:
      return feature == F::Click || feature == F::Touch || feature == F::Value || feature == F::Force;
    case XR_ACTION_TYPE_FLOAT_INPUT:
      return feature == F::Value || feature == F::Force || feature == F::Click || feature == F::Touch || feature == F::X ||
             feature == F::Y;
    case XR_ACTION_TYPE_VECTOR2F_INPUT:
      return feature == F::TwoAxis;
    case XR_ACTION_TYPE_POSE_INPUT:
      return feature == F::Pose;
    case XR_ACTION_TYPE_VIBRATION_OUTPUT:
      return feature == F::Haptic;
    default:
      return false;
  }
}

/** The features an identifier-only path ("/input/trigger") reads for an action type, in preference order. */
std::span<const Feature> identifierFeatures(XrActionType type) {
  static constexpr Feature kBoolean[] = {F::Click, F::Value};
  static constexpr Feature kFloat[] = {F::Value, F::Click};
  static constexpr Feature kVector[] = {F::TwoAxis};
  static constexpr Feature kPose[] = {F::Pose};
  switch (type) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT:
      return kBoolean;
    case XR_ACTION_TYPE_FLOAT_INPUT:
      return kFloat;
    case XR_ACTION_TYPE_VECTOR2F_INPUT:
      return kVector;
    case XR_ACTION_TYPE_POSE_INPUT:
      return kPose;
    default:
      return {};
  }
}

/** The "/input/<identifier>" part of a suffix. */
std::string_view identifierOf(std::string_view suffix) {
  const auto slash = suffix.find('/', std::string_view("/input/").size());
  return slash == std::string_view::npos ? suffix : suffix.substr(0, slash);
}

struct Split {
  Hand hand;
  std::string_view prefix;
  std::string_view rest;
};

std::optional<Split> splitHand(std::string_view path) {
  constexpr std::string_view kLeftPath = "/user/hand/left";
  constexpr std::string_view kRightPath = "/user/hand/right";
  if (path.starts_with(kLeftPath)) return Split{Hand::Left, kLeftPath, path.substr(kLeftPath.size())};
  if (path.starts_with(kRightPath)) return Split{Hand::Right, kRightPath, path.substr(kRightPath.size())};
  return std::nullopt;
}

bool onHand(const ProfileInput& input, Hand hand) { return (input.hands & (hand == Hand::Left ? kLeft : kRight)) != 0; }

}  // namespace

std::string_view profilePath(Profile profile) { return infoOf(profile).path; }

std::optional<Profile> profileOf(std::string_view path) {
  for (Profile p : kProfiles) {
    if (profilePath(p) == path) return p;
  }
  return std::nullopt;
}

std::optional<ParsedBinding> parseBinding(Profile profile, std::string_view path, XrActionType type) {
  auto split = splitHand(path);
  if (!split) return std::nullopt;
  const auto inputs = inputsOf(profile);
  for (const ProfileInput& input : inputs) {
    if (input.suffix == split->rest && onHand(input, split->hand) && readable(type, input.feature)) {
      return ParsedBinding{split->hand, input.component, input.feature, std::string(path)};
    }
  }
  // An identifier-only path: the feature the action type reads, in the spec's order.
  for (Feature wanted : identifierFeatures(type)) {
    for (const ProfileInput& input : inputs) {
      if (input.feature == wanted && onHand(input, split->hand) && identifierOf(input.suffix) == split->rest) {
        return ParsedBinding{split->hand, input.component, input.feature, std::string(split->prefix) + std::string(input.suffix)};
      }
    }
  }
  return std::nullopt;
}

bool isFullSourcePath(Profile profile, std::string_view path) {
  auto split = splitHand(path);
  if (!split) return false;
  for (const ProfileInput& input : inputsOf(profile)) {
    if (input.suffix == split->rest && onHand(input, split->hand)) return true;
  }
  return false;
}

std::string_view componentName(Component component) {
  switch (component) {
    case C::Select:
      return "Select";
    case C::Menu:
      return "Menu";
    case C::System:
      return "System";
    case C::A:
      return "A";
    case C::B:
      return "B";
    case C::X:
      return "X";
    case C::Y:
      return "Y";
    case C::Trigger:
      return "Trigger";
    case C::Squeeze:
      return "Squeeze";
    case C::Thumbstick:
      return "Thumbstick";
    case C::Trackpad:
      return "Trackpad";
    case C::Thumbrest:
      return "Thumb Rest";
    case C::Grip:
      return "Grip Pose";
    case C::Aim:
      return "Aim Pose";
    case C::Haptic:
      return "Haptic";
  }
  return "";
}

std::string_view profileName(Profile profile) { return infoOf(profile).name; }

}  // namespace simxr
