// The N-API surface for Vulkan: `VulkanInstance` (a LoaderInstance held directly) and
// `VulkanDevice` (a LoaderDevice with the instance it needs kept alive). Failures throw an Error
// with code 'KL_VULKAN_ERROR' and `vkResult`; wrong arguments a TypeError.
#pragma once

#include <napi.h>

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/dynamic_library.h"
#include "vulkan/loader/loader_instance.h"

namespace kl::napi {

// Messages a VK_EXT_debug_utils messenger collected (from any thread), read by JavaScript.
struct CollectedVulkanMessages {
  struct Message {
    uint32_t severity;
    uint32_t types;
    std::string messageIdName;
    std::string message;
  };
  std::mutex mutex;
  std::vector<Message> messages;
};

// vkCreateInstance / vkCreateDevice arguments as JavaScript passes them, read into structures that
// stay valid while the holder lives (filled in place: the structures point into it).
struct InstanceCreateInfoHolder {
  InstanceCreateInfoHolder() = default;
  InstanceCreateInfoHolder(const InstanceCreateInfoHolder&) = delete;
  InstanceCreateInfoHolder& operator=(const InstanceCreateInfoHolder&) = delete;
  std::string applicationName, engineName;
  std::vector<std::string> extensions;
  std::vector<const char*> extensionPtrs;
  VkApplicationInfo app{};
  VkInstanceCreateInfo create{};
  // directDrivers: the libraries opened (held by the instance through InstancePlan::retainedLibraries)
  // and the VkDirectDriverLoadingListLUNARG chained into `create` when there are any.
  std::vector<std::shared_ptr<DynamicLibrary>> directLibraries;
  std::vector<VkDirectDriverLoadingInfoLUNARG> directDrivers;
  VkDirectDriverLoadingListLUNARG directList{};
};
// { applicationName, applicationVersion?, engineName?, engineVersion?, apiVersion?, flags?, enabledExtensionNames? }
void ReadInstanceCreateInfo(Napi::Env env, Napi::Object createInfo, InstanceCreateInfoHolder& out);
// createInfo.directDrivers?: { mode: 'exclusive' | 'inclusive', libraries: [path] }, chained into out.create
// (call after ReadInstanceCreateInfo; the caller must keep out.directLibraries as long as the instance). A
// library that cannot be loaded, or lacks vk_icdGetInstanceProcAddr, throws KL_VULKAN_ERROR
// VK_ERROR_INCOMPATIBLE_DRIVER naming the file and the symbol.
void ReadDirectDrivers(Napi::Env env, Napi::Object createInfo, InstanceCreateInfoHolder& out);

struct DeviceCreateInfoHolder {
  DeviceCreateInfoHolder() = default;
  DeviceCreateInfoHolder(const DeviceCreateInfoHolder&) = delete;
  DeviceCreateInfoHolder& operator=(const DeviceCreateInfoHolder&) = delete;
  std::vector<std::string> extensions;
  std::vector<const char*> extensionPtrs;
  std::vector<std::vector<float>> priorities;
  std::vector<VkDeviceQueueCreateInfo> queues;
  // nativeFeatures: the core features (VkPhysicalDeviceFeatures, VkBool32s in declaration order)
  // and the graphics features of later versions the typed API uses, chained when asked for.
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDeviceMultiviewFeatures multiview{};
  VkPhysicalDeviceDynamicRenderingFeatures dynamicRendering{};
  VkPhysicalDeviceSynchronization2Features synchronization2{};
  VkPhysicalDeviceDynamicRenderingLocalReadFeatures dynamicRenderingLocalRead{};
  VkDeviceCreateInfo create{};
};
// { queueCreateInfos: [{ queueFamilyIndex, queuePriorities }], enabledExtensionNames?,
//   nativeFeatures?: { core: boolean[] (VkPhysicalDeviceFeatures order), multiview, dynamicRendering, synchronization2, dynamicRenderingLocalRead } }
void ReadDeviceCreateInfo(Napi::Env env, Napi::Object createInfo, DeviceCreateInfoHolder& out);

class VulkanInstance : public Napi::ObjectWrap<VulkanInstance> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new VulkanInstance(plan, createInfo), or new VulkanInstance(handle: bigint) to adopt a
  // VkInstance native code created through the exported vkCreateInstance.
  explicit VulkanInstance(const Napi::CallbackInfo& info);
  ~VulkanInstance() override;

  static std::shared_ptr<vulkan::LoaderInstance> LiveShared(Napi::Env env, Napi::Value value);

 private:
  Napi::Value EnumeratePhysicalDevices(const Napi::CallbackInfo& info);
  Napi::Value EnumeratePhysicalDeviceGroups(const Napi::CallbackInfo& info);
  Napi::Value GetInstanceProcAddr(const Napi::CallbackInfo& info);
  Napi::Value CreateDevice(const Napi::CallbackInfo& info);
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  Napi::Value LayerNames(const Napi::CallbackInfo& info);
  // A VK_EXT_debug_utils messenger through the chain that keeps every message for takeMessages().
  Napi::Value StartDebugMessenger(const Napi::CallbackInfo& info);
  Napi::Value TakeDebugMessages(const Napi::CallbackInfo& info);
  // A VK_EXT_debug_utils messenger that calls a JavaScript listener with each message: at once
  // when the message is raised on the listener's thread (inside the Vulkan call, so it is heard
  // before anything that call leads to), through a thread-safe function from other threads.
  Napi::Value AddDebugListener(const Napi::CallbackInfo& info);
  Napi::Value RemoveDebugListener(const Napi::CallbackInfo& info);
  vulkan::LoaderInstance& Live(Napi::Env env) const;
  void StopDebugMessenger();
  void DestroyListeners();

 public:
  struct JsListener {
    napi_env env = nullptr;
    std::thread::id thread;
    Napi::FunctionReference callback;
    Napi::ThreadSafeFunction tsfn;
    VkDebugUtilsMessengerEXT handle = VK_NULL_HANDLE;
    uint32_t id = 0;
    int delivering = 0;  // > 0 while the listener runs on its thread: a message it raises is queued
  };

 private:
  std::shared_ptr<vulkan::LoaderInstance> instance_;
  std::unique_ptr<CollectedVulkanMessages> collected_;
  VkDebugUtilsMessengerEXT messenger_ = nullptr;
  std::vector<std::unique_ptr<JsListener>> listeners_;
  uint32_t nextListenerId_ = 1;
};

class VulkanDevice : public Napi::ObjectWrap<VulkanDevice> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new VulkanDevice(instance, physicalDevice: bigint, { queueCreateInfos, enabledExtensionNames }),
  // or new VulkanDevice(instance, physicalDevice, device: bigint) to adopt a VkDevice native code
  // created on the instance through the exported vkCreateDevice.
  explicit VulkanDevice(const Napi::CallbackInfo& info);

  // The live device and its instance, for native objects that must keep them (an XR session
  // with a Vulkan graphics binding).
  struct Shared {
    std::shared_ptr<vulkan::LoaderInstance> instance;
    std::shared_ptr<vulkan::LoaderDevice> device;
  };
  static Shared LiveShared(Napi::Env env, Napi::Value value);

 private:
  Napi::Value GetDeviceProcAddr(const Napi::CallbackInfo& info);
  Napi::Value GetQueue(const Napi::CallbackInfo& info);
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  vulkan::LoaderDevice& Live(Napi::Env env) const;

  std::shared_ptr<vulkan::LoaderInstance> instance_;
  std::shared_ptr<vulkan::LoaderDevice> device_;
};

// vulkanGetInstanceProcAddr(instance: bigint (0n for NULL), name): the exported C function, as
// native code calls it.
Napi::Value VulkanGetInstanceProcAddr(const Napi::CallbackInfo& info);

// vulkanInstanceExtensions(plan): the instance extensions available with this plan's drivers
// (filtered as the Khronos loader filters) and the loader's own; the drivers are unloaded after.
Napi::Value VulkanInstanceExtensions(const Napi::CallbackInfo& info);

// vulkanPreInstance(plan, command): vkEnumerateInstanceVersion (number),
// vkEnumerateInstanceExtensionProperties / vkEnumerateInstanceLayerProperties (names) through the
// implicit layers' pre-instance interceptors (VK-CH-5).
Napi::Value VulkanPreInstance(const Napi::CallbackInfo& info);

// vulkanPublishPlan(plan): the snapshot the exported vkCreateInstance and vkEnumerateInstance*
// use from now on (native callers in this process).
Napi::Value VulkanPublishPlan(const Napi::CallbackInfo& info);
// vulkanProcessLoader(): which libvulkan.so.1 the process holds ({ kind: 'none' | 'this-package' |
// 'other', path }); vulkanProvideProcessLoader(libraryPath): loads and binds this package's
// (native/vulkan/loader/process_loader.h), or throws KL_VULKAN_ERROR naming the library in the way.
Napi::Value VulkanProcessLoader(const Napi::CallbackInfo& info);
Napi::Value VulkanProvideProcessLoader(const Napi::CallbackInfo& info);

Napi::Error VkErrorToJs(Napi::Env env, VkResult result, const std::string& message);

}  // namespace kl::napi
