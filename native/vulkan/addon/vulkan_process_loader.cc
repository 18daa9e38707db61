// Which libvulkan.so.1 the process holds, and providing this package's (vulkanProcessLoader,
// vulkanProvideProcessLoader).
#include "vulkan/addon/vulkan.h"

#include "addon/errors.h"
#include "vulkan/loader/process_loader.h"

namespace kl::napi {

namespace {

Napi::Object ProcessVulkanLoaderToJs(Napi::Env env, const vulkan::ProcessVulkanLoader& loader) {
  Napi::Object o = Napi::Object::New(env);
  using Kind = vulkan::ProcessVulkanLoader::Kind;
  o.Set("kind", loader.kind == Kind::None ? "none" : loader.kind == Kind::ThisPackage ? "this-package" : "other");
  o.Set("path", loader.path);
  return o;
}

}  // namespace

Napi::Value VulkanProcessLoader(const Napi::CallbackInfo& info) {
  return ProcessVulkanLoaderToJs(info.Env(), vulkan::InspectProcessVulkanLoader());
}

Napi::Value VulkanProvideProcessLoader(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "vulkanProvideProcessLoader(libraryPath: string)");
  try {
    return ProcessVulkanLoaderToJs(env, vulkan::ProvideProcessVulkanLoader(info[0].As<Napi::String>().Utf8Value()));
  } catch (const vulkan::ProcessLoaderRefused& e) {
    Napi::Error error = VkErrorToJs(env, e.result(), e.what());
    error.Set("library", e.library());
    throw error;
  }
}

}  // namespace kl::napi
