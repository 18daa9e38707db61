// The system: one head-mounted display with a stereo view configuration and an opaque display.
#include <cmath>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/instance.h"
#include "bundled/simxr/two_call.h"

namespace simxr {
namespace {

constexpr uint32_t kVendorId = 0x10001;  // the registry's MND (Monado) id: headless is theirs
constexpr uint32_t kMaxLayerCount = 16;  // the spec's minimum for XrSystemGraphicsProperties
constexpr uint32_t kViewCount = 2;

/** Validates the instance and system; XR_SUCCESS when both are usable. */
XrResult checkSystem(XrInstance instance, XrSystemId systemId, std::shared_ptr<Instance>& out) {
  out = findInstance(instance);
  if (!out) return XR_ERROR_HANDLE_INVALID;
  if (systemId != kHmdSystemId) return XR_ERROR_SYSTEM_INVALID;
  return XR_SUCCESS;
}

/** PRIMARY_STEREO is the only configuration; other valid enumerants are unsupported. */
XrResult checkViewConfiguration(XrViewConfigurationType type) {
  return type == XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO ? XR_SUCCESS : XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
}

}  // namespace

SIMXR_ENTRY GetSystem(XrInstance instance, const XrSystemGetInfo* getInfo, XrSystemId* systemId) {
  if (!findInstance(instance)) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(getInfo, XR_TYPE_SYSTEM_GET_INFO) || systemId == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  switch (getInfo->formFactor) {
    case XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY:
      *systemId = kHmdSystemId;
      return XR_SUCCESS;
    case XR_FORM_FACTOR_HANDHELD_DISPLAY:
      return XR_ERROR_FORM_FACTOR_UNSUPPORTED;
    default:
      return XR_ERROR_VALIDATION_FAILURE;
  }
}

SIMXR_ENTRY GetSystemProperties(XrInstance instance, XrSystemId systemId, XrSystemProperties* properties) {
  std::shared_ptr<Instance> object;
  if (XrResult r = checkSystem(instance, systemId, object); r != XR_SUCCESS) return r;
  if (!hasType(properties, XR_TYPE_SYSTEM_PROPERTIES)) return XR_ERROR_VALIDATION_FAILURE;
  properties->systemId = systemId;
  properties->vendorId = kVendorId;
  copyFixedString(properties->systemName, "khronos-loader simulated HMD");
  properties->graphicsProperties.maxSwapchainImageWidth = object->config.viewWidth * 2;
  properties->graphicsProperties.maxSwapchainImageHeight = object->config.viewHeight * 2;
  properties->graphicsProperties.maxLayerCount = kMaxLayerCount;
  properties->trackingProperties.orientationTracking = XR_TRUE;
  properties->trackingProperties.positionTracking = XR_TRUE;
  auto* hands = findInNextChainMutable<XrSystemHandTrackingPropertiesEXT>(properties, XR_TYPE_SYSTEM_HAND_TRACKING_PROPERTIES_EXT);
  if (hands != nullptr) hands->supportsHandTracking = XR_TRUE;  // the scripted hands (hand_tracking.cc)
  return XR_SUCCESS;
}

SIMXR_ENTRY EnumerateEnvironmentBlendModes(XrInstance instance, XrSystemId systemId,
                                           XrViewConfigurationType viewConfigurationType, uint32_t capacity,
                                           uint32_t* countOutput, XrEnvironmentBlendMode* modes) {
  std::shared_ptr<Instance> object;
  if (XrResult r = checkSystem(instance, systemId, object); r != XR_SUCCESS) return r;
  if (XrResult r = checkViewConfiguration(viewConfigurationType); r != XR_SUCCESS) return r;
  return answerArray(capacity, countOutput, modes, 1,
                     [](uint32_t, XrEnvironmentBlendMode& out) { out = XR_ENVIRONMENT_BLEND_MODE_OPAQUE; });
}

SIMXR_ENTRY EnumerateViewConfigurations(XrInstance instance, XrSystemId systemId, uint32_t capacity,
                                        uint32_t* countOutput, XrViewConfigurationType* types) {
  std::shared_ptr<Instance> object;
  if (XrResult r = checkSystem(instance, systemId, object); r != XR_SUCCESS) return r;
  return answerArray(capacity, countOutput, types, 1,
                     [](uint32_t, XrViewConfigurationType& out) { out = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO; });
}

SIMXR_ENTRY GetViewConfigurationProperties(XrInstance instance, XrSystemId systemId,
                                           XrViewConfigurationType viewConfigurationType,
                                           XrViewConfigurationProperties* properties) {
  std::shared_ptr<Instance> object;
  if (XrResult r = checkSystem(instance, systemId, object); r != XR_SUCCESS) return r;
  if (!hasType(properties, XR_TYPE_VIEW_CONFIGURATION_PROPERTIES)) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = checkViewConfiguration(viewConfigurationType); r != XR_SUCCESS) return r;
  properties->viewConfigurationType = viewConfigurationType;
  properties->fovMutable = XR_FALSE;
  return XR_SUCCESS;
}

SIMXR_ENTRY EnumerateViewConfigurationViews(XrInstance instance, XrSystemId systemId,
                                            XrViewConfigurationType viewConfigurationType, uint32_t capacity,
                                            uint32_t* countOutput, XrViewConfigurationView* views) {
  std::shared_ptr<Instance> object;
  if (XrResult r = checkSystem(instance, systemId, object); r != XR_SUCCESS) return r;
  if (XrResult r = checkViewConfiguration(viewConfigurationType); r != XR_SUCCESS) return r;
  const SimConfig& config = object->config;
  return answerArray(
      capacity, countOutput, views, kViewCount,
      [&config](uint32_t, XrViewConfigurationView& out) {
        out.recommendedImageRectWidth = config.viewWidth;
        out.maxImageRectWidth = config.viewWidth * 2;
        out.recommendedImageRectHeight = config.viewHeight;
        out.maxImageRectHeight = config.viewHeight * 2;
        out.recommendedSwapchainSampleCount = 1;
        out.maxSwapchainSampleCount = kMaxSwapchainSampleCount;
      },
      XR_TYPE_VIEW_CONFIGURATION_VIEW);
}

}  // namespace simxr
