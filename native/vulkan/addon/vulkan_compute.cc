// The typed Vulkan API's native half (issue 11): physical-device queries, and the device-level
// objects a compute application needs, as plain functions over handles. Every call goes through
// the addon's exported trampolines, so the layers in the chain see it. Handles travel as bigints;
// the TypeScript classes (lib/vulkan/api) own their lifetimes and refuse use after destroy, so
// these functions only check argument types. Recording and submission read numbers and bigints
// and create nothing on the JavaScript heap.
#include "vulkan/addon/vulkan_compute.h"

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "addon/errors.h"
#include "vulkan/addon/vulkan.h"
#include "vulkan/addon/vulkan_record_calls.h"
#include "vulkan/loader/trampolines.h"

// The addon's exported core commands (defined in vulkan/trampolines.cc), declared for this file.
#define KL_VK_DECLARE_EXPORTED(name, member, ret, params, args) KL_VK_EXPORT ret VKAPI_CALL name params;
KL_VK_CORE_INSTANCE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORTED)
KL_VK_CORE_DEVICE_COMMAND_SIGNATURES(KL_VK_DECLARE_EXPORTED)
#undef KL_VK_DECLARE_EXPORTED

namespace kl::napi {
namespace {

uint64_t U64(Napi::Env env, const Napi::Value& v, const char* what) {
  if (v.IsBigInt()) {
    bool lossless = true;
    return v.As<Napi::BigInt>().Uint64Value(&lossless);
  }
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (d >= 0 && d <= 9007199254740991.0 && d == static_cast<double>(static_cast<uint64_t>(d))) return static_cast<uint64_t>(d);
  }
  throw ArgumentError(env, std::string(what) + " must be a non-negative integer or bigint");
}

uint32_t U32(Napi::Env env, const Napi::Value& v, const char* what) {
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (d >= 0 && d <= 4294967295.0 && d == static_cast<double>(static_cast<uint32_t>(d))) return static_cast<uint32_t>(d);
  }
  throw ArgumentError(env, std::string(what) + " must be an integer in [0, 2^32)");
}

uint32_t FieldU32(Napi::Env env, Napi::Object o, const char* key) { return U32(env, o.Get(key), key); }

template <typename T>
T Handle(Napi::Env env, const Napi::Value& v, const char* what) {
  if (!v.IsBigInt()) throw ArgumentError(env, std::string(what) + " must be a bigint handle");
  bool lossless = true;
  const uint64_t raw = v.As<Napi::BigInt>().Uint64Value(&lossless);
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(static_cast<uintptr_t>(raw));
  } else {
    return static_cast<T>(raw);
  }
}

template <typename T>
Napi::BigInt ToJs(Napi::Env env, T handle) {
  if constexpr (std::is_pointer_v<T>) {
    return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle)));
  } else {
    return Napi::BigInt::New(env, static_cast<uint64_t>(handle));
  }
}

void Check(Napi::Env env, VkResult res, const char* what) {
  if (res != VK_SUCCESS) throw VkErrorToJs(env, res, std::string(what) + " failed");
}

Napi::Array ArrayArg(Napi::Env env, const Napi::Value& v, const char* what) {
  if (!v.IsArray()) throw ArgumentError(env, std::string(what) + " must be an array");
  return v.As<Napi::Array>();
}

Napi::Object ObjectAt(Napi::Env env, Napi::Array a, uint32_t i, const char* what) {
  Napi::Value v = a.Get(i);
  if (!v.IsObject()) throw ArgumentError(env, std::string(what) + " entries must be objects");
  return v.As<Napi::Object>();
}

// ---- physical devices (argument 0: the VkPhysicalDevice the instance handed out) ----

Napi::Value PhysicalDeviceProperties(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  VkPhysicalDeviceProperties p{};
  vkGetPhysicalDeviceProperties(pd, &p);
  Napi::Object o = Napi::Object::New(env);
  o.Set("deviceName", std::string(p.deviceName));
  o.Set("vendorID", p.vendorID);
  o.Set("deviceID", p.deviceID);
  o.Set("deviceType", static_cast<uint32_t>(p.deviceType));
  o.Set("apiVersion", p.apiVersion);
  o.Set("driverVersion", p.driverVersion);
  Napi::Object l = Napi::Object::New(env);
  const VkPhysicalDeviceLimits& lim = p.limits;
  auto triple = [&](const uint32_t* v) {
    Napi::Array a = Napi::Array::New(env, 3);
    for (uint32_t i = 0; i < 3; ++i) a.Set(i, v[i]);
    return a;
  };
  l.Set("maxComputeSharedMemorySize", lim.maxComputeSharedMemorySize);
  l.Set("maxComputeWorkGroupCount", triple(lim.maxComputeWorkGroupCount));
  l.Set("maxComputeWorkGroupInvocations", lim.maxComputeWorkGroupInvocations);
  l.Set("maxComputeWorkGroupSize", triple(lim.maxComputeWorkGroupSize));
  l.Set("maxPushConstantsSize", lim.maxPushConstantsSize);
  l.Set("maxStorageBufferRange", lim.maxStorageBufferRange);
  l.Set("maxBoundDescriptorSets", lim.maxBoundDescriptorSets);
  l.Set("maxMemoryAllocationCount", lim.maxMemoryAllocationCount);
  l.Set("minStorageBufferOffsetAlignment", Napi::Number::New(env, static_cast<double>(lim.minStorageBufferOffsetAlignment)));
  l.Set("nonCoherentAtomSize", Napi::Number::New(env, static_cast<double>(lim.nonCoherentAtomSize)));
  l.Set("timestampPeriod", lim.timestampPeriod);
  o.Set("limits", l);
  return o;
}

// VkPhysicalDeviceFeatures is VkBool32s only: handed over in member order (TypeScript names them).
Napi::Value PhysicalDeviceFeatures(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  VkPhysicalDeviceFeatures f{};
  vkGetPhysicalDeviceFeatures(pd, &f);
  constexpr std::size_t kCount = sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32);
  VkBool32 values[kCount];
  std::memcpy(values, &f, sizeof f);
  Napi::Array a = Napi::Array::New(env, kCount);
  for (uint32_t i = 0; i < kCount; ++i) a.Set(i, Napi::Boolean::New(env, values[i] != VK_FALSE));
  return a;
}

Napi::Value PhysicalDeviceMemoryProperties(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  VkPhysicalDeviceMemoryProperties m{};
  vkGetPhysicalDeviceMemoryProperties(pd, &m);
  Napi::Array types = Napi::Array::New(env, m.memoryTypeCount);
  for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
    Napi::Object t = Napi::Object::New(env);
    t.Set("propertyFlags", m.memoryTypes[i].propertyFlags);
    t.Set("heapIndex", m.memoryTypes[i].heapIndex);
    types.Set(i, t);
  }
  Napi::Array heaps = Napi::Array::New(env, m.memoryHeapCount);
  for (uint32_t i = 0; i < m.memoryHeapCount; ++i) {
    Napi::Object h = Napi::Object::New(env);
    h.Set("size", Napi::BigInt::New(env, static_cast<uint64_t>(m.memoryHeaps[i].size)));
    h.Set("flags", m.memoryHeaps[i].flags);
    heaps.Set(i, h);
  }
  Napi::Object o = Napi::Object::New(env);
  o.Set("memoryTypes", types);
  o.Set("memoryHeaps", heaps);
  return o;
}

Napi::Value PhysicalDeviceExtensions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto pd = Handle<VkPhysicalDevice>(env, info[0], "physicalDevice");
  uint32_t count = 0;
  Check(env, vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> props(count);
  VkResult res = vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, props.data());
  if (res < 0) Check(env, res, "vkEnumerateDeviceExtensionProperties");
  Napi::Array a = Napi::Array::New(env, count);
  for (uint32_t i = 0; i < count; ++i) {
    Napi::Object e = Napi::Object::New(env);
    e.Set("extensionName", std::string(props[i].extensionName));
    e.Set("specVersion", props[i].specVersion);
    a.Set(i, e);
  }
  return a;
}

// ---- device objects (argument 0: the VkDevice) ----

Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  VkBufferCreateInfo ci{};
  ci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  ci.size = U64(env, info[1], "size");
  ci.usage = U32(env, info[2], "usage");
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  Check(env, vkCreateBuffer(device, &ci, nullptr, &buffer), "vkCreateBuffer");
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device, buffer, &req);
  Napi::Object o = Napi::Object::New(env);
  o.Set("handle", ToJs(env, buffer));
  o.Set("size", Napi::Number::New(env, static_cast<double>(req.size)));
  o.Set("alignment", Napi::Number::New(env, static_cast<double>(req.alignment)));
  o.Set("memoryTypeBits", req.memoryTypeBits);
  return o;
}

Napi::Value AllocateMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  VkMemoryAllocateInfo ai{};
  ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  ai.allocationSize = U64(env, info[1], "size");
  ai.memoryTypeIndex = U32(env, info[2], "memoryTypeIndex");
  VkDeviceMemory memory = VK_NULL_HANDLE;
  Check(env, vkAllocateMemory(device, &ai, nullptr, &memory), "vkAllocateMemory");
  return ToJs(env, memory);
}

Napi::Value BindBufferMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env,
        vkBindBufferMemory(Handle<VkDevice>(env, info[0], "device"), Handle<VkBuffer>(env, info[1], "buffer"),
                           Handle<VkDeviceMemory>(env, info[2], "memory"), U64(env, info[3], "offset")),
        "vkBindBufferMemory");
  return env.Undefined();
}

// The mapped range as an ArrayBuffer over the driver's memory; UnmapMemory detaches it first so
// JavaScript never reaches memory that is no longer mapped.
Napi::Value MapMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  auto memory = Handle<VkDeviceMemory>(env, info[1], "memory");
  const uint64_t offset = U64(env, info[2], "offset");
  const uint64_t size = U64(env, info[3], "size");
  void* data = nullptr;
  Check(env, vkMapMemory(device, memory, offset, size, 0, &data), "vkMapMemory");
  napi_value ab = nullptr;
  if (napi_create_external_arraybuffer(env, data, static_cast<size_t>(size), nullptr, nullptr, &ab) != napi_ok) {
    vkUnmapMemory(device, memory);
    throw VkErrorToJs(env, VK_ERROR_MEMORY_MAP_FAILED, "the mapped memory could not be wrapped in an ArrayBuffer");
  }
  return Napi::Value(env, ab);
}

Napi::Value UnmapMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  auto memory = Handle<VkDeviceMemory>(env, info[1], "memory");
  if (!info[2].IsArrayBuffer()) throw ArgumentError(env, "mapping must be the ArrayBuffer mapMemory returned");
  Napi::ArrayBuffer mapping = info[2].As<Napi::ArrayBuffer>();
  if (!mapping.IsDetached()) mapping.Detach();
  vkUnmapMemory(device, memory);
  return env.Undefined();
}

// vkFlushMappedMemoryRanges / vkInvalidateMappedMemoryRanges for one range (non-coherent memory).
Napi::Value FlushOrInvalidate(const Napi::CallbackInfo& info, bool flush) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = Handle<VkDeviceMemory>(env, info[1], "memory");
  range.offset = U64(env, info[2], "offset");
  range.size = U64(env, info[3], "size");
  if (flush) Check(env, vkFlushMappedMemoryRanges(device, 1, &range), "vkFlushMappedMemoryRanges");
  else Check(env, vkInvalidateMappedMemoryRanges(device, 1, &range), "vkInvalidateMappedMemoryRanges");
  return env.Undefined();
}

Napi::Value FlushMemory(const Napi::CallbackInfo& info) { return FlushOrInvalidate(info, true); }
Napi::Value InvalidateMemory(const Napi::CallbackInfo& info) { return FlushOrInvalidate(info, false); }

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

// updateDescriptorSetImages(device, set, [{ binding, descriptorType, imageView, imageLayout }])
Napi::Value UpdateDescriptorSetImages(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  auto set = Handle<VkDescriptorSet>(env, info[1], "set");
  Napi::Array a = ArrayArg(env, info[2], "writes");
  std::vector<VkDescriptorImageInfo> images(a.Length());
  std::vector<VkWriteDescriptorSet> writes(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Object w = ObjectAt(env, a, i, "writes");
    images[i].imageView = Handle<VkImageView>(env, w.Get("imageView"), "imageView");
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

// One VkImageMemoryBarrier (colour aspect, every mip level, layers baseArrayLayer..+layerCount):
// (cb, image, oldLayout, newLayout, srcStage, dstStage, srcAccess, dstAccess, baseArrayLayer, layerCount).
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
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, U32(env, info[8], "baseArrayLayer"), U32(env, info[9], "layerCount")};
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

// ---- synchronisation and submission ----

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

// destroy(device, kind, handle): the vkDestroy*/vkFree* of one device child.
Napi::Value DestroyChild(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto device = Handle<VkDevice>(env, info[0], "device");
  if (!info[1].IsString()) throw ArgumentError(env, "kind must be a string");
  const std::string kind = info[1].As<Napi::String>().Utf8Value();
  const Napi::Value h = info[2];
  if (kind == "buffer") vkDestroyBuffer(device, Handle<VkBuffer>(env, h, "handle"), nullptr);
  else if (kind == "memory") vkFreeMemory(device, Handle<VkDeviceMemory>(env, h, "handle"), nullptr);
  else if (kind == "shaderModule") vkDestroyShaderModule(device, Handle<VkShaderModule>(env, h, "handle"), nullptr);
  else if (kind == "descriptorSetLayout") vkDestroyDescriptorSetLayout(device, Handle<VkDescriptorSetLayout>(env, h, "handle"), nullptr);
  else if (kind == "descriptorPool") vkDestroyDescriptorPool(device, Handle<VkDescriptorPool>(env, h, "handle"), nullptr);
  else if (kind == "pipelineLayout") vkDestroyPipelineLayout(device, Handle<VkPipelineLayout>(env, h, "handle"), nullptr);
  else if (kind == "pipeline") vkDestroyPipeline(device, Handle<VkPipeline>(env, h, "handle"), nullptr);
  else if (kind == "commandPool") vkDestroyCommandPool(device, Handle<VkCommandPool>(env, h, "handle"), nullptr);
  else if (kind == "fence") vkDestroyFence(device, Handle<VkFence>(env, h, "handle"), nullptr);
  else if (kind == "semaphore") vkDestroySemaphore(device, Handle<VkSemaphore>(env, h, "handle"), nullptr);
  else if (kind == "imageView") vkDestroyImageView(device, Handle<VkImageView>(env, h, "handle"), nullptr);
  else throw ArgumentError(env, "unknown kind " + kind);
  return env.Undefined();
}

}  // namespace

Napi::Object VulkanComputeFunctions(Napi::Env env) {
  Napi::Object o = Napi::Object::New(env);
  auto add = [&](const char* name, Napi::Value (*fn)(const Napi::CallbackInfo&)) { o.Set(name, Napi::Function::New(env, fn, name)); };
  add("physicalDeviceProperties", PhysicalDeviceProperties);
  add("physicalDeviceFeatures", PhysicalDeviceFeatures);
  add("physicalDeviceMemoryProperties", PhysicalDeviceMemoryProperties);
  add("physicalDeviceExtensions", PhysicalDeviceExtensions);
  add("createBuffer", CreateBuffer);
  add("allocateMemory", AllocateMemory);
  add("bindBufferMemory", BindBufferMemory);
  add("mapMemory", MapMemory);
  add("unmapMemory", UnmapMemory);
  add("flushMemory", FlushMemory);
  add("invalidateMemory", InvalidateMemory);
  add("createShaderModule", CreateShaderModule);
  add("createDescriptorSetLayout", CreateDescriptorSetLayout);
  add("createDescriptorPool", CreateDescriptorPool);
  add("allocateDescriptorSet", AllocateDescriptorSet);
  add("freeDescriptorSet", FreeDescriptorSet);
  add("updateDescriptorSetBuffers", UpdateDescriptorSetBuffers);
  add("createPipelineLayout", CreatePipelineLayout);
  add("createComputePipeline", CreateComputePipeline);
  add("createCommandPool", CreateCommandPool);
  add("allocateCommandBuffer", AllocateCommandBuffer);
  add("freeCommandBuffer", FreeCommandBuffer);
  add("beginCommandBuffer", BeginCommandBuffer);
  add("endCommandBuffer", EndCommandBuffer);
  add("resetCommandBuffer", ResetCommandBuffer);
  AddRecordCalls(env, o);  // cmdBindComputePipeline ... cmdPipelineBarrier: raw N-API
  add("cmdCopyBuffer", CmdCopyBuffer);
  add("cmdImageBarrier", CmdImageBarrier);
  add("createImageView", CreateImageView);
  add("updateDescriptorSetImages", UpdateDescriptorSetImages);
  add("cmdClearColorImage", CmdClearColorImage);
  add("createFence", CreateFence);
  add("fenceStatus", FenceStatus);
  add("resetFence", ResetFence);
  add("waitFence", WaitFence);
  add("createSemaphore", CreateSemaphore);
  add("queueSubmit", QueueSubmit);
  add("queueWaitIdle", QueueWaitIdle);
  add("deviceWaitIdle", DeviceWaitIdle);
  add("destroy", DestroyChild);
  return o;
}

}  // namespace kl::napi
