// Registers the typed OpenXR API's native classes and functions (sessions, spaces, actions,
// systems, events) on the addon's exports.
#pragma once

#include <napi.h>

namespace kl::napi::xr {

void RegisterOpenXrApi(Napi::Env env, Napi::Object exports);

}  // namespace kl::napi::xr
