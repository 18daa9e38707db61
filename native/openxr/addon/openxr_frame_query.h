// The frame query: one native call per frame for everything a frame reads from the runtime — a
// list of (space, base) locations, the views, and action states — written into one caller's
// Float32Array with a fixed layout (lib/openxr/api/frame-query.ts documents it for users):
//
//   spaces:  kFrameSpaceFloats per entry: px py pz qx qy qz qw, XrSpaceLocationFlags
//   views:   (when bound) XrViewStateFlags, then kFrameViewFloats per view: pose (7), fov (4)
//   actions: kFrameActionFloats per entry: value x, value y, changedSinceLastSync, isActive
//            (boolean: x = 0/1; float: x; vector2f: x, y; pose: isActive alone)
//
// Everything is resolved when the query is bound (handles, dispatch table entries, structures
// for the runtime, the output's data pointer), so a call unpacks one number and allocates
// nothing. Spaces are located with xrLocateSpaces (one call per distinct base space) on an
// OpenXR 1.1 instance whose call chain has it, with a loop of xrLocateSpace otherwise.
#pragma once

#include <napi.h>

#include <cstddef>
#include <memory>
#include <string>

#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

inline constexpr std::size_t kFrameSpaceFloats = 8;
inline constexpr std::size_t kFrameViewFloats = 11;
inline constexpr std::size_t kFrameActionFloats = 4;

// openxrBindFrameQuery(session, spaces: OpenXrSpace[], bases: OpenXrSpace[],
//                      views: { space, viewConfigurationType, viewCount } | null,
//                      actions: { action: OpenXrAction, subactionPath?: bigint }[], out: Float32Array,
//                      allowLocateSpaces = true)
//   → { query: the bound query (an external), locatePath: 'xrLocateSpaces' | 'xrLocateSpace' | 'none',
//   floats: the output's length }. allowLocateSpaces false: the xrLocateSpace loop even where
//   xrLocateSpaces exists.
Napi::Value BindFrameQuery(const Napi::CallbackInfo& info);

// openxrRunFrameQuery(query, time: bigint | number) → undefined: the per-frame call, one function
// for every query (openxr_handles.h: BoundData says why).
napi_value RunFrameQuery(napi_env env, napi_callback_info info);

// --- For the session's wait thread (FrameWaiter, openxr_frame.h), which runs a bound query right
// after xrWaitFrame returns, into the query's own output (a buffer JavaScript never reads).

struct FrameQuery;

// The bound query in `value` (openxrBindFrameQuery's `query`), or a KL_INVALID_ARGUMENT TypeError.
FrameQuery* FrameQueryOf(Napi::Env env, Napi::Value value);
const std::shared_ptr<SessionCore>& FrameQuerySession(const FrameQuery& q) noexcept;
// The bound output and its length in floats.
const float* FrameQueryOutput(const FrameQuery& q) noexcept;
std::size_t FrameQueryFloats(const FrameQuery& q) noexcept;
// JavaScript thread: empty when every handle of the query is alive, else the first destroyed one's place.
std::string FrameQueryDestroyed(FrameQuery& q);
// JavaScript thread: pins (or unpins) every space, action and action set the query uses (waitPins:
// their destroy() is refused while the wait thread may use them).
void PinFrameQuery(FrameQuery& q, bool pin) noexcept;
// Any thread, no JavaScript: every step at `time` into the bound output; false with the failing
// result and the message for its OpenXrError. The caller keeps the handles alive (pinned).
bool RunFrameQueryOffThread(FrameQuery& q, XrTime time, XrResult& result, std::string& message);

}  // namespace kl::napi::xr
