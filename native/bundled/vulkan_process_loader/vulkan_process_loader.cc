// libkhronos_vulkan_process_loader.so (SONAME libvulkan.so.1): the Vulkan loader ABI for a whole
// process, forwarding to this package's loader (the addon's exported functions, which use the plan
// the application published). The addon loads it and binds it (kBindSymbol) before a runtime that
// links against libvulkan.so.1 is dlopened; glibc then satisfies that runtime's DT_NEEDED with this
// already-loaded object, and the runtime's vkGetInstanceProcAddr is this package's. The addon's
// vkGetInstanceProcAddr answers NULL (and logs) for an instance it does not know; nothing here can
// reach the Khronos loader's abort for unknown handles.
#include <atomic>
#include <cstdio>
#include <type_traits>

#include "vulkan/loader/process_loader_abi.h"

#define KL_PROCESS_LOADER_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using kl::vulkan::process_loader::Exports;

// The one piece of state: the addon's table, set once by the bind call.
std::atomic<const Exports*> boundExports{nullptr};

// A call before the addon bound the library: only possible for a program that loaded this file
// itself. Vulkan's "not initialised" answer where there is a result, nothing otherwise.
template <typename Ret>
Ret Unbound(const char* name) {
  std::fprintf(stderr, "khronos-loader: %s called in %s before the addon bound it (load it through the package: provideProcessVulkanLoader)\n",
               name, kl::vulkan::process_loader::kLibraryFileName);
  if constexpr (std::is_same_v<Ret, VkResult>) {
    return VK_ERROR_INITIALIZATION_FAILED;
  } else if constexpr (!std::is_void_v<Ret>) {
    return Ret{};
  }
}

}  // namespace

KL_PROCESS_LOADER_EXPORT int khronos_loader_vulkan_process_loader_bind(const Exports* exports) {
  if (exports == nullptr || exports->size != sizeof(Exports)) return -1;
  const Exports* expected = nullptr;
  if (boundExports.compare_exchange_strong(expected, exports)) return 0;
  return expected == exports ? 0 : -2;
}

#define KL_PROCESS_LOADER_FORWARD(name, member, ret, params, args)      \
  KL_PROCESS_LOADER_EXPORT ret VKAPI_CALL name params {                 \
    const Exports* exports = boundExports.load(std::memory_order_acquire); \
    if (exports == nullptr) [[unlikely]] return Unbound<ret>(#name);    \
    return exports->name args;                                          \
  }
KL_VK_CORE_GLOBAL_COMMAND_SIGNATURES(KL_PROCESS_LOADER_FORWARD)
KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_PROCESS_LOADER_FORWARD)
KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_PROCESS_LOADER_FORWARD)
#undef KL_PROCESS_LOADER_FORWARD
