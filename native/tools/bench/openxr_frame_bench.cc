#include "tools/bench/openxr_frame_bench.h"

#include <string>
#include <vector>

#include "tools/bench/bench_timing.h"
#include "openxr/addon/openxr_handles.h"
#include "openxr/addon/openxr_session.h"
#include "openxr/addon/openxr_space.h"

namespace kl::napi::xr {

namespace {

struct FrameWork {
  std::shared_ptr<SessionCore> session;
  std::vector<std::shared_ptr<SpaceCore>> owners;
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
      acc |= static_cast<int32_t>(locate(w.session->handle, &info, &out));
    }
  });
  if (acc < 0) *failed = static_cast<XrResult>(acc);
  return s;
}

}  // namespace

Napi::Value BenchOpenXrFrameNative(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage =
      "benchOpenXrFrameNative(session, spaces: Space[], bases: Space[], command: 'xrLocateSpace' | 'xrLocateSpaces', time: number, iterations: number, repeats: number)";
  if (info.Length() < 7 || !info[1].IsArray() || !info[2].IsArray() || !info[3].IsString() || !info[4].IsNumber() || !info[5].IsNumber() ||
      !info[6].IsNumber()) {
    throw ArgumentError(env, usage);
  }
  FrameWork w;
  w.session = OpenXrSession::From(env, info[0])->Live(env);
  Napi::Array spaces = info[1].As<Napi::Array>();
  Napi::Array bases = info[2].As<Napi::Array>();
  if (spaces.Length() != bases.Length() || spaces.Length() == 0) throw ArgumentError(env, "benchOpenXrFrameNative: spaces and bases: the same length, at least 1");
  for (uint32_t i = 0; i < spaces.Length(); ++i) {
    for (auto [list, handles] : {std::pair{&spaces, &w.spaces}, std::pair{&bases, &w.bases}}) {
      std::shared_ptr<SpaceCore> core = OpenXrSpace::From(env, list->Get(i))->Live(env);
      if (core->session != w.session) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "benchOpenXrFrameNative: a space of another session");
      handles->push_back(core->handle);
      w.owners.push_back(std::move(core));
    }
  }
  const std::string command = info[3].As<Napi::String>().Utf8Value();
  const auto time = static_cast<XrTime>(info[4].As<Napi::Number>().DoubleValue());
  const uint32_t iterations = info[5].As<Napi::Number>().Uint32Value();
  const uint32_t repeats = info[6].As<Napi::Number>().Uint32Value();
  if (iterations == 0 || repeats == 0) throw ArgumentError(env, "benchOpenXrFrameNative: iterations and repeats must be at least 1");
  const auto& table = w.session->instance->table;

  std::vector<Group> groups;
  PFN_xrLocateSpace locateSpace = nullptr;
  PFN_xrLocateSpaces locateSpaces = nullptr;
  if (command == "xrLocateSpace") {
    locateSpace = Need(env, table.LocateSpace, "xrLocateSpace");
  } else if (command == "xrLocateSpaces") {
    if (w.session->instance->requestedApiVersion() < XR_MAKE_VERSION(1, 1, 0)) {
      throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, "xrLocateSpaces is an OpenXR 1.1 command; this instance is 1.0");
    }
    locateSpaces = Need(env, table.LocateSpaces, "xrLocateSpaces");
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

}  // namespace kl::napi::xr
