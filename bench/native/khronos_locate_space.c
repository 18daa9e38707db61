/* The Khronos (Debian libopenxr_loader) side of bench/openxr-dispatch.ts: creates an instance
 * with XR_MND_headless (runtime and layers chosen by XR_RUNTIME_JSON, XR_API_LAYER_PATH and
 * XR_ENABLE_API_LAYERS), a session and two reference spaces, then times xrLocateSpace through the
 * loader's exported function and through the pointer from xrGetInstanceProcAddr, with the same
 * loop as native/napi/bench.cc. Prints {"trampolineNs":..,"procAddrNs":..}.
 * Built with -O3, as the addon is (CMake Release).
 * Usage: khronos_locate_space <iterations> <repeats> */
#include <openxr/openxr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double measure(PFN_xrLocateSpace locate, XrSpace space, XrSpace base, unsigned iterations, unsigned repeats) {
  XrSpaceLocation location;
  memset(&location, 0, sizeof location);
  location.type = XR_TYPE_SPACE_LOCATION;
  double best = 1e300;
  for (unsigned r = 0; r < repeats; ++r) {
    const double start = now_ns();
    XrResult acc = XR_SUCCESS;
    for (unsigned i = 0; i < iterations; ++i) acc = (XrResult)(acc | locate(space, base, 1000 + i, &location));
    const double end = now_ns();
    if (acc != XR_SUCCESS) return -1;
    const double ns = (end - start) / iterations;
    if (ns < best) best = ns;
  }
  return best;
}

#define CHECK(call)                                                        \
  do {                                                                     \
    XrResult r_ = (call);                                                  \
    if (XR_FAILED(r_)) {                                                   \
      fprintf(stderr, "%s failed: %d\n", #call, (int)r_);                  \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main(int argc, char** argv) {
  const unsigned iterations = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000000u;
  const unsigned repeats = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 5u;
  const char* extensions[] = {"XR_MND_headless"};
  XrInstanceCreateInfo ci;
  memset(&ci, 0, sizeof ci);
  ci.type = XR_TYPE_INSTANCE_CREATE_INFO;
  strcpy(ci.applicationInfo.applicationName, "khronos-loader bench");
  ci.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  ci.enabledExtensionCount = 1;
  ci.enabledExtensionNames = extensions;
  XrInstance instance = XR_NULL_HANDLE;
  CHECK(xrCreateInstance(&ci, &instance));
  XrSystemGetInfo sgi = {XR_TYPE_SYSTEM_GET_INFO, NULL, XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
  XrSystemId system = XR_NULL_SYSTEM_ID;
  CHECK(xrGetSystem(instance, &sgi, &system));
  XrSessionCreateInfo sci = {XR_TYPE_SESSION_CREATE_INFO, NULL, 0, system};
  XrSession session = XR_NULL_HANDLE;
  CHECK(xrCreateSession(instance, &sci, &session));
  XrReferenceSpaceCreateInfo rci;
  memset(&rci, 0, sizeof rci);
  rci.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO;
  rci.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL;
  rci.poseInReferenceSpace.orientation.w = 1;
  XrSpace local = XR_NULL_HANDLE, view = XR_NULL_HANDLE;
  CHECK(xrCreateReferenceSpace(session, &rci, &local));
  rci.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
  CHECK(xrCreateReferenceSpace(session, &rci, &view));
  PFN_xrVoidFunction f = NULL;
  CHECK(xrGetInstanceProcAddr(instance, "xrLocateSpace", &f));

  measure(xrLocateSpace, view, local, iterations / 10 + 1, 1);
  const double trampoline = measure(xrLocateSpace, view, local, iterations, repeats);
  const double procAddr = measure((PFN_xrLocateSpace)f, view, local, iterations, repeats);
  if (trampoline < 0 || procAddr < 0) {
    fprintf(stderr, "xrLocateSpace failed during the benchmark\n");
    return 1;
  }
  xrDestroySpace(view);
  xrDestroySpace(local);
  xrDestroySession(session);
  xrDestroyInstance(instance);
  printf("{\"trampolineNs\":%.3f,\"procAddrNs\":%.3f}\n", trampoline, procAddr);
  return 0;
}
