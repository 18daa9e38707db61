// An XrInstance of the simulated runtime: its API version, enabled extensions, configuration,
// path atoms, event queue and the suggested interaction profile bindings.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "bundled/simxr/config.h"
#include "bundled/simxr/event_queue.h"
#include "bundled/simxr/handle_registry.h"
#include "bundled/simxr/path_table.h"
#include "bundled/simxr/xr_api.h"

namespace simxr {

struct VulkanEnableState;

/** The one system this runtime has: a head-mounted display. */
constexpr XrSystemId kHmdSystemId = 1;
/** XrViewConfigurationView::maxSwapchainSampleCount of both views. */
constexpr uint32_t kMaxSwapchainSampleCount = 4;

/** Path atoms the runtime itself needs, interned when the instance is created. */
struct WellKnownPaths {
  XrPath leftHand;
  XrPath rightHand;
  XrPath head;
  XrPath gamepad;
};

/** One suggested binding, kept after validation. */
struct SuggestedBinding {
  uint64_t action;  // the XrAction handle value
  XrPath binding;
};

class Instance : public HandleObject {
 public:
  static constexpr HandleKind kKind = HandleKind::Instance;

  Instance(XrVersion apiVersion, bool headless, bool vulkanEnable2, bool handTracking, bool compositionLayerDepth, SimConfig config);
  ~Instance() override;

  const XrVersion apiVersion;
  const bool headlessEnabled;
  /** XR_KHR_vulkan_enable2 was enabled: its commands, Vulkan sessions and swapchains are usable. */
  const bool vulkanEnable2Enabled;
  /** XR_EXT_hand_tracking was enabled: hand trackers can be created. */
  const bool handTrackingEnabled;
  /** XR_KHR_composition_layer_depth was enabled: XrCompositionLayerDepthInfoKHR on projection views is read. */
  const bool compositionLayerDepthEnabled;
  const SimConfig config;
  PathTable paths;
  EventQueue events;
  WellKnownPaths wellKnown{};

  /** Set while a session exists: this runtime drives one session per instance at a time. */
  std::atomic<uint64_t> session{0};

  /** Guards suggestedBindings and actionSetsAttached. */
  std::mutex bindingsMutex;
  /** The last suggestion per interaction profile path (a new suggestion replaces the old one). */
  std::map<XrPath, std::vector<SuggestedBinding>> suggestedBindings;
  /** Once a session attached action sets, suggestions are refused (XR_ERROR_ACTIONSETS_ALREADY_ATTACHED). */
  bool actionSetsAttached = false;

  /** What the instance's XR_KHR_vulkan_enable2 calls made (empty without the extension). */
  const std::unique_ptr<VulkanEnableState> vulkan;
};

/** The live instance behind a handle, or null. */
std::shared_ptr<Instance> findInstance(XrInstance instance);

/** True when the instance was created for API 1.1 or later (1.1 core commands are usable). */
inline bool usesApi11(const Instance& instance) { return majorMinor(instance.apiVersion) >= majorMinor(XR_MAKE_VERSION(1, 1, 0)); }

}  // namespace simxr
