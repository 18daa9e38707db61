// A Swapchain: an XrSwapchain of a session with a Vulkan graphics binding, its VkImages as the
// typed Vulkan API's Image objects (owned by the swapchain: usable until it or its session is
// destroyed). The per-frame calls (acquire, wait, release) pass at most one number.
import { Image, type ImageOwner } from '../../vulkan/api/image.js';
import type { Device } from '../../vulkan/api/device.js';
import { callNative } from '../api/handles.js';
import type { NativeSwapchain } from '../native/addon.js';
import { rethrowNative } from '../errors.js';
import { invalidArgument, UnavailableError } from '../../core/errors.js';
import { formatAspectMask } from '../../vulkan/api/image.js';

/** XrSwapchainUsageFlags by name. */
export const SWAPCHAIN_USAGE = {
  'color-attachment': 0x1,
  'depth-stencil-attachment': 0x2,
  'unordered-access': 0x4,
  'transfer-src': 0x8,
  'transfer-dst': 0x10,
  sampled: 0x20,
  'mutable-format': 0x40,
} as const;
export type SwapchainUsageName = keyof typeof SWAPCHAIN_USAGE;

/**
 * The depth VkFormats a depth swapchain can have, in the order depthSwapchainFormat() prefers them
 * without stencil: D32_SFLOAT (126), D16_UNORM (124), D24_UNORM_S8_UINT (129), D32_SFLOAT_S8_UINT (130).
 */
export const DEPTH_FORMATS = [126, 124, 129, 130] as const;
const STENCIL_FORMATS = [129, 130] as const;

/**
 * The depth format to create a depth swapchain with: the first of DEPTH_FORMATS (or, with
 * `stencil`, of D24_UNORM_S8_UINT and D32_SFLOAT_S8_UINT) that `offered` (session.swapchainFormats())
 * lists; UnavailableError when it lists none.
 */
export function chooseDepthFormat(offered: readonly number[], options: { readonly stencil?: boolean } = {}): number {
  if (typeof options !== 'object' || options === null) throw invalidArgument('depthSwapchainFormat(options): options', 'an object ({ stencil?: boolean })', options);
  const wanted: readonly number[] = options.stencil === true ? STENCIL_FORMATS : DEPTH_FORMATS;
  const format = wanted.find((f) => offered.includes(f));
  if (format === undefined) {
    throw new UnavailableError(`the runtime offers no depth${options.stencil === true ? '-stencil' : ''} swapchain format (it offers VkFormats ${offered.join(', ')}; wanted one of ${wanted.join(', ')})`);
  }
  return format;
}

export interface SwapchainCreateOptions {
  /** A VkFormat the session offers (one of session.swapchainFormats(); Format.R8G8B8A8_UNORM from khronos-loader/vulkan names them). */
  readonly format: number;
  readonly width: number;
  readonly height: number;
  /**
   * Default ['color-attachment', 'transfer-dst'] (what clearColorImage and a render pass need); for
   * a depth format (session.depthSwapchainFormat()) ['depth-stencil-attachment', 'transfer-dst'].
   */
  readonly usage?: readonly SwapchainUsageName[];
  readonly sampleCount?: number;
  /** Array layers per image (one per eye for a layered stereo swapchain). Default 1. */
  readonly arraySize?: number;
  readonly mipCount?: number;
  readonly faceCount?: number;
}

/** xrWaitSwapchainImage's timeout when none is given: 2^53 - 1 ns (104 days), as good as infinite. */
const NO_TIMEOUT = Number.MAX_SAFE_INTEGER;

function positive(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 0xffff_ffff) throw invalidArgument(name, 'an integer in [1, 2^32)', v);
  return v;
}

/** @internal InvalidArgumentError unless `options` is a valid SwapchainCreateOptions; the native create info. */
export function swapchainCreateInfo(options: SwapchainCreateOptions): {
  usageFlags: number;
  format: number;
  sampleCount: number;
  width: number;
  height: number;
  faceCount: number;
  arraySize: number;
  mipCount: number;
} {
  if (typeof options !== 'object' || options === null) throw invalidArgument('createSwapchain(options): options', 'an object', options);
  if (typeof options.format !== 'number' || !Number.isInteger(options.format)) throw invalidArgument('options.format', 'a VkFormat (an integer, e.g. one of session.swapchainFormats())', options.format);
  const depth = formatAspectMask(options.format) !== 1;
  const usage = options.usage ?? (depth ? ['depth-stencil-attachment', 'transfer-dst'] : ['color-attachment', 'transfer-dst']);
  if (!Array.isArray(usage)) throw invalidArgument('options.usage', `an array of ${Object.keys(SWAPCHAIN_USAGE).map((k) => `'${k}'`).join(', ')}`, usage);
  let usageFlags = 0;
  for (const [i, u] of usage.entries()) {
    const bit = typeof u === 'string' && Object.prototype.hasOwnProperty.call(SWAPCHAIN_USAGE, u) ? (SWAPCHAIN_USAGE as Record<string, number>)[u] : undefined;
    if (bit === undefined) throw invalidArgument(`options.usage[${i}]`, `one of ${Object.keys(SWAPCHAIN_USAGE).map((k) => `'${k}'`).join(', ')}`, u);
    usageFlags |= bit;
  }
  return {
    usageFlags,
    format: options.format,
    sampleCount: positive('options.sampleCount', options.sampleCount ?? 1),
    width: positive('options.width', options.width),
    height: positive('options.height', options.height),
    faceCount: positive('options.faceCount', options.faceCount ?? 1),
    arraySize: positive('options.arraySize', options.arraySize ?? 1),
    mipCount: positive('options.mipCount', options.mipCount ?? 1),
  };
}

export class Swapchain implements ImageOwner {
  readonly format: number;
  readonly width: number;
  readonly height: number;
  readonly arraySize: number;
  /** The swapchain's images, in xrEnumerateSwapchainImages order (acquire() answers an index into it). */
  readonly images: readonly Image[];
  readonly description = 'an OpenXR swapchain';
  readonly #native: NativeSwapchain;

  /** @internal Use session.createSwapchain(). */
  constructor(native: NativeSwapchain, device: Device, info: { format: number; width: number; height: number; arraySize: number }) {
    this.#native = native;
    this.format = info.format;
    this.width = info.width;
    this.height = info.height;
    this.arraySize = info.arraySize;
    const imageInfo = { format: info.format, width: info.width, height: info.height, arrayLayers: info.arraySize };
    this.images = Object.freeze(callNative(() => native.images).map((handle) => new Image(device, handle, imageInfo, this)));
  }

  get handle(): bigint {
    return callNative(() => this.#native.handle);
  }

  /** True once the swapchain or its session (or instance) is destroyed. */
  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /** xrAcquireSwapchainImage: the index of the image to render next. */
  acquire(): number {
    try {
      return this.#native.acquire();
    } catch (error) {
      rethrowNative(error);
    }
  }

  /**
   * xrWaitSwapchainImage for the oldest acquired image: true once the runtime is done with it
   * (it is then in COLOR_ATTACHMENT_OPTIMAL layout, a depth swapchain's in
   * DEPTH_STENCIL_ATTACHMENT_OPTIMAL), false when `timeoutNs` expired first.
   */
  wait(timeoutNs: number = NO_TIMEOUT): boolean {
    if (typeof timeoutNs !== 'number' || !(timeoutNs >= 0)) throw invalidArgument('wait(timeoutNs): timeoutNs', 'a non-negative number of nanoseconds', timeoutNs);
    try {
      return this.#native.wait(timeoutNs < NO_TIMEOUT ? timeoutNs : NO_TIMEOUT);
    } catch (error) {
      rethrowNative(error);
    }
  }

  /**
   * xrReleaseSwapchainImage for the oldest waited image (leave it in COLOR_ATTACHMENT_OPTIMAL
   * layout, a depth swapchain's in DEPTH_STENCIL_ATTACHMENT_OPTIMAL).
   */
  release(): void {
    try {
      this.#native.release();
    } catch (error) {
      rethrowNative(error);
    }
  }

  /** xrDestroySwapchain (the session's destroy does it too). */
  destroy(): void {
    callNative(() => this.#native.destroy());
  }

  /** @internal */
  get native(): NativeSwapchain {
    return this.#native;
  }
}
