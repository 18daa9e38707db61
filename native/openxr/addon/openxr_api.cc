#include "openxr/addon/openxr_api.h"

#include "openxr/addon/openxr_actions.h"
#include "openxr/addon/openxr_frame_query.h"
#include "openxr/addon/openxr_hand_tracking.h"
#include "openxr/addon/openxr_input.h"
#include "openxr/addon/openxr_session.h"
#include "openxr/addon/openxr_space.h"
#include "openxr/addon/openxr_system.h"
#include "openxr/addon/openxr_vulkan.h"

namespace kl::napi::xr {

void RegisterOpenXrApi(Napi::Env env, Napi::Object exports) {
  exports.Set("OpenXrSession", OpenXrSession::Define(env));
  RegisterOpenXrVulkan(env, exports);
  exports.Set("OpenXrSpace", OpenXrSpace::Define(env));
  exports.Set("OpenXrActionSet", OpenXrActionSet::Define(env));
  exports.Set("OpenXrAction", OpenXrAction::Define(env));
  exports.Set("openxrGetSystem", Napi::Function::New<GetSystem>(env, "openxrGetSystem"));
  exports.Set("openxrGetSystemProperties", Napi::Function::New<GetSystemProperties>(env, "openxrGetSystemProperties"));
  exports.Set("openxrEnumerateViewConfigurations", Napi::Function::New<EnumerateViewConfigurations>(env, "openxrEnumerateViewConfigurations"));
  exports.Set("openxrEnumerateViewConfigurationViews",
              Napi::Function::New<EnumerateViewConfigurationViews>(env, "openxrEnumerateViewConfigurationViews"));
  exports.Set("openxrEnumerateEnvironmentBlendModes",
              Napi::Function::New<EnumerateEnvironmentBlendModes>(env, "openxrEnumerateEnvironmentBlendModes"));
  exports.Set("openxrStringToPath", Napi::Function::New<StringToPath>(env, "openxrStringToPath"));
  exports.Set("openxrPathToString", Napi::Function::New<PathToString>(env, "openxrPathToString"));
  exports.Set("openxrPollEvent", Napi::Function::New<PollEvent>(env, "openxrPollEvent"));
  exports.Set("openxrConvertMonotonicNow", Napi::Function::New<ConvertMonotonicNow>(env, "openxrConvertMonotonicNow"));
  exports.Set("openxrDisplayRefreshRates", Napi::Function::New<DisplayRefreshRates>(env, "openxrDisplayRefreshRates"));
  exports.Set("openxrSuggestBindings", Napi::Function::New<SuggestBindings>(env, "openxrSuggestBindings"));
  exports.Set("openxrBindFrameQuery", Napi::Function::New<BindFrameQuery>(env, "openxrBindFrameQuery"));
  ExportBoundCall(env, exports, "openxrRunFrameQuery", RunFrameQuery);
  ExportBoundCall(env, exports, "openxrLocateSpace", CallBoundLocator);
  ExportBoundCall(env, exports, "openxrLocateHandJoints", CallBoundJointLocator);
  ExportBoundCall(env, exports, "openxrLocateViews", CallBoundViewLocator);
  ExportBoundCall(env, exports, "openxrReadActionState", CallBoundActionState);
  exports.Set("OpenXrHandTracker", OpenXrHandTracker::Define(env));
  exports.Set("openxrApplyHaptic", Napi::Function::New<ApplyHaptic>(env, "openxrApplyHaptic"));
  exports.Set("openxrStopHaptic", Napi::Function::New<StopHaptic>(env, "openxrStopHaptic"));
  exports.Set("openxrBoundSources", Napi::Function::New<BoundSources>(env, "openxrBoundSources"));
  exports.Set("openxrInputSourceLocalizedName", Napi::Function::New<InputSourceLocalizedName>(env, "openxrInputSourceLocalizedName"));
  exports.Set("openxrReferenceSpaceBounds", Napi::Function::New<ReferenceSpaceBounds>(env, "openxrReferenceSpaceBounds"));
  exports.Set("openxrDrainHapticEvents", Napi::Function::New<DrainHapticEvents>(env, "openxrDrainHapticEvents"));
}

}  // namespace kl::napi::xr
