// The typed Vulkan API's graphics recording that takes structures (the per-draw calls are raw
// N-API in vulkan_record_calls.cc): beginning dynamic rendering and render passes, copies between
// buffers and images. lib/vulkan/api/commands.ts checks every argument and the command buffer's
// state first.
#include <cstring>
#include <string>
#include <vector>

#include "vulkan/addon/compute_arguments.h"
#include "vulkan/addon/compute_functions.h"

namespace kl::napi::compute {

namespace {

// 16 bytes per VkClearValue (a float colour, or depth float + stencil uint32) from an ArrayBuffer.
std::vector<VkClearValue> ClearValues(Napi::Env env, const Napi::Value& v, uint32_t count) {
  if (!v.IsArrayBuffer()) throw ArgumentError(env, "clearValues must be an ArrayBuffer");
  Napi::ArrayBuffer bytes = v.As<Napi::ArrayBuffer>();
  if (bytes.ByteLength() < static_cast<std::size_t>(count) * 16) throw ArgumentError(env, "clearValues holds fewer than 16 bytes per attachment");
  std::vector<VkClearValue> out(count);
  static_assert(sizeof(VkClearValue) == 16);
  if (count > 0) std::memcpy(out.data(), bytes.Data(), static_cast<std::size_t>(count) * 16);
  return out;
}

VkRect2D Rect(Napi::Env env, const Napi::CallbackInfo& info, std::size_t at) {
  const auto i32 = [&](std::size_t i) {
    if (!info[i].IsNumber()) throw ArgumentError(env, "renderArea must be numbers");
    return info[i].As<Napi::Number>().Int32Value();
  };
  return {{i32(at), i32(at + 1)}, {U32(env, info[at + 2], "renderArea.width"), U32(env, info[at + 3], "renderArea.height")}};
}

}  // namespace

// cmdBeginRendering(cb, x, y, width, height, layerCount, viewMask, colors: [{ view, layout, loadOp,
// storeOp }], depth: { view, layout, loadOp, storeOp } | null, clearValues: ArrayBuffer (16 bytes per
// colour attachment, then 16 for depth)).
Napi::Value CmdBeginRendering(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto cb = Handle<VkCommandBuffer>(env, info[0], "commandBuffer");
  VkRenderingInfo ri{};
  ri.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
  ri.renderArea = Rect(env, info, 1);
  ri.layerCount = U32(env, info[5], "layerCount");
  ri.viewMask = U32(env, info[6], "viewMask");
  Napi::Array ca = ArrayArg(env, info[7], "colorAttachments");
  const Napi::Value d = info[8];
  const uint32_t count = ca.Length() + (d.IsObject() ? 1 : 0);
  const std::vector<VkClearValue> clears = ClearValues(env, info[9], count);
  const auto attachment = [&](Napi::Object a, const VkClearValue& clear) {
    VkRenderingAttachmentInfo out{};
    out.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    out.imageView = Handle<VkImageView>(env, a.Get("view"), "view");
    out.imageLayout = static_cast<VkImageLayout>(FieldU32(env, a, "layout"));
    out.loadOp = static_cast<VkAttachmentLoadOp>(FieldU32(env, a, "loadOp"));
    out.storeOp = static_cast<VkAttachmentStoreOp>(FieldU32(env, a, "storeOp"));
    out.clearValue = clear;
    return out;
  };
  std::vector<VkRenderingAttachmentInfo> colors(ca.Length());
  for (uint32_t i = 0; i < ca.Length(); ++i) colors[i] = attachment(ObjectAt(env, ca, i, "colorAttachments"), clears[i]);
  ri.colorAttachmentCount = static_cast<uint32_t>(colors.size());
  ri.pColorAttachments = colors.data();
  VkRenderingAttachmentInfo depth{};
  if (d.IsObject()) {
    depth = attachment(d.As<Napi::Object>(), clears[ca.Length()]);
    ri.pDepthAttachment = &depth;
  }
  vkCmdBeginRendering(cb, &ri);
  return env.Undefined();
}

// cmdBeginRenderPass(cb, renderPass, framebuffer, x, y, width, height, clearValueCount, clearValues: ArrayBuffer)
Napi::Value CmdBeginRenderPass(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto cb = Handle<VkCommandBuffer>(env, info[0], "commandBuffer");
  VkRenderPassBeginInfo bi{};
  bi.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  bi.renderPass = Handle<VkRenderPass>(env, info[1], "renderPass");
  bi.framebuffer = Handle<VkFramebuffer>(env, info[2], "framebuffer");
  bi.renderArea = Rect(env, info, 3);
  const std::vector<VkClearValue> clears = ClearValues(env, info[8], U32(env, info[7], "clearValueCount"));
  bi.clearValueCount = static_cast<uint32_t>(clears.size());
  bi.pClearValues = clears.data();
  vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
  return env.Undefined();
}

// cmdCopyBufferImage(cb, toImage, buffer, image, layout, bufferOffset, bufferRowLength,
// bufferImageHeight, aspect, mipLevel, baseArrayLayer, layerCount, x, y, z, width, height, depth):
// vkCmdCopyBufferToImage (toImage) or vkCmdCopyImageToBuffer, one region.
Napi::Value CmdCopyBufferImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto cb = Handle<VkCommandBuffer>(env, info[0], "commandBuffer");
  const bool toImage = info[1].ToBoolean().Value();
  auto buffer = Handle<VkBuffer>(env, info[2], "buffer");
  auto image = Handle<VkImage>(env, info[3], "image");
  const auto layout = static_cast<VkImageLayout>(U32(env, info[4], "layout"));
  VkBufferImageCopy region{};
  region.bufferOffset = U64(env, info[5], "bufferOffset");
  region.bufferRowLength = U32(env, info[6], "bufferRowLength");
  region.bufferImageHeight = U32(env, info[7], "bufferImageHeight");
  region.imageSubresource = {U32(env, info[8], "aspect"), U32(env, info[9], "mipLevel"), U32(env, info[10], "baseArrayLayer"), U32(env, info[11], "layerCount")};
  const auto i32 = [&](std::size_t i) {
    if (!info[i].IsNumber()) throw ArgumentError(env, "imageOffset must be numbers");
    return info[i].As<Napi::Number>().Int32Value();
  };
  region.imageOffset = {i32(12), i32(13), i32(14)};
  region.imageExtent = {U32(env, info[15], "width"), U32(env, info[16], "height"), U32(env, info[17], "depth")};
  if (toImage) vkCmdCopyBufferToImage(cb, buffer, image, layout, 1, &region);
  else vkCmdCopyImageToBuffer(cb, image, layout, buffer, 1, &region);
  return env.Undefined();
}

}  // namespace kl::napi::compute
