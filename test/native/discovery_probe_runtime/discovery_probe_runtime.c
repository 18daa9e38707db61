/* discovery_probe_runtime: see CMakeLists.txt. Exports only the negotiation function. */
#include "probe_log.h"
#include "negotiation.h"

#include <string.h>

#define PROBE_EXPORT __attribute__((visibility("default")))

/* The runtime's own extension list: names no real runtime has, so a test can tell them apart. */
static const struct {
    const char *name;
    uint32_t version;
} kExtensions[] = {
    {"XR_EXT_probe_runtime_extension", 3},
    {"XR_EXT_probe_shared_extension", 1},
};
#define EXTENSION_COUNT (sizeof(kExtensions) / sizeof(kExtensions[0]))

static int g_instance_alive = 0;

static XRAPI_ATTR XrResult XRAPI_CALL probe_EnumerateInstanceExtensionProperties(const char *layerName, uint32_t capacity,
                                                                                 uint32_t *countOutput,
                                                                                 XrExtensionProperties *properties) {
    if (layerName != NULL && layerName[0] != '\0') {
        /* XR-RN-3: the loader must never get here with a layer name. */
        probe_log("runtime-enumerate-extensions-with-layer %s", layerName);
        return XR_ERROR_API_LAYER_NOT_PRESENT;
    }
    if (countOutput == NULL) return XR_ERROR_VALIDATION_FAILURE;
    *countOutput = (uint32_t)EXTENSION_COUNT;
    if (capacity == 0) return XR_SUCCESS;
    if (capacity < EXTENSION_COUNT) return XR_ERROR_SIZE_INSUFFICIENT;
    for (uint32_t i = 0; i < EXTENSION_COUNT; ++i) {
        if (properties[i].type != XR_TYPE_EXTENSION_PROPERTIES) return XR_ERROR_VALIDATION_FAILURE;
        strncpy(properties[i].extensionName, kExtensions[i].name, XR_MAX_EXTENSION_NAME_SIZE - 1);
        properties[i].extensionName[XR_MAX_EXTENSION_NAME_SIZE - 1] = '\0';
        properties[i].extensionVersion = kExtensions[i].version;
    }
    return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL probe_CreateInstance(const XrInstanceCreateInfo *info, XrInstance *instance) {
    if (info == NULL || instance == NULL || info->type != XR_TYPE_INSTANCE_CREATE_INFO) return XR_ERROR_VALIDATION_FAILURE;
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
        int known = 0;
        for (uint32_t k = 0; k < EXTENSION_COUNT; ++k) known |= strcmp(info->enabledExtensionNames[i], kExtensions[k].name) == 0;
        if (!known) return XR_ERROR_EXTENSION_NOT_PRESENT;
    }
    probe_log("runtime-create %s", probe_self_path());
    g_instance_alive = 1;
    *instance = (XrInstance)(uintptr_t)0x51;
    return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL probe_DestroyInstance(XrInstance instance) {
    if (!g_instance_alive || instance != (XrInstance)(uintptr_t)0x51) return XR_ERROR_HANDLE_INVALID;
    g_instance_alive = 0;
    probe_log("runtime-destroy");
    return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL probe_GetInstanceProcAddr(XrInstance instance, const char *name, PFN_xrVoidFunction *function);

static XRAPI_ATTR XrResult XRAPI_CALL probe_GetInstanceProcAddr(XrInstance instance, const char *name, PFN_xrVoidFunction *function) {
    if (name == NULL || function == NULL) return XR_ERROR_VALIDATION_FAILURE;
    *function = NULL;
    if (strcmp(name, "xrGetInstanceProcAddr") == 0) *function = (PFN_xrVoidFunction)probe_GetInstanceProcAddr;
    else if (strcmp(name, "xrEnumerateInstanceExtensionProperties") == 0) *function = (PFN_xrVoidFunction)probe_EnumerateInstanceExtensionProperties;
    else if (strcmp(name, "xrCreateInstance") == 0) *function = (PFN_xrVoidFunction)probe_CreateInstance;
    else if (instance == XR_NULL_HANDLE) return XR_ERROR_HANDLE_INVALID;
    else if (strcmp(name, "xrDestroyInstance") == 0) *function = (PFN_xrVoidFunction)probe_DestroyInstance;
    return *function != NULL ? XR_SUCCESS : XR_ERROR_FUNCTION_UNSUPPORTED;
}

PROBE_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrNegotiateLoaderRuntimeInterface(const XrNegotiateLoaderInfo *loaderInfo,
                                                                              XrNegotiateRuntimeRequest *runtimeRequest) {
    if (loaderInfo == NULL || runtimeRequest == NULL || loaderInfo->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
        loaderInfo->structVersion != XR_LOADER_INFO_STRUCT_VERSION || loaderInfo->structSize != sizeof(XrNegotiateLoaderInfo) ||
        runtimeRequest->structType != XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST ||
        runtimeRequest->structVersion != XR_RUNTIME_INFO_STRUCT_VERSION ||
        runtimeRequest->structSize != sizeof(XrNegotiateRuntimeRequest) || loaderInfo->minInterfaceVersion > 1 ||
        loaderInfo->maxInterfaceVersion < 1) {
        probe_log("runtime-negotiate-rejected %s", probe_self_path());
        return XR_ERROR_INITIALIZATION_FAILED;
    }
    runtimeRequest->runtimeInterfaceVersion = 1;
    runtimeRequest->runtimeApiVersion = XR_CURRENT_API_VERSION;
    runtimeRequest->getInstanceProcAddr = probe_GetInstanceProcAddr;
    probe_log("runtime-negotiate %s", probe_self_path());
    return XR_SUCCESS;
}
