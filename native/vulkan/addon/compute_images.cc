// The typed Vulkan API's image work: image views, and the layout barrier and clear recorded on
// images the application (an XR swapchain) owns.
#include "vulkan/addon/compute_functions.h"

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

// createImageView(device, image, format, baseArrayLayer, layerCount): a colour view of one mip
// level (2D for one layer, 2D_ARRAY for more).
Napi::Value CreateImageView(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  VkImageViewCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  ci.image = Handle<VkImage>(env, info[1], "image");
  ci.format = static_cast<VkFormat>(U32(env, info[2], "format"));
  const uint32_t layerCount = U32(env, info[4], "layerCount");
  ci.viewType = layerCount > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  ci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, U32(env, info[3], "baseArrayLayer"), layerCount};
  VkImageView view = VK_NULL_HANDLE;
  Check(env, vkCreateImageView(device, &ci, nullptr, &view), "vkCreateImageView");
  return ToJs(env, view);
}

// One VkImageMemoryBarrier (colour aspect, every mip level, layers baseArrayLayer..+layerCount):
// (cb, image, oldLayout, newLayout, srcStage, dstStage, srcAccess, dstAccess, baseArrayLayer, layerCount
// [, aspect: VkImageAspectFlags, colour when absent]).
Napi::Value CmdImageBarrier(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkImageMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  barrier.image = Handle<VkImage>(env, info[1], "image");
  barrier.oldLayout = static_cast<VkImageLayout>(U32(env, info[2], "oldLayout"));
  barrier.newLayout = static_cast<VkImageLayout>(U32(env, info[3], "newLayout"));
  barrier.srcAccessMask = U32(env, info[6], "srcAccessMask");
  barrier.dstAccessMask = U32(env, info[7], "dstAccessMask");
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  const VkImageAspectFlags aspect = info.Length() > 10 && !info[10].IsUndefined() ? U32(env, info[10], "aspect") : static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_COLOR_BIT);
  barrier.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, U32(env, info[8], "baseArrayLayer"), U32(env, info[9], "layerCount")};
  vkCmdPipelineBarrier(Handle<VkCommandBuffer>(env, info[0], "commandBuffer"), U32(env, info[4], "srcStageMask"),
                       U32(env, info[5], "dstStageMask"), 0, 0, nullptr, 0, nullptr, 1, &barrier);
  return env.Undefined();
}

// vkCmdClearColorImage with a float colour: (cb, image, layout, rgba: Float32Array(4), baseArrayLayer, layerCount).
// The colour comes in a typed array the caller keeps: fractional numbers as arguments would be
// boxed on the JavaScript heap at every call.
Napi::Value CmdClearColorImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[3].IsTypedArray() || info[3].As<Napi::TypedArray>().TypedArrayType() != napi_float32_array || info[3].As<Napi::Float32Array>().ElementLength() < 4) {
    throw ArgumentError(env, "clearColorImage: the colour must be a Float32Array of 4 numbers");
  }
  const Napi::Float32Array rgba = info[3].As<Napi::Float32Array>();
  VkClearColorValue color{};
  for (uint32_t i = 0; i < 4; ++i) color.float32[i] = rgba[i];
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, U32(env, info[4], "baseArrayLayer"), U32(env, info[5], "layerCount")};
  vkCmdClearColorImage(Handle<VkCommandBuffer>(env, info[0], "commandBuffer"), Handle<VkImage>(env, info[1], "image"),
                       static_cast<VkImageLayout>(U32(env, info[2], "layout")), &color, 1, &range);
  return env.Undefined();
}

// vkCmdClearDepthStencilImage: (cb, image, layout, depth, stencil, aspectMask, baseArrayLayer, layerCount), every mip level.
Napi::Value CmdClearDepthStencilImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[3].IsNumber()) throw ArgumentError(env, "clearDepthStencilImage: depth must be a number");
  const VkClearDepthStencilValue value{info[3].As<Napi::Number>().FloatValue(), U32(env, info[4], "stencil")};
  const VkImageSubresourceRange range{U32(env, info[5], "aspectMask"), 0, VK_REMAINING_MIP_LEVELS, U32(env, info[6], "baseArrayLayer"),
                                      U32(env, info[7], "layerCount")};
  vkCmdClearDepthStencilImage(Handle<VkCommandBuffer>(env, info[0], "commandBuffer"), Handle<VkImage>(env, info[1], "image"),
                              static_cast<VkImageLayout>(U32(env, info[2], "layout")), &value, 1, &range);
  return env.Undefined();
}

}  // namespace kl::napi::compute
