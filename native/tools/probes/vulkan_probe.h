// The N-API surface of `khronos-loader doctor vulkan`: load one Vulkan driver or layer library and
// negotiate with it, answering plain data instead of throwing. The doctor runs these in a child
// process (lib/tools/doctor/probe-child.ts), so a library that crashes or hangs takes only the child down.
#pragma once

#include <napi.h>

namespace kl::napi {

// vulkanProbeDriver({ libraryPath, manifestPath? }):
// { ok, stage: 'load'|'negotiate', reason, interfaceVersion?, apiVersion?, devices?: string[], devicesError? }.
// After negotiation a VkInstance is created through this driver alone and its physical devices'
// names listed; a failure there is devicesError, not a failed probe.
Napi::Value VulkanProbeDriver(const Napi::CallbackInfo& info);

// vulkanProbeLayer({ name, libraryPath, manifestPath?, negotiateFunctionName?, getInstanceProcAddrName?, getDeviceProcAddrName? }):
// { ok, stage: 'load'|'negotiate', reason, interfaceVersion? }.
Napi::Value VulkanProbeLayer(const Napi::CallbackInfo& info);

}  // namespace kl::napi
