/* The simulated runtime's readback command (a runtime command, not an OpenXR extension): after every
 * xrEndFrame whose layers include XrCompositionLayerProjection layers on Vulkan swapchains, the
 * runtime copies the centre texel (or, with SIMXR_READBACK_GRID, a grid of texels, a record each,
 * row by row) of each view's submitted image (the swapchain's last released
 * image, imageArrayIndex honoured), and of the view's depth image when an
 * XrCompositionLayerDepthInfoKHR is chained to it (XR_KHR_composition_layer_depth), on the queue of the session's XrGraphicsBindingVulkan2KHR and
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
                          B,G,R,A for B8G8R8A8_*); a depth texel's depth aspect as a buffer copy
                          stores it, little-endian (D32_SFLOAT and D32_SFLOAT_S8_UINT: a float;
                          D16_UNORM: 2 bytes, then 0, 0; D24_UNORM_S8_UINT: 3 bytes, then 0) */
  uint32_t aspect;     /* VK_IMAGE_ASPECT_COLOR_BIT (1): a view's colour image; VK_IMAGE_ASPECT_DEPTH_BIT
                          (2): the depth image of its XrCompositionLayerDepthInfoKHR, recorded right
                          after the colour records of the same view */
  int32_t x;           /* the texel's position in the image: the centre of the view's imageRect, or */
  int32_t y;           /* with SIMXR_READBACK_GRID=CxR the centre of one cell of a C x R grid over it */
} XrSubmittedPixelSIMXR;

/* Moves up to `capacity` of the oldest records into `pixels` (oldest first) and removes them;
 * *countOutput = how many were written. capacity 0 with pixels NULL: *countOutput = how many are
 * waiting (nothing removed). When records had to be dropped, the next drained record's frameIndex
 * shows the gap. */
typedef XrResult(XRAPI_PTR* PFN_xrDrainSubmittedPixelsSIMXR)(XrSession session, uint32_t capacity,
                                                             uint32_t* countOutput, XrSubmittedPixelSIMXR* pixels);

#ifdef __cplusplus
}
static_assert(sizeof(XrSubmittedPixelSIMXR) == 48, "XrSubmittedPixelSIMXR is 48 bytes (natural C alignment)");
#else
_Static_assert(sizeof(XrSubmittedPixelSIMXR) == 48, "XrSubmittedPixelSIMXR is 48 bytes (natural C alignment)");
#endif

#endif /* KHRONOS_LOADER_SIMXR_READBACK_H_ */
