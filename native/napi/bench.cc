#include "napi/bench.h"

#include <algorithm>
#include <chrono>

#include "napi/errors.h"
#include "napi/openxr.h"
#include "openxr/instance_registry.h"
#include "openxr/trampolines.h"

extern "C" XRAPI_ATTR XrResult XRAPI_CALL xrLocateSpace(XrSpace space, XrSpace baseSpace, XrTime time, XrSpaceLocation* location);

namespace kl::napi {

namespace {

// The same loop as bench/native/khronos_locate_space.c, so both loaders are timed alike.
double MeasureLocateSpace(PFN_xrLocateSpace locate, XrSpace space, XrSpace base, uint32_t iterations, uint32_t repeats) {
  XrSpaceLocation location{};
  location.type = XR_TYPE_SPACE_LOCATION;
  double best = 1e300;
  for (uint32_t r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    XrResult acc = XR_SUCCESS;
    for (uint32_t i = 0; i < iterations; ++i) acc = static_cast<XrResult>(acc | locate(space, base, 1000 + i, &location));
    const auto end = std::chrono::steady_clock::now();
    if (acc != XR_SUCCESS) return -1;
    best = std::min(best, std::chrono::duration<double, std::nano>(end - start).count() / iterations);
  }
  return best;
}

struct SessionSpaces {
  openxr::LoaderInstance& li;
  XrSession session = XR_NULL_HANDLE;
  XrSpace local = XR_NULL_HANDLE;
  XrSpace view = XR_NULL_HANDLE;
  ~SessionSpaces() {
    for (XrSpace s : {view, local}) {
      if (s == XR_NULL_HANDLE) continue;
      li.table.DestroySpace(s);
      li.ForgetChildHandle(openxr::HandleValue(s));
    }
    if (session != XR_NULL_HANDLE) {
      li.table.DestroySession(session);
      li.ForgetChildHandle(openxr::HandleValue(session));
    }
  }
};

}  // namespace

Napi::Value BenchOpenXrLocateSpace(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[1].IsNumber() || !info[2].IsNumber()) {
    throw ArgumentError(env, "benchOpenXrLocateSpace(instance, iterations, repeats)");
  }
  openxr::LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const auto iterations = info[1].As<Napi::Number>().Uint32Value();
  const auto repeats = std::max(1u, info[2].As<Napi::Number>().Uint32Value());
  const auto& t = li.table;
  if (!t.GetSystem || !t.CreateSession || !t.CreateReferenceSpace || !t.LocateSpace || !t.DestroySpace || !t.DestroySession) {
    throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, "the chain lacks a command the benchmark needs");
  }
  XrSystemGetInfo systemInfo{XR_TYPE_SYSTEM_GET_INFO, nullptr, XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
  XrSystemId system = XR_NULL_SYSTEM_ID;
  XrResult r = t.GetSystem(li.handle(), &systemInfo, &system);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrGetSystem failed");
  SessionSpaces s{li};
  XrSessionCreateInfo sessionInfo{XR_TYPE_SESSION_CREATE_INFO, nullptr, 0, system};
  r = t.CreateSession(li.handle(), &sessionInfo, &s.session);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrCreateSession failed (is XR_MND_headless enabled?)");
  li.RecordChildHandle(openxr::HandleValue(s.session));
  XrReferenceSpaceCreateInfo spaceInfo{XR_TYPE_REFERENCE_SPACE_CREATE_INFO, nullptr, XR_REFERENCE_SPACE_TYPE_LOCAL, {{0, 0, 0, 1}, {0, 0, 0}}};
  r = t.CreateReferenceSpace(s.session, &spaceInfo, &s.local);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrCreateReferenceSpace failed");
  li.RecordChildHandle(openxr::HandleValue(s.local));
  spaceInfo.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
  r = t.CreateReferenceSpace(s.session, &spaceInfo, &s.view);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrCreateReferenceSpace failed");
  li.RecordChildHandle(openxr::HandleValue(s.view));

  PFN_xrVoidFunction fromProcAddr = nullptr;
  r = li.GetInstanceProcAddr("xrLocateSpace", &fromProcAddr);
  if (XR_FAILED(r)) throw XrErrorToJs(env, r, "xrGetInstanceProcAddr(xrLocateSpace) failed");

  // Warm up both paths, then time them.
  MeasureLocateSpace(::xrLocateSpace, s.view, s.local, iterations / 10 + 1, 1);
  const double trampoline = MeasureLocateSpace(::xrLocateSpace, s.view, s.local, iterations, repeats);
  const double procAddr =
      MeasureLocateSpace(reinterpret_cast<PFN_xrLocateSpace>(fromProcAddr), s.view, s.local, iterations, repeats);
  if (trampoline < 0 || procAddr < 0) throw XrErrorToJs(env, XR_ERROR_RUNTIME_FAILURE, "xrLocateSpace failed during the benchmark");
  Napi::Object out = Napi::Object::New(env);
  out.Set("trampolineNs", Napi::Number::New(env, trampoline));
  out.Set("procAddrNs", Napi::Number::New(env, procAddr));
  return out;
}

}  // namespace kl::napi
