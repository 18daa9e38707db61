// XR_EXT_debug_utils as the loader provides it (XR-CI-12): the application's messengers, those
// created with xrCreateDebugUtilsMessengerEXT and those chained into XrInstanceCreateInfo.next,
// receive the loader's own messages; the calls go on to the runtime when it has the extension.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "openxr/loader/xr_error.h"

namespace kl::openxr {

struct LoaderMessenger {
  XrDebugUtilsMessageSeverityFlagsEXT severities = 0;
  XrDebugUtilsMessageTypeFlagsEXT types = 0;
  PFN_xrDebugUtilsMessengerCallbackEXT callback = nullptr;
  void* userData = nullptr;
  // The runtime's messenger behind this one, when the runtime implements the extension.
  XrDebugUtilsMessengerEXT runtimeMessenger = XR_NULL_HANDLE;
};

class DebugUtilsMessengers {
 public:
  // Keeps every XrDebugUtilsMessengerCreateInfoEXT found in a create-info next chain; they hear
  // the loader during instance creation, until ForgetCreateInfoMessengers() (the application's
  // callback data need not outlive xrCreateInstance).
  void AddFromNextChain(const void* next);
  void ForgetCreateInfoMessengers();

  // Returns the handle the application gets: the runtime's when there is one, otherwise the
  // address of the loader's record.
  XrDebugUtilsMessengerEXT Add(const XrDebugUtilsMessengerCreateInfoEXT& info, XrDebugUtilsMessengerEXT runtimeMessenger);
  // Removes the messenger; false when this set does not hold it. `runtimeMessenger` receives the
  // runtime's handle behind it (or XR_NULL_HANDLE).
  bool Remove(XrDebugUtilsMessengerEXT handle, XrDebugUtilsMessengerEXT* runtimeMessenger);

  // Delivers a message to every messenger whose severity and type masks match.
  void Deliver(XrDebugUtilsMessageSeverityFlagsEXT severity, XrDebugUtilsMessageTypeFlagsEXT types,
               const XrDebugUtilsMessengerCallbackDataEXT& data) const;
  // A loader message (message id "khronos-loader").
  void Emit(XrDebugUtilsMessageSeverityFlagsEXT severity, const std::string& functionName, const std::string& message) const;

  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<LoaderMessenger>> messengers_;
  std::vector<LoaderMessenger> createInfoMessengers_;
};

}  // namespace kl::openxr
