// xrGetInstanceProcAddr: the runtime's only way in for the loader after negotiation.
#include <cstring>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/instance.h"
#include "bundled/simxr/vulkan_entry_points.h"

namespace simxr {
namespace {

enum class Needs { NoInstance, Instance, Api11, VulkanEnable2, HandTracking };

// Each entry holds a function that answers the command's pointer: a cast function pointer is no
// constant expression, a pointer to fn<F> is, so the table is constant-initialised (relocated by the
// dynamic loader, written by no code of the library at load time; a constructor writing it raced,
// in ThreadSanitizer's eyes, with a thread that read it before an earlier load's dlclose).
struct ProcEntry {
  const char* name;
  PFN_xrVoidFunction (*function)();
  Needs needs;
};

template <auto F>
PFN_xrVoidFunction fn() {
  return reinterpret_cast<PFN_xrVoidFunction>(F);
}

// Every OpenXR 1.0 and 1.1 core command, XR_KHR_vulkan_enable2's commands and the runtime's
// readback and haptics commands, XR_EXT_hand_tracking's. (XR_MND_headless adds no command.)
constexpr ProcEntry kProcs[] = {
    {"xrGetInstanceProcAddr", &fn<&GetInstanceProcAddr>, Needs::Instance},
    {"xrEnumerateApiLayerProperties", &fn<&EnumerateApiLayerProperties>, Needs::NoInstance},
    {"xrEnumerateInstanceExtensionProperties", &fn<&EnumerateInstanceExtensionProperties>, Needs::NoInstance},
    {"xrCreateInstance", &fn<&CreateInstance>, Needs::NoInstance},
    {"xrDestroyInstance", &fn<&DestroyInstance>, Needs::Instance},
    {"xrGetInstanceProperties", &fn<&GetInstanceProperties>, Needs::Instance},
    {"xrPollEvent", &fn<&PollEvent>, Needs::Instance},
    {"xrResultToString", &fn<&ResultToString>, Needs::Instance},
    {"xrStructureTypeToString", &fn<&StructureTypeToString>, Needs::Instance},
    {"xrGetSystem", &fn<&GetSystem>, Needs::Instance},
    {"xrGetSystemProperties", &fn<&GetSystemProperties>, Needs::Instance},
    {"xrEnumerateEnvironmentBlendModes", &fn<&EnumerateEnvironmentBlendModes>, Needs::Instance},
    {"xrCreateSession", &fn<&CreateSession>, Needs::Instance},
    {"xrDestroySession", &fn<&DestroySession>, Needs::Instance},
    {"xrEnumerateReferenceSpaces", &fn<&EnumerateReferenceSpaces>, Needs::Instance},
    {"xrCreateReferenceSpace", &fn<&CreateReferenceSpace>, Needs::Instance},
    {"xrGetReferenceSpaceBoundsRect", &fn<&GetReferenceSpaceBoundsRect>, Needs::Instance},
    {"xrCreateActionSpace", &fn<&CreateActionSpace>, Needs::Instance},
    {"xrLocateSpace", &fn<&LocateSpace>, Needs::Instance},
    {"xrDestroySpace", &fn<&DestroySpace>, Needs::Instance},
    {"xrEnumerateViewConfigurations", &fn<&EnumerateViewConfigurations>, Needs::Instance},
    {"xrGetViewConfigurationProperties", &fn<&GetViewConfigurationProperties>, Needs::Instance},
    {"xrEnumerateViewConfigurationViews", &fn<&EnumerateViewConfigurationViews>, Needs::Instance},
    {"xrEnumerateSwapchainFormats", &fn<&EnumerateSwapchainFormats>, Needs::Instance},
    {"xrCreateSwapchain", &fn<&CreateSwapchain>, Needs::Instance},
    {"xrDestroySwapchain", &fn<&DestroySwapchain>, Needs::Instance},
    {"xrEnumerateSwapchainImages", &fn<&EnumerateSwapchainImages>, Needs::Instance},
    {"xrAcquireSwapchainImage", &fn<&AcquireSwapchainImage>, Needs::Instance},
    {"xrWaitSwapchainImage", &fn<&WaitSwapchainImage>, Needs::Instance},
    {"xrReleaseSwapchainImage", &fn<&ReleaseSwapchainImage>, Needs::Instance},
    {"xrBeginSession", &fn<&BeginSession>, Needs::Instance},
    {"xrEndSession", &fn<&EndSession>, Needs::Instance},
    {"xrRequestExitSession", &fn<&RequestExitSession>, Needs::Instance},
    {"xrWaitFrame", &fn<&WaitFrame>, Needs::Instance},
    {"xrBeginFrame", &fn<&BeginFrame>, Needs::Instance},
    {"xrEndFrame", &fn<&EndFrame>, Needs::Instance},
    {"xrLocateViews", &fn<&LocateViews>, Needs::Instance},
    {"xrStringToPath", &fn<&StringToPath>, Needs::Instance},
    {"xrPathToString", &fn<&PathToString>, Needs::Instance},
    {"xrCreateActionSet", &fn<&CreateActionSet>, Needs::Instance},
    {"xrDestroyActionSet", &fn<&DestroyActionSet>, Needs::Instance},
    {"xrCreateAction", &fn<&CreateAction>, Needs::Instance},
    {"xrDestroyAction", &fn<&DestroyAction>, Needs::Instance},
    {"xrSuggestInteractionProfileBindings", &fn<&SuggestInteractionProfileBindings>, Needs::Instance},
    {"xrAttachSessionActionSets", &fn<&AttachSessionActionSets>, Needs::Instance},
    {"xrGetCurrentInteractionProfile", &fn<&GetCurrentInteractionProfile>, Needs::Instance},
    {"xrGetActionStateBoolean", &fn<&GetActionStateBoolean>, Needs::Instance},
    {"xrGetActionStateFloat", &fn<&GetActionStateFloat>, Needs::Instance},
    {"xrGetActionStateVector2f", &fn<&GetActionStateVector2f>, Needs::Instance},
    {"xrGetActionStatePose", &fn<&GetActionStatePose>, Needs::Instance},
    {"xrSyncActions", &fn<&SyncActions>, Needs::Instance},
    {"xrEnumerateBoundSourcesForAction", &fn<&EnumerateBoundSourcesForAction>, Needs::Instance},
    {"xrGetInputSourceLocalizedName", &fn<&GetInputSourceLocalizedName>, Needs::Instance},
    {"xrApplyHapticFeedback", &fn<&ApplyHapticFeedback>, Needs::Instance},
    {"xrStopHapticFeedback", &fn<&StopHapticFeedback>, Needs::Instance},
    // OpenXR 1.1 core: only for instances created with apiVersion 1.1.
    {"xrLocateSpaces", &fn<&LocateSpaces>, Needs::Api11},
    // XR_KHR_vulkan_enable2, and the readback of submitted views (simxr_readback.h): only for
    // instances that enabled the extension.
    {"xrGetVulkanGraphicsRequirements2KHR", &fn<&GetVulkanGraphicsRequirements2KHR>, Needs::VulkanEnable2},
    {"xrCreateVulkanInstanceKHR", &fn<&CreateVulkanInstanceKHR>, Needs::VulkanEnable2},
    {"xrGetVulkanGraphicsDevice2KHR", &fn<&GetVulkanGraphicsDevice2KHR>, Needs::VulkanEnable2},
    {"xrCreateVulkanDeviceKHR", &fn<&CreateVulkanDeviceKHR>, Needs::VulkanEnable2},
    {XR_SIMXR_DRAIN_SUBMITTED_PIXELS_NAME, &fn<&DrainSubmittedPixelsSIMXR>, Needs::VulkanEnable2},
    // XR_EXT_hand_tracking: only for instances that enabled it.
    {"xrCreateHandTrackerEXT", &fn<&CreateHandTrackerEXT>, Needs::HandTracking},
    {"xrDestroyHandTrackerEXT", &fn<&DestroyHandTrackerEXT>, Needs::HandTracking},
    {"xrLocateHandJointsEXT", &fn<&LocateHandJointsEXT>, Needs::HandTracking},
    // The haptics record (simxr_haptics.h), for every instance.
    {XR_SIMXR_DRAIN_HAPTIC_EVENTS_NAME, &fn<&DrainHapticEventsSIMXR>, Needs::Instance},
};

}  // namespace

SIMXR_ENTRY GetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *function = nullptr;
  const ProcEntry* entry = nullptr;
  for (const auto& e : kProcs) {
    if (std::strcmp(e.name, name) == 0) {
      entry = &e;
      break;
    }
  }
  if (instance == XR_NULL_HANDLE) {
    // Without an instance only the commands that create one or precede it are available.
    if (entry == nullptr || entry->needs != Needs::NoInstance) return XR_ERROR_HANDLE_INVALID;
    *function = entry->function();
    return XR_SUCCESS;
  }
  auto object = findInstance(instance);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (entry == nullptr) return XR_ERROR_FUNCTION_UNSUPPORTED;
  if (entry->needs == Needs::Api11 && !usesApi11(*object)) return XR_ERROR_FUNCTION_UNSUPPORTED;
  if (entry->needs == Needs::VulkanEnable2 && !object->vulkanEnable2Enabled) return XR_ERROR_FUNCTION_UNSUPPORTED;
  if (entry->needs == Needs::HandTracking && !object->handTrackingEnabled) return XR_ERROR_FUNCTION_UNSUPPORTED;
  *function = entry->function();
  return XR_SUCCESS;
}

}  // namespace simxr
