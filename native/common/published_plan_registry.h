// What an API's exported instance-less functions (xrCreateInstance, vkCreateInstance, ...) work
// from: the plan TypeScript published last (an immutable snapshot, replaced as a whole when the
// application publishes again; readers keep the snapshot they took), and the instances native
// callers created through the exported create function, owned here until their destroy call.
// One registry per API (a function-local static per instantiation).
#pragma once

#include <algorithm>
#include <utility>
#include <memory>
#include <mutex>
#include <vector>

namespace kl {

template <typename Plan, typename Instance>
class PublishedPlanRegistry {
 public:
  static PublishedPlanRegistry& Get() {
    static PublishedPlanRegistry registry;
    return registry;
  }

  void Publish(std::shared_ptr<const Plan> plan) {
    std::shared_ptr<const Plan> previous;  // released outside the lock
    std::lock_guard lock(mutex_);
    previous = std::exchange(plan_, std::move(plan));
  }

  // The snapshot in force (null before the first Publish).
  std::shared_ptr<const Plan> Current() const {
    std::lock_guard lock(mutex_);
    return plan_;
  }

  void AdoptNativeInstance(std::shared_ptr<Instance> instance) {
    std::lock_guard lock(mutex_);
    nativeInstances_.push_back(std::move(instance));
  }

  // Hands an instance native code created over to a new owner (JavaScript adopting it): removed
  // from the registry, so its destroy call no longer releases it here. Null when it is not here.
  std::shared_ptr<Instance> TakeNativeInstance(const Instance* instance) {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(nativeInstances_.begin(), nativeInstances_.end(), [&](const auto& i) { return i.get() == instance; });
    if (instance == nullptr || it == nativeInstances_.end()) return nullptr;
    std::shared_ptr<Instance> taken = std::move(*it);
    nativeInstances_.erase(it);
    return taken;
  }

  // Shares ownership of an instance native code created (the generated bindings bound to its
  // handle keep it alive while they use it); null when it is not here.
  std::shared_ptr<Instance> FindNativeInstance(const Instance* instance) const {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(nativeInstances_.begin(), nativeInstances_.end(), [&](const auto& i) { return i.get() == instance; });
    return instance == nullptr || it == nativeInstances_.end() ? nullptr : *it;
  }
  // Drops the instance if native code created it (after its destroy call); JavaScript-owned
  // instances are not here and stay untouched.
  void ReleaseNativeInstance(const Instance* instance) {
    std::shared_ptr<Instance> released;  // destroyed outside the lock
    std::lock_guard lock(mutex_);
    auto it = std::find_if(nativeInstances_.begin(), nativeInstances_.end(), [&](const auto& i) { return i.get() == instance; });
    if (it == nativeInstances_.end()) return;
    released = std::move(*it);
    nativeInstances_.erase(it);
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Plan> plan_;
  std::vector<std::shared_ptr<Instance>> nativeInstances_;
};

}  // namespace kl
