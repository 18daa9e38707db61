#include "openxr/loader/loader_instance.h"

#include <algorithm>
#include <cstring>

#include "common/two_call.h"
#include "openxr/loader/instance_chain.h"
#include "openxr/loader/instance_registry.h"
#include "openxr/loader/terminators.h"
#include "openxr/loader/trampolines.h"

namespace kl::openxr {

namespace {

XrDebugUtilsMessageSeverityFlagsEXT SeverityOf(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return XR_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    case LogLevel::Warn: return XR_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    case LogLevel::Info: return XR_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
    case LogLevel::Debug: return XR_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
  }
  return XR_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
}

// Sets and clears the registry's "instance being created on this thread".
class ConstructionScope {
 public:
  explicit ConstructionScope(LoaderInstance* li) : previous_(InstanceRegistry::ConstructingOnThisThread()) {
    InstanceRegistry::ConstructingOnThisThread() = li;
  }
  ~ConstructionScope() { InstanceRegistry::ConstructingOnThisThread() = previous_; }
  ConstructionScope(const ConstructionScope&) = delete;
  ConstructionScope& operator=(const ConstructionScope&) = delete;

 private:
  LoaderInstance* previous_;
};

}  // namespace

void LoaderInstance::Report(LogLevel level, const std::string& functionName, const std::string& message) const {
  Log(level, "openxr", message);
  messengers_.Emit(SeverityOf(level), functionName, message);
}

std::shared_ptr<LoaderInstance> LoaderInstance::Create(const InstancePlan& plan, const XrInstanceCreateInfo& createInfo) {
  auto li = std::make_shared<LoaderInstance>(PrivateTag{});
  li->messengers_.AddFromNextChain(createInfo.next);
  li->requestedApiVersion_ = createInfo.applicationInfo.apiVersion;
  for (uint32_t i = 0; i < createInfo.enabledExtensionCount; ++i) li->enabledExtensions_.emplace_back(createInfo.enabledExtensionNames[i]);
  const std::string fn = "xrCreateInstance";

  try {
    li->runtime_ = NegotiateRuntime(plan.runtime);
  } catch (const XrError& e) {
    li->messengers_.Emit(XR_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, fn, e.what());
    throw;
  }
  li->runtimeLibraryPath_ = plan.runtime.libraryPath;
  li->Report(LogLevel::Info, fn, "using runtime " + plan.runtime.libraryPath);

  for (const ApiLayerDescription& layer : plan.layers) {
    try {
      li->layers_.push_back(NegotiateApiLayer(layer));
      li->layerNames_.push_back(layer.name);
      li->Report(LogLevel::Info, fn, "using API layer " + layer.name);
    } catch (const XrError& e) {
      li->messengers_.Emit(layer.required ? XR_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT : XR_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                           fn, e.what());
      if (layer.required) throw;
      li->Report(LogLevel::Warn, fn, "implicit API layer " + layer.name + " left out after failing negotiation");
    }
  }

  li->QueryRuntimeExtensions();

  XrInstance top = XR_NULL_HANDLE;
  XrResult result;
  {
    ConstructionScope scope(li.get());
    if (li->layers_.empty()) {
      result = li->CreateRuntimeInstance(&createInfo, &top);
    } else {
      result = BuildInstanceChain(li->layers_, li.get(), &createInfo, &top);
    }
  }
  if (XR_FAILED(result) || top == XR_NULL_HANDLE) {
    if (li->runtimeHandle_ != XR_NULL_HANDLE && !XR_FAILED(result)) result = XR_ERROR_INITIALIZATION_FAILED;
    std::string where = li->layers_.empty() ? "the runtime's xrCreateInstance" : "xrCreateApiLayerInstance of " + li->layers_[0].name;
    const std::string message = "instance creation failed: " + where + " returned " + std::to_string(result);
    li->Report(LogLevel::Error, fn, message);
    InstanceRegistry::Get().Remove(li.get());
    li->destroyed_ = true;
    throw XrError(XR_FAILED(result) ? result : XR_ERROR_INITIALIZATION_FAILED, message);
  }
  li->handle_ = top;
  // Without layers the loader's terminator is the top: it answers the commands the loader
  // implements (XR_EXT_debug_utils) and hands out the runtime's pointers for everything else.
  li->topGetInstanceProcAddr_ = li->layers_.empty() ? TerminatorGetInstanceProcAddr : li->layers_[0].getInstanceProcAddr;
  // Once, from the top of the chain: every command the loader knows (core and extensions).
  gen::fillXrDispatchTable(li->table, li->topGetInstanceProcAddr_, top);
  InstanceRegistry::Get().Add(li.get(), top);
  li->messengers_.ForgetCreateInfoMessengers();
  return li;
}

bool LoaderInstance::extensionEnabled(std::string_view name) const noexcept {
  return std::find(enabledExtensions_.begin(), enabledExtensions_.end(), name) != enabledExtensions_.end();
}

void LoaderInstance::QueryRuntimeExtensions() {
  PFN_xrVoidFunction f = nullptr;
  if (XR_FAILED(runtime_.getInstanceProcAddr(XR_NULL_HANDLE, "xrEnumerateInstanceExtensionProperties", &f)) || f == nullptr) {
    Report(LogLevel::Warn, "xrCreateInstance", "the runtime does not provide xrEnumerateInstanceExtensionProperties");
    return;
  }
  auto enumerate = reinterpret_cast<PFN_xrEnumerateInstanceExtensionProperties>(f);
  std::vector<XrExtensionProperties> props;
  const XrResult r = EnumerateTwoCall(props, XrExtensionProperties{XR_TYPE_EXTENSION_PROPERTIES, nullptr, {}, 0}, XR_ERROR_SIZE_INSUFFICIENT,
                                      [&](uint32_t capacity, uint32_t* count, XrExtensionProperties* out) {
                                        return enumerate(nullptr, capacity, count, out);
                                      });
  if (XR_FAILED(r)) {
    Report(LogLevel::Warn, "xrCreateInstance",
           "the runtime's xrEnumerateInstanceExtensionProperties returned " + std::to_string(r) + "; no runtime extension is passed on");
    return;
  }
  // Bounded: a runtime that forgets the terminator must not make us read past the element.
  for (const auto& p : props) runtimeExtensions_.emplace_back(p.extensionName, strnlen(p.extensionName, XR_MAX_EXTENSION_NAME_SIZE));
  runtimeHasDebugUtils_ =
      std::find(runtimeExtensions_.begin(), runtimeExtensions_.end(), "XR_EXT_debug_utils") != runtimeExtensions_.end();
}

XrResult LoaderInstance::CreateRuntimeInstance(const XrInstanceCreateInfo* info, XrInstance* instance) {
  if (info == nullptr || instance == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  PFN_xrVoidFunction f = nullptr;
  if (XR_FAILED(runtime_.getInstanceProcAddr(XR_NULL_HANDLE, "xrCreateInstance", &f)) || f == nullptr) {
    Report(LogLevel::Error, "xrCreateInstance", "the runtime does not provide xrCreateInstance");
    return XR_ERROR_RUNTIME_FAILURE;
  }
  // The runtime sees only the extensions it supports: XR_EXT_debug_utils is the loader's, and
  // extensions of layers are the layers'.
  std::vector<const char*> names;
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    const char* name = info->enabledExtensionNames[i];
    if (std::string_view(name) == "XR_EXT_debug_utils") debugUtilsEnabled_ = true;
    if (std::find(runtimeExtensions_.begin(), runtimeExtensions_.end(), name) != runtimeExtensions_.end()) names.push_back(name);
  }
  XrInstanceCreateInfo filtered = *info;
  filtered.enabledExtensionCount = static_cast<uint32_t>(names.size());
  filtered.enabledExtensionNames = names.empty() ? nullptr : names.data();
  const XrResult result = reinterpret_cast<PFN_xrCreateInstance>(f)(&filtered, instance);
  if (XR_SUCCEEDED(result)) {
    runtimeHandle_ = *instance;
    InstanceRegistry::Get().AddRuntimeInstance(*instance, this);
  }
  return result;
}

XrResult LoaderInstance::GetInstanceProcAddr(const char* name, PFN_xrVoidFunction* function) const {
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *function = nullptr;
  if (destroyed_) return XR_ERROR_HANDLE_INVALID;
  const std::string_view n = name;
  // The loader's own entry points: xrGetInstanceProcAddr, and xrDestroyInstance so that
  // teardown unloads the chain; the instance-less commands.
  if (n == "xrGetInstanceProcAddr") *function = reinterpret_cast<PFN_xrVoidFunction>(::xrGetInstanceProcAddr);
  if (n == "xrDestroyInstance") *function = reinterpret_cast<PFN_xrVoidFunction>(::xrDestroyInstance);
  if (n == "xrCreateInstance") *function = reinterpret_cast<PFN_xrVoidFunction>(::xrCreateInstance);
  if (n == "xrEnumerateApiLayerProperties") *function = reinterpret_cast<PFN_xrVoidFunction>(::xrEnumerateApiLayerProperties);
  if (n == "xrEnumerateInstanceExtensionProperties") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(::xrEnumerateInstanceExtensionProperties);
  }
  if (*function != nullptr) return XR_SUCCESS;
  // Everything else: the top of the chain, from the table when the loader knows the command,
  // through the chain otherwise (new extensions work without a loader update).
  if (const gen::XrCommandInfo* info = gen::findXrCommand(n)) {
    if (PFN_xrVoidFunction f = gen::getXrCommand(table, info->index)) {
      *function = f;
      return XR_SUCCESS;
    }
  }
  return topGetInstanceProcAddr_(handle_, name, function);
}

void LoaderInstance::RecordChildHandle(std::uint64_t handle) { InstanceRegistry::Get().RecordHandle(handle, this); }
void LoaderInstance::ForgetChildHandle(std::uint64_t handle) { InstanceRegistry::Get().ForgetHandle(handle); }

XrResult LoaderInstance::Destroy() {
  if (destroyed_) return XR_ERROR_HANDLE_INVALID;
  destroyed_ = true;
  XrResult result = XR_SUCCESS;
  if (table.DestroyInstance != nullptr) {
    result = table.DestroyInstance(handle_);
  } else {
    Report(LogLevel::Error, "xrDestroyInstance", "the chain does not provide xrDestroyInstance");
    result = XR_ERROR_FUNCTION_UNSUPPORTED;
  }
  Report(LogLevel::Info, "xrDestroyInstance", "instance destroyed; unloading " + std::to_string(layers_.size()) + " API layer(s) and the runtime");
  InstanceRegistry::Get().Remove(this);
  table = gen::XrDispatchTable{};
  topGetInstanceProcAddr_ = nullptr;
  layers_.clear();
  runtime_ = NegotiatedRuntime{};
  return result;
}

LoaderInstance::~LoaderInstance() {
  if (!destroyed_ && handle_ != XR_NULL_HANDLE) Destroy();
  if (!destroyed_) InstanceRegistry::Get().Remove(this);
}

}  // namespace kl::openxr
