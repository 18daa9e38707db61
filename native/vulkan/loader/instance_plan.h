// What a Vulkan instance is created from: the plan (drivers, layers, device filters) as the
// native side receives it, and the instance extensions a plan offers.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
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
  // The loader settings file's device_configurations (docs/usage.md, "The loader settings file"):
  // when active, vkEnumeratePhysicalDevices reports, in the entries' order, the first Vulkan 1.1
  // device matching each entry's IDs, and nothing else (physical_devices.cc).
  struct Configuration {
    uint32_t index = 0;  // in the file's device_configurations
    std::array<uint8_t, VK_UUID_SIZE> deviceUUID{}, driverUUID{};
    uint32_t driverVersion = 0;
    std::string deviceName, driverName;  // for the warning ("" for none)
  };
  bool configurationsActive = false;
  std::vector<Configuration> configurations;
};

// The plan as the native side receives it (TypeScript builds it from discovery and policy).
struct InstancePlan {
  std::vector<DriverDescription> drivers;  // load order
  std::vector<LayerDescription> layers;    // nearest the application first
  DeviceFilters deviceFilters;
  bool disableInstanceExtensionFilter = false;
  // VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING=1: drivers and layers stay mapped after the last
  // owner lets go (DynamicLibrary::KeepMapped), as the Khronos loader then never calls dlclose.
  bool keepLibrariesMapped = false;
  // The instance extensions the loader knows (the registry's); drivers' others are filtered out
  // unless disableInstanceExtensionFilter (VK_LOADER_DISABLE_INST_EXT_FILTER).
  std::vector<std::string> knownInstanceExtensions;
  // Drivers' extensions the Khronos loader implements itself (window-system surfaces) and this
  // one does not yet: never offered, whatever the filter (docs/conformance.md).
  std::vector<std::string> withheldInstanceExtensions;
  // Libraries the caller opened for the instance (the typed API's direct drivers, whose
  // vk_icdGetInstanceProcAddr goes into VkDirectDriverLoadingListLUNARG): held while the instance lives.
  std::vector<std::shared_ptr<DynamicLibrary>> retainedLibraries;
  // Every enumerable layer's device_extensions from its manifest: what
  // vkEnumerateDeviceExtensionProperties answers for that layer's name, and what vkCreateDevice
  // accepts beside the driver's when the layer is in the chain (device_extensions.cc).
  std::vector<std::pair<std::string, std::vector<VkExtensionProperties>>> layerDeviceExtensions;
};

// The instance extensions the loader itself provides (Khronos 1.4.309's list, spec versions from
// the headers): VK_EXT_debug_report, VK_EXT_debug_utils, VK_KHR_portability_enumeration and
// VK_LUNARG_direct_driver_loading.
const std::vector<VkExtensionProperties>& LoaderOwnInstanceExtensions();

// vkEnumerateInstanceExtensionProperties(NULL) as this loader answers it for a plan, without the
// implicit layers' part: the drivers' extensions in driver order (filtered as the Khronos loader
// filters; the first driver's spec version for a name several offer), then the loader's own that
// no driver listed.
std::vector<VkExtensionProperties> AvailableInstanceExtensions(const InstancePlan& plan, const std::vector<const NegotiatedDriver*>& drivers);

// Appends `more` to `list`, leaving out names already there (the Khronos rule: the first keeps its spec version).
void AppendExtensions(std::vector<VkExtensionProperties>& list, const std::vector<VkExtensionProperties>& more);

}  // namespace kl::vulkan
