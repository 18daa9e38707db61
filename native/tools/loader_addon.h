// The product addon, as the tools addon reaches it. The benchmarks must time the loader the
// package ships, not a second copy of it: the tools addon links none of the chain's code. It opens
// the product addon (already loaded in this process, so the same module) by the path the
// TypeScript side loaded it from, and takes the loader's exported C entry points from it
// (xrGetInstanceProcAddr, the xr*/vk* trampolines) with the instances as raw handles. Its own
// native log records (the probes' negotiation code) go to the product addon's log path
// (khronosLoaderLog), so they reach JavaScript through the same bridge.
#pragma once

#include <napi.h>

#include <memory>

#include "common/dynamic_library.h"

namespace kl::tools {

// useLoaderAddon(path): opens the product addon; later calls with another path throw.
Napi::Value UseLoaderAddon(const Napi::CallbackInfo& info);

// The product addon; throws a JS Error when useLoaderAddon has not been called.
const DynamicLibrary& LoaderAddon(Napi::Env env);

// A raw handle argument: a bigint, or an object whose `handle` is one (the product addon's
// OpenXrInstance, OpenXrSession, OpenXrSpace, ...).
std::uint64_t HandleArgument(Napi::Env env, Napi::Value value, const char* what);

}  // namespace kl::tools
