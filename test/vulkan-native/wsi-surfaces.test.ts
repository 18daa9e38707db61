// Loader-owned surfaces (docs/conformance.md, "Surfaces"): the test driver built with
// KL_DRIVER_SURFACES answers VK_TRUE / VK_SUCCESS only when it is handed the surface it expects
// (its own from interface version 3, the loader's VkIcdSurfaceHeadless before), so the loader's
// substitution at the bottom of both chains is what these tests see; with a test layer in the
// chain the layer sees every call with the loader's handle.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createInstanceFromPlan } from '../../lib/vulkan/api/index.js';
import { vulkanCommands, type VkPhysicalDevice } from '../../lib/vulkan/commands.js';
import { driver, layer, mappedLibraries, plan, testLibrary, VK_API_VERSION_1_0 } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown; unload(): void };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;

const variants = [
  ['7', 'kl_vk_driver_surfaces', 'libkl_vk_driver_surfaces.so'],
  ['2', 'kl_vk_driver_surfaces_v2', 'libkl_vk_driver_surfaces_v2.so'],
] as const;
const withLayer = [false, true] as const;

describe('loader-owned surfaces (VK-WSI-1)', () => {
  for (const [version, library, file] of variants) {
    for (const layered of withLayer) {
      it(`VK-WSI-1: a driver of interface version ${version}${layered ? ', a layer in the chain' : ''}: the surface query and vkCreateSwapchainKHR reach it with the surface it expects; its surfaces go with the loader's`, () => {
        const path = testLibrary('vulkan_test_driver', library);
        const layers = layered ? [layer('VK_LAYER_KLTEST_a', testLibrary('vulkan_test_layers', 'kl_vk_layer_a'))] : [];
        const instance = createInstanceFromPlan(plan([driver(path)], layers), {
          applicationName: 'kl-wsi',
          apiVersion: VK_API_VERSION_1_0,
          enabledExtensionNames: ['VK_KHR_surface', 'VK_EXT_headless_surface'],
        });
        const driverLibrary = koffi.load(path);
        const live = driverLibrary.func('int kl_vk_driver_live_surfaces()');
        const [physical] = instance.enumeratePhysicalDevices();
        const device = physical!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledExtensionNames: ['VK_KHR_swapchain'] });
        const dvk = vulkanCommands(device);
        const before = live() as number;  // the driver's library stays loaded while this test holds it
        const { pSurface } = dvk.vkCreateHeadlessSurfaceEXT(dvk.instanceHandle!, {});
        expect(pSurface).not.toBe(0n);
        // Made on first use, only by a driver of version 3 or newer.
        expect(live()).toBe(before);
        const pd = dvk.vkEnumeratePhysicalDevices(dvk.instanceHandle!).pPhysicalDevices[0] as VkPhysicalDevice;
        expect(dvk.vkGetPhysicalDeviceSurfaceSupportKHR(pd, 0, pSurface).pSupported).toBe(true);
        expect(live()).toBe(before + (version === '7' ? 1 : 0));
        const created = dvk.vkCreateSwapchainKHR(dvk.deviceHandle!, {
          surface: pSurface,
          minImageCount: 2,
          imageFormat: 'VK_FORMAT_B8G8R8A8_UNORM',
          imageColorSpace: 0,
          imageExtent: { width: 16, height: 16 },
          imageArrayLayers: 1,
          imageUsage: 0x10,
          imageSharingMode: 0,
          preTransform: 0x1,
          compositeAlpha: 0x1,
          presentMode: 'VK_PRESENT_MODE_FIFO_KHR',
          clipped: true,
        });
        expect(created.result).toBe(0);
        dvk.vkDestroySwapchainKHR(dvk.deviceHandle!, created.pSwapchain);
        dvk.vkDestroySurfaceKHR(dvk.instanceHandle!, pSurface);
        device.destroy();
        expect(live()).toBe(before);
        driverLibrary.unload();  // the test's own reference
        instance.destroy();
        expect(mappedLibraries(file)).toEqual([]);
      });
    }
  }

  it('VK-WSI-4: a destroyed surface handed to a surface query: KL_HANDLE_DESTROYED, before any Vulkan call, no crash', () => {
    const instance = createInstanceFromPlan(plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_surfaces'))]), {
      applicationName: 'kl-wsi',
      apiVersion: VK_API_VERSION_1_0,
      enabledExtensionNames: ['VK_KHR_surface', 'VK_EXT_headless_surface'],
    });
    const vk = vulkanCommands(instance);
    const { pSurface } = vk.vkCreateHeadlessSurfaceEXT(vk.instanceHandle!, {});
    const pd = vk.vkEnumeratePhysicalDevices(vk.instanceHandle!).pPhysicalDevices[0] as VkPhysicalDevice;
    vk.vkDestroySurfaceKHR(vk.instanceHandle!, pSurface);
    expect(() => vk.vkGetPhysicalDeviceSurfaceSupportKHR(pd, 0, pSurface)).toThrow(expect.objectContaining({ code: 'KL_HANDLE_DESTROYED' }));
    instance.destroy();
  });
});
