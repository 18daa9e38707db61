// `VulkanDevice`: a LoaderDevice with the instance it needs kept alive, created through the
// chain or adopted from native code.
#include "vulkan/addon/vulkan.h"

#include <string>

#include "addon/errors.h"
#include "vulkan/addon/vulkan_arguments.h"
#include "vulkan/loader/trampolines.h"

namespace kl::napi {

namespace {

// Marks the JavaScript objects that really are VulkanDevice wrappers (napi_type_tag_object).
constexpr napi_type_tag kVulkanDeviceTag = {0x6b6c766b64657669ULL, 0x56756c6b616e4432ULL};

}  // namespace

Napi::Function VulkanDevice::Define(Napi::Env env) {
  return DefineClass(env, "VulkanDevice",
                     {
                         InstanceMethod<&VulkanDevice::GetDeviceProcAddr>("getDeviceProcAddr"),
                         InstanceMethod<&VulkanDevice::GetQueue>("getQueue"),
                         InstanceMethod<&VulkanDevice::Destroy>("destroy"),
                         InstanceAccessor<&VulkanDevice::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&VulkanDevice::Handle>("handle"),
                     });
}

VulkanDevice::VulkanDevice(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VulkanDevice>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !(info[2].IsObject() || info[2].IsBigInt())) throw ArgumentError(env, "new VulkanDevice(instance, physicalDevice, createInfo | device)");
  instance_ = VulkanInstance::LiveShared(env, info[0]);
  const auto physical = reinterpret_cast<VkPhysicalDevice>(static_cast<uintptr_t>(BigIntArgument(env, info[1], "physicalDevice")));
  if (instance_->FindPhysicalDevice(physical) == nullptr) throw ArgumentError(env, "physicalDevice is not one of this instance's physical devices");
  napi_type_tag_object(env, info.This(), &kVulkanDeviceTag);
  if (info[2].IsBigInt()) {
    // Adoption: a VkDevice native code created on this instance through the exported vkCreateDevice.
    const auto handle = reinterpret_cast<VkDevice>(static_cast<uintptr_t>(BigIntArgument(env, info[2], "device")));
    device_ = instance_->SharedDevice(handle);
    if (!device_ || device_->destroyed) throw ArgumentError(env, "the VkDevice is not a live device of this instance");
    return;
  }
  DeviceCreateInfoHolder holder;
  ReadDeviceCreateInfo(env, info[2].As<Napi::Object>(), holder);
  VkDevice device = nullptr;
  const VkResult res = vkCreateDevice(physical, &holder.create, nullptr, &device);
  if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkCreateDevice failed (see the log for the loader's reason)");
  device_ = instance_->SharedDevice(device);
}

VulkanDevice::Shared VulkanDevice::LiveShared(Napi::Env env, Napi::Value value) {
  bool tagged = false;
  if (!value.IsObject() || napi_check_object_type_tag(env, value, &kVulkanDeviceTag, &tagged) != napi_ok || !tagged) {
    throw ArgumentError(env, "expected a VulkanDevice");
  }
  VulkanDevice* wrap = Napi::ObjectWrap<VulkanDevice>::Unwrap(value.As<Napi::Object>());
  wrap->Live(env);
  return {wrap->instance_, wrap->device_};
}

vulkan::LoaderDevice& VulkanDevice::Live(Napi::Env env) const {
  if (!device_ || device_->destroyed) throw VkErrorToJs(env, VK_ERROR_VALIDATION_FAILED, "the Vulkan device (or its instance) was destroyed");
  return *device_;
}

Napi::Value VulkanDevice::GetDeviceProcAddr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "getDeviceProcAddr(name: string)");
  vulkan::LoaderDevice& d = Live(env);
  const std::string name = info[0].As<Napi::String>().Utf8Value();
  PFN_vkVoidFunction fn = vkGetDeviceProcAddr(d.handle, name.c_str());
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(fn)));
}

Napi::Value VulkanDevice::GetQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsNumber() || !info[1].IsNumber()) throw ArgumentError(env, "getQueue(family: number, index: number)");
  vulkan::LoaderDevice& d = Live(env);
  VkQueue queue = nullptr;
  vkGetDeviceQueue(d.handle, info[0].As<Napi::Number>().Uint32Value(), info[1].As<Napi::Number>().Uint32Value(), &queue);
  if (queue == nullptr) throw VkErrorToJs(env, VK_ERROR_INITIALIZATION_FAILED, "vkGetDeviceQueue gave no queue (see the log)");
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(queue)));
}

Napi::Value VulkanDevice::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  vulkan::LoaderDevice& d = Live(env);
  d.instance->DestroyDevice(&d, nullptr);
  device_.reset();
  instance_.reset();
  return env.Undefined();
}

Napi::Value VulkanDevice::IsDestroyed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), !device_ || device_->destroyed);
}

Napi::Value VulkanDevice::Handle(const Napi::CallbackInfo& info) {
  vulkan::LoaderDevice& d = Live(info.Env());
  return Napi::BigInt::New(info.Env(), static_cast<uint64_t>(reinterpret_cast<uintptr_t>(d.handle)));
}

}  // namespace kl::napi
