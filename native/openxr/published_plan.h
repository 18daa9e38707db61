// What the exported xrCreateInstance works from: the plan TypeScript published last
// (publishOpenXrPlan) and the instances native callers created through it, owned until their
// xrDestroyInstance.
#pragma once

#include "common/published_plan_registry.h"
#include "openxr/loader_instance.h"

namespace kl::openxr {

using PublishedPlans = PublishedPlanRegistry<InstancePlan, LoaderInstance>;

}  // namespace kl::openxr
