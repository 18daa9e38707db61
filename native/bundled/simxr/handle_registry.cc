#include "bundled/simxr/handle_registry.h"

#include <algorithm>

namespace simxr {

HandleRegistry& HandleRegistry::global() {
  static HandleRegistry registry;
  return registry;
}

uint64_t HandleRegistry::insert(HandleKind kind, uint64_t parent, std::shared_ptr<HandleObject> object) {
  std::lock_guard lock(mutex_);
  // Handle values are never reused, so a destroyed handle stays invalid for the process lifetime.
  // The high tag keeps them far from small integers and from pointers an application might pass.
  const uint64_t handle = (uint64_t{0x51} << 56) | nextHandle_++;
  object->handle = handle;
  entries_.emplace(handle, Entry{kind, parent, std::move(object)});
  return handle;
}

std::shared_ptr<HandleObject> HandleRegistry::find(uint64_t handle, HandleKind kind) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(handle);
  if (it == entries_.end() || it->second.kind != kind) return nullptr;
  return it->second.object;
}

std::vector<std::shared_ptr<HandleObject>> HandleRegistry::childObjects(uint64_t parent, HandleKind kind) const {
  std::vector<std::pair<uint64_t, std::shared_ptr<HandleObject>>> found;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [handle, entry] : entries_) {
      if (entry.parent == parent && entry.kind == kind) found.emplace_back(handle, entry.object);
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::shared_ptr<HandleObject>> out;
  out.reserve(found.size());
  for (auto& [handle, object] : found) out.push_back(std::move(object));
  return out;
}

bool HandleRegistry::erase(uint64_t handle, HandleKind kind) {
  // Objects are released after the lock is dropped: their destructors may take other locks.
  std::vector<std::shared_ptr<HandleObject>> released;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(handle);
    if (it == entries_.end() || it->second.kind != kind) return false;
    std::vector<uint64_t> pending{handle};
    while (!pending.empty()) {
      const uint64_t current = pending.back();
      pending.pop_back();
      for (const auto& [child, entry] : entries_) {
        if (entry.parent == current) pending.push_back(child);
      }
      auto node = entries_.find(current);
      released.push_back(std::move(node->second.object));
      entries_.erase(node);
    }
  }
  for (auto& object : released) object->onDestroyed();
  return true;
}

}  // namespace simxr
