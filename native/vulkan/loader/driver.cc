#include "vulkan/loader/driver.h"

#include "common/log.h"

namespace kl::vulkan {

std::string DescribeDriver(const DriverDescription& driver) {
  std::string s = "driver " + driver.libraryPath;
  if (!driver.manifestPath.empty()) s += " (manifest " + driver.manifestPath + ")";
  return s;
}

namespace {

[[noreturn]] void Reject(const DriverDescription& driver, const std::string& why) {
  const std::string message = DescribeDriver(driver) + " not used: " + why;
  Log(LogLevel::Warn, "vulkan.driver", message);
  throw VkError(VK_ERROR_INCOMPATIBLE_DRIVER, message);
}

// An exported vk_icd* function, or (version 7) the same through vk_icdGetInstanceProcAddr.
template <typename Fn>
Fn FindIcdFunction(const DynamicLibrary& library, PFN_vkGetInstanceProcAddr icdGetInstanceProcAddr, const char* name) {
  if (auto fn = library.FindFunction<Fn>(name)) return fn;
  if (icdGetInstanceProcAddr != nullptr) return reinterpret_cast<Fn>(icdGetInstanceProcAddr(nullptr, name));
  return nullptr;
}

}  // namespace

void KeepMapped(const DynamicLibrary& library) {
  if (!library.KeepMapped()) {
    Log(LogLevel::Warn, "vulkan", "cannot keep " + library.path() + " loaded (VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING): it unloads as usual");
  }
}

NegotiatedDriver LoadDriver(const DriverDescription& driver) {
  NegotiatedDriver result;
  result.description = driver;
  try {
    result.library = DynamicLibrary::Open(driver.libraryPath);
  } catch (const LibraryError& e) {
    Reject(driver, "cannot load the library: " + e.reason());
  }
  const DynamicLibrary& lib = *result.library;
  auto icdGetInstanceProcAddr = lib.FindFunction<PFN_vkGetInstanceProcAddr>("vk_icdGetInstanceProcAddr");
  auto negotiate = FindIcdFunction<PFN_vkNegotiateLoaderICDInterfaceVersion>(lib, icdGetInstanceProcAddr,
                                                                             "vk_icdNegotiateLoaderICDInterfaceVersion");
  uint32_t version = 0;
  if (negotiate != nullptr) {
    version = kDriverInterfaceVersion;
    const VkResult res = negotiate(&version);
    if (res != VK_SUCCESS) {
      Reject(driver, "vk_icdNegotiateLoaderICDInterfaceVersion returned " + std::to_string(res) + " (the driver supports no interface version "
                     "this loader offers, up to " + std::to_string(kDriverInterfaceVersion) + ")");
    }
    if (version > kDriverInterfaceVersion) {
      Reject(driver, "vk_icdNegotiateLoaderICDInterfaceVersion answered version " + std::to_string(version) +
                         ", newer than the " + std::to_string(kDriverInterfaceVersion) + " the loader offered");
    }
  } else {
    version = icdGetInstanceProcAddr != nullptr ? 1 : 0;
  }
  result.interfaceVersion = version;

  if (version >= 1) {
    if (icdGetInstanceProcAddr == nullptr) {
      Reject(driver, "interface version " + std::to_string(version) + " requires the export vk_icdGetInstanceProcAddr, which is missing");
    }
    result.getInstanceProcAddr = icdGetInstanceProcAddr;
  } else {
    // Version 0: the legacy exports.
    result.getInstanceProcAddr = lib.FindFunction<PFN_vkGetInstanceProcAddr>("vkGetInstanceProcAddr");
    if (result.getInstanceProcAddr == nullptr) Reject(driver, "exports neither vk_icdGetInstanceProcAddr nor vkGetInstanceProcAddr");
    for (const char* required : {"vkCreateInstance", "vkEnumerateInstanceExtensionProperties"}) {
      if (lib.FindSymbol(required) == nullptr) Reject(driver, std::string("interface version 0 requires the export ") + required + ", which is missing");
    }
  }
  if (version >= 4) {
    result.getPhysicalDeviceProcAddr = FindIcdFunction<PFN_GetPhysicalDeviceProcAddr>(
        lib, version >= 7 ? icdGetInstanceProcAddr : nullptr, "vk_icdGetPhysicalDeviceProcAddr");
  }
  result.createInstance = reinterpret_cast<PFN_vkCreateInstance>(result.getInstanceProcAddr(nullptr, "vkCreateInstance"));
  if (result.createInstance == nullptr) Reject(driver, "vkGetInstanceProcAddr(NULL, \"vkCreateInstance\") returned NULL");
  result.enumerateInstanceExtensionProperties = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
      result.getInstanceProcAddr(nullptr, "vkEnumerateInstanceExtensionProperties"));
  if (result.enumerateInstanceExtensionProperties == nullptr) {
    Reject(driver, "vkGetInstanceProcAddr(NULL, \"vkEnumerateInstanceExtensionProperties\") returned NULL");
  }
  if (auto enumerateVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(result.getInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"))) {
    uint32_t v = VK_API_VERSION_1_0;
    if (enumerateVersion(&v) == VK_SUCCESS) result.instanceApiVersion = v;
  }
  Log(LogLevel::Info, "vulkan.driver",
      DescribeDriver(driver) + " negotiated interface version " + std::to_string(version) + ", instance API " +
          ApiVersionString(result.instanceApiVersion));
  return result;
}

}  // namespace kl::vulkan
