// A Vulkan test layer for the loader's tests: one source, one library per behaviour
// (CMakeLists.txt). It checks what the loader must give a layer and fails vkCreateInstance /
// vkCreateDevice with VK_ERROR_INITIALIZATION_FAILED when something is missing:
//  - VkLayerInstanceCreateInfo with VK_LAYER_LINK_INFO (next vkGetInstanceProcAddr set) and
//    VK_LOADER_DATA_CALLBACK whose vkSetInstanceLoaderData copies the instance's dispatch word;
//  - VkLayerDeviceCreateInfo likewise with vkSetDeviceLoaderData.
// It appends ">" KL_LAYER_NAME "@" <its interface version> to VkApplicationInfo::pApplicationName,
// so the driver sees (and reports) the chain order. It counts the vkQueueWaitIdle calls it sees
// (kl_test_layer_queue_wait_idle_calls, exported), and answers vkKlTestLayerCommand itself.
//
// Compile definitions: KL_LAYER_NAME, KL_LAYER_INTERFACE (0, 1, 2), KL_LAYER_NEGOTIATE_FAIL
// (1: returns VK_ERROR_INITIALIZATION_FAILED; 2: answers interface 1), KL_LAYER_NEGOTIATE_SYMBOL,
// KL_LAYER_GIPA_SYMBOL / KL_LAYER_GDPA_SYMBOL (interface 1 export names), KL_LAYER_PRE_INSTANCE
// (1: exports pre-instance interceptors, see the end of the file).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vulkan/loader/loader_interface.h"

#define KL_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using Key = const void*;
Key KeyOf(const void* object) { return *static_cast<const void* const*>(object); }

struct InstanceData {
  VkInstance instance;
  PFN_vkGetInstanceProcAddr next;
};
struct DeviceData {
  PFN_vkGetDeviceProcAddr next;
  PFN_vkDestroyDevice destroyDevice;
  PFN_vkQueueWaitIdle queueWaitIdle;
};

// This layer's one registry: dispatch key -> what it needs to call down.
struct LayerRegistry {
  std::mutex mutex;
  std::unordered_map<Key, InstanceData> instances;
  std::unordered_map<Key, DeviceData> devices;
  std::atomic<uint32_t> queueWaitIdleCalls{0};
};
LayerRegistry& Registry() {
  static LayerRegistry registry;
  return registry;
}

template <typename T>
T* FindChainInfo(const void* pNext, VkStructureType type, VkLayerFunction function) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s != nullptr; s = s->pNext) {
    auto* info = reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
    if (s->sType == type && info->function == function) return info;
  }
  return nullptr;
}

constexpr uint32_t kInterface = KL_LAYER_INTERFACE;

VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator, VkInstance* instance) {
  auto* link = FindChainInfo<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO, VK_LAYER_LINK_INFO);
  auto* callback = FindChainInfo<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO, VK_LOADER_DATA_CALLBACK);
  if (link == nullptr || link->u.pLayerInfo == nullptr || callback == nullptr || callback->u.pfnSetInstanceLoaderData == nullptr) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  if (next == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer reads its own node
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next(nullptr, "vkCreateInstance"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;

  std::string name = info->pApplicationInfo != nullptr && info->pApplicationInfo->pApplicationName != nullptr
                         ? info->pApplicationInfo->pApplicationName : "";
  name += std::string(">") + KL_LAYER_NAME + "@" + std::to_string(kInterface);
  VkApplicationInfo app = info->pApplicationInfo != nullptr ? *info->pApplicationInfo : VkApplicationInfo{};
  app.pApplicationName = name.c_str();
  VkInstanceCreateInfo copy = *info;
  copy.pApplicationInfo = &app;
  const VkResult res = create(&copy, allocator, instance);
  if (res != VK_SUCCESS) return res;

  // vkSetInstanceLoaderData must give an object the instance's dispatch word.
  struct {
    const void* word;
  } object{nullptr};
  if (callback->u.pfnSetInstanceLoaderData(*instance, &object) != VK_SUCCESS || object.word != KeyOf(*instance)) {
    auto destroy = reinterpret_cast<PFN_vkDestroyInstance>(next(*instance, "vkDestroyInstance"));
    destroy(*instance, allocator);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  std::lock_guard lock(Registry().mutex);
  Registry().instances[KeyOf(*instance)] = InstanceData{*instance, next};
  return VK_SUCCESS;
}

void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  InstanceData data;
  {
    std::lock_guard lock(Registry().mutex);
    data = Registry().instances.at(KeyOf(instance));
    Registry().instances.erase(KeyOf(instance));
  }
  reinterpret_cast<PFN_vkDestroyInstance>(data.next(instance, "vkDestroyInstance"))(instance, allocator);
}

VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                 VkDevice* device) {
  auto* link = FindChainInfo<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LAYER_LINK_INFO);
  auto* callback = FindChainInfo<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LOADER_DATA_CALLBACK);
  if (link == nullptr || link->u.pLayerInfo == nullptr || callback == nullptr || callback->u.pfnSetDeviceLoaderData == nullptr) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  PFN_vkGetInstanceProcAddr nextGipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr nextGdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  if (nextGipa == nullptr || nextGdpa == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  VkInstance instance;
  {
    std::lock_guard lock(Registry().mutex);
    auto it = Registry().instances.find(KeyOf(physicalDevice));  // physical devices share the instance's key
    if (it == Registry().instances.end()) return VK_ERROR_INITIALIZATION_FAILED;
    instance = it->second.instance;
  }
  auto create = reinterpret_cast<PFN_vkCreateDevice>(nextGipa(instance, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult res = create(physicalDevice, info, allocator, device);
  if (res != VK_SUCCESS) return res;
  DeviceData data{nextGdpa, reinterpret_cast<PFN_vkDestroyDevice>(nextGdpa(*device, "vkDestroyDevice")),
                  reinterpret_cast<PFN_vkQueueWaitIdle>(nextGdpa(*device, "vkQueueWaitIdle"))};
  struct {
    const void* word;
  } object{nullptr};
  if (callback->u.pfnSetDeviceLoaderData(*device, &object) != VK_SUCCESS || object.word != KeyOf(*device) || object.word == nullptr) {
    data.destroyDevice(*device, allocator);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  std::lock_guard lock(Registry().mutex);
  Registry().devices[KeyOf(*device)] = data;
  return VK_SUCCESS;
}

void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  DeviceData data;
  {
    std::lock_guard lock(Registry().mutex);
    data = Registry().devices.at(KeyOf(device));
    Registry().devices.erase(KeyOf(device));
  }
  data.destroyDevice(device, allocator);
}

VkResult VKAPI_CALL QueueWaitIdle(VkQueue queue) {
  Registry().queueWaitIdleCalls++;
  PFN_vkQueueWaitIdle next;
  {
    std::lock_guard lock(Registry().mutex);
    next = Registry().devices.at(KeyOf(queue)).queueWaitIdle;  // the loader gave the queue the device's key
  }
  return next(queue);
}

// A device command only this layer knows: the loader must reach it through vkGetDeviceProcAddr.
VkResult VKAPI_CALL KlTestLayerCommand(VkDevice, uint32_t value, uint32_t* out) {
  *out = value + 7;
  return VK_SUCCESS;
}

#define KL_ANSWER(command, fn) \
  if (n == command) return reinterpret_cast<PFN_vkVoidFunction>(fn);

PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  const std::string_view n = name;
  KL_ANSWER("vkGetDeviceProcAddr", GetDeviceProcAddr)
  KL_ANSWER("vkDestroyDevice", DestroyDevice)
  KL_ANSWER("vkQueueWaitIdle", QueueWaitIdle)
  KL_ANSWER("vkKlTestLayerCommand", KlTestLayerCommand)
  std::lock_guard lock(Registry().mutex);
  auto it = Registry().devices.find(KeyOf(device));
  return it == Registry().devices.end() ? nullptr : it->second.next(device, name);
}

PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  const std::string_view n = name;
  KL_ANSWER("vkGetInstanceProcAddr", GetInstanceProcAddr)
  KL_ANSWER("vkCreateInstance", CreateInstance)
  KL_ANSWER("vkDestroyInstance", DestroyInstance)
  KL_ANSWER("vkCreateDevice", CreateDevice)
  KL_ANSWER("vkGetDeviceProcAddr", GetDeviceProcAddr)
  KL_ANSWER("vkDestroyDevice", DestroyDevice)
  KL_ANSWER("vkQueueWaitIdle", QueueWaitIdle)
  if (instance == nullptr) return nullptr;
  std::lock_guard lock(Registry().mutex);
  auto it = Registry().instances.find(KeyOf(instance));
  return it == Registry().instances.end() ? nullptr : it->second.next(instance, name);
}

}  // namespace

KL_EXPORT uint32_t kl_test_layer_queue_wait_idle_calls() { return Registry().queueWaitIdleCalls.load(); }

#if KL_LAYER_INTERFACE == 2
KL_EXPORT VkResult VKAPI_CALL KlNegotiate(VkNegotiateLayerInterface* request) __asm__(KL_LAYER_NEGOTIATE_SYMBOL);
KL_EXPORT VkResult VKAPI_CALL KlNegotiate(VkNegotiateLayerInterface* request) {
  if (request == nullptr || request->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
#if KL_LAYER_NEGOTIATE_FAIL == 1
  return VK_ERROR_INITIALIZATION_FAILED;
#elif KL_LAYER_NEGOTIATE_FAIL == 2
  request->loaderLayerInterfaceVersion = 1;
  return VK_SUCCESS;
#else
  if (request->loaderLayerInterfaceVersion > 2) request->loaderLayerInterfaceVersion = 2;
  request->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  request->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  request->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
#endif
}
#elif KL_LAYER_INTERFACE == 1
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGipa(VkInstance instance, const char* name) __asm__(KL_LAYER_GIPA_SYMBOL);
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGipa(VkInstance instance, const char* name) { return GetInstanceProcAddr(instance, name); }
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGdpa(VkDevice device, const char* name) __asm__(KL_LAYER_GDPA_SYMBOL);
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGdpa(VkDevice device, const char* name) { return GetDeviceProcAddr(device, name); }
#else
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGipa(VkInstance instance, const char* name) __asm__(KL_LAYER_NAME "GetInstanceProcAddr");
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGipa(VkInstance instance, const char* name) { return GetInstanceProcAddr(instance, name); }
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGdpa(VkDevice device, const char* name) __asm__(KL_LAYER_NAME "GetDeviceProcAddr");
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL KlGdpa(VkDevice device, const char* name) { return GetDeviceProcAddr(device, name); }
#endif

#if KL_LAYER_PRE_INSTANCE
// Pre-instance interceptors (manifest "pre_instance_functions"): the version gets patch 77; the
// extension list loses VK_KHR_portability_enumeration. Both check the chain header first.
KL_EXPORT VkResult VKAPI_CALL klPreEnumerateInstanceVersion(const VkEnumerateInstanceVersionChain* chain, uint32_t* version) {
  if (chain->header.type != VK_CHAIN_TYPE_ENUMERATE_INSTANCE_VERSION || chain->header.version != VK_CURRENT_CHAIN_VERSION ||
      chain->header.size != sizeof(*chain)) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  const VkResult res = chain->pfnNextLayer(chain->pNextLink, version);
  if (res == VK_SUCCESS) *version = (*version & ~0xFFFu) | 77u;
  return res;
}

KL_EXPORT VkResult VKAPI_CALL klPreEnumerateInstanceExtensionProperties(const VkEnumerateInstanceExtensionPropertiesChain* chain,
                                                                         const char* layerName, uint32_t* count, VkExtensionProperties* props) {
  if (chain->header.type != VK_CHAIN_TYPE_ENUMERATE_INSTANCE_EXTENSION_PROPERTIES || chain->header.size != sizeof(*chain)) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  uint32_t all = 0;
  VkResult res = chain->pfnNextLayer(chain->pNextLink, layerName, &all, nullptr);
  if (res != VK_SUCCESS) return res;
  std::vector<VkExtensionProperties> list(all);
  res = chain->pfnNextLayer(chain->pNextLink, layerName, &all, list.data());
  if (res != VK_SUCCESS) return res;
  std::erase_if(list, [](const VkExtensionProperties& p) { return std::string_view(p.extensionName) == "VK_KHR_portability_enumeration"; });
  if (props == nullptr) {
    *count = static_cast<uint32_t>(list.size());
    return VK_SUCCESS;
  }
  const uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(list.size()));
  for (uint32_t i = 0; i < n; ++i) props[i] = list[i];
  *count = n;
  return n < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}
#endif
