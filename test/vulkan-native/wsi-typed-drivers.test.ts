// The typed surface API over the test drivers (docs/usage.md "Surfaces and presentation"): a driver
// built without VK_KHR_surface (kl_vk_driver_v7) beside one with it (kl_vk_driver_surfaces, headless
// surfaces and VK_KHR_swapchain, acquire and present on images of its own). Asking for the surface extensions where no driver offers them,
// creating a surface whose extension was not enabled, and the surface queries on the physical
// device of the driver without them, as the Khronos loader answers them (docs/conformance.md,
// "Surfaces"): typed errors naming the extension, no crash, nothing left loaded after. Then a
// headless surface through the whole typed API on that driver, and its faults: a surface lost (a
// window system gone), an out-of-date swapchain recreated with oldSwapchain, every image acquired,
// a destroyed swapchain presented. These run under the sanitizers (scripts/test-sanitize.sh).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createInstanceFromPlan, type Instance, type Surface, type Swapchain, type Device, type PhysicalDevice } from '../../lib/vulkan/api/index.js';
import { driver, mappedLibraries, plan, testLibrary, VK_API_VERSION_1_0 } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown; unload(): void };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const FIFO = 2;
const IMMEDIATE = 0;

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

  it('VK-WSI-6: beside a driver that has them, the physical device of the driver without surfaces answers the surface queries as the Khronos loader does (no support, no formats, no present modes) and lists no VK_KHR_swapchain, the other one lists it', () => {
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
      expect(lacking.enumerateDeviceExtensionProperties().map((e) => e.extensionName)).not.toContain('VK_KHR_swapchain');
      expect(having.enumerateDeviceExtensionProperties().map((e) => e.extensionName)).toContain('VK_KHR_swapchain');
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

describe('a headless surface through the typed API on the test driver (VK-WSI-5, VK-WSI-6)', () => {
  /** An instance on the surfaces driver, a device with VK_KHR_swapchain, the driver's test hooks; `body` runs, then all is destroyed and checked gone. */
  function withHeadless(body: (t: { instance: Instance; physical: PhysicalDevice; device: Device; surface: Surface; lose: (how: number) => void; live: () => number }) => void): void {
    const path = withSurfaces();
    const instance = createInstanceFromPlan(plan([driver(path)]), { applicationName: 'kl-wsi-headless', apiVersion: VK_API_VERSION_1_0, enabledExtensionNames: ['VK_KHR_surface', 'VK_EXT_headless_surface'] });
    const library = koffi.load(path);
    const lose = library.func('void kl_vk_driver_lose_surfaces(int how)');
    const live = library.func('int kl_vk_driver_live_surfaces()') as () => number;
    try {
      const physical = instance.enumeratePhysicalDevices()[0]!;
      const device = physical.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledExtensionNames: ['VK_KHR_swapchain'] });
      const surface = instance.createSurface({ headless: true });
      body({ instance, physical, device, surface, lose: (how) => lose(how), live });
      surface.destroy();
      expect(live()).toBe(0);
    } finally {
      lose(0);
      library.unload();
      instance.destroy();
    }
    expect(mappedLibraries('libkl_vk_driver_surfaces.so')).toEqual([]);
  }
  const options = (surface: Surface, physical: PhysicalDevice, extra: Record<string, unknown> = {}) => ({
    format: surface.formats(physical)[0]!.format,
    extent: { width: 16, height: 16 },
    imageCount: 2,
    presentMode: FIFO,
    usage: 0x10,
    ...extra,
  });

  it('VK-WSI-5: the queries answer, a swapchain has its images, acquire hands them out in turn (with its own fence, or signalling a typed Semaphore), present gives them back; every image acquired is VulkanError VK_TIMEOUT (VK_NOT_READY with timeout 0)', () => {
    withHeadless(({ physical, device, surface }) => {
      expect(surface.supportsPresent(physical, 0)).toBe(true);
      const caps = surface.capabilities(physical);
      expect(caps.currentExtent).toEqual({ width: 0xffffffff, height: 0xffffffff });
      expect([caps.minImageCount, caps.maxImageCount]).toEqual([2, 3]);
      expect(surface.formats(physical).map((f) => f.format)).toEqual([44, 37]);
      expect(surface.presentModes(physical)).toEqual([FIFO, IMMEDIATE]);
      const swapchain = device.createSwapchain(surface, options(surface, physical, { imageCount: 3, presentMode: IMMEDIATE }));
      expect(swapchain.images.length).toBe(3);
      expect(new Set(swapchain.images.map((i) => i.handle)).size).toBe(3);
      const queue = device.queue(0);
      const first = swapchain.acquireNextImage();
      const second = swapchain.acquireNextImage();
      expect([first.imageIndex, second.imageIndex]).toEqual([0, 1]);
      const semaphore = device.createSemaphore();
      const third = swapchain.acquireNextImage({ semaphore });
      expect(third.imageIndex).toBe(2);
      // All three are out: no image comes back.
      expect(thrown(() => swapchain.acquireNextImage(1_000n)).code).toBe('VK_TIMEOUT');
      expect(thrown(() => swapchain.acquireNextImage(0)).code).toBe('VK_NOT_READY');
      expect(swapchain.present(queue, 1, { waitSemaphores: [semaphore] })).toEqual({ suboptimal: false });
      expect(swapchain.acquireNextImage().imageIndex).toBe(1);
      for (const index of [0, 1, 2]) expect(swapchain.present(queue, index)).toEqual({ suboptimal: false });
      semaphore.destroy();
      swapchain.destroy();
    });
  });

  it('VK-WSI-6: the surface lost under a live swapchain (the driver answers VK_ERROR_SURFACE_LOST_KHR): the queries, acquire and present are typed VulkanErrors; an out-of-date swapchain (VK_ERROR_OUT_OF_DATE_KHR) recreated with oldSwapchain acquires and presents again; a destroyed swapchain presented is KL_HANDLE_DESTROYED; nothing of the driver is left', () => {
    withHeadless(({ physical, device, surface, lose, live }) => {
      const queue = device.queue(0);
      const old = device.createSwapchain(surface, options(surface, physical));
      const { imageIndex } = old.acquireNextImage();
      lose(1);
      for (const call of [() => surface.capabilities(physical), () => surface.formats(physical), () => surface.presentModes(physical), () => old.acquireNextImage(), () => old.present(queue, imageIndex)]) {
        const error = thrown(call);
        expect(error.name).toBe('VulkanError');
        expect(error.code).toBe('VK_ERROR_SURFACE_LOST_KHR');
      }
      expect(thrown(() => device.createSwapchain(surface, { format: 44, extent: { width: 16, height: 16 }, imageCount: 2, presentMode: FIFO, usage: 0x10 })).code).toBe('VK_ERROR_SURFACE_LOST_KHR');
      lose(2);
      const outOfDate = thrown(() => old.acquireNextImage());
      expect(outOfDate.code).toBe('VK_ERROR_OUT_OF_DATE_KHR');
      lose(0);
      const replacement: Swapchain = device.createSwapchain(surface, options(surface, physical, { oldSwapchain: old }));
      expect(old.isRetired).toBe(true);
      expect(thrown(() => old.acquireNextImage()).code).toBe('KL_INVALID_STATE');
      old.destroy();
      const next = replacement.acquireNextImage();
      expect(replacement.present(queue, next.imageIndex)).toEqual({ suboptimal: false });
      replacement.destroy();
      expect(thrown(() => replacement.present(queue, next.imageIndex)).code).toBe('KL_HANDLE_DESTROYED');
      expect(thrown(() => replacement.acquireNextImage()).code).toBe('KL_HANDLE_DESTROYED');
      expect(live()).toBe(1);
    });
  });
});
