// The typed Vulkan API's graphics objects (docs/usage.md, "Vulkan: graphics"): images the device
// owns, samplers, render passes, framebuffers and graphics pipelines. Each checks its arguments
// before Vulkan sees them (a typed error naming the argument) and keeps what recording checks
// draws against (lib/vulkan/api/commands.ts).
import { InvalidArgumentError, InvalidStateError, describeValue } from '../../core/errors.js';
import { VulkanError, withVulkanErrors } from '../errors.js';
import { vulkanCompute } from '../native/addon.js';
import type { Format } from '../../generated/vulkan.js';
import { checkShaderAgainstLayout, checkSize, checkUint, COMPARE_OPS, DeviceChild, DeviceMemory, ImageView, named, PipelineLayout, ShaderModule, type DeviceOwner } from './device-objects.js';
import { formatAspectMask, IMAGE_LAYOUTS, Image, type ImageLayoutName } from './image.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;

function destroyed(what: string): VulkanError {
  return new VulkanError(VK_ERROR_VALIDATION_FAILED, `the ${what} (or the device that owns it) was destroyed`);
}

function objectArg(name: string, v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null) throw new InvalidArgumentError(`${name} must be an object, got ${describeValue(v)}`, name);
  return v as Record<string, unknown>;
}

function arrayArg(name: string, v: unknown): readonly unknown[] {
  if (!Array.isArray(v)) throw new InvalidArgumentError(`${name} must be an array, got ${describeValue(v)}`, name);
  return v;
}

function uintOr(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  checkUint(name, v);
  return v;
}

// ---- formats ----------------------------------------------------------------------------------

/** VkImageAspectFlagBits */
export const IMAGE_ASPECT = { color: 0x1, depth: 0x2, stencil: 0x4 } as const;

// Bytes per texel of the formats copies between buffers and images take (the specification's
// "Compatible Formats" tables); a copy of another format is refused (its size is not known here).
const TEXEL_BYTES: Readonly<Record<number, number>> = {
  9: 1, 13: 1, 16: 2, 20: 2, 23: 3, 29: 3, 37: 4, 38: 4, 41: 4, 42: 4, 43: 4, 44: 4, 50: 4, 64: 4, 70: 2, 76: 2, 77: 4, 83: 4, 91: 8, 97: 8,
  98: 4, 99: 4, 100: 4, 101: 8, 102: 8, 103: 8, 104: 12, 105: 12, 106: 12, 107: 16, 108: 16, 109: 16, 122: 4, 124: 2, 125: 4, 126: 4, 127: 1,
};

/** @internal Bytes per texel of `format` for `aspect` in a buffer (depth of D24: 4, D32: 4, stencil: 1), or undefined when not known. */
export function texelBytes(format: number, aspect: number): number | undefined {
  if (aspect === IMAGE_ASPECT.stencil) return 1;
  if (aspect === IMAGE_ASPECT.depth) return format === 124 || format === 128 ? 2 : format === 127 ? undefined : 4;
  return TEXEL_BYTES[format];
}

// ---- images -----------------------------------------------------------------------------------

/** VkImageUsageFlagBits the typed API checks. */
export const IMAGE_USAGE = { TRANSFER_SRC: 0x1, TRANSFER_DST: 0x2, SAMPLED: 0x4, STORAGE: 0x8, COLOR_ATTACHMENT: 0x10, DEPTH_STENCIL_ATTACHMENT: 0x20 } as const;
const KNOWN_IMAGE_USAGE = 0xff;
const IMAGE_TYPES = { '1d': 0, '2d': 1, '3d': 2 } as const;

export interface ImageCreateOptions {
  /** VkFormat (Format has the registry's values by name). */
  readonly format: Format;
  readonly extent: { readonly width: number; readonly height: number; readonly depth?: number };
  /** VkImageUsageFlags, e.g. ImageUsageFlags.COLOR_ATTACHMENT | ImageUsageFlags.TRANSFER_SRC. */
  readonly usage: number;
  readonly arrayLayers?: number;
  readonly mipLevels?: number;
  /** VkSampleCountFlagBits: 1, 2, 4, 8, 16, 32 or 64 (default 1). */
  readonly samples?: number;
  readonly imageType?: keyof typeof IMAGE_TYPES;
}

/** The VkImage an OwnedImage holds: the device destroys it with itself. */
class ImageHandle extends DeviceChild {
  protected readonly kind = 'VkImage';
  readonly description = 'an image of this device';
  /** @internal */
  constructor(device: DeviceOwner, handle: bigint) {
    super(device, handle);
  }
  protected release(): void {
    this.native.destroy(this.device.liveHandle, 'image', this.handle);
  }
}

/**
 * An image the device owns (createImage): bind memory to it like a buffer (memoryRequirements,
 * bindMemory), then view it, render into it, copy to and from it. destroy() destroys it (its
 * device does too).
 */
export class OwnedImage extends Image {
  readonly #child: ImageHandle;
  readonly #device: DeviceOwner;
  #memory: DeviceMemory | null = null;
  /** VkMemoryRequirements */
  readonly memoryRequirements: { readonly size: number; readonly alignment: number; readonly memoryTypeBits: number };

  /** @internal */
  static create(device: DeviceOwner, options: ImageCreateOptions): OwnedImage {
    const o = objectArg('createImage(options)', options);
    checkUint('options.format', o.format);
    if (o.format === 0) throw new InvalidArgumentError('createImage: options.format must be a VkFormat other than UNDEFINED (0)', 'options.format');
    const extent = objectArg('options.extent', o.extent);
    const imageType = named('options.imageType', IMAGE_TYPES, o.imageType, '2d');
    const width = uintOr('options.extent.width', extent.width, NaN);
    const height = uintOr('options.extent.height', extent.height, 1);
    const depth = uintOr('options.extent.depth', extent.depth, 1);
    const mipLevels = uintOr('options.mipLevels', o.mipLevels, 1);
    const arrayLayers = uintOr('options.arrayLayers', o.arrayLayers, 1);
    const samples = uintOr('options.samples', o.samples, 1);
    checkUint('options.usage', o.usage);
    // VUID-VkImageCreateInfo-extent-00944/-00945/-00946, -mipLevels-00947, -arrayLayers-00948,
    // -imageType-00956/-00957, -samples-parameter, -usage-requiredbitmask, -mipLevels-00958
    if (width === 0 || height === 0 || depth === 0) throw new InvalidArgumentError(`createImage: options.extent must be above 0 in each dimension, got ${width}x${height}x${depth}`, 'options.extent');
    if (imageType === 0 && (height !== 1 || depth !== 1)) throw new InvalidArgumentError('createImage: a 1d image has height and depth 1', 'options.extent');
    if (imageType === 1 && depth !== 1) throw new InvalidArgumentError(`createImage: a 2d image has depth 1, got ${depth}`, 'options.extent.depth');
    if (imageType === 2 && arrayLayers !== 1) throw new InvalidArgumentError('createImage: a 3d image has one array layer', 'options.arrayLayers');
    if (mipLevels === 0 || arrayLayers === 0) throw new InvalidArgumentError(`createImage: options.mipLevels and options.arrayLayers must be above 0, got ${mipLevels} and ${arrayLayers}`, mipLevels === 0 ? 'options.mipLevels' : 'options.arrayLayers');
    const maxMips = Math.floor(Math.log2(Math.max(width, height, depth))) + 1;
    if (mipLevels > maxMips) throw new InvalidArgumentError(`createImage: options.mipLevels must be at most ${maxMips} for a ${width}x${height}x${depth} image, got ${mipLevels}`, 'options.mipLevels');
    if (![1, 2, 4, 8, 16, 32, 64].includes(samples)) throw new InvalidArgumentError(`createImage: options.samples must be 1, 2, 4, 8, 16, 32 or 64, got ${samples}`, 'options.samples');
    if (samples !== 1 && (imageType !== 1 || mipLevels !== 1)) throw new InvalidArgumentError('createImage: a multisampled image is 2d with one mip level', 'options.samples');
    const usage = o.usage as number;
    if (usage === 0 || (usage & ~KNOWN_IMAGE_USAGE) !== 0) throw new InvalidArgumentError(`createImage: options.usage must be Vulkan 1.0 VkImageUsageFlags (bits of 0xff, at least one), got 0x${(usage >>> 0).toString(16)}`, 'options.usage');
    const format = o.format as number;
    const aspect = formatAspectMask(format);
    if ((usage & IMAGE_USAGE.COLOR_ATTACHMENT) !== 0 && aspect !== IMAGE_ASPECT.color) throw new InvalidArgumentError('createImage: a depth/stencil format cannot have usage COLOR_ATTACHMENT (0x10)', 'options.usage');
    if ((usage & IMAGE_USAGE.DEPTH_STENCIL_ATTACHMENT) !== 0 && aspect === IMAGE_ASPECT.color) throw new InvalidArgumentError('createImage: a colour format cannot have usage DEPTH_STENCIL_ATTACHMENT (0x20)', 'options.usage');
    const info = withVulkanErrors(() =>
      vulkanCompute().createImage(device.liveHandle, { imageType, format, width, height, depth, mipLevels, arrayLayers, samples, usage, flags: 0 }),
    );
    const typeName = (['1d', '2d', '3d'] as const)[imageType]!;
    return new OwnedImage(device, new ImageHandle(device, info.handle), { format, width, height, arrayLayers, depth, mipLevels, samples, usage, imageType: typeName }, info);
  }

  private constructor(
    device: DeviceOwner,
    child: ImageHandle,
    info: { format: number; width: number; height: number; arrayLayers: number; depth: number; mipLevels: number; samples: number; usage: number; imageType: '1d' | '2d' | '3d' },
    req: { size: number; alignment: number; memoryTypeBits: number },
  ) {
    super(device, child.handle, info, child);
    this.#child = child;
    this.#device = device;
    this.memoryRequirements = { size: req.size, alignment: req.alignment, memoryTypeBits: req.memoryTypeBits };
  }

  /** @internal The device child that destroys the VkImage. */
  override get backing(): DeviceChild {
    return this.#child;
  }

  get memory(): DeviceMemory | null {
    return this.#memory;
  }

  /** vkBindImageMemory (once; VUID-vkBindImageMemory-image-07460, -memory-01047, -memoryOffset-01048, -size-01049). */
  bindMemory(memory: DeviceMemory, offset: number | bigint = 0): void {
    if (!(memory instanceof DeviceMemory)) throw new InvalidArgumentError(`bindMemory(memory, offset): memory must be a DeviceMemory, got ${describeValue(memory)}`, 'memory');
    checkSize('offset', offset);
    this.liveHandle;
    if (memory.isDestroyed) throw destroyed('VkDeviceMemory');
    if (this.#memory !== null) throw new InvalidStateError('bindMemory: the image is already bound to memory (a VkImage is bound once; create another image)');
    if (!memory.ownedBy(this.#device)) throw new InvalidArgumentError('bindMemory(memory): memory belongs to another device', 'memory');
    const req = this.memoryRequirements;
    if (((req.memoryTypeBits >>> memory.memoryTypeIndex) & 1) === 0) {
      throw new InvalidArgumentError(`bindMemory(memory): memory is of type ${memory.memoryTypeIndex}, not one of the image's memoryRequirements.memoryTypeBits (0x${(req.memoryTypeBits >>> 0).toString(16)})`, 'memory');
    }
    if (BigInt(offset) % BigInt(req.alignment) !== 0n) throw new InvalidArgumentError(`bindMemory(memory, offset): offset must be a multiple of memoryRequirements.alignment (${req.alignment}), got ${offset}`, 'offset');
    if (BigInt(offset) + BigInt(req.size) > BigInt(memory.size)) throw new InvalidArgumentError(`bindMemory(memory, offset): the image needs ${req.size} bytes at offset ${offset}, past the allocation's ${memory.size}`, 'offset');
    withVulkanErrors(() => vulkanCompute().bindImageMemory(this.#device.liveHandle, this.handle, memory.handle, offset));
    this.#memory = memory;
  }

  /** @internal InvalidStateError unless the image has live memory (a command on an image with none is undefined behaviour). */
  override checkBacked(what: string): void {
    this.liveHandle;
    if (this.#memory === null) throw new InvalidStateError(`${what}: the image has no memory bound (bindMemory() first)`);
    if (this.#memory.isDestroyed) throw new InvalidStateError(`${what}: the image's memory was destroyed`);
  }

  /** Does nothing once destroyed. */
  destroy(): void {
    this.#child.destroy();
  }
}

// ---- image views ------------------------------------------------------------------------------

const VIEW_TYPES = { '1d': 0, '2d': 1, '3d': 2, cube: 3, '1d-array': 4, '2d-array': 5, 'cube-array': 6 } as const;

export interface ImageViewOptions {
  readonly viewType?: keyof typeof VIEW_TYPES;
  /** 'color', 'depth' or 'stencil' (default: the format's: depth for a depth format). */
  readonly aspect?: keyof typeof IMAGE_ASPECT;
  readonly baseArrayLayer?: number;
  readonly layerCount?: number;
  readonly baseMipLevel?: number;
  readonly levelCount?: number;
  /** VkFormat (default the image's). */
  readonly format?: Format;
}

/** @internal The checked, flat form of ImageViewOptions for `image`. */
export function imageViewInfo(image: Image, options: ImageViewOptions): { viewType: number; format: number; aspect: number; baseMipLevel: number; levelCount: number; baseArrayLayer: number; layerCount: number } {
  const o = objectArg('createImageView(image, options)', options);
  const baseArrayLayer = uintOr('options.baseArrayLayer', o.baseArrayLayer, 0);
  const layerCount = uintOr('options.layerCount', o.layerCount, 1);
  const baseMipLevel = uintOr('options.baseMipLevel', o.baseMipLevel, 0);
  const levelCount = uintOr('options.levelCount', o.levelCount, 1);
  const format = uintOr('options.format', o.format, image.format);
  const viewType = named('options.viewType', VIEW_TYPES, o.viewType ?? (layerCount > 1 ? '2d-array' : '2d'));
  const own = formatAspectMask(image.format);
  const aspect = o.aspect === undefined ? (own === IMAGE_ASPECT.color ? own : own & IMAGE_ASPECT.depth || own) : named('options.aspect', IMAGE_ASPECT, o.aspect);
  // VUID-VkImageViewCreateInfo-imageViewType-04973/-04974 (one layer for non-array views),
  // -subresourceRange-01480/-01718 (inside the image), -subresourceRange-09594 (an aspect of the format),
  // VUID-VkImageSubresourceRange-layerCount-01720, -levelCount-01720
  if (layerCount === 0 || baseArrayLayer + layerCount > image.arrayLayers) {
    throw new InvalidArgumentError(`createImageView: the layers [${baseArrayLayer}, ${baseArrayLayer + layerCount}) must lie inside the image's ${image.arrayLayers}, layerCount above 0`, 'options.layerCount');
  }
  if (levelCount === 0 || baseMipLevel + levelCount > image.mipLevels) {
    throw new InvalidArgumentError(`createImageView: the mip levels [${baseMipLevel}, ${baseMipLevel + levelCount}) must lie inside the image's ${image.mipLevels}, levelCount above 0`, 'options.levelCount');
  }
  if ((viewType === VIEW_TYPES['1d'] || viewType === VIEW_TYPES['2d'] || viewType === VIEW_TYPES['3d']) && layerCount !== 1) {
    throw new InvalidArgumentError(`createImageView: a '${o.viewType as string}' view has one layer, got layerCount ${layerCount} (use '2d-array')`, 'options.viewType');
  }
  // VUID-VkImageViewCreateInfo-subResourceRange-01021 and the view-type table of "Image Views": a 1d image takes
  // '1d' and '1d-array' views, a 2d image '2d' and '2d-array' (cube views need a cube-compatible image, which
  // createImage does not make), a 3d image '3d'.
  const allowed: Record<string, readonly number[]> = { '1d': [VIEW_TYPES['1d'], VIEW_TYPES['1d-array']], '2d': [VIEW_TYPES['2d'], VIEW_TYPES['2d-array']], '3d': [VIEW_TYPES['3d']] };
  if (!allowed[image.imageType]!.includes(viewType)) throw new InvalidArgumentError(`createImageView: a '${String(o.viewType)}' view cannot be made of a ${image.imageType} image`, 'options.viewType');
  if ((aspect & own) !== aspect) throw new InvalidArgumentError(`createImageView: options.aspect '${o.aspect as string}' is not an aspect of the image's format ${image.format}`, 'options.aspect');
  if (format !== image.format) throw new InvalidArgumentError(`createImageView: options.format ${format} differs from the image's ${image.format} (the typed API makes no mutable-format images)`, 'options.format');
  return { viewType, format, aspect, baseMipLevel, levelCount, baseArrayLayer, layerCount };
}

// ---- render passes and framebuffers -----------------------------------------------------------

/** VkAttachmentLoadOp and VkAttachmentStoreOp by name. */
export const LOAD_OPS = { load: 0, clear: 1, 'dont-care': 2 } as const;
export const STORE_OPS = { store: 0, 'dont-care': 1 } as const;

export interface AttachmentDescription {
  readonly format: Format;
  readonly samples?: number;
  readonly loadOp: keyof typeof LOAD_OPS;
  readonly storeOp: keyof typeof STORE_OPS;
  readonly stencilLoadOp?: keyof typeof LOAD_OPS;
  readonly stencilStoreOp?: keyof typeof STORE_OPS;
  readonly initialLayout?: ImageLayoutName;
  readonly finalLayout: ImageLayoutName;
}

export interface AttachmentReference {
  readonly attachment: number;
  /** The layout during the subpass (default colour- or depth-stencil-attachment-optimal). */
  readonly layout?: ImageLayoutName;
}

export interface SubpassDescription {
  readonly colorAttachments?: readonly AttachmentReference[];
  readonly depthStencilAttachment?: AttachmentReference;
}

export interface SubpassDependency {
  /** A subpass index, or 'external' (VK_SUBPASS_EXTERNAL). */
  readonly srcSubpass: number | 'external';
  readonly dstSubpass: number | 'external';
  readonly srcStageMask: number;
  readonly dstStageMask: number;
  readonly srcAccessMask?: number;
  readonly dstAccessMask?: number;
  readonly dependencyFlags?: number;
}

export interface RenderPassOptions {
  readonly attachments: readonly AttachmentDescription[];
  readonly subpasses: readonly SubpassDescription[];
  readonly dependencies?: readonly SubpassDependency[];
  /** Multiview (VkRenderPassMultiviewCreateInfo): the views every subpass renders, one bit per framebuffer layer (needs the multiview feature). */
  readonly viewMask?: number;
}

const SUBPASS_EXTERNAL = 0xffff_ffff;

function layoutValue(name: string, v: unknown, fallback?: ImageLayoutName): number {
  return named(name, IMAGE_LAYOUTS, v, fallback);
}

export class RenderPass extends DeviceChild {
  protected readonly kind = 'VkRenderPass';
  /** Per attachment: its format, samples and load ops. */
  readonly attachments: readonly { readonly format: number; readonly samples: number; readonly loadOp: number; readonly stencilLoadOp: number }[];
  /** Per subpass: the attachment indices it renders colour to, and its depth attachment (or -1). */
  readonly subpasses: readonly { readonly colors: readonly number[]; readonly depth: number }[];
  readonly viewMask: number;
  /** @internal Equal for compatible render passes (the specification's "Render Pass Compatibility", simplified: equal formats, samples, references and view masks). */
  readonly key: string;

  /** @internal */
  constructor(device: DeviceOwner, options: RenderPassOptions) {
    const o = objectArg('createRenderPass(options)', options);
    const attachments = arrayArg('options.attachments', o.attachments).map((v, i) => {
      const a = objectArg(`options.attachments[${i}]`, v);
      checkUint(`options.attachments[${i}].format`, a.format);
      const samples = uintOr(`options.attachments[${i}].samples`, a.samples, 1);
      if (![1, 2, 4, 8, 16, 32, 64].includes(samples)) throw new InvalidArgumentError(`createRenderPass: options.attachments[${i}].samples must be a power of two up to 64, got ${samples}`, `options.attachments[${i}].samples`);
      const finalLayout = layoutValue(`options.attachments[${i}].finalLayout`, a.finalLayout);
      // VUID-VkAttachmentDescription-finalLayout-00843
      if (finalLayout === 0) throw new InvalidArgumentError(`createRenderPass: options.attachments[${i}].finalLayout must not be 'undefined'`, `options.attachments[${i}].finalLayout`);
      return {
        format: a.format as number,
        samples,
        loadOp: named(`options.attachments[${i}].loadOp`, LOAD_OPS, a.loadOp),
        storeOp: named(`options.attachments[${i}].storeOp`, STORE_OPS, a.storeOp),
        stencilLoadOp: named(`options.attachments[${i}].stencilLoadOp`, LOAD_OPS, a.stencilLoadOp, 'dont-care'),
        stencilStoreOp: named(`options.attachments[${i}].stencilStoreOp`, STORE_OPS, a.stencilStoreOp, 'dont-care'),
        initialLayout: layoutValue(`options.attachments[${i}].initialLayout`, a.initialLayout, 'undefined'),
        finalLayout,
      };
    });
    const subpassList = arrayArg('options.subpasses', o.subpasses);
    // VUID-VkRenderPassCreateInfo-subpassCount-arraylength
    if (subpassList.length === 0) throw new InvalidArgumentError('createRenderPass: options.subpasses must hold at least one subpass', 'options.subpasses');
    const viewMask = uintOr('options.viewMask', o.viewMask, 0);
    const ref = (name: string, v: unknown, depth: boolean): { attachment: number; layout: number } => {
      const r = objectArg(name, v);
      checkUint(`${name}.attachment`, r.attachment);
      const a = attachments[r.attachment];
      // VUID-VkRenderPassCreateInfo-attachment-00834, VkSubpassDescription-pColorAttachments-02648, -pDepthStencilAttachment-02650
      if (a === undefined) throw new InvalidArgumentError(`createRenderPass: ${name}.attachment ${r.attachment} is not an attachment (there are ${attachments.length})`, `${name}.attachment`);
      const isDepth = formatAspectMask(a.format) !== IMAGE_ASPECT.color;
      if (isDepth !== depth) throw new InvalidArgumentError(`createRenderPass: ${name} names attachment ${r.attachment} of ${isDepth ? 'a depth/stencil' : 'a colour'} format ${a.format}, where ${depth ? 'a depth/stencil' : 'a colour'} attachment goes`, `${name}.attachment`);
      return { attachment: r.attachment, layout: layoutValue(`${name}.layout`, r.layout, depth ? 'depth-stencil-attachment-optimal' : 'color-attachment-optimal') };
    };
    const subpasses = subpassList.map((v, i) => {
      const s = objectArg(`options.subpasses[${i}]`, v);
      const colors = (s.colorAttachments === undefined ? [] : arrayArg(`options.subpasses[${i}].colorAttachments`, s.colorAttachments)).map((c, j) => ref(`options.subpasses[${i}].colorAttachments[${j}]`, c, false));
      const depth = s.depthStencilAttachment === undefined ? null : ref(`options.subpasses[${i}].depthStencilAttachment`, s.depthStencilAttachment, true);
      return { colors, depth, viewMask };
    });
    const dependencies = (o.dependencies === undefined ? [] : arrayArg('options.dependencies', o.dependencies)).map((v, i) => {
      const d = objectArg(`options.dependencies[${i}]`, v);
      const subpass = (name: string, x: unknown): number => {
        if (x === 'external') return SUBPASS_EXTERNAL;
        checkUint(name, x);
        if (x >= subpasses.length) throw new InvalidArgumentError(`createRenderPass: ${name} ${x} is not a subpass (there are ${subpasses.length}) nor 'external'`, name);
        return x;
      };
      checkUint(`options.dependencies[${i}].srcStageMask`, d.srcStageMask);
      checkUint(`options.dependencies[${i}].dstStageMask`, d.dstStageMask);
      return {
        srcSubpass: subpass(`options.dependencies[${i}].srcSubpass`, d.srcSubpass),
        dstSubpass: subpass(`options.dependencies[${i}].dstSubpass`, d.dstSubpass),
        srcStageMask: d.srcStageMask,
        dstStageMask: d.dstStageMask,
        srcAccessMask: uintOr(`options.dependencies[${i}].srcAccessMask`, d.srcAccessMask, 0),
        dstAccessMask: uintOr(`options.dependencies[${i}].dstAccessMask`, d.dstAccessMask, 0),
        dependencyFlags: uintOr(`options.dependencies[${i}].dependencyFlags`, d.dependencyFlags, 0) | (viewMask !== 0 ? 0x4 /* VIEW_LOCAL */ : 0),
      };
    });
    super(device, withVulkanErrors(() => vulkanCompute().createRenderPass(device.liveHandle, { attachments, subpasses, dependencies, multiview: viewMask !== 0 })));
    this.attachments = attachments.map((a) => ({ format: a.format, samples: a.samples, loadOp: a.loadOp, stencilLoadOp: a.stencilLoadOp }));
    this.subpasses = subpasses.map((s) => ({ colors: s.colors.map((c) => c.attachment), depth: s.depth === null ? -1 : s.depth.attachment }));
    this.viewMask = viewMask;
    this.key = `rp:${attachments.map((a) => `${a.format}/${a.samples}`).join(',')}|${this.subpasses.map((s) => `${s.colors.join(',')};${s.depth}`).join('|')}|${viewMask}`;
  }
  protected release(): void {
    this.native.destroy(this.device.liveHandle, 'renderPass', this.handle);
  }
}

export interface FramebufferOptions {
  readonly renderPass: RenderPass;
  readonly attachments: readonly ImageView[];
  readonly width: number;
  readonly height: number;
  readonly layers?: number;
}

export class Framebuffer extends DeviceChild {
  protected readonly kind = 'VkFramebuffer';
  readonly renderPass: RenderPass;
  readonly attachments: readonly ImageView[];
  readonly width: number;
  readonly height: number;
  readonly layers: number;
  /** @internal */
  constructor(device: DeviceOwner, options: FramebufferOptions) {
    const o = objectArg('createFramebuffer(options)', options);
    const pass = o.renderPass;
    if (!(pass instanceof RenderPass)) throw new InvalidArgumentError(`createFramebuffer: options.renderPass must be a RenderPass, got ${describeValue(pass)}`, 'options.renderPass');
    if (pass.isDestroyed) throw destroyed('VkRenderPass');
    if (!pass.ownedBy(device)) throw new InvalidArgumentError('createFramebuffer: options.renderPass belongs to another device', 'options.renderPass');
    const views = arrayArg('options.attachments', o.attachments);
    const width = uintOr('options.width', o.width, NaN);
    const height = uintOr('options.height', o.height, NaN);
    const layers = uintOr('options.layers', o.layers, 1);
    // VUID-VkFramebufferCreateInfo-width-00885/-height-00887/-layers-00889, -attachmentCount-00876,
    // -pAttachments-00880 (format), -00881 (samples), -flags-04533/-04534 (extent), -renderPass-02531 (multiview: one layer)
    if (width === 0 || height === 0 || layers === 0) throw new InvalidArgumentError(`createFramebuffer: width, height and layers must be above 0, got ${width}, ${height}, ${layers}`, 'options.width');
    if (pass.viewMask !== 0 && layers !== 1) throw new InvalidArgumentError(`createFramebuffer: a multiview render pass's framebuffer has layers 1 (the views are the attachments' layers), got ${layers}`, 'options.layers');
    if (views.length !== pass.attachments.length) throw new InvalidArgumentError(`createFramebuffer: options.attachments must hold the render pass's ${pass.attachments.length} attachment(s), got ${views.length}`, 'options.attachments');
    views.forEach((v, i) => {
      if (!(v instanceof ImageView)) throw new InvalidArgumentError(`createFramebuffer: options.attachments[${i}] must be an ImageView, got ${describeValue(v)}`, `options.attachments[${i}]`);
      if (v.isDestroyed) throw destroyed('VkImageView');
      if (!v.ownedBy(device)) throw new InvalidArgumentError(`createFramebuffer: options.attachments[${i}] belongs to another device`, `options.attachments[${i}]`);
      // The view's image still bound to live memory: its memory may have been destroyed since the view was made (Vulkan spec, "Resource Memory Association").
      v.image.checkBacked(`createFramebuffer: options.attachments[${i}]'s image`);
      const a = pass.attachments[i]!;
      if (v.format !== a.format) throw new InvalidArgumentError(`createFramebuffer: options.attachments[${i}] has format ${v.format}, the render pass's attachment ${i} ${a.format}`, `options.attachments[${i}]`);
      if (v.image.samples !== a.samples) throw new InvalidArgumentError(`createFramebuffer: options.attachments[${i}] has ${v.image.samples} samples, the render pass's attachment ${i} ${a.samples}`, `options.attachments[${i}]`);
      if (v.image.width < width || v.image.height < height) throw new InvalidArgumentError(`createFramebuffer: options.attachments[${i}] is ${v.image.width}x${v.image.height}, smaller than the framebuffer's ${width}x${height}`, `options.attachments[${i}]`);
      const needLayers = pass.viewMask !== 0 ? 32 - Math.clz32(pass.viewMask) : layers;
      if (v.layerCount < needLayers) throw new InvalidArgumentError(`createFramebuffer: options.attachments[${i}] has ${v.layerCount} layer(s), the framebuffer needs ${needLayers}`, `options.attachments[${i}]`);
    });
    const list = views as readonly ImageView[];
    super(device, withVulkanErrors(() => vulkanCompute().createFramebuffer(device.liveHandle, pass.handle, list.map((v) => v.liveHandle), width, height, layers)));
    this.renderPass = pass;
    this.attachments = Object.freeze([...list]);
    this.width = width;
    this.height = height;
    this.layers = layers;
  }
  protected release(): void {
    this.native.destroy(this.device.liveHandle, 'framebuffer', this.handle);
  }
}

// ---- graphics pipelines -----------------------------------------------------------------------

const TOPOLOGIES = { 'point-list': 0, 'line-list': 1, 'line-strip': 2, 'triangle-list': 3, 'triangle-strip': 4, 'triangle-fan': 5 } as const;
const CULL_MODES = { none: 0, front: 1, back: 2, 'front-and-back': 3 } as const;
const FRONT_FACES = { 'counter-clockwise': 0, clockwise: 1 } as const;
const POLYGON_MODES = { fill: 0, line: 1, point: 2 } as const;
const INPUT_RATES = { vertex: 0, instance: 1 } as const;
const STAGE_VERTEX = 0x1;
const STAGE_FRAGMENT = 0x10;
const MODEL_VERTEX = 0;
const MODEL_FRAGMENT = 4;

export interface ShaderStage {
  readonly module: ShaderModule;
  readonly entryPoint?: string;
}

export interface VertexBinding {
  readonly binding: number;
  readonly stride: number;
  readonly inputRate?: keyof typeof INPUT_RATES;
}

export interface VertexAttribute {
  readonly location: number;
  readonly binding: number;
  /** VkFormat, e.g. Format.R32G32B32_SFLOAT */
  readonly format: Format;
  readonly offset?: number;
}

/** Per colour attachment: blending (VkPipelineColorBlendAttachmentState; factors and ops are VkBlendFactor / VkBlendOp values). */
export interface BlendAttachment {
  readonly enable?: boolean;
  readonly srcColorBlendFactor?: number;
  readonly dstColorBlendFactor?: number;
  readonly colorBlendOp?: number;
  readonly srcAlphaBlendFactor?: number;
  readonly dstAlphaBlendFactor?: number;
  readonly alphaBlendOp?: number;
  /** VkColorComponentFlags (default 0xf: R, G, B and A). */
  readonly colorWriteMask?: number;
}

/** Dynamic rendering (Vulkan 1.3): the formats of the attachments the pipeline renders to. */
export interface PipelineRendering {
  readonly colorFormats: readonly Format[];
  readonly depthFormat?: Format;
  readonly stencilFormat?: Format;
  readonly viewMask?: number;
}

export interface GraphicsPipelineOptions {
  readonly layout: PipelineLayout;
  readonly stages: { readonly vertex: ShaderStage; readonly fragment?: ShaderStage };
  readonly vertexInput?: { readonly bindings?: readonly VertexBinding[]; readonly attributes?: readonly VertexAttribute[] };
  readonly topology?: keyof typeof TOPOLOGIES;
  readonly primitiveRestart?: boolean;
  readonly rasterization?: {
    readonly cullMode?: keyof typeof CULL_MODES;
    readonly frontFace?: keyof typeof FRONT_FACES;
    readonly polygonMode?: keyof typeof POLYGON_MODES;
    readonly lineWidth?: number;
  };
  readonly multisample?: { readonly samples?: number };
  readonly depthStencil?: { readonly depthTest?: boolean; readonly depthWrite?: boolean; readonly compareOp?: keyof typeof COMPARE_OPS };
  readonly blend?: readonly BlendAttachment[];
  /** A render pass and subpass (default 0)… */
  readonly renderPass?: RenderPass;
  readonly subpass?: number;
  /** …or dynamic rendering. */
  readonly rendering?: PipelineRendering;
}

/** @internal What a graphics pipeline needs of the state at a draw (commands.ts); a GraphicsPipeline has it (structurally: its members are internal). */
export interface PipelineNeeds {
  readonly layout: PipelineLayout;
  readonly requiredSets: readonly number[];
  readonly requiredBindings: readonly (readonly number[])[];
  readonly pushRanges: readonly { readonly offset: number; readonly end: number }[];
}

export class GraphicsPipeline extends DeviceChild {
  protected readonly kind = 'VkPipeline';
  readonly layout: PipelineLayout;
  /** The render pass it was made for (null: dynamic rendering). */
  readonly renderPass: RenderPass | null;
  readonly subpass: number;
  /** @internal Equal to the rendering key (commands.ts renderingKey) of the rendering it may draw in. */
  readonly renderingKey: string;
  /** @internal The vertex bindings the pipeline declares (each must be bound at a draw). */
  readonly vertexBindings: readonly number[];
  /** @internal */
  readonly requiredSets: readonly number[];
  /** @internal */
  readonly requiredBindings: readonly (readonly number[])[];
  /** @internal */
  readonly pushRanges: readonly { readonly offset: number; readonly end: number }[];

  /** @internal */
  constructor(device: DeviceOwner, options: GraphicsPipelineOptions) {
    const o = objectArg('createGraphicsPipeline(options)', options);
    const layout = o.layout;
    if (!(layout instanceof PipelineLayout)) throw new InvalidArgumentError(`createGraphicsPipeline: options.layout must be a PipelineLayout, got ${describeValue(layout)}`, 'options.layout');
    if (layout.isDestroyed) throw destroyed('VkPipelineLayout');
    if (!layout.ownedBy(device)) throw new InvalidArgumentError('createGraphicsPipeline: options.layout belongs to another device', 'options.layout');
    const stagesArg = objectArg('options.stages', o.stages);
    const stage = (name: 'vertex' | 'fragment', bit: number, model: number) => {
      const s = objectArg(`options.stages.${name}`, stagesArg[name]);
      if (!(s.module instanceof ShaderModule)) throw new InvalidArgumentError(`createGraphicsPipeline: options.stages.${name}.module must be a ShaderModule, got ${describeValue(s.module)}`, `options.stages.${name}.module`);
      if (s.module.isDestroyed) throw destroyed('VkShaderModule');
      if (!s.module.ownedBy(device)) throw new InvalidArgumentError(`createGraphicsPipeline: options.stages.${name}.module belongs to another device`, `options.stages.${name}.module`);
      const entryPoint = s.entryPoint ?? 'main';
      if (typeof entryPoint !== 'string') throw new InvalidArgumentError(`createGraphicsPipeline: options.stages.${name}.entryPoint must be a string`, `options.stages.${name}.entryPoint`);
      const needs = checkShaderAgainstLayout(s.module.interface, entryPoint, layout, { what: 'createGraphicsPipeline', stage: bit, model, stageName: name === 'vertex' ? 'VERTEX (0x1)' : 'FRAGMENT (0x10)', argument: `options.stages.${name}` });
      return { module: s.module, entryPoint, bit, needs };
    };
    const stages = [stage('vertex', STAGE_VERTEX, MODEL_VERTEX)];
    if (stagesArg.fragment !== undefined) stages.push(stage('fragment', STAGE_FRAGMENT, MODEL_FRAGMENT));

    // Vertex input: VUID-VkPipelineVertexInputStateCreateInfo-pVertexBindingDescriptions-00616 (bindings once),
    // -pVertexAttributeDescriptions-00617 (locations once), VkGraphicsPipelineCreateInfo-binding-00618 (an
    // attribute's binding declared), VUID-VkGraphicsPipelineCreateInfo-Input-07904 (each vertex shader input provided).
    const vi = o.vertexInput === undefined ? {} : objectArg('options.vertexInput', o.vertexInput);
    const bindings = (vi.bindings === undefined ? [] : arrayArg('options.vertexInput.bindings', vi.bindings)).map((v, i) => {
      const b = objectArg(`options.vertexInput.bindings[${i}]`, v);
      checkUint(`options.vertexInput.bindings[${i}].binding`, b.binding);
      checkUint(`options.vertexInput.bindings[${i}].stride`, b.stride);
      return { binding: b.binding, stride: b.stride, inputRate: named(`options.vertexInput.bindings[${i}].inputRate`, INPUT_RATES, b.inputRate, 'vertex') };
    });
    bindings.forEach((b, i) => {
      if (bindings.findIndex((c) => c.binding === b.binding) !== i) throw new InvalidArgumentError(`createGraphicsPipeline: vertex binding ${b.binding} is declared twice`, `options.vertexInput.bindings[${i}].binding`);
    });
    const attributes = (vi.attributes === undefined ? [] : arrayArg('options.vertexInput.attributes', vi.attributes)).map((v, i) => {
      const a = objectArg(`options.vertexInput.attributes[${i}]`, v);
      checkUint(`options.vertexInput.attributes[${i}].location`, a.location);
      checkUint(`options.vertexInput.attributes[${i}].binding`, a.binding);
      checkUint(`options.vertexInput.attributes[${i}].format`, a.format);
      const offset = uintOr(`options.vertexInput.attributes[${i}].offset`, a.offset, 0);
      if (!bindings.some((b) => b.binding === a.binding)) throw new InvalidArgumentError(`createGraphicsPipeline: options.vertexInput.attributes[${i}] reads binding ${a.binding}, which options.vertexInput.bindings does not declare`, `options.vertexInput.attributes[${i}].binding`);
      return { location: a.location, binding: a.binding, format: a.format, offset };
    });
    attributes.forEach((a, i) => {
      if (attributes.findIndex((c) => c.location === a.location) !== i) throw new InvalidArgumentError(`createGraphicsPipeline: vertex attribute location ${a.location} is declared twice`, `options.vertexInput.attributes[${i}].location`);
    });
    for (const location of stages[0]!.module.interface.inputLocations) {
      if (!attributes.some((a) => a.location === location)) {
        throw new InvalidArgumentError(`createGraphicsPipeline: the vertex shader reads input location ${location}, and options.vertexInput.attributes provides no attribute at that location`, 'options.vertexInput.attributes');
      }
    }

    const raster = o.rasterization === undefined ? {} : objectArg('options.rasterization', o.rasterization);
    const lineWidth = raster.lineWidth ?? 1;
    if (typeof lineWidth !== 'number' || !(lineWidth > 0)) throw new InvalidArgumentError(`createGraphicsPipeline: options.rasterization.lineWidth must be a number above 0, got ${describeValue(lineWidth)}`, 'options.rasterization.lineWidth');
    const ds = o.depthStencil === undefined ? {} : objectArg('options.depthStencil', o.depthStencil);
    const samples = uintOr('options.multisample.samples', o.multisample === undefined ? undefined : objectArg('options.multisample', o.multisample).samples, 1);
    if (![1, 2, 4, 8, 16, 32, 64].includes(samples)) throw new InvalidArgumentError(`createGraphicsPipeline: options.multisample.samples must be a power of two up to 64, got ${samples}`, 'options.multisample.samples');

    // Exactly one of a render pass or dynamic rendering (VUID-VkGraphicsPipelineCreateInfo-renderPass-06574 and the dynamic-rendering VUIDs).
    let renderPass: RenderPass | null = null;
    let subpass = 0;
    let colorFormats: number[];
    let depthFormat = 0;
    let stencilFormat = 0;
    let viewMask = 0;
    let renderingKey: string;
    if (o.renderPass !== undefined && o.rendering !== undefined) throw new InvalidArgumentError('createGraphicsPipeline: give options.renderPass or options.rendering, not both', 'options.rendering');
    if (o.renderPass !== undefined) {
      if (!(o.renderPass instanceof RenderPass)) throw new InvalidArgumentError(`createGraphicsPipeline: options.renderPass must be a RenderPass, got ${describeValue(o.renderPass)}`, 'options.renderPass');
      renderPass = o.renderPass;
      if (renderPass.isDestroyed) throw destroyed('VkRenderPass');
      if (!renderPass.ownedBy(device)) throw new InvalidArgumentError('createGraphicsPipeline: options.renderPass belongs to another device', 'options.renderPass');
      subpass = uintOr('options.subpass', o.subpass, 0);
      const sp = renderPass.subpasses[subpass];
      if (sp === undefined) throw new InvalidArgumentError(`createGraphicsPipeline: options.subpass ${subpass} is not a subpass of the render pass (it has ${renderPass.subpasses.length})`, 'options.subpass');
      colorFormats = sp.colors.map((c) => renderPass!.attachments[c]!.format);
      if (sp.depth >= 0) depthFormat = renderPass.attachments[sp.depth]!.format;
      viewMask = renderPass.viewMask;
      renderingKey = `${renderPass.key}#${subpass}`;
    } else if (o.rendering !== undefined) {
      if (o.subpass !== undefined) throw new InvalidArgumentError('createGraphicsPipeline: options.subpass goes with options.renderPass, not options.rendering', 'options.subpass');
      const r = objectArg('options.rendering', o.rendering);
      colorFormats = arrayArg('options.rendering.colorFormats', r.colorFormats).map((f, i) => {
        checkUint(`options.rendering.colorFormats[${i}]`, f);
        if (formatAspectMask(f) !== IMAGE_ASPECT.color) throw new InvalidArgumentError(`createGraphicsPipeline: options.rendering.colorFormats[${i}] (${f}) is a depth/stencil format`, `options.rendering.colorFormats[${i}]`);
        return f;
      });
      depthFormat = uintOr('options.rendering.depthFormat', r.depthFormat, 0);
      stencilFormat = uintOr('options.rendering.stencilFormat', r.stencilFormat, 0);
      // VUID-VkPipelineRenderingCreateInfo-depthAttachmentFormat-06587, -stencilAttachmentFormat-06588
      if (depthFormat !== 0 && (formatAspectMask(depthFormat) & IMAGE_ASPECT.depth) === 0) throw new InvalidArgumentError(`createGraphicsPipeline: options.rendering.depthFormat ${depthFormat} is no depth format`, 'options.rendering.depthFormat');
      if (stencilFormat !== 0 && (formatAspectMask(stencilFormat) & IMAGE_ASPECT.stencil) === 0) throw new InvalidArgumentError(`createGraphicsPipeline: options.rendering.stencilFormat ${stencilFormat} is no stencil format`, 'options.rendering.stencilFormat');
      viewMask = uintOr('options.rendering.viewMask', r.viewMask, 0);
      renderingKey = dynamicRenderingKey(colorFormats, depthFormat, stencilFormat, viewMask);
    } else {
      throw new InvalidArgumentError('createGraphicsPipeline: options needs renderPass (and subpass) or rendering ({ colorFormats, depthFormat?, viewMask? })', 'options.rendering');
    }
    const blendArg = o.blend === undefined ? colorFormats.map(() => ({})) : arrayArg('options.blend', o.blend);
    // VUID-VkGraphicsPipelineCreateInfo-renderPass-07609 / -06055: one blend state per colour attachment.
    if (blendArg.length !== colorFormats.length) throw new InvalidArgumentError(`createGraphicsPipeline: options.blend must hold one entry per colour attachment (${colorFormats.length}), got ${blendArg.length}`, 'options.blend');
    const blend = blendArg.map((v, i) => {
      const b = objectArg(`options.blend[${i}]`, v);
      const n = (key: string, fallback: number) => uintOr(`options.blend[${i}].${key}`, b[key], fallback);
      return {
        enable: b.enable === true,
        srcColor: n('srcColorBlendFactor', 6 /* SRC_ALPHA */),
        dstColor: n('dstColorBlendFactor', 7 /* ONE_MINUS_SRC_ALPHA */),
        colorOp: n('colorBlendOp', 0),
        srcAlpha: n('srcAlphaBlendFactor', 1 /* ONE */),
        dstAlpha: n('dstAlphaBlendFactor', 0 /* ZERO */),
        alphaOp: n('alphaBlendOp', 0),
        writeMask: n('colorWriteMask', 0xf),
      };
    });

    const flat = {
      layout: layout.handle,
      renderPass: renderPass === null ? 0n : renderPass.handle,
      subpass,
      stages: stages.map((s) => ({ stage: s.bit, module: s.module.handle, entryPoint: s.entryPoint })),
      bindings,
      attributes,
      topology: named('options.topology', TOPOLOGIES, o.topology, 'triangle-list'),
      primitiveRestart: o.primitiveRestart === true,
      polygonMode: named('options.rasterization.polygonMode', POLYGON_MODES, raster.polygonMode, 'fill'),
      cullMode: named('options.rasterization.cullMode', CULL_MODES, raster.cullMode, 'none'),
      frontFace: named('options.rasterization.frontFace', FRONT_FACES, raster.frontFace, 'counter-clockwise'),
      lineWidth,
      samples,
      depthTest: ds.depthTest === true,
      depthWrite: ds.depthWrite === true,
      compareOp: named('options.depthStencil.compareOp', COMPARE_OPS, ds.compareOp, 'less'),
      blend,
      colorFormats,
      depthFormat,
      stencilFormat,
      viewMask,
    };
    super(device, withVulkanErrors(() => vulkanCompute().createGraphicsPipeline(device.liveHandle, flat)));
    this.layout = layout;
    this.renderPass = renderPass;
    this.subpass = subpass;
    this.renderingKey = renderingKey;
    this.vertexBindings = bindings.map((b) => b.binding);
    // What the draws need bound: the union of the stages' sets, bindings and push-constant bytes.
    const bySet = new Map<number, Set<number>>();
    const push: { offset: number; end: number }[] = [];
    for (const s of stages) {
      s.needs.sets.forEach((n, i) => {
        let set = bySet.get(n);
        if (set === undefined) bySet.set(n, (set = new Set()));
        for (const b of s.needs.bindings[i]!) set.add(b);
      });
      if (s.needs.push !== null) push.push(s.needs.push);
    }
    this.requiredSets = [...bySet.keys()].sort((a, b) => a - b);
    this.requiredBindings = this.requiredSets.map((n) => [...bySet.get(n)!].sort((a, b) => a - b));
    this.pushRanges = push;
  }
  protected release(): void {
    this.native.destroy(this.device.liveHandle, 'pipeline', this.handle);
  }
}

/** @internal The rendering key of dynamic rendering with these formats and view mask. */
export function dynamicRenderingKey(colorFormats: readonly number[], depthFormat: number, stencilFormat: number, viewMask: number): string {
  return `dr:${colorFormats.join(',')}|${depthFormat}|${stencilFormat}|${viewMask}`;
}
