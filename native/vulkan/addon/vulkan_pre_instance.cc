// What the Vulkan natives answer without a VulkanInstance: the instance extensions a plan offers,
// the pre-instance commands through the implicit layers, publishing the plan for native callers,
// and the exported vkGetInstanceProcAddr as native code calls it.
#include "vulkan/addon/vulkan.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "addon/errors.h"
#include "vulkan/addon/vulkan_arguments.h"
#include "vulkan/loader/pre_instance.h"
#include "vulkan/loader/published_plan.h"
#include "vulkan/loader/trampolines.h"

namespace kl::napi {

namespace {

Napi::Array ExtensionArray(Napi::Env env, const std::vector<VkExtensionProperties>& props) {
  Napi::Array a = Napi::Array::New(env, props.size());
  for (std::size_t i = 0; i < props.size(); ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("extensionName", std::string(props[i].extensionName, strnlen(props[i].extensionName, VK_MAX_EXTENSION_NAME_SIZE)));
    e.Set("specVersion", Napi::Number::New(env, props[i].specVersion));
    a.Set(static_cast<uint32_t>(i), e);
  }
  return a;
}

}  // namespace

// vulkanInstanceExtensions(plan): the drivers' instance extensions (filtered) and the loader's
// own, as { extensionName, specVersion }, without the pre-instance chain or the layers' part.
Napi::Value VulkanInstanceExtensions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const vulkan::InstancePlan plan = ReadPlan(env, info.Length() > 0 ? info[0] : env.Undefined());
  std::vector<vulkan::NegotiatedDriver> drivers;
  for (const auto& d : plan.drivers) {
    try {
      drivers.push_back(vulkan::LoadDriver(d));
    } catch (const vulkan::VkError&) {
      // logged; a driver that does not load contributes nothing
    }
  }
  std::vector<const vulkan::NegotiatedDriver*> pointers;
  for (const auto& d : drivers) pointers.push_back(&d);
  return ExtensionArray(env, vulkan::AvailableInstanceExtensions(plan, pointers));  // the drivers unload here
}

// vulkanPreInstance(plan, command): one pre-instance function through the implicit layers'
// interceptors (layers with kind 'implicit' and preInstanceFunctions), libraries unloaded after.
Napi::Value VulkanPreInstance(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsString()) throw ArgumentError(env, "vulkanPreInstance(plan, command)");
  const vulkan::PreInstancePlan pre = ReadPreInstancePlan(env, info[0]);
  const std::string command = info[1].As<Napi::String>().Utf8Value();
  if (command == "vkEnumerateInstanceVersion") {
    uint32_t version = 0;
    const VkResult res = vulkan::PreInstanceEnumerateVersion(pre, &version);
    if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumerateInstanceVersion failed down the pre-instance chain");
    return Napi::Number::New(env, version);
  }
  if (command == "vkEnumerateInstanceExtensionProperties") {
    // A third argument: the layer name (a string), else the instance's list.
    std::string layerName;
    const bool named = info.Length() > 2 && !info[2].IsUndefined() && !info[2].IsNull();
    if (named) {
      if (!info[2].IsString()) throw ArgumentError(env, "vulkanPreInstance(plan, 'vkEnumerateInstanceExtensionProperties', layerName): layerName must be a string");
      layerName = info[2].As<Napi::String>().Utf8Value();
    }
    std::vector<VkExtensionProperties> props;
    const VkResult res = vulkan::PreInstanceEnumerateExtensions(pre, named ? layerName.c_str() : nullptr, &props);
    if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumerateInstanceExtensionProperties failed down the pre-instance chain");
    return ExtensionArray(env, props);
  }
  if (command == "vkEnumerateInstanceLayerProperties") {
    std::vector<VkLayerProperties> props;
    const VkResult res = vulkan::PreInstanceEnumerateLayers(pre, &props);
    if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumerateInstanceLayerProperties failed down the pre-instance chain");
    Napi::Array a = Napi::Array::New(env, props.size());
    for (std::size_t i = 0; i < props.size(); ++i) a.Set(static_cast<uint32_t>(i), std::string(props[i].layerName));
    return a;
  }
  throw ArgumentError(env, "command must be vkEnumerateInstanceVersion, vkEnumerateInstanceExtensionProperties or vkEnumerateInstanceLayerProperties");
}

Napi::Value VulkanPublishPlan(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto plan = std::make_shared<const vulkan::PreInstancePlan>(ReadPreInstancePlan(env, info.Length() > 0 ? info[0] : env.Undefined()));
  vulkan::PublishedPlans::Get().Publish(std::move(plan));
  return env.Undefined();
}

Napi::Value VulkanGetInstanceProcAddr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsString()) throw ArgumentError(env, "vulkanGetInstanceProcAddr(instance: bigint, name: string)");
  const auto instance = reinterpret_cast<VkInstance>(static_cast<uintptr_t>(BigIntArgument(env, info[0], "instance")));
  const std::string name = info[1].As<Napi::String>().Utf8Value();
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(vkGetInstanceProcAddr(instance, name.c_str()))));
}

}  // namespace kl::napi
