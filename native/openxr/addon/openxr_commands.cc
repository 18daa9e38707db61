#include "openxr/addon/openxr_commands.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "addon/errors.h"
#include "openxr/addon/openxr.h"
#include "addon/marshal/struct_marshaller.h"
#include "generated/openxr_marshal.h"
#include "openxr/loader/instance_registry.h"
#include "openxr/loader/published_plan.h"
#include "openxr/loader/trampolines.h"

namespace kl::napi::xr {

namespace marshal = khronos_loader::generated::marshal;
using kl::marshal::Arena;
using kl::marshal::PendingTwoCall;
using kl::marshal::StructMarshaller;
using marshal::Field;
using marshal::Scalar;
using marshal::Shape;

namespace {

constexpr std::size_t kCommandCount = std::size(marshal::kCommands);
constexpr std::size_t kMaxParams = 16;
static_assert(std::all_of(std::begin(marshal::kCommands), std::end(marshal::kCommands), [](const marshal::Command& c) { return c.paramCount <= kMaxParams; }),
              "a command has more parameters than the call slots");

// The commands the loader answers itself rather than the chain: the pre-instance ones (from the
// published plan), xrGetInstanceProcAddr (the loader's answer) and xrDestroyInstance (down the
// chain, then the loader lets the libraries go). Built once from the constant table.
const std::array<PFN_xrVoidFunction, kCommandCount>& LoaderEntryPoints() {
  static const std::array<PFN_xrVoidFunction, kCommandCount> table = [] {
    std::array<PFN_xrVoidFunction, kCommandCount> t{};
    for (std::size_t i = 0; i < kCommandCount; ++i) {
      const std::string_view name = marshal::kCommands[i].name;
      if (name == "xrCreateInstance") t[i] = reinterpret_cast<PFN_xrVoidFunction>(::xrCreateInstance);
      if (name == "xrEnumerateApiLayerProperties") t[i] = reinterpret_cast<PFN_xrVoidFunction>(::xrEnumerateApiLayerProperties);
      if (name == "xrEnumerateInstanceExtensionProperties") t[i] = reinterpret_cast<PFN_xrVoidFunction>(::xrEnumerateInstanceExtensionProperties);
      if (name == "xrGetInstanceProcAddr") t[i] = reinterpret_cast<PFN_xrVoidFunction>(::xrGetInstanceProcAddr);
      if (name == "xrDestroyInstance") t[i] = reinterpret_cast<PFN_xrVoidFunction>(::xrDestroyInstance);
    }
    return t;
  }();
  return table;
}

bool NeedsNoInstance(std::string_view name) {
  return name == "xrCreateInstance" || name == "xrEnumerateApiLayerProperties" || name == "xrEnumerateInstanceExtensionProperties";
}

// The same rule as takesArgument in scripts/generator/marshal-model.ts.
bool TakesArgument(const Field& f) {
  if (f.shape == Shape::Count || f.shape == Shape::Capacity || f.shape == Shape::CountOutput) return false;
  if ((f.flags & marshal::kOutput) == 0) return true;
  if (f.shape == Shape::Array) return f.structIndex >= 0 || f.countOutputIndex < 0;
  return f.structIndex >= 0 && f.shape == Shape::Pointer;
}

bool IsAbsent(const Napi::Value& v) { return v.IsUndefined() || v.IsNull(); }

// Whether the instance enabled one of the extensions in a space-separated list.
bool AnyEnabled(const openxr::LoaderInstance& li, std::string_view list) {
  while (!list.empty()) {
    const std::size_t end = list.find(' ');
    if (li.extensionEnabled(list.substr(0, end))) return true;
    list = end == std::string_view::npos ? std::string_view{} : list.substr(end + 1);
  }
  return false;
}

// One call's marshalled parameters.
struct CallFrame {
  std::array<marshal::Arg, kMaxParams> args{};
  std::array<void*, kMaxParams> out{};  // where each output parameter points
  std::array<Napi::Value, kMaxParams> templates{};
  std::array<std::int32_t, kMaxParams> elementStruct{};  // two-call arrays of a base header: the concrete structure
  std::vector<std::uint32_t> twoCall;     // parameters that are two-call arrays
};

}  // namespace

Napi::Function OpenXrCommands::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrCommands",
                     {
                         InstanceMethod<&OpenXrCommands::Call>("call"),
                         InstanceAccessor<&OpenXrCommands::Handle>("instance"),
                     });
}

OpenXrCommands::OpenXrCommands(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrCommands>(info) {
  Napi::Env env = info.Env();
  if (info.Length() == 0 || IsAbsent(info[0])) return;
  if (info[0].IsBigInt()) {
    bool lossless = true;
    const std::uint64_t handle = info[0].As<Napi::BigInt>().Uint64Value(&lossless);
    openxr::LoaderInstance* li = openxr::InstanceRegistry::Get().FindByHandle(handle);
    instance_ = openxr::PublishedPlans::Get().FindNativeInstance(li);
    if (!instance_) {
      throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID,
                        "XrInstance " + std::to_string(handle) + " was not created by the generated xrCreateInstance (pass the Instance object instead)");
    }
    return;
  }
  instance_ = OpenXrInstance::LiveInstanceShared(env, info[0]);
}

Napi::Value OpenXrCommands::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!instance_) return env.Null();
  return Napi::BigInt::New(env, openxr::HandleValue(instance_->handle()));
}

openxr::LoaderInstance& OpenXrCommands::Live(Napi::Env env, const char* command) const {
  if (!instance_) {
    throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, std::string(command) + " needs an instance: these bindings were made without one");
  }
  if (instance_->destroyed()) throw XrErrorToJs(env, XR_ERROR_HANDLE_INVALID, std::string(command) + ": the instance has been destroyed");
  return *instance_;
}

Napi::Value OpenXrCommands::Call(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsNumber() || !info[1].IsArray()) throw ArgumentError(env, "call(index: number, args: unknown[])");
  const std::uint32_t index = info[0].As<Napi::Number>().Uint32Value();
  if (index >= kCommandCount) throw ArgumentError(env, "call: no command " + std::to_string(index));
  const marshal::Command& cmd = marshal::kCommands[index];
  Napi::Array jsArgs = info[1].As<Napi::Array>();

  // What to call: the loader's own entry point, or the instance's table — and whether this
  // instance may call it at all, decided before anything is marshalled.
  PFN_xrVoidFunction fn = LoaderEntryPoints()[index];
  openxr::LoaderInstance* li = nullptr;
  if (!NeedsNoInstance(cmd.name)) li = &Live(env, cmd.name);
  if (fn == nullptr) {
    if (cmd.coreMinor == 0xffff && !AnyEnabled(*li, cmd.extensions)) {
      throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED,
                        std::string(cmd.name) + " belongs to " + cmd.extensions + ", which this instance did not enable");
    }
    if (cmd.coreMinor != 0xffff && XR_VERSION_MINOR(li->requestedApiVersion()) < cmd.coreMinor && XR_VERSION_MAJOR(li->requestedApiVersion()) == 1) {
      throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED,
                        std::string(cmd.name) + " is OpenXR 1." + std::to_string(cmd.coreMinor) + "; this instance asked for " + openxr::VersionString(li->requestedApiVersion()));
    }
    if (cmd.dispatchIndex == marshal::kByName) {
      // Outside the dispatch table (the Vulkan graphics binding): the loader's xrGetInstanceProcAddr.
      if (XR_FAILED(li->GetInstanceProcAddr(cmd.name, &fn))) fn = nullptr;
    } else {
      fn = khronos_loader::generated::getXrCommand(li->table, cmd.dispatchIndex);
    }
    if (fn == nullptr) throw XrErrorToJs(env, XR_ERROR_FUNCTION_UNSUPPORTED, std::string(cmd.name) + " is not provided by the runtime or a layer");
  }

  Arena arena;
  StructMarshaller m(env, arena, marshal::Tables());
  CallFrame frame;
  const Field* params = &marshal::kParams[cmd.firstParam];
  std::uint32_t next = 0;
  for (std::uint32_t i = 0; i < cmd.paramCount; ++i) {
    const Field& f = params[i];
    const bool output = (f.flags & marshal::kOutput) != 0;
    const bool optional = (f.flags & marshal::kOptional) != 0;
    Napi::Value v = env.Undefined();
    if (TakesArgument(f)) {
      v = next < jsArgs.Length() ? jsArgs.Get(next) : env.Undefined();
      ++next;
    }
    const std::string where = std::string(cmd.name) + " " + f.name;
    marshal::Arg& a = frame.args[i];
    if (!output && IsAbsent(v) && !optional && TakesArgument(f)) throw m.Error(where, "is required");
    switch (f.shape) {
      case Shape::Value:
        if (output) {  // a fixed char buffer (xrResultToString)
          a.p = arena.Allocate(f.fixedCount);
          frame.out[i] = a.p;
        } else if (f.structIndex >= 0) {
          a.p = m.NewStruct(static_cast<std::uint32_t>(f.structIndex), v, where);
        } else if (!IsAbsent(v)) {
          m.WriteScalar(f.scalar, &a, v, where);
        }
        break;
      case Shape::String:
        a.p = IsAbsent(v) ? nullptr : const_cast<char*>(arena.CopyString(v.IsString() ? v.As<Napi::String>().Utf8Value() : throw m.Error(where, "must be a string")));
        break;
      case Shape::Pointer:
        if (output) {
          a.p = f.structIndex >= 0 ? static_cast<void*>(m.NewStruct(static_cast<std::uint32_t>(f.structIndex), v, where))
                                   : arena.Allocate(std::max<std::size_t>(StructMarshaller::ScalarSize(f.scalar), 8));
          frame.out[i] = a.p;
        } else if (!IsAbsent(v)) {
          if (f.structIndex >= 0) {
            a.p = m.NewStruct(static_cast<std::uint32_t>(f.structIndex), v, where);
          } else {
            a.p = arena.Allocate(8);
            m.WriteScalar(f.scalar, a.p, v, where);
          }
        }
        break;
      case Shape::Array:
      case Shape::StringArray:
      case Shape::PointerArray: {
        if (output && f.countOutputIndex >= 0) {
          // Two-call: first with capacity 0 to learn the count.
          frame.twoCall.push_back(i);
          frame.templates[i] = v;
          frame.elementStruct[i] = m.ElementStruct(f, v, where);  // checked now, before any call
          frame.out[f.countOutputIndex] = arena.Allocate(sizeof(std::uint64_t));
          frame.args[f.countOutputIndex].p = frame.out[f.countOutputIndex];
          break;
        }
        std::uint32_t count = 0;
        if (f.shape == Shape::Array && output && v.IsNumber()) {
          count = v.As<Napi::Number>().Uint32Value();
          a.p = m.NewElements(f, count, env.Undefined(), where);
        } else if (!IsAbsent(v)) {
          if (f.shape == Shape::Array) {
            a.p = m.WriteArray(f, v, &count, where);
          } else if (f.shape == Shape::StringArray) {
            if (!v.IsArray()) throw m.Error(where, "must be an array of strings");
            Napi::Array list = v.As<Napi::Array>();
            count = list.Length();
            auto** strings = static_cast<const char**>(arena.Allocate(sizeof(char*) * count));
            for (std::uint32_t k = 0; k < count; ++k) {
              if (!list.Get(k).IsString()) throw m.Error(where + "[" + std::to_string(k) + "]", "must be a string");
              strings[k] = arena.CopyString(list.Get(k).As<Napi::String>().Utf8Value());
            }
            a.p = strings;
          } else {
            if (!v.IsArray()) throw m.Error(where, "must be an array of objects");
            Napi::Array list = v.As<Napi::Array>();
            count = list.Length();
            auto** structs = static_cast<std::byte**>(arena.Allocate(sizeof(void*) * count));
            for (std::uint32_t k = 0; k < count; ++k) {
              structs[k] = m.NewStruct(static_cast<std::uint32_t>(f.structIndex), list.Get(k), where + "[" + std::to_string(k) + "]");
            }
            a.p = structs;
          }
        }
        if (output) frame.out[i] = a.p;
        if (f.lenIndex >= 0) {
          const Field& len = params[f.lenIndex];
          if (len.shape == Shape::Pointer || (len.flags & marshal::kOutput) != 0) {
            auto* c = static_cast<std::uint32_t*>(arena.Allocate(sizeof(std::uint32_t)));
            *c = count;
            frame.args[f.lenIndex].p = c;
          } else {
            frame.args[f.lenIndex].u = count;
          }
          frame.out[f.lenIndex] = reinterpret_cast<void*>(static_cast<std::uintptr_t>(count));
        }
        break;
      }
      case Shape::Unsupported:
        if (output) {
          a.p = arena.Allocate(8);
          frame.out[i] = a.p;
        } else if (!IsAbsent(v)) {
          throw m.Error(where, "cannot be marshalled by the generated bindings; leave it out");
        }
        break;
      default:
        break;  // counts and capacities: set by their arrays
    }
  }

  const marshal::Thunk thunk = marshal::kThunks[cmd.thunk];
  XrResult result = thunk(fn, frame.args.data());
  // Two-call idiom on parameters: size the arrays from the counts and call again (again if the
  // count grew in between).
  for (int attempt = 0; XR_SUCCEEDED(result) && !frame.twoCall.empty() && attempt < 4; ++attempt) {
    bool any = false;
    for (const std::uint32_t i : frame.twoCall) {
      const Field& f = params[i];
      const std::uint32_t count = *static_cast<const std::uint32_t*>(frame.out[f.countOutputIndex]);
      if (count == 0 || count == frame.args[f.lenIndex].u) continue;
      any = true;
      frame.args[f.lenIndex].u = count;
      frame.args[i].p = m.NewElements(f, count, frame.templates[i], std::string(cmd.name) + " " + f.name, &frame.elementStruct[i]);
      frame.out[i] = frame.args[i].p;
    }
    if (!any) break;
    result = thunk(fn, frame.args.data());
    if (result != XR_ERROR_SIZE_INSUFFICIENT) break;
    result = XR_SUCCESS;  // the count grew between the calls: size again
  }
  // Two-call arrays inside output structures: the same, once.
  if (XR_SUCCEEDED(result) && !m.pendingTwoCalls().empty()) {
    bool any = false;
    for (const PendingTwoCall& pending : std::vector<PendingTwoCall>(m.pendingTwoCalls())) {
      const std::uint64_t count = StructMarshaller::LoadCount(*pending.countOutput, pending.base);
      if (count == 0) continue;
      any = true;
      void* data = m.NewElements(*pending.array, static_cast<std::uint32_t>(count), pending.elementTemplate, std::string(cmd.name) + " " + pending.array->name);
      std::memcpy(pending.base + pending.array->offset, &data, sizeof data);
      StructMarshaller::StoreCount(*pending.capacity, pending.base, count);
    }
    if (any) result = thunk(fn, frame.args.data());
  }
  if (XR_FAILED(result)) throw XrErrorToJs(env, result, std::string(cmd.name) + " returned " + std::to_string(result));

  Napi::Object out = Napi::Object::New(env);
  out.Set("result", Napi::Number::New(env, result));
  for (std::uint32_t i = 0; i < cmd.paramCount; ++i) {
    const Field& f = params[i];
    if ((f.flags & marshal::kOutput) == 0 || f.shape == Shape::CountOutput || f.shape == Shape::Count) continue;
    const void* p = frame.out[i];
    switch (f.shape) {
      case Shape::Value:
        out.Set(f.name, Napi::String::New(env, static_cast<const char*>(p), strnlen(static_cast<const char*>(p), f.fixedCount)));
        break;
      case Shape::Pointer:
        out.Set(f.name, f.structIndex >= 0 ? m.ReadStruct(static_cast<std::uint32_t>(f.structIndex), static_cast<const std::byte*>(p))
                                           : m.ReadScalar(f.scalar, p));
        break;
      case Shape::Array: {
        std::uint32_t count = 0;
        if (f.countOutputIndex >= 0) {
          count = std::min(*static_cast<const std::uint32_t*>(frame.out[f.countOutputIndex]), frame.args[f.lenIndex].u);
        } else if (f.lenIndex >= 0) {
          count = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(frame.out[f.lenIndex]));
        }
        out.Set(f.name, m.ReadArray(f, p, count, f.countOutputIndex >= 0 ? frame.elementStruct[i] : -1));
        break;
      }
      case Shape::Unsupported:
        out.Set(f.name, m.ReadScalar(Scalar::Address, p));
        break;
      default:
        break;
    }
  }
  // The handle registry learns handles made here, as it does those the trampolines make.
  if (li != nullptr && cmd.createsHandle) {
    std::uint64_t handle = 0;
    std::memcpy(&handle, frame.out[cmd.paramCount - 1], sizeof handle);
    li->RecordChildHandle(handle);
  }
  if (li != nullptr && cmd.destroysHandle && std::string_view(cmd.name) != "xrDestroyInstance") li->ForgetChildHandle(frame.args[0].q);
  return out;
}

}  // namespace kl::napi::xr
