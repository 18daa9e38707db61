// The typed Vulkan API's graphics objects (argument 0: the VkDevice): owned images and their
// memory, image views of any type and aspect, samplers, render passes (multiview through
// VkRenderPassMultiviewCreateInfo), framebuffers and graphics pipelines (a render pass and subpass,
// or dynamic rendering through VkPipelineRenderingCreateInfo). lib/vulkan/api/graphics.ts checks
// every argument first; these functions read flat objects whose fields it wrote.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "vulkan/addon/compute_arguments.h"
#include "vulkan/addon/compute_functions.h"

namespace kl::napi::compute {

namespace {

float FieldF32(Napi::Env env, Napi::Object o, const char* key) {
  const Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw ArgumentError(env, std::string(key) + " must be a number");
  return v.As<Napi::Number>().FloatValue();
}

bool FieldBool(Napi::Object o, const char* key) { return o.Get(key).ToBoolean().Value(); }

Napi::Object ObjectArg(Napi::Env env, const Napi::Value& v, const char* what) {
  if (!v.IsObject()) throw ArgumentError(env, std::string(what) + " must be an object");
  return v.As<Napi::Object>();
}

std::vector<uint32_t> U32Array(Napi::Env env, Napi::Object o, const char* key) {
  Napi::Array a = ArrayArg(env, o.Get(key), key);
  std::vector<uint32_t> out(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) out[i] = U32(env, a.Get(i), key);
  return out;
}

}  // namespace

// createImage(device, { imageType, format, width, height, depth, mipLevels, arrayLayers, samples,
// usage, flags }) -> { handle, size, alignment, memoryTypeBits } (optimal tiling, exclusive).
Napi::Value CreateImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Object o = ObjectArg(env, info[1], "options");
  VkImageCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  ci.flags = FieldU32(env, o, "flags");
  ci.imageType = static_cast<VkImageType>(FieldU32(env, o, "imageType"));
  ci.format = static_cast<VkFormat>(FieldU32(env, o, "format"));
  ci.extent = {FieldU32(env, o, "width"), FieldU32(env, o, "height"), FieldU32(env, o, "depth")};
  ci.mipLevels = FieldU32(env, o, "mipLevels");
  ci.arrayLayers = FieldU32(env, o, "arrayLayers");
  ci.samples = static_cast<VkSampleCountFlagBits>(FieldU32(env, o, "samples"));
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = FieldU32(env, o, "usage");
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image = VK_NULL_HANDLE;
  Check(env, vkCreateImage(device, &ci, nullptr, &image), "vkCreateImage");
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device, image, &req);
  Napi::Object out = Napi::Object::New(env);
  out.Set("handle", ToJs(env, image));
  out.Set("size", Napi::Number::New(env, static_cast<double>(req.size)));
  out.Set("alignment", Napi::Number::New(env, static_cast<double>(req.alignment)));
  out.Set("memoryTypeBits", Napi::Number::New(env, req.memoryTypeBits));
  return out;
}

// bindImageMemory(device, image, memory, offset)
Napi::Value BindImageMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env,
        vkBindImageMemory(Handle<VkDevice>(env, info[0], "device"), Handle<VkImage>(env, info[1], "image"), Handle<VkDeviceMemory>(env, info[2], "memory"),
                          U64(env, info[3], "offset")),
        "vkBindImageMemory");
  return env.Undefined();
}

// createImageViewOf(device, image, { viewType, format, aspect, baseMipLevel, levelCount, baseArrayLayer, layerCount })
Napi::Value CreateImageViewOf(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Object o = ObjectArg(env, info[2], "options");
  VkImageViewCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  ci.image = Handle<VkImage>(env, info[1], "image");
  ci.viewType = static_cast<VkImageViewType>(FieldU32(env, o, "viewType"));
  ci.format = static_cast<VkFormat>(FieldU32(env, o, "format"));
  ci.subresourceRange = {FieldU32(env, o, "aspect"), FieldU32(env, o, "baseMipLevel"), FieldU32(env, o, "levelCount"), FieldU32(env, o, "baseArrayLayer"),
                         FieldU32(env, o, "layerCount")};
  VkImageView view = VK_NULL_HANDLE;
  Check(env, vkCreateImageView(device, &ci, nullptr, &view), "vkCreateImageView");
  return ToJs(env, view);
}

// createSampler(device, { magFilter, minFilter, mipmapMode, addressModeU, addressModeV, addressModeW,
// mipLodBias, maxAnisotropy (0: off), compareOp (-1... as 0xffffffff: off), minLod, maxLod, borderColor })
Napi::Value CreateSampler(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Object o = ObjectArg(env, info[1], "options");
  VkSamplerCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  ci.magFilter = static_cast<VkFilter>(FieldU32(env, o, "magFilter"));
  ci.minFilter = static_cast<VkFilter>(FieldU32(env, o, "minFilter"));
  ci.mipmapMode = static_cast<VkSamplerMipmapMode>(FieldU32(env, o, "mipmapMode"));
  ci.addressModeU = static_cast<VkSamplerAddressMode>(FieldU32(env, o, "addressModeU"));
  ci.addressModeV = static_cast<VkSamplerAddressMode>(FieldU32(env, o, "addressModeV"));
  ci.addressModeW = static_cast<VkSamplerAddressMode>(FieldU32(env, o, "addressModeW"));
  ci.mipLodBias = FieldF32(env, o, "mipLodBias");
  const float anisotropy = FieldF32(env, o, "maxAnisotropy");
  ci.anisotropyEnable = anisotropy >= 1.0F ? VK_TRUE : VK_FALSE;
  ci.maxAnisotropy = anisotropy >= 1.0F ? anisotropy : 1.0F;
  const uint32_t compare = FieldU32(env, o, "compareOp");
  ci.compareEnable = compare != 0xffffffffU ? VK_TRUE : VK_FALSE;
  ci.compareOp = compare != 0xffffffffU ? static_cast<VkCompareOp>(compare) : VK_COMPARE_OP_NEVER;
  ci.minLod = FieldF32(env, o, "minLod");
  ci.maxLod = FieldF32(env, o, "maxLod");
  ci.borderColor = static_cast<VkBorderColor>(FieldU32(env, o, "borderColor"));
  VkSampler sampler = VK_NULL_HANDLE;
  Check(env, vkCreateSampler(device, &ci, nullptr, &sampler), "vkCreateSampler");
  return ToJs(env, sampler);
}

// createRenderPass(device, { attachments: [{ format, samples, loadOp, storeOp, stencilLoadOp,
// stencilStoreOp, initialLayout, finalLayout }], subpasses: [{ colors: [{ attachment, layout }],
// depth: { attachment, layout } | null, viewMask }], dependencies: [{ srcSubpass, dstSubpass,
// srcStageMask, dstStageMask, srcAccessMask, dstAccessMask, dependencyFlags }], multiview })
Napi::Value CreateRenderPass(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Object o = ObjectArg(env, info[1], "options");
  Napi::Array aa = ArrayArg(env, o.Get("attachments"), "attachments");
  std::vector<VkAttachmentDescription> attachments(aa.Length());
  for (uint32_t i = 0; i < aa.Length(); ++i) {
    Napi::Object a = ObjectAt(env, aa, i, "attachments");
    attachments[i].format = static_cast<VkFormat>(FieldU32(env, a, "format"));
    attachments[i].samples = static_cast<VkSampleCountFlagBits>(FieldU32(env, a, "samples"));
    attachments[i].loadOp = static_cast<VkAttachmentLoadOp>(FieldU32(env, a, "loadOp"));
    attachments[i].storeOp = static_cast<VkAttachmentStoreOp>(FieldU32(env, a, "storeOp"));
    attachments[i].stencilLoadOp = static_cast<VkAttachmentLoadOp>(FieldU32(env, a, "stencilLoadOp"));
    attachments[i].stencilStoreOp = static_cast<VkAttachmentStoreOp>(FieldU32(env, a, "stencilStoreOp"));
    attachments[i].initialLayout = static_cast<VkImageLayout>(FieldU32(env, a, "initialLayout"));
    attachments[i].finalLayout = static_cast<VkImageLayout>(FieldU32(env, a, "finalLayout"));
  }
  Napi::Array sa = ArrayArg(env, o.Get("subpasses"), "subpasses");
  std::vector<std::vector<VkAttachmentReference>> colors(sa.Length());
  std::vector<VkAttachmentReference> depths(sa.Length());
  std::vector<VkSubpassDescription> subpasses(sa.Length());
  std::vector<uint32_t> viewMasks(sa.Length());
  for (uint32_t i = 0; i < sa.Length(); ++i) {
    Napi::Object s = ObjectAt(env, sa, i, "subpasses");
    Napi::Array ca = ArrayArg(env, s.Get("colors"), "colors");
    for (uint32_t c = 0; c < ca.Length(); ++c) {
      Napi::Object r = ObjectAt(env, ca, c, "colors");
      colors[i].push_back({FieldU32(env, r, "attachment"), static_cast<VkImageLayout>(FieldU32(env, r, "layout"))});
    }
    subpasses[i].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpasses[i].colorAttachmentCount = static_cast<uint32_t>(colors[i].size());
    subpasses[i].pColorAttachments = colors[i].data();
    const Napi::Value d = s.Get("depth");
    if (d.IsObject()) {
      Napi::Object r = d.As<Napi::Object>();
      depths[i] = {FieldU32(env, r, "attachment"), static_cast<VkImageLayout>(FieldU32(env, r, "layout"))};
      subpasses[i].pDepthStencilAttachment = &depths[i];
    }
    viewMasks[i] = FieldU32(env, s, "viewMask");
  }
  Napi::Array da = ArrayArg(env, o.Get("dependencies"), "dependencies");
  std::vector<VkSubpassDependency> dependencies(da.Length());
  for (uint32_t i = 0; i < da.Length(); ++i) {
    Napi::Object d = ObjectAt(env, da, i, "dependencies");
    dependencies[i] = {FieldU32(env, d, "srcSubpass"),    FieldU32(env, d, "dstSubpass"),    FieldU32(env, d, "srcStageMask"), FieldU32(env, d, "dstStageMask"),
                       FieldU32(env, d, "srcAccessMask"), FieldU32(env, d, "dstAccessMask"), FieldU32(env, d, "dependencyFlags")};
  }
  VkRenderPassCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  ci.attachmentCount = static_cast<uint32_t>(attachments.size());
  ci.pAttachments = attachments.data();
  ci.subpassCount = static_cast<uint32_t>(subpasses.size());
  ci.pSubpasses = subpasses.data();
  ci.dependencyCount = static_cast<uint32_t>(dependencies.size());
  ci.pDependencies = dependencies.data();
  // Vulkan specification, "Render Pass Creation": multiview through VkRenderPassMultiviewCreateInfo
  // (one view mask per subpass; the views a subpass renders are correlated).
  VkRenderPassMultiviewCreateInfo multiview{};
  if (FieldBool(o, "multiview")) {
    multiview.sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO;
    multiview.subpassCount = static_cast<uint32_t>(viewMasks.size());
    multiview.pViewMasks = viewMasks.data();
    multiview.correlationMaskCount = static_cast<uint32_t>(viewMasks.size());
    multiview.pCorrelationMasks = viewMasks.data();
    ci.pNext = &multiview;
  }
  VkRenderPass pass = VK_NULL_HANDLE;
  Check(env, vkCreateRenderPass(device, &ci, nullptr, &pass), "vkCreateRenderPass");
  return ToJs(env, pass);
}

// createFramebuffer(device, renderPass, [imageView], width, height, layers)
Napi::Value CreateFramebuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Array va = ArrayArg(env, info[2], "attachments");
  std::vector<VkImageView> views(va.Length());
  for (uint32_t i = 0; i < va.Length(); ++i) views[i] = Handle<VkImageView>(env, va.Get(i), "attachments[i]");
  VkFramebufferCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  ci.renderPass = Handle<VkRenderPass>(env, info[1], "renderPass");
  ci.attachmentCount = static_cast<uint32_t>(views.size());
  ci.pAttachments = views.data();
  ci.width = U32(env, info[3], "width");
  ci.height = U32(env, info[4], "height");
  ci.layers = U32(env, info[5], "layers");
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  Check(env, vkCreateFramebuffer(device, &ci, nullptr, &framebuffer), "vkCreateFramebuffer");
  return ToJs(env, framebuffer);
}

// createGraphicsPipeline(device, { layout, renderPass (0n: dynamic rendering), subpass,
// stages: [{ stage, module, entryPoint }], bindings: [{ binding, stride, inputRate }],
// attributes: [{ location, binding, format, offset }], topology, primitiveRestart, polygonMode,
// cullMode, frontFace, lineWidth, samples, depthTest, depthWrite, compareOp,
// blend: [{ enable, srcColor, dstColor, colorOp, srcAlpha, dstAlpha, alphaOp, writeMask }],
// colorFormats, depthFormat, stencilFormat, viewMask }). Viewport and scissor are dynamic state.
Napi::Value CreateGraphicsPipeline(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Object o = ObjectArg(env, info[1], "options");

  Napi::Array sa = ArrayArg(env, o.Get("stages"), "stages");
  std::vector<std::string> entries(sa.Length());
  std::vector<VkPipelineShaderStageCreateInfo> stages(sa.Length());
  for (uint32_t i = 0; i < sa.Length(); ++i) {
    Napi::Object s = ObjectAt(env, sa, i, "stages");
    const Napi::Value name = s.Get("entryPoint");
    if (!name.IsString()) throw ArgumentError(env, "entryPoint must be a string");
    entries[i] = name.As<Napi::String>().Utf8Value();
    stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[i].stage = static_cast<VkShaderStageFlagBits>(FieldU32(env, s, "stage"));
    stages[i].module = Handle<VkShaderModule>(env, s.Get("module"), "module");
  }
  for (uint32_t i = 0; i < sa.Length(); ++i) stages[i].pName = entries[i].c_str();

  Napi::Array ba = ArrayArg(env, o.Get("bindings"), "bindings");
  std::vector<VkVertexInputBindingDescription> bindings(ba.Length());
  for (uint32_t i = 0; i < ba.Length(); ++i) {
    Napi::Object b = ObjectAt(env, ba, i, "bindings");
    bindings[i] = {FieldU32(env, b, "binding"), FieldU32(env, b, "stride"), static_cast<VkVertexInputRate>(FieldU32(env, b, "inputRate"))};
  }
  Napi::Array aa = ArrayArg(env, o.Get("attributes"), "attributes");
  std::vector<VkVertexInputAttributeDescription> attributes(aa.Length());
  for (uint32_t i = 0; i < aa.Length(); ++i) {
    Napi::Object a = ObjectAt(env, aa, i, "attributes");
    attributes[i] = {FieldU32(env, a, "location"), FieldU32(env, a, "binding"), static_cast<VkFormat>(FieldU32(env, a, "format")), FieldU32(env, a, "offset")};
  }
  VkPipelineVertexInputStateCreateInfo vertexInput{};
  vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertexInput.vertexBindingDescriptionCount = static_cast<uint32_t>(bindings.size());
  vertexInput.pVertexBindingDescriptions = bindings.data();
  vertexInput.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
  vertexInput.pVertexAttributeDescriptions = attributes.data();

  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = static_cast<VkPrimitiveTopology>(FieldU32(env, o, "topology"));
  assembly.primitiveRestartEnable = FieldBool(o, "primitiveRestart") ? VK_TRUE : VK_FALSE;

  VkPipelineViewportStateCreateInfo viewport{};
  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;

  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = static_cast<VkPolygonMode>(FieldU32(env, o, "polygonMode"));
  raster.cullMode = FieldU32(env, o, "cullMode");
  raster.frontFace = static_cast<VkFrontFace>(FieldU32(env, o, "frontFace"));
  raster.lineWidth = FieldF32(env, o, "lineWidth");

  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = static_cast<VkSampleCountFlagBits>(FieldU32(env, o, "samples"));

  VkPipelineDepthStencilStateCreateInfo depth{};
  depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth.depthTestEnable = FieldBool(o, "depthTest") ? VK_TRUE : VK_FALSE;
  depth.depthWriteEnable = FieldBool(o, "depthWrite") ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = static_cast<VkCompareOp>(FieldU32(env, o, "compareOp"));
  depth.maxDepthBounds = 1.0F;

  Napi::Array bl = ArrayArg(env, o.Get("blend"), "blend");
  std::vector<VkPipelineColorBlendAttachmentState> blend(bl.Length());
  for (uint32_t i = 0; i < bl.Length(); ++i) {
    Napi::Object b = ObjectAt(env, bl, i, "blend");
    blend[i].blendEnable = FieldBool(b, "enable") ? VK_TRUE : VK_FALSE;
    blend[i].srcColorBlendFactor = static_cast<VkBlendFactor>(FieldU32(env, b, "srcColor"));
    blend[i].dstColorBlendFactor = static_cast<VkBlendFactor>(FieldU32(env, b, "dstColor"));
    blend[i].colorBlendOp = static_cast<VkBlendOp>(FieldU32(env, b, "colorOp"));
    blend[i].srcAlphaBlendFactor = static_cast<VkBlendFactor>(FieldU32(env, b, "srcAlpha"));
    blend[i].dstAlphaBlendFactor = static_cast<VkBlendFactor>(FieldU32(env, b, "dstAlpha"));
    blend[i].alphaBlendOp = static_cast<VkBlendOp>(FieldU32(env, b, "alphaOp"));
    blend[i].colorWriteMask = FieldU32(env, b, "writeMask");
  }
  VkPipelineColorBlendStateCreateInfo colorBlend{};
  colorBlend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  colorBlend.attachmentCount = static_cast<uint32_t>(blend.size());
  colorBlend.pAttachments = blend.data();

  const std::array<VkDynamicState, 2> dynamicStates{VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = static_cast<uint32_t>(dynamicStates.size());
  dynamic.pDynamicStates = dynamicStates.data();

  VkGraphicsPipelineCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  ci.stageCount = static_cast<uint32_t>(stages.size());
  ci.pStages = stages.data();
  ci.pVertexInputState = &vertexInput;
  ci.pInputAssemblyState = &assembly;
  ci.pViewportState = &viewport;
  ci.pRasterizationState = &raster;
  ci.pMultisampleState = &multisample;
  ci.pDepthStencilState = &depth;
  ci.pColorBlendState = &colorBlend;
  ci.pDynamicState = &dynamic;
  ci.layout = Handle<VkPipelineLayout>(env, o.Get("layout"), "layout");
  ci.renderPass = Handle<VkRenderPass>(env, o.Get("renderPass"), "renderPass");
  ci.subpass = FieldU32(env, o, "subpass");
  // Vulkan specification, "Dynamic Rendering": with no render pass, the attachments' formats and
  // the view mask come in VkPipelineRenderingCreateInfo.
  const std::vector<uint32_t> formatWords = U32Array(env, o, "colorFormats");
  std::vector<VkFormat> colorFormats(formatWords.size());
  for (std::size_t i = 0; i < formatWords.size(); ++i) colorFormats[i] = static_cast<VkFormat>(formatWords[i]);
  VkPipelineRenderingCreateInfo rendering{};
  if (ci.renderPass == VK_NULL_HANDLE) {
    rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
    rendering.viewMask = FieldU32(env, o, "viewMask");
    rendering.colorAttachmentCount = static_cast<uint32_t>(colorFormats.size());
    rendering.pColorAttachmentFormats = colorFormats.data();
    rendering.depthAttachmentFormat = static_cast<VkFormat>(FieldU32(env, o, "depthFormat"));
    rendering.stencilAttachmentFormat = static_cast<VkFormat>(FieldU32(env, o, "stencilFormat"));
    ci.pNext = &rendering;
  }
  VkPipeline pipeline = VK_NULL_HANDLE;
  Check(env, vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), "vkCreateGraphicsPipelines");
  return ToJs(env, pipeline);
}

}  // namespace kl::napi::compute
