#include "vulkan/addon/vulkan_layer_introspection.h"

#include <cstring>
#include <string>
#include <vector>

#include "common/dynamic_library.h"
#include "generated/vulkan_types.h"
#include "addon/errors.h"

namespace kl::napi {

namespace {

constexpr const char* kLayerPropertiesSymbol = "vkEnumerateInstanceLayerProperties";
constexpr const char* kExtensionPropertiesSymbol = "vkEnumerateInstanceExtensionProperties";

// A failed introspection: the symbol it concerns (empty when opening failed) and why.
struct IntrospectionFailure {
  std::string symbol;
  std::string reason;
};

// The two-call idiom: count, then fill; VK_INCOMPLETE (the list grew in between) asks again.
template <typename T, typename Call>
bool EnumerateAll(Call call, const char* symbol, std::vector<T>& out, IntrospectionFailure& failure) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    uint32_t count = 0;
    VkResult r = call(&count, nullptr);
    if (r != VK_SUCCESS) {
      failure = {symbol, "counting returned VkResult " + std::to_string(static_cast<int>(r))};
      return false;
    }
    out.assign(count, T{});
    r = call(&count, out.data());
    if (r == VK_INCOMPLETE) continue;
    if (r != VK_SUCCESS) {
      failure = {symbol, "filling returned VkResult " + std::to_string(static_cast<int>(r))};
      return false;
    }
    out.resize(count);
    return true;
  }
  failure = {symbol, "kept answering VK_INCOMPLETE"};
  return false;
}

// Fixed-size C strings from a library may lack their terminator: read at most the array.
template <std::size_t N>
std::string BoundedString(const char (&text)[N]) {
  return std::string(text, strnlen(text, N));
}

Napi::Object Failure(Napi::Env env, const std::string& path, const IntrospectionFailure& f) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("error", f.symbol.empty() ? "cannot load '" + path + "': " + f.reason : "'" + path + "' " + f.symbol + ": " + f.reason);
  if (!f.symbol.empty()) o.Set("symbol", f.symbol);
  return o;
}

}  // namespace

Napi::Value VulkanIntrospectLayerLibrary(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "vulkanIntrospectLayerLibrary(path: string)");
  const std::string path = info[0].As<Napi::String>().Utf8Value();

  std::shared_ptr<DynamicLibrary> library;
  try {
    library = DynamicLibrary::Open(path);
  } catch (const LibraryError& e) {
    return Failure(env, path, {"", e.reason()});
  }
  auto enumerateLayers = library->FindFunction<PFN_vkEnumerateInstanceLayerProperties>(kLayerPropertiesSymbol);
  if (enumerateLayers == nullptr) return Failure(env, path, {kLayerPropertiesSymbol, "the library does not export it"});
  auto enumerateExtensions = library->FindFunction<PFN_vkEnumerateInstanceExtensionProperties>(kExtensionPropertiesSymbol);
  if (enumerateExtensions == nullptr) return Failure(env, path, {kExtensionPropertiesSymbol, "the library does not export it"});

  IntrospectionFailure failure;
  std::vector<VkLayerProperties> layers;
  if (!EnumerateAll<VkLayerProperties>([&](uint32_t* n, VkLayerProperties* p) { return enumerateLayers(n, p); }, kLayerPropertiesSymbol, layers, failure)) {
    return Failure(env, path, failure);
  }

  Napi::Array jsLayers = Napi::Array::New(env, layers.size());
  Napi::Object jsExtensions = Napi::Object::New(env);
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::string name = BoundedString(layers[i].layerName);
    std::vector<VkExtensionProperties> extensions;
    if (!EnumerateAll<VkExtensionProperties>([&](uint32_t* n, VkExtensionProperties* p) { return enumerateExtensions(name.c_str(), n, p); },
                                             kExtensionPropertiesSymbol, extensions, failure)) {
      failure.reason = "for layer " + name + ": " + failure.reason;
      return Failure(env, path, failure);
    }
    Napi::Object l = Napi::Object::New(env);
    l.Set("layerName", name);
    l.Set("specVersion", Napi::Number::New(env, layers[i].specVersion));
    l.Set("implementationVersion", Napi::Number::New(env, layers[i].implementationVersion));
    l.Set("description", BoundedString(layers[i].description));
    jsLayers.Set(static_cast<uint32_t>(i), l);
    Napi::Array ext = Napi::Array::New(env, extensions.size());
    for (std::size_t e = 0; e < extensions.size(); ++e) {
      Napi::Object x = Napi::Object::New(env);
      x.Set("extensionName", BoundedString(extensions[e].extensionName));
      x.Set("specVersion", Napi::Number::New(env, extensions[e].specVersion));
      ext.Set(static_cast<uint32_t>(e), x);
    }
    jsExtensions.Set(name, ext);
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("layers", jsLayers);
  result.Set("extensions", jsExtensions);
  return result;  // `library` closes here (the last reference), after every call into it
}

}  // namespace kl::napi
