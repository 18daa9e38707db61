// Action sets and actions of the JavaScript API (OpenXrActionSet, OpenXrAction), interaction
// profile binding suggestions, and the session's action calls (attach, sync, state readers bound
// to a caller's Float64Array: the per-frame path allocates nothing).
#pragma once

#include <napi.h>

#include <memory>

#include "openxr/addon/openxr_handles.h"

namespace kl::napi::xr {

class OpenXrActionSet : public Napi::ObjectWrap<OpenXrActionSet> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new OpenXrActionSet(instance, name: string, localizedName: string, priority: number)
  explicit OpenXrActionSet(const Napi::CallbackInfo& info);
  ~OpenXrActionSet() override;
  const std::shared_ptr<ActionSetCore>& Live(Napi::Env env) const;
  static OpenXrActionSet* From(Napi::Env env, Napi::Value value);

 private:
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  std::shared_ptr<ActionSetCore> core_;
};

class OpenXrAction : public Napi::ObjectWrap<OpenXrAction> {
 public:
  static Napi::Function Define(Napi::Env env);
  // new OpenXrAction(actionSet, name: string, localizedName: string, type: number, subactionPaths: bigint[])
  explicit OpenXrAction(const Napi::CallbackInfo& info);
  ~OpenXrAction() override;
  const std::shared_ptr<ActionCore>& Live(Napi::Env env) const;
  static OpenXrAction* From(Napi::Env env, Napi::Value value);

 private:
  Napi::Value Destroy(const Napi::CallbackInfo& info);
  Napi::Value IsDestroyed(const Napi::CallbackInfo& info);
  Napi::Value Handle(const Napi::CallbackInfo& info);
  std::shared_ptr<ActionCore> core_;
};

// openxrSuggestBindings(instance, interactionProfile: bigint, actions: OpenXrAction[], bindings: bigint[])
Napi::Value SuggestBindings(const Napi::CallbackInfo& info);

}  // namespace kl::napi::xr
