// Loading one layer library and agreeing on the loader/layer interface
// (spec/vulkan-loader-layer-interface.zh.md, "层版本协商" and "层接口版本"):
//   2  vkNegotiateLoaderLayerInterfaceVersion (or the manifest's name for it) fills
//      VkNegotiateLayerInterface with the layer's GetInstanceProcAddr, GetDeviceProcAddr and
//      (optional) GetPhysicalDeviceProcAddr;
//   1  no negotiate function: vkGetInstanceProcAddr / vkGetDeviceProcAddr exported (renamable);
//   0  <layerName>GetInstanceProcAddr / <layerName>GetDeviceProcAddr exported.
#pragma once

#include <memory>
#include <vector>
#include <string>

#include "common/dynamic_library.h"
#include "vulkan/loader/loader_interface.h"
#include "vulkan/loader/vk_error.h"

namespace kl::vulkan {

struct LayerDescription {
  std::string name;
  std::string manifestPath;
  std::string libraryPath;
  std::string negotiateSymbol = "vkNegotiateLoaderLayerInterfaceVersion";
  std::string getInstanceProcAddrSymbol = "vkGetInstanceProcAddr";
  std::string getDeviceProcAddrSymbol = "vkGetDeviceProcAddr";
  std::vector<std::string> instanceExtensions;  // from the manifest (for the enabled-extension check)
  uint32_t manifestApiVersion = 0;              // the manifest's api_version (0: not given)
  bool implicit = false;                        // an implicit layer (its device extensions are listed with the driver's)
};

struct NegotiatedLayer {
  LayerDescription description;
  std::shared_ptr<DynamicLibrary> library;
  uint32_t interfaceVersion = 0;
  PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
  PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
  PFN_GetPhysicalDeviceProcAddr getPhysicalDeviceProcAddr = nullptr;  // interface 2, optional
};

// LLP_LOADER_4: a layer whose manifest api_version has another variant or major version than the
// loader's Vulkan (0, 1) is not loaded. Throws like NegotiateLayer.
void CheckLayerApiVersion(const LayerDescription& layer);

// Throws VkError(VK_ERROR_LAYER_NOT_PRESENT) naming the layer, its file, the symbol and the
// reason; also logged ("vulkan.layer"). The caller leaves the layer out of the chain.
NegotiatedLayer NegotiateLayer(const LayerDescription& layer);

}  // namespace kl::vulkan
