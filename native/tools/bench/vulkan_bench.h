// Native measurements of Vulkan per-call dispatch cost (`khronos-loader bench vulkan`).
//
// One timing loop for any Vulkan loader: this package's (its exported functions, working from the
// plan JavaScript published with publishVulkanPlan) or another loader library given its path
// (libvulkan.so.1, dlopened; the caller runs that in a child process so VK_DRIVER_FILES,
// VK_LAYER_PATH and VK_INSTANCE_LAYERS can be set for it alone). Setup goes through the loader's
// exported functions; the timed command is called through the export ("trampoline") or through
// the pointer vkGetDeviceProcAddr returned ("pointer").
#pragma once

#include <napi.h>

namespace kl::napi {

// new VulkanBenchScenario({ command: 'vkGetDeviceQueue' | 'vkCmdPushConstants', loaderLibrary?: string }):
//   vkCreateInstance (API 1.1, no names: the environment or the published plan chooses the
//   layers), the first physical device, vkCreateDevice with one queue of family 0; for
//   vkCmdPushConstants also a pipeline layout with a 16-byte compute push-constant range, a
//   command pool and a primary command buffer in the recording state.
//   measure(mode: 'trampoline' | 'pointer', iterations, repeats): { wallNs: number[], cpuNs: number[] }
//     (the command buffer is reset and begun again before each timed run, outside the timing).
//   For 'vkAcquireNextImageKHR+vkQueuePresentKHR', 'vkAcquireNextImageKHR' and 'vkQueuePresentKHR'
//   (display: an X server, ":<n>", required): VK_KHR_surface and VK_KHR_xcb_surface on the
//   instance, an XCB window, its surface, VK_KHR_swapchain on the device and a swapchain in
//   IMMEDIATE (else MAILBOX) present mode, each image once moved to PRESENT_SRC_KHR; a timed frame
//   acquires with a fence, waits for and resets it, and presents the image; the pair is timed
//   whole, a single command call by call. presentMode: 'IMMEDIATE' | 'MAILBOX' ('' otherwise).
//   pointerOrigin: { file, offset } of the pointer vkGetDeviceProcAddr returned, or null.
//   deviceName: the physical device's name.  destroy(): tears everything down.
Napi::Function DefineVulkanBenchScenario(Napi::Env env);

// vulkanBenchCommands(): the commands VulkanBenchScenario can time.
Napi::Value VulkanBenchCommands(const Napi::CallbackInfo& info);

}  // namespace kl::napi
