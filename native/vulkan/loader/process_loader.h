// The process-wide Vulkan loader library (native/bundled/vulkan_process_loader): which libvulkan.so.1 the
// process holds, and loading ours so that a runtime dlopened afterwards (Monado, which links against
// libvulkan.so.1 and calls that library's vkGetInstanceProcAddr with the application's VkInstance)
// reaches this package's loader instead of the Khronos one.
#pragma once

#include <string>

#include "vulkan/loader/vk_error.h"

namespace kl::vulkan {

struct ProcessVulkanLoader {
  enum class Kind { None, ThisPackage, Other };
  Kind kind = Kind::None;
  std::string path;  // the loaded libvulkan.so.1's file (empty for None)
};

// A refusal to provide the process loader; `library` is the object in the way (empty when none).
class ProcessLoaderRefused : public VkError {
 public:
  ProcessLoaderRefused(std::string library, const std::string& message)
      : VkError(VK_ERROR_INITIALIZATION_FAILED, message), library_(std::move(library)) {}
  const std::string& library() const noexcept { return library_; }

 private:
  std::string library_;
};

// What dlopen("libvulkan.so.1", RTLD_NOLOAD) finds in the process now (glibc matches a loaded
// object's SONAME as well as its file name).
ProcessVulkanLoader InspectProcessVulkanLoader();

// Loads `libraryPath` (RTLD_NOW | RTLD_LOCAL, for the rest of the process) and binds it to the
// addon's exported functions; a no-op when it is already this process's libvulkan.so.1. Throws
// ProcessLoaderRefused (VK_ERROR_INITIALIZATION_FAILED) naming the library when another libvulkan.so.1 is
// loaded, when another library's vkGetInstanceProcAddr is in the global scope (it would shadow
// ours), or when glibc does not then answer libvulkan.so.1 with ours.
ProcessVulkanLoader ProvideProcessVulkanLoader(const std::string& libraryPath);

}  // namespace kl::vulkan
