// Module initialisation. Everything an environment (main thread or worker) owns lives in its
// KhronosLoaderAddon instance, so several environments never share JavaScript state.
#include <napi.h>

#include "common/dynamic_library.h"
#include "common/log.h"
#include "addon/errors.h"
#include "addon/library.h"
#include "addon/log_bridge.h"
#include "openxr/addon/openxr.h"
#include "openxr/addon/openxr_api.h"
#include "openxr/addon/openxr_commands.h"
#include "vulkan/addon/vulkan.h"
#include "vulkan/addon/vulkan_compute.h"
#include "vulkan/addon/vulkan_command_stream.h"
#include "vulkan/addon/vulkan_commands.h"
#include "vulkan/addon/vulkan_layer_introspection.h"
#include "addon/windows_registry.h"

namespace kl::napi {

class KhronosLoaderAddon : public Napi::Addon<KhronosLoaderAddon> {
 public:
  KhronosLoaderAddon(Napi::Env env, Napi::Object exports) {
    DefineAddon(exports, {
                             InstanceMethod<&KhronosLoaderAddon::SetLogHandler>("setLogHandler"),
                             InstanceMethod<&KhronosLoaderAddon::FlushLog>("flushLog"),
                             InstanceMethod<&KhronosLoaderAddon::OpenLibraryCount>("openLibraryCount"),
                         });
    exports.Set("NativeLibrary", NativeLibrary::Define(env));
    exports.Set("OpenXrInstance", OpenXrInstance::Define(env));
    exports.Set("OpenXrCommands", xr::OpenXrCommands::Define(env));  // the generated bindings
    exports.Set("openxrRuntimeExtensions", Napi::Function::New<OpenXrRuntimeExtensions>(env, "openxrRuntimeExtensions"));
    exports.Set("openxrGetInstanceProcAddr", Napi::Function::New<OpenXrGetInstanceProcAddr>(env, "openxrGetInstanceProcAddr"));
    exports.Set("openxrPublishPlan", Napi::Function::New<OpenXrPublishPlan>(env, "openxrPublishPlan"));
    exports.Set("VulkanInstance", VulkanInstance::Define(env));
    exports.Set("VulkanDevice", VulkanDevice::Define(env));
    exports.Set("VulkanCommands", vk::VulkanCommands::Define(env));  // the generated bindings
    exports.Set("vulkanInstanceExtensions", Napi::Function::New<VulkanInstanceExtensions>(env, "vulkanInstanceExtensions"));
    exports.Set("vulkanPreInstance", Napi::Function::New<VulkanPreInstance>(env, "vulkanPreInstance"));
    exports.Set("vulkanPublishPlan", Napi::Function::New<VulkanPublishPlan>(env, "vulkanPublishPlan"));
    exports.Set("vulkanProcessLoader", Napi::Function::New<VulkanProcessLoader>(env, "vulkanProcessLoader"));
    exports.Set("vulkanProvideProcessLoader", Napi::Function::New<VulkanProvideProcessLoader>(env, "vulkanProvideProcessLoader"));
    exports.Set("vulkanGetInstanceProcAddr", Napi::Function::New<VulkanGetInstanceProcAddr>(env, "vulkanGetInstanceProcAddr"));
    exports.Set("vulkanIntrospectLayerLibrary", Napi::Function::New<VulkanIntrospectLayerLibrary>(env, "vulkanIntrospectLayerLibrary"));
    exports.Set("vulkanCompute", VulkanComputeFunctions(env));
    exports.Set("vulkanCommandStream", VulkanCommandStreamFunctions(env));  // encoded command buffers (docs/usage.md, "CommandEncoder")
    xr::RegisterOpenXrApi(env, exports);  // sessions, spaces, actions, systems, events (the typed API)
    RegisterWindowsRegistry(env, exports);  // windowsRegistryReadKey, windowsHighIntegrity (Windows only)
    exports.Set("napiVersion", Napi::Number::New(env, NAPI_VERSION));
  }

 private:
  Napi::Value SetLogHandler(const Napi::CallbackInfo& info) {
    log_bridge_.SetHandler(info.Env(), info.Length() > 0 ? info[0] : info.Env().Undefined());
    return info.Env().Undefined();
  }

  Napi::Value FlushLog(const Napi::CallbackInfo& info) { return log_bridge_.Flush(info.Env()); }

  Napi::Value OpenLibraryCount(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), static_cast<double>(kl::OpenLibraryCount()));
  }

  LogBridge log_bridge_;
};

}  // namespace kl::napi

using KhronosLoaderAddon = kl::napi::KhronosLoaderAddon;
NODE_API_ADDON(KhronosLoaderAddon)
