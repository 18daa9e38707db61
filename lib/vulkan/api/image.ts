// A VkImage someone else owns (an OpenXR swapchain's image): the typed API records commands on it
// (layout transitions, clears) but never destroys it; it is unusable (VulkanError) once its owner
// or its device is gone.
import { VulkanError } from '../errors.js';
import { AccessFlags, PipelineStageFlags } from '../../generated/vulkan.js';
import type { DeviceOwner } from './device-objects.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;

/** VkImageLayout values the typed command buffer takes, by name. */
export const IMAGE_LAYOUTS = {
  undefined: 0,
  general: 1,
  'color-attachment-optimal': 2,
  'depth-stencil-attachment-optimal': 3,
  'depth-stencil-read-only-optimal': 4,
  'shader-read-only-optimal': 5,
  'transfer-src-optimal': 6,
  'transfer-dst-optimal': 7,
  'depth-attachment-optimal': 1000241000,
  'depth-read-only-optimal': 1000241001,
  'present-src': 1000001002,
} as const;
export type ImageLayoutName = keyof typeof IMAGE_LAYOUTS;

/** @deprecated The same values under the names of every other Vulkan constant: use PipelineStageFlags. */
export const PIPELINE_STAGE = PipelineStageFlags;
/** @deprecated The same values under the names of every other Vulkan constant: use AccessFlags. */
export const ACCESS = AccessFlags;

/** What an image's owner tells it: whether it is still there, and its name for errors. */
export interface ImageOwner {
  readonly isDestroyed: boolean;
  readonly description: string;
}

export interface ImageInfo {
  /** VkFormat (Format has the registry's values by name). */
  readonly format: number;
  readonly width: number;
  readonly height: number;
  readonly arrayLayers: number;
  /** Defaults: depth 1, mipLevels 1, samples 1; usage undefined when the owner does not say. */
  readonly depth?: number;
  readonly mipLevels?: number;
  readonly samples?: number;
  /** VkImageUsageFlags the image was created with. */
  readonly usage?: number;
  /** Default '2d'. */
  readonly imageType?: '1d' | '2d' | '3d';
}

/** VkImageAspectFlagBits. */
const ASPECT_COLOR = 0x1;
const ASPECT_DEPTH = 0x2;
const ASPECT_STENCIL = 0x4;

/**
 * The aspects of a VkFormat's texels (Vulkan spec, 'Formats', depth/stencil formats): DEPTH for
 * D16_UNORM (124), X8_D24_UNORM_PACK32 (125), D32_SFLOAT (126); STENCIL for S8_UINT (127); both for
 * D16_UNORM_S8_UINT (128), D24_UNORM_S8_UINT (129), D32_SFLOAT_S8_UINT (130); COLOR otherwise.
 */
export function formatAspectMask(format: number): number {
  if (format >= 124 && format <= 126) return ASPECT_DEPTH;
  if (format === 127) return ASPECT_STENCIL;
  if (format >= 128 && format <= 130) return ASPECT_DEPTH | ASPECT_STENCIL;
  return ASPECT_COLOR;
}

export class Image implements ImageInfo {
  readonly handle: bigint;
  readonly format: number;
  readonly width: number;
  readonly height: number;
  readonly arrayLayers: number;
  /**
   * VkImageAspectFlags of the whole image (from its format): COLOR, or DEPTH and/or STENCIL; what
   * layout transitions of it name.
   */
  readonly aspectMask: number;
  readonly depth: number;
  readonly mipLevels: number;
  readonly samples: number;
  /** VkImageUsageFlags the image was created with (undefined: its owner does not say; not checked then). */
  readonly usage: number | undefined;
  readonly imageType: '1d' | '2d' | '3d';
  readonly #device: DeviceOwner;
  readonly #owner: ImageOwner;

  /** @internal */
  constructor(device: DeviceOwner, handle: bigint, info: ImageInfo, owner: ImageOwner) {
    this.#device = device;
    this.#owner = owner;
    this.handle = handle;
    this.format = info.format;
    this.width = info.width;
    this.height = info.height;
    this.arrayLayers = info.arrayLayers;
    this.aspectMask = formatAspectMask(info.format);
    this.depth = info.depth ?? 1;
    this.mipLevels = info.mipLevels ?? 1;
    this.samples = info.samples ?? 1;
    this.usage = info.usage;
    this.imageType = info.imageType ?? '2d';
  }

  /** @internal The device child whose destruction destroys the image (an OwnedImage's), or null. */
  get backing(): object | null {
    return null;
  }

  /** @internal VulkanError when the image is gone (an OwnedImage also needs live memory). */
  checkBacked(what: string): void {
    void what;
    this.liveHandle;
  }

  get isDestroyed(): boolean {
    return this.#owner.isDestroyed || this.#device.isDestroyed;
  }

  /** @internal The VkImage; VulkanError when its owner or device is gone. */
  get liveHandle(): bigint {
    if (this.#owner.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `the VkImage's owner (${this.#owner.description}) was destroyed`);
    if (this.#device.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, "the VkImage's device was destroyed");
    return this.handle;
  }

  /** @internal Whether the image belongs to `device`. */
  belongsTo(device: DeviceOwner): boolean {
    return this.#device === device;
  }
}
