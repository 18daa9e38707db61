// What the addon and its process-wide Vulkan loader library (native/bundled/vulkan_process_loader, file
// libkhronos_vulkan_process_loader.so, SONAME libvulkan.so.1) agree on: the addon hands the
// library a table of its exported Vulkan functions once, and every function the library exports
// calls through it. A runtime dlopened later that links against libvulkan.so.1 (Monado) is then
// given this library by glibc, so its Vulkan calls reach this package's loader.
#pragma once

#include <cstdint>

#include "generated/vulkan_commands.h"

namespace kl::vulkan::process_loader {

// The file the addon ships beside itself, and the name glibc matches DT_NEEDED entries against.
inline constexpr char kLibraryFileName[] = "libkhronos_vulkan_process_loader.so";
inline constexpr char kSoname[] = "libvulkan.so.1";

// Every core command (global, instance, device): the functions the addon exports.
struct Exports {
  std::uint32_t size;  // sizeof(Exports) as the addon that filled it was built
#define KL_VK_PROCESS_LOADER_MEMBER(name, member, ret, params, args) PFN_##name name;
  KL_VK_CORE_GLOBAL_COMMAND_SIGNATURES(KL_VK_PROCESS_LOADER_MEMBER)
  KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_VK_PROCESS_LOADER_MEMBER)
  KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_PROCESS_LOADER_MEMBER)
#undef KL_VK_PROCESS_LOADER_MEMBER
};

// extern "C" int khronos_loader_vulkan_process_loader_bind(const Exports*): 0 when bound (or
// already bound to the same table), -1 for a table of another size, -2 when already bound to
// another table (a second copy of the addon in the process). The table must outlive the process.
inline constexpr char kBindSymbol[] = "khronos_loader_vulkan_process_loader_bind";
using BindFunction = int (*)(const Exports* exports);

}  // namespace kl::vulkan::process_loader
