// The C side of `khronos-loader bench openxr --command paced` (docs/performance.md, 'OpenXR: the
// paced frame'): a frame loop in C making the paced bench's reads at the same pacing, and the
// handles the koffi side drives the same way through another loader.
#pragma once

#include <napi.h>

namespace kl::napi::xr {

// new OpenXrPacedRig({ instance?: OpenXrInstance, loaderLibrary?: string, spaces: number }): a
// headless session on this package's instance (its loader's chain) or on a new instance of another
// loader library (XR_MND_headless, and XR_KHR_convert_timespec_time where offered), `spaces`
// reference spaces and a local space, two boolean and two float action states when the runtime has
// actions, begun and run one frame (focused). rig.handles: the raw handles; rig.run(what,
// durationMs): a paced C loop, ns per frame of `what`; rig.destroy().
Napi::Function DefineOpenXrPacedRig(Napi::Env env);

}  // namespace kl::napi::xr
