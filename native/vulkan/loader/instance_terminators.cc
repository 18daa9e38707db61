// The instance terminators: vkCreateInstance and vkDestroyInstance at the bottom of the chain,
// across the drivers.
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

// ---- the instance terminators ----

VkResult LoaderInstance::TerminatorCreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator) {
  const bool portabilityRequested = Contains(enabledExtensions_, kPortabilityEnumeration) && (info->flags & kEnumeratePortabilityBit) != 0;
  terminatorApiVersion_ = info->pApplicationInfo != nullptr && info->pApplicationInfo->apiVersion != 0 ? info->pApplicationInfo->apiVersion : VK_API_VERSION_1_0;
  supportsGetPhysicalDeviceProperties2_ = !IsVulkan10(terminatorApiVersion_);
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    if (std::strcmp(info->ppEnabledExtensionNames[i], kGetPhysicalDeviceProperties2) == 0) supportsGetPhysicalDeviceProperties2_ = true;
    if (std::strcmp(info->ppEnabledExtensionNames[i], kDeviceGroupCreation) == 0) deviceGroupCreationEnabled_ = true;
  }
  for (const auto& d : drivers_) {
    const std::vector<std::string> supported = DriverExtensions(*d);
    // Each driver gets only the extensions it supports, no layers, and (before interface
    // version 5) apiVersion 1.0 when it only knows 1.0.
    std::vector<const char*> extensions;
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
      if (Contains(supported, info->ppEnabledExtensionNames[i])) extensions.push_back(info->ppEnabledExtensionNames[i]);
    }
    // As the Khronos loader on Linux: VK_KHR_get_physical_device_properties2 forced on where the
    // application or the driver is 1.0 and the driver has it (the device sort reads PCI bus info).
    if ((IsVulkan10(terminatorApiVersion_) || IsVulkan10(d->instanceApiVersion)) && Contains(supported, kGetPhysicalDeviceProperties2)) {
      if (std::none_of(extensions.begin(), extensions.end(), [](const char* e) { return std::strcmp(e, kGetPhysicalDeviceProperties2) == 0; })) {
        extensions.push_back(kGetPhysicalDeviceProperties2);
      }
      supportsGetPhysicalDeviceProperties2_ = true;
    }
    VkInstanceCreateInfo driverInfo = *info;
    driverInfo.enabledLayerCount = 0;
    driverInfo.ppEnabledLayerNames = nullptr;
    driverInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    driverInfo.ppEnabledExtensionNames = extensions.data();
    if (!portabilityRequested || !Contains(supported, kPortabilityEnumeration)) driverInfo.flags &= ~kEnumeratePortabilityBit;
    VkApplicationInfo appInfo{};
    if (info->pApplicationInfo != nullptr) {
      appInfo = *info->pApplicationInfo;
      if (d->interfaceVersion < 5 && d->instanceApiVersion < VK_API_VERSION_1_1 && appInfo.apiVersion > VK_API_VERSION_1_0) {
        appInfo.apiVersion = VK_API_VERSION_1_0;
      }
      driverInfo.pApplicationInfo = &appInfo;
    }
    // VK-DC-3: with device_configurations, a driver that supports Vulkan 1.1 gets apiVersion 1.1
    // at least, so that it answers the physical devices' IDs (as 1.4.359 does).
    const uint32_t requested = info->pApplicationInfo == nullptr ? VK_API_VERSION_1_0 : info->pApplicationInfo->apiVersion;
    if (plan_.deviceFilters.configurationsActive && !plan_.deviceFilters.configurations.empty() && d->instanceApiVersion >= VK_API_VERSION_1_1 &&
        requested < VK_API_VERSION_1_1) {
      if (info->pApplicationInfo == nullptr) appInfo.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
      appInfo.apiVersion = VK_API_VERSION_1_1;
      driverInfo.pApplicationInfo = &appInfo;
      Report(LogLevel::Info, "terminator_CreateInstance: Raising the VkApplicationInfo::apiVersion from 1.0 to 1.1 on driver \"" + d->description.libraryPath +
                                 "\" so that the loader settings file is able to use this driver in the device_configuration selection logic.");
    }
    auto di = std::make_unique<DriverInstance>();
    di->driver = d.get();
    const VkResult res = d->createInstance(&driverInfo, allocator, &di->handle);
    if (res != VK_SUCCESS) {
      Log(LogLevel::Warn, "vulkan.driver", DescribeDriver(d->description) + " not used: its vkCreateInstance returned " + std::to_string(res));
      continue;
    }
    gen::fillVkInstanceDispatchTable(di->table, d->getInstanceProcAddr, di->handle);
    di->wsi.Fill(d->getInstanceProcAddr, di->handle);
    di->enabledExtensions.assign(extensions.begin(), extensions.end());
    di->getDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(d->getInstanceProcAddr(di->handle, "vkGetDeviceProcAddr"));
    // What the loader itself calls on every driver instance.
    const std::pair<const void*, const char*> required[] = {
        {reinterpret_cast<const void*>(di->table.DestroyInstance), "vkDestroyInstance"},
        {reinterpret_cast<const void*>(di->table.EnumeratePhysicalDevices), "vkEnumeratePhysicalDevices"},
        {reinterpret_cast<const void*>(di->table.GetPhysicalDeviceProperties), "vkGetPhysicalDeviceProperties"},
        {reinterpret_cast<const void*>(di->table.CreateDevice), "vkCreateDevice"},
        {reinterpret_cast<const void*>(di->getDeviceProcAddr), "vkGetDeviceProcAddr"},
    };
    const auto missing = std::find_if(std::begin(required), std::end(required), [](const auto& r) { return r.first == nullptr; });
    if (missing != std::end(required)) {
      Log(LogLevel::Warn, "vulkan.driver",
          DescribeDriver(d->description) + " not used: its vkGetInstanceProcAddr(instance, \"" + missing->second + "\") returned NULL");
      if (di->table.DestroyInstance != nullptr) di->table.DestroyInstance(di->handle, allocator);
      continue;
    }
    driverInstances_.push_back(std::move(di));
  }
  if (driverInstances_.empty()) {
    Log(LogLevel::Error, "vulkan", "vkCreateInstance: every driver failed to create its instance");
    return VK_ERROR_INCOMPATIBLE_DRIVER;
  }
  return VK_SUCCESS;
}

void LoaderInstance::TerminatorDestroyInstance(const VkAllocationCallbacks* allocator) {
  // Surfaces the application did not destroy: the drivers' go before their instances.
  {
    std::lock_guard lock(mutex_);
    for (auto& s : surfaces_) s->DestroyDriverSurfaces(allocator);
  }
  for (auto& di : driverInstances_) di->table.DestroyInstance(di->handle, allocator);
  terminatorPhysicalDevices_.clear();
  driverInstances_.clear();
}

}  // namespace kl::vulkan
