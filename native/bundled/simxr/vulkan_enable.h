// XR_KHR_vulkan_enable2 on an instance: what the instance's Vulkan calls created or returned, so
// that a session's XrGraphicsBindingVulkan2KHR can be checked against it. The Vulkan objects
// belong to the application (it destroys them); the runtime only remembers their handles.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "bundled/simxr/vulkan_device.h"
#include "generated/openxr_vulkan_types.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

/** The Vulkan API versions the runtime's Vulkan code is written for (Vulkan 1.0 commands only). */
constexpr XrVersion kMinVulkanApiVersion = XR_MAKE_VERSION(1, 0, 0);
constexpr XrVersion kMaxVulkanApiVersion = XR_MAKE_VERSION(1, 3, 0);

struct VulkanEnableState {
  struct CreatedInstance {
    VkInstance instance;
    PFN_vkGetInstanceProcAddr getInstanceProcAddr;
  };
  struct CreatedDevice {
    VkDevice device;
    VkPhysicalDevice physicalDevice;
    VkInstance instance;
    /** queueCount per queue family index the device was created with (0: none). */
    std::vector<uint32_t> queueCounts;
  };
  struct ReturnedPhysicalDevice {
    VkPhysicalDevice physicalDevice;
    VkInstance instance;
  };

  std::mutex mutex;
  bool requirementsQueried = false;
  std::vector<CreatedInstance> instances;
  std::vector<ReturnedPhysicalDevice> physicalDevices;
  std::vector<CreatedDevice> devices;

  // Handle values are reused once the application destroys an object, so a new record replaces
  // any older one with the same handle (which must be gone). Call with `mutex` held.
  void remember(const CreatedInstance& created);
  void remember(const ReturnedPhysicalDevice& returned);
  void remember(CreatedDevice created);

  /** The binding's target if it names an instance, physical device and device this runtime made or returned. */
  std::optional<VulkanBindingTarget> bindingTarget(const XrGraphicsBindingVulkan2KHR& binding, XrResult& error);
};

}  // namespace simxr
