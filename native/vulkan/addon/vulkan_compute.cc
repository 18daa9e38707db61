// The typed Vulkan API's native half: physical-device queries, and the device-level objects
// a compute application needs, as plain functions over handles, one file per object kind
// (compute_*.cc); this file registers them (and destroys any device child). Every call goes through
// the addon's exported trampolines, so the layers in the chain see it. Handles travel as bigints;
// the TypeScript classes (lib/vulkan/api) own their lifetimes and refuse use after destroy, so
// these functions only check argument types. Recording and submission read numbers and bigints
// and create nothing on the JavaScript heap.
#include "vulkan/addon/vulkan_compute.h"

#include <string>

#include "vulkan/addon/compute_arguments.h"
#include "vulkan/addon/compute_functions.h"
#include "vulkan/addon/vulkan_record_calls.h"

namespace kl::napi {

using namespace compute;

namespace {

// destroy(device, kind, handle): the vkDestroy*/vkFree* of one device child.
Napi::Value DestroyChild(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  if (!info[1].IsString()) throw ArgumentError(env, "kind must be a string");
  const std::string kind = info[1].As<Napi::String>().Utf8Value();
  const Napi::Value h = info[2];
  if (kind == "buffer") vkDestroyBuffer(device, Handle<VkBuffer>(env, h, "handle"), nullptr);
  else if (kind == "memory") vkFreeMemory(device, Handle<VkDeviceMemory>(env, h, "handle"), nullptr);
  else if (kind == "shaderModule") vkDestroyShaderModule(device, Handle<VkShaderModule>(env, h, "handle"), nullptr);
  else if (kind == "descriptorSetLayout") vkDestroyDescriptorSetLayout(device, Handle<VkDescriptorSetLayout>(env, h, "handle"), nullptr);
  else if (kind == "descriptorPool") vkDestroyDescriptorPool(device, Handle<VkDescriptorPool>(env, h, "handle"), nullptr);
  else if (kind == "pipelineLayout") vkDestroyPipelineLayout(device, Handle<VkPipelineLayout>(env, h, "handle"), nullptr);
  else if (kind == "pipeline") vkDestroyPipeline(device, Handle<VkPipeline>(env, h, "handle"), nullptr);
  else if (kind == "commandPool") vkDestroyCommandPool(device, Handle<VkCommandPool>(env, h, "handle"), nullptr);
  else if (kind == "fence") vkDestroyFence(device, Handle<VkFence>(env, h, "handle"), nullptr);
  else if (kind == "semaphore") vkDestroySemaphore(device, Handle<VkSemaphore>(env, h, "handle"), nullptr);
  else if (kind == "imageView") vkDestroyImageView(device, Handle<VkImageView>(env, h, "handle"), nullptr);
  else if (kind == "image") vkDestroyImage(device, Handle<VkImage>(env, h, "handle"), nullptr);
  else if (kind == "sampler") vkDestroySampler(device, Handle<VkSampler>(env, h, "handle"), nullptr);
  else if (kind == "renderPass") vkDestroyRenderPass(device, Handle<VkRenderPass>(env, h, "handle"), nullptr);
  else if (kind == "framebuffer") vkDestroyFramebuffer(device, Handle<VkFramebuffer>(env, h, "handle"), nullptr);
  else if (kind == "queryPool") vkDestroyQueryPool(device, Handle<VkQueryPool>(env, h, "handle"), nullptr);
  else if (kind == "event") vkDestroyEvent(device, Handle<VkEvent>(env, h, "handle"), nullptr);
  else throw ArgumentError(env, "unknown kind " + kind);
  return env.Undefined();
}

}  // namespace

Napi::Object VulkanComputeFunctions(Napi::Env env) {
  Napi::Object o = Napi::Object::New(env);
  auto add = [&](const char* name, Napi::Value (*fn)(const Napi::CallbackInfo&)) { o.Set(name, Napi::Function::New(env, fn, name)); };
  add("physicalDeviceProperties", PhysicalDeviceProperties);
  add("physicalDeviceFeatures", PhysicalDeviceFeatures);
  add("physicalDeviceMemoryProperties", PhysicalDeviceMemoryProperties);
  add("physicalDeviceFormatProperties", PhysicalDeviceFormatProperties);
  add("physicalDeviceExtensions", PhysicalDeviceExtensions);
  add("createBuffer", CreateBuffer);
  add("allocateMemory", AllocateMemory);
  add("bindBufferMemory", BindBufferMemory);
  add("mapMemory", MapMemory);
  add("unmapMemory", UnmapMemory);
  add("flushMemory", FlushMemory);
  add("invalidateMemory", InvalidateMemory);
  add("createShaderModule", CreateShaderModule);
  add("createDescriptorSetLayout", CreateDescriptorSetLayout);
  add("createDescriptorPool", CreateDescriptorPool);
  add("allocateDescriptorSet", AllocateDescriptorSet);
  add("freeDescriptorSet", FreeDescriptorSet);
  add("updateDescriptorSetBuffers", UpdateDescriptorSetBuffers);
  add("createPipelineLayout", CreatePipelineLayout);
  add("createComputePipeline", CreateComputePipeline);
  add("createCommandPool", CreateCommandPool);
  add("allocateCommandBuffer", AllocateCommandBuffer);
  add("freeCommandBuffer", FreeCommandBuffer);
  add("beginCommandBuffer", BeginCommandBuffer);
  add("endCommandBuffer", EndCommandBuffer);
  add("resetCommandBuffer", ResetCommandBuffer);
  AddRecordCalls(env, o);  // cmdBindComputePipeline ... cmdPipelineBarrier: raw N-API
  add("cmdCopyBuffer", CmdCopyBuffer);
  add("cmdImageBarrier", CmdImageBarrier);
  add("createImageView", CreateImageView);
  add("updateDescriptorSetImages", UpdateDescriptorSetImages);
  add("cmdClearColorImage", CmdClearColorImage);
  add("cmdClearDepthStencilImage", CmdClearDepthStencilImage);
  add("createImage", CreateImage);
  add("bindImageMemory", BindImageMemory);
  add("createImageViewOf", CreateImageViewOf);
  add("createSampler", CreateSampler);
  add("createRenderPass", CreateRenderPass);
  add("createFramebuffer", CreateFramebuffer);
  add("createGraphicsPipeline", CreateGraphicsPipeline);
  add("cmdBeginRendering", CmdBeginRendering);
  add("cmdBeginRenderPass", CmdBeginRenderPass);
  add("cmdCopyBufferImage", CmdCopyBufferImage);
  add("createFence", CreateFence);
  add("fenceStatus", FenceStatus);
  add("resetFence", ResetFence);
  add("waitFence", WaitFence);
  add("createSemaphore", CreateSemaphore);
  add("queueSubmit", QueueSubmit);
  add("queueSubmit2", QueueSubmit2);
  add("queueWaitIdle", QueueWaitIdle);
  add("deviceWaitIdle", DeviceWaitIdle);
  add("createQueryPool", CreateQueryPool);
  add("queryPoolResults", QueryPoolResults);
  add("createEvent", CreateEvent);
  add("eventStatus", EventStatus);
  add("setEvent", SetEvent);
  add("cmdQuery", CmdQuery);
  add("cmdCopyQueryPoolResults", CmdCopyQueryPoolResults);
  add("cmdEvent", CmdEvent);
  add("destroy", DestroyChild);
  return o;
}

}  // namespace kl::napi
