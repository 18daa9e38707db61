// Loading the active runtime and negotiating the loader/runtime interface
// (OpenXR Loader Design, "Runtime Interaction", "Loader/Runtime Interface Negotiation").
#pragma once

#include <memory>
#include <string>

#include "common/dynamic_library.h"
#include "openxr/loader/xr_error.h"

namespace kl::openxr {

// What the plan says about the runtime.
struct RuntimeDescription {
  std::string manifestPath;
  std::string libraryPath;
  std::string negotiateFunctionName = "xrNegotiateLoaderRuntimeInterface";
};

struct NegotiatedRuntime {
  std::shared_ptr<DynamicLibrary> library;
  PFN_xrGetInstanceProcAddr getInstanceProcAddr = nullptr;
  uint32_t interfaceVersion = 0;
  XrVersion apiVersion = 0;
};

// Opens the library, calls its negotiate function and validates every field it returns.
// Throws XrError(XR_ERROR_RUNTIME_UNAVAILABLE) with the reason, which is also logged
// ("openxr.negotiate").
NegotiatedRuntime NegotiateRuntime(const RuntimeDescription& runtime);

}  // namespace kl::openxr
