// A display that goes away under a live surface and swapchain (docs/usage.md "Surfaces and
// presentation", "When the window system goes away"): an XCB window on a private Xvfb, a swapchain
// on lavapipe presenting through the typed API; then the X server is stopped. Every call after it
// is answered with a typed VulkanError carrying the driver's VkResult (lavapipe: VK_ERROR_SURFACE_LOST_KHR;
// a query it answers without the server, presentModes, still succeeds), the process lives on, and
// everything is destroyed afterwards with nothing left: the driver's library is unmapped.
// XCB, not Xlib: Xlib's default I/O error handler ends the process when its connection breaks,
// which is Xlib's behaviour, not the loader's (docs/usage.md says so).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessFlags, PipelineStageFlags, VK_API_VERSION_1_3, type Instance, type Swapchain, type Device } from '../../lib/vulkan/index.js';
import { missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { mappedLibraries } from '../vulkan-native/helpers.js';
import { missingXvfb, startXvfb, type Xvfb } from '../helpers/xvfb.js';
import { missingSystemComponent } from '../helpers/system.js';
import { LIBXCB, openXcb } from '../helpers/x11-windows.js';

const skip = missingRealDriver() ?? missingXvfb() ?? missingSystemComponent({ 'libxcb (libxcb1)': [LIBXCB] });
const FIFO = 2;
// What a driver may answer once its window system is gone (Vulkan spec, "WSI Swapchain").
const GONE = ['VK_ERROR_SURFACE_LOST_KHR', 'VK_ERROR_OUT_OF_DATE_KHR', 'VK_ERROR_DEVICE_LOST'];

function outcome(call: () => unknown): string {
  try {
    call();
    return 'ok';
  } catch (error) {
    const e = error as Error & { code?: string };
    // Only typed errors: a VulkanError with its VkResult name as the code.
    expect(e.name, e.message).toBe('VulkanError');
    return e.code ?? 'no code';
  }
}

describe.skipIf(skip !== null)('a display that goes away under a surface and a swapchain (VK-WSI-6)', () => {
  let xvfb: Xvfb;
  let instance: Instance;
  let device: Device;

  beforeAll(async () => {
    xvfb = await startXvfb();
    instance = realDriverLoader().createInstance({ applicationName: 'kl-wsi-display-gone', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames: ['VK_KHR_surface', 'VK_KHR_xcb_surface'] });
    device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledExtensionNames: ['VK_KHR_swapchain'] });
  }, 60_000);
  afterAll(async () => {
    device?.destroy();
    instance?.destroy();
    await xvfb?.stop();
  });

  function presentOne(swapchain: Swapchain): void {
    const queue = device.queue(0);
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    const { imageIndex } = swapchain.acquireNextImage();
    const image = swapchain.images[imageIndex]!;
    cb.begin()
      .imageBarrier(image, { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: PipelineStageFlags.TOP_OF_PIPE, dstStageMask: PipelineStageFlags.TRANSFER, dstAccessMask: AccessFlags.TRANSFER_WRITE })
      .clearColorImage(image, 'transfer-dst-optimal', 0.5, 0.5, 0.5, 1)
      .imageBarrier(image, { oldLayout: 'transfer-dst-optimal', newLayout: 'present-src', srcStageMask: PipelineStageFlags.TRANSFER, dstStageMask: PipelineStageFlags.BOTTOM_OF_PIPE, srcAccessMask: AccessFlags.TRANSFER_WRITE })
      .end();
    queue.submit(cb);
    queue.waitIdle();
    expect(swapchain.present(queue, imageIndex)).toEqual({ suboptimal: false });
    queue.waitIdle();
    pool.destroy();
  }

  it('VK-WSI-6: the X server stopped under a live XCB surface and swapchain: acquire, present and the surface queries give typed VulkanErrors (VK_ERROR_SURFACE_LOST_KHR / VK_ERROR_OUT_OF_DATE_KHR), the process lives on, and all of it is destroyed after, the driver unloaded', async () => {
    const xcb = openXcb(xvfb.display);
    const physical = instance.enumeratePhysicalDevices()[0]!;
    const window = xcb.createWindow(32, 24);
    const surface = instance.createSurface({ xcb: { connection: xcb.pointer, window } });
    const caps = surface.capabilities(physical);
    const format = surface.formats(physical)[0]!.format;
    const swapchain = device.createSwapchain(surface, { format, extent: { width: 32, height: 24 }, imageCount: Math.max(caps.minImageCount, 2), presentMode: FIFO, usage: 0x10 | 0x2 });
    presentOne(swapchain);

    await xvfb.stop();

    // The driver learns of it when it next talks to the server: poll acquire (bounded by its own
    // timeout) until it fails, with a deadline.
    const seen: string[] = [];
    const deadline = performance.now() + 10_000;
    let acquired = 'ok';
    while (acquired === 'ok' && performance.now() < deadline) {
      acquired = outcome(() => {
        const { imageIndex } = swapchain.acquireNextImage(200_000_000n);
        seen.push(`acquired ${imageIndex}`);
        swapchain.present(device.queue(0), imageIndex);
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(GONE, `acquire/present after the X server stopped: ${acquired} (${seen.join(', ')})`).toContain(acquired);
    const after: string[] = [];
    for (const call of [() => surface.capabilities(physical), () => surface.formats(physical), () => surface.presentModes(physical), () => swapchain.acquireNextImage(100_000_000n)]) {
      const result = outcome(call);
      after.push(result);
      // A query the driver answers from what it knows without the server may still succeed.
      expect(['ok', ...GONE, 'VK_TIMEOUT', 'VK_NOT_READY']).toContain(result);
    }

    // The queries that need the server (capabilities, formats) and a further acquire fail too.
    for (const i of [0, 1, 3]) expect(GONE, `call ${i}: ${after[i]}`).toContain(after[i]);
    swapchain.destroy();
    expect(swapchain.isDestroyed).toBe(true);
    surface.destroy();
    expect(surface.isDestroyed).toBe(true);
    xcb.close();
    // The device and instance still work and go cleanly.
    const fence = device.createFence();
    fence.destroy();
    device.destroy();
    instance.destroy();
    // Nothing of the driver is left: its library is unmapped once the instance is gone.
    expect(mappedLibraries('libvulkan_lvp')).toEqual([]);
  });
});
