// The typed Vulkan API's native functions (physical-device queries, buffers and memory, shaders,
// descriptors, pipelines, command buffers, fences, semaphores, submission): `vulkanCompute`.
#pragma once

#include <napi.h>

namespace kl::napi {

Napi::Object VulkanComputeFunctions(Napi::Env env);

}  // namespace kl::napi
