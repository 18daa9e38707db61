// Loading one driver (ICD) and negotiating the loader/driver interface (LoaderDriverInterface:
// "Loader and Driver Interface Negotiation"). What each negotiated version obliges the loader to
// do is recorded in NegotiatedDriver and honoured by the terminators:
//   0  no vk_icd* exports: vkGetInstanceProcAddr, vkCreateInstance and
//      vkEnumerateInstanceExtensionProperties must be exported by the library.
//   1  vk_icdGetInstanceProcAddr is exported and used instead of vkGetInstanceProcAddr.
//   2  vk_icdNegotiateLoaderICDInterfaceVersion exists and was called.
//   3  the driver may create VkSurfaceKHR itself (this loader implements no WSI surfaces).
//   4  vk_icdGetPhysicalDeviceProcAddr answers unknown physical-device commands.
//   5  the driver accepts any VkApplicationInfo::apiVersion; before 5 a driver that only knows
//      Vulkan 1.0 gets apiVersion 1.0 instead of a higher one (else it may fail with
//      VK_ERROR_INCOMPATIBLE_DRIVER).
//   6  vk_icdEnumerateAdapterPhysicalDevices (Windows only; not used on Linux).
//   7  the vk_icd* functions may be obtained through vk_icdGetInstanceProcAddr instead of being
//      exported.
#pragma once

#include <memory>
#include <string>

#include "common/dynamic_library.h"
#include "vulkan/loader/loader_interface.h"
#include "vulkan/loader/vk_error.h"

namespace kl::vulkan {

struct DriverDescription {
  std::string manifestPath;
  std::string libraryPath;
  uint32_t manifestApiVersion = 0;
  bool isPortabilityDriver = false;
};

struct NegotiatedDriver {
  DriverDescription description;
  std::shared_ptr<DynamicLibrary> library;
  uint32_t interfaceVersion = 0;
  PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
  PFN_GetPhysicalDeviceProcAddr getPhysicalDeviceProcAddr = nullptr;  // version 4+, optional
  PFN_vkCreateInstance createInstance = nullptr;
  PFN_vkEnumerateInstanceExtensionProperties enumerateInstanceExtensionProperties = nullptr;
  // vkEnumerateInstanceVersion's answer, VK_API_VERSION_1_0 when the driver lacks the command.
  uint32_t instanceApiVersion = VK_API_VERSION_1_0;
};

// Opens the library, negotiates and checks the entry points. Throws VkError
// (VK_ERROR_INCOMPATIBLE_DRIVER) naming the file, the symbol and the reason; also logged
// ("vulkan.driver").
NegotiatedDriver LoadDriver(const DriverDescription& driver);

// VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING: the library stays mapped after its last owner lets
// go; a warning names it when the system refuses.
void KeepMapped(const DynamicLibrary& library);

// "driver <library> (manifest <path>)" for messages.
std::string DescribeDriver(const DriverDescription& driver);

}  // namespace kl::vulkan
