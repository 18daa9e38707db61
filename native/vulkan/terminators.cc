// The bottom of the instance chain: what the layer nearest the drivers calls as "next", and
// what the trampolines reach directly when no layer is enabled. Physical-device commands unwrap
// the loader's PhysicalDeviceObject and call the driver that owns it.
#include <cstring>
#include <string_view>
#include <type_traits>

#include "vulkan/loader_instance.h"

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
  *device = created;
  return VK_SUCCESS;
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
void VKAPI_CALL TerminatorSubmitDebugUtilsMessage(VkInstance instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT types, const VkDebugUtilsMessengerCallbackDataEXT* data) {
  if (LoaderInstance* li = LoaderInstance::FromHandle(instance)) li->TerminatorSubmitDebugUtilsMessage(severity, types, data);
}

const gen::VkInstanceDispatchTable& Terminators() {
  static const gen::VkInstanceDispatchTable table = [] {
    gen::VkInstanceDispatchTable t{};
#define KL_VK_ASSIGN(name, member, ret, params, args) \
  if constexpr (kTakesPhysicalDevice<PFN_##name>) t.member = Terminator_##member<>;
    KL_VK_INSTANCE_COMMAND_SIGNATURES(KL_VK_ASSIGN)
#undef KL_VK_ASSIGN
    t.DestroyInstance = TerminatorDestroyInstance;
    t.EnumeratePhysicalDevices = TerminatorEnumeratePhysicalDevices;
    t.EnumeratePhysicalDeviceGroups = TerminatorEnumeratePhysicalDeviceGroups;
    t.EnumeratePhysicalDeviceGroupsKHR = TerminatorEnumeratePhysicalDeviceGroups;
    t.CreateDevice = TerminatorCreateDevice;
    t.CreateDebugUtilsMessengerEXT = TerminatorCreateDebugUtilsMessenger;
    t.DestroyDebugUtilsMessengerEXT = TerminatorDestroyDebugUtilsMessenger;
    t.SubmitDebugUtilsMessageEXT = TerminatorSubmitDebugUtilsMessage;
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
  const gen::VkCommandInfo* info = gen::findVkCommand(n);
  if (info != nullptr && (info->level == gen::VkCommandLevel::Instance || info->level == gen::VkCommandLevel::PhysicalDevice)) {
    return gen::getVkInstanceCommand(Terminators(), info->index);
  }
  if (info == nullptr && instance != nullptr) return TerminatorGetPhysicalDeviceProcAddr(instance, name);
  return nullptr;
}

PFN_vkVoidFunction VKAPI_CALL TerminatorGetPhysicalDeviceProcAddr(VkInstance instance, const char* name) {
  if (name == nullptr) return nullptr;
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
  return ld->driver->getDeviceProcAddr(device, name);
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
