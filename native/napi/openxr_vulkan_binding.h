// XR_KHR_vulkan_enable2's structures and commands for the JavaScript API, as the simulated runtime
// gets them (native/simxr/xr_vulkan.h): the Vulkan types from the generated
// generated/vulkan_types.h, the extension's OpenXR structures from the system's
// <openxr/openxr_platform.h> (the generated OpenXR header leaves out what
// XR_USE_GRAPHICS_API_VULKAN protects). openxr.h itself is kept out (OPENXR_H_): its types are the
// generated header's.
#pragma once

#include "generated/openxr_types.h"
#include "generated/vulkan_types.h"

#define XR_USE_GRAPHICS_API_VULKAN 1
#define XR_NO_PROTOTYPES 1
#ifndef OPENXR_H_
#define OPENXR_H_ 1
#endif
#include <openxr/openxr_platform.h>

namespace kl::napi::xr {

// XrStructureType values by the registry's rule, 1e9 + (extension number - 1) * 1000 + offset:
// XR_KHR_vulkan_enable (26) defines the structures XR_KHR_vulkan_enable2 (91) aliases.
constexpr XrStructureType ExtensionStructureType(int32_t extensionNumber, int32_t offset) {
  return static_cast<XrStructureType>(1000000000 + (extensionNumber - 1) * 1000 + offset);
}
inline constexpr XrStructureType kTypeGraphicsBindingVulkan2 = ExtensionStructureType(26, 0);
inline constexpr XrStructureType kTypeSwapchainImageVulkan2 = ExtensionStructureType(26, 1);
inline constexpr XrStructureType kTypeGraphicsRequirementsVulkan2 = ExtensionStructureType(26, 2);
inline constexpr XrStructureType kTypeVulkanInstanceCreateInfo = ExtensionStructureType(91, 0);
inline constexpr XrStructureType kTypeVulkanDeviceCreateInfo = ExtensionStructureType(91, 1);
inline constexpr XrStructureType kTypeVulkanGraphicsDeviceGetInfo = ExtensionStructureType(91, 3);

}  // namespace kl::napi::xr
