// The typed surface and swapchain API (instance.createSurface, device.createSwapchain) on the real
// driver (Mesa lavapipe, whose Debian build offers the Xlib/XCB/Wayland surfaces but not
// VK_EXT_headless_surface) with VK_LAYER_KHRONOS_validation, under a private Xvfb: an Xlib window
// opened in this process through libX11 (koffi), presented frame by frame with the result codes
// checked, the window's pixel read back from the X server and the layer silent; and bad input
// answered with typed errors (KL_INVALID_ARGUMENT before any Vulkan call, KL_HANDLE_DESTROYED,
// VulkanError with the driver's VkResult).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessFlags, PipelineStageFlags, VK_API_VERSION_1_3, VulkanError, type Device, type Instance, type PhysicalDevice, type Surface, type Swapchain } from '../../lib/vulkan/index.js';
import { missingRealDriverWithDebianLayers, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { missingXvfb, startXvfb, type Xvfb } from '../helpers/xvfb.js';
import { until } from '../helpers/until.js';
import { missingSystemComponent } from '../helpers/system.js';
import { LIBX11, openX11, openXcb } from '../helpers/x11-windows.js';

const skip = missingRealDriverWithDebianLayers() ?? missingXvfb() ?? missingSystemComponent({ 'libX11 (libx11-6)': [LIBX11] });

const WARNING = 0x100;
const FIFO = 2;
const USAGE_TRANSFER_DST_COLOR_ATTACHMENT = 0x2 | 0x10;

function thrown(call: () => unknown): Error & { code?: string; argument?: string } {
  try {
    call();
  } catch (error) {
    return error as Error & { code?: string; argument?: string };
  }
  throw new Error('the call did not throw');
}

describe.skipIf(skip !== null)('typed surfaces and swapchains on the real driver, with the validation layer', () => {
  let instance: Instance;
  let physical: PhysicalDevice;
  let device: Device;
  let xvfb: Xvfb;
  let x11: ReturnType<typeof openX11>;
  let window: bigint;
  const newSurface = (): Surface => instance.createSurface({ xlib: { display: x11.pointer, window } });

  beforeAll(async () => {
    xvfb = await startXvfb();
    x11 = openX11(xvfb.display);
    window = x11.createWindow(64, 48);
    instance = realDriverLoader().createInstance({
      applicationName: 'kl-wsi-typed',
      apiVersion: VK_API_VERSION_1_3,
      enabledLayerNames: ['VK_LAYER_KHRONOS_validation'],
      enabledExtensionNames: ['VK_EXT_debug_utils', 'VK_KHR_surface', 'VK_KHR_xlib_surface', 'VK_KHR_xcb_surface', 'VK_KHR_get_surface_capabilities2'],
    });
    instance.startDebugMessenger();
    physical = instance.enumeratePhysicalDevices()[0]!;
    device = physical.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledExtensionNames: ['VK_KHR_swapchain'] });
  });

  afterAll(async () => {
    device?.destroy();
    instance?.destroy();
    x11?.close();
    await xvfb?.stop();
  });

  function swapchainOn(surface: Surface, overrides: Record<string, unknown> = {}) {
    const caps = surface.capabilities(physical);
    const format = surface.formats(physical)[0]!.format;
    const extent = caps.currentExtent.width === 0xffffffff ? { width: 64, height: 48 } : { width: caps.currentExtent.width, height: caps.currentExtent.height };
    return device.createSwapchain(surface, { format, extent, imageCount: Math.max(caps.minImageCount, 2), presentMode: FIFO, usage: USAGE_TRANSFER_DST_COLOR_ATTACHMENT, ...overrides });
  }

  /** A new Xlib window of that size, a surface on it and a swapchain of a UNORM format. */
  function windowedSwapchain(width: number, height: number, overrides: Record<string, unknown> = {}) {
    const window = x11.createWindow(width, height);
    const surface = instance.createSurface({ xlib: { display: x11.pointer, window } });
    const unorm = surface.formats(physical).find((f) => f.format === 44 || f.format === 37)!;
    return { window, surface, unorm, swapchain: swapchainOn(surface, { format: unorm.format, ...overrides }) };
  }

  /** Records a clear of `image` to (r, g, b) into `cb`, leaving it ready to present. */
  function recordClear(cb: ReturnType<ReturnType<Device['createCommandPool']>['allocateCommandBuffer']>, image: Swapchain['images'][number], [r, g, b]: [number, number, number]): void {
    cb.reset()
      .begin()
      .imageBarrier(image, { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: PipelineStageFlags.TOP_OF_PIPE, dstStageMask: PipelineStageFlags.TRANSFER, dstAccessMask: AccessFlags.TRANSFER_WRITE })
      .clearColorImage(image, 'transfer-dst-optimal', r, g, b, 1)
      .imageBarrier(image, { oldLayout: 'transfer-dst-optimal', newLayout: 'present-src', srcStageMask: PipelineStageFlags.TRANSFER, dstStageMask: PipelineStageFlags.BOTTOM_OF_PIPE, srcAccessMask: AccessFlags.TRANSFER_WRITE })
      .end();
  }

  /** Acquires, clears (typed command buffer) and presents 3 frames; the image indices seen. */
  async function presentFrames(swapchain: Swapchain, [r, g, b]: [number, number, number]): Promise<Set<number>> {
    const queue = device.queue(0);
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    const fence = device.createFence();
    const seen = new Set<number>();
    for (let frame = 0; frame < 3; frame++) {
      const { imageIndex, suboptimal } = swapchain.acquireNextImage();
      expect(suboptimal).toBe(false);
      expect(imageIndex).toBeGreaterThanOrEqual(0);
      expect(imageIndex).toBeLessThan(swapchain.images.length);
      seen.add(imageIndex);
      recordClear(cb, swapchain.images[imageIndex]!, [r, g, b]);
      queue.submit(cb, fence);
      expect(await fence.wait()).toBe(true);
      fence.reset();
      expect(swapchain.present(queue, imageIndex)).toEqual({ suboptimal: false });
    }
    expect(seen.size).toBeGreaterThanOrEqual(1);
    queue.waitIdle();
    fence.destroy();
    pool.destroy();
    return seen;
  }

  it('VK-WSI-5: an Xlib window surface answers the typed queries; a swapchain on it acquires, is cleared and presents 3 frames with VK_SUCCESS, the window shows the colour, the validation layer silent', async () => {
    const surface = newSurface();
    expect(surface.kind).toBe('xlib');
    expect(surface.supportsPresent(physical, 0)).toBe(true);
    const caps = surface.capabilities(physical);
    expect(caps.minImageCount).toBeGreaterThanOrEqual(1);
    expect(caps.supportedUsageFlags & USAGE_TRANSFER_DST_COLOR_ATTACHMENT).toBe(USAGE_TRANSFER_DST_COLOR_ATTACHMENT);
    expect(surface.formats(physical).length).toBeGreaterThan(0);
    expect(surface.presentModes(physical)).toContain(FIFO);

    const unorm = surface.formats(physical).find((f) => f.format === 44 || f.format === 37);
    expect(unorm).toBeDefined();
    const swapchain = swapchainOn(surface, { format: unorm!.format });
    expect(swapchain.images.length).toBeGreaterThanOrEqual(Math.max(caps.minImageCount, 2));
    expect(new Set(swapchain.images.map((i) => i.handle)).size).toBe(swapchain.images.length);
    expect((await presentFrames(swapchain, [0.2, 0.4, 0.8])).size).toBeGreaterThanOrEqual(1);
    // B8G8R8A8/R8G8B8A8 UNORM of (0.2, 0.4, 0.8): 0x33, 0x66, 0xcc on the 24-bit screen.
    const format = swapchain.format;
    expect([44, 37]).toContain(format);
    await until('the window to show the presented colour', () => x11.pixel(window, 32, 24) === 0x3366cc, 5_000);
    expect(x11.pixel(window, 32, 24).toString(16)).toBe('3366cc');
    surface.destroy();
    expect(swapchain.isDestroyed).toBe(true);
    expect(surface.isDestroyed).toBe(true);
    const loud = instance.takeDebugMessages().filter((m) => m.severity >= WARNING);
    expect(loud.map((m) => m.message)).toEqual([]);
  });

  it('VK-WSI-5: an XCB window surface (connection and window from libxcb) presents the colour through createSwapchain, the validation layer silent', async () => {
    const xcb = openXcb(xvfb.display);
    try {
      const xcbWindow = xcb.createWindow(40, 30);
      const surface = instance.createSurface({ xcb: { connection: xcb.pointer, window: xcbWindow } });
      expect(surface.kind).toBe('xcb');
      expect(surface.supportsPresent(physical, 0)).toBe(true);
      expect(surface.capabilities(physical).currentExtent).toEqual({ width: 40, height: 30 });
      const unorm = surface.formats(physical).find((f) => f.format === 44 || f.format === 37)!;
      const swapchain = swapchainOn(surface, { format: unorm.format });
      await presentFrames(swapchain, [0.8, 0.4, 0.2]);
      await until('the XCB window to show the presented colour', () => x11.pixel(BigInt(xcbWindow), 20, 15) === 0xcc6633, 5_000);
      surface.destroy();
      expect(swapchain.isDestroyed).toBe(true);
    } finally {
      xcb.close();
    }
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => m.message)).toEqual([]);
  });

  it('VK-WSI-6: wrong surface sources and swapchain options are KL_INVALID_ARGUMENT naming the argument, before any Vulkan call', () => {
    const cases: [unknown, string][] = [
      [null, 'source'],
      [{}, 'source'],
      [{ headless: true, xlib: { display: 1n, window: 1 } }, 'source'],
      [{ headless: 1 }, 'source.headless'],
      [{ xlib: { display: 0n, window: 5 } }, 'source.xlib.display'],
      [{ xlib: { display: 0x1000n, window: -1 } }, 'source.xlib.window'],
      [{ xlib: { display: 0x1000n, window: 1.5 } }, 'source.xlib.window'],
      [{ xcb: { connection: 0x1000n, window: 0x1_0000_0000n } }, 'source.xcb.window'],
      [{ wayland: { display: 0x1000n, surface: 7 } }, 'source.wayland.surface'],
    ];
    for (const [source, argument] of cases) {
      const error = thrown(() => instance.createSurface(source as never));
      expect(error.code, JSON.stringify(source, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).toBe('KL_INVALID_ARGUMENT');
      expect(error.argument).toBe(argument);
    }
    const surface = newSurface();
    try {
      const caps = surface.capabilities(physical);
      const options: [Record<string, unknown>, string][] = [
        [{ imageCount: 0 }, 'options.imageCount'],
        ...(caps.maxImageCount > 0 ? [[{ imageCount: caps.maxImageCount + 1 }, 'options.imageCount'] as [Record<string, unknown>, string]] : []),
        [{ extent: { width: 0, height: 10 } }, 'options.extent.width'],
        [{ format: 999_999 }, 'options.format'],
        [{ presentMode: 12345 }, 'options.presentMode'],
        [{ usage: 0x8000_0000 }, 'options.usage'],
        [{ compositeAlpha: 3 }, 'options.compositeAlpha'],
      ];
      for (const [override, argument] of options) {
        const error = thrown(() => swapchainOn(surface, override));
        expect(error.code, JSON.stringify(override)).toBe('KL_INVALID_ARGUMENT');
        expect(error.argument).toBe(argument);
      }
      expect(thrown(() => device.createSwapchain({ handle: surface.handle } as never, { format: 44, extent: { width: 1, height: 1 }, imageCount: 2, presentMode: FIFO, usage: 0x10 })).code).toBe('KL_INVALID_ARGUMENT');
      expect(thrown(() => surface.supportsPresent(physical, -1)).code).toBe('KL_INVALID_ARGUMENT');
      expect(thrown(() => surface.capabilities({ handle: 0x1234n })).code).toBe('KL_INVALID_ARGUMENT');
      const swapchain = swapchainOn(surface);
      expect(thrown(() => swapchain.present(device.queue(0), swapchain.images.length)).code).toBe('KL_INVALID_ARGUMENT');
      expect(thrown(() => swapchain.acquireNextImage(-1)).code).toBe('KL_INVALID_ARGUMENT');
      swapchain.destroy();
    } finally {
      surface.destroy();
    }
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => m.message)).toEqual([]);
  });

  it('VK-WSI-6: a destroyed surface or swapchain is KL_HANDLE_DESTROYED; destroying the device or the surface takes the swapchain along', () => {
    const surface = newSurface();
    const swapchain = swapchainOn(surface);
    swapchain.destroy();
    expect(swapchain.isDestroyed).toBe(true);
    expect(thrown(() => swapchain.acquireNextImage()).code).toBe('KL_HANDLE_DESTROYED');
    expect(thrown(() => swapchain.present(device.queue(0), 0)).code).toBe('KL_HANDLE_DESTROYED');
    swapchain.destroy(); // a second destroy does nothing

    const second = swapchainOn(surface);
    surface.destroy();
    expect(second.isDestroyed).toBe(true);
    expect(thrown(() => second.acquireNextImage()).code).toBe('KL_HANDLE_DESTROYED');
    for (const call of [() => surface.capabilities(physical), () => surface.formats(physical), () => surface.presentModes(physical), () => surface.supportsPresent(physical, 0), () => swapchainOn(surface)]) {
      expect(thrown(call).code).toBe('KL_HANDLE_DESTROYED');
    }

    const own = physical.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledExtensionNames: ['VK_KHR_swapchain'] });
    const third = newSurface();
    const caps = third.capabilities(physical);
    const onOwn = own.createSwapchain(third, { format: third.formats(physical)[0]!.format, extent: caps.currentExtent.width === 0xffffffff ? { width: 16, height: 16 } : caps.currentExtent, imageCount: Math.max(caps.minImageCount, 2), presentMode: FIFO, usage: 0x10 });
    own.destroy();
    expect(onOwn.isDestroyed).toBe(true);
    expect(thrown(() => onOwn.acquireNextImage()).code).toBe('KL_HANDLE_DESTROYED');
    third.destroy();
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => m.message)).toEqual([]);
  });

  it('VK-WSI-6: a window resized under its swapchain: acquire or present reports VK_SUBOPTIMAL_KHR or VK_ERROR_OUT_OF_DATE_KHR; the swapchain recreated with oldSwapchain (the old one retired: no more acquires) presents the colour at the new size, the validation layer silent', async () => {
    const { window: resizable, surface, unorm, swapchain: old } = windowedSwapchain(64, 48);
    expect(old.extent).toEqual({ width: 64, height: 48 });
    await presentFrames(old, [0.2, 0.4, 0.8]);
    await until('the window to show the first colour', () => x11.pixel(resizable, 32, 24) === 0x3366cc, 5_000);

    x11.resize(resizable, 96, 72);
    const queue = device.queue(0);
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    const fence = device.createFence();
    // The driver sees the new size when it next looks (a present's reply, a configure event): frames
    // until acquire or present says so, with a deadline.
    let verdict = '';
    const deadline = performance.now() + 10_000;
    while (verdict === '' && performance.now() < deadline) {
      try {
        const { imageIndex, suboptimal } = old.acquireNextImage();
        if (suboptimal) verdict = 'acquire VK_SUBOPTIMAL_KHR';
        recordClear(cb, old.images[imageIndex]!, [0.2, 0.4, 0.8]);
        queue.submit(cb, fence);
        expect(await fence.wait()).toBe(true);
        fence.reset();
        if (old.present(queue, imageIndex).suboptimal && verdict === '') verdict = 'present VK_SUBOPTIMAL_KHR';
      } catch (error) {
        expect(error).toBeInstanceOf(VulkanError);
        expect((error as VulkanError).code).toBe('VK_ERROR_OUT_OF_DATE_KHR');
        verdict = (error as Error).message.includes('vkAcquireNextImageKHR') ? 'acquire VK_ERROR_OUT_OF_DATE_KHR' : 'present VK_ERROR_OUT_OF_DATE_KHR';
      }
    }
    expect(verdict).toMatch(/^(acquire|present) VK_(SUBOPTIMAL|ERROR_OUT_OF_DATE)_KHR$/);
    queue.waitIdle();
    fence.destroy();
    pool.destroy();

    expect(surface.capabilities(physical).currentExtent).toEqual({ width: 96, height: 72 });
    const replacement = swapchainOn(surface, { format: unorm.format, oldSwapchain: old });
    expect(replacement.extent).toEqual({ width: 96, height: 72 });
    expect(old.isRetired).toBe(true);
    expect(replacement.isRetired).toBe(false);
    expect(thrown(() => old.acquireNextImage()).code).toBe('KL_INVALID_STATE');
    expect(thrown(() => swapchainOn(surface, { oldSwapchain: old })).code).toBe('KL_INVALID_STATE');
    old.destroy();
    expect(thrown(() => swapchainOn(surface, { oldSwapchain: old })).code).toBe('KL_HANDLE_DESTROYED');
    await presentFrames(replacement, [0.8, 0.4, 0.2]);
    // (80, 60) lies outside the old 64x48 extent: the new swapchain's images fill the resized window.
    await until('the resized window to show the new colour', () => x11.pixel(resizable, 80, 60) === 0xcc6633 && x11.pixel(resizable, 10, 10) === 0xcc6633, 5_000);
    surface.destroy();
    expect(replacement.isDestroyed).toBe(true);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => m.message)).toEqual([]);
  });

  it('VK-WSI-5: acquireNextImage({ semaphore }) signals a typed Semaphore that the submit waits on; present({ waitSemaphores }) waits on the submit\'s signal; the window shows the colour, the validation layer silent', async () => {
    const { window: own, surface, swapchain } = windowedSwapchain(40, 30);
    const queue = device.queue(0);
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    const fence = device.createFence();
    const acquired = device.createSemaphore();
    const rendered = device.createSemaphore();
    for (const [frame, rgb] of ([[0, [0.8, 0.2, 0.4]], [1, [0.4, 0.8, 0.2]]] as const).entries()) {
      expect(frame).toBeLessThan(2);
      const { imageIndex, suboptimal } = swapchain.acquireNextImage({ semaphore: acquired, timeoutNs: 1_000_000_000n });
      expect(suboptimal).toBe(false);
      // The semaphore has its signal pending: a second acquire on it is refused before Vulkan sees it.
      expect(thrown(() => swapchain.acquireNextImage({ semaphore: acquired })).code).toBe('KL_INVALID_STATE');
      recordClear(cb, swapchain.images[imageIndex]!, [...rgb[1]]);
      queue.submit(cb, fence, { wait: acquired, waitStage: PipelineStageFlags.TRANSFER, signal: rendered });
      expect(swapchain.present(queue, imageIndex, { waitSemaphores: [rendered] })).toEqual({ suboptimal: false });
      // Consumed by the present: waiting on it again would never end.
      expect(thrown(() => swapchain.present(queue, imageIndex, { waitSemaphores: [rendered] })).code).toBe('KL_INVALID_STATE');
      expect(await fence.wait()).toBe(true);
      fence.reset();
      queue.waitIdle();
    }
    await until('the window to show the colour presented after the semaphores', () => x11.pixel(own, 20, 15) === 0x66cc33, 5_000);
    expect(thrown(() => swapchain.present(queue, 0, { waitSemaphores: [fence] as never })).code).toBe('KL_INVALID_ARGUMENT');
    expect(thrown(() => swapchain.acquireNextImage({ semaphore: fence as never })).code).toBe('KL_INVALID_ARGUMENT');
    acquired.destroy();
    rendered.destroy();
    fence.destroy();
    pool.destroy();
    surface.destroy();
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => m.message)).toEqual([]);
  });

  it('VK-WSI-5: capabilities2 and formats2 (VK_KHR_get_surface_capabilities2) answer as capabilities and formats; the platform presentation-support queries answer for Xlib and XCB; wrong targets are KL_INVALID_ARGUMENT', () => {
    const surface = newSurface();
    try {
      expect(surface.capabilities2(physical)).toEqual(surface.capabilities(physical));
      expect(surface.formats2(physical)).toEqual(surface.formats(physical));
      expect(surface.formats2(physical).length).toBeGreaterThan(0);
    } finally {
      surface.destroy();
    }
    const xcb = openXcb(xvfb.display);
    try {
      expect(physical.presentationSupport(0, { xlib: { display: x11.pointer, visualId: x11.visualId } })).toBe(true);
      expect(physical.presentationSupport(0, { xcb: { connection: xcb.pointer, visualId: xcb.visualId } })).toBe(true);
      const cases: [number, unknown, string][] = [
        [physical.queueFamilies.length, { xlib: { display: x11.pointer, visualId: x11.visualId } }, 'queueFamilyIndex'],
        [-1, { xlib: { display: x11.pointer, visualId: x11.visualId } }, 'queueFamilyIndex'],
        [0, null, 'target'],
        [0, { xlib: { display: x11.pointer, visualId: x11.visualId }, xcb: { connection: xcb.pointer, visualId: 1 } }, 'target'],
        [0, { xlib: { display: 0n, visualId: x11.visualId } }, 'target.xlib.display'],
        [0, { xlib: { display: x11.pointer, visualId: 0 } }, 'target.xlib.visualId'],
        [0, { xcb: { connection: xcb.pointer, visualId: 0x1_0000_0000n } }, 'target.xcb.visualId'],
        [0, { wayland: { display: 5 } }, 'target.wayland.display'],
      ];
      for (const [family, target, argument] of cases) {
        const error = thrown(() => physical.presentationSupport(family, target as never));
        expect(error.code, argument).toBe('KL_INVALID_ARGUMENT');
        expect(error.argument).toBe(argument);
      }
    } finally {
      xcb.close();
    }
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => m.message)).toEqual([]);
  });

  it('VK-WSI-6: a surface extension or VK_KHR_swapchain that was not enabled is VulkanError VK_ERROR_EXTENSION_NOT_PRESENT naming it', () => {
    const headless = thrown(() => instance.createSurface({ headless: true }));
    expect(headless.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
    expect(headless.message).toContain('VK_EXT_headless_surface');
    const plain = realDriverLoader().createInstance({ applicationName: 'kl-wsi-typed-plain', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames: ['VK_KHR_surface'] });
    try {
      const xlib = thrown(() => plain.createSurface({ xlib: { display: x11.pointer, window } }));
      expect(xlib.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(xlib.message).toContain('VK_KHR_xlib_surface');
      const support = thrown(() => plain.enumeratePhysicalDevices()[0]!.presentationSupport(0, { xlib: { display: x11.pointer, visualId: x11.visualId } }));
      expect(support.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(support.message).toContain('VK_KHR_xlib_surface');
    } finally {
      plain.destroy();
    }
    const noCaps2 = realDriverLoader().createInstance({ applicationName: 'kl-wsi-typed-no-caps2', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames: ['VK_KHR_surface', 'VK_KHR_xlib_surface'] });
    try {
      const surface = noCaps2.createSurface({ xlib: { display: x11.pointer, window } });
      const own = noCaps2.enumeratePhysicalDevices()[0]!;
      for (const call of [() => surface.capabilities2(own), () => surface.formats2(own)]) {
        const error = thrown(call);
        expect(error.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
        expect(error.message).toContain('VK_KHR_get_surface_capabilities2');
      }
      expect(surface.capabilities(own).minImageCount).toBeGreaterThanOrEqual(1);
    } finally {
      noCaps2.destroy();
    }
    const noSwapchain = physical.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    const surface = newSurface();
    try {
      const caps = surface.capabilities(physical);
      const error = thrown(() => noSwapchain.createSwapchain(surface, { format: surface.formats(physical)[0]!.format, extent: { width: 16, height: 16 }, imageCount: Math.max(caps.minImageCount, 2), presentMode: FIFO, usage: 0x10 }));
      expect(error.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(error.message).toContain('VK_KHR_swapchain');
    } finally {
      surface.destroy();
      noSwapchain.destroy();
    }
  });

  it('VK-WSI-6: an Xlib window id that is no window gives a surface whose queries fail with VulkanError VK_ERROR_SURFACE_LOST_KHR; the process lives on', () => {
    const surface = instance.createSurface({ xlib: { display: x11.pointer, window: 0x7ffffe } });
    try {
      const error = thrown(() => surface.capabilities(physical));
      expect(error.name).toBe('VulkanError');
      expect(error.code).toBe('VK_ERROR_SURFACE_LOST_KHR');
    } finally {
      surface.destroy();
    }
    instance.takeDebugMessages();
    // The window that is one still works afterwards.
    expect(newSurface().supportsPresent(physical, 0)).toBe(true);
  });
});
