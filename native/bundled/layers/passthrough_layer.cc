// XR_APILAYER_KHRONOSLOADER_passthrough: an OpenXR API layer that intercepts every command it
// knows (all of xr.xml's) and forwards it unchanged to the next entity of the chain. It is the
// measuring stick for what one layer costs per call (bench) and a known-good layer for demos.
//
// The same library serves any layer name it is negotiated under, so the benchmark can stack N
// copies of it (each copy a separate file, hence a separate dlopen handle and separate state).
//
// Per call: find this layer's next-dispatch table for the call's first handle, then one indirect
// call. With one instance alive (the usual case) the table is a single atomic load; with several,
// handles are mapped to their instance as they are created (found by type: an output parameter
// that is a pointer to a handle) and dropped when destroyed.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "common/export.h"
#include "generated/openxr_commands.h"

#define KL_LAYER_EXPORT KL_EXPORT_C

namespace {

using khronos_loader::generated::findXrCommand;
using khronos_loader::generated::getXrCommand;
using khronos_loader::generated::kXrDispatchTableSize;
using khronos_loader::generated::XrDispatchTable;

struct LayerInstance {
  XrInstance instance = XR_NULL_HANDLE;
  PFN_xrGetInstanceProcAddr nextGetInstanceProcAddr = nullptr;
  XrDispatchTable next{};
};

// The registry of this library's instances: the only mutable global state of the layer. Its
// fast-path answer, the instance when exactly one is live, is a constinit atomic so a forwarded
// call reads it with one load (no function-local static guard, no call).
constinit std::atomic<LayerInstance*> gRegistrySoleInstance{nullptr};

class InstanceRegistry {
 public:
  LayerInstance* Add(std::unique_ptr<LayerInstance> state) {
    std::unique_lock lock(mutex_);
    LayerInstance* raw = state.get();
    handles_[HandleValue(state->instance)] = raw;
    instances_.push_back(std::move(state));
    gRegistrySoleInstance.store(instances_.size() == 1 ? raw : nullptr, std::memory_order_release);
    return raw;
  }

  void Remove(LayerInstance* state) {
    std::unique_lock lock(mutex_);
    std::erase_if(handles_, [state](const auto& entry) { return entry.second == state; });
    std::erase_if(instances_, [state](const auto& owned) { return owned.get() == state; });
    gRegistrySoleInstance.store(instances_.size() == 1 ? instances_.front().get() : nullptr, std::memory_order_release);
  }

  // The instance a handle belongs to, when several are live (see FindInstance for the fast path).
  template <typename Handle>
  LayerInstance* FindByHandle(Handle handle) const {
    std::shared_lock lock(mutex_);
    auto it = handles_.find(HandleValue(handle));
    return it == handles_.end() ? nullptr : it->second;
  }

  template <typename Handle>
  void RememberChild(Handle handle, LayerInstance* owner) {
    std::unique_lock lock(mutex_);
    handles_[HandleValue(handle)] = owner;
  }

  template <typename Handle>
  void ForgetChild(Handle handle) {
    std::unique_lock lock(mutex_);
    handles_.erase(HandleValue(handle));
  }

  template <typename Handle>
  static std::uint64_t HandleValue(Handle handle) {
    if constexpr (std::is_pointer_v<Handle>) {
      return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(handle));
    } else {
      return static_cast<std::uint64_t>(handle);
    }
  }

 private:
  mutable std::shared_mutex mutex_;
  std::vector<std::unique_ptr<LayerInstance>> instances_;
  std::unordered_map<std::uint64_t, LayerInstance*> handles_;
};

InstanceRegistry& Registry() {
  static InstanceRegistry registry;
  return registry;
}

template <typename Handle>
[[gnu::noinline, gnu::cold]] LayerInstance* FindInstanceSlow(Handle handle) {
  if (LayerInstance* sole = gRegistrySoleInstance.load(std::memory_order_acquire)) return sole;
  return Registry().FindByHandle(handle);
}

// The instance a handle belongs to: with a single live instance that is the only answer.
template <typename Handle>
[[gnu::always_inline]] inline LayerInstance* FindInstance(Handle handle) {
  if (LayerInstance* sole = gRegistrySoleInstance.load(std::memory_order_acquire)) [[likely]] return sole;
  return FindInstanceSlow(handle);
}

// An XR_DEFINE_HANDLE handle type on 64-bit targets is a pointer to an incomplete struct.
template <typename T>
constexpr bool kIsHandle = std::is_pointer_v<T> && std::is_class_v<std::remove_pointer_t<T>>;

// An output handle parameter: a non-const pointer to a handle (XrSpace* space).
template <typename T>
constexpr bool kIsHandleOutput = std::is_pointer_v<T> && !std::is_const_v<std::remove_pointer_t<T>> &&
                                 kIsHandle<std::remove_pointer_t<T>>;

template <typename... Args>
struct LastOf;
template <typename Only>
struct LastOf<Only> {
  using type = Only;
};
template <typename First, typename... Rest>
struct LastOf<First, Rest...> {
  using type = typename LastOf<Rest...>::type;
};


constexpr bool DestroysChild(std::string_view command) {
  return command.starts_with("xrDestroy") && command != "xrDestroyInstance";
}

// After a successful call: a created handle joins its instance, a destroyed one leaves. Decided
// at compile time per command, so a command that does neither compiles to nothing here.
template <bool kDestroysChild, typename First, typename... Args>
inline void TrackHandles(LayerInstance* owner, First first, Args... rest) {
  if constexpr (kDestroysChild) {
    if constexpr (kIsHandle<First>) Registry().ForgetChild(first);
  } else if constexpr (sizeof...(Args) > 0) {
    using Last = typename LastOf<Args...>::type;
    if constexpr (kIsHandleOutput<Last>) {
      Last out = std::get<sizeof...(Args) - 1>(std::tuple<Args...>(rest...));
      if (out != nullptr && *out != nullptr) Registry().RememberChild(*out, owner);
    }
  }
}

// The first argument of a parenthesised argument list.
#define KL_FIRST_ARGUMENT(first, ...) first

// One forwarding function per command. xrGetInstanceProcAddr, xrCreateInstance and
// xrDestroyInstance get hand-written versions below; the loader calls xrCreateApiLayerInstance.
#define KL_FORWARD(name, member, ret, decls, args)                                                  \
  ret XRAPI_PTR Forward_##name decls {                                                             \
    LayerInstance* kl_owner = FindInstance(KL_FIRST_ARGUMENT args);                                \
    if (kl_owner == nullptr || kl_owner->next.member == nullptr) return XR_ERROR_HANDLE_INVALID;   \
    const XrResult kl_result = kl_owner->next.member args;                                         \
    if (XR_SUCCEEDED(kl_result)) TrackHandles<DestroysChild(#name)>(kl_owner, KL_UNPAREN args);    \
    return kl_result;                                                                              \
  }
#define KL_UNPAREN(...) __VA_ARGS__

// Commands whose first parameter is not a handle cannot be routed by handle: they are not
// intercepted (xrGetInstanceProcAddr hands out the next entity's function directly).
template <typename T>
constexpr bool kRoutable = kIsHandle<T>;

#define KL_DECLARE_FORWARD(name, member, ret, decls, args) KL_FORWARD(name, member, ret, decls, args)
KL_XR_COMMAND_SIGNATURES(KL_DECLARE_FORWARD)
#undef KL_DECLARE_FORWARD

struct Interception {
  const char* name;
  PFN_xrVoidFunction function;
  bool routable;
};

template <typename Fn>
struct FirstParameter;
template <typename R, typename First, typename... Rest>
struct FirstParameter<R (*)(First, Rest...)> {
  using type = First;
};
template <typename R>
struct FirstParameter<R (*)()> {
  using type = void;
};

#define KL_INTERCEPTION(name, member, ret, decls, args)                          \
  Interception{#name, reinterpret_cast<PFN_xrVoidFunction>(&Forward_##name),     \
               kRoutable<typename FirstParameter<PFN_##name>::type>},
const Interception kInterceptions[] = {KL_XR_COMMAND_SIGNATURES(KL_INTERCEPTION)};
#undef KL_INTERCEPTION
static_assert(sizeof(kInterceptions) / sizeof(kInterceptions[0]) == kXrDispatchTableSize);

XrResult XRAPI_PTR LayerGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function);

XrResult XRAPI_PTR LayerDestroyInstance(XrInstance instance) {
  LayerInstance* state = FindInstance(instance);
  if (state == nullptr || state->next.DestroyInstance == nullptr) return XR_ERROR_HANDLE_INVALID;
  const XrResult result = state->next.DestroyInstance(instance);
  Registry().Remove(state);
  return result;
}

XrResult XRAPI_PTR LayerCreateApiLayerInstance(const XrInstanceCreateInfo* info, const XrApiLayerCreateInfo* layerInfo,
                                               XrInstance* instance) {
  if (layerInfo == nullptr || layerInfo->nextInfo == nullptr || instance == nullptr) return XR_ERROR_INITIALIZATION_FAILED;
  const XrApiLayerNextInfo* mine = layerInfo->nextInfo;
  if (mine->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO ||
      mine->nextGetInstanceProcAddr == nullptr || mine->nextCreateApiLayerInstance == nullptr) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  // The next entity gets the create info with the chain advanced past this layer.
  XrApiLayerCreateInfo forwarded = *layerInfo;
  forwarded.nextInfo = mine->next;
  const XrResult result = mine->nextCreateApiLayerInstance(info, &forwarded, instance);
  if (XR_FAILED(result)) return result;

  auto state = std::make_unique<LayerInstance>();
  state->instance = *instance;
  state->nextGetInstanceProcAddr = mine->nextGetInstanceProcAddr;
  khronos_loader::generated::fillXrDispatchTable(state->next, mine->nextGetInstanceProcAddr, *instance);
  Registry().Add(std::move(state));
  return result;
}

XrResult XRAPI_PTR LayerGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  const std::string_view wanted(name);
  if (wanted == "xrGetInstanceProcAddr") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(&LayerGetInstanceProcAddr);
    return XR_SUCCESS;
  }
  LayerInstance* state = instance == XR_NULL_HANDLE ? nullptr : FindInstance(instance);
  if (state == nullptr) {
    // Before an instance exists (or for one this layer does not know) the next entity answers.
    *function = nullptr;
    return XR_ERROR_HANDLE_INVALID;
  }
  const auto* command = findXrCommand(wanted);
  PFN_xrVoidFunction next = command == nullptr ? nullptr : getXrCommand(state->next, command->index);
  if (next == nullptr) {
    // A command this layer has no table entry for (unknown to xr.xml, or not enabled): the next
    // entity decides, and calls go straight to it.
    return state->nextGetInstanceProcAddr(instance, name, function);
  }
  if (wanted == "xrDestroyInstance") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(&LayerDestroyInstance);
  } else {
    const Interception& interception = kInterceptions[command->index];
    *function = interception.routable ? interception.function : next;
  }
  return XR_SUCCESS;
}

}  // namespace

KL_LAYER_EXPORT XrResult XRAPI_CALL xrNegotiateLoaderApiLayerInterface(const XrNegotiateLoaderInfo* loaderInfo,
                                                                       const char* layerName,
                                                                       XrNegotiateApiLayerRequest* request) {
  if (loaderInfo == nullptr || request == nullptr || layerName == nullptr) return XR_ERROR_INITIALIZATION_FAILED;
  if (loaderInfo->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
      loaderInfo->structVersion != XR_LOADER_INFO_STRUCT_VERSION || loaderInfo->structSize != sizeof(XrNegotiateLoaderInfo)) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (request->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST ||
      request->structVersion != XR_API_LAYER_INFO_STRUCT_VERSION ||
      request->structSize != sizeof(XrNegotiateApiLayerRequest)) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (loaderInfo->minInterfaceVersion > XR_CURRENT_LOADER_API_LAYER_VERSION ||
      loaderInfo->maxInterfaceVersion < XR_CURRENT_LOADER_API_LAYER_VERSION) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (loaderInfo->minApiVersion > loaderInfo->maxApiVersion) return XR_ERROR_INITIALIZATION_FAILED;
  // Forwarding is version-agnostic: answer the newest version this build knows, inside the
  // loader's range.
  XrVersion api = XR_CURRENT_API_VERSION;
  if (api > loaderInfo->maxApiVersion) api = loaderInfo->maxApiVersion;
  if (api < loaderInfo->minApiVersion) api = loaderInfo->minApiVersion;
  request->layerInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION;
  request->layerApiVersion = api;
  request->getInstanceProcAddr = &LayerGetInstanceProcAddr;
  request->createApiLayerInstance = &LayerCreateApiLayerInstance;
  return XR_SUCCESS;
}
