#include "vulkan/loader/direct_drivers.h"

#include <cstring>
#include <string>

#include "common/log.h"

#ifdef _WIN32
#include "common/windows_headers.h"
#else
#include <dlfcn.h>
#endif

namespace kl::vulkan {

namespace {

// "VkDirectDriverLoadingListLUNARG::pDrivers[i]", with the file the function lies in where the
// platform can tell: what DescribeDriver prints for a direct driver.
std::string DirectDriverName(uint32_t index, PFN_vkGetInstanceProcAddrLUNARG getInstanceProcAddr) {
  std::string name = "VkDirectDriverLoadingListLUNARG::pDrivers[" + std::to_string(index) + "]";
  if (getInstanceProcAddr == nullptr) return name;
#ifdef _WIN32
  HMODULE module = nullptr;
  char path[MAX_PATH];
  if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                         reinterpret_cast<LPCSTR>(getInstanceProcAddr), &module) != 0) {
    const DWORD length = GetModuleFileNameA(module, path, MAX_PATH);
    if (length > 0 && length < MAX_PATH) name = std::string(path, length) + " (" + name + ")";
  }
#else
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(getInstanceProcAddr), &info) != 0 && info.dli_fname != nullptr) {
    name = std::string(info.dli_fname) + " (" + name + ")";
  }
#endif
  return name;
}

[[noreturn]] void RejectDirect(const std::string& driver, const std::string& why) {
  const std::string message = "direct driver " + driver + " not used: " + why;
  Log(LogLevel::Error, "vulkan.driver", message);
  throw VkError(VK_ERROR_INITIALIZATION_FAILED, message);
}

}  // namespace

NegotiatedDriver LoadDirectDriver(uint32_t index, PFN_vkGetInstanceProcAddrLUNARG getInstanceProcAddr) {
  NegotiatedDriver result;
  result.description.libraryPath = DirectDriverName(index, getInstanceProcAddr);
  const std::string& name = result.description.libraryPath;
  if (getInstanceProcAddr == nullptr) RejectDirect(name, "its pfnGetInstanceProcAddr is NULL");
  const auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(getInstanceProcAddr);
  const auto negotiate =
      reinterpret_cast<PFN_vkNegotiateLoaderICDInterfaceVersion>(gipa(nullptr, "vk_icdNegotiateLoaderICDInterfaceVersion"));
  if (negotiate == nullptr) RejectDirect(name, "its vkGetInstanceProcAddr does not give vk_icdNegotiateLoaderICDInterfaceVersion");
  uint32_t version = kDriverInterfaceVersion;
  const VkResult negotiated = negotiate(&version);
  if (negotiated != VK_SUCCESS || version > kDriverInterfaceVersion || version < 7) {
    RejectDirect(name, "vk_icdNegotiateLoaderICDInterfaceVersion answered " + std::to_string(negotiated) + " with interface version " +
                           std::to_string(version) + "; direct driver loading needs interface version 7 (up to " +
                           std::to_string(kDriverInterfaceVersion) + ")");
  }
  result.interfaceVersion = version;
  result.getInstanceProcAddr = gipa;
  result.createInstance = reinterpret_cast<PFN_vkCreateInstance>(gipa(nullptr, "vkCreateInstance"));
  if (result.createInstance == nullptr) RejectDirect(name, "its vkGetInstanceProcAddr(NULL, \"vkCreateInstance\") returned NULL");
  result.enumerateInstanceExtensionProperties =
      reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(gipa(nullptr, "vkEnumerateInstanceExtensionProperties"));
  if (result.enumerateInstanceExtensionProperties == nullptr) {
    RejectDirect(name, "its vkGetInstanceProcAddr(NULL, \"vkEnumerateInstanceExtensionProperties\") returned NULL");
  }
  result.getPhysicalDeviceProcAddr = reinterpret_cast<PFN_GetPhysicalDeviceProcAddr>(gipa(nullptr, "vk_icdGetPhysicalDeviceProcAddr"));
  // Interface version 7 implies Vulkan 1.1 (the Khronos loader's default without vkEnumerateInstanceVersion).
  result.instanceApiVersion = VK_API_VERSION_1_1;
  if (auto enumerateVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(gipa(nullptr, "vkEnumerateInstanceVersion"))) {
    uint32_t v = VK_API_VERSION_1_1;
    const VkResult r = enumerateVersion(&v);
    if (r != VK_SUCCESS) RejectDirect(name, "its vkEnumerateInstanceVersion returned " + std::to_string(r));
    result.instanceApiVersion = v;
  }
  Log(LogLevel::Info, "vulkan.driver",
      "direct driver " + name + " negotiated interface version " + std::to_string(version) + ", instance API " +
          ApiVersionString(result.instanceApiVersion));
  return result;
}

DirectDrivers ScanDirectDrivers(const VkInstanceCreateInfo& createInfo) {
  DirectDrivers out;
  bool enabled = false;
  for (uint32_t i = 0; i < createInfo.enabledExtensionCount && createInfo.ppEnabledExtensionNames != nullptr; ++i) {
    const char* e = createInfo.ppEnabledExtensionNames[i];
    if (e != nullptr && std::strcmp(e, VK_LUNARG_DIRECT_DRIVER_LOADING_EXTENSION_NAME) == 0) enabled = true;
  }
  const VkDirectDriverLoadingListLUNARG* list = nullptr;
  for (auto* s = static_cast<const VkBaseInStructure*>(createInfo.pNext); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_DIRECT_DRIVER_LOADING_LIST_LUNARG) {
      list = reinterpret_cast<const VkDirectDriverLoadingListLUNARG*>(s);
      break;
    }
  }
  if (list == nullptr) {
    if (enabled) {
      Log(LogLevel::Warn, "vulkan.driver",
          "vkCreateInstance: VK_LUNARG_direct_driver_loading is enabled but the VkInstanceCreateInfo pNext chain has no "
          "VkDirectDriverLoadingListLUNARG");
    }
    return out;
  }
  if (!enabled) {
    Log(LogLevel::Warn, "vulkan.driver",
        "vkCreateInstance: the VkInstanceCreateInfo pNext chain has a VkDirectDriverLoadingListLUNARG, but the "
        "VK_LUNARG_direct_driver_loading extension is not enabled: the list is ignored");
    return out;
  }
  if (list->mode == VK_DIRECT_DRIVER_LOADING_MODE_EXCLUSIVE_LUNARG) {
    out.exclusive = true;
    Log(LogLevel::Info, "vulkan.driver",
        "vkCreateInstance: VK_LUNARG_direct_driver_loading in VK_DIRECT_DRIVER_LOADING_MODE_EXCLUSIVE_LUNARG: the manifest drivers "
        "(system folders and environment variables) are not loaded");
  }
  if (list->pDrivers == nullptr) {
    Log(LogLevel::Warn, "vulkan.driver", "vkCreateInstance: VkDirectDriverLoadingListLUNARG has a NULL pDrivers");
    return out;
  }
  if (list->driverCount == 0) {
    Log(LogLevel::Warn, "vulkan.driver", "vkCreateInstance: VkDirectDriverLoadingListLUNARG has a pDrivers but a driverCount of 0");
    return out;
  }
  for (uint32_t i = 0; i < list->driverCount; ++i) {
    try {
      out.drivers.push_back(std::make_unique<NegotiatedDriver>(LoadDirectDriver(i, list->pDrivers[i].pfnGetInstanceProcAddr)));
    } catch (const VkError&) {
      // logged; the driver is left out, as the Khronos loader skips it
    }
  }
  return out;
}

}  // namespace kl::vulkan
