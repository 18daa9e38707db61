// Instance-level OpenXR calls of the JavaScript API: systems, view configurations, paths and
// events. Each takes the OpenXrInstance first and calls through its dispatch table.
#pragma once

#include <napi.h>

namespace kl::napi::xr {

// openxrGetSystem(instance, formFactor: number): bigint XrSystemId
Napi::Value GetSystem(const Napi::CallbackInfo& info);
// openxrGetSystemProperties(instance, systemId): { systemId, vendorId, systemName, graphicsProperties, trackingProperties }
Napi::Value GetSystemProperties(const Napi::CallbackInfo& info);
// openxrEnumerateViewConfigurations(instance, systemId): number[]
Napi::Value EnumerateViewConfigurations(const Napi::CallbackInfo& info);
// openxrEnumerateViewConfigurationViews(instance, systemId, type): XrViewConfigurationView-like objects
Napi::Value EnumerateViewConfigurationViews(const Napi::CallbackInfo& info);
// openxrEnumerateEnvironmentBlendModes(instance, systemId, type): number[]
Napi::Value EnumerateEnvironmentBlendModes(const Napi::CallbackInfo& info);
// openxrStringToPath(instance, path: string): bigint; openxrPathToString(instance, path: bigint): string
Napi::Value StringToPath(const Napi::CallbackInfo& info);
Napi::Value PathToString(const Napi::CallbackInfo& info);
// openxrPollEvent(instance): the next event as a plain object, or null when the queue is empty.
Napi::Value PollEvent(const Napi::CallbackInfo& info);
// openxrConvertMonotonicNow(instance): CLOCK_MONOTONIC now as an XrTime, through
// xrConvertTimespecTimeToTimeKHR (throws XR_ERROR_FUNCTION_UNSUPPORTED where the chain lacks it).
Napi::Value ConvertMonotonicNow(const Napi::CallbackInfo& info);
// openxrDisplayRefreshRates(instance, session: bigint): { current, available } (Hz), through
// XR_FB_display_refresh_rate (a runtime without a compositor may answer current 0).
Napi::Value DisplayRefreshRates(const Napi::CallbackInfo& info);

}  // namespace kl::napi::xr
