// The typed API's per-command recording calls (CommandBuffer.bindPipeline, .dispatch, ...): one
// crossing per recorded command, so they are raw N-API callbacks that read each argument with
// one call (napi_get_value_bigint_uint64, napi_get_value_double: each fails on a wrong type,
// no napi_typeof before it) and call the exported trampoline. Through node-addon-api's wrappers
// the same functions cost 56-170 ns a call on the test driver (bench/RESULTS.md, docs/performance.md).
#include "vulkan/addon/vulkan_record_calls.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "addon/errors.h"
#include "vulkan/loader/loader_device.h"
#include "vulkan/loader/trampolines.h"

#define KL_VK_DECLARE_EXPORTED(name, member, ret, params, args) KL_VK_EXPORT ret VKAPI_CALL name params;
KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORTED)
#undef KL_VK_DECLARE_EXPORTED

namespace kl::napi {
namespace {

// The arguments of one call, read in order; the first wrong one is remembered and thrown at the
// end (a TypeError with the same words as the other typed-API functions').
class Arguments {
 public:
  static constexpr std::size_t kMax = 8;
  Arguments(napi_env env, napi_callback_info info) noexcept : env_(env) {
    if (napi_get_cb_info(env, info, &argc_, argv_, nullptr, nullptr) != napi_ok) argc_ = 0;
  }

  template <typename T>
  T Handle(std::size_t i, const char* name) noexcept {
    uint64_t raw = 0;
    bool lossless = true;
    if (i >= argc_ || napi_get_value_bigint_uint64(env_, argv_[i], &raw, &lossless) != napi_ok) Wrong(name, " must be a bigint handle");
    if constexpr (std::is_pointer_v<T>) {
      return reinterpret_cast<T>(static_cast<uintptr_t>(raw));
    } else {
      return static_cast<T>(raw);
    }
  }

  uint32_t U32(std::size_t i, const char* name) noexcept {
    double d = -1;
    if (i >= argc_ || napi_get_value_double(env_, argv_[i], &d) != napi_ok || !(d >= 0 && d <= 4294967295.0) ||
        d != static_cast<double>(static_cast<uint32_t>(d))) {
      Wrong(name, " must be an integer in [0, 2^32)");
      return 0;
    }
    return static_cast<uint32_t>(d);
  }

  int32_t I32(std::size_t i, const char* name) noexcept {
    double d = 0;
    if (i >= argc_ || napi_get_value_double(env_, argv_[i], &d) != napi_ok || !(d >= -2147483648.0 && d <= 2147483647.0) ||
        d != static_cast<double>(static_cast<int32_t>(d))) {
      Wrong(name, " must be an integer in [-2^31, 2^31)");
      return 0;
    }
    return static_cast<int32_t>(d);
  }

  float F32(std::size_t i, const char* name) noexcept {
    double d = 0;
    if (i >= argc_ || napi_get_value_double(env_, argv_[i], &d) != napi_ok || d != d) Wrong(name, " must be a number");
    return static_cast<float>(d);
  }

  // A VkDeviceSize passed as a safe-integer number.
  uint64_t Size(std::size_t i, const char* name) noexcept {
    double d = -1;
    if (i >= argc_ || napi_get_value_double(env_, argv_[i], &d) != napi_ok || !(d >= 0 && d <= 9007199254740991.0) ||
        d != static_cast<double>(static_cast<uint64_t>(d))) {
      Wrong(name, " must be a non-negative safe integer");
      return 0;
    }
    return static_cast<uint64_t>(d);
  }

  // The bytes of a TypedArray or DataView argument (nullptr, with the error noted, otherwise).
  const void* Bytes(std::size_t i, const char* name, uint32_t* length) noexcept {
    void* data = nullptr;
    std::size_t bytes = 0;
    bool isTypedArray = false;
    if (i < argc_ && napi_is_typedarray(env_, argv_[i], &isTypedArray) == napi_ok && isTypedArray) {
      napi_typedarray_type type;
      std::size_t elements = 0;
      if (napi_get_typedarray_info(env_, argv_[i], &type, &elements, &data, nullptr, nullptr) == napi_ok) bytes = elements * ElementSize(type);
    } else if (i >= argc_ || napi_get_dataview_info(env_, argv_[i], &bytes, &data, nullptr, nullptr) != napi_ok) {
      Wrong(name, " must be a TypedArray or DataView");
      return nullptr;
    }
    // A detached or out-of-bounds view has no bytes.
    if (data == nullptr || bytes == 0) Wrong(name, " has no bytes (an empty, detached or out-of-bounds view)");
    *length = static_cast<uint32_t>(bytes);
    return data;
  }

  // False (after throwing the TypeError) when an argument was wrong: the command is not recorded.
  bool Ok() noexcept {
    if (wrong_.empty()) return true;
    napi_throw_type_error(env_, "KL_INVALID_ARGUMENT", wrong_.c_str());
    return false;
  }

 private:
  static std::size_t ElementSize(napi_typedarray_type type) noexcept {
    switch (type) {
      case napi_int8_array:
      case napi_uint8_array:
      case napi_uint8_clamped_array: return 1;
      case napi_int16_array:
      case napi_uint16_array: return 2;
      case napi_int32_array:
      case napi_uint32_array:
      case napi_float32_array: return 4;
      default: return 8;  // float64, bigint64, biguint64
    }
  }
  void Wrong(const char* name, const char* what) noexcept {
    if (!wrong_.empty()) return;
    try {
      wrong_ = std::string(name) + what;
    } catch (...) {
      wrong_ = "invalid argument";
    }
  }

  napi_env env_;
  std::size_t argc_ = kMax;
  napi_value argv_[kMax] = {};
  std::string wrong_;
};

// cmdBindComputePipeline(commandBuffer, pipeline)
napi_value CmdBindComputePipeline(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const auto pipeline = a.Handle<VkPipeline>(1, "pipeline");
  if (a.Ok()) vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  return nullptr;
}

// cmdBindComputeDescriptorSet(commandBuffer, layout, firstSet, set)
napi_value CmdBindComputeDescriptorSet(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const auto layout = a.Handle<VkPipelineLayout>(1, "layout");
  const uint32_t firstSet = a.U32(2, "firstSet");
  const auto set = a.Handle<VkDescriptorSet>(3, "set");
  if (a.Ok()) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, firstSet, 1, &set, 0, nullptr);
  return nullptr;
}

// cmdPushConstants(commandBuffer, layout, stageFlags, offset, data): data's own bytes (its buffer
// may be a SharedArrayBuffer or resizable).
napi_value CmdPushConstants(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const auto layout = a.Handle<VkPipelineLayout>(1, "layout");
  const uint32_t stageFlags = a.U32(2, "stageFlags");
  const uint32_t offset = a.U32(3, "offset");
  uint32_t length = 0;
  const void* data = a.Bytes(4, "data", &length);
  if (a.Ok()) vkCmdPushConstants(cb, layout, stageFlags, offset, length, data);
  return nullptr;
}

// cmdDispatch(commandBuffer, x, y, z)
napi_value CmdDispatch(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const uint32_t x = a.U32(1, "groupCountX");
  const uint32_t y = a.U32(2, "groupCountY");
  const uint32_t z = a.U32(3, "groupCountZ");
  if (a.Ok()) vkCmdDispatch(cb, x, y, z);
  return nullptr;
}

// cmdPipelineBarrier(commandBuffer, srcStageMask, dstStageMask, srcAccessMask, dstAccessMask):
// one global VkMemoryBarrier between two stages.
napi_value CmdPipelineBarrier(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const uint32_t srcStage = a.U32(1, "srcStageMask");
  const uint32_t dstStage = a.U32(2, "dstStageMask");
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = a.U32(3, "srcAccessMask");
  barrier.dstAccessMask = a.U32(4, "dstAccessMask");
  if (a.Ok()) vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  return nullptr;
}

// cmdBindGraphicsPipeline(commandBuffer, pipeline)
napi_value CmdBindGraphicsPipeline(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const auto pipeline = a.Handle<VkPipeline>(1, "pipeline");
  if (a.Ok()) vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  return nullptr;
}

// cmdBindGraphicsDescriptorSet(commandBuffer, layout, firstSet, set)
napi_value CmdBindGraphicsDescriptorSet(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const auto layout = a.Handle<VkPipelineLayout>(1, "layout");
  const uint32_t firstSet = a.U32(2, "firstSet");
  const auto set = a.Handle<VkDescriptorSet>(3, "set");
  if (a.Ok()) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, firstSet, 1, &set, 0, nullptr);
  return nullptr;
}

// cmdBindVertexBuffer(commandBuffer, binding, buffer, offset)
napi_value CmdBindVertexBuffer(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const uint32_t binding = a.U32(1, "binding");
  const auto buffer = a.Handle<VkBuffer>(2, "buffer");
  const VkDeviceSize offset = a.Size(3, "offset");
  if (a.Ok()) vkCmdBindVertexBuffers(cb, binding, 1, &buffer, &offset);
  return nullptr;
}

// cmdBindIndexBuffer(commandBuffer, buffer, offset, indexType)
napi_value CmdBindIndexBuffer(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const auto buffer = a.Handle<VkBuffer>(1, "buffer");
  const VkDeviceSize offset = a.Size(2, "offset");
  const uint32_t indexType = a.U32(3, "indexType");
  if (a.Ok()) vkCmdBindIndexBuffer(cb, buffer, offset, static_cast<VkIndexType>(indexType));
  return nullptr;
}

// cmdSetViewport(commandBuffer, x, y, width, height, minDepth, maxDepth); cmdSetViewportWithCount the
// same, one viewport through vkCmdSetViewportWithCount (Vulkan 1.3).
template <bool WithCount>
napi_value CmdSetViewport(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const VkViewport viewport{a.F32(1, "x"), a.F32(2, "y"), a.F32(3, "width"), a.F32(4, "height"), a.F32(5, "minDepth"), a.F32(6, "maxDepth")};
  if (!a.Ok()) return nullptr;
  if constexpr (WithCount) {
    vkCmdSetViewportWithCount(cb, 1, &viewport);
  } else {
    vkCmdSetViewport(cb, 0, 1, &viewport);
  }
  return nullptr;
}

// cmdSetScissor(commandBuffer, x, y, width, height); cmdSetScissorWithCount the same through
// vkCmdSetScissorWithCount (Vulkan 1.3).
template <bool WithCount>
napi_value CmdSetScissor(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const int32_t x = a.I32(1, "x");
  const int32_t y = a.I32(2, "y");
  const VkRect2D scissor{{x, y}, {a.U32(3, "width"), a.U32(4, "height")}};
  if (!a.Ok()) return nullptr;
  if constexpr (WithCount) {
    vkCmdSetScissorWithCount(cb, 1, &scissor);
  } else {
    vkCmdSetScissor(cb, 0, 1, &scissor);
  }
  return nullptr;
}

// cmdDraw(commandBuffer, vertexCount, instanceCount, firstVertex, firstInstance)
napi_value CmdDraw(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const uint32_t vertexCount = a.U32(1, "vertexCount");
  const uint32_t instanceCount = a.U32(2, "instanceCount");
  const uint32_t firstVertex = a.U32(3, "firstVertex");
  const uint32_t firstInstance = a.U32(4, "firstInstance");
  if (a.Ok()) vkCmdDraw(cb, vertexCount, instanceCount, firstVertex, firstInstance);
  return nullptr;
}

// cmdDrawIndexed(commandBuffer, indexCount, instanceCount, firstIndex, vertexOffset, firstInstance)
napi_value CmdDrawIndexed(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const uint32_t indexCount = a.U32(1, "indexCount");
  const uint32_t instanceCount = a.U32(2, "instanceCount");
  const uint32_t firstIndex = a.U32(3, "firstIndex");
  const int32_t vertexOffset = a.I32(4, "vertexOffset");
  const uint32_t firstInstance = a.U32(5, "firstInstance");
  if (a.Ok()) vkCmdDrawIndexed(cb, indexCount, instanceCount, firstIndex, vertexOffset, firstInstance);
  return nullptr;
}

// cmdDrawIndirect(commandBuffer, indexed (0/1), buffer, offset, drawCount, stride)
napi_value CmdDrawIndirect(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const uint32_t indexed = a.U32(1, "indexed");
  const auto buffer = a.Handle<VkBuffer>(2, "buffer");
  const VkDeviceSize offset = a.Size(3, "offset");
  const uint32_t drawCount = a.U32(4, "drawCount");
  const uint32_t stride = a.U32(5, "stride");
  if (!a.Ok()) return nullptr;
  if (indexed != 0) vkCmdDrawIndexedIndirect(cb, buffer, offset, drawCount, stride);
  else vkCmdDrawIndirect(cb, buffer, offset, drawCount, stride);
  return nullptr;
}

// cmdEndRendering(commandBuffer, renderPass (0/1)): vkCmdEndRenderPass or vkCmdEndRendering.
napi_value CmdEndRendering(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const uint32_t renderPass = a.U32(1, "renderPass");
  if (!a.Ok()) return nullptr;
  if (renderPass != 0) vkCmdEndRenderPass(cb);
  else vkCmdEndRendering(cb);
  return nullptr;
}

// cmdPushConstants2(commandBuffer, layout, stageFlags, offset, data): a VkPushConstantsInfo (Vulkan 1.4).
napi_value CmdPushConstants2(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  VkPushConstantsInfo push{};
  push.sType = VK_STRUCTURE_TYPE_PUSH_CONSTANTS_INFO;
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  push.layout = a.Handle<VkPipelineLayout>(1, "layout");
  push.stageFlags = a.U32(2, "stageFlags");
  push.offset = a.U32(3, "offset");
  push.pValues = a.Bytes(4, "data", &push.size);
  if (a.Ok()) vkCmdPushConstants2(cb, &push);
  return nullptr;
}

// cmdSetRenderingAttachmentLocations(commandBuffer, locations: Uint32Array): one location per colour attachment (Vulkan 1.4).
napi_value CmdSetRenderingAttachmentLocations(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  uint32_t bytes = 0;
  const void* locations = a.Bytes(1, "locations", &bytes);
  if (!a.Ok()) return nullptr;
  VkRenderingAttachmentLocationInfo where{};
  where.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO;
  where.colorAttachmentCount = bytes / 4;
  where.pColorAttachmentLocations = static_cast<const uint32_t*>(locations);
  vkCmdSetRenderingAttachmentLocations(cb, &where);
  return nullptr;
}

// cmdBlitImage(commandBuffer, srcImage, srcLayout, dstImage, dstLayout, regions: Uint32Array (20 words a VkImageBlit), filter)
napi_value CmdBlitImage(napi_env env, napi_callback_info info) {
  static_assert(sizeof(VkImageBlit) == 80 && alignof(VkImageBlit) == 4, "VkImageBlit is 20 32-bit words");
  Arguments a(env, info);
  const auto cb = a.Handle<VkCommandBuffer>(0, "commandBuffer");
  const auto src = a.Handle<VkImage>(1, "srcImage");
  const uint32_t srcLayout = a.U32(2, "srcImageLayout");
  const auto dst = a.Handle<VkImage>(3, "dstImage");
  const uint32_t dstLayout = a.U32(4, "dstImageLayout");
  uint32_t bytes = 0;
  const void* regions = a.Bytes(5, "regions", &bytes);
  const uint32_t filter = a.U32(6, "filter");
  if (!a.Ok()) return nullptr;
  vkCmdBlitImage(cb, src, static_cast<VkImageLayout>(srcLayout), dst, static_cast<VkImageLayout>(dstLayout), bytes / sizeof(VkImageBlit),
                 static_cast<const VkImageBlit*>(regions), static_cast<VkFilter>(filter));
  return nullptr;
}

// deviceCommandAvailability(device): which of the later-version commands the per-call methods record
// the device's dispatch table has (what the exported trampolines call through): bit 0
// vkCmdSetViewportWithCount, 1 vkCmdSetScissorWithCount, 2 vkCmdPushConstants2,
// 3 vkCmdSetRenderingAttachmentLocations, 4 vkQueueSubmit2. Reads the table; makes no Vulkan call.
napi_value DeviceCommandAvailability(napi_env env, napi_callback_info info) {
  Arguments a(env, info);
  const auto device = a.Handle<VkDevice>(0, "device");
  if (!a.Ok()) return nullptr;
  const auto* table = kl::vulkan::CheckedDeviceTable(device);
  if (table == nullptr) {
    napi_throw_type_error(env, "KL_INVALID_ARGUMENT", "device is not a live VkDevice of this loader");
    return nullptr;
  }
  const uint32_t bits = (table->CmdSetViewportWithCount != nullptr ? 1u : 0u) | (table->CmdSetScissorWithCount != nullptr ? 2u : 0u) |
                        (table->CmdPushConstants2 != nullptr ? 4u : 0u) | (table->CmdSetRenderingAttachmentLocations != nullptr ? 8u : 0u) |
                        (table->QueueSubmit2 != nullptr ? 16u : 0u);
  napi_value out = nullptr;
  napi_create_uint32(env, bits, &out);
  return out;
}

}  // namespace

void AddRecordCalls(Napi::Env env, Napi::Object functions) {
  const auto add = [&](const char* name, napi_callback callback) {
    napi_value fn = nullptr;
    NAPI_THROW_IF_FAILED_VOID(env, napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &fn));
    functions.Set(name, Napi::Value(env, fn));
  };
  add("cmdBindComputePipeline", CmdBindComputePipeline);
  add("cmdBindComputeDescriptorSet", CmdBindComputeDescriptorSet);
  add("cmdPushConstants", CmdPushConstants);
  add("cmdDispatch", CmdDispatch);
  add("cmdPipelineBarrier", CmdPipelineBarrier);
  add("cmdBindGraphicsPipeline", CmdBindGraphicsPipeline);
  add("cmdBindGraphicsDescriptorSet", CmdBindGraphicsDescriptorSet);
  add("cmdBindVertexBuffer", CmdBindVertexBuffer);
  add("cmdBindIndexBuffer", CmdBindIndexBuffer);
  add("cmdSetViewport", CmdSetViewport<false>);
  add("cmdSetScissor", CmdSetScissor<false>);
  add("cmdDraw", CmdDraw);
  add("cmdDrawIndexed", CmdDrawIndexed);
  add("cmdDrawIndirect", CmdDrawIndirect);
  add("cmdEndRendering", CmdEndRendering);
  add("cmdSetViewportWithCount", CmdSetViewport<true>);
  add("cmdSetScissorWithCount", CmdSetScissor<true>);
  add("cmdPushConstants2", CmdPushConstants2);
  add("cmdSetRenderingAttachmentLocations", CmdSetRenderingAttachmentLocations);
  add("cmdBlitImage", CmdBlitImage);
  add("deviceCommandAvailability", DeviceCommandAvailability);
}

}  // namespace kl::napi
