// The API layer create-instance process (OpenXR Loader Design, "API Layer Interaction", "API
// Layer Create Instance Process"): XrApiLayerNextInfo nodes built from the layer nearest the
// runtime back to the one nearest the application (the nearest-runtime node points at the
// loader's terminators), XrApiLayerCreateInfo filled, the first layer's xrCreateApiLayerInstance
// called.
#pragma once

#include <vector>

#include "openxr/loader/api_layer_negotiation.h"

namespace kl::openxr {

class LoaderInstance;

// `layers` nearest the application first (non-empty). Returns the first layer's result; on
// success `*instance` is the handle at the top of the chain.
XrResult BuildInstanceChain(const std::vector<NegotiatedApiLayer>& layers, LoaderInstance* loaderInstance,
                            const XrInstanceCreateInfo* createInfo, XrInstance* instance);

}  // namespace kl::openxr
