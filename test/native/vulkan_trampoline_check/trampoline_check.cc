// Calls every generic trampoline of native/vulkan/loader/unknown_functions.cc (64 physical-device and 64
// device stubs) with fake objects laid out as the loader lays them out, through a target that
// takes 8 integer, 8 floating-point and 2 stack arguments: each must arrive unchanged, the first
// replaced by the physical device's `next` handle (physical-device stubs) or kept (device stubs),
// at the target of the stub's own slot. Prints "trampolines ok: N calls" and exits 0, or names the
// first failure and exits 1; exits 2 on a target without trampolines. Built natively by
// test/native's CMake and, by the test, cross-compiled for AArch64 and run under qemu.
#include <array>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "vulkan/loader/unknown_functions.h"

namespace {

using kl::vulkan::kUnknownSlots;

struct FakePhysicalDevice {  // PhysicalDeviceObject's first three words
  const void* dispatch;
  void* next;
  const PFN_vkVoidFunction* unknown;
};
struct FakeDeviceDispatch {  // DeviceDispatch: the slots, the magic word, then the table the object points at
  std::array<PFN_vkVoidFunction, kUnknownSlots> unknown{};
  uint64_t magic = 0;
  std::array<void*, 4> table{};
};
struct FakeDevice {
  void* const* dispatchTable;
};

using Target = uint64_t (*)(void*, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, double, double, double, double,
                            double, double, double, double, uint64_t, uint64_t);

struct Seen {
  void* first = nullptr;
  int slot = -1;
};
Seen& LastCall() {
  static Seen seen;
  return seen;
}

uint64_t Checksum(uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, double d0, double d1,
                  double d2, double d3, double d4, double d5, double d6, double d7, uint64_t s0, uint64_t s1) {
  const double d = d0 + 2 * d1 + 3 * d2 + 4 * d3 + 5 * d4 + 6 * d5 + 7 * d6 + 8 * d7;
  return a1 + 3 * a2 + 5 * a3 + 7 * a4 + 11 * a5 + 13 * a6 + 17 * a7 + 19 * s0 + 23 * s1 + static_cast<uint64_t>(d * 1000);
}

template <int Slot>
uint64_t SlotTarget(void* first, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, double d0,
                    double d1, double d2, double d3, double d4, double d5, double d6, double d7, uint64_t s0, uint64_t s1) {
  LastCall() = {first, Slot};
  return Checksum(a1, a2, a3, a4, a5, a6, a7, d0, d1, d2, d3, d4, d5, d6, d7, s0, s1);
}

template <std::size_t... I>
std::array<PFN_vkVoidFunction, sizeof...(I)> Targets(std::index_sequence<I...>) {
  return {reinterpret_cast<PFN_vkVoidFunction>(&SlotTarget<static_cast<int>(I)>)...};
}

bool Call(PFN_vkVoidFunction stub, void* object, void* expectFirst, int expectSlot, const char* kind) {
  const uint64_t base = static_cast<uint64_t>(expectSlot) * 1000;
  const uint64_t got = reinterpret_cast<Target>(stub)(object, base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7, 0.5, 1.5,
                                                      2.5, 3.5, 4.5, 5.5, 6.5, 7.5, base + 8, base + 9);
  const uint64_t want = Checksum(base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5,
                                 base + 8, base + 9);
  const Seen seen = LastCall();
  if (seen.slot != expectSlot || seen.first != expectFirst || got != want) {
    std::printf("%s stub %d: reached slot %d with first argument %p (expected %p), result %llu (expected %llu)\n", kind, expectSlot, seen.slot,
                seen.first, expectFirst, static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
    return false;
  }
  return true;
}

}  // namespace

int main() {
  if (kl::vulkan::PhysicalDeviceStub(0) == nullptr || kl::vulkan::DeviceStub(0) == nullptr) {
    std::printf("no generic trampolines on this target\n");
    return 2;
  }
  const auto targets = Targets(std::make_index_sequence<kUnknownSlots>{});
  int driverHandle = 0;
  FakePhysicalDevice pd{nullptr, &driverHandle, targets.data()};
  FakeDeviceDispatch dispatch;
  dispatch.unknown = targets;
  FakeDevice device{dispatch.table.data()};
  int calls = 0;
  for (int slot = 0; slot < static_cast<int>(kUnknownSlots); ++slot) {
    LastCall() = {};
    if (!Call(kl::vulkan::PhysicalDeviceStub(static_cast<std::size_t>(slot)), &pd, &driverHandle, slot, "physical-device")) return 1;
    LastCall() = {};
    if (!Call(kl::vulkan::DeviceStub(static_cast<std::size_t>(slot)), &device, &device, slot, "device")) return 1;
    calls += 2;
  }
  if (kl::vulkan::PhysicalDeviceStub(kUnknownSlots) != nullptr || kl::vulkan::DeviceStub(kUnknownSlots) != nullptr) {
    std::printf("a stub beyond the last slot\n");
    return 1;
  }
  std::printf("trampolines ok: %d calls\n", calls);
  return 0;
}
