// VulkanCommands' window-system part (docs/usage.md "Surfaces and presentation"): surfaces made
// from native window-system handles, whose create infos name platform types the generated tables
// leave out, and handles shared between two sets of bindings of one instance (a surface made by the
// instance's bindings, used by a device's bindings to create a swapchain on it).
#include <algorithm>
#include <cstdio>
#include <string>

#include "addon/errors.h"
#include "generated/vulkan_marshal.h"
#include "vulkan/addon/vulkan.h"
#include "vulkan/addon/vulkan_commands.h"
#include "vulkan/loader/trampolines.h"
#include "vulkan/loader/wsi_platform.h"

namespace kl::napi::vk {

namespace {

namespace vkm = khronos_loader::generated::vkmarshal;

std::string HexOf(std::uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

// A native handle as Node window libraries hand them out: a bigint, or a non-negative safe integer.
std::uint64_t NativeHandle(Napi::Env env, const Napi::Value& v, const std::string& argument) {
  if (v.IsBigInt()) {
    bool lossless = true;
    const std::uint64_t value = v.As<Napi::BigInt>().Uint64Value(&lossless);
    if (lossless) return value;
  } else if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (d >= 0 && d <= 9007199254740991.0 && d == static_cast<double>(static_cast<std::uint64_t>(d))) return static_cast<std::uint64_t>(d);
  }
  throw ArgumentError(env, "createPlatformSurface: " + argument + " must be a non-negative 64-bit bigint or safe integer");
}

const std::int16_t kSurfaceType = HandleType("VkSurfaceKHR");
const std::int16_t kSemaphoreType = HandleType("VkSemaphore");
const std::int16_t kPhysicalDeviceHandleType = HandleType("VkPhysicalDevice");

}  // namespace

Napi::Value VulkanCommands::CreatePlatformSurface(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsString()) throw ArgumentError(env, "createPlatformSurface(kind: 'xlib' | 'xcb' | 'wayland', display, window)");
  const std::string kind = info[0].As<Napi::String>().Utf8Value();
  const std::uint64_t display = NativeHandle(env, info[1], "display");
  const std::uint64_t window = NativeHandle(env, info[2], "window");
  if (display == 0) throw ArgumentError(env, "createPlatformSurface: display must not be 0 (NULL)");
  if (window == 0) throw ArgumentError(env, "createPlatformSurface: window must not be 0 (None / NULL)");
  const char* extension = kind == "xlib" ? "VK_KHR_xlib_surface" : kind == "xcb" ? "VK_KHR_xcb_surface" : kind == "wayland" ? "VK_KHR_wayland_surface" : nullptr;
  if (extension == nullptr) throw ArgumentError(env, "createPlatformSurface: kind must be 'xlib', 'xcb' or 'wayland', got '" + kind + "'");
  VkInstance instance = Instance(env, "createPlatformSurface");
  const auto& enabled = vulkan::LoaderInstance::FromHandle(instance)->enabledExtensions();
  if (std::find(enabled.begin(), enabled.end(), extension) == enabled.end()) {
    throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, std::string(extension) + " was not enabled on this instance");
  }
  const std::string command = kind == "xlib" ? "vkCreateXlibSurfaceKHR" : kind == "xcb" ? "vkCreateXcbSurfaceKHR" : "vkCreateWaylandSurfaceKHR";
  PFN_vkVoidFunction fn = ::vkGetInstanceProcAddr(instance, command.c_str());
  if (fn == nullptr) throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, command + " is not provided by this loader");
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkResult result = VK_SUCCESS;
  if (kind == "xlib") {
    const KlXlibSurfaceCreateInfoKHR ci{vulkan::kXlibSurfaceCreateInfo, nullptr, 0, reinterpret_cast<Display*>(static_cast<std::uintptr_t>(display)),
                                        static_cast<KlXlibWindow>(window)};
    result = reinterpret_cast<PFN_klCreateXlibSurfaceKHR>(fn)(instance, &ci, nullptr, &surface);
  } else if (kind == "xcb") {
    if (window > 0xffffffffULL) throw ArgumentError(env, "createPlatformSurface: an XCB window is a 32-bit id, got " + HexOf(window));
    const KlXcbSurfaceCreateInfoKHR ci{vulkan::kXcbSurfaceCreateInfo, nullptr, 0, reinterpret_cast<xcb_connection_t*>(static_cast<std::uintptr_t>(display)),
                                       static_cast<KlXcbWindow>(window)};
    result = reinterpret_cast<PFN_klCreateXcbSurfaceKHR>(fn)(instance, &ci, nullptr, &surface);
  } else {
    const KlWaylandSurfaceCreateInfoKHR ci{vulkan::kWaylandSurfaceCreateInfo, nullptr, 0, reinterpret_cast<wl_display*>(static_cast<std::uintptr_t>(display)),
                                           reinterpret_cast<wl_surface*>(static_cast<std::uintptr_t>(window))};
    result = reinterpret_cast<PFN_klCreateWaylandSurfaceKHR>(fn)(instance, &ci, nullptr, &surface);
  }
  if (result < 0) throw VkErrorToJs(env, result, command + " returned " + std::to_string(result));
  const auto handle = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(surface));
  const auto instanceHandle = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(instance));
  tracker_.Add(handle, kSurfaceType, instanceHandle, instanceHandle, true);
  return Napi::BigInt::New(env, handle);
}

Napi::Value VulkanCommands::ShareHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsObject() || !info[0].As<Napi::Object>().CheckTypeTag(&kVulkanCommandsTag) || !info[1].IsBigInt()) {
    throw ArgumentError(env, "shareHandle(from: VulkanCommands, handle: bigint)");
  }
  const VulkanCommands* from = Napi::ObjectWrap<VulkanCommands>::Unwrap(info[0].As<Napi::Object>());
  bool lossless = true;
  const std::uint64_t handle = info[1].As<Napi::BigInt>().Uint64Value(&lossless);
  const HandleTracker::Entry* entry = lossless ? from->tracker_.Find(handle) : nullptr;
  if (entry == nullptr || !entry->alive || from->instance_ != instance_ || instance_ == nullptr || vkm::kHandleTypes[entry->type].dispatchable) {
    throw ArgumentError(env, "shareHandle: " + HexOf(handle) + " is not a live non-dispatchable handle of bindings of the same instance");
  }
  const auto instanceHandle = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(instance_));
  tracker_.Add(handle, entry->type, instanceHandle, entry->owner, false);
  return env.Undefined();
}

Napi::Value VulkanCommands::AdoptSemaphore(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsBigInt()) throw ArgumentError(env, "adoptSemaphore(semaphore: bigint)");
  if (device_ == nullptr) throw ArgumentError(env, "adoptSemaphore: these bindings were made without a device");
  bool lossless = true;
  const std::uint64_t handle = info[0].As<Napi::BigInt>().Uint64Value(&lossless);
  if (!lossless || handle == 0) throw ArgumentError(env, "adoptSemaphore: semaphore must be a non-NULL 64-bit handle");
  const HandleTracker::Entry* entry = tracker_.Find(handle);
  if (entry != nullptr && entry->alive && entry->type != kSemaphoreType) {
    throw ArgumentError(env, "adoptSemaphore: " + HexOf(handle) + " is a live handle of another type of these bindings");
  }
  const auto device = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(device_));
  tracker_.Add(handle, kSemaphoreType, device, device, false);
  return env.Undefined();
}

Napi::Value VulkanCommands::PlatformPresentationSupport(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 5 || !info[0].IsString() || !info[1].IsBigInt() || !info[2].IsNumber()) {
    throw ArgumentError(env, "platformPresentationSupport(kind: 'xlib' | 'xcb' | 'wayland', physicalDevice: bigint, queueFamilyIndex: number, display: bigint, visualId)");
  }
  const std::string kind = info[0].As<Napi::String>().Utf8Value();
  const char* extension = kind == "xlib" ? "VK_KHR_xlib_surface" : kind == "xcb" ? "VK_KHR_xcb_surface" : kind == "wayland" ? "VK_KHR_wayland_surface" : nullptr;
  if (extension == nullptr) throw ArgumentError(env, "platformPresentationSupport: kind must be 'xlib', 'xcb' or 'wayland', got '" + kind + "'");
  bool lossless = true;
  const std::uint64_t physical = info[1].As<Napi::BigInt>().Uint64Value(&lossless);
  const HandleTracker::Entry* entry = lossless ? tracker_.Find(physical) : nullptr;
  if (entry == nullptr || !entry->alive || entry->type != kPhysicalDeviceHandleType) {
    throw ArgumentError(env, "platformPresentationSupport: " + HexOf(physical) + " is not a VkPhysicalDevice of this instance");
  }
  const double family = info[2].As<Napi::Number>().DoubleValue();
  if (!(family >= 0 && family <= 4294967295.0 && family == static_cast<double>(static_cast<std::uint32_t>(family)))) {
    throw ArgumentError(env, "platformPresentationSupport: queueFamilyIndex must be a 32-bit unsigned integer");
  }
  const std::uint64_t display = NativeHandle(env, info[3], "display");
  if (display == 0) throw ArgumentError(env, "platformPresentationSupport: display must not be 0 (NULL)");
  const std::uint64_t visual = kind == "wayland" ? 0 : NativeHandle(env, info[4], "visualId");
  if (kind == "xcb" && visual > 0xffffffffULL) throw ArgumentError(env, "platformPresentationSupport: an XCB visual id is 32-bit, got " + HexOf(visual));
  VkInstance instance = Instance(env, "platformPresentationSupport");
  const auto& enabled = vulkan::LoaderInstance::FromHandle(instance)->enabledExtensions();
  if (std::find(enabled.begin(), enabled.end(), extension) == enabled.end()) {
    throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, std::string(extension) + " was not enabled on this instance");
  }
  const std::string command = kind == "xlib" ? "vkGetPhysicalDeviceXlibPresentationSupportKHR"
                              : kind == "xcb" ? "vkGetPhysicalDeviceXcbPresentationSupportKHR"
                                              : "vkGetPhysicalDeviceWaylandPresentationSupportKHR";
  PFN_vkVoidFunction fn = ::vkGetInstanceProcAddr(instance, command.c_str());
  if (fn == nullptr) throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, command + " is not provided by this loader");
  auto* pd = reinterpret_cast<VkPhysicalDevice>(static_cast<std::uintptr_t>(physical));
  const auto index = static_cast<std::uint32_t>(family);
  VkBool32 supported = VK_FALSE;
  if (kind == "xlib") {
    supported = reinterpret_cast<PFN_klGetPhysicalDeviceXlibPresentationSupportKHR>(fn)(pd, index, reinterpret_cast<Display*>(static_cast<std::uintptr_t>(display)),
                                                                                        static_cast<KlXlibVisualId>(visual));
  } else if (kind == "xcb") {
    supported = reinterpret_cast<PFN_klGetPhysicalDeviceXcbPresentationSupportKHR>(fn)(pd, index, reinterpret_cast<xcb_connection_t*>(static_cast<std::uintptr_t>(display)),
                                                                                       static_cast<KlXcbVisualId>(visual));
  } else {
    supported = reinterpret_cast<PFN_klGetPhysicalDeviceWaylandPresentationSupportKHR>(fn)(pd, index, reinterpret_cast<wl_display*>(static_cast<std::uintptr_t>(display)));
  }
  return Napi::Boolean::New(env, supported == VK_TRUE);
}

}  // namespace kl::napi::vk
