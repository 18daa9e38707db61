#include "openxr/loader/api_layer_negotiation.h"

#include "common/log.h"

namespace kl::openxr {

namespace {

[[noreturn]] void Reject(const ApiLayerDescription& layer, const std::string& why) {
  std::string message = "API layer " + layer.name + " (" + layer.libraryPath;
  if (!layer.manifestPath.empty()) message += ", manifest " + layer.manifestPath;
  message += ") rejected: " + why;
  Log(layer.required ? LogLevel::Error : LogLevel::Warn, "openxr.negotiate", message);
  throw XrError(XR_ERROR_API_LAYER_NOT_PRESENT, message);
}

}  // namespace

NegotiatedApiLayer NegotiateApiLayer(const ApiLayerDescription& layer) {
  NegotiatedApiLayer result;
  result.name = layer.name;
  try {
    result.library = DynamicLibrary::Open(layer.libraryPath);
  } catch (const LibraryError& e) {
    Reject(layer, std::string("cannot load the library: ") + e.reason());
  }
  const std::string& symbol = layer.negotiateFunctionName;
  auto negotiate = result.library->FindFunction<PFN_xrNegotiateLoaderApiLayerInterface>(symbol.c_str());
  if (negotiate == nullptr) Reject(layer, "the library does not export " + symbol);

  const XrNegotiateLoaderInfo loaderInfo = MakeLoaderInfo(kMaxApiLayerInterfaceVersion);
  XrNegotiateApiLayerRequest request{};
  request.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST;
  request.structVersion = XR_API_LAYER_INFO_STRUCT_VERSION;
  request.structSize = sizeof(XrNegotiateApiLayerRequest);

  const XrResult res = negotiate(&loaderInfo, layer.name.c_str(), &request);
  if (res != XR_SUCCESS) Reject(layer, symbol + " returned " + std::to_string(res) + " instead of XR_SUCCESS");
  if (request.structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST) {
    Reject(layer, "XrNegotiateApiLayerRequest.structType changed to " + std::to_string(request.structType));
  }
  if (request.structVersion != XR_API_LAYER_INFO_STRUCT_VERSION) {
    Reject(layer, "XrNegotiateApiLayerRequest.structVersion changed to " + std::to_string(request.structVersion));
  }
  if (request.structSize != sizeof(XrNegotiateApiLayerRequest)) {
    Reject(layer, "XrNegotiateApiLayerRequest.structSize changed to " + std::to_string(request.structSize) + " (expected " +
                      std::to_string(sizeof(XrNegotiateApiLayerRequest)) + ")");
  }
  if (request.layerInterfaceVersion < loaderInfo.minInterfaceVersion ||
      request.layerInterfaceVersion > loaderInfo.maxInterfaceVersion) {
    Reject(layer, "layer interface version " + std::to_string(request.layerInterfaceVersion) + " is outside [" +
                      std::to_string(loaderInfo.minInterfaceVersion) + ", " + std::to_string(loaderInfo.maxInterfaceVersion) + "]");
  }
  if (!ApiVersionInRange(request.layerApiVersion)) {
    Reject(layer, "layer API version " + VersionString(request.layerApiVersion) + " is outside [" +
                      VersionString(loaderInfo.minApiVersion) + ", " + VersionString(loaderInfo.maxApiVersion) + "]");
  }
  if (request.getInstanceProcAddr == nullptr) Reject(layer, "getInstanceProcAddr is null");
  if (request.createApiLayerInstance == nullptr) Reject(layer, "createApiLayerInstance is null");

  result.getInstanceProcAddr = request.getInstanceProcAddr;
  result.createApiLayerInstance = request.createApiLayerInstance;
  result.interfaceVersion = request.layerInterfaceVersion;
  result.apiVersion = request.layerApiVersion;
  Log(LogLevel::Info, "openxr.negotiate",
      "API layer " + layer.name + " negotiated interface version " + std::to_string(result.interfaceVersion) + ", API version " +
          VersionString(result.apiVersion));
  return result;
}

}  // namespace kl::openxr
