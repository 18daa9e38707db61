// Device extensions as the loader answers and checks them (Vulkan loader interface, "Layer
// Manifest File Format": device_extensions; Vulkan spec, vkEnumerateDeviceExtensionProperties and
// vkCreateDevice, VK_ERROR_EXTENSION_NOT_PRESENT), the way the Khronos loader does:
// - vkEnumerateDeviceExtensionProperties with a layer's name, reaching the bottom of the chain
//   (the layer did not answer for itself), gets that layer's manifest list;
// - without a name, the driver's list followed by the device extensions of the implicit layers in
//   the chain, without duplicates;
// - vkCreateDevice refuses an extension that neither that list nor a layer in the chain offers,
//   and the driver is handed only the extensions it listed itself.
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/two_call.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"
#include "vulkan/loader/physical_device_object.h"

namespace kl::vulkan {
namespace {

// The Khronos loader's bound on a name it compares (MaxLoaderStringLength).
constexpr std::size_t kMaxName = 256;

bool WellFormed(const char* name) noexcept {
  return name != nullptr && ::strnlen(name, kMaxName) < kMaxName;
}

bool Listed(const std::vector<VkExtensionProperties>& list, std::string_view name) noexcept {
  return std::any_of(list.begin(), list.end(), [&](const VkExtensionProperties& e) { return name == e.extensionName; });
}

// The usual two-call answer from a list the loader holds.
VkResult CopyOut(const std::vector<VkExtensionProperties>& list, uint32_t* count, VkExtensionProperties* properties) {
  const auto total = static_cast<uint32_t>(list.size());
  if (properties == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t copied = std::min(*count, total);
  std::copy_n(list.begin(), copied, properties);
  *count = copied;
  return copied < total ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace

const std::vector<VkExtensionProperties>* LoaderInstance::LayerDeviceExtensions(std::string_view layerName) const {
  for (const auto& [name, list] : plan_.layerDeviceExtensions) {
    if (name == layerName) return &list;
  }
  return nullptr;
}

VkResult LoaderInstance::TerminatorEnumerateDeviceExtensions(const PhysicalDeviceObject& pd, const char* layerName, uint32_t* count,
                                                             VkExtensionProperties* properties) const {
  if (count == nullptr) return VK_INCOMPLETE;  // as the Khronos loader answers a null count
  if (layerName != nullptr && layerName[0] != '\0') {
    if (!WellFormed(layerName)) {
      Report(LogLevel::Error, "vkEnumerateDeviceExtensionProperties: pLayerName is too long or badly formed");
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    static const std::vector<VkExtensionProperties> none;
    const auto* list = LayerDeviceExtensions(layerName);
    return CopyOut(list != nullptr ? *list : none, count, properties);
  }
  const auto enumerate = pd.driver->table.EnumerateDeviceExtensionProperties;
  if (enumerate == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::vector<VkExtensionProperties> all;
  const VkResult res = EnumerateTwoCall(all, VkExtensionProperties{}, VK_INCOMPLETE,
                                        [&](uint32_t, uint32_t* n, VkExtensionProperties* p) { return enumerate(pd.next, nullptr, n, p); });
  if (res != VK_SUCCESS) return res;
  for (const auto& layer : layers_) {
    if (!layer.description.implicit) continue;
    const auto* list = LayerDeviceExtensions(layer.description.name);
    if (list == nullptr) continue;
    for (const auto& e : *list) {
      if (!Listed(all, e.extensionName)) all.push_back(e);
    }
  }
  return CopyOut(all, count, properties);
}

VkResult LoaderInstance::CheckDeviceExtensions(const PhysicalDeviceObject& pd, const VkDeviceCreateInfo& info) const {
  if (info.enabledExtensionCount == 0 || info.ppEnabledExtensionNames == nullptr) return VK_SUCCESS;
  // The list as the application sees it: down the whole instance chain, so a layer may add to it.
  std::vector<VkExtensionProperties> offered;
  if (table_.EnumerateDeviceExtensionProperties != nullptr) {
    const VkResult res = EnumerateTwoCall(offered, VkExtensionProperties{}, VK_INCOMPLETE, [&](uint32_t, uint32_t* n, VkExtensionProperties* p) {
      return table_.EnumerateDeviceExtensionProperties(pd.next, nullptr, n, p);
    });
    if (res != VK_SUCCESS) {
      Report(LogLevel::Error, "vkCreateDevice: vkEnumerateDeviceExtensionProperties failed (" + std::to_string(res) +
                                  "); the device's extensions cannot be checked");
      return res;
    }
  }
  for (uint32_t i = 0; i < info.enabledExtensionCount; ++i) {
    const char* name = info.ppEnabledExtensionNames[i];
    if (name == nullptr) continue;
    if (!WellFormed(name)) {
      Report(LogLevel::Error, "vkCreateDevice: an entry of ppEnabledExtensionNames is too long or badly formed");
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    if (Listed(offered, name)) continue;
    const bool layerOffers = std::any_of(layers_.begin(), layers_.end(), [&](const NegotiatedLayer& l) {
      const auto* list = LayerDeviceExtensions(l.description.name);
      return list != nullptr && Listed(*list, name);
    });
    if (layerOffers) continue;
    Report(LogLevel::Error, std::string("vkCreateDevice: device extension ") + name +
                                " is offered neither by the physical device nor by a layer in the chain: VK_ERROR_EXTENSION_NOT_PRESENT");
    return VK_ERROR_EXTENSION_NOT_PRESENT;
  }
  return VK_SUCCESS;
}

std::vector<const char*> DriverDeviceExtensions(const DriverInstance& driver, VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo& info) {
  std::vector<const char*> kept;
  if (info.enabledExtensionCount == 0 || info.ppEnabledExtensionNames == nullptr) return kept;
  std::vector<VkExtensionProperties> own;
  const auto enumerate = driver.table.EnumerateDeviceExtensionProperties;
  if (enumerate != nullptr) {
    EnumerateTwoCall(own, VkExtensionProperties{}, VK_INCOMPLETE,
                     [&](uint32_t, uint32_t* n, VkExtensionProperties* p) { return enumerate(physicalDevice, nullptr, n, p); });
  }
  for (uint32_t i = 0; i < info.enabledExtensionCount; ++i) {
    const char* name = info.ppEnabledExtensionNames[i];
    if (name == nullptr) continue;
    if (Listed(own, name)) {
      kept.push_back(name);
    } else {
      Log(LogLevel::Debug, "vulkan",
          std::string("vkCreateDevice: extension ") + name + " is not offered by " + DescribeDriver(driver.driver->description) +
              " and is not passed to it (a layer provides it)");
    }
  }
  return kept;
}

}  // namespace kl::vulkan
