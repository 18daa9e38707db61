// Promises that may still be pending when the process exits. Node frees a promise's deferred only
// when it settles, and refuses to settle any once exit has begun, so one still waiting then (a
// waitFrame() awaited at process.exit(), a log flush) keeps its few bytes: the one allocation the
// sanitizer run's leak suppressions name (scripts/sanitize/lsan.supp), made only here.
#pragma once

#include <napi.h>

namespace kl::napi {

// Never inlined, so that the allocation's stack names it.
Napi::Promise::Deferred NewPendingPromise(Napi::Env env);

}  // namespace kl::napi
