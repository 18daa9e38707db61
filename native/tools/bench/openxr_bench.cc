#include "tools/bench/openxr_bench.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dynamic_library.h"
#include "tools/bench/bench_timing.h"
#include "addon/errors.h"
#include "openxr/addon/xr_error_js.h"
#include "tools/loader_addon.h"

// The loader's exported functions this benchmark uses (setup, timed commands, teardown).
#define KL_BENCH_EXPORTS(X)                                                                                              \
  X(GetInstanceProcAddr)                                                                                                 \
  X(DestroyInstance) X(GetSystem) X(PollEvent) X(CreateSession) X(DestroySession) X(BeginSession) X(CreateReferenceSpace) \
      X(DestroySpace) X(LocateSpace) X(LocateViews) X(StringToPath) X(CreateActionSet) X(DestroyActionSet) X(CreateAction) \
          X(SuggestInteractionProfileBindings) X(AttachSessionActionSets) X(SyncActions) X(GetActionStateBoolean)         \
              X(WaitFrame) X(BeginFrame) X(EndFrame)

namespace kl::napi {

namespace {

struct LoaderExports {
#define KL_BENCH_MEMBER(Cmd) PFN_xr##Cmd Cmd = nullptr;
  KL_BENCH_EXPORTS(KL_BENCH_MEMBER)
#undef KL_BENCH_MEMBER
  PFN_xrCreateInstance CreateInstance = nullptr;

  // Throws LibraryError naming the first missing symbol.
  static LoaderExports From(const DynamicLibrary& library) {
    LoaderExports e;
#define KL_BENCH_DLSYM(Cmd) e.Cmd = library.RequireFunction<PFN_xr##Cmd>("xr" #Cmd);
    KL_BENCH_EXPORTS(KL_BENCH_DLSYM)
#undef KL_BENCH_DLSYM
    e.CreateInstance = library.RequireFunction<PFN_xrCreateInstance>("xrCreateInstance");
    return e;
  }
};

enum class Command { LocateSpace, LocateViews, GetActionStateBoolean, SyncActions, WaitFrame };

struct CommandInfo {
  Command command;
  const char* name;
};
constexpr std::array kCommands{
    CommandInfo{Command::LocateSpace, "xrLocateSpace"},
    CommandInfo{Command::LocateViews, "xrLocateViews"},
    CommandInfo{Command::GetActionStateBoolean, "xrGetActionStateBoolean"},
    CommandInfo{Command::SyncActions, "xrSyncActions"},
    CommandInfo{Command::WaitFrame, "xrWaitFrame"},
};

std::string SupportedList() {
  std::string out;
  for (const auto& c : kCommands) out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

// A failed setup step: the XrResult and which call.
struct StepError : std::runtime_error {
  StepError(XrResult r, const std::string& what) : std::runtime_error(what + " failed (XrResult " + std::to_string(r) + ")"), result(r) {}
  XrResult result;
};

void Check(XrResult r, const char* what) {
  if (XR_FAILED(r)) throw StepError(r, what);
}

using bench::Sample;

// Times `iterations` calls of `call(i)`. Any failed call fails the sample (the results are OR-ed:
// a negative XrResult keeps the sign bit).
template <typename F>
Sample TimeLoop(uint32_t iterations, F&& call) {
  int32_t acc = XR_SUCCESS;
  const Sample s = bench::TimeCalls(iterations, [&](uint32_t i) { acc |= static_cast<int32_t>(call(i)); });
  if (acc < 0) throw StepError(static_cast<XrResult>(acc), "a timed call");
  return s;
}

// The command's functions through one path: the loader's exports, or xrGetInstanceProcAddr's pointers.
struct Timed {
  PFN_xrLocateSpace LocateSpace = nullptr;
  PFN_xrLocateViews LocateViews = nullptr;
  PFN_xrGetActionStateBoolean GetActionStateBoolean = nullptr;
  PFN_xrSyncActions SyncActions = nullptr;
  PFN_xrWaitFrame WaitFrame = nullptr;
  PFN_xrBeginFrame BeginFrame = nullptr;
  PFN_xrEndFrame EndFrame = nullptr;
};

// Everything one command needs, created through a loader's exports and destroyed in reverse.
class Scenario {
 public:
  // With `ownInstance` the scenario created `instance` and destroys it last.
  Scenario(const LoaderExports& x, XrInstance instance, bool ownInstance, Command command)
      : x_(x), instance_(instance), ownInstance_(ownInstance), command_(command) {
    try {
      Setup();
    } catch (...) {
      Teardown();
      throw;
    }
  }
  ~Scenario() { Teardown(); }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  // The function xrGetInstanceProcAddr handed out for the command (the first of a frame's three).
  const void* TimedPointer() const {
    switch (command_) {
      case Command::LocateSpace: return reinterpret_cast<const void*>(pointers_.LocateSpace);
      case Command::LocateViews: return reinterpret_cast<const void*>(pointers_.LocateViews);
      case Command::GetActionStateBoolean: return reinterpret_cast<const void*>(pointers_.GetActionStateBoolean);
      case Command::SyncActions: return reinterpret_cast<const void*>(pointers_.SyncActions);
      case Command::WaitFrame: return reinterpret_cast<const void*>(pointers_.WaitFrame);
    }
    return nullptr;
  }

  Sample Measure(bool pointer, uint32_t iterations) {
    const Timed t = pointer ? pointers_ : exported_;
    switch (command_) {
      case Command::LocateSpace: {
        XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, nullptr, 0, {{0, 0, 0, 1}, {0, 0, 0}}};
        return TimeLoop(iterations, [&](uint32_t i) { return t.LocateSpace(view_, local_, time_ + i, &location); });
      }
      case Command::LocateViews: {
        XrViewLocateInfo locateInfo{XR_TYPE_VIEW_LOCATE_INFO, nullptr, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, time_, local_};
        XrViewState state{XR_TYPE_VIEW_STATE, nullptr, 0};
        std::array<XrView, 2> views{};
        for (auto& v : views) v.type = XR_TYPE_VIEW;
        uint32_t count = 0;
        return TimeLoop(iterations, [&](uint32_t i) {
          locateInfo.displayTime = time_ + i;
          return t.LocateViews(session_, &locateInfo, &state, static_cast<uint32_t>(views.size()), &count, views.data());
        });
      }
      case Command::GetActionStateBoolean: {
        const XrActionStateGetInfo getInfo{XR_TYPE_ACTION_STATE_GET_INFO, nullptr, action_, XR_NULL_PATH};
        XrActionStateBoolean state{XR_TYPE_ACTION_STATE_BOOLEAN, nullptr, XR_FALSE, XR_FALSE, 0, XR_FALSE};
        return TimeLoop(iterations, [&](uint32_t) { return t.GetActionStateBoolean(session_, &getInfo, &state); });
      }
      case Command::SyncActions: {
        const XrActiveActionSet active{actionSet_, XR_NULL_PATH};
        const XrActionsSyncInfo syncInfo{XR_TYPE_ACTIONS_SYNC_INFO, nullptr, 1, &active};
        return TimeLoop(iterations, [&](uint32_t) { return t.SyncActions(session_, &syncInfo); });
      }
      case Command::WaitFrame:
        return TimeLoop(iterations, [&](uint32_t) { return Frame(t); });
    }
    throw std::logic_error("unknown command");
  }

  XrInstance instance() const { return instance_; }
  XrSession session() const { return session_; }
  XrSpace view() const { return view_; }
  XrSpace local() const { return local_; }
  XrActionSet actionSet() const { return actionSet_; }
  XrAction action() const { return action_; }
  XrTime time() const { return time_; }

 private:
  template <typename Fn>
  Fn Pointer(const char* name) {
    PFN_xrVoidFunction f = nullptr;
    const XrResult r = x_.GetInstanceProcAddr(instance_, name, &f);
    if (XR_FAILED(r) || f == nullptr) throw StepError(XR_FAILED(r) ? r : XR_ERROR_FUNCTION_UNSUPPORTED, std::string("xrGetInstanceProcAddr(") + name + ")");
    return reinterpret_cast<Fn>(f);
  }

  bool NeedsActions() const { return command_ == Command::GetActionStateBoolean || command_ == Command::SyncActions; }
  bool NeedsRunning() const { return NeedsActions() || command_ == Command::WaitFrame; }

  XrResult Frame(const Timed& t) {
    XrFrameWaitInfo waitInfo{XR_TYPE_FRAME_WAIT_INFO, nullptr};
    XrFrameState state{XR_TYPE_FRAME_STATE, nullptr, 0, 0, XR_FALSE};
    XrResult r = t.WaitFrame(session_, &waitInfo, &state);
    if (XR_FAILED(r)) return r;
    // A headless session the runtime does not pace (Monado without a compositor answers
    // predictedDisplayTime 0) refuses xrBeginFrame; its state follows xrBeginSession alone.
    if (state.predictedDisplayTime == 0) return r;
    XrFrameBeginInfo beginInfo{XR_TYPE_FRAME_BEGIN_INFO, nullptr};
    r = t.BeginFrame(session_, &beginInfo);
    if (XR_FAILED(r)) return r;
    XrFrameEndInfo endInfo{XR_TYPE_FRAME_END_INFO, nullptr, state.predictedDisplayTime, XR_ENVIRONMENT_BLEND_MODE_OPAQUE, 0, nullptr};
    lastDisplayTime_ = state.predictedDisplayTime;
    return t.EndFrame(session_, &endInfo);
  }

  void DrainEvents() {
    XrEventDataBuffer event{};
    for (int i = 0; i < 64; ++i) {
      event = XrEventDataBuffer{XR_TYPE_EVENT_DATA_BUFFER, nullptr, {}};
      if (x_.PollEvent(instance_, &event) != XR_SUCCESS) break;
    }
  }

  void Setup() {
    XrSystemGetInfo systemInfo{XR_TYPE_SYSTEM_GET_INFO, nullptr, XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
    XrSystemId system = XR_NULL_SYSTEM_ID;
    Check(x_.GetSystem(instance_, &systemInfo, &system), "xrGetSystem");
    XrSessionCreateInfo sessionInfo{XR_TYPE_SESSION_CREATE_INFO, nullptr, 0, system};
    Check(x_.CreateSession(instance_, &sessionInfo, &session_), "xrCreateSession (is XR_MND_headless enabled?)");
    XrReferenceSpaceCreateInfo spaceInfo{XR_TYPE_REFERENCE_SPACE_CREATE_INFO, nullptr, XR_REFERENCE_SPACE_TYPE_LOCAL, {{0, 0, 0, 1}, {0, 0, 0}}};
    Check(x_.CreateReferenceSpace(session_, &spaceInfo, &local_), "xrCreateReferenceSpace(LOCAL)");
    spaceInfo.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
    Check(x_.CreateReferenceSpace(session_, &spaceInfo, &view_), "xrCreateReferenceSpace(VIEW)");

    if (NeedsActions()) {
      XrActionSetCreateInfo setInfo{XR_TYPE_ACTION_SET_CREATE_INFO, nullptr, "bench", "bench", 0};
      Check(x_.CreateActionSet(instance_, &setInfo, &actionSet_), "xrCreateActionSet");
      XrActionCreateInfo actionInfo{XR_TYPE_ACTION_CREATE_INFO, nullptr, "select", XR_ACTION_TYPE_BOOLEAN_INPUT, 0, nullptr, "select"};
      Check(x_.CreateAction(actionSet_, &actionInfo, &action_), "xrCreateAction");
      XrPath profile = XR_NULL_PATH, binding = XR_NULL_PATH;
      Check(x_.StringToPath(instance_, "/interaction_profiles/khr/simple_controller", &profile), "xrStringToPath");
      Check(x_.StringToPath(instance_, "/user/hand/left/input/select/click", &binding), "xrStringToPath");
      const XrActionSuggestedBinding suggested{action_, binding};
      XrInteractionProfileSuggestedBinding suggestion{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING, nullptr, profile, 1, &suggested};
      Check(x_.SuggestInteractionProfileBindings(instance_, &suggestion), "xrSuggestInteractionProfileBindings");
      XrSessionActionSetsAttachInfo attachInfo{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO, nullptr, 1, &actionSet_};
      Check(x_.AttachSessionActionSets(session_, &attachInfo), "xrAttachSessionActionSets");
    }
    if (NeedsRunning()) {
      DrainEvents();
      XrSessionBeginInfo beginInfo{XR_TYPE_SESSION_BEGIN_INFO, nullptr, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO};
      Check(x_.BeginSession(session_, &beginInfo), "xrBeginSession");
    }

    exported_ = Timed{x_.LocateSpace, x_.LocateViews, x_.GetActionStateBoolean, x_.SyncActions, x_.WaitFrame, x_.BeginFrame, x_.EndFrame};
    switch (command_) {
      case Command::LocateSpace: pointers_.LocateSpace = Pointer<PFN_xrLocateSpace>("xrLocateSpace"); break;
      case Command::LocateViews: pointers_.LocateViews = Pointer<PFN_xrLocateViews>("xrLocateViews"); break;
      case Command::GetActionStateBoolean:
        pointers_.GetActionStateBoolean = Pointer<PFN_xrGetActionStateBoolean>("xrGetActionStateBoolean");
        break;
      case Command::SyncActions: pointers_.SyncActions = Pointer<PFN_xrSyncActions>("xrSyncActions"); break;
      case Command::WaitFrame: break;
    }
    if (NeedsRunning()) {
      pointers_.WaitFrame = Pointer<PFN_xrWaitFrame>("xrWaitFrame");
      pointers_.BeginFrame = Pointer<PFN_xrBeginFrame>("xrBeginFrame");
      pointers_.EndFrame = Pointer<PFN_xrEndFrame>("xrEndFrame");
      // One frame makes the session focused (action states become live) and gives a display time.
      Check(Frame(exported_), "the first frame (xrWaitFrame, xrBeginFrame, xrEndFrame)");
      DrainEvents();
      if (lastDisplayTime_ != 0) time_ = lastDisplayTime_;
    }
  }

  void Teardown() noexcept {
    if (actionSet_ != XR_NULL_HANDLE) x_.DestroyActionSet(actionSet_);
    for (XrSpace* s : {&view_, &local_}) {
      if (*s != XR_NULL_HANDLE) x_.DestroySpace(*s);
      *s = XR_NULL_HANDLE;
    }
    if (session_ != XR_NULL_HANDLE) x_.DestroySession(session_);
    if (ownInstance_ && instance_ != XR_NULL_HANDLE) x_.DestroyInstance(instance_);
    actionSet_ = XR_NULL_HANDLE;
    action_ = XR_NULL_HANDLE;
    session_ = XR_NULL_HANDLE;
    instance_ = XR_NULL_HANDLE;
  }

  LoaderExports x_;
  XrInstance instance_;
  bool ownInstance_;
  Command command_;
  XrSession session_ = XR_NULL_HANDLE;
  XrSpace local_ = XR_NULL_HANDLE;
  XrSpace view_ = XR_NULL_HANDLE;
  XrActionSet actionSet_ = XR_NULL_HANDLE;
  XrAction action_ = XR_NULL_HANDLE;
  XrTime time_ = 1'000'000'000;  // any positive time when no frame ran
  XrTime lastDisplayTime_ = 0;
  Timed exported_;
  Timed pointers_;
};

// Another loader library's instance: the library stays open until the scenario is gone.
XrInstance CreateLibraryInstance(const LoaderExports& x) {
  const char* extensions[] = {"XR_MND_headless"};
  XrInstanceCreateInfo info{};
  info.type = XR_TYPE_INSTANCE_CREATE_INFO;
  std::strncpy(info.applicationInfo.applicationName, "khronos-loader bench", XR_MAX_APPLICATION_NAME_SIZE - 1);
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info.enabledExtensionCount = 1;
  info.enabledExtensionNames = extensions;
  XrInstance instance = XR_NULL_HANDLE;
  Check(x.CreateInstance(&info, &instance), "xrCreateInstance");
  return instance;
}

Napi::Value HandleValue64(Napi::Env env, uint64_t value) { return Napi::BigInt::New(env, value); }

// This package's instance: the OpenXrInstance of the product addon, or its handle.
XrInstance InstanceHandle(Napi::Env env, Napi::Value value) {
  const std::uint64_t handle = tools::HandleArgument(env, value, "instance");
  if (handle == 0) throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "the instance has been destroyed");
  return reinterpret_cast<XrInstance>(static_cast<std::uintptr_t>(handle));
}

template <typename H>
uint64_t Raw(H handle) {
  if constexpr (std::is_pointer_v<H>) {
    return static_cast<uint64_t>(reinterpret_cast<std::uintptr_t>(handle));
  } else {
    return static_cast<uint64_t>(handle);
  }
}

}  // namespace

class OpenXrBenchScenario : public Napi::ObjectWrap<OpenXrBenchScenario> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "OpenXrBenchScenario",
                       {
                           InstanceMethod<&OpenXrBenchScenario::Measure>("measure"),
                           InstanceMethod<&OpenXrBenchScenario::Destroy>("destroy"),
                           InstanceAccessor<&OpenXrBenchScenario::Handles>("handles"),
                           InstanceAccessor<&OpenXrBenchScenario::Time>("time"),
                           InstanceAccessor<&OpenXrBenchScenario::PointerOrigin>("pointerOrigin"),
                       });
  }

  explicit OpenXrBenchScenario(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrBenchScenario>(info) {
    Napi::Env env = info.Env();
    const char* usage = "new OpenXrBenchScenario({ command: string, instance?: OpenXrInstance, loaderLibrary?: string })";
    if (info.Length() < 1 || !info[0].IsObject()) throw ArgumentError(env, usage);
    const Napi::Object options = info[0].As<Napi::Object>();
    const Napi::Value commandValue = options.Get("command");
    if (!commandValue.IsString()) throw ArgumentError(env, usage);
    const std::string name = commandValue.As<Napi::String>().Utf8Value();
    const CommandInfo* command = nullptr;
    for (const auto& c : kCommands) {
      if (name == c.name) command = &c;
    }
    if (command == nullptr) throw ArgumentError(env, "the benchmark cannot time " + name + "; supported commands: " + SupportedList());

    const Napi::Value instanceValue = options.Get("instance");
    const Napi::Value libraryValue = options.Get("loaderLibrary");
    try {
      if (!instanceValue.IsUndefined()) {
        // This package's instance: its trampolines (native/openxr/loader/trampolines.cc), exported
        // by the product addon; the instance's JavaScript object is held while the scenario lives.
        const XrInstance instance = InstanceHandle(env, instanceValue);
        if (instanceValue.IsObject()) ours_ = Napi::Persistent(instanceValue.As<Napi::Object>());
        scenario_ = std::make_unique<Scenario>(LoaderExports::From(tools::LoaderAddon(env)), instance, false, command->command);
      } else if (libraryValue.IsString()) {
        library_ = DynamicLibrary::Open(libraryValue.As<Napi::String>().Utf8Value());
        const LoaderExports exports = LoaderExports::From(*library_);
        scenario_ = std::make_unique<Scenario>(exports, CreateLibraryInstance(exports), true, command->command);
      } else {
        throw ArgumentError(env, usage);
      }
    } catch (const LibraryError& e) {
      throw LibraryErrorToJs(env, e);
    } catch (const StepError& e) {
      throw XrErrorToJs(env, e.result, std::string(command->name) + " benchmark setup: " + e.what());
    }
  }

 private:
  Scenario& Live(Napi::Env env) {
    if (!scenario_) throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, "the benchmark scenario has been destroyed");
    return *scenario_;
  }

  Napi::Value Measure(const Napi::CallbackInfo& info) {
    Scenario& s = Live(info.Env());
    try {
      return bench::MeasureRepeats(info, [&](bool pointer, uint32_t iterations) { return s.Measure(pointer, iterations); });
    } catch (const StepError& e) {
      throw XrErrorToJs(info.Env(), e.result, std::string("benchmark: ") + e.what());
    }
  }

  Napi::Value Handles(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const Scenario& s = Live(env);
    Napi::Object out = Napi::Object::New(env);
    out.Set("instance", HandleValue64(env, Raw(s.instance())));
    out.Set("session", HandleValue64(env, Raw(s.session())));
    out.Set("space", HandleValue64(env, Raw(s.view())));
    out.Set("baseSpace", HandleValue64(env, Raw(s.local())));
    out.Set("actionSet", HandleValue64(env, Raw(s.actionSet())));
    out.Set("action", HandleValue64(env, Raw(s.action())));
    return out;
  }

  Napi::Value PointerOrigin(const Napi::CallbackInfo& info) { return bench::PointerOrigin(info.Env(), Live(info.Env()).TimedPointer()); }

  Napi::Value Time(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(Live(info.Env()).time())); }

  Napi::Value Destroy(const Napi::CallbackInfo& info) {
    scenario_.reset();
    ours_.Reset();
    library_.reset();
    return info.Env().Undefined();
  }

  // Declared first so they outlive the scenario: it destroys its handles through them.
  Napi::ObjectReference ours_;
  std::shared_ptr<DynamicLibrary> library_;
  std::unique_ptr<Scenario> scenario_;
};

Napi::Function DefineOpenXrBenchScenario(Napi::Env env) { return OpenXrBenchScenario::Define(env); }

Napi::Value BenchOpenXrLocateSpace(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[1].IsNumber() || !info[2].IsNumber()) {
    throw ArgumentError(env, "benchOpenXrLocateSpace(instance, iterations, repeats)");
  }
  const XrInstance instance = InstanceHandle(env, info[0]);
  const uint32_t iterations = std::max(1u, info[1].As<Napi::Number>().Uint32Value());
  const uint32_t repeats = std::max(1u, info[2].As<Napi::Number>().Uint32Value());
  double best[2] = {1e300, 1e300};
  try {
    Scenario s(LoaderExports::From(tools::LoaderAddon(env)), instance, false, Command::LocateSpace);
    for (int pointer = 0; pointer < 2; ++pointer) {
      s.Measure(pointer != 0, iterations / 10 + 1);  // warm-up
      for (uint32_t r = 0; r < repeats; ++r) best[pointer] = std::min(best[pointer], s.Measure(pointer != 0, iterations).wallNs);
    }
  } catch (const StepError& e) {
    throw XrErrorToJs(env, e.result, std::string("benchOpenXrLocateSpace: ") + e.what());
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("trampolineNs", Napi::Number::New(env, best[0]));
  out.Set("procAddrNs", Napi::Number::New(env, best[1]));
  return out;
}

Napi::Value OpenXrBenchCommands(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array out = Napi::Array::New(env, kCommands.size());
  for (uint32_t i = 0; i < kCommands.size(); ++i) out.Set(i, Napi::String::New(env, kCommands[i].name));
  return out;
}

}  // namespace kl::napi
