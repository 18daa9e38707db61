/* vk_discovery_probe_layer: see CMakeLists.txt. One instance at a time per copy of the library. */
#include "probe_log.h"

#include <string.h>
#include <vulkan/vk_layer.h>

#define PROBE_EXPORT __attribute__((visibility("default")))

/* The next layer's (or the loader terminator's) functions for the one instance this copy serves. */
static PFN_vkGetInstanceProcAddr g_probe_next_gipa = NULL;
static PFN_vkDestroyInstance g_probe_next_destroy = NULL;

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL probe_GetInstanceProcAddr(VkInstance instance, const char *name);

static VKAPI_ATTR VkResult VKAPI_CALL probe_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *allocator,
                                                           VkInstance *instance) {
    VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)info->pNext;
    while (link != NULL && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO)) {
        link = (VkLayerInstanceCreateInfo *)link->pNext;
    }
    if (link == NULL || link->u.pLayerInfo == NULL) return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkCreateInstance next_create = (PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (next_create == NULL) return VK_ERROR_INITIALIZATION_FAILED;
    probe_log("vk-layer-create %s", probe_self_path());
    VkResult r = next_create(info, allocator, instance);
    if (r == VK_SUCCESS) {
        g_probe_next_gipa = next_gipa;
        g_probe_next_destroy = (PFN_vkDestroyInstance)next_gipa(*instance, "vkDestroyInstance");
    }
    return r;
}

static VKAPI_ATTR void VKAPI_CALL probe_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *allocator) {
    PFN_vkDestroyInstance destroy = g_probe_next_destroy;
    g_probe_next_gipa = NULL;
    g_probe_next_destroy = NULL;
    if (destroy != NULL) destroy(instance, allocator);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL probe_GetInstanceProcAddr(VkInstance instance, const char *name) {
    if (name == NULL) return NULL;
    if (strcmp(name, "vkGetInstanceProcAddr") == 0) return (PFN_vkVoidFunction)probe_GetInstanceProcAddr;
    if (strcmp(name, "vkCreateInstance") == 0) return (PFN_vkVoidFunction)probe_CreateInstance;
    if (strcmp(name, "vkDestroyInstance") == 0) return (PFN_vkVoidFunction)probe_DestroyInstance;
    if (g_probe_next_gipa == NULL) return NULL;
    return g_probe_next_gipa(instance, name);
}

PROBE_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *negotiate) {
    if (negotiate == NULL || negotiate->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT || negotiate->loaderLayerInterfaceVersion < 2) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    negotiate->loaderLayerInterfaceVersion = 2;
    negotiate->pfnGetInstanceProcAddr = probe_GetInstanceProcAddr;
    negotiate->pfnGetDeviceProcAddr = NULL;
    negotiate->pfnGetPhysicalDeviceProcAddr = NULL;
    probe_log("vk-layer-negotiate %s", probe_self_path());
    return VK_SUCCESS;
}
