// Loading one API layer and negotiating the loader/layer interface
// (OpenXR Loader Design, "API Layer Interaction", "Loader/API Layer Interface Negotiation").
#pragma once

#include <memory>
#include <string>

#include "common/dynamic_library.h"
#include "openxr/loader/xr_error.h"

namespace kl::openxr {

// What the plan says about one enabled layer.
struct ApiLayerDescription {
  std::string name;
  std::string libraryPath;
  std::string manifestPath;
  std::string negotiateFunctionName = "xrNegotiateLoaderApiLayerInterface";
  // True when the application (or XR_ENABLE_API_LAYERS) asked for it: its failure fails the
  // instance. Implicit layers that fail are left out.
  bool required = true;
};

struct NegotiatedApiLayer {
  std::string name;
  std::shared_ptr<DynamicLibrary> library;
  PFN_xrGetInstanceProcAddr getInstanceProcAddr = nullptr;
  PFN_xrCreateApiLayerInstance createApiLayerInstance = nullptr;
  uint32_t interfaceVersion = 0;
  XrVersion apiVersion = 0;
};

// Opens the layer library, calls its negotiate function and validates what comes back.
// Throws XrError(XR_ERROR_API_LAYER_NOT_PRESENT) naming the layer and the reason (also logged).
NegotiatedApiLayer NegotiateApiLayer(const ApiLayerDescription& layer);

}  // namespace kl::openxr
