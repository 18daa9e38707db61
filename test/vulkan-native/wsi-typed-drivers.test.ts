// The typed surface API over the test drivers (docs/usage.md "Surfaces and presentation"): a driver
// built without VK_KHR_surface (kl_vk_driver_v7) beside one with it (kl_vk_driver_surfaces, headless
// surfaces and VK_KHR_swapchain). Asking for the surface extensions where no driver offers them,
// creating a surface whose extension was not enabled, and the surface queries on the physical
// device of the driver without them, as the Khronos loader answers them (docs/conformance.md,
// "Surfaces"): typed errors naming the extension, no crash, nothing left loaded after.
import { describe, expect, it } from 'vitest';
import { createInstanceFromPlan } from '../../lib/vulkan/api/index.js';
import { driver, mappedLibraries, plan, testLibrary, VK_API_VERSION_1_0 } from './helpers.js';

function thrown(call: () => unknown): Error & { code?: string; argument?: string } {
  try {
    call();
  } catch (error) {
    return error as Error & { code?: string; argument?: string };
  }
  throw new Error('the call did not throw');
}

const plain = (): string => testLibrary('vulkan_test_driver', 'kl_vk_driver_v7');
const withSurfaces = (): string => testLibrary('vulkan_test_driver', 'kl_vk_driver_surfaces');

describe('typed surfaces over a driver without the surface extensions (VK-WSI-6)', () => {
  it('VK-WSI-6: a driver without VK_KHR_surface: createInstance asking for it is VulkanError VK_ERROR_EXTENSION_NOT_PRESENT naming it; createSurface on an instance without it names the surface extension, before any driver call; the driver unloads after', () => {
    for (const extension of ['VK_KHR_surface', 'VK_EXT_headless_surface', 'VK_KHR_xlib_surface']) {
      const error = thrown(() => createInstanceFromPlan(plan([driver(plain())]), { applicationName: 'kl-wsi-no-surface', apiVersion: VK_API_VERSION_1_0, enabledExtensionNames: [extension] }));
      expect(error.name, extension).toBe('VulkanError');
      expect(error.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(error.message).toContain(extension);
    }
    const instance = createInstanceFromPlan(plan([driver(plain())]), { applicationName: 'kl-wsi-no-surface', apiVersion: VK_API_VERSION_1_0 });
    try {
      const headless = thrown(() => instance.createSurface({ headless: true }));
      expect(headless.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(headless.message).toContain('VK_EXT_headless_surface');
      // The pointers are never read: the missing extension is refused first.
      for (const [source, extension] of [
        [{ xlib: { display: 0x1000n, window: 1 } }, 'VK_KHR_xlib_surface'],
        [{ xcb: { connection: 0x1000n, window: 1 } }, 'VK_KHR_xcb_surface'],
        [{ wayland: { display: 0x1000n, surface: 0x2000n } }, 'VK_KHR_wayland_surface'],
      ] as const) {
        const error = thrown(() => instance.createSurface(source));
        expect(error.code, extension).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
        expect(error.message).toContain(extension);
      }
      const physical = instance.enumeratePhysicalDevices()[0]!;
      const support = thrown(() => physical.presentationSupport(0, { xcb: { connection: 0x1000n, visualId: 1 } }));
      expect(support.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(support.message).toContain('VK_KHR_xcb_surface');
      const device = physical.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
      device.destroy();
    } finally {
      instance.destroy();
    }
    expect(mappedLibraries('libkl_vk_driver_v7.so')).toEqual([]);
  });

  it('VK-WSI-6: beside a driver that has them, the physical device of the driver without surfaces answers the surface queries as the Khronos loader does (no support, no formats, no present modes), and refuses VK_KHR_swapchain with VK_ERROR_EXTENSION_NOT_PRESENT; the other driver presents nothing wrong', () => {
    const instance = createInstanceFromPlan(plan([driver(withSurfaces()), driver(plain())]), {
      applicationName: 'kl-wsi-mixed',
      apiVersion: VK_API_VERSION_1_0,
      enabledExtensionNames: ['VK_KHR_surface', 'VK_EXT_headless_surface'],
    });
    try {
      const devices = instance.enumeratePhysicalDevices();
      const lacking = devices.find((d) => d.properties.deviceName.startsWith('kl-v7|'))!;
      const having = devices.find((d) => d.properties.deviceName.startsWith('kl-surfaces|'))!;
      expect(lacking).toBeDefined();
      expect(having).toBeDefined();
      const surface = instance.createSurface({ headless: true });
      expect(surface.kind).toBe('headless');
      expect(surface.supportsPresent(having, 0)).toBe(true);
      expect(surface.supportsPresent(lacking, 0)).toBe(false);
      expect(surface.formats(lacking)).toEqual([]);
      expect(surface.presentModes(lacking)).toEqual([]);
      const error = thrown(() => lacking.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledExtensionNames: ['VK_KHR_swapchain'] }));
      expect(error.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(error.message).toContain('VK_KHR_swapchain');
      surface.destroy();
      expect(surface.isDestroyed).toBe(true);
      expect(thrown(() => surface.supportsPresent(having, 0)).code).toBe('KL_HANDLE_DESTROYED');
    } finally {
      instance.destroy();
    }
    expect(mappedLibraries('libkl_vk_driver_v7.so')).toEqual([]);
    expect(mappedLibraries('libkl_vk_driver_surfaces.so')).toEqual([]);
  });
});
