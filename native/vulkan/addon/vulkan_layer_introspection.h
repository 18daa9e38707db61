// VK-LD-2 (Android): a layer library describes itself through its introspection functions,
// since Android has no layer manifests. The default AndroidView (lib/core/platform/android.ts)
// calls this for every libVkLayer_*.so it finds.
#pragma once

#include <napi.h>

namespace kl::napi {

// vulkanIntrospectLayerLibrary(path): opens the library, calls its exported
// vkEnumerateInstanceLayerProperties and, per layer, vkEnumerateInstanceExtensionProperties(layerName)
// (the two-call idiom), closes it, and answers
// { layers: [{ layerName, specVersion, implementationVersion, description }],
//   extensions: { [layerName]: [{ extensionName, specVersion }] } }
// or { error, symbol? } naming the file, the symbol and the reason. Never throws for a bad library.
Napi::Value VulkanIntrospectLayerLibrary(const Napi::CallbackInfo& info);

}  // namespace kl::napi
