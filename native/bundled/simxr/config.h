// The simulated device's configuration, read from SIMXR_* environment variables when an instance
// is created (documented in native/bundled/simxr/README.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bundled/simxr/interaction_profiles.h"

namespace simxr {

struct SimConfig {
  double displayHz = 90.0;
  uint32_t viewWidth = 1832;
  uint32_t viewHeight = 1920;
  double horizontalFovDeg = 90.0;  // per eye, symmetric
  double verticalFovDeg = 90.0;    // per eye, symmetric
  double ipdMeters = 0.063;
  /** SIMXR_VULKAN_DEVICE: the physical device xrGetVulkanGraphicsDevice2KHR picks (empty: the first). */
  std::string vulkanDevice;
  /** SIMXR_CONTROLLER: the controllers in the user's hands; their own profile is preferred at attach. */
  Profile controller = Profile::Touch;
  /** SIMXR_PLAY_AREA_M: the STAGE bounds, metres along X and Z. */
  float playAreaWidth = 2.0f;
  float playAreaDepth = 2.0f;
  /**
   * SIMXR_READBACK_GRID: the texels read back per submitted view, the centres of a grid of
   * readbackColumns × readbackRows cells over its imageRect (1 × 1: the centre).
   */
  uint32_t readbackColumns = 1;
  uint32_t readbackRows = 1;
  static constexpr uint32_t kMaxReadbackGrid = 64;
  /** SIMXR_WAIT_FRAME_BLOCKS=0: xrWaitFrame returns at once (display times still advance a period a call), as some runtimes do. */
  bool waitFrameBlocks = true;
  /** SIMXR_WAIT_FRAME_TIMES=0: xrWaitFrame answers predictedDisplayTime 0, as a headless runtime without a compositor does (Monado's). */
  bool waitFrameTimes = true;
  /**
   * SIMXR_BLOCKED_WAIT_FILE: a file each xrWaitFrame that must block until xrBeginFrame (a second
   * wait) appends one line to before it blocks, so a test can poll for "the wait is inside the
   * runtime" instead of sleeping (empty: none).
   */
  std::string blockedWaitFile;

  /** The display period in nanoseconds. */
  int64_t periodNs() const;
};

struct ConfigResult {
  std::optional<SimConfig> config;
  std::string error;  // which variable and why, when config is empty
};

/** Reads a configuration; `getenv` is injectable for tests, std::getenv by default. */
ConfigResult readSimConfig(const char* (*getenv)(const char*) = nullptr);

}  // namespace simxr
