// The window-system (platform) surface types the loader needs and the generated Vulkan headers
// leave out (the platform rule of scripts/generator: extensions that name X11, XCB, Wayland or
// Win32 types are not in vulkan_types.h). Written from the Vulkan spec ("VK_KHR_xlib_surface",
// "VK_KHR_xcb_surface", "VK_KHR_wayland_surface", "VK_KHR_win32_surface": the create-info
// structures, the structure-type values and the command signatures) and, for VkIcdSurface*, from
// LoaderDriverInterface "Handling KHR Surface Objects in WSI Extensions" (the structures a driver
// of interface version 2 or older reads through the VkSurfaceKHR the loader hands it).
// The window-system types stay opaque: Display*, xcb_connection_t*, wl_display* are pointers the
// loader never reads; Window is an XID (unsigned long), xcb_window_t and xcb_visualid_t are 32-bit.
#pragma once

#include <cstdint>

#include "generated/vulkan_commands.h"
#include "generated/vulkan_types.h"

extern "C" {
typedef struct _XDisplay Display;  // Xlib's own spelling, so the types agree with <X11/Xlib.h>
typedef unsigned long KlXlibWindow;
typedef unsigned long KlXlibVisualId;
typedef struct xcb_connection_t xcb_connection_t;
typedef uint32_t KlXcbWindow;
typedef uint32_t KlXcbVisualId;
struct wl_display;
struct wl_surface;

typedef struct KlXlibSurfaceCreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  Display* dpy;
  KlXlibWindow window;
} KlXlibSurfaceCreateInfoKHR;

typedef struct KlXcbSurfaceCreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  xcb_connection_t* connection;
  KlXcbWindow window;
} KlXcbSurfaceCreateInfoKHR;

typedef struct KlWaylandSurfaceCreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  struct wl_display* display;
  struct wl_surface* surface;
} KlWaylandSurfaceCreateInfoKHR;

typedef struct KlWin32SurfaceCreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  void* hinstance;  // HINSTANCE
  void* hwnd;       // HWND
} KlWin32SurfaceCreateInfoKHR;

typedef VkResult(VKAPI_PTR* PFN_klCreateXlibSurfaceKHR)(VkInstance, const KlXlibSurfaceCreateInfoKHR*, const VkAllocationCallbacks*, VkSurfaceKHR*);
typedef VkResult(VKAPI_PTR* PFN_klCreateXcbSurfaceKHR)(VkInstance, const KlXcbSurfaceCreateInfoKHR*, const VkAllocationCallbacks*, VkSurfaceKHR*);
typedef VkResult(VKAPI_PTR* PFN_klCreateWaylandSurfaceKHR)(VkInstance, const KlWaylandSurfaceCreateInfoKHR*, const VkAllocationCallbacks*,
                                                           VkSurfaceKHR*);
typedef VkResult(VKAPI_PTR* PFN_klCreateWin32SurfaceKHR)(VkInstance, const KlWin32SurfaceCreateInfoKHR*, const VkAllocationCallbacks*, VkSurfaceKHR*);
typedef VkBool32(VKAPI_PTR* PFN_klGetPhysicalDeviceXlibPresentationSupportKHR)(VkPhysicalDevice, uint32_t, Display*, KlXlibVisualId);
typedef VkBool32(VKAPI_PTR* PFN_klGetPhysicalDeviceXcbPresentationSupportKHR)(VkPhysicalDevice, uint32_t, xcb_connection_t*, KlXcbVisualId);
typedef VkBool32(VKAPI_PTR* PFN_klGetPhysicalDeviceWaylandPresentationSupportKHR)(VkPhysicalDevice, uint32_t, struct wl_display*);
typedef VkBool32(VKAPI_PTR* PFN_klGetPhysicalDeviceWin32PresentationSupportKHR)(VkPhysicalDevice, uint32_t);

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

inline constexpr VkStructureType kXlibSurfaceCreateInfo = static_cast<VkStructureType>(1000004000);
inline constexpr VkStructureType kXcbSurfaceCreateInfo = static_cast<VkStructureType>(1000005000);
inline constexpr VkStructureType kWaylandSurfaceCreateInfo = static_cast<VkStructureType>(1000006000);
inline constexpr VkStructureType kWin32SurfaceCreateInfo = static_cast<VkStructureType>(1000009000);

// The platform commands, as one table: the chain's (LoaderInstance) and each driver's (DriverInstance).
// X(command name, member, PFN type)
#define KL_VK_WSI_PLATFORM_COMMANDS(X)                                                                              \
  X("vkCreateXlibSurfaceKHR", CreateXlibSurfaceKHR, PFN_klCreateXlibSurfaceKHR)                                     \
  X("vkCreateXcbSurfaceKHR", CreateXcbSurfaceKHR, PFN_klCreateXcbSurfaceKHR)                                        \
  X("vkCreateWaylandSurfaceKHR", CreateWaylandSurfaceKHR, PFN_klCreateWaylandSurfaceKHR)                            \
  X("vkCreateWin32SurfaceKHR", CreateWin32SurfaceKHR, PFN_klCreateWin32SurfaceKHR)                                  \
  X("vkGetPhysicalDeviceXlibPresentationSupportKHR", GetPhysicalDeviceXlibPresentationSupportKHR,                   \
    PFN_klGetPhysicalDeviceXlibPresentationSupportKHR)                                                              \
  X("vkGetPhysicalDeviceXcbPresentationSupportKHR", GetPhysicalDeviceXcbPresentationSupportKHR,                     \
    PFN_klGetPhysicalDeviceXcbPresentationSupportKHR)                                                               \
  X("vkGetPhysicalDeviceWaylandPresentationSupportKHR", GetPhysicalDeviceWaylandPresentationSupportKHR,             \
    PFN_klGetPhysicalDeviceWaylandPresentationSupportKHR)                                                           \
  X("vkGetPhysicalDeviceWin32PresentationSupportKHR", GetPhysicalDeviceWin32PresentationSupportKHR,                 \
    PFN_klGetPhysicalDeviceWin32PresentationSupportKHR)

struct WsiPlatformTable {
#define KL_VK_WSI_MEMBER(name, member, type) type member = nullptr;
  KL_VK_WSI_PLATFORM_COMMANDS(KL_VK_WSI_MEMBER)
#undef KL_VK_WSI_MEMBER
  // Fills every member from `gipa` (NULL where it has none).
  void Fill(PFN_vkGetInstanceProcAddr gipa, VkInstance instance) {
#define KL_VK_WSI_FILL(name, member, type) member = reinterpret_cast<type>(gipa(instance, name));
    KL_VK_WSI_PLATFORM_COMMANDS(KL_VK_WSI_FILL)
#undef KL_VK_WSI_FILL
  }
};

}  // namespace kl::vulkan
