// xrNegotiateLoaderRuntimeInterface: the one symbol the runtime exports (runtime interface spec,
// "Loader/Runtime Interface Negotiation").
#include "common/export.h"
#include "bundled/simxr/entry_points.h"

namespace {

constexpr uint32_t kRuntimeInterfaceVersion = 1;

constexpr uint32_t kMajorMinor10 = simxr::majorMinor(XR_MAKE_VERSION(1, 0, 0));
constexpr uint32_t kMajorMinor11 = simxr::majorMinor(XR_MAKE_VERSION(1, 1, 0));

/** The 1.1 version this runtime implements: the registry's own when it is a 1.1 registry. */
constexpr XrVersion kRuntime11 =
    simxr::majorMinor(XR_CURRENT_API_VERSION) == kMajorMinor11 ? XR_CURRENT_API_VERSION : XR_MAKE_VERSION(1, 1, 0);

/**
 * The API version to run under: 1.1 when the loader's [minimum, maximum] allows it, else 1.0, never
 * above the loader's maximum within the same major.minor (older loaders reject a newer patch).
 * Zero when the ranges do not meet.
 */
XrVersion chooseApiVersion(XrVersion minimum, XrVersion maximum) {
  const uint32_t lo = simxr::majorMinor(minimum);
  const uint32_t hi = simxr::majorMinor(maximum);
  if (lo <= kMajorMinor11 && kMajorMinor11 <= hi) {
    return hi == kMajorMinor11 && maximum < kRuntime11 ? maximum : kRuntime11;
  }
  if (lo <= kMajorMinor10 && kMajorMinor10 <= hi) {
    return hi == kMajorMinor10 ? maximum : XR_MAKE_VERSION(1, 0, 0);
  }
  return 0;
}

}  // namespace

KL_EXPORT_C XRAPI_ATTR XrResult XRAPI_CALL
xrNegotiateLoaderRuntimeInterface(const XrNegotiateLoaderInfo* loaderInfo, XrNegotiateRuntimeRequest* runtimeRequest) {
  if (loaderInfo == nullptr || runtimeRequest == nullptr) return XR_ERROR_INITIALIZATION_FAILED;
  if (loaderInfo->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
      loaderInfo->structVersion != XR_LOADER_INFO_STRUCT_VERSION ||
      loaderInfo->structSize != sizeof(XrNegotiateLoaderInfo)) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (runtimeRequest->structType != XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST ||
      runtimeRequest->structVersion != XR_RUNTIME_INFO_STRUCT_VERSION ||
      runtimeRequest->structSize != sizeof(XrNegotiateRuntimeRequest)) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (loaderInfo->minInterfaceVersion > kRuntimeInterfaceVersion ||
      loaderInfo->maxInterfaceVersion < kRuntimeInterfaceVersion) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (loaderInfo->minApiVersion > loaderInfo->maxApiVersion) return XR_ERROR_INITIALIZATION_FAILED;
  const XrVersion apiVersion = chooseApiVersion(loaderInfo->minApiVersion, loaderInfo->maxApiVersion);
  if (apiVersion == 0) return XR_ERROR_INITIALIZATION_FAILED;
  runtimeRequest->runtimeInterfaceVersion = kRuntimeInterfaceVersion;
  runtimeRequest->runtimeApiVersion = apiVersion;
  runtimeRequest->getInstanceProcAddr = simxr::GetInstanceProcAddr;
  return XR_SUCCESS;
}
