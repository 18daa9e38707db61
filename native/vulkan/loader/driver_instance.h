// One driver's own instance under a LoaderInstance (made by the terminator of vkCreateInstance):
// its handle, its instance table and its slots for unknown physical-device commands.
#pragma once

#include <array>

#include "vulkan/loader/driver.h"
#include "vulkan/loader/unknown_functions.h"

namespace kl::vulkan {

struct DriverInstance {
  const NegotiatedDriver* driver = nullptr;
  VkInstance handle = nullptr;
  gen::VkInstanceDispatchTable table{};
  PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
  std::array<PFN_vkVoidFunction, kUnknownSlots> unknownPhysical{};
};

}  // namespace kl::vulkan
