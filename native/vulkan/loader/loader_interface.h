// The loader's side of the loader/layer and loader/driver interfaces
// (spec/vulkan-loader-layer-interface.zh.md: "层版本协商", "层调度初始化", "预实例函数";
// LoaderDriverInterface: "Loader and Driver Interface Negotiation", "Driver Dispatchable Object
// Creation"). These structures are not in vk.xml, so they are written here from the specs; the
// ABI is fixed by the Khronos interface documents.
#pragma once

#include <cstdint>

#include "generated/vulkan_commands.h"
#include "generated/vulkan_types.h"

extern "C" {

// ---- Layers: negotiation (interface version 2) ----
typedef enum VkNegotiateLayerStructType {
  LAYER_NEGOTIATE_UNINTIALIZED = 0,
  LAYER_NEGOTIATE_INTERFACE_STRUCT = 1,
} VkNegotiateLayerStructType;

typedef PFN_vkVoidFunction(VKAPI_PTR* PFN_GetPhysicalDeviceProcAddr)(VkInstance instance, const char* pName);

typedef struct VkNegotiateLayerInterface {
  VkNegotiateLayerStructType sType;
  void* pNext;
  uint32_t loaderLayerInterfaceVersion;
  PFN_vkGetInstanceProcAddr pfnGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr pfnGetDeviceProcAddr;
  PFN_GetPhysicalDeviceProcAddr pfnGetPhysicalDeviceProcAddr;
} VkNegotiateLayerInterface;

typedef VkResult(VKAPI_PTR* PFN_vkNegotiateLoaderLayerInterfaceVersion)(VkNegotiateLayerInterface* pVersionStruct);

// ---- Layers: instance and device chain information in pNext ----
typedef enum VkLayerFunction_ {
  VK_LAYER_LINK_INFO = 0,
  VK_LOADER_DATA_CALLBACK = 1,
  VK_LOADER_LAYER_CREATE_DEVICE_CALLBACK = 2,
  VK_LOADER_FEATURES = 3,
} VkLayerFunction;

typedef struct VkLayerInstanceLink_ {
  struct VkLayerInstanceLink_* pNext;
  PFN_vkGetInstanceProcAddr pfnNextGetInstanceProcAddr;
  PFN_GetPhysicalDeviceProcAddr pfnNextGetPhysicalDeviceProcAddr;
} VkLayerInstanceLink;

typedef VkResult(VKAPI_PTR* PFN_vkSetInstanceLoaderData)(VkInstance instance, void* object);
typedef VkResult(VKAPI_PTR* PFN_vkSetDeviceLoaderData)(VkDevice device, void* object);
typedef VkResult(VKAPI_PTR* PFN_vkLayerCreateDevice)(VkInstance instance, VkPhysicalDevice physicalDevice,
                                                     const VkDeviceCreateInfo* pCreateInfo, const VkAllocationCallbacks* pAllocator,
                                                     VkDevice* pDevice, PFN_vkGetInstanceProcAddr layerGIPA,
                                                     PFN_vkGetDeviceProcAddr* nextGDPA);
typedef void(VKAPI_PTR* PFN_vkLayerDestroyDevice)(VkDevice physicalDevice, const VkAllocationCallbacks* pAllocator,
                                                  PFN_vkDestroyDevice destroyFunction);

typedef enum VkLoaderFeatureFlagBits {
  VK_LOADER_FEATURE_PHYSICAL_DEVICE_SORTING = 0x00000001,
} VkLoaderFeatureFlagBits;
typedef VkFlags VkLoaderFeatureFlags;

typedef struct VkLayerInstanceCreateInfo {
  VkStructureType sType;  // VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO
  const void* pNext;
  VkLayerFunction function;
  union {
    VkLayerInstanceLink* pLayerInfo;
    PFN_vkSetInstanceLoaderData pfnSetInstanceLoaderData;
    struct {
      PFN_vkLayerCreateDevice pfnLayerCreateDevice;
      PFN_vkLayerDestroyDevice pfnLayerDestroyDevice;
    } layerDevice;
    VkLoaderFeatureFlags loaderFeatures;
  } u;
} VkLayerInstanceCreateInfo;

typedef struct VkLayerDeviceLink_ {
  struct VkLayerDeviceLink_* pNext;
  PFN_vkGetInstanceProcAddr pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr pfnNextGetDeviceProcAddr;
} VkLayerDeviceLink;

typedef struct VkLayerDeviceCreateInfo {
  VkStructureType sType;  // VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO
  const void* pNext;
  VkLayerFunction function;
  union {
    VkLayerDeviceLink* pLayerInfo;
    PFN_vkSetDeviceLoaderData pfnSetDeviceLoaderData;
  } u;
} VkLayerDeviceCreateInfo;

// ---- Drivers ----
// The first word of every dispatchable object a driver creates, until the loader replaces it.
#define ICD_LOADER_MAGIC 0x01CDC0DE
typedef union {
  uintptr_t loaderMagic;
  void* loaderData;
} VK_LOADER_DATA;

typedef VkResult(VKAPI_PTR* PFN_vkNegotiateLoaderICDInterfaceVersion)(uint32_t* pVersion);

}  // extern "C"

namespace kl::vulkan {

// The interface versions this loader speaks.
inline constexpr uint32_t kLayerInterfaceVersion = 2;
inline constexpr uint32_t kDriverInterfaceVersion = 7;

}  // namespace kl::vulkan

// ---- Pre-instance functions (spec "实例前函数") ----
extern "C" {
typedef enum VkChainType {
  VK_CHAIN_TYPE_UNKNOWN = 0,
  VK_CHAIN_TYPE_ENUMERATE_INSTANCE_EXTENSION_PROPERTIES = 1,
  VK_CHAIN_TYPE_ENUMERATE_INSTANCE_LAYER_PROPERTIES = 2,
  VK_CHAIN_TYPE_ENUMERATE_INSTANCE_VERSION = 3,
} VkChainType;

typedef struct VkChainHeader {
  VkChainType type;
  uint32_t version;
  uint32_t size;
} VkChainHeader;

#define VK_CURRENT_CHAIN_VERSION 1

typedef struct VkEnumerateInstanceExtensionPropertiesChain {
  VkChainHeader header;
  VkResult(VKAPI_PTR* pfnNextLayer)(const struct VkEnumerateInstanceExtensionPropertiesChain*, const char*, uint32_t*,
                                    VkExtensionProperties*);
  const struct VkEnumerateInstanceExtensionPropertiesChain* pNextLink;
} VkEnumerateInstanceExtensionPropertiesChain;

typedef struct VkEnumerateInstanceLayerPropertiesChain {
  VkChainHeader header;
  VkResult(VKAPI_PTR* pfnNextLayer)(const struct VkEnumerateInstanceLayerPropertiesChain*, uint32_t*, VkLayerProperties*);
  const struct VkEnumerateInstanceLayerPropertiesChain* pNextLink;
} VkEnumerateInstanceLayerPropertiesChain;

typedef struct VkEnumerateInstanceVersionChain {
  VkChainHeader header;
  VkResult(VKAPI_PTR* pfnNextLayer)(const struct VkEnumerateInstanceVersionChain*, uint32_t*);
  const struct VkEnumerateInstanceVersionChain* pNextLink;
} VkEnumerateInstanceVersionChain;
}  // extern "C"
