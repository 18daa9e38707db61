#include "tools/bench/openxr_paced_bench.h"

#include <time.h>

#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "addon/errors.h"
#include "common/dynamic_library.h"
#include "openxr/addon/xr_error_js.h"
#include "tools/loader_addon.h"

namespace kl::napi::xr {

namespace {

// A failed setup step: the XrResult and which call.
struct StepError : std::runtime_error {
  StepError(XrResult r, const std::string& what) : std::runtime_error(what + " failed (XrResult " + std::to_string(r) + ")"), result(r) {}
  XrResult result;
};

void Check(XrResult r, const char* what) {
  if (XR_FAILED(r)) throw StepError(r, what);
}

std::int64_t MonotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The commands, from the top of the instance's chain (xrGetInstanceProcAddr), as the typed API calls them.
#define KL_PACED_COMMANDS(X)                                                                                                         \
  X(DestroyInstance) X(GetSystem) X(PollEvent) X(CreateSession) X(DestroySession) X(BeginSession) X(CreateReferenceSpace)           \
      X(DestroySpace) X(LocateSpace) X(LocateViews) X(StringToPath) X(CreateActionSet) X(DestroyActionSet) X(CreateAction)          \
          X(SuggestInteractionProfileBindings) X(AttachSessionActionSets) X(SyncActions) X(GetActionStateBoolean) X(GetActionStateFloat) \
              X(WaitFrame) X(BeginFrame) X(EndFrame)

// XR_KHR_convert_timespec_time's command (its type is behind XR_USE_TIMESPEC in the headers).
using ConvertTimespec = XrResult(XRAPI_PTR*)(XrInstance, const timespec*, XrTime*);

struct Commands {
#define KL_PACED_MEMBER(Cmd) PFN_xr##Cmd Cmd = nullptr;
  KL_PACED_COMMANDS(KL_PACED_MEMBER)
#undef KL_PACED_MEMBER
  ConvertTimespec ConvertTimespecTime = nullptr;  // absent unless enabled

  static Commands From(PFN_xrGetInstanceProcAddr gipa, XrInstance instance) {
    Commands c;
    auto get = [&](const char* name) {
      PFN_xrVoidFunction f = nullptr;
      const XrResult r = gipa(instance, name, &f);
      if (XR_FAILED(r) || f == nullptr) throw StepError(XR_FAILED(r) ? r : XR_ERROR_FUNCTION_UNSUPPORTED, std::string("xrGetInstanceProcAddr(") + name + ")");
      return f;
    };
#define KL_PACED_GET(Cmd) c.Cmd = reinterpret_cast<PFN_xr##Cmd>(get("xr" #Cmd));
    KL_PACED_COMMANDS(KL_PACED_GET)
#undef KL_PACED_GET
    PFN_xrVoidFunction convert = nullptr;
    if (XR_SUCCEEDED(gipa(instance, "xrConvertTimespecTimeToTimeKHR", &convert))) c.ConvertTimespecTime = reinterpret_cast<ConvertTimespec>(convert);
    return c;
  }
};

constexpr uint32_t kViews = 2;
constexpr XrDuration kTimerPeriod = 1'000'000'000 / 90;  // the frame loop's default display rate
constexpr XrReferenceSpaceType kSpaceTypes[] = {XR_REFERENCE_SPACE_TYPE_VIEW, XR_REFERENCE_SPACE_TYPE_STAGE, XR_REFERENCE_SPACE_TYPE_LOCAL};

// What one paced frame times (ns, the calling thread, from the moment the frame is its own).
enum class What { Empty, TinyRead, FloatsRead, DeliveryCopy, FirstLocate, Locates, Query, Views, Actions };
constexpr std::pair<const char*, What> kWhats[] = {
    {"empty", What::Empty},   {"tiny-read", What::TinyRead}, {"floats-read", What::FloatsRead}, {"delivery-copy", What::DeliveryCopy},
    {"first-locate", What::FirstLocate}, {"locates", What::Locates}, {"query", What::Query}, {"views", What::Views}, {"actions", What::Actions},
};

class Rig {
 public:
  Rig(PFN_xrGetInstanceProcAddr gipa, XrInstance instance, bool ownInstance, uint32_t spaceCount)
      : instance_(instance), ownInstance_(ownInstance) {
    try {
      x_ = Commands::From(gipa, instance);
      Setup(spaceCount);
    } catch (...) {
      Teardown();
      throw;
    }
  }
  ~Rig() { Teardown(); }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;

  // `copyFloats`: for DeliveryCopy, the floats the session's delivery copies (the frame query's length).
  std::vector<double> Run(What what, double durationMs, uint32_t copyFloats = 0) {
    back_.assign(copyFloats, 0.0f);
    front_.assign(copyFloats, 0.0f);
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(durationMs / 1000.0 * 120) + 16);
    const std::int64_t end = MonotonicNs() + static_cast<std::int64_t>(durationMs * 1e6);
    while (MonotonicNs() < end) {
      const XrTime time = WaitFrame();
      const bool begun = waitTimes_;
      if (begun) Check(x_.BeginFrame(session_, &beginInfo_), "xrBeginFrame");
      // As the session's wait thread does after xrWaitFrame: the query's reads written into the
      // back buffer by another thread, while this one (JavaScript's, in the product) sleeps.
      if (what == What::DeliveryCopy) WriteBackOnAnotherThread(time);
      samples.push_back(Measure(what, time));
      // What the next frame's "floats-read" reads, written before the sleep (as a frame query's
      // out is written before onFrame's thread wakes).
      if (what == What::FloatsRead) Check(Query(time), "the frame's reads");
      if (begun) {
        endInfo_.displayTime = time;
        Check(x_.EndFrame(session_, &endInfo_), "xrEndFrame");
      }
      DrainEvents();
    }
    return samples;
  }

  XrInstance instance() const { return instance_; }
  XrSession session() const { return session_; }
  XrSpace local() const { return local_; }
  const std::vector<XrSpace>& spaces() const { return spaces_; }
  XrActionSet actionSet() const { return actionSet_; }
  const std::vector<std::pair<XrAction, XrPath>>& actions() const { return actions_; }
  bool waitTimes() const { return waitTimes_; }
  const std::string& actionsSkipped() const { return actionsSkipped_; }

 private:
  // Blocks to the frame (xrWaitFrame, or a 90 Hz timer where it gives no display time) and returns its time.
  XrTime WaitFrame() {
    XrFrameState state{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE};
    Check(x_.WaitFrame(session_, &waitInfo_, &state), "xrWaitFrame");
    waitTimes_ = state.predictedDisplayTime != 0;
    if (waitTimes_) return state.predictedDisplayTime;
    if (x_.ConvertTimespecTime == nullptr) throw StepError(XR_ERROR_TIME_INVALID, "xrWaitFrame gave no display time and XR_KHR_convert_timespec_time is not enabled:");
    if (nextDeadline_ == 0) nextDeadline_ = MonotonicNs();
    timespec deadline{static_cast<time_t>(nextDeadline_ / 1'000'000'000), static_cast<long>(nextDeadline_ % 1'000'000'000)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr);
    nextDeadline_ = std::max(nextDeadline_ + kTimerPeriod, MonotonicNs());
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    XrTime time = 0;
    Check(x_.ConvertTimespecTime(instance_, &now, &time), "xrConvertTimespecTimeToTimeKHR");
    return time + kTimerPeriod;
  }

  // Every read of a frame query (the spaces, the views, the action states) into out_.
  XrResult Query(XrTime time) {
    int32_t acc = XR_SUCCESS;
    for (std::size_t i = 0; i < spaces_.size(); ++i) acc |= static_cast<int32_t>(LocateInto(i, time));
    acc |= static_cast<int32_t>(LocateViews(time));
    acc |= static_cast<int32_t>(ReadActions());
    return static_cast<XrResult>(acc);
  }

  // The frame's reads on a thread of their own, into back_ (out_'s floats repeated to its length).
  void WriteBackOnAnotherThread(XrTime time) {
    XrResult r = XR_SUCCESS;
    std::thread writer([&] {
      r = Query(time);
      for (std::size_t i = 0; i < back_.size(); ++i) back_[i] = out_[i % out_.size()];
    });
    writer.join();
    Check(r, "the frame's reads on the writing thread");
  }

  XrResult LocateInto(std::size_t i, XrTime time) {
    XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, nullptr, 0, {{0, 0, 0, 1}, {0, 0, 0}}};
    const XrResult r = x_.LocateSpace(spaces_[i], local_, time, &location);
    float* o = out_.data() + i * 8;
    std::memcpy(o, &location.pose, sizeof(XrPosef));
    o[7] = static_cast<float>(location.locationFlags);
    return r;
  }

  XrResult LocateViews(XrTime time) {
    XrViewLocateInfo info{XR_TYPE_VIEW_LOCATE_INFO, nullptr, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, time, local_};
    XrViewState state{XR_TYPE_VIEW_STATE, nullptr, 0};
    std::array<XrView, kViews> views{};
    for (auto& v : views) v.type = XR_TYPE_VIEW;
    uint32_t count = 0;
    const XrResult r = x_.LocateViews(session_, &info, &state, kViews, &count, views.data());
    float* o = out_.data() + spaces_.size() * 8;
    for (uint32_t v = 0; v < kViews; ++v) {
      std::memcpy(o + v * 11, &views[v].pose, sizeof(XrPosef));
      std::memcpy(o + v * 11 + 7, &views[v].fov, sizeof(XrFovf));
    }
    return r;
  }

  XrResult ReadActions() {
    int32_t acc = XR_SUCCESS;
    float* o = out_.data() + spaces_.size() * 8 + kViews * 11;
    for (std::size_t i = 0; i < actions_.size(); ++i) {
      const XrActionStateGetInfo info{XR_TYPE_ACTION_STATE_GET_INFO, nullptr, actions_[i].first, actions_[i].second};
      if (i < 2) {
        XrActionStateBoolean state{XR_TYPE_ACTION_STATE_BOOLEAN, nullptr, XR_FALSE, XR_FALSE, 0, XR_FALSE};
        acc |= static_cast<int32_t>(x_.GetActionStateBoolean(session_, &info, &state));
        o[i * 2] = state.currentState ? 1.0f : 0.0f;
        o[i * 2 + 1] = state.isActive ? 1.0f : 0.0f;
      } else {
        XrActionStateFloat state{XR_TYPE_ACTION_STATE_FLOAT, nullptr, 0, XR_FALSE, 0, XR_FALSE};
        acc |= static_cast<int32_t>(x_.GetActionStateFloat(session_, &info, &state));
        o[i * 2] = state.currentState;
        o[i * 2 + 1] = state.isActive ? 1.0f : 0.0f;
      }
    }
    return static_cast<XrResult>(acc);
  }

  double Measure(What what, XrTime time) {
    const std::int64_t t0 = MonotonicNs();
    XrResult r = XR_SUCCESS;
    float sum = 0;
    switch (what) {
      case What::Empty: break;
      case What::TinyRead:
        for (float f : tiny_) sum += f;
        break;
      case What::FloatsRead:
        // The same floats onFrame reads of a frame query: each space's y, the first view's first float, the actions' values.
        for (std::size_t i = 0; i < spaces_.size(); ++i) sum += out_[i * 8 + 1];
        sum += out_[spaces_.size() * 8];
        for (std::size_t i = 0; i < actions_.size(); ++i) sum += out_[spaces_.size() * 8 + kViews * 11 + i * 2];
        break;
      case What::DeliveryCopy:
        // The delivery's copy by itself: back to front, as FrameWaiter::Deliver's memcpy.
        std::memcpy(front_.data(), back_.data(), back_.size() * sizeof(float));
        if (!front_.empty()) sum += front_[front_.size() - 1];
        break;
      case What::FirstLocate: r = LocateInto(0, time); break;
      case What::Locates:
        for (std::size_t i = 0; i < spaces_.size(); ++i) r = static_cast<XrResult>(static_cast<int32_t>(r) | static_cast<int32_t>(LocateInto(i, time)));
        break;
      case What::Query: r = Query(time); break;
      case What::Views: r = LocateViews(time); break;
      case What::Actions: r = ReadActions(); break;
    }
    const std::int64_t t1 = MonotonicNs();
    Check(r, "a timed read");
    sink_ = sink_ + sum;  // keeps the reads
    return static_cast<double>(t1 - t0);
  }

  void DrainEvents() {
    for (int i = 0; i < 64; ++i) {
      XrEventDataBuffer event{XR_TYPE_EVENT_DATA_BUFFER, nullptr, {}};
      if (x_.PollEvent(instance_, &event) != XR_SUCCESS) break;
    }
  }

  void Setup(uint32_t spaceCount) {
    XrSystemGetInfo systemInfo{XR_TYPE_SYSTEM_GET_INFO, nullptr, XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
    XrSystemId system = XR_NULL_SYSTEM_ID;
    Check(x_.GetSystem(instance_, &systemInfo, &system), "xrGetSystem");
    XrSessionCreateInfo sessionInfo{XR_TYPE_SESSION_CREATE_INFO, nullptr, 0, system};
    Check(x_.CreateSession(instance_, &sessionInfo, &session_), "xrCreateSession (is XR_MND_headless enabled?)");
    XrReferenceSpaceCreateInfo spaceInfo{XR_TYPE_REFERENCE_SPACE_CREATE_INFO, nullptr, XR_REFERENCE_SPACE_TYPE_LOCAL, {{0, 0, 0, 1}, {0, 0, 0}}};
    Check(x_.CreateReferenceSpace(session_, &spaceInfo, &local_), "xrCreateReferenceSpace(LOCAL)");
    for (uint32_t i = 0; i < spaceCount; ++i) {
      // As the JavaScript side's spaces: view, stage, local in turn, each a centimetre further.
      XrReferenceSpaceCreateInfo info{XR_TYPE_REFERENCE_SPACE_CREATE_INFO, nullptr, kSpaceTypes[i % 3], {{0, 0, 0, 1}, {0.01f * static_cast<float>(i), 0, -0.01f * static_cast<float>(i)}}};
      XrSpace space = XR_NULL_HANDLE;
      Check(x_.CreateReferenceSpace(session_, &info, &space), "xrCreateReferenceSpace");
      spaces_.push_back(space);
    }
    try {
      SetupActions();
    } catch (const StepError& e) {
      actionsSkipped_ = std::string("actions unavailable on this runtime: ") + e.what();
      actions_.clear();
    }
    out_.assign(spaceCount * 8 + kViews * 11 + actions_.size() * 2, 0.0f);
    DrainEvents();
    XrSessionBeginInfo beginInfo{XR_TYPE_SESSION_BEGIN_INFO, nullptr, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO};
    Check(x_.BeginSession(session_, &beginInfo), "xrBeginSession");
    // One frame makes the session focused (action states become live).
    const XrTime time = WaitFrame();
    if (waitTimes_) {
      Check(x_.BeginFrame(session_, &beginInfo_), "xrBeginFrame");
      endInfo_.displayTime = time;
      Check(x_.EndFrame(session_, &endInfo_), "xrEndFrame");
    }
    DrainEvents();
    if (!actions_.empty()) {
      const XrActiveActionSet active{actionSet_, XR_NULL_PATH};
      const XrActionsSyncInfo syncInfo{XR_TYPE_ACTIONS_SYNC_INFO, nullptr, 1, &active};
      Check(x_.SyncActions(session_, &syncInfo), "xrSyncActions");
    }
  }

  void SetupActions() {
    XrActionSetCreateInfo setInfo{XR_TYPE_ACTION_SET_CREATE_INFO, nullptr, "paced", "Paced", 0};
    Check(x_.CreateActionSet(instance_, &setInfo, &actionSet_), "xrCreateActionSet");
    XrPath hands[2] = {XR_NULL_PATH, XR_NULL_PATH};
    Check(x_.StringToPath(instance_, "/user/hand/left", &hands[0]), "xrStringToPath");
    Check(x_.StringToPath(instance_, "/user/hand/right", &hands[1]), "xrStringToPath");
    XrAction select = XR_NULL_HANDLE, trigger = XR_NULL_HANDLE;
    XrActionCreateInfo info{XR_TYPE_ACTION_CREATE_INFO, nullptr, "select", XR_ACTION_TYPE_BOOLEAN_INPUT, 2, hands, "Select"};
    Check(x_.CreateAction(actionSet_, &info, &select), "xrCreateAction");
    info = XrActionCreateInfo{XR_TYPE_ACTION_CREATE_INFO, nullptr, "trigger", XR_ACTION_TYPE_FLOAT_INPUT, 2, hands, "Trigger"};
    Check(x_.CreateAction(actionSet_, &info, &trigger), "xrCreateAction");
    XrPath profile = XR_NULL_PATH, left = XR_NULL_PATH, right = XR_NULL_PATH;
    Check(x_.StringToPath(instance_, "/interaction_profiles/khr/simple_controller", &profile), "xrStringToPath");
    Check(x_.StringToPath(instance_, "/user/hand/left/input/select/click", &left), "xrStringToPath");
    Check(x_.StringToPath(instance_, "/user/hand/right/input/select/click", &right), "xrStringToPath");
    const XrActionSuggestedBinding suggested[] = {{select, left}, {select, right}, {trigger, left}, {trigger, right}};
    XrInteractionProfileSuggestedBinding suggestion{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING, nullptr, profile, 4, suggested};
    Check(x_.SuggestInteractionProfileBindings(instance_, &suggestion), "xrSuggestInteractionProfileBindings");
    XrSessionActionSetsAttachInfo attachInfo{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO, nullptr, 1, &actionSet_};
    Check(x_.AttachSessionActionSets(session_, &attachInfo), "xrAttachSessionActionSets");
    actions_ = {{select, hands[0]}, {select, hands[1]}, {trigger, hands[0]}, {trigger, hands[1]}};
  }

  void Teardown() noexcept {
    if (x_.DestroyActionSet != nullptr && actionSet_ != XR_NULL_HANDLE) x_.DestroyActionSet(actionSet_);
    if (x_.DestroySpace != nullptr) {
      for (XrSpace s : spaces_) x_.DestroySpace(s);
      if (local_ != XR_NULL_HANDLE) x_.DestroySpace(local_);
    }
    if (x_.DestroySession != nullptr && session_ != XR_NULL_HANDLE) x_.DestroySession(session_);
    if (ownInstance_ && x_.DestroyInstance != nullptr && instance_ != XR_NULL_HANDLE) x_.DestroyInstance(instance_);
    actionSet_ = XR_NULL_HANDLE;
    spaces_.clear();
    local_ = XR_NULL_HANDLE;
    session_ = XR_NULL_HANDLE;
    instance_ = XR_NULL_HANDLE;
  }

  Commands x_;
  XrInstance instance_;
  bool ownInstance_;
  XrSession session_ = XR_NULL_HANDLE;
  XrSpace local_ = XR_NULL_HANDLE;
  std::vector<XrSpace> spaces_;
  XrActionSet actionSet_ = XR_NULL_HANDLE;
  std::vector<std::pair<XrAction, XrPath>> actions_;
  std::string actionsSkipped_;
  std::vector<float> out_;
  std::vector<float> back_, front_;  // DeliveryCopy: the wait thread's buffer and the application's
  std::array<float, 4> tiny_{1, 2, 3, 4};
  volatile float sink_ = 0;
  bool waitTimes_ = true;
  std::int64_t nextDeadline_ = 0;
  XrFrameWaitInfo waitInfo_{XR_TYPE_FRAME_WAIT_INFO, nullptr};
  XrFrameBeginInfo beginInfo_{XR_TYPE_FRAME_BEGIN_INFO, nullptr};
  XrFrameEndInfo endInfo_{XR_TYPE_FRAME_END_INFO, nullptr, 0, XR_ENVIRONMENT_BLEND_MODE_OPAQUE, 0, nullptr};
};

// Another loader library's instance: XR_MND_headless, with XR_KHR_convert_timespec_time where the runtime offers it.
XrInstance CreateLibraryInstance(const DynamicLibrary& library) {
  const auto create = library.RequireFunction<PFN_xrCreateInstance>("xrCreateInstance");
  const auto enumerate = library.RequireFunction<PFN_xrEnumerateInstanceExtensionProperties>("xrEnumerateInstanceExtensionProperties");
  std::vector<const char*> extensions{"XR_MND_headless"};
  uint32_t count = 0;
  if (XR_SUCCEEDED(enumerate(nullptr, 0, &count, nullptr)) && count > 0) {
    std::vector<XrExtensionProperties> props(count, XrExtensionProperties{XR_TYPE_EXTENSION_PROPERTIES, nullptr, {}, 0});
    if (XR_SUCCEEDED(enumerate(nullptr, count, &count, props.data()))) {
      for (uint32_t i = 0; i < count; ++i) {
        if (std::strcmp(props[i].extensionName, "XR_KHR_convert_timespec_time") == 0) extensions.push_back("XR_KHR_convert_timespec_time");
      }
    }
  }
  XrInstanceCreateInfo info{};
  info.type = XR_TYPE_INSTANCE_CREATE_INFO;
  std::strncpy(info.applicationInfo.applicationName, "khronos-loader bench paced", XR_MAX_APPLICATION_NAME_SIZE - 1);
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.enabledExtensionNames = extensions.data();
  XrInstance instance = XR_NULL_HANDLE;
  Check(create(&info, &instance), "xrCreateInstance");
  return instance;
}

template <typename H>
Napi::Value HandleValue(Napi::Env env, H handle) {
  if constexpr (std::is_pointer_v<H>) {
    return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<std::uintptr_t>(handle)));
  } else {
    return Napi::BigInt::New(env, static_cast<uint64_t>(handle));
  }
}

class OpenXrPacedRig : public Napi::ObjectWrap<OpenXrPacedRig> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "OpenXrPacedRig",
                       {
                           InstanceMethod<&OpenXrPacedRig::Run>("run"),
                           InstanceMethod<&OpenXrPacedRig::Destroy>("destroy"),
                           InstanceAccessor<&OpenXrPacedRig::Handles>("handles"),
                       });
  }

  explicit OpenXrPacedRig(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrPacedRig>(info) {
    Napi::Env env = info.Env();
    const char* usage = "new OpenXrPacedRig({ instance?: OpenXrInstance, loaderLibrary?: string, spaces: number })";
    if (info.Length() < 1 || !info[0].IsObject()) throw ArgumentError(env, usage);
    const Napi::Object options = info[0].As<Napi::Object>();
    const Napi::Value spacesValue = options.Get("spaces");
    if (!spacesValue.IsNumber() || spacesValue.As<Napi::Number>().Uint32Value() == 0 || spacesValue.As<Napi::Number>().Uint32Value() > 256) {
      throw ArgumentError(env, std::string(usage) + ": spaces must be a whole number from 1 to 256");
    }
    const uint32_t spaces = spacesValue.As<Napi::Number>().Uint32Value();
    const Napi::Value instanceValue = options.Get("instance");
    const Napi::Value libraryValue = options.Get("loaderLibrary");
    try {
      if (!instanceValue.IsUndefined()) {
        const std::uint64_t handle = tools::HandleArgument(env, instanceValue, "instance");
        if (handle == 0) throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "the instance has been destroyed");
        if (instanceValue.IsObject()) ours_ = Napi::Persistent(instanceValue.As<Napi::Object>());
        const auto gipa = tools::LoaderAddon(env).RequireFunction<PFN_xrGetInstanceProcAddr>("xrGetInstanceProcAddr");
        rig_ = std::make_unique<Rig>(gipa, reinterpret_cast<XrInstance>(static_cast<std::uintptr_t>(handle)), false, spaces);
      } else if (libraryValue.IsString()) {
        library_ = DynamicLibrary::Open(libraryValue.As<Napi::String>().Utf8Value());
        const XrInstance instance = CreateLibraryInstance(*library_);
        rig_ = std::make_unique<Rig>(library_->RequireFunction<PFN_xrGetInstanceProcAddr>("xrGetInstanceProcAddr"), instance, true, spaces);
      } else {
        throw ArgumentError(env, usage);
      }
    } catch (const LibraryError& e) {
      throw LibraryErrorToJs(env, e);
    } catch (const StepError& e) {
      throw XrErrorToJs(env, e.result, std::string("paced bench setup: ") + e.what());
    }
  }

 private:
  Rig& Live(Napi::Env env) {
    if (!rig_) throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "the paced bench rig has been destroyed");
    return *rig_;
  }

  // run(what, durationMs) → Float64Array: ns of `what` per paced frame.
  Napi::Value Run(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Rig& rig = Live(env);
    std::string names;
    for (const auto& [name, what] : kWhats) names += (names.empty() ? "" : ", ") + std::string(name);
    const std::string usage = "run(what: " + names + ", durationMs: number, copyFloats?: number (delivery-copy: 1 to 65536))";
    if (info.Length() < 2 || !info[0].IsString() || !info[1].IsNumber()) throw ArgumentError(env, usage);
    const std::string name = info[0].As<Napi::String>().Utf8Value();
    const double durationMs = info[1].As<Napi::Number>().DoubleValue();
    const What* what = nullptr;
    for (const auto& entry : kWhats) {
      if (name == entry.first) what = &entry.second;
    }
    if (what == nullptr || !(durationMs > 0 && durationMs <= 600'000)) throw ArgumentError(env, usage + ": got " + name);
    if (rig.actions().empty() && (*what == What::Actions)) throw ArgumentError(env, "run('actions'): " + rig.actionsSkipped());
    uint32_t copyFloats = 0;
    if (*what == What::DeliveryCopy) {
      const double n = info.Length() > 2 && info[2].IsNumber() ? info[2].As<Napi::Number>().DoubleValue() : 0;
      if (!(n >= 1 && n <= 65536 && n == static_cast<double>(static_cast<uint32_t>(n)))) throw ArgumentError(env, usage + ": delivery-copy needs copyFloats");
      copyFloats = static_cast<uint32_t>(n);
    }
    std::vector<double> samples;
    try {
      samples = rig.Run(*what, durationMs, copyFloats);
    } catch (const StepError& e) {
      throw XrErrorToJs(env, e.result, std::string("paced bench: ") + e.what());
    }
    Napi::Float64Array out = Napi::Float64Array::New(env, samples.size());
    std::memcpy(out.Data(), samples.data(), samples.size() * sizeof(double));
    return out;
  }

  Napi::Value Handles(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const Rig& rig = Live(env);
    Napi::Object out = Napi::Object::New(env);
    out.Set("instance", HandleValue(env, rig.instance()));
    out.Set("session", HandleValue(env, rig.session()));
    out.Set("local", HandleValue(env, rig.local()));
    Napi::Array spaces = Napi::Array::New(env, rig.spaces().size());
    for (uint32_t i = 0; i < rig.spaces().size(); ++i) spaces.Set(i, HandleValue(env, rig.spaces()[i]));
    out.Set("spaces", spaces);
    Napi::Array actions = Napi::Array::New(env, rig.actions().size());
    for (uint32_t i = 0; i < rig.actions().size(); ++i) {
      Napi::Object a = Napi::Object::New(env);
      a.Set("action", HandleValue(env, rig.actions()[i].first));
      a.Set("subactionPath", HandleValue(env, rig.actions()[i].second));
      a.Set("type", i < 2 ? "boolean" : "float");
      actions.Set(i, a);
    }
    out.Set("actions", actions);
    out.Set("waitFrameTimes", Napi::Boolean::New(env, rig.waitTimes()));
    if (!rig.actionsSkipped().empty()) out.Set("actionsSkipped", rig.actionsSkipped());
    return out;
  }

  Napi::Value Destroy(const Napi::CallbackInfo& info) {
    rig_.reset();
    ours_.Reset();
    library_.reset();
    return info.Env().Undefined();
  }

  // Declared first so they outlive the rig: it destroys its handles through them.
  Napi::ObjectReference ours_;
  std::shared_ptr<DynamicLibrary> library_;
  std::unique_ptr<Rig> rig_;
};

}  // namespace

Napi::Function DefineOpenXrPacedRig(Napi::Env env) { return OpenXrPacedRig::Define(env); }

}  // namespace kl::napi::xr
