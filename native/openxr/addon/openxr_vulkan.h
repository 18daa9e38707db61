// XR_KHR_vulkan_enable2 for the JavaScript API: the Vulkan instance and device created THROUGH
// the runtime (xrCreateVulkanInstanceKHR / xrGetVulkanGraphicsDevice2KHR / xrCreateVulkanDeviceKHR
// with this addon's exported vkGetInstanceProcAddr, so they land in this package's Vulkan loader
// and JavaScript adopts them), the session's graphics binding, swapchains of VkImages
// (OpenXrSwapchain), and xrEndFrame with projection layers bound once (openxrEndFrame: the per-frame
// path: poses and fields of view read from a Float32Array the caller fills, nothing allocated).
#pragma once

#include <napi.h>

#include <memory>

#include "openxr/addon/openxr_handles.h"
#include "generated/openxr_vulkan_types.h"

namespace kl::napi::xr {

// What OpenXrSession's constructor chains into XrSessionCreateInfo.next. Filled in place (`next`
// points into it).
struct GraphicsBinding {
  GraphicsBinding() = default;
  GraphicsBinding(const GraphicsBinding&) = delete;
  GraphicsBinding& operator=(const GraphicsBinding&) = delete;
  const void* next = nullptr;
  XrGraphicsBindingVulkan2KHR vulkan{};
  std::shared_ptr<const void> keep;  // the Vulkan instance and device, for SessionCore::graphics
};

// { vulkan: { device: VulkanDevice, physicalDevice: bigint, queueFamilyIndex, queueIndex } }
void ReadGraphicsBinding(Napi::Env env, Napi::Value value, GraphicsBinding& out);

class OpenXrSwapchain : public Napi::ObjectWrap<OpenXrSwapchain> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new OpenXrSwapchain(session, { usageFlags, format, sampleCount, width, height, faceCount, arraySize, mipCount })
  explicit OpenXrSwapchain(const Napi::CallbackInfo& info);
  ~OpenXrSwapchain() override;

  const std::shared_ptr<SwapchainCore>& Live(Napi::Env env) const;
  static OpenXrSwapchain* From(Napi::Env env, Napi::Value value);

 private:
  Napi::Value Acquire(const Napi::CallbackInfo& info);
  Napi::Value Wait(const Napi::CallbackInfo& info);
  Napi::Value Release(const Napi::CallbackInfo& info);
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  Napi::Value Images(const Napi::CallbackInfo& info);
  XrResult DestroyNow();

  std::shared_ptr<SwapchainCore> core_;
  Napi::Reference<Napi::Array> images_;
};

void RegisterOpenXrVulkan(Napi::Env env, Napi::Object exports);

// openxrEndFrame(frame, displayTime?: bigint | number): xrEndFrame with the bound projection layers
// (the displayTime of the last beginFrame without one).
napi_value CallBoundEndFrame(napi_env env, napi_callback_info info);

}  // namespace kl::napi::xr
