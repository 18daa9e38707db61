// Window-system integration as the Khronos loader does it (LoaderDriverInterface, "Handling KHR
// Surface Objects in WSI Extensions"; docs/conformance.md, "Surfaces"):
//  - a VkSurfaceKHR the application gets is a loader object (LoaderSurface) that starts with the
//    VkIcdSurface* structure a driver of interface version 2 or older reads through it;
//  - a driver of interface version 3 or newer gets its own surface, made from the application's
//    create info the first time a command needs it for that driver, and destroyed with the
//    loader's surface;
//  - the surface queries at the bottom of the instance chain, and vkCreateSwapchainKHR (with
//    vkCreateSharedSwapchainsKHR and vkGetDeviceGroupSurfacePresentModesKHR) at the bottom of the
//    device chain, hand the driver its own surface; the layers see every call with the loader's.
#pragma once

#include <memory>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "vulkan/loader/driver_instance.h"
#include "vulkan/loader/handle_magic.h"
#include "vulkan/loader/wsi_platform.h"

namespace kl::vulkan {

class LoaderInstance;

// The driver interface version from which a driver makes its own surfaces.
inline constexpr uint32_t kDriverSurfaceInterfaceVersion = 3;

class LoaderSurface {
 public:
  union IcdSurface {
    KlIcdSurfaceBase base;
    KlIcdSurfaceXlib xlib;
    KlIcdSurfaceXcb xcb;
    KlIcdSurfaceWayland wayland;
    KlIcdSurfaceWin32 win32;
    KlIcdSurfaceHeadless headless;
  };

  LoaderSurface(LoaderInstance* owner, const IcdSurface& icd, const void* createInfo, std::size_t createInfoSize,
                const VkAllocationCallbacks* allocator);
  LoaderSurface(const LoaderSurface&) = delete;
  LoaderSurface& operator=(const LoaderSurface&) = delete;

  VkSurfaceKHR handle() noexcept { return reinterpret_cast<VkSurfaceKHR>(this); }
  // The live surface of `owner` behind `surface`, or nullptr (NULL, another instance's, destroyed).
  static LoaderSurface* FromHandle(VkSurfaceKHR surface, const LoaderInstance* owner) noexcept;
  KlIcdWsiPlatform platform() const noexcept { return icd_.base.platform; }

  // The surface `driver` is to receive: its own (made now if it has none yet) from interface
  // version 3, else this object. VK_ERROR_EXTENSION_NOT_PRESENT when the driver cannot make one
  // of this platform (it lacks the command or the extension was not enabled on it).
  VkResult ForDriver(DriverInstance& driver, VkSurfaceKHR* out);
  // Destroys the drivers' surfaces (the loader object itself is freed by its owner).
  void DestroyDriverSurfaces(const VkAllocationCallbacks* allocator);

 private:
  IcdSurface icd_;  // first: what a driver before interface version 3 reads through the handle
  LiveMagic magic_{HandleMagic::Surface};
  LoaderInstance* owner_;
  std::vector<unsigned char> createInfo_;  // the application's create info, pNext cleared
  bool hasAllocator_ = false;
  VkAllocationCallbacks allocator_{};
  std::mutex mutex_;
  std::vector<std::pair<DriverInstance*, VkSurfaceKHR>> driverSurfaces_;
};

// The loader's own functions for the window-system commands at the bottom of the chains: those of
// the generated instance table installed into it, the platform ones by name (nullptr for any
// other name).
void WsiInstallInstanceTerminators(gen::VkInstanceDispatchTable& table);
PFN_vkVoidFunction WsiInstanceTerminator(std::string_view name);
PFN_vkVoidFunction WsiDeviceTerminator(std::string_view name);
// The application-facing functions for the platform commands (vkCreateXlibSurfaceKHR, ...),
// which the generated tables do not hold; nullptr for any other name.
PFN_vkVoidFunction WsiPlatformTrampoline(std::string_view name);
// Whether `name` is a platform command (answered by WsiPlatformTrampoline when its extension is on).
const char* WsiPlatformCommandExtension(std::string_view name);

// The driver's own device-level commands that take a surface, which the device terminators call.
struct DriverSwapchainCommands {
  PFN_vkCreateSwapchainKHR CreateSwapchainKHR = nullptr;
  PFN_vkCreateSharedSwapchainsKHR CreateSharedSwapchainsKHR = nullptr;
  PFN_vkGetDeviceGroupSurfacePresentModesKHR GetDeviceGroupSurfacePresentModesKHR = nullptr;
  void Fill(PFN_vkGetDeviceProcAddr gdpa, VkDevice device);
};

class LoaderDevice;
// For a device without layers (its table comes from the driver): the commands that take a
// surface go through the loader's device terminators.
void WsiPatchDeviceTable(LoaderDevice& device);

}  // namespace kl::vulkan
