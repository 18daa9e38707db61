// The Vulkan side's one error type: a failed step (negotiation, chain, creation) with the
// VkResult to report and a readable message. The N-API layer turns it into a VulkanError.
#pragma once

#include <stdexcept>
#include <string>

#include "generated/vulkan_commands.h"
#include "generated/vulkan_types.h"

namespace kl::vulkan {

namespace gen = khronos_loader::generated;

class VkError : public std::runtime_error {
 public:
  VkError(VkResult result, const std::string& message) : std::runtime_error(message), result_(result) {}
  VkResult result() const noexcept { return result_; }

 private:
  VkResult result_;
};

// "1.3.239" from a VK_MAKE_API_VERSION value (variant ignored).
inline std::string ApiVersionString(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

}  // namespace kl::vulkan
