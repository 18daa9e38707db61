// Commands the loader does not know (VK-CH-4, spec "层未知物理设备扩展" and the five steps of
// vkGetInstanceProcAddr): each distinct name gets a slot, process-wide, and a generic
// trampoline per slot jumps through that slot of the object's table without knowing the
// signature (arguments stay in their registers; x86-64 System V and AArch64 Linux):
//  - physical-device stub i: the first argument (rdi / x0) is a PhysicalDeviceObject; replaces it
//    with its `next` handle and jumps to unknown[i] of the object's slot table (the trampoline's
//    chain or a driver's);
//  - device stub i: the first argument is any device-level dispatchable object; its first word
//    points at a DeviceDispatch::table, preceded by its magic word and, below that, the
//    kUnknownSlots unknown-command slots.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "vulkan/loader/vk_error.h"

namespace kl::vulkan {

inline constexpr std::size_t kUnknownSlots = 64;

// The one registry of unknown command names in the process (slot numbers are shared by every
// instance, so a stub means the same name everywhere).
class UnknownCommandSlots {
 public:
  static UnknownCommandSlots& Get();
  // The slot of `name`, taking a new one when needed; nullopt when all are taken.
  std::optional<std::size_t> SlotFor(const std::string& name);
  std::string NameOf(std::size_t slot) const;
  std::size_t Count() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> names_;
};

// The generic trampolines (nullptr on targets without them).
PFN_vkVoidFunction PhysicalDeviceStub(std::size_t slot) noexcept;
PFN_vkVoidFunction DeviceStub(std::size_t slot) noexcept;

}  // namespace kl::vulkan
