#include "vulkan/unknown_functions.h"

#include <algorithm>

namespace kl::vulkan {

UnknownCommandSlots& UnknownCommandSlots::Get() {
  static UnknownCommandSlots slots;
  return slots;
}

std::optional<std::size_t> UnknownCommandSlots::SlotFor(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it != names_.end()) return static_cast<std::size_t>(it - names_.begin());
  if (names_.size() >= kUnknownSlots) return std::nullopt;
  names_.push_back(name);
  return names_.size() - 1;
}

std::string UnknownCommandSlots::NameOf(std::size_t slot) const {
  std::lock_guard lock(mutex_);
  return slot < names_.size() ? names_[slot] : std::string();
}

std::size_t UnknownCommandSlots::Count() const {
  std::lock_guard lock(mutex_);
  return names_.size();
}

}  // namespace kl::vulkan

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
// PhysicalDeviceObject: dispatch at 0, next at 8, unknown-slot table at 16 (static_asserts in
// objects.h). DeviceDispatch: 64 slots, then the table the object's first word points at.
// A physical-device stub replaces its first argument with the next object and jumps through
// slot i of the object's table; a device stub jumps through slot i before the dispatch table.
#if defined(__x86_64__)
asm(R"(
  .macro KL_VK_PD_BODY i
  movq 16(%rdi), %rax
  movq 8(%rdi), %rdi
  jmpq *(8*\i)(%rax)
  .endm
  .macro KL_VK_DEV_BODY i
  movq (%rdi), %rax
  jmpq *(-8*(64-\i))(%rax)
  .endm
)");
#else
// AArch64: x9 and x16 are scratch registers the procedure call standard lets a veneer clobber.
asm(R"(
  .macro KL_VK_PD_BODY i
  ldr x9, [x0, 16]
  ldr x0, [x0, 8]
  ldr x16, [x9, 8*\i]
  br x16
  .endm
  .macro KL_VK_DEV_BODY i
  ldr x9, [x0]
  sub x9, x9, 8*64
  ldr x16, [x9, 8*\i]
  br x16
  .endm
)");
#endif
// The stubs and their tables, around the bodies above (one pair per architecture).
asm(R"(
  .text
  .altmacro
  .macro KL_VK_PD_STUB i
  .p2align 4
  .type kl_vk_pd_stub_\i, %function
kl_vk_pd_stub_\i:
  KL_VK_PD_BODY \i
  .size kl_vk_pd_stub_\i, .-kl_vk_pd_stub_\i
  .endm
  .macro KL_VK_DEV_STUB i
  .p2align 4
  .type kl_vk_dev_stub_\i, %function
kl_vk_dev_stub_\i:
  KL_VK_DEV_BODY \i
  .size kl_vk_dev_stub_\i, .-kl_vk_dev_stub_\i
  .endm
  .set kl_i, 0
  .rept 64
  KL_VK_PD_STUB %kl_i
  KL_VK_DEV_STUB %kl_i
  .set kl_i, kl_i+1
  .endr
  .macro KL_VK_PD_ENTRY i
  .quad kl_vk_pd_stub_\i
  .endm
  .macro KL_VK_DEV_ENTRY i
  .quad kl_vk_dev_stub_\i
  .endm
  .section .data.rel.ro,"aw"
  .p2align 3
  .globl kl_vk_pd_stubs
  .hidden kl_vk_pd_stubs
kl_vk_pd_stubs:
  .set kl_i, 0
  .rept 64
  KL_VK_PD_ENTRY %kl_i
  .set kl_i, kl_i+1
  .endr
  .globl kl_vk_dev_stubs
  .hidden kl_vk_dev_stubs
kl_vk_dev_stubs:
  .set kl_i, 0
  .rept 64
  KL_VK_DEV_ENTRY %kl_i
  .set kl_i, kl_i+1
  .endr
  .noaltmacro
  .text
)");

extern "C" const PFN_vkVoidFunction kl_vk_pd_stubs[kl::vulkan::kUnknownSlots];
extern "C" const PFN_vkVoidFunction kl_vk_dev_stubs[kl::vulkan::kUnknownSlots];

namespace kl::vulkan {
PFN_vkVoidFunction PhysicalDeviceStub(std::size_t slot) noexcept { return slot < kUnknownSlots ? kl_vk_pd_stubs[slot] : nullptr; }
PFN_vkVoidFunction DeviceStub(std::size_t slot) noexcept { return slot < kUnknownSlots ? kl_vk_dev_stubs[slot] : nullptr; }
}  // namespace kl::vulkan
#else
namespace kl::vulkan {
// No generic trampolines on this target: unknown commands resolve to NULL (step 5).
PFN_vkVoidFunction PhysicalDeviceStub(std::size_t) noexcept { return nullptr; }
PFN_vkVoidFunction DeviceStub(std::size_t) noexcept { return nullptr; }
}  // namespace kl::vulkan
#endif
