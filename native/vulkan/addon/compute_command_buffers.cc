// The typed Vulkan API's command pools and command buffers: allocation, begin/end/reset and the
// copy command. The per-command recording calls are raw N-API (vulkan_record_calls.cc).
#include "vulkan/addon/compute_functions.h"

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

Napi::Value CreateCommandPool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkCommandPoolCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  ci.queueFamilyIndex = U32(env, info[1], "queueFamilyIndex");
  ci.flags = U32(env, info[2], "flags");
  VkCommandPool pool = VK_NULL_HANDLE;
  Check(env, vkCreateCommandPool(Handle<VkDevice>(env, info[0], "device"), &ci, nullptr, &pool), "vkCreateCommandPool");
  return ToJs(env, pool);
}

// Through the loader's vkAllocateCommandBuffers trampoline: the command buffer gets the device's
// dispatch pointer, so the exported vkCmd* trampolines can dispatch on it.
Napi::Value AllocateCommandBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkCommandBufferAllocateInfo ai{};
  ai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  ai.commandPool = Handle<VkCommandPool>(env, info[1], "pool");
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = nullptr;
  Check(env, vkAllocateCommandBuffers(Handle<VkDevice>(env, info[0], "device"), &ai, &cb), "vkAllocateCommandBuffers");
  return ToJs(env, cb);
}

Napi::Value FreeCommandBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkCommandBuffer cb = Handle<VkCommandBuffer>(env, info[2], "commandBuffer");
  vkFreeCommandBuffers(Handle<VkDevice>(env, info[0], "device"), Handle<VkCommandPool>(env, info[1], "pool"), 1, &cb);
  return env.Undefined();
}

// ---- recording (argument 0: the VkCommandBuffer); nothing is created on the JavaScript heap ----

Napi::Value BeginCommandBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkCommandBufferBeginInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  bi.flags = U32(env, info[1], "flags");
  Check(env, vkBeginCommandBuffer(Handle<VkCommandBuffer>(env, info[0], "commandBuffer"), &bi), "vkBeginCommandBuffer");
  return env.Undefined();
}

Napi::Value EndCommandBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env, vkEndCommandBuffer(Handle<VkCommandBuffer>(env, info[0], "commandBuffer")), "vkEndCommandBuffer");
  return env.Undefined();
}

Napi::Value ResetCommandBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env, vkResetCommandBuffer(Handle<VkCommandBuffer>(env, info[0], "commandBuffer"), 0), "vkResetCommandBuffer");
  return env.Undefined();
}

Napi::Value CmdCopyBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkBufferCopy region{U64(env, info[3], "srcOffset"), U64(env, info[4], "dstOffset"), U64(env, info[5], "size")};
  vkCmdCopyBuffer(Handle<VkCommandBuffer>(env, info[0], "commandBuffer"), Handle<VkBuffer>(env, info[1], "src"),
                  Handle<VkBuffer>(env, info[2], "dst"), 1, &region);
  return env.Undefined();
}

}  // namespace kl::napi::compute
