#include "openxr/loader/instance_registry.h"

#include <mutex>

#include "common/log.h"

namespace kl::openxr {

namespace {
// Marks a handle value that two live instances both use.
LoaderInstance* const kAmbiguous = reinterpret_cast<LoaderInstance*>(std::uintptr_t{1});

void EraseFor(std::unordered_map<std::uint64_t, LoaderInstance*>& map, LoaderInstance* instance) {
  std::erase_if(map, [&](const auto& entry) { return entry.second == instance; });
}
}  // namespace

InstanceRegistry& InstanceRegistry::Get() {
  static InstanceRegistry registry;
  return registry;
}

LoaderInstance*& InstanceRegistry::ConstructingOnThisThread() {
  thread_local LoaderInstance* constructing = nullptr;
  return constructing;
}

void InstanceRegistry::Insert(std::unordered_map<std::uint64_t, LoaderInstance*>& map, std::uint64_t key, LoaderInstance* instance) {
  auto [it, inserted] = map.try_emplace(key, instance);
  if (!inserted && it->second != instance) {
    Get().generation_.fetch_add(1, std::memory_order_acq_rel);
    if (it->second != kAmbiguous) {
      Log(LogLevel::Warn, "openxr.dispatch",
          "two live instances use the same handle value " + std::to_string(key) +
              "; exported trampolines will reject it (use the JavaScript API or xrGetInstanceProcAddr pointers)");
    }
    it->second = kAmbiguous;
  }
}

void InstanceRegistry::UpdateSole() { sole_.store(live_.size() == 1 ? *live_.begin() : nullptr, std::memory_order_release); }

void InstanceRegistry::Add(LoaderInstance* instance, XrInstance handle) {
  std::unique_lock lock(mutex_);
  live_.insert(instance);
  Insert(handles_, HandleValue(handle), instance);
  UpdateSole();
}

void InstanceRegistry::Remove(LoaderInstance* instance) {
  std::unique_lock lock(mutex_);
  live_.erase(instance);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  EraseFor(handles_, instance);
  EraseFor(runtimeInstances_, instance);
  EraseFor(messengers_, instance);
  UpdateSole();
}

LoaderInstance* InstanceRegistry::FindByHandle(std::uint64_t handle) const {
  std::shared_lock lock(mutex_);
  auto it = handles_.find(handle);
  if (it == handles_.end() || it->second == kAmbiguous) return nullptr;
  return it->second;
}

void InstanceRegistry::RecordHandle(std::uint64_t handle, LoaderInstance* instance) {
  std::unique_lock lock(mutex_);
  Insert(handles_, handle, instance);
}

void InstanceRegistry::ForgetHandle(std::uint64_t handle) {
  std::unique_lock lock(mutex_);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  handles_.erase(handle);
}

LoaderInstance* InstanceRegistry::FindByHandleCached(std::uint64_t handle) const {
  struct Entry {
    std::uint64_t handle = 0;
    std::uint64_t generation = 0;
    LoaderInstance* instance = nullptr;
  };
  [[gnu::tls_model("initial-exec")]] static thread_local Entry cache;
  const std::uint64_t generation = generation_.load(std::memory_order_acquire);
  if (cache.handle == handle && cache.generation == generation) return cache.instance;
  LoaderInstance* found = FindByHandle(handle);
  if (found != nullptr) cache = Entry{handle, generation, found};
  return found;
}

void InstanceRegistry::AddRuntimeInstance(XrInstance runtimeHandle, LoaderInstance* instance) {
  std::unique_lock lock(mutex_);
  Insert(runtimeInstances_, HandleValue(runtimeHandle), instance);
}

LoaderInstance* InstanceRegistry::FindByRuntimeInstance(XrInstance runtimeHandle) const {
  std::shared_lock lock(mutex_);
  auto it = runtimeInstances_.find(HandleValue(runtimeHandle));
  if (it == runtimeInstances_.end() || it->second == kAmbiguous) return nullptr;
  return it->second;
}

void InstanceRegistry::AddMessenger(XrDebugUtilsMessengerEXT messenger, LoaderInstance* instance) {
  std::unique_lock lock(mutex_);
  Insert(messengers_, HandleValue(messenger), instance);
}

LoaderInstance* InstanceRegistry::FindMessenger(XrDebugUtilsMessengerEXT messenger) const {
  std::shared_lock lock(mutex_);
  auto it = messengers_.find(HandleValue(messenger));
  if (it == messengers_.end() || it->second == kAmbiguous) return nullptr;
  return it->second;
}

void InstanceRegistry::ForgetMessenger(XrDebugUtilsMessengerEXT messenger) {
  std::unique_lock lock(mutex_);
  messengers_.erase(HandleValue(messenger));
}

std::size_t InstanceRegistry::LiveCount() const {
  std::shared_lock lock(mutex_);
  return live_.size();
}

}  // namespace kl::openxr
