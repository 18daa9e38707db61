#include "tools/probes/vulkan_probe.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/dynamic_library.h"
#include "addon/arguments.h"
#include "addon/errors.h"
#include "vulkan/loader/driver.h"
#include "vulkan/loader/layer_negotiation.h"

namespace kl::napi {

namespace {

Napi::Object ArgumentObject(const Napi::CallbackInfo& info, const char* usage) {
  if (info.Length() < 1 || !info[0].IsObject()) throw ArgumentError(info.Env(), usage);
  return info[0].As<Napi::Object>();
}

Napi::Object Answer(Napi::Env env, bool ok, const char* stage, const std::string& reason) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("ok", ok);
  out.Set("stage", stage);
  out.Set("reason", reason);
  return out;
}

// Opening first tells a library that cannot be loaded apart from one that fails negotiation; the
// handle stays open, so LoadDriver / NegotiateLayer reuse it.
bool Opens(const std::string& path, std::string& reason, std::shared_ptr<DynamicLibrary>& library) {
  try {
    library = DynamicLibrary::Open(path);
    return true;
  } catch (const LibraryError& e) {
    reason = e.reason();
    return false;
  }
}

// An instance of this driver alone and its physical devices' names, destroyed again.
void AddDevices(Napi::Env env, Napi::Object out, const vulkan::NegotiatedDriver& driver) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "khronos-loader doctor", 1, nullptr, 0,
                        driver.interfaceVersion >= 5 ? driver.instanceApiVersion : VK_API_VERSION_1_0};
  VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 0, nullptr, 0, nullptr};
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult created = driver.createInstance(&create, nullptr, &instance);
  if (created != VK_SUCCESS) {
    out.Set("devicesError", "vkCreateInstance returned " + std::to_string(created));
    return;
  }
  auto gipa = driver.getInstanceProcAddr;
  auto destroy = reinterpret_cast<PFN_vkDestroyInstance>(gipa(instance, "vkDestroyInstance"));
  auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(gipa(instance, "vkEnumeratePhysicalDevices"));
  auto properties = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(gipa(instance, "vkGetPhysicalDeviceProperties"));
  if (enumerate == nullptr || properties == nullptr) {
    out.Set("devicesError", std::string("vkGetInstanceProcAddr returned NULL for ") +
                                (enumerate == nullptr ? "vkEnumeratePhysicalDevices" : "vkGetPhysicalDeviceProperties"));
  } else {
    uint32_t count = 0;
    VkResult r = enumerate(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices;
    if (r == VK_SUCCESS || r == VK_INCOMPLETE) {
      devices.resize(count);
      r = enumerate(instance, &count, devices.data());
    }
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
      out.Set("devicesError", "vkEnumeratePhysicalDevices returned " + std::to_string(r));
    } else {
      devices.resize(count);
      Napi::Array names = Napi::Array::New(env, devices.size());
      for (uint32_t i = 0; i < devices.size(); ++i) {
        VkPhysicalDeviceProperties p{};
        properties(devices[i], &p);
        // Bounded: a driver that forgets the terminator must not make us read past the array.
        names.Set(i, std::string(p.deviceName, strnlen(p.deviceName, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE)));
      }
      out.Set("devices", names);
    }
  }
  if (destroy != nullptr) destroy(instance, nullptr);
}

}  // namespace

Napi::Value VulkanProbeDriver(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object args = ArgumentObject(info, "vulkanProbeDriver({ libraryPath, manifestPath? })");
  vulkan::DriverDescription driver;
  driver.libraryPath = GetString(env, args, "libraryPath");
  driver.manifestPath = GetString(env, args, "manifestPath", "");

  std::shared_ptr<DynamicLibrary> library;
  std::string reason;
  if (!Opens(driver.libraryPath, reason, library)) return Answer(env, false, "load", reason);
  vulkan::NegotiatedDriver negotiated;
  try {
    negotiated = vulkan::LoadDriver(driver);
  } catch (const vulkan::VkError& e) {
    return Answer(env, false, "negotiate", e.what());
  }
  Napi::Object out = Answer(env, true, "negotiate", "negotiated");
  out.Set("interfaceVersion", Napi::Number::New(env, negotiated.interfaceVersion));
  out.Set("apiVersion", vulkan::ApiVersionString(negotiated.instanceApiVersion));
  AddDevices(env, out, negotiated);
  return out;
}

Napi::Value VulkanProbeLayer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object args = ArgumentObject(info, "vulkanProbeLayer({ name, libraryPath, manifestPath?, negotiateFunctionName? })");
  vulkan::LayerDescription layer;
  layer.name = GetString(env, args, "name");
  layer.libraryPath = GetString(env, args, "libraryPath");
  layer.manifestPath = GetString(env, args, "manifestPath", "");
  layer.negotiateSymbol = GetString(env, args, "negotiateFunctionName", "vkNegotiateLoaderLayerInterfaceVersion");
  layer.getInstanceProcAddrSymbol = GetString(env, args, "getInstanceProcAddrName", "vkGetInstanceProcAddr");
  layer.getDeviceProcAddrSymbol = GetString(env, args, "getDeviceProcAddrName", "vkGetDeviceProcAddr");

  std::shared_ptr<DynamicLibrary> library;
  std::string reason;
  if (!Opens(layer.libraryPath, reason, library)) return Answer(env, false, "load", reason);
  vulkan::NegotiatedLayer negotiated;
  try {
    negotiated = vulkan::NegotiateLayer(layer);
  } catch (const vulkan::VkError& e) {
    return Answer(env, false, "negotiate", e.what());
  }
  Napi::Object out = Answer(env, true, "negotiate", "negotiated");
  out.Set("interfaceVersion", Napi::Number::New(env, negotiated.interfaceVersion));
  return out;
}

}  // namespace kl::napi
