/* discovery_probe_layer: see CMakeLists.txt. */
#include "probe_log.h"
#include "negotiation.h"

#include <string.h>

#define PROBE_EXPORT __attribute__((visibility("default")))

static char g_layer_name[XR_MAX_API_LAYER_NAME_SIZE];
static PFN_xrGetInstanceProcAddr g_next_gipa = NULL;

static XRAPI_ATTR XrResult XRAPI_CALL layer_GetInstanceProcAddr(XrInstance instance, const char *name, PFN_xrVoidFunction *function);

static XRAPI_ATTR XrResult XRAPI_CALL layer_CreateApiLayerInstance(const XrInstanceCreateInfo *info,
                                                                  const XrApiLayerCreateInfo *apiLayerInfo, XrInstance *instance) {
    if (apiLayerInfo == NULL || apiLayerInfo->nextInfo == NULL) return XR_ERROR_INITIALIZATION_FAILED;
    const XrApiLayerNextInfo *next = apiLayerInfo->nextInfo;
    /* What this layer sees of the chain: the name its node carries, who comes after it (the next
     * node's layer, or the runtime when it is the last), and whether the headers are as the loader
     * specification defines them. */
    const int headers_ok = apiLayerInfo->structType == XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO &&
                           apiLayerInfo->structVersion == XR_API_LAYER_CREATE_INFO_STRUCT_VERSION &&
                           apiLayerInfo->structSize == sizeof(XrApiLayerCreateInfo) &&
                           next->structType == XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO &&
                           next->structVersion == XR_API_LAYER_NEXT_INFO_STRUCT_VERSION && next->structSize == sizeof(XrApiLayerNextInfo);
    probe_log("layer-create %s next-info-name %s then %s headers %s", g_layer_name, next->layerName,
              next->next != NULL ? next->next->layerName : "runtime", headers_ok ? "ok" : "bad");
    g_next_gipa = next->nextGetInstanceProcAddr;
    XrApiLayerCreateInfo down = *apiLayerInfo;
    down.nextInfo = next->next;
    const XrResult result = next->nextCreateApiLayerInstance(info, &down, instance);
    probe_log("layer-created %s result %d", g_layer_name, (int)result);
    return result;
}

static XRAPI_ATTR XrResult XRAPI_CALL layer_GetInstanceProcAddr(XrInstance instance, const char *name, PFN_xrVoidFunction *function) {
    if (name == NULL || function == NULL) return XR_ERROR_VALIDATION_FAILURE;
    if (strcmp(name, "xrGetInstanceProcAddr") == 0) {
        *function = (PFN_xrVoidFunction)layer_GetInstanceProcAddr;
        return XR_SUCCESS;
    }
    if (g_next_gipa == NULL) {
        *function = NULL;
        return XR_ERROR_HANDLE_INVALID;
    }
    return g_next_gipa(instance, name, function);
}

PROBE_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrNegotiateLoaderApiLayerInterface(const XrNegotiateLoaderInfo *loaderInfo,
                                                                               const char *layerName,
                                                                               XrNegotiateApiLayerRequest *request) {
    if (loaderInfo == NULL || layerName == NULL || request == NULL ||
        loaderInfo->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
        request->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST ||
        request->structSize != sizeof(XrNegotiateApiLayerRequest) || loaderInfo->minInterfaceVersion > 1 ||
        loaderInfo->maxInterfaceVersion < 1) {
        return XR_ERROR_INITIALIZATION_FAILED;
    }
    strncpy(g_layer_name, layerName, sizeof(g_layer_name) - 1);
    request->layerInterfaceVersion = 1;
    request->layerApiVersion = XR_CURRENT_API_VERSION;
    request->getInstanceProcAddr = layer_GetInstanceProcAddr;
    request->createApiLayerInstance = layer_CreateApiLayerInstance;
    probe_log("layer-negotiate %s %s", layerName, probe_self_path());
    return XR_SUCCESS;
}
