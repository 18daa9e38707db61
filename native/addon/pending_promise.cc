#include "addon/pending_promise.h"

namespace kl::napi {

__attribute__((noinline)) Napi::Promise::Deferred NewPendingPromise(Napi::Env env) { return Napi::Promise::Deferred::New(env); }

}  // namespace kl::napi
