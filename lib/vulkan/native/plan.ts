// A VulkanInstancePlan (discovery's output) flattened into what the native core reads.
import { VK_EXTENSIONS } from '../../generated/vulkan.js';
import type { VulkanInstancePlan } from '../plan/plan.js';
import type { NativeVulkanPlan } from './addon.js';

/**
 * The window-system instance extensions the loader implements itself, as the Khronos loader does
 * (loader-owned VkSurfaceKHR objects, per-driver surfaces, surface queries routed to the driver of
 * the physical device, the driver's own surface substituted at the bottom of the device chain;
 * LoaderDriverInterface, "Handling KHR Surface Objects in WSI Extensions"; native/vulkan/loader/wsi.h),
 * and those that only add structures or values to them. Offered where a driver offers them.
 */
export const IMPLEMENTED_WSI_INSTANCE_EXTENSIONS: readonly string[] = [
  'VK_KHR_surface', 'VK_KHR_xlib_surface', 'VK_KHR_xcb_surface', 'VK_KHR_wayland_surface', 'VK_KHR_win32_surface',
  'VK_EXT_headless_surface', 'VK_KHR_get_surface_capabilities2', 'VK_KHR_surface_protected_capabilities',
  'VK_KHR_surface_maintenance1', 'VK_EXT_surface_maintenance1', 'VK_EXT_swapchain_colorspace', 'VK_GOOGLE_surfaceless_query',
];

/**
 * The window-system (surface and display) instance extensions this loader does not implement:
 * VK_KHR_display and what depends on it, and the surfaces of platforms other than X11, XCB,
 * Wayland, Win32 and headless. It never offers them, even where a driver does, and an application
 * that asks for one gets VK_ERROR_EXTENSION_NOT_PRESENT (docs/conformance.md). With
 * IMPLEMENTED_WSI_INSTANCE_EXTENSIONS the list is VK_KHR_surface, VK_KHR_display and every instance
 * extension of the registry that depends on them (test/unit/vulkan/withheld-extensions.test.ts checks it).
 */
export const WITHHELD_WSI_INSTANCE_EXTENSIONS: readonly string[] = [
  'VK_KHR_display', 'VK_KHR_android_surface', 'VK_KHR_get_display_properties2', 'VK_EXT_directfb_surface', 'VK_EXT_metal_surface',
  'VK_EXT_direct_mode_display', 'VK_EXT_acquire_xlib_display', 'VK_EXT_acquire_drm_display', 'VK_EXT_display_surface_counter',
  'VK_MVK_ios_surface', 'VK_MVK_macos_surface', 'VK_NN_vi_surface', 'VK_GGP_stream_descriptor_surface',
  'VK_FUCHSIA_imagepipe_surface', 'VK_QNX_screen_surface', 'VK_OHOS_surface', 'VK_SEC_ubm_surface', 'VK_NV_display_stereo',
];

const withheld = new Set(WITHHELD_WSI_INSTANCE_EXTENSIONS);
const knownInstanceExtensions: readonly string[] = Object.entries(VK_EXTENSIONS)
  .filter(([name, e]) => e.type === 'instance' && !withheld.has(name))
  .map(([name]) => name);

export function toNativeVulkanPlan(plan: VulkanInstancePlan): NativeVulkanPlan {
  return {
    drivers: plan.drivers.map((d) => ({
      manifestPath: d.manifestPath,
      libraryPath: d.libraryPath,
      apiVersion: d.apiVersion,
      isPortabilityDriver: d.isPortabilityDriver,
    })),
    layers: plan.layers.map((l) => ({
      name: l.name,
      manifestPath: l.manifestPath,
      libraryPath: l.libraryPath,
      negotiateSymbol: l.symbols.negotiateLoaderLayerInterfaceVersion,
      getInstanceProcAddrSymbol: l.symbols.getInstanceProcAddr,
      getDeviceProcAddrSymbol: l.symbols.getDeviceProcAddr,
      instanceExtensions: l.instanceExtensionNames ?? [],
      kind: l.kind,
      apiVersion: l.apiVersion,
      implementationVersion: l.implementationVersion,
      preInstanceFunctions: l.preInstanceFunctions,
    })),
    deviceFilters: plan.deviceFilters,
    disableInstanceExtensionFilter: plan.disableInstanceExtensionFilter,
    ...(plan.keepLibrariesMapped === true && { keepLibrariesMapped: true }),
    knownInstanceExtensions,
    withheldInstanceExtensions: WITHHELD_WSI_INSTANCE_EXTENSIONS,
    ...(plan.instanceExtensionListing !== undefined && { instanceExtensionListing: plan.instanceExtensionListing }),
    ...(plan.layerDeviceExtensions !== undefined && { layerDeviceExtensions: plan.layerDeviceExtensions }),
    ...(plan.enumeration !== undefined && {
      enumeration: {
        drivers: plan.enumeration.drivers.map((d) => ({ manifestPath: d.manifestPath, libraryPath: d.libraryPath, apiVersion: d.apiVersion, isPortabilityDriver: d.isPortabilityDriver })),
        layers: plan.enumeration.layers,
      },
    }),
  };
}
