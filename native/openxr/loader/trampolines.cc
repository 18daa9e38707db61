// The loader's exported C-ABI entry points: xrGetInstanceProcAddr and every core command
// (OpenXR 1.0 and 1.1). Each trampoline finds its instance's dispatch table (the registry's sole
// instance when one is live; a hash-map lookup of the handle when several are) and makes one
// indirect call to the first entity of the chain. Signatures come from the generated PFN types,
// so the list below only names each command, its parameter count (checked at compile time) and
// whether it creates or destroys a handle the registry must know.
#include <algorithm>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "common/log.h"
#include "openxr/loader/instance_registry.h"
#include "openxr/loader/loader_instance.h"
#include "openxr/loader/published_plan.h"
#include "openxr/loader/trampolines.h"

namespace kl::openxr {
namespace {

template <typename Fn>
struct Signature;
template <typename R, typename... A>
struct Signature<R(XRAPI_PTR*)(A...)> {
  static constexpr std::size_t arity = sizeof...(A);
  template <std::size_t I>
  using Arg = std::tuple_element_t<I, std::tuple<A...>>;
};

[[gnu::noinline]] LoaderInstance* LookUp(std::uint64_t handle, const char* command) {
  LoaderInstance* li = InstanceRegistry::Get().FindByHandleCached(handle);
  if (li == nullptr) {
    Log(LogLevel::Error, "openxr.dispatch",
        std::string(command) + ": handle " + std::to_string(handle) +
            " is not known to the loader's trampolines (several instances are live and it was not created through a "
            "trampoline, or it is ambiguous, or invalid)");
  }
  return li;
}

template <typename H>
inline LoaderInstance* InstanceFor(H handle, const char* command) {
  if (LoaderInstance* sole = InstanceRegistry::Sole()) [[likely]] {
    return sole;
  }
  return LookUp(HandleValue(handle), command);
}

// Several instances live (or none, or a missing command): out of line, so the fast path below
// needs no stack frame and ends in a tail jump.
template <auto Member, typename H, typename... A>
[[gnu::noinline, gnu::cold]] XrResult CallSlow(const char* command, H handle, A... args) {
  LoaderInstance* li = InstanceFor(handle, command);
  if (li == nullptr) return XR_ERROR_HANDLE_INVALID;
  const auto fn = li->table.*Member;
  if (fn == nullptr) return XR_ERROR_FUNCTION_UNSUPPORTED;
  return fn(handle, args...);
}

template <auto Member, typename H, typename... A>
inline XrResult Call(const char* command, H handle, A... args) {
  if (LoaderInstance* li = InstanceRegistry::Sole()) [[likely]] {
    if (const auto fn = li->table.*Member) [[likely]] {
      return fn(handle, args...);
    }
  }
  return CallSlow<Member>(command, handle, args...);
}

// A command whose last parameter receives a new handle: the registry learns it.
template <auto Member, typename H, typename I, typename O>
inline XrResult Create(const char* command, H parent, I info, O* out) {
  LoaderInstance* li = InstanceFor(parent, command);
  if (li == nullptr) [[unlikely]] return XR_ERROR_HANDLE_INVALID;
  const auto fn = li->table.*Member;
  if (fn == nullptr) [[unlikely]] return XR_ERROR_FUNCTION_UNSUPPORTED;
  const XrResult result = fn(parent, info, out);
  if (XR_SUCCEEDED(result) && out != nullptr) InstanceRegistry::Get().RecordHandle(HandleValue(*out), li);
  return result;
}

template <auto Member, typename H>
inline XrResult Destroy(const char* command, H handle) {
  LoaderInstance* li = InstanceFor(handle, command);
  if (li == nullptr) [[unlikely]] return XR_ERROR_HANDLE_INVALID;
  const auto fn = li->table.*Member;
  if (fn == nullptr) [[unlikely]] return XR_ERROR_FUNCTION_UNSUPPORTED;
  const XrResult result = fn(handle);
  if (XR_SUCCEEDED(result)) InstanceRegistry::Get().ForgetHandle(HandleValue(handle));
  return result;
}

}  // namespace
}  // namespace kl::openxr

#define KL_ARG(F, i) kl::openxr::Signature<F>::Arg<i>
#define KL_PARAMS_1(F) KL_ARG(F, 0) a0
#define KL_PARAMS_2(F) KL_PARAMS_1(F), KL_ARG(F, 1) a1
#define KL_PARAMS_3(F) KL_PARAMS_2(F), KL_ARG(F, 2) a2
#define KL_PARAMS_4(F) KL_PARAMS_3(F), KL_ARG(F, 3) a3
#define KL_PARAMS_5(F) KL_PARAMS_4(F), KL_ARG(F, 4) a4
#define KL_PARAMS_6(F) KL_PARAMS_5(F), KL_ARG(F, 5) a5
#define KL_ARGS_1 a0
#define KL_ARGS_2 KL_ARGS_1, a1
#define KL_ARGS_3 KL_ARGS_2, a2
#define KL_ARGS_4 KL_ARGS_3, a3
#define KL_ARGS_5 KL_ARGS_4, a4
#define KL_ARGS_6 KL_ARGS_5, a5

// Kind: Call (a handle first), Create (parent, info, out handle), Destroy (the handle).
#define KL_TRAMPOLINE(Cmd, N, Kind)                                                                         \
  KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xr##Cmd(KL_PARAMS_##N(PFN_xr##Cmd)) {                         \
    static_assert(kl::openxr::Signature<PFN_xr##Cmd>::arity == N, "parameter count of xr" #Cmd);          \
    static_assert(std::is_same_v<decltype(&xr##Cmd), PFN_xr##Cmd>, "signature of xr" #Cmd);               \
    return kl::openxr::Kind<&khronos_loader::generated::XrDispatchTable::Cmd>("xr" #Cmd, KL_ARGS_##N);    \
  }

KL_TRAMPOLINE(GetInstanceProperties, 2, Call)
KL_TRAMPOLINE(PollEvent, 2, Call)
KL_TRAMPOLINE(ResultToString, 3, Call)
KL_TRAMPOLINE(StructureTypeToString, 3, Call)
KL_TRAMPOLINE(GetSystem, 3, Call)
KL_TRAMPOLINE(GetSystemProperties, 3, Call)
KL_TRAMPOLINE(EnumerateEnvironmentBlendModes, 6, Call)
KL_TRAMPOLINE(CreateSession, 3, Create)
KL_TRAMPOLINE(DestroySession, 1, Destroy)
KL_TRAMPOLINE(EnumerateReferenceSpaces, 4, Call)
KL_TRAMPOLINE(CreateReferenceSpace, 3, Create)
KL_TRAMPOLINE(GetReferenceSpaceBoundsRect, 3, Call)
KL_TRAMPOLINE(CreateActionSpace, 3, Create)
KL_TRAMPOLINE(LocateSpace, 4, Call)
KL_TRAMPOLINE(DestroySpace, 1, Destroy)
KL_TRAMPOLINE(EnumerateViewConfigurations, 5, Call)
KL_TRAMPOLINE(GetViewConfigurationProperties, 4, Call)
KL_TRAMPOLINE(EnumerateViewConfigurationViews, 6, Call)
KL_TRAMPOLINE(EnumerateSwapchainFormats, 4, Call)
KL_TRAMPOLINE(CreateSwapchain, 3, Create)
KL_TRAMPOLINE(DestroySwapchain, 1, Destroy)
KL_TRAMPOLINE(EnumerateSwapchainImages, 4, Call)
KL_TRAMPOLINE(AcquireSwapchainImage, 3, Call)
KL_TRAMPOLINE(WaitSwapchainImage, 2, Call)
KL_TRAMPOLINE(ReleaseSwapchainImage, 2, Call)
KL_TRAMPOLINE(BeginSession, 2, Call)
KL_TRAMPOLINE(EndSession, 1, Call)
KL_TRAMPOLINE(RequestExitSession, 1, Call)
KL_TRAMPOLINE(WaitFrame, 3, Call)
KL_TRAMPOLINE(BeginFrame, 2, Call)
KL_TRAMPOLINE(EndFrame, 2, Call)
KL_TRAMPOLINE(LocateViews, 6, Call)
KL_TRAMPOLINE(StringToPath, 3, Call)
KL_TRAMPOLINE(PathToString, 5, Call)
KL_TRAMPOLINE(CreateActionSet, 3, Create)
KL_TRAMPOLINE(DestroyActionSet, 1, Destroy)
KL_TRAMPOLINE(CreateAction, 3, Create)
KL_TRAMPOLINE(DestroyAction, 1, Destroy)
KL_TRAMPOLINE(SuggestInteractionProfileBindings, 2, Call)
KL_TRAMPOLINE(AttachSessionActionSets, 2, Call)
KL_TRAMPOLINE(GetCurrentInteractionProfile, 3, Call)
KL_TRAMPOLINE(GetActionStateBoolean, 3, Call)
KL_TRAMPOLINE(GetActionStateFloat, 3, Call)
KL_TRAMPOLINE(GetActionStateVector2f, 3, Call)
KL_TRAMPOLINE(GetActionStatePose, 3, Call)
KL_TRAMPOLINE(SyncActions, 2, Call)
KL_TRAMPOLINE(EnumerateBoundSourcesForAction, 5, Call)
KL_TRAMPOLINE(GetInputSourceLocalizedName, 5, Call)
KL_TRAMPOLINE(ApplyHapticFeedback, 3, Call)
KL_TRAMPOLINE(StopHapticFeedback, 2, Call)
KL_TRAMPOLINE(LocateSpaces, 3, Call)

namespace kl::openxr {
namespace {

// XR-LI-1: xrInitializeLoaderKHR (XR_KHR_loader_init), reached through xrGetInstanceProcAddr with
// XR_NULL_HANDLE and not exported, as the current Khronos loader does on Linux. The chain is read
// as that loader reads it: the first XrLoaderInitInfoPropertiesEXT (XR_EXT_loader_init_properties)
// counts, a property without a name or value, or with an empty name, is XR_ERROR_VALIDATION_FAILURE,
// and a live instance makes it XR_ERROR_INITIALIZATION_FAILED. Linux has no platform structure, so
// nothing is forwarded to layers or the runtime (the current Khronos loader forwards only a
// platform structure such as Android's). Properties stand in for environment variables during
// discovery, which is TypeScript's: native code reaches this loader through a published plan that
// was discovered already, so properties given here cannot change it, and are refused with a log
// record that says to pass them to loader.initializeLoader() (docs/usage.md, "Loader init").
XRAPI_ATTR XrResult XRAPI_CALL InitializeLoaderKHR(const XrLoaderInitInfoBaseHeaderKHR* loaderInitInfo) {
  if (InstanceRegistry::Get().LiveCount() > 0) {
    Log(LogLevel::Error, "openxr", "xrInitializeLoaderKHR: an instance is live; destroy every instance before initializing the loader again");
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  for (auto* info = loaderInitInfo; info != nullptr; info = static_cast<const XrLoaderInitInfoBaseHeaderKHR*>(info->next)) {
    if (info->type != XR_TYPE_LOADER_INIT_INFO_PROPERTIES_EXT) continue;
    const auto* properties = reinterpret_cast<const XrLoaderInitInfoPropertiesEXT*>(info);
    if (properties->propertyValueCount > 0 && properties->propertyValues == nullptr) {
      Log(LogLevel::Error, "openxr", "xrInitializeLoaderKHR: propertyValueCount is not 0 but propertyValues is NULL");
      return XR_ERROR_VALIDATION_FAILURE;
    }
    for (uint32_t i = 0; i < properties->propertyValueCount; ++i) {
      const XrLoaderInitPropertyValueEXT& p = properties->propertyValues[i];
      if (p.name == nullptr || p.value == nullptr || p.name[0] == '\0') {
        Log(LogLevel::Error, "openxr", "xrInitializeLoaderKHR: propertyValues[" + std::to_string(i) + "] needs a non-empty name and a value");
        return XR_ERROR_VALIDATION_FAILURE;
      }
    }
    if (properties->propertyValueCount > 0) {
      Log(LogLevel::Error, "openxr",
          "xrInitializeLoaderKHR: loader properties (XR_EXT_loader_init_properties) change discovery, which the published plan "
          "has done already; pass them to loader.initializeLoader({ properties }) in JavaScript and publish the plan again");
      return XR_ERROR_FEATURE_UNSUPPORTED;
    }
    break;  // only the first such structure counts
  }
  return XR_SUCCESS;
}

}  // namespace
}  // namespace kl::openxr

// xrGetInstanceProcAddr: with XR_NULL_HANDLE only the commands that need no instance (XR-CI-10);
// with an instance, that instance's answer (LoaderInstance::GetInstanceProcAddr).
KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
  using kl::openxr::InstanceRegistry;
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *function = nullptr;
  if (instance == XR_NULL_HANDLE) {
    const std::string_view n = name;
    if (n == "xrGetInstanceProcAddr") *function = reinterpret_cast<PFN_xrVoidFunction>(xrGetInstanceProcAddr);
    if (n == "xrCreateInstance") *function = reinterpret_cast<PFN_xrVoidFunction>(xrCreateInstance);
    if (n == "xrInitializeLoaderKHR") *function = reinterpret_cast<PFN_xrVoidFunction>(kl::openxr::InitializeLoaderKHR);
    if (n == "xrEnumerateApiLayerProperties") *function = reinterpret_cast<PFN_xrVoidFunction>(xrEnumerateApiLayerProperties);
    if (n == "xrEnumerateInstanceExtensionProperties") {
      *function = reinterpret_cast<PFN_xrVoidFunction>(xrEnumerateInstanceExtensionProperties);
    }
    return *function != nullptr ? XR_SUCCESS : XR_ERROR_HANDLE_INVALID;
  }
  kl::openxr::LoaderInstance* li = InstanceRegistry::Get().FindByHandle(kl::openxr::HandleValue(instance));
  if (li == nullptr) return XR_ERROR_HANDLE_INVALID;
  return li->GetInstanceProcAddr(name, function);
}

// Destroys down the chain and unloads; the JavaScript Instance that owns the LoaderInstance sees
// it destroyed. An instance native code created through xrCreateInstance is released here.
KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrDestroyInstance(XrInstance instance) {
  kl::openxr::LoaderInstance* li = kl::openxr::InstanceRegistry::Get().FindByHandle(kl::openxr::HandleValue(instance));
  if (li == nullptr) return XR_ERROR_HANDLE_INVALID;
  const XrResult result = li->Destroy();
  kl::openxr::PublishedPlans::Get().ReleaseNativeInstance(li);
  return result;
}

// xrCreateInstance works from the plan TypeScript published (publishOpenXrPlan: discovery and
// policy happen there): the same LoaderInstance::Create as loader.createInstance, the instance
// owned by the published-plan registry until the caller's xrDestroyInstance. Without a plan it
// answers XR_ERROR_RUNTIME_UNAVAILABLE and says why.
KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrCreateInstance(const XrInstanceCreateInfo* createInfo, XrInstance* instance) {
  auto plan = kl::openxr::PublishedPlans::Get().Current();
  if (plan == nullptr) {
    kl::Log(kl::LogLevel::Error, "openxr",
            "xrCreateInstance was called through the native entry point, which has no plan: publish one first "
            "(publishOpenXrPlan in JavaScript) or create instances through the JavaScript API");
    return XR_ERROR_RUNTIME_UNAVAILABLE;
  }
  if (createInfo == nullptr || instance == nullptr || createInfo->type != XR_TYPE_INSTANCE_CREATE_INFO) {
    kl::Log(kl::LogLevel::Error, "openxr", "xrCreateInstance: createInfo and instance must be non-null and createInfo->type XR_TYPE_INSTANCE_CREATE_INFO");
    return XR_ERROR_VALIDATION_FAILURE;
  }
  // The published plan already holds the chain; a layer the application names must be in it.
  for (uint32_t i = 0; i < createInfo->enabledApiLayerCount; ++i) {
    const std::string_view name = createInfo->enabledApiLayerNames[i];
    const auto& layers = plan->instance.layers;
    if (std::none_of(layers.begin(), layers.end(), [&](const auto& l) { return l.name == name; })) {
      kl::Log(kl::LogLevel::Error, "openxr", "xrCreateInstance: API layer " + std::string(name) + " is not in the published plan");
      return XR_ERROR_API_LAYER_NOT_PRESENT;
    }
  }
  try {
    auto created = kl::openxr::LoaderInstance::Create(plan->instance, *createInfo);
    *instance = created->handle();
    kl::openxr::PublishedPlans::Get().AdoptNativeInstance(std::move(created));
    return XR_SUCCESS;
  } catch (const kl::openxr::XrError& e) {
    kl::Log(kl::LogLevel::Error, "openxr", std::string("xrCreateInstance: ") + e.what());
    return e.result();
  }
}

// Layer and extension lists come from manifests, which TypeScript reads: these answer what
// loader.publishPlan worked out when it published the plan.
namespace {
std::shared_ptr<const kl::openxr::PublishedPlan> ListsFor(const char* command) {
  auto plan = kl::openxr::PublishedPlans::Get().Current();
  if (plan == nullptr || !plan->hasLists) {
    kl::Log(kl::LogLevel::Error, "openxr",
            std::string(command) + " was called through the native entry point, which has no " + (plan == nullptr ? "plan" : "lists") +
                ": publish one with loader.publishPlan in JavaScript, or list extensions and layers through the JavaScript API");
    return nullptr;
  }
  return plan;
}

// The two-call idiom; the caller's type and next stay as they are.
template <typename T>
XrResult CopyOut(const std::vector<T>& items, XrStructureType type, uint32_t capacity, uint32_t* count, T* out) {
  if (count == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *count = static_cast<uint32_t>(items.size());
  if (capacity == 0) return XR_SUCCESS;
  if (out == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (capacity < items.size()) return XR_ERROR_SIZE_INSUFFICIENT;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (out[i].type != type) return XR_ERROR_VALIDATION_FAILURE;
    void* next = out[i].next;
    out[i] = items[i];
    out[i].next = next;
  }
  return XR_SUCCESS;
}
}  // namespace

KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrEnumerateApiLayerProperties(uint32_t capacity, uint32_t* count, XrApiLayerProperties* properties) {
  auto plan = ListsFor("xrEnumerateApiLayerProperties");
  if (plan == nullptr) return XR_ERROR_RUNTIME_UNAVAILABLE;
  return CopyOut(plan->apiLayers, XR_TYPE_API_LAYER_PROPERTIES, capacity, count, properties);
}

KL_XR_EXPORT XRAPI_ATTR XrResult XRAPI_CALL xrEnumerateInstanceExtensionProperties(const char* layerName, uint32_t capacity, uint32_t* count,
                                                                                    XrExtensionProperties* properties) {
  auto plan = ListsFor("xrEnumerateInstanceExtensionProperties");
  if (plan == nullptr) return XR_ERROR_RUNTIME_UNAVAILABLE;
  if (layerName == nullptr) return CopyOut(plan->extensions, XR_TYPE_EXTENSION_PROPERTIES, capacity, count, properties);
  for (const auto& [name, extensions] : plan->layerExtensions) {
    if (name == layerName) return CopyOut(extensions, XR_TYPE_EXTENSION_PROPERTIES, capacity, count, properties);
  }
  return XR_ERROR_API_LAYER_NOT_PRESENT;
}
