// What the OpenXR handle objects of the JavaScript API share (sessions, spaces, action sets,
// actions): each holds its parent's core through shared_ptr, down to the LoaderInstance, so the
// dispatch table it calls through outlives it; each core knows whether it is alive (its own
// destroyed flag and every parent's), so a call on a destroyed handle throws
// XR_ERROR_HANDLE_INVALID instead of reaching the runtime. Also: type tags (a wrong object is a
// TypeError, never a wrong cast), error helpers, and native functions bound to their data (the
// per-frame fast paths).
#pragma once

#include <napi.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "addon/errors.h"
#include "openxr/addon/openxr.h"
#include "openxr/loader/instance_registry.h"
#include "openxr/loader/loader_instance.h"

namespace kl::napi::xr {

using openxr::LoaderInstance;

struct SpaceCore;
struct SwapchainCore;
struct HandTrackerCore;

struct SessionCore {
  std::shared_ptr<LoaderInstance> instance;
  XrSession handle = XR_NULL_HANDLE;
  std::atomic<bool> destroyed{false};
  // The frame clock, JavaScript thread only: the predicted display time of the last frame
  // xrWaitFrame returned, and of the frame xrBeginFrame began (xrEndFrame's default).
  XrTime lastWaitedDisplayTime = 0;
  XrTime begunDisplayTime = 0;
  // What the session's one frame-state object (waitFrame's answer) holds now, so a wait writes
  // only the fields that changed (JavaScript thread only).
  XrFrameState shownFrameState{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE};
  // Spaces created from this session: xrDestroySession destroys them (JavaScript thread only).
  std::vector<std::weak_ptr<SpaceCore>> spaces;
  // How many of them were destroyed one by one (JavaScript thread only): a frame query checks its
  // spaces again only when this moved.
  uint64_t spacesDestroyed = 0;
  // Swapchains created from this session: xrDestroySession destroys them (JavaScript thread only).
  std::vector<std::weak_ptr<SwapchainCore>> swapchains;
  // Hand trackers (XR_EXT_hand_tracking) created from this session: destroyed with it (JavaScript thread only).
  std::vector<std::weak_ptr<HandTrackerCore>> handTrackers;
  // With a Vulkan graphics binding: the Vulkan instance and device the session renders with
  // (openxr_vulkan.cc), kept until the session is gone, so the runtime never sees them destroyed
  // under a live session even when JavaScript collects them in the wrong order.
  std::shared_ptr<const void> graphics;

  bool alive() const noexcept { return !destroyed.load(std::memory_order_relaxed) && !instance->destroyed(); }
};

struct SpaceCore {
  std::shared_ptr<SessionCore> session;
  XrSpace handle = XR_NULL_HANDLE;
  bool destroyed = false;
  // Pins of the session's wait thread (JavaScript thread only): while a waitFrame() whose frame
  // query uses this handle is pending, destroy() is refused (openxr_frame.h, FrameWaiter).
  uint32_t waitPins = 0;
  bool alive() const noexcept { return !destroyed && session->alive(); }
};

struct SwapchainCore {
  std::shared_ptr<SessionCore> session;
  XrSwapchain handle = XR_NULL_HANDLE;
  bool destroyed = false;
  // Images acquired and not yet released, and of those the ones waited (the spec's order:
  // acquire, wait, release, oldest first).
  uint32_t acquired = 0;
  uint32_t waited = 0;
  bool alive() const noexcept { return !destroyed && session->alive(); }
};

struct HandTrackerCore {
  std::shared_ptr<SessionCore> session;
  XrHandTrackerEXT handle = XR_NULL_HANDLE;
  bool destroyed = false;
  bool alive() const noexcept { return !destroyed && session->alive(); }
};

struct ActionSetCore {
  std::shared_ptr<LoaderInstance> instance;
  XrActionSet handle = XR_NULL_HANDLE;
  bool destroyed = false;
  // Pins of the session's wait thread (JavaScript thread only): while a waitFrame() whose frame
  // query uses this handle is pending, destroy() is refused (openxr_frame.h, FrameWaiter).
  uint32_t waitPins = 0;
  bool alive() const noexcept { return !destroyed && !instance->destroyed(); }
};

struct ActionCore {
  std::shared_ptr<ActionSetCore> set;
  XrAction handle = XR_NULL_HANDLE;
  XrActionType type = XR_ACTION_TYPE_BOOLEAN_INPUT;
  bool destroyed = false;
  // Pins of the session's wait thread (JavaScript thread only): while a waitFrame() whose frame
  // query uses this handle is pending, destroy() is refused (openxr_frame.h, FrameWaiter).
  uint32_t waitPins = 0;
  bool alive() const noexcept { return !destroyed && set->alive(); }
};

// One tag per class (napi_type_tag_object, N-API 8).
inline constexpr napi_type_tag kSessionTag{0x6b686c6f61646572ULL, 0x73657373696f6e01ULL};
inline constexpr napi_type_tag kSpaceTag{0x6b686c6f61646572ULL, 0x7370616365000002ULL};
inline constexpr napi_type_tag kActionSetTag{0x6b686c6f61646572ULL, 0x616374696f6e7303ULL};
inline constexpr napi_type_tag kActionTag{0x6b686c6f61646572ULL, 0x616374696f6e0004ULL};
inline constexpr napi_type_tag kSwapchainTag{0x6b686c6f61646572ULL, 0x7377617063680005ULL};
inline constexpr napi_type_tag kHandTrackerTag{0x6b686c6f61646572ULL, 0x68616e6474720006ULL};

inline void TagObject(Napi::Env env, Napi::Object object, const napi_type_tag& tag) {
  NAPI_THROW_IF_FAILED_VOID(env, napi_type_tag_object(env, object, &tag));
}

// The wrapped object behind `value`, or a TypeError naming what was expected.
template <typename T>
T* UnwrapTagged(Napi::Env env, Napi::Value value, const napi_type_tag& tag, const char* what) {
  bool matches = false;
  if (value.IsObject()) napi_check_object_type_tag(env, value, &tag, &matches);
  if (!matches) throw ArgumentError(env, std::string("expected ") + what);
  return Napi::ObjectWrap<T>::Unwrap(value.As<Napi::Object>());
}

// destroy() of a handle the session's wait thread may be using (waitPins > 0): KL_INVALID_STATE.
inline void RefuseWhilePinned(Napi::Env env, uint32_t waitPins, const char* what) {
  if (waitPins == 0) return;
  Napi::Error js = Napi::Error::New(env, std::string("the ") + what +
                                            " is read by the frame query of a pending waitFrame() on its session's wait thread: await the "
                                            "frame (or stop the frame loop) before destroying it");
  js.Set("code", Napi::String::New(env, "KL_INVALID_STATE"));
  throw js;
}

inline Napi::Error DestroyedError(Napi::Env env, const char* what) {
  return XrErrorToJs(env, XR_ERROR_HANDLE_INVALID,
                     std::string("the ") + what + " has been destroyed (or a parent handle has: destroying a parent destroys its children)");
}

inline void Check(Napi::Env env, XrResult result, const char* command) {
  if (XR_FAILED(result)) throw XrErrorToJs(env, result, std::string(command) + " failed");
}

// The two-call idiom: ask for the count, then fill `count` elements that start as `blank`.
// `call(capacity, &count, data)` is the command with its leading arguments bound.
template <typename T, typename Call>
std::vector<T> EnumerateTwoCall(Napi::Env env, const char* command, const T& blank, Call call) {
  uint32_t count = 0;
  Check(env, call(0, &count, nullptr), command);
  std::vector<T> items(count, blank);
  Check(env, call(count, &count, items.data()), command);
  items.resize(count);
  return items;
}

// Everything a runtime drain command (the simulated runtime's readback and haptics records) holds,
// oldest first, taken in chunks: `drain(capacity, &count, data)` moves up to capacity records out.
template <typename T, typename Drain>
std::vector<T> DrainAll(Napi::Env env, const char* command, Drain drain) {
  std::vector<T> all;
  std::vector<T> chunk(256);
  for (;;) {
    uint32_t count = 0;
    Check(env, drain(static_cast<uint32_t>(chunk.size()), &count, chunk.data()), command);
    all.insert(all.end(), chunk.begin(), chunk.begin() + count);
    if (count < chunk.size()) return all;
  }
}

// An enum list as a JavaScript array of numbers.
template <typename T>
Napi::Array NumberArray(Napi::Env env, const std::vector<T>& values) {
  Napi::Array a = Napi::Array::New(env, values.size());
  for (uint32_t i = 0; i < values.size(); ++i) a.Set(i, Napi::Number::New(env, static_cast<double>(values[i])));
  return a;
}

// A dispatch table entry, or XR_ERROR_FUNCTION_UNSUPPORTED naming the command.
template <typename F>
F Need(Napi::Env env, F function, const char* command) {
  if (function == nullptr) throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, std::string(command) + " is not available in this instance's call chain");
  return function;
}

// A command reached through xrGetInstanceProcAddr down the chain (runtime commands such as the
// simulated runtime's drains); XR_ERROR_FUNCTION_UNSUPPORTED with `remedy` when the chain has none.
template <typename F>
F ChainFunction(Napi::Env env, LoaderInstance& li, const char* name, const char* remedy) {
  PFN_xrVoidFunction fn = nullptr;
  const XrResult r = li.GetInstanceProcAddr(name, &fn);
  if (XR_FAILED(r) || fn == nullptr) {
    throw XrErrorToJs(env, XR_FAILED(r) ? r : XR_ERROR_FUNCTION_UNSUPPORTED, std::string(name) + " is not available: " + remedy);
  }
  return reinterpret_cast<F>(fn);
}

// The largest integer a double holds exactly with every integer below it (Number.MAX_SAFE_INTEGER).
inline constexpr double kMaxSafeInteger = 9007199254740991.0;

// An XrTime from a bigint (any int64) or a number that is a safe integer (exact up to 2^53 - 1 ns,
// about 104 days); false for anything else, TimeProblem says why.
inline bool ReadTime(napi_env env, napi_value value, XrTime* time) noexcept {
  // One N-API call for a number (the common case in a hot loop), a second only when that says
  // the value is not a number: the per-call path is counted in N-API calls (docs/performance.md,
  // "The per-call path at the N-API minimum").
  if (value == nullptr) return false;
  double d = 0;
  const napi_status status = napi_get_value_double(env, value, &d);
  if (status == napi_ok) {
    if (!(d >= -kMaxSafeInteger && d <= kMaxSafeInteger) || d != static_cast<double>(static_cast<int64_t>(d))) return false;
    *time = static_cast<XrTime>(d);
    return true;
  }
  if (status != napi_number_expected) return false;
  int64_t v = 0;
  bool lossless = false;
  if (napi_get_value_bigint_int64(env, value, &v, &lossless) != napi_ok || !lossless) return false;
  *time = v;
  return true;
}

// Why `value` is not an XrTime (only called once ReadTime said no): "<what> must be ...,
// got ...", naming a number beyond 2^53 as not a safe integer.
inline std::string TimeProblem(napi_env env, napi_value value, const char* what) {
  const std::string need = std::string(what) + " must be an XrTime, a whole number of nanoseconds: a bigint, or a number up to Number.MAX_SAFE_INTEGER";
  napi_valuetype type = napi_undefined;
  if (value == nullptr || napi_typeof(env, value, &type) != napi_ok) return need + ", got nothing";
  if (type == napi_bigint) return std::string(what) + " must be an XrTime (a signed 64-bit count of nanoseconds), got a bigint outside [-2^63, 2^63)";
  if (type != napi_number) {
    static constexpr const char* kTypeNames[] = {"undefined", "null", "a boolean", "a number", "a string", "a symbol", "an object", "a function", "an external", "a bigint"};
    const auto index = static_cast<std::size_t>(type);
    return need + ", got " + (index < std::size(kTypeNames) ? kTypeNames[index] : "another type");
  }
  double d = 0;
  napi_get_value_double(env, value, &d);
  char text[400];  // %.0f of the largest double: 309 digits
  const bool whole = std::isfinite(d) && d == std::trunc(d);
  std::snprintf(text, sizeof text, whole ? "%.0f" : "%.17g", d);
  if (whole) {
    return std::string(what) + " is " + text + ", beyond Number.MAX_SAFE_INTEGER (2^53 - 1), where a number no longer holds every integer: pass the XrTime as a bigint";
  }
  return need + ", got " + text;
}

// ReadTime for a per-frame call that remembers which kind of time it was given last: the same
// two reads in the other order when that was a bigint, so a caller passing the frame's bigint
// predictedDisplayTime every frame pays one N-API call for it, as a caller passing numbers does
// (docs/performance.md, "The per-call path at the N-API minimum"). `bigintFirst` is updated.
inline bool ReadTimeAdaptive(napi_env env, napi_value value, XrTime* time, bool& bigintFirst) noexcept {
  if (value == nullptr) return false;
  const auto asBigint = [&](napi_status& status) {
    int64_t v = 0;
    bool lossless = false;
    status = napi_get_value_bigint_int64(env, value, &v, &lossless);
    if (status != napi_ok || !lossless) return false;
    *time = v;
    return true;
  };
  const auto asNumber = [&](napi_status& status) {
    double d = 0;
    status = napi_get_value_double(env, value, &d);
    if (status != napi_ok || !(d >= -kMaxSafeInteger && d <= kMaxSafeInteger) || d != static_cast<double>(static_cast<int64_t>(d))) return false;
    *time = static_cast<XrTime>(d);
    return true;
  };
  napi_status status = napi_ok;
  if (bigintFirst) {
    if (asBigint(status)) return true;
    if (status != napi_bigint_expected || !asNumber(status)) return false;
    bigintFirst = false;
    return true;
  }
  if (asNumber(status)) return true;
  if (status != napi_number_expected || !asBigint(status)) return false;
  bigintFirst = true;
  return true;
}

inline XrTime TimeArgument(Napi::Env env, Napi::Value value, const char* what) {
  XrTime time = 0;
  if (!ReadTime(env, value, &time)) throw ArgumentError(env, TimeProblem(env, value, what));
  return time;
}

inline Napi::BigInt TimeToJs(Napi::Env env, XrTime time) { return Napi::BigInt::New(env, static_cast<int64_t>(time)); }

inline XrPath PathArgument(Napi::Env env, Napi::Value value, const char* what) {
  if (value.IsUndefined() || value.IsNull()) return XR_NULL_PATH;
  if (!value.IsBigInt()) throw ArgumentError(env, std::string(what) + " must be a bigint XrPath");
  bool lossless = true;
  return static_cast<XrPath>(value.As<Napi::BigInt>().Uint64Value(&lossless));
}

// Float32Array of at least `minLength` elements; its data pointer.
inline float* Float32Data(Napi::Env env, Napi::Value value, std::size_t minLength, const char* what) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array) {
    throw ArgumentError(env, std::string(what) + " must be a Float32Array");
  }
  Napi::Float32Array array = value.As<Napi::Float32Array>();
  if (array.ElementLength() < minLength) {
    throw ArgumentError(env, std::string(what) + " must have at least " + std::to_string(minLength) + " elements");
  }
  return array.Data();
}

// The first element of a Uint32Array: where a bound locate call writes what it answers (the
// location flags, isActive), so the call returns undefined and makes no N-API call to build a
// number. JavaScript reads the slot right after the call (lib/openxr/api/locator-binding.ts).
inline uint32_t* ResultSlot(Napi::Env env, Napi::Value value) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array ||
      value.As<Napi::TypedArray>().ElementLength() < 1) {
    throw ArgumentError(env, "result must be a Uint32Array of at least 1 element");
  }
  return value.As<Napi::Uint32Array>().Data();
}

// An XrPosef from [px, py, pz, qx, qy, qz, qw] (identity when `value` is undefined).
inline XrPosef PoseArgument(Napi::Env env, Napi::Value value) {
  XrPosef pose{{0, 0, 0, 1}, {0, 0, 0}};
  if (value.IsUndefined() || value.IsNull()) return pose;
  const float* p = Float32Data(env, value, 7, "pose");
  pose.position = {p[0], p[1], p[2]};
  pose.orientation = {p[3], p[4], p[5], p[6]};
  return pose;
}

// Two block copies (the position's 3 floats, the orientation's 4) rather than 7 scalar ones: a
// hand's 26 joints are written per call (docs/performance.md, "The per-call path at the N-API minimum").
inline void WritePose(float* out, const XrPosef& pose) noexcept {
  static_assert(sizeof(XrVector3f) == 3 * sizeof(float) && sizeof(XrQuaternionf) == 4 * sizeof(float));
  std::memcpy(out, &pose.position, sizeof(XrVector3f));
  std::memcpy(out + 3, &pose.orientation, sizeof(XrQuaternionf));
}

// A JavaScript exception from inside a raw napi_callback; returns nullptr for the callback to return.
inline napi_value ThrowFromCallback(const Napi::Error& error) noexcept {
  try {
    error.ThrowAsJavaScriptException();
  } catch (...) {
    // napi_throw failed: the environment is terminating.
  }
  return nullptr;
}

// --- Bound data: everything a per-frame call needs (handles, dispatch table entries, the
// output's address), made once and handed to JavaScript as an external, which the caller passes
// back to the one native function of its kind (`openxrLocateSpace(locator, time)`), so a call
// unpacks one number and allocates nothing. Why not a JavaScript function per binding: V8 calls
// a native function directly from a call site that has seen only that target, while a site that
// has seen several (16 spaces' locators, two frame queries) takes the generic call path, about
// 25 ns more a call (bench/RESULTS.md, "Frame queries").

// Each kind's data starts with its tag, so a function handed another kind's external refuses it.
// (These functions are reached through this package's own JavaScript, never the public API; an
// external some other addon made would be read for a tag it does not have.)
enum class BoundKind : uint32_t {
  kSpaceLocator = 0x4b4c4201,
  kHandJointLocator,
  kViewLocator,
  kActionState,
  kFrameQuery,
  kEndFrame,
};

struct BoundData {
  explicit BoundData(BoundKind k) noexcept : kind(k) {}
  BoundData(const BoundData&) = delete;
  BoundData& operator=(const BoundData&) = delete;
  const BoundKind kind;
  // The last time argument was a bigint (ReadTimeAdaptive reads that kind first). JavaScript thread only.
  bool bigintTime = false;
};

template <typename Data>
Napi::Value MakeBoundData(Napi::Env env, std::unique_ptr<Data> data) {
  static_assert(std::is_base_of_v<BoundData, Data>);
  napi_value external = nullptr;
  BoundData* base = data.get();
  NAPI_THROW_IF_FAILED(env,
                       napi_create_external(
                           env, base, [](napi_env, void* d, void*) { delete static_cast<Data*>(static_cast<BoundData*>(d)); }, nullptr, &external),
                       Napi::Value());
  data.release();
  return Napi::Value(env, external);
}

// The bound data of kind Data::kKind passed as the first argument, and the second argument
// (null when absent); false when the first is not such data.
template <typename Data>
bool BoundDataCall(napi_env env, napi_callback_info info, Data** data, napi_value* argument) noexcept {
  std::size_t argc = 2;
  napi_value argv[2] = {nullptr, nullptr};
  void* raw = nullptr;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < 1 || napi_get_value_external(env, argv[0], &raw) != napi_ok ||
      raw == nullptr || static_cast<BoundData*>(raw)->kind != Data::kKind) {
    return false;
  }
  *data = static_cast<Data*>(static_cast<BoundData*>(raw));
  *argument = argc >= 2 ? argv[1] : nullptr;
  return true;
}

// The bound data and the XrTime after it (the locate calls); false, with a TypeError thrown
// saying `dataUsage`, or why the time argument (`timeName`) is not an XrTime, when either is wrong.
template <typename Data>
bool BoundTimeCall(napi_env env, napi_callback_info info, Data** data, XrTime* time, const char* dataUsage, const char* timeName) noexcept {
  napi_value argument = nullptr;
  if (!BoundDataCall(env, info, data, &argument)) {
    ThrowFromCallback(ArgumentError(Napi::Env(env), dataUsage));
    return false;
  }
  BoundData& base = **data;
  if (ReadTimeAdaptive(env, argument, time, base.bigintTime)) return true;
  try {
    ThrowFromCallback(ArgumentError(Napi::Env(env), TimeProblem(env, argument, timeName)));
  } catch (...) {
    ThrowFromCallback(ArgumentError(Napi::Env(env), std::string(timeName) + " must be an XrTime"));
  }
  return false;
}

// A per-frame call (a raw napi_callback taking bound data) as exports[name].
inline void ExportBoundCall(Napi::Env env, Napi::Object exports, const char* name, napi_callback callback) {
  napi_value fn = nullptr;
  NAPI_THROW_IF_FAILED_VOID(env, napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &fn));
  exports.Set(name, Napi::Value(env, fn));
}

}  // namespace kl::napi::xr
