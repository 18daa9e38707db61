// What the exported instance-less functions (vkCreateInstance, vkEnumerateInstance*) work from:
// the plan TypeScript published last (publishVulkanPlan) and the instances native callers
// created through vkCreateInstance, owned until their vkDestroyInstance.
#pragma once

#include "common/published_plan_registry.h"
#include "vulkan/loader/pre_instance.h"

namespace kl::vulkan {

using PublishedPlans = PublishedPlanRegistry<PreInstancePlan, LoaderInstance>;

}  // namespace kl::vulkan
