// VK_LAYER_KLTEST_wsi_record: a Vulkan layer (interface 2) that records every window-system call
// passing it — the surface creation (Xlib, XCB, Wayland), the platform presentation-support
// queries and the surface queries on the instance chain, the swapchain commands on the device
// chain — and forwards each unchanged. Each call appends "<command>=<VkResult>" (the VkBool32 for a
// presentation-support query, nothing for a void command) as a line to the file named by KL_WSI_RECORD_LOG when the
// instance was created; nothing is written without it. One source for this package's loader and
// for the Khronos loader, so the two lists can be compared.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "vulkan/loader/loader_interface.h"
#include "vulkan/loader/wsi_platform.h"

#define KL_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using Key = const void*;
Key KeyOf(const void* object) { return *static_cast<const void* const*>(object); }

// The commands this layer forwards, looked up from the next entity while vkCreateInstance /
// vkCreateDevice runs (as layers do: the Khronos loader's terminator answers from the instance's
// dispatch table, which after creation is the top of the chain, this layer).
#define KL_RECORD_INSTANCE_COMMANDS(X)                                                                                     \
  X(PFN_klCreateXlibSurfaceKHR, vkCreateXlibSurfaceKHR) X(PFN_klCreateXcbSurfaceKHR, vkCreateXcbSurfaceKHR)                 \
  X(PFN_klCreateWaylandSurfaceKHR, vkCreateWaylandSurfaceKHR)                                                               \
  X(PFN_klGetPhysicalDeviceXlibPresentationSupportKHR, vkGetPhysicalDeviceXlibPresentationSupportKHR)                       \
  X(PFN_klGetPhysicalDeviceXcbPresentationSupportKHR, vkGetPhysicalDeviceXcbPresentationSupportKHR)                         \
  X(PFN_klGetPhysicalDeviceWaylandPresentationSupportKHR, vkGetPhysicalDeviceWaylandPresentationSupportKHR)                 \
  X(PFN_vkDestroySurfaceKHR, vkDestroySurfaceKHR) X(PFN_vkGetPhysicalDeviceSurfaceSupportKHR, vkGetPhysicalDeviceSurfaceSupportKHR) \
  X(PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR, vkGetPhysicalDeviceSurfaceCapabilitiesKHR)                               \
  X(PFN_vkGetPhysicalDeviceSurfaceFormatsKHR, vkGetPhysicalDeviceSurfaceFormatsKHR)                                         \
  X(PFN_vkGetPhysicalDeviceSurfacePresentModesKHR, vkGetPhysicalDeviceSurfacePresentModesKHR) X(PFN_vkDestroyInstance, vkDestroyInstance)
#define KL_RECORD_DEVICE_COMMANDS(X)                                                                                     \
  X(PFN_vkCreateSwapchainKHR, vkCreateSwapchainKHR) X(PFN_vkDestroySwapchainKHR, vkDestroySwapchainKHR)                     \
  X(PFN_vkGetSwapchainImagesKHR, vkGetSwapchainImagesKHR) X(PFN_vkAcquireNextImageKHR, vkAcquireNextImageKHR)               \
  X(PFN_vkQueuePresentKHR, vkQueuePresentKHR) X(PFN_vkDestroyDevice, vkDestroyDevice)
#define KL_RECORD_MEMBER(type, name) type name = nullptr;

struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr next = nullptr;
  KL_RECORD_INSTANCE_COMMANDS(KL_RECORD_MEMBER)
};
struct DeviceData {
  PFN_vkGetDeviceProcAddr next = nullptr;
  KL_RECORD_DEVICE_COMMANDS(KL_RECORD_MEMBER)
};

// This layer's one registry: dispatch key -> next functions, and the log file.
struct Registry {
  std::mutex mutex;
  std::unordered_map<Key, InstanceData> instances;
  std::unordered_map<Key, DeviceData> devices;
  std::string logPath;
};
Registry& Get() {
  static Registry registry;
  return registry;
}

void Record(const char* command, const int* result) {
  Registry& r = Get();
  std::lock_guard lock(r.mutex);
  if (r.logPath.empty()) return;
  FILE* f = std::fopen(r.logPath.c_str(), "a");
  if (f == nullptr) return;
  if (result != nullptr) std::fprintf(f, "%s=%d\n", command, *result);
  else std::fprintf(f, "%s\n", command);
  std::fclose(f);
}
VkResult Recorded(const char* command, VkResult result) {
  const int value = result;
  Record(command, &value);
  return result;
}

// The instance data for a VkInstance or one of its physical devices (whose dispatch key is the
// instance's), or the only instance.
InstanceData FindInstance(const void* object) {
  Registry& r = Get();
  std::lock_guard lock(r.mutex);
  auto it = r.instances.find(KeyOf(object));
  if (it != r.instances.end()) return it->second;
  return r.instances.size() == 1 ? r.instances.begin()->second : InstanceData{};
}
DeviceData FindDevice(const void* object) {
  Registry& r = Get();
  std::lock_guard lock(r.mutex);
  auto it = r.devices.find(KeyOf(object));
  return it != r.devices.end() ? it->second : DeviceData{};
}

// The next entity's command for this instance's or device's object.
#define NextInstance(object, name) FindInstance(object).name
#define NextDevice(object, name) FindDevice(object).name

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
  InstanceData d{*instance, next};
#define KL_RECORD_LOOKUP(type, name) d.name = reinterpret_cast<type>(next(*instance, #name));
  KL_RECORD_INSTANCE_COMMANDS(KL_RECORD_LOOKUP)
#undef KL_RECORD_LOOKUP
  Registry& r = Get();
  std::lock_guard lock(r.mutex);
  r.instances[KeyOf(*instance)] = d;
  const char* log = std::getenv("KL_WSI_RECORD_LOG");
  r.logPath = log != nullptr ? log : "";
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  if (instance == VK_NULL_HANDLE) return;
  auto destroy = NextInstance(instance, vkDestroyInstance);
  {
    Registry& r = Get();
    std::lock_guard lock(r.mutex);
    r.instances.erase(KeyOf(instance));
  }
  if (destroy != nullptr) destroy(instance, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                            VkDevice* device) {
  auto* link = FindLinkInfo<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  const InstanceData owner = FindInstance(physicalDevice);
  if (link == nullptr || link->u.pLayerInfo == nullptr || owner.next == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr nextInstance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(nextInstance(owner.instance, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const VkResult result = create(physicalDevice, info, allocator, device);
  if (result != VK_SUCCESS) return result;
  DeviceData d{next};
#define KL_RECORD_LOOKUP_DEVICE(type, name) d.name = reinterpret_cast<type>(next(*device, #name));
  KL_RECORD_DEVICE_COMMANDS(KL_RECORD_LOOKUP_DEVICE)
#undef KL_RECORD_LOOKUP_DEVICE
  Registry& r = Get();
  std::lock_guard lock(r.mutex);
  r.devices[KeyOf(*device)] = d;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  if (device == VK_NULL_HANDLE) return;
  auto destroy = NextDevice(device, vkDestroyDevice);
  {
    Registry& r = Get();
    std::lock_guard lock(r.mutex);
    r.devices.erase(KeyOf(device));
  }
  if (destroy != nullptr) destroy(device, allocator);
}

// The instance chain's window-system commands.
VKAPI_ATTR VkResult VKAPI_CALL CreateXlibSurface(VkInstance instance, const KlXlibSurfaceCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                                 VkSurfaceKHR* surface) {
  return Recorded("vkCreateXlibSurfaceKHR", NextInstance(instance, vkCreateXlibSurfaceKHR)(instance, info, allocator, surface));
}
VKAPI_ATTR VkResult VKAPI_CALL CreateXcbSurface(VkInstance instance, const KlXcbSurfaceCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                                VkSurfaceKHR* surface) {
  return Recorded("vkCreateXcbSurfaceKHR", NextInstance(instance, vkCreateXcbSurfaceKHR)(instance, info, allocator, surface));
}
VKAPI_ATTR VkResult VKAPI_CALL CreateWaylandSurface(VkInstance instance, const KlWaylandSurfaceCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                                    VkSurfaceKHR* surface) {
  return Recorded("vkCreateWaylandSurfaceKHR", NextInstance(instance, vkCreateWaylandSurfaceKHR)(instance, info, allocator, surface));
}
VkBool32 RecordedSupport(const char* command, VkBool32 supported) {
  const int value = static_cast<int>(supported);
  Record(command, &value);
  return supported;
}
VKAPI_ATTR VkBool32 VKAPI_CALL XlibSupport(VkPhysicalDevice pd, uint32_t family, Display* dpy, KlXlibVisualId visual) {
  auto next = NextInstance(pd, vkGetPhysicalDeviceXlibPresentationSupportKHR);
  return RecordedSupport("vkGetPhysicalDeviceXlibPresentationSupportKHR", next(pd, family, dpy, visual));
}
VKAPI_ATTR VkBool32 VKAPI_CALL XcbSupport(VkPhysicalDevice pd, uint32_t family, xcb_connection_t* connection, KlXcbVisualId visual) {
  auto next = NextInstance(pd, vkGetPhysicalDeviceXcbPresentationSupportKHR);
  return RecordedSupport("vkGetPhysicalDeviceXcbPresentationSupportKHR", next(pd, family, connection, visual));
}
VKAPI_ATTR VkBool32 VKAPI_CALL WaylandSupport(VkPhysicalDevice pd, uint32_t family, struct wl_display* display) {
  auto next = NextInstance(pd, vkGetPhysicalDeviceWaylandPresentationSupportKHR);
  return RecordedSupport("vkGetPhysicalDeviceWaylandPresentationSupportKHR", next(pd, family, display));
}
VKAPI_ATTR void VKAPI_CALL DestroySurface(VkInstance instance, VkSurfaceKHR surface, const VkAllocationCallbacks* allocator) {
  Record("vkDestroySurfaceKHR", nullptr);
  NextInstance(instance, vkDestroySurfaceKHR)(instance, surface, allocator);
}
VKAPI_ATTR VkResult VKAPI_CALL SurfaceSupport(VkPhysicalDevice pd, uint32_t family, VkSurfaceKHR surface, VkBool32* supported) {
  auto next = NextInstance(pd, vkGetPhysicalDeviceSurfaceSupportKHR);
  return Recorded("vkGetPhysicalDeviceSurfaceSupportKHR", next(pd, family, surface, supported));
}
VKAPI_ATTR VkResult VKAPI_CALL SurfaceCapabilities(VkPhysicalDevice pd, VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR* caps) {
  auto next = NextInstance(pd, vkGetPhysicalDeviceSurfaceCapabilitiesKHR);
  return Recorded("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", next(pd, surface, caps));
}
VKAPI_ATTR VkResult VKAPI_CALL SurfaceFormats(VkPhysicalDevice pd, VkSurfaceKHR surface, uint32_t* count, VkSurfaceFormatKHR* formats) {
  auto next = NextInstance(pd, vkGetPhysicalDeviceSurfaceFormatsKHR);
  return Recorded("vkGetPhysicalDeviceSurfaceFormatsKHR", next(pd, surface, count, formats));
}
VKAPI_ATTR VkResult VKAPI_CALL SurfacePresentModes(VkPhysicalDevice pd, VkSurfaceKHR surface, uint32_t* count, VkPresentModeKHR* modes) {
  auto next = NextInstance(pd, vkGetPhysicalDeviceSurfacePresentModesKHR);
  return Recorded("vkGetPhysicalDeviceSurfacePresentModesKHR", next(pd, surface, count, modes));
}

// The device chain's swapchain commands.
VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchain(VkDevice device, const VkSwapchainCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                               VkSwapchainKHR* swapchain) {
  return Recorded("vkCreateSwapchainKHR", NextDevice(device, vkCreateSwapchainKHR)(device, info, allocator, swapchain));
}
VKAPI_ATTR void VKAPI_CALL DestroySwapchain(VkDevice device, VkSwapchainKHR swapchain, const VkAllocationCallbacks* allocator) {
  Record("vkDestroySwapchainKHR", nullptr);
  NextDevice(device, vkDestroySwapchainKHR)(device, swapchain, allocator);
}
VKAPI_ATTR VkResult VKAPI_CALL GetSwapchainImages(VkDevice device, VkSwapchainKHR swapchain, uint32_t* count, VkImage* images) {
  return Recorded("vkGetSwapchainImagesKHR", NextDevice(device, vkGetSwapchainImagesKHR)(device, swapchain, count, images));
}
VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImage(VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout, VkSemaphore semaphore, VkFence fence,
                                                uint32_t* index) {
  auto next = NextDevice(device, vkAcquireNextImageKHR);
  return Recorded("vkAcquireNextImageKHR", next(device, swapchain, timeout, semaphore, fence, index));
}
// A queue's dispatch key is its device's.
VKAPI_ATTR VkResult VKAPI_CALL QueuePresent(VkQueue queue, const VkPresentInfoKHR* info) {
  return Recorded("vkQueuePresentKHR", NextDevice(queue, vkQueuePresentKHR)(queue, info));
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

PFN_vkVoidFunction DeviceCommand(std::string_view n) {
  if (n == "vkGetDeviceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(GetDeviceProcAddr);
  if (n == "vkDestroyDevice") return reinterpret_cast<PFN_vkVoidFunction>(DestroyDevice);
  if (n == "vkCreateSwapchainKHR") return reinterpret_cast<PFN_vkVoidFunction>(CreateSwapchain);
  if (n == "vkDestroySwapchainKHR") return reinterpret_cast<PFN_vkVoidFunction>(DestroySwapchain);
  if (n == "vkGetSwapchainImagesKHR") return reinterpret_cast<PFN_vkVoidFunction>(GetSwapchainImages);
  if (n == "vkAcquireNextImageKHR") return reinterpret_cast<PFN_vkVoidFunction>(AcquireNextImage);
  if (n == "vkQueuePresentKHR") return reinterpret_cast<PFN_vkVoidFunction>(QueuePresent);
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (name == nullptr) return nullptr;
  if (PFN_vkVoidFunction own = DeviceCommand(name)) return own;
  const DeviceData d = device != VK_NULL_HANDLE ? FindDevice(device) : DeviceData{};
  return d.next != nullptr ? d.next(device, name) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (name == nullptr) return nullptr;
  const std::string_view n = name;
  if (n == "vkGetInstanceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(GetInstanceProcAddr);
  if (n == "vkCreateInstance") return reinterpret_cast<PFN_vkVoidFunction>(CreateInstance);
  if (n == "vkDestroyInstance") return reinterpret_cast<PFN_vkVoidFunction>(DestroyInstance);
  if (n == "vkCreateDevice") return reinterpret_cast<PFN_vkVoidFunction>(CreateDevice);
  if (n == "vkCreateXlibSurfaceKHR") return reinterpret_cast<PFN_vkVoidFunction>(CreateXlibSurface);
  if (n == "vkCreateXcbSurfaceKHR") return reinterpret_cast<PFN_vkVoidFunction>(CreateXcbSurface);
  if (n == "vkCreateWaylandSurfaceKHR") return reinterpret_cast<PFN_vkVoidFunction>(CreateWaylandSurface);
  if (n == "vkGetPhysicalDeviceXlibPresentationSupportKHR") return reinterpret_cast<PFN_vkVoidFunction>(XlibSupport);
  if (n == "vkGetPhysicalDeviceXcbPresentationSupportKHR") return reinterpret_cast<PFN_vkVoidFunction>(XcbSupport);
  if (n == "vkGetPhysicalDeviceWaylandPresentationSupportKHR") return reinterpret_cast<PFN_vkVoidFunction>(WaylandSupport);
  if (n == "vkDestroySurfaceKHR") return reinterpret_cast<PFN_vkVoidFunction>(DestroySurface);
  if (n == "vkGetPhysicalDeviceSurfaceSupportKHR") return reinterpret_cast<PFN_vkVoidFunction>(SurfaceSupport);
  if (n == "vkGetPhysicalDeviceSurfaceCapabilitiesKHR") return reinterpret_cast<PFN_vkVoidFunction>(SurfaceCapabilities);
  if (n == "vkGetPhysicalDeviceSurfaceFormatsKHR") return reinterpret_cast<PFN_vkVoidFunction>(SurfaceFormats);
  if (n == "vkGetPhysicalDeviceSurfacePresentModesKHR") return reinterpret_cast<PFN_vkVoidFunction>(SurfacePresentModes);
  if (PFN_vkVoidFunction own = DeviceCommand(n)) return own;
  const InstanceData d = instance != VK_NULL_HANDLE ? FindInstance(instance) : InstanceData{};
  return d.next != nullptr ? d.next(instance, name) : nullptr;
}

}  // namespace

KL_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* negotiate) {
  if (negotiate == nullptr || negotiate->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT || negotiate->loaderLayerInterfaceVersion < 2) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  negotiate->loaderLayerInterfaceVersion = 2;
  negotiate->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  negotiate->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  negotiate->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
KL_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* name) { return GetInstanceProcAddr(instance, name); }
KL_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* name) { return GetDeviceProcAddr(device, name); }
