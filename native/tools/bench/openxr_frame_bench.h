// The native side of `khronos-loader bench openxr --command frame`: what a frame's
// locates cost in C through this loader, the yardstick for the frame query called from JavaScript.
#pragma once

#include <napi.h>

namespace kl::napi::xr {

// benchOpenXrFrameNative(instance, session, spaces: OpenXrSpace[], bases: OpenXrSpace[],
//                        command: 'xrLocateSpace' | 'xrLocateSpaces', time: number, iterations, repeats)
//   → { wallNs: number[], cpuNs: number[] }: ns per frame (every space located once) — a C loop of
//   xrLocateSpace, or one xrLocateSpaces per distinct base (an OpenXR 1.1 instance) — through the
//   session's dispatch table (the pointers the loader's xrGetInstanceProcAddr hands out), with the
//   same handles the JavaScript side uses (the product addon's objects, or their bigint handles).
//   A 1.0 instance has no xrLocateSpaces to time: the caller asks for it only on a 1.1 instance.
Napi::Value BenchOpenXrFrameNative(const Napi::CallbackInfo& info);

// benchOpenXrRuntimeCall(instance, command, handles, time: number, iterations) → wall ns per call:
//   the runtime's own cost of one per-call read (docs/performance.md, "The per-call path at the
//   N-API minimum"), a C loop of `command` through the instance's chain with the typed API's
//   handles: xrLocateSpace [space, base], xrLocateHandJointsEXT [tracker, base],
//   xrGetActionState{Boolean,Float,Vector2f,Pose} [session, action] (no subaction path).
Napi::Value BenchOpenXrRuntimeCall(const Napi::CallbackInfo& info);

}  // namespace kl::napi::xr
