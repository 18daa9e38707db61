// What the exported instance-less functions work from: the plan TypeScript published last
// (publishOpenXrPlan / loader.publishPlan) and the instances native callers created through
// xrCreateInstance, owned until their xrDestroyInstance.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/published_plan_registry.h"
#include "openxr/loader/loader_instance.h"

namespace kl::openxr {

struct PublishedPlan {
  InstancePlan instance;
  // What xrEnumerateApiLayerProperties and xrEnumerateInstanceExtensionProperties answer, as
  // TypeScript worked them out (from manifests and the runtime) when the plan was published;
  // absent when the application published a bare plan.
  bool hasLists = false;
  std::vector<XrApiLayerProperties> apiLayers;
  std::vector<XrExtensionProperties> extensions;  // layerName NULL
  std::vector<std::pair<std::string, std::vector<XrExtensionProperties>>> layerExtensions;
};

using PublishedPlans = PublishedPlanRegistry<PublishedPlan, LoaderInstance>;

}  // namespace kl::openxr
