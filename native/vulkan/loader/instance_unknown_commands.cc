// Commands the loader does not know, through the instance: the generic trampolines' slots.
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

// ---- unknown commands ----

PFN_vkVoidFunction LoaderInstance::UnknownCommand(const char* name) {
  if (std::strncmp(name, "vk", 2) != 0) return nullptr;
  // Step 3: a physical-device command if a layer or a driver says so through GetPhysicalDeviceProcAddr.
  PFN_vkVoidFunction top = nullptr;
  for (const auto& l : layers_) {
    if (l.getPhysicalDeviceProcAddr != nullptr) {
      top = l.getPhysicalDeviceProcAddr(handle(), name);
      if (top != nullptr) break;
    }
  }
  if (top == nullptr) top = TerminatorGetPhysicalDeviceProcAddr(handle(), name);
  const auto slot = UnknownCommandSlots::Get().SlotFor(name);
  if (!slot) {
    Report(LogLevel::Warn, std::string("vkGetInstanceProcAddr: no free slot for the unknown command ") + name);
    return nullptr;
  }
  if (top != nullptr) {
    trampolineUnknownPhysical_[*slot] = top;
    return PhysicalDeviceStub(*slot);
  }
  // Step 4: an unknown device command, resolved per device through vkGetDeviceProcAddr.
  std::lock_guard lock(mutex_);
  for (auto& d : devices_) d->FillUnknownSlot(*slot, name);
  return DeviceStub(*slot);
}

PFN_vkVoidFunction LoaderInstance::TerminatorUnknownPhysicalDeviceCommand(const char* name) {
  const auto slot = UnknownCommandSlots::Get().SlotFor(name);
  if (!slot) return nullptr;
  bool any = false;
  for (auto& di : driverInstances_) {
    PFN_vkVoidFunction fn = nullptr;
    if (di->driver->getPhysicalDeviceProcAddr != nullptr) fn = di->driver->getPhysicalDeviceProcAddr(di->handle, name);
    di->unknownPhysical[*slot] = fn;
    any = any || fn != nullptr;
  }
  return any ? PhysicalDeviceStub(*slot) : nullptr;
}

}  // namespace kl::vulkan
