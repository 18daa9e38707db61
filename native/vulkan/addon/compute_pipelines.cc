// The typed Vulkan API's shaders and compute pipelines (argument 0: the VkDevice): shader modules,
// pipeline layouts, compute pipelines.
#include "vulkan/addon/compute_functions.h"

#include <string>
#include <vector>

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

Napi::Value CreateShaderModule(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array) {
    throw ArgumentError(env, "code must be a Uint32Array of SPIR-V words");
  }
  Napi::Uint32Array code = info[1].As<Napi::Uint32Array>();
  if (code.ElementLength() == 0) throw ArgumentError(env, "code must hold SPIR-V words");
  VkShaderModuleCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  ci.codeSize = code.ByteLength();
  ci.pCode = code.Data();
  VkShaderModule module = VK_NULL_HANDLE;
  Check(env, vkCreateShaderModule(device, &ci, nullptr, &module), "vkCreateShaderModule");
  return ToJs(env, module);
}

Napi::Value CreatePipelineLayout(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Array la = ArrayArg(env, info[1], "setLayouts");
  std::vector<VkDescriptorSetLayout> layouts(la.Length());
  for (uint32_t i = 0; i < la.Length(); ++i) layouts[i] = Handle<VkDescriptorSetLayout>(env, la.Get(i), "setLayouts[i]");
  Napi::Array pa = ArrayArg(env, info[2], "pushConstantRanges");
  std::vector<VkPushConstantRange> ranges(pa.Length());
  for (uint32_t i = 0; i < pa.Length(); ++i) {
    Napi::Object r = ObjectAt(env, pa, i, "pushConstantRanges");
    ranges[i].stageFlags = FieldU32(env, r, "stageFlags");
    ranges[i].offset = FieldU32(env, r, "offset");
    ranges[i].size = FieldU32(env, r, "size");
  }
  VkPipelineLayoutCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  ci.setLayoutCount = static_cast<uint32_t>(layouts.size());
  ci.pSetLayouts = layouts.data();
  ci.pushConstantRangeCount = static_cast<uint32_t>(ranges.size());
  ci.pPushConstantRanges = ranges.data();
  VkPipelineLayout layout = VK_NULL_HANDLE;
  Check(env, vkCreatePipelineLayout(device, &ci, nullptr, &layout), "vkCreatePipelineLayout");
  return ToJs(env, layout);
}

Napi::Value CreateComputePipeline(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  if (!info[3].IsString()) throw ArgumentError(env, "entryPoint must be a string");
  const std::string entry = info[3].As<Napi::String>().Utf8Value();
  VkComputePipelineCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = Handle<VkShaderModule>(env, info[2], "module");
  ci.stage.pName = entry.c_str();
  ci.layout = Handle<VkPipelineLayout>(env, info[1], "layout");
  VkPipeline pipeline = VK_NULL_HANDLE;
  Check(env, vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), "vkCreateComputePipelines");
  return ToJs(env, pipeline);
}

}  // namespace kl::napi::compute
