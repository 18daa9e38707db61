/* vk_discovery_probe_driver: see CMakeLists.txt. */
#include "probe_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#define PROBE_EXPORT __attribute__((visibility("default")))

/* A dispatchable instance: the loader writes its dispatch table pointer over the magic word. */
struct probe_instance {
    VK_LOADER_DATA loader_data;
};

static VKAPI_ATTR VkResult VKAPI_CALL probe_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *allocator,
                                                           VkInstance *instance) {
    (void)info;
    (void)allocator;
    struct probe_instance *inst = calloc(1, sizeof(*inst));
    if (inst == NULL) return VK_ERROR_OUT_OF_HOST_MEMORY;
    set_loader_magic_value(inst);
    *instance = (VkInstance)inst;
    probe_log("vk-driver-create %s", probe_self_path());
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL probe_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *allocator) {
    (void)allocator;
    free((struct probe_instance *)instance);
}

/* The instance extensions this copy offers: the lines "name spec_version" of the file
 * instance_extensions beside the library (none without it), in file order. */
static uint32_t probe_read_extensions(VkExtensionProperties *out, uint32_t capacity) {
    char path[4096];
    const char *self = probe_self_path();
    const char *slash = strrchr(self, '/');
    if (slash == NULL) return 0;
    snprintf(path, sizeof(path), "%.*s/instance_extensions", (int)(slash - self), self);
    FILE *f = fopen(path, "r");
    if (f == NULL) return 0;
    uint32_t n = 0;
    char name[VK_MAX_EXTENSION_NAME_SIZE];
    unsigned version = 0;
    while (fscanf(f, "%255s %u", name, &version) == 2) {
        if (out != NULL && n < capacity) {
            memset(&out[n], 0, sizeof(out[n]));
            snprintf(out[n].extensionName, sizeof(out[n].extensionName), "%s", name);
            out[n].specVersion = version;
        }
        ++n;
    }
    fclose(f);
    return n;
}

static VKAPI_ATTR VkResult VKAPI_CALL probe_EnumerateInstanceExtensionProperties(const char *layer, uint32_t *count,
                                                                                 VkExtensionProperties *props) {
    if (layer != NULL) return VK_ERROR_LAYER_NOT_PRESENT;
    const uint32_t total = probe_read_extensions(NULL, 0);
    if (props == NULL) {
        *count = total;
        return VK_SUCCESS;
    }
    const uint32_t capacity = *count;
    probe_read_extensions(props, capacity);
    *count = total < capacity ? total : capacity;
    return total > capacity ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL probe_EnumerateInstanceVersion(uint32_t *version) {
    *version = VK_API_VERSION_1_3;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL probe_EnumeratePhysicalDevices(VkInstance instance, uint32_t *count, VkPhysicalDevice *devices) {
    (void)instance;
    (void)devices;
    *count = 0;
    return VK_SUCCESS;
}

/* The loader requires these physical-device and device commands of every driver, but with no
 * physical devices they are never called; each name gets this function, which only logs. */
static VKAPI_ATTR void VKAPI_CALL probe_NeverCalled(void) { probe_log("vk-driver-unexpected-call %s", probe_self_path()); }

static const char *const probe_required_unused[] = {
    "vkGetPhysicalDeviceFeatures",           "vkGetPhysicalDeviceFormatProperties",   "vkGetPhysicalDeviceImageFormatProperties",
    "vkGetPhysicalDeviceProperties",         "vkGetPhysicalDeviceQueueFamilyProperties", "vkGetPhysicalDeviceMemoryProperties",
    "vkGetDeviceProcAddr",                   "vkCreateDevice",                        "vkEnumerateDeviceExtensionProperties",
    "vkGetPhysicalDeviceSparseImageFormatProperties",
};

PROBE_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance, const char *name) {
    (void)instance;
    if (name == NULL) return NULL;
    if (strcmp(name, "vkCreateInstance") == 0) return (PFN_vkVoidFunction)probe_CreateInstance;
    if (strcmp(name, "vkDestroyInstance") == 0) return (PFN_vkVoidFunction)probe_DestroyInstance;
    if (strcmp(name, "vkEnumerateInstanceExtensionProperties") == 0) return (PFN_vkVoidFunction)probe_EnumerateInstanceExtensionProperties;
    if (strcmp(name, "vkEnumerateInstanceVersion") == 0) return (PFN_vkVoidFunction)probe_EnumerateInstanceVersion;
    if (strcmp(name, "vkEnumeratePhysicalDevices") == 0) return (PFN_vkVoidFunction)probe_EnumeratePhysicalDevices;
    if (strcmp(name, "vkGetInstanceProcAddr") == 0) return (PFN_vkVoidFunction)vk_icdGetInstanceProcAddr;
    for (size_t i = 0; i < sizeof(probe_required_unused) / sizeof(probe_required_unused[0]); ++i) {
        if (strcmp(name, probe_required_unused[i]) == 0) return (PFN_vkVoidFunction)probe_NeverCalled;
    }
    return NULL;
}

PROBE_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *version) {
    if (version == NULL || *version < 2) return VK_ERROR_INCOMPATIBLE_DRIVER;
    if (*version > 5) *version = 5;
    probe_log("vk-driver-negotiate %s", probe_self_path());
    return VK_SUCCESS;
}
