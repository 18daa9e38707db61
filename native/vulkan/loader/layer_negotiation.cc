#include "vulkan/loader/layer_negotiation.h"

#include "common/log.h"

namespace kl::vulkan {

namespace {

[[noreturn]] void Reject(const LayerDescription& layer, const std::string& why) {
  std::string message = "layer " + layer.name + " (" + layer.libraryPath;
  if (!layer.manifestPath.empty()) message += ", manifest " + layer.manifestPath;
  message += ") not used: " + why;
  Log(LogLevel::Warn, "vulkan.layer", message);
  throw VkError(VK_ERROR_LAYER_NOT_PRESENT, message);
}

}  // namespace

void CheckLayerApiVersion(const LayerDescription& layer) {
  const uint32_t v = layer.manifestApiVersion;
  if (v != 0 && (VK_API_VERSION_VARIANT(v) != 0 || VK_API_VERSION_MAJOR(v) != 1)) {
    Reject(layer, "its manifest api_version " + std::to_string(VK_API_VERSION_VARIANT(v)) + ":" + ApiVersionString(v) +
                      " is not compatible with this loader's Vulkan 1.x (LLP_LOADER_4)");
  }
}

NegotiatedLayer NegotiateLayer(const LayerDescription& layer) {
  CheckLayerApiVersion(layer);
  NegotiatedLayer result;
  result.description = layer;
  try {
    result.library = DynamicLibrary::Open(layer.libraryPath);
  } catch (const LibraryError& e) {
    Reject(layer, "cannot load the library: " + e.reason());
  }
  const DynamicLibrary& lib = *result.library;

  if (auto negotiate = lib.FindFunction<PFN_vkNegotiateLoaderLayerInterfaceVersion>(layer.negotiateSymbol.c_str())) {
    VkNegotiateLayerInterface request{};
    request.sType = LAYER_NEGOTIATE_INTERFACE_STRUCT;
    request.pNext = nullptr;
    request.loaderLayerInterfaceVersion = kLayerInterfaceVersion;
    const VkResult res = negotiate(&request);
    if (res != VK_SUCCESS) {
      Reject(layer, layer.negotiateSymbol + " returned " + std::to_string(res) + " (the layer supports no interface version up to " +
                        std::to_string(kLayerInterfaceVersion) + ")");
    }
    const uint32_t version = request.loaderLayerInterfaceVersion;
    if (version > kLayerInterfaceVersion) {
      Reject(layer, layer.negotiateSymbol + " answered interface version " + std::to_string(version) + ", newer than the " +
                        std::to_string(kLayerInterfaceVersion) + " the loader offered");
    }
    result.interfaceVersion = version;
    if (version >= 2) {
      // Pointers left NULL are looked up as the exported (or renamed) functions, as before negotiation.
      result.getInstanceProcAddr = request.pfnGetInstanceProcAddr;
      result.getDeviceProcAddr = request.pfnGetDeviceProcAddr;
      result.getPhysicalDeviceProcAddr = request.pfnGetPhysicalDeviceProcAddr;
    }
    // An older interface answered by the negotiate function: the exported functions, as interface 1
    // (the loader stays compatible with every older layer interface).
    if (result.getInstanceProcAddr == nullptr) {
      result.getInstanceProcAddr = lib.FindFunction<PFN_vkGetInstanceProcAddr>(layer.getInstanceProcAddrSymbol.c_str());
    }
    if (result.getDeviceProcAddr == nullptr) {
      result.getDeviceProcAddr = lib.FindFunction<PFN_vkGetDeviceProcAddr>(layer.getDeviceProcAddrSymbol.c_str());
    }
    if (result.getInstanceProcAddr == nullptr) {
      Reject(layer, layer.negotiateSymbol + " answered interface version " + std::to_string(version) +
                        (version >= 2 ? " but gave no pfnGetInstanceProcAddr" : "") + " and the library does not export " +
                        layer.getInstanceProcAddrSymbol);
    }
  } else {
    // Interface 1: the exported (or renamed) functions; interface 0: <layerName>GetInstanceProcAddr.
    result.interfaceVersion = 1;
    result.getInstanceProcAddr = lib.FindFunction<PFN_vkGetInstanceProcAddr>(layer.getInstanceProcAddrSymbol.c_str());
    result.getDeviceProcAddr = lib.FindFunction<PFN_vkGetDeviceProcAddr>(layer.getDeviceProcAddrSymbol.c_str());
    if (result.getInstanceProcAddr == nullptr) {
      const std::string gipa = layer.name + "GetInstanceProcAddr";
      const std::string gdpa = layer.name + "GetDeviceProcAddr";
      result.getInstanceProcAddr = lib.FindFunction<PFN_vkGetInstanceProcAddr>(gipa.c_str());
      result.getDeviceProcAddr = lib.FindFunction<PFN_vkGetDeviceProcAddr>(gdpa.c_str());
      result.interfaceVersion = 0;
      if (result.getInstanceProcAddr == nullptr) {
        Reject(layer, "exports none of " + layer.negotiateSymbol + ", " + layer.getInstanceProcAddrSymbol + " and " + gipa);
      }
    }
  }
  Log(LogLevel::Info, "vulkan.layer",
      "layer " + layer.name + " (" + layer.libraryPath + ") uses interface version " + std::to_string(result.interfaceVersion));
  return result;
}

}  // namespace kl::vulkan
