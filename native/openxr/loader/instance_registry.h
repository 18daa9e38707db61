// The one registry of live OpenXR loader instances in the process. The JavaScript API never
// looks anything up here (each JS Instance holds its LoaderInstance); the exported C-ABI
// trampolines and the loader's terminators do:
//  - Sole(): when exactly one instance is live, an atomic pointer to it: the trampolines' fast
//    path, one load, no lookup.
//  - FindByHandle(): with several live, handle value -> instance in a hash map (O(1)). It holds
//    each instance's top-of-chain XrInstance and the child handles created through the exported
//    trampolines (xrCreateSession, xrCreateReferenceSpace, ...), forgotten by the matching
//    destroy trampolines. Handles created through pointers from xrGetInstanceProcAddr are not
//    seen here; with several instances live, pass those to the pointers, not the trampolines.
//  - Handle values are only unique per runtime: if two live instances' runtimes (or layers)
//    hand out the same value, the value is marked ambiguous and the trampolines answer
//    XR_ERROR_HANDLE_INVALID for it (and log why); the JavaScript API is not affected.
//  - FindByRuntimeInstance(): the runtime's XrInstance -> instance, for the terminators that
//    the chain calls with the runtime's handle; messengers likewise.
#pragma once

#include <atomic>
#include <cstdint>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>

#include "openxr/loader/xr_error.h"

namespace kl::openxr {

class LoaderInstance;

class InstanceRegistry {
 public:
  static InstanceRegistry& Get();

  // One load of a namespace-scope atomic: the exported trampolines' fast path.
  static LoaderInstance* Sole() noexcept { return sole_.load(std::memory_order_acquire); }

  void Add(LoaderInstance* instance, XrInstance handle);
  // Forgets the instance and every handle, runtime handle and messenger recorded for it.
  void Remove(LoaderInstance* instance);

  LoaderInstance* FindByHandle(std::uint64_t handle) const;
  // FindByHandle behind a one-entry per-thread cache (a frame loop calls with the same few
  // handles), invalidated by any removal from the registry.
  LoaderInstance* FindByHandleCached(std::uint64_t handle) const;
  void RecordHandle(std::uint64_t handle, LoaderInstance* instance);
  void ForgetHandle(std::uint64_t handle);

  void AddRuntimeInstance(XrInstance runtimeHandle, LoaderInstance* instance);
  LoaderInstance* FindByRuntimeInstance(XrInstance runtimeHandle) const;

  void AddMessenger(XrDebugUtilsMessengerEXT messenger, LoaderInstance* instance);
  LoaderInstance* FindMessenger(XrDebugUtilsMessengerEXT messenger) const;
  void ForgetMessenger(XrDebugUtilsMessengerEXT messenger);

  std::size_t LiveCount() const;

  // The instance whose xrCreateInstance is running on this thread: terminators asked with
  // XR_NULL_HANDLE during creation answer for it.
  static LoaderInstance*& ConstructingOnThisThread();

 private:
  void UpdateSole();  // under the exclusive lock
  static void Insert(std::unordered_map<std::uint64_t, LoaderInstance*>& map, std::uint64_t key, LoaderInstance* instance);

  mutable std::shared_mutex mutex_;
  std::unordered_set<LoaderInstance*> live_;
  std::unordered_map<std::uint64_t, LoaderInstance*> handles_;
  std::unordered_map<std::uint64_t, LoaderInstance*> runtimeInstances_;
  std::unordered_map<std::uint64_t, LoaderInstance*> messengers_;
  static inline constinit std::atomic<LoaderInstance*> sole_{nullptr};
  // Bumped whenever a mapping disappears or becomes ambiguous.
  std::atomic<std::uint64_t> generation_{1};
};

template <typename H>
std::uint64_t HandleValue(H handle) noexcept {
  if constexpr (std::is_pointer_v<H>) {
    return reinterpret_cast<std::uint64_t>(handle);
  } else {
    return static_cast<std::uint64_t>(handle);
  }
}

}  // namespace kl::openxr
