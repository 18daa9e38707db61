// The typed API's per-command recording calls as raw N-API functions (vulkan_record_calls.cc).
#pragma once

#include <napi.h>

namespace kl::napi {

// Sets functions.cmdBindComputePipeline, cmdBindComputeDescriptorSet, cmdPushConstants,
// cmdDispatch and cmdPipelineBarrier.
void AddRecordCalls(Napi::Env env, Napi::Object functions);

}  // namespace kl::napi
