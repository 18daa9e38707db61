#include "vulkan/addon/vulkan_commands.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>

#include "addon/errors.h"
#include "generated/vulkan_marshal.h"
#include "vulkan/addon/vulkan.h"
#include "vulkan/loader/trampolines.h"

namespace kl::napi::vk {

namespace vkm = khronos_loader::generated::vkmarshal;
using kl::marshal::Arena;
using kl::marshal::Field;
using kl::marshal::Scalar;
using kl::marshal::Shape;
using kl::marshal::StructMarshaller;

std::int16_t HandleType(std::string_view name) {
  for (std::size_t i = 0; i < std::size(vkm::kHandleTypes); ++i) {
    if (name == vkm::kHandleTypes[i].name) return static_cast<std::int16_t>(i);
  }
  return -1;
}

namespace {

constexpr std::size_t kCommandCount = std::size(vkm::kCommands);
constexpr std::size_t kMaxParams = 24;
static_assert(std::all_of(std::begin(vkm::kCommands), std::end(vkm::kCommands), [](const vkm::Command& c) { return c.paramCount <= kMaxParams; }),
              "a command has more parameters than the call slots");
constexpr std::int64_t kIncomplete = VK_INCOMPLETE;

const std::int16_t kInstanceType = HandleType("VkInstance");
const std::int16_t kPhysicalDeviceType = HandleType("VkPhysicalDevice");
const std::int16_t kDeviceType = HandleType("VkDevice");

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The same rule as takesArgument in scripts/generator/marshal-model.ts.
bool TakesArgument(const Field& f) {
  if (f.shape == Shape::Count || f.shape == Shape::Capacity || f.shape == Shape::CountOutput) return false;
  if ((f.flags & kl::marshal::kOutput) == 0) return true;
  if (f.shape == Shape::Array) {
    return (f.flags & kl::marshal::kSizedBySibling) == 0 && f.lenMember < 0 && (f.structIndex >= 0 || f.countOutputIndex < 0);
  }
  return f.structIndex >= 0 && f.shape == Shape::Pointer;
}

bool IsAbsent(const Napi::Value& v) { return v.IsUndefined() || v.IsNull(); }

bool Listed(const std::vector<std::string>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// Whether any extension of a space-separated list is in `enabled`.
bool AnyListed(const std::vector<std::string>& enabled, std::string_view list) {
  while (!list.empty()) {
    const std::size_t end = list.find(' ');
    if (Listed(enabled, list.substr(0, end))) return true;
    list = end == std::string_view::npos ? std::string_view{} : list.substr(end + 1);
  }
  return false;
}

Napi::Error HandleDestroyed(Napi::Env env, const std::string& message) {
  Napi::Error error = Napi::Error::New(env, message);
  error.Set("code", Napi::String::New(env, "KL_HANDLE_DESTROYED"));
  return error;
}

std::string Hex(std::uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

std::uint64_t LoadCountAt(const Field& f, const void* p) {
  if (f.scalar == Scalar::U64 || f.scalar == Scalar::I64) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  std::uint32_t v = 0;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void StoreCountAt(const Field& f, void* p, std::uint64_t count) {
  if (f.scalar == Scalar::U64 || f.scalar == Scalar::I64) {
    std::memcpy(p, &count, sizeof count);
  } else {
    const auto v = static_cast<std::uint32_t>(count);
    std::memcpy(p, &v, sizeof v);
  }
}

// One call's marshalled parameters.
struct CallFrame {
  std::array<vkm::Arg, kMaxParams> args{};
  std::array<void*, kMaxParams> out{};                   // where each output parameter points
  std::array<std::uint64_t, kMaxParams> counts{};        // elements of each array parameter
  std::array<bool, kMaxParams> countSet{};               // a count parameter some array has set
  std::array<bool, kMaxParams> given{};                  // a scalar parameter JavaScript gave
  std::array<std::int16_t, kMaxParams> countSetBy{};     // ... which one
  std::array<Napi::Value, kMaxParams> templates{};
  std::array<std::int32_t, kMaxParams> elementStruct{};  // two-call arrays: the concrete structure
  std::vector<std::uint32_t> twoCall;                    // parameters that are two-call arrays
};

}  // namespace

// ---- HandleTracker ----

void HandleTracker::CheckHandle(const Field& f, std::uint64_t value, const std::string& where) {
  if (value == 0) {
    if ((f.flags & kl::marshal::kOptional) == 0) throw ArgumentError(env_, where + ": must be a " + vkm::kHandleTypes[f.typeIndex].name + ", got VK_NULL_HANDLE");
    return;
  }
  const auto it = entries_.find(value);
  const char* expected = vkm::kHandleTypes[f.typeIndex].name;
  if (it == entries_.end()) {
    throw ArgumentError(env_, where + ": " + Hex(value) + " is not a " + expected + " these bindings created or retrieved");
  }
  if (it->second.type != f.typeIndex) {
    throw ArgumentError(env_, where + ": " + Hex(value) + " is a " + vkm::kHandleTypes[it->second.type].name + ", not a " + expected);
  }
  if (!it->second.alive) throw HandleDestroyed(env_, where + ": the " + expected + " " + Hex(value) + " has been destroyed");
  seen_.emplace_back(f.typeIndex, value);
}

void HandleTracker::Add(std::uint64_t handle, std::int16_t type, std::uint64_t parent, std::uint64_t owner, bool created) {
  if (handle == 0) return;
  const auto it = entries_.find(handle);
  // Retrieved again (a queue, a physical device): the entry it has stays.
  if (it != entries_.end() && it->second.alive && it->second.type == type && !created) return;
  entries_[handle] = Entry{type, parent, owner, nextOrder_++, created, true};
}

const HandleTracker::Entry* HandleTracker::Find(std::uint64_t handle) const {
  const auto it = entries_.find(handle);
  return it == entries_.end() ? nullptr : &it->second;
}

void HandleTracker::MarkDestroyed(std::uint64_t handle) {
  const auto it = entries_.find(handle);
  if (it != entries_.end()) it->second.alive = false;
}

std::vector<std::uint64_t> HandleTracker::ChildrenOf(std::uint64_t parent) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> children;  // (order, handle)
  for (const auto& [handle, entry] : entries_) {
    if (entry.alive && entry.parent == parent && handle != parent) children.emplace_back(entry.order, handle);
  }
  std::sort(children.begin(), children.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::uint64_t> out;
  for (const auto& c : children) out.push_back(c.second);
  return out;
}

std::size_t HandleTracker::CountAlive(std::int16_t type) const {
  std::size_t n = 0;
  for (const auto& [handle, entry] : entries_) n += entry.alive && entry.type == type ? 1 : 0;
  return n;
}

std::uint64_t HandleTracker::Seen(std::int16_t type) const {
  for (const auto& [t, v] : seen_) {
    if (t == type) return v;
  }
  return 0;
}

std::uint64_t HandleTracker::AncestorOfType(std::uint64_t handle, std::int16_t type) const {
  for (int depth = 0; handle != 0 && depth < 16; ++depth) {
    const Entry* e = Find(handle);
    if (e == nullptr) return 0;
    if (e->type == type) return handle;
    handle = e->parent;
  }
  return 0;
}

// ---- VulkanCommands ----

Napi::Function VulkanCommands::Define(Napi::Env env) {
  return DefineClass(env, "VulkanCommands",
                     {
                         InstanceMethod<&VulkanCommands::Call>("call"),
                         InstanceMethod<&VulkanCommands::ReadMapped>("readMapped"),
                         InstanceMethod<&VulkanCommands::WriteMapped>("writeMapped"),
                         InstanceMethod<&VulkanCommands::LiveHandleCount>("liveHandleCount"),
                         InstanceMethod<&VulkanCommands::CreatePlatformSurface>("createPlatformSurface"),
                         InstanceMethod<&VulkanCommands::ShareHandle>("shareHandle"),
                         InstanceMethod<&VulkanCommands::AdoptSemaphore>("adoptSemaphore"),
                         InstanceMethod<&VulkanCommands::PlatformPresentationSupport>("platformPresentationSupport"),
                         InstanceAccessor<&VulkanCommands::InstanceHandle>("instance"),
                         InstanceAccessor<&VulkanCommands::DeviceHandle>("device"),
                     });
}

VulkanCommands::VulkanCommands(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VulkanCommands>(info), tracker_(info.Env()) {
  Napi::Env env = info.Env();
  resolved_.assign(kCommandCount, nullptr);
  info.This().As<Napi::Object>().TypeTag(&kVulkanCommandsTag);
  if (info.Length() == 0 || IsAbsent(info[0])) return;
  if (info[0].IsBigInt()) {
    bool lossless = true;
    const std::uint64_t handle = info[0].As<Napi::BigInt>().Uint64Value(&lossless);
    const auto instance = reinterpret_cast<VkInstance>(static_cast<std::uintptr_t>(handle));
    if (lossless && vulkan::LoaderInstance::IsLive(instance)) {
      instance_ = instance;
      tracker_.Add(handle, kInstanceType, 0, 0, false);
      RegisterPhysicalDevices(env);
      return;
    }
    // A VkDevice of this loader (the typed API's, these bindings', a runtime's through
    // XR_KHR_vulkan_enable2): looked up by value among the live instances' devices, never read through.
    VkInstance owner = nullptr;
    std::shared_ptr<vulkan::LoaderDevice> device =
        lossless ? vulkan::LoaderInstance::LiveDevice(reinterpret_cast<VkDevice>(static_cast<std::uintptr_t>(handle)), &owner) : nullptr;
    if (!device) {
      throw ArgumentError(env, "vulkanCommands(handle): " + Hex(handle) + " is not a live VkInstance or VkDevice of this loader");
    }
    BindDevice(env, owner, std::move(device), Napi::Array());
    return;
  }
  const VulkanDevice::Shared shared = VulkanDevice::LiveShared(env, info[0]);
  keepInstance_ = shared.instance;
  BindDevice(env, keepInstance_->handle(), shared.device, info.Length() > 1 && info[1].IsArray() ? info[1].As<Napi::Array>() : Napi::Array());
}

void VulkanCommands::BindDevice(Napi::Env env, VkInstance instance, std::shared_ptr<vulkan::LoaderDevice> device, Napi::Array extensionNames) {
  keepDevice_ = std::move(device);
  instance_ = instance;
  device_ = keepDevice_->handle;
  const auto instanceHandle = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(instance_));
  const auto deviceHandle = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(device_));
  tracker_.Add(instanceHandle, kInstanceType, 0, 0, false);
  RegisterPhysicalDevices(env);
  tracker_.Add(deviceHandle, kDeviceType, instanceHandle, 0, false);
  std::vector<std::string>& extensions = deviceExtensions_[deviceHandle];
  if (extensionNames.IsEmpty()) {
    extensions = keepDevice_->enabledExtensions;  // what the device was created with
    return;
  }
  for (std::uint32_t i = 0; i < extensionNames.Length(); ++i) {
    if (extensionNames.Get(i).IsString()) extensions.push_back(extensionNames.Get(i).As<Napi::String>().Utf8Value());
  }
}

void VulkanCommands::RegisterPhysicalDevices(Napi::Env env) {
  vulkan::LoaderInstance* li = vulkan::LoaderInstance::FromHandle(instance_);
  std::uint32_t count = 0;
  VkResult result = li->EnumeratePhysicalDevices(&count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  if (result >= 0 && count > 0) result = li->EnumeratePhysicalDevices(&count, devices.data());
  if (result < 0) throw VkErrorToJs(env, result, "vkEnumeratePhysicalDevices returned " + std::to_string(result));
  const auto instance = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(instance_));
  for (std::uint32_t i = 0; i < count && i < devices.size(); ++i) {
    tracker_.Add(static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(devices[i])), kPhysicalDeviceType, instance, instance, false);
  }
}

Napi::Value VulkanCommands::InstanceHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (instance_ == nullptr) return env.Null();
  return Napi::BigInt::New(env, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(instance_)));
}

Napi::Value VulkanCommands::DeviceHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (device_ == nullptr) return env.Null();
  return Napi::BigInt::New(env, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(device_)));
}

VkInstance VulkanCommands::Instance(Napi::Env env, const char* command) const {
  if (instance_ == nullptr) {
    throw VkErrorToJs(env, VK_ERROR_INITIALIZATION_FAILED, std::string(command) + " needs an instance: these bindings were made without one");
  }
  if (!vulkan::LoaderInstance::IsLive(instance_)) throw HandleDestroyed(env, std::string(command) + ": the VkInstance of these bindings has been destroyed");
  if (keepDevice_ && keepDevice_->destroyed) throw HandleDestroyed(env, std::string(command) + ": the VkDevice of these bindings has been destroyed");
  return instance_;
}

PFN_vkVoidFunction VulkanCommands::Resolve(Napi::Env env, std::uint32_t index) {
  const vkm::Command& cmd = vkm::kCommands[index];
  if (cmd.level == vkm::Level::Global && std::string_view(cmd.name) != "vkGetInstanceProcAddr") {
    // The pre-instance commands: the exported entry points (the published plan).
    if (resolved_[index] == nullptr) resolved_[index] = ::vkGetInstanceProcAddr(nullptr, cmd.name);
  } else {
    // Every other command through the bound instance: the trampolines dispatch on the first handle.
    VkInstance instance = Instance(env, cmd.name);
    if (resolved_[index] == nullptr) resolved_[index] = ::vkGetInstanceProcAddr(instance, cmd.name);
  }
  if (resolved_[index] == nullptr) {
    throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, std::string(cmd.name) + " is not provided by this loader, a layer or the driver");
  }
  return resolved_[index];
}

void VulkanCommands::CheckEnabled(Napi::Env env, std::uint32_t index, std::uint64_t firstHandle) const {
  const vkm::Command& cmd = vkm::kCommands[index];
  if (cmd.extensions[0] == '\0' || cmd.level == vkm::Level::Global) return;
  const vulkan::LoaderInstance* li = vulkan::LoaderInstance::FromHandle(Instance(env, cmd.name));
  if (AnyListed(li->enabledExtensions(), cmd.extensions)) return;
  // A physical-device command of a device extension needs only the driver's support.
  if (cmd.level == vkm::Level::PhysicalDevice && !cmd.instanceExtensions) return;
  if (cmd.level == vkm::Level::Device) {
    const std::uint64_t device = tracker_.AncestorOfType(firstHandle, kDeviceType);
    const auto it = deviceExtensions_.find(device);
    if (it != deviceExtensions_.end() && AnyListed(it->second, cmd.extensions)) return;
  }
  const char* what = cmd.level == vkm::Level::Device && !cmd.instanceExtensions ? "device" : "instance";
  throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, std::string(cmd.name) + " belongs to " + cmd.extensions + ", which this " + what + " did not enable");
}

void VulkanCommands::DestroyChildren(Napi::Env env, std::uint64_t parent) {
  for (const std::uint64_t child : tracker_.ChildrenOf(parent)) {
    DestroyChildren(env, child);
    const HandleTracker::Entry* entry = tracker_.Find(child);
    if (entry == nullptr || !entry->alive) continue;
    const vkm::HandleType& type = vkm::kHandleTypes[entry->type];
    if (entry->created && type.destroyCommand >= 0) {
      PFN_vkVoidFunction fn = Resolve(env, static_cast<std::uint32_t>(type.destroyCommand));
      if (type.dispatchable) {
        reinterpret_cast<void(VKAPI_PTR*)(void*, const void*)>(fn)(reinterpret_cast<void*>(static_cast<std::uintptr_t>(child)), nullptr);
      } else {
        reinterpret_cast<void(VKAPI_PTR*)(void*, std::uint64_t, const void*)>(fn)(reinterpret_cast<void*>(static_cast<std::uintptr_t>(entry->owner)), child,
                                                                                 nullptr);
      }
    }
    mapped_.erase(child);
    allocationSizes_.erase(child);
    tracker_.MarkDestroyed(child);
  }
}

Napi::Value VulkanCommands::Call(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsNumber() || !info[1].IsArray()) throw ArgumentError(env, "call(index: number, args: unknown[])");
  const std::uint32_t index = info[0].As<Napi::Number>().Uint32Value();
  if (index >= kCommandCount) throw ArgumentError(env, "call: no command " + std::to_string(index));
  const vkm::Command& cmd = vkm::kCommands[index];
  const std::string_view name = cmd.name;
  Napi::Array jsArgs = info[1].As<Napi::Array>();
  if (cmd.level != vkm::Level::Global) Instance(env, cmd.name);

  Arena arena;
  tracker_.BeginCall();
  StructMarshaller m(env, arena, vkm::Tables(), &tracker_);
  CallFrame frame;
  const Field* params = &vkm::kParams[cmd.firstParam];
  std::uint32_t next = 0;
  for (std::uint32_t i = 0; i < cmd.paramCount; ++i) {
    const Field& f = params[i];
    const bool output = (f.flags & kl::marshal::kOutput) != 0;
    const bool optional = (f.flags & kl::marshal::kOptional) != 0;
    Napi::Value v = env.Undefined();
    if (TakesArgument(f)) {
      v = next < jsArgs.Length() ? jsArgs.Get(next) : env.Undefined();
      ++next;
    }
    const std::string where = std::string(cmd.name) + " " + f.name;
    vkm::Arg& a = frame.args[i];
    if (!output && IsAbsent(v) && !optional && TakesArgument(f) && f.shape != Shape::Unsupported) {
      throw m.Error(where, f.scalar == Scalar::Handle ? "is required (a handle, as a bigint)" : "is required");
    }
    switch (f.shape) {
      case Shape::Value:
        if (f.structIndex >= 0) {
          a.p = m.NewStruct(static_cast<std::uint32_t>(f.structIndex), v, where);
        } else if (f.fixedCount > 1) {
          // A fixed array parameter (vkCmdSetBlendConstants' float[4]): exactly that many elements.
          if (!v.IsArray() || v.As<Napi::Array>().Length() != f.fixedCount) throw m.Error(where, "must be an array of " + std::to_string(f.fixedCount) + " numbers");
          const std::size_t size = StructMarshaller::ScalarSize(f.scalar);
          auto* p = static_cast<std::byte*>(arena.Allocate(size * f.fixedCount));
          for (std::uint32_t k = 0; k < f.fixedCount; ++k) m.WriteFieldScalar(f, p + k * size, v.As<Napi::Array>().Get(k), where + "[" + std::to_string(k) + "]");
          a.p = p;
        } else if (!IsAbsent(v)) {
          m.WriteFieldScalar(f, &a, v, where);
          frame.given[i] = true;
        } else if (f.scalar == Scalar::Handle) {
          m.WriteFieldScalar(f, &a, Napi::BigInt::New(env, static_cast<std::uint64_t>(0)), where);
        }
        break;
      case Shape::String:
        if (!IsAbsent(v) && !v.IsString()) throw m.Error(where, "must be a string");
        a.p = IsAbsent(v) ? nullptr : const_cast<char*>(arena.CopyString(v.As<Napi::String>().Utf8Value()));
        break;
      case Shape::Pointer:
        if (output) {
          a.p = f.structIndex >= 0 ? static_cast<void*>(m.NewStruct(static_cast<std::uint32_t>(f.structIndex), v, where)) : arena.Allocate(8);
          frame.out[i] = a.p;
        } else if (!IsAbsent(v)) {
          if (f.structIndex >= 0) {
            a.p = m.NewStruct(static_cast<std::uint32_t>(f.structIndex), v, where);
          } else {
            a.p = arena.Allocate(8);
            m.WriteFieldScalar(f, a.p, v, where);
          }
        }
        break;
      case Shape::Array:
      case Shape::StringArray:
      case Shape::PointerArray: {
        if (output && f.countOutputIndex >= 0) {
          // Two-call: first with the array null to learn the count.
          frame.twoCall.push_back(i);
          frame.templates[i] = v;
          frame.elementStruct[i] = m.ElementStruct(f, v, where);  // checked now, before any call
          frame.out[f.countOutputIndex] = arena.Allocate(sizeof(std::uint64_t));
          frame.args[f.countOutputIndex].p = frame.out[f.countOutputIndex];
          break;
        }
        std::uint64_t count = 0;
        if (output && f.lenMember >= 0) {
          // Sized by a member of an earlier parameter (pAllocateInfo->commandBufferCount).
          const Field& owner = params[f.lenIndex];
          const kl::marshal::Struct& s = vkm::Tables().StructAt(static_cast<std::uint32_t>(owner.structIndex));
          const Field& member = vkm::Tables().FieldsOf(s)[f.lenMember];
          count = frame.args[f.lenIndex].p == nullptr ? 0 : LoadCountAt(member, static_cast<const std::byte*>(frame.args[f.lenIndex].p) + member.offset);
          a.p = m.NewElements(f, static_cast<std::uint32_t>(count), env.Undefined(), where);
          frame.out[i] = a.p;
          frame.counts[i] = count;
          break;
        }
        if (output && (f.flags & kl::marshal::kSizedBySibling) != 0) {
          count = frame.counts[f.lenIndex];
          a.p = m.NewElements(f, static_cast<std::uint32_t>(count), env.Undefined(), where);
          frame.out[i] = a.p;
          frame.counts[i] = count;
          break;
        }
        if (f.shape == Shape::Array && output && v.IsNumber()) {
          count = v.As<Napi::Number>().Uint32Value();
          a.p = m.NewElements(f, static_cast<std::uint32_t>(count), env.Undefined(), where);
        } else if (!IsAbsent(v)) {
          std::uint32_t n = 0;
          if (f.shape == Shape::Array) {
            a.p = m.WriteArray(f, v, &n, where);
          } else if (f.shape == Shape::StringArray) {
            if (!v.IsArray()) throw m.Error(where, "must be an array of strings");
            Napi::Array list = v.As<Napi::Array>();
            n = list.Length();
            auto** strings = static_cast<const char**>(arena.Allocate(sizeof(char*) * (n == 0 ? 1 : n)));
            for (std::uint32_t k = 0; k < n; ++k) {
              if (!list.Get(k).IsString()) throw m.Error(where + "[" + std::to_string(k) + "]", "must be a string");
              strings[k] = arena.CopyString(list.Get(k).As<Napi::String>().Utf8Value());
            }
            a.p = strings;
          } else {
            if (!v.IsArray()) throw m.Error(where, "must be an array of objects");
            Napi::Array list = v.As<Napi::Array>();
            n = list.Length();
            auto** structs = static_cast<std::byte**>(arena.Allocate(sizeof(void*) * (n == 0 ? 1 : n)));
            for (std::uint32_t k = 0; k < n; ++k) {
              structs[k] = m.NewStruct(static_cast<std::uint32_t>(f.structIndex), list.Get(k), where + "[" + std::to_string(k) + "]");
            }
            a.p = structs;
          }
          count = n;
        } else if (f.lenIndex >= 0 && frame.countSet[f.lenIndex]) {
          break;  // left out: another array sets the count
        }
        if (output) frame.out[i] = a.p;
        frame.counts[i] = count;
        if (f.lenIndex >= 0) {
          const Field& len = params[f.lenIndex];
          const std::uint64_t value = (f.flags & kl::marshal::kLenBytes) != 0 ? count * m.ElementSize(f) : count;
          if (frame.countSet[f.lenIndex] && frame.counts[f.lenIndex] != value && !IsAbsent(v)) {
            throw m.Error(where, "has " + std::to_string(count) + " elements but " + params[frame.countSetBy[f.lenIndex]].name + " has " +
                                     std::to_string(frame.counts[f.lenIndex]) + " (they share " + len.name + ")");
          }
          if (len.shape == Shape::Value && frame.given[f.lenIndex] && !frame.countSet[f.lenIndex] && !IsAbsent(v)) {
            // A count the caller gives (all its arrays optional): an array given must match it.
            const std::uint64_t given = LoadCountAt(len, &frame.args[f.lenIndex]);
            if (given != value) throw m.Error(where, "has " + std::to_string(count) + " elements but " + len.name + " is " + std::to_string(given));
          }
          if (IsAbsent(v) && len.shape == Shape::Value && frame.given[f.lenIndex]) break;
          if (len.shape == Shape::Pointer) {
            auto* c = static_cast<std::uint32_t*>(arena.Allocate(sizeof(std::uint64_t)));
            StoreCountAt(len, c, value);
            frame.args[f.lenIndex].p = c;
          } else {
            StoreCountAt(len, &frame.args[f.lenIndex], value);
          }
          frame.counts[f.lenIndex] = value;
          if (!IsAbsent(v)) {
            frame.countSet[f.lenIndex] = true;
            frame.countSetBy[f.lenIndex] = static_cast<std::int16_t>(i);
          }
        }
        break;
      }
      case Shape::Unsupported:
        if (output) {
          a.p = arena.Allocate(8);
          frame.out[i] = a.p;
        } else if (!IsAbsent(v)) {
          throw m.Error(where, "cannot be marshalled by the generated bindings (function pointers and allocation callbacks are null only); leave it out");
        }
        break;
      default:
        break;  // counts: set by their arrays
    }
  }

  // Before any Vulkan call: the extension, the function, and the children a destroy takes along.
  const std::uint64_t firstHandle = cmd.paramCount > 0 && params[0].scalar == Scalar::Handle ? frame.args[0].q : 0;
  CheckEnabled(env, index, firstHandle);
  const PFN_vkVoidFunction fn = Resolve(env, index);
  std::vector<std::uint64_t> ending;
  if (cmd.destroys) {
    // The last handle parameter ends (vkDestroyBuffer's buffer, vkFreeCommandBuffers' array, vkDestroyDevice's device).
    for (std::uint32_t i = cmd.paramCount; i-- > 0;) {
      const Field& f = params[i];
      if (f.scalar != Scalar::Handle || (f.flags & kl::marshal::kOutput) != 0) continue;
      if (f.shape == Shape::Value) {
        ending.push_back(frame.args[i].q);
      } else if (f.shape == Shape::Array && frame.args[i].p != nullptr) {
        for (std::uint64_t k = 0; k < frame.counts[i]; ++k) ending.push_back(static_cast<const std::uint64_t*>(frame.args[i].p)[k]);
      }
      break;
    }
    for (const std::uint64_t h : ending) {
      if (h != 0) DestroyChildren(env, h);
    }
  }

  const vkm::Thunk thunk = vkm::kThunks[cmd.thunk];
  const auto countOf = [&](std::uint32_t i) { return LoadCountAt(params[params[i].countOutputIndex], frame.out[params[i].countOutputIndex]); };
  std::int64_t ret = thunk(fn, frame.args.data());
  // The two-call idiom: the counts learned, the arrays sized, called again (again on VK_INCOMPLETE).
  for (int attempt = 0; cmd.returns != 'r' || ret >= 0; ++attempt) {
    if (frame.twoCall.empty() || attempt >= 4) break;
    for (const std::uint32_t i : frame.twoCall) {
      const Field& f = params[i];
      const std::uint64_t count = countOf(i);
      frame.args[i].p = count == 0 ? nullptr : m.NewElements(f, static_cast<std::uint32_t>(count), frame.templates[i], std::string(cmd.name) + " " + f.name, &frame.elementStruct[i]);
      frame.out[i] = frame.args[i].p;
      frame.counts[i] = count;
    }
    ret = thunk(fn, frame.args.data());
    if (cmd.returns != 'r' || ret != kIncomplete) break;
    for (const std::uint32_t i : frame.twoCall) {  // the count grew in between: ask again
      StoreCountAt(params[params[i].countOutputIndex], frame.out[params[i].countOutputIndex], 0);
      frame.args[i].p = nullptr;
    }
    ret = thunk(fn, frame.args.data());
  }
  if (cmd.returns == 'r' && ret < 0) {
    throw VkErrorToJs(env, static_cast<VkResult>(ret), std::string(cmd.name) + " returned " + std::to_string(ret));
  }

  Napi::Object out = Napi::Object::New(env);
  out.Set("result", Napi::Number::New(env, cmd.returns == 'r' ? static_cast<double>(ret) : 0));
  if (cmd.returns == 'u') {
    out.Set("value", Napi::Number::New(env, static_cast<double>(static_cast<std::uint32_t>(ret))));
  } else if (cmd.returns == 'q' || cmd.returns == 'p') {
    out.Set("value", Napi::BigInt::New(env, static_cast<std::uint64_t>(ret)));
  }
  const bool creates = StartsWith(name, "vkCreate") || StartsWith(name, "vkAllocate");
  const std::uint64_t owner = firstHandle;
  for (std::uint32_t i = 0; i < cmd.paramCount; ++i) {
    const Field& f = params[i];
    if ((f.flags & kl::marshal::kOutput) == 0 || f.shape == Shape::CountOutput || f.shape == Shape::Count) continue;
    const void* p = frame.out[i];
    std::uint64_t count = 0;
    switch (f.shape) {
      case Shape::Pointer:
        out.Set(f.name, f.structIndex >= 0 ? m.ReadStruct(static_cast<std::uint32_t>(f.structIndex), static_cast<const std::byte*>(p)) : m.ReadScalar(f.scalar, p));
        count = 1;
        break;
      case Shape::Array:
        count = f.countOutputIndex >= 0 ? std::min(countOf(i), frame.counts[i]) : frame.counts[i];
        out.Set(f.name, m.ReadArray(f, p, static_cast<std::uint32_t>(count), f.countOutputIndex >= 0 ? frame.elementStruct[i] : -1));
        break;
      case Shape::Unsupported:
        out.Set(f.name, m.ReadScalar(Scalar::Address, p));
        break;
      default:
        break;
    }
    // Every handle that comes back is tracked: created ones with the parent the registry names.
    if (f.scalar == Scalar::Handle && f.typeIndex >= 0 && p != nullptr) {
      std::uint64_t parent = owner;
      std::string_view parents = vkm::kHandleTypes[f.typeIndex].parents;
      while (!parents.empty()) {
        const std::size_t end = parents.find(' ');
        const std::uint64_t seen = tracker_.Seen(HandleType(parents.substr(0, end)));
        if (seen != 0) {
          parent = seen;
          break;
        }
        parents = end == std::string_view::npos ? std::string_view{} : parents.substr(end + 1);
      }
      for (std::uint64_t k = 0; k < count; ++k) {
        tracker_.Add(static_cast<const std::uint64_t*>(p)[k], f.typeIndex, parent, owner, creates);
      }
    }
  }
  // What the bindings remember of some commands' arguments: a device's extensions, memory sizes
  // and mappings (for readMapped / writeMapped), the sets a pool reset frees.
  if (name == "vkCreateDevice") {
    const auto* ci = static_cast<const VkDeviceCreateInfo*>(frame.args[1].p);
    std::vector<std::string>& list = deviceExtensions_[*static_cast<const std::uint64_t*>(frame.out[3])];
    for (std::uint32_t k = 0; ci != nullptr && k < ci->enabledExtensionCount; ++k) list.emplace_back(ci->ppEnabledExtensionNames[k]);
  } else if (name == "vkAllocateMemory") {
    const auto* ai = static_cast<const VkMemoryAllocateInfo*>(frame.args[1].p);
    allocationSizes_[*static_cast<const std::uint64_t*>(frame.out[3])] = ai->allocationSize;
  } else if (name == "vkMapMemory") {
    const std::uint64_t memory = frame.args[1].q;
    const std::uint64_t offset = frame.args[2].q;
    const std::uint64_t allocation = allocationSizes_.count(memory) != 0 ? allocationSizes_[memory] : 0;
    const std::uint64_t size = frame.args[3].q == VK_WHOLE_SIZE ? (allocation > offset ? allocation - offset : 0) : frame.args[3].q;
    mapped_[memory] = Mapping{*static_cast<const std::uintptr_t*>(frame.out[5]), size};
  } else if (name == "vkUnmapMemory") {
    mapped_.erase(frame.args[1].q);
  } else if (name == "vkResetDescriptorPool") {
    for (const std::uint64_t child : tracker_.ChildrenOf(frame.args[1].q)) tracker_.MarkDestroyed(child);
  }
  for (const std::uint64_t h : ending) {
    mapped_.erase(h);
    allocationSizes_.erase(h);
    tracker_.MarkDestroyed(h);
  }
  return out;
}

const VulkanCommands::Mapping& VulkanCommands::MappedRange(Napi::Env env, const Napi::CallbackInfo& info, std::uint64_t* offset) const {
  if (info.Length() < 2 || !info[0].IsBigInt() || !info[1].IsNumber()) throw ArgumentError(env, "readMapped/writeMapped(memory: bigint, offset: number, ...)");
  bool lossless = true;
  const std::uint64_t memory = info[0].As<Napi::BigInt>().Uint64Value(&lossless);
  const auto it = mapped_.find(memory);
  if (it == mapped_.end()) throw ArgumentError(env, "memory " + Hex(memory) + " is not mapped through these bindings (vkMapMemory)");
  // The mapping lives only as long as its memory and device: a device destroyed elsewhere (the
  // typed API's destroy()) takes it along, so it is refused rather than read.
  Instance(env, "readMapped/writeMapped");
  const std::uint64_t device = tracker_.AncestorOfType(memory, kDeviceType);
  const HandleTracker::Entry* owner = tracker_.Find(device);
  const bool boundDevice = device == static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(device_));
  if (owner == nullptr || !owner->alive || (boundDevice && keepDevice_ && keepDevice_->destroyed)) {
    throw HandleDestroyed(env, "memory " + Hex(memory) + ": its VkDevice has been destroyed");
  }
  const double o = info[1].As<Napi::Number>().DoubleValue();
  if (!(o >= 0) || o != static_cast<double>(static_cast<std::uint64_t>(o))) throw ArgumentError(env, "offset must be a non-negative integer");
  *offset = static_cast<std::uint64_t>(o);
  return it->second;
}

Napi::Value VulkanCommands::ReadMapped(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::uint64_t offset = 0;
  const Mapping& range = MappedRange(env, info, &offset);
  if (info.Length() < 3 || !info[2].IsNumber()) throw ArgumentError(env, "readMapped(memory, offset, size: number)");
  const double size = info[2].As<Napi::Number>().DoubleValue();
  if (!(size >= 0) || offset + static_cast<std::uint64_t>(size) > range.size) {
    throw ArgumentError(env, "readMapped: [" + std::to_string(offset) + ", +" + std::to_string(size) + ") is outside the mapped " + std::to_string(range.size) + " bytes");
  }
  return Napi::Buffer<std::uint8_t>::Copy(env, reinterpret_cast<const std::uint8_t*>(range.address + offset), static_cast<std::size_t>(size));
}

Napi::Value VulkanCommands::WriteMapped(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::uint64_t offset = 0;
  const Mapping& range = MappedRange(env, info, &offset);
  if (info.Length() < 3 || !info[2].IsTypedArray() || info[2].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    throw ArgumentError(env, "writeMapped(memory, offset, bytes: Uint8Array)");
  }
  Napi::Uint8Array bytes = info[2].As<Napi::Uint8Array>();
  if (offset + bytes.ByteLength() > range.size) {
    throw ArgumentError(env, "writeMapped: " + std::to_string(bytes.ByteLength()) + " bytes at " + std::to_string(offset) + " pass the mapped " + std::to_string(range.size) + " bytes");
  }
  std::memcpy(reinterpret_cast<void*>(range.address + offset), bytes.Data(), bytes.ByteLength());
  return env.Undefined();
}

Napi::Value VulkanCommands::LiveHandleCount(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "liveHandleCount(type: string)");
  const std::int16_t type = HandleType(info[0].As<Napi::String>().Utf8Value());
  if (type < 0) throw ArgumentError(env, "liveHandleCount: no handle type " + info[0].As<Napi::String>().Utf8Value());
  return Napi::Number::New(env, static_cast<double>(tracker_.CountAlive(type)));
}

}  // namespace kl::napi::vk
