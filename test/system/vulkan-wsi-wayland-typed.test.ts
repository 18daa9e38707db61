// The typed surface and swapchain API on Wayland: under a private weston (headless backend, run
// with --debug so that weston-screenshooter may read its output back; test/helpers/weston.ts) an
// xdg-shell toplevel is made in this process by the presentation helper's library
// (test/native/vulkan_wsi_present, kl_wayland_window_*), its wl_display* and wl_surface* handed to
// instance.createSurface({ wayland }) as bigints. On lavapipe with VK_LAYER_KHRONOS_validation:
// the platform presentation-support query, the surface queries, a swapchain of the size the
// application picks (a Wayland surface's currentExtent is the special value 0xFFFFFFFF), three
// frames acquired, cleared with the typed command buffer and presented, the composited output read
// back and the window's pixels counted; destroy, and the driver unmapped after the instance.
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessFlags, PipelineStageFlags, VK_API_VERSION_1_3, VulkanError, type Instance } from '../../lib/vulkan/index.js';
import { missingRealDriverWithDebianLayers, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { missingWestonScreenshots, startWeston, type Weston } from '../helpers/weston.js';
import { testNativeDir } from '../helpers/paths.js';
import { until } from '../helpers/until.js';
import { mappedLibraries } from '../vulkan-native/helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const skip = missingRealDriverWithDebianLayers() ?? missingWestonScreenshots();

const WARNING = 0x100;
const FIFO = 2;
const USAGE_TRANSFER_DST_COLOR_ATTACHMENT = 0x2 | 0x10;
const WIDTH = 64;
const HEIGHT = 48;

function thrown(call: () => unknown): Error & { code?: string; argument?: string } {
  try {
    call();
  } catch (error) {
    return error as Error & { code?: string; argument?: string };
  }
  throw new Error('the call did not throw');
}

/** The helper library's Wayland toplevel: open, its handles, a roundtrip, close. */
function waylandWindows() {
  const lib = koffi.load(path.join(testNativeDir, 'vulkan_wsi_present', 'libkl_vk_wsi_present.so'));
  const open = lib.func('void *kl_wayland_window_open(const char *socket, _Out_ char *error, size_t size)');
  const display = lib.func('uint64_t kl_wayland_window_display(void *window)');
  const surface = lib.func('uint64_t kl_wayland_window_surface(void *window)');
  const roundtrip = lib.func('int kl_wayland_window_roundtrip(void *window)');
  const close = lib.func('void kl_wayland_window_close(void *window)');
  return (socket: string) => {
    const error = Buffer.alloc(256);
    const window: unknown = open(socket, error, error.length);
    if (window === null) throw new Error(`kl_wayland_window_open(${socket}) failed: ${error.toString('utf8', 0, error.indexOf(0))}`);
    return {
      display: BigInt(display(window) as number | bigint),
      surface: BigInt(surface(window) as number | bigint),
      roundtrip: () => roundtrip(window) as number,
      close: () => close(window),
    };
  };
}

describe.skipIf(skip !== null)('typed surfaces and swapchains on Wayland under weston, with the validation layer', () => {
  let weston: Weston;
  let openWindow: ReturnType<typeof waylandWindows>;
  let instance: Instance | undefined;

  beforeAll(async () => {
    weston = await startWeston({ screenshots: true });
    openWindow = waylandWindows();
  }, 60_000);
  afterAll(async () => {
    instance?.destroy();
    await weston?.stop();
  });

  it('VK-WSI-5: a Wayland toplevel (wl_display and wl_surface as bigints) gets a typed surface; presentationSupport, the surface queries and capabilities2 answer; a swapchain of the picked size acquires, is cleared and presents 3 frames, the composited output shows the window in the colour, the validation layer silent, the driver unmapped after destroy', async () => {
    const window = openWindow(weston.socket);
    try {
      instance = realDriverLoader().createInstance({
        applicationName: 'kl-wsi-wayland-typed',
        apiVersion: VK_API_VERSION_1_3,
        enabledLayerNames: ['VK_LAYER_KHRONOS_validation'],
        enabledExtensionNames: ['VK_EXT_debug_utils', 'VK_KHR_surface', 'VK_KHR_wayland_surface', 'VK_KHR_get_surface_capabilities2'],
      });
      instance.startDebugMessenger();
      const physical = instance.enumeratePhysicalDevices()[0]!;
      expect(physical.presentationSupport(0, { wayland: { display: window.display } })).toBe(true);

      const surface = instance.createSurface({ wayland: { display: window.display, surface: window.surface } });
      expect(surface.kind).toBe('wayland');
      expect(surface.supportsPresent(physical, 0)).toBe(true);
      const caps = surface.capabilities(physical);
      // Vulkan spec, "VK_KHR_wayland_surface": the swapchain's extent decides the surface's size.
      expect(caps.currentExtent).toEqual({ width: 0xffffffff, height: 0xffffffff });
      expect(caps.supportedUsageFlags & USAGE_TRANSFER_DST_COLOR_ATTACHMENT).toBe(USAGE_TRANSFER_DST_COLOR_ATTACHMENT);
      expect(surface.capabilities2(physical)).toEqual(caps);
      expect(surface.formats2(physical)).toEqual(surface.formats(physical));
      expect(surface.presentModes(physical)).toContain(FIFO);
      const unorm = surface.formats(physical).find((f) => f.format === 44 || f.format === 37);
      expect(unorm).toBeDefined();

      const device = physical.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledExtensionNames: ['VK_KHR_swapchain'] });
      const swapchain = device.createSwapchain(surface, {
        format: unorm!.format,
        extent: { width: WIDTH, height: HEIGHT },
        imageCount: Math.max(caps.minImageCount, 2),
        presentMode: FIFO,
        usage: USAGE_TRANSFER_DST_COLOR_ATTACHMENT,
      });
      expect(swapchain.images.length).toBeGreaterThanOrEqual(Math.max(caps.minImageCount, 2));
      const queue = device.queue(0);
      const pool = device.createCommandPool(0);
      const cb = pool.allocateCommandBuffer();
      const fence = device.createFence();
      for (let frame = 0; frame < 3; frame++) {
        const { imageIndex, suboptimal } = swapchain.acquireNextImage();
        expect(suboptimal).toBe(false);
        expect(imageIndex).toBeLessThan(swapchain.images.length);
        const image = swapchain.images[imageIndex]!;
        cb.reset()
          .begin()
          .imageBarrier(image, { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: PipelineStageFlags.TOP_OF_PIPE, dstStageMask: PipelineStageFlags.TRANSFER, dstAccessMask: AccessFlags.TRANSFER_WRITE })
          .clearColorImage(image, 'transfer-dst-optimal', 0.2, 0.8, 0.4, 1)
          .imageBarrier(image, { oldLayout: 'transfer-dst-optimal', newLayout: 'present-src', srcStageMask: PipelineStageFlags.TRANSFER, dstStageMask: PipelineStageFlags.BOTTOM_OF_PIPE, srcAccessMask: AccessFlags.TRANSFER_WRITE })
          .end();
        queue.submit(cb, fence);
        expect(await fence.wait()).toBe(true);
        fence.reset();
        expect(swapchain.present(queue, imageIndex)).toEqual({ suboptimal: false });
        expect(window.roundtrip()).toBeGreaterThanOrEqual(0);
      }
      queue.waitIdle();

      // (0.2, 0.8, 0.4) in a UNORM format is 0x33cc66: every pixel of the 64×48 window, and no
      // other pixel of the output (weston's background and panel are other colours).
      await until('the composited output to show the window in the presented colour', () => weston.screenshot().count(0x33cc66) === WIDTH * HEIGHT, 10_000);
      expect(weston.screenshot().count(0x33cc66)).toBe(WIDTH * HEIGHT);

      fence.destroy();
      pool.destroy();
      surface.destroy();
      expect(swapchain.isDestroyed).toBe(true);
      expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => m.message)).toEqual([]);
      device.destroy();
      instance.destroy();
      instance = undefined;
      expect(mappedLibraries('libvulkan_lvp.so')).toEqual([]);
    } finally {
      window.close();
    }
  });

  it('VK-WSI-6: on Wayland a missing or zero wl_surface is KL_INVALID_ARGUMENT naming source.wayland.surface before any Vulkan call; without VK_KHR_wayland_surface enabled the surface and the presentation-support query are VulkanError VK_ERROR_EXTENSION_NOT_PRESENT naming it', () => {
    const window = openWindow(weston.socket);
    const plain = realDriverLoader().createInstance({ applicationName: 'kl-wsi-wayland-plain', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames: ['VK_KHR_surface'] });
    try {
      for (const source of [{ wayland: { display: window.display } }, { wayland: { display: window.display, surface: 0n } }]) {
        const error = thrown(() => plain.createSurface(source as never));
        expect(error.code).toBe('KL_INVALID_ARGUMENT');
        expect(error.argument).toBe('source.wayland.surface');
      }
      const missing = thrown(() => plain.createSurface({ wayland: { display: window.display, surface: window.surface } }));
      expect(missing).toBeInstanceOf(VulkanError);
      expect(missing.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(missing.message).toContain('VK_KHR_wayland_surface');
      const physical = plain.enumeratePhysicalDevices()[0]!;
      const support = thrown(() => physical.presentationSupport(0, { wayland: { display: window.display } }));
      expect(support.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(support.message).toContain('VK_KHR_wayland_surface');
    } finally {
      plain.destroy();
      window.close();
    }
  });
});
