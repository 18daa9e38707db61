/* Native code that uses this loader only through the addon's exported OpenXR C functions, as
 * another addon or a renderer in the same process would: it dlopens the addon's .node file, takes
 * xrCreateInstance, xrGetSystem, xrGetInstanceProcAddr and xrDestroyInstance with dlsym and calls
 * only those (plus what xrGetInstanceProcAddr hands out) and the two exported enumerate commands.
 * kl_xr_c_abi_run writes what it saw:
 *   "layers=<XrResult>:<names, comma-separated> extensions=<XrResult>:<count>:<XR_EXT_debug_utils listed: yes|no>
 *    layer-extensions=<XrResult>:<count> missing-layer=<XrResult> system=<ok|0> runtime=<runtimeName> getSystem=<library file of the
 *    chain's xrGetSystem> destroy=<XrResult> again=<XrResult>"
 * or "error: <step> <XrResult>". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "generated/openxr_types.h"

#define KL_EXPORT __attribute__((visibility("default")))

#define FAIL(step, res)                                        \
  do {                                                         \
    snprintf(report, size, "error: %s %d", step, (int)(res)); \
    if (addon != NULL) dlclose(addon);                         \
    return -1;                                                 \
  } while (0)

static void fillCreateInfo(XrInstanceCreateInfo* info, const char* const* layers, uint32_t layerCount) {
  memset(info, 0, sizeof(*info));
  info->type = XR_TYPE_INSTANCE_CREATE_INFO;
  strncpy(info->applicationInfo.applicationName, "xr-c-abi", XR_MAX_APPLICATION_NAME_SIZE - 1);
  info->applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info->enabledApiLayerCount = layerCount;
  info->enabledApiLayerNames = layers;
}

KL_EXPORT int kl_xr_c_abi_run(const char* addonPath, const char* layerName, char* report, size_t size) {
  void* addon = dlopen(addonPath, RTLD_NOW);
  if (addon == NULL) FAIL("dlopen", 0);
  PFN_xrCreateInstance createInstance = (PFN_xrCreateInstance)dlsym(addon, "xrCreateInstance");
  PFN_xrGetSystem getSystem = (PFN_xrGetSystem)dlsym(addon, "xrGetSystem");
  PFN_xrGetInstanceProcAddr gipa = (PFN_xrGetInstanceProcAddr)dlsym(addon, "xrGetInstanceProcAddr");
  PFN_xrDestroyInstance destroyInstance = (PFN_xrDestroyInstance)dlsym(addon, "xrDestroyInstance");
  PFN_xrEnumerateApiLayerProperties enumerateLayers = (PFN_xrEnumerateApiLayerProperties)dlsym(addon, "xrEnumerateApiLayerProperties");
  PFN_xrEnumerateInstanceExtensionProperties enumerateExtensions =
      (PFN_xrEnumerateInstanceExtensionProperties)dlsym(addon, "xrEnumerateInstanceExtensionProperties");
  if (!createInstance || !getSystem || !gipa || !destroyInstance || !enumerateLayers || !enumerateExtensions) FAIL("dlsym", 0);

  /* The two-call idiom over what the published plan lists. */
  char layerList[512] = "";
  uint32_t count = 0;
  const XrResult layersResult = enumerateLayers(0, &count, NULL);
  if (layersResult == XR_SUCCESS && count > 0) {
    XrApiLayerProperties props[16];
    if (count > 16) FAIL("more than 16 layers", count);
    for (uint32_t i = 0; i < count; ++i) {
      memset(&props[i], 0, sizeof(props[i]));
      props[i].type = XR_TYPE_API_LAYER_PROPERTIES;
    }
    const XrResult res = enumerateLayers(count, &count, props);
    if (res != XR_SUCCESS) FAIL("xrEnumerateApiLayerProperties", res);
    for (uint32_t i = 0; i < count; ++i) {
      if (i > 0) strncat(layerList, ",", sizeof(layerList) - strlen(layerList) - 1);
      strncat(layerList, props[i].layerName, sizeof(layerList) - strlen(layerList) - 1);
    }
  }
  uint32_t extensionCount = 0;
  int hasDebugUtils = 0;
  const XrResult extensionsResult = enumerateExtensions(NULL, 0, &extensionCount, NULL);
  if (extensionsResult == XR_SUCCESS && extensionCount > 0) {
    XrExtensionProperties props[64];
    if (extensionCount > 64) FAIL("more than 64 extensions", extensionCount);
    for (uint32_t i = 0; i < extensionCount; ++i) {
      memset(&props[i], 0, sizeof(props[i]));
      props[i].type = XR_TYPE_EXTENSION_PROPERTIES;
    }
    const XrResult res = enumerateExtensions(NULL, extensionCount, &extensionCount, props);
    if (res != XR_SUCCESS) FAIL("xrEnumerateInstanceExtensionProperties", res);
    for (uint32_t i = 0; i < extensionCount; ++i) hasDebugUtils |= strcmp(props[i].extensionName, "XR_EXT_debug_utils") == 0;
  }
  uint32_t layerExtensionCount = 0;
  const XrResult layerExtensionsResult = enumerateExtensions(layerName[0] != '\0' ? layerName : "XR_APILAYER_KLTEST_not_in_the_plan", 0,
                                                             &layerExtensionCount, NULL);

  /* A layer the published plan does not hold is refused, and nothing is created. */
  const char* unknown[] = {"XR_APILAYER_KLTEST_not_in_the_plan"};
  XrInstanceCreateInfo info;
  fillCreateInfo(&info, unknown, 1);
  XrInstance instance = XR_NULL_HANDLE;
  const XrResult missingLayer = createInstance(&info, &instance);
  if (instance != XR_NULL_HANDLE) FAIL("instance from a refused xrCreateInstance", missingLayer);

  const char* layers[] = {layerName};
  fillCreateInfo(&info, layers, layerName[0] != '\0' ? 1 : 0);
  XrResult res = createInstance(&info, &instance);
  if (res != XR_SUCCESS || instance == XR_NULL_HANDLE) FAIL("xrCreateInstance", res);

  XrSystemGetInfo systemInfo;
  memset(&systemInfo, 0, sizeof(systemInfo));
  systemInfo.type = XR_TYPE_SYSTEM_GET_INFO;
  systemInfo.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  XrSystemId system = XR_NULL_SYSTEM_ID;
  res = getSystem(instance, &systemInfo, &system);
  if (res != XR_SUCCESS) FAIL("xrGetSystem", res);

  PFN_xrGetInstanceProperties getProperties = NULL;
  res = gipa(instance, "xrGetInstanceProperties", (PFN_xrVoidFunction*)&getProperties);
  if (res != XR_SUCCESS || getProperties == NULL) FAIL("xrGetInstanceProcAddr(xrGetInstanceProperties)", res);
  XrInstanceProperties properties;
  memset(&properties, 0, sizeof(properties));
  properties.type = XR_TYPE_INSTANCE_PROPERTIES;
  res = getProperties(instance, &properties);
  if (res != XR_SUCCESS) FAIL("xrGetInstanceProperties", res);

  /* Which library answers xrGetSystem at the top of the chain: the first layer's, if any. */
  PFN_xrVoidFunction chainGetSystem = NULL;
  res = gipa(instance, "xrGetSystem", &chainGetSystem);
  if (res != XR_SUCCESS || chainGetSystem == NULL) FAIL("xrGetInstanceProcAddr(xrGetSystem)", res);
  Dl_info where;
  const char* file = dladdr((void*)chainGetSystem, &where) != 0 && where.dli_fname != NULL ? where.dli_fname : "?";
  const char* slash = strrchr(file, '/');

  const XrResult destroyed = destroyInstance(instance);
  /* The handle is gone: a second destroy is refused, not a crash. */
  const XrResult again = destroyInstance(instance);
  snprintf(report, size,
           "layers=%d:%s extensions=%d:%u:%s layer-extensions=%d:%u missing-layer=%d system=%s runtime=%s getSystem=%s destroy=%d "
           "again=%d",
           (int)layersResult, layerList, (int)extensionsResult, extensionCount, hasDebugUtils ? "yes" : "no", (int)layerExtensionsResult,
           layerExtensionCount, (int)missingLayer, system != XR_NULL_SYSTEM_ID ? "ok" : "0", properties.runtimeName,
           slash != NULL ? slash + 1 : file, (int)destroyed, (int)again);
  dlclose(addon); /* the addon stays loaded: node holds it */
  return 0;
}
