// The typed Vulkan API's native functions, one file per object kind, registered together by
// VulkanComputeFunctions (vulkan_compute.cc). Each takes its arguments as lib/vulkan/api passes them.
#pragma once

#include <napi.h>

namespace kl::napi::compute {

// query pools and events (compute_queries.cc)
Napi::Value CreateQueryPool(const Napi::CallbackInfo& info);
Napi::Value QueryPoolResults(const Napi::CallbackInfo& info);
Napi::Value CreateEvent(const Napi::CallbackInfo& info);
Napi::Value EventStatus(const Napi::CallbackInfo& info);
Napi::Value SetEvent(const Napi::CallbackInfo& info);
Napi::Value CmdQuery(const Napi::CallbackInfo& info);
Napi::Value CmdCopyQueryPoolResults(const Napi::CallbackInfo& info);
Napi::Value CmdEvent(const Napi::CallbackInfo& info);

// physical-device queries (compute_physical_device.cc)
Napi::Value PhysicalDeviceProperties(const Napi::CallbackInfo& info);
Napi::Value PhysicalDeviceFeatures(const Napi::CallbackInfo& info);
Napi::Value PhysicalDeviceMemoryProperties(const Napi::CallbackInfo& info);
Napi::Value PhysicalDeviceFormatProperties(const Napi::CallbackInfo& info);
Napi::Value PhysicalDeviceExtensions(const Napi::CallbackInfo& info);

// buffers and memory (compute_memory.cc)
Napi::Value CreateBuffer(const Napi::CallbackInfo& info);
Napi::Value AllocateMemory(const Napi::CallbackInfo& info);
Napi::Value BindBufferMemory(const Napi::CallbackInfo& info);
Napi::Value MapMemory(const Napi::CallbackInfo& info);
Napi::Value UnmapMemory(const Napi::CallbackInfo& info);
Napi::Value FlushMemory(const Napi::CallbackInfo& info);
Napi::Value InvalidateMemory(const Napi::CallbackInfo& info);

// shaders and pipelines (compute_pipelines.cc)
Napi::Value CreateShaderModule(const Napi::CallbackInfo& info);
Napi::Value CreatePipelineLayout(const Napi::CallbackInfo& info);
Napi::Value CreateComputePipeline(const Napi::CallbackInfo& info);

// descriptors (compute_descriptors.cc)
Napi::Value CreateDescriptorSetLayout(const Napi::CallbackInfo& info);
Napi::Value CreateDescriptorPool(const Napi::CallbackInfo& info);
Napi::Value AllocateDescriptorSet(const Napi::CallbackInfo& info);
Napi::Value FreeDescriptorSet(const Napi::CallbackInfo& info);
Napi::Value UpdateDescriptorSetBuffers(const Napi::CallbackInfo& info);
Napi::Value UpdateDescriptorSetImages(const Napi::CallbackInfo& info);

// command pools and buffers (compute_command_buffers.cc)
Napi::Value CreateCommandPool(const Napi::CallbackInfo& info);
Napi::Value AllocateCommandBuffer(const Napi::CallbackInfo& info);
Napi::Value FreeCommandBuffer(const Napi::CallbackInfo& info);
Napi::Value BeginCommandBuffer(const Napi::CallbackInfo& info);
Napi::Value EndCommandBuffer(const Napi::CallbackInfo& info);
Napi::Value ResetCommandBuffer(const Napi::CallbackInfo& info);
Napi::Value CmdCopyBuffer(const Napi::CallbackInfo& info);

// images (compute_images.cc)
Napi::Value CreateImageView(const Napi::CallbackInfo& info);
Napi::Value CmdImageBarrier(const Napi::CallbackInfo& info);
Napi::Value CmdClearColorImage(const Napi::CallbackInfo& info);
Napi::Value CmdClearDepthStencilImage(const Napi::CallbackInfo& info);

// graphics objects (graphics_objects.cc)
Napi::Value CreateImage(const Napi::CallbackInfo& info);
Napi::Value BindImageMemory(const Napi::CallbackInfo& info);
Napi::Value CreateImageViewOf(const Napi::CallbackInfo& info);
Napi::Value CreateSampler(const Napi::CallbackInfo& info);
Napi::Value CreateRenderPass(const Napi::CallbackInfo& info);
Napi::Value CreateFramebuffer(const Napi::CallbackInfo& info);
Napi::Value CreateGraphicsPipeline(const Napi::CallbackInfo& info);

// graphics recording that takes structures (graphics_commands.cc)
Napi::Value CmdBeginRendering(const Napi::CallbackInfo& info);
Napi::Value CmdBeginRenderPass(const Napi::CallbackInfo& info);
Napi::Value CmdCopyBufferImage(const Napi::CallbackInfo& info);

// synchronisation and submission (compute_sync.cc)
Napi::Value CreateFence(const Napi::CallbackInfo& info);
Napi::Value FenceStatus(const Napi::CallbackInfo& info);
Napi::Value ResetFence(const Napi::CallbackInfo& info);
Napi::Value WaitFence(const Napi::CallbackInfo& info);
Napi::Value CreateSemaphore(const Napi::CallbackInfo& info);
Napi::Value QueueSubmit(const Napi::CallbackInfo& info);
Napi::Value QueueSubmit2(const Napi::CallbackInfo& info);
Napi::Value QueueWaitIdle(const Napi::CallbackInfo& info);
Napi::Value DeviceWaitIdle(const Napi::CallbackInfo& info);

}  // namespace kl::napi::compute
