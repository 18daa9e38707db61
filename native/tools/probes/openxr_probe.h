// The N-API surface of `khronos-loader doctor`: load one OpenXR runtime or API layer library,
// look up its negotiate function and negotiate, answering plain data instead of throwing. The
// doctor runs these in a child process (lib/tools/doctor/probe-child.ts), so a library that crashes or
// hangs takes only the child down. No instance is created.
#pragma once

#include <napi.h>

namespace kl::napi {

// openxrProbeRuntime({ libraryPath, negotiateFunctionName?, manifestPath? }):
// { ok, stage: 'load'|'symbol'|'negotiate', reason, interfaceVersion?, apiVersion? ("1.0.x"),
//   extensions?: [{ extensionName, extensionVersion }], extensionsError? }.
// On success the runtime's instance extension list is asked for too (xrEnumerateInstanceExtensionProperties
// through its getInstanceProcAddr with XR_NULL_HANDLE); a failure there is extensionsError, not a failed probe.
Napi::Value OpenXrProbeRuntime(const Napi::CallbackInfo& info);

// openxrProbeApiLayer({ name, libraryPath, negotiateFunctionName?, manifestPath? }):
// { ok, stage, reason, interfaceVersion?, apiVersion? }.
Napi::Value OpenXrProbeApiLayer(const Napi::CallbackInfo& info);

}  // namespace kl::napi
