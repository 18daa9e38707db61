// The typed Vulkan API's query pools and events (lib/vulkan/api/queries.ts): creation, results
// and status read back, and the per-call recording of their commands. Handles travel as bigints;
// the TypeScript classes check ranges and states before any call here.
#include "vulkan/addon/compute_functions.h"

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

// createQueryPool(device, queryType, queryCount, pipelineStatistics)
Napi::Value CreateQueryPool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkQueryPoolCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  ci.queryType = static_cast<VkQueryType>(U32(env, info[1], "queryType"));
  ci.queryCount = U32(env, info[2], "queryCount");
  ci.pipelineStatistics = U32(env, info[3], "pipelineStatistics");
  VkQueryPool pool = VK_NULL_HANDLE;
  Check(env, vkCreateQueryPool(Handle<VkDevice>(env, info[0], "device"), &ci, nullptr, &pool), "vkCreateQueryPool");
  return ToJs(env, pool);
}

// queryPoolResults(device, pool, firstQuery, queryCount, flags, out: BigUint64Array): true when
// every result was written (VK_SUCCESS), false for VK_NOT_READY. 64-bit results, packed; with
// VK_QUERY_RESULT_WITH_AVAILABILITY_BIT each result is followed by its availability word.
Napi::Value QueryPoolResults(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const uint32_t count = U32(env, info[3], "queryCount");
  const uint32_t flags = U32(env, info[4], "flags") | VK_QUERY_RESULT_64_BIT;
  if (!info[5].IsTypedArray() || info[5].As<Napi::TypedArray>().TypedArrayType() != napi_biguint64_array) throw ArgumentError(env, "out must be a BigUint64Array");
  auto out = info[5].As<Napi::BigUint64Array>();
  const VkDeviceSize stride = (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0 ? 16 : 8;
  if (out.ElementLength() * 8 < count * stride) throw ArgumentError(env, "out is too short for the results");
  const VkResult res = vkGetQueryPoolResults(Handle<VkDevice>(env, info[0], "device"), Handle<VkQueryPool>(env, info[1], "queryPool"), U32(env, info[2], "firstQuery"), count,
                                             static_cast<size_t>(count * stride), out.Data(), stride, flags);
  if (res == VK_SUCCESS) return Napi::Boolean::New(env, true);
  if (res == VK_NOT_READY) return Napi::Boolean::New(env, false);
  throw VkErrorToJs(env, res, "vkGetQueryPoolResults failed");
}

Napi::Value CreateEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkEventCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO;
  VkEvent event = VK_NULL_HANDLE;
  Check(env, vkCreateEvent(Handle<VkDevice>(env, info[0], "device"), &ci, nullptr, &event), "vkCreateEvent");
  return ToJs(env, event);
}

// eventStatus(device, event): true for VK_EVENT_SET, false for VK_EVENT_RESET.
Napi::Value EventStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const VkResult res = vkGetEventStatus(Handle<VkDevice>(env, info[0], "device"), Handle<VkEvent>(env, info[1], "event"));
  if (res == VK_EVENT_SET) return Napi::Boolean::New(env, true);
  if (res == VK_EVENT_RESET) return Napi::Boolean::New(env, false);
  throw VkErrorToJs(env, res, "vkGetEventStatus failed");
}

// setEvent(device, event, set): vkSetEvent or vkResetEvent from the host.
Napi::Value SetEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  auto event = Handle<VkEvent>(env, info[1], "event");
  if (info[2].IsBoolean() && info[2].As<Napi::Boolean>().Value()) Check(env, vkSetEvent(device, event), "vkSetEvent");
  else Check(env, vkResetEvent(device, event), "vkResetEvent");
  return env.Undefined();
}

// cmdQuery(commandBuffer, op, pool, a, b): op 0 vkCmdResetQueryPool(first a, count b), 1
// vkCmdBeginQuery(query a, flags b), 2 vkCmdEndQuery(query a), 3 vkCmdWriteTimestamp(query a, stage b).
Napi::Value CmdQuery(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto cb = Handle<VkCommandBuffer>(env, info[0], "commandBuffer");
  const uint32_t op = U32(env, info[1], "op");
  auto pool = Handle<VkQueryPool>(env, info[2], "queryPool");
  const uint32_t a = U32(env, info[3], "a");
  const uint32_t b = U32(env, info[4], "b");
  switch (op) {
    case 0: vkCmdResetQueryPool(cb, pool, a, b); break;
    case 1: vkCmdBeginQuery(cb, pool, a, b); break;
    case 2: vkCmdEndQuery(cb, pool, a); break;
    case 3: vkCmdWriteTimestamp(cb, static_cast<VkPipelineStageFlagBits>(b), pool, a); break;
    default: throw ArgumentError(env, "unknown query op");
  }
  return env.Undefined();
}

// cmdCopyQueryPoolResults(commandBuffer, pool, firstQuery, queryCount, buffer, offset, stride, flags)
Napi::Value CmdCopyQueryPoolResults(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  vkCmdCopyQueryPoolResults(Handle<VkCommandBuffer>(env, info[0], "commandBuffer"), Handle<VkQueryPool>(env, info[1], "queryPool"), U32(env, info[2], "firstQuery"),
                            U32(env, info[3], "queryCount"), Handle<VkBuffer>(env, info[4], "buffer"), U64(env, info[5], "offset"), U64(env, info[6], "stride"),
                            U32(env, info[7], "flags"));
  return env.Undefined();
}

// cmdEvent(commandBuffer, event, stageMask, set): vkCmdSetEvent or vkCmdResetEvent.
Napi::Value CmdEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto cb = Handle<VkCommandBuffer>(env, info[0], "commandBuffer");
  auto event = Handle<VkEvent>(env, info[1], "event");
  const uint32_t stage = U32(env, info[2], "stageMask");
  if (info[3].IsBoolean() && info[3].As<Napi::Boolean>().Value()) vkCmdSetEvent(cb, event, stage);
  else vkCmdResetEvent(cb, event, stage);
  return env.Undefined();
}

}  // namespace kl::napi::compute
