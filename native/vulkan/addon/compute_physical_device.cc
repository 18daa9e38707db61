// The typed Vulkan API's physical-device queries (argument 0: the VkPhysicalDevice the instance
// handed out): properties and limits, features, memory types and heaps, device extensions.
#include "vulkan/addon/compute_functions.h"

#include <cstring>
#include <string>
#include <vector>

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

Napi::Value PhysicalDeviceProperties(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  VkPhysicalDeviceProperties p{};
  vkGetPhysicalDeviceProperties(pd, &p);
  Napi::Object o = Napi::Object::New(env);
  o.Set("deviceName", std::string(p.deviceName));
  o.Set("vendorID", p.vendorID);
  o.Set("deviceID", p.deviceID);
  o.Set("deviceType", static_cast<uint32_t>(p.deviceType));
  o.Set("apiVersion", p.apiVersion);
  o.Set("driverVersion", p.driverVersion);
  Napi::Object l = Napi::Object::New(env);
  const VkPhysicalDeviceLimits& lim = p.limits;
  auto triple = [&](const uint32_t* v) {
    Napi::Array a = Napi::Array::New(env, 3);
    for (uint32_t i = 0; i < 3; ++i) a.Set(i, v[i]);
    return a;
  };
  l.Set("maxComputeSharedMemorySize", lim.maxComputeSharedMemorySize);
  l.Set("maxComputeWorkGroupCount", triple(lim.maxComputeWorkGroupCount));
  l.Set("maxComputeWorkGroupInvocations", lim.maxComputeWorkGroupInvocations);
  l.Set("maxComputeWorkGroupSize", triple(lim.maxComputeWorkGroupSize));
  l.Set("maxPushConstantsSize", lim.maxPushConstantsSize);
  l.Set("maxStorageBufferRange", lim.maxStorageBufferRange);
  l.Set("maxBoundDescriptorSets", lim.maxBoundDescriptorSets);
  l.Set("maxMemoryAllocationCount", lim.maxMemoryAllocationCount);
  l.Set("minStorageBufferOffsetAlignment", Napi::Number::New(env, static_cast<double>(lim.minStorageBufferOffsetAlignment)));
  l.Set("nonCoherentAtomSize", Napi::Number::New(env, static_cast<double>(lim.nonCoherentAtomSize)));
  l.Set("timestampPeriod", lim.timestampPeriod);
  Napi::Array dims = Napi::Array::New(env, 2);
  Napi::Array bounds = Napi::Array::New(env, 2);
  for (uint32_t i = 0; i < 2; ++i) {
    dims.Set(i, lim.maxViewportDimensions[i]);
    bounds.Set(i, Napi::Number::New(env, static_cast<double>(lim.viewportBoundsRange[i])));
  }
  l.Set("maxViewportDimensions", dims);
  l.Set("viewportBoundsRange", bounds);
  o.Set("limits", l);
  return o;
}

// VkPhysicalDeviceFeatures is VkBool32s only: handed over in member order (TypeScript names them).
Napi::Value PhysicalDeviceFeatures(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  VkPhysicalDeviceFeatures f{};
  vkGetPhysicalDeviceFeatures(pd, &f);
  constexpr std::size_t kCount = sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32);
  VkBool32 values[kCount];
  std::memcpy(values, &f, sizeof f);
  Napi::Array a = Napi::Array::New(env, kCount);
  for (uint32_t i = 0; i < kCount; ++i) a.Set(i, Napi::Boolean::New(env, values[i] != VK_FALSE));
  return a;
}

Napi::Value PhysicalDeviceMemoryProperties(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  VkPhysicalDeviceMemoryProperties m{};
  vkGetPhysicalDeviceMemoryProperties(pd, &m);
  Napi::Array types = Napi::Array::New(env, m.memoryTypeCount);
  for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
    Napi::Object t = Napi::Object::New(env);
    t.Set("propertyFlags", m.memoryTypes[i].propertyFlags);
    t.Set("heapIndex", m.memoryTypes[i].heapIndex);
    types.Set(i, t);
  }
  Napi::Array heaps = Napi::Array::New(env, m.memoryHeapCount);
  for (uint32_t i = 0; i < m.memoryHeapCount; ++i) {
    Napi::Object h = Napi::Object::New(env);
    h.Set("size", Napi::BigInt::New(env, static_cast<uint64_t>(m.memoryHeaps[i].size)));
    h.Set("flags", m.memoryHeaps[i].flags);
    heaps.Set(i, h);
  }
  Napi::Object o = Napi::Object::New(env);
  o.Set("memoryTypes", types);
  o.Set("memoryHeaps", heaps);
  return o;
}

// physicalDeviceFormatProperties(pd, format): vkGetPhysicalDeviceFormatProperties as
// { linearTilingFeatures, optimalTilingFeatures, bufferFeatures } (VkFormatFeatureFlags).
Napi::Value PhysicalDeviceFormatProperties(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  if (!info[1].IsNumber()) throw ArgumentError(env, "format must be a number");
  const auto format = static_cast<VkFormat>(info[1].As<Napi::Number>().Int32Value());
  VkFormatProperties p{};
  vkGetPhysicalDeviceFormatProperties(pd, format, &p);
  Napi::Object o = Napi::Object::New(env);
  o.Set("linearTilingFeatures", p.linearTilingFeatures);
  o.Set("optimalTilingFeatures", p.optimalTilingFeatures);
  o.Set("bufferFeatures", p.bufferFeatures);
  return o;
}

Napi::Value PhysicalDeviceExtensions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  uint32_t count = 0;
  Check(env, vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> props(count);
  VkResult res = vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, props.data());
  if (res < 0) Check(env, res, "vkEnumerateDeviceExtensionProperties");
  Napi::Array a = Napi::Array::New(env, count);
  for (uint32_t i = 0; i < count; ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("extensionName", std::string(props[i].extensionName));
    e.Set("specVersion", props[i].specVersion);
    a.Set(i, e);
  }
  return a;
}

}  // namespace kl::napi::compute
