// The OpenXR side's one error type: a failed step of instance creation or negotiation, with the
// XrResult to report and a readable message. The N-API layer turns it into an OpenXrError.
#pragma once

#include <stdexcept>
#include <string>

#include "generated/openxr_commands.h"
#include "generated/openxr_types.h"

namespace kl::openxr {

namespace gen = khronos_loader::generated;

class XrError : public std::runtime_error {
 public:
  XrError(XrResult result, const std::string& message) : std::runtime_error(message), result_(result) {}
  XrResult result() const noexcept { return result_; }

 private:
  XrResult result_;
};

// "1.0.20" from an XrVersion.
inline std::string VersionString(XrVersion v) {
  return std::to_string(XR_VERSION_MAJOR(v)) + "." + std::to_string(XR_VERSION_MINOR(v)) + "." +
         std::to_string(XR_VERSION_PATCH(v));
}

// The loader's negotiation bounds (as the Khronos loader: any 1.x, patch ignored).
inline constexpr uint32_t kMinInterfaceVersion = 1;
inline constexpr uint32_t kMaxRuntimeInterfaceVersion = XR_CURRENT_LOADER_RUNTIME_VERSION;
inline constexpr uint32_t kMaxApiLayerInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION;
inline constexpr XrVersion kMinApiVersion = XR_MAKE_VERSION(1, 0, 0);
inline constexpr XrVersion kMaxApiVersion = XR_MAKE_VERSION(1, 0x3ff, 0xfff);

// major.minor inside [min, max], patch ignored.
inline bool ApiVersionInRange(XrVersion v) {
  const XrVersion majorMinor = XR_MAKE_VERSION(XR_VERSION_MAJOR(v), XR_VERSION_MINOR(v), 0);
  return majorMinor >= XR_MAKE_VERSION(XR_VERSION_MAJOR(kMinApiVersion), XR_VERSION_MINOR(kMinApiVersion), 0) &&
         majorMinor <= XR_MAKE_VERSION(XR_VERSION_MAJOR(kMaxApiVersion), XR_VERSION_MINOR(kMaxApiVersion), 0);
}

inline XrNegotiateLoaderInfo MakeLoaderInfo(uint32_t maxInterfaceVersion) {
  XrNegotiateLoaderInfo info{};
  info.structType = XR_LOADER_INTERFACE_STRUCT_LOADER_INFO;
  info.structVersion = XR_LOADER_INFO_STRUCT_VERSION;
  info.structSize = sizeof(XrNegotiateLoaderInfo);
  info.minInterfaceVersion = kMinInterfaceVersion;
  info.maxInterfaceVersion = maxInterfaceVersion;
  info.minApiVersion = kMinApiVersion;
  info.maxApiVersion = kMaxApiVersion;
  return info;
}

}  // namespace kl::openxr
