// The window-system (platform) surface types the loader needs beyond the generated
// native/generated/vulkan_wsi_platform.h (which the generator makes from the registry: the
// platform extensions' create-info structures, their VkStructureType values, the commands'
// signatures and the table of the commands with their extensions): the VkIcdSurface* structures
// of LoaderDriverInterface "Handling KHR Surface Objects in WSI Extensions" (the structures a
// driver of interface version 2 or older reads through the VkSurfaceKHR the loader hands it),
// which no registry describes, and the loader's table of the platform commands.
#pragma once

#include <cstdint>

#include "generated/vulkan_commands.h"
#include "generated/vulkan_types.h"
#include "generated/vulkan_wsi_platform.h"

extern "C" {
// LoaderDriverInterface, "Handling KHR Surface Objects in WSI Extensions" (vk_icd.h's VkIcdWsiPlatform).
typedef enum KlIcdWsiPlatform {
  KL_ICD_WSI_PLATFORM_MIR = 0,
  KL_ICD_WSI_PLATFORM_WAYLAND = 1,
  KL_ICD_WSI_PLATFORM_WIN32 = 2,
  KL_ICD_WSI_PLATFORM_XCB = 3,
  KL_ICD_WSI_PLATFORM_XLIB = 4,
  KL_ICD_WSI_PLATFORM_ANDROID = 5,
  KL_ICD_WSI_PLATFORM_MACOS = 6,
  KL_ICD_WSI_PLATFORM_IOS = 7,
  KL_ICD_WSI_PLATFORM_DISPLAY = 8,
  KL_ICD_WSI_PLATFORM_HEADLESS = 9,
} KlIcdWsiPlatform;
typedef struct KlIcdSurfaceBase {
  KlIcdWsiPlatform platform;
} KlIcdSurfaceBase;
typedef struct KlIcdSurfaceXlib {
  KlIcdSurfaceBase base;
  Display* dpy;
  KlXlibWindow window;
} KlIcdSurfaceXlib;
typedef struct KlIcdSurfaceXcb {
  KlIcdSurfaceBase base;
  xcb_connection_t* connection;
  KlXcbWindow window;
} KlIcdSurfaceXcb;
typedef struct KlIcdSurfaceWayland {
  KlIcdSurfaceBase base;
  struct wl_display* display;
  struct wl_surface* surface;
} KlIcdSurfaceWayland;
typedef struct KlIcdSurfaceWin32 {
  KlIcdSurfaceBase base;
  void* hinstance;
  void* hwnd;
} KlIcdSurfaceWin32;
typedef struct KlIcdSurfaceHeadless {
  KlIcdSurfaceBase base;
} KlIcdSurfaceHeadless;
}  // extern "C"

namespace kl::vulkan {

inline constexpr VkStructureType kXlibSurfaceCreateInfo = KL_VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR;
inline constexpr VkStructureType kXcbSurfaceCreateInfo = KL_VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR;
inline constexpr VkStructureType kWaylandSurfaceCreateInfo = KL_VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR;
inline constexpr VkStructureType kWin32SurfaceCreateInfo = KL_VK_STRUCTURE_TYPE_WIN32_SURFACE_CREATE_INFO_KHR;

// The platform commands, as one table (KL_VK_WSI_PLATFORM_COMMANDS, generated): the chain's
// (LoaderInstance) and each driver's (DriverInstance).
struct WsiPlatformTable {
#define KL_VK_WSI_MEMBER(name, member, type, extension) type member = nullptr;
  KL_VK_WSI_PLATFORM_COMMANDS(KL_VK_WSI_MEMBER)
#undef KL_VK_WSI_MEMBER
  // Fills every member from `gipa` (NULL where it has none).
  void Fill(PFN_vkGetInstanceProcAddr gipa, VkInstance instance) {
#define KL_VK_WSI_FILL(name, member, type, extension) member = reinterpret_cast<type>(gipa(instance, name));
    KL_VK_WSI_PLATFORM_COMMANDS(KL_VK_WSI_FILL)
#undef KL_VK_WSI_FILL
  }
};

}  // namespace kl::vulkan
