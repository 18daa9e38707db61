// A physical device's PCI bus address (VK_EXT_pci_bus_info), for the device order.
#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/two_call.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"

namespace kl::vulkan {

// Whether the driver offers VK_EXT_pci_bus_info for this device, and then its address.
void ReadPciBusInfo(const DriverInstance& di, uint32_t applicationApiVersion, PhysicalDeviceObject& o) {
  o.hasPciBusInfo = false;
  if (di.table.EnumerateDeviceExtensionProperties == nullptr) return;
  uint32_t count = 0;
  if (di.table.EnumerateDeviceExtensionProperties(o.next, nullptr, &count, nullptr) != VK_SUCCESS || count == 0) return;
  std::vector<VkExtensionProperties> extensions(count);
  if (di.table.EnumerateDeviceExtensionProperties(o.next, nullptr, &count, extensions.data()) < 0) return;
  const bool offered = std::any_of(extensions.begin(), extensions.begin() + std::min<std::size_t>(count, extensions.size()),
                                   [](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME) == 0; });
  if (!offered) return;
  // As the Khronos loader: the core function when application and device are 1.1+, else the KHR one.
  const bool core = !IsVulkan10(applicationApiVersion) && o.properties.apiVersion >= VK_API_VERSION_1_1;
  const PFN_vkGetPhysicalDeviceProperties2 get =
      core ? di.table.GetPhysicalDeviceProperties2 : reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(di.table.GetPhysicalDeviceProperties2KHR);
  if (get == nullptr) return;
  VkPhysicalDevicePCIBusInfoPropertiesEXT pci{};
  pci.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT;
  VkPhysicalDeviceProperties2 props2{};
  props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  props2.pNext = &pci;
  get(o.next, &props2);
  o.hasPciBusInfo = true;
  o.pciDomain = pci.pciDomain;
  o.pciBus = pci.pciBus;
  o.pciDevice = pci.pciDevice;
  o.pciFunction = pci.pciFunction;
}

}  // namespace kl::vulkan
