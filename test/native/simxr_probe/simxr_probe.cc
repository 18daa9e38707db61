// simxr_probe SCENARIO [--frames N] [--out FILE]
//
// Runs one scenario against whatever runtime the system OpenXR loader picks (the tests point
// XR_RUNTIME_JSON at the simulated runtime's manifest) and writes one JSON object with what it
// observed. The probe records; the vitest files judge. Scenarios: negotiation, lifecycle, pacing,
// call-order, locate, actions, input, two-call, correct-app, wrong-call.
#include <openxr/openxr.h>

#include "include/simxr/simxr_haptics.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

// ---- a tiny JSON writer -------------------------------------------------------------------
class Json {
 public:
  Json& key(const char* k) {
    comma();
    out_ += '"';
    out_ += k;
    out_ += "\":";
    fresh_ = true;
    return *this;
  }
  Json& num(double v) {
    comma();
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.9g", v);
    out_ += buffer;
    return *this;
  }
  Json& integer(long long v) {
    comma();
    out_ += std::to_string(v);
    return *this;
  }
  Json& boolean(bool v) {
    comma();
    out_ += v ? "true" : "false";
    return *this;
  }
  Json& str(const std::string& s) {
    comma();
    out_ += '"';
    for (char c : s) {
      if (static_cast<unsigned char>(c) < 0x20) continue;  // never produced by a sane runtime
      if (c == '"' || c == '\\') out_ += '\\';
      out_ += c;
    }
    out_ += '"';
    return *this;
  }
  Json& open(char c) {
    comma();
    out_ += c;
    fresh_ = true;
    return *this;
  }
  Json& close(char c) {
    out_ += c;
    fresh_ = false;
    return *this;
  }
  const std::string& text() const { return out_; }

 private:
  void comma() {
    if (!fresh_ && !out_.empty()) out_ += ',';
    fresh_ = false;
  }
  std::string out_;
  bool fresh_ = true;
};

Json json;

void field(const char* k, long long v) { json.key(k).integer(v); }
void fieldStr(const char* k, const std::string& v) { json.key(k).str(v); }
void fieldBool(const char* k, bool v) { json.key(k).boolean(v); }

void pose(const char* k, const XrPosef& p) {
  json.key(k).open('[');
  for (float v : {p.position.x, p.position.y, p.position.z, p.orientation.x, p.orientation.y, p.orientation.z,
                  p.orientation.w}) {
    json.num(v);
  }
  json.close(']');
}

// ---- OpenXR helpers -------------------------------------------------------------------------
struct App {
  XrInstance instance = XR_NULL_HANDLE;
  XrSystemId system = XR_NULL_SYSTEM_ID;
  XrSession session = XR_NULL_HANDLE;
  std::vector<XrSessionState> states;
  std::vector<XrTime> stateTimes;
  int profileChanges = 0;
  XrSessionState state = XR_SESSION_STATE_UNKNOWN;

  ~App() {
    if (session != XR_NULL_HANDLE) xrDestroySession(session);
    if (instance != XR_NULL_HANDLE) xrDestroyInstance(instance);
  }
};

XrResult createInstance(App& app, bool headless, XrVersion apiVersion = XR_MAKE_VERSION(1, 0, 0)) {
  XrInstanceCreateInfo info{XR_TYPE_INSTANCE_CREATE_INFO};
  std::strcpy(info.applicationInfo.applicationName, "simxr_probe");
  info.applicationInfo.apiVersion = apiVersion;
  const char* extensions[] = {XR_MND_HEADLESS_EXTENSION_NAME};
  info.enabledExtensionCount = headless ? 1 : 0;
  info.enabledExtensionNames = extensions;
  XrResult r = xrCreateInstance(&info, &app.instance);
  if (XR_FAILED(r)) return r;
  XrSystemGetInfo systemInfo{XR_TYPE_SYSTEM_GET_INFO};
  systemInfo.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  return xrGetSystem(app.instance, &systemInfo, &app.system);
}

XrResult createSession(App& app) {
  XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO};
  info.systemId = app.system;
  return xrCreateSession(app.instance, &info, &app.session);
}

void pollEvents(App& app) {
  for (;;) {
    XrEventDataBuffer event{XR_TYPE_EVENT_DATA_BUFFER};
    if (xrPollEvent(app.instance, &event) != XR_SUCCESS) return;
    if (event.type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED) {
      const auto& changed = reinterpret_cast<const XrEventDataSessionStateChanged&>(event);
      app.states.push_back(changed.state);
      app.stateTimes.push_back(changed.time);
      app.state = changed.state;
    } else if (event.type == XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED) {
      ++app.profileChanges;
    }
  }
}

XrResult beginSession(App& app) {
  XrSessionBeginInfo info{XR_TYPE_SESSION_BEGIN_INFO};
  info.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  return xrBeginSession(app.session, &info);
}

/** One full frame: wait, begin, end with no layers. Returns the frame state. */
XrFrameState frame(App& app, XrResult* result = nullptr) {
  XrFrameState state{XR_TYPE_FRAME_STATE};
  XrResult r = xrWaitFrame(app.session, nullptr, &state);
  if (XR_SUCCEEDED(r)) r = xrBeginFrame(app.session, nullptr);
  if (XR_SUCCEEDED(r)) {
    XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
    end.displayTime = state.predictedDisplayTime;
    end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
    r = xrEndFrame(app.session, &end);
  }
  if (result != nullptr) *result = r;
  return state;
}

/** Runs frames until the session is focused (at most `limit` frames); false if it never is. */
bool runUntilFocused(App& app, int limit = 20) {
  for (int i = 0; i < limit; ++i) {
    pollEvents(app);
    if (app.state == XR_SESSION_STATE_FOCUSED) return true;
    frame(app);
  }
  pollEvents(app);
  return app.state == XR_SESSION_STATE_FOCUSED;
}

/** Instance + headless session, begun: the start of most scenarios. */
bool startSession(App& app) {
  if (XR_FAILED(createInstance(app, true)) || XR_FAILED(createSession(app))) return false;
  pollEvents(app);
  return XR_SUCCEEDED(beginSession(app));
}

XrSpace referenceSpace(App& app, XrReferenceSpaceType type, XrPosef offset = {{0, 0, 0, 1}, {0, 0, 0}}) {
  XrReferenceSpaceCreateInfo info{XR_TYPE_REFERENCE_SPACE_CREATE_INFO};
  info.referenceSpaceType = type;
  info.poseInReferenceSpace = offset;
  XrSpace space = XR_NULL_HANDLE;
  xrCreateReferenceSpace(app.session, &info, &space);
  return space;
}

XrPath path(App& app, const char* text) {
  XrPath p = XR_NULL_PATH;
  xrStringToPath(app.instance, text, &p);
  return p;
}

void statesJson(const App& app) {
  json.key("states").open('[');
  for (auto s : app.states) json.integer(s);
  json.close(']');
  json.key("stateTimes").open('[');
  for (auto t : app.stateTimes) json.integer(t);
  json.close(']');
}

// ---- scenarios ------------------------------------------------------------------------------
void negotiation() {
  uint32_t count = 0;
  field("enumerateCountResult", xrEnumerateInstanceExtensionProperties(nullptr, 0, &count, nullptr));
  std::vector<XrExtensionProperties> props(count, {XR_TYPE_EXTENSION_PROPERTIES});
  xrEnumerateInstanceExtensionProperties(nullptr, count, &count, props.data());
  json.key("extensions").open('[');
  for (auto& p : props) json.str(p.extensionName);
  json.close(']');
  {
    App app;
    const XrResult created = createInstance(app, true);
    field("createInstance", created);
    if (XR_FAILED(created)) return;
    XrInstanceProperties properties{XR_TYPE_INSTANCE_PROPERTIES};
    field("getInstanceProperties", xrGetInstanceProperties(app.instance, &properties));
    fieldStr("runtimeName", properties.runtimeName);
    PFN_xrVoidFunction fn = nullptr;
    field("procUnknown", xrGetInstanceProcAddr(app.instance, "xrNotACommand", &fn));
    field("procLocateViews", xrGetInstanceProcAddr(app.instance, "xrLocateViews", &fn));
    fieldBool("procLocateViewsNonNull", fn != nullptr);
    XrSystemProperties system{XR_TYPE_SYSTEM_PROPERTIES};
    field("getSystemProperties", xrGetSystemProperties(app.instance, app.system, &system));
    fieldStr("systemName", system.systemName);
    field("maxLayerCount", system.graphicsProperties.maxLayerCount);
    char name[XR_MAX_RESULT_STRING_SIZE];
    xrResultToString(app.instance, XR_ERROR_SESSION_NOT_STOPPING, name);
    fieldStr("resultName", name);
    char typeName[XR_MAX_STRUCTURE_NAME_SIZE];
    xrStructureTypeToString(app.instance, XR_TYPE_FRAME_STATE, typeName);
    fieldStr("structName", typeName);
    XrSystemGetInfo handheld{XR_TYPE_SYSTEM_GET_INFO};
    handheld.formFactor = XR_FORM_FACTOR_HANDHELD_DISPLAY;
    XrSystemId id = 0;
    field("getSystemHandheld", xrGetSystem(app.instance, &handheld, &id));
  }
  {
    App app;
    createInstance(app, false);
    field("sessionWithoutHeadless", createSession(app));
  }
  {
    App app;
    XrInstanceCreateInfo info{XR_TYPE_INSTANCE_CREATE_INFO};
    std::strcpy(info.applicationInfo.applicationName, "simxr_probe");
    info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
    const char* extensions[] = {"XR_KHR_not_an_extension"};
    info.enabledExtensionCount = 1;
    info.enabledExtensionNames = extensions;
    field("unknownExtension", xrCreateInstance(&info, &app.instance));
  }
  {
    App app;
    XrInstanceCreateInfo info{XR_TYPE_INSTANCE_CREATE_INFO};
    std::strcpy(info.applicationInfo.applicationName, "simxr_probe");
    info.applicationInfo.apiVersion = XR_MAKE_VERSION(2, 0, 0);
    field("apiVersion2", xrCreateInstance(&info, &app.instance));
  }
}

void lifecycle() {
  App app;
  field("createInstance", createInstance(app, true));
  field("createSession", createSession(app));
  field("secondSession", [&] {
    XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO};
    info.systemId = app.system;
    XrSession other = XR_NULL_HANDLE;
    return xrCreateSession(app.instance, &info, &other);
  }());
  field("requestExitBeforeBegin", xrRequestExitSession(app.session));
  field("endBeforeBegin", xrEndSession(app.session));
  pollEvents(app);
  field("begin", beginSession(app));
  field("beginAgain", beginSession(app));
  field("endWhileRunning", xrEndSession(app.session));
  fieldBool("focused", runUntilFocused(app));
  field("requestExit", xrRequestExitSession(app.session));
  pollEvents(app);
  XrResult frameResult = XR_SUCCESS;
  frame(app, &frameResult);
  field("frameWhileStopping", frameResult);
  field("end", xrEndSession(app.session));
  field("endAgain", xrEndSession(app.session));
  field("beginAfterExit", beginSession(app));
  pollEvents(app);
  statesJson(app);
  field("destroySession", xrDestroySession(app.session));
  field("destroySessionAgain", xrDestroySession(app.session));
  app.session = XR_NULL_HANDLE;
}

void pacing(int frames) {
  App app;
  if (!startSession(app)) return;
  json.key("frames").open('[');
  for (int i = 0; i < frames; ++i) {
    XrFrameState state{XR_TYPE_FRAME_STATE};
    XrResult r = xrWaitFrame(app.session, nullptr, &state);
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    const long long wokeAt = static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
    xrBeginFrame(app.session, nullptr);
    XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
    end.displayTime = state.predictedDisplayTime;
    end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
    XrResult e = xrEndFrame(app.session, &end);
    json.open('[').integer(r).integer(e).integer(state.predictedDisplayTime).integer(state.predictedDisplayPeriod)
        .integer(wokeAt).boolean(state.shouldRender == XR_TRUE).close(']');
    pollEvents(app);
  }
  json.close(']');
}

void callOrder() {
  App app;
  createInstance(app, true);
  createSession(app);
  pollEvents(app);
  XrFrameState state{XR_TYPE_FRAME_STATE};
  field("waitBeforeBegin", xrWaitFrame(app.session, nullptr, &state));
  beginSession(app);
  field("beginFrameWithoutWait", xrBeginFrame(app.session, nullptr));
  XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  end.displayTime = 1;
  field("endFrameWithoutBegin", xrEndFrame(app.session, &end));
  field("wait1", xrWaitFrame(app.session, nullptr, &state));
  field("begin1", xrBeginFrame(app.session, nullptr));
  field("beginAgainWithoutWait", xrBeginFrame(app.session, nullptr));
  XrFrameState second{XR_TYPE_FRAME_STATE};
  field("wait2", xrWaitFrame(app.session, nullptr, &second));
  field("begin2Discards", xrBeginFrame(app.session, nullptr));
  end.displayTime = second.predictedDisplayTime + 1;
  field("endWrongTime", xrEndFrame(app.session, &end));
  end.displayTime = second.predictedDisplayTime;
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_ADDITIVE;
  field("endWrongBlend", xrEndFrame(app.session, &end));
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  field("end2", xrEndFrame(app.session, &end));
  field("endAgain", xrEndFrame(app.session, &end));
  XrFrameState bad{XR_TYPE_VIEW_STATE};
  field("waitWrongType", xrWaitFrame(app.session, nullptr, &bad));

  // A second xrWaitFrame blocks (here on a worker thread) until the first frame is begun.
  XrFrameState third{XR_TYPE_FRAME_STATE};
  field("wait3", xrWaitFrame(app.session, nullptr, &third));
  XrResult workerResult = XR_ERROR_RUNTIME_FAILURE;
  XrFrameState fourth{XR_TYPE_FRAME_STATE};
  std::atomic<bool> returned{false};
  std::thread worker([&] {
    workerResult = xrWaitFrame(app.session, nullptr, &fourth);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  fieldBool("secondWaitReturnedBeforeBegin", returned.load());
  field("begin3", xrBeginFrame(app.session, nullptr));
  worker.join();
  field("wait4", workerResult);
  fieldBool("wait4AfterWait3", fourth.predictedDisplayTime > third.predictedDisplayTime);
}

void locate() {
  App app;
  if (!startSession(app)) return;
  runUntilFocused(app);
  XrSpace local = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_LOCAL);
  XrSpace stage = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_STAGE);
  XrSpace view = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_VIEW);
  XrSpace shifted = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_STAGE, {{0, 0, 0, 1}, {1, 0, 0}});
  XrFrameState state = frame(app);
  const XrTime t = state.predictedDisplayTime;

  uint32_t viewCount = 0;
  xrEnumerateViewConfigurationViews(app.instance, app.system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 0, &viewCount,
                                    nullptr);
  std::vector<XrViewConfigurationView> configViews(viewCount, {XR_TYPE_VIEW_CONFIGURATION_VIEW});
  xrEnumerateViewConfigurationViews(app.instance, app.system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, viewCount,
                                    &viewCount, configViews.data());
  field("viewWidth", configViews[0].recommendedImageRectWidth);
  field("viewHeight", configViews[0].recommendedImageRectHeight);

  auto locateViews = [&](XrTime time, XrSpace space, XrView (&views)[2]) {
    XrViewLocateInfo info{XR_TYPE_VIEW_LOCATE_INFO};
    info.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
    info.displayTime = time;
    info.space = space;
    XrViewState viewState{XR_TYPE_VIEW_STATE};
    uint32_t count = 0;
    views[0] = {XR_TYPE_VIEW};
    views[1] = {XR_TYPE_VIEW};
    XrResult r = xrLocateViews(app.session, &info, &viewState, 2, &count, views);
    return r;
  };
  XrView a[2], b[2], later[2];
  field("locateViews", locateViews(t, local, a));
  locateViews(t, local, b);
  locateViews(t + 500000000, local, later);
  pose("leftEye", a[0].pose);
  pose("rightEye", a[1].pose);
  pose("leftEyeLater", later[0].pose);
  fieldBool("viewsDeterministic", std::memcmp(a, b, sizeof(a)) == 0);
  json.key("fov").open('[').num(a[0].fov.angleLeft).num(a[0].fov.angleRight).num(a[0].fov.angleUp).num(a[0].fov.angleDown).close(']');
  field("locateViewsTimeZero", locateViews(0, local, b));

  auto locateSpace = [&](XrSpace space, XrSpace base, XrTime time, XrSpaceLocation& location) {
    location = {XR_TYPE_SPACE_LOCATION};
    return xrLocateSpace(space, base, time, &location);
  };
  XrSpaceLocation loc{};
  field("locateLocalInStage", locateSpace(local, stage, t, loc));
  pose("localInStage", loc.pose);
  field("localInStageFlags", static_cast<long long>(loc.locationFlags));
  locateSpace(view, local, t, loc);
  pose("viewInLocal", loc.pose);
  XrSpaceLocation again{};
  locateSpace(view, local, t, again);
  fieldBool("spaceDeterministic", std::memcmp(&loc.pose, &again.pose, sizeof(XrPosef)) == 0);
  locateSpace(view, stage, t, loc);
  pose("viewInStage", loc.pose);
  locateSpace(view, shifted, t, loc);
  pose("viewInShiftedStage", loc.pose);
  field("locateTimeZero", locateSpace(view, stage, 0, loc));
  XrExtent2Df bounds{};
  field("stageBounds", xrGetReferenceSpaceBoundsRect(app.session, XR_REFERENCE_SPACE_TYPE_STAGE, &bounds));
  json.key("stageExtent").open('[').num(bounds.width).num(bounds.height).close(']');
  field("localBounds", xrGetReferenceSpaceBoundsRect(app.session, XR_REFERENCE_SPACE_TYPE_LOCAL, &bounds));
  XrReferenceSpaceCreateInfo badPose{XR_TYPE_REFERENCE_SPACE_CREATE_INFO};
  badPose.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL;
  badPose.poseInReferenceSpace = {{0, 0, 0, 2}, {0, 0, 0}};
  XrSpace unused = XR_NULL_HANDLE;
  field("createBadPose", xrCreateReferenceSpace(app.session, &badPose, &unused));
  badPose.poseInReferenceSpace = {{0, 0, 0, 1}, {0, 0, 0}};
  badPose.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_UNBOUNDED_MSFT;
  field("createUnsupported", xrCreateReferenceSpace(app.session, &badPose, &unused));
  field("destroySpace", xrDestroySpace(shifted));
  field("locateDestroyed", locateSpace(shifted, stage, t, loc));
}

void actions() {
  App app;
  createInstance(app, true);
  createSession(app);
  XrActionSetCreateInfo setInfo{XR_TYPE_ACTION_SET_CREATE_INFO};
  std::strcpy(setInfo.actionSetName, "gameplay");
  std::strcpy(setInfo.localizedActionSetName, "Gameplay");
  XrActionSet set = XR_NULL_HANDLE;
  field("createActionSet", xrCreateActionSet(app.instance, &setInfo, &set));
  XrActionSet dup = XR_NULL_HANDLE;
  field("createActionSetDuplicate", xrCreateActionSet(app.instance, &setInfo, &dup));
  std::strcpy(setInfo.actionSetName, "Bad Name");
  std::strcpy(setInfo.localizedActionSetName, "Other");
  field("createActionSetBadName", xrCreateActionSet(app.instance, &setInfo, &dup));

  const XrPath hands[2] = {path(app, "/user/hand/left"), path(app, "/user/hand/right")};
  auto makeAction = [&](const char* name, XrActionType type, XrAction* out) {
    XrActionCreateInfo info{XR_TYPE_ACTION_CREATE_INFO};
    std::strcpy(info.actionName, name);
    std::strcpy(info.localizedActionName, name);
    info.actionType = type;
    info.countSubactionPaths = 2;
    info.subactionPaths = hands;
    return xrCreateAction(set, &info, out);
  };
  XrAction select = XR_NULL_HANDLE, value = XR_NULL_HANDLE, grip = XR_NULL_HANDLE, late = XR_NULL_HANDLE;
  field("createBool", makeAction("select", XR_ACTION_TYPE_BOOLEAN_INPUT, &select));
  field("createFloat", makeAction("value", XR_ACTION_TYPE_FLOAT_INPUT, &value));
  field("createPose", makeAction("grip", XR_ACTION_TYPE_POSE_INPUT, &grip));

  const XrPath profile = path(app, "/interaction_profiles/khr/simple_controller");
  auto suggest = [&](std::vector<XrActionSuggestedBinding> bindings) {
    XrInteractionProfileSuggestedBinding info{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING};
    info.interactionProfile = profile;
    info.countSuggestedBindings = static_cast<uint32_t>(bindings.size());
    info.suggestedBindings = bindings.data();
    return xrSuggestInteractionProfileBindings(app.instance, &info);
  };
  field("suggestUnknownInput", suggest({{select, path(app, "/user/hand/left/input/trigger/value")}}));
  field("suggestPoseOnClick", suggest({{grip, path(app, "/user/hand/left/input/select/click")}}));
  field("suggestValid", suggest({{select, path(app, "/user/hand/left/input/select/click")},
                                 {select, path(app, "/user/hand/right/input/select/click")},
                                 {value, path(app, "/user/hand/left/input/select")},
                                 {grip, path(app, "/user/hand/left/input/grip/pose")},
                                 {grip, path(app, "/user/hand/right/input/grip/pose")}}));
  XrInteractionProfileState profileState{XR_TYPE_INTERACTION_PROFILE_STATE};
  field("profileBeforeAttach", xrGetCurrentInteractionProfile(app.session, hands[0], &profileState));
  XrActionsSyncInfo syncInfo{XR_TYPE_ACTIONS_SYNC_INFO};
  XrActiveActionSet active{set, XR_NULL_PATH};
  syncInfo.countActiveActionSets = 1;
  syncInfo.activeActionSets = &active;
  field("syncBeforeAttach", xrSyncActions(app.session, &syncInfo));

  XrSessionActionSetsAttachInfo attach{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO};
  attach.countActionSets = 1;
  attach.actionSets = &set;
  field("attach", xrAttachSessionActionSets(app.session, &attach));
  field("attachAgain", xrAttachSessionActionSets(app.session, &attach));
  field("suggestAfterAttach", suggest({{select, path(app, "/user/hand/left/input/select/click")}}));
  field("createActionAfterAttach", makeAction("late", XR_ACTION_TYPE_BOOLEAN_INPUT, &late));
  field("profileAfterAttach", xrGetCurrentInteractionProfile(app.session, hands[0], &profileState));
  char profileName[XR_MAX_PATH_LENGTH];
  uint32_t length = 0;
  xrPathToString(app.instance, profileState.interactionProfile, sizeof(profileName), &length, profileName);
  fieldStr("profile", profileState.interactionProfile == XR_NULL_PATH ? "" : profileName);

  XrActionSpaceCreateInfo spaceInfo{XR_TYPE_ACTION_SPACE_CREATE_INFO};
  spaceInfo.action = grip;
  spaceInfo.subactionPath = hands[0];
  spaceInfo.poseInActionSpace = {{0, 0, 0, 1}, {0, 0, 0}};
  XrSpace gripSpace = XR_NULL_HANDLE;
  field("createActionSpace", xrCreateActionSpace(app.session, &spaceInfo, &gripSpace));
  spaceInfo.action = select;
  XrSpace wrong = XR_NULL_HANDLE;
  field("createActionSpaceFromBool", xrCreateActionSpace(app.session, &spaceInfo, &wrong));
  XrSpace stage = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_STAGE);

  pollEvents(app);
  beginSession(app);
  field("syncNotFocused", xrSyncActions(app.session, &syncInfo));
  XrActionStateGetInfo get{XR_TYPE_ACTION_STATE_GET_INFO};
  get.action = select;
  XrActionStateBoolean boolState{XR_TYPE_ACTION_STATE_BOOLEAN};
  xrGetActionStateBoolean(app.session, &get, &boolState);
  fieldBool("activeWhenNotFocused", boolState.isActive == XR_TRUE);
  fieldBool("focused", runUntilFocused(app));
  field("profileChangedEvents", app.profileChanges);

  XrActionStateFloat floatState{XR_TYPE_ACTION_STATE_FLOAT};
  get.action = select;
  field("getFloatOnBool", xrGetActionStateFloat(app.session, &get, &floatState));
  get.subactionPath = path(app, "/user/head");
  field("getUndeclaredSubaction", xrGetActionStateBoolean(app.session, &get, &boolState));

  // Sample the buttons and the left grip over a few seconds of frames.
  json.key("samples").open('[');
  for (int i = 0; i < 300; ++i) {
    XrFrameState state = frame(app);
    XrResult sync = xrSyncActions(app.session, &syncInfo);
    json.open('[').integer(sync).integer(state.predictedDisplayTime);
    for (XrPath hand : {hands[0], hands[1], XrPath{XR_NULL_PATH}}) {
      get.action = select;
      get.subactionPath = hand;
      boolState = {XR_TYPE_ACTION_STATE_BOOLEAN};
      xrGetActionStateBoolean(app.session, &get, &boolState);
      json.boolean(boolState.isActive).boolean(boolState.currentState).boolean(boolState.changedSinceLastSync)
          .integer(boolState.lastChangeTime);
    }
    get.action = value;
    get.subactionPath = hands[0];
    floatState = {XR_TYPE_ACTION_STATE_FLOAT};
    xrGetActionStateFloat(app.session, &get, &floatState);
    json.boolean(floatState.isActive).num(floatState.currentState);
    get.subactionPath = hands[1];
    xrGetActionStateFloat(app.session, &get, &floatState);
    json.boolean(floatState.isActive);
    get.action = grip;
    get.subactionPath = hands[0];
    XrActionStatePose poseState{XR_TYPE_ACTION_STATE_POSE};
    xrGetActionStatePose(app.session, &get, &poseState);
    XrSpaceLocation location{XR_TYPE_SPACE_LOCATION};
    xrLocateSpace(gripSpace, stage, state.predictedDisplayTime, &location);
    json.boolean(poseState.isActive).integer(static_cast<long long>(location.locationFlags));
    for (float v : {location.pose.position.x, location.pose.position.y, location.pose.position.z}) json.num(v);
    json.close(']');
    if (i % 10 == 0) pollEvents(app);
  }
  json.close(']');
  uint32_t sourceCount = 0;
  XrBoundSourcesForActionEnumerateInfo sourcesInfo{XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO};
  sourcesInfo.action = select;
  field("boundSources", xrEnumerateBoundSourcesForAction(app.session, &sourcesInfo, 0, &sourceCount, nullptr));
  field("boundSourceCount", sourceCount);
  field("destroyActionSet", xrDestroyActionSet(set));
  get.action = select;
  get.subactionPath = XR_NULL_PATH;
  field("getAfterSetDestroyed", xrGetActionStateBoolean(app.session, &get, &boolState));
}

// The controllers of the profile SIMXR_CONTROLLER names (the test sets index), the haptics record
// reached through the loader by name, and XR_EXT_hand_tracking's commands with velocities chained.
void input(int frames) {
  App app;
  const char* extensions[] = {"XR_MND_headless", XR_EXT_HAND_TRACKING_EXTENSION_NAME};
  XrInstanceCreateInfo info{XR_TYPE_INSTANCE_CREATE_INFO};
  std::strcpy(info.applicationInfo.applicationName, "simxr_probe input");
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info.enabledExtensionCount = 2;
  info.enabledExtensionNames = extensions;
  field("createInstance", xrCreateInstance(&info, &app.instance));
  XrSystemGetInfo systemInfo{XR_TYPE_SYSTEM_GET_INFO};
  systemInfo.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  xrGetSystem(app.instance, &systemInfo, &app.system);
  XrSystemHandTrackingPropertiesEXT handProperties{XR_TYPE_SYSTEM_HAND_TRACKING_PROPERTIES_EXT};
  XrSystemProperties properties{XR_TYPE_SYSTEM_PROPERTIES, &handProperties};
  xrGetSystemProperties(app.instance, app.system, &properties);
  fieldBool("supportsHandTracking", handProperties.supportsHandTracking == XR_TRUE);
  field("createSession", createSession(app));

  XrActionSet set = XR_NULL_HANDLE;
  XrActionSetCreateInfo setInfo{XR_TYPE_ACTION_SET_CREATE_INFO};
  std::strcpy(setInfo.actionSetName, "input");
  std::strcpy(setInfo.localizedActionSetName, "Input");
  xrCreateActionSet(app.instance, &setInfo, &set);
  XrPath left = path(app, "/user/hand/left");
  auto makeAction = [&](const char* name, XrActionType type) {
    XrActionCreateInfo actionInfo{XR_TYPE_ACTION_CREATE_INFO};
    std::strcpy(actionInfo.actionName, name);
    std::strcpy(actionInfo.localizedActionName, name);
    actionInfo.actionType = type;
    XrAction action = XR_NULL_HANDLE;
    xrCreateAction(set, &actionInfo, &action);
    return action;
  };
  XrAction pad = makeAction("pad", XR_ACTION_TYPE_VECTOR2F_INPUT);
  XrAction squeeze = makeAction("squeeze", XR_ACTION_TYPE_FLOAT_INPUT);
  XrAction buzz = makeAction("buzz", XR_ACTION_TYPE_VIBRATION_OUTPUT);
  std::vector<XrActionSuggestedBinding> bindings{{pad, path(app, "/user/hand/left/input/trackpad")},
                                                 {squeeze, path(app, "/user/hand/left/input/squeeze/force")},
                                                 {buzz, path(app, "/user/hand/left/output/haptic")},
                                                 {buzz, path(app, "/user/hand/right/output/haptic")}};
  XrInteractionProfileSuggestedBinding suggested{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING};
  suggested.interactionProfile = path(app, "/interaction_profiles/valve/index_controller");
  suggested.countSuggestedBindings = static_cast<uint32_t>(bindings.size());
  suggested.suggestedBindings = bindings.data();
  field("suggest", xrSuggestInteractionProfileBindings(app.instance, &suggested));
  XrSessionActionSetsAttachInfo attach{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO};
  attach.countActionSets = 1;
  attach.actionSets = &set;
  field("attach", xrAttachSessionActionSets(app.session, &attach));
  XrInteractionProfileState profile{XR_TYPE_INTERACTION_PROFILE_STATE};
  xrGetCurrentInteractionProfile(app.session, left, &profile);
  char profileName[XR_MAX_PATH_LENGTH];
  uint32_t length = 0;
  xrPathToString(app.instance, profile.interactionProfile, sizeof(profileName), &length, profileName);
  fieldStr("profile", profile.interactionProfile == XR_NULL_PATH ? "" : profileName);

  PFN_xrCreateHandTrackerEXT createHandTracker = nullptr;
  PFN_xrLocateHandJointsEXT locateHandJoints = nullptr;
  PFN_xrDestroyHandTrackerEXT destroyHandTracker = nullptr;
  PFN_xrDrainHapticEventsSIMXR drain = nullptr;
  field("getCreateHandTracker", xrGetInstanceProcAddr(app.instance, "xrCreateHandTrackerEXT", reinterpret_cast<PFN_xrVoidFunction*>(&createHandTracker)));
  xrGetInstanceProcAddr(app.instance, "xrLocateHandJointsEXT", reinterpret_cast<PFN_xrVoidFunction*>(&locateHandJoints));
  xrGetInstanceProcAddr(app.instance, "xrDestroyHandTrackerEXT", reinterpret_cast<PFN_xrVoidFunction*>(&destroyHandTracker));
  field("getDrain", xrGetInstanceProcAddr(app.instance, XR_SIMXR_DRAIN_HAPTIC_EVENTS_NAME, reinterpret_cast<PFN_xrVoidFunction*>(&drain)));
  if (createHandTracker == nullptr || locateHandJoints == nullptr || destroyHandTracker == nullptr || drain == nullptr) return;
  XrHandTrackerCreateInfoEXT trackerInfo{XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT};
  trackerInfo.hand = XR_HAND_RIGHT_EXT;
  trackerInfo.handJointSet = XR_HAND_JOINT_SET_DEFAULT_EXT;
  XrHandTrackerEXT tracker = XR_NULL_HANDLE;
  field("createHandTracker", createHandTracker(app.session, &trackerInfo, &tracker));
  trackerInfo.hand = static_cast<XrHandEXT>(3);
  XrHandTrackerEXT bad = XR_NULL_HANDLE;
  field("createHandTrackerBadHand", createHandTracker(app.session, &trackerInfo, &bad));

  beginSession(app);
  fieldBool("focused", runUntilFocused(app));
  XrSpace stage = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_STAGE);
  XrActionsSyncInfo syncInfo{XR_TYPE_ACTIONS_SYNC_INFO};
  XrActiveActionSet active{set, XR_NULL_PATH};
  syncInfo.countActiveActionSets = 1;
  syncInfo.activeActionSets = &active;
  XrHandJointLocationEXT joints[XR_HAND_JOINT_COUNT_EXT];
  XrHandJointVelocityEXT velocities[XR_HAND_JOINT_COUNT_EXT];
  XrResult applied = XR_ERROR_RUNTIME_FAILURE;
  XrTime hapticTime = 0;
  XrTime lastFrameTime = 0;
  json.key("samples").open('[');
  for (int i = 0; i < frames; ++i) {
    XrFrameState state = frame(app);
    xrSyncActions(app.session, &syncInfo);
    XrActionStateGetInfo get{XR_TYPE_ACTION_STATE_GET_INFO};
    get.action = pad;
    XrActionStateVector2f padState{XR_TYPE_ACTION_STATE_VECTOR2F};
    xrGetActionStateVector2f(app.session, &get, &padState);
    get.action = squeeze;
    XrActionStateFloat squeezeState{XR_TYPE_ACTION_STATE_FLOAT};
    xrGetActionStateFloat(app.session, &get, &squeezeState);
    XrHandJointVelocitiesEXT jointVelocities{XR_TYPE_HAND_JOINT_VELOCITIES_EXT, nullptr, XR_HAND_JOINT_COUNT_EXT, velocities};
    XrHandJointLocationsEXT locations{XR_TYPE_HAND_JOINT_LOCATIONS_EXT, &jointVelocities, XR_FALSE, XR_HAND_JOINT_COUNT_EXT, joints};
    XrHandJointsLocateInfoEXT locateInfo{XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT, nullptr, stage, state.predictedDisplayTime};
    const XrResult located = locateHandJoints(tracker, &locateInfo, &locations);
    lastFrameTime = state.predictedDisplayTime;
    const XrHandJointVelocityEXT& tip = velocities[XR_HAND_JOINT_INDEX_TIP_EXT];
    json.open('[').integer(state.predictedDisplayTime).boolean(padState.isActive).num(padState.currentState.x).num(padState.currentState.y)
        .boolean(padState.changedSinceLastSync).num(squeezeState.currentState).integer(located).boolean(locations.isActive)
        .integer(static_cast<long long>(joints[XR_HAND_JOINT_INDEX_TIP_EXT].locationFlags)).num(joints[XR_HAND_JOINT_INDEX_TIP_EXT].radius)
        .integer(static_cast<long long>(tip.velocityFlags)).num(std::hypot(tip.linearVelocity.x, tip.linearVelocity.y, tip.linearVelocity.z));
    json.close(']');
    if (i == frames / 2) {
      XrHapticActionInfo hapticInfo{XR_TYPE_HAPTIC_ACTION_INFO};
      hapticInfo.action = buzz;
      XrHapticVibration vibration{XR_TYPE_HAPTIC_VIBRATION};
      vibration.duration = 5000000;
      vibration.frequency = 200.0f;
      vibration.amplitude = 0.25f;
      applied = xrApplyHapticFeedback(app.session, &hapticInfo, reinterpret_cast<const XrHapticBaseHeader*>(&vibration));
      hapticTime = state.predictedDisplayTime;
    }
    if (i % 10 == 0) pollEvents(app);
  }
  json.close(']');
  // The tip's velocity at fixed times around the edges of the right hand's loss window ([9, 10) s
  // of every 10 s) after the frames: 1 ms and 0.25 ms before the loss, 0.25 ms and 1 ms after it.
  // Each [time, isActive, velocityFlags, speed].
  constexpr XrTime kSecond = 1'000'000'000, kCycle = 10 * kSecond;
  const XrTime found = (lastFrameTime / kCycle + 1) * kCycle;  // the tracking comes back here
  const XrTime lost = found - kSecond;
  json.key("velocityEdges").open('[');
  for (const XrTime t : {lost - 1'000'000, lost - 250'000, found + 250'000, found + 1'000'000}) {
    XrHandJointVelocitiesEXT jointVelocities{XR_TYPE_HAND_JOINT_VELOCITIES_EXT, nullptr, XR_HAND_JOINT_COUNT_EXT, velocities};
    XrHandJointLocationsEXT locations{XR_TYPE_HAND_JOINT_LOCATIONS_EXT, &jointVelocities, XR_FALSE, XR_HAND_JOINT_COUNT_EXT, joints};
    XrHandJointsLocateInfoEXT at{XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT, nullptr, stage, t};
    const bool ok = XR_SUCCEEDED(locateHandJoints(tracker, &at, &locations));
    const XrHandJointVelocityEXT& tip = velocities[XR_HAND_JOINT_INDEX_TIP_EXT];
    json.open('[').integer(t).boolean(ok && locations.isActive).integer(ok ? static_cast<long long>(tip.velocityFlags) : -1)
        .num(std::hypot(tip.linearVelocity.x, tip.linearVelocity.y, tip.linearVelocity.z));
    json.close(']');
  }
  json.close(']');
  field("applyHaptic", applied);
  field("hapticTime", hapticTime);
  XrHandJointLocationsEXT wrongCount{XR_TYPE_HAND_JOINT_LOCATIONS_EXT, nullptr, XR_FALSE, 25, joints};
  XrHandJointsLocateInfoEXT locateInfo{XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT, nullptr, stage, 1};
  field("locateWrongCount", locateHandJoints(tracker, &locateInfo, &wrongCount));
  uint32_t waiting = 0;
  field("drainCount", drain(app.session, 0, &waiting, nullptr));
  std::vector<XrHapticEventSIMXR> events(waiting);
  uint32_t got = 0;
  field("drain", drain(app.session, waiting, &got, events.data()));
  json.key("haptics").open('[');
  for (uint32_t i = 0; i < got; ++i) {
    char source[XR_MAX_PATH_LENGTH];
    xrPathToString(app.instance, events[i].source, sizeof(source), &length, source);
    json.open('[').integer(events[i].time).str(source).integer(events[i].duration).num(events[i].frequency).num(events[i].amplitude)
        .boolean(events[i].stopped != 0).boolean(events[i].action == buzz);
    json.close(']');
  }
  json.close(']');
  field("destroyHandTracker", destroyHandTracker(tracker));
  field("locateDestroyed", locateHandJoints(tracker, &locateInfo, &wrongCount));
}

void twoCall() {
  App app;
  createInstance(app, true);
  createSession(app);
  uint32_t count = 0;
  XrViewConfigurationView one[1] = {{XR_TYPE_VIEW_CONFIGURATION_VIEW}};
  field("viewsSmall", xrEnumerateViewConfigurationViews(app.instance, app.system,
                                                        XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 1, &count, one));
  field("viewsCount", count);
  XrViewConfigurationView untyped[2] = {};
  field("viewsUntyped", xrEnumerateViewConfigurationViews(app.instance, app.system,
                                                          XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 2, &count, untyped));
  field("viewsNullCount", xrEnumerateViewConfigurationViews(app.instance, app.system,
                                                            XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 0, nullptr, nullptr));
  XrReferenceSpaceType spaces[8];
  field("spacesCountResult", xrEnumerateReferenceSpaces(app.session, 0, &count, nullptr));
  field("spacesCount", count);
  field("spacesSmall", xrEnumerateReferenceSpaces(app.session, 2, &count, spaces));
  field("spacesFull", xrEnumerateReferenceSpaces(app.session, 8, &count, spaces));
  json.key("spaces").open('[');
  for (uint32_t i = 0; i < count; ++i) json.integer(spaces[i]);
  json.close(']');
  XrPath p = path(app, "/user/hand/left");
  char small[4];
  field("pathSmall", xrPathToString(app.instance, p, sizeof(small), &count, small));
  field("pathCount", count);
  field("pathBad", xrPathToString(app.instance, 987654, 0, &count, nullptr));
  XrPath bad = XR_NULL_PATH;
  field("stringToPathBad", xrStringToPath(app.instance, "/user//hand", &bad));
  field("stringToPathUpper", xrStringToPath(app.instance, "/User/hand", &bad));
  XrExtensionProperties ext[1] = {{XR_TYPE_EXTENSION_PROPERTIES}};
  field("extensionsCountResult", xrEnumerateInstanceExtensionProperties(nullptr, 0, &count, nullptr));
  field("extensionsCount", count);
  field("extensions", xrEnumerateInstanceExtensionProperties(nullptr, 1, &count, ext));
  XrViewConfigurationType types[1];
  field("viewConfigurations", xrEnumerateViewConfigurations(app.instance, app.system, 1, &count, types));
  field("viewConfiguration", types[0]);
  XrEnvironmentBlendMode modes[1];
  field("blendModes", xrEnumerateEnvironmentBlendModes(app.instance, app.system,
                                                       XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 1, &count, modes));
  field("blendMode", modes[0]);
}

/** The sequence a correct headless application goes through: nothing in it should be reported. */
void correctApp(int frames) {
  App app;
  field("createInstance", createInstance(app, true));
  XrSystemProperties system{XR_TYPE_SYSTEM_PROPERTIES};
  xrGetSystemProperties(app.instance, app.system, &system);
  uint32_t count = 0;
  xrEnumerateViewConfigurations(app.instance, app.system, 0, &count, nullptr);
  std::vector<XrViewConfigurationType> types(count);
  xrEnumerateViewConfigurations(app.instance, app.system, count, &count, types.data());
  field("createSession", createSession(app));
  XrActionSetCreateInfo setInfo{XR_TYPE_ACTION_SET_CREATE_INFO};
  std::strcpy(setInfo.actionSetName, "main");
  std::strcpy(setInfo.localizedActionSetName, "Main");
  XrActionSet set = XR_NULL_HANDLE;
  xrCreateActionSet(app.instance, &setInfo, &set);
  XrActionCreateInfo actionInfo{XR_TYPE_ACTION_CREATE_INFO};
  std::strcpy(actionInfo.actionName, "select");
  std::strcpy(actionInfo.localizedActionName, "Select");
  actionInfo.actionType = XR_ACTION_TYPE_BOOLEAN_INPUT;
  XrAction select = XR_NULL_HANDLE;
  xrCreateAction(set, &actionInfo, &select);
  XrActionSuggestedBinding binding{select, path(app, "/user/hand/left/input/select/click")};
  XrInteractionProfileSuggestedBinding suggested{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING};
  suggested.interactionProfile = path(app, "/interaction_profiles/khr/simple_controller");
  suggested.countSuggestedBindings = 1;
  suggested.suggestedBindings = &binding;
  field("suggest", xrSuggestInteractionProfileBindings(app.instance, &suggested));
  XrSessionActionSetsAttachInfo attach{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO};
  attach.countActionSets = 1;
  attach.actionSets = &set;
  field("attach", xrAttachSessionActionSets(app.session, &attach));
  XrSpace local = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_LOCAL);
  XrSpace view = referenceSpace(app, XR_REFERENCE_SPACE_TYPE_VIEW);
  bool exitRequested = false;
  bool running = false;
  int framesRun = 0;
  for (int i = 0; i < frames * 4 && app.state != XR_SESSION_STATE_EXITING; ++i) {
    pollEvents(app);
    if (app.state == XR_SESSION_STATE_READY && !running) {
      beginSession(app);
      running = true;
    }
    if (app.state == XR_SESSION_STATE_STOPPING && running) {
      xrEndSession(app.session);
      running = false;
      continue;
    }
    if (!running) continue;
    XrFrameState state{XR_TYPE_FRAME_STATE};
    xrWaitFrame(app.session, nullptr, &state);
    xrBeginFrame(app.session, nullptr);
    if (app.state == XR_SESSION_STATE_FOCUSED) {
      XrActiveActionSet active{set, XR_NULL_PATH};
      XrActionsSyncInfo sync{XR_TYPE_ACTIONS_SYNC_INFO};
      sync.countActiveActionSets = 1;
      sync.activeActionSets = &active;
      xrSyncActions(app.session, &sync);
      XrActionStateGetInfo get{XR_TYPE_ACTION_STATE_GET_INFO};
      get.action = select;
      XrActionStateBoolean value{XR_TYPE_ACTION_STATE_BOOLEAN};
      xrGetActionStateBoolean(app.session, &get, &value);
    }
    XrSpaceLocation location{XR_TYPE_SPACE_LOCATION};
    xrLocateSpace(view, local, state.predictedDisplayTime, &location);
    XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
    end.displayTime = state.predictedDisplayTime;
    end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
    xrEndFrame(app.session, &end);
    if (++framesRun >= frames && !exitRequested) {
      xrRequestExitSession(app.session);
      exitRequested = true;
    }
  }
  field("framesRun", framesRun);
  statesJson(app);
  xrDestroySpace(view);
  xrDestroySpace(local);
  xrDestroyActionSet(set);
}

/** One deliberate mistake for the validation layer: a create-info with the wrong structure type. */
void wrongCall() {
  App app;
  createInstance(app, true);
  XrActionSetCreateInfo setInfo{XR_TYPE_ACTION_CREATE_INFO};  // should be XR_TYPE_ACTION_SET_CREATE_INFO
  std::strcpy(setInfo.actionSetName, "main");
  std::strcpy(setInfo.localizedActionSetName, "Main");
  XrActionSet set = XR_NULL_HANDLE;
  field("createActionSetWrongType", xrCreateActionSet(app.instance, &setInfo, &set));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: simxr_probe SCENARIO [--frames N] [--out FILE]\n");
    return 2;
  }
  const std::string scenario = argv[1];
  int frames = 90;
  const char* out = nullptr;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--frames") == 0) frames = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--out") == 0) out = argv[i + 1];
  }
  json.open('{');
  fieldStr("scenario", scenario);
  if (scenario == "negotiation") negotiation();
  else if (scenario == "lifecycle") lifecycle();
  else if (scenario == "pacing") pacing(frames);
  else if (scenario == "call-order") callOrder();
  else if (scenario == "locate") locate();
  else if (scenario == "actions") actions();
  else if (scenario == "input") input(frames);
  else if (scenario == "two-call") twoCall();
  else if (scenario == "correct-app") correctApp(frames);
  else if (scenario == "wrong-call") wrongCall();
  else {
    std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
    return 2;
  }
  json.close('}');
  FILE* f = out != nullptr ? std::fopen(out, "w") : stdout;
  if (f == nullptr) return 1;
  std::fprintf(f, "%s\n", json.text().c_str());
  if (f != stdout) std::fclose(f);
  return 0;
}
