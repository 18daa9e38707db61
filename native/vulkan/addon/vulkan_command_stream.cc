#include "vulkan/addon/vulkan_command_stream.h"

#include <cstdint>
#include <string>
#include <vector>

#include "tools/bench/bench_timing.h"
#include "addon/errors.h"
#include "vulkan/addon/vulkan.h"
#include "vulkan/loader/command_stream.h"
#include "vulkan/loader/trampolines.h"

// The exported trampolines the benchmark's C loop records through.
#define KL_VK_DECLARE_EXPORTED(name, member, ret, params, args) KL_VK_EXPORT ret VKAPI_CALL name params;
KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORTED)
#undef KL_VK_DECLARE_EXPORTED

namespace kl::napi {
namespace {

namespace cs = kl::vulkan::command_stream;

uint64_t BigIntArg(Napi::Env env, const Napi::Value& v, const char* what) {
  if (!v.IsBigInt()) throw ArgumentError(env, std::string(what) + " must be a bigint handle");
  bool lossless = true;
  return v.As<Napi::BigInt>().Uint64Value(&lossless);
}

uint32_t U32Arg(Napi::Env env, const Napi::Value& v, const char* what) {
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (d >= 0 && d <= 4294967295.0 && d == static_cast<double>(static_cast<uint32_t>(d))) return static_cast<uint32_t>(d);
  }
  throw ArgumentError(env, std::string(what) + " must be an integer in [0, 2^32)");
}

// The used part of the stream ArrayBuffer.
struct Stream {
  const void* data;
  std::size_t bytes;
};
Stream StreamArg(Napi::Env env, const Napi::Value& buffer, const Napi::Value& length) {
  if (!buffer.IsArrayBuffer()) throw ArgumentError(env, "stream must be an ArrayBuffer");
  Napi::ArrayBuffer ab = buffer.As<Napi::ArrayBuffer>();
  const uint32_t bytes = U32Arg(env, length, "byteLength");
  if (bytes > ab.ByteLength()) throw ArgumentError(env, "byteLength is past the end of the stream's ArrayBuffer");
  return {ab.Data(), bytes};
}

template <typename T>
const T* TypedArrayData(Napi::Env env, const Napi::Value& v, napi_typedarray_type type, const char* what, std::size_t* length) {
  napi_typedarray_type actual;
  void* data = nullptr;
  if (!v.IsTypedArray() || napi_get_typedarray_info(env, v, &actual, length, &data, nullptr, nullptr) != napi_ok || actual != type) {
    const char* name = type == napi_uint8_array ? " must be a Uint8Array" : type == napi_uint32_array ? " must be a Uint32Array" : " must be a BigUint64Array";
    throw ArgumentError(env, std::string(what) + name);
  }
  return static_cast<const T*>(data);
}

Napi::Error StreamError(Napi::Env env, const cs::Verdict& v) {
  const std::string reason = cs::ReasonName(v.reason);
  Napi::Error js = Napi::Error::New(env, "command stream refused at byte " + std::to_string(v.byteOffset) + " (command " +
                                             std::to_string(v.commands) + ", opcode " + std::to_string(v.opcode) + "): " + reason);
  js.Set("code", Napi::String::New(env, "KL_COMMAND_STREAM"));
  js.Set("reason", Napi::String::New(env, reason));
  js.Set("byteOffset", Napi::Number::New(env, static_cast<double>(v.byteOffset)));
  js.Set("opcode", Napi::Number::New(env, v.opcode));
  js.Set("commandIndex", Napi::Number::New(env, v.commands));
  return js;
}

cs::Verdict Check(Napi::Env env, const Stream& stream, const cs::Table& table) {
  cs::Verdict v = cs::Validate(stream.data, stream.bytes, table);
  if (!v.ok) throw StreamError(env, v);
  return v;
}

// validate(stream, byteLength, kinds): only the kinds matter to the checks.
Napi::Value Validate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Stream stream = StreamArg(env, info[0], info[1]);
  cs::Table table;
  table.kinds = TypedArrayData<uint8_t>(env, info[2], napi_uint8_array, "kinds", &table.size);
  return Napi::Number::New(env, Check(env, stream, table).commands);
}

// record(commandBuffer, beginFlags, stream, byteLength, handles, kinds[, starts, startCount, runHeader[, runHeader2]]):
// with starts (a Uint32Array, its first startCount words the noted commands' word offsets, command_stream.h
// Starts), -1 and no Vulkan call when the stream is not as noted.
Napi::Value Record(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* cb = reinterpret_cast<VkCommandBuffer>(static_cast<uintptr_t>(BigIntArg(env, info[0], "commandBuffer")));
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = U32Arg(env, info[1], "beginFlags");
  const Stream stream = StreamArg(env, info[2], info[3]);
  cs::Table table;
  std::size_t handleCount = 0;
  table.handles = TypedArrayData<uint64_t>(env, info[4], napi_biguint64_array, "handles", &handleCount);
  table.kinds = TypedArrayData<uint8_t>(env, info[5], napi_uint8_array, "kinds", &table.size);
  if (handleCount != table.size) throw StreamError(env, cs::Verdict{false, 0, 0, 0, cs::Reason::TableMismatch});
  if (cb == nullptr) throw ArgumentError(env, "commandBuffer must not be null");
  // The device's dispatch table, as the exported trampolines find it: the command buffer's first word.
  const auto* dispatch = *reinterpret_cast<const kl::vulkan::gen::VkDeviceDispatchTable* const*>(cb);
  if (dispatch == nullptr) throw VkErrorToJs(env, VK_ERROR_INITIALIZATION_FAILED, "the command buffer has no device dispatch table");
  // The whole stream checked, and every command of it in the device's table, before any Vulkan call.
  cs::Verdict v;
  if (info.Length() > 6 && !info[6].IsUndefined() && !info[6].IsNull()) {
    cs::Starts starts;
    std::size_t capacity = 0;
    starts.words = TypedArrayData<uint32_t>(env, info[6], napi_uint32_array, "starts", &capacity);
    starts.count = U32Arg(env, info[7], "startCount");
    starts.runHeaders[0] = U32Arg(env, info[8], "runHeader");
    starts.runHeaders[1] = info.Length() > 9 && !info[9].IsUndefined() ? U32Arg(env, info[9], "runHeader2") : starts.runHeaders[0];
    if (starts.count > capacity) throw ArgumentError(env, "startCount is past the end of starts");
    if (!cs::IsPlainHeader(starts.runHeaders[0]) || !cs::IsPlainHeader(starts.runHeaders[1])) throw ArgumentError(env, "runHeader and runHeader2 must be plain generated commands' header words");
    v = cs::ValidateFor(*dispatch, stream.data, stream.bytes, table, starts);
    if (v.notAsNoted) return Napi::Number::New(env, -1);
  } else {
    v = cs::ValidateFor(*dispatch, stream.data, stream.bytes, table);
  }
  if (!v.ok) throw StreamError(env, v);
  VkResult r = dispatch->BeginCommandBuffer(cb, &begin);
  if (r != VK_SUCCESS) throw VkErrorToJs(env, r, "vkBeginCommandBuffer failed");
  cs::Replay(*dispatch, cb, stream.data, stream.bytes, table);
  r = dispatch->EndCommandBuffer(cb);
  if (r != VK_SUCCESS) throw VkErrorToJs(env, r, "vkEndCommandBuffer failed");
  return Napi::Number::New(env, v.commands);
}

constexpr uint32_t kMaxLoopCommands = 10'000'000;

// cLoop(commandBuffer, pipeline, layout, set, commands, frames) → mean wall ns per frame.
Napi::Value CLoop(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* cb = reinterpret_cast<VkCommandBuffer>(static_cast<uintptr_t>(BigIntArg(env, info[0], "commandBuffer")));
  auto pipeline = reinterpret_cast<VkPipeline>(static_cast<uintptr_t>(BigIntArg(env, info[1], "pipeline")));
  auto layout = reinterpret_cast<VkPipelineLayout>(static_cast<uintptr_t>(BigIntArg(env, info[2], "layout")));
  auto set = reinterpret_cast<VkDescriptorSet>(static_cast<uintptr_t>(BigIntArg(env, info[3], "set")));
  const uint32_t commands = U32Arg(env, info[4], "commands");
  const uint32_t frames = U32Arg(env, info[5], "frames");
  if (cb == nullptr || frames == 0) throw ArgumentError(env, "cLoop needs a command buffer and at least one frame");
  if (commands > kMaxLoopCommands) throw ArgumentError(env, "cLoop records at most 10,000,000 commands a frame");
  const uint32_t values[2] = {0x3f800000, 256};  // the SAXPY shader's (a = 1.0f, n = 256)
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkResult failed = VK_SUCCESS;
  const double t0 = bench::NowNs(CLOCK_MONOTONIC);
  for (uint32_t f = 0; f < frames && failed == VK_SUCCESS; ++f) {
    failed = vkBeginCommandBuffer(cb, &begin);
    if (failed != VK_SUCCESS) break;
    // The benchmark's mix in a frame's order, group after group, as lib/tools/bench/vulkan-record.ts
    // records it from JavaScript; then the rest of a count that is not a multiple of five.
    uint32_t i = 0;
    for (; i + 5 <= commands; i += 5) {
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
      vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof values, values);
      vkCmdDispatch(cb, 1, 1, 1);
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    }
    if (i < commands) vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (i + 1 < commands) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    if (i + 2 < commands) vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof values, values);
    if (i + 3 < commands) vkCmdDispatch(cb, 1, 1, 1);
    failed = vkEndCommandBuffer(cb);
  }
  const double t1 = bench::NowNs(CLOCK_MONOTONIC);
  if (failed != VK_SUCCESS) throw VkErrorToJs(env, failed, "cLoop: vkBeginCommandBuffer or vkEndCommandBuffer failed");
  return Napi::Number::New(env, (t1 - t0) / frames);
}

// drawLoop(commandBuffer, pipeline, layout, vertexBuffer, view, width, height, draws, frames) → mean
// wall ns per frame: the record bench's frame of draws (lib/tools/bench/vulkan-record-draws.ts) through
// the loader's exported vkCmd*: begin rendering into `view`, bind the graphics pipeline and the
// vertex buffer, viewport, scissor, 64 bytes of push constants, `draws` vkCmdDraw(3), end.
Napi::Value DrawLoop(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* cb = reinterpret_cast<VkCommandBuffer>(static_cast<uintptr_t>(BigIntArg(env, info[0], "commandBuffer")));
  auto pipeline = reinterpret_cast<VkPipeline>(static_cast<uintptr_t>(BigIntArg(env, info[1], "pipeline")));
  auto layout = reinterpret_cast<VkPipelineLayout>(static_cast<uintptr_t>(BigIntArg(env, info[2], "layout")));
  auto buffer = reinterpret_cast<VkBuffer>(static_cast<uintptr_t>(BigIntArg(env, info[3], "vertexBuffer")));
  auto view = reinterpret_cast<VkImageView>(static_cast<uintptr_t>(BigIntArg(env, info[4], "view")));
  const uint32_t width = U32Arg(env, info[5], "width");
  const uint32_t height = U32Arg(env, info[6], "height");
  const uint32_t draws = U32Arg(env, info[7], "draws");
  const uint32_t frames = U32Arg(env, info[8], "frames");
  if (cb == nullptr || frames == 0) throw ArgumentError(env, "drawLoop needs a command buffer and at least one frame");
  if (draws > kMaxLoopCommands) throw ArgumentError(env, "drawLoop records at most 10,000,000 draws a frame");
  VkRenderingAttachmentInfo color{};
  color.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
  color.imageView = view;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo rendering{};
  rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
  rendering.renderArea = {{0, 0}, {width, height}};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &color;
  const VkViewport viewport{0, 0, static_cast<float>(width), static_cast<float>(height), 0, 1};
  const VkRect2D scissor{{0, 0}, {width, height}};
  const VkDeviceSize offset = 0;
  const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkResult failed = VK_SUCCESS;
  const double t0 = bench::NowNs(CLOCK_MONOTONIC);
  for (uint32_t f = 0; f < frames && failed == VK_SUCCESS; ++f) {
    failed = vkBeginCommandBuffer(cb, &begin);
    if (failed != VK_SUCCESS) break;
    vkCmdBeginRendering(cb, &rendering);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindVertexBuffers(cb, 0, 1, &buffer, &offset);
    vkCmdSetViewport(cb, 0, 1, &viewport);
    vkCmdSetScissor(cb, 0, 1, &scissor);
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof identity, identity);
    for (uint32_t i = 0; i < draws; ++i) vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    failed = vkEndCommandBuffer(cb);
  }
  const double t1 = bench::NowNs(CLOCK_MONOTONIC);
  if (failed != VK_SUCCESS) throw VkErrorToJs(env, failed, "drawLoop: vkBeginCommandBuffer or vkEndCommandBuffer failed");
  return Napi::Number::New(env, (t1 - t0) / frames);
}

}  // namespace

Napi::Object VulkanCommandStreamFunctions(Napi::Env env) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("validate", Napi::Function::New(env, Validate, "validate"));
  o.Set("record", Napi::Function::New(env, Record, "record"));
  o.Set("cLoop", Napi::Function::New(env, CLoop, "cLoop"));
  o.Set("drawLoop", Napi::Function::New(env, DrawLoop, "drawLoop"));
  return o;
}

}  // namespace kl::napi
