// Session creation, destruction and the lifecycle commands.
#include "bundled/simxr/session.h"

#include <cstdio>
#include <string>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/readback.h"
#include "bundled/simxr/vulkan_device.h"
#include "bundled/simxr/vulkan_enable.h"

namespace simxr {
namespace {

/**
 * The Vulkan device a session renders with: from its XrGraphicsBindingVulkan2KHR when the instance
 * enabled XR_KHR_vulkan_enable2 and the chain has one; null (and XR_SUCCESS) for a headless session.
 */
XrResult sessionGraphics(Instance& owner, const XrSessionCreateInfo& createInfo, std::shared_ptr<VulkanDevice>& out) {
  const auto* binding =
      owner.vulkanEnable2Enabled ? findInNextChain<XrGraphicsBindingVulkan2KHR>(&createInfo, XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR) : nullptr;
  if (binding == nullptr) {
    // Without a graphics binding a session is possible only as a headless one.
    return owner.headlessEnabled ? XR_SUCCESS : XR_ERROR_GRAPHICS_DEVICE_INVALID;
  }
  {
    std::lock_guard lock(owner.vulkan->mutex);
    if (!owner.vulkan->requirementsQueried) return XR_ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING;
  }
  XrResult error = XR_SUCCESS;
  const auto target = owner.vulkan->bindingTarget(*binding, error);
  if (!target) return error;
  std::string why;
  out = VulkanDevice::create(*target, readbackBufferBytes(owner.config), why);
  if (!out) {
    std::fprintf(stderr, "simxr: xrCreateSession: %s\n", why.c_str());
    return XR_ERROR_RUNTIME_FAILURE;
  }
  return XR_SUCCESS;
}

}  // namespace

std::shared_ptr<Session> findSession(XrSession session) {
  return HandleRegistry::global().get<Session>(handleValue(session));
}

void Session::transitionTo(XrSessionState next, XrTime time) {
  state = next;
  XrEventDataSessionStateChanged event{XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED, nullptr,
                                       toHandle<XrSession>(handle), next, time};
  instance->events.push(event, handle);
}

XrTime Session::sampleTime() const { return lastPredictedDisplayTime != 0 ? lastPredictedDisplayTime : monotonicNow(); }

void Session::onDestroyed() {
  {
    std::lock_guard lock(mutex);
    // The pending readback's records go with the session; its commands are waited for before
    // the resolve targets they use are freed.
    if (vulkan && !pendingReadback.empty()) vulkan->waitSubmitted();
    pendingReadback.clear();
    pendingResolveTargets.reset();
    destroyed = true;
    running = false;
    waitedFrame.reset();
    begunFrame.reset();
    // Under the lock: a frame thread woken here may hold the last reference and destroy the
    // condition variable as soon as it has the mutex back, so the broadcast must be over by then.
    frameCondition.notify_all();
  }
  instance->events.dropSession(handle);
  uint64_t expected = handle;
  instance->session.compare_exchange_strong(expected, 0);
}

SIMXR_ENTRY CreateSession(XrInstance instance, const XrSessionCreateInfo* createInfo, XrSession* session) {
  auto owner = findInstance(instance);
  if (!owner) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(createInfo, XR_TYPE_SESSION_CREATE_INFO) || session == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (createInfo->createFlags != 0) return XR_ERROR_VALIDATION_FAILURE;
  if (createInfo->systemId != kHmdSystemId) return XR_ERROR_SYSTEM_INVALID;
  std::shared_ptr<VulkanDevice> vulkan;
  if (XrResult r = sessionGraphics(*owner, *createInfo, vulkan); r != XR_SUCCESS) return r;

  auto object = std::make_shared<Session>(owner, std::move(vulkan));
  uint64_t expected = 0;
  // Reserve the instance's session slot before publishing the handle.
  if (!owner->session.compare_exchange_strong(expected, UINT64_MAX)) return XR_ERROR_LIMIT_REACHED;
  const uint64_t handle = HandleRegistry::global().insert(HandleKind::Session, owner->handle, object);
  owner->session.store(handle);
  {
    std::lock_guard lock(object->mutex);
    const XrTime now = monotonicNow();
    object->transitionTo(XR_SESSION_STATE_IDLE, now);
    object->transitionTo(XR_SESSION_STATE_READY, now);
  }
  *session = toHandle<XrSession>(handle);
  return XR_SUCCESS;
}

SIMXR_ENTRY DestroySession(XrSession session) {
  return HandleRegistry::global().erase(handleValue(session), HandleKind::Session) ? XR_SUCCESS
                                                                                     : XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY BeginSession(XrSession session, const XrSessionBeginInfo* beginInfo) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(beginInfo, XR_TYPE_SESSION_BEGIN_INFO)) return XR_ERROR_VALIDATION_FAILURE;
  if (beginInfo->primaryViewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO) {
    return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  }
  std::lock_guard lock(object->mutex);
  if (object->running) return XR_ERROR_SESSION_RUNNING;
  if (object->state != XR_SESSION_STATE_READY) return XR_ERROR_SESSION_NOT_READY;
  object->running = true;
  object->waitedFrame.reset();
  object->begunFrame.reset();
  object->pacer.restart(monotonicNow());
  return XR_SUCCESS;
}

SIMXR_ENTRY EndSession(XrSession session) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  {
    std::lock_guard lock(object->mutex);
    if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;
    if (object->state != XR_SESSION_STATE_STOPPING) return XR_ERROR_SESSION_NOT_STOPPING;
    object->running = false;
    object->waitedFrame.reset();
    object->begunFrame.reset();
    const XrTime now = monotonicNow();
    object->transitionTo(XR_SESSION_STATE_IDLE, now);
    // STOPPING is reached only through xrRequestExitSession here, so the session ends for good.
    if (object->exitRequested) object->transitionTo(XR_SESSION_STATE_EXITING, now);
  }
  object->frameCondition.notify_all();
  return XR_SUCCESS;
}

SIMXR_ENTRY RequestExitSession(XrSession session) {
  auto object = findSession(session);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  std::lock_guard lock(object->mutex);
  if (!object->running) return XR_ERROR_SESSION_NOT_RUNNING;
  object->exitRequested = true;
  const XrTime now = monotonicNow();
  // Walk down the state ladder one step at a time, each step an event, as the spec's diagram does.
  while (object->state != XR_SESSION_STATE_STOPPING) {
    switch (object->state) {
      case XR_SESSION_STATE_FOCUSED:
        object->transitionTo(XR_SESSION_STATE_VISIBLE, now);
        break;
      case XR_SESSION_STATE_VISIBLE:
        object->transitionTo(XR_SESSION_STATE_SYNCHRONIZED, now);
        break;
      case XR_SESSION_STATE_READY:
        object->transitionTo(XR_SESSION_STATE_SYNCHRONIZED, now);
        break;
      default:
        object->transitionTo(XR_SESSION_STATE_STOPPING, now);
        break;
    }
  }
  return XR_SUCCESS;
}

}  // namespace simxr
