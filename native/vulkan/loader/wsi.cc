// Window-system integration (wsi.h): loader-owned surfaces, the surface terminators at the bottom
// of the instance chain, the device terminators that hand the driver its own surface, and the
// application-facing platform commands. Behaviour as the Khronos loader's (LoaderDriverInterface,
// "Handling KHR Surface Objects in WSI Extensions"); where this loader differs (a surface handle
// it never made is refused, not passed on) docs/conformance.md says so.
#include "vulkan/loader/wsi.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "common/log.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"
#include "vulkan/loader/trampolines.h"

namespace kl::vulkan {

// ---- LoaderSurface ----

LoaderSurface::LoaderSurface(LoaderInstance* owner, const IcdSurface& icd, const void* createInfo, std::size_t createInfoSize,
                             const VkAllocationCallbacks* allocator)
    : icd_(icd), owner_(owner), createInfo_(createInfoSize) {
  std::memcpy(createInfo_.data(), createInfo, createInfoSize);
  // Every platform create info starts with sType and pNext; the copy carries no chain.
  reinterpret_cast<VkBaseOutStructure*>(createInfo_.data())->pNext = nullptr;
  if (allocator != nullptr) {
    hasAllocator_ = true;
    allocator_ = *allocator;
  }
}

LoaderSurface* LoaderSurface::FromHandle(VkSurfaceKHR surface, const LoaderInstance* owner) noexcept {
  if (surface == VK_NULL_HANDLE || owner == nullptr) return nullptr;
  return owner->FindSurface(surface);
}

VkResult LoaderSurface::ForDriver(DriverInstance& driver, VkSurfaceKHR* out) {
  if (driver.driver->interfaceVersion < kDriverSurfaceInterfaceVersion) {
    *out = handle();  // the driver reads the VkIcdSurface* structure at the start of this object
    return VK_SUCCESS;
  }
  std::lock_guard lock(mutex_);
  for (const auto& [d, s] : driverSurfaces_) {
    if (d == &driver) {
      *out = s;
      return VK_SUCCESS;
    }
  }
  const auto enabled = [&](std::string_view extension) { return Contains(driver.enabledExtensions, extension); };
  const VkAllocationCallbacks* allocator = hasAllocator_ ? &allocator_ : nullptr;
  const void* info = createInfo_.data();
  VkSurfaceKHR made = VK_NULL_HANDLE;
  VkResult res = VK_ERROR_EXTENSION_NOT_PRESENT;
  switch (icd_.base.platform) {
    case KL_ICD_WSI_PLATFORM_XLIB:
      if (driver.wsi.CreateXlibSurfaceKHR != nullptr && enabled("VK_KHR_xlib_surface")) {
        res = driver.wsi.CreateXlibSurfaceKHR(driver.handle, static_cast<const KlXlibSurfaceCreateInfoKHR*>(info), allocator, &made);
      }
      break;
    case KL_ICD_WSI_PLATFORM_XCB:
      if (driver.wsi.CreateXcbSurfaceKHR != nullptr && enabled("VK_KHR_xcb_surface")) {
        res = driver.wsi.CreateXcbSurfaceKHR(driver.handle, static_cast<const KlXcbSurfaceCreateInfoKHR*>(info), allocator, &made);
      }
      break;
    case KL_ICD_WSI_PLATFORM_WAYLAND:
      if (driver.wsi.CreateWaylandSurfaceKHR != nullptr && enabled("VK_KHR_wayland_surface")) {
        res = driver.wsi.CreateWaylandSurfaceKHR(driver.handle, static_cast<const KlWaylandSurfaceCreateInfoKHR*>(info), allocator, &made);
      }
      break;
    case KL_ICD_WSI_PLATFORM_WIN32:
      if (driver.wsi.CreateWin32SurfaceKHR != nullptr && enabled("VK_KHR_win32_surface")) {
        res = driver.wsi.CreateWin32SurfaceKHR(driver.handle, static_cast<const KlWin32SurfaceCreateInfoKHR*>(info), allocator, &made);
      }
      break;
    case KL_ICD_WSI_PLATFORM_HEADLESS:
      if (driver.table.CreateHeadlessSurfaceEXT != nullptr && enabled("VK_EXT_headless_surface")) {
        res = driver.table.CreateHeadlessSurfaceEXT(driver.handle, static_cast<const VkHeadlessSurfaceCreateInfoEXT*>(info), allocator, &made);
      }
      break;
    default:
      break;
  }
  if (res != VK_SUCCESS) {
    Log(LogLevel::Warn, "vulkan.wsi",
        DescribeDriver(driver.driver->description) + ": could not make its surface for the loader's (VkResult " + std::to_string(res) + ")");
    return res;
  }
  driverSurfaces_.emplace_back(&driver, made);
  *out = made;
  return VK_SUCCESS;
}

void LoaderSurface::DestroyDriverSurfaces(const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(mutex_);
  for (const auto& [d, s] : driverSurfaces_) {
    if (d->table.DestroySurfaceKHR != nullptr) d->table.DestroySurfaceKHR(d->handle, s, allocator);
  }
  driverSurfaces_.clear();
}

// ---- LoaderInstance's surfaces ----

bool LoaderInstance::ExtensionEnabled(std::string_view name) const noexcept { return Contains(enabledExtensions_, name); }

LoaderSurface* LoaderInstance::FindSurface(VkSurfaceKHR surface) const {
  std::lock_guard lock(mutex_);
  const auto it = std::find_if(surfaces_.begin(), surfaces_.end(), [&](const auto& s) { return s->handle() == surface; });
  return it == surfaces_.end() ? nullptr : it->get();
}

VkResult LoaderInstance::TerminatorCreateSurface(const char* command, std::string_view extension, const LoaderSurface::IcdSurface& icd,
                                                 const void* createInfo, std::size_t createInfoSize, const VkAllocationCallbacks* allocator,
                                                 VkSurfaceKHR* surface) {
  if (!ExtensionEnabled(extension)) {
    Report(LogLevel::Error, std::string(extension) + " is not enabled; " + command + " not executed");
    return VK_ERROR_EXTENSION_NOT_PRESENT;
  }
  if (createInfo == nullptr || surface == nullptr) {
    Report(LogLevel::Error, std::string(command) + ": pCreateInfo and pSurface must not be NULL");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  auto made = std::make_unique<LoaderSurface>(this, icd, createInfo, createInfoSize, allocator);
  *surface = made->handle();
  std::lock_guard lock(mutex_);
  surfaces_.push_back(std::move(made));
  return VK_SUCCESS;
}

void LoaderInstance::TerminatorDestroySurface(VkSurfaceKHR surface, const VkAllocationCallbacks* allocator) {
  if (surface == VK_NULL_HANDLE) return;  // valid: destroys nothing
  std::unique_ptr<LoaderSurface> gone;
  {
    std::lock_guard lock(mutex_);
    const auto it = std::find_if(surfaces_.begin(), surfaces_.end(), [&](const auto& s) { return s->handle() == surface; });
    if (it == surfaces_.end()) {
      Log(LogLevel::Error, "vulkan.wsi", "vkDestroySurfaceKHR: not a live surface of this instance; nothing destroyed");
      return;
    }
    gone = std::move(*it);
    surfaces_.erase(it);
  }
  gone->DestroyDriverSurfaces(allocator);
}

namespace {

PhysicalDeviceObject& Term(VkPhysicalDevice physicalDevice) { return *reinterpret_cast<PhysicalDeviceObject*>(physicalDevice); }

// The surface the physical device's driver is to receive for `surface`; VK_NULL_HANDLE stays
// VK_NULL_HANDLE (the surfaceless queries of VK_GOOGLE_surfaceless_query).
VkResult DriverSurface(PhysicalDeviceObject& pd, const char* command, VkSurfaceKHR surface, VkSurfaceKHR* out) {
  if (surface == VK_NULL_HANDLE) {
    *out = VK_NULL_HANDLE;
    return VK_SUCCESS;
  }
  LoaderSurface* s = LoaderSurface::FromHandle(surface, pd.owner);
  if (s == nullptr) {
    pd.owner->Report(LogLevel::Error, std::string(command) + ": the VkSurfaceKHR is not a live surface of this instance");
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  return s->ForDriver(*pd.driver, out);
}

// The Khronos loader's answer when VK_KHR_surface is off: an error message, VK_SUCCESS, nothing done.
bool SurfaceEnabled(PhysicalDeviceObject& pd, const char* command) {
  if (pd.owner->ExtensionEnabled("VK_KHR_surface")) return true;
  pd.owner->Report(LogLevel::Error, std::string("VK_KHR_surface is not enabled; ") + command + " not executed");
  return false;
}
void DriverLacks(PhysicalDeviceObject& pd, const char* command) {
  pd.owner->Report(LogLevel::Error, DescribeDriver(pd.driver->driver->description) + " has no " + command + " for the physical device");
}

// ---- surface creation and destruction (instance terminators) ----

template <typename Info>
VkResult CreateSurface(VkInstance instance, const char* command, std::string_view extension, KlIcdWsiPlatform platform, const Info* info,
                       const VkAllocationCallbacks* allocator, VkSurfaceKHR* surface, void (*fill)(LoaderSurface::IcdSurface&, const Info&)) {
  LoaderInstance* li = LoaderInstance::FromHandle(instance);
  if (li == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  LoaderSurface::IcdSurface icd{};
  icd.base.platform = platform;
  if (info != nullptr) fill(icd, *info);
  return li->TerminatorCreateSurface(command, extension, icd, info, sizeof(Info), allocator, surface);
}

VkResult VKAPI_CALL CreateXlibSurface(VkInstance instance, const KlXlibSurfaceCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                      VkSurfaceKHR* surface) {
  return CreateSurface<KlXlibSurfaceCreateInfoKHR>(instance, "vkCreateXlibSurfaceKHR", "VK_KHR_xlib_surface", KL_ICD_WSI_PLATFORM_XLIB, info,
                                                   allocator, surface, [](LoaderSurface::IcdSurface& s, const KlXlibSurfaceCreateInfoKHR& i) {
                                                     s.xlib.dpy = i.dpy;
                                                     s.xlib.window = i.window;
                                                   });
}
VkResult VKAPI_CALL CreateXcbSurface(VkInstance instance, const KlXcbSurfaceCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                     VkSurfaceKHR* surface) {
  return CreateSurface<KlXcbSurfaceCreateInfoKHR>(instance, "vkCreateXcbSurfaceKHR", "VK_KHR_xcb_surface", KL_ICD_WSI_PLATFORM_XCB, info,
                                                  allocator, surface, [](LoaderSurface::IcdSurface& s, const KlXcbSurfaceCreateInfoKHR& i) {
                                                    s.xcb.connection = i.connection;
                                                    s.xcb.window = i.window;
                                                  });
}
VkResult VKAPI_CALL CreateWaylandSurface(VkInstance instance, const KlWaylandSurfaceCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                         VkSurfaceKHR* surface) {
  return CreateSurface<KlWaylandSurfaceCreateInfoKHR>(instance, "vkCreateWaylandSurfaceKHR", "VK_KHR_wayland_surface", KL_ICD_WSI_PLATFORM_WAYLAND,
                                                      info, allocator, surface,
                                                      [](LoaderSurface::IcdSurface& s, const KlWaylandSurfaceCreateInfoKHR& i) {
                                                        s.wayland.display = i.display;
                                                        s.wayland.surface = i.surface;
                                                      });
}
VkResult VKAPI_CALL CreateWin32Surface(VkInstance instance, const KlWin32SurfaceCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                       VkSurfaceKHR* surface) {
  return CreateSurface<KlWin32SurfaceCreateInfoKHR>(instance, "vkCreateWin32SurfaceKHR", "VK_KHR_win32_surface", KL_ICD_WSI_PLATFORM_WIN32, info,
                                                    allocator, surface, [](LoaderSurface::IcdSurface& s, const KlWin32SurfaceCreateInfoKHR& i) {
                                                      s.win32.hinstance = i.hinstance;
                                                      s.win32.hwnd = i.hwnd;
                                                    });
}
VkResult VKAPI_CALL CreateHeadlessSurface(VkInstance instance, const VkHeadlessSurfaceCreateInfoEXT* info, const VkAllocationCallbacks* allocator,
                                          VkSurfaceKHR* surface) {
  return CreateSurface<VkHeadlessSurfaceCreateInfoEXT>(instance, "vkCreateHeadlessSurfaceEXT", "VK_EXT_headless_surface", KL_ICD_WSI_PLATFORM_HEADLESS,
                                                       info, allocator, surface, [](LoaderSurface::IcdSurface&, const VkHeadlessSurfaceCreateInfoEXT&) {});
}
void VKAPI_CALL DestroySurface(VkInstance instance, VkSurfaceKHR surface, const VkAllocationCallbacks* allocator) {
  if (LoaderInstance* li = LoaderInstance::FromHandle(instance)) li->TerminatorDestroySurface(surface, allocator);
}

// ---- the platform presentation-support queries ----

VkBool32 VKAPI_CALL XlibPresentationSupport(VkPhysicalDevice p, uint32_t family, Display* dpy, KlXlibVisualId visual) {
  PhysicalDeviceObject& pd = Term(p);
  if (!pd.owner->ExtensionEnabled("VK_KHR_xlib_surface")) return VK_FALSE;
  if (pd.driver->wsi.GetPhysicalDeviceXlibPresentationSupportKHR == nullptr) return DriverLacks(pd, "vkGetPhysicalDeviceXlibPresentationSupportKHR"), VK_FALSE;
  return pd.driver->wsi.GetPhysicalDeviceXlibPresentationSupportKHR(pd.next, family, dpy, visual);
}
VkBool32 VKAPI_CALL XcbPresentationSupport(VkPhysicalDevice p, uint32_t family, xcb_connection_t* connection, KlXcbVisualId visual) {
  PhysicalDeviceObject& pd = Term(p);
  if (!pd.owner->ExtensionEnabled("VK_KHR_xcb_surface")) return VK_FALSE;
  if (pd.driver->wsi.GetPhysicalDeviceXcbPresentationSupportKHR == nullptr) return DriverLacks(pd, "vkGetPhysicalDeviceXcbPresentationSupportKHR"), VK_FALSE;
  return pd.driver->wsi.GetPhysicalDeviceXcbPresentationSupportKHR(pd.next, family, connection, visual);
}
VkBool32 VKAPI_CALL WaylandPresentationSupport(VkPhysicalDevice p, uint32_t family, struct wl_display* display) {
  PhysicalDeviceObject& pd = Term(p);
  if (!pd.owner->ExtensionEnabled("VK_KHR_wayland_surface")) return VK_FALSE;
  if (pd.driver->wsi.GetPhysicalDeviceWaylandPresentationSupportKHR == nullptr) {
    return DriverLacks(pd, "vkGetPhysicalDeviceWaylandPresentationSupportKHR"), VK_FALSE;
  }
  return pd.driver->wsi.GetPhysicalDeviceWaylandPresentationSupportKHR(pd.next, family, display);
}
VkBool32 VKAPI_CALL Win32PresentationSupport(VkPhysicalDevice p, uint32_t family) {
  PhysicalDeviceObject& pd = Term(p);
  if (!pd.owner->ExtensionEnabled("VK_KHR_win32_surface")) return VK_FALSE;
  if (pd.driver->wsi.GetPhysicalDeviceWin32PresentationSupportKHR == nullptr) return DriverLacks(pd, "vkGetPhysicalDeviceWin32PresentationSupportKHR"), VK_FALSE;
  return pd.driver->wsi.GetPhysicalDeviceWin32PresentationSupportKHR(pd.next, family);
}

// ---- the surface queries (physical-device terminators) ----

VkResult VKAPI_CALL SurfaceSupport(VkPhysicalDevice p, uint32_t family, VkSurfaceKHR surface, VkBool32* supported) {
  PhysicalDeviceObject& pd = Term(p);
  if (!SurfaceEnabled(pd, "vkGetPhysicalDeviceSurfaceSupportKHR")) return VK_SUCCESS;
  if (supported == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  *supported = VK_FALSE;
  const auto fn = pd.driver->table.GetPhysicalDeviceSurfaceSupportKHR;
  if (fn == nullptr) return DriverLacks(pd, "vkGetPhysicalDeviceSurfaceSupportKHR"), VK_SUCCESS;
  VkSurfaceKHR own = VK_NULL_HANDLE;
  const VkResult res = DriverSurface(pd, "vkGetPhysicalDeviceSurfaceSupportKHR", surface, &own);
  if (res == VK_ERROR_SURFACE_LOST_KHR) return res;
  if (res != VK_SUCCESS) return VK_SUCCESS;  // a driver that cannot make the surface does not support it
  return fn(pd.next, family, own, supported);
}

VkResult VKAPI_CALL SurfaceCapabilities(VkPhysicalDevice p, VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR* capabilities) {
  PhysicalDeviceObject& pd = Term(p);
  if (!SurfaceEnabled(pd, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR")) return VK_SUCCESS;
  if (capabilities == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const auto fn = pd.driver->table.GetPhysicalDeviceSurfaceCapabilitiesKHR;
  if (fn == nullptr) {
    *capabilities = VkSurfaceCapabilitiesKHR{};
    return DriverLacks(pd, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR"), VK_SUCCESS;
  }
  VkSurfaceKHR own = VK_NULL_HANDLE;
  if (const VkResult res = DriverSurface(pd, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR", surface, &own); res != VK_SUCCESS) return res;
  return fn(pd.next, own, capabilities);
}

// The two-call surface queries (formats, present modes): a driver without the command lists nothing.
template <auto Member, typename T>
VkResult SurfaceList(const char* command, VkPhysicalDevice p, VkSurfaceKHR surface, uint32_t* count, T* out) {
  PhysicalDeviceObject& pd = Term(p);
  if (!SurfaceEnabled(pd, command)) return VK_SUCCESS;
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const auto fn = pd.driver->table.*Member;
  if (fn == nullptr) {
    *count = 0;
    return DriverLacks(pd, command), VK_SUCCESS;
  }
  VkSurfaceKHR own = VK_NULL_HANDLE;
  if (const VkResult res = DriverSurface(pd, command, surface, &own); res != VK_SUCCESS) return res;
  return fn(pd.next, own, count, out);
}
VkResult VKAPI_CALL SurfaceFormats(VkPhysicalDevice p, VkSurfaceKHR surface, uint32_t* count, VkSurfaceFormatKHR* formats) {
  return SurfaceList<&gen::VkInstanceDispatchTable::GetPhysicalDeviceSurfaceFormatsKHR>("vkGetPhysicalDeviceSurfaceFormatsKHR", p, surface, count,
                                                                                        formats);
}
VkResult VKAPI_CALL SurfacePresentModes(VkPhysicalDevice p, VkSurfaceKHR surface, uint32_t* count, VkPresentModeKHR* modes) {
  return SurfaceList<&gen::VkInstanceDispatchTable::GetPhysicalDeviceSurfacePresentModesKHR>("vkGetPhysicalDeviceSurfacePresentModesKHR", p, surface,
                                                                                             count, modes);
}

VkResult VKAPI_CALL PresentRectangles(VkPhysicalDevice p, VkSurfaceKHR surface, uint32_t* count, VkRect2D* rects) {
  PhysicalDeviceObject& pd = Term(p);
  const auto fn = pd.driver->table.GetPhysicalDevicePresentRectanglesKHR;
  if (fn == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  VkSurfaceKHR own = VK_NULL_HANDLE;
  if (const VkResult res = DriverSurface(pd, "vkGetPhysicalDevicePresentRectanglesKHR", surface, &own); res != VK_SUCCESS) return res;
  return fn(pd.next, own, count, rects);
}

VkResult VKAPI_CALL SurfaceCapabilities2EXT(VkPhysicalDevice p, VkSurfaceKHR surface, VkSurfaceCapabilities2EXT* capabilities) {
  PhysicalDeviceObject& pd = Term(p);
  const auto fn = pd.driver->table.GetPhysicalDeviceSurfaceCapabilities2EXT;
  if (fn == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  VkSurfaceKHR own = VK_NULL_HANDLE;
  if (const VkResult res = DriverSurface(pd, "vkGetPhysicalDeviceSurfaceCapabilities2EXT", surface, &own); res != VK_SUCCESS) return res;
  return fn(pd.next, own, capabilities);
}

// VK_KHR_get_surface_capabilities2: the driver's own, else emulated with the VK_KHR_surface query.
VkResult VKAPI_CALL SurfaceCapabilities2(VkPhysicalDevice p, const VkPhysicalDeviceSurfaceInfo2KHR* info, VkSurfaceCapabilities2KHR* capabilities) {
  PhysicalDeviceObject& pd = Term(p);
  if (!SurfaceEnabled(pd, "vkGetPhysicalDeviceSurfaceCapabilities2KHR")) return VK_SUCCESS;
  if (info == nullptr || capabilities == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  VkSurfaceKHR own = VK_NULL_HANDLE;
  if (const VkResult res = DriverSurface(pd, "vkGetPhysicalDeviceSurfaceCapabilities2KHR", info->surface, &own); res != VK_SUCCESS) return res;
  const auto& t = pd.driver->table;
  if (t.GetPhysicalDeviceSurfaceCapabilities2KHR != nullptr) {
    VkPhysicalDeviceSurfaceInfo2KHR copy = *info;
    copy.surface = own;
    return t.GetPhysicalDeviceSurfaceCapabilities2KHR(pd.next, &copy, capabilities);
  }
  if (t.GetPhysicalDeviceSurfaceCapabilitiesKHR == nullptr) {
    capabilities->surfaceCapabilities = VkSurfaceCapabilitiesKHR{};
    return VK_SUCCESS;
  }
  return t.GetPhysicalDeviceSurfaceCapabilitiesKHR(pd.next, own, &capabilities->surfaceCapabilities);
}

VkResult VKAPI_CALL SurfaceFormats2(VkPhysicalDevice p, const VkPhysicalDeviceSurfaceInfo2KHR* info, uint32_t* count, VkSurfaceFormat2KHR* formats) {
  PhysicalDeviceObject& pd = Term(p);
  if (!SurfaceEnabled(pd, "vkGetPhysicalDeviceSurfaceFormats2KHR")) return VK_SUCCESS;
  if (info == nullptr || count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  VkSurfaceKHR own = VK_NULL_HANDLE;
  if (const VkResult res = DriverSurface(pd, "vkGetPhysicalDeviceSurfaceFormats2KHR", info->surface, &own); res != VK_SUCCESS) return res;
  const auto& t = pd.driver->table;
  if (t.GetPhysicalDeviceSurfaceFormats2KHR != nullptr) {
    VkPhysicalDeviceSurfaceInfo2KHR copy = *info;
    copy.surface = own;
    return t.GetPhysicalDeviceSurfaceFormats2KHR(pd.next, &copy, count, formats);
  }
  if (t.GetPhysicalDeviceSurfaceFormatsKHR == nullptr) {
    *count = 0;
    return VK_SUCCESS;
  }
  if (formats == nullptr || *count == 0) return t.GetPhysicalDeviceSurfaceFormatsKHR(pd.next, own, count, nullptr);
  std::vector<VkSurfaceFormatKHR> plain(*count);
  const VkResult res = t.GetPhysicalDeviceSurfaceFormatsKHR(pd.next, own, count, plain.data());
  for (uint32_t i = 0; i < *count && i < plain.size(); ++i) formats[i].surfaceFormat = plain[i];
  return res;
}

// ---- the device terminators: the driver's own surface in every command that takes one ----

LoaderDevice* Device(VkDevice device) { return LoaderDevice::FromObject(device); }

VkResult VKAPI_CALL CreateSwapchain(VkDevice device, const VkSwapchainCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                    VkSwapchainKHR* swapchain) {
  LoaderDevice* ld = Device(device);
  if (ld == nullptr || ld->driverSwapchain.CreateSwapchainKHR == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  if (info == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  LoaderSurface* s = LoaderSurface::FromHandle(info->surface, ld->instance);
  if (s == nullptr) {
    ld->instance->Report(LogLevel::Error, "vkCreateSwapchainKHR: pCreateInfo->surface is not a live surface of this instance");
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  VkSwapchainCreateInfoKHR copy = *info;
  if (const VkResult res = s->ForDriver(*ld->driver, &copy.surface); res != VK_SUCCESS) return res;
  return ld->driverSwapchain.CreateSwapchainKHR(device, &copy, allocator, swapchain);
}

VkResult VKAPI_CALL CreateSharedSwapchains(VkDevice device, uint32_t count, const VkSwapchainCreateInfoKHR* infos, const VkAllocationCallbacks* allocator,
                                           VkSwapchainKHR* swapchains) {
  LoaderDevice* ld = Device(device);
  if (ld == nullptr || ld->driverSwapchain.CreateSharedSwapchainsKHR == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  if (infos == nullptr && count > 0) return VK_ERROR_INITIALIZATION_FAILED;
  std::vector<VkSwapchainCreateInfoKHR> copies(infos, infos + count);
  for (auto& c : copies) {
    LoaderSurface* s = LoaderSurface::FromHandle(c.surface, ld->instance);
    if (s == nullptr) {
      ld->instance->Report(LogLevel::Error, "vkCreateSharedSwapchainsKHR: a surface is not a live surface of this instance");
      return VK_ERROR_SURFACE_LOST_KHR;
    }
    if (const VkResult res = s->ForDriver(*ld->driver, &c.surface); res != VK_SUCCESS) return res;
  }
  return ld->driverSwapchain.CreateSharedSwapchainsKHR(device, count, copies.data(), allocator, swapchains);
}

VkResult VKAPI_CALL DeviceGroupSurfacePresentModes(VkDevice device, VkSurfaceKHR surface, VkDeviceGroupPresentModeFlagsKHR* modes) {
  LoaderDevice* ld = Device(device);
  if (ld == nullptr || ld->driverSwapchain.GetDeviceGroupSurfacePresentModesKHR == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  LoaderSurface* s = LoaderSurface::FromHandle(surface, ld->instance);
  if (s == nullptr) return VK_ERROR_SURFACE_LOST_KHR;
  VkSurfaceKHR own = VK_NULL_HANDLE;
  if (const VkResult res = s->ForDriver(*ld->driver, &own); res != VK_SUCCESS) return res;
  return ld->driverSwapchain.GetDeviceGroupSurfacePresentModesKHR(device, own, modes);
}

// ---- the application-facing platform commands (the generated tables do not hold them) ----

LoaderInstance& CheckedInstance(const char* command, VkInstance instance) {
  if (LoaderInstance::CheckedTable(instance) == nullptr) [[unlikely]] InvalidTrampolineHandle(command, "instance", instance);
  return *LoaderInstance::FromHandle(instance);
}
PhysicalDeviceObject& CheckedPhysicalDevice(const char* command, VkPhysicalDevice physicalDevice) {
  auto* pd = reinterpret_cast<PhysicalDeviceObject*>(physicalDevice);
  if (pd == nullptr || !pd->magic.Is(HandleMagic::TrampolinePhysicalDevice)) [[unlikely]] {
    InvalidTrampolineHandle(command, "physicalDevice", physicalDevice);
  }
  return *pd;
}

template <typename Info, auto Member>
VkResult VKAPI_CALL TrampolineCreate(VkInstance instance, const Info* info, const VkAllocationCallbacks* allocator, VkSurfaceKHR* surface) {
  const auto fn = CheckedInstance("vkCreate*SurfaceKHR", instance).wsiTable().*Member;
  return fn != nullptr ? fn(instance, info, allocator, surface) : VK_ERROR_EXTENSION_NOT_PRESENT;
}
VkBool32 VKAPI_CALL TrampolineXlibSupport(VkPhysicalDevice p, uint32_t family, Display* dpy, KlXlibVisualId visual) {
  PhysicalDeviceObject& pd = CheckedPhysicalDevice("vkGetPhysicalDeviceXlibPresentationSupportKHR", p);
  const auto fn = pd.owner->wsiTable().GetPhysicalDeviceXlibPresentationSupportKHR;
  return fn != nullptr ? fn(pd.next, family, dpy, visual) : VK_FALSE;
}
VkBool32 VKAPI_CALL TrampolineXcbSupport(VkPhysicalDevice p, uint32_t family, xcb_connection_t* connection, KlXcbVisualId visual) {
  PhysicalDeviceObject& pd = CheckedPhysicalDevice("vkGetPhysicalDeviceXcbPresentationSupportKHR", p);
  const auto fn = pd.owner->wsiTable().GetPhysicalDeviceXcbPresentationSupportKHR;
  return fn != nullptr ? fn(pd.next, family, connection, visual) : VK_FALSE;
}
VkBool32 VKAPI_CALL TrampolineWaylandSupport(VkPhysicalDevice p, uint32_t family, struct wl_display* display) {
  PhysicalDeviceObject& pd = CheckedPhysicalDevice("vkGetPhysicalDeviceWaylandPresentationSupportKHR", p);
  const auto fn = pd.owner->wsiTable().GetPhysicalDeviceWaylandPresentationSupportKHR;
  return fn != nullptr ? fn(pd.next, family, display) : VK_FALSE;
}
VkBool32 VKAPI_CALL TrampolineWin32Support(VkPhysicalDevice p, uint32_t family) {
  PhysicalDeviceObject& pd = CheckedPhysicalDevice("vkGetPhysicalDeviceWin32PresentationSupportKHR", p);
  const auto fn = pd.owner->wsiTable().GetPhysicalDeviceWin32PresentationSupportKHR;
  return fn != nullptr ? fn(pd.next, family) : VK_FALSE;
}

struct PlatformCommand {
  std::string_view name;
  const char* extension;
  PFN_vkVoidFunction terminator;
  PFN_vkVoidFunction trampoline;
};
template <typename F>
PFN_vkVoidFunction Fn(F f) {
  return reinterpret_cast<PFN_vkVoidFunction>(f);
}
// The loader's functions for each platform command, by the table member the generated list
// (KL_VK_WSI_PLATFORM_COMMANDS) names: the terminator at the bottom of the instance chain and the
// application-facing trampoline. A command the registry adds to these extensions has no
// specialisation here and stops the build.
template <auto Member>
struct PlatformFunctions;
#define KL_PLATFORM_FUNCTIONS(member, term, tramp)                       \
  template <>                                                            \
  struct PlatformFunctions<&WsiPlatformTable::member> {                  \
    static constexpr auto terminator = term;                             \
    static constexpr auto trampoline = tramp;                            \
  };
KL_PLATFORM_FUNCTIONS(CreateXlibSurfaceKHR, CreateXlibSurface, (TrampolineCreate<KlXlibSurfaceCreateInfoKHR, &WsiPlatformTable::CreateXlibSurfaceKHR>))
KL_PLATFORM_FUNCTIONS(CreateXcbSurfaceKHR, CreateXcbSurface, (TrampolineCreate<KlXcbSurfaceCreateInfoKHR, &WsiPlatformTable::CreateXcbSurfaceKHR>))
KL_PLATFORM_FUNCTIONS(CreateWaylandSurfaceKHR, CreateWaylandSurface,
                      (TrampolineCreate<KlWaylandSurfaceCreateInfoKHR, &WsiPlatformTable::CreateWaylandSurfaceKHR>))
KL_PLATFORM_FUNCTIONS(CreateWin32SurfaceKHR, CreateWin32Surface, (TrampolineCreate<KlWin32SurfaceCreateInfoKHR, &WsiPlatformTable::CreateWin32SurfaceKHR>))
KL_PLATFORM_FUNCTIONS(GetPhysicalDeviceXlibPresentationSupportKHR, XlibPresentationSupport, TrampolineXlibSupport)
KL_PLATFORM_FUNCTIONS(GetPhysicalDeviceXcbPresentationSupportKHR, XcbPresentationSupport, TrampolineXcbSupport)
KL_PLATFORM_FUNCTIONS(GetPhysicalDeviceWaylandPresentationSupportKHR, WaylandPresentationSupport, TrampolineWaylandSupport)
KL_PLATFORM_FUNCTIONS(GetPhysicalDeviceWin32PresentationSupportKHR, Win32PresentationSupport, TrampolineWin32Support)
#undef KL_PLATFORM_FUNCTIONS

// `f` as a void function, once the compiler has checked it has the registry's signature.
template <typename Pfn, typename F>
PFN_vkVoidFunction Checked(F f) {
  static_assert(std::is_same_v<F, Pfn>, "a platform command's function does not have the registry's signature");
  return reinterpret_cast<PFN_vkVoidFunction>(f);
}

const std::vector<PlatformCommand>& PlatformCommands() {
  static const std::vector<PlatformCommand> commands = {
#define KL_PLATFORM_COMMAND(name, member, type, extension)                                         \
  {name, extension, Checked<type>(PlatformFunctions<&WsiPlatformTable::member>::terminator),       \
   Checked<type>(PlatformFunctions<&WsiPlatformTable::member>::trampoline)},
      KL_VK_WSI_PLATFORM_COMMANDS(KL_PLATFORM_COMMAND)
#undef KL_PLATFORM_COMMAND
  };
  return commands;
}
const PlatformCommand* FindPlatformCommand(std::string_view name) {
  const auto& all = PlatformCommands();
  const auto it = std::find_if(all.begin(), all.end(), [&](const PlatformCommand& c) { return c.name == name; });
  return it == all.end() ? nullptr : &*it;
}

}  // namespace

void WsiInstallInstanceTerminators(gen::VkInstanceDispatchTable& t) {
  t.CreateHeadlessSurfaceEXT = CreateHeadlessSurface;
  t.DestroySurfaceKHR = DestroySurface;
  t.GetPhysicalDeviceSurfaceSupportKHR = SurfaceSupport;
  t.GetPhysicalDeviceSurfaceCapabilitiesKHR = SurfaceCapabilities;
  t.GetPhysicalDeviceSurfaceFormatsKHR = SurfaceFormats;
  t.GetPhysicalDeviceSurfacePresentModesKHR = SurfacePresentModes;
  t.GetPhysicalDevicePresentRectanglesKHR = PresentRectangles;
  t.GetPhysicalDeviceSurfaceCapabilities2EXT = SurfaceCapabilities2EXT;
  t.GetPhysicalDeviceSurfaceCapabilities2KHR = SurfaceCapabilities2;
  t.GetPhysicalDeviceSurfaceFormats2KHR = SurfaceFormats2;
}

PFN_vkVoidFunction WsiInstanceTerminator(std::string_view name) {
  const PlatformCommand* c = FindPlatformCommand(name);
  return c != nullptr ? c->terminator : nullptr;
}
PFN_vkVoidFunction WsiPlatformTrampoline(std::string_view name) {
  const PlatformCommand* c = FindPlatformCommand(name);
  return c != nullptr ? c->trampoline : nullptr;
}
const char* WsiPlatformCommandExtension(std::string_view name) {
  const PlatformCommand* c = FindPlatformCommand(name);
  return c != nullptr ? c->extension : nullptr;
}

PFN_vkVoidFunction WsiDeviceTerminator(std::string_view name) {
  if (name == "vkCreateSwapchainKHR") return Fn(CreateSwapchain);
  if (name == "vkCreateSharedSwapchainsKHR") return Fn(CreateSharedSwapchains);
  if (name == "vkGetDeviceGroupSurfacePresentModesKHR") return Fn(DeviceGroupSurfacePresentModes);
  return nullptr;
}

void DriverSwapchainCommands::Fill(PFN_vkGetDeviceProcAddr gdpa, VkDevice device) {
  CreateSwapchainKHR = reinterpret_cast<PFN_vkCreateSwapchainKHR>(gdpa(device, "vkCreateSwapchainKHR"));
  CreateSharedSwapchainsKHR = reinterpret_cast<PFN_vkCreateSharedSwapchainsKHR>(gdpa(device, "vkCreateSharedSwapchainsKHR"));
  GetDeviceGroupSurfacePresentModesKHR =
      reinterpret_cast<PFN_vkGetDeviceGroupSurfacePresentModesKHR>(gdpa(device, "vkGetDeviceGroupSurfacePresentModesKHR"));
}

void WsiPatchDeviceTable(LoaderDevice& device) {
  auto& t = device.dispatch.table;
  const auto& d = device.driverSwapchain;
  if (d.CreateSwapchainKHR != nullptr) t.CreateSwapchainKHR = CreateSwapchain;
  if (d.CreateSharedSwapchainsKHR != nullptr) t.CreateSharedSwapchainsKHR = CreateSharedSwapchains;
  if (d.GetDeviceGroupSurfacePresentModesKHR != nullptr) t.GetDeviceGroupSurfacePresentModesKHR = DeviceGroupSurfacePresentModes;
}

}  // namespace kl::vulkan
