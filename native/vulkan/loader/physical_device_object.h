// The physical-device handles the loader hands out (terminator and trampoline objects).
#pragma once

#include <cstddef>
#include <cstdint>

#include "vulkan/loader/driver_instance.h"
#include "vulkan/loader/handle_magic.h"

namespace kl::vulkan {

class LoaderInstance;

// A physical device as the loader hands it out: by the terminator (next = the driver's handle,
// unknown = the driver's slots) or by the trampoline (next = the chain's handle, unknown = the
// chain's slots). The generic physical-device stubs rely on this layout.
struct PhysicalDeviceObject {
  explicit PhysicalDeviceObject(HandleMagic kind) noexcept : magic(kind) {}
  const void* dispatch;                   // the instance's dispatch key
  VkPhysicalDevice next;
  const PFN_vkVoidFunction* unknown;
  LiveMagic magic;
  LoaderInstance* owner;
  DriverInstance* driver;                 // terminator objects only
  VkPhysicalDeviceProperties properties;  // terminator objects only
  uint32_t driverId;                      // VkDriverId when the driver reports one, else 0
  // Where it sits on the PCI bus (VK_EXT_pci_bus_info), for the Linux sort; terminator objects only.
  bool hasPciBusInfo;
  uint32_t pciDomain, pciBus, pciDevice, pciFunction;
};
static_assert(offsetof(PhysicalDeviceObject, next) == 8 && offsetof(PhysicalDeviceObject, unknown) == 16,
              "the generic physical-device trampolines read these offsets");

}  // namespace kl::vulkan
