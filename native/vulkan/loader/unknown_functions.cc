#include "vulkan/loader/unknown_functions.h"

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

// The stubs per target (assembler macros); the tables of their addresses and the accessors below
// are shared. Top-level asm statements are emitted in their order, so the macros come first.
#if (defined(__x86_64__) || defined(__aarch64__)) && defined(__linux__)
asm(R"(
  .text
  .altmacro
  .macro KL_VK_BEGIN name
  .p2align 4
  .type \name, %function
\name:
  .endm
  .macro KL_VK_END name
  .size \name, .-\name
  .endm
)");
#define KL_VK_TABLES_SECTION ".section .data.rel.ro,\"aw\"\n"
#define KL_VK_HIDE(name) ".hidden " name "\n"
#elif defined(__x86_64__) && defined(_WIN32)
// COFF: a static function symbol (storage class 3, type 32); tables in read-only data, kept out of
// the DLL's exports by not being dllexport.
asm(R"(
  .text
  .altmacro
  .macro KL_VK_BEGIN name
  .p2align 4
  .def \name; .scl 3; .type 32; .endef
\name:
  .endm
  .macro KL_VK_END name
  .endm
)");
#define KL_VK_TABLES_SECTION ".section .rdata,\"dr\"\n"
#define KL_VK_HIDE(name) ""
#endif
#if defined(__x86_64__) && (defined(__linux__) || defined(_WIN32))
// PhysicalDeviceObject: dispatch at 0, next at 8, unknown-slot table at 16 (static_asserts in
// physical_device_object.h). DeviceDispatch (loader_device.h): 64 slots, the magic word, then the
// table the object's first word points at.
// The first argument is in rdi (System V) or rcx (Microsoft x64); the others (registers and
// stack, with Windows' 32-byte home area) are left untouched; rax is scratch in both.
#ifdef _WIN32
#define KL_VK_ARG0 "%rcx"
#else
#define KL_VK_ARG0 "%rdi"
#endif
#define KL_VK_HAS_STUBS 1
asm(R"(
  .macro KL_VK_PD_STUB i
  KL_VK_BEGIN kl_vk_pd_stub_\i
  movq 16()" KL_VK_ARG0 R"(), %rax
  movq 8()" KL_VK_ARG0 R"(), )" KL_VK_ARG0 R"(
  jmpq *(8*\i)(%rax)
  KL_VK_END kl_vk_pd_stub_\i
  .endm
  .macro KL_VK_DEV_STUB i
  KL_VK_BEGIN kl_vk_dev_stub_\i
  movq ()" KL_VK_ARG0 R"(), %rax
  jmpq *(-8*(65-\i))(%rax)
  KL_VK_END kl_vk_dev_stub_\i
  .endm
)");
#elif defined(__aarch64__) && defined(__linux__)
// AAPCS64: the first argument in x0, the others in x1-x7 / v0-v7 / the stack, left untouched;
// x16 (IP0) is the scratch register the ABI gives veneers. Same object layouts as on x86-64.
// Each stub starts with BTI C (a NOP on cores without branch target identification) because it
// is only ever reached by an indirect call.
#define KL_VK_HAS_STUBS 1
asm(R"(
  .macro KL_VK_PD_STUB i
  KL_VK_BEGIN kl_vk_pd_stub_\i
  hint #34
  ldr x16, [x0, #16]
  ldr x0, [x0, #8]
  ldr x16, [x16, #(8*\i)]
  br x16
  KL_VK_END kl_vk_pd_stub_\i
  .endm
  .macro KL_VK_DEV_STUB i
  KL_VK_BEGIN kl_vk_dev_stub_\i
  hint #34
  ldr x16, [x0]
  sub x16, x16, #(8*(65-\i))
  ldr x16, [x16]
  br x16
  KL_VK_END kl_vk_dev_stub_\i
  .endm
)");
#endif

#ifdef KL_VK_HAS_STUBS
asm(R"(
  .text
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
)" KL_VK_TABLES_SECTION R"(
  .p2align 3
  .globl kl_vk_pd_stubs
)" KL_VK_HIDE("kl_vk_pd_stubs") R"(
kl_vk_pd_stubs:
  .set kl_i, 0
  .rept 64
  KL_VK_PD_ENTRY %kl_i
  .set kl_i, kl_i+1
  .endr
  .globl kl_vk_dev_stubs
)" KL_VK_HIDE("kl_vk_dev_stubs") R"(
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
