// Reading what JavaScript hands the Vulkan natives (vulkan_*.cc): plans and handles. The
// create-info readers and VkErrorToJs are declared with the classes (vulkan.h).
#pragma once

#include <napi.h>

#include <cstdint>

#include "vulkan/loader/instance_plan.h"
#include "vulkan/loader/pre_instance.h"

namespace kl::napi {

uint64_t BigIntArgument(Napi::Env env, Napi::Value v, const char* what);

// { drivers, layers, deviceFilters?, disableInstanceExtensionFilter?, knownInstanceExtensions? }
vulkan::InstancePlan ReadPlan(Napi::Env env, Napi::Value v);

// The plan with what the instance-less commands need: the implicit layers' pre-instance
// interceptors and the layer properties the loader reports.
vulkan::PreInstancePlan ReadPreInstancePlan(Napi::Env env, Napi::Value value);

}  // namespace kl::napi
