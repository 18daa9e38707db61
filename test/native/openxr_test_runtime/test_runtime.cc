// A small OpenXR runtime for the loader's tests and benchmark: negotiation (and, through
// KL_RUNTIME_MODE, every way of failing it), one instance per create, a headless session,
// reference spaces with fixed poses and xrLocateSpace, and a frame loop as trivial as its locate:
// the session lifecycle through xrPollEvent (IDLE, READY, SYNCHRONIZED, VISIBLE, FOCUSED, and
// STOPPING, IDLE, EXITING after xrRequestExitSession), xrWaitFrame blocking to the next 90 Hz
// display period, xrBeginFrame/xrEndFrame, xrLocateViews (two eyes at fixed poses) and boolean
// and float actions whose states are constants (docs/testing.md, "The OpenXR test runtime"), so
// runFrameLoop and the paced bench run on it; XR_EXT_hand_tracking with a locate as trivial (26
// joints at fixed poses, so the per-call bench times handTracker.locate where the runtime does
// almost nothing). With KL_RUNTIME_DEBUG_UTILS it also
// implements XR_EXT_debug_utils. Every call it receives is traced (trace.h) as
// "runtime:<command>", so tests can see what reached the bottom of the chain. With
// KL_RUNTIME_FAULTS the environment chooses a fault to inject (../fault_injection/fault_injection.h).
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <set>
#include <string>
#include <vector>

#include "../fault_injection/fault_injection.h"
#include "generated/openxr_types.h"
#include "trace.h"

#ifndef KL_RUNTIME_MODE
#define KL_RUNTIME_MODE 0
#endif
#ifndef KL_RUNTIME_DEBUG_UTILS
#define KL_RUNTIME_DEBUG_UTILS 0
#endif
#ifndef KL_RUNTIME_FAULTS
#define KL_RUNTIME_FAULTS 0
#endif
#ifndef KL_RUNTIME_NAME
#define KL_RUNTIME_NAME "khronos-loader test runtime"
#endif

// Failure modes of xrNegotiateLoaderRuntimeInterface, one library per mode.
#define KL_RT_OK 0
#define KL_RT_ERROR_RESULT 1
#define KL_RT_BAD_INTERFACE_VERSION 2
#define KL_RT_BAD_API_VERSION 3
#define KL_RT_NULL_GET_INSTANCE_PROC_ADDR 4
#define KL_RT_BAD_STRUCT_SIZE 5
#define KL_RT_BAD_STRUCT_TYPE 6
#define KL_RT_BAD_STRUCT_VERSION 7

namespace {

// The fault the environment chose for this call (none unless this is the faults build).
kl_fault::Kind Fault(const char* command, bool lookup = false) {
  if constexpr (KL_RUNTIME_FAULTS == 0) return kl_fault::Kind::None;
  return kl_fault::Act(kl_fault::At("runtime", command, lookup));
}

constexpr std::uint64_t kInstanceMagic = 0x6b6c2d696e737431ULL;
constexpr std::uint64_t kSessionMagic = 0x6b6c2d7365737331ULL;
constexpr std::uint64_t kSpaceMagic = 0x6b6c2d7370616331ULL;
constexpr std::uint64_t kMessengerMagic = 0x6b6c2d6d65737331ULL;
constexpr std::uint64_t kActionSetMagic = 0x6b6c2d6173657431ULL;
constexpr std::uint64_t kActionMagic = 0x6b6c2d6163746e31ULL;
constexpr std::uint64_t kHandTrackerMagic = 0x6b6c2d68616e6431ULL;
// The display period xrWaitFrame paces at: 90 Hz.
constexpr XrDuration kDisplayPeriod = 1'000'000'000 / 90;
// PRIMARY_STEREO, the only view configuration: two eyes 64 mm apart, 1.6 m up.
constexpr uint32_t kViewCount = 2;
constexpr float kEyeX[kViewCount] = {-0.032f, 0.032f};
constexpr float kEyeHeight = 1.6f;
// The constant states of the actions (what a test compares the wait thread's reads against).
constexpr XrBool32 kBooleanState = XR_TRUE;
constexpr float kFloatState = 0.25f;

// CLOCK_MONOTONIC in ns, the runtime's XrTime.
XrTime MonotonicNow() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<XrTime>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
constexpr XrSystemId kSystemId = 0x5157;

struct Messenger {
  std::uint64_t magic = kMessengerMagic;
  XrDebugUtilsMessageSeverityFlagsEXT severities = 0;
  XrDebugUtilsMessageTypeFlagsEXT types = 0;
  PFN_xrDebugUtilsMessengerCallbackEXT callback = nullptr;
  void* userData = nullptr;
};

struct Session;
struct ActionSet;

struct Instance {
  std::uint64_t magic = kInstanceMagic;
  std::string applicationName;
  XrVersion apiVersion = 0;
  std::set<std::string> extensions;
  std::mutex mutex;
  std::set<Messenger*> messengers;
  std::set<Session*> sessions;  // live ones: xrDestroyInstance destroys them (their child handles, per the spec)
  std::deque<XrEventDataSessionStateChanged> events;  // xrPollEvent's queue, oldest first
  std::vector<std::string> paths;                     // XrPath n is paths[n - 1]
  std::set<ActionSet*> actionSets;                    // live ones: xrDestroyInstance destroys them
};

struct Space;
struct HandTracker;

struct Session {
  std::uint64_t magic = kSessionMagic;
  Instance* instance = nullptr;
  std::mutex mutex;
  std::set<Space*> spaces;  // live ones: xrDestroySession destroys them, as the spec has it
  std::set<HandTracker*> handTrackers;  // the same
  // The lifecycle (Session Lifecycle in the OpenXR spec), guarded by `mutex`.
  XrSessionState state = XR_SESSION_STATE_IDLE;
  bool running = false;
  bool exitRequested = false;
  bool waitedFrame = false;  // xrWaitFrame returned a frame xrBeginFrame has not begun
  bool begunFrame = false;
  XrTime lastPredictedDisplayTime = 0;
  std::set<const ActionSet*> attached;  // xrAttachSessionActionSets
  bool synced = false;                  // an xrSyncActions succeeded while focused
};

struct ActionSet {
  std::uint64_t magic = kActionSetMagic;
  Instance* instance = nullptr;
  std::string name;
  bool attached = false;  // to a session: no more actions, no more bindings
};

struct Action {
  std::uint64_t magic = kActionMagic;
  ActionSet* set = nullptr;
  XrActionType type = XR_ACTION_TYPE_BOOLEAN_INPUT;
};

struct Space {
  std::uint64_t magic = kSpaceMagic;
  Session* session = nullptr;
  XrReferenceSpaceType type = XR_REFERENCE_SPACE_TYPE_LOCAL;
  XrPosef pose{};
  // xrLocateSpace calls that located this space (traced when it is destroyed: the benchmark's
  // calls are too many to trace one by one, but a test must see that they arrived).
  std::uint64_t locateCalls = 0;
};

struct HandTracker {
  std::uint64_t magic = kHandTrackerMagic;
  Session* session = nullptr;
  XrHandEXT hand = XR_HAND_LEFT_EXT;
};

// A session and the spaces still alive in it (xrDestroySession and xrDestroyInstance destroy a
// handle's children: without this, a session destroyed before its spaces leaked them).
void DeleteSession(Session* s) {
  s->magic = 0;
  // Its events still queued go with it: xrPollEvent never hands out a destroyed session.
  auto& events = s->instance->events;
  std::erase_if(events, [s](const XrEventDataSessionStateChanged& e) { return e.session == reinterpret_cast<XrSession>(s); });
  for (Space* space : s->spaces) {
    kl_test::Trace("runtime:xrDestroySession:destroys a space");
    space->magic = 0;
    delete space;
  }
  for (HandTracker* tracker : s->handTrackers) {
    tracker->magic = 0;
    delete tracker;
  }
  delete s;
}

template <typename T, typename H>
T* FromHandle(H handle, std::uint64_t magic) {
  if (handle == XR_NULL_HANDLE) return nullptr;
  T* object = reinterpret_cast<T*>(handle);
  return object->magic == magic ? object : nullptr;
}

template <typename H, typename T>
H ToHandle(T* object) {
  return reinterpret_cast<H>(object);
}

struct ExtensionInfo {
  const char* name;
  std::uint32_t version;
};

constexpr ExtensionInfo kExtensions[] = {
    {"XR_MND_headless", 2},
    {"XR_KHR_composition_layer_depth", 6},
    {"XR_EXT_hand_tracking", 4},
#if KL_RUNTIME_DEBUG_UTILS
    {"XR_EXT_debug_utils", 5},
#endif
};

XrResult CopyString(char* out, std::size_t size, const char* value) {
  std::strncpy(out, value, size - 1);
  out[size - 1] = '\0';
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtEnumerateInstanceExtensionProperties(const char* layerName, uint32_t capacity,
                                                                      uint32_t* count, XrExtensionProperties* props) {
  kl_test::Trace(std::string("runtime:xrEnumerateInstanceExtensionProperties:") + (layerName ? layerName : "(null)"));
  if (layerName != nullptr) return XR_ERROR_API_LAYER_NOT_PRESENT;
  if (count == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  const kl_fault::Kind fault = Fault("xrEnumerateInstanceExtensionProperties");
  if (fault == kl_fault::Kind::Fail) return XR_ERROR_RUNTIME_FAILURE;
  uint32_t n = sizeof(kExtensions) / sizeof(kExtensions[0]);
  if (capacity > 0 && fault == kl_fault::Kind::CountGrow) {
    *count = n + 1;  // one more extension appeared since the size query
    return XR_ERROR_SIZE_INSUFFICIENT;
  }
  if (capacity > 0 && fault == kl_fault::Kind::CountShrink) n -= 1;
  *count = n;
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < n) return XR_ERROR_SIZE_INSUFFICIENT;
  if (fault == kl_fault::Kind::CountLie) *count = capacity + 5;  // more than it wrote, and success
  for (uint32_t i = 0; i < n; ++i) {
    if (props[i].type != XR_TYPE_EXTENSION_PROPERTIES) return XR_ERROR_VALIDATION_FAILURE;
    CopyString(props[i].extensionName, XR_MAX_EXTENSION_NAME_SIZE, kExtensions[i].name);
    props[i].extensionVersion = kExtensions[i].version;
  }
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtEnumerateApiLayerProperties(uint32_t, uint32_t* count, XrApiLayerProperties*) {
  // A loader must never call this (XR-RN-3); the trace lets tests prove it did not.
  kl_test::Trace("runtime:xrEnumerateApiLayerProperties");
  if (count != nullptr) *count = 0;
  return XR_SUCCESS;
}

bool Supported(const char* name) {
  for (const auto& e : kExtensions) {
    if (std::strcmp(e.name, name) == 0) return true;
  }
  return false;
}

XRAPI_ATTR XrResult XRAPI_CALL RtCreateInstance(const XrInstanceCreateInfo* info, XrInstance* instance) {
  if (info == nullptr || instance == nullptr || info->type != XR_TYPE_INSTANCE_CREATE_INFO) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  std::string trace = std::string("runtime:xrCreateInstance:") + info->applicationInfo.applicationName;
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    trace += std::string(i == 0 ? ":" : ",") + info->enabledExtensionNames[i];
  }
  kl_test::Trace(trace);
  if (Fault("xrCreateInstance") == kl_fault::Kind::Fail) return XR_ERROR_RUNTIME_FAILURE;
  if (info->applicationInfo.applicationName[0] == '\0') return XR_ERROR_NAME_INVALID;
  const XrVersion api = info->applicationInfo.apiVersion;
  if (XR_VERSION_MAJOR(api) != 1 || XR_VERSION_MINOR(api) > 1) return XR_ERROR_API_VERSION_UNSUPPORTED;
  auto* created = new Instance();
  created->applicationName = info->applicationInfo.applicationName;
  created->apiVersion = api;
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    if (!Supported(info->enabledExtensionNames[i])) {
      delete created;
      return XR_ERROR_EXTENSION_NOT_PRESENT;
    }
    created->extensions.insert(info->enabledExtensionNames[i]);
  }
  *instance = ToHandle<XrInstance>(created);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtDestroyInstance(XrInstance instance) {
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  kl_test::Trace(std::string("runtime:xrDestroyInstance:") + (inst ? inst->applicationName : "(invalid)"));
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  inst->magic = 0;
  for (Messenger* m : inst->messengers) delete m;
  for (Session* s : inst->sessions) {
    kl_test::Trace("runtime:xrDestroyInstance:destroys a session");
    DeleteSession(s);
  }
  for (ActionSet* set : inst->actionSets) {
    set->magic = 0;
    delete set;
  }
  delete inst;
  // A failing destroy still frees: the loader must unload the runtime all the same.
  return Fault("xrDestroyInstance") == kl_fault::Kind::Fail ? XR_ERROR_RUNTIME_FAILURE : XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtGetInstanceProperties(XrInstance instance, XrInstanceProperties* props) {
  kl_test::Trace("runtime:xrGetInstanceProperties");
  if (Fault("xrGetInstanceProperties") == kl_fault::Kind::Fail) return XR_ERROR_RUNTIME_FAILURE;
  if (FromHandle<Instance>(instance, kInstanceMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (props == nullptr || props->type != XR_TYPE_INSTANCE_PROPERTIES) return XR_ERROR_VALIDATION_FAILURE;
  props->runtimeVersion = XR_MAKE_VERSION(0, 4, 2);
  CopyString(props->runtimeName, XR_MAX_RUNTIME_NAME_SIZE, KL_RUNTIME_NAME);
  return XR_SUCCESS;
}

// Core commands layers such as api_dump use to print values: names for the values this runtime
// deals in, the spec's XR_UNKNOWN_*_<value> form otherwise.
XRAPI_ATTR XrResult XRAPI_CALL RtResultToString(XrInstance instance, XrResult value, char buffer[XR_MAX_RESULT_STRING_SIZE]) {
  if (FromHandle<Instance>(instance, kInstanceMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  const char* name = nullptr;
  switch (value) {
    case XR_SUCCESS: name = "XR_SUCCESS"; break;
    case XR_ERROR_VALIDATION_FAILURE: name = "XR_ERROR_VALIDATION_FAILURE"; break;
    case XR_ERROR_HANDLE_INVALID: name = "XR_ERROR_HANDLE_INVALID"; break;
    case XR_ERROR_FUNCTION_UNSUPPORTED: name = "XR_ERROR_FUNCTION_UNSUPPORTED"; break;
    default: break;
  }
  std::string text = name ? name : (value < 0 ? "XR_UNKNOWN_FAILURE_" : "XR_UNKNOWN_SUCCESS_") + std::to_string(value);
  CopyString(buffer, XR_MAX_RESULT_STRING_SIZE, text.c_str());
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtStructureTypeToString(XrInstance instance, XrStructureType value,
                                                       char buffer[XR_MAX_STRUCTURE_NAME_SIZE]) {
  if (FromHandle<Instance>(instance, kInstanceMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  const char* name = nullptr;
  switch (value) {
    case XR_TYPE_INSTANCE_CREATE_INFO: name = "XR_TYPE_INSTANCE_CREATE_INFO"; break;
    case XR_TYPE_SYSTEM_GET_INFO: name = "XR_TYPE_SYSTEM_GET_INFO"; break;
    case XR_TYPE_SESSION_CREATE_INFO: name = "XR_TYPE_SESSION_CREATE_INFO"; break;
    case XR_TYPE_REFERENCE_SPACE_CREATE_INFO: name = "XR_TYPE_REFERENCE_SPACE_CREATE_INFO"; break;
    case XR_TYPE_SPACE_LOCATION: name = "XR_TYPE_SPACE_LOCATION"; break;
    case XR_TYPE_INSTANCE_PROPERTIES: name = "XR_TYPE_INSTANCE_PROPERTIES"; break;
    default: break;
  }
  std::string text = name ? name : "XR_UNKNOWN_STRUCTURE_TYPE_" + std::to_string(value);
  CopyString(buffer, XR_MAX_STRUCTURE_NAME_SIZE, text.c_str());
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtGetSystem(XrInstance instance, const XrSystemGetInfo* info, XrSystemId* systemId) {
  kl_test::Trace("runtime:xrGetSystem");
  if (Fault("xrGetSystem") == kl_fault::Kind::Fail) return XR_ERROR_RUNTIME_FAILURE;
  if (FromHandle<Instance>(instance, kInstanceMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || systemId == nullptr || info->type != XR_TYPE_SYSTEM_GET_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (info->formFactor != XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY) return XR_ERROR_FORM_FACTOR_UNSUPPORTED;
  *systemId = kSystemId;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtCreateSession(XrInstance instance, const XrSessionCreateInfo* info, XrSession* session) {
  kl_test::Trace("runtime:xrCreateSession");
  if (Fault("xrCreateSession") == kl_fault::Kind::Fail) return XR_ERROR_RUNTIME_FAILURE;
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || session == nullptr || info->type != XR_TYPE_SESSION_CREATE_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (info->systemId != kSystemId) return XR_ERROR_SYSTEM_INVALID;
  if (info->next == nullptr && inst->extensions.count("XR_MND_headless") == 0) return XR_ERROR_GRAPHICS_DEVICE_INVALID;
  auto* created = new Session();
  created->instance = inst;
  created->state = XR_SESSION_STATE_READY;
  {
    std::lock_guard lock(inst->mutex);
    inst->sessions.insert(created);
    // A new session is IDLE and, with nothing to wait for, READY at once.
    const XrTime now = MonotonicNow();
    for (XrSessionState state : {XR_SESSION_STATE_IDLE, XR_SESSION_STATE_READY}) {
      inst->events.push_back({XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED, nullptr, ToHandle<XrSession>(created), state, now});
    }
  }
  *session = ToHandle<XrSession>(created);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtDestroySession(XrSession session) {
  kl_test::Trace("runtime:xrDestroySession");
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  {
    std::lock_guard lock(s->instance->mutex);
    s->instance->sessions.erase(s);
    DeleteSession(s);
  }
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtCreateReferenceSpace(XrSession session, const XrReferenceSpaceCreateInfo* info, XrSpace* space) {
  kl_test::Trace("runtime:xrCreateReferenceSpace");
  if (Fault("xrCreateReferenceSpace") == kl_fault::Kind::Fail) return XR_ERROR_RUNTIME_FAILURE;
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || space == nullptr || info->type != XR_TYPE_REFERENCE_SPACE_CREATE_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (info->referenceSpaceType != XR_REFERENCE_SPACE_TYPE_VIEW && info->referenceSpaceType != XR_REFERENCE_SPACE_TYPE_LOCAL &&
      info->referenceSpaceType != XR_REFERENCE_SPACE_TYPE_STAGE) {
    return XR_ERROR_REFERENCE_SPACE_UNSUPPORTED;
  }
  auto* created = new Space();
  created->session = s;
  created->type = info->referenceSpaceType;
  created->pose = info->poseInReferenceSpace;
  if (info->referenceSpaceType == XR_REFERENCE_SPACE_TYPE_VIEW) created->pose.position.y += 1.6f;  // a head 1.6 m up
  {
    std::lock_guard lock(s->mutex);
    s->spaces.insert(created);
  }
  *space = ToHandle<XrSpace>(created);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtDestroySpace(XrSpace space) {
  kl_test::Trace("runtime:xrDestroySpace");
  Space* s = FromHandle<Space>(space, kSpaceMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (s->locateCalls > 0) kl_test::Trace("runtime:xrLocateSpace:calls:" + std::to_string(s->locateCalls));
  {
    std::lock_guard lock(s->session->mutex);
    s->session->spaces.erase(s);
  }
  s->magic = 0;
  delete s;
  return XR_SUCCESS;
}

// Not traced call by call (the benchmark calls it millions of times): counted, see Space.
XRAPI_ATTR XrResult XRAPI_CALL RtLocateSpace(XrSpace space, XrSpace baseSpace, XrTime time, XrSpaceLocation* location) {
  Space* s = FromHandle<Space>(space, kSpaceMagic);
  Space* b = FromHandle<Space>(baseSpace, kSpaceMagic);
  if (s == nullptr || b == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (location == nullptr || location->type != XR_TYPE_SPACE_LOCATION) return XR_ERROR_VALIDATION_FAILURE;
  if (time <= 0) return XR_ERROR_TIME_INVALID;
  ++s->locateCalls;
  location->locationFlags = XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
                            XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT;
  location->pose.orientation = s->pose.orientation;
  location->pose.position.x = s->pose.position.x - b->pose.position.x;
  location->pose.position.y = s->pose.position.y - b->pose.position.y;
  location->pose.position.z = s->pose.position.z - b->pose.position.z;
  return XR_SUCCESS;
}

// OpenXR 1.1: many spaces against one base, as cheap per space as xrLocateSpace (the frame-query
// benchmark measures the loader's and the addon's cost around it). Counted like xrLocateSpace.
XRAPI_ATTR XrResult XRAPI_CALL RtLocateSpaces(XrSession session, const XrSpacesLocateInfo* info, XrSpaceLocations* locations) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || locations == nullptr || info->type != XR_TYPE_SPACES_LOCATE_INFO || locations->type != XR_TYPE_SPACE_LOCATIONS ||
      info->spaceCount == 0 || info->spaces == nullptr || locations->locations == nullptr || locations->locationCount != info->spaceCount) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  Space* b = FromHandle<Space>(info->baseSpace, kSpaceMagic);
  if (b == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info->time <= 0) return XR_ERROR_TIME_INVALID;
  for (uint32_t i = 0; i < info->spaceCount; ++i) {
    if (FromHandle<Space>(info->spaces[i], kSpaceMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  }
  for (uint32_t i = 0; i < info->spaceCount; ++i) {
    Space* space = reinterpret_cast<Space*>(info->spaces[i]);
    ++space->locateCalls;
    XrSpaceLocationData& out = locations->locations[i];
    out.locationFlags = XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
                        XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT;
    out.pose.orientation = space->pose.orientation;
    out.pose.position.x = space->pose.position.x - b->pose.position.x;
    out.pose.position.y = space->pose.position.y - b->pose.position.y;
    out.pose.position.z = space->pose.position.z - b->pose.position.z;
  }
  return XR_SUCCESS;
}

// XR_EXT_hand_tracking: trackers of the default joint set, always tracked, each joint at a fixed
// pose (a column of 26 joints a centimetre apart, left or right of the origin, 1.2 m up) relative
// to the base space, as trivial as xrLocateSpace.
XRAPI_ATTR XrResult XRAPI_CALL RtCreateHandTrackerEXT(XrSession session, const XrHandTrackerCreateInfoEXT* info, XrHandTrackerEXT* tracker) {
  kl_test::Trace("runtime:xrCreateHandTrackerEXT");
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || tracker == nullptr || info->type != XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT ||
      (info->hand != XR_HAND_LEFT_EXT && info->hand != XR_HAND_RIGHT_EXT) || info->handJointSet != XR_HAND_JOINT_SET_DEFAULT_EXT) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (s->instance->extensions.count("XR_EXT_hand_tracking") == 0) return XR_ERROR_FUNCTION_UNSUPPORTED;
  auto* created = new HandTracker();
  created->session = s;
  created->hand = info->hand;
  {
    std::lock_guard lock(s->mutex);
    s->handTrackers.insert(created);
  }
  *tracker = ToHandle<XrHandTrackerEXT>(created);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtDestroyHandTrackerEXT(XrHandTrackerEXT tracker) {
  kl_test::Trace("runtime:xrDestroyHandTrackerEXT");
  HandTracker* t = FromHandle<HandTracker>(tracker, kHandTrackerMagic);
  if (t == nullptr) return XR_ERROR_HANDLE_INVALID;
  {
    std::lock_guard lock(t->session->mutex);
    t->session->handTrackers.erase(t);
  }
  t->magic = 0;
  delete t;
  return XR_SUCCESS;
}

// Not traced call by call (the benchmark calls it millions of times).
XRAPI_ATTR XrResult XRAPI_CALL RtLocateHandJointsEXT(XrHandTrackerEXT tracker, const XrHandJointsLocateInfoEXT* info, XrHandJointLocationsEXT* locations) {
  HandTracker* t = FromHandle<HandTracker>(tracker, kHandTrackerMagic);
  if (t == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || locations == nullptr || info->type != XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT || locations->type != XR_TYPE_HAND_JOINT_LOCATIONS_EXT ||
      locations->jointCount != XR_HAND_JOINT_COUNT_EXT || locations->jointLocations == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  Space* b = FromHandle<Space>(info->baseSpace, kSpaceMagic);
  if (b == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info->time <= 0) return XR_ERROR_TIME_INVALID;
  const float x = t->hand == XR_HAND_LEFT_EXT ? -0.2f : 0.2f;
  locations->isActive = XR_TRUE;
  for (uint32_t j = 0; j < XR_HAND_JOINT_COUNT_EXT; ++j) {
    XrHandJointLocationEXT& out = locations->jointLocations[j];
    out.locationFlags = XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
                        XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT;
    out.pose.orientation = {0, 0, 0, 1};
    out.pose.position = {x - b->pose.position.x, 1.2f + 0.01f * static_cast<float>(j) - b->pose.position.y, -0.3f - b->pose.position.z};
    out.radius = 0.01f;
  }
  return XR_SUCCESS;
}

// --- The session lifecycle and the frame loop (OpenXR spec, "Session Lifecycle", "Frame Synchronization").

// The session's new state, queued for xrPollEvent. The caller holds session->mutex.
void Transition(Session* s, XrSessionState state) {
  s->state = state;
  std::lock_guard lock(s->instance->mutex);
  s->instance->events.push_back({XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED, nullptr, ToHandle<XrSession>(s), state, MonotonicNow()});
}

XRAPI_ATTR XrResult XRAPI_CALL RtPollEvent(XrInstance instance, XrEventDataBuffer* eventData) {
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (eventData == nullptr || eventData->type != XR_TYPE_EVENT_DATA_BUFFER) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(inst->mutex);
  if (inst->events.empty()) return XR_EVENT_UNAVAILABLE;
  const XrEventDataSessionStateChanged event = inst->events.front();
  inst->events.pop_front();
  static_assert(sizeof(XrEventDataSessionStateChanged) <= sizeof(XrEventDataBuffer));
  std::memcpy(static_cast<void*>(eventData), &event, sizeof(event));
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtBeginSession(XrSession session, const XrSessionBeginInfo* info) {
  kl_test::Trace("runtime:xrBeginSession");
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_SESSION_BEGIN_INFO) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(s->mutex);
  if (s->running) return XR_ERROR_SESSION_RUNNING;
  if (s->state != XR_SESSION_STATE_READY) return XR_ERROR_SESSION_NOT_READY;
  // A headless session ignores primaryViewConfigurationType (XR_MND_headless); others need the one it has.
  if (s->instance->extensions.count("XR_MND_headless") == 0 && info->primaryViewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO) {
    return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  }
  s->running = true;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtRequestExitSession(XrSession session) {
  kl_test::Trace("runtime:xrRequestExitSession");
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(s->mutex);
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  s->exitRequested = true;
  // Down the states the session went up, to STOPPING (xrEndSession then ends it).
  if (s->state == XR_SESSION_STATE_FOCUSED) Transition(s, XR_SESSION_STATE_VISIBLE);
  if (s->state == XR_SESSION_STATE_VISIBLE) Transition(s, XR_SESSION_STATE_SYNCHRONIZED);
  if (s->state == XR_SESSION_STATE_SYNCHRONIZED || s->state == XR_SESSION_STATE_READY) Transition(s, XR_SESSION_STATE_STOPPING);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtEndSession(XrSession session) {
  kl_test::Trace("runtime:xrEndSession");
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(s->mutex);
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  if (s->state != XR_SESSION_STATE_STOPPING) return XR_ERROR_SESSION_NOT_STOPPING;
  s->running = false;
  s->waitedFrame = false;
  s->begunFrame = false;
  s->synced = false;
  Transition(s, XR_SESSION_STATE_IDLE);
  if (s->exitRequested) Transition(s, XR_SESSION_STATE_EXITING);
  return XR_SUCCESS;
}

// Blocks to the next display period on a 90 Hz grid of CLOCK_MONOTONIC and predicts the frame's
// display one period later. Not traced (a frame loop calls it 90 times a second).
XRAPI_ATTR XrResult XRAPI_CALL RtWaitFrame(XrSession session, const XrFrameWaitInfo* info, XrFrameState* state) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info != nullptr && info->type != XR_TYPE_FRAME_WAIT_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (state == nullptr || state->type != XR_TYPE_FRAME_STATE) return XR_ERROR_VALIDATION_FAILURE;
  XrTime wake = 0;
  {
    std::lock_guard lock(s->mutex);
    if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
    const XrTime now = MonotonicNow();
    wake = (now / kDisplayPeriod + 1) * kDisplayPeriod;
    // A wait that comes late still predicts a frame after the last one.
    if (wake + kDisplayPeriod <= s->lastPredictedDisplayTime) wake = s->lastPredictedDisplayTime;
  }
  const XrTime before = MonotonicNow();
  if (wake > before) std::this_thread::sleep_for(std::chrono::nanoseconds(wake - before));
  std::lock_guard lock(s->mutex);
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  s->lastPredictedDisplayTime = wake + kDisplayPeriod;
  s->waitedFrame = true;
  // The application's frame loop is now synchronized with the runtime.
  if (s->state == XR_SESSION_STATE_READY) Transition(s, XR_SESSION_STATE_SYNCHRONIZED);
  state->predictedDisplayTime = s->lastPredictedDisplayTime;
  state->predictedDisplayPeriod = kDisplayPeriod;
  state->shouldRender = s->state == XR_SESSION_STATE_VISIBLE || s->state == XR_SESSION_STATE_FOCUSED ? XR_TRUE : XR_FALSE;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtBeginFrame(XrSession session, const XrFrameBeginInfo* info) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info != nullptr && info->type != XR_TYPE_FRAME_BEGIN_INFO) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(s->mutex);
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  if (!s->waitedFrame) return XR_ERROR_CALL_ORDER_INVALID;
  s->waitedFrame = false;
  // A frame begun and never ended is dropped in favour of the new one.
  const bool discarded = s->begunFrame;
  s->begunFrame = true;
  return discarded ? XR_FRAME_DISCARDED : XR_SUCCESS;
}

// No swapchains here, so no layers: a frame ends empty.
XRAPI_ATTR XrResult XRAPI_CALL RtEndFrame(XrSession session, const XrFrameEndInfo* info) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_FRAME_END_INFO) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(s->mutex);
  if (!s->running) return XR_ERROR_SESSION_NOT_RUNNING;
  if (!s->begunFrame) return XR_ERROR_CALL_ORDER_INVALID;
  if (info->displayTime <= 0) return XR_ERROR_TIME_INVALID;
  if (info->environmentBlendMode != XR_ENVIRONMENT_BLEND_MODE_OPAQUE) return XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED;
  if (info->layerCount != 0) return XR_ERROR_LAYER_INVALID;
  s->begunFrame = false;
  // A submitted frame is shown: VISIBLE, then FOCUSED (nothing else to look at), unless on the way out.
  if (s->state == XR_SESSION_STATE_SYNCHRONIZED && !s->exitRequested) {
    Transition(s, XR_SESSION_STATE_VISIBLE);
    Transition(s, XR_SESSION_STATE_FOCUSED);
  }
  return XR_SUCCESS;
}

// --- Views: PRIMARY_STEREO, two eyes at fixed poses.

XRAPI_ATTR XrResult XRAPI_CALL RtEnumerateViewConfigurations(XrInstance instance, XrSystemId systemId, uint32_t capacity, uint32_t* count,
                                                             XrViewConfigurationType* types) {
  if (FromHandle<Instance>(instance, kInstanceMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (systemId != kSystemId) return XR_ERROR_SYSTEM_INVALID;
  if (count == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *count = 1;
  if (capacity == 0) return XR_SUCCESS;
  if (types == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  types[0] = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtEnumerateViewConfigurationViews(XrInstance instance, XrSystemId systemId, XrViewConfigurationType type,
                                                                 uint32_t capacity, uint32_t* count, XrViewConfigurationView* views) {
  if (FromHandle<Instance>(instance, kInstanceMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (systemId != kSystemId) return XR_ERROR_SYSTEM_INVALID;
  if (type != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO) return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  if (count == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *count = kViewCount;
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < kViewCount) return XR_ERROR_SIZE_INSUFFICIENT;
  for (uint32_t i = 0; i < kViewCount; ++i) {
    if (views[i].type != XR_TYPE_VIEW_CONFIGURATION_VIEW) return XR_ERROR_VALIDATION_FAILURE;
    views[i].recommendedImageRectWidth = views[i].maxImageRectWidth = 256;
    views[i].recommendedImageRectHeight = views[i].maxImageRectHeight = 256;
    views[i].recommendedSwapchainSampleCount = views[i].maxSwapchainSampleCount = 1;
  }
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtLocateViews(XrSession session, const XrViewLocateInfo* info, XrViewState* viewState, uint32_t capacity,
                                             uint32_t* count, XrView* views) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_VIEW_LOCATE_INFO || viewState == nullptr || viewState->type != XR_TYPE_VIEW_STATE ||
      count == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (info->viewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO) return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  const Space* base = FromHandle<Space>(info->space, kSpaceMagic);
  if (base == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info->displayTime <= 0) return XR_ERROR_TIME_INVALID;
  *count = kViewCount;
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < kViewCount || views == nullptr) return XR_ERROR_SIZE_INSUFFICIENT;
  viewState->viewStateFlags = XR_VIEW_STATE_ORIENTATION_VALID_BIT | XR_VIEW_STATE_POSITION_VALID_BIT | XR_VIEW_STATE_ORIENTATION_TRACKED_BIT |
                              XR_VIEW_STATE_POSITION_TRACKED_BIT;
  for (uint32_t i = 0; i < kViewCount; ++i) {
    if (views[i].type != XR_TYPE_VIEW) return XR_ERROR_VALIDATION_FAILURE;
    views[i].pose.orientation = {0.0f, 0.0f, 0.0f, 1.0f};
    views[i].pose.position = {kEyeX[i] - base->pose.position.x, kEyeHeight - base->pose.position.y, -base->pose.position.z};
    views[i].fov = {-0.785398f, 0.785398f, 0.785398f, -0.785398f};
  }
  return XR_SUCCESS;
}

// --- Actions: paths, sets, boolean and float actions whose states are constants.

XRAPI_ATTR XrResult XRAPI_CALL RtStringToPath(XrInstance instance, const char* pathString, XrPath* path) {
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (pathString == nullptr || path == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  const std::string text = pathString;
  if (text.size() < 2 || text[0] != '/' || text.back() == '/' || text.size() >= XR_MAX_PATH_LENGTH) return XR_ERROR_PATH_FORMAT_INVALID;
  std::lock_guard lock(inst->mutex);
  for (std::size_t i = 0; i < inst->paths.size(); ++i) {
    if (inst->paths[i] == text) {
      *path = static_cast<XrPath>(i + 1);
      return XR_SUCCESS;
    }
  }
  inst->paths.push_back(text);
  *path = static_cast<XrPath>(inst->paths.size());
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtPathToString(XrInstance instance, XrPath path, uint32_t capacity, uint32_t* count, char* buffer) {
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (count == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  std::lock_guard lock(inst->mutex);
  if (path == XR_NULL_PATH || path > inst->paths.size()) return XR_ERROR_PATH_INVALID;
  const std::string& text = inst->paths[path - 1];
  *count = static_cast<uint32_t>(text.size() + 1);
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < *count || buffer == nullptr) return XR_ERROR_SIZE_INSUFFICIENT;
  std::memcpy(buffer, text.c_str(), text.size() + 1);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtCreateActionSet(XrInstance instance, const XrActionSetCreateInfo* info, XrActionSet* actionSet) {
  kl_test::Trace("runtime:xrCreateActionSet");
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || actionSet == nullptr || info->type != XR_TYPE_ACTION_SET_CREATE_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (info->actionSetName[0] == '\0') return XR_ERROR_NAME_INVALID;
  std::lock_guard lock(inst->mutex);
  for (const ActionSet* set : inst->actionSets) {
    if (set->name == info->actionSetName) return XR_ERROR_NAME_DUPLICATED;
  }
  auto* created = new ActionSet();
  created->instance = inst;
  created->name = info->actionSetName;
  inst->actionSets.insert(created);
  *actionSet = ToHandle<XrActionSet>(created);
  return XR_SUCCESS;
}

// Its actions are plain records the loader destroys before it (or leaks, which a test runtime allows).
XRAPI_ATTR XrResult XRAPI_CALL RtDestroyActionSet(XrActionSet actionSet) {
  kl_test::Trace("runtime:xrDestroyActionSet");
  ActionSet* set = FromHandle<ActionSet>(actionSet, kActionSetMagic);
  if (set == nullptr) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(set->instance->mutex);
  set->instance->actionSets.erase(set);
  set->magic = 0;
  delete set;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtCreateAction(XrActionSet actionSet, const XrActionCreateInfo* info, XrAction* action) {
  ActionSet* set = FromHandle<ActionSet>(actionSet, kActionSetMagic);
  if (set == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || action == nullptr || info->type != XR_TYPE_ACTION_CREATE_INFO) return XR_ERROR_VALIDATION_FAILURE;
  if (set->attached) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  if (info->actionType != XR_ACTION_TYPE_BOOLEAN_INPUT && info->actionType != XR_ACTION_TYPE_FLOAT_INPUT) return XR_ERROR_VALIDATION_FAILURE;
  auto* created = new Action();
  created->set = set;
  created->type = info->actionType;
  *action = ToHandle<XrAction>(created);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtDestroyAction(XrAction action) {
  Action* a = FromHandle<Action>(action, kActionMagic);
  if (a == nullptr) return XR_ERROR_HANDLE_INVALID;
  a->magic = 0;
  delete a;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtSuggestInteractionProfileBindings(XrInstance instance, const XrInteractionProfileSuggestedBinding* info) {
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING || info->countSuggestedBindings == 0 ||
      info->suggestedBindings == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  for (uint32_t i = 0; i < info->countSuggestedBindings; ++i) {
    const Action* a = FromHandle<Action>(info->suggestedBindings[i].action, kActionMagic);
    if (a == nullptr) return XR_ERROR_HANDLE_INVALID;
    if (a->set->attached) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  }
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtAttachSessionActionSets(XrSession session, const XrSessionActionSetsAttachInfo* info) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO || info->countActionSets == 0 || info->actionSets == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  std::lock_guard lock(s->mutex);
  if (!s->attached.empty()) return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
  for (uint32_t i = 0; i < info->countActionSets; ++i) {
    if (FromHandle<ActionSet>(info->actionSets[i], kActionSetMagic) == nullptr) return XR_ERROR_HANDLE_INVALID;
  }
  for (uint32_t i = 0; i < info->countActionSets; ++i) {
    ActionSet* set = reinterpret_cast<ActionSet*>(info->actionSets[i]);
    set->attached = true;
    s->attached.insert(set);
  }
  return XR_SUCCESS;
}

// Not traced: the wait thread calls it every frame.
XRAPI_ATTR XrResult XRAPI_CALL RtSyncActions(XrSession session, const XrActionsSyncInfo* info) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_ACTIONS_SYNC_INFO || (info->countActiveActionSets != 0 && info->activeActionSets == nullptr)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  std::lock_guard lock(s->mutex);
  for (uint32_t i = 0; i < info->countActiveActionSets; ++i) {
    const ActionSet* set = FromHandle<ActionSet>(info->activeActionSets[i].actionSet, kActionSetMagic);
    if (set == nullptr) return XR_ERROR_HANDLE_INVALID;
    if (s->attached.count(set) == 0) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  }
  if (s->state != XR_SESSION_STATE_FOCUSED) return XR_SESSION_NOT_FOCUSED;
  s->synced = true;
  return XR_SUCCESS;
}

// The action of `info`, checked against the session and the type asked for; `active` is whether
// its state is live (synced while focused).
XrResult CheckActionState(Session* s, const XrActionStateGetInfo* info, XrActionType type, bool* active) {
  if (info == nullptr || info->type != XR_TYPE_ACTION_STATE_GET_INFO) return XR_ERROR_VALIDATION_FAILURE;
  const Action* a = FromHandle<Action>(info->action, kActionMagic);
  if (a == nullptr) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(s->mutex);
  if (s->attached.count(a->set) == 0) return XR_ERROR_ACTIONSET_NOT_ATTACHED;
  if (a->type != type) return XR_ERROR_ACTION_TYPE_MISMATCH;
  *active = s->synced && s->state == XR_SESSION_STATE_FOCUSED;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtGetActionStateBoolean(XrSession session, const XrActionStateGetInfo* info, XrActionStateBoolean* state) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (state == nullptr || state->type != XR_TYPE_ACTION_STATE_BOOLEAN) return XR_ERROR_VALIDATION_FAILURE;
  bool active = false;
  if (XrResult r = CheckActionState(s, info, XR_ACTION_TYPE_BOOLEAN_INPUT, &active); r != XR_SUCCESS) return r;
  state->currentState = active ? kBooleanState : XR_FALSE;
  state->changedSinceLastSync = XR_FALSE;
  state->lastChangeTime = 0;
  state->isActive = active ? XR_TRUE : XR_FALSE;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtGetActionStateFloat(XrSession session, const XrActionStateGetInfo* info, XrActionStateFloat* state) {
  Session* s = FromHandle<Session>(session, kSessionMagic);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (state == nullptr || state->type != XR_TYPE_ACTION_STATE_FLOAT) return XR_ERROR_VALIDATION_FAILURE;
  bool active = false;
  if (XrResult r = CheckActionState(s, info, XR_ACTION_TYPE_FLOAT_INPUT, &active); r != XR_SUCCESS) return r;
  state->currentState = active ? kFloatState : 0.0f;
  state->changedSinceLastSync = XR_FALSE;
  state->lastChangeTime = 0;
  state->isActive = active ? XR_TRUE : XR_FALSE;
  return XR_SUCCESS;
}

#if KL_RUNTIME_DEBUG_UTILS
XRAPI_ATTR XrResult XRAPI_CALL RtCreateDebugUtilsMessengerEXT(XrInstance instance, const XrDebugUtilsMessengerCreateInfoEXT* info,
                                                              XrDebugUtilsMessengerEXT* messenger) {
  kl_test::Trace("runtime:xrCreateDebugUtilsMessengerEXT");
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || messenger == nullptr || info->type != XR_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto* m = new Messenger();
  m->severities = info->messageSeverities;
  m->types = info->messageTypes;
  m->callback = info->userCallback;
  m->userData = info->userData;
  std::lock_guard lock(inst->mutex);
  inst->messengers.insert(m);
  *messenger = ToHandle<XrDebugUtilsMessengerEXT>(m);
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtDestroyDebugUtilsMessengerEXT(XrDebugUtilsMessengerEXT messenger) {
  kl_test::Trace("runtime:xrDestroyDebugUtilsMessengerEXT");
  Messenger* m = FromHandle<Messenger>(messenger, kMessengerMagic);
  if (m == nullptr) return XR_ERROR_HANDLE_INVALID;
  // Muted here; the record stays in its instance's set until the instance is destroyed.
  m->magic = 0;
  m->callback = nullptr;
  return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL RtSubmitDebugUtilsMessageEXT(XrInstance instance, XrDebugUtilsMessageSeverityFlagsEXT severity,
                                                            XrDebugUtilsMessageTypeFlagsEXT types,
                                                            const XrDebugUtilsMessengerCallbackDataEXT* data) {
  kl_test::Trace(std::string("runtime:xrSubmitDebugUtilsMessageEXT:") + (data && data->message ? data->message : ""));
  Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  std::vector<Messenger*> targets;
  {
    std::lock_guard lock(inst->mutex);
    for (Messenger* m : inst->messengers) {
      if (m->callback != nullptr && (m->severities & severity) != 0 && (m->types & types) != 0) targets.push_back(m);
    }
  }
  for (Messenger* m : targets) m->callback(severity, types, data, m->userData);
  return XR_SUCCESS;
}
#endif

XRAPI_ATTR XrResult XRAPI_CALL RtGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function);

struct Entry {
  const char* name;
  PFN_xrVoidFunction function;
  bool needsNoInstance;
  bool needsApi11 = false;  // an OpenXR 1.1 command: only a 1.1 instance gets it
};

#define KL_RT_ENTRY(command, impl, noInstance) {#command, reinterpret_cast<PFN_xrVoidFunction>(static_cast<PFN_##command>(impl)), noInstance}
#define KL_RT_ENTRY_1_1(command, impl) {#command, reinterpret_cast<PFN_xrVoidFunction>(static_cast<PFN_##command>(impl)), false, true}

const Entry kEntries[] = {
    KL_RT_ENTRY(xrGetInstanceProcAddr, RtGetInstanceProcAddr, true),
    KL_RT_ENTRY(xrEnumerateInstanceExtensionProperties, RtEnumerateInstanceExtensionProperties, true),
    KL_RT_ENTRY(xrEnumerateApiLayerProperties, RtEnumerateApiLayerProperties, true),
    KL_RT_ENTRY(xrCreateInstance, RtCreateInstance, true),
    KL_RT_ENTRY(xrDestroyInstance, RtDestroyInstance, false),
    KL_RT_ENTRY(xrGetInstanceProperties, RtGetInstanceProperties, false),
    KL_RT_ENTRY(xrGetSystem, RtGetSystem, false),
    KL_RT_ENTRY(xrResultToString, RtResultToString, false),
    KL_RT_ENTRY(xrStructureTypeToString, RtStructureTypeToString, false),
    KL_RT_ENTRY(xrCreateSession, RtCreateSession, false),
    KL_RT_ENTRY(xrDestroySession, RtDestroySession, false),
    KL_RT_ENTRY(xrCreateReferenceSpace, RtCreateReferenceSpace, false),
    KL_RT_ENTRY(xrDestroySpace, RtDestroySpace, false),
    KL_RT_ENTRY(xrLocateSpace, RtLocateSpace, false),
    KL_RT_ENTRY_1_1(xrLocateSpaces, RtLocateSpaces),
    KL_RT_ENTRY(xrPollEvent, RtPollEvent, false),
    KL_RT_ENTRY(xrBeginSession, RtBeginSession, false),
    KL_RT_ENTRY(xrEndSession, RtEndSession, false),
    KL_RT_ENTRY(xrRequestExitSession, RtRequestExitSession, false),
    KL_RT_ENTRY(xrWaitFrame, RtWaitFrame, false),
    KL_RT_ENTRY(xrBeginFrame, RtBeginFrame, false),
    KL_RT_ENTRY(xrEndFrame, RtEndFrame, false),
    KL_RT_ENTRY(xrEnumerateViewConfigurations, RtEnumerateViewConfigurations, false),
    KL_RT_ENTRY(xrEnumerateViewConfigurationViews, RtEnumerateViewConfigurationViews, false),
    KL_RT_ENTRY(xrLocateViews, RtLocateViews, false),
    KL_RT_ENTRY(xrStringToPath, RtStringToPath, false),
    KL_RT_ENTRY(xrPathToString, RtPathToString, false),
    KL_RT_ENTRY(xrCreateActionSet, RtCreateActionSet, false),
    KL_RT_ENTRY(xrDestroyActionSet, RtDestroyActionSet, false),
    KL_RT_ENTRY(xrCreateAction, RtCreateAction, false),
    KL_RT_ENTRY(xrDestroyAction, RtDestroyAction, false),
    KL_RT_ENTRY(xrSuggestInteractionProfileBindings, RtSuggestInteractionProfileBindings, false),
    KL_RT_ENTRY(xrAttachSessionActionSets, RtAttachSessionActionSets, false),
    KL_RT_ENTRY(xrSyncActions, RtSyncActions, false),
    KL_RT_ENTRY(xrGetActionStateBoolean, RtGetActionStateBoolean, false),
    KL_RT_ENTRY(xrGetActionStateFloat, RtGetActionStateFloat, false),
    KL_RT_ENTRY(xrCreateHandTrackerEXT, RtCreateHandTrackerEXT, false),
    KL_RT_ENTRY(xrDestroyHandTrackerEXT, RtDestroyHandTrackerEXT, false),
    KL_RT_ENTRY(xrLocateHandJointsEXT, RtLocateHandJointsEXT, false),
#if KL_RUNTIME_DEBUG_UTILS
    KL_RT_ENTRY(xrCreateDebugUtilsMessengerEXT, RtCreateDebugUtilsMessengerEXT, false),
    KL_RT_ENTRY(xrDestroyDebugUtilsMessengerEXT, RtDestroyDebugUtilsMessengerEXT, false),
    KL_RT_ENTRY(xrSubmitDebugUtilsMessageEXT, RtSubmitDebugUtilsMessageEXT, false),
#endif
};

XRAPI_ATTR XrResult XRAPI_CALL RtGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *function = nullptr;
  const Instance* inst = FromHandle<Instance>(instance, kInstanceMagic);
  if (instance != XR_NULL_HANDLE && inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  for (const Entry& e : kEntries) {
    if (std::strcmp(e.name, name) != 0) continue;
    if (instance == XR_NULL_HANDLE && !e.needsNoInstance) return XR_ERROR_HANDLE_INVALID;
    if (e.needsApi11 && (inst == nullptr || inst->apiVersion < XR_MAKE_VERSION(1, 1, 0))) return XR_ERROR_FUNCTION_UNSUPPORTED;
    if (Fault(name, true) == kl_fault::Kind::Null) return XR_SUCCESS;  // malformed: success and no pointer
    *function = e.function;
    return XR_SUCCESS;
  }
  return XR_ERROR_FUNCTION_UNSUPPORTED;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) XrResult xrNegotiateLoaderRuntimeInterface(const XrNegotiateLoaderInfo* loaderInfo,
                                                                                             XrNegotiateRuntimeRequest* request) {
  kl_test::Trace("runtime:xrNegotiateLoaderRuntimeInterface");
  kl_test::Trace("runtime:loaderInfo:" + kl_test::DescribeLoaderInfo(loaderInfo) + ":request:" + kl_test::DescribeHeader(request) +
                 ":sizes:" + std::to_string(sizeof(XrNegotiateLoaderInfo)) + "," + std::to_string(sizeof(XrNegotiateRuntimeRequest)));
  if (Fault("negotiate") == kl_fault::Kind::Fail) return XR_ERROR_INITIALIZATION_FAILED;
  if (loaderInfo == nullptr || request == nullptr || loaderInfo->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
      loaderInfo->structVersion != XR_LOADER_INFO_STRUCT_VERSION || loaderInfo->structSize != sizeof(XrNegotiateLoaderInfo) ||
      request->structType != XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST ||
      request->structVersion != XR_RUNTIME_INFO_STRUCT_VERSION || request->structSize != sizeof(XrNegotiateRuntimeRequest) ||
      loaderInfo->minInterfaceVersion > XR_CURRENT_LOADER_RUNTIME_VERSION ||
      loaderInfo->maxInterfaceVersion < XR_CURRENT_LOADER_RUNTIME_VERSION ||
      loaderInfo->minApiVersion > XR_MAKE_VERSION(1, 1, 0) || loaderInfo->maxApiVersion < XR_MAKE_VERSION(1, 0, 0)) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  request->runtimeInterfaceVersion = XR_CURRENT_LOADER_RUNTIME_VERSION;
  request->runtimeApiVersion = XR_MAKE_VERSION(1, 1, 0);
  request->getInstanceProcAddr = RtGetInstanceProcAddr;
#if KL_RUNTIME_MODE == KL_RT_ERROR_RESULT
  return XR_ERROR_INITIALIZATION_FAILED;
#elif KL_RUNTIME_MODE == KL_RT_BAD_INTERFACE_VERSION
  request->runtimeInterfaceVersion = XR_CURRENT_LOADER_RUNTIME_VERSION + 1;
#elif KL_RUNTIME_MODE == KL_RT_BAD_API_VERSION
  request->runtimeApiVersion = XR_MAKE_VERSION(2, 0, 0);
#elif KL_RUNTIME_MODE == KL_RT_NULL_GET_INSTANCE_PROC_ADDR
  request->getInstanceProcAddr = nullptr;
#elif KL_RUNTIME_MODE == KL_RT_BAD_STRUCT_SIZE
  request->structSize = sizeof(XrNegotiateRuntimeRequest) - 8;
#elif KL_RUNTIME_MODE == KL_RT_BAD_STRUCT_TYPE
  request->structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST;
#elif KL_RUNTIME_MODE == KL_RT_BAD_STRUCT_VERSION
  request->structVersion = XR_RUNTIME_INFO_STRUCT_VERSION + 7;
#endif
  return XR_SUCCESS;
}
