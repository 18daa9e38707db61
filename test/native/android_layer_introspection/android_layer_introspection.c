/* VK-LD-2: a layer library as Android's loader sees it: no manifest, only the introspection
 * functions vkEnumerateInstanceLayerProperties and vkEnumerateInstanceExtensionProperties(layerName).
 * It describes two layers; the first has two instance extensions. Built a second time with
 * KL_WITHOUT_EXTENSION_FUNCTION, it lacks vkEnumerateInstanceExtensionProperties. */
#include <stdint.h>
#include <string.h>

#include "generated/vulkan_types.h"

#define KL_EXPORT __attribute__((visibility("default")))

static const VkLayerProperties kLayers[] = {
    {"VK_LAYER_KLTEST_android_a", VK_MAKE_API_VERSION(0, 1, 3, 250), 7, "KL test Android layer A (introspection only)"},
    {"VK_LAYER_KLTEST_android_b", VK_MAKE_API_VERSION(0, 1, 1, 0), 2, "KL test Android layer B"},
};

/* The two-call idiom: a NULL array asks for the count; a short array gets VK_INCOMPLETE. */
static VkResult copy_out(const void* items, uint32_t available, size_t size, uint32_t* count, void* out) {
  if (out == NULL) {
    *count = available;
    return VK_SUCCESS;
  }
  const uint32_t n = *count < available ? *count : available;
  memcpy(out, items, (size_t)n * size);
  *count = n;
  return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

KL_EXPORT VkResult vkEnumerateInstanceLayerProperties(uint32_t* pPropertyCount, VkLayerProperties* pProperties) {
  return copy_out(kLayers, 2, sizeof(VkLayerProperties), pPropertyCount, pProperties);
}

#ifndef KL_WITHOUT_EXTENSION_FUNCTION
static const VkExtensionProperties kExtensionsOfA[] = {
    {"VK_EXT_kltest_android_one", 3},
    {"VK_EXT_kltest_android_two", 1},
};

KL_EXPORT VkResult vkEnumerateInstanceExtensionProperties(const char* pLayerName, uint32_t* pPropertyCount, VkExtensionProperties* pProperties) {
  if (pLayerName == NULL) return copy_out(NULL, 0, sizeof(VkExtensionProperties), pPropertyCount, pProperties);
  if (strcmp(pLayerName, kLayers[0].layerName) == 0) return copy_out(kExtensionsOfA, 2, sizeof(VkExtensionProperties), pPropertyCount, pProperties);
  if (strcmp(pLayerName, kLayers[1].layerName) == 0) return copy_out(NULL, 0, sizeof(VkExtensionProperties), pPropertyCount, pProperties);
  return VK_ERROR_LAYER_NOT_PRESENT;
}
#endif
