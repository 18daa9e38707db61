// Rigid-transform arithmetic on XrPosef (rotation quaternion + translation).
#pragma once

#include <cmath>

#include "bundled/simxr/xr_api.h"

namespace simxr {

inline XrQuaternionf quatMultiply(const XrQuaternionf& a, const XrQuaternionf& b) {
  return XrQuaternionf{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                       a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

inline XrQuaternionf quatConjugate(const XrQuaternionf& q) { return XrQuaternionf{-q.x, -q.y, -q.z, q.w}; }

inline XrVector3f rotate(const XrQuaternionf& q, const XrVector3f& v) {
  const XrQuaternionf p{v.x, v.y, v.z, 0.0f};
  const XrQuaternionf r = quatMultiply(quatMultiply(q, p), quatConjugate(q));
  return XrVector3f{r.x, r.y, r.z};
}

inline XrVector3f add(const XrVector3f& a, const XrVector3f& b) { return XrVector3f{a.x + b.x, a.y + b.y, a.z + b.z}; }

inline XrQuaternionf quatFromAxisAngle(const XrVector3f& axis, float angle) {
  const float s = std::sin(angle / 2.0f);
  return XrQuaternionf{axis.x * s, axis.y * s, axis.z * s, std::cos(angle / 2.0f)};
}

inline XrPosef identityPose() { return XrPosef{XrQuaternionf{0.0f, 0.0f, 0.0f, 1.0f}, XrVector3f{0.0f, 0.0f, 0.0f}}; }

/** a ∘ b: the pose b (expressed in a's frame) expressed in a's parent frame. */
inline XrPosef compose(const XrPosef& a, const XrPosef& b) {
  return XrPosef{quatMultiply(a.orientation, b.orientation), add(a.position, rotate(a.orientation, b.position))};
}

inline XrPosef inverse(const XrPosef& p) {
  const XrQuaternionf inv = quatConjugate(p.orientation);
  const XrVector3f t = rotate(inv, p.position);
  return XrPosef{inv, XrVector3f{-t.x, -t.y, -t.z}};
}

/** The spec's pose validity: finite values and a unit quaternion (within 1 %). */
inline bool isValidPose(const XrPosef& p) {
  const auto& q = p.orientation;
  const float values[] = {q.x, q.y, q.z, q.w, p.position.x, p.position.y, p.position.z};
  for (float v : values) {
    if (!std::isfinite(v)) return false;
  }
  const float norm = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return std::fabs(norm - 1.0f) <= 0.01f;
}

}  // namespace simxr
