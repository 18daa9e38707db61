// Window-system surfaces and swapchains in the typed API (docs/usage.md "Surfaces and
// presentation"). A Surface belongs to its instance (destroyed with it, after the devices); a
// Swapchain is a device child (destroyed with its device) and goes before its surface. The calls go
// through the generated bindings' native half (one set per instance for surfaces, one per
// swapchain on its device), so every handle is checked before any Vulkan call; the platform
// surfaces (Xlib, XCB, Wayland) are made natively (native/vulkan/addon/vulkan_surface.cc).
import { VK_GENERATED_COMMANDS } from '../../generated/vulkan-commands.js';
import { loadVulkanAddon, type NativeVulkanCommands, type NativeVulkanDevice } from '../native/addon.js';
import { VulkanError, withVulkanErrors } from '../errors.js';
import { describeValue, HandleDestroyedError, InvalidArgumentError, InvalidStateError } from '../../core/errors.js';
import { DeviceChild, Semaphore, type DeviceOwner } from './device-objects.js';
import { Image } from './image.js';
import type { Queue } from './commands.js';

const VK_SUCCESS = 0;
const VK_ERROR_EXTENSION_NOT_PRESENT = -7;
const VK_SUBOPTIMAL_KHR = 1000001003;
const COMMAND_INDEX = new Map<string, number>(VK_GENERATED_COMMANDS.map((name, index) => [name, index]));

/** One generated command through a set of native bindings (VulkanError for a failing VkResult). */
function vk<T>(bindings: NativeVulkanCommands, name: string, args: readonly unknown[]): T & { readonly result: number } {
  const index = COMMAND_INDEX.get(name);
  if (index === undefined) throw new VulkanError(-7, `${name} is not in the generated bindings`);
  return withVulkanErrors(() => bindings.call(index, args)) as T & { readonly result: number };
}

/** A native handle as Node window libraries hand them out: a bigint, or a non-negative safe integer. */
type NativeHandle = bigint | number;

/** Where a surface presents: a headless surface (VK_EXT_headless_surface) or a native window. */
export type SurfaceSource =
  | { readonly headless: true }
  /** VK_KHR_xlib_surface: an Xlib `Display*` and a `Window` (XID). */
  | { readonly xlib: { readonly display: bigint; readonly window: NativeHandle } }
  /** VK_KHR_xcb_surface: an `xcb_connection_t*` and an `xcb_window_t`. */
  | { readonly xcb: { readonly connection: bigint; readonly window: NativeHandle } }
  /** VK_KHR_wayland_surface: a `wl_display*` and a `wl_surface*`. */
  | { readonly wayland: { readonly display: bigint; readonly surface: bigint } };

export interface Extent2D {
  readonly width: number;
  readonly height: number;
}

/** VkSurfaceCapabilitiesKHR (flags as VkSurfaceTransformFlagsKHR, VkCompositeAlphaFlagsKHR, VkImageUsageFlags). */
export interface SurfaceCapabilities {
  readonly minImageCount: number;
  /** 0: no limit. */
  readonly maxImageCount: number;
  /** 0xffffffff × 0xffffffff: the swapchain's extent decides the surface's. */
  readonly currentExtent: Extent2D;
  readonly minImageExtent: Extent2D;
  readonly maxImageExtent: Extent2D;
  readonly maxImageArrayLayers: number;
  readonly supportedTransforms: number;
  readonly currentTransform: number;
  readonly supportedCompositeAlpha: number;
  readonly supportedUsageFlags: number;
}

/** VkSurfaceFormatKHR: a VkFormat (Format) and a VkColorSpaceKHR. */
export interface SurfaceFormat {
  readonly format: number;
  readonly colorSpace: number;
}

/**
 * Where a queue family's presentation support is asked for (the platform presentation-support
 * queries, which need no surface): an Xlib `Display*` and a `VisualID`, an `xcb_connection_t*` and
 * an `xcb_visualid_t`, or a `wl_display*`.
 */
export type PresentationTarget =
  | { readonly xlib: { readonly display: bigint; readonly visualId: NativeHandle } }
  | { readonly xcb: { readonly connection: bigint; readonly visualId: NativeHandle } }
  | { readonly wayland: { readonly display: bigint } };

/**
 * @internal vkGetPhysicalDevice{Xlib,Xcb,Wayland}PresentationSupportKHR through the instance's
 * bindings: `target` checked (InvalidArgumentError) before any Vulkan call.
 */
export function platformPresentationSupport(bindings: NativeVulkanCommands, physicalDevice: bigint, queueFamilyCount: number, queueFamilyIndex: number, target: PresentationTarget): boolean {
  const what = 'presentationSupport';
  if (!Number.isInteger(queueFamilyIndex) || queueFamilyIndex < 0 || queueFamilyIndex >= queueFamilyCount) {
    throw new InvalidArgumentError(`${what}: queueFamilyIndex must be an integer within 0..${queueFamilyCount - 1}, got ${describeValue(queueFamilyIndex)}`, 'queueFamilyIndex');
  }
  if (typeof target !== 'object' || target === null) throw new InvalidArgumentError(`${what}(queueFamilyIndex, target): target must be an object, got ${describeValue(target)}`, 'target');
  const kinds = (['xlib', 'xcb', 'wayland'] as const).filter((k) => k in target);
  if (kinds.length !== 1) throw new InvalidArgumentError(`${what}: target must have exactly one of xlib, xcb, wayland, got ${kinds.length === 0 ? 'none' : kinds.join(', ')}`, 'target');
  const kind = kinds[0]!;
  const t = field(target, kind, what, 'target');
  const display = pointer(kind === 'xcb' ? t.connection : t.display, `target.${kind}.${kind === 'xcb' ? 'connection' : 'display'}`, what);
  let visual: NativeHandle = 0;
  if (kind !== 'wayland') {
    visual = nativeHandle(t.visualId, `target.${kind}.visualId`, what);
    if (kind === 'xcb' && BigInt(visual) > 0xffffffffn) throw new InvalidArgumentError(`${what}: target.xcb.visualId must be a 32-bit xcb_visualid_t, got ${describeValue(visual)}`, 'target.xcb.visualId');
  }
  return withVulkanErrors(() => bindings.platformPresentationSupport(kind, physicalDevice, queueFamilyIndex, display, visual));
}

/** @internal What a surface needs of its instance. */
export interface SurfaceInstance {
  readonly isDestroyed: boolean;
}

/** A physical device as the surface queries take it (instance.enumeratePhysicalDevices()). */
export interface SurfacePhysicalDevice {
  readonly handle: bigint;
}

function nativeHandle(value: unknown, argument: string, what = 'createSurface'): NativeHandle {
  if (typeof value === 'bigint' && value > 0n && value < 1n << 64n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new InvalidArgumentError(`${what}: ${argument} must be a non-zero native handle (a bigint, or a positive safe integer), got ${describeValue(value)}`, argument);
}

function pointer(value: unknown, argument: string, what = 'createSurface'): bigint {
  if (typeof value === 'bigint' && value > 0n && value < 1n << 64n) return value;
  throw new InvalidArgumentError(`${what}: ${argument} must be a non-NULL pointer as a bigint, got ${describeValue(value)}`, argument);
}

function field(source: object, key: string, what = 'createSurface', name = 'source'): Record<string, unknown> {
  const v = (source as Record<string, unknown>)[key];
  if (typeof v !== 'object' || v === null) throw new InvalidArgumentError(`${what}: ${name}.${key} must be an object, got ${describeValue(v)}`, `${name}.${key}`);
  return v as Record<string, unknown>;
}

function freezeCapabilities(c: SurfaceCapabilities): SurfaceCapabilities {
  const extent = (e: Extent2D): Extent2D => Object.freeze({ width: e.width, height: e.height });
  return Object.freeze({
    minImageCount: c.minImageCount,
    maxImageCount: c.maxImageCount,
    currentExtent: extent(c.currentExtent),
    minImageExtent: extent(c.minImageExtent),
    maxImageExtent: extent(c.maxImageExtent),
    maxImageArrayLayers: c.maxImageArrayLayers,
    supportedTransforms: c.supportedTransforms,
    currentTransform: c.currentTransform,
    supportedCompositeAlpha: c.supportedCompositeAlpha,
    supportedUsageFlags: c.supportedUsageFlags,
  });
}

export class Surface {
  /** The VkSurfaceKHR. */
  readonly handle: bigint;
  readonly kind: 'headless' | 'xlib' | 'xcb' | 'wayland';
  readonly #instance: SurfaceInstance;
  readonly #bindings: NativeVulkanCommands;
  readonly #instanceHandle: bigint;
  readonly #swapchains = new Set<Swapchain>();
  readonly #onDestroy: (s: Surface) => void;
  #destroyed = false;

  private constructor(instance: SurfaceInstance, bindings: NativeVulkanCommands, handle: bigint, kind: Surface['kind'], onDestroy: (s: Surface) => void) {
    this.#instance = instance;
    this.#bindings = bindings;
    this.#instanceHandle = bindings.instance ?? 0n;
    this.handle = handle;
    this.kind = kind;
    this.#onDestroy = onDestroy;
  }

  /** @internal Checks `source` (InvalidArgumentError, before any Vulkan call), then creates the surface. */
  static create(instance: SurfaceInstance, bindings: NativeVulkanCommands, source: SurfaceSource, onDestroy: (s: Surface) => void): Surface {
    if (typeof source !== 'object' || source === null) throw new InvalidArgumentError(`createSurface(source): source must be an object, got ${describeValue(source)}`, 'source');
    const kinds = (['headless', 'xlib', 'xcb', 'wayland'] as const).filter((k) => k in source);
    if (kinds.length !== 1) {
      throw new InvalidArgumentError(`createSurface(source): source must have exactly one of headless, xlib, xcb, wayland, got ${kinds.length === 0 ? 'none' : kinds.join(', ')}`, 'source');
    }
    const kind = kinds[0]!;
    let handle: bigint;
    if (kind === 'headless') {
      if ((source as { headless?: unknown }).headless !== true) throw new InvalidArgumentError(`createSurface: source.headless must be true, got ${describeValue((source as { headless?: unknown }).headless)}`, 'source.headless');
      handle = vk<{ pSurface: bigint }>(bindings, 'vkCreateHeadlessSurfaceEXT', [bindings.instance, {}]).pSurface;
    } else {
      const s = field(source, kind);
      const display = kind === 'xcb' ? pointer(s.connection, 'source.xcb.connection') : pointer(s.display, `source.${kind}.display`);
      const window = kind === 'wayland' ? pointer(s.surface, 'source.wayland.surface') : nativeHandle(s.window, `source.${kind}.window`);
      if (kind === 'xcb' && BigInt(window) > 0xffffffffn) throw new InvalidArgumentError(`createSurface: source.xcb.window must be a 32-bit xcb_window_t, got ${describeValue(window)}`, 'source.xcb.window');
      handle = withVulkanErrors(() => bindings.createPlatformSurface(kind, display, window));
    }
    return new Surface(instance, bindings, handle, kind, onDestroy);
  }

  get isDestroyed(): boolean {
    return this.#destroyed || this.#instance.isDestroyed;
  }

  /** @internal The bindings that made it (a swapchain's bindings share the handle from them). */
  liveBindings(what: string): NativeVulkanCommands {
    if (this.#destroyed) throw new HandleDestroyedError(`${what}: the VkSurfaceKHR 0x${this.handle.toString(16)} was destroyed`);
    if (this.#instance.isDestroyed) throw new HandleDestroyedError(`${what}: the surface's VkInstance was destroyed`);
    return this.#bindings;
  }

  #physical(what: string, physicalDevice: SurfacePhysicalDevice): bigint {
    if (typeof physicalDevice !== 'object' || physicalDevice === null || typeof physicalDevice.handle !== 'bigint') {
      throw new InvalidArgumentError(`${what}: physicalDevice must be a PhysicalDevice of the surface's instance, got ${describeValue(physicalDevice)}`, 'physicalDevice');
    }
    return physicalDevice.handle;
  }

  /** vkGetPhysicalDeviceSurfaceSupportKHR: whether queue family `queueFamilyIndex` of `physicalDevice` can present to this surface. */
  supportsPresent(physicalDevice: SurfacePhysicalDevice, queueFamilyIndex: number): boolean {
    const b = this.liveBindings('supportsPresent');
    const pd = this.#physical('supportsPresent', physicalDevice);
    if (!Number.isInteger(queueFamilyIndex) || queueFamilyIndex < 0) {
      throw new InvalidArgumentError(`supportsPresent: queueFamilyIndex must be a non-negative integer, got ${describeValue(queueFamilyIndex)}`, 'queueFamilyIndex');
    }
    return vk<{ pSupported: boolean }>(b, 'vkGetPhysicalDeviceSurfaceSupportKHR', [pd, queueFamilyIndex, this.handle]).pSupported;
  }

  /** vkGetPhysicalDeviceSurfaceCapabilitiesKHR (VulkanError VK_ERROR_SURFACE_LOST_KHR for a window that is not there). */
  capabilities(physicalDevice: SurfacePhysicalDevice): SurfaceCapabilities {
    const b = this.liveBindings('capabilities');
    return freezeCapabilities(vk<{ pSurfaceCapabilities: SurfaceCapabilities }>(b, 'vkGetPhysicalDeviceSurfaceCapabilitiesKHR', [this.#physical('capabilities', physicalDevice), this.handle]).pSurfaceCapabilities);
  }

  /**
   * vkGetPhysicalDeviceSurfaceCapabilities2KHR (VK_KHR_get_surface_capabilities2, which must be
   * enabled on the instance: VulkanError VK_ERROR_EXTENSION_NOT_PRESENT naming it otherwise): the
   * VkSurfaceCapabilities2KHR's surfaceCapabilities, as capabilities() gives them.
   */
  capabilities2(physicalDevice: SurfacePhysicalDevice): SurfaceCapabilities {
    const b = this.liveBindings('capabilities2');
    const r = vk<{ pSurfaceCapabilities: { surfaceCapabilities: SurfaceCapabilities } }>(b, 'vkGetPhysicalDeviceSurfaceCapabilities2KHR', [this.#physical('capabilities2', physicalDevice), { surface: this.handle }]);
    return freezeCapabilities(r.pSurfaceCapabilities.surfaceCapabilities);
  }

  /** vkGetPhysicalDeviceSurfaceFormats2KHR (VK_KHR_get_surface_capabilities2): each VkSurfaceFormat2KHR's surfaceFormat. */
  formats2(physicalDevice: SurfacePhysicalDevice): SurfaceFormat[] {
    const b = this.liveBindings('formats2');
    const list = vk<{ pSurfaceFormats: { surfaceFormat: SurfaceFormat }[] }>(b, 'vkGetPhysicalDeviceSurfaceFormats2KHR', [this.#physical('formats2', physicalDevice), { surface: this.handle }]).pSurfaceFormats;
    return list.map((f) => Object.freeze({ format: f.surfaceFormat.format, colorSpace: f.surfaceFormat.colorSpace }));
  }

  /** vkGetPhysicalDeviceSurfaceFormatsKHR */
  formats(physicalDevice: SurfacePhysicalDevice): SurfaceFormat[] {
    const b = this.liveBindings('formats');
    const list = vk<{ pSurfaceFormats: SurfaceFormat[] }>(b, 'vkGetPhysicalDeviceSurfaceFormatsKHR', [this.#physical('formats', physicalDevice), this.handle]).pSurfaceFormats;
    return list.map((f) => Object.freeze({ format: f.format, colorSpace: f.colorSpace }));
  }

  /** vkGetPhysicalDeviceSurfacePresentModesKHR: VkPresentModeKHR values (FIFO 2 is always there). */
  presentModes(physicalDevice: SurfacePhysicalDevice): number[] {
    const b = this.liveBindings('presentModes');
    return [...vk<{ pPresentModes: number[] }>(b, 'vkGetPhysicalDeviceSurfacePresentModesKHR', [this.#physical('presentModes', physicalDevice), this.handle]).pPresentModes];
  }

  /** @internal */
  attach(swapchain: Swapchain): void {
    this.#swapchains.add(swapchain);
  }

  /** @internal */
  detach(swapchain: Swapchain): void {
    this.#swapchains.delete(swapchain);
  }

  /** Destroys the swapchains made on it, then the surface (vkDestroySurfaceKHR). Does nothing once destroyed. */
  destroy(): void {
    if (this.isDestroyed) return;
    for (const swapchain of [...this.#swapchains]) swapchain.destroy();
    vk(this.#bindings, 'vkDestroySurfaceKHR', [this.#instanceHandle, this.handle]);
    this.#destroyed = true;
    this.#onDestroy(this);
  }
}

/** What device.createSwapchain(surface, options) takes. */
export interface SwapchainOptions {
  /** VkFormat (Format): one of surface.formats(physicalDevice). */
  readonly format: number;
  /** VkColorSpaceKHR; default: the one surface.formats() pairs with `format`. */
  readonly colorSpace?: number;
  /** Within the surface's minImageExtent..maxImageExtent. */
  readonly extent: Extent2D;
  /** minImageCount: within the surface's minImageCount..maxImageCount. */
  readonly imageCount: number;
  /** VkPresentModeKHR (PresentModeKHR.FIFO_KHR 2, ...): one of surface.presentModes(physicalDevice). */
  readonly presentMode: number;
  /** VkImageUsageFlags (ImageUsageFlags.COLOR_ATTACHMENT | TRANSFER_DST ...), within the surface's supportedUsageFlags. */
  readonly usage: number;
  /** VkCompositeAlphaFlagBitsKHR; default: OPAQUE (1) when supported, else the lowest supported bit. */
  readonly compositeAlpha?: number;
  /**
   * The swapchain this one replaces on the same surface (after a resize: VK_SUBOPTIMAL_KHR or
   * VK_ERROR_OUT_OF_DATE_KHR). It is retired by the call, even when the call fails: it no longer
   * acquires (InvalidStateError), its images already acquired may still be presented, and it must
   * still be destroyed (destroy()).
   */
  readonly oldSwapchain?: Swapchain;
}

/** What acquireNextImage() takes besides a bare timeout. */
export interface AcquireOptions {
  /** Default 1 s. */
  readonly timeoutNs?: bigint | number;
  /**
   * Signalled when the image is ready (submit work that waits on it: queue.submit(cb, fence, {
   * wait: semaphore })). Without it the swapchain waits on a fence of its own before it returns.
   */
  readonly semaphore?: Semaphore;
}

/** What present() takes besides the queue and the image. */
export interface PresentOptions {
  /** Semaphores the presentation waits on (each with a signal pending, e.g. a submit's signal semaphore). */
  readonly waitSemaphores?: readonly Semaphore[];
}

/** What acquireNextImage() returns. */
export interface AcquiredImage {
  readonly imageIndex: number;
  /** VK_SUBOPTIMAL_KHR: the swapchain still presents, but no longer matches the surface exactly. */
  readonly suboptimal: boolean;
}

function positiveInteger(value: unknown, argument: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > 0xffffffff) {
    throw new InvalidArgumentError(`createSwapchain: ${argument} must be a positive 32-bit integer, got ${describeValue(value)}`, argument);
  }
  return value;
}

/** A VkSwapchainKHR: its images, acquireNextImage() and present(). A device child; destroyed before its surface. */
export class Swapchain extends DeviceChild {
  protected readonly kind = 'swapchain';
  readonly images: readonly Image[];
  readonly format: number;
  readonly extent: Extent2D;
  readonly #surface: Surface;
  readonly #bindings: NativeVulkanCommands;
  readonly #deviceHandle: bigint;
  readonly #fence: bigint;
  readonly #queues = new Map<bigint, bigint>();
  readonly #device: DeviceOwner & { getQueue(family: number, index: number): bigint };
  #retired = false;
  /** The images acquired and not yet presented (present() refuses any other: VUID-VkPresentInfoKHR-pImageIndices-01430). */
  readonly #acquired = new Set<number>();

  private constructor(
    device: DeviceOwner & { getQueue(family: number, index: number): bigint },
    bindings: NativeVulkanCommands,
    handle: bigint,
    fence: bigint,
    surface: Surface,
    options: { format: number; extent: Extent2D; usage: number },
  ) {
    super(device, handle);
    this.#device = device;
    this.#bindings = bindings;
    this.#deviceHandle = bindings.device ?? 0n;
    this.#fence = fence;
    this.#surface = surface;
    this.format = options.format;
    this.extent = Object.freeze({ width: options.extent.width, height: options.extent.height });
    const gone = (): boolean => this.isDestroyed;
    const owner = {
      get isDestroyed(): boolean {
        return gone();
      },
      description: 'a swapchain',
    };
    const images = vk<{ pSwapchainImages: bigint[] }>(bindings, 'vkGetSwapchainImagesKHR', [this.#deviceHandle, handle]).pSwapchainImages;
    this.images = Object.freeze(images.map((image) => new Image(device, image, { format: options.format, width: options.extent.width, height: options.extent.height, arrayLayers: 1, usage: options.usage }, owner)));
    surface.attach(this);
  }

  /**
   * @internal Checks the arguments (InvalidArgumentError) and the surface's state (HandleDestroyedError)
   * against the surface's capabilities on the device's physical device, then vkCreateSwapchainKHR.
   */
  static create(
    device: DeviceOwner & { getQueue(family: number, index: number): bigint; readonly nativeDevice: NativeVulkanDevice; readonly enabledExtensionNames: readonly string[]; readonly physicalDeviceHandle: bigint },
    surface: Surface,
    options: SwapchainOptions,
  ): Swapchain {
    if (!(surface instanceof Surface)) throw new InvalidArgumentError(`createSwapchain(surface, options): surface must be a Surface (instance.createSurface()), got ${describeValue(surface)}`, 'surface');
    const from = surface.liveBindings('createSwapchain');
    if (!device.enabledExtensionNames.includes('VK_KHR_swapchain')) {
      throw new VulkanError(VK_ERROR_EXTENSION_NOT_PRESENT, 'createSwapchain: VK_KHR_swapchain was not enabled on this device (DeviceCreateOptions.enabledExtensionNames)');
    }
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError(`createSwapchain(surface, options): options must be an object, got ${describeValue(options)}`, 'options');
    const format = positiveInteger(options.format, 'options.format');
    if (typeof options.extent !== 'object' || options.extent === null) throw new InvalidArgumentError(`createSwapchain: options.extent must be { width, height }, got ${describeValue(options.extent)}`, 'options.extent');
    const extent = { width: positiveInteger(options.extent.width, 'options.extent.width'), height: positiveInteger(options.extent.height, 'options.extent.height') };
    const imageCount = positiveInteger(options.imageCount, 'options.imageCount');
    const usage = positiveInteger(options.usage, 'options.usage');
    if (typeof options.presentMode !== 'number' || !Number.isInteger(options.presentMode) || options.presentMode < 0) {
      throw new InvalidArgumentError(`createSwapchain: options.presentMode must be a VkPresentModeKHR, got ${describeValue(options.presentMode)}`, 'options.presentMode');
    }
    const physical = { handle: device.physicalDeviceHandle };
    const caps = surface.capabilities(physical);
    if (imageCount < caps.minImageCount || (caps.maxImageCount !== 0 && imageCount > caps.maxImageCount)) {
      throw new InvalidArgumentError(`createSwapchain: options.imageCount must be within ${caps.minImageCount}..${caps.maxImageCount || 'any'} for this surface, got ${imageCount}`, 'options.imageCount');
    }
    const { minImageExtent: lo, maxImageExtent: hi } = caps;
    if (extent.width < lo.width || extent.width > hi.width || extent.height < lo.height || extent.height > hi.height) {
      throw new InvalidArgumentError(`createSwapchain: options.extent must be within ${lo.width}x${lo.height}..${hi.width}x${hi.height} for this surface, got ${extent.width}x${extent.height}`, 'options.extent');
    }
    if ((usage & ~caps.supportedUsageFlags) !== 0) {
      throw new InvalidArgumentError(`createSwapchain: options.usage 0x${usage.toString(16)} has bits outside the surface's supportedUsageFlags 0x${caps.supportedUsageFlags.toString(16)}`, 'options.usage');
    }
    const formats = surface.formats(physical);
    const pair = formats.find((f) => f.format === format && (options.colorSpace === undefined || f.colorSpace === options.colorSpace));
    if (pair === undefined) {
      throw new InvalidArgumentError(`createSwapchain: options.format ${format}${options.colorSpace === undefined ? '' : ` with colorSpace ${describeValue(options.colorSpace)}`} is not one of the surface's formats (${formats.map((f) => `${f.format}/${f.colorSpace}`).join(', ')})`, 'options.format');
    }
    const modes = surface.presentModes(physical);
    if (!modes.includes(options.presentMode)) {
      throw new InvalidArgumentError(`createSwapchain: options.presentMode ${options.presentMode} is not one of the surface's present modes (${modes.join(', ')})`, 'options.presentMode');
    }
    const alphaBits = caps.supportedCompositeAlpha;
    const compositeAlpha = options.compositeAlpha ?? ((alphaBits & 1) !== 0 ? 1 : alphaBits & -alphaBits);
    if (!Number.isInteger(compositeAlpha) || (compositeAlpha & alphaBits) === 0 || (compositeAlpha & (compositeAlpha - 1)) !== 0) {
      throw new InvalidArgumentError(`createSwapchain: options.compositeAlpha must be one bit of the surface's supportedCompositeAlpha 0x${alphaBits.toString(16)}, got ${describeValue(options.compositeAlpha)}`, 'options.compositeAlpha');
    }
    const old = options.oldSwapchain;
    if (old !== undefined) {
      if (!(old instanceof Swapchain)) throw new InvalidArgumentError(`createSwapchain: options.oldSwapchain must be a Swapchain, got ${describeValue(old)}`, 'options.oldSwapchain');
      if (old.isDestroyed) throw new HandleDestroyedError(`createSwapchain: options.oldSwapchain 0x${old.handle.toString(16)} was destroyed`);
      // VUID-VkSwapchainCreateInfoKHR-oldSwapchain-01933: a non-retired swapchain of this surface.
      if (old.#surface !== surface) throw new InvalidArgumentError('createSwapchain: options.oldSwapchain must be a swapchain of the same surface', 'options.oldSwapchain');
      if (old.#device !== device) throw new InvalidArgumentError('createSwapchain: options.oldSwapchain must be a swapchain of the same device', 'options.oldSwapchain');
      if (old.#retired) throw new InvalidStateError('createSwapchain: options.oldSwapchain was already retired (replaced by another swapchain)');
    }
    const addon = loadVulkanAddon();
    const bindings = withVulkanErrors(() => new addon.VulkanCommands(device.nativeDevice, device.enabledExtensionNames));
    withVulkanErrors(() => bindings.shareHandle(from, surface.handle));
    if (old !== undefined) {
      withVulkanErrors(() => bindings.shareHandle(old.#bindings, old.handle));
      // Retired by the call even when it fails (Vulkan spec, vkCreateSwapchainKHR, oldSwapchain).
      old.#retired = true;
    }
    const deviceHandle = bindings.device ?? 0n;
    const handle = vk<{ pSwapchain: bigint }>(bindings, 'vkCreateSwapchainKHR', [
      deviceHandle,
      {
        surface: surface.handle,
        minImageCount: imageCount,
        imageFormat: format,
        imageColorSpace: pair.colorSpace,
        imageExtent: extent,
        imageArrayLayers: 1,
        imageUsage: usage,
        imageSharingMode: 0,
        preTransform: caps.currentTransform,
        compositeAlpha,
        presentMode: options.presentMode,
        clipped: true,
        oldSwapchain: old?.handle ?? null,
      },
    ]).pSwapchain;
    let fence: bigint;
    try {
      fence = vk<{ pFence: bigint }>(bindings, 'vkCreateFence', [deviceHandle, {}]).pFence;
    } catch (error) {
      vk(bindings, 'vkDestroySwapchainKHR', [deviceHandle, handle]);
      throw error;
    }
    return new Swapchain(device, bindings, handle, fence, surface, { format, extent, usage });
  }

  #check(what: string): void {
    if (this.isDestroyed) throw new HandleDestroyedError(`${what}: the VkSwapchainKHR 0x${this.handle.toString(16)} (or its device) was destroyed`);
    this.#surface.liveBindings(what);
  }

  /** Whether a newer swapchain replaced it (createSwapchain's options.oldSwapchain): it acquires no more. */
  get isRetired(): boolean {
    return this.#retired;
  }

  /**
   * vkAcquireNextImageKHR. With a bare timeout (or no `semaphore`) the swapchain passes a fence it
   * owns and waits for it before it returns: the image is ready to record on. With
   * `{ semaphore }` that semaphore is signalled when the image is ready and the call returns at
   * once (submit work that waits on it). `timeoutNs` (default 1 s) bounds the acquire and the
   * fence wait. VulkanError VK_TIMEOUT / VK_NOT_READY when no image came in time;
   * VK_ERROR_OUT_OF_DATE_KHR when the surface changed (recreate it with options.oldSwapchain),
   * VK_ERROR_SURFACE_LOST_KHR when its window or display went away; `suboptimal` for
   * VK_SUBOPTIMAL_KHR. A retired swapchain (replaced through options.oldSwapchain) is InvalidStateError.
   */
  acquireNextImage(options: bigint | number | AcquireOptions = 1_000_000_000n): AcquiredImage {
    this.#check('acquireNextImage');
    let timeoutNs: unknown = 1_000_000_000n;
    let semaphore: Semaphore | undefined;
    if (typeof options === 'object' && options !== null) {
      if (options.timeoutNs !== undefined) timeoutNs = options.timeoutNs;
      if (options.semaphore !== undefined) {
        const s: unknown = options.semaphore;
        if (!(s instanceof Semaphore) || !s.ownedBy(this.device)) throw new InvalidArgumentError(`acquireNextImage: options.semaphore must be a Semaphore of the swapchain's device (device.createSemaphore()), got ${describeValue(s)}`, 'options.semaphore');
        semaphore = s;
      }
    } else {
      timeoutNs = options;
    }
    if (!(typeof timeoutNs === 'bigint' ? timeoutNs >= 0n && timeoutNs < 1n << 64n : typeof timeoutNs === 'number' && Number.isSafeInteger(timeoutNs) && timeoutNs >= 0)) {
      throw new InvalidArgumentError(`acquireNextImage(timeoutNs): timeoutNs must be a non-negative integer of nanoseconds, got ${describeValue(timeoutNs)}`, 'timeoutNs');
    }
    // VUID-vkAcquireNextImageKHR-swapchain-01675: not retired.
    if (this.#retired) throw new InvalidStateError('acquireNextImage: the swapchain was retired (a newer swapchain replaced it through options.oldSwapchain); acquire from the new one');
    if (semaphore !== undefined) {
      // VUID-vkAcquireNextImageKHR-semaphore-01286: unsignaled, no signal or wait pending.
      semaphore.checkSignalable(false);
      withVulkanErrors(() => this.#bindings.adoptSemaphore(semaphore.handle));
      const r = vk<{ pImageIndex: number }>(this.#bindings, 'vkAcquireNextImageKHR', [this.#deviceHandle, this.handle, timeoutNs, semaphore.handle, null]);
      if (r.result !== VK_SUCCESS && r.result !== VK_SUBOPTIMAL_KHR) throw new VulkanError(r.result, 'vkAcquireNextImageKHR gave no image in time');
      semaphore.signaledOutsideQueue();
      this.#acquired.add(r.pImageIndex);
      return Object.freeze({ imageIndex: r.pImageIndex, suboptimal: r.result === VK_SUBOPTIMAL_KHR });
    }
    const r = vk<{ pImageIndex: number }>(this.#bindings, 'vkAcquireNextImageKHR', [this.#deviceHandle, this.handle, timeoutNs, null, this.#fence]);
    if (r.result !== VK_SUCCESS && r.result !== VK_SUBOPTIMAL_KHR) throw new VulkanError(r.result, 'vkAcquireNextImageKHR gave no image in time');
    this.#acquired.add(r.pImageIndex);
    const waited = vk(this.#bindings, 'vkWaitForFences', [this.#deviceHandle, [this.#fence], true, timeoutNs]);
    if (waited.result !== VK_SUCCESS) throw new VulkanError(waited.result, 'the acquired image did not become ready in time');
    vk(this.#bindings, 'vkResetFences', [this.#deviceHandle, [this.#fence]]);
    return Object.freeze({ imageIndex: r.pImageIndex, suboptimal: r.result === VK_SUBOPTIMAL_KHR });
  }

  /**
   * vkQueuePresentKHR of image `imageIndex` on `queue` (a Queue of this device whose family
   * supports presenting to the surface), with no wait semaphore: the work that wrote the image must
   * have completed (a submit's fence awaited, or queue.waitIdle()), or `options.waitSemaphores`
   * name the semaphores it signals. Returns whether the result was VK_SUBOPTIMAL_KHR; VulkanError
   * VK_ERROR_OUT_OF_DATE_KHR / VK_ERROR_SURFACE_LOST_KHR otherwise.
   */
  present(queue: Queue, imageIndex: number, options: PresentOptions = {}): { readonly suboptimal: boolean } {
    this.#check('present');
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError(`present(queue, imageIndex, options): options must be an object, got ${describeValue(options)}`, 'options');
    const waits: unknown = options.waitSemaphores ?? [];
    if (!Array.isArray(waits)) throw new InvalidArgumentError(`present: options.waitSemaphores must be an array of Semaphores, got ${describeValue(waits)}`, 'options.waitSemaphores');
    const semaphores: Semaphore[] = [];
    for (const [i, s] of (waits as unknown[]).entries()) {
      if (!(s instanceof Semaphore) || !s.ownedBy(this.device)) throw new InvalidArgumentError(`present: options.waitSemaphores[${i}] must be a Semaphore of the swapchain's device, got ${describeValue(s)}`, `options.waitSemaphores[${i}]`);
      if (semaphores.includes(s)) throw new InvalidArgumentError(`present: options.waitSemaphores[${i}] is listed twice`, `options.waitSemaphores[${i}]`);
      semaphores.push(s);
    }
    if (typeof queue !== 'object' || queue === null || typeof queue.handle !== 'bigint' || typeof queue.familyIndex !== 'number') {
      throw new InvalidArgumentError(`present(queue, imageIndex): queue must be a Queue of this device (device.queue()), got ${describeValue(queue)}`, 'queue');
    }
    if (!Number.isInteger(imageIndex) || imageIndex < 0 || imageIndex >= this.images.length) {
      throw new InvalidArgumentError(`present: imageIndex must be within 0..${this.images.length - 1}, got ${describeValue(imageIndex)}`, 'imageIndex');
    }
    // VUID-VkPresentInfoKHR-pImageIndices-01430: an image the application holds (acquired, not yet presented).
    if (!this.#acquired.has(imageIndex)) throw new InvalidStateError(`present: image ${imageIndex} is not acquired (acquireNextImage() hands out an image; each is presented once)`);
    // VUID-vkQueuePresentKHR-pWaitSemaphores-03268: each has a signal pending.
    for (const s of semaphores) s.checkWaitable();
    const bound = this.#boundQueue(queue);
    for (const s of semaphores) withVulkanErrors(() => this.#bindings.adoptSemaphore(s.handle));
    let r: { readonly result: number };
    try {
      r = vk(this.#bindings, 'vkQueuePresentKHR', [bound, { pWaitSemaphores: semaphores.map((s) => s.handle), pSwapchains: [this.handle], pImageIndices: [imageIndex] }]);
    } finally {
      // The waits are consumed, and the image given back, whatever the result (Vulkan spec, vkQueuePresentKHR).
      for (const s of semaphores) s.waitedOutsideQueue();
      this.#acquired.delete(imageIndex);
    }
    return Object.freeze({ suboptimal: r.result === VK_SUBOPTIMAL_KHR });
  }

  /** The VkQueue as these bindings know it (retrieved through them once, by its family and index). */
  #boundQueue(queue: Queue): bigint {
    const known = this.#queues.get(queue.handle);
    if (known !== undefined) return known;
    // device.getQueue() refuses an index the device was not created with, so the loop stops there.
    for (let index = 0; ; index++) {
      let handle: bigint;
      try {
        handle = this.#device.getQueue(queue.familyIndex, index);
      } catch {
        throw new InvalidArgumentError(`present: queue 0x${queue.handle.toString(16)} is not a queue of this swapchain's device`, 'queue');
      }
      if (handle === queue.handle) {
        const bound = vk<{ pQueue: bigint }>(this.#bindings, 'vkGetDeviceQueue', [this.#deviceHandle, queue.familyIndex, index]).pQueue;
        this.#queues.set(queue.handle, bound);
        return bound;
      }
    }
  }

  protected release(): void {
    vk(this.#bindings, 'vkDestroyFence', [this.#deviceHandle, this.#fence]);
    vk(this.#bindings, 'vkDestroySwapchainKHR', [this.#deviceHandle, this.handle]);
    this.#surface.detach(this);
  }
}
