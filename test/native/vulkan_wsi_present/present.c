/* Presents a known colour into an X11 window through a Vulkan loader and reads the window's pixels
 * back from the X server (XGetImage). The loader is this package's addon (already loaded by node:
 * dlopen RTLD_NOLOAD, its exported vkGetInstanceProcAddr, the plan JavaScript published) or any
 * libvulkan (the Khronos loader, for comparison: the kl_vk_wsi_present program). The window is
 * made with Xlib or with XCB; the surface with vkCreateXlibSurfaceKHR or vkCreateXcbSurfaceKHR.
 *
 * kl_wsi_present(loader, noload, display, mode, rgb, validation, report, size) writes
 *   "ok pixel=<rrggbb> support=<0|1> platform=<0|1> messages=<n> acquire=<r> present=<r> after-resize=<acquire>/<present> destroyed"
 * or "error: <step> <VkResult>" (then returns -1). mode: "xlib", "xcb", "xlib-resize" (resize the
 * window after the first present and report acquire/present after it), "not-a-window" (an XID
 * that is no window: reports "not-a-window create=<r> caps=<r>"), "wayland" (where built with
 * wayland-client: `display` is the compositor's socket, an absolute path; an xdg-shell toplevel's
 * wl_surface, vkCreateWaylandSurfaceKHR, vkGetPhysicalDeviceWaylandPresentationSupportKHR; no
 * readback, pixel=none). `messages` counts the warnings
 * and errors VK_LAYER_KHRONOS_validation (when `validation`) reported through VK_EXT_debug_utils;
 * the first one's text follows as " first=<text>". */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <xcb/xcb.h>

#include "generated/vulkan_types.h"

#ifdef KL_WSI_WAYLAND
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"
#endif

#define KL_EXPORT __attribute__((visibility("default")))

#define WIDTH 64
#define HEIGHT 48

/* VK_KHR_xlib_surface / VK_KHR_xcb_surface (the generated headers leave the platform types out). */
typedef struct {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  Display* dpy;
  Window window;
} XlibSurfaceCreateInfo;
typedef struct {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  xcb_connection_t* connection;
  xcb_window_t window;
} XcbSurfaceCreateInfo;
typedef VkResult(VKAPI_PTR* PFN_CreateXlibSurface)(VkInstance, const XlibSurfaceCreateInfo*, const VkAllocationCallbacks*, VkSurfaceKHR*);
typedef VkResult(VKAPI_PTR* PFN_CreateXcbSurface)(VkInstance, const XcbSurfaceCreateInfo*, const VkAllocationCallbacks*, VkSurfaceKHR*);
typedef VkBool32(VKAPI_PTR* PFN_XlibSupport)(VkPhysicalDevice, uint32_t, Display*, VisualID);
typedef VkBool32(VKAPI_PTR* PFN_XcbSupport)(VkPhysicalDevice, uint32_t, xcb_connection_t*, xcb_visualid_t);
#define XLIB_SURFACE_CREATE_INFO ((VkStructureType)1000004000)
#define XCB_SURFACE_CREATE_INFO ((VkStructureType)1000005000)
#ifdef KL_WSI_WAYLAND
/* VK_KHR_wayland_surface. */
typedef struct {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  struct wl_display* display;
  struct wl_surface* surface;
} WaylandSurfaceCreateInfo;
typedef VkResult(VKAPI_PTR* PFN_CreateWaylandSurface)(VkInstance, const WaylandSurfaceCreateInfo*, const VkAllocationCallbacks*, VkSurfaceKHR*);
typedef VkBool32(VKAPI_PTR* PFN_WaylandSupport)(VkPhysicalDevice, uint32_t, struct wl_display*);
#define WAYLAND_SURFACE_CREATE_INFO ((VkStructureType)1000006000)

/* A toplevel on the compositor: wl_compositor and xdg_wm_base from the registry, a wl_surface with
 * the xdg_toplevel role, configured (acknowledged) before the driver attaches its first buffer. */
typedef struct {
  struct wl_display* display;
  struct wl_registry* registry;
  struct wl_compositor* compositor;
  struct xdg_wm_base* wm;
  struct wl_surface* surface;
  struct xdg_surface* xdgSurface;
  struct xdg_toplevel* toplevel;
  int configured;
} Wayland;

static void OnGlobal(void* data, struct wl_registry* registry, uint32_t name, const char* interface, uint32_t version) {
  Wayland* w = (Wayland*)data;
  (void)version;
  if (strcmp(interface, wl_compositor_interface.name) == 0) w->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
  if (strcmp(interface, xdg_wm_base_interface.name) == 0) w->wm = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
}
static void OnGlobalRemove(void* data, struct wl_registry* registry, uint32_t name) {
  (void)data;
  (void)registry;
  (void)name;
}
static const struct wl_registry_listener kRegistryListener = {OnGlobal, OnGlobalRemove};
static void OnPing(void* data, struct xdg_wm_base* wm, uint32_t serial) {
  (void)data;
  xdg_wm_base_pong(wm, serial);
}
static const struct xdg_wm_base_listener kWmListener = {OnPing};
static void OnConfigure(void* data, struct xdg_surface* surface, uint32_t serial) {
  xdg_surface_ack_configure(surface, serial);
  ((Wayland*)data)->configured = 1;
}
static const struct xdg_surface_listener kXdgSurfaceListener = {OnConfigure};

/* 0, or -1 with the failed step in `step`. */
static int WaylandOpen(Wayland* w, const char* socketPath, const char** step) {
  w->display = wl_display_connect(socketPath);
  if (w->display == NULL) return *step = "wl_display_connect", -1;
  w->registry = wl_display_get_registry(w->display);
  wl_registry_add_listener(w->registry, &kRegistryListener, w);
  if (wl_display_roundtrip(w->display) < 0) return *step = "wl_display_roundtrip", -1;
  if (w->compositor == NULL || w->wm == NULL) return *step = "wl_compositor/xdg_wm_base", -1;
  xdg_wm_base_add_listener(w->wm, &kWmListener, w);
  w->surface = wl_compositor_create_surface(w->compositor);
  w->xdgSurface = xdg_wm_base_get_xdg_surface(w->wm, w->surface);
  xdg_surface_add_listener(w->xdgSurface, &kXdgSurfaceListener, w);
  w->toplevel = xdg_surface_get_toplevel(w->xdgSurface);
  xdg_toplevel_set_title(w->toplevel, "kl-wsi-present");
  wl_surface_commit(w->surface);
  while (!w->configured) {
    if (wl_display_dispatch(w->display) < 0) return *step = "wl_display_dispatch", -1;
  }
  return 0;
}
static void WaylandClose(Wayland* w) {
  if (w->toplevel) xdg_toplevel_destroy(w->toplevel);
  if (w->xdgSurface) xdg_surface_destroy(w->xdgSurface);
  if (w->surface) wl_surface_destroy(w->surface);
  if (w->wm) xdg_wm_base_destroy(w->wm);
  if (w->compositor) wl_compositor_destroy(w->compositor);
  if (w->registry) wl_registry_destroy(w->registry);
  if (w->display) wl_display_disconnect(w->display);
}
#endif

/* A Wayland toplevel for a test that creates the surface itself (the typed API,
 * test/system/vulkan-wsi-wayland-typed.test.ts): kl_wayland_window_open connects to the
 * compositor's socket and makes a configured xdg-shell toplevel (NULL, the failed step in `error`);
 * kl_wayland_window_display / _surface give its wl_display* and wl_surface* as integers, the way
 * Node window libraries hand them out; kl_wayland_window_roundtrip answers the compositor's pings
 * and configures (the default queue, which the driver's swapchain does not use);
 * kl_wayland_window_close destroys it. */
KL_EXPORT void* kl_wayland_window_open(const char* socketPath, char* error, size_t size) {
#ifdef KL_WSI_WAYLAND
  Wayland* w = calloc(1, sizeof(Wayland));
  const char* step = "calloc";
  if (w != NULL && WaylandOpen(w, socketPath, &step) == 0) return w;
  snprintf(error, size, "%s", step);
  if (w != NULL) WaylandClose(w);
  free(w);
#else
  (void)socketPath;
  snprintf(error, size, "built without wayland-client");
#endif
  return NULL;
}
KL_EXPORT uint64_t kl_wayland_window_display(void* window) {
#ifdef KL_WSI_WAYLAND
  return (uint64_t)(uintptr_t)((Wayland*)window)->display;
#else
  (void)window;
  return 0;
#endif
}
KL_EXPORT uint64_t kl_wayland_window_surface(void* window) {
#ifdef KL_WSI_WAYLAND
  return (uint64_t)(uintptr_t)((Wayland*)window)->surface;
#else
  (void)window;
  return 0;
#endif
}
KL_EXPORT int kl_wayland_window_roundtrip(void* window) {
#ifdef KL_WSI_WAYLAND
  return wl_display_roundtrip(((Wayland*)window)->display);
#else
  (void)window;
  return -1;
#endif
}
KL_EXPORT void kl_wayland_window_close(void* window) {
#ifdef KL_WSI_WAYLAND
  if (window == NULL) return;
  WaylandClose((Wayland*)window);
  free(window);
#else
  (void)window;
#endif
}

typedef struct {
  int count;
  char first[256];
} Messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  (void)types;
  Messages* m = (Messages*)user;
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    if (m->count++ == 0 && data != NULL && data->pMessage != NULL) snprintf(m->first, sizeof(m->first), "%s", data->pMessage);
  }
  return VK_FALSE;
}

typedef struct {
  PFN_vkGetInstanceProcAddr gipa;
  VkInstance instance;
#define F(name) PFN_##name name
  F(vkDestroyInstance);
  F(vkEnumeratePhysicalDevices);
  F(vkGetPhysicalDeviceQueueFamilyProperties);
  F(vkGetPhysicalDeviceSurfaceSupportKHR);
  F(vkGetPhysicalDeviceSurfaceCapabilitiesKHR);
  F(vkGetPhysicalDeviceSurfaceFormatsKHR);
  F(vkGetPhysicalDeviceSurfacePresentModesKHR);
  F(vkDestroySurfaceKHR);
  F(vkCreateDevice);
  F(vkGetDeviceProcAddr);
  F(vkCreateDebugUtilsMessengerEXT);
  F(vkDestroyDebugUtilsMessengerEXT);
  F(vkDestroyDevice);
  F(vkGetDeviceQueue);
  F(vkCreateSwapchainKHR);
  F(vkDestroySwapchainKHR);
  F(vkGetSwapchainImagesKHR);
  F(vkAcquireNextImageKHR);
  F(vkQueuePresentKHR);
  F(vkCreateCommandPool);
  F(vkDestroyCommandPool);
  F(vkAllocateCommandBuffers);
  F(vkBeginCommandBuffer);
  F(vkEndCommandBuffer);
  F(vkCmdPipelineBarrier);
  F(vkCmdClearColorImage);
  F(vkQueueSubmit);
  F(vkQueueWaitIdle);
  F(vkDeviceWaitIdle);
  F(vkCreateSemaphore);
  F(vkDestroySemaphore);
  F(vkCreateFence);
  F(vkDestroyFence);
  F(vkWaitForFences);
  F(vkResetFences);
#undef F
  PFN_CreateXlibSurface createXlib;
  PFN_CreateXcbSurface createXcb;
  PFN_XlibSupport xlibSupport;
  PFN_XcbSupport xcbSupport;
#ifdef KL_WSI_WAYLAND
  PFN_CreateWaylandSurface createWayland;
  PFN_WaylandSupport waylandSupport;
#endif
} Vk;

#define LOAD_I(vk, name) (vk)->name = (PFN_##name)(vk)->gipa((vk)->instance, #name)

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The window's centre pixel as 0xRRGGBB, polled until it is no longer the background (black) or
 * two seconds have passed: the driver's image reaches the X server on its own connection. */
static unsigned long ReadPixel(Display* dpy, Window window) {
  unsigned long pixel = 0;
  const double deadline = Now() + 2.0;
  do {
    XSync(dpy, False);
    XImage* image = XGetImage(dpy, window, WIDTH / 2, HEIGHT / 2, 1, 1, AllPlanes, ZPixmap);
    if (image != NULL) {
      pixel = XGetPixel(image, 0, 0) & 0xffffff;
      XDestroyImage(image);
    }
  } while (pixel == 0 && Now() < deadline);
  return pixel;
}

/* One frame: acquire, clear the image to `rgb`, present. */
static VkResult Frame(Vk* vk, VkDevice device, VkQueue queue, VkSwapchainKHR swapchain, const VkImage* images, VkCommandBuffer cmd,
                      VkSemaphore acquired, VkSemaphore rendered, VkFence fence, unsigned rgb, VkResult* acquireResult) {
  uint32_t index = 0;
  VkResult res = vk->vkAcquireNextImageKHR(device, swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, &index);
  *acquireResult = res;
  if (res != VK_SUCCESS && res != VK_SUBOPTIMAL_KHR) return res;
  VkCommandBufferBeginInfo begin;
  memset(&begin, 0, sizeof(begin));
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk->vkBeginCommandBuffer(cmd, &begin);
  VkImageMemoryBarrier barrier;
  memset(&barrier, 0, sizeof(barrier));
  barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  barrier.srcAccessMask = 0;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = images[index];
  barrier.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
  barrier.subresourceRange.levelCount = 1;
  barrier.subresourceRange.layerCount = 1;
  vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &barrier);
  VkClearColorValue colour;
  memset(&colour, 0, sizeof(colour));
  colour.float32[0] = (float)((rgb >> 16) & 0xff) / 255.0f;
  colour.float32[1] = (float)((rgb >> 8) & 0xff) / 255.0f;
  colour.float32[2] = (float)(rgb & 0xff) / 255.0f;
  colour.float32[3] = 1.0f;
  vk->vkCmdClearColorImage(cmd, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1, &barrier.subresourceRange);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = 0;
  barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, NULL, 0, NULL, 1, &barrier);
  vk->vkEndCommandBuffer(cmd);
  VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo submit;
  memset(&submit, 0, sizeof(submit));
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &acquired;
  submit.pWaitDstStageMask = &waitStage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &rendered;
  vk->vkResetFences(device, 1, &fence);
  res = vk->vkQueueSubmit(queue, 1, &submit, fence);
  if (res != VK_SUCCESS) return res;
  VkPresentInfoKHR present;
  memset(&present, 0, sizeof(present));
  present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &index;
  res = vk->vkQueuePresentKHR(queue, &present);
  vk->vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
  return res;
}

#define FAIL(step, res)                                        \
  do {                                                         \
    snprintf(report, size, "error: %s %d", step, (int)(res)); \
    rc = -1;                                                   \
    goto done;                                                 \
  } while (0)

KL_EXPORT int kl_wsi_present(const char* loaderPath, int noload, const char* displayName, const char* mode, unsigned rgb, int validation,
                             char* report, size_t size) {
  int rc = 0;
  const int useXcb = strcmp(mode, "xcb") == 0;
  const int resize = strcmp(mode, "xlib-resize") == 0;
  const int notAWindow = strcmp(mode, "not-a-window") == 0;
  const int useWayland = strcmp(mode, "wayland") == 0;
#ifdef KL_WSI_WAYLAND
  Wayland wl;
  memset(&wl, 0, sizeof(wl));
#else
  if (useWayland) {
    snprintf(report, size, "error: built without wayland-client");
    return -1;
  }
#endif
  Vk vk;
  memset(&vk, 0, sizeof(vk));
  Messages messages;
  memset(&messages, 0, sizeof(messages));
  Display* dpy = NULL;
  xcb_connection_t* xcb = NULL;
  Window window = 0;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkDevice device = NULL;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkSemaphore acquired = VK_NULL_HANDLE, rendered = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkResult res;

  void* loader = dlopen(loaderPath, noload ? (RTLD_NOW | RTLD_NOLOAD) : (RTLD_NOW | RTLD_LOCAL));
  if (loader == NULL) {
    snprintf(report, size, "error: dlopen %s", dlerror());
    return -1;
  }
  vk.gipa = (PFN_vkGetInstanceProcAddr)dlsym(loader, "vkGetInstanceProcAddr");
  if (vk.gipa == NULL) FAIL("dlsym", 0);

  /* The window: Xlib's, or XCB's (read back through Xlib all the same: the window is the server's),
   * or a Wayland toplevel. */
  if (useWayland) {
#ifdef KL_WSI_WAYLAND
    const char* step = NULL;
    if (WaylandOpen(&wl, displayName, &step) != 0) FAIL(step, 0);
#endif
  } else if ((dpy = XOpenDisplay(displayName)) == NULL) {
    FAIL("XOpenDisplay", 0);
  } else if (useXcb) {
    xcb = xcb_connect(displayName, NULL);
    if (xcb_connection_has_error(xcb)) FAIL("xcb_connect", 0);
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(xcb)).data;
    window = xcb_generate_id(xcb);
    const uint32_t values[] = {screen->black_pixel};
    xcb_create_window(xcb, XCB_COPY_FROM_PARENT, (xcb_window_t)window, screen->root, 0, 0, WIDTH, HEIGHT, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      screen->root_visual, XCB_CW_BACK_PIXEL, values);
    xcb_map_window(xcb, (xcb_window_t)window);
    free(xcb_get_input_focus_reply(xcb, xcb_get_input_focus(xcb), NULL)); /* a round trip: the window exists */
  } else if (notAWindow) {
    window = 0x3fffff7; /* an XID no client was given */
  } else {
    window = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, WIDTH, HEIGHT, 0, 0, BlackPixel(dpy, DefaultScreen(dpy)));
    XMapWindow(dpy, window);
    XSync(dpy, False);
  }

  /* The instance: the surface extensions, debug utils, and the validation layer when asked. */
  PFN_vkCreateInstance createInstance = (PFN_vkCreateInstance)vk.gipa(NULL, "vkCreateInstance");
  if (createInstance == NULL) FAIL("vkCreateInstance lookup", 0);
  const char* extensions[] = {"VK_KHR_surface", useWayland ? "VK_KHR_wayland_surface" : useXcb ? "VK_KHR_xcb_surface" : "VK_KHR_xlib_surface",
                              "VK_EXT_debug_utils"};
  const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo;
  memset(&messengerInfo, 0, sizeof(messengerInfo));
  messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = OnMessage;
  messengerInfo.pUserData = &messages;
  VkApplicationInfo app;
  memset(&app, 0, sizeof(app));
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "kl-wsi-present";
  app.apiVersion = VK_MAKE_API_VERSION(0, 1, 1, 0);
  VkInstanceCreateInfo instanceInfo;
  memset(&instanceInfo, 0, sizeof(instanceInfo));
  instanceInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instanceInfo.pApplicationInfo = &app;
  instanceInfo.enabledExtensionCount = 3;
  instanceInfo.ppEnabledExtensionNames = extensions;
  instanceInfo.enabledLayerCount = validation ? 1 : 0;
  instanceInfo.ppEnabledLayerNames = layers;
  res = createInstance(&instanceInfo, NULL, &vk.instance);
  if (res != VK_SUCCESS) FAIL("vkCreateInstance", res);
  LOAD_I(&vk, vkDestroyInstance);
  LOAD_I(&vk, vkEnumeratePhysicalDevices);
  LOAD_I(&vk, vkGetPhysicalDeviceQueueFamilyProperties);
  LOAD_I(&vk, vkGetPhysicalDeviceSurfaceSupportKHR);
  LOAD_I(&vk, vkGetPhysicalDeviceSurfaceCapabilitiesKHR);
  LOAD_I(&vk, vkGetPhysicalDeviceSurfaceFormatsKHR);
  LOAD_I(&vk, vkGetPhysicalDeviceSurfacePresentModesKHR);
  LOAD_I(&vk, vkDestroySurfaceKHR);
  LOAD_I(&vk, vkCreateDevice);
  LOAD_I(&vk, vkGetDeviceProcAddr);
  LOAD_I(&vk, vkCreateDebugUtilsMessengerEXT);
  LOAD_I(&vk, vkDestroyDebugUtilsMessengerEXT);
  vk.createXlib = (PFN_CreateXlibSurface)vk.gipa(vk.instance, "vkCreateXlibSurfaceKHR");
  vk.createXcb = (PFN_CreateXcbSurface)vk.gipa(vk.instance, "vkCreateXcbSurfaceKHR");
  vk.xlibSupport = (PFN_XlibSupport)vk.gipa(vk.instance, "vkGetPhysicalDeviceXlibPresentationSupportKHR");
  vk.xcbSupport = (PFN_XcbSupport)vk.gipa(vk.instance, "vkGetPhysicalDeviceXcbPresentationSupportKHR");
#ifdef KL_WSI_WAYLAND
  vk.createWayland = (PFN_CreateWaylandSurface)vk.gipa(vk.instance, "vkCreateWaylandSurfaceKHR");
  vk.waylandSupport = (PFN_WaylandSupport)vk.gipa(vk.instance, "vkGetPhysicalDeviceWaylandPresentationSupportKHR");
  if (useWayland && (!vk.createWayland || !vk.waylandSupport)) FAIL("platform commands", 0);
#endif
  if (!vk.vkGetPhysicalDeviceSurfaceSupportKHR || !vk.vkDestroySurfaceKHR || !vk.vkCreateDebugUtilsMessengerEXT) FAIL("surface commands", 0);
  if (!useWayland && (useXcb ? (!vk.createXcb || !vk.xcbSupport) : (!vk.createXlib || !vk.xlibSupport))) FAIL("platform commands", 0);
  res = vk.vkCreateDebugUtilsMessengerEXT(vk.instance, &messengerInfo, NULL, &messenger);
  if (res != VK_SUCCESS) FAIL("vkCreateDebugUtilsMessengerEXT", res);

  if (useWayland) {
#ifdef KL_WSI_WAYLAND
    WaylandSurfaceCreateInfo info = {WAYLAND_SURFACE_CREATE_INFO, NULL, 0, wl.display, wl.surface};
    res = vk.createWayland(vk.instance, &info, NULL, &surface);
#endif
  } else if (useXcb) {
    XcbSurfaceCreateInfo info = {XCB_SURFACE_CREATE_INFO, NULL, 0, xcb, (xcb_window_t)window};
    res = vk.createXcb(vk.instance, &info, NULL, &surface);
  } else {
    XlibSurfaceCreateInfo info = {XLIB_SURFACE_CREATE_INFO, NULL, 0, dpy, window};
    res = vk.createXlib(vk.instance, &info, NULL, &surface);
  }
  if (notAWindow) {
    const VkResult created = res;
    VkPhysicalDevice pds[4];
    uint32_t n = 4;
    vk.vkEnumeratePhysicalDevices(vk.instance, &n, pds);
    VkSurfaceCapabilitiesKHR caps;
    const VkResult capsRes = created == VK_SUCCESS ? vk.vkGetPhysicalDeviceSurfaceCapabilitiesKHR(pds[0], surface, &caps) : created;
    snprintf(report, size, "not-a-window create=%d caps=%d messages=%d", (int)created, (int)capsRes, messages.count);
    goto done;
  }
  if (res != VK_SUCCESS) FAIL("vkCreate*SurfaceKHR", res);

  VkPhysicalDevice physicalDevice = NULL;
  uint32_t count = 1;
  res = vk.vkEnumeratePhysicalDevices(vk.instance, &count, &physicalDevice);
  if ((res != VK_SUCCESS && res != VK_INCOMPLETE) || count == 0) FAIL("vkEnumeratePhysicalDevices", res);
  uint32_t families = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &families, NULL);
  VkQueueFamilyProperties props[16];
  if (families > 16) families = 16;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &families, props);
  uint32_t family = UINT32_MAX;
  VkBool32 supported = VK_FALSE;
  for (uint32_t f = 0; f < families && family == UINT32_MAX; ++f) {
    res = vk.vkGetPhysicalDeviceSurfaceSupportKHR(physicalDevice, f, surface, &supported);
    if (res != VK_SUCCESS) FAIL("vkGetPhysicalDeviceSurfaceSupportKHR", res);
    if (supported && (props[f].queueFlags & VK_QUEUE_GRAPHICS_BIT)) family = f;
  }
  if (family == UINT32_MAX) FAIL("no queue family presents", 0);
  VkBool32 platformSupport = VK_FALSE;
  if (useWayland) {
#ifdef KL_WSI_WAYLAND
    platformSupport = vk.waylandSupport(physicalDevice, family, wl.display);
#endif
  } else if (useXcb) {
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(xcb)).data;
    platformSupport = vk.xcbSupport(physicalDevice, family, xcb, screen->root_visual);
  } else {
    platformSupport = vk.xlibSupport(physicalDevice, family, dpy, XVisualIDFromVisual(DefaultVisual(dpy, DefaultScreen(dpy))));
  }

  VkSurfaceCapabilitiesKHR caps;
  res = vk.vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps);
  if (res != VK_SUCCESS) FAIL("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", res);
  VkSurfaceFormatKHR formats[32];
  uint32_t formatCount = 32;
  res = vk.vkGetPhysicalDeviceSurfaceFormatsKHR(physicalDevice, surface, &formatCount, formats);
  if (res != VK_SUCCESS && res != VK_INCOMPLETE) FAIL("vkGetPhysicalDeviceSurfaceFormatsKHR", res);
  /* FIFO, the present mode the swapchain uses, is one every surface supports. */
  VkPresentModeKHR modes[16];
  uint32_t modeCount = 16;
  res = vk.vkGetPhysicalDeviceSurfacePresentModesKHR(physicalDevice, surface, &modeCount, modes);
  if (res != VK_SUCCESS && res != VK_INCOMPLETE) FAIL("vkGetPhysicalDeviceSurfacePresentModesKHR", res);
  int fifo = 0;
  for (uint32_t i = 0; i < modeCount; ++i) fifo |= modes[i] == VK_PRESENT_MODE_FIFO_KHR;
  if (!fifo) FAIL("no FIFO present mode", 0);
  VkSurfaceFormatKHR format = formats[0];
  for (uint32_t i = 0; i < formatCount; ++i) {
    if (formats[i].format == VK_FORMAT_B8G8R8A8_UNORM) format = formats[i];
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo;
  memset(&queueInfo, 0, sizeof(queueInfo));
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  const char* deviceExtensions[] = {"VK_KHR_swapchain"};
  VkDeviceCreateInfo deviceInfo;
  memset(&deviceInfo, 0, sizeof(deviceInfo));
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = 1;
  deviceInfo.ppEnabledExtensionNames = deviceExtensions;
  res = vk.vkCreateDevice(physicalDevice, &deviceInfo, NULL, &device);
  if (res != VK_SUCCESS) FAIL("vkCreateDevice", res);
#define LOAD_D(name) vk.name = (PFN_##name)vk.vkGetDeviceProcAddr(device, #name)
  LOAD_D(vkDestroyDevice);
  LOAD_D(vkGetDeviceQueue);
  LOAD_D(vkCreateSwapchainKHR);
  LOAD_D(vkDestroySwapchainKHR);
  LOAD_D(vkGetSwapchainImagesKHR);
  LOAD_D(vkAcquireNextImageKHR);
  LOAD_D(vkQueuePresentKHR);
  LOAD_D(vkCreateCommandPool);
  LOAD_D(vkDestroyCommandPool);
  LOAD_D(vkAllocateCommandBuffers);
  LOAD_D(vkBeginCommandBuffer);
  LOAD_D(vkEndCommandBuffer);
  LOAD_D(vkCmdPipelineBarrier);
  LOAD_D(vkCmdClearColorImage);
  LOAD_D(vkQueueSubmit);
  LOAD_D(vkQueueWaitIdle);
  LOAD_D(vkDeviceWaitIdle);
  LOAD_D(vkCreateSemaphore);
  LOAD_D(vkDestroySemaphore);
  LOAD_D(vkCreateFence);
  LOAD_D(vkDestroyFence);
  LOAD_D(vkWaitForFences);
  LOAD_D(vkResetFences);
#undef LOAD_D
  if (!vk.vkCreateSwapchainKHR || !vk.vkQueuePresentKHR || !vk.vkAcquireNextImageKHR) FAIL("swapchain commands", 0);
  VkQueue queue = NULL;
  vk.vkGetDeviceQueue(device, family, 0, &queue);

  VkSwapchainCreateInfoKHR swapchainInfo;
  memset(&swapchainInfo, 0, sizeof(swapchainInfo));
  swapchainInfo.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
  swapchainInfo.surface = surface;
  swapchainInfo.minImageCount = caps.minImageCount;
  swapchainInfo.imageFormat = format.format;
  swapchainInfo.imageColorSpace = format.colorSpace;
  swapchainInfo.imageExtent = caps.currentExtent;
  if (caps.currentExtent.width == UINT32_MAX) { /* the surface takes the swapchain's size (Wayland) */
    swapchainInfo.imageExtent.width = WIDTH;
    swapchainInfo.imageExtent.height = HEIGHT;
  }
  swapchainInfo.imageArrayLayers = 1;
  swapchainInfo.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  swapchainInfo.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  swapchainInfo.preTransform = caps.currentTransform;
  swapchainInfo.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                                                                                                    : VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
  swapchainInfo.presentMode = VK_PRESENT_MODE_FIFO_KHR;
  swapchainInfo.clipped = VK_TRUE;
  res = vk.vkCreateSwapchainKHR(device, &swapchainInfo, NULL, &swapchain);
  if (res != VK_SUCCESS) FAIL("vkCreateSwapchainKHR", res);
  VkImage images[8];
  uint32_t imageCount = 8;
  res = vk.vkGetSwapchainImagesKHR(device, swapchain, &imageCount, images);
  if (res != VK_SUCCESS) FAIL("vkGetSwapchainImagesKHR", res);

  VkCommandPoolCreateInfo poolInfo;
  memset(&poolInfo, 0, sizeof(poolInfo));
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = family;
  vk.vkCreateCommandPool(device, &poolInfo, NULL, &pool);
  VkCommandBufferAllocateInfo allocInfo;
  memset(&allocInfo, 0, sizeof(allocInfo));
  allocInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocInfo.commandPool = pool;
  allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocInfo.commandBufferCount = 1;
  VkCommandBuffer cmd = NULL;
  res = vk.vkAllocateCommandBuffers(device, &allocInfo, &cmd);
  if (res != VK_SUCCESS) FAIL("vkAllocateCommandBuffers", res);
  VkSemaphoreCreateInfo semInfo;
  memset(&semInfo, 0, sizeof(semInfo));
  semInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  vk.vkCreateSemaphore(device, &semInfo, NULL, &acquired);
  vk.vkCreateSemaphore(device, &semInfo, NULL, &rendered);
  VkFenceCreateInfo fenceInfo;
  memset(&fenceInfo, 0, sizeof(fenceInfo));
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  vk.vkCreateFence(device, &fenceInfo, NULL, &fence);

  VkResult acquireRes = VK_SUCCESS, presentRes = VK_SUCCESS;
  for (int frame = 0; frame < 3; ++frame) {
    presentRes = Frame(&vk, device, queue, swapchain, images, cmd, acquired, rendered, fence, rgb, &acquireRes);
    if (presentRes != VK_SUCCESS) break;
  }
  vk.vkDeviceWaitIdle(device);
  char pixel[16] = "none";
  if (!useWayland) snprintf(pixel, sizeof(pixel), "%06lx", ReadPixel(dpy, window));
  VkResult afterAcquire = VK_SUCCESS, afterPresent = VK_SUCCESS;
  if (resize) {
    XResizeWindow(dpy, window, WIDTH * 2, HEIGHT * 2);
    XSync(dpy, False);
    /* Until the driver sees the new size (its own connection), or two seconds. */
    const double deadline = Now() + 2.0;
    do {
      afterPresent = Frame(&vk, device, queue, swapchain, images, cmd, acquired, rendered, fence, rgb, &afterAcquire);
      vk.vkDeviceWaitIdle(device);
    } while (afterPresent == VK_SUCCESS && afterAcquire == VK_SUCCESS && Now() < deadline);
  }
  snprintf(report, size, "ok pixel=%s support=%d platform=%d messages=%d acquire=%d present=%d after-resize=%d/%d", pixel, (int)supported,
           (int)platformSupport, messages.count, (int)acquireRes, (int)presentRes, (int)afterAcquire, (int)afterPresent);

done:
  if (device != NULL) {
    vk.vkDeviceWaitIdle(device);
    if (fence) vk.vkDestroyFence(device, fence, NULL);
    if (acquired) vk.vkDestroySemaphore(device, acquired, NULL);
    if (rendered) vk.vkDestroySemaphore(device, rendered, NULL);
    if (pool) vk.vkDestroyCommandPool(device, pool, NULL);
    if (swapchain) vk.vkDestroySwapchainKHR(device, swapchain, NULL);
    vk.vkDestroyDevice(device, NULL);
  }
  if (vk.instance != NULL) {
    if (surface) vk.vkDestroySurfaceKHR(vk.instance, surface, NULL);
    if (messenger) vk.vkDestroyDebugUtilsMessengerEXT(vk.instance, messenger, NULL);
    vk.vkDestroyInstance(vk.instance, NULL);
  }
  if (rc == 0 && messages.count > 0) {
    const size_t used = strlen(report);
    snprintf(report + used, size - used, " first=%s", messages.first);
  }
  if (rc == 0 && !notAWindow) {
    const size_t used = strlen(report);
    snprintf(report + used, size - used, " destroyed");
  }
#ifdef KL_WSI_WAYLAND
  WaylandClose(&wl);
#endif
  if (xcb != NULL) xcb_disconnect(xcb);
  if (dpy != NULL) {
    if (window != 0 && !useXcb && !notAWindow) XDestroyWindow(dpy, window);
    XCloseDisplay(dpy);
  }
  dlclose(loader); /* with RTLD_NOLOAD only the reference this function took: node keeps the addon */
  return rc;
}
