// What the files of LoaderInstance (instance.cc, physical_devices.cc, device.cc, ...) share and
// nothing else uses: the portability extension's names, the driver queries, the Linux device
// order, the PCI bus info and the checking queue getters.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vulkan/loader/loader_instance.h"

namespace kl::vulkan {

inline constexpr const char* kPortabilityEnumeration = "VK_KHR_portability_enumeration";
inline constexpr VkFlags kEnumeratePortabilityBit = 0x00000001;  // VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR
inline constexpr const char* kGetPhysicalDeviceProperties2 = "VK_KHR_get_physical_device_properties2";
inline constexpr const char* kDeviceGroupCreation = "VK_KHR_device_group_creation";

// A driver's instance extensions (none, logged, when it cannot list them). instance.cc
std::vector<VkExtensionProperties> DriverExtensionProperties(const NegotiatedDriver& driver);
std::vector<std::string> DriverExtensions(const NegotiatedDriver& driver);

// A driver's physical devices, through the two-call idiom it may get wrong. instance.cc
VkResult DriverPhysicalDevices(const DriverInstance& di, std::vector<VkPhysicalDevice>& out);

inline bool Contains(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

inline bool InRanges(const std::vector<std::pair<uint32_t, uint32_t>>& ranges, uint32_t value) {
  if (ranges.empty()) return true;
  return std::any_of(ranges.begin(), ranges.end(), [&](const auto& r) { return value >= r.first && value <= r.second; });
}

inline bool IsVulkan10(uint32_t version) { return VK_API_VERSION_MAJOR(version) == 1 && VK_API_VERSION_MINOR(version) == 0; }

// The Khronos loader's Linux device order; negative: a first. physical_device_sort.cc
int CompareLinux(const PhysicalDeviceObject& a, const PhysicalDeviceObject& b);

// Whether the driver offers VK_EXT_pci_bus_info for this device, and then its address. pci_bus_info.cc
void ReadPciBusInfo(const DriverInstance& di, uint32_t applicationApiVersion, PhysicalDeviceObject& o);

// The queue getters of a device whose driver made a queue without the loader magic. queue_checks.cc
// The names of info's ppEnabledExtensionNames the driver lists for physicalDevice (the driver's
// handle), in order; the others (a layer's) are left out of what the driver is handed (device_extensions.cc).
std::vector<const char*> DriverDeviceExtensions(const DriverInstance& driver, VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo& info);

void VKAPI_CALL CheckingGetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* queue);
void VKAPI_CALL CheckingGetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue);

}  // namespace kl::vulkan
