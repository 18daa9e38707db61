// The runtime's handle registry: the one piece of process-wide mutable state in the simulated
// runtime. Every OpenXR handle the runtime hands out is a key into it, so a stale, foreign or
// wrongly typed handle is detected (XR_ERROR_HANDLE_INVALID) instead of dereferenced.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simxr {

enum class HandleKind : uint8_t { Instance, Session, Space, ActionSet, Action, Swapchain, HandTracker };

/** Base of every object behind a handle. */
class HandleObject {
 public:
  virtual ~HandleObject() = default;
  /** Called once when the handle is destroyed (directly or with its parent), outside registry locks. */
  virtual void onDestroyed() {}
  /** The handle value; set once by HandleRegistry::insert before the handle is published. */
  uint64_t handle = 0;
};

class HandleRegistry {
 public:
  /** The process-wide registry. */
  static HandleRegistry& global();

  /** Registers `object` as a child of `parent` (0 for none) and returns its new handle value. */
  uint64_t insert(HandleKind kind, uint64_t parent, std::shared_ptr<HandleObject> object);

  /** The object behind `handle` if it is alive and of `kind`, else null. */
  std::shared_ptr<HandleObject> find(uint64_t handle, HandleKind kind) const;

  template <class T>
  std::shared_ptr<T> get(uint64_t handle) const {
    return std::static_pointer_cast<T>(find(handle, T::kKind));
  }

  /** The live direct children of `parent` that are of type T, in creation order. */
  template <class T>
  std::vector<std::shared_ptr<T>> children(uint64_t parent) const {
    std::vector<std::shared_ptr<T>> out;
    for (auto& object : childObjects(parent, T::kKind)) out.push_back(std::static_pointer_cast<T>(object));
    return out;
  }

  /**
   * Removes `handle` (if alive and of `kind`) and all its descendants, as destroying a parent
   * handle destroys its children. Returns false when the handle was not alive.
   */
  bool erase(uint64_t handle, HandleKind kind);

 private:
  struct Entry {
    HandleKind kind;
    uint64_t parent;
    std::shared_ptr<HandleObject> object;
  };
  std::vector<std::shared_ptr<HandleObject>> childObjects(uint64_t parent, HandleKind kind) const;

  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Entry> entries_;
  uint64_t nextHandle_ = 1;
};

}  // namespace simxr
