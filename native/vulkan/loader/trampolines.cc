// Trampolines: the functions the application calls. Instance-level ones dispatch through the
// first word of the VkInstance or of the loader's PhysicalDeviceObject; device-level ones
// through the first word of the dispatchable object (one load, one indirect call: VK-CH-3),
// after the Khronos loader's handle check (Invalid <handle> [VUID-...], then abort()).
#include "vulkan/loader/trampolines.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>

#include "common/log.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/process_loader_abi.h"
#include "vulkan/loader/published_plan.h"

// The exported core commands (defined at the end of this file): the tables below hand these out
// rather than the hidden copies, so a core command has one trampoline whichever way the
// application reaches it (the Khronos loader's vkGet*ProcAddr hands out its exports too), and a
// pointer costs what the export costs: the hidden copy of vkGetDeviceQueue, the same instructions
// elsewhere in the library, measured 0.55 ns a call more on this VM.
#define KL_VK_DECLARE_EXPORT(name, member, ret, params, args) KL_VK_EXPORT ret VKAPI_CALL name params;
KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORT)
KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORT)
#undef KL_VK_DECLARE_EXPORT

namespace kl::vulkan {

void InvalidTrampolineHandle(const char* command, const char* parameter, const void* handle) noexcept {
  std::fprintf(stderr, "khronos-loader: %s: Invalid %s [VUID-%s-%s-parameter] (%p is not a live %s of this loader); aborting\n", command,
               parameter, command, parameter, handle, parameter);
  std::fflush(stderr);
  std::abort();
}

namespace {

using InstanceTable = gen::VkInstanceDispatchTable;
using DeviceTable = gen::VkDeviceDispatchTable;

// The command a trampoline serves and the name of its dispatchable parameter, for the message
// when the handle is not one this loader made.
struct Site {
  const char* command;
  const char* handle;
};

// The Khronos loader's answer to an invalid dispatchable handle (its trampolines log a fatal
// "<command>: Invalid <parameter> [VUID-<command>-<parameter>-parameter]" and abort "so the user
// can correct the issue"): the same words on stderr, with the handle's value, then abort() —
// never a jump through whatever the handle's first word points at. Cold and out of line: the
// per-call path keeps only the compare and the branch.
[[noreturn, gnu::cold, gnu::noinline]] void InvalidHandle(Site site, const void* handle) noexcept {
  InvalidTrampolineHandle(site.command, site.handle, handle);
}

inline const InstanceTable& CheckedInstance(Site site, VkInstance instance) noexcept {
  const InstanceTable* table = LoaderInstance::CheckedTable(instance);
  if (table == nullptr) [[unlikely]] InvalidHandle(site, instance);
  return *table;
}
inline PhysicalDeviceObject& CheckedPhysicalDevice(Site site, VkPhysicalDevice physicalDevice) noexcept {
  auto* pd = reinterpret_cast<PhysicalDeviceObject*>(physicalDevice);
  if (pd == nullptr || !pd->magic.Is(HandleMagic::TrampolinePhysicalDevice)) [[unlikely]] InvalidHandle(site, physicalDevice);
  return *pd;
}
inline const DeviceTable& CheckedDevice(Site site, const void* object) noexcept {
  const DeviceTable* table = CheckedDeviceTable(object);
  if (table == nullptr) [[unlikely]] InvalidHandle(site, object);
  return *table;
}

template <auto Member>
struct InstanceTrampoline;
template <typename Fn, Fn InstanceTable::*Member>
struct InstanceTrampoline<Member> {
  template <typename First, typename... Args>
  static auto Call(Site site, First first, Args... args) {
    if constexpr (std::is_same_v<First, VkPhysicalDevice>) {
      PhysicalDeviceObject& pd = CheckedPhysicalDevice(site, first);
      return (static_cast<const InstanceTable*>(pd.dispatch)->*Member)(pd.next, args...);
    } else {
      return (CheckedInstance(site, first).*Member)(first, args...);
    }
  }
};

template <>
struct InstanceTrampoline<&InstanceTable::DestroyInstance> {
  static void Call(Site site, VkInstance instance, const VkAllocationCallbacks* allocator) {
    if (instance == nullptr) return;  // valid: destroys nothing
    CheckedInstance(site, instance);
    LoaderInstance* li = LoaderInstance::FromHandle(instance);
    li->Destroy(allocator);
    PublishedPlans::Get().ReleaseNativeInstance(li);
  }
};
template <>
struct InstanceTrampoline<&InstanceTable::EnumeratePhysicalDevices> {
  static VkResult Call(Site site, VkInstance instance, uint32_t* count, VkPhysicalDevice* devices) {
    CheckedInstance(site, instance);
    return LoaderInstance::FromHandle(instance)->EnumeratePhysicalDevices(count, devices);
  }
};
template <>
struct InstanceTrampoline<&InstanceTable::EnumeratePhysicalDeviceGroups> {
  static VkResult Call(Site site, VkInstance instance, uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
    CheckedInstance(site, instance);
    return LoaderInstance::FromHandle(instance)->EnumeratePhysicalDeviceGroups(count, groups);
  }
};
template <>
struct InstanceTrampoline<&InstanceTable::EnumeratePhysicalDeviceGroupsKHR> : InstanceTrampoline<&InstanceTable::EnumeratePhysicalDeviceGroups> {};
template <>
struct InstanceTrampoline<&InstanceTable::CreateDevice> {
  static VkResult Call(Site site, VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info, const VkAllocationCallbacks* allocator,
                       VkDevice* device) {
    PhysicalDeviceObject& pd = CheckedPhysicalDevice(site, physicalDevice);
    return pd.owner->CreateDevice(&pd, info, allocator, device);
  }
};

template <auto Member>
struct DeviceTrampoline;
template <typename Fn, Fn DeviceTable::*Member>
struct DeviceTrampoline<Member> {
  template <typename First, typename... Args>
  static auto Call(Site site, First first, Args... args) {
    return (CheckedDevice(site, first).*Member)(first, args...);
  }
};

template <>
struct DeviceTrampoline<&DeviceTable::DestroyDevice> {
  static void Call(Site site, VkDevice device, const VkAllocationCallbacks* allocator) {
    if (device == nullptr) return;  // valid: destroys nothing
    CheckedDevice(site, device);
    LoaderDevice* ld = LoaderDevice::FromObject(device);
    ld->instance->DestroyDevice(ld, allocator);
  }
};
// Queues come from the driver with the loader magic: point them at the device's table before
// the application dispatches on them. The per-call path is the Khronos loader's: one load, one
// call, one store. The store is safe because the terminator saw every queue the device was
// created with carry the magic (CheckDriverQueues); on a device where one did not, the table's
// vkGetDeviceQueue slots check and refuse (CheckingGetDeviceQueue), so a queue reaching the store
// carries the magic or the table already (VK-CH-4).
inline void StampQueue(const DeviceTable* table, VkQueue* queue) noexcept {
  if (queue == nullptr) return;
  if (const VkQueue q = *queue) *reinterpret_cast<const void**>(q) = table;
}
template <>
struct DeviceTrampoline<&DeviceTable::GetDeviceQueue> {
  static void Call(Site site, VkDevice device, uint32_t family, uint32_t index, VkQueue* queue) {
    const DeviceTable* table = &CheckedDevice(site, device);
    table->GetDeviceQueue(device, family, index, queue);
    StampQueue(table, queue);
  }
};
template <>
struct DeviceTrampoline<&DeviceTable::GetDeviceQueue2> {
  static void Call(Site site, VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue) {
    const DeviceTable* table = &CheckedDevice(site, device);
    table->GetDeviceQueue2(device, info, queue);
    StampQueue(table, queue);
  }
};
template <>
struct DeviceTrampoline<&DeviceTable::AllocateCommandBuffers> {
  static VkResult Call(Site site, VkDevice device, const VkCommandBufferAllocateInfo* info, VkCommandBuffer* buffers) {
    const DeviceTable* table = &CheckedDevice(site, device);
    const VkResult res = table->AllocateCommandBuffers(device, info, buffers);
    if (res == VK_SUCCESS && info != nullptr) {
      for (uint32_t i = 0; i < info->commandBufferCount; ++i) {
        if (!LoaderDevice::SetDispatch(buffers[i], table, "VkCommandBuffer")) return VK_ERROR_INITIALIZATION_FAILED;
      }
    }
    return res;
  }
};

const DeviceTable& DeviceTrampolines();

// vkGetDeviceProcAddr: device commands come straight from the device's table (the first layer's
// or the driver's function), except those the loader must see (queues and command buffers get
// their dispatch pointer; vkDestroyDevice releases the LoaderDevice); unknown names go to the
// top of the chain.
template <>
struct DeviceTrampoline<&DeviceTable::GetDeviceProcAddr> {
  // No handle check: NULL (or a destroyed device) gets NULL, as from the Khronos loader.
  static PFN_vkVoidFunction Call(Site, VkDevice device, const char* name) {
    if (device == nullptr || name == nullptr) return nullptr;
    LoaderDevice* ld = LoaderDevice::FromObject(device);
    if (ld == nullptr || ld->destroyed) return nullptr;
    const std::string_view n = name;
    if (const gen::VkCommandInfo* info = gen::findVkCommand(n)) {
      if (info->level != gen::VkCommandLevel::Device) return nullptr;
      if (n == "vkGetDeviceProcAddr" || n == "vkDestroyDevice" || n == "vkGetDeviceQueue" || n == "vkGetDeviceQueue2" ||
          n == "vkAllocateCommandBuffers") {
        return gen::getVkDeviceCommand(DeviceTrampolines(), info->index);
      }
      return gen::getVkDeviceCommand(ld->dispatch.table, info->index);
    }
    return ld->topGetDeviceProcAddr != nullptr ? ld->topGetDeviceProcAddr(device, name) : nullptr;
  }
};

}  // namespace

// Every instance and device command as a (hidden) trampoline; the core ones are exported below,
// and vkGetInstanceProcAddr / vkGetDeviceProcAddr hand out the exports for those, these for the rest.
// KL_VK_SITE(name, (first, ...)): the command's name and its first (dispatchable) parameter's.
#define KL_VK_FIRST_NAME(first, ...) #first
#define KL_VK_ARGS(...) __VA_ARGS__
#define KL_VK_SITE(name, args) Site{#name, KL_VK_FIRST_NAME args}
#define KL_VK_INSTANCE_TRAMPOLINE(name, member, ret, params, args) \
  ret VKAPI_CALL Trampoline_##name params { return InstanceTrampoline<&InstanceTable::member>::Call(KL_VK_SITE(name, args), KL_VK_ARGS args); }
#define KL_VK_DEVICE_TRAMPOLINE(name, member, ret, params, args) \
  ret VKAPI_CALL Trampoline_##name params { return DeviceTrampoline<&DeviceTable::member>::Call(KL_VK_SITE(name, args), KL_VK_ARGS args); }
namespace {
KL_VK_INSTANCE_COMMAND_SIGNATURES(KL_VK_INSTANCE_TRAMPOLINE)
KL_VK_DEVICE_COMMAND_SIGNATURES(KL_VK_DEVICE_TRAMPOLINE)

// Each command's hidden trampoline, then the core commands' exports over them (declared at the top of this file).
#define KL_VK_ASSIGN(name, member, ret, params, args) t.member = Trampoline_##name;
#define KL_VK_ASSIGN_EXPORT(name, member, ret, params, args) t.member = ::name;
const InstanceTable& InstanceTrampolines() {
  static const InstanceTable table = [] {
    InstanceTable t{};
    KL_VK_INSTANCE_COMMAND_SIGNATURES(KL_VK_ASSIGN)
    KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_VK_ASSIGN_EXPORT)
    return t;
  }();
  return table;
}

const DeviceTable& DeviceTrampolines() {
  static const DeviceTable table = [] {
    DeviceTable t{};
    KL_VK_DEVICE_COMMAND_SIGNATURES(KL_VK_ASSIGN)
    KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_ASSIGN_EXPORT)
    return t;
  }();
  return table;
}
#undef KL_VK_ASSIGN
#undef KL_VK_ASSIGN_EXPORT

}  // namespace
}  // namespace kl::vulkan

#define KL_VK_EXPORT_TRAMPOLINE(name, member, ret, params, args) \
  KL_VK_EXPORT ret VKAPI_CALL name params { return kl::vulkan::Trampoline_##name args; }
KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_VK_EXPORT_TRAMPOLINE)
KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_EXPORT_TRAMPOLINE)
#undef KL_VK_EXPORT_TRAMPOLINE

// VK_KHR_surface and VK_KHR_swapchain, exported as the Khronos loader exports them on Linux (an
// application linked against libvulkan calls these by name); the same hidden trampolines
// vkGet*ProcAddr hands out for them.
#define KL_VK_EXPORT_WSI(ret, name, params, args) \
  KL_VK_EXPORT ret VKAPI_CALL name params { return kl::vulkan::Trampoline_##name args; }
KL_VK_EXPORT_WSI(void, vkDestroySurfaceKHR, (VkInstance instance, VkSurfaceKHR surface, const VkAllocationCallbacks* pAllocator),
                 (instance, surface, pAllocator))
KL_VK_EXPORT_WSI(VkResult, vkGetPhysicalDeviceSurfaceSupportKHR,
                 (VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, VkSurfaceKHR surface, VkBool32* pSupported),
                 (physicalDevice, queueFamilyIndex, surface, pSupported))
KL_VK_EXPORT_WSI(VkResult, vkGetPhysicalDeviceSurfaceCapabilitiesKHR,
                 (VkPhysicalDevice physicalDevice, VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR* pSurfaceCapabilities),
                 (physicalDevice, surface, pSurfaceCapabilities))
KL_VK_EXPORT_WSI(VkResult, vkGetPhysicalDeviceSurfaceFormatsKHR,
                 (VkPhysicalDevice physicalDevice, VkSurfaceKHR surface, uint32_t* pSurfaceFormatCount, VkSurfaceFormatKHR* pSurfaceFormats),
                 (physicalDevice, surface, pSurfaceFormatCount, pSurfaceFormats))
KL_VK_EXPORT_WSI(VkResult, vkGetPhysicalDeviceSurfacePresentModesKHR,
                 (VkPhysicalDevice physicalDevice, VkSurfaceKHR surface, uint32_t* pPresentModeCount, VkPresentModeKHR* pPresentModes),
                 (physicalDevice, surface, pPresentModeCount, pPresentModes))
KL_VK_EXPORT_WSI(VkResult, vkCreateSwapchainKHR,
                 (VkDevice device, const VkSwapchainCreateInfoKHR* pCreateInfo, const VkAllocationCallbacks* pAllocator, VkSwapchainKHR* pSwapchain),
                 (device, pCreateInfo, pAllocator, pSwapchain))
KL_VK_EXPORT_WSI(void, vkDestroySwapchainKHR, (VkDevice device, VkSwapchainKHR swapchain, const VkAllocationCallbacks* pAllocator),
                 (device, swapchain, pAllocator))
KL_VK_EXPORT_WSI(VkResult, vkGetSwapchainImagesKHR,
                 (VkDevice device, VkSwapchainKHR swapchain, uint32_t* pSwapchainImageCount, VkImage* pSwapchainImages),
                 (device, swapchain, pSwapchainImageCount, pSwapchainImages))
KL_VK_EXPORT_WSI(VkResult, vkAcquireNextImageKHR,
                 (VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout, VkSemaphore semaphore, VkFence fence, uint32_t* pImageIndex),
                 (device, swapchain, timeout, semaphore, fence, pImageIndex))
KL_VK_EXPORT_WSI(VkResult, vkQueuePresentKHR, (VkQueue queue, const VkPresentInfoKHR* pPresentInfo), (queue, pPresentInfo))
#undef KL_VK_EXPORT_WSI

namespace {

// The instance-less commands work from the plan TypeScript published (publishVulkanPlan);
// without one they answer VK_ERROR_INITIALIZATION_FAILED and say why.
std::shared_ptr<const kl::vulkan::PreInstancePlan> PlanFor(const char* command) {
  auto plan = kl::vulkan::PublishedPlans::Get().Current();
  if (plan == nullptr) {
    kl::Log(kl::LogLevel::Error, "vulkan",
            std::string(command) + " was called through the native entry point before the application published a plan "
                                   "(publishVulkanPlan in JavaScript)");
  }
  return plan;
}

}  // namespace

KL_VK_EXPORT VkResult VKAPI_CALL vkCreateInstance(const VkInstanceCreateInfo* pCreateInfo, const VkAllocationCallbacks*, VkInstance* pInstance) {
  auto plan = PlanFor("vkCreateInstance");
  if (plan == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (pCreateInfo == nullptr || pInstance == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  // The published plan already holds the chain; a layer the application names must be in it.
  for (uint32_t i = 0; i < pCreateInfo->enabledLayerCount; ++i) {
    const std::string_view name = pCreateInfo->ppEnabledLayerNames[i];
    const auto& layers = plan->instance.layers;
    if (std::none_of(layers.begin(), layers.end(), [&](const auto& l) { return l.name == name; })) {
      kl::Log(kl::LogLevel::Error, "vulkan", "vkCreateInstance: layer " + std::string(name) + " is not in the published plan");
      return VK_ERROR_LAYER_NOT_PRESENT;
    }
  }
  try {
    auto instance = kl::vulkan::LoaderInstance::Create(plan->instance, *pCreateInfo);
    *pInstance = instance->handle();
    kl::vulkan::PublishedPlans::Get().AdoptNativeInstance(std::move(instance));
    return VK_SUCCESS;
  } catch (const kl::vulkan::VkError& e) {
    return e.result();
  }
}
KL_VK_EXPORT VkResult VKAPI_CALL vkEnumerateInstanceExtensionProperties(const char* pLayerName, uint32_t* pPropertyCount,
                                                                         VkExtensionProperties* pProperties) {
  auto plan = PlanFor("vkEnumerateInstanceExtensionProperties");
  if (plan == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  // Through the implicit layers' pre-instance interceptors, as the Khronos loader does, with the
  // layer name too: the terminator answers a layer's own list or VK_ERROR_LAYER_NOT_PRESENT.
  std::vector<VkExtensionProperties> all;
  const VkResult res = kl::vulkan::PreInstanceEnumerateExtensions(*plan, pLayerName, &all);
  if (res != VK_SUCCESS) return res;
  return kl::vulkan::CopyEnumerated(all, pPropertyCount, pProperties);
}
KL_VK_EXPORT VkResult VKAPI_CALL vkEnumerateInstanceLayerProperties(uint32_t* pPropertyCount, VkLayerProperties* pProperties) {
  auto plan = PlanFor("vkEnumerateInstanceLayerProperties");
  if (plan == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::vector<VkLayerProperties> all;
  const VkResult res = kl::vulkan::PreInstanceEnumerateLayers(*plan, &all);
  if (res != VK_SUCCESS) return res;
  return kl::vulkan::CopyEnumerated(all, pPropertyCount, pProperties);
}
KL_VK_EXPORT VkResult VKAPI_CALL vkEnumerateInstanceVersion(uint32_t* pApiVersion) {
  if (pApiVersion == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  auto plan = kl::vulkan::PublishedPlans::Get().Current();
  if (plan == nullptr) {
    *pApiVersion = VK_HEADER_VERSION_COMPLETE;  // needs no plan (no implicit layer to intercept it)
    return VK_SUCCESS;
  }
  return kl::vulkan::PreInstanceEnumerateVersion(*plan, pApiVersion);
}

// The five steps (spec "vkGetInstanceProcAddr"): global commands, known instance and device
// commands (trampolines), unknown physical-device commands (step 3) and unknown device commands
// (step 4) through generic trampolines, NULL otherwise.
KL_VK_EXPORT PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* pName) {
  using namespace kl::vulkan;
  if (pName == nullptr) return nullptr;
  const std::string_view n = pName;
  if (n == "vkGetInstanceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(vkGetInstanceProcAddr);
  if (n == "vkCreateInstance") return reinterpret_cast<PFN_vkVoidFunction>(vkCreateInstance);
  if (n == "vkEnumerateInstanceExtensionProperties") return reinterpret_cast<PFN_vkVoidFunction>(vkEnumerateInstanceExtensionProperties);
  if (n == "vkEnumerateInstanceLayerProperties") return reinterpret_cast<PFN_vkVoidFunction>(vkEnumerateInstanceLayerProperties);
  if (n == "vkEnumerateInstanceVersion") return reinterpret_cast<PFN_vkVoidFunction>(vkEnumerateInstanceVersion);
  if (instance == nullptr) return nullptr;
  // A handle this loader did not make (another loader's instance, a destroyed one): NULL, never a
  // read through it. A runtime that links against libvulkan.so.1 reaches this through the
  // process-wide loader library with whatever instance it holds.
  if (!LoaderInstance::IsLive(instance)) [[unlikely]] {
    char handle[32];
    std::snprintf(handle, sizeof(handle), "%p", static_cast<const void*>(instance));
    kl::Log(kl::LogLevel::Error, "vulkan",
            std::string("vkGetInstanceProcAddr(") + handle + ", " + pName + "): not an instance this loader created (or it was destroyed); NULL");
    return nullptr;
  }
  LoaderInstance* li = LoaderInstance::FromHandle(instance);
  if (li == nullptr || li->destroyed()) return nullptr;
  if (n == "vkGetDeviceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(vkGetDeviceProcAddr);
  // The window-system platform commands (not in the generated tables): while their extension is
  // enabled and the chain provides them, as the Khronos loader hands them out.
  if (const char* extension = WsiPlatformCommandExtension(n)) {
    return li->ExtensionEnabled(extension) ? WsiPlatformTrampoline(n) : nullptr;
  }
  if (const gen::VkCommandInfo* info = gen::findVkCommand(n)) {
    switch (info->level) {
      case gen::VkCommandLevel::Instance:
      case gen::VkCommandLevel::PhysicalDevice:
        // Only what the chain provides (an extension nobody enabled stays NULL).
        if (gen::getVkInstanceCommand(li->table(), info->index) == nullptr) return nullptr;
        return gen::getVkInstanceCommand(InstanceTrampolines(), info->index);
      case gen::VkCommandLevel::Device:
        return gen::getVkDeviceCommand(DeviceTrampolines(), info->index);
      case gen::VkCommandLevel::Global:
        return nullptr;
    }
  }
  return li->UnknownCommand(pName);
}



const kl::vulkan::process_loader::Exports& kl::vulkan::ExportedFunctions() {
  static const process_loader::Exports table = [] {
    process_loader::Exports t{};
    t.size = sizeof(t);
#define KL_VK_EXPORT_ENTRY(name, member, ret, params, args) t.name = &::name;
    KL_VK_CORE_GLOBAL_COMMAND_SIGNATURES(KL_VK_EXPORT_ENTRY)
    KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_VK_EXPORT_ENTRY)
    KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_EXPORT_ENTRY)
#undef KL_VK_EXPORT_ENTRY
    return t;
  }();
  return table;
}
