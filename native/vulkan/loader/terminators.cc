// The bottom of the instance chain: what the layer nearest the drivers calls as "next", and
// what the trampolines reach directly when no layer is enabled. Physical-device commands unwrap
// the loader's PhysicalDeviceObject and call the driver that owns it.
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"

namespace kl::vulkan {

LoaderInstance* ConstructingInstance();

namespace {

template <typename T>
struct FirstParameter;
template <typename R, typename First, typename... Rest>
struct FirstParameter<R(VKAPI_PTR*)(First, Rest...)> {
  using type = First;
};

template <typename Fn>
inline constexpr bool kTakesPhysicalDevice = std::is_same_v<typename FirstParameter<Fn>::type, VkPhysicalDevice>;

// The driver's own command for a physical-device command; a driver that lacks it answers
// VK_ERROR_EXTENSION_NOT_PRESENT (or nothing, for void commands).
// `Dependent` only makes a use inside a template dependent (so commands that take a VkInstance
// never instantiate it).
template <auto Member, typename Dependent>
struct PhysicalDeviceTerminator;
template <typename Fn, Fn gen::VkInstanceDispatchTable::*Member, typename Dependent>
struct PhysicalDeviceTerminator<Member, Dependent> {
  template <typename... Args>
  static auto VKAPI_CALL Call(VkPhysicalDevice physicalDevice, Args... args) {
    auto* pd = reinterpret_cast<PhysicalDeviceObject*>(physicalDevice);
    const Fn fn = pd->driver->table.*Member;
    using R = decltype(fn(pd->next, args...));
    if (fn == nullptr) {
      if constexpr (std::is_same_v<R, VkResult>) return VK_ERROR_EXTENSION_NOT_PRESENT;
      else return R();
    }
    return fn(pd->next, args...);
  }
};

#define KL_VK_TERMINATOR(name, member, ret, params, args)                                      \
  template <typename Fn = PFN_##name>                                                           \
  ret VKAPI_CALL Terminator_##member params {                                                   \
    if constexpr (kTakesPhysicalDevice<Fn>) {                                                   \
      return PhysicalDeviceTerminator<&gen::VkInstanceDispatchTable::member, Fn>::Call args;        \
    } else {                                                                                    \
      if constexpr (!std::is_void_v<ret>) return ret();                                         \
    }                                                                                           \
  }
KL_VK_INSTANCE_COMMAND_SIGNATURES(KL_VK_TERMINATOR)
#undef KL_VK_TERMINATOR

VkResult VKAPI_CALL TerminatorCreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator, VkInstance* instance) {
  LoaderInstance* li = instance != nullptr ? LoaderInstance::FromHandle(*instance) : nullptr;
  if (li == nullptr || li != ConstructingInstance()) li = ConstructingInstance();
  if (li == nullptr || info == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult res = li->TerminatorCreateInstance(info, allocator);
  if (res == VK_SUCCESS) *instance = li->handle();
  return res;
}

void VKAPI_CALL TerminatorDestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  if (LoaderInstance* li = LoaderInstance::FromHandle(instance)) li->TerminatorDestroyInstance(allocator);
}

VkResult VKAPI_CALL TerminatorEnumeratePhysicalDevices(VkInstance instance, uint32_t* count, VkPhysicalDevice* devices) {
  LoaderInstance* li = LoaderInstance::FromHandle(instance);
  return li != nullptr ? li->TerminatorEnumeratePhysicalDevices(count, devices) : VK_ERROR_INITIALIZATION_FAILED;
}

VkResult VKAPI_CALL TerminatorEnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
  LoaderInstance* li = LoaderInstance::FromHandle(instance);
  return li != nullptr ? li->TerminatorEnumeratePhysicalDeviceGroups(count, groups) : VK_ERROR_INITIALIZATION_FAILED;
}

// Whether every queue `info` created carries the loader magic, asked of the driver itself (the
// layers above see no call the application did not make): the queues an application may get
// (VUID-vkGetDeviceQueue-queueIndex-00385). A queue with flags is asked for with
// vkGetDeviceQueue2; where the driver has none, its queues are not known to carry the magic.
bool CheckDriverQueues(const DriverInstance& di, VkDevice device, const VkDeviceCreateInfo& info) {
  auto get = reinterpret_cast<PFN_vkGetDeviceQueue>(di.getDeviceProcAddr(device, "vkGetDeviceQueue"));
  auto get2 = reinterpret_cast<PFN_vkGetDeviceQueue2>(di.getDeviceProcAddr(device, "vkGetDeviceQueue2"));
  if (get == nullptr || info.pQueueCreateInfos == nullptr) return false;
  bool all = true;
  for (uint32_t c = 0; c < info.queueCreateInfoCount; ++c) {
    const VkDeviceQueueCreateInfo& q = info.pQueueCreateInfos[c];
    for (uint32_t i = 0; i < q.queueCount; ++i) {
      VkQueue queue = nullptr;
      if (q.flags == 0) {
        get(device, q.queueFamilyIndex, i, &queue);
      } else if (get2 != nullptr) {
        const VkDeviceQueueInfo2 info2{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, nullptr, q.flags, q.queueFamilyIndex, i};
        get2(device, &info2, &queue);
      } else {
        return false;
      }
      if (queue != nullptr && reinterpret_cast<const VK_LOADER_DATA*>(queue)->loaderMagic != ICD_LOADER_MAGIC) {
        Log(LogLevel::Warn, "vulkan",
            DescribeDriver(di.driver->description) + ": queue " + std::to_string(i) + " of family " + std::to_string(q.queueFamilyIndex) +
                " does not start with the loader magic value 0x01CDC0DE; vkGetDeviceQueue checks every queue of this device");
        all = false;
      }
    }
  }
  return all;
}

// Creates the driver's device, checks its loader magic and points it at the LoaderDevice's
// table (VK-CH-2), so the trampolines and the exported functions dispatch through it.
VkResult VKAPI_CALL TerminatorCreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info,
                                           const VkAllocationCallbacks* allocator, VkDevice* device) {
  auto* pd = reinterpret_cast<PhysicalDeviceObject*>(physicalDevice);
  LoaderDevice* ld = LoaderInstance::ConstructingDevice();
  if (ld == nullptr || pd == nullptr || pd->driver == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  DriverInstance* di = pd->driver;
  VkDeviceCreateInfo driverInfo = *info;
  driverInfo.enabledLayerCount = 0;
  driverInfo.ppEnabledLayerNames = nullptr;
  const std::vector<const char*> driverExtensions = DriverDeviceExtensions(*di, pd->next, *info);
  driverInfo.enabledExtensionCount = static_cast<uint32_t>(driverExtensions.size());
  driverInfo.ppEnabledExtensionNames = driverExtensions.empty() ? nullptr : driverExtensions.data();
  VkDevice created = nullptr;
  const VkResult res = di->table.CreateDevice(pd->next, &driverInfo, allocator, &created);
  if (res != VK_SUCCESS) return res;
  if (reinterpret_cast<VK_LOADER_DATA*>(created)->loaderMagic != ICD_LOADER_MAGIC) {
    Log(LogLevel::Error, "vulkan",
        DescribeDriver(di->driver->description) +
            ": the VkDevice from vkCreateDevice does not start with the loader magic value 0x01CDC0DE; the device is destroyed");
    auto destroy = reinterpret_cast<PFN_vkDestroyDevice>(di->getDeviceProcAddr(created, "vkDestroyDevice"));
    if (destroy != nullptr) destroy(created, allocator);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  *reinterpret_cast<const void**>(created) = &ld->dispatch.table;
  ld->handle = created;
  ld->driver = di;
  ld->queuesCarryMagic = CheckDriverQueues(*di, created, driverInfo);
  ld->driverSwapchain.Fill(di->getDeviceProcAddr, created);
  *device = created;
  return VK_SUCCESS;
}

VkResult VKAPI_CALL TerminatorEnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char* layerName, uint32_t* count,
                                                                VkExtensionProperties* properties) {
  const auto* pd = reinterpret_cast<const PhysicalDeviceObject*>(physicalDevice);
  if (pd == nullptr || pd->owner == nullptr || pd->driver == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  return pd->owner->TerminatorEnumerateDeviceExtensions(*pd, layerName, count, properties);
}

VkResult VKAPI_CALL TerminatorCreateDebugUtilsMessenger(VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT* info,
                                                        const VkAllocationCallbacks* allocator, VkDebugUtilsMessengerEXT* messenger) {
  LoaderInstance* li = LoaderInstance::FromHandle(instance);
  return li != nullptr ? li->TerminatorCreateDebugUtilsMessenger(info, allocator, messenger) : VK_ERROR_INITIALIZATION_FAILED;
}
void VKAPI_CALL TerminatorDestroyDebugUtilsMessenger(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                                     const VkAllocationCallbacks* allocator) {
  if (LoaderInstance* li = LoaderInstance::FromHandle(instance)) li->TerminatorDestroyDebugUtilsMessenger(messenger, allocator);
}
VkResult VKAPI_CALL TerminatorCreateDebugReportCallback(VkInstance instance, const VkDebugReportCallbackCreateInfoEXT* info,
                                                        const VkAllocationCallbacks* allocator, VkDebugReportCallbackEXT* callback) {
  LoaderInstance* li = LoaderInstance::FromHandle(instance);
  return li != nullptr ? li->TerminatorCreateDebugReportCallback(info, allocator, callback) : VK_ERROR_INITIALIZATION_FAILED;
}
void VKAPI_CALL TerminatorDestroyDebugReportCallback(VkInstance instance, VkDebugReportCallbackEXT callback, const VkAllocationCallbacks* allocator) {
  if (LoaderInstance* li = LoaderInstance::FromHandle(instance)) li->TerminatorDestroyDebugReportCallback(callback, allocator);
}
void VKAPI_CALL TerminatorDebugReportMessage(VkInstance instance, VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT objectType, uint64_t object,
                                             size_t location, int32_t messageCode, const char* layerPrefix, const char* message) {
  if (LoaderInstance* li = LoaderInstance::FromHandle(instance)) {
    li->TerminatorDebugReportMessage(flags, objectType, object, location, messageCode, layerPrefix, message);
  }
}
void VKAPI_CALL TerminatorSubmitDebugUtilsMessage(VkInstance instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT types, const VkDebugUtilsMessengerCallbackDataEXT* data) {
  if (LoaderInstance* li = LoaderInstance::FromHandle(instance)) li->TerminatorSubmitDebugUtilsMessage(severity, types, data);
}

// The Vulkan 1.1 physical-device queries (and their VK_KHR_get_physical_device_properties2 and
// VK_KHR_external_*_capabilities aliases) for a driver instance that does not expose them: an
// application that asked for Vulkan 1.0 without those extensions and calls them anyway (Monado's
// compositor does, for its format checks). As the Khronos loader does: the driver's 1.1 or KHR
// entry when it has one, else the answer of its 1.0 query (the caller's pNext chains stay as it
// filled them; external handle types are reported as not supported).
namespace properties2 {

const gen::VkInstanceDispatchTable& DriverTable(VkPhysicalDevice p) { return reinterpret_cast<PhysicalDeviceObject*>(p)->driver->table; }
VkPhysicalDevice DriverHandle(VkPhysicalDevice p) { return reinterpret_cast<PhysicalDeviceObject*>(p)->next; }
template <typename Fn>
Fn Either(Fn core, Fn khr) { return core != nullptr ? core : khr; }

void VKAPI_CALL Features2(VkPhysicalDevice p, VkPhysicalDeviceFeatures2* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceFeatures2, t.GetPhysicalDeviceFeatures2KHR)) return fn(DriverHandle(p), out);
  if (t.GetPhysicalDeviceFeatures != nullptr) t.GetPhysicalDeviceFeatures(DriverHandle(p), &out->features);
}
void VKAPI_CALL Properties2(VkPhysicalDevice p, VkPhysicalDeviceProperties2* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceProperties2, t.GetPhysicalDeviceProperties2KHR)) return fn(DriverHandle(p), out);
  if (t.GetPhysicalDeviceProperties != nullptr) t.GetPhysicalDeviceProperties(DriverHandle(p), &out->properties);
}
void VKAPI_CALL FormatProperties2(VkPhysicalDevice p, VkFormat format, VkFormatProperties2* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceFormatProperties2, t.GetPhysicalDeviceFormatProperties2KHR)) return fn(DriverHandle(p), format, out);
  if (t.GetPhysicalDeviceFormatProperties != nullptr) t.GetPhysicalDeviceFormatProperties(DriverHandle(p), format, &out->formatProperties);
}
VkResult VKAPI_CALL ImageFormatProperties2(VkPhysicalDevice p, const VkPhysicalDeviceImageFormatInfo2* info, VkImageFormatProperties2* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceImageFormatProperties2, t.GetPhysicalDeviceImageFormatProperties2KHR)) return fn(DriverHandle(p), info, out);
  if (t.GetPhysicalDeviceImageFormatProperties == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  return t.GetPhysicalDeviceImageFormatProperties(DriverHandle(p), info->format, info->type, info->tiling, info->usage, info->flags,
                                                  &out->imageFormatProperties);
}
void VKAPI_CALL QueueFamilyProperties2(VkPhysicalDevice p, uint32_t* count, VkQueueFamilyProperties2* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceQueueFamilyProperties2, t.GetPhysicalDeviceQueueFamilyProperties2KHR)) return fn(DriverHandle(p), count, out);
  if (t.GetPhysicalDeviceQueueFamilyProperties == nullptr) return;
  if (out == nullptr) return t.GetPhysicalDeviceQueueFamilyProperties(DriverHandle(p), count, nullptr);
  std::vector<VkQueueFamilyProperties> families(*count);
  t.GetPhysicalDeviceQueueFamilyProperties(DriverHandle(p), count, families.data());
  for (uint32_t i = 0; i < *count; ++i) out[i].queueFamilyProperties = families[i];
}
void VKAPI_CALL MemoryProperties2(VkPhysicalDevice p, VkPhysicalDeviceMemoryProperties2* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceMemoryProperties2, t.GetPhysicalDeviceMemoryProperties2KHR)) return fn(DriverHandle(p), out);
  if (t.GetPhysicalDeviceMemoryProperties != nullptr) t.GetPhysicalDeviceMemoryProperties(DriverHandle(p), &out->memoryProperties);
}
void VKAPI_CALL SparseImageFormatProperties2(VkPhysicalDevice p, const VkPhysicalDeviceSparseImageFormatInfo2* info, uint32_t* count,
                                             VkSparseImageFormatProperties2* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceSparseImageFormatProperties2, t.GetPhysicalDeviceSparseImageFormatProperties2KHR)) {
    return fn(DriverHandle(p), info, count, out);
  }
  if (t.GetPhysicalDeviceSparseImageFormatProperties == nullptr) return;
  const auto query = [&](VkSparseImageFormatProperties* into) {
    t.GetPhysicalDeviceSparseImageFormatProperties(DriverHandle(p), info->format, info->type, info->samples, info->usage, info->tiling, count, into);
  };
  if (out == nullptr) return query(nullptr);
  std::vector<VkSparseImageFormatProperties> all(*count);
  query(all.data());
  for (uint32_t i = 0; i < *count; ++i) out[i].properties = all[i];
}
void VKAPI_CALL ExternalBufferProperties(VkPhysicalDevice p, const VkPhysicalDeviceExternalBufferInfo* info, VkExternalBufferProperties* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceExternalBufferProperties, t.GetPhysicalDeviceExternalBufferPropertiesKHR)) return fn(DriverHandle(p), info, out);
  out->externalMemoryProperties = VkExternalMemoryProperties{};
}
void VKAPI_CALL ExternalSemaphoreProperties(VkPhysicalDevice p, const VkPhysicalDeviceExternalSemaphoreInfo* info, VkExternalSemaphoreProperties* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceExternalSemaphoreProperties, t.GetPhysicalDeviceExternalSemaphorePropertiesKHR)) {
    return fn(DriverHandle(p), info, out);
  }
  out->exportFromImportedHandleTypes = 0;
  out->compatibleHandleTypes = 0;
  out->externalSemaphoreFeatures = 0;
}
void VKAPI_CALL ExternalFenceProperties(VkPhysicalDevice p, const VkPhysicalDeviceExternalFenceInfo* info, VkExternalFenceProperties* out) {
  const auto& t = DriverTable(p);
  if (auto fn = Either(t.GetPhysicalDeviceExternalFenceProperties, t.GetPhysicalDeviceExternalFencePropertiesKHR)) return fn(DriverHandle(p), info, out);
  out->exportFromImportedHandleTypes = 0;
  out->compatibleHandleTypes = 0;
  out->externalFenceFeatures = 0;
}

// The core command and its KHR alias both get the emulating terminator.
void Install(gen::VkInstanceDispatchTable& t) {
#define KL_VK_PROPERTIES2(member, fn) \
  t.member = fn;                      \
  t.member##KHR = fn;
  KL_VK_PROPERTIES2(GetPhysicalDeviceFeatures2, Features2)
  KL_VK_PROPERTIES2(GetPhysicalDeviceProperties2, Properties2)
  KL_VK_PROPERTIES2(GetPhysicalDeviceFormatProperties2, FormatProperties2)
  KL_VK_PROPERTIES2(GetPhysicalDeviceImageFormatProperties2, ImageFormatProperties2)
  KL_VK_PROPERTIES2(GetPhysicalDeviceQueueFamilyProperties2, QueueFamilyProperties2)
  KL_VK_PROPERTIES2(GetPhysicalDeviceMemoryProperties2, MemoryProperties2)
  KL_VK_PROPERTIES2(GetPhysicalDeviceSparseImageFormatProperties2, SparseImageFormatProperties2)
  KL_VK_PROPERTIES2(GetPhysicalDeviceExternalBufferProperties, ExternalBufferProperties)
  KL_VK_PROPERTIES2(GetPhysicalDeviceExternalSemaphoreProperties, ExternalSemaphoreProperties)
  KL_VK_PROPERTIES2(GetPhysicalDeviceExternalFenceProperties, ExternalFenceProperties)
#undef KL_VK_PROPERTIES2
}

}  // namespace properties2

const gen::VkInstanceDispatchTable& Terminators() {
  static const gen::VkInstanceDispatchTable table = [] {
    gen::VkInstanceDispatchTable t{};
#define KL_VK_ASSIGN(name, member, ret, params, args) \
  if constexpr (kTakesPhysicalDevice<PFN_##name>) t.member = Terminator_##member<>;
    KL_VK_INSTANCE_COMMAND_SIGNATURES(KL_VK_ASSIGN)
#undef KL_VK_ASSIGN
    properties2::Install(t);
    WsiInstallInstanceTerminators(t);
    t.DestroyInstance = TerminatorDestroyInstance;
    t.EnumeratePhysicalDevices = TerminatorEnumeratePhysicalDevices;
    t.EnumeratePhysicalDeviceGroups = TerminatorEnumeratePhysicalDeviceGroups;
    t.EnumeratePhysicalDeviceGroupsKHR = TerminatorEnumeratePhysicalDeviceGroups;
    t.CreateDevice = TerminatorCreateDevice;
    t.EnumerateDeviceExtensionProperties = TerminatorEnumerateDeviceExtensionProperties;
    t.CreateDebugUtilsMessengerEXT = TerminatorCreateDebugUtilsMessenger;
    t.DestroyDebugUtilsMessengerEXT = TerminatorDestroyDebugUtilsMessenger;
    t.SubmitDebugUtilsMessageEXT = TerminatorSubmitDebugUtilsMessage;
    t.CreateDebugReportCallbackEXT = TerminatorCreateDebugReportCallback;
    t.DestroyDebugReportCallbackEXT = TerminatorDestroyDebugReportCallback;
    t.DebugReportMessageEXT = TerminatorDebugReportMessage;
    return t;
  }();
  return table;
}

}  // namespace

PFN_vkVoidFunction VKAPI_CALL TerminatorGetInstanceProcAddr(VkInstance instance, const char* name) {
  if (name == nullptr) return nullptr;
  const std::string_view n = name;
  if (n == "vkGetInstanceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(TerminatorGetInstanceProcAddr);
  if (n == "vkCreateInstance") return reinterpret_cast<PFN_vkVoidFunction>(TerminatorCreateInstance);
  if (n == "vkGetDeviceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(TerminatorGetDeviceProcAddr);
  if (PFN_vkVoidFunction wsi = WsiInstanceTerminator(n)) return wsi;
  const gen::VkCommandInfo* info = gen::findVkCommand(n);
  if (info != nullptr && (info->level == gen::VkCommandLevel::Instance || info->level == gen::VkCommandLevel::PhysicalDevice)) {
    return gen::getVkInstanceCommand(Terminators(), info->index);
  }
  if (info == nullptr && instance != nullptr) return TerminatorGetPhysicalDeviceProcAddr(instance, name);
  return nullptr;
}

PFN_vkVoidFunction VKAPI_CALL TerminatorGetPhysicalDeviceProcAddr(VkInstance instance, const char* name) {
  if (name == nullptr) return nullptr;
  // The platform presentation-support queries (not in the generated tables).
  if (std::string_view(name).starts_with("vkGetPhysicalDevice")) {
    if (PFN_vkVoidFunction wsi = WsiInstanceTerminator(name)) return wsi;
  }
  const gen::VkCommandInfo* info = gen::findVkCommand(name);
  if (info != nullptr) {
    return info->level == gen::VkCommandLevel::PhysicalDevice ? gen::getVkInstanceCommand(Terminators(), info->index) : nullptr;
  }
  LoaderInstance* li = LoaderInstance::FromHandle(instance);
  return li != nullptr ? li->TerminatorUnknownPhysicalDeviceCommand(name) : nullptr;
}

PFN_vkVoidFunction VKAPI_CALL TerminatorGetDeviceProcAddr(VkDevice device, const char* name) {
  LoaderDevice* ld = LoaderDevice::FromObject(device);
  if (ld == nullptr || ld->driver == nullptr || name == nullptr) return nullptr;
  if (std::string_view(name) == "vkGetDeviceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(TerminatorGetDeviceProcAddr);
  PFN_vkVoidFunction driverFunction = ld->driver->getDeviceProcAddr(device, name);
  // The commands that take a surface: the loader's, where the driver has the command.
  if (driverFunction != nullptr) {
    if (PFN_vkVoidFunction wsi = WsiDeviceTerminator(name)) return wsi;
  }
  return driverFunction;
}

VkResult VKAPI_CALL SetInstanceLoaderData(VkInstance instance, void* object) {
  if (instance == nullptr || object == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  *reinterpret_cast<const void**>(object) = *reinterpret_cast<const void* const*>(instance);
  return VK_SUCCESS;
}

VkResult VKAPI_CALL SetDeviceLoaderData(VkDevice device, void* object) {
  if (device == nullptr || object == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  *reinterpret_cast<const void**>(object) = *reinterpret_cast<const void* const*>(device);
  return VK_SUCCESS;
}

}  // namespace kl::vulkan
