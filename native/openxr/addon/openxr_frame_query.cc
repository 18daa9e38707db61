#include "openxr/addon/openxr_frame_query.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "openxr/addon/openxr_actions.h"
#include "openxr/addon/openxr_handles.h"
#include "openxr/addon/openxr_session.h"
#include "openxr/addon/openxr_space.h"

namespace kl::napi::xr {

namespace {

// The spaces located against one base space: one xrLocateSpaces call.
struct BaseGroup {
  XrSpace base = XR_NULL_HANDLE;
  std::vector<XrSpace> spaces;
  std::vector<uint32_t> entries;  // each space's index in the query's list
  std::vector<XrSpaceLocationData> locations;
};

struct ActionEntry {
  const ActionCore* action = nullptr;  // owned by FrameQuery::actionOwners
  XrActionType type = XR_ACTION_TYPE_BOOLEAN_INPUT;
  XrActionStateGetInfo getInfo{XR_TYPE_ACTION_STATE_GET_INFO, nullptr, XR_NULL_HANDLE, XR_NULL_PATH};
};

}  // namespace

struct FrameQuery : BoundData {
  static constexpr BoundKind kKind = BoundKind::kFrameQuery;
  FrameQuery() noexcept : BoundData(kKind) {}
  std::shared_ptr<SessionCore> session;
  // Owners of the cores the raw pointers below point into.
  std::vector<std::shared_ptr<SpaceCore>> spaceOwners;
  std::vector<std::shared_ptr<ActionCore>> actionOwners;

  // Spaces: entry i locates located[i] in bases[i]; `distinct` is every space core once (checked
  // whenever the session's count of destroyed spaces moved from `spacesDestroyedSeen`).
  std::vector<const SpaceCore*> located, bases, distinct;
  uint64_t spacesDestroyedSeen = 0;
  std::vector<XrSpace> locatedHandles, baseHandles;
  PFN_xrLocateSpace locateSpace = nullptr;
  PFN_xrLocateSpaces locateSpaces = nullptr;  // set: the xrLocateSpaces path
  std::vector<XrSpaceLocation> locations;     // the xrLocateSpace path's, one per space
  std::vector<BaseGroup> groups;

  // Views.
  const SpaceCore* viewSpace = nullptr;
  PFN_xrLocateViews locateViews = nullptr;
  XrViewConfigurationType viewType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  std::vector<XrView> views;
  std::size_t viewOffset = 0;

  // Actions.
  std::vector<ActionEntry> actions;
  PFN_xrGetActionStateBoolean getBoolean = nullptr;
  PFN_xrGetActionStateFloat getFloat = nullptr;
  PFN_xrGetActionStateVector2f getVector2f = nullptr;
  PFN_xrGetActionStatePose getPose = nullptr;
  std::size_t actionOffset = 0;

  float* out = nullptr;
  std::size_t floats = 0;
  Napi::Reference<Napi::Value> keep;  // the Float32Array, so `out` stays valid
};

namespace {

// A step's failure: the result and the message the OpenXrError will carry. Filled only on
// failure (the wait thread builds it without JavaScript; the JavaScript thread throws it).
struct Failure {
  XrResult result = XR_SUCCESS;
  std::string message;
};

bool Fail(Failure& failure, XrResult result, std::string message) {
  failure.result = result;
  failure.message = std::move(message);
  return false;
}

// The first destroyed handle of the query, named by its place in the list; empty when all live.
std::string FirstDestroyed(const FrameQuery& q) {
  for (std::size_t i = 0; i < q.located.size(); ++i) {
    if (q.located[i]->destroyed) return "spaces[" + std::to_string(i) + "].space";
    if (q.bases[i]->destroyed) return "spaces[" + std::to_string(i) + "].base";
  }
  if (q.viewSpace != nullptr && q.viewSpace->destroyed) return "views.space";
  for (std::size_t i = 0; i < q.actions.size(); ++i) {
    if (q.actions[i].action->destroyed) return "actions[" + std::to_string(i) + "].action";
    if (q.actions[i].action->set->destroyed) return "actions[" + std::to_string(i) + "].action's action set";
  }
  return {};
}

// Every handle still alive? The session (and with it the instance) is checked first; the spaces
// only when one of the session's spaces was destroyed since they were last found alive; each
// action's own flag (they all belong to the session's instance, checked when bound).
bool AllAlive(FrameQuery& q) {
  if (q.session->spacesDestroyed != q.spacesDestroyedSeen) {
    for (const SpaceCore* s : q.distinct) {
      if (s->destroyed) return false;
    }
    if (q.viewSpace != nullptr && q.viewSpace->destroyed) return false;
    q.spacesDestroyedSeen = q.session->spacesDestroyed;
  }
  for (const ActionEntry& a : q.actions) {
    if (a.action->destroyed || a.action->set->destroyed) return false;
  }
  return true;
}

// px py pz qx qy qz qw flags: position and orientation as two block copies (XrPosef holds the
// orientation first), so the per-space cost over the runtime's stays a few instructions.
inline void WriteLocation(float* o, const XrPosef& pose, XrSpaceLocationFlags flags) noexcept {
  static_assert(sizeof(XrVector3f) == 3 * sizeof(float) && sizeof(XrQuaternionf) == 4 * sizeof(float));
  std::memcpy(o, &pose.position, sizeof(XrVector3f));
  std::memcpy(o + 3, &pose.orientation, sizeof(XrQuaternionf));
  o[7] = static_cast<float>(static_cast<uint32_t>(flags));  // the defined bits are the low four: one conversion instruction
}

bool LocateSpaces(Failure& failure, FrameQuery& q, XrTime time) {
  float* out = q.out;
  if (q.locateSpaces != nullptr) {
    for (BaseGroup& g : q.groups) {
      const auto count = static_cast<uint32_t>(g.spaces.size());
      const XrSpacesLocateInfo locateInfo{XR_TYPE_SPACES_LOCATE_INFO, nullptr, g.base, time, count, g.spaces.data()};
      XrSpaceLocations locations{XR_TYPE_SPACE_LOCATIONS, nullptr, count, g.locations.data()};
      const XrResult r = q.locateSpaces(q.session->handle, &locateInfo, &locations);
      if (XR_FAILED(r)) {
        return Fail(failure, r, "xrLocateSpaces failed (frame query: the spaces located in the base of spaces[" + std::to_string(g.entries[0]) + "])");
      }
      // Locals, not the vectors' members: the copies' stores could alias those, and every
      // iteration would load them again.
      const XrSpaceLocationData* located = g.locations.data();
      const uint32_t* entries = g.entries.data();
      for (uint32_t k = 0; k < count; ++k) WriteLocation(out + entries[k] * kFrameSpaceFloats, located[k].pose, located[k].locationFlags);
    }
    return true;
  }
  const std::size_t n = q.locatedHandles.size();
  const PFN_xrLocateSpace locate = q.locateSpace;
  const XrSpace* spaces = q.locatedHandles.data();
  const XrSpace* bases = q.baseHandles.data();
  // A structure per space, every call first, then the copies: read right after the runtime's
  // own stores, a copy waits on them (their widths need not match its loads).
  XrSpaceLocation* located = q.locations.data();
  for (std::size_t i = 0; i < n; ++i) {
    const XrResult r = locate(spaces[i], bases[i], time, &located[i]);
    if (XR_FAILED(r)) return Fail(failure, r, "xrLocateSpace failed (frame query: spaces[" + std::to_string(i) + "])");
  }
  for (std::size_t i = 0; i < n; ++i) WriteLocation(out + i * kFrameSpaceFloats, located[i].pose, located[i].locationFlags);
  return true;
}

bool LocateViews(Failure& failure, FrameQuery& q, XrTime time) {
  const XrViewLocateInfo locateInfo{XR_TYPE_VIEW_LOCATE_INFO, nullptr, q.viewType, time, q.viewSpace->handle};
  XrViewState state{XR_TYPE_VIEW_STATE, nullptr, 0};
  uint32_t count = 0;
  const auto capacity = static_cast<uint32_t>(q.views.size());
  const XrResult r = q.locateViews(q.session->handle, &locateInfo, &state, capacity, &count, q.views.data());
  if (XR_FAILED(r)) return Fail(failure, r, "xrLocateViews failed (frame query)");
  float* o = q.out + q.viewOffset;
  o[0] = static_cast<float>(state.viewStateFlags);
  ++o;
  for (uint32_t i = 0; i < count && i < capacity; ++i, o += kFrameViewFloats) {
    const XrView& v = q.views[i];
    WritePose(o, v.pose);
    o[7] = v.fov.angleLeft;
    o[8] = v.fov.angleRight;
    o[9] = v.fov.angleUp;
    o[10] = v.fov.angleDown;
  }
  return true;
}

bool ReadActions(Failure& failure, FrameQuery& q) {
  float* o = q.out + q.actionOffset;
  const XrSession session = q.session->handle;
  for (std::size_t i = 0; i < q.actions.size(); ++i, o += kFrameActionFloats) {
    const ActionEntry& a = q.actions[i];
    XrResult r = XR_SUCCESS;
    switch (a.type) {
      case XR_ACTION_TYPE_BOOLEAN_INPUT: {
        XrActionStateBoolean s{XR_TYPE_ACTION_STATE_BOOLEAN, nullptr, XR_FALSE, XR_FALSE, 0, XR_FALSE};
        r = q.getBoolean(session, &a.getInfo, &s);
        o[0] = s.currentState == XR_TRUE ? 1.0f : 0.0f;
        o[1] = 0;
        o[2] = s.changedSinceLastSync == XR_TRUE ? 1.0f : 0.0f;
        o[3] = s.isActive == XR_TRUE ? 1.0f : 0.0f;
        break;
      }
      case XR_ACTION_TYPE_FLOAT_INPUT: {
        XrActionStateFloat s{XR_TYPE_ACTION_STATE_FLOAT, nullptr, 0, XR_FALSE, 0, XR_FALSE};
        r = q.getFloat(session, &a.getInfo, &s);
        o[0] = s.currentState;
        o[1] = 0;
        o[2] = s.changedSinceLastSync == XR_TRUE ? 1.0f : 0.0f;
        o[3] = s.isActive == XR_TRUE ? 1.0f : 0.0f;
        break;
      }
      case XR_ACTION_TYPE_VECTOR2F_INPUT: {
        XrActionStateVector2f s{XR_TYPE_ACTION_STATE_VECTOR2F, nullptr, {0, 0}, XR_FALSE, 0, XR_FALSE};
        r = q.getVector2f(session, &a.getInfo, &s);
        o[0] = s.currentState.x;
        o[1] = s.currentState.y;
        o[2] = s.changedSinceLastSync == XR_TRUE ? 1.0f : 0.0f;
        o[3] = s.isActive == XR_TRUE ? 1.0f : 0.0f;
        break;
      }
      default: {
        XrActionStatePose s{XR_TYPE_ACTION_STATE_POSE, nullptr, XR_FALSE};
        r = q.getPose(session, &a.getInfo, &s);
        o[0] = 0;
        o[1] = 0;
        o[2] = 0;
        o[3] = s.isActive == XR_TRUE ? 1.0f : 0.0f;
        break;
      }
    }
    if (XR_FAILED(r)) return Fail(failure, r, "xrGetActionState failed (frame query: actions[" + std::to_string(i) + "])");
  }
  return true;
}

// Every step at `time` (each fails with its result; the output then holds what came before it).
// No JavaScript: the wait thread runs this too.
bool RunSteps(Failure& failure, FrameQuery& q, XrTime time) {
  if (!q.locatedHandles.empty() && !LocateSpaces(failure, q, time)) return false;
  if (q.viewSpace != nullptr && !LocateViews(failure, q, time)) return false;
  return q.actions.empty() || ReadActions(failure, q);
}

}  // namespace

napi_value RunFrameQuery(napi_env env, napi_callback_info info) {
  FrameQuery* q = nullptr;
  XrTime t = 0;
  if (!BoundTimeCall(env, info, &q, &t, "openxrRunFrameQuery(query, time): query must be a bound frame query",
                     "frame query: time")) {
    return nullptr;
  }
  if (!q->session->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), "frame query's session"));
  if (!AllAlive(*q)) {
    ThrowFromCallback(XrErrorToJs(Napi::Env(env), XR_ERROR_HANDLE_INVALID, "frame query: " + FirstDestroyed(*q) + " has been destroyed (bind a new query without it)"));
    return nullptr;
  }
  Failure failure;
  if (!RunSteps(failure, *q, t)) ThrowFromCallback(XrErrorToJs(Napi::Env(env), failure.result, failure.message));
  return nullptr;
}

namespace {

// A live space of `session` (the space's own errors when destroyed; VALIDATION_FAILURE naming
// `what` when it belongs to another session).
std::shared_ptr<SpaceCore> SessionSpace(Napi::Env env, Napi::Value value, const std::shared_ptr<SessionCore>& session, const std::string& what) {
  std::shared_ptr<SpaceCore> space = OpenXrSpace::From(env, value)->Live(env);
  if (space->session != session) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "frame query: " + what + " belongs to another session");
  return space;
}

void BindSpaces(Napi::Env env, FrameQuery& q, Napi::Array spaces, Napi::Array bases, bool allowLocateSpaces) {
  if (spaces.Length() != bases.Length()) throw ArgumentError(env, "frame query: spaces and bases must have the same length");
  std::vector<const SpaceCore*>& distinct = q.distinct;
  auto own = [&](std::shared_ptr<SpaceCore> core) {
    const SpaceCore* raw = core.get();
    bool seen = false;
    for (const SpaceCore* d : distinct) seen = seen || d == raw;
    if (!seen) {
      distinct.push_back(raw);
      q.spaceOwners.push_back(std::move(core));
    }
    return raw;
  };
  for (uint32_t i = 0; i < spaces.Length(); ++i) {
    const std::string at = "spaces[" + std::to_string(i) + "]";
    const SpaceCore* space = own(SessionSpace(env, spaces.Get(i), q.session, at + ".space"));
    const SpaceCore* base = own(SessionSpace(env, bases.Get(i), q.session, at + ".base"));
    q.located.push_back(space);
    q.bases.push_back(base);
    q.locatedHandles.push_back(space->handle);
    q.baseHandles.push_back(base->handle);
  }
  if (q.located.empty()) return;
  const LoaderInstance& li = *q.session->instance;
  // xrLocateSpaces is an OpenXR 1.1 command: only a 1.1 instance may call it, and only when the
  // call chain (the runtime, or a layer) provides it.
  if (allowLocateSpaces && li.requestedApiVersion() >= XR_MAKE_VERSION(1, 1, 0) && li.table.LocateSpaces != nullptr) {
    q.locateSpaces = li.table.LocateSpaces;
    for (uint32_t i = 0; i < q.located.size(); ++i) {
      BaseGroup* group = nullptr;
      for (BaseGroup& g : q.groups) {
        if (g.base == q.baseHandles[i]) group = &g;
      }
      if (group == nullptr) {
        q.groups.emplace_back();
        group = &q.groups.back();
        group->base = q.baseHandles[i];
      }
      group->spaces.push_back(q.locatedHandles[i]);
      group->entries.push_back(i);
    }
    for (BaseGroup& g : q.groups) g.locations.assign(g.spaces.size(), XrSpaceLocationData{0, {{0, 0, 0, 1}, {0, 0, 0}}});
  } else {
    q.locateSpace = Need(env, li.table.LocateSpace, "xrLocateSpace");
    q.locations.assign(q.located.size(), XrSpaceLocation{XR_TYPE_SPACE_LOCATION, nullptr, 0, {{0, 0, 0, 1}, {0, 0, 0}}});
  }
}

void BindViews(Napi::Env env, FrameQuery& q, Napi::Value value) {
  if (value.IsUndefined() || value.IsNull()) return;
  const char* usage = "frame query: views must be { space, viewConfigurationType: number, viewCount: number }";
  if (!value.IsObject()) throw ArgumentError(env, usage);
  Napi::Object views = value.As<Napi::Object>();
  const Napi::Value type = views.Get("viewConfigurationType");
  const Napi::Value count = views.Get("viewCount");
  if (!type.IsNumber() || !count.IsNumber()) throw ArgumentError(env, usage);
  const uint32_t viewCount = count.As<Napi::Number>().Uint32Value();
  if (viewCount == 0 || viewCount > 64) throw ArgumentError(env, "frame query: viewCount must be 1..64");
  std::shared_ptr<SpaceCore> space = SessionSpace(env, views.Get("space"), q.session, "views.space");
  q.locateViews = Need(env, q.session->instance->table.LocateViews, "xrLocateViews");
  q.viewType = static_cast<XrViewConfigurationType>(type.As<Napi::Number>().Int32Value());
  q.views.assign(viewCount, XrView{XR_TYPE_VIEW, nullptr, {{0, 0, 0, 1}, {0, 0, 0}}, {0, 0, 0, 0}});
  q.viewSpace = space.get();
  q.spaceOwners.push_back(std::move(space));
}

void BindActions(Napi::Env env, FrameQuery& q, Napi::Array actions) {
  const auto& t = q.session->instance->table;
  for (uint32_t i = 0; i < actions.Length(); ++i) {
    const std::string at = "actions[" + std::to_string(i) + "]";
    const Napi::Value item = actions.Get(i);
    if (!item.IsObject()) throw ArgumentError(env, "frame query: " + at + " must be { action, subactionPath? }");
    const Napi::Object entry = item.As<Napi::Object>();
    std::shared_ptr<ActionCore> action = OpenXrAction::From(env, entry.Get("action"))->Live(env);
    if (action->set->instance != q.session->instance) {
      throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "frame query: " + at + " belongs to another instance");
    }
    ActionEntry a;
    a.action = action.get();
    a.type = action->type;
    a.getInfo.action = action->handle;
    a.getInfo.subactionPath = PathArgument(env, entry.Get("subactionPath"), (at + ".subactionPath").c_str());
    switch (a.type) {
      case XR_ACTION_TYPE_BOOLEAN_INPUT: q.getBoolean = Need(env, t.GetActionStateBoolean, "xrGetActionStateBoolean"); break;
      case XR_ACTION_TYPE_FLOAT_INPUT: q.getFloat = Need(env, t.GetActionStateFloat, "xrGetActionStateFloat"); break;
      case XR_ACTION_TYPE_VECTOR2F_INPUT: q.getVector2f = Need(env, t.GetActionStateVector2f, "xrGetActionStateVector2f"); break;
      case XR_ACTION_TYPE_POSE_INPUT: q.getPose = Need(env, t.GetActionStatePose, "xrGetActionStatePose"); break;
      default:
        throw XrErrorToJs(env, XR_ERROR_ACTION_TYPE_MISMATCH, "frame query: " + at + " is an output action; a query reads boolean, float, vector2f and pose actions");
    }
    q.actions.push_back(a);
    q.actionOwners.push_back(std::move(action));
  }
}

}  // namespace

Napi::Value BindFrameQuery(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6 || !info[1].IsArray() || !info[2].IsArray() || !info[4].IsArray()) {
    throw ArgumentError(env,
                        "openxrBindFrameQuery(session, spaces: Space[], bases: Space[], views | null, actions: { action, subactionPath? }[], out: Float32Array, "
                        "allowLocateSpaces?: boolean)");
  }
  const bool allowLocateSpaces = info.Length() < 7 || info[6].IsUndefined() || info[6].ToBoolean().Value();
  auto q = std::make_unique<FrameQuery>();
  q->session = OpenXrSession::From(env, info[0])->Live(env);
  q->spacesDestroyedSeen = q->session->spacesDestroyed;  // the spaces are checked alive as they are bound
  BindSpaces(env, *q, info[1].As<Napi::Array>(), info[2].As<Napi::Array>(), allowLocateSpaces);
  BindViews(env, *q, info[3]);
  BindActions(env, *q, info[4].As<Napi::Array>());
  if (q->located.empty() && q->viewSpace == nullptr && q->actions.empty()) throw ArgumentError(env, "frame query: nothing to query (no spaces, views or actions)");
  q->viewOffset = q->located.size() * kFrameSpaceFloats;
  q->actionOffset = q->viewOffset + (q->viewSpace != nullptr ? 1 + q->views.size() * kFrameViewFloats : 0);
  const std::size_t floats = q->actionOffset + q->actions.size() * kFrameActionFloats;
  q->out = Float32Data(env, info[5], floats, "out");
  q->floats = floats;
  q->keep = Napi::Persistent(info[5]);
  const char* path = q->locateSpaces != nullptr ? "xrLocateSpaces" : (q->locateSpace != nullptr ? "xrLocateSpace" : "none");
  Napi::Object bound = Napi::Object::New(env);
  bound.Set("query", MakeBoundData(env, std::move(q)));
  bound.Set("locatePath", Napi::String::New(env, path));
  bound.Set("floats", Napi::Number::New(env, static_cast<double>(floats)));
  return bound;
}

// --- The wait thread's query (openxr_frame.cc, FrameWaiter; docs/usage.md, "Reads done before
// JavaScript wakes").

FrameQuery* FrameQueryOf(Napi::Env env, Napi::Value value) {
  void* raw = nullptr;
  if (value.Type() != napi_external || napi_get_value_external(env, value, &raw) != napi_ok || raw == nullptr ||
      static_cast<BoundData*>(raw)->kind != FrameQuery::kKind) {
    throw ArgumentError(env, "a bound frame query");
  }
  return static_cast<FrameQuery*>(static_cast<BoundData*>(raw));
}

const std::shared_ptr<SessionCore>& FrameQuerySession(const FrameQuery& q) noexcept { return q.session; }

std::size_t FrameQueryFloats(const FrameQuery& q) noexcept { return q.floats; }

const float* FrameQueryOutput(const FrameQuery& q) noexcept { return q.out; }

std::string FrameQueryDestroyed(FrameQuery& q) { return AllAlive(q) ? std::string() : FirstDestroyed(q); }

void PinFrameQuery(FrameQuery& q, bool pin) noexcept {
  auto step = [pin](uint32_t& pins) { pins = pin ? pins + 1 : pins - 1; };
  // The owners hold every core the query uses (the view space among the spaces' owners).
  for (const auto& s : q.spaceOwners) step(s->waitPins);
  for (const auto& a : q.actionOwners) {
    step(a->waitPins);
    step(a->set->waitPins);
  }
}

bool RunFrameQueryOffThread(FrameQuery& q, XrTime time, XrResult& result, std::string& message) {
  Failure failure;
  if (RunSteps(failure, q, time)) return true;
  result = failure.result;
  message = std::move(failure.message);
  return false;
}

}  // namespace kl::napi::xr
