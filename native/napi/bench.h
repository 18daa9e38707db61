// Native measurements of per-call dispatch cost (npm run bench; issue 6 makes it a CLI command).
#pragma once

#include <napi.h>

namespace kl::napi {

// benchOpenXrLocateSpace(instance: OpenXrInstance, iterations: number, repeats: number):
//   { trampolineNs, procAddrNs } — ns per xrLocateSpace through the loader's exported trampoline
//   and through the pointer the instance's xrGetInstanceProcAddr returns. Sets up a headless
//   session (XR_MND_headless must be enabled) and two reference spaces through the instance's
//   dispatch table, takes the best of `repeats` timed loops, and tears the session down.
Napi::Value BenchOpenXrLocateSpace(const Napi::CallbackInfo& info);

}  // namespace kl::napi
