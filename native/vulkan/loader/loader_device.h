// One Vulkan device as the loader holds it: LoaderDevice, and the DeviceDispatch table the
// driver's VkDevice (and its queues and command buffers) point at once the loader has checked the
// driver's loader magic.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "vulkan/loader/driver_instance.h"
#include "vulkan/loader/handle_magic.h"
#include "vulkan/loader/unknown_functions.h"
#include "vulkan/loader/wsi.h"

namespace kl::vulkan {

class LoaderInstance;
class LoaderDevice;

struct DeviceDispatch {
  std::array<PFN_vkVoidFunction, kUnknownSlots> unknown{};  // at negative offsets from `table`, below the magic
  LiveMagic magic{HandleMagic::Device};                     // the word just below `table`: the trampolines' check
  gen::VkDeviceDispatchTable table{};
  LoaderDevice* owner = nullptr;

  static DeviceDispatch& FromTable(const gen::VkDeviceDispatchTable* table) noexcept {
    return *reinterpret_cast<DeviceDispatch*>(reinterpret_cast<char*>(const_cast<gen::VkDeviceDispatchTable*>(table)) - offsetof(DeviceDispatch, table));
  }
};
static_assert(offsetof(DeviceDispatch, magic) == 8 * kUnknownSlots && offsetof(DeviceDispatch, table) == 8 * kUnknownSlots + 8,
              "the trampolines read the magic just below the table, the generic device stubs the unknown slots below it");

// The device table behind a device-level dispatchable handle (VkDevice, VkQueue, VkCommandBuffer)
// this loader set up, or nullptr: a NULL handle, a NULL first word, or one that is not a live
// device's table. Three never-taken branches on the per-call path, as the Khronos loader's.
inline const gen::VkDeviceDispatchTable* CheckedDeviceTable(const void* object) noexcept {
  if (object == nullptr) [[unlikely]] return nullptr;
  const auto* table = *static_cast<const gen::VkDeviceDispatchTable* const*>(object);
  if (table == nullptr) [[unlikely]] return nullptr;
  const auto* magic = reinterpret_cast<const LiveMagic*>(reinterpret_cast<const char*>(table) - sizeof(LiveMagic));
  if (!magic->Is(HandleMagic::Device)) [[unlikely]] return nullptr;
  return table;
}

class LoaderDevice {
 public:
  DeviceDispatch dispatch;
  VkDevice handle = nullptr;
  LoaderInstance* instance = nullptr;
  DriverInstance* driver = nullptr;
  PFN_vkGetDeviceProcAddr topGetDeviceProcAddr = nullptr;
  bool destroyed = false;
  // The device extensions it was created with (VkDeviceCreateInfo::ppEnabledExtensionNames), for
  // callers that hold only the VkDevice (vulkanCommands of a raw device handle).
  std::vector<std::string> enabledExtensions;
  // Whether every queue the device was created with carried the loader magic when the terminator
  // asked the driver for it (CheckDriverQueues). Then the vkGetDeviceQueue trampolines store the
  // table into the queue they get without reading it first, as the Khronos loader does; otherwise
  // the table's two slots hold CheckingGetDeviceQueue(2), which refuse a queue without the magic,
  // and these hold the chain's functions.
  bool queuesCarryMagic = false;
  PFN_vkGetDeviceQueue uncheckedGetDeviceQueue = nullptr;
  PFN_vkGetDeviceQueue2 uncheckedGetDeviceQueue2 = nullptr;
  // The driver's commands that take a surface: the device terminators hand them its own (wsi.h).
  DriverSwapchainCommands driverSwapchain;

  // The LoaderDevice of any device-level dispatchable object the loader has set up. Inline (as
  // SetDispatch): the exported trampolines use them on every call (VK-CH-4).
  static LoaderDevice* FromObject(const void* object) noexcept {
    if (object == nullptr) return nullptr;
    const auto* table = *reinterpret_cast<const char* const*>(object);
    return reinterpret_cast<const DeviceDispatch*>(table - offsetof(DeviceDispatch, table))->owner;
  }
  // Points a dispatchable object the driver created (queue, command buffer) at `table`, the
  // device's (the first word of the VkDevice); false (and logged) when the object carries
  // neither the loader magic nor that table.
  static bool SetDispatch(void* object, const gen::VkDeviceDispatchTable* table, const char* what) noexcept {
    auto* word = static_cast<const void**>(object);
    if (*word == table) return true;  // the usual case: a queue asked for again
    if (static_cast<const VK_LOADER_DATA*>(object)->loaderMagic != ICD_LOADER_MAGIC) [[unlikely]] {
      ReportMissingLoaderMagic(object, what);
      return false;
    }
    *word = table;
    return true;
  }
  void FillUnknownSlot(std::size_t slot, const std::string& name);

 private:
  // Out of line and cold: SetDispatch's refusal stays off the per-call path.
  [[gnu::cold, gnu::noinline]] static void ReportMissingLoaderMagic(const void* object, const char* what) noexcept;
};

}  // namespace kl::vulkan
