// The registry of the VkInstance handles whose LoaderInstance exists now (LoaderInstance::IsLive).
#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/two_call.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"

namespace kl::vulkan {

namespace {
// The one registry of the VkInstance handles whose LoaderInstance exists now.
struct LiveInstanceRegistry {
  std::mutex mutex;
  std::unordered_set<const void*> handles;
  static LiveInstanceRegistry& Get() {
    static LiveInstanceRegistry registry;
    return registry;
  }
};
}  // namespace

LoaderInstance::LoaderInstance(PrivateTag) {
  auto& live = LiveInstanceRegistry::Get();
  std::lock_guard lock(live.mutex);
  live.handles.insert(&handleObject_);
}

bool LoaderInstance::IsLive(VkInstance instance) noexcept {
  auto& live = LiveInstanceRegistry::Get();
  std::lock_guard lock(live.mutex);
  return live.handles.contains(instance);
}

std::shared_ptr<LoaderDevice> LoaderInstance::LiveDevice(VkDevice device, VkInstance* instance) {
  if (device == nullptr) return nullptr;
  auto& live = LiveInstanceRegistry::Get();
  std::lock_guard lock(live.mutex);
  for (const void* handle : live.handles) {
    auto* owner = FromHandle(reinterpret_cast<VkInstance>(const_cast<void*>(handle)));
    if (owner == nullptr || owner->destroyed()) continue;
    if (std::shared_ptr<LoaderDevice> found = owner->SharedDevice(device)) {
      if (instance != nullptr) *instance = owner->handle();
      return found;
    }
  }
  return nullptr;
}

LoaderInstance::~LoaderInstance() {
  if (!destroyed_) Destroy(nullptr);
  auto& live = LiveInstanceRegistry::Get();
  std::lock_guard lock(live.mutex);
  live.handles.erase(&handleObject_);
}

}  // namespace kl::vulkan
