// Swapchains: the simulated runtime has no graphics API, so it offers no image format and no
// swapchain can exist. The commands still validate their arguments as the spec says.
#include "simxr/entry_points.h"
#include "simxr/session.h"
#include "simxr/two_call.h"

namespace simxr {

SIMXR_ENTRY EnumerateSwapchainFormats(XrSession session, uint32_t capacity, uint32_t* countOutput, int64_t* formats) {
  if (!findSession(session)) return XR_ERROR_HANDLE_INVALID;
  return answerArray(capacity, countOutput, formats, 0, [](uint32_t, int64_t&) {});
}

SIMXR_ENTRY CreateSwapchain(XrSession session, const XrSwapchainCreateInfo* createInfo, XrSwapchain* swapchain) {
  if (!findSession(session)) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_SWAPCHAIN_CREATE_INFO) || swapchain == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  // xrEnumerateSwapchainFormats lists no format, so whatever format was asked for is unsupported.
  return XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED;
}

// No XrSwapchain handle is ever created, so every handle passed here is invalid.
SIMXR_ENTRY DestroySwapchain(XrSwapchain) { return XR_ERROR_HANDLE_INVALID; }

SIMXR_ENTRY EnumerateSwapchainImages(XrSwapchain, uint32_t, uint32_t*, XrSwapchainImageBaseHeader*) {
  return XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY AcquireSwapchainImage(XrSwapchain, const XrSwapchainImageAcquireInfo*, uint32_t*) {
  return XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY WaitSwapchainImage(XrSwapchain, const XrSwapchainImageWaitInfo*) { return XR_ERROR_HANDLE_INVALID; }

SIMXR_ENTRY ReleaseSwapchainImage(XrSwapchain, const XrSwapchainImageReleaseInfo*) { return XR_ERROR_HANDLE_INVALID; }

}  // namespace simxr
