/* The simulated runtime's haptics record (a runtime command for tests, not an OpenXR extension):
 * every xrApplyHapticFeedback and xrStopHapticFeedback that reaches a bound haptic output of the
 * simulated controllers is kept, one record per output, until xrDrainHapticEventsSIMXR takes it.
 * An application reaches the command with
 *   xrGetInstanceProcAddr(instance, "xrDrainHapticEventsSIMXR", &fn)
 * (the loader forwards the unknown name down the chain); other runtimes answer
 * XR_ERROR_FUNCTION_UNSUPPORTED. native/bundled/simxr/README.md documents it. */
#ifndef KHRONOS_LOADER_SIMXR_HAPTICS_H_
#define KHRONOS_LOADER_SIMXR_HAPTICS_H_ 1

#if !defined(OPENXR_H_) && !defined(KHRONOS_LOADER_GENERATED_OPENXR_TYPES_H_)
#include "generated/openxr_types.h"
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The name to pass to xrGetInstanceProcAddr. */
#define XR_SIMXR_DRAIN_HAPTIC_EVENTS_NAME "xrDrainHapticEventsSIMXR"

/** The most records the runtime keeps per session; beyond it the oldest are dropped. */
#define XR_SIMXR_MAX_HAPTIC_EVENTS 4096u

typedef struct XrHapticEventSIMXR {
  XrTime time;         /* the session's sample time when the call came (the latest predicted display time) */
  XrPath source;       /* the output that vibrates (or stops), e.g. /user/hand/left/output/haptic */
  XrAction action;     /* the vibration action the call named */
  XrDuration duration; /* XrHapticVibration::duration as given; 0 for a stop */
  float frequency;     /* XrHapticVibration::frequency as given (XR_FREQUENCY_UNSPECIFIED is 0); 0 for a stop */
  float amplitude;     /* XrHapticVibration::amplitude as given; 0 for a stop */
  uint32_t stopped;    /* 1: xrStopHapticFeedback; 0: xrApplyHapticFeedback */
} XrHapticEventSIMXR;

/* Moves up to `capacity` of the oldest records into `events` (oldest first) and removes them;
 * *countOutput = how many were written. capacity 0 with events NULL: *countOutput = how many are
 * waiting (nothing removed). */
typedef XrResult(XRAPI_PTR* PFN_xrDrainHapticEventsSIMXR)(XrSession session, uint32_t capacity, uint32_t* countOutput,
                                                          XrHapticEventSIMXR* events);

#ifdef __cplusplus
}
static_assert(sizeof(XrHapticEventSIMXR) == 48, "XrHapticEventSIMXR is 48 bytes (natural C alignment)");
#else
_Static_assert(sizeof(XrHapticEventSIMXR) == 48, "XrHapticEventSIMXR is 48 bytes (natural C alignment)");
#endif

#endif /* KHRONOS_LOADER_SIMXR_HAPTICS_H_ */
