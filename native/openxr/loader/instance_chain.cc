#include "openxr/loader/instance_chain.h"

#include <cstring>

#include "openxr/loader/terminators.h"

namespace kl::openxr {

XrResult BuildInstanceChain(const std::vector<NegotiatedApiLayer>& layers, LoaderInstance* loaderInstance,
                            const XrInstanceCreateInfo* createInfo, XrInstance* instance) {
  std::vector<XrApiLayerNextInfo> nodes(layers.size());
  for (std::size_t i = layers.size(); i-- > 0;) {
    XrApiLayerNextInfo& node = nodes[i];
    node.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO;
    node.structVersion = XR_API_LAYER_NEXT_INFO_STRUCT_VERSION;
    node.structSize = sizeof(XrApiLayerNextInfo);
    std::strncpy(node.layerName, layers[i].name.c_str(), XR_MAX_API_LAYER_NAME_SIZE - 1);
    node.layerName[XR_MAX_API_LAYER_NAME_SIZE - 1] = '\0';
    if (i + 1 == layers.size()) {
      // Nearest the runtime: the next entity is the loader again.
      node.nextGetInstanceProcAddr = TerminatorGetInstanceProcAddr;
      node.nextCreateApiLayerInstance = TerminatorCreateApiLayerInstance;
      node.next = nullptr;
    } else {
      node.nextGetInstanceProcAddr = layers[i + 1].getInstanceProcAddr;
      node.nextCreateApiLayerInstance = layers[i + 1].createApiLayerInstance;
      node.next = &nodes[i + 1];
    }
  }
  XrApiLayerCreateInfo layerInfo{};
  layerInfo.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO;
  layerInfo.structVersion = XR_API_LAYER_CREATE_INFO_STRUCT_VERSION;
  layerInfo.structSize = sizeof(XrApiLayerCreateInfo);
  layerInfo.loaderInstance = loaderInstance;
  layerInfo.settings_file_location[0] = '\0';
  layerInfo.nextInfo = &nodes[0];
  return layers[0].createApiLayerInstance(createInfo, &layerInfo, instance);
}

}  // namespace kl::openxr
