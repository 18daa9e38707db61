// VulkanCommands: the generated Vulkan bindings' native half. call(index, args) runs
// kCommands[index] of generated/vulkan_marshal.h: it refuses commands of extensions the instance
// or device did not enable (VK_ERROR_EXTENSION_NOT_PRESENT, before any Vulkan call), marshals the
// arguments with the shared marshaller (native/addon/marshal), checks every handle against the
// handles these bindings created or retrieved (HandleTracker), calls through this loader
// (vkGetInstanceProcAddr of the bound instance: the trampolines) and reads the outputs back.
// Destroying a parent through the bindings first destroys the children they created.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "addon/marshal/struct_marshaller.h"
#include "generated/vulkan_types.h"
#include "vulkan/loader/loader_device.h"
#include "vulkan/loader/loader_instance.h"

namespace kl::napi::vk {

// The index of a handle type (its registry name) in the generated handle table, -1 for none.
std::int16_t HandleType(std::string_view name);
// Marks a VulkanCommands object so that shareHandle can tell one from any other object.
inline constexpr napi_type_tag kVulkanCommandsTag = {0x6b6c766b636d6473ULL, 0x7773693273686172ULL};

// The handles one set of bindings created or retrieved: their type, parent and state. A handle
// written from JavaScript must be one of them, alive and of the type the member names.
class HandleTracker : public kl::marshal::HandleHook {
 public:
  struct Entry {
    std::int16_t type;
    std::uint64_t parent;  // the handle it was created from (registry parent), 0 for none
    std::uint64_t owner;   // the dispatchable handle its destroy command takes first
    std::uint64_t order;   // creation order
    bool created;          // made by a vkCreate*/vkAllocate* of these bindings (destroyed with its parent)
    bool alive;
  };
  explicit HandleTracker(Napi::Env env) : env_(env) {}
  void CheckHandle(const kl::marshal::Field& f, std::uint64_t value, const std::string& where) override;
  void Add(std::uint64_t handle, std::int16_t type, std::uint64_t parent, std::uint64_t owner, bool created);
  const Entry* Find(std::uint64_t handle) const;
  void MarkDestroyed(std::uint64_t handle);
  // The live children of `parent`, newest first.
  std::vector<std::uint64_t> ChildrenOf(std::uint64_t parent) const;
  std::size_t CountAlive(std::int16_t type) const;
  // The handle of type `type` written in the current call, or 0.
  std::uint64_t Seen(std::int16_t type) const;
  void BeginCall() { seen_.clear(); }
  // The VkDevice (or VkInstance) a handle belongs to, walking its parents; 0 when unknown.
  std::uint64_t AncestorOfType(std::uint64_t handle, std::int16_t type) const;

 private:
  Napi::Env env_;
  std::unordered_map<std::uint64_t, Entry> entries_;
  std::vector<std::pair<std::int16_t, std::uint64_t>> seen_;
  std::uint64_t nextOrder_ = 1;
};

class VulkanCommands : public Napi::ObjectWrap<VulkanCommands> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new VulkanCommands() (global commands only), new VulkanCommands(handle: bigint) (a VkInstance
  // or a VkDevice of this loader), or
  // new VulkanCommands(device: VulkanDevice, enabledDeviceExtensions: string[]).
  explicit VulkanCommands(const Napi::CallbackInfo& info);

 private:
  // vulkan_surface.cc (docs/usage.md "Surfaces and presentation"):
  // createPlatformSurface(kind: 'xlib' | 'xcb' | 'wayland', display: bigint, window: bigint | number)
  // makes a VkSurfaceKHR from native window-system handles (the platform create infos are not in
  // the generated tables) and tracks it as one these bindings created.
  Napi::Value CreatePlatformSurface(const Napi::CallbackInfo& info);
  // shareHandle(from: VulkanCommands, handle: bigint): a live non-dispatchable handle that other
  // bindings of the same instance created (a surface), made usable by these ones; these bindings
  // never destroy it.
  Napi::Value ShareHandle(const Napi::CallbackInfo& info);
  // adoptSemaphore(semaphore: bigint): a VkSemaphore the typed API made on this bindings' device
  // (vkAcquireNextImageKHR signals it, vkQueuePresentKHR waits on it); these bindings never destroy it.
  Napi::Value AdoptSemaphore(const Napi::CallbackInfo& info);
  // platformPresentationSupport(kind: 'xlib' | 'xcb' | 'wayland', physicalDevice: bigint,
  // queueFamilyIndex: number, display: bigint, visualId: bigint | number): the platform
  // presentation-support query (vkGetPhysicalDevice{Xlib,Xcb,Wayland}PresentationSupportKHR), whose
  // parameters are platform types the generated tables leave out.
  Napi::Value PlatformPresentationSupport(const Napi::CallbackInfo& info);

  Napi::Value Call(const Napi::CallbackInfo& info);
  Napi::Value InstanceHandle(const Napi::CallbackInfo& info);
  Napi::Value DeviceHandle(const Napi::CallbackInfo& info);
  // readMapped(memory, offset, size) / writeMapped(memory, offset, bytes): within a range these
  // bindings mapped with vkMapMemory (and have not unmapped), nowhere else.
  Napi::Value ReadMapped(const Napi::CallbackInfo& info);
  Napi::Value WriteMapped(const Napi::CallbackInfo& info);
  // How many handles these bindings hold alive of a type (by name): for lifetime checks.
  Napi::Value LiveHandleCount(const Napi::CallbackInfo& info);

  VkInstance Instance(Napi::Env env, const char* command) const;
  PFN_vkVoidFunction Resolve(Napi::Env env, std::uint32_t index);
  void CheckEnabled(Napi::Env env, std::uint32_t index, std::uint64_t firstHandle) const;
  // Destroys the live children of `parent` these bindings created, newest first (and theirs first).
  void DestroyChildren(Napi::Env env, std::uint64_t parent);
  void RegisterPhysicalDevices(Napi::Env env);
  // Binds to `device` of `instance`: the device's extensions are `extensionNames`, or (empty) the
  // ones it was created with.
  void BindDevice(Napi::Env env, VkInstance instance, std::shared_ptr<vulkan::LoaderDevice> device, Napi::Array extensionNames);
  struct Mapping {
    std::uintptr_t address;
    std::uint64_t size;
  };
  const Mapping& MappedRange(Napi::Env env, const Napi::CallbackInfo& info, std::uint64_t* offset) const;

  VkInstance instance_ = nullptr;
  std::shared_ptr<vulkan::LoaderInstance> keepInstance_;
  std::shared_ptr<vulkan::LoaderDevice> keepDevice_;
  VkDevice device_ = nullptr;
  HandleTracker tracker_;
  std::vector<PFN_vkVoidFunction> resolved_;
  std::unordered_map<std::uint64_t, std::vector<std::string>> deviceExtensions_;
  std::unordered_map<std::uint64_t, std::uint64_t> allocationSizes_;  // VkDeviceMemory -> allocationSize
  std::unordered_map<std::uint64_t, Mapping> mapped_;                 // VkDeviceMemory -> mapped range
};

}  // namespace kl::napi::vk
