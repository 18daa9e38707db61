// Native measurements of per-call dispatch cost (`khronos-loader bench openxr`, npm run bench).
//
// One timing loop for any OpenXR loader: this package's (an OpenXrInstance, its exported
// trampolines) or another loader library given its path (libopenxr_loader.so.1, dlopened with
// kl::DynamicLibrary; the caller runs that in a child process so XR_RUNTIME_JSON and friends
// can be set for it alone). Setup and timing go through the loader's exported functions
// ("trampoline") or through the pointers its xrGetInstanceProcAddr returns ("pointer").
#pragma once

#include <napi.h>

namespace kl::napi {

// new OpenXrBenchScenario({ command, instance?: OpenXrInstance, loaderLibrary?: string }):
//   creates what the command needs (headless session, LOCAL and VIEW spaces; for action
//   commands an attached action set, a running and focused session; for xrWaitFrame a running
//   session) through the loader's exported functions. With `loaderLibrary` it also creates the
//   instance (XR_MND_headless, API 1.0) through that library's xrCreateInstance.
//   measure(mode: 'trampoline' | 'pointer', iterations, repeats):
//     { wallNs: number[], cpuNs: number[] } — one sample per repeat: wall-clock and calling-thread
//     CPU ns per call (per frame for xrWaitFrame: xrWaitFrame + xrBeginFrame + xrEndFrame).
//   handles: { instance, session, space, baseSpace, actionSet, action } (bigint, 0n when unused)
//   time: the XrTime the per-call loops start from.  destroy(): tears everything down.
class OpenXrBenchScenario;
Napi::Function DefineOpenXrBenchScenario(Napi::Env env);

// benchOpenXrLocateSpace(instance: OpenXrInstance, iterations, repeats): { trampolineNs, procAddrNs }
//   — the best of `repeats` loops of xrLocateSpace after a warm-up, through an OpenXrBenchScenario
//   (a short form kept for the chain tests).
Napi::Value BenchOpenXrLocateSpace(const Napi::CallbackInfo& info);

// openxrBenchCommands(): the commands OpenXrBenchScenario can time.
Napi::Value OpenXrBenchCommands(const Napi::CallbackInfo& info);

}  // namespace kl::napi
