// VK_LUNARG_direct_driver_loading (LoaderDriverInterface, "Driver Discovery using the
// VK_LUNARG_direct_driver_loading extension"): drivers the application hands over in the
// VkInstanceCreateInfo pNext chain as vkGetInstanceProcAddr pointers, beside (inclusive) or instead
// of (exclusive) the manifest drivers. They are used only when the application also enables the
// extension; VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE do not apply to them.
#pragma once

#include <memory>
#include <vector>

#include "vulkan/loader/driver.h"

namespace kl::vulkan {

struct DirectDrivers {
  // The list in the chain, the extension enabled and its mode VK_DIRECT_DRIVER_LOADING_MODE_EXCLUSIVE_LUNARG:
  // the manifest drivers (the plan's) are not loaded, even when no direct driver loads.
  bool exclusive = false;
  // Those that negotiated interface version 7 or newer, in pDrivers order; the others are left out
  // with a logged reason naming their index.
  std::vector<std::unique_ptr<NegotiatedDriver>> drivers;
};

// Reads the chain as the Khronos loader does (warnings for a list without the extension, the
// extension without a list, a NULL or empty pDrivers) and negotiates each driver.
DirectDrivers ScanDirectDrivers(const VkInstanceCreateInfo& createInfo);

// One VkDirectDriverLoadingInfoLUNARG's driver: negotiates through its vkGetInstanceProcAddr
// (interface 7 at least). Throws VkError (VK_ERROR_INITIALIZATION_FAILED) naming the index and why.
NegotiatedDriver LoadDirectDriver(uint32_t index, PFN_vkGetInstanceProcAddrLUNARG getInstanceProcAddr);

}  // namespace kl::vulkan
