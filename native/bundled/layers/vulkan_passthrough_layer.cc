// VK_LAYER_KHRONOSLOADER_passthrough: a Vulkan layer (loader-layer interface 2) that wraps the
// device commands the benchmark times (vkGetDeviceQueue, the command-buffer commands
// vkCmdPushConstants, vkCmdDispatch, vkCmdSetEvent, and vkAcquireNextImageKHR / vkQueuePresentKHR
// on a device with VK_KHR_swapchain) and forwards them unchanged; every other
// command it hands out is the next entity's own pointer (a layer intercepts what it needs). It is
// the measuring stick for what one layer costs per device call (`khronos-loader bench vulkan`),
// for this package's loader and for the Khronos loader alike.
//
// The same library serves any layer name it is negotiated under, so the benchmark stacks N copies
// (separate files: separate dlopen handles, separate state).
//
// Per wrapped call: find this layer's next functions for the call's dispatch key (a hash-table
// probe without a lock, the same for every live device), then one indirect call.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "common/export.h"
#include "vulkan/loader/loader_interface.h"

#define KL_LAYER_EXPORT KL_EXPORT_C

namespace {

using Key = const void*;
Key KeyOf(const void* object) { return *static_cast<const void* const*>(object); }

struct LayerInstance {
  Key key = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr next = nullptr;
  PFN_vkDestroyInstance destroyInstance = nullptr;
};

struct LayerDevice {
  Key key = nullptr;
  PFN_vkGetDeviceProcAddr next = nullptr;
  PFN_vkDestroyDevice destroyDevice = nullptr;
  PFN_vkGetDeviceQueue getDeviceQueue = nullptr;
  PFN_vkCmdPushConstants cmdPushConstants = nullptr;
  PFN_vkCmdDispatch cmdDispatch = nullptr;
  PFN_vkCmdSetEvent cmdSetEvent = nullptr;
  PFN_vkAcquireNextImageKHR acquireNextImage = nullptr;  // null without VK_KHR_swapchain
  PFN_vkQueuePresentKHR queuePresent = nullptr;
};

// The registry's devices for the wrapped calls, read without a lock: an open-addressed table of
// dispatch keys (slot by hash, linear probing) beside their states. A reader compares keys only and
// never touches another device's state, which that device's vkDestroyDevice may be freeing; Vulkan's
// external synchronization keeps a device's own calls from racing its destruction. Every device
// costs the same to find (by hash, not by creation order), so two loaders' devices in one process,
// as the benchmark has them, pay alike. A removed device leaves a tombstone (probes go past it).
class DeviceTable {
 public:
  static constexpr size_t kSlots = 64;
  // The state for `key`, or null when the table does not hold it.
  LayerDevice* Find(Key key) const {
    for (size_t i = Home(key), n = 0; n < kSlots; i = (i + 1) % kSlots, ++n) {
      const Key k = keys_[i].load(std::memory_order_acquire);
      if (k == key) return states_[i].load(std::memory_order_relaxed);
      if (k == nullptr) return nullptr;
    }
    return nullptr;
  }
  // Under the registry's lock. False when the table is half full (the registry keeps it elsewhere).
  bool Insert(LayerDevice* d) {
    if (used_ >= kSlots / 2) return false;
    for (size_t i = Home(d->key);; i = (i + 1) % kSlots) {
      const Key k = keys_[i].load(std::memory_order_relaxed);
      if (k != nullptr && k != Tombstone()) continue;
      states_[i].store(d, std::memory_order_relaxed);
      keys_[i].store(d->key, std::memory_order_release);
      ++used_;
      return true;
    }
  }
  // Under the registry's lock. False when the table does not hold `d`.
  bool Erase(const LayerDevice* d) {
    for (size_t i = Home(d->key), n = 0; n < kSlots; i = (i + 1) % kSlots, ++n) {
      const Key k = keys_[i].load(std::memory_order_relaxed);
      if (k == nullptr) return false;
      if (k != d->key || states_[i].load(std::memory_order_relaxed) != d) continue;
      keys_[i].store(Tombstone(), std::memory_order_release);
      states_[i].store(nullptr, std::memory_order_relaxed);
      --used_;
      return true;
    }
    return false;
  }

 private:
  static Key Tombstone() { return reinterpret_cast<Key>(uintptr_t{1}); }
  // Dispatch keys are heap addresses of at least 16-byte alignment: Fibonacci hashing of what varies.
  static size_t Home(Key key) { return static_cast<size_t>(((reinterpret_cast<uintptr_t>(key) >> 4) * 0x9E3779B97F4A7C15ull) >> 58); }
  std::array<std::atomic<Key>, kSlots> keys_{};
  std::array<std::atomic<LayerDevice*>, kSlots> states_{};
  size_t used_ = 0;
};
static_assert(DeviceTable::kSlots == 64, "Home() keeps the top 6 bits of the hash");

// This library's instances and devices: its only mutable global state. A wrapped call finds its
// device in the lock-free table (or, past 32 live devices, in the list under the lock).
class LayerRegistry {
 public:
  static LayerRegistry& Get() {
    static LayerRegistry registry;
    return registry;
  }
  void AddInstance(std::unique_ptr<LayerInstance> i) {
    std::lock_guard lock(mutex_);
    instances_.push_back(std::move(i));
  }
  // An instance by a dispatchable object's key (a VkInstance or one of its VkPhysicalDevices),
  // or the only one.
  LayerInstance* FindInstance(const void* object) {
    std::lock_guard lock(mutex_);
    const Key key = object != nullptr ? KeyOf(object) : nullptr;
    for (auto& i : instances_)
      if (i->key == key) return i.get();
    return instances_.size() == 1 ? instances_.front().get() : nullptr;
  }
  std::unique_ptr<LayerInstance> RemoveInstance(const void* object) {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(instances_.begin(), instances_.end(), [&](const auto& i) { return i->key == KeyOf(object); });
    if (it == instances_.end()) return nullptr;
    std::unique_ptr<LayerInstance> out = std::move(*it);
    instances_.erase(it);
    return out;
  }
  void AddDevice(std::unique_ptr<LayerDevice> d) {
    std::lock_guard lock(mutex_);
    if (!table_.Insert(d.get())) ++overflow_;
    devices_.push_back(std::move(d));
  }
  LayerDevice* FindDevice(const void* object) {
    const Key key = KeyOf(object);
    if (LayerDevice* d = table_.Find(key)) return d;
    if (overflow_.load(std::memory_order_relaxed) == 0) return nullptr;
    std::lock_guard lock(mutex_);
    for (auto& d : devices_)
      if (d->key == key) return d.get();
    return nullptr;
  }
  std::unique_ptr<LayerDevice> RemoveDevice(const void* object) {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(devices_.begin(), devices_.end(), [&](const auto& d) { return d->key == KeyOf(object); });
    if (it == devices_.end()) return nullptr;
    std::unique_ptr<LayerDevice> out = std::move(*it);
    devices_.erase(it);
    if (!table_.Erase(out.get())) --overflow_;  // not in the table: it was one of the overflow
    return out;
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<LayerInstance>> instances_;
  std::vector<std::unique_ptr<LayerDevice>> devices_;
  DeviceTable table_;
  std::atomic<size_t> overflow_{0};
};

template <typename T>
T* FindLinkInfo(const void* pNext, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s != nullptr; s = s->pNext) {
    auto* info = reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
    if (s->sType == type && info->function == VK_LAYER_LINK_INFO) return info;
  }
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator, VkInstance* instance) {
  auto* link = FindLinkInfo<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const VkResult result = create(info, allocator, instance);
  if (result != VK_SUCCESS) return result;
  auto state = std::make_unique<LayerInstance>();
  state->key = KeyOf(*instance);
  state->instance = *instance;
  state->next = next;
  state->destroyInstance = reinterpret_cast<PFN_vkDestroyInstance>(next(*instance, "vkDestroyInstance"));
  LayerRegistry::Get().AddInstance(std::move(state));
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  if (instance == VK_NULL_HANDLE) return;
  std::unique_ptr<LayerInstance> state = LayerRegistry::Get().RemoveInstance(instance);
  if (state && state->destroyInstance) state->destroyInstance(instance, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                            VkDevice* device) {
  auto* link = FindLinkInfo<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  LayerInstance* owner = LayerRegistry::Get().FindInstance(physicalDevice);
  if (link == nullptr || link->u.pLayerInfo == nullptr || owner == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr nextInstance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(nextInstance(owner->instance, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const VkResult result = create(physicalDevice, info, allocator, device);
  if (result != VK_SUCCESS) return result;
  auto state = std::make_unique<LayerDevice>();
  state->key = KeyOf(*device);
  state->next = next;
  state->destroyDevice = reinterpret_cast<PFN_vkDestroyDevice>(next(*device, "vkDestroyDevice"));
  state->getDeviceQueue = reinterpret_cast<PFN_vkGetDeviceQueue>(next(*device, "vkGetDeviceQueue"));
  state->cmdPushConstants = reinterpret_cast<PFN_vkCmdPushConstants>(next(*device, "vkCmdPushConstants"));
  state->cmdDispatch = reinterpret_cast<PFN_vkCmdDispatch>(next(*device, "vkCmdDispatch"));
  state->cmdSetEvent = reinterpret_cast<PFN_vkCmdSetEvent>(next(*device, "vkCmdSetEvent"));
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    if (std::string_view(info->ppEnabledExtensionNames[i]) != "VK_KHR_swapchain") continue;
    state->acquireNextImage = reinterpret_cast<PFN_vkAcquireNextImageKHR>(next(*device, "vkAcquireNextImageKHR"));
    state->queuePresent = reinterpret_cast<PFN_vkQueuePresentKHR>(next(*device, "vkQueuePresentKHR"));
  }
  LayerRegistry::Get().AddDevice(std::move(state));
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  if (device == VK_NULL_HANDLE) return;
  std::unique_ptr<LayerDevice> state = LayerRegistry::Get().RemoveDevice(device);
  if (state && state->destroyDevice) state->destroyDevice(device, allocator);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* queue) {
  LayerRegistry::Get().FindDevice(device)->getDeviceQueue(device, family, index, queue);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout, VkShaderStageFlags stages, uint32_t offset,
                                            uint32_t size, const void* values) {
  LayerRegistry::Get().FindDevice(commandBuffer)->cmdPushConstants(commandBuffer, layout, stages, offset, size, values);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y, uint32_t z) {
  LayerRegistry::Get().FindDevice(commandBuffer)->cmdDispatch(commandBuffer, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags stageMask) {
  LayerRegistry::Get().FindDevice(commandBuffer)->cmdSetEvent(commandBuffer, event, stageMask);
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImage(VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout, VkSemaphore semaphore, VkFence fence,
                                                uint32_t* index) {
  return LayerRegistry::Get().FindDevice(device)->acquireNextImage(device, swapchain, timeout, semaphore, fence, index);
}

// A queue's dispatch key is its device's.
VKAPI_ATTR VkResult VKAPI_CALL QueuePresent(VkQueue queue, const VkPresentInfoKHR* info) {
  return LayerRegistry::Get().FindDevice(queue)->queuePresent(queue, info);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

// This layer's own functions; null for the names it forwards untouched.
PFN_vkVoidFunction Intercepted(std::string_view name) {
  if (name == "vkGetDeviceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(GetDeviceProcAddr);
  if (name == "vkDestroyDevice") return reinterpret_cast<PFN_vkVoidFunction>(DestroyDevice);
  if (name == "vkGetDeviceQueue") return reinterpret_cast<PFN_vkVoidFunction>(GetDeviceQueue);
  if (name == "vkCmdPushConstants") return reinterpret_cast<PFN_vkVoidFunction>(CmdPushConstants);
  if (name == "vkCmdDispatch") return reinterpret_cast<PFN_vkVoidFunction>(CmdDispatch);
  if (name == "vkCmdSetEvent") return reinterpret_cast<PFN_vkVoidFunction>(CmdSetEvent);
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (name == nullptr) return nullptr;
  if (PFN_vkVoidFunction own = Intercepted(name)) return own;
  LayerDevice* state = device != VK_NULL_HANDLE ? LayerRegistry::Get().FindDevice(device) : nullptr;
  if (state == nullptr) return nullptr;
  // The swapchain commands wrapped only where the device enabled VK_KHR_swapchain.
  const std::string_view n = name;
  if (n == "vkAcquireNextImageKHR" && state->acquireNextImage != nullptr) return reinterpret_cast<PFN_vkVoidFunction>(AcquireNextImage);
  if (n == "vkQueuePresentKHR" && state->queuePresent != nullptr) return reinterpret_cast<PFN_vkVoidFunction>(QueuePresent);
  return state->next(device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (name == nullptr) return nullptr;
  const std::string_view n = name;
  if (n == "vkGetInstanceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(GetInstanceProcAddr);
  if (n == "vkCreateInstance") return reinterpret_cast<PFN_vkVoidFunction>(CreateInstance);
  if (n == "vkDestroyInstance") return reinterpret_cast<PFN_vkVoidFunction>(DestroyInstance);
  if (n == "vkCreateDevice") return reinterpret_cast<PFN_vkVoidFunction>(CreateDevice);
  if (PFN_vkVoidFunction own = Intercepted(n)) return own;
  LayerInstance* state = instance != VK_NULL_HANDLE ? LayerRegistry::Get().FindInstance(instance) : nullptr;
  return state != nullptr ? state->next(instance, name) : nullptr;
}

}  // namespace

KL_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* negotiate) {
  if (negotiate == nullptr || negotiate->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT || negotiate->loaderLayerInterfaceVersion < 2) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  negotiate->loaderLayerInterfaceVersion = 2;
  negotiate->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  negotiate->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  negotiate->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

KL_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* name) {
  return GetInstanceProcAddr(instance, name);
}
KL_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* name) {
  return GetDeviceProcAddr(device, name);
}
