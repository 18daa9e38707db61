#include "openxr/loader/terminators.h"

#include <cstring>
#include <string_view>

#include "openxr/loader/instance_registry.h"
#include "openxr/loader/loader_instance.h"

namespace kl::openxr {

namespace {

// The instance a terminator call belongs to: by the runtime's handle, or while an instance is
// being created on this thread, that one.
LoaderInstance* InstanceForRuntimeHandle(XrInstance instance) {
  if (instance != XR_NULL_HANDLE) {
    if (LoaderInstance* found = InstanceRegistry::Get().FindByRuntimeInstance(instance)) return found;
  }
  return InstanceRegistry::ConstructingOnThisThread();
}

template <typename Fn>
Fn RuntimeCommand(LoaderInstance* li, const char* name) {
  PFN_xrVoidFunction f = nullptr;
  if (XR_FAILED(li->runtimeGetInstanceProcAddr()(li->runtimeHandle(), name, &f))) return nullptr;
  return reinterpret_cast<Fn>(f);
}

XRAPI_ATTR XrResult XRAPI_CALL TerminatorCreateDebugUtilsMessengerEXT(XrInstance instance, const XrDebugUtilsMessengerCreateInfoEXT* info,
                                                                     XrDebugUtilsMessengerEXT* messenger) {
  LoaderInstance* li = InstanceForRuntimeHandle(instance);
  if (li == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || messenger == nullptr || info->type != XR_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT ||
      info->userCallback == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  XrDebugUtilsMessengerEXT runtimeMessenger = XR_NULL_HANDLE;
  if (li->runtimeHasDebugUtils()) {
    auto create = RuntimeCommand<PFN_xrCreateDebugUtilsMessengerEXT>(li, "xrCreateDebugUtilsMessengerEXT");
    if (create == nullptr) return XR_ERROR_FUNCTION_UNSUPPORTED;
    const XrResult r = create(li->runtimeHandle(), info, &runtimeMessenger);
    if (XR_FAILED(r)) return r;
  }
  *messenger = li->messengers().Add(*info, runtimeMessenger);
  InstanceRegistry::Get().AddMessenger(*messenger, li);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL TerminatorDestroyDebugUtilsMessengerEXT(XrDebugUtilsMessengerEXT messenger) {
  LoaderInstance* li = InstanceRegistry::Get().FindMessenger(messenger);
  if (li == nullptr) return XR_ERROR_HANDLE_INVALID;
  XrDebugUtilsMessengerEXT runtimeMessenger = XR_NULL_HANDLE;
  if (!li->messengers().Remove(messenger, &runtimeMessenger)) return XR_ERROR_HANDLE_INVALID;
  InstanceRegistry::Get().ForgetMessenger(messenger);
  if (runtimeMessenger != XR_NULL_HANDLE) {
    auto destroy = RuntimeCommand<PFN_xrDestroyDebugUtilsMessengerEXT>(li, "xrDestroyDebugUtilsMessengerEXT");
    if (destroy != nullptr) return destroy(runtimeMessenger);
  }
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL TerminatorSubmitDebugUtilsMessageEXT(XrInstance instance, XrDebugUtilsMessageSeverityFlagsEXT severity,
                                                                   XrDebugUtilsMessageTypeFlagsEXT types,
                                                                   const XrDebugUtilsMessengerCallbackDataEXT* data) {
  LoaderInstance* li = InstanceForRuntimeHandle(instance);
  if (li == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (data == nullptr || data->type != XR_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT) return XR_ERROR_VALIDATION_FAILURE;
  if (li->runtimeHasDebugUtils()) {
    // The runtime holds a messenger for each of the application's: it delivers.
    auto submit = RuntimeCommand<PFN_xrSubmitDebugUtilsMessageEXT>(li, "xrSubmitDebugUtilsMessageEXT");
    if (submit == nullptr) return XR_ERROR_FUNCTION_UNSUPPORTED;
    return submit(li->runtimeHandle(), severity, types, data);
  }
  li->messengers().Deliver(severity, types, *data);
  return XR_SUCCESS;
}

// Without the runtime's support the loader keeps no object names or labels: these succeed.
XRAPI_ATTR XrResult XRAPI_CALL TerminatorSetDebugUtilsObjectNameEXT(XrInstance instance, const XrDebugUtilsObjectNameInfoEXT* info) {
  if (InstanceForRuntimeHandle(instance) == nullptr) return XR_ERROR_HANDLE_INVALID;
  return info == nullptr ? XR_ERROR_VALIDATION_FAILURE : XR_SUCCESS;
}
XRAPI_ATTR XrResult XRAPI_CALL TerminatorSessionBeginDebugUtilsLabelRegionEXT(XrSession, const XrDebugUtilsLabelEXT* label) {
  return label == nullptr ? XR_ERROR_VALIDATION_FAILURE : XR_SUCCESS;
}
XRAPI_ATTR XrResult XRAPI_CALL TerminatorSessionEndDebugUtilsLabelRegionEXT(XrSession) { return XR_SUCCESS; }
XRAPI_ATTR XrResult XRAPI_CALL TerminatorSessionInsertDebugUtilsLabelEXT(XrSession, const XrDebugUtilsLabelEXT* label) {
  return label == nullptr ? XR_ERROR_VALIDATION_FAILURE : XR_SUCCESS;
}

template <typename Fn>
PFN_xrVoidFunction Void(Fn f) {
  return reinterpret_cast<PFN_xrVoidFunction>(f);
}

}  // namespace

XRAPI_ATTR XrResult XRAPI_CALL TerminatorGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *function = nullptr;
  const std::string_view n = name;
  if (n == "xrGetInstanceProcAddr") {
    *function = Void(TerminatorGetInstanceProcAddr);
    return XR_SUCCESS;
  }
  if (n == "xrCreateApiLayerInstance") {
    *function = Void(TerminatorCreateApiLayerInstance);
    return XR_SUCCESS;
  }
  LoaderInstance* li = InstanceForRuntimeHandle(instance);
  if (li == nullptr) return XR_ERROR_HANDLE_INVALID;
  // XR_EXT_debug_utils is the loader's own; messengers go through it either way. Like any
  // extension's, its functions exist only when the application enabled it.
  const gen::XrCommandInfo* command = gen::findXrCommand(n);
  if (command != nullptr && std::string_view(command->requiredBy) == "XR_EXT_debug_utils" && !li->debugUtilsEnabled()) {
    return XR_ERROR_FUNCTION_UNSUPPORTED;
  }
  if (n == "xrCreateDebugUtilsMessengerEXT") *function = Void(TerminatorCreateDebugUtilsMessengerEXT);
  if (n == "xrDestroyDebugUtilsMessengerEXT") *function = Void(TerminatorDestroyDebugUtilsMessengerEXT);
  if (n == "xrSubmitDebugUtilsMessageEXT") *function = Void(TerminatorSubmitDebugUtilsMessageEXT);
  if (!li->runtimeHasDebugUtils()) {
    if (n == "xrSetDebugUtilsObjectNameEXT") *function = Void(TerminatorSetDebugUtilsObjectNameEXT);
    if (n == "xrSessionBeginDebugUtilsLabelRegionEXT") *function = Void(TerminatorSessionBeginDebugUtilsLabelRegionEXT);
    if (n == "xrSessionEndDebugUtilsLabelRegionEXT") *function = Void(TerminatorSessionEndDebugUtilsLabelRegionEXT);
    if (n == "xrSessionInsertDebugUtilsLabelEXT") *function = Void(TerminatorSessionInsertDebugUtilsLabelEXT);
  }
  if (*function != nullptr) return XR_SUCCESS;
  return li->runtimeGetInstanceProcAddr()(instance, name, function);
}

XRAPI_ATTR XrResult XRAPI_CALL TerminatorCreateApiLayerInstance(const XrInstanceCreateInfo* info, const XrApiLayerCreateInfo* apiLayerInfo,
                                                                XrInstance* instance) {
  if (apiLayerInfo == nullptr || apiLayerInfo->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO ||
      apiLayerInfo->structVersion != XR_API_LAYER_CREATE_INFO_STRUCT_VERSION || apiLayerInfo->structSize != sizeof(XrApiLayerCreateInfo) ||
      apiLayerInfo->loaderInstance == nullptr) {
    Log(LogLevel::Error, "openxr.chain", "the layer nearest the runtime passed an invalid XrApiLayerCreateInfo to the loader");
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto* li = static_cast<LoaderInstance*>(apiLayerInfo->loaderInstance);
  return li->CreateRuntimeInstance(info, instance);
}

}  // namespace kl::openxr
