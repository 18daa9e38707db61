// Broken (and one healthy) OpenXR components for `khronos-loader doctor` tests, one source built
// into several libraries by KL_DOCTOR_MODE (see CMakeLists.txt). The doctor loads each in a child
// process; these make sure a crash, a hang, a missing symbol and a refusal are all reported as
// data while the doctor itself carries on.
#include <csignal>
#include <cstring>

#include <unistd.h>

#include "generated/openxr_types.h"

#define KL_DOCTOR_LAYER_OK 0
#define KL_DOCTOR_LAYER_SEGFAULT 1
#define KL_DOCTOR_LAYER_HANG 2
#define KL_DOCTOR_LAYER_NO_SYMBOL 3
#define KL_DOCTOR_RUNTIME_OK 10
#define KL_DOCTOR_RUNTIME_ERROR_RESULT 11

#ifndef KL_DOCTOR_MODE
#error KL_DOCTOR_MODE must be defined
#endif

#define KL_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

[[maybe_unused]] XrResult XRAPI_CALL EnumerateInstanceExtensionProperties(const char* layerName, uint32_t capacity, uint32_t* count,
                                                                          XrExtensionProperties* properties) {
  if (layerName != nullptr) return XR_ERROR_API_LAYER_NOT_PRESENT;
  *count = 1;
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < 1) return XR_ERROR_SIZE_INSUFFICIENT;
  std::strncpy(properties[0].extensionName, "XR_KLDOCTOR_test_extension", XR_MAX_EXTENSION_NAME_SIZE - 1);
  properties[0].extensionVersion = 7;
  return XR_SUCCESS;
}

// Answers only xrEnumerateInstanceExtensionProperties: the doctor creates no instance.
[[maybe_unused]] XrResult XRAPI_CALL GetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
  *function = nullptr;
  if (instance == XR_NULL_HANDLE && std::strcmp(name, "xrEnumerateInstanceExtensionProperties") == 0) {
    *function = reinterpret_cast<PFN_xrVoidFunction>(&EnumerateInstanceExtensionProperties);
    return XR_SUCCESS;
  }
  return XR_ERROR_FUNCTION_UNSUPPORTED;
}

[[maybe_unused]] XrResult XRAPI_CALL CreateApiLayerInstance(const XrInstanceCreateInfo*, const XrApiLayerCreateInfo*, XrInstance*) {
  return XR_ERROR_INITIALIZATION_FAILED;
}

}  // namespace

#if KL_DOCTOR_MODE < KL_DOCTOR_RUNTIME_OK

#if KL_DOCTOR_MODE == KL_DOCTOR_LAYER_NO_SYMBOL
// Exports something, but under another name than the manifest promises.
KL_EXPORT XrResult XRAPI_CALL klDoctorNotTheNegotiateFunction(const XrNegotiateLoaderInfo*, const char*,
                                                               XrNegotiateApiLayerRequest*) {
  return XR_ERROR_INITIALIZATION_FAILED;
}
#else
KL_EXPORT XrResult XRAPI_CALL xrNegotiateLoaderApiLayerInterface(const XrNegotiateLoaderInfo* loaderInfo, const char*,
                                                                  XrNegotiateApiLayerRequest* request) {
#if KL_DOCTOR_MODE == KL_DOCTOR_LAYER_SEGFAULT
  (void)loaderInfo;
  (void)request;
  // A real segmentation fault, as a buggy layer would cause (the signal is raised, not a null
  // write, so the compiler cannot reason it away).
  std::raise(SIGSEGV);
  return XR_ERROR_RUNTIME_FAILURE;
#elif KL_DOCTOR_MODE == KL_DOCTOR_LAYER_HANG
  (void)loaderInfo;
  (void)request;
  for (;;) pause();
#else
  request->layerInterfaceVersion = loaderInfo->maxInterfaceVersion;
  request->layerApiVersion = XR_MAKE_VERSION(1, 0, 0);
  request->getInstanceProcAddr = &GetInstanceProcAddr;
  request->createApiLayerInstance = &CreateApiLayerInstance;
  return XR_SUCCESS;
#endif
}
#endif

#else  // runtimes

KL_EXPORT XrResult XRAPI_CALL xrNegotiateLoaderRuntimeInterface(const XrNegotiateLoaderInfo* loaderInfo,
                                                                 XrNegotiateRuntimeRequest* request) {
#if KL_DOCTOR_MODE == KL_DOCTOR_RUNTIME_ERROR_RESULT
  (void)loaderInfo;
  (void)request;
  return XR_ERROR_INITIALIZATION_FAILED;
#else
  request->runtimeInterfaceVersion = loaderInfo->maxInterfaceVersion;
  request->runtimeApiVersion = XR_MAKE_VERSION(1, 0, 0);
  request->getInstanceProcAddr = &GetInstanceProcAddr;
  return XR_SUCCESS;
#endif
}

#endif
