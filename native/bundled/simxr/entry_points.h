// Every OpenXR command the simulated runtime implements. None is exported from the library:
// the loader reaches them through xrGetInstanceProcAddr (proc_table.cc).
#pragma once

#include "include/simxr/simxr_haptics.h"
#include "bundled/simxr/xr_api.h"

#define SIMXR_ENTRY XRAPI_ATTR XrResult XRAPI_CALL

namespace simxr {

// proc_table.cc
SIMXR_ENTRY GetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function);

// instance.cc
SIMXR_ENTRY EnumerateApiLayerProperties(uint32_t capacity, uint32_t* countOutput, XrApiLayerProperties* properties);
SIMXR_ENTRY EnumerateInstanceExtensionProperties(const char* layerName, uint32_t capacity, uint32_t* countOutput,
                                                 XrExtensionProperties* properties);
SIMXR_ENTRY CreateInstance(const XrInstanceCreateInfo* createInfo, XrInstance* instance);
SIMXR_ENTRY DestroyInstance(XrInstance instance);
SIMXR_ENTRY GetInstanceProperties(XrInstance instance, XrInstanceProperties* properties);
SIMXR_ENTRY PollEvent(XrInstance instance, XrEventDataBuffer* eventData);
SIMXR_ENTRY ResultToString(XrInstance instance, XrResult value, char buffer[XR_MAX_RESULT_STRING_SIZE]);
SIMXR_ENTRY StructureTypeToString(XrInstance instance, XrStructureType value, char buffer[XR_MAX_STRUCTURE_NAME_SIZE]);
SIMXR_ENTRY StringToPath(XrInstance instance, const char* pathString, XrPath* path);
SIMXR_ENTRY PathToString(XrInstance instance, XrPath path, uint32_t capacity, uint32_t* countOutput, char* buffer);

// system.cc
SIMXR_ENTRY GetSystem(XrInstance instance, const XrSystemGetInfo* getInfo, XrSystemId* systemId);
SIMXR_ENTRY GetSystemProperties(XrInstance instance, XrSystemId systemId, XrSystemProperties* properties);
SIMXR_ENTRY EnumerateEnvironmentBlendModes(XrInstance instance, XrSystemId systemId,
                                           XrViewConfigurationType viewConfigurationType, uint32_t capacity,
                                           uint32_t* countOutput, XrEnvironmentBlendMode* modes);
SIMXR_ENTRY EnumerateViewConfigurations(XrInstance instance, XrSystemId systemId, uint32_t capacity,
                                        uint32_t* countOutput, XrViewConfigurationType* types);
SIMXR_ENTRY GetViewConfigurationProperties(XrInstance instance, XrSystemId systemId,
                                           XrViewConfigurationType viewConfigurationType,
                                           XrViewConfigurationProperties* properties);
SIMXR_ENTRY EnumerateViewConfigurationViews(XrInstance instance, XrSystemId systemId,
                                            XrViewConfigurationType viewConfigurationType, uint32_t capacity,
                                            uint32_t* countOutput, XrViewConfigurationView* views);

// session.cc
SIMXR_ENTRY CreateSession(XrInstance instance, const XrSessionCreateInfo* createInfo, XrSession* session);
SIMXR_ENTRY DestroySession(XrSession session);
SIMXR_ENTRY BeginSession(XrSession session, const XrSessionBeginInfo* beginInfo);
SIMXR_ENTRY EndSession(XrSession session);
SIMXR_ENTRY RequestExitSession(XrSession session);

// frame.cc
SIMXR_ENTRY WaitFrame(XrSession session, const XrFrameWaitInfo* frameWaitInfo, XrFrameState* frameState);
SIMXR_ENTRY BeginFrame(XrSession session, const XrFrameBeginInfo* frameBeginInfo);
SIMXR_ENTRY EndFrame(XrSession session, const XrFrameEndInfo* frameEndInfo);

// views.cc
SIMXR_ENTRY LocateViews(XrSession session, const XrViewLocateInfo* viewLocateInfo, XrViewState* viewState,
                        uint32_t capacity, uint32_t* countOutput, XrView* views);

// spaces.cc
SIMXR_ENTRY EnumerateReferenceSpaces(XrSession session, uint32_t capacity, uint32_t* countOutput,
                                     XrReferenceSpaceType* spaces);
SIMXR_ENTRY CreateReferenceSpace(XrSession session, const XrReferenceSpaceCreateInfo* createInfo, XrSpace* space);
SIMXR_ENTRY GetReferenceSpaceBoundsRect(XrSession session, XrReferenceSpaceType referenceSpaceType,
                                        XrExtent2Df* bounds);
SIMXR_ENTRY CreateActionSpace(XrSession session, const XrActionSpaceCreateInfo* createInfo, XrSpace* space);
SIMXR_ENTRY LocateSpace(XrSpace space, XrSpace baseSpace, XrTime time, XrSpaceLocation* location);
SIMXR_ENTRY LocateSpaces(XrSession session, const XrSpacesLocateInfo* locateInfo, XrSpaceLocations* spaceLocations);
SIMXR_ENTRY DestroySpace(XrSpace space);

// actions.cc
SIMXR_ENTRY CreateActionSet(XrInstance instance, const XrActionSetCreateInfo* createInfo, XrActionSet* actionSet);
SIMXR_ENTRY DestroyActionSet(XrActionSet actionSet);
SIMXR_ENTRY CreateAction(XrActionSet actionSet, const XrActionCreateInfo* createInfo, XrAction* action);
SIMXR_ENTRY DestroyAction(XrAction action);
SIMXR_ENTRY SuggestInteractionProfileBindings(XrInstance instance,
                                              const XrInteractionProfileSuggestedBinding* suggestedBindings);

// action_state.cc
SIMXR_ENTRY AttachSessionActionSets(XrSession session, const XrSessionActionSetsAttachInfo* attachInfo);
SIMXR_ENTRY GetCurrentInteractionProfile(XrSession session, XrPath topLevelUserPath,
                                         XrInteractionProfileState* interactionProfile);
SIMXR_ENTRY SyncActions(XrSession session, const XrActionsSyncInfo* syncInfo);
SIMXR_ENTRY GetActionStateBoolean(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStateBoolean* state);
SIMXR_ENTRY GetActionStateFloat(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStateFloat* state);
SIMXR_ENTRY GetActionStateVector2f(XrSession session, const XrActionStateGetInfo* getInfo,
                                   XrActionStateVector2f* state);
SIMXR_ENTRY GetActionStatePose(XrSession session, const XrActionStateGetInfo* getInfo, XrActionStatePose* state);
SIMXR_ENTRY EnumerateBoundSourcesForAction(XrSession session, const XrBoundSourcesForActionEnumerateInfo* enumerateInfo,
                                           uint32_t capacity, uint32_t* countOutput, XrPath* sources);
SIMXR_ENTRY GetInputSourceLocalizedName(XrSession session, const XrInputSourceLocalizedNameGetInfo* getInfo,
                                        uint32_t capacity, uint32_t* countOutput, char* buffer);

// haptics.cc
SIMXR_ENTRY ApplyHapticFeedback(XrSession session, const XrHapticActionInfo* hapticActionInfo,
                                const XrHapticBaseHeader* hapticFeedback);
SIMXR_ENTRY StopHapticFeedback(XrSession session, const XrHapticActionInfo* hapticActionInfo);
SIMXR_ENTRY DrainHapticEventsSIMXR(XrSession session, uint32_t capacity, uint32_t* countOutput, XrHapticEventSIMXR* events);

// hand_tracking.cc (XR_EXT_hand_tracking)
SIMXR_ENTRY CreateHandTrackerEXT(XrSession session, const XrHandTrackerCreateInfoEXT* createInfo, XrHandTrackerEXT* handTracker);
SIMXR_ENTRY DestroyHandTrackerEXT(XrHandTrackerEXT handTracker);
SIMXR_ENTRY LocateHandJointsEXT(XrHandTrackerEXT handTracker, const XrHandJointsLocateInfoEXT* locateInfo,
                                XrHandJointLocationsEXT* locations);

// swapchain.cc
SIMXR_ENTRY EnumerateSwapchainFormats(XrSession session, uint32_t capacity, uint32_t* countOutput, int64_t* formats);
SIMXR_ENTRY CreateSwapchain(XrSession session, const XrSwapchainCreateInfo* createInfo, XrSwapchain* swapchain);
SIMXR_ENTRY DestroySwapchain(XrSwapchain swapchain);
SIMXR_ENTRY EnumerateSwapchainImages(XrSwapchain swapchain, uint32_t capacity, uint32_t* countOutput,
                                     XrSwapchainImageBaseHeader* images);
SIMXR_ENTRY AcquireSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageAcquireInfo* acquireInfo,
                                  uint32_t* index);
SIMXR_ENTRY WaitSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageWaitInfo* waitInfo);
SIMXR_ENTRY ReleaseSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageReleaseInfo* releaseInfo);

}  // namespace simxr
