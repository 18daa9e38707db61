// What a Vulkan instance is created from: the plan (drivers, layers, device filters) as the
// native side receives it, and the instance extensions a plan offers.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vulkan/loader/driver.h"
#include "vulkan/loader/layer_negotiation.h"

namespace kl::vulkan {

struct DeviceFilters {
  bool hasDeviceSelect = false;
  uint32_t selectVendorId = 0, selectDeviceId = 0;
  // VK_LOADER_DISABLE_SELECT (a non-zero number): no Linux sorting, drivers' order as they report it.
  bool disableSort = false;
  std::vector<std::pair<uint32_t, uint32_t>> deviceIdRanges, vendorIdRanges, driverIdRanges;
};

// The plan as the native side receives it (TypeScript builds it from discovery and policy).
struct InstancePlan {
  std::vector<DriverDescription> drivers;  // load order
  std::vector<LayerDescription> layers;    // nearest the application first
  DeviceFilters deviceFilters;
  bool disableInstanceExtensionFilter = false;
  // The instance extensions the loader knows (the registry's); drivers' others are filtered out
  // unless disableInstanceExtensionFilter (VK_LOADER_DISABLE_INST_EXT_FILTER).
  std::vector<std::string> knownInstanceExtensions;
};

// vkEnumerateInstanceExtensionProperties(NULL) as this loader answers it for a plan: the union of
// the drivers' extensions (filtered as the Khronos loader filters) and the loader's own.
std::vector<std::string> AvailableInstanceExtensions(const InstancePlan& plan, const std::vector<const NegotiatedDriver*>& drivers);

}  // namespace kl::vulkan
