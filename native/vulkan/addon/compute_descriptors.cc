// The typed Vulkan API's descriptors (argument 0: the VkDevice): set layouts, pools, sets, and
// their buffer and image writes.
#include "vulkan/addon/compute_functions.h"

#include <vector>

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

Napi::Value CreateDescriptorSetLayout(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Array a = ArrayArg(env, info[1], "bindings");
  std::vector<VkDescriptorSetLayoutBinding> bindings(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Object b = ObjectAt(env, a, i, "bindings");
    bindings[i].binding = FieldU32(env, b, "binding");
    bindings[i].descriptorType = static_cast<VkDescriptorType>(FieldU32(env, b, "descriptorType"));
    bindings[i].descriptorCount = FieldU32(env, b, "descriptorCount");
    bindings[i].stageFlags = FieldU32(env, b, "stageFlags");
  }
  VkDescriptorSetLayoutCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  ci.bindingCount = static_cast<uint32_t>(bindings.size());
  ci.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  Check(env, vkCreateDescriptorSetLayout(device, &ci, nullptr, &layout), "vkCreateDescriptorSetLayout");
  return ToJs(env, layout);
}

Napi::Value CreateDescriptorPool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  Napi::Array a = ArrayArg(env, info[2], "poolSizes");
  std::vector<VkDescriptorPoolSize> sizes(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Object s = ObjectAt(env, a, i, "poolSizes");
    sizes[i].type = static_cast<VkDescriptorType>(FieldU32(env, s, "type"));
    sizes[i].descriptorCount = FieldU32(env, s, "descriptorCount");
  }
  VkDescriptorPoolCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  ci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  ci.maxSets = U32(env, info[1], "maxSets");
  ci.poolSizeCount = static_cast<uint32_t>(sizes.size());
  ci.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  Check(env, vkCreateDescriptorPool(device, &ci, nullptr, &pool), "vkCreateDescriptorPool");
  return ToJs(env, pool);
}

Napi::Value AllocateDescriptorSet(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  VkDescriptorSetLayout layout = Handle<VkDescriptorSetLayout>(env, info[2], "layout");
  VkDescriptorSetAllocateInfo ai{};
  ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  ai.descriptorPool = Handle<VkDescriptorPool>(env, info[1], "pool");
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  Check(env, vkAllocateDescriptorSets(device, &ai, &set), "vkAllocateDescriptorSets");
  return ToJs(env, set);
}

Napi::Value FreeDescriptorSet(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkDescriptorSet set = Handle<VkDescriptorSet>(env, info[2], "set");
  Check(env, vkFreeDescriptorSets(Handle<VkDevice>(env, info[0], "device"), Handle<VkDescriptorPool>(env, info[1], "pool"), 1, &set),
        "vkFreeDescriptorSets");
  return env.Undefined();
}

// writes: [{ binding, descriptorType, buffer, offset, range }] into one set.
Napi::Value UpdateDescriptorSetBuffers(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  auto set = Handle<VkDescriptorSet>(env, info[1], "set");
  Napi::Array a = ArrayArg(env, info[2], "writes");
  std::vector<VkDescriptorBufferInfo> buffers(a.Length());
  std::vector<VkWriteDescriptorSet> writes(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Object w = ObjectAt(env, a, i, "writes");
    buffers[i].buffer = Handle<VkBuffer>(env, w.Get("buffer"), "buffer");
    buffers[i].offset = U64(env, w.Get("offset"), "offset");
    buffers[i].range = w.Get("range").IsUndefined() ? VK_WHOLE_SIZE : U64(env, w.Get("range"), "range");
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set;
    writes[i].dstBinding = FieldU32(env, w, "binding");
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = static_cast<VkDescriptorType>(FieldU32(env, w, "descriptorType"));
    writes[i].pBufferInfo = &buffers[i];
  }
  vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return env.Undefined();
}

// updateDescriptorSetImages(device, set, [{ binding, descriptorType, imageView, imageLayout, sampler? }])
// (sampler: for COMBINED_IMAGE_SAMPLER and SAMPLER descriptors).
Napi::Value UpdateDescriptorSetImages(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  auto set = Handle<VkDescriptorSet>(env, info[1], "set");
  Napi::Array a = ArrayArg(env, info[2], "writes");
  std::vector<VkDescriptorImageInfo> images(a.Length());
  std::vector<VkWriteDescriptorSet> writes(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Object w = ObjectAt(env, a, i, "writes");
    const Napi::Value view = w.Get("imageView");
    images[i].imageView = view.IsUndefined() ? VK_NULL_HANDLE : Handle<VkImageView>(env, view, "imageView");
    const Napi::Value sampler = w.Get("sampler");
    if (!sampler.IsUndefined()) images[i].sampler = Handle<VkSampler>(env, sampler, "sampler");
    images[i].imageLayout = static_cast<VkImageLayout>(FieldU32(env, w, "imageLayout"));
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set;
    writes[i].dstBinding = FieldU32(env, w, "binding");
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = static_cast<VkDescriptorType>(FieldU32(env, w, "descriptorType"));
    writes[i].pImageInfo = &images[i];
  }
  vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return env.Undefined();
}

}  // namespace kl::napi::compute
