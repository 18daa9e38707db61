#include "tools/bench/openxr_frame_bench.h"

#include <array>
#include <string>
#include <vector>

#include "tools/bench/bench_timing.h"
#include "addon/errors.h"
#include "openxr/addon/xr_error_js.h"
#include "tools/loader_addon.h"

namespace kl::napi::xr {

namespace {

struct FrameWork {
  XrSession session = XR_NULL_HANDLE;
  std::vector<XrSpace> spaces, bases;
};

// The spaces located against one base space (one xrLocateSpaces call).
struct Group {
  XrSpace base;
  std::vector<XrSpace> spaces;
  std::vector<XrSpaceLocationData> locations;
};

bench::Sample TimeLocateSpace(const FrameWork& w, PFN_xrLocateSpace locate, XrTime time, uint32_t iterations, XrResult* failed) {
  XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, nullptr, 0, {{0, 0, 0, 1}, {0, 0, 0}}};
  int32_t acc = XR_SUCCESS;
  const std::size_t n = w.spaces.size();
  const bench::Sample s = bench::TimeCalls(iterations, [&](uint32_t f) {
    for (std::size_t i = 0; i < n; ++i) acc |= static_cast<int32_t>(locate(w.spaces[i], w.bases[i], time + f, &location));
  });
  if (acc < 0) *failed = static_cast<XrResult>(acc);
  return s;
}

bench::Sample TimeLocateSpaces(const FrameWork& w, PFN_xrLocateSpaces locate, std::vector<Group>& groups, XrTime time, uint32_t iterations,
                               XrResult* failed) {
  int32_t acc = XR_SUCCESS;
  const bench::Sample s = bench::TimeCalls(iterations, [&](uint32_t f) {
    for (Group& g : groups) {
      const auto count = static_cast<uint32_t>(g.spaces.size());
      const XrSpacesLocateInfo info{XR_TYPE_SPACES_LOCATE_INFO, nullptr, g.base, time + f, count, g.spaces.data()};
      XrSpaceLocations out{XR_TYPE_SPACE_LOCATIONS, nullptr, count, g.locations.data()};
      acc |= static_cast<int32_t>(locate(w.session, &info, &out));
    }
  });
  if (acc < 0) *failed = static_cast<XrResult>(acc);
  return s;
}

}  // namespace

Napi::Value BenchOpenXrFrameNative(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage =
      "benchOpenXrFrameNative(instance, session, spaces: Space[], bases: Space[], command: 'xrLocateSpace' | 'xrLocateSpaces', time: number, iterations: number, repeats: number)";
  if (info.Length() < 8 || !info[2].IsArray() || !info[3].IsArray() || !info[4].IsString() || !info[5].IsNumber() || !info[6].IsNumber() ||
      !info[7].IsNumber()) {
    throw ArgumentError(env, usage);
  }
  // Raw handles of the product addon's objects (their `handle` throws once destroyed); the
  // function timed is the one the typed API calls: the top of the instance's chain, as the
  // product addon's exported xrGetInstanceProcAddr hands it out.
  const auto instance = reinterpret_cast<XrInstance>(static_cast<std::uintptr_t>(tools::HandleArgument(env, info[0], "instance")));
  FrameWork w;
  w.session = reinterpret_cast<XrSession>(static_cast<std::uintptr_t>(tools::HandleArgument(env, info[1], "session")));
  Napi::Array spaces = info[2].As<Napi::Array>();
  Napi::Array bases = info[3].As<Napi::Array>();
  if (spaces.Length() != bases.Length() || spaces.Length() == 0) throw ArgumentError(env, "benchOpenXrFrameNative: spaces and bases: the same length, at least 1");
  for (uint32_t i = 0; i < spaces.Length(); ++i) {
    for (auto [list, handles] : {std::pair{&spaces, &w.spaces}, std::pair{&bases, &w.bases}}) {
      handles->push_back(reinterpret_cast<XrSpace>(static_cast<std::uintptr_t>(tools::HandleArgument(env, list->Get(i), "space"))));
    }
  }
  const auto getInstanceProcAddr = tools::LoaderAddon(env).RequireFunction<PFN_xrGetInstanceProcAddr>("xrGetInstanceProcAddr");
  auto chainFunction = [&](const char* name) {
    PFN_xrVoidFunction fn = nullptr;
    const XrResult r = getInstanceProcAddr(instance, name, &fn);
    if (XR_FAILED(r) || fn == nullptr) {
      throw XrErrorToJs(env, XR_FAILED(r) ? r : XR_ERROR_FUNCTION_UNSUPPORTED, std::string(name) + " is not available in this instance's call chain");
    }
    return fn;
  };
  const std::string command = info[4].As<Napi::String>().Utf8Value();
  const auto time = static_cast<XrTime>(info[5].As<Napi::Number>().DoubleValue());
  const uint32_t iterations = info[6].As<Napi::Number>().Uint32Value();
  const uint32_t repeats = info[7].As<Napi::Number>().Uint32Value();
  if (iterations == 0 || repeats == 0) throw ArgumentError(env, "benchOpenXrFrameNative: iterations and repeats must be at least 1");

  std::vector<Group> groups;
  PFN_xrLocateSpace locateSpace = nullptr;
  PFN_xrLocateSpaces locateSpaces = nullptr;
  if (command == "xrLocateSpace") {
    locateSpace = reinterpret_cast<PFN_xrLocateSpace>(chainFunction("xrLocateSpace"));
  } else if (command == "xrLocateSpaces") {
    locateSpaces = reinterpret_cast<PFN_xrLocateSpaces>(chainFunction("xrLocateSpaces"));
    for (std::size_t i = 0; i < w.spaces.size(); ++i) {
      Group* group = nullptr;
      for (Group& g : groups) {
        if (g.base == w.bases[i]) group = &g;
      }
      if (group == nullptr) group = &groups.emplace_back(Group{w.bases[i], {}, {}});
      group->spaces.push_back(w.spaces[i]);
      group->locations.push_back(XrSpaceLocationData{0, {{0, 0, 0, 1}, {0, 0, 0}}});
    }
  } else {
    throw ArgumentError(env, usage);
  }

  auto sample = [&](uint32_t n, XrResult* failed) {
    return locateSpace != nullptr ? TimeLocateSpace(w, locateSpace, time, n, failed) : TimeLocateSpaces(w, locateSpaces, groups, time, n, failed);
  };
  XrResult failed = XR_SUCCESS;
  sample(iterations / 10 + 1, &failed);  // warm-up
  Napi::Array wall = Napi::Array::New(env, repeats);
  Napi::Array cpu = Napi::Array::New(env, repeats);
  for (uint32_t r = 0; r < repeats && XR_SUCCEEDED(failed); ++r) {
    const bench::Sample s = sample(iterations, &failed);
    wall.Set(r, Napi::Number::New(env, s.wallNs));
    cpu.Set(r, Napi::Number::New(env, s.cpuNs));
  }
  if (XR_FAILED(failed)) throw XrErrorToJs(env, failed, "benchOpenXrFrameNative: " + command + " failed in the timed loop");
  Napi::Object out = Napi::Object::New(env);
  out.Set("wallNs", wall);
  out.Set("cpuNs", cpu);
  return out;
}

namespace {

template <typename Handle>
Handle HandleOf(Napi::Env env, Napi::Value value, const char* what) {
  return reinterpret_cast<Handle>(static_cast<std::uintptr_t>(tools::HandleArgument(env, value, what)));
}

// `iterations` calls of one action-state getter with a state structure of type `State`.
template <typename State, typename Fn>
bench::Sample TimeActionState(Fn get, XrSession session, const XrActionStateGetInfo& getInfo, XrStructureType type, uint32_t iterations,
                              XrResult* failed) {
  State state{};
  state.type = type;
  int32_t acc = XR_SUCCESS;
  const bench::Sample s = bench::TimeCalls(iterations, [&](uint32_t) { acc |= static_cast<int32_t>(get(session, &getInfo, &state)); });
  if (acc < 0) *failed = static_cast<XrResult>(acc);
  return s;
}

}  // namespace

Napi::Value BenchOpenXrRuntimeCall(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage =
      "benchOpenXrRuntimeCall(instance, command: 'xrLocateSpace' | 'xrLocateHandJointsEXT' | 'xrGetActionStateBoolean' | 'xrGetActionStateFloat' | "
      "'xrGetActionStateVector2f' | 'xrGetActionStatePose', handles: [space, base] | [tracker, base] | [session, action], time: number, iterations: number)";
  if (info.Length() < 5 || !info[1].IsString() || !info[2].IsArray() || info[2].As<Napi::Array>().Length() != 2 || !info[3].IsNumber() ||
      !info[4].IsNumber()) {
    throw ArgumentError(env, usage);
  }
  // The function timed is the one the typed API calls: the top of the instance's chain, as the
  // product addon's exported xrGetInstanceProcAddr hands it out; the handles are the typed API's.
  const auto instance = HandleOf<XrInstance>(env, info[0], "instance");
  const std::string command = info[1].As<Napi::String>().Utf8Value();
  Napi::Array handles = info[2].As<Napi::Array>();
  const Napi::Value first = handles.Get(0u), second = handles.Get(1u);
  const auto time = static_cast<XrTime>(info[3].As<Napi::Number>().DoubleValue());
  const uint32_t iterations = info[4].As<Napi::Number>().Uint32Value();
  if (iterations == 0) throw ArgumentError(env, "benchOpenXrRuntimeCall: iterations must be at least 1");
  PFN_xrVoidFunction fn = nullptr;
  const auto getInstanceProcAddr = tools::LoaderAddon(env).RequireFunction<PFN_xrGetInstanceProcAddr>("xrGetInstanceProcAddr");
  const XrResult found = getInstanceProcAddr(instance, command.c_str(), &fn);
  if (XR_FAILED(found) || fn == nullptr) {
    throw XrErrorToJs(env, XR_FAILED(found) ? found : XR_ERROR_FUNCTION_UNSUPPORTED, command + " is not available in this instance's call chain");
  }
  XrResult failed = XR_SUCCESS;
  bench::Sample s{0, 0};
  if (command == "xrLocateSpace") {
    const auto locate = reinterpret_cast<PFN_xrLocateSpace>(fn);
    const auto space = HandleOf<XrSpace>(env, first, "space");
    const auto base = HandleOf<XrSpace>(env, second, "base");
    XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, nullptr, 0, {{0, 0, 0, 1}, {0, 0, 0}}};
    int32_t acc = XR_SUCCESS;
    s = bench::TimeCalls(iterations, [&](uint32_t) { acc |= static_cast<int32_t>(locate(space, base, time, &location)); });
    if (acc < 0) failed = static_cast<XrResult>(acc);
  } else if (command == "xrLocateHandJointsEXT") {
    const auto locate = reinterpret_cast<PFN_xrLocateHandJointsEXT>(fn);
    const auto tracker = HandleOf<XrHandTrackerEXT>(env, first, "tracker");
    const XrHandJointsLocateInfoEXT locateInfo{XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT, nullptr, HandleOf<XrSpace>(env, second, "base"), time};
    std::array<XrHandJointLocationEXT, XR_HAND_JOINT_COUNT_EXT> joints{};
    XrHandJointLocationsEXT locations{XR_TYPE_HAND_JOINT_LOCATIONS_EXT, nullptr, XR_FALSE, XR_HAND_JOINT_COUNT_EXT, joints.data()};
    int32_t acc = XR_SUCCESS;
    s = bench::TimeCalls(iterations, [&](uint32_t) { acc |= static_cast<int32_t>(locate(tracker, &locateInfo, &locations)); });
    if (acc < 0) failed = static_cast<XrResult>(acc);
  } else {
    const auto session = HandleOf<XrSession>(env, first, "session");
    const XrActionStateGetInfo getInfo{XR_TYPE_ACTION_STATE_GET_INFO, nullptr, HandleOf<XrAction>(env, second, "action"), XR_NULL_PATH};
    if (command == "xrGetActionStateBoolean") {
      s = TimeActionState<XrActionStateBoolean>(reinterpret_cast<PFN_xrGetActionStateBoolean>(fn), session, getInfo, XR_TYPE_ACTION_STATE_BOOLEAN, iterations, &failed);
    } else if (command == "xrGetActionStateFloat") {
      s = TimeActionState<XrActionStateFloat>(reinterpret_cast<PFN_xrGetActionStateFloat>(fn), session, getInfo, XR_TYPE_ACTION_STATE_FLOAT, iterations, &failed);
    } else if (command == "xrGetActionStateVector2f") {
      s = TimeActionState<XrActionStateVector2f>(reinterpret_cast<PFN_xrGetActionStateVector2f>(fn), session, getInfo, XR_TYPE_ACTION_STATE_VECTOR2F, iterations,
                                                 &failed);
    } else if (command == "xrGetActionStatePose") {
      s = TimeActionState<XrActionStatePose>(reinterpret_cast<PFN_xrGetActionStatePose>(fn), session, getInfo, XR_TYPE_ACTION_STATE_POSE, iterations, &failed);
    } else {
      throw ArgumentError(env, usage);
    }
  }
  if (XR_FAILED(failed)) throw XrErrorToJs(env, failed, "benchOpenXrRuntimeCall: " + command + " failed in the timed loop");
  return Napi::Number::New(env, s.wallNs);
}

}  // namespace kl::napi::xr
