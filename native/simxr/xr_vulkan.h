// XR_KHR_vulkan_enable2 for the simulated runtime: the Vulkan types come from the generated
// native/generated/vulkan_types.h, the extension's OpenXR structures from the system's
// <openxr/openxr_platform.h> (the generated OpenXR header leaves out what XR_USE_GRAPHICS_API_VULKAN
// protects). openxr.h itself is kept out (OPENXR_H_): its types are the generated header's.
#pragma once

#include "generated/vulkan_types.h"
#include "simxr/xr_api.h"

#define XR_USE_GRAPHICS_API_VULKAN 1
#define XR_NO_PROTOTYPES 1
#ifndef OPENXR_H_
#define OPENXR_H_ 1
#endif
#include <openxr/openxr_platform.h>

namespace simxr {

/** An enum value an extension adds, by the registry's rule: 1e9 + (extension number - 1) * 1000 + offset. */
constexpr int32_t extensionEnumValue(int32_t extensionNumber, int32_t offset) {
  return 1000000000 + (extensionNumber - 1) * 1000 + offset;
}

// XR_KHR_vulkan_enable (extension 26) defines the structures XR_KHR_vulkan_enable2 (extension 91)
// aliases; xr.xml numbers them so.
constexpr auto kTypeGraphicsBindingVulkan2 = static_cast<XrStructureType>(extensionEnumValue(26, 0));
constexpr auto kTypeSwapchainImageVulkan2 = static_cast<XrStructureType>(extensionEnumValue(26, 1));
constexpr auto kTypeGraphicsRequirementsVulkan2 = static_cast<XrStructureType>(extensionEnumValue(26, 2));
constexpr auto kTypeVulkanInstanceCreateInfo = static_cast<XrStructureType>(extensionEnumValue(91, 0));
constexpr auto kTypeVulkanDeviceCreateInfo = static_cast<XrStructureType>(extensionEnumValue(91, 1));
constexpr auto kTypeVulkanGraphicsDeviceGetInfo = static_cast<XrStructureType>(extensionEnumValue(91, 3));

}  // namespace simxr
