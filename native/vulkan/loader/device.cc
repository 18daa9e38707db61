// LoaderInstance's devices: creating one through the chain, destroying it, finding it.
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

LoaderDevice*& LoaderInstance::ConstructingDevice() {
  thread_local LoaderDevice* device = nullptr;
  return device;
}

void LoaderDevice::ReportMissingLoaderMagic(const void* object, const char* what) noexcept {
  try {
    Log(LogLevel::Error, "vulkan",
        std::string(what) + " " + std::to_string(reinterpret_cast<uintptr_t>(object)) +
            " from the driver does not start with the loader magic value 0x01CDC0DE (LoaderDriverInterface: dispatchable objects)");
  } catch (...) {
    // Out of memory while building the message: the caller still refuses the object.
  }
}

void LoaderDevice::FillUnknownSlot(std::size_t slot, const std::string& name) {
  dispatch.unknown[slot] = topGetDeviceProcAddr != nullptr ? topGetDeviceProcAddr(handle, name.c_str()) : nullptr;
}

// ---- devices ----


VkResult LoaderInstance::CreateDevice(PhysicalDeviceObject* physicalDevice, const VkDeviceCreateInfo* info,
                                      const VkAllocationCallbacks* allocator, VkDevice* device) {
  if (info == nullptr || device == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (const VkResult checked = CheckDeviceExtensions(*physicalDevice, *info); checked != VK_SUCCESS) return checked;
  auto ld = std::make_shared<LoaderDevice>();
  ld->instance = this;
  ld->dispatch.owner = ld.get();

  // Device chain (spec "层调度初始化"): VkLayerDeviceLink per layer that has its own
  // vkGetDeviceProcAddr (as the Khronos loader, a layer without one stays out of the device
  // chain), the last pointing at the loader's terminator vkGetInstanceProcAddr and the
  // terminator vkGetDeviceProcAddr.
  std::vector<const NegotiatedLayer*> deviceLayers;
  for (const auto& l : layers_) {
    if (l.getDeviceProcAddr != nullptr) deviceLayers.push_back(&l);
  }
  const std::size_t n = deviceLayers.size();
  std::vector<VkLayerDeviceLink> links(n);
  for (std::size_t i = 0; i < n; ++i) {
    links[i].pNext = i + 1 < n ? &links[i + 1] : nullptr;
    links[i].pfnNextGetInstanceProcAddr = i + 1 < n ? deviceLayers[i + 1]->getInstanceProcAddr : TerminatorGetInstanceProcAddr;
    links[i].pfnNextGetDeviceProcAddr = i + 1 < n ? deviceLayers[i + 1]->getDeviceProcAddr : TerminatorGetDeviceProcAddr;
  }
  VkLayerDeviceCreateInfo linkInfo{};
  linkInfo.sType = VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO;
  linkInfo.pNext = info->pNext;
  linkInfo.function = VK_LAYER_LINK_INFO;
  linkInfo.u.pLayerInfo = n > 0 ? links.data() : nullptr;
  VkLayerDeviceCreateInfo dataCallback{};
  dataCallback.sType = VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO;
  dataCallback.pNext = &linkInfo;
  dataCallback.function = VK_LOADER_DATA_CALLBACK;
  dataCallback.u.pfnSetDeviceLoaderData = SetDeviceLoaderData;
  VkDeviceCreateInfo chainInfo = *info;
  chainInfo.pNext = &dataCallback;

  PFN_vkCreateDevice top = n > 0 ? reinterpret_cast<PFN_vkCreateDevice>(deviceLayers[0]->getInstanceProcAddr(handle(), "vkCreateDevice"))
                                 : reinterpret_cast<PFN_vkCreateDevice>(TerminatorGetInstanceProcAddr(handle(), "vkCreateDevice"));
  if (top == nullptr) {
    Report(LogLevel::Error, "vkCreateDevice: the top of the chain has no vkCreateDevice");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  LoaderDevice*& constructing = ConstructingDevice();
  LoaderDevice* previous = constructing;
  constructing = ld.get();
  VkDevice created = nullptr;
  const VkResult res = top(physicalDevice->next, &chainInfo, allocator, &created);
  constructing = previous;
  if (res != VK_SUCCESS) return res;
  if (ld->handle == nullptr) {
    Report(LogLevel::Error, "vkCreateDevice succeeded but never reached the loader's terminator");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  // The device table from the top of the chain: the first layer's vkGetDeviceProcAddr, or the
  // driver's own when no layer is enabled (device commands then go straight to the driver).
  ld->topGetDeviceProcAddr = n > 0 ? deviceLayers[0]->getDeviceProcAddr : ld->driver->getDeviceProcAddr;
  ld->handle = created;
  for (std::uint32_t i = 0; i < info->enabledExtensionCount && info->ppEnabledExtensionNames != nullptr; ++i) {
    if (info->ppEnabledExtensionNames[i] != nullptr) ld->enabledExtensions.emplace_back(info->ppEnabledExtensionNames[i]);
  }
  gen::fillVkDeviceDispatchTable(ld->dispatch.table, ld->topGetDeviceProcAddr, created);
  // Without layers the commands that take a surface still pass the loader's terminators, which
  // hand the driver its own surface (wsi.h).
  if (n == 0) WsiPatchDeviceTable(*ld);
  if (!ld->queuesCarryMagic) {
    ld->uncheckedGetDeviceQueue = std::exchange(ld->dispatch.table.GetDeviceQueue, CheckingGetDeviceQueue);
    ld->uncheckedGetDeviceQueue2 = std::exchange(ld->dispatch.table.GetDeviceQueue2, CheckingGetDeviceQueue2);
  }
  const std::size_t slots = UnknownCommandSlots::Get().Count();
  for (std::size_t s = 0; s < slots; ++s) ld->FillUnknownSlot(s, UnknownCommandSlots::Get().NameOf(s));
  {
    std::lock_guard lock(mutex_);
    devices_.push_back(ld);
  }
  *device = created;
  return VK_SUCCESS;
}

void LoaderInstance::DestroyDevice(LoaderDevice* device, const VkAllocationCallbacks* allocator) {
  if (device == nullptr || device->destroyed) return;
  device->destroyed = true;
  device->dispatch.magic.Clear();  // the trampolines refuse its device, queues and command buffers from now on
  if (device->dispatch.table.DestroyDevice != nullptr) device->dispatch.table.DestroyDevice(device->handle, allocator);
  std::lock_guard lock(mutex_);
  devices_.erase(std::remove_if(devices_.begin(), devices_.end(), [&](const auto& d) { return d.get() == device; }), devices_.end());
}

std::shared_ptr<LoaderDevice> LoaderInstance::SharedDevice(VkDevice device) const {
  std::lock_guard lock(mutex_);
  for (const auto& d : devices_) {
    if (d->handle == device) return d;
  }
  return nullptr;
}

PhysicalDeviceObject* LoaderInstance::FindPhysicalDevice(VkPhysicalDevice physicalDevice) const {
  std::lock_guard lock(mutex_);
  for (const auto& o : trampolinePhysicalDevices_) {
    if (reinterpret_cast<VkPhysicalDevice>(o.get()) == physicalDevice) return o.get();
  }
  return nullptr;
}

}  // namespace kl::vulkan
