// Pre-instance functions (VK-CH-5, spec "实例前函数"): vkEnumerateInstanceExtensionProperties,
// vkEnumerateInstanceLayerProperties and vkEnumerateInstanceVersion for a plan. Implicit layers
// whose manifest names `pre_instance_functions` intercept them through the Vk...Chain
// structures, the first enabled layer outermost; the loader's own answer is the end of the chain.
// The layer libraries are loaded for the call and unloaded after it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "vulkan/loader/instance_plan.h"

namespace kl::vulkan {

struct PreInstanceLayer {
  std::string name;
  std::string libraryPath;
  // Exported symbol names; empty when the layer does not intercept that function.
  std::string enumerateInstanceExtensionProperties;
  std::string enumerateInstanceLayerProperties;
  std::string enumerateInstanceVersion;
};

struct PreInstancePlan {
  InstancePlan instance;
  std::vector<PreInstanceLayer> interceptors;  // implicit layers with pre_instance_functions, chain order
  std::vector<VkLayerProperties> layerProperties;  // what the loader itself reports
  // vkEnumerateInstanceExtensionProperties: the implicit layers' (those that are on) instance
  // extensions, appended to the drivers' and the loader's own; and every available layer's own,
  // answered for its name (any other name: VK_ERROR_LAYER_NOT_PRESENT).
  std::vector<VkExtensionProperties> implicitLayerExtensions;
  std::vector<std::pair<std::string, std::vector<VkExtensionProperties>>> layerExtensions;
};

// The answer side of Vulkan's two-call idiom: the count when `out` is NULL, else up to *count
// elements and VK_INCOMPLETE when that was not all.
template <typename T>
VkResult CopyEnumerated(const std::vector<T>& all, uint32_t* count, T* out) {
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (out == nullptr) {
    *count = static_cast<uint32_t>(all.size());
    return VK_SUCCESS;
  }
  const uint32_t n = *count < all.size() ? *count : static_cast<uint32_t>(all.size());
  for (uint32_t i = 0; i < n; ++i) out[i] = all[i];
  *count = n;
  return n < all.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

// Each returns the VkResult of the top of the chain and fills `out`.
VkResult PreInstanceEnumerateVersion(const PreInstancePlan& plan, uint32_t* version);
// layerName: NULL (or empty) for the instance's list, else that layer's own.
VkResult PreInstanceEnumerateExtensions(const PreInstancePlan& plan, const char* layerName, std::vector<VkExtensionProperties>* out);
VkResult PreInstanceEnumerateLayers(const PreInstancePlan& plan, std::vector<VkLayerProperties>* out);

}  // namespace kl::vulkan
