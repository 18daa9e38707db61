// The commands of XR_KHR_vulkan_enable2 and the runtime's readback command (reached through
// xrGetInstanceProcAddr like every other command, proc_table.cc).
#pragma once

#include "bundled/simxr/entry_points.h"
#include "include/simxr/simxr_readback.h"
#include "generated/openxr_vulkan_types.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

// vulkan_enable.cc
SIMXR_ENTRY GetVulkanGraphicsRequirements2KHR(XrInstance instance, XrSystemId systemId,
                                              XrGraphicsRequirementsVulkan2KHR* graphicsRequirements);
SIMXR_ENTRY CreateVulkanInstanceKHR(XrInstance instance, const XrVulkanInstanceCreateInfoKHR* createInfo,
                                    VkInstance* vulkanInstance, VkResult* vulkanResult);
SIMXR_ENTRY GetVulkanGraphicsDevice2KHR(XrInstance instance, const XrVulkanGraphicsDeviceGetInfoKHR* getInfo,
                                        VkPhysicalDevice* vulkanPhysicalDevice);
SIMXR_ENTRY CreateVulkanDeviceKHR(XrInstance instance, const XrVulkanDeviceCreateInfoKHR* createInfo,
                                  VkDevice* vulkanDevice, VkResult* vulkanResult);

// readback.cc
SIMXR_ENTRY DrainSubmittedPixelsSIMXR(XrSession session, uint32_t capacity, uint32_t* countOutput,
                                      XrSubmittedPixelSIMXR* pixels);

}  // namespace simxr
