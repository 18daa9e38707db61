// The magic every loader object carries while it lives, checked by the trampolines before they
// dispatch through a handle.
#pragma once

#include <cstdint>

namespace kl::vulkan {

// What the trampolines check before they dispatch through a handle, as the Khronos loader's do:
// a loader object carries its kind's magic while it lives, and a handle without it (NULL, another
// loader's, a destroyed one) ends in "<command>: Invalid <parameter> [VUID-...]" and abort(), not
// in a jump through whatever its first word points at. Cleared when the object goes.
enum class HandleMagic : std::uint64_t {
  Instance = 0x4b4c56494e535431ull,                  // "KLVINST1"
  TrampolinePhysicalDevice = 0x4b4c565044545231ull,  // "KLVPDTR1": handed to the application
  TerminatorPhysicalDevice = 0x4b4c565044544d31ull,  // "KLVPDTM1": handed to the bottom of the chain
  Device = 0x4b4c5644455649ull,                      // "KLVDEVI"
  Surface = 0x4b4c565355524631ull,                   // "KLVSURF1": a loader-owned VkSurfaceKHR
};
class LiveMagic {
 public:
  explicit constexpr LiveMagic(HandleMagic magic) noexcept : value_(magic) {}
  LiveMagic(const LiveMagic&) = delete;
  LiveMagic& operator=(const LiveMagic&) = delete;
  ~LiveMagic() { Clear(); }
  bool Is(HandleMagic magic) const noexcept { return value_ == magic; }
  // Volatile: a store the compiler may not drop as dead (the object's storage is freed next).
  void Clear() noexcept { *const_cast<volatile HandleMagic*>(&value_) = HandleMagic{}; }

 private:
  HandleMagic value_;
};
static_assert(sizeof(LiveMagic) == 8);

}  // namespace kl::vulkan
