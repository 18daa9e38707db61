// One OpenXR instance as the loader holds it: the negotiated runtime and layers (their libraries
// kept open through shared_ptr), the instance handle at the top of the chain, the dispatch table
// filled once from the top of the chain, and the application's debug-utils messengers.
// Destroy() goes down the chain, then lets the libraries go (they unload when the last owner,
// possibly another instance, drops them).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/log.h"
#include "openxr/loader/api_layer_negotiation.h"
#include "openxr/loader/debug_utils.h"
#include "openxr/loader/runtime_negotiation.h"

namespace kl::openxr {

// The plan as the native side receives it (built by TypeScript from discovery and policy).
struct InstancePlan {
  RuntimeDescription runtime;
  // Nearest the application first.
  std::vector<ApiLayerDescription> layers;
};

class LoaderInstance {
 public:
  // Negotiates, builds the chain, calls xrCreateInstance down it and fills the table.
  // Throws XrError with the failing XrResult and a readable message.
  static std::shared_ptr<LoaderInstance> Create(const InstancePlan& plan, const XrInstanceCreateInfo& createInfo);

  LoaderInstance(const LoaderInstance&) = delete;
  LoaderInstance& operator=(const LoaderInstance&) = delete;
  ~LoaderInstance();

  // The dispatch table: first member, so a trampoline reaches an entry with one load.
  gen::XrDispatchTable table{};

  XrInstance handle() const noexcept { return handle_; }
  bool destroyed() const noexcept { return destroyed_; }
  // Down the chain, then unregister and drop the libraries. XR_ERROR_HANDLE_INVALID when
  // already destroyed.
  XrResult Destroy();

  // xrGetInstanceProcAddr as the loader answers it for this instance (see trampolines.cc).
  XrResult GetInstanceProcAddr(const char* name, PFN_xrVoidFunction* function) const;

  const std::vector<std::string>& layerNames() const noexcept { return layerNames_; }
  const std::string& runtimeLibraryPath() const noexcept { return runtimeLibraryPath_; }
  XrVersion runtimeApiVersion() const noexcept { return runtime_.apiVersion; }
  // What the application asked for in XrInstanceCreateInfo: the generated bindings refuse the
  // commands of extensions it did not enable, and 1.1 commands (xrLocateSpaces, which the frame
  // query uses) exist only for a 1.1 instance.
  XrVersion requestedApiVersion() const noexcept { return requestedApiVersion_; }
  bool extensionEnabled(std::string_view name) const noexcept;

  // A handle created from this instance without the exported trampolines (by the JavaScript API
  // or the benchmark), so the trampolines can route it when several instances are live.
  void RecordChildHandle(std::uint64_t handle);
  void ForgetChildHandle(std::uint64_t handle);

  // A loader message: to the log ("openxr") and to this instance's debug-utils messengers.
  void Report(LogLevel level, const std::string& functionName, const std::string& message) const;

  // Used by the terminators (the bottom of the chain).
  XrResult CreateRuntimeInstance(const XrInstanceCreateInfo* info, XrInstance* instance);
  PFN_xrGetInstanceProcAddr runtimeGetInstanceProcAddr() const noexcept { return runtime_.getInstanceProcAddr; }
  XrInstance runtimeHandle() const noexcept { return runtimeHandle_; }
  bool runtimeHasDebugUtils() const noexcept { return runtimeHasDebugUtils_; }
  // The application enabled XR_EXT_debug_utils (its functions exist only then).
  bool debugUtilsEnabled() const noexcept { return debugUtilsEnabled_; }
  DebugUtilsMessengers& messengers() noexcept { return messengers_; }

 private:
  struct PrivateTag {};

 public:
  explicit LoaderInstance(PrivateTag) {}

 private:
  void QueryRuntimeExtensions();

  NegotiatedRuntime runtime_;
  std::vector<NegotiatedApiLayer> layers_;  // nearest the application first
  std::vector<std::string> layerNames_;
  std::string runtimeLibraryPath_;
  std::vector<std::string> runtimeExtensions_;
  std::vector<std::string> enabledExtensions_;
  XrVersion requestedApiVersion_ = 0;
  bool runtimeHasDebugUtils_ = false;
  bool debugUtilsEnabled_ = false;
  XrInstance handle_ = XR_NULL_HANDLE;         // the top of the chain's handle (the application's)
  XrInstance runtimeHandle_ = XR_NULL_HANDLE;  // the runtime's
  PFN_xrGetInstanceProcAddr topGetInstanceProcAddr_ = nullptr;
  bool destroyed_ = false;
  DebugUtilsMessengers messengers_;
};

}  // namespace kl::openxr
