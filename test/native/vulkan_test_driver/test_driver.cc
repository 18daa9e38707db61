// A Vulkan test driver (ICD) for the loader's tests: one source, one library per behaviour
// (CMakeLists.txt). What the loader did is visible to the test through the physical device it
// reports: deviceName = "<driver name>|<VkApplicationInfo::pApplicationName it received>",
// driverVersion = the interface version it negotiated (or its legacy version),
// deviceID = the VkApplicationInfo::apiVersion it received.
//
// Compile definitions:
//   KL_DRIVER_NAME, KL_DRIVER_VENDOR, KL_DRIVER_DEVICE_TYPE
//   KL_DRIVER_VERSION        0: only the legacy exports; 1: vk_icdGetInstanceProcAddr; 2..7: negotiates
//   KL_DRIVER_NEGOTIATE_FAIL 1: the negotiate function fails; 2: answers a version above the offer;
//                            3: the negotiate function dies of SIGSEGV (for the doctor's crash report)
//   KL_DRIVER_VIA_GIPA       1: (version 7) negotiate/GetPhysicalDeviceProcAddr only through vk_icdGetInstanceProcAddr
//   KL_DRIVER_NO_MAGIC       1: the VkDevice does not start with the loader magic
//   KL_DRIVER_API_1_0        1: no vkEnumerateInstanceVersion; vkCreateInstance refuses apiVersion > 1.0
//   KL_DRIVER_PORTABILITY    1: reports VK_KHR_portability_enumeration
//   KL_DRIVER_NO_DEVICE_WAIT_IDLE 1: vkGetDeviceProcAddr answers NULL for vkDeviceWaitIdle
//   KL_DRIVER_FAULTS         1: the environment chooses a fault to inject (KL_FAULT_IN=driver,
//                            ../fault_injection/fault_injection.h): negotiation, vkCreateInstance,
//                            the two-call enumerations, vkCreateDevice, vk_icdGetInstanceProcAddr look-ups
//   KL_DRIVER_TOPOLOGY       1: the physical devices come from "<this library>.topology" (a text
//                            file beside the library, so copies of one build differ): lines
//                              groups                       the driver answers vkEnumeratePhysicalDeviceGroups
//                              device NAME TYPE VENDOR ID [pci=DOMAIN:BUS:DEVICE.FUNCTION] [group=N]
//                                   [uuid=32 HEX DIGITS] [driveruuid=32 HEX DIGITS] [version=N] [api=1.0]
//                            (numbers in hex but TYPE and version; a device with pci= reports VK_EXT_pci_bus_info;
//                            devices of one group= number form one group, the others a group each;
//                            uuid/driveruuid: VkPhysicalDeviceIDProperties (default zeros), version:
//                            driverVersion (decimal, default the negotiated interface version),
//                            api=1.0: the device reports apiVersion 1.0 instead of 1.1)
//   KL_DRIVER_SURFACES       1: VK_KHR_surface and VK_EXT_headless_surface (instance), VK_KHR_swapchain
//                            (device): its headless surfaces carry a magic word; from interface
//                            version 3 a surface it is handed must be one it made, before 3 the
//                            loader's VkIcdSurfaceHeadless (vkGetPhysicalDeviceSurfaceSupportKHR
//                            answers VK_FALSE, vkCreateSwapchainKHR VK_ERROR_SURFACE_LOST_KHR
//                            otherwise); kl_vk_driver_live_surfaces() counts the live ones. The
//                            surface queries answer for a headless surface (2..3 images, B8G8R8A8 /
//                            R8G8B8A8 UNORM, FIFO and IMMEDIATE); a swapchain has real images that
//                            acquire hands out in turn (VK_TIMEOUT / VK_NOT_READY when all are
//                            acquired) and present gives back; fences, semaphores and vkQueueSubmit
//                            complete at once. kl_vk_driver_lose_surfaces(1) makes every surface
//                            query, acquire and present answer VK_ERROR_SURFACE_LOST_KHR (a window
//                            system gone), kl_vk_driver_lose_surfaces(2) acquire and present
//                            VK_ERROR_OUT_OF_DATE_KHR (a resized window), 0 back to normal
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "../fault_injection/fault_injection.h"
#include "vulkan/loader/loader_interface.h"

#ifdef _WIN32
#define KL_EXPORT extern "C" __declspec(dllexport)
#else
#define KL_EXPORT extern "C" __attribute__((visibility("default")))
#endif
#ifndef KL_DRIVER_FAULTS
#define KL_DRIVER_FAULTS 0
#endif
#ifndef KL_DRIVER_NO_DEVICE_WAIT_IDLE
#define KL_DRIVER_NO_DEVICE_WAIT_IDLE 0
#endif

namespace {

// The fault the environment chose for this call (none unless this is the faults build).
kl_fault::Kind Fault(const char* command, bool lookup = false) {
  if constexpr (KL_DRIVER_FAULTS == 0) return kl_fault::Kind::None;
  return kl_fault::Act(kl_fault::At("driver", command, lookup));
}

// The second call of a two-call enumeration under a count fault: how many elements there are now.
uint32_t TotalNow(kl_fault::Kind fault, uint32_t total) {
  if (fault == kl_fault::Kind::CountGrow) return total + 1;
  if (fault == kl_fault::Kind::CountShrink && total > 0) return total - 1;
  return total;
}

struct Queue {
  VK_LOADER_DATA loaderData;
};
struct Instance;
// One device of a topology file.
struct DeviceSpec {
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t vendor = 0, id = 0;
  bool hasPci = false;
  uint32_t pciDomain = 0, pciBus = 0, pciDevice = 0, pciFunction = 0;
  int group = -1;
  uint8_t deviceUUID[VK_UUID_SIZE] = {}, driverUUID[VK_UUID_SIZE] = {};
  bool hasVersion = false;
  uint32_t driverVersion = 0;
  bool api10 = false;
};

// 32 hex digits into 16 bytes; false when it is not that.
[[maybe_unused]] bool ReadUuid(const std::string& hex, uint8_t* out) {
  if (hex.size() != 2 * VK_UUID_SIZE) return false;
  for (uint32_t i = 0; i < VK_UUID_SIZE; ++i) {
    unsigned byte = 0;
    if (std::sscanf(hex.c_str() + 2 * i, "%2x", &byte) != 1) return false;
    out[i] = static_cast<uint8_t>(byte);
  }
  return true;
}
struct PhysicalDevice {
  VK_LOADER_DATA loaderData;
  Instance* instance;
  DeviceSpec spec;  // KL_DRIVER_TOPOLOGY only
};
struct Instance {
  VK_LOADER_DATA loaderData;
  uint32_t apiVersion;
  std::string applicationName;
  std::vector<std::unique_ptr<PhysicalDevice>> physicalDevices;  // one, or the topology's
  bool groups = false;
};

// The path of this library (the .so, or the DLL of the Windows build).
std::filesystem::path ThisLibrary() {
#ifdef _WIN32
  HMODULE self = nullptr;
  if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT, reinterpret_cast<LPCWSTR>(&ThisLibrary), &self)) return {};
  wchar_t name[MAX_PATH * 4];
  const DWORD length = GetModuleFileNameW(self, name, MAX_PATH * 4);
  return length == 0 || length == MAX_PATH * 4 ? std::filesystem::path() : std::filesystem::path(name);
#else
  Dl_info self{};
  if (dladdr(reinterpret_cast<const void*>(&ThisLibrary), &self) == 0 || self.dli_fname == nullptr) return {};
  return self.dli_fname;
#endif
}

// The topology file beside this library: "<path of this library>.topology".
[[maybe_unused]] bool ReadTopology(std::vector<DeviceSpec>& devices, bool& groups) {
  const std::filesystem::path self = ThisLibrary();
  if (self.empty()) return false;
  std::ifstream in(std::filesystem::path(self).concat(".topology"));
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "groups") groups = true;
    if (kind != "device") continue;
    DeviceSpec d;
    int type = 0;
    words >> d.name >> type >> std::hex >> d.vendor >> d.id;
    d.type = static_cast<VkPhysicalDeviceType>(type);
    std::string option;
    while (words >> option) {
      if (option.rfind("pci=", 0) == 0) {
        d.hasPci = std::sscanf(option.c_str() + 4, "%x:%x:%x.%x", &d.pciDomain, &d.pciBus, &d.pciDevice, &d.pciFunction) == 4;
      } else if (option.rfind("group=", 0) == 0) {
        d.group = std::atoi(option.c_str() + 6);
      } else if (option.rfind("uuid=", 0) == 0) {
        if (!ReadUuid(option.substr(5), d.deviceUUID)) return false;
      } else if (option.rfind("driveruuid=", 0) == 0) {
        if (!ReadUuid(option.substr(11), d.driverUUID)) return false;
      } else if (option.rfind("version=", 0) == 0) {
        d.hasVersion = true;
        d.driverVersion = static_cast<uint32_t>(std::strtoul(option.c_str() + 8, nullptr, 10));
      } else if (option == "api=1.0") {
        d.api10 = true;
      }
    }
    devices.push_back(std::move(d));
  }
  return true;
}

bool OwnsDevice(const Instance* instance, const PhysicalDevice* pd) {
  for (const auto& p : instance->physicalDevices) {
    if (p.get() == pd) return true;
  }
  return false;
}
// Family 0 has three queues; the third carries no loader magic, as a broken driver's would (the
// loader must refuse it, not write its dispatch pointer over the driver's data).
constexpr uint32_t kQueueCount = 3;
struct Device {
  VK_LOADER_DATA loaderData;
  PhysicalDevice* physicalDevice;
  Queue queues[kQueueCount];
};

// Command buffers that record nothing but how many commands reached the driver (`bench vulkan
// --driver` and `--command record --driver`: the loader's trampolines and the encoder, with no
// driver work beside them to hide them).
struct CommandBuffer {
  VK_LOADER_DATA loaderData;
  uint64_t commands = 0;
};
struct CommandPool {
  std::vector<std::unique_ptr<CommandBuffer>> buffers;
};
// How many commands each of the last recordings held (vkEndCommandBuffer logs it; a recording
// starts at 0 with vkBeginCommandBuffer or vkResetCommandBuffer), read through the exported
// kl_vk_test_driver_recordings: the bench tests see how the benchmark records.
class RecordingLog {
 public:
  static constexpr uint32_t kKept = 16;
  void Ended(uint64_t commands) {
    std::lock_guard lock(mutex_);
    counts_[ended_ % kKept] = commands;
    ++ended_;
  }
  // Writes up to `capacity` of the last recordings' counts, oldest first; answers how many ended in all.
  uint64_t Read(uint64_t* out, uint32_t capacity) {
    std::lock_guard lock(mutex_);
    const uint64_t n = std::min<uint64_t>({capacity, kKept, ended_});
    for (uint64_t i = 0; i < n; ++i) out[i] = counts_[(ended_ - n + i) % kKept];
    return ended_;
  }

 private:
  std::mutex mutex_;
  uint64_t counts_[kKept] = {};
  uint64_t ended_ = 0;
};
// The compute objects the record benchmark and the typed API create: buffers, memory (real bytes,
// so mapping works), descriptor set layouts, pools and sets, shader modules, pipeline layouts and
// pipelines. None does any work; each is a heap object its destroy call frees.
struct PipelineLayout {};
struct Object {};
struct Memory {
  std::vector<std::byte> bytes;
};
struct DescriptorPool {
  std::vector<std::unique_ptr<Object>> sets;
};

// This driver's process state: what it negotiated, and the recordings' log.
struct DriverState {
  uint32_t negotiatedVersion = KL_DRIVER_VERSION;
  RecordingLog recordings;
};
DriverState& State() {
  static DriverState state;
  return state;
}

constexpr const char* kInstanceExtensions[] = {
    "VK_KHR_get_physical_device_properties2",
    "VK_KLTEST_unknown_instance_extension",  // not in the registry: the loader filters it out
#if KL_DRIVER_PORTABILITY
    "VK_KHR_portability_enumeration",
#endif
#if KL_DRIVER_SURFACES
    "VK_KHR_surface",
    "VK_EXT_headless_surface",
#endif
};

VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char* layerName, uint32_t* count, VkExtensionProperties* props) {
  if (layerName != nullptr) return VK_ERROR_LAYER_NOT_PRESENT;
  const kl_fault::Kind fault = Fault("vkEnumerateInstanceExtensionProperties");
  if (fault == kl_fault::Kind::Fail) return VK_ERROR_INITIALIZATION_FAILED;
  constexpr uint32_t kTotal = sizeof(kInstanceExtensions) / sizeof(kInstanceExtensions[0]);
  if (props == nullptr) {
    *count = kTotal;
    return VK_SUCCESS;
  }
  const uint32_t total = TotalNow(fault, kTotal);
  const uint32_t n = std::min({*count, total, kTotal});
  for (uint32_t i = 0; i < n; ++i) {
    std::memset(&props[i], 0, sizeof(props[i]));
    std::snprintf(props[i].extensionName, sizeof(props[i].extensionName), "%s", kInstanceExtensions[i]);
    props[i].specVersion = 1;
  }
  const bool incomplete = n < total;
  *count = fault == kl_fault::Kind::CountLie ? *count + 3 : n;  // malformed: more than it wrote, with success
  return incomplete ? VK_INCOMPLETE : VK_SUCCESS;
}

[[maybe_unused]] VkResult VKAPI_CALL EnumerateInstanceVersion(uint32_t* version) {
  *version = VK_API_VERSION_1_3;
  return VK_SUCCESS;
}

VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks*, VkInstance* out) {
  if (Fault("vkCreateInstance") == kl_fault::Kind::Fail) return VK_ERROR_INITIALIZATION_FAILED;
  const uint32_t api = info->pApplicationInfo != nullptr ? info->pApplicationInfo->apiVersion : 0;
#if KL_DRIVER_API_1_0 && KL_DRIVER_VERSION < 5
  // Before interface 5 a 1.0 driver may refuse a higher apiVersion; the loader must pass 1.0.
  if (api > VK_API_VERSION_1_0) return VK_ERROR_INCOMPATIBLE_DRIVER;
#endif
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    const std::string_view e = info->ppEnabledExtensionNames[i];
    if (std::find(std::begin(kInstanceExtensions), std::end(kInstanceExtensions), e) == std::end(kInstanceExtensions)) {
      return VK_ERROR_EXTENSION_NOT_PRESENT;  // the loader must only pass what this driver supports
    }
  }
  auto* instance = new Instance{};
  instance->loaderData.loaderMagic = ICD_LOADER_MAGIC;
  instance->apiVersion = api;
  instance->applicationName =
      info->pApplicationInfo != nullptr && info->pApplicationInfo->pApplicationName != nullptr ? info->pApplicationInfo->pApplicationName : "";
  std::vector<DeviceSpec> specs;
#if KL_DRIVER_TOPOLOGY
  if (!ReadTopology(specs, instance->groups)) {
    delete instance;
    return VK_ERROR_INITIALIZATION_FAILED;
  }
#else
  specs.emplace_back();
#endif
  for (auto& spec : specs) {
    auto pd = std::make_unique<PhysicalDevice>();
    pd->loaderData.loaderMagic = ICD_LOADER_MAGIC;
    pd->instance = instance;
    pd->spec = std::move(spec);
    instance->physicalDevices.push_back(std::move(pd));
  }
  *out = reinterpret_cast<VkInstance>(instance);
  return VK_SUCCESS;
}

void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks*) { delete reinterpret_cast<Instance*>(instance); }

VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, uint32_t* count, VkPhysicalDevice* devices) {
  const auto& all = reinterpret_cast<Instance*>(instance)->physicalDevices;
  const kl_fault::Kind fault = Fault("vkEnumeratePhysicalDevices");
  if (fault == kl_fault::Kind::Fail) return VK_ERROR_INITIALIZATION_FAILED;
  const uint32_t existing = static_cast<uint32_t>(all.size());
  if (devices == nullptr) {
    *count = existing;
    return VK_SUCCESS;
  }
  const uint32_t total = TotalNow(fault, existing);
  const uint32_t n = std::min({*count, total, existing});
  for (uint32_t i = 0; i < n; ++i) devices[i] = reinterpret_cast<VkPhysicalDevice>(all[i].get());
  const bool incomplete = n < total;
  *count = fault == kl_fault::Kind::CountLie ? *count + 3 : n;  // malformed: more than it wrote, with success
  return incomplete ? VK_INCOMPLETE : VK_SUCCESS;
}

void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties* p) {
  const PhysicalDevice* pd = reinterpret_cast<PhysicalDevice*>(physicalDevice);
  [[maybe_unused]] const Instance* instance = pd->instance;
  std::memset(p, 0, sizeof(*p));
  p->apiVersion = VK_API_VERSION_1_1;
  p->driverVersion = State().negotiatedVersion;
#if KL_DRIVER_TOPOLOGY
  if (pd->spec.api10) p->apiVersion = VK_API_VERSION_1_0;
  if (pd->spec.hasVersion) p->driverVersion = pd->spec.driverVersion;
  p->vendorID = pd->spec.vendor;
  p->deviceID = pd->spec.id;
  p->deviceType = pd->spec.type;
  std::snprintf(p->deviceName, sizeof(p->deviceName), "%s", pd->spec.name.c_str());
#else
  p->vendorID = KL_DRIVER_VENDOR;
  p->deviceID = instance->apiVersion;
  p->deviceType = static_cast<VkPhysicalDeviceType>(KL_DRIVER_DEVICE_TYPE);
  std::snprintf(p->deviceName, sizeof(p->deviceName), "%s|%s", KL_DRIVER_NAME, instance->applicationName.c_str());
#endif
}

// vkGetPhysicalDeviceProperties2 (and KHR): the base properties and VkPhysicalDevicePCIBusInfoPropertiesEXT.
void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2* p) {
  GetPhysicalDeviceProperties(physicalDevice, &p->properties);
  const DeviceSpec& spec = reinterpret_cast<PhysicalDevice*>(physicalDevice)->spec;
  for (auto* s = static_cast<VkBaseOutStructure*>(p->pNext); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES) {
      auto* ids = reinterpret_cast<VkPhysicalDeviceIDProperties*>(s);
      std::memcpy(ids->deviceUUID, spec.deviceUUID, VK_UUID_SIZE);
      std::memcpy(ids->driverUUID, spec.driverUUID, VK_UUID_SIZE);
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT && spec.hasPci) {
      auto* pci = reinterpret_cast<VkPhysicalDevicePCIBusInfoPropertiesEXT*>(s);
      pci->pciDomain = spec.pciDomain;
      pci->pciBus = spec.pciBus;
      pci->pciDevice = spec.pciDevice;
      pci->pciFunction = spec.pciFunction;
    }
  }
}

// Devices sharing a group= number form one group, in the driver's order; the others a group each.
VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
  std::vector<std::vector<PhysicalDevice*>> all;
  std::vector<int> ids;
  for (const auto& pd : reinterpret_cast<Instance*>(instance)->physicalDevices) {
    const auto at = std::find(ids.begin(), ids.end(), pd->spec.group);
    if (pd->spec.group >= 0 && at != ids.end()) {
      all[static_cast<std::size_t>(at - ids.begin())].push_back(pd.get());
    } else {
      ids.push_back(pd->spec.group);
      all.push_back({pd.get()});
    }
  }
  const uint32_t total = static_cast<uint32_t>(all.size());
  if (groups == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t n = std::min(*count, total);
  for (uint32_t g = 0; g < n; ++g) {
    groups[g].physicalDeviceCount = static_cast<uint32_t>(all[g].size());
    for (uint32_t i = 0; i < groups[g].physicalDeviceCount; ++i) groups[g].physicalDevices[i] = reinterpret_cast<VkPhysicalDevice>(all[g][i]);
    groups[g].subsetAllocation = VK_FALSE;
  }
  *count = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice, uint32_t* count, VkQueueFamilyProperties* props) {
  if (props == nullptr) {
    *count = 1;
    return;
  }
  if (*count < 1) return;
  std::memset(props, 0, sizeof(*props));
  props->queueFlags = VK_QUEUE_COMPUTE_BIT;
  props->queueCount = kQueueCount;
  *count = 1;
}

// The rest of what the Khronos loader requires of every driver: a device with no features, no
// formats, and one memory type (below).
void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice, VkPhysicalDeviceFeatures* f) { std::memset(f, 0, sizeof(*f)); }
void VKAPI_CALL GetPhysicalDeviceFormatProperties(VkPhysicalDevice, VkFormat, VkFormatProperties* p) { std::memset(p, 0, sizeof(*p)); }
VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties(VkPhysicalDevice, VkFormat, VkImageType, VkImageTiling, VkImageUsageFlags,
                                                           VkImageCreateFlags, VkImageFormatProperties* p) {
  std::memset(p, 0, sizeof(*p));
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}
// One memory type (device-local, host-visible and coherent) in one 1 GiB heap.
void VKAPI_CALL GetPhysicalDeviceMemoryProperties(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties* p) {
  std::memset(p, 0, sizeof(*p));
  p->memoryTypeCount = 1;
  p->memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  p->memoryTypes[0].heapIndex = 0;
  p->memoryHeapCount = 1;
  p->memoryHeaps[0].size = VkDeviceSize{1} << 30;
  p->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
}
void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties(VkPhysicalDevice, VkFormat, VkImageType, VkSampleCountFlagBits, VkImageUsageFlags,
                                                             VkImageTiling, uint32_t* count, VkSparseImageFormatProperties*) {
  *count = 0;
}

VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char*, uint32_t* count, VkExtensionProperties* props) {
  std::vector<std::pair<const char*, uint32_t>> all;
  if (reinterpret_cast<PhysicalDevice*>(physicalDevice)->spec.hasPci) all.emplace_back(VK_EXT_PCI_BUS_INFO_EXTENSION_NAME, 2);
  if (KL_DRIVER_SURFACES) all.emplace_back("VK_KHR_swapchain", 70);
  const auto total = static_cast<uint32_t>(all.size());
  if (props == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t n = std::min(*count, total);
  for (uint32_t i = 0; i < n; ++i) {
    std::memset(&props[i], 0, sizeof(props[i]));
    std::snprintf(props[i].extensionName, sizeof(props[i].extensionName), "%s", all[i].first);
    props[i].specVersion = all[i].second;
  }
  *count = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

// ---- KL_DRIVER_SURFACES: headless surfaces and a swapchain that checks the surface it gets ----
constexpr uint64_t kSurfaceMagic = 0x4b4c445256535246ull;  // "KLDRVSRF"
constexpr uint32_t kIcdPlatformHeadless = 9;              // VkIcdWsiPlatform's VK_ICD_WSI_PLATFORM_HEADLESS
struct DriverSurface {
  uint64_t magic = kSurfaceMagic;
};
std::mutex surfacesMutex;
std::vector<DriverSurface*>& LiveSurfaces() {
  static std::vector<DriverSurface*> live;
  return live;
}
// Whether `surface` is what this driver expects to be handed: its own from interface version 3,
// the loader's VkIcdSurfaceHeadless before.
bool ExpectedSurface(VkSurfaceKHR surface) {
  if (surface == VK_NULL_HANDLE) return false;
  if (State().negotiatedVersion >= 3) {
    std::lock_guard lock(surfacesMutex);
    const auto& live = LiveSurfaces();
    return std::find(live.begin(), live.end(), reinterpret_cast<DriverSurface*>(surface)) != live.end();
  }
  return *reinterpret_cast<const uint32_t*>(surface) == kIcdPlatformHeadless;
}
VkResult VKAPI_CALL CreateHeadlessSurface(VkInstance, const VkHeadlessSurfaceCreateInfoEXT*, const VkAllocationCallbacks*, VkSurfaceKHR* out) {
  auto* s = new DriverSurface{};
  std::lock_guard lock(surfacesMutex);
  LiveSurfaces().push_back(s);
  *out = reinterpret_cast<VkSurfaceKHR>(s);
  return VK_SUCCESS;
}
void VKAPI_CALL DestroySurface(VkInstance, VkSurfaceKHR surface, const VkAllocationCallbacks*) {
  std::lock_guard lock(surfacesMutex);
  auto& live = LiveSurfaces();
  const auto it = std::find(live.begin(), live.end(), reinterpret_cast<DriverSurface*>(surface));
  if (it == live.end()) return;
  delete *it;
  live.erase(it);
}
VkResult VKAPI_CALL GetSurfaceSupport(VkPhysicalDevice, uint32_t, VkSurfaceKHR surface, VkBool32* supported) {
  *supported = ExpectedSurface(surface) ? VK_TRUE : VK_FALSE;
  return VK_SUCCESS;
}
// 0: normal; 1: every surface query, acquire and present VK_ERROR_SURFACE_LOST_KHR; 2: acquire and
// present VK_ERROR_OUT_OF_DATE_KHR.
std::atomic<int> surfacesLost{0};
constexpr uint32_t kMaxSwapchainImages = 3;
struct DriverSwapchain {
  uint64_t magic = kSurfaceMagic;
  uint32_t imageCount = 0;
  uint32_t next = 0;
  bool acquired[kMaxSwapchainImages] = {};
  uint64_t images[kMaxSwapchainImages] = {};  // their addresses are the VkImage handles
};
VkResult VKAPI_CALL GetSurfaceCapabilities(VkPhysicalDevice, VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR* c) {
  if (!ExpectedSurface(surface) || surfacesLost == 1) return VK_ERROR_SURFACE_LOST_KHR;
  *c = VkSurfaceCapabilitiesKHR{};
  c->minImageCount = 2;
  c->maxImageCount = kMaxSwapchainImages;
  c->currentExtent = {0xffffffffu, 0xffffffffu};  // headless: the swapchain decides
  c->minImageExtent = {1, 1};
  c->maxImageExtent = {4096, 4096};
  c->maxImageArrayLayers = 1;
  c->supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  c->currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  c->supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  c->supportedUsageFlags = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  return VK_SUCCESS;
}
template <typename T>
VkResult TwoCall(const std::vector<T>& all, uint32_t* count, T* out) {
  const auto total = static_cast<uint32_t>(all.size());
  if (out == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t n = std::min(*count, total);
  std::copy_n(all.begin(), n, out);
  *count = n;
  return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}
VkResult VKAPI_CALL GetSurfaceFormats(VkPhysicalDevice, VkSurfaceKHR surface, uint32_t* count, VkSurfaceFormatKHR* out) {
  if (!ExpectedSurface(surface) || surfacesLost == 1) return VK_ERROR_SURFACE_LOST_KHR;
  return TwoCall<VkSurfaceFormatKHR>({{VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR}, {VK_FORMAT_R8G8B8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR}}, count, out);
}
VkResult VKAPI_CALL GetSurfacePresentModes(VkPhysicalDevice, VkSurfaceKHR surface, uint32_t* count, VkPresentModeKHR* out) {
  if (!ExpectedSurface(surface) || surfacesLost == 1) return VK_ERROR_SURFACE_LOST_KHR;
  return TwoCall<VkPresentModeKHR>({VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR}, count, out);
}
VkResult VKAPI_CALL CreateSwapchain(VkDevice, const VkSwapchainCreateInfoKHR* info, const VkAllocationCallbacks*, VkSwapchainKHR* out) {
  if (!ExpectedSurface(info->surface) || surfacesLost == 1) return VK_ERROR_SURFACE_LOST_KHR;
  if (info->minImageCount < 2 || info->minImageCount > kMaxSwapchainImages) return VK_ERROR_INITIALIZATION_FAILED;
  auto* chain = new DriverSwapchain{};
  chain->imageCount = info->minImageCount;
  *out = reinterpret_cast<VkSwapchainKHR>(chain);
  return VK_SUCCESS;
}
DriverSwapchain* Chain(VkSwapchainKHR swapchain) {
  auto* chain = reinterpret_cast<DriverSwapchain*>(swapchain);
  // A handle that is not one of this driver's swapchains would be read here: the magic word makes
  // the sanitizers' reports (and a debugger) plain about it.
  if (chain == nullptr || chain->magic != kSurfaceMagic) std::abort();
  return chain;
}
void VKAPI_CALL DestroySwapchain(VkDevice, VkSwapchainKHR swapchain, const VkAllocationCallbacks*) {
  if (swapchain == VK_NULL_HANDLE) return;
  DriverSwapchain* chain = Chain(swapchain);
  chain->magic = 0;
  delete chain;
}
VkResult VKAPI_CALL GetSwapchainImages(VkDevice, VkSwapchainKHR swapchain, uint32_t* count, VkImage* out) {
  DriverSwapchain* chain = Chain(swapchain);
  std::vector<VkImage> images;
  for (uint32_t i = 0; i < chain->imageCount; ++i) images.push_back(reinterpret_cast<VkImage>(&chain->images[i]));
  return TwoCall(images, count, out);
}
struct Fence {
  bool signaled = false;
};
struct Semaphore {
  uint64_t unused = 0;
};
VkResult VKAPI_CALL AcquireNextImage(VkDevice, VkSwapchainKHR swapchain, uint64_t timeout, VkSemaphore, VkFence fence, uint32_t* index) {
  DriverSwapchain* chain = Chain(swapchain);
  if (surfacesLost == 1) return VK_ERROR_SURFACE_LOST_KHR;
  if (surfacesLost == 2) return VK_ERROR_OUT_OF_DATE_KHR;
  for (uint32_t k = 0; k < chain->imageCount; ++k) {
    const uint32_t i = (chain->next + k) % chain->imageCount;
    if (chain->acquired[i]) continue;
    chain->acquired[i] = true;
    chain->next = i + 1;
    if (fence != VK_NULL_HANDLE) reinterpret_cast<Fence*>(fence)->signaled = true;
    *index = i;
    return VK_SUCCESS;
  }
  return timeout == 0 ? VK_NOT_READY : VK_TIMEOUT;  // every image is acquired: none comes back
}
VkResult VKAPI_CALL QueuePresent(VkQueue, const VkPresentInfoKHR* info) {
  VkResult all = VK_SUCCESS;
  for (uint32_t i = 0; i < info->swapchainCount; ++i) {
    DriverSwapchain* chain = Chain(info->pSwapchains[i]);
    const uint32_t index = info->pImageIndices[i];
    VkResult r = VK_SUCCESS;
    if (index >= chain->imageCount || !chain->acquired[index]) r = VK_ERROR_UNKNOWN;
    else if (surfacesLost == 1) r = VK_ERROR_SURFACE_LOST_KHR;
    else if (surfacesLost == 2) r = VK_ERROR_OUT_OF_DATE_KHR;
    if (index < chain->imageCount) chain->acquired[index] = false;  // given back whatever the result
    if (info->pResults != nullptr) info->pResults[i] = r;
    if (r != VK_SUCCESS && all == VK_SUCCESS) all = r;
  }
  return all;
}
VkResult VKAPI_CALL CreateFence(VkDevice, const VkFenceCreateInfo* info, const VkAllocationCallbacks*, VkFence* out) {
  *out = reinterpret_cast<VkFence>(new Fence{(info->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0});
  return VK_SUCCESS;
}
void VKAPI_CALL DestroyFence(VkDevice, VkFence fence, const VkAllocationCallbacks*) { delete reinterpret_cast<Fence*>(fence); }
VkResult VKAPI_CALL WaitForFences(VkDevice, uint32_t count, const VkFence* fences, VkBool32 waitAll, uint64_t timeout) {
  uint32_t signaled = 0;
  for (uint32_t i = 0; i < count; ++i) signaled += reinterpret_cast<Fence*>(fences[i])->signaled ? 1 : 0;
  if (waitAll ? signaled == count : signaled > 0) return VK_SUCCESS;
  return timeout == 0 ? VK_NOT_READY : VK_TIMEOUT;
}
VkResult VKAPI_CALL ResetFences(VkDevice, uint32_t count, const VkFence* fences) {
  for (uint32_t i = 0; i < count; ++i) reinterpret_cast<Fence*>(fences[i])->signaled = false;
  return VK_SUCCESS;
}
VkResult VKAPI_CALL GetFenceStatus(VkDevice, VkFence fence) { return reinterpret_cast<Fence*>(fence)->signaled ? VK_SUCCESS : VK_NOT_READY; }
VkResult VKAPI_CALL CreateSemaphore(VkDevice, const VkSemaphoreCreateInfo*, const VkAllocationCallbacks*, VkSemaphore* out) {
  *out = reinterpret_cast<VkSemaphore>(new Semaphore{});
  return VK_SUCCESS;
}
void VKAPI_CALL DestroySemaphore(VkDevice, VkSemaphore semaphore, const VkAllocationCallbacks*) { delete reinterpret_cast<Semaphore*>(semaphore); }
// The work is done at once: the fence is signalled.
VkResult VKAPI_CALL QueueSubmit(VkQueue, uint32_t, const VkSubmitInfo*, VkFence fence) {
  if (fence != VK_NULL_HANDLE) reinterpret_cast<Fence*>(fence)->signaled = true;
  return VK_SUCCESS;
}

VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo*, const VkAllocationCallbacks*, VkDevice* out) {
  if (Fault("vkCreateDevice") == kl_fault::Kind::Fail) return VK_ERROR_INITIALIZATION_FAILED;
  auto* device = new Device{};
  device->loaderData.loaderMagic = KL_DRIVER_NO_MAGIC ? 0x12345678 : ICD_LOADER_MAGIC;
  device->physicalDevice = reinterpret_cast<PhysicalDevice*>(physicalDevice);
  device->queues[0].loaderData.loaderMagic = ICD_LOADER_MAGIC;
  device->queues[1].loaderData.loaderMagic = ICD_LOADER_MAGIC;
  device->queues[2].loaderData.loaderMagic = 0x12345678;
  *out = reinterpret_cast<VkDevice>(device);
  return VK_SUCCESS;
}

void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks*) { delete reinterpret_cast<Device*>(device); }

void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* queue) {
  *queue = family == 0 && index < kQueueCount ? reinterpret_cast<VkQueue>(&reinterpret_cast<Device*>(device)->queues[index]) : nullptr;
}
void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue) {
  GetDeviceQueue(device, info->queueFamilyIndex, info->queueIndex, queue);
}

VkResult VKAPI_CALL QueueWaitIdle(VkQueue) { return VK_SUCCESS; }
VkResult VKAPI_CALL DeviceWaitIdle(VkDevice) { return VK_SUCCESS; }

VkResult VKAPI_CALL CreatePipelineLayout(VkDevice, const VkPipelineLayoutCreateInfo*, const VkAllocationCallbacks*, VkPipelineLayout* out) {
  *out = reinterpret_cast<VkPipelineLayout>(new PipelineLayout{});
  return VK_SUCCESS;
}
void VKAPI_CALL DestroyPipelineLayout(VkDevice, VkPipelineLayout layout, const VkAllocationCallbacks*) {
  delete reinterpret_cast<PipelineLayout*>(layout);
}
VkResult VKAPI_CALL CreateCommandPool(VkDevice, const VkCommandPoolCreateInfo*, const VkAllocationCallbacks*, VkCommandPool* out) {
  *out = reinterpret_cast<VkCommandPool>(new CommandPool{});
  return VK_SUCCESS;
}
void VKAPI_CALL DestroyCommandPool(VkDevice, VkCommandPool pool, const VkAllocationCallbacks*) { delete reinterpret_cast<CommandPool*>(pool); }
VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice, const VkCommandBufferAllocateInfo* info, VkCommandBuffer* out) {
  auto* pool = reinterpret_cast<CommandPool*>(info->commandPool);
  for (uint32_t i = 0; i < info->commandBufferCount; ++i) {
    auto buffer = std::make_unique<CommandBuffer>();
    buffer->loaderData.loaderMagic = ICD_LOADER_MAGIC;
    out[i] = reinterpret_cast<VkCommandBuffer>(buffer.get());
    pool->buffers.push_back(std::move(buffer));
  }
  return VK_SUCCESS;
}
void VKAPI_CALL FreeCommandBuffers(VkDevice, VkCommandPool commandPool, uint32_t count, const VkCommandBuffer* buffers) {
  auto& owned = reinterpret_cast<CommandPool*>(commandPool)->buffers;
  for (uint32_t i = 0; i < count; ++i) {
    std::erase_if(owned, [&](const std::unique_ptr<CommandBuffer>& b) { return reinterpret_cast<VkCommandBuffer>(b.get()) == buffers[i]; });
  }
}
VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo*) {
  reinterpret_cast<CommandBuffer*>(commandBuffer)->commands = 0;
  return VK_SUCCESS;
}
VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer commandBuffer) {
  State().recordings.Ended(reinterpret_cast<CommandBuffer*>(commandBuffer)->commands);
  return VK_SUCCESS;
}
VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags) {
  reinterpret_cast<CommandBuffer*>(commandBuffer)->commands = 0;
  return VK_SUCCESS;
}
void VKAPI_CALL CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout, VkShaderStageFlags, uint32_t, uint32_t, const void*) {
  ++reinterpret_cast<CommandBuffer*>(commandBuffer)->commands;
}
void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint, VkPipeline) {
  ++reinterpret_cast<CommandBuffer*>(commandBuffer)->commands;
}
void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint, VkPipelineLayout, uint32_t, uint32_t, const VkDescriptorSet*,
                                      uint32_t, const uint32_t*) {
  ++reinterpret_cast<CommandBuffer*>(commandBuffer)->commands;
}
void VKAPI_CALL CmdDispatch(VkCommandBuffer commandBuffer, uint32_t, uint32_t, uint32_t) { ++reinterpret_cast<CommandBuffer*>(commandBuffer)->commands; }
void VKAPI_CALL CmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags, VkPipelineStageFlags, VkDependencyFlags, uint32_t,
                                   const VkMemoryBarrier*, uint32_t, const VkBufferMemoryBarrier*, uint32_t, const VkImageMemoryBarrier*) {
  ++reinterpret_cast<CommandBuffer*>(commandBuffer)->commands;
}

template <typename Handle, typename T = Object>
VkResult Create(Handle* out) {
  *out = reinterpret_cast<Handle>(new T{});
  return VK_SUCCESS;
}
template <typename T = Object, typename Handle>
void Destroy(Handle handle) {
  delete reinterpret_cast<T*>(handle);
}
VkResult VKAPI_CALL CreateBuffer(VkDevice, const VkBufferCreateInfo*, const VkAllocationCallbacks*, VkBuffer* out) { return Create(out); }
void VKAPI_CALL DestroyBuffer(VkDevice, VkBuffer b, const VkAllocationCallbacks*) { Destroy(b); }
void VKAPI_CALL GetBufferMemoryRequirements(VkDevice, VkBuffer, VkMemoryRequirements* r) {
  r->size = 4096;
  r->alignment = 256;
  r->memoryTypeBits = 1;
}
VkResult VKAPI_CALL AllocateMemory(VkDevice, const VkMemoryAllocateInfo* info, const VkAllocationCallbacks*, VkDeviceMemory* out) {
  if (info->memoryTypeIndex != 0) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  *out = reinterpret_cast<VkDeviceMemory>(new Memory{std::vector<std::byte>(info->allocationSize)});
  return VK_SUCCESS;
}
void VKAPI_CALL FreeMemory(VkDevice, VkDeviceMemory m, const VkAllocationCallbacks*) { Destroy<Memory>(m); }
VkResult VKAPI_CALL BindBufferMemory(VkDevice, VkBuffer, VkDeviceMemory, VkDeviceSize) { return VK_SUCCESS; }
VkResult VKAPI_CALL MapMemory(VkDevice, VkDeviceMemory m, VkDeviceSize offset, VkDeviceSize, VkMemoryMapFlags, void** data) {
  *data = reinterpret_cast<Memory*>(m)->bytes.data() + offset;
  return VK_SUCCESS;
}
void VKAPI_CALL UnmapMemory(VkDevice, VkDeviceMemory) {}
VkResult VKAPI_CALL FlushOrInvalidateMemory(VkDevice, uint32_t, const VkMappedMemoryRange*) { return VK_SUCCESS; }
VkResult VKAPI_CALL CreateShaderModule(VkDevice, const VkShaderModuleCreateInfo*, const VkAllocationCallbacks*, VkShaderModule* out) { return Create(out); }
void VKAPI_CALL DestroyShaderModule(VkDevice, VkShaderModule m, const VkAllocationCallbacks*) { Destroy(m); }
VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice, const VkDescriptorSetLayoutCreateInfo*, const VkAllocationCallbacks*, VkDescriptorSetLayout* out) {
  return Create(out);
}
void VKAPI_CALL DestroyDescriptorSetLayout(VkDevice, VkDescriptorSetLayout l, const VkAllocationCallbacks*) { Destroy(l); }
VkResult VKAPI_CALL CreateDescriptorPool(VkDevice, const VkDescriptorPoolCreateInfo*, const VkAllocationCallbacks*, VkDescriptorPool* out) {
  return Create<VkDescriptorPool, DescriptorPool>(out);
}
void VKAPI_CALL DestroyDescriptorPool(VkDevice, VkDescriptorPool p, const VkAllocationCallbacks*) { Destroy<DescriptorPool>(p); }
VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice, const VkDescriptorSetAllocateInfo* info, VkDescriptorSet* out) {
  auto& sets = reinterpret_cast<DescriptorPool*>(info->descriptorPool)->sets;
  for (uint32_t i = 0; i < info->descriptorSetCount; ++i) {
    sets.push_back(std::make_unique<Object>());
    out[i] = reinterpret_cast<VkDescriptorSet>(sets.back().get());
  }
  return VK_SUCCESS;
}
VkResult VKAPI_CALL FreeDescriptorSets(VkDevice, VkDescriptorPool pool, uint32_t count, const VkDescriptorSet* freed) {
  auto& sets = reinterpret_cast<DescriptorPool*>(pool)->sets;
  for (uint32_t i = 0; i < count; ++i) {
    std::erase_if(sets, [&](const std::unique_ptr<Object>& s) { return reinterpret_cast<VkDescriptorSet>(s.get()) == freed[i]; });
  }
  return VK_SUCCESS;
}
void VKAPI_CALL UpdateDescriptorSets(VkDevice, uint32_t, const VkWriteDescriptorSet*, uint32_t, const VkCopyDescriptorSet*) {}
VkResult VKAPI_CALL CreateComputePipelines(VkDevice, VkPipelineCache, uint32_t count, const VkComputePipelineCreateInfo*, const VkAllocationCallbacks*,
                                           VkPipeline* out) {
  for (uint32_t i = 0; i < count; ++i) Create(&out[i]);
  return VK_SUCCESS;
}
void VKAPI_CALL DestroyPipeline(VkDevice, VkPipeline p, const VkAllocationCallbacks*) { Destroy(p); }

// Commands the loader does not know: one physical-device command (answered by
// vk_icdGetPhysicalDeviceProcAddr) and one device command (answered by vkGetDeviceProcAddr).
// Both check they received this driver's own handle, not a loader wrapper.
VkResult VKAPI_CALL KlTestPhysicalDeviceCommand(VkPhysicalDevice physicalDevice, uint32_t value, uint32_t* out) {
  auto* pd = reinterpret_cast<PhysicalDevice*>(physicalDevice);
  if (pd->loaderData.loaderMagic != ICD_LOADER_MAGIC || !OwnsDevice(pd->instance, pd)) return VK_ERROR_UNKNOWN;
  *out = value + KL_DRIVER_VENDOR;
  return VK_SUCCESS;
}

VkResult VKAPI_CALL KlTestDeviceCommand(VkDevice device, uint32_t value, uint32_t* out) {
  auto* d = reinterpret_cast<Device*>(device);
  if (d->physicalDevice == nullptr || d->physicalDevice->instance == nullptr) return VK_ERROR_UNKNOWN;
  *out = value * 2;
  return VK_SUCCESS;
}

#define KL_ANSWER(command, fn) \
  if (n == command) return reinterpret_cast<PFN_vkVoidFunction>(fn);

PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice, const char* name) {
  const std::string_view n = name;
  KL_ANSWER("vkGetDeviceProcAddr", GetDeviceProcAddr)
  KL_ANSWER("vkDestroyDevice", DestroyDevice)
  KL_ANSWER("vkGetDeviceQueue", GetDeviceQueue)
  KL_ANSWER("vkGetDeviceQueue2", GetDeviceQueue2)
  KL_ANSWER("vkQueueWaitIdle", QueueWaitIdle)
  if constexpr (KL_DRIVER_SURFACES != 0) {
    KL_ANSWER("vkCreateSwapchainKHR", CreateSwapchain)
    KL_ANSWER("vkDestroySwapchainKHR", DestroySwapchain)
    KL_ANSWER("vkGetSwapchainImagesKHR", GetSwapchainImages)
    KL_ANSWER("vkAcquireNextImageKHR", AcquireNextImage)
    KL_ANSWER("vkQueuePresentKHR", QueuePresent)
    KL_ANSWER("vkCreateFence", CreateFence)
    KL_ANSWER("vkDestroyFence", DestroyFence)
    KL_ANSWER("vkWaitForFences", WaitForFences)
    KL_ANSWER("vkResetFences", ResetFences)
    KL_ANSWER("vkGetFenceStatus", GetFenceStatus)
    KL_ANSWER("vkCreateSemaphore", CreateSemaphore)
    KL_ANSWER("vkDestroySemaphore", DestroySemaphore)
    KL_ANSWER("vkQueueSubmit", QueueSubmit)
  }
  if constexpr (KL_DRIVER_NO_DEVICE_WAIT_IDLE == 0) {
    KL_ANSWER("vkDeviceWaitIdle", DeviceWaitIdle)
  }
  KL_ANSWER("vkCreatePipelineLayout", CreatePipelineLayout)
  KL_ANSWER("vkDestroyPipelineLayout", DestroyPipelineLayout)
  KL_ANSWER("vkCreateCommandPool", CreateCommandPool)
  KL_ANSWER("vkDestroyCommandPool", DestroyCommandPool)
  KL_ANSWER("vkAllocateCommandBuffers", AllocateCommandBuffers)
  KL_ANSWER("vkFreeCommandBuffers", FreeCommandBuffers)
  KL_ANSWER("vkBeginCommandBuffer", BeginCommandBuffer)
  KL_ANSWER("vkEndCommandBuffer", EndCommandBuffer)
  KL_ANSWER("vkResetCommandBuffer", ResetCommandBuffer)
  KL_ANSWER("vkCmdPushConstants", CmdPushConstants)
  KL_ANSWER("vkCmdBindPipeline", CmdBindPipeline)
  KL_ANSWER("vkCmdBindDescriptorSets", CmdBindDescriptorSets)
  KL_ANSWER("vkCmdDispatch", CmdDispatch)
  KL_ANSWER("vkCmdPipelineBarrier", CmdPipelineBarrier)
  KL_ANSWER("vkCreateBuffer", CreateBuffer)
  KL_ANSWER("vkDestroyBuffer", DestroyBuffer)
  KL_ANSWER("vkGetBufferMemoryRequirements", GetBufferMemoryRequirements)
  KL_ANSWER("vkAllocateMemory", AllocateMemory)
  KL_ANSWER("vkFreeMemory", FreeMemory)
  KL_ANSWER("vkBindBufferMemory", BindBufferMemory)
  KL_ANSWER("vkMapMemory", MapMemory)
  KL_ANSWER("vkUnmapMemory", UnmapMemory)
  KL_ANSWER("vkFlushMappedMemoryRanges", FlushOrInvalidateMemory)
  KL_ANSWER("vkInvalidateMappedMemoryRanges", FlushOrInvalidateMemory)
  KL_ANSWER("vkCreateShaderModule", CreateShaderModule)
  KL_ANSWER("vkDestroyShaderModule", DestroyShaderModule)
  KL_ANSWER("vkCreateDescriptorSetLayout", CreateDescriptorSetLayout)
  KL_ANSWER("vkDestroyDescriptorSetLayout", DestroyDescriptorSetLayout)
  KL_ANSWER("vkCreateDescriptorPool", CreateDescriptorPool)
  KL_ANSWER("vkDestroyDescriptorPool", DestroyDescriptorPool)
  KL_ANSWER("vkAllocateDescriptorSets", AllocateDescriptorSets)
  KL_ANSWER("vkFreeDescriptorSets", FreeDescriptorSets)
  KL_ANSWER("vkUpdateDescriptorSets", UpdateDescriptorSets)
  KL_ANSWER("vkCreateComputePipelines", CreateComputePipelines)
  KL_ANSWER("vkDestroyPipeline", DestroyPipeline)
  KL_ANSWER("vkKlTestDeviceCommand", KlTestDeviceCommand)
  return nullptr;
}

[[maybe_unused]] PFN_vkVoidFunction VKAPI_CALL GetPhysicalDeviceProcAddr(VkInstance, const char* name) {
  const std::string_view n = name;
  KL_ANSWER("vkKlTestPhysicalDeviceCommand", KlTestPhysicalDeviceCommand)
  return nullptr;
}

[[maybe_unused]] VkResult VKAPI_CALL Negotiate(uint32_t* version) {
  if (Fault("negotiate") == kl_fault::Kind::Fail) return VK_ERROR_INCOMPATIBLE_DRIVER;
#if KL_DRIVER_NEGOTIATE_FAIL == 1
  (void)version;
  return VK_ERROR_INCOMPATIBLE_DRIVER;
#elif KL_DRIVER_NEGOTIATE_FAIL == 2
  *version = *version + 1;
  return VK_SUCCESS;
#elif KL_DRIVER_NEGOTIATE_FAIL == 3
  // A real segmentation fault, as a buggy driver would cause (raised, so no undefined behaviour
  // the compiler could remove).
  (void)version;
  std::raise(SIGSEGV);
  return VK_ERROR_INCOMPATIBLE_DRIVER;
#else
  State().negotiatedVersion = std::min<uint32_t>(*version, KL_DRIVER_VERSION);
  *version = State().negotiatedVersion;
  return VK_SUCCESS;
#endif
}

PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  const std::string_view n = name;
  if (Fault(name, true) == kl_fault::Kind::Null) return nullptr;
  KL_ANSWER("vkCreateInstance", CreateInstance)
  KL_ANSWER("vkEnumerateInstanceExtensionProperties", EnumerateInstanceExtensionProperties)
#if !KL_DRIVER_API_1_0
  KL_ANSWER("vkEnumerateInstanceVersion", EnumerateInstanceVersion)
#endif
#if KL_DRIVER_VIA_GIPA
  KL_ANSWER("vk_icdNegotiateLoaderICDInterfaceVersion", Negotiate)
  KL_ANSWER("vk_icdGetPhysicalDeviceProcAddr", GetPhysicalDeviceProcAddr)
#endif
  if (instance == nullptr) return nullptr;
  KL_ANSWER("vkGetInstanceProcAddr", GetInstanceProcAddr)
  KL_ANSWER("vkDestroyInstance", DestroyInstance)
  KL_ANSWER("vkEnumeratePhysicalDevices", EnumeratePhysicalDevices)
  KL_ANSWER("vkGetPhysicalDeviceProperties", GetPhysicalDeviceProperties)
  KL_ANSWER("vkGetPhysicalDeviceQueueFamilyProperties", GetPhysicalDeviceQueueFamilyProperties)
  KL_ANSWER("vkEnumerateDeviceExtensionProperties", EnumerateDeviceExtensionProperties)
  KL_ANSWER("vkGetPhysicalDeviceFeatures", GetPhysicalDeviceFeatures)
  KL_ANSWER("vkGetPhysicalDeviceFormatProperties", GetPhysicalDeviceFormatProperties)
  KL_ANSWER("vkGetPhysicalDeviceImageFormatProperties", GetPhysicalDeviceImageFormatProperties)
  KL_ANSWER("vkGetPhysicalDeviceMemoryProperties", GetPhysicalDeviceMemoryProperties)
  KL_ANSWER("vkGetPhysicalDeviceSparseImageFormatProperties", GetPhysicalDeviceSparseImageFormatProperties)
  KL_ANSWER("vkGetPhysicalDeviceProperties2", GetPhysicalDeviceProperties2)
  KL_ANSWER("vkGetPhysicalDeviceProperties2KHR", GetPhysicalDeviceProperties2)
  if (reinterpret_cast<Instance*>(instance)->groups) {
    KL_ANSWER("vkEnumeratePhysicalDeviceGroups", EnumeratePhysicalDeviceGroups)
    KL_ANSWER("vkEnumeratePhysicalDeviceGroupsKHR", EnumeratePhysicalDeviceGroups)
  }
  KL_ANSWER("vkCreateDevice", CreateDevice)
  if constexpr (KL_DRIVER_SURFACES != 0) {
    KL_ANSWER("vkCreateHeadlessSurfaceEXT", CreateHeadlessSurface)
    KL_ANSWER("vkDestroySurfaceKHR", DestroySurface)
    KL_ANSWER("vkGetPhysicalDeviceSurfaceSupportKHR", GetSurfaceSupport)
    KL_ANSWER("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", GetSurfaceCapabilities)
    KL_ANSWER("vkGetPhysicalDeviceSurfaceFormatsKHR", GetSurfaceFormats)
    KL_ANSWER("vkGetPhysicalDeviceSurfacePresentModesKHR", GetSurfacePresentModes)
  }
  return GetDeviceProcAddr(nullptr, name);
}

}  // namespace

#if KL_DRIVER_VERSION == 0
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* name) { return GetInstanceProcAddr(instance, name); }
KL_EXPORT VkResult VKAPI_CALL vkCreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* a, VkInstance* out) {
  return CreateInstance(info, a, out);
}
KL_EXPORT VkResult VKAPI_CALL vkEnumerateInstanceExtensionProperties(const char* l, uint32_t* c, VkExtensionProperties* p) {
  return EnumerateInstanceExtensionProperties(l, c, p);
}
#else
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance, const char* name) {
  return GetInstanceProcAddr(instance, name);
}
#endif
KL_EXPORT uint64_t kl_vk_test_driver_recordings(uint64_t* counts, uint32_t capacity) { return State().recordings.Read(counts, capacity); }
#if KL_DRIVER_VERSION >= 2 && !KL_DRIVER_VIA_GIPA
KL_EXPORT VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* version) { return Negotiate(version); }
#endif
#if KL_DRIVER_VERSION >= 4 && !KL_DRIVER_VIA_GIPA
KL_EXPORT PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char* name) {
  return GetPhysicalDeviceProcAddr(instance, name);
}
#endif

#if KL_DRIVER_SURFACES
KL_EXPORT int kl_vk_driver_live_surfaces() {
  std::lock_guard lock(surfacesMutex);
  return static_cast<int>(LiveSurfaces().size());
}
KL_EXPORT void kl_vk_driver_lose_surfaces(int how) { surfacesLost = how; }
#endif
