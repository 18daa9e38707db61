// One driver's own instance under a LoaderInstance (made by the terminator of vkCreateInstance):
// its handle, its instance table, its slots for unknown physical-device commands and its
// window-system platform commands.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "vulkan/loader/driver.h"
#include "vulkan/loader/unknown_functions.h"
#include "vulkan/loader/wsi_platform.h"

namespace kl::vulkan {

struct DriverInstance {
  const NegotiatedDriver* driver = nullptr;
  VkInstance handle = nullptr;
  gen::VkInstanceDispatchTable table{};
  PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
  std::array<PFN_vkVoidFunction, kUnknownSlots> unknownPhysical{};
  WsiPlatformTable wsi;                        // the driver's window-system platform commands
  std::vector<std::string> enabledExtensions;  // what its vkCreateInstance was given
};

}  // namespace kl::vulkan
