// The typed Vulkan API's buffers and device memory (argument 0: the VkDevice): create a buffer,
// allocate, bind, map and unmap memory, flush and invalidate mapped ranges.
#include "vulkan/addon/compute_functions.h"

#include "vulkan/addon/compute_arguments.h"

namespace kl::napi::compute {

namespace {

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

}  // namespace

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

Napi::Value FlushMemory(const Napi::CallbackInfo& info) { return FlushOrInvalidate(info, true); }
Napi::Value InvalidateMemory(const Napi::CallbackInfo& info) { return FlushOrInvalidate(info, false); }

}  // namespace kl::napi::compute
