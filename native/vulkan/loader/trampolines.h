// The loader's exported C functions (VK-CH-4, the C ABI): vkGetInstanceProcAddr,
// vkGetDeviceProcAddr, every core command and the VK_KHR_surface / VK_KHR_swapchain commands (as
// the Khronos loader exports them on Linux), so native code in the same process can use the
// instances and devices this loader made. Everything else in the addon has hidden visibility.
#pragma once

#include "common/export.h"
#include "vulkan/loader/vk_error.h"

#define KL_VK_EXPORT KL_EXPORT_C

KL_VK_EXPORT PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* pName);
KL_VK_EXPORT PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* pName);
KL_VK_EXPORT void VKAPI_CALL vkGetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex, VkQueue* pQueue);
KL_VK_EXPORT VkResult VKAPI_CALL vkEnumeratePhysicalDevices(VkInstance instance, uint32_t* pPhysicalDeviceCount, VkPhysicalDevice* pPhysicalDevices);
KL_VK_EXPORT void VKAPI_CALL vkGetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties* pProperties);
KL_VK_EXPORT void VKAPI_CALL vkGetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice physicalDevice, uint32_t* pCount,
                                                                      VkQueueFamilyProperties* pProperties);
KL_VK_EXPORT VkResult VKAPI_CALL vkCreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                                const VkAllocationCallbacks* pAllocator, VkDevice* pDevice);

namespace kl::vulkan {
namespace process_loader {
struct Exports;
}
// The exported functions as one table, for the process-wide loader library (process_loader.cc).
const process_loader::Exports& ExportedFunctions();
// The Khronos loader's answer to a dispatchable handle that is not one of its live objects:
// "<command>: Invalid <parameter> [VUID-<command>-<parameter>-parameter]" on stderr, then abort().
[[noreturn, gnu::cold, gnu::noinline]] void InvalidTrampolineHandle(const char* command, const char* parameter, const void* handle) noexcept;
}  // namespace kl::vulkan
