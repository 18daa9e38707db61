// The session's input and output calls beyond action state: haptics (xrApplyHapticFeedback,
// xrStopHapticFeedback), xrEnumerateBoundSourcesForAction, xrGetInputSourceLocalizedName,
// xrGetReferenceSpaceBoundsRect, and the simulated runtime's haptics record (simxr_haptics.h).
#pragma once

#include <napi.h>

namespace kl::napi::xr {

// openxrApplyHaptic(session, action, subactionPath: bigint | undefined, duration: bigint | number, frequency: number, amplitude: number): XrResult (0 or XR_SESSION_NOT_FOCUSED)
Napi::Value ApplyHaptic(const Napi::CallbackInfo& info);
// openxrStopHaptic(session, action, subactionPath: bigint | undefined): XrResult
Napi::Value StopHaptic(const Napi::CallbackInfo& info);
// openxrBoundSources(session, action): bigint[] (XrPath)
Napi::Value BoundSources(const Napi::CallbackInfo& info);
// openxrInputSourceLocalizedName(session, source: bigint, whichComponents: number): string
Napi::Value InputSourceLocalizedName(const Napi::CallbackInfo& info);
// openxrReferenceSpaceBounds(session, referenceSpaceType: number): { width, height } or null (XR_SPACE_BOUNDS_UNAVAILABLE)
Napi::Value ReferenceSpaceBounds(const Napi::CallbackInfo& info);
// openxrDrainHapticEvents(session): the simulated runtime's haptics records, oldest first, removed from it
Napi::Value DrainHapticEvents(const Napi::CallbackInfo& info);

}  // namespace kl::napi::xr
