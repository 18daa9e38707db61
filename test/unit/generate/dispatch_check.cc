// Exercises the generated dispatch headers: fill functions, get/set by index, name lookup.
// Built and run by test/unit/generate.test.ts; prints "ok" and exits 0 when every check holds.
#include <cstdio>
#include <cstring>

#include "openxr_commands.h"
#include "openxr_vulkan_types.h"
#include "vulkan_commands.h"

using namespace khronos_loader::generated;

namespace {

int failures = 0;

void check(bool condition, const char* what) {
    if (!condition) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

void marker() {}

const PFN_xrVoidFunction kXrMarker = marker;
const PFN_vkVoidFunction kVkMarker = marker;

// Resolves xrDestroyInstance for any instance and xrCreateInstance only for XR_NULL_HANDLE.
XrResult XRAPI_PTR fakeXrGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
    const bool known = std::strcmp(name, "xrDestroyInstance") == 0 ||
                       (instance == XR_NULL_HANDLE && std::strcmp(name, "xrCreateInstance") == 0);
    *function = known ? kXrMarker : nullptr;
    return known ? XR_SUCCESS : XR_ERROR_FUNCTION_UNSUPPORTED;
}

// Resolves everything (instance and physical-device level included).
PFN_vkVoidFunction VKAPI_PTR fakeVkGetInstanceProcAddr(VkInstance, const char*) { return kVkMarker; }

// Resolves only command-buffer recording commands.
PFN_vkVoidFunction VKAPI_PTR fakeVkGetDeviceProcAddr(VkDevice, const char* name) {
    return std::strncmp(name, "vkCmd", 5) == 0 ? kVkMarker : nullptr;
}

// The signature macros must expand to forwarding functions whose types are exactly the PFN
// types: a pass-through through a table for every command (what a layer or trampoline does).
XrDispatchTable forwardXr{};
#define KL_FORWARD_XR(name, member, ret, decls, args) \
    ret XRAPI_PTR forward_##name decls { return forwardXr.member args; } \
    [[maybe_unused]] const PFN_##name check_##name = forward_##name;
KL_XR_COMMAND_SIGNATURES(KL_FORWARD_XR)
#undef KL_FORWARD_XR

VkDeviceDispatchTable forwardVk{};
#define KL_FORWARD_VK(name, member, ret, decls, args) \
    ret VKAPI_PTR forward_##name decls { return forwardVk.member args; } \
    [[maybe_unused]] const PFN_##name check_##name = forward_##name;
KL_VK_DEVICE_COMMAND_SIGNATURES(KL_FORWARD_VK)
#undef KL_FORWARD_VK

XrResult XRAPI_PTR countingLocateSpace(XrSpace, XrSpace, XrTime time, XrSpaceLocation* location) {
    location->locationFlags = static_cast<XrSpaceLocationFlags>(time);
    return XR_SUCCESS;
}

}  // namespace

int main() {
    forwardXr.LocateSpace = countingLocateSpace;
    XrSpaceLocation forwarded{};
    check(forward_xrLocateSpace(XR_NULL_HANDLE, XR_NULL_HANDLE, 5, &forwarded) == XR_SUCCESS &&
              forwarded.locationFlags == 5,
          "a function stamped from KL_XR_COMMAND_SIGNATURES forwards its arguments");

    XrDispatchTable xr{};
    fillXrDispatchTable(xr, fakeXrGetInstanceProcAddr, XR_NULL_HANDLE);
    check(reinterpret_cast<PFN_xrVoidFunction>(xr.CreateInstance) == kXrMarker, "xr fill stores resolved commands");
    check(reinterpret_cast<PFN_xrVoidFunction>(xr.DestroyInstance) == kXrMarker, "xr fill stores resolved commands (2)");
    check(xr.LocateSpace == nullptr, "xr fill leaves failed lookups null");

    const XrCommandInfo* locate = findXrCommand("xrLocateSpace");
    check(locate != nullptr, "findXrCommand finds xrLocateSpace");
    if (locate != nullptr) {
        check(getXrCommand(xr, locate->index) == nullptr, "getXrCommand reads the member");
        check(setXrCommand(xr, locate->index, kXrMarker), "setXrCommand accepts a valid index");
        check(reinterpret_cast<PFN_xrVoidFunction>(xr.LocateSpace) == kXrMarker, "setXrCommand writes the member");
        check(locate->needsInstance, "xrLocateSpace needs an instance");
    }
    check(!setXrCommand(xr, kXrDispatchTableSize, kXrMarker), "setXrCommand rejects an index out of range");
    check(findXrCommand("xrNoSuchCommand") == nullptr, "findXrCommand rejects unknown names");
    const XrCommandInfo* create = findXrCommand("xrCreateInstance");
    check(create != nullptr && !create->needsInstance && create->isCore, "xrCreateInstance is core and instance-free");
    for (std::size_t i = 0; i < kXrCommands.size(); ++i) {
        check(findXrCommand(kXrCommands[i].name) == &kXrCommands[i], "every OpenXR command is found by name");
        check(kXrCommands[i].index == i, "OpenXR metadata index equals position");
    }

    VkGlobalDispatchTable global{};
    fillVkGlobalDispatchTable(global, fakeVkGetInstanceProcAddr);
    check(reinterpret_cast<PFN_vkVoidFunction>(global.CreateInstance) == kVkMarker, "vk global fill");
    check(reinterpret_cast<PFN_vkVoidFunction>(global.EnumerateInstanceVersion) == kVkMarker, "vk global fill (2)");

    VkInstanceDispatchTable instance{};
    fillVkInstanceDispatchTable(instance, fakeVkGetInstanceProcAddr, nullptr);
    check(reinterpret_cast<PFN_vkVoidFunction>(instance.GetPhysicalDeviceFeatures2KHR) == kVkMarker,
          "vk instance fill includes aliases");
    for (std::uint32_t i = 0; i < kVkInstanceDispatchTableSize; ++i) {
        check(getVkInstanceCommand(instance, i) == kVkMarker, "vk instance fill sets every member");
    }

    VkDeviceDispatchTable device{};
    fillVkDeviceDispatchTable(device, fakeVkGetDeviceProcAddr, nullptr);
    check(reinterpret_cast<PFN_vkVoidFunction>(device.CmdDraw) == kVkMarker, "vk device fill stores resolved commands");
    check(device.QueueSubmit == nullptr, "vk device fill leaves failed lookups null");

    const VkCommandInfo* features2 = findVkCommand("vkGetPhysicalDeviceFeatures2KHR");
    check(features2 != nullptr && features2->level == VkCommandLevel::PhysicalDevice &&
              std::strcmp(features2->aliasOf, "vkGetPhysicalDeviceFeatures2") == 0,
          "vkGetPhysicalDeviceFeatures2KHR is a physical-device alias");
    const VkCommandInfo* gdpa = findVkCommand("vkGetDeviceProcAddr");
    check(gdpa != nullptr && gdpa->level == VkCommandLevel::Device, "vkGetDeviceProcAddr is device level");
    const VkCommandInfo* gipa = findVkCommand("vkGetInstanceProcAddr");
    check(gipa != nullptr && gipa->level == VkCommandLevel::Global, "vkGetInstanceProcAddr is global");
    for (const VkCommandInfo& info : kVkCommands) {
        check(findVkCommand(info.name) == &info, "every Vulkan command is found by name");
    }

    if (failures == 0) std::printf("ok\n");
    return failures == 0 ? 0 : 1;
}
