#include "vulkan/published_plan.h"

#include <algorithm>

namespace kl::vulkan {

PublishedPlans& PublishedPlans::Get() {
  static PublishedPlans plans;
  return plans;
}

void PublishedPlans::Publish(std::shared_ptr<const PreInstancePlan> plan) {
  std::lock_guard lock(mutex_);
  plan_ = std::move(plan);
}

std::shared_ptr<const PreInstancePlan> PublishedPlans::Current() const {
  std::lock_guard lock(mutex_);
  return plan_;
}

void PublishedPlans::AdoptNativeInstance(std::shared_ptr<LoaderInstance> instance) {
  std::lock_guard lock(mutex_);
  nativeInstances_.push_back(std::move(instance));
}

void PublishedPlans::ReleaseNativeInstance(const LoaderInstance* instance) {
  std::shared_ptr<LoaderInstance> released;  // destroyed outside the lock
  std::lock_guard lock(mutex_);
  auto it = std::find_if(nativeInstances_.begin(), nativeInstances_.end(), [&](const auto& i) { return i.get() == instance; });
  if (it == nativeInstances_.end()) return;
  released = std::move(*it);
  nativeInstances_.erase(it);
}

}  // namespace kl::vulkan
