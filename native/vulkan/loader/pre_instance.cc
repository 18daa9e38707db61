#include "vulkan/loader/pre_instance.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>

#include "common/dynamic_library.h"
#include "common/log.h"

namespace kl::vulkan {

namespace {

// The loaded interceptors of one call, nearest the application first: (library, function).
template <typename Fn>
std::vector<std::pair<std::shared_ptr<DynamicLibrary>, Fn>> LoadInterceptors(const PreInstancePlan& plan,
                                                                            std::string PreInstanceLayer::*symbol) {
  std::vector<std::pair<std::shared_ptr<DynamicLibrary>, Fn>> out;
  for (const PreInstanceLayer& layer : plan.interceptors) {
    const std::string& name = layer.*symbol;
    if (name.empty()) continue;
    try {
      auto library = DynamicLibrary::Open(layer.libraryPath);
      auto fn = library->FindFunction<Fn>(name.c_str());
      if (fn == nullptr) {
        Log(LogLevel::Warn, "vulkan.layer", "layer " + layer.name + " (" + layer.libraryPath + ") does not export its pre-instance function " + name);
        continue;
      }
      out.emplace_back(std::move(library), fn);
    } catch (const LibraryError& e) {
      Log(LogLevel::Warn, "vulkan.layer", "layer " + layer.name + " (" + layer.libraryPath + "): cannot load the library: " + e.reason());
    }
  }
  return out;
}

template <typename Chain, typename... Args>
VkResult RunChain(VkChainType type, const std::vector<std::pair<std::shared_ptr<DynamicLibrary>, VkResult(VKAPI_PTR*)(const Chain*, Args...)>>& layers,
                  VkResult(VKAPI_PTR* terminator)(const Chain*, Args...), const void* context, Args... args) {
  // links[i] is what layer i receives: it calls links[i].pfnNextLayer(links[i].pNextLink, ...),
  // i.e. layer i+1 with its link, or (last) the loader's terminator, whose "link" is `context`.
  std::vector<Chain> links(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i) {
    links[i].header.type = type;
    links[i].header.version = VK_CURRENT_CHAIN_VERSION;
    links[i].header.size = sizeof(Chain);
    const bool last = i + 1 == layers.size();
    links[i].pfnNextLayer = last ? terminator : layers[i + 1].second;
    links[i].pNextLink = last ? static_cast<const Chain*>(context) : &links[i + 1];
  }
  if (layers.empty()) return terminator(static_cast<const Chain*>(context), args...);
  return layers[0].second(&links[0], args...);
}

// The terminators get the PreInstancePlan through the chain pointer they receive.
struct Context {
  const PreInstancePlan* plan;
};

VkResult VKAPI_CALL TerminatorVersion(const VkEnumerateInstanceVersionChain*, uint32_t* version) {
  if (version == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  *version = VK_HEADER_VERSION_COMPLETE;
  return VK_SUCCESS;
}

VkResult VKAPI_CALL TerminatorExtensions(const VkEnumerateInstanceExtensionPropertiesChain* chain, const char* layerName, uint32_t* count,
                                         VkExtensionProperties* props) {
  const PreInstancePlan& plan = *reinterpret_cast<const Context*>(chain)->plan;
  if (layerName != nullptr && layerName[0] != '\0') {
    const std::string_view name(layerName, strnlen(layerName, VK_MAX_EXTENSION_NAME_SIZE));
    const auto it = std::find_if(plan.layerExtensions.begin(), plan.layerExtensions.end(), [&](const auto& l) { return l.first == name; });
    if (it == plan.layerExtensions.end()) return VK_ERROR_LAYER_NOT_PRESENT;
    return CopyEnumerated(it->second, count, props);
  }
  std::vector<NegotiatedDriver> drivers;
  for (const auto& d : plan.instance.drivers) {
    try {
      drivers.push_back(LoadDriver(d));
      if (plan.instance.keepLibrariesMapped) KeepMapped(*drivers.back().library);
    } catch (const VkError&) {
      // logged; contributes nothing
    }
  }
  std::vector<const NegotiatedDriver*> pointers;
  for (const auto& d : drivers) pointers.push_back(&d);
  std::vector<VkExtensionProperties> all = AvailableInstanceExtensions(plan.instance, pointers);
  AppendExtensions(all, plan.implicitLayerExtensions);
  return CopyEnumerated(all, count, props);
}

VkResult VKAPI_CALL TerminatorLayers(const VkEnumerateInstanceLayerPropertiesChain* chain, uint32_t* count, VkLayerProperties* props) {
  return CopyEnumerated(reinterpret_cast<const Context*>(chain)->plan->layerProperties, count, props);
}

}  // namespace

VkResult PreInstanceEnumerateVersion(const PreInstancePlan& plan, uint32_t* version) {
  using Fn = VkResult(VKAPI_PTR*)(const VkEnumerateInstanceVersionChain*, uint32_t*);
  const auto layers = LoadInterceptors<Fn>(plan, &PreInstanceLayer::enumerateInstanceVersion);
  const Context context{&plan};
  return RunChain<VkEnumerateInstanceVersionChain, uint32_t*>(VK_CHAIN_TYPE_ENUMERATE_INSTANCE_VERSION, layers, TerminatorVersion, &context, version);
}

VkResult PreInstanceEnumerateExtensions(const PreInstancePlan& plan, const char* layerName, std::vector<VkExtensionProperties>* out) {
  using Fn = VkResult(VKAPI_PTR*)(const VkEnumerateInstanceExtensionPropertiesChain*, const char*, uint32_t*, VkExtensionProperties*);
  const auto layers = LoadInterceptors<Fn>(plan, &PreInstanceLayer::enumerateInstanceExtensionProperties);
  const Context context{&plan};
  uint32_t count = 0;
  VkResult res = RunChain<VkEnumerateInstanceExtensionPropertiesChain, const char*, uint32_t*, VkExtensionProperties*>(
      VK_CHAIN_TYPE_ENUMERATE_INSTANCE_EXTENSION_PROPERTIES, layers, TerminatorExtensions, &context, layerName, &count, nullptr);
  if (res != VK_SUCCESS) return res;
  out->resize(count);
  res = RunChain<VkEnumerateInstanceExtensionPropertiesChain, const char*, uint32_t*, VkExtensionProperties*>(
      VK_CHAIN_TYPE_ENUMERATE_INSTANCE_EXTENSION_PROPERTIES, layers, TerminatorExtensions, &context, layerName, &count, out->data());
  out->resize(count);
  return res;
}

VkResult PreInstanceEnumerateLayers(const PreInstancePlan& plan, std::vector<VkLayerProperties>* out) {
  using Fn = VkResult(VKAPI_PTR*)(const VkEnumerateInstanceLayerPropertiesChain*, uint32_t*, VkLayerProperties*);
  const auto layers = LoadInterceptors<Fn>(plan, &PreInstanceLayer::enumerateInstanceLayerProperties);
  const Context context{&plan};
  uint32_t count = 0;
  VkResult res = RunChain<VkEnumerateInstanceLayerPropertiesChain, uint32_t*, VkLayerProperties*>(
      VK_CHAIN_TYPE_ENUMERATE_INSTANCE_LAYER_PROPERTIES, layers, TerminatorLayers, &context, &count, nullptr);
  if (res != VK_SUCCESS) return res;
  out->resize(count);
  res = RunChain<VkEnumerateInstanceLayerPropertiesChain, uint32_t*, VkLayerProperties*>(VK_CHAIN_TYPE_ENUMERATE_INSTANCE_LAYER_PROPERTIES, layers,
                                                                                          TerminatorLayers, &context, &count, out->data());
  out->resize(count);
  return res;
}

}  // namespace kl::vulkan
