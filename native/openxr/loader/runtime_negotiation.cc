#include "openxr/loader/runtime_negotiation.h"

#include "common/log.h"

namespace kl::openxr {

namespace {

[[noreturn]] void Reject(const RuntimeDescription& runtime, const std::string& why) {
  std::string message = "runtime " + runtime.libraryPath;
  if (!runtime.manifestPath.empty()) message += " (manifest " + runtime.manifestPath + ")";
  message += " rejected: " + why;
  Log(LogLevel::Error, "openxr.negotiate", message);
  throw XrError(XR_ERROR_RUNTIME_UNAVAILABLE, message);
}

}  // namespace

NegotiatedRuntime NegotiateRuntime(const RuntimeDescription& runtime) {
  NegotiatedRuntime result;
  try {
    result.library = DynamicLibrary::Open(runtime.libraryPath);
  } catch (const LibraryError& e) {
    Reject(runtime, std::string("cannot load the library: ") + e.reason());
  }
  const std::string& symbol = runtime.negotiateFunctionName;
  auto negotiate = result.library->FindFunction<PFN_xrNegotiateLoaderRuntimeInterface>(symbol.c_str());
  if (negotiate == nullptr) Reject(runtime, "the library does not export " + symbol);

  const XrNegotiateLoaderInfo loaderInfo = MakeLoaderInfo(kMaxRuntimeInterfaceVersion);
  XrNegotiateRuntimeRequest request{};
  request.structType = XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST;
  request.structVersion = XR_RUNTIME_INFO_STRUCT_VERSION;
  request.structSize = sizeof(XrNegotiateRuntimeRequest);

  const XrResult res = negotiate(&loaderInfo, &request);
  if (res != XR_SUCCESS) Reject(runtime, symbol + " returned " + std::to_string(res) + " instead of XR_SUCCESS");
  if (request.structType != XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST) {
    Reject(runtime, "XrNegotiateRuntimeRequest.structType changed to " + std::to_string(request.structType));
  }
  if (request.structVersion != XR_RUNTIME_INFO_STRUCT_VERSION) {
    Reject(runtime, "XrNegotiateRuntimeRequest.structVersion changed to " + std::to_string(request.structVersion));
  }
  if (request.structSize != sizeof(XrNegotiateRuntimeRequest)) {
    Reject(runtime, "XrNegotiateRuntimeRequest.structSize changed to " + std::to_string(request.structSize) + " (expected " +
                        std::to_string(sizeof(XrNegotiateRuntimeRequest)) + ")");
  }
  if (request.runtimeInterfaceVersion < loaderInfo.minInterfaceVersion ||
      request.runtimeInterfaceVersion > loaderInfo.maxInterfaceVersion) {
    Reject(runtime, "runtime interface version " + std::to_string(request.runtimeInterfaceVersion) + " is outside [" +
                        std::to_string(loaderInfo.minInterfaceVersion) + ", " + std::to_string(loaderInfo.maxInterfaceVersion) + "]");
  }
  if (!ApiVersionInRange(request.runtimeApiVersion)) {
    Reject(runtime, "runtime API version " + VersionString(request.runtimeApiVersion) + " is outside [" +
                        VersionString(loaderInfo.minApiVersion) + ", " + VersionString(loaderInfo.maxApiVersion) + "]");
  }
  if (request.getInstanceProcAddr == nullptr) Reject(runtime, "getInstanceProcAddr is null");

  result.getInstanceProcAddr = request.getInstanceProcAddr;
  result.interfaceVersion = request.runtimeInterfaceVersion;
  result.apiVersion = request.runtimeApiVersion;
  Log(LogLevel::Info, "openxr.negotiate",
      "runtime " + runtime.libraryPath + " negotiated interface version " + std::to_string(result.interfaceVersion) +
          ", API version " + VersionString(result.apiVersion));
  return result;
}

}  // namespace kl::openxr
