// The typed surface and swapchain API (instance.createSurface, device.createSwapchain) on the real
// driver (Mesa lavapipe, whose Debian build offers the Xlib/XCB/Wayland surfaces but not
// VK_EXT_headless_surface) with VK_LAYER_KHRONOS_validation, under a private Xvfb: an Xlib window
// opened in this process through libX11 (koffi), presented frame by frame with the result codes
// checked, the window's pixel read back from the X server and the layer silent; and bad input
// answered with typed errors (KL_INVALID_ARGUMENT before any Vulkan call, KL_HANDLE_DESTROYED,
// VulkanError with the driver's VkResult).
import koffi from 'koffi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessFlags, PipelineStageFlags, VK_API_VERSION_1_3, type Device, type Instance, type PhysicalDevice, type Surface, type Swapchain } from '../../lib/vulkan/index.js';
import { missingRealDriverWithDebianLayers, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { missingXvfb, startXvfb, type Xvfb } from '../helpers/xvfb.js';
import { until } from '../helpers/until.js';
import { missingSystemComponent } from '../helpers/system.js';

const LIBX11 = '/usr/lib/x86_64-linux-gnu/libX11.so.6';
const skip = missingRealDriverWithDebianLayers() ?? missingXvfb() ?? missingSystemComponent({ 'libX11 (libx11-6)': [LIBX11] });

/** The few libX11 functions the test needs: a window to present to, and its pixels read back. */
function openX11(display: string) {
  const x = koffi.load(LIBX11);
  const XOpenDisplay = x.func('void *XOpenDisplay(const char *name)');
  const XDefaultScreen = x.func('int XDefaultScreen(void *display)');
  const XRootWindow = x.func('unsigned long XRootWindow(void *display, int screen)');
  const XCreateSimpleWindow = x.func('unsigned long XCreateSimpleWindow(void *display, unsigned long parent, int x, int y, unsigned int w, unsigned int h, unsigned int border, unsigned long borderPixel, unsigned long background)');
  const XMapWindow = x.func('int XMapWindow(void *display, unsigned long window)');
  const XSync = x.func('int XSync(void *display, int discard)');
  const XGetImage = x.func('void *XGetImage(void *display, unsigned long drawable, int x, int y, unsigned int w, unsigned int h, unsigned long planes, int format)');
  const XGetPixel = x.func('unsigned long XGetPixel(void *image, int x, int y)');
  const XDestroyImage = x.func('int XDestroyImage(void *image)');
  const XCloseDisplay = x.func('int XCloseDisplay(void *display)');
  const dpy: unknown = XOpenDisplay(display);
  if (dpy === null) throw new Error(`XOpenDisplay(${display}) failed`);
  const root = XRootWindow(dpy, XDefaultScreen(dpy)) as number | bigint;
  return {
    pointer: koffi.address(dpy) as bigint,
    createWindow(width: number, height: number): bigint {
      const window = BigInt(XCreateSimpleWindow(dpy, root, 0, 0, width, height, 0, 0, 0) as number | bigint);
      XMapWindow(dpy, window);
      XSync(dpy, 0);
      return window;
    },
    /** The window's pixel at (x, y) as 0xRRGGBB (ZPixmap of the 24-bit TrueColor screen). */
    pixel(window: bigint, px: number, py: number): number {
      const image: unknown = XGetImage(dpy, window, px, py, 1, 1, 0xffffffff, 2);
      if (image === null) return -1;
      const value = Number(XGetPixel(image, 0, 0) as number | bigint) & 0xffffff;
      XDestroyImage(image);
      return value;
    },
    close(): void {
      XCloseDisplay(dpy);
    },
  };
}

/** An XCB connection to the same server and a window made through it (its id is an XID Xlib reads back too). */
function openXcb(display: string) {
  const xcb = koffi.load('/usr/lib/x86_64-linux-gnu/libxcb.so.1');
  const cookie = koffi.struct('kl_xcb_void_cookie_t', { sequence: 'uint' });
  const iterator = koffi.struct('kl_xcb_screen_iterator_t', { data: 'void *', rem: 'int', index: 'int' });
  const xcb_connect = xcb.func('void *xcb_connect(const char *display, int *screen)');
  const xcb_connection_has_error = xcb.func('int xcb_connection_has_error(void *c)');
  const xcb_get_setup = xcb.func('void *xcb_get_setup(void *c)');
  const xcb_setup_roots_iterator = xcb.func('xcb_setup_roots_iterator', iterator, ['void *']);
  const xcb_generate_id = xcb.func('uint32_t xcb_generate_id(void *c)');
  const xcb_create_window = xcb.func('xcb_create_window', cookie, ['void *', 'uint8_t', 'uint32_t', 'uint32_t', 'int16_t', 'int16_t', 'uint16_t', 'uint16_t', 'uint16_t', 'uint16_t', 'uint32_t', 'uint32_t', 'void *']);
  const xcb_map_window = xcb.func('xcb_map_window', cookie, ['void *', 'uint32_t']);
  const xcb_flush = xcb.func('int xcb_flush(void *c)');
  const xcb_disconnect = xcb.func('void xcb_disconnect(void *c)');
  const c: unknown = xcb_connect(display, null);
  if (xcb_connection_has_error(c) !== 0) throw new Error(`xcb_connect(${display}) failed`);
  const screen = xcb_setup_roots_iterator(xcb_get_setup(c)) as { data: unknown };
  const root = koffi.decode(screen.data, 'uint32_t') as number; // xcb_screen_t.root is its first member
  return {
    pointer: koffi.address(c) as bigint,
    createWindow(width: number, height: number): number {
      const window = xcb_generate_id(c) as number;
      // depth and visual XCB_COPY_FROM_PARENT (0), class XCB_WINDOW_CLASS_INPUT_OUTPUT (1), no values.
      xcb_create_window(c, 0, window, root, 0, 0, width, height, 0, 1, 0, 0, null);
      xcb_map_window(c, window);
      xcb_flush(c);
      return window;
    },
    close(): void {
      xcb_disconnect(c);
    },
  };
}
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
      enabledExtensionNames: ['VK_EXT_debug_utils', 'VK_KHR_surface', 'VK_KHR_xlib_surface', 'VK_KHR_xcb_surface'],
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
      const image = swapchain.images[imageIndex]!;
      cb.reset()
        .begin()
        .imageBarrier(image, { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: PipelineStageFlags.TOP_OF_PIPE, dstStageMask: PipelineStageFlags.TRANSFER, dstAccessMask: AccessFlags.TRANSFER_WRITE })
        .clearColorImage(image, 'transfer-dst-optimal', r, g, b, 1)
        .imageBarrier(image, { oldLayout: 'transfer-dst-optimal', newLayout: 'present-src', srcStageMask: PipelineStageFlags.TRANSFER, dstStageMask: PipelineStageFlags.BOTTOM_OF_PIPE, srcAccessMask: AccessFlags.TRANSFER_WRITE })
        .end();
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

  it('VK-WSI-6: a surface extension or VK_KHR_swapchain that was not enabled is VulkanError VK_ERROR_EXTENSION_NOT_PRESENT naming it', () => {
    const headless = thrown(() => instance.createSurface({ headless: true }));
    expect(headless.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
    expect(headless.message).toContain('VK_EXT_headless_surface');
    const plain = realDriverLoader().createInstance({ applicationName: 'kl-wsi-typed-plain', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames: ['VK_KHR_surface'] });
    try {
      const xlib = thrown(() => plain.createSurface({ xlib: { display: x11.pointer, window } }));
      expect(xlib.code).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
      expect(xlib.message).toContain('VK_KHR_xlib_surface');
    } finally {
      plain.destroy();
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
