// The loader's exported C-ABI entry points that the loader hands out itself (the rest of the
// exported trampolines are defined in trampolines.cc from the command list).
#pragma once

#include "common/export.h"
#include "openxr/loader/xr_error.h"

#define KL_XR_EXPORT KL_EXPORT_C

KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function);
KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrDestroyInstance(XrInstance instance);
KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrCreateInstance(const XrInstanceCreateInfo* info, XrInstance* instance);
KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrEnumerateApiLayerProperties(uint32_t capacity, uint32_t* count, XrApiLayerProperties* props);
KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrEnumerateInstanceExtensionProperties(const char* layerName, uint32_t capacity, uint32_t* count,
                                                                                   XrExtensionProperties* props);
