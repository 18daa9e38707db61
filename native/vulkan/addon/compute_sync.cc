// The typed Vulkan API's synchronisation and submission: fences (waited on a worker thread),
// semaphores, queue submission, queue and device idle waits.
#include "vulkan/addon/compute_functions.h"

#include <string>
#include <vector>

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

namespace {

// vkWaitForFences on a worker thread; the promise settles on the event loop.
class FenceWait : public Napi::AsyncWorker {
 public:
  FenceWait(Napi::Env env, VkDevice device, VkFence fence, uint64_t timeout)
      : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)), device_(device), fence_(fence), timeout_(timeout) {}
  Napi::Promise Promise() { return deferred_.Promise(); }

 protected:
  void Execute() override { result_ = vkWaitForFences(device_, 1, &fence_, VK_TRUE, timeout_); }
  void OnOK() override {
    Napi::Env env = Env();
    if (result_ == VK_SUCCESS) deferred_.Resolve(Napi::Boolean::New(env, true));
    else if (result_ == VK_TIMEOUT) deferred_.Resolve(Napi::Boolean::New(env, false));
    else deferred_.Reject(VkErrorToJs(env, result_, "vkWaitForFences failed").Value());
  }

 private:
  Napi::Promise::Deferred deferred_;
  VkDevice device_;
  VkFence fence_;
  uint64_t timeout_;
  VkResult result_ = VK_SUCCESS;
};

}  // namespace

Napi::Value CreateFence(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkFenceCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  ci.flags = info[1].IsBoolean() && info[1].As<Napi::Boolean>().Value() ? VK_FENCE_CREATE_SIGNALED_BIT : 0;
  VkFence fence = VK_NULL_HANDLE;
  Check(env, vkCreateFence(Handle<VkDevice>(env, info[0], "device"), &ci, nullptr, &fence), "vkCreateFence");
  return ToJs(env, fence);
}

Napi::Value FenceStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const VkResult res = vkGetFenceStatus(Handle<VkDevice>(env, info[0], "device"), Handle<VkFence>(env, info[1], "fence"));
  if (res == VK_SUCCESS) return Napi::Boolean::New(env, true);
  if (res == VK_NOT_READY) return Napi::Boolean::New(env, false);
  throw VkErrorToJs(env, res, "vkGetFenceStatus failed");
}

Napi::Value ResetFence(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkFence fence = Handle<VkFence>(env, info[1], "fence");
  Check(env, vkResetFences(Handle<VkDevice>(env, info[0], "device"), 1, &fence), "vkResetFences");
  return env.Undefined();
}

Napi::Value WaitFence(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* worker = new FenceWait(env, Handle<VkDevice>(env, info[0], "device"), Handle<VkFence>(env, info[1], "fence"), U64(env, info[2], "timeout"));
  Napi::Promise promise = worker->Promise();
  worker->Queue();  // the worker deletes itself after OnOK
  return promise;
}

Napi::Value CreateSemaphore(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkSemaphoreCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  Check(env, vkCreateSemaphore(Handle<VkDevice>(env, info[0], "device"), &ci, nullptr, &semaphore), "vkCreateSemaphore");
  return ToJs(env, semaphore);
}

// queueSubmit(queue, commandBuffer, fence (0n: none), waitSemaphore (0n: none), waitStage, signalSemaphore (0n: none))
Napi::Value QueueSubmit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkCommandBuffer cb = Handle<VkCommandBuffer>(env, info[1], "commandBuffer");
  VkSemaphore wait = Handle<VkSemaphore>(env, info[3], "waitSemaphore");
  VkPipelineStageFlags waitStage = U32(env, info[4], "waitStage");
  VkSemaphore signal = Handle<VkSemaphore>(env, info[5], "signalSemaphore");
  VkSubmitInfo si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.waitSemaphoreCount = wait != VK_NULL_HANDLE ? 1 : 0;
  si.pWaitSemaphores = &wait;
  si.pWaitDstStageMask = &waitStage;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  si.signalSemaphoreCount = signal != VK_NULL_HANDLE ? 1 : 0;
  si.pSignalSemaphores = &signal;
  Check(env, vkQueueSubmit(Handle<VkQueue>(env, info[0], "queue"), 1, &si, Handle<VkFence>(env, info[2], "fence")), "vkQueueSubmit");
  return env.Undefined();
}

// queueSubmit2(queue, commandBuffers: bigint[], fence (0n: none), waits: bigint[], waitStages: bigint[],
// signals: bigint[], signalStages: bigint[]): one VkSubmitInfo2 (Vulkan 1.3, synchronization2); stage
// masks are VkPipelineStageFlags2.
Napi::Value QueueSubmit2(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto queue = Handle<VkQueue>(env, info[0], "queue");
  const Napi::Array buffers = ArrayArg(env, info[1], "commandBuffers");
  const auto fence = Handle<VkFence>(env, info[2], "fence");
  const auto semaphores = [&](uint32_t at, const char* what, const char* stages) {
    const Napi::Array handles = ArrayArg(env, info[at], what);
    const Napi::Array masks = ArrayArg(env, info[at + 1], stages);
    if (masks.Length() != handles.Length()) throw ArgumentError(env, std::string(stages) + " must hold one stage mask per semaphore");
    std::vector<VkSemaphoreSubmitInfo> out(handles.Length());
    for (uint32_t i = 0; i < handles.Length(); i++) {
      out[i].sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;
      out[i].semaphore = Handle<VkSemaphore>(env, handles.Get(i), what);
      out[i].stageMask = U64(env, masks.Get(i), stages);
    }
    return out;
  };
  std::vector<VkCommandBufferSubmitInfo> cbs(buffers.Length());
  for (uint32_t i = 0; i < buffers.Length(); i++) {
    cbs[i].sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO;
    cbs[i].commandBuffer = Handle<VkCommandBuffer>(env, buffers.Get(i), "commandBuffers");
  }
  const std::vector<VkSemaphoreSubmitInfo> waits = semaphores(3, "waitSemaphores", "waitStages");
  const std::vector<VkSemaphoreSubmitInfo> signals = semaphores(5, "signalSemaphores", "signalStages");
  VkSubmitInfo2 si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2;
  si.waitSemaphoreInfoCount = static_cast<uint32_t>(waits.size());
  si.pWaitSemaphoreInfos = waits.data();
  si.commandBufferInfoCount = static_cast<uint32_t>(cbs.size());
  si.pCommandBufferInfos = cbs.data();
  si.signalSemaphoreInfoCount = static_cast<uint32_t>(signals.size());
  si.pSignalSemaphoreInfos = signals.data();
  Check(env, vkQueueSubmit2(queue, 1, &si, fence), "vkQueueSubmit2");
  return env.Undefined();
}

Napi::Value QueueWaitIdle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env, vkQueueWaitIdle(Handle<VkQueue>(env, info[0], "queue")), "vkQueueWaitIdle");
  return env.Undefined();
}

// Through the chain's own function, checked first: a driver (or layer) without it gets an error, not a call through NULL.
Napi::Value DeviceWaitIdle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  auto wait = reinterpret_cast<PFN_vkDeviceWaitIdle>(vkGetDeviceProcAddr(device, "vkDeviceWaitIdle"));
  if (wait == nullptr) throw VkErrorToJs(env, VK_ERROR_FEATURE_NOT_PRESENT, "the device chain has no vkDeviceWaitIdle");
  Check(env, wait(device), "vkDeviceWaitIdle");
  return env.Undefined();
}

}  // namespace kl::napi::compute
