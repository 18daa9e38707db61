// The OpenXR types the simulated runtime is written against: the header generated from xr.xml
// (native/generated/openxr_types.h, OpenXR 1.1 with the loader negotiation structs). The system's
// OpenXR headers are never used.
#pragma once

#include "generated/openxr_types.h"

#include <cstdint>

namespace simxr {

/** The XR_MAKE_VERSION major.minor of a version, patch dropped. */
constexpr uint32_t majorMinor(XrVersion v) { return static_cast<uint32_t>(v >> 32); }

/** Reads the structure type of any OpenXR structure (or 0 for a null pointer). */
inline XrStructureType structTypeOf(const void* p) {
  return p == nullptr ? static_cast<XrStructureType>(0) : static_cast<const XrBaseInStructure*>(p)->type;
}

inline bool hasType(const void* p, XrStructureType type) { return p != nullptr && structTypeOf(p) == type; }

/** The first structure of type `type` in the `next` chain of `p` (p itself excluded), or null. */
template <class T>
const T* findInNextChain(const void* p, XrStructureType type) {
  const auto* it = p == nullptr ? nullptr : static_cast<const XrBaseInStructure*>(p)->next;
  for (; it != nullptr; it = it->next) {
    if (it->type == type) return reinterpret_cast<const T*>(it);
  }
  return nullptr;
}

template <class T>
T* findInNextChainMutable(void* p, XrStructureType type) {
  auto* it = p == nullptr ? nullptr : static_cast<XrBaseOutStructure*>(p)->next;
  for (; it != nullptr; it = it->next) {
    if (it->type == type) return reinterpret_cast<T*>(it);
  }
  return nullptr;
}

template <class H>
uint64_t handleValue(H h) {
  return reinterpret_cast<uint64_t>(h);
}

template <class H>
H toHandle(uint64_t v) {
  return reinterpret_cast<H>(v);
}

}  // namespace simxr
