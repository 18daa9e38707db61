// What the exported instance-less functions (vkCreateInstance, vkEnumerateInstance*) work from:
// the plan TypeScript published last (an immutable snapshot, replaced when the application
// publishes again), and the instances native callers created through vkCreateInstance, owned here
// until their vkDestroyInstance.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "vulkan/pre_instance.h"

namespace kl::vulkan {

class PublishedPlans {
 public:
  static PublishedPlans& Get();
  void Publish(std::shared_ptr<const PreInstancePlan> plan);
  std::shared_ptr<const PreInstancePlan> Current() const;

  void AdoptNativeInstance(std::shared_ptr<LoaderInstance> instance);
  // Drops the instance if native code created it (after its vkDestroyInstance).
  void ReleaseNativeInstance(const LoaderInstance* instance);

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const PreInstancePlan> plan_;
  std::vector<std::shared_ptr<LoaderInstance>> nativeInstances_;
};

}  // namespace kl::vulkan
