#include "simxr/simple_controller.h"

namespace simxr {
namespace {

struct ProfileInput {
  std::string_view suffix;      // after "/user/hand/<side>"
  std::string_view canonical;   // the full component path
  InputKind kind;
};

constexpr ProfileInput kInputs[] = {
    {"/input/select/click", "/input/select/click", InputKind::SelectClick},
    {"/input/select", "/input/select/click", InputKind::SelectClick},
    {"/input/menu/click", "/input/menu/click", InputKind::MenuClick},
    {"/input/menu", "/input/menu/click", InputKind::MenuClick},
    {"/input/grip/pose", "/input/grip/pose", InputKind::GripPose},
    {"/input/grip", "/input/grip/pose", InputKind::GripPose},
    {"/input/aim/pose", "/input/aim/pose", InputKind::AimPose},
    {"/input/aim", "/input/aim/pose", InputKind::AimPose},
    {"/output/haptic", "/output/haptic", InputKind::Haptic},
};

// Full canonical paths, so ParsedBinding::fullPath can point at static storage.
constexpr std::string_view kCanonical[2][5] = {
    {"/user/hand/left/input/select/click", "/user/hand/left/input/menu/click", "/user/hand/left/input/grip/pose",
     "/user/hand/left/input/aim/pose", "/user/hand/left/output/haptic"},
    {"/user/hand/right/input/select/click", "/user/hand/right/input/menu/click", "/user/hand/right/input/grip/pose",
     "/user/hand/right/input/aim/pose", "/user/hand/right/output/haptic"},
};

}  // namespace

std::optional<ParsedBinding> parseSimpleControllerBinding(std::string_view path) {
  constexpr std::string_view kLeft = "/user/hand/left";
  constexpr std::string_view kRight = "/user/hand/right";
  Hand hand;
  std::string_view rest;
  if (path.substr(0, kLeft.size()) == kLeft) {
    hand = Hand::Left;
    rest = path.substr(kLeft.size());
  } else if (path.substr(0, kRight.size()) == kRight) {
    hand = Hand::Right;
    rest = path.substr(kRight.size());
  } else {
    return std::nullopt;
  }
  for (const auto& input : kInputs) {
    if (rest == input.suffix) {
      return ParsedBinding{hand, input.kind, kCanonical[static_cast<int>(hand)][static_cast<int>(input.kind)]};
    }
  }
  return std::nullopt;
}

bool isCompatible(XrActionType type, InputKind kind) {
  switch (type) {
    case XR_ACTION_TYPE_BOOLEAN_INPUT:
    case XR_ACTION_TYPE_FLOAT_INPUT:
      return kind == InputKind::SelectClick || kind == InputKind::MenuClick;
    case XR_ACTION_TYPE_POSE_INPUT:
      return kind == InputKind::GripPose || kind == InputKind::AimPose;
    case XR_ACTION_TYPE_VIBRATION_OUTPUT:
      return kind == InputKind::Haptic;
    default:
      return false;  // vector2f: the simple controller has no two-axis input
  }
}

std::string_view componentName(InputKind kind) {
  switch (kind) {
    case InputKind::SelectClick:
      return "Select";
    case InputKind::MenuClick:
      return "Menu";
    case InputKind::GripPose:
      return "Grip Pose";
    case InputKind::AimPose:
      return "Aim Pose";
    case InputKind::Haptic:
      return "Haptic";
  }
  return "";
}

}  // namespace simxr
