// xr_struct_layout: prints the size, alignment, member offsets and XrStructureType value of the
// OpenXR structures the test runtime, the test layers and the loader pass across library
// boundaries, the XR_KHR_vulkan_enable(2) structures and command types, and the loader-interface
// constants. Built twice: against the project's generated headers (what the test runtime, the
// simulated runtime, the test layers and the addon use) and against the system OpenXR headers
// (Debian libopenxr-dev, openxr_platform.h over vulkan.h) with the negotiation structures declared from the loader
// specification (discovery_probe_common/negotiation.h). The test compares the two outputs, so the
// struct-size checks in the test runtime and layers are checked against an independent source.
#include <cstddef>
#include <cstdio>
#include <typeinfo>

#if KL_LAYOUT_SYSTEM_HEADERS
#include <vulkan/vulkan.h>
#include <openxr/openxr.h>
#define XR_USE_GRAPHICS_API_VULKAN 1
#include <openxr/openxr_platform.h>
#include "negotiation.h"
#else
#include "generated/openxr_types.h"
#include "generated/openxr_vulkan_types.h"
#endif

// Structures the test runtime, the test layers and the addon use (all in OpenXR 1.0).
#define KL_API_STRUCTS \
  TYPED_STRUCT(XrActionCreateInfo, XR_TYPE_ACTION_CREATE_INFO) \
  FIELD(XrActionCreateInfo, type) \
  FIELD(XrActionCreateInfo, next) \
  FIELD(XrActionCreateInfo, actionName) \
  FIELD(XrActionCreateInfo, actionType) \
  FIELD(XrActionCreateInfo, countSubactionPaths) \
  FIELD(XrActionCreateInfo, subactionPaths) \
  FIELD(XrActionCreateInfo, localizedActionName) \
  TYPED_STRUCT(XrActionSetCreateInfo, XR_TYPE_ACTION_SET_CREATE_INFO) \
  FIELD(XrActionSetCreateInfo, type) \
  FIELD(XrActionSetCreateInfo, next) \
  FIELD(XrActionSetCreateInfo, actionSetName) \
  FIELD(XrActionSetCreateInfo, localizedActionSetName) \
  FIELD(XrActionSetCreateInfo, priority) \
  TYPED_STRUCT(XrActionSpaceCreateInfo, XR_TYPE_ACTION_SPACE_CREATE_INFO) \
  FIELD(XrActionSpaceCreateInfo, type) \
  FIELD(XrActionSpaceCreateInfo, next) \
  FIELD(XrActionSpaceCreateInfo, action) \
  FIELD(XrActionSpaceCreateInfo, subactionPath) \
  FIELD(XrActionSpaceCreateInfo, poseInActionSpace) \
  TYPED_STRUCT(XrActionStateBoolean, XR_TYPE_ACTION_STATE_BOOLEAN) \
  FIELD(XrActionStateBoolean, type) \
  FIELD(XrActionStateBoolean, next) \
  FIELD(XrActionStateBoolean, currentState) \
  FIELD(XrActionStateBoolean, changedSinceLastSync) \
  FIELD(XrActionStateBoolean, lastChangeTime) \
  FIELD(XrActionStateBoolean, isActive) \
  TYPED_STRUCT(XrActionStateFloat, XR_TYPE_ACTION_STATE_FLOAT) \
  FIELD(XrActionStateFloat, type) \
  FIELD(XrActionStateFloat, next) \
  FIELD(XrActionStateFloat, currentState) \
  FIELD(XrActionStateFloat, changedSinceLastSync) \
  FIELD(XrActionStateFloat, lastChangeTime) \
  FIELD(XrActionStateFloat, isActive) \
  TYPED_STRUCT(XrActionStateGetInfo, XR_TYPE_ACTION_STATE_GET_INFO) \
  FIELD(XrActionStateGetInfo, type) \
  FIELD(XrActionStateGetInfo, next) \
  FIELD(XrActionStateGetInfo, action) \
  FIELD(XrActionStateGetInfo, subactionPath) \
  TYPED_STRUCT(XrActionStatePose, XR_TYPE_ACTION_STATE_POSE) \
  FIELD(XrActionStatePose, type) \
  FIELD(XrActionStatePose, next) \
  FIELD(XrActionStatePose, isActive) \
  TYPED_STRUCT(XrActionStateVector2f, XR_TYPE_ACTION_STATE_VECTOR2F) \
  FIELD(XrActionStateVector2f, type) \
  FIELD(XrActionStateVector2f, next) \
  FIELD(XrActionStateVector2f, currentState) \
  FIELD(XrActionStateVector2f, changedSinceLastSync) \
  FIELD(XrActionStateVector2f, lastChangeTime) \
  FIELD(XrActionStateVector2f, isActive) \
  STRUCT(XrActionSuggestedBinding) \
  FIELD(XrActionSuggestedBinding, action) \
  FIELD(XrActionSuggestedBinding, binding) \
  TYPED_STRUCT(XrActionsSyncInfo, XR_TYPE_ACTIONS_SYNC_INFO) \
  FIELD(XrActionsSyncInfo, type) \
  FIELD(XrActionsSyncInfo, next) \
  FIELD(XrActionsSyncInfo, countActiveActionSets) \
  FIELD(XrActionsSyncInfo, activeActionSets) \
  STRUCT(XrActiveActionSet) \
  FIELD(XrActiveActionSet, actionSet) \
  FIELD(XrActiveActionSet, subactionPath) \
  TYPED_STRUCT(XrApiLayerProperties, XR_TYPE_API_LAYER_PROPERTIES) \
  FIELD(XrApiLayerProperties, type) \
  FIELD(XrApiLayerProperties, next) \
  FIELD(XrApiLayerProperties, layerName) \
  FIELD(XrApiLayerProperties, specVersion) \
  FIELD(XrApiLayerProperties, layerVersion) \
  FIELD(XrApiLayerProperties, description) \
  STRUCT(XrApplicationInfo) \
  FIELD(XrApplicationInfo, applicationName) \
  FIELD(XrApplicationInfo, applicationVersion) \
  FIELD(XrApplicationInfo, engineName) \
  FIELD(XrApplicationInfo, engineVersion) \
  FIELD(XrApplicationInfo, apiVersion) \
  TYPED_STRUCT(XrBoundSourcesForActionEnumerateInfo, XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO) \
  FIELD(XrBoundSourcesForActionEnumerateInfo, type) \
  FIELD(XrBoundSourcesForActionEnumerateInfo, next) \
  FIELD(XrBoundSourcesForActionEnumerateInfo, action) \
  TYPED_STRUCT(XrDebugUtilsLabelEXT, XR_TYPE_DEBUG_UTILS_LABEL_EXT) \
  FIELD(XrDebugUtilsLabelEXT, type) \
  FIELD(XrDebugUtilsLabelEXT, next) \
  FIELD(XrDebugUtilsLabelEXT, labelName) \
  TYPED_STRUCT(XrDebugUtilsMessengerCallbackDataEXT, XR_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, type) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, next) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, messageId) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, functionName) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, message) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, objectCount) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, objects) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, sessionLabelCount) \
  FIELD(XrDebugUtilsMessengerCallbackDataEXT, sessionLabels) \
  TYPED_STRUCT(XrDebugUtilsMessengerCreateInfoEXT, XR_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) \
  FIELD(XrDebugUtilsMessengerCreateInfoEXT, type) \
  FIELD(XrDebugUtilsMessengerCreateInfoEXT, next) \
  FIELD(XrDebugUtilsMessengerCreateInfoEXT, messageSeverities) \
  FIELD(XrDebugUtilsMessengerCreateInfoEXT, messageTypes) \
  FIELD(XrDebugUtilsMessengerCreateInfoEXT, userCallback) \
  FIELD(XrDebugUtilsMessengerCreateInfoEXT, userData) \
  TYPED_STRUCT(XrDebugUtilsObjectNameInfoEXT, XR_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT) \
  FIELD(XrDebugUtilsObjectNameInfoEXT, type) \
  FIELD(XrDebugUtilsObjectNameInfoEXT, next) \
  FIELD(XrDebugUtilsObjectNameInfoEXT, objectType) \
  FIELD(XrDebugUtilsObjectNameInfoEXT, objectHandle) \
  FIELD(XrDebugUtilsObjectNameInfoEXT, objectName) \
  TYPED_STRUCT(XrEventDataBuffer, XR_TYPE_EVENT_DATA_BUFFER) \
  FIELD(XrEventDataBuffer, type) \
  FIELD(XrEventDataBuffer, next) \
  FIELD(XrEventDataBuffer, varying) \
  TYPED_STRUCT(XrEventDataEventsLost, XR_TYPE_EVENT_DATA_EVENTS_LOST) \
  FIELD(XrEventDataEventsLost, type) \
  FIELD(XrEventDataEventsLost, next) \
  FIELD(XrEventDataEventsLost, lostEventCount) \
  TYPED_STRUCT(XrEventDataInstanceLossPending, XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING) \
  FIELD(XrEventDataInstanceLossPending, type) \
  FIELD(XrEventDataInstanceLossPending, next) \
  FIELD(XrEventDataInstanceLossPending, lossTime) \
  TYPED_STRUCT(XrEventDataInteractionProfileChanged, XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED) \
  FIELD(XrEventDataInteractionProfileChanged, type) \
  FIELD(XrEventDataInteractionProfileChanged, next) \
  FIELD(XrEventDataInteractionProfileChanged, session) \
  TYPED_STRUCT(XrEventDataReferenceSpaceChangePending, XR_TYPE_EVENT_DATA_REFERENCE_SPACE_CHANGE_PENDING) \
  FIELD(XrEventDataReferenceSpaceChangePending, type) \
  FIELD(XrEventDataReferenceSpaceChangePending, next) \
  FIELD(XrEventDataReferenceSpaceChangePending, session) \
  FIELD(XrEventDataReferenceSpaceChangePending, referenceSpaceType) \
  FIELD(XrEventDataReferenceSpaceChangePending, changeTime) \
  FIELD(XrEventDataReferenceSpaceChangePending, poseValid) \
  FIELD(XrEventDataReferenceSpaceChangePending, poseInPreviousSpace) \
  TYPED_STRUCT(XrEventDataSessionStateChanged, XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED) \
  FIELD(XrEventDataSessionStateChanged, type) \
  FIELD(XrEventDataSessionStateChanged, next) \
  FIELD(XrEventDataSessionStateChanged, session) \
  FIELD(XrEventDataSessionStateChanged, state) \
  FIELD(XrEventDataSessionStateChanged, time) \
  TYPED_STRUCT(XrExtensionProperties, XR_TYPE_EXTENSION_PROPERTIES) \
  FIELD(XrExtensionProperties, type) \
  FIELD(XrExtensionProperties, next) \
  FIELD(XrExtensionProperties, extensionName) \
  FIELD(XrExtensionProperties, extensionVersion) \
  STRUCT(XrExtent2Df) \
  FIELD(XrExtent2Df, width) \
  FIELD(XrExtent2Df, height) \
  STRUCT(XrFovf) \
  FIELD(XrFovf, angleLeft) \
  FIELD(XrFovf, angleRight) \
  FIELD(XrFovf, angleUp) \
  FIELD(XrFovf, angleDown) \
  TYPED_STRUCT(XrFrameBeginInfo, XR_TYPE_FRAME_BEGIN_INFO) \
  FIELD(XrFrameBeginInfo, type) \
  FIELD(XrFrameBeginInfo, next) \
  TYPED_STRUCT(XrFrameEndInfo, XR_TYPE_FRAME_END_INFO) \
  FIELD(XrFrameEndInfo, type) \
  FIELD(XrFrameEndInfo, next) \
  FIELD(XrFrameEndInfo, displayTime) \
  FIELD(XrFrameEndInfo, environmentBlendMode) \
  FIELD(XrFrameEndInfo, layerCount) \
  FIELD(XrFrameEndInfo, layers) \
  TYPED_STRUCT(XrFrameState, XR_TYPE_FRAME_STATE) \
  FIELD(XrFrameState, type) \
  FIELD(XrFrameState, next) \
  FIELD(XrFrameState, predictedDisplayTime) \
  FIELD(XrFrameState, predictedDisplayPeriod) \
  FIELD(XrFrameState, shouldRender) \
  TYPED_STRUCT(XrFrameWaitInfo, XR_TYPE_FRAME_WAIT_INFO) \
  FIELD(XrFrameWaitInfo, type) \
  FIELD(XrFrameWaitInfo, next) \
  TYPED_STRUCT(XrHapticActionInfo, XR_TYPE_HAPTIC_ACTION_INFO) \
  FIELD(XrHapticActionInfo, type) \
  FIELD(XrHapticActionInfo, next) \
  FIELD(XrHapticActionInfo, action) \
  FIELD(XrHapticActionInfo, subactionPath) \
  TYPED_STRUCT(XrInputSourceLocalizedNameGetInfo, XR_TYPE_INPUT_SOURCE_LOCALIZED_NAME_GET_INFO) \
  FIELD(XrInputSourceLocalizedNameGetInfo, type) \
  FIELD(XrInputSourceLocalizedNameGetInfo, next) \
  FIELD(XrInputSourceLocalizedNameGetInfo, sourcePath) \
  FIELD(XrInputSourceLocalizedNameGetInfo, whichComponents) \
  TYPED_STRUCT(XrInstanceCreateInfo, XR_TYPE_INSTANCE_CREATE_INFO) \
  FIELD(XrInstanceCreateInfo, type) \
  FIELD(XrInstanceCreateInfo, next) \
  FIELD(XrInstanceCreateInfo, createFlags) \
  FIELD(XrInstanceCreateInfo, applicationInfo) \
  FIELD(XrInstanceCreateInfo, enabledApiLayerCount) \
  FIELD(XrInstanceCreateInfo, enabledApiLayerNames) \
  FIELD(XrInstanceCreateInfo, enabledExtensionCount) \
  FIELD(XrInstanceCreateInfo, enabledExtensionNames) \
  TYPED_STRUCT(XrInstanceProperties, XR_TYPE_INSTANCE_PROPERTIES) \
  FIELD(XrInstanceProperties, type) \
  FIELD(XrInstanceProperties, next) \
  FIELD(XrInstanceProperties, runtimeVersion) \
  FIELD(XrInstanceProperties, runtimeName) \
  TYPED_STRUCT(XrInteractionProfileState, XR_TYPE_INTERACTION_PROFILE_STATE) \
  FIELD(XrInteractionProfileState, type) \
  FIELD(XrInteractionProfileState, next) \
  FIELD(XrInteractionProfileState, interactionProfile) \
  TYPED_STRUCT(XrInteractionProfileSuggestedBinding, XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING) \
  FIELD(XrInteractionProfileSuggestedBinding, type) \
  FIELD(XrInteractionProfileSuggestedBinding, next) \
  FIELD(XrInteractionProfileSuggestedBinding, interactionProfile) \
  FIELD(XrInteractionProfileSuggestedBinding, countSuggestedBindings) \
  FIELD(XrInteractionProfileSuggestedBinding, suggestedBindings) \
  STRUCT(XrPosef) \
  FIELD(XrPosef, orientation) \
  FIELD(XrPosef, position) \
  STRUCT(XrQuaternionf) \
  FIELD(XrQuaternionf, x) \
  FIELD(XrQuaternionf, y) \
  FIELD(XrQuaternionf, z) \
  FIELD(XrQuaternionf, w) \
  TYPED_STRUCT(XrReferenceSpaceCreateInfo, XR_TYPE_REFERENCE_SPACE_CREATE_INFO) \
  FIELD(XrReferenceSpaceCreateInfo, type) \
  FIELD(XrReferenceSpaceCreateInfo, next) \
  FIELD(XrReferenceSpaceCreateInfo, referenceSpaceType) \
  FIELD(XrReferenceSpaceCreateInfo, poseInReferenceSpace) \
  TYPED_STRUCT(XrSessionActionSetsAttachInfo, XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO) \
  FIELD(XrSessionActionSetsAttachInfo, type) \
  FIELD(XrSessionActionSetsAttachInfo, next) \
  FIELD(XrSessionActionSetsAttachInfo, countActionSets) \
  FIELD(XrSessionActionSetsAttachInfo, actionSets) \
  TYPED_STRUCT(XrSessionBeginInfo, XR_TYPE_SESSION_BEGIN_INFO) \
  FIELD(XrSessionBeginInfo, type) \
  FIELD(XrSessionBeginInfo, next) \
  FIELD(XrSessionBeginInfo, primaryViewConfigurationType) \
  TYPED_STRUCT(XrSessionCreateInfo, XR_TYPE_SESSION_CREATE_INFO) \
  FIELD(XrSessionCreateInfo, type) \
  FIELD(XrSessionCreateInfo, next) \
  FIELD(XrSessionCreateInfo, createFlags) \
  FIELD(XrSessionCreateInfo, systemId) \
  TYPED_STRUCT(XrSpaceLocation, XR_TYPE_SPACE_LOCATION) \
  FIELD(XrSpaceLocation, type) \
  FIELD(XrSpaceLocation, next) \
  FIELD(XrSpaceLocation, locationFlags) \
  FIELD(XrSpaceLocation, pose) \
  TYPED_STRUCT(XrSpaceVelocity, XR_TYPE_SPACE_VELOCITY) \
  FIELD(XrSpaceVelocity, type) \
  FIELD(XrSpaceVelocity, next) \
  FIELD(XrSpaceVelocity, velocityFlags) \
  FIELD(XrSpaceVelocity, linearVelocity) \
  FIELD(XrSpaceVelocity, angularVelocity) \
  TYPED_STRUCT(XrSwapchainCreateInfo, XR_TYPE_SWAPCHAIN_CREATE_INFO) \
  FIELD(XrSwapchainCreateInfo, type) \
  FIELD(XrSwapchainCreateInfo, next) \
  FIELD(XrSwapchainCreateInfo, createFlags) \
  FIELD(XrSwapchainCreateInfo, usageFlags) \
  FIELD(XrSwapchainCreateInfo, format) \
  FIELD(XrSwapchainCreateInfo, sampleCount) \
  FIELD(XrSwapchainCreateInfo, width) \
  FIELD(XrSwapchainCreateInfo, height) \
  FIELD(XrSwapchainCreateInfo, faceCount) \
  FIELD(XrSwapchainCreateInfo, arraySize) \
  FIELD(XrSwapchainCreateInfo, mipCount) \
  TYPED_STRUCT(XrSwapchainImageAcquireInfo, XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO) \
  FIELD(XrSwapchainImageAcquireInfo, type) \
  FIELD(XrSwapchainImageAcquireInfo, next) \
  TYPED_STRUCT(XrSwapchainImageReleaseInfo, XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO) \
  FIELD(XrSwapchainImageReleaseInfo, type) \
  FIELD(XrSwapchainImageReleaseInfo, next) \
  TYPED_STRUCT(XrSwapchainImageWaitInfo, XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO) \
  FIELD(XrSwapchainImageWaitInfo, type) \
  FIELD(XrSwapchainImageWaitInfo, next) \
  FIELD(XrSwapchainImageWaitInfo, timeout) \
  TYPED_STRUCT(XrSystemGetInfo, XR_TYPE_SYSTEM_GET_INFO) \
  FIELD(XrSystemGetInfo, type) \
  FIELD(XrSystemGetInfo, next) \
  FIELD(XrSystemGetInfo, formFactor) \
  STRUCT(XrSystemGraphicsProperties) \
  FIELD(XrSystemGraphicsProperties, maxSwapchainImageHeight) \
  FIELD(XrSystemGraphicsProperties, maxSwapchainImageWidth) \
  FIELD(XrSystemGraphicsProperties, maxLayerCount) \
  TYPED_STRUCT(XrSystemProperties, XR_TYPE_SYSTEM_PROPERTIES) \
  FIELD(XrSystemProperties, type) \
  FIELD(XrSystemProperties, next) \
  FIELD(XrSystemProperties, systemId) \
  FIELD(XrSystemProperties, vendorId) \
  FIELD(XrSystemProperties, systemName) \
  FIELD(XrSystemProperties, graphicsProperties) \
  FIELD(XrSystemProperties, trackingProperties) \
  STRUCT(XrVector2f) \
  FIELD(XrVector2f, x) \
  FIELD(XrVector2f, y) \
  STRUCT(XrVector3f) \
  FIELD(XrVector3f, x) \
  FIELD(XrVector3f, y) \
  FIELD(XrVector3f, z) \
  TYPED_STRUCT(XrView, XR_TYPE_VIEW) \
  FIELD(XrView, type) \
  FIELD(XrView, next) \
  FIELD(XrView, pose) \
  FIELD(XrView, fov) \
  TYPED_STRUCT(XrViewConfigurationProperties, XR_TYPE_VIEW_CONFIGURATION_PROPERTIES) \
  FIELD(XrViewConfigurationProperties, type) \
  FIELD(XrViewConfigurationProperties, next) \
  FIELD(XrViewConfigurationProperties, viewConfigurationType) \
  FIELD(XrViewConfigurationProperties, fovMutable) \
  TYPED_STRUCT(XrViewConfigurationView, XR_TYPE_VIEW_CONFIGURATION_VIEW) \
  FIELD(XrViewConfigurationView, type) \
  FIELD(XrViewConfigurationView, next) \
  FIELD(XrViewConfigurationView, recommendedImageRectWidth) \
  FIELD(XrViewConfigurationView, maxImageRectWidth) \
  FIELD(XrViewConfigurationView, recommendedImageRectHeight) \
  FIELD(XrViewConfigurationView, maxImageRectHeight) \
  FIELD(XrViewConfigurationView, recommendedSwapchainSampleCount) \
  FIELD(XrViewConfigurationView, maxSwapchainSampleCount) \
  TYPED_STRUCT(XrViewLocateInfo, XR_TYPE_VIEW_LOCATE_INFO) \
  FIELD(XrViewLocateInfo, type) \
  FIELD(XrViewLocateInfo, next) \
  FIELD(XrViewLocateInfo, viewConfigurationType) \
  FIELD(XrViewLocateInfo, displayTime) \
  FIELD(XrViewLocateInfo, space) \
  TYPED_STRUCT(XrViewState, XR_TYPE_VIEW_STATE) \
  FIELD(XrViewState, type) \
  FIELD(XrViewState, next) \
  FIELD(XrViewState, viewStateFlags) \

// XR_KHR_vulkan_enable / enable2 / vulkan_swapchain_format_list (generated/openxr_vulkan_types.h,
// the system's openxr_platform.h with XR_USE_GRAPHICS_API_VULKAN), as the simulated runtime and the
// addon use them.
#define KL_VULKAN_STRUCTS \
  TYPED_STRUCT(XrGraphicsBindingVulkanKHR, XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR) \
  FIELD(XrGraphicsBindingVulkanKHR, type) \
  FIELD(XrGraphicsBindingVulkanKHR, next) \
  FIELD(XrGraphicsBindingVulkanKHR, instance) \
  FIELD(XrGraphicsBindingVulkanKHR, physicalDevice) \
  FIELD(XrGraphicsBindingVulkanKHR, device) \
  FIELD(XrGraphicsBindingVulkanKHR, queueFamilyIndex) \
  FIELD(XrGraphicsBindingVulkanKHR, queueIndex) \
  TYPED_STRUCT(XrGraphicsBindingVulkan2KHR, XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR) \
  TYPED_STRUCT(XrSwapchainImageVulkanKHR, XR_TYPE_SWAPCHAIN_IMAGE_VULKAN_KHR) \
  FIELD(XrSwapchainImageVulkanKHR, type) \
  FIELD(XrSwapchainImageVulkanKHR, next) \
  FIELD(XrSwapchainImageVulkanKHR, image) \
  TYPED_STRUCT(XrSwapchainImageVulkan2KHR, XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR) \
  TYPED_STRUCT(XrGraphicsRequirementsVulkanKHR, XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN_KHR) \
  FIELD(XrGraphicsRequirementsVulkanKHR, type) \
  FIELD(XrGraphicsRequirementsVulkanKHR, next) \
  FIELD(XrGraphicsRequirementsVulkanKHR, minApiVersionSupported) \
  FIELD(XrGraphicsRequirementsVulkanKHR, maxApiVersionSupported) \
  TYPED_STRUCT(XrGraphicsRequirementsVulkan2KHR, XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR) \
  TYPED_STRUCT(XrVulkanInstanceCreateInfoKHR, XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR) \
  FIELD(XrVulkanInstanceCreateInfoKHR, type) \
  FIELD(XrVulkanInstanceCreateInfoKHR, next) \
  FIELD(XrVulkanInstanceCreateInfoKHR, systemId) \
  FIELD(XrVulkanInstanceCreateInfoKHR, createFlags) \
  FIELD(XrVulkanInstanceCreateInfoKHR, pfnGetInstanceProcAddr) \
  FIELD(XrVulkanInstanceCreateInfoKHR, vulkanCreateInfo) \
  FIELD(XrVulkanInstanceCreateInfoKHR, vulkanAllocator) \
  TYPED_STRUCT(XrVulkanDeviceCreateInfoKHR, XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR) \
  FIELD(XrVulkanDeviceCreateInfoKHR, type) \
  FIELD(XrVulkanDeviceCreateInfoKHR, next) \
  FIELD(XrVulkanDeviceCreateInfoKHR, systemId) \
  FIELD(XrVulkanDeviceCreateInfoKHR, createFlags) \
  FIELD(XrVulkanDeviceCreateInfoKHR, pfnGetInstanceProcAddr) \
  FIELD(XrVulkanDeviceCreateInfoKHR, vulkanPhysicalDevice) \
  FIELD(XrVulkanDeviceCreateInfoKHR, vulkanCreateInfo) \
  FIELD(XrVulkanDeviceCreateInfoKHR, vulkanAllocator) \
  TYPED_STRUCT(XrVulkanGraphicsDeviceGetInfoKHR, XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR) \
  FIELD(XrVulkanGraphicsDeviceGetInfoKHR, type) \
  FIELD(XrVulkanGraphicsDeviceGetInfoKHR, next) \
  FIELD(XrVulkanGraphicsDeviceGetInfoKHR, systemId) \
  FIELD(XrVulkanGraphicsDeviceGetInfoKHR, vulkanInstance) \
  TYPED_STRUCT(XrVulkanSwapchainFormatListCreateInfoKHR, XR_TYPE_VULKAN_SWAPCHAIN_FORMAT_LIST_CREATE_INFO_KHR) \
  FIELD(XrVulkanSwapchainFormatListCreateInfoKHR, type) \
  FIELD(XrVulkanSwapchainFormatListCreateInfoKHR, next) \
  FIELD(XrVulkanSwapchainFormatListCreateInfoKHR, viewFormatCount) \
  FIELD(XrVulkanSwapchainFormatListCreateInfoKHR, viewFormats) \

// The extensions' command types: the mangled type names spell out return and parameter types.
#define KL_VULKAN_COMMANDS \
  COMMAND(PFN_xrGetVulkanInstanceExtensionsKHR) \
  COMMAND(PFN_xrGetVulkanDeviceExtensionsKHR) \
  COMMAND(PFN_xrGetVulkanGraphicsDeviceKHR) \
  COMMAND(PFN_xrGetVulkanGraphicsRequirementsKHR) \
  COMMAND(PFN_xrCreateVulkanInstanceKHR) \
  COMMAND(PFN_xrCreateVulkanDeviceKHR) \
  COMMAND(PFN_xrGetVulkanGraphicsDevice2KHR) \
  COMMAND(PFN_xrGetVulkanGraphicsRequirements2KHR)

// The loader <-> runtime / API layer negotiation interface.
#define KL_NEGOTIATION_STRUCTS \
  STRUCT(XrNegotiateLoaderInfo) \
  FIELD(XrNegotiateLoaderInfo, structType) \
  FIELD(XrNegotiateLoaderInfo, structVersion) \
  FIELD(XrNegotiateLoaderInfo, structSize) \
  FIELD(XrNegotiateLoaderInfo, minInterfaceVersion) \
  FIELD(XrNegotiateLoaderInfo, maxInterfaceVersion) \
  FIELD(XrNegotiateLoaderInfo, minApiVersion) \
  FIELD(XrNegotiateLoaderInfo, maxApiVersion) \
  STRUCT(XrNegotiateApiLayerRequest) \
  FIELD(XrNegotiateApiLayerRequest, structType) \
  FIELD(XrNegotiateApiLayerRequest, structVersion) \
  FIELD(XrNegotiateApiLayerRequest, structSize) \
  FIELD(XrNegotiateApiLayerRequest, layerInterfaceVersion) \
  FIELD(XrNegotiateApiLayerRequest, layerApiVersion) \
  FIELD(XrNegotiateApiLayerRequest, getInstanceProcAddr) \
  FIELD(XrNegotiateApiLayerRequest, createApiLayerInstance) \
  STRUCT(XrNegotiateRuntimeRequest) \
  FIELD(XrNegotiateRuntimeRequest, structType) \
  FIELD(XrNegotiateRuntimeRequest, structVersion) \
  FIELD(XrNegotiateRuntimeRequest, structSize) \
  FIELD(XrNegotiateRuntimeRequest, runtimeInterfaceVersion) \
  FIELD(XrNegotiateRuntimeRequest, runtimeApiVersion) \
  FIELD(XrNegotiateRuntimeRequest, getInstanceProcAddr) \
  STRUCT(XrApiLayerNextInfo) \
  FIELD(XrApiLayerNextInfo, structType) \
  FIELD(XrApiLayerNextInfo, structVersion) \
  FIELD(XrApiLayerNextInfo, structSize) \
  FIELD(XrApiLayerNextInfo, layerName) \
  FIELD(XrApiLayerNextInfo, nextGetInstanceProcAddr) \
  FIELD(XrApiLayerNextInfo, nextCreateApiLayerInstance) \
  FIELD(XrApiLayerNextInfo, next) \
  STRUCT(XrApiLayerCreateInfo) \
  FIELD(XrApiLayerCreateInfo, structType) \
  FIELD(XrApiLayerCreateInfo, structVersion) \
  FIELD(XrApiLayerCreateInfo, structSize) \
  FIELD(XrApiLayerCreateInfo, loaderInstance) \
  FIELD(XrApiLayerCreateInfo, settings_file_location) \
  FIELD(XrApiLayerCreateInfo, nextInfo) \

#define KL_CONSTANTS \
  CONSTANT(XR_LOADER_INTERFACE_STRUCT_LOADER_INFO) \
  CONSTANT(XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST) \
  CONSTANT(XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST) \
  CONSTANT(XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO) \
  CONSTANT(XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO) \
  CONSTANT(XR_LOADER_INFO_STRUCT_VERSION) \
  CONSTANT(XR_API_LAYER_INFO_STRUCT_VERSION) \
  CONSTANT(XR_RUNTIME_INFO_STRUCT_VERSION) \
  CONSTANT(XR_API_LAYER_CREATE_INFO_STRUCT_VERSION) \
  CONSTANT(XR_API_LAYER_NEXT_INFO_STRUCT_VERSION) \
  CONSTANT(XR_API_LAYER_MAX_SETTINGS_PATH_SIZE) \
  CONSTANT(XR_MAX_API_LAYER_NAME_SIZE) \
  CONSTANT(XR_MAX_EXTENSION_NAME_SIZE) \
  CONSTANT(XR_MAX_APPLICATION_NAME_SIZE) \
  CONSTANT(XR_MAX_ENGINE_NAME_SIZE) \
  CONSTANT(XR_MAX_RUNTIME_NAME_SIZE) \
  CONSTANT(XR_MAX_SYSTEM_NAME_SIZE) \
  CONSTANT(XR_MAX_API_LAYER_DESCRIPTION_SIZE)

int main() {
#define STRUCT(T) std::printf("%s size %zu align %zu\n", #T, sizeof(T), alignof(T));
#define TYPED_STRUCT(T, TYPE) STRUCT(T) std::printf("%s type %lld\n", #T, static_cast<long long>(TYPE));
#define FIELD(T, M) std::printf("%s.%s offset %zu size %zu\n", #T, #M, offsetof(T, M), sizeof(T::M));
#define CONSTANT(C) std::printf("%s %lld\n", #C, static_cast<long long>(C));
#define COMMAND(P) std::printf("%s %s\n", #P, typeid(P).name());
  KL_API_STRUCTS
  KL_VULKAN_STRUCTS
  KL_VULKAN_COMMANDS
  KL_NEGOTIATION_STRUCTS
  KL_CONSTANTS
  return 0;
}
