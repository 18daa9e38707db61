// Acts as a minimal loader for the simulated runtime: dlopen, negotiate, then create an
// OpenXR 1.1 instance and compare xrLocateSpaces with xrLocateSpace. Prints one JSON object.
// Usage: simxr_direct <path to libkhronos_simxr.so>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "generated/openxr_types.h"

namespace {

PFN_xrGetInstanceProcAddr gipa = nullptr;
bool firstField = true;

void field(const char* name, long long value) {
  std::printf("%s\"%s\":%lld", firstField ? "" : ",", name, value);
  firstField = false;
}

template <typename Fn>
Fn proc(XrInstance instance, const char* name) {
  PFN_xrVoidFunction fn = nullptr;
  if (XR_FAILED(gipa(instance, name, &fn))) return nullptr;
  return reinterpret_cast<Fn>(fn);
}

bool samePose(const XrPosef& a, const XrPosef& b) {
  const float d = std::fabs(a.position.x - b.position.x) + std::fabs(a.position.y - b.position.y) +
                  std::fabs(a.position.z - b.position.z) + std::fabs(a.orientation.w - b.orientation.w) +
                  std::fabs(a.orientation.x - b.orientation.x) + std::fabs(a.orientation.y - b.orientation.y) +
                  std::fabs(a.orientation.z - b.orientation.z);
  return d < 1e-6f;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return 3;
  auto negotiate = reinterpret_cast<PFN_xrNegotiateLoaderRuntimeInterface>(dlsym(library, "xrNegotiateLoaderRuntimeInterface"));
  if (negotiate == nullptr) return 4;

  XrNegotiateLoaderInfo info{XR_LOADER_INTERFACE_STRUCT_LOADER_INFO, XR_LOADER_INFO_STRUCT_VERSION, sizeof(XrNegotiateLoaderInfo),
                             1, XR_CURRENT_LOADER_RUNTIME_VERSION, XR_MAKE_VERSION(1, 0, 0), XR_MAKE_VERSION(1, 1, 0xffffffff)};
  XrNegotiateRuntimeRequest request{XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST, XR_RUNTIME_INFO_STRUCT_VERSION,
                                    sizeof(XrNegotiateRuntimeRequest)};
  std::printf("{");
  field("negotiate", negotiate(&info, &request));
  gipa = request.getInstanceProcAddr;
  if (gipa == nullptr) {
    std::printf("}\n");
    return 0;
  }

  for (int api = 0; api <= 1; ++api) {
    const char* headless = "XR_MND_headless";
    XrInstanceCreateInfo create{XR_TYPE_INSTANCE_CREATE_INFO};
    std::strcpy(create.applicationInfo.applicationName, "simxr_direct");
    create.applicationInfo.apiVersion = api == 1 ? XR_MAKE_VERSION(1, 1, 0) : XR_MAKE_VERSION(1, 0, 0);
    create.enabledExtensionCount = 1;
    create.enabledExtensionNames = &headless;
    auto createInstance = proc<PFN_xrCreateInstance>(XR_NULL_HANDLE, "xrCreateInstance");
    XrInstance instance = XR_NULL_HANDLE;
    const XrResult created = createInstance(&create, &instance);
    if (api == 0) {
      field("createInstance10", created);
      PFN_xrVoidFunction fn = nullptr;
      field("procLocateSpaces10", gipa(instance, "xrLocateSpaces", &fn));
      proc<PFN_xrDestroyInstance>(instance, "xrDestroyInstance")(instance);
      continue;
    }
    field("createInstance11", created);
    auto locateSpaces = proc<PFN_xrLocateSpaces>(instance, "xrLocateSpaces");
    auto locateSpace = proc<PFN_xrLocateSpace>(instance, "xrLocateSpace");
    field("procLocateSpaces11", locateSpaces != nullptr ? 0 : -1);
    if (locateSpaces == nullptr || locateSpace == nullptr) break;

    XrSystemGetInfo systemInfo{XR_TYPE_SYSTEM_GET_INFO};
    systemInfo.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
    XrSystemId system = XR_NULL_SYSTEM_ID;
    proc<PFN_xrGetSystem>(instance, "xrGetSystem")(instance, &systemInfo, &system);
    XrSessionCreateInfo sessionInfo{XR_TYPE_SESSION_CREATE_INFO};
    sessionInfo.systemId = system;
    XrSession session = XR_NULL_HANDLE;
    field("createSession", proc<PFN_xrCreateSession>(instance, "xrCreateSession")(instance, &sessionInfo, &session));

    auto createSpace = proc<PFN_xrCreateReferenceSpace>(instance, "xrCreateReferenceSpace");
    XrReferenceSpaceCreateInfo spaceInfo{XR_TYPE_REFERENCE_SPACE_CREATE_INFO};
    spaceInfo.poseInReferenceSpace.orientation.w = 1.0f;
    XrSpace spaces[2] = {XR_NULL_HANDLE, XR_NULL_HANDLE};
    XrSpace base = XR_NULL_HANDLE;
    spaceInfo.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
    createSpace(session, &spaceInfo, &spaces[0]);
    spaceInfo.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_STAGE;
    createSpace(session, &spaceInfo, &spaces[1]);
    spaceInfo.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL;
    createSpace(session, &spaceInfo, &base);

    const XrTime time = 5'000'000'000;
    XrSpaceLocationData data[2] = {};
    XrSpaceVelocityData velocityData[2] = {};
    XrSpaceVelocities velocities{XR_TYPE_SPACE_VELOCITIES, nullptr, 2, velocityData};
    XrSpaceLocations locations{XR_TYPE_SPACE_LOCATIONS, &velocities, 2, data};
    XrSpacesLocateInfo locateInfo{XR_TYPE_SPACES_LOCATE_INFO, nullptr, base, time, 2, spaces};
    field("locateSpaces", locateSpaces(session, &locateInfo, &locations));
    bool same = true;
    for (int i = 0; i < 2; ++i) {
      XrSpaceLocation single{XR_TYPE_SPACE_LOCATION};
      locateSpace(spaces[i], base, time, &single);
      same = same && single.locationFlags == data[i].locationFlags && samePose(single.pose, data[i].pose);
    }
    field("matchesLocateSpace", same ? 1 : 0);
    field("locationFlags0", static_cast<long long>(data[0].locationFlags));
    field("velocityFlags0", static_cast<long long>(velocityData[0].velocityFlags));

    XrSpaceLocations wrongCount{XR_TYPE_SPACE_LOCATIONS, nullptr, 1, data};
    field("countMismatch", locateSpaces(session, &locateInfo, &wrongCount));
    XrSpace withBad[2] = {spaces[0], reinterpret_cast<XrSpace>(static_cast<uintptr_t>(0xdead))};
    XrSpacesLocateInfo badInfo{XR_TYPE_SPACES_LOCATE_INFO, nullptr, base, time, 2, withBad};
    field("badSpace", locateSpaces(session, &badInfo, &locations));
    XrSpacesLocateInfo badTime{XR_TYPE_SPACES_LOCATE_INFO, nullptr, base, 0, 2, spaces};
    field("badTime", locateSpaces(session, &badTime, &locations));
    field("destroyInstance", proc<PFN_xrDestroyInstance>(instance, "xrDestroyInstance")(instance));
  }
  std::printf("}\n");
  return 0;
}
