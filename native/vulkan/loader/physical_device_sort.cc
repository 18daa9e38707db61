// The order of physical devices: the Khronos loader's on Linux.
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

namespace {

// Linux order of the Khronos loader: discrete, integrated, virtual, CPU, other.
// The Khronos loader's Linux order of device types (loader_linux.c): discrete, integrated,
// virtual, other, CPU, then anything unknown.
int TypeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_OTHER: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
    default: return 5;
  }
}

}  // namespace

// compare_devices of the Khronos loader on Linux, without its default-device rule: type, then
// devices with PCI bus info before those without, by domain, bus, device, function, then
// deviceID XOR vendorID. Negative: a first.
int CompareLinux(const PhysicalDeviceObject& a, const PhysicalDeviceObject& b) {
  const int ta = TypeRank(a.properties.deviceType), tb = TypeRank(b.properties.deviceType);
  if (ta != tb) return ta < tb ? -1 : 1;
  if (a.hasPciBusInfo != b.hasPciBusInfo) return a.hasPciBusInfo ? -1 : 1;
  if (a.hasPciBusInfo) {
    const std::array<uint32_t, 4> pa{a.pciDomain, a.pciBus, a.pciDevice, a.pciFunction};
    const std::array<uint32_t, 4> pb{b.pciDomain, b.pciBus, b.pciDevice, b.pciFunction};
    if (pa != pb) return pa < pb ? -1 : 1;
  }
  const uint32_t xa = a.properties.deviceID ^ a.properties.vendorID, xb = b.properties.deviceID ^ b.properties.vendorID;
  return xa == xb ? 0 : (xa < xb ? -1 : 1);
}

}  // namespace kl::vulkan
