/* The simulated runtime's readback command (a runtime command, not an OpenXR extension): after every
 * xrEndFrame whose layers include XrCompositionLayerProjection layers on Vulkan swapchains, the
 * runtime copies the centre texel of each view's submitted image (the swapchain's last released
 * image, imageArrayIndex honoured) on the queue of the session's XrGraphicsBindingVulkan2KHR and
 * keeps a record. An application reaches the command with
 *   xrGetInstanceProcAddr(instance, "xrDrainSubmittedPixelsSIMXR", &fn)
 * on instances that enabled XR_KHR_vulkan_enable2 (the loader forwards the unknown name down the
 * chain); other runtimes answer XR_ERROR_FUNCTION_UNSUPPORTED. native/bundled/simxr/README.md documents it. */
#ifndef KHRONOS_LOADER_SIMXR_READBACK_H_
#define KHRONOS_LOADER_SIMXR_READBACK_H_ 1

#if !defined(OPENXR_H_) && !defined(KHRONOS_LOADER_GENERATED_OPENXR_TYPES_H_)
#include "generated/openxr_types.h"
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The name to pass to xrGetInstanceProcAddr. */
#define XR_SIMXR_DRAIN_SUBMITTED_PIXELS_NAME "xrDrainSubmittedPixelsSIMXR"

/** The most records the runtime keeps per session; beyond it the oldest are dropped. */
#define XR_SIMXR_MAX_SUBMITTED_PIXELS 65536u

typedef struct XrSubmittedPixelSIMXR {
  uint64_t frameIndex; /* 1 for the session's first xrEndFrame that had layers, then 2, 3, ... */
  XrTime displayTime;  /* XrFrameEndInfo::displayTime of that frame */
  uint32_t viewIndex;  /* index into the projection layer's views */
  int64_t format;      /* the swapchain's VkFormat */
  uint8_t bytes[4];    /* the centre texel's 4 bytes as stored in the image (R,G,B,A for R8G8B8A8_*,
                          B,G,R,A for B8G8R8A8_*) */
} XrSubmittedPixelSIMXR;

/* Moves up to `capacity` of the oldest records into `pixels` (oldest first) and removes them;
 * *countOutput = how many were written. capacity 0 with pixels NULL: *countOutput = how many are
 * waiting (nothing removed). When records had to be dropped, the next drained record's frameIndex
 * shows the gap. */
typedef XrResult(XRAPI_PTR* PFN_xrDrainSubmittedPixelsSIMXR)(XrSession session, uint32_t capacity,
                                                             uint32_t* countOutput, XrSubmittedPixelSIMXR* pixels);

#ifdef __cplusplus
}
static_assert(sizeof(XrSubmittedPixelSIMXR) == 40, "XrSubmittedPixelSIMXR is 40 bytes (natural C alignment)");
#else
_Static_assert(sizeof(XrSubmittedPixelSIMXR) == 40, "XrSubmittedPixelSIMXR is 40 bytes (natural C alignment)");
#endif

#endif /* KHRONOS_LOADER_SIMXR_READBACK_H_ */
