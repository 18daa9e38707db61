// The command encoder's state walk (CommandBuffer.checkEncoded, docs/usage.md 'CommandEncoder')
// for the walked transfer, clear, barrier and render pass commands: each is checked as the typed
// per-call methods check theirs (the same helpers where a per-call method exists; the Vulkan
// spec's valid usage where the typed API has none), before any Vulkan call. The registry's own
// checks (enum values, slot kinds, counts, render pass scope) are the native check's.
import { InvalidArgumentError, InvalidStateError, invalidArgument } from '../../../core/errors.js';
import type { DecodedValue } from '../../../generated/vulkan-encoder.js';
import { BUFFER_USAGE, type DeviceChild, type DeviceOwner, type VulkanBuffer } from '../device-objects.js';
import { Framebuffer, IMAGE_ASPECT, IMAGE_USAGE, LOAD_OPS, RenderPass, texelBytes } from '../graphics.js';
import { formatAspectMask, type Image } from '../image.js';
import { checkEventCommand2, KNOWN_STAGES2, type QueryState } from '../queries.js';

type Decoded = { readonly [name: string]: DecodedValue };
const list = (v: DecodedValue | undefined): readonly DecodedValue[] => (v === null || v === undefined ? [] : (v as readonly DecodedValue[]));
const num = (v: DecodedValue | undefined): number => Number(v as number | bigint);
const big = (v: DecodedValue | undefined): bigint => BigInt(v as number | bigint);

const WHOLE_SIZE = 0xffff_ffff_ffff_ffffn;
const REMAINING = 0xffff_ffff;
const QUEUE_FAMILY_IGNORED = 0xffff_ffff;
const ATTACHMENT_UNUSED = 0xffff_ffff;
// VkImageLayout values the checks name.
const LAYOUT_UNDEFINED = 0;
const LAYOUT_GENERAL = 1;
const LAYOUT_PREINITIALIZED = 8;
const LAYOUT_TRANSFER_SRC = 6;
const LAYOUT_TRANSFER_DST = 7;
const FILTER_NEAREST = 0;
const FILTER_LINEAR = 1;
// VkFormatFeatureFlagBits a blit needs.
const FEATURE_BLIT_SRC = 0x400;
const FEATURE_BLIT_DST = 0x800;
const FEATURE_FILTER_LINEAR = 0x1000;

/** What the walk keeps of the open rendering (the fields of the command buffer's RecordingState it reads and sets). */
export interface WalkState {
  rendering: number;
  renderingKey: string;
  /** The open rendering's colour attachments, whether it has a depth / a stencil attachment, its area [x, y, width, height] and layers. */
  renderColors: number;
  renderDepth: boolean;
  renderStencil: boolean;
  readonly renderArea: Int32Array;
  renderLayers: number;
  use(object: DeviceChild | Image): void;
}

/** One VkViewport (VUID-VkViewport-width-01770: above 0, -height-01773: not 0, -minDepth-01234/-maxDepth-01235: in [0, 1]; finite numbers). Six locals, not arrays: a frame's walk allocates nothing here. */
export function checkViewport(what: string, v: Decoded, name = 'pViewports'): void {
  const x = v.x as number;
  const y = v.y as number;
  const width = v.width as number;
  const height = v.height as number;
  const minDepth = v.minDepth as number;
  const maxDepth = v.maxDepth as number;
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(width) || !Number.isFinite(height) || !Number.isFinite(minDepth) || !Number.isFinite(maxDepth)) {
    throw new InvalidArgumentError(`${what}: the viewport's numbers must be finite`, name);
  }
  if (!(width > 0) || height === 0) throw new InvalidArgumentError(`${what}: width must be above 0 and height not 0, got ${width} and ${height}`, name);
  if (minDepth < 0 || minDepth > 1 || maxDepth < 0 || maxDepth > 1) throw new InvalidArgumentError(`${what}: minDepth and maxDepth must lie in [0, 1], got ${minDepth} and ${maxDepth}`, name);
}

/** One scissor VkRect2D (VUID-vkCmdSetScissor-x-00595: x, y not negative, -offset-00596/-00597: no overflow). */
export function checkScissor(what: string, r: Decoded, name = 'pScissors'): void {
  const offset = r.offset as Decoded;
  const extent = r.extent as Decoded;
  const x = offset.x as number;
  const y = offset.y as number;
  if (x < 0 || y < 0) throw new InvalidArgumentError(`${what}: the offset must not be negative, got (${x}, ${y})`, name);
  if (x + num(extent.width) > 0x7fff_ffff || y + num(extent.height) > 0x7fff_ffff) throw new InvalidArgumentError(`${what}: x + width and y + height must stay below 2^31`, name);
}

/**
 * vkCmdSetViewportWithCount / vkCmdSetScissorWithCount (Vulkan 1.3; the native check refuses them
 * where the device's table lacks them): one of each without the multiViewport feature, which the
 * typed API does not enable (VUID-vkCmdSetViewportWithCount-viewportCount-03395,
 * VUID-vkCmdSetScissorWithCount-scissorCount-03398), each checked as vkCmdSetViewport's / vkCmdSetScissor's.
 * They set the VIEWPORT_WITH_COUNT / SCISSOR_WITH_COUNT state, which the typed API's pipelines do
 * not make dynamic: a draw still needs vkCmdSetViewport and vkCmdSetScissor (VUID-vkCmdDraw-None-07831/-07832).
 */
function checkWithCount(what: string, items: readonly DecodedValue[], viewports: boolean): void {
  const name = viewports ? 'pViewports' : 'pScissors';
  if (items.length !== 1) throw new InvalidArgumentError(`${what}: ${viewports ? 'viewportCount' : 'scissorCount'} must be 1 (the typed API enables no multiViewport), got ${items.length}`, viewports ? 'viewportCount' : 'scissorCount');
  if (viewports) checkViewport(what, items[0] as Decoded, `${name}[0]`);
  else checkScissor(what, items[0] as Decoded, `${name}[0]`);
}

/**
 * vkCmdSetRenderingAttachmentLocations, per call or walked: inside a rendering vkCmdBeginRendering began
 * (VUID-vkCmdSetRenderingAttachmentLocations-commandBuffer-09511), one location per colour attachment
 * of it (-pLocationInfo-09510), the dynamicRenderingLocalRead feature (-dynamicRenderingLocalRead-09509),
 * each location VK_ATTACHMENT_UNUSED or used once (VUID-VkRenderingAttachmentLocationInfo-pColorAttachmentLocations-09513).
 */
export function checkAttachmentLocations(what: string, locations: readonly number[], st: WalkState, device: DeviceOwner, name = 'pLocationInfo.pColorAttachmentLocations', countName = 'pLocationInfo.colorAttachmentCount'): void {
  if (st.rendering !== 1) throw new InvalidStateError(`${what}: not inside a rendering begun with vkCmdBeginRendering (a render pass's attachment locations are its subpass's)`);
  if (locations.length !== st.renderColors) throw new InvalidArgumentError(`${what}: ${countName} must be the rendering's ${st.renderColors} colour attachments, got ${locations.length}`, countName);
  if (device.graphicsFeatures.dynamicRenderingLocalRead !== true) throw new InvalidStateError(`${what}: needs the dynamicRenderingLocalRead feature (Vulkan 1.4), and the device was created without it (createDevice({ enabledFeatures: { dynamicRenderingLocalRead: true } }) on a Vulkan 1.4 device)`);
  locations.forEach((l, i) => {
    if (l !== ATTACHMENT_UNUSED && locations.indexOf(l) !== i) throw new InvalidArgumentError(`${what}: ${name}[${i}] (${l}) is used twice (each location once, or VK_ATTACHMENT_UNUSED)`, `${name}[${i}]`);
  });
}

/** InvalidStateError unless the device was created with the synchronization2 feature (VUID-vkCmdPipelineBarrier2-synchronization2-03848 and kin). */
export function checkSynchronization2(what: string, device: DeviceOwner): void {
  if (device.graphicsFeatures.synchronization2 === false) throw new InvalidStateError(`${what}: needs the synchronization2 feature, and the device was created without it (createDevice({ enabledFeatures: { synchronization2: true } }), or record the Vulkan 1.0 command)`);
}

/**
 * A blit's formats (VUID-vkCmdBlitImage-srcImage-01999 / -dstImage-02000: BLIT_SRC / BLIT_DST in the
 * optimal-tiling features, -filter-02001: SAMPLED_IMAGE_FILTER_LINEAR for a linear filter); the typed
 * API's images are of optimal tiling.
 */
export function checkBlitFormats(what: string, device: DeviceOwner, src: Image, dst: Image, filter: number): void {
  const srcFeatures = device.optimalTilingFeatures(src.format);
  if ((srcFeatures & FEATURE_BLIT_SRC) === 0) throw new InvalidArgumentError(`${what}: srcImage's format ${src.format} has no VK_FORMAT_FEATURE_BLIT_SRC_BIT on this device (optimal tiling)`, 'srcImage');
  if ((device.optimalTilingFeatures(dst.format) & FEATURE_BLIT_DST) === 0) throw new InvalidArgumentError(`${what}: dstImage's format ${dst.format} has no VK_FORMAT_FEATURE_BLIT_DST_BIT on this device (optimal tiling)`, 'dstImage');
  if (filter === FILTER_LINEAR && (srcFeatures & FEATURE_FILTER_LINEAR) === 0) throw new InvalidArgumentError(`${what}: VK_FILTER_LINEAR needs VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT, which srcImage's format ${src.format} lacks on this device`, 'filter');
}

/** The region checks of a buffer-image copy (one VkBufferImageCopy), shared by the per-call copies and the encoder's walk. */
export interface BufferImageRegionValues {
  readonly aspect: number;
  readonly mipLevel: number;
  readonly baseArrayLayer: number;
  readonly layerCount: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  readonly bufferOffset: number;
  readonly rowLength: number;
  readonly imageHeight: number;
}

/**
 * InvalidArgumentError unless one region of vkCmdCopyBufferToImage (`toImage`) or
 * vkCmdCopyImageToBuffer is defined: VUID-vkCmdCopyBufferToImage-imageSubresource-07967/-07968
 * (mip level, layers), -pRegions-06223 (inside the level), -dstImage-00177 /
 * vkCmdCopyImageToBuffer-srcImage-00186 (usage), -pRegions-00171 (inside the buffer),
 * VkBufferImageCopy-bufferRowLength-09101/-bufferImageHeight-09102, -aspectMask-09103 (one aspect),
 * -bufferOffset-01558/-01559; both backed.
 */
export function checkBufferImageRegion(what: string, toImage: boolean, b: VulkanBuffer, image: Image, r: BufferImageRegionValues): void {
  const own = formatAspectMask(image.format);
  const { aspect, mipLevel, baseArrayLayer, layerCount, x, y, z, width, height, depth, bufferOffset, rowLength, imageHeight } = r;
  const levelWidth = Math.max(1, image.width >>> mipLevel);
  const levelHeight = Math.max(1, image.height >>> mipLevel);
  const levelDepth = Math.max(1, image.depth >>> mipLevel);
  if ((aspect & own) !== aspect || (aspect !== 1 && aspect !== 2 && aspect !== 4)) throw new InvalidArgumentError(`${what}: region.aspect must be one aspect of the image's format`, 'region.aspect');
  if (mipLevel >= image.mipLevels) throw new InvalidArgumentError(`${what}: region.mipLevel ${mipLevel} is not below the image's ${image.mipLevels} mip levels`, 'region.mipLevel');
  if (layerCount === 0 || baseArrayLayer + layerCount > image.arrayLayers) throw new InvalidArgumentError(`${what}: the layers [${baseArrayLayer}, ${baseArrayLayer + layerCount}) must lie inside the image's ${image.arrayLayers}, layerCount above 0`, 'region.layerCount');
  if (x < 0 || y < 0 || z < 0 || width === 0 || height === 0 || depth === 0 || x + width > levelWidth || y + height > levelHeight || z + depth > levelDepth) {
    throw new InvalidArgumentError(`${what}: the region [${x}, ${y}, ${z}] ${width}x${height}x${depth} must lie inside mip level ${mipLevel} (${levelWidth}x${levelHeight}x${levelDepth}), each size above 0`, 'region');
  }
  if ((rowLength !== 0 && rowLength < width) || (imageHeight !== 0 && imageHeight < height)) throw new InvalidArgumentError(`${what}: region.bufferRowLength and region.bufferImageHeight must be 0 or at least the region's width and height`, 'region.bufferRowLength');
  const texel = texelBytes(image.format, aspect);
  if (texel === undefined) throw new InvalidArgumentError(`${what}: the typed API does not know the texel size of format ${image.format} (aspect ${aspect}); copy a format of the specification's common colour and depth formats`, 'image');
  if (bufferOffset % Math.max(texel, 4) !== 0 && (aspect !== IMAGE_ASPECT.color || bufferOffset % texel !== 0)) throw new InvalidArgumentError(`${what}: region.bufferOffset must be a multiple of ${aspect === IMAGE_ASPECT.color ? texel : 4}, got ${bufferOffset}`, 'region.bufferOffset');
  const rows = imageHeight === 0 ? height : imageHeight;
  const perRow = (rowLength === 0 ? width : rowLength) * texel;
  const bytes = perRow * rows * (depth * layerCount - 1) + perRow * (height - 1) + width * texel;
  if (bufferOffset + bytes > Number(b.size)) throw new InvalidArgumentError(`${what}: the region takes ${bytes} bytes of the buffer from offset ${bufferOffset}, past its size ${b.size}`, 'region');
  b.checkBacked(`${what}: buffer`);
  b.checkUsage(what, toImage ? BUFFER_USAGE.TRANSFER_SRC : BUFFER_USAGE.TRANSFER_DST, 'buffer');
  checkImageUsage(what, image, toImage ? IMAGE_USAGE.TRANSFER_DST : IMAGE_USAGE.TRANSFER_SRC, 'image');
  image.checkBacked(`${what}: image`);
}

function checkImageUsage(what: string, image: Image, usage: number, name: string): void {
  if (image.usage !== undefined && (image.usage & usage) === 0) {
    const names: Record<number, string> = { 1: 'TRANSFER_SRC (0x1)', 2: 'TRANSFER_DST (0x2)' };
    throw new InvalidArgumentError(`${what}: ${name} has no ${names[usage] ?? `0x${usage.toString(16)}`} usage`, name);
  }
}

/** VUID-vkCmdCopyImage-srcImageLayout-01917 / -dstImageLayout-01395 and kin: a transfer's layout is the transfer one or GENERAL. */
function checkTransferLayout(what: string, name: string, layout: number, src: boolean): void {
  const wanted = src ? LAYOUT_TRANSFER_SRC : LAYOUT_TRANSFER_DST;
  if (layout !== wanted && layout !== LAYOUT_GENERAL) throw invalidArgument(`${what}: ${name}`, `VK_IMAGE_LAYOUT_${src ? 'TRANSFER_SRC' : 'TRANSFER_DST'}_OPTIMAL (${wanted}) or VK_IMAGE_LAYOUT_GENERAL (1)`, layout);
}

/** VkImageSubresourceLayers inside `image`: aspects of its format, the mip level and layers it has (VUID-vkCmdCopyImage-srcSubresource-07967/-07968, -aspectMask-00142 and kin). */
function checkLayers(what: string, name: string, image: Image, s: Decoded): void {
  const aspect = num(s.aspectMask);
  const mip = num(s.mipLevel);
  const base = num(s.baseArrayLayer);
  const count = num(s.layerCount);
  if (aspect === 0 || (aspect & image.aspectMask) !== aspect) throw new InvalidArgumentError(`${what}: ${name}.aspectMask 0x${aspect.toString(16)} must name aspects of the image's format (0x${image.aspectMask.toString(16)})`, `${name}.aspectMask`);
  if (mip >= image.mipLevels) throw new InvalidArgumentError(`${what}: ${name}.mipLevel ${mip} is not below the image's ${image.mipLevels} mip levels`, `${name}.mipLevel`);
  if (count === 0 || base + count > image.arrayLayers) throw new InvalidArgumentError(`${what}: ${name}'s layers [${base}, ${base + count}) must lie inside the image's ${image.arrayLayers}, layerCount above 0`, `${name}.layerCount`);
}

/** VkImageSubresourceRange inside `image` (VUID-VkImageSubresourceRange-levelCount-01720/-layerCount-01721, VUID-vkCmdClearColorImage-baseMipLevel-01470 and kin). */
function checkRange(what: string, name: string, image: Image, r: Decoded, aspects: number): void {
  const aspect = num(r.aspectMask);
  const baseMip = num(r.baseMipLevel);
  const levels = num(r.levelCount);
  const base = num(r.baseArrayLayer);
  const layers = num(r.layerCount);
  if (aspect === 0 || (aspect & aspects) !== aspect) throw new InvalidArgumentError(`${what}: ${name}.aspectMask 0x${aspect.toString(16)} must name aspects among 0x${aspects.toString(16)}`, `${name}.aspectMask`);
  if (baseMip >= image.mipLevels || levels === 0 || (levels !== REMAINING && baseMip + levels > image.mipLevels)) throw new InvalidArgumentError(`${what}: ${name}'s mip levels from ${baseMip} (${levels === REMAINING ? 'the rest' : levels}) must lie inside the image's ${image.mipLevels}`, `${name}.levelCount`);
  if (base >= image.arrayLayers || layers === 0 || (layers !== REMAINING && base + layers > image.arrayLayers)) throw new InvalidArgumentError(`${what}: ${name}'s layers from ${base} (${layers === REMAINING ? 'the rest' : layers}) must lie inside the image's ${image.arrayLayers}`, `${name}.layerCount`);
}

/** The extent of `image`'s mip level `mip`. */
function level(image: Image, mip: number): [number, number, number] {
  return [Math.max(1, image.width >>> mip), Math.max(1, image.height >>> mip), Math.max(1, image.depth >>> mip)];
}

/** A box [offset, offset + extent) inside mip level `mip` (VUID-vkCmdCopyImage-srcOffset-00144/-00145/-00147 and kin). */
function checkBox(what: string, name: string, image: Image, mip: number, o: Decoded, e: Decoded): void {
  const [lw, lh, ld] = level(image, mip);
  const [x, y, z] = [num(o.x), num(o.y), num(o.z)];
  const [w, h, d] = [num(e.width), num(e.height), num(e.depth)];
  if (x < 0 || y < 0 || z < 0 || w === 0 || h === 0 || d === 0 || x + w > lw || y + h > lh || z + d > ld) {
    throw new InvalidArgumentError(`${what}: ${name}: the box [${x}, ${y}, ${z}] ${w}x${h}x${d} must lie inside mip level ${mip} (${lw}x${lh}x${ld}), each size above 0`, name);
  }
}

function imageAt(objects: readonly unknown[], slot: DecodedValue | undefined): Image {
  return objects[slot as number] as Image;
}

/** Both images of a copy, blit or resolve: backed, of the transfer usages, in transfer layouts. */
function checkImagePair(what: string, src: Image, srcLayout: number, dst: Image, dstLayout: number, st: WalkState): void {
  src.checkBacked(`${what}: srcImage`);
  dst.checkBacked(`${what}: dstImage`);
  checkImageUsage(what, src, IMAGE_USAGE.TRANSFER_SRC, 'srcImage');
  checkImageUsage(what, dst, IMAGE_USAGE.TRANSFER_DST, 'dstImage');
  checkTransferLayout(what, 'srcImageLayout', srcLayout, true);
  checkTransferLayout(what, 'dstImageLayout', dstLayout, false);
  st.use(src);
  st.use(dst);
}

/** vkCmdCopyImage(2): VUID-vkCmdCopyImage-srcImage-00136 (samples), -srcImage-01548 (size-compatible formats; depth/stencil ones equal), -aspectMask-00142/-00143, -layerCount-08793 (equal layers), the boxes inside both. */
function checkCopyImage(what: string, info: Decoded, objects: readonly unknown[], st: WalkState): void {
  const src = imageAt(objects, info.srcImage);
  const dst = imageAt(objects, info.dstImage);
  checkImagePair(what, src, num(info.srcImageLayout), dst, num(info.dstImageLayout), st);
  if (src.samples !== dst.samples) throw new InvalidArgumentError(`${what}: srcImage has ${src.samples} samples and dstImage ${dst.samples}`, 'dstImage');
  const depthStencil = src.aspectMask !== IMAGE_ASPECT.color || dst.aspectMask !== IMAGE_ASPECT.color;
  if (depthStencil ? src.format !== dst.format : texelBytes(src.format, 1) === undefined || texelBytes(src.format, 1) !== texelBytes(dst.format, 1)) {
    throw new InvalidArgumentError(`${what}: formats ${src.format} and ${dst.format} are not size-compatible (depth/stencil formats must be equal; colour ones of one known texel size)`, 'dstImage');
  }
  list(info.pRegions).forEach((region, i) => {
    const r = region as Decoded;
    const s = r.srcSubresource as Decoded;
    const d = r.dstSubresource as Decoded;
    checkLayers(what, `pRegions[${i}].srcSubresource`, src, s);
    checkLayers(what, `pRegions[${i}].dstSubresource`, dst, d);
    if (num(s.aspectMask) !== num(d.aspectMask)) throw new InvalidArgumentError(`${what}: pRegions[${i}]: srcSubresource.aspectMask and dstSubresource.aspectMask differ`, `pRegions[${i}].dstSubresource.aspectMask`);
    if (num(s.layerCount) !== num(d.layerCount)) throw new InvalidArgumentError(`${what}: pRegions[${i}]: srcSubresource.layerCount and dstSubresource.layerCount differ`, `pRegions[${i}].dstSubresource.layerCount`);
    checkBox(what, `pRegions[${i}] (source)`, src, num(s.mipLevel), r.srcOffset as Decoded, r.extent as Decoded);
    checkBox(what, `pRegions[${i}] (destination)`, dst, num(d.mipLevel), r.dstOffset as Decoded, r.extent as Decoded);
  });
}

/** vkCmdBlitImage(2) of the stream: checkBlit over its decoded arguments. */
function checkBlitImage(what: string, info: Decoded, objects: readonly unknown[], st: WalkState, device: DeviceOwner): void {
  checkBlit(what, imageAt(objects, info.srcImage), num(info.srcImageLayout), imageAt(objects, info.dstImage), num(info.dstImageLayout), num(info.filter), list(info.pRegions) as Decoded[], st, device);
}

/**
 * A blit, per call (CommandBuffer.blitImage) or walked: VUID-vkCmdBlitImage-srcImage-00233/-dstImage-00234
 * (single-sampled), -srcImage-00231 (depth/stencil formats equal), -filter-00232 (NEAREST for them), the
 * formats' blit features (checkBlitFormats), -srcOffset-00243 and kin (offsets inside the levels),
 * -layerCount-08800; `regions` are VkImageBlit's members by name.
 */
export function checkBlit(what: string, src: Image, srcLayout: number, dst: Image, dstLayout: number, filter: number, regions: readonly Decoded[], st: WalkState, device: DeviceOwner): void {
  checkImagePair(what, src, srcLayout, dst, dstLayout, st);
  if (src.samples !== 1 || dst.samples !== 1) throw new InvalidArgumentError(`${what}: both images must be single-sampled (${src.samples} and ${dst.samples} samples)`, 'srcImage');
  const depthStencil = src.aspectMask !== IMAGE_ASPECT.color || dst.aspectMask !== IMAGE_ASPECT.color;
  if (depthStencil && src.format !== dst.format) throw new InvalidArgumentError(`${what}: a depth/stencil blit needs equal formats, got ${src.format} and ${dst.format}`, 'dstImage');
  if (filter !== FILTER_NEAREST && (depthStencil || filter !== FILTER_LINEAR)) throw invalidArgument(`${what}: filter`, depthStencil ? 'VK_FILTER_NEAREST (0) for a depth/stencil image' : 'VK_FILTER_NEAREST (0) or VK_FILTER_LINEAR (1)', filter);
  checkBlitFormats(what, device, src, dst, filter);
  regions.forEach((region, i) => {
    const r = region as Decoded;
    const s = r.srcSubresource as Decoded;
    const d = r.dstSubresource as Decoded;
    checkLayers(what, `pRegions[${i}].srcSubresource`, src, s);
    checkLayers(what, `pRegions[${i}].dstSubresource`, dst, d);
    if (num(s.aspectMask) !== num(d.aspectMask)) throw new InvalidArgumentError(`${what}: pRegions[${i}]: the aspects of the two subresources differ`, `pRegions[${i}].dstSubresource.aspectMask`);
    if (num(s.layerCount) !== num(d.layerCount)) throw new InvalidArgumentError(`${what}: pRegions[${i}]: srcSubresource.layerCount and dstSubresource.layerCount differ`, `pRegions[${i}].dstSubresource.layerCount`);
    for (const [side, image, mip, offsets] of [['srcOffsets', src, num(s.mipLevel), r.srcOffsets], ['dstOffsets', dst, num(d.mipLevel), r.dstOffsets]] as const) {
      const [lw, lh, ld] = level(image, mip);
      list(offsets).forEach((o, k) => {
        const p = o as Decoded;
        const [x, y, z] = [num(p.x), num(p.y), num(p.z)];
        if (x < 0 || y < 0 || z < 0 || x > lw || y > lh || z > ld) throw new InvalidArgumentError(`${what}: pRegions[${i}].${side}[${k}] (${x}, ${y}, ${z}) must lie in [0, ${lw}]x[0, ${lh}]x[0, ${ld}]`, `pRegions[${i}].${side}`);
      });
    }
  });
}

/** vkCmdResolveImage(2): VUID-vkCmdResolveImage-srcImage-00257 (multisampled source), -dstImage-00259 (single-sampled destination), -srcImage-01386 (equal formats), -aspectMask-00266 (colour), -layerCount-08803, the boxes inside both. */
function checkResolveImage(what: string, info: Decoded, objects: readonly unknown[], st: WalkState): void {
  const src = imageAt(objects, info.srcImage);
  const dst = imageAt(objects, info.dstImage);
  checkImagePair(what, src, num(info.srcImageLayout), dst, num(info.dstImageLayout), st);
  if (src.samples === 1) throw new InvalidArgumentError(`${what}: srcImage must be multisampled, it has 1 sample`, 'srcImage');
  if (dst.samples !== 1) throw new InvalidArgumentError(`${what}: dstImage must have 1 sample, it has ${dst.samples}`, 'dstImage');
  if (src.format !== dst.format) throw new InvalidArgumentError(`${what}: the images' formats must be equal, got ${src.format} and ${dst.format}`, 'dstImage');
  list(info.pRegions).forEach((region, i) => {
    const r = region as Decoded;
    const s = r.srcSubresource as Decoded;
    const d = r.dstSubresource as Decoded;
    if (num(s.aspectMask) !== IMAGE_ASPECT.color || num(d.aspectMask) !== IMAGE_ASPECT.color) throw new InvalidArgumentError(`${what}: pRegions[${i}]: both aspectMasks must be VK_IMAGE_ASPECT_COLOR_BIT (1)`, `pRegions[${i}].srcSubresource.aspectMask`);
    checkLayers(what, `pRegions[${i}].srcSubresource`, src, s);
    checkLayers(what, `pRegions[${i}].dstSubresource`, dst, d);
    if (num(s.layerCount) !== num(d.layerCount)) throw new InvalidArgumentError(`${what}: pRegions[${i}]: srcSubresource.layerCount and dstSubresource.layerCount differ`, `pRegions[${i}].dstSubresource.layerCount`);
    checkBox(what, `pRegions[${i}] (source)`, src, num(s.mipLevel), r.srcOffset as Decoded, r.extent as Decoded);
    checkBox(what, `pRegions[${i}] (destination)`, dst, num(d.mipLevel), r.dstOffset as Decoded, r.extent as Decoded);
  });
}

/** vkCmdCopyBufferToImage(2) / vkCmdCopyImageToBuffer(2): each region as the per-call copies check theirs. */
function checkBufferImage(what: string, toImage: boolean, info: Decoded, objects: readonly unknown[], st: WalkState): void {
  const b = objects[(toImage ? info.srcBuffer : info.dstBuffer) as number] as VulkanBuffer;
  const image = imageAt(objects, toImage ? info.dstImage : info.srcImage);
  checkTransferLayout(what, toImage ? 'dstImageLayout' : 'srcImageLayout', num(toImage ? info.dstImageLayout : info.srcImageLayout), !toImage);
  for (const region of list(info.pRegions)) {
    const r = region as Decoded;
    const s = r.imageSubresource as Decoded;
    const o = r.imageOffset as Decoded;
    const e = r.imageExtent as Decoded;
    checkBufferImageRegion(what, toImage, b, image, {
      aspect: num(s.aspectMask),
      mipLevel: num(s.mipLevel),
      baseArrayLayer: num(s.baseArrayLayer),
      layerCount: num(s.layerCount),
      x: num(o.x),
      y: num(o.y),
      z: num(o.z),
      width: num(e.width),
      height: num(e.height),
      depth: num(e.depth),
      bufferOffset: num(r.bufferOffset),
      rowLength: num(r.bufferRowLength),
      imageHeight: num(r.bufferImageHeight),
    });
  }
  st.use(b);
  st.use(image);
}

/** vkCmdClearColorImage / vkCmdClearDepthStencilImage: as CommandBuffer.clearColorImage / clearDepthStencilImage, with the stream's ranges. */
function checkClearImage(what: string, colour: boolean, args: Decoded, objects: readonly unknown[], st: WalkState): void {
  const image = imageAt(objects, args.image);
  image.checkBacked(`${what}: image`);
  // VUID-vkCmdClearColorImage-image-00007 / vkCmdClearDepthStencilImage-image-00014 (the format's kind), -00002 / -02660 (TRANSFER_DST usage), -imageLayout-00004 / -00012
  if (colour !== (image.aspectMask === IMAGE_ASPECT.color)) throw invalidArgument(`${what}: image`, colour ? 'an image of a colour format' : 'an image of a depth/stencil format', `an image of VkFormat ${image.format}`);
  checkImageUsage(what, image, IMAGE_USAGE.TRANSFER_DST, 'image');
  const layout = num(args.imageLayout);
  if (layout !== LAYOUT_TRANSFER_DST && layout !== LAYOUT_GENERAL) throw invalidArgument(`${what}: imageLayout`, 'VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL (7) or VK_IMAGE_LAYOUT_GENERAL (1)', layout);
  if (!colour) {
    // VUID-VkClearDepthStencilValue-depth-00022
    const depth = (args.pDepthStencil as Decoded).depth as number;
    if (!(depth >= 0 && depth <= 1)) throw invalidArgument(`${what}: pDepthStencil.depth`, 'a number in [0, 1]', depth);
  }
  // VUID-vkCmdClearColorImage-aspectMask-02498 (colour only); vkCmdClearDepthStencilImage-aspectMask-02824..02826 (the format's depth/stencil aspects)
  list(args.pRanges).forEach((r, i) => checkRange(what, `pRanges[${i}]`, image, r as Decoded, colour ? IMAGE_ASPECT.color : image.aspectMask));
  st.use(image);
}

/** vkCmdClearAttachments in the open rendering: VUID-vkCmdClearAttachments-aspectMask-07271 (a colour attachment it has), -07884/-07885 (depth/stencil it has), VkClearAttachment-aspectMask-00019, -pRects-00016 (inside the render area), -layerCount-01934, -pRects-06937 (its layers). */
function checkClearAttachments(what: string, args: Decoded, st: WalkState): void {
  list(args.pAttachments).forEach((a, i) => {
    const c = a as Decoded;
    const aspect = num(c.aspectMask);
    const name = `pAttachments[${i}]`;
    if (aspect === IMAGE_ASPECT.color) {
      const index = num(c.colorAttachment);
      if (index >= st.renderColors) throw new InvalidArgumentError(`${what}: ${name}.colorAttachment ${index} is not a colour attachment of the rendering (it has ${st.renderColors})`, `${name}.colorAttachment`);
      return;
    }
    if (aspect === 0 || (aspect & ~(IMAGE_ASPECT.depth | IMAGE_ASPECT.stencil)) !== 0) throw invalidArgument(`${what}: ${name}.aspectMask`, 'VK_IMAGE_ASPECT_COLOR_BIT alone, or depth and/or stencil', aspect);
    if ((aspect & IMAGE_ASPECT.depth) !== 0 && !st.renderDepth) throw new InvalidArgumentError(`${what}: ${name} clears depth and the rendering has no depth attachment`, `${name}.aspectMask`);
    if ((aspect & IMAGE_ASPECT.stencil) !== 0 && !st.renderStencil) throw new InvalidArgumentError(`${what}: ${name} clears stencil and the rendering has no stencil attachment`, `${name}.aspectMask`);
    const depth = ((c.clearValue as Decoded).depthStencil as Decoded).depth as number;
    if ((aspect & IMAGE_ASPECT.depth) !== 0 && !(depth >= 0 && depth <= 1)) throw invalidArgument(`${what}: ${name}.clearValue.depthStencil.depth`, 'a number in [0, 1]', depth);
  });
  const [ax, ay, aw, ah] = st.renderArea;
  list(args.pRects).forEach((v, i) => {
    const r = v as Decoded;
    const rect = r.rect as Decoded;
    const x = num((rect.offset as Decoded).x);
    const y = num((rect.offset as Decoded).y);
    const w = num((rect.extent as Decoded).width);
    const h = num((rect.extent as Decoded).height);
    const base = num(r.baseArrayLayer);
    const layers = num(r.layerCount);
    if (w === 0 || h === 0 || x < ax! || y < ay! || x + w > ax! + aw! || y + h > ay! + ah!) throw new InvalidArgumentError(`${what}: pRects[${i}] [${x}, ${y}, ${w}x${h}] must lie inside the render area [${ax}, ${ay}, ${aw}x${ah}], each size above 0`, `pRects[${i}].rect`);
    if (layers === 0 || base + layers > st.renderLayers) throw new InvalidArgumentError(`${what}: pRects[${i}]'s layers [${base}, ${base + layers}) must lie inside the rendering's ${st.renderLayers}`, `pRects[${i}].layerCount`);
  });
}

/** A buffer barrier's range (VUID-VkBufferMemoryBarrier-offset-01187, -size-01188/-01189, -buffer-01931 backed). */
function checkBufferBarrier(what: string, name: string, b: VulkanBuffer, r: Decoded): void {
  b.checkBacked(`${what}: ${name}.buffer`);
  const offset = big(r.offset);
  const size = big(r.size);
  const total = BigInt(b.size);
  if (offset >= total || (size !== WHOLE_SIZE && (size === 0n || offset + size > total))) throw new InvalidArgumentError(`${what}: ${name}: offset ${offset} and size ${size} must lie inside the buffer's ${total} (size above 0, or VK_WHOLE_SIZE)`, `${name}.size`);
}

/** Queue family indices of a barrier: the typed API makes no ownership transfers (both ignored, or equal). */
function checkFamilies(what: string, name: string, r: Decoded): void {
  const src = num(r.srcQueueFamilyIndex);
  const dst = num(r.dstQueueFamilyIndex);
  if (src !== dst && (src !== QUEUE_FAMILY_IGNORED || dst !== QUEUE_FAMILY_IGNORED)) throw new InvalidArgumentError(`${what}: ${name}: srcQueueFamilyIndex and dstQueueFamilyIndex must be equal (the typed API makes no queue family ownership transfer), got ${src} and ${dst}`, `${name}.dstQueueFamilyIndex`);
}

/** An image barrier: VUID-VkImageMemoryBarrier-newLayout-01198 (not UNDEFINED or PREINITIALIZED), -image-01932 (backed), -subresourceRange-01486..01725 (inside), -image-03320 (a depth/stencil image's aspects whole, as imageBarrier() names them). */
function checkImageBarrier(what: string, name: string, image: Image, r: Decoded): void {
  image.checkBacked(`${what}: ${name}.image`);
  const newLayout = num(r.newLayout);
  if (newLayout === LAYOUT_UNDEFINED || newLayout === LAYOUT_PREINITIALIZED) throw invalidArgument(`${what}: ${name}.newLayout`, 'a layout other than VK_IMAGE_LAYOUT_UNDEFINED and VK_IMAGE_LAYOUT_PREINITIALIZED', newLayout);
  const range = r.subresourceRange as Decoded;
  checkRange(what, `${name}.subresourceRange`, image, range, image.aspectMask);
  if (num(range.aspectMask) !== image.aspectMask) throw new InvalidArgumentError(`${what}: ${name}.subresourceRange.aspectMask must be the image's aspects 0x${image.aspectMask.toString(16)}`, `${name}.subresourceRange.aspectMask`);
}

function checkPipelineBarrier(what: string, args: Decoded, objects: readonly unknown[], st: WalkState): void {
  // As CommandBuffer.pipelineBarrier: not inside a render pass or dynamic rendering (VUID-vkCmdPipelineBarrier-None-07889: the typed API's render passes declare no self-dependency).
  if (st.rendering !== 0) throw new InvalidStateError(`${what}: inside ${st.rendering === 1 ? 'dynamic rendering (vkCmdEndRendering first)' : 'a render pass (vkCmdEndRenderPass first)'}`);
  list(args.pBufferMemoryBarriers).forEach((v, i) => {
    const r = v as Decoded;
    const b = objects[r.buffer as number] as VulkanBuffer;
    checkFamilies(what, `pBufferMemoryBarriers[${i}]`, r);
    checkBufferBarrier(what, `pBufferMemoryBarriers[${i}]`, b, r);
    st.use(b);
  });
  list(args.pImageMemoryBarriers).forEach((v, i) => {
    const r = v as Decoded;
    const image = imageAt(objects, r.image);
    checkFamilies(what, `pImageMemoryBarriers[${i}]`, r);
    checkImageBarrier(what, `pImageMemoryBarriers[${i}]`, image, r);
    st.use(image);
  });
}

/**
 * A VkDependencyInfo of the synchronization2 commands, as vkCmdPipelineBarrier's barriers (outside
 * rendering, no ownership transfer, ranges inside), each stage mask of Vulkan 1.3 stages
 * (VUID-VkMemoryBarrier2-srcStageMask-parameter and kin); `noHost`: no HOST source stage
 * (VUID-vkCmdSetEvent2-srcStageMask-09391), `noFlags`: dependencyFlags 0 (VUID-vkCmdSetEvent2-dependencyFlags-03825).
 */
function checkDependencyInfo(what: string, name: string, info: Decoded, objects: readonly unknown[], st: WalkState & QueryState, noHost: boolean, noFlags: boolean): void {
  if (noFlags && num(info.dependencyFlags) !== 0) throw invalidArgument(`${what}: ${name}.dependencyFlags`, '0', info.dependencyFlags);
  for (const field of ['pMemoryBarriers', 'pBufferMemoryBarriers', 'pImageMemoryBarriers'] as const) {
    list(info[field]).forEach((v, i) => {
      const r = v as Decoded;
      const src = big(r.srcStageMask);
      const dst = big(r.dstStageMask);
      if ((src & ~KNOWN_STAGES2) !== 0n || (dst & ~KNOWN_STAGES2) !== 0n) throw new InvalidArgumentError(`${what}: ${name}.${field}[${i}]: srcStageMask 0x${src.toString(16)} and dstStageMask 0x${dst.toString(16)} must name Vulkan 1.3 pipeline stages (VkPipelineStageFlagBits2)`, `${name}.${field}[${i}].srcStageMask`);
      if (noHost) checkEventCommand2(st, what, `${name}.${field}[${i}].srcStageMask`, src);
    });
  }
  checkPipelineBarrier(`${what}: ${name}`, info, objects, st);
}

/** vkCmdUpdateBuffer: VUID-vkCmdUpdateBuffer-dstOffset-00032/-00036, -dataSize-00033/-00037/-00038, -dstBuffer-00034 (TRANSFER_DST), -00035 (backed). */
function checkUpdateBuffer(what: string, args: Decoded, objects: readonly unknown[], st: WalkState): void {
  const b = objects[args.dstBuffer as number] as VulkanBuffer;
  b.checkBacked(`${what}: dstBuffer`);
  b.checkUsage(what, BUFFER_USAGE.TRANSFER_DST, 'dstBuffer');
  const offset = big(args.dstOffset);
  const bytes = big(args.dataSize);
  if (offset % 4n !== 0n || bytes % 4n !== 0n || bytes === 0n || bytes > 65536n || offset + bytes > BigInt(b.size)) {
    throw new InvalidArgumentError(`${what}: dstOffset ${offset} and dataSize ${bytes} must be multiples of 4, dataSize in (0, 65536], inside the buffer's ${b.size}`, 'dataSize');
  }
  st.use(b);
}

/** vkCmdBeginRenderPass(2): as CommandBuffer.beginRenderPass, with the stream's clear values and contents. */
function checkBeginRenderPass(what: string, info: Decoded, contents: number, objects: readonly unknown[], st: WalkState): void {
  const pass = objects[info.renderPass as number] as RenderPass;
  const fb = objects[info.framebuffer as number] as Framebuffer;
  if (!(pass instanceof RenderPass) || !(fb instanceof Framebuffer)) throw new InvalidArgumentError(`${what}: pRenderPassBegin names a RenderPass and a Framebuffer`, 'pRenderPassBegin');
  // VUID-vkCmdBeginRenderPass-contents: the typed API records no secondary command buffers.
  if (contents !== 0) throw invalidArgument(`${what}: contents`, 'VK_SUBPASS_CONTENTS_INLINE (0) (the typed API records no secondary command buffers)', contents);
  // VUID-VkRenderPassBeginInfo-renderPass-00904 (a compatible render pass), -pNext-02852/-02853 (area inside), -clearValueCount-00902
  if (fb.renderPass !== pass && fb.renderPass.key !== pass.key) throw new InvalidArgumentError(`${what}: pRenderPassBegin.framebuffer was made for a render pass not compatible with pRenderPassBegin.renderPass`, 'pRenderPassBegin.framebuffer');
  const area = info.renderArea as Decoded;
  const x = num((area.offset as Decoded).x);
  const y = num((area.offset as Decoded).y);
  const width = num((area.extent as Decoded).width);
  const height = num((area.extent as Decoded).height);
  if (x < 0 || y < 0 || width === 0 || height === 0 || x + width > fb.width || y + height > fb.height) throw new InvalidArgumentError(`${what}: the render area [${x}, ${y}, ${width}x${height}] is not inside the framebuffer's ${fb.width}x${fb.height}`, 'pRenderPassBegin.renderArea');
  const clears = list(info.pClearValues);
  pass.attachments.forEach((a, i) => {
    if (a.loadOp !== LOAD_OPS.clear && a.stencilLoadOp !== LOAD_OPS.clear) return;
    if (i >= clears.length) throw new InvalidArgumentError(`${what}: attachment ${i} is cleared (loadOp 'clear') and pRenderPassBegin.clearValueCount is ${clears.length}`, 'pRenderPassBegin.clearValueCount');
    if (formatAspectMask(a.format) !== IMAGE_ASPECT.color) {
      // VUID-VkClearDepthStencilValue-depth-00022
      const depth = ((clears[i] as Decoded).depthStencil as Decoded).depth as number;
      if (!(depth >= 0 && depth <= 1)) throw invalidArgument(`${what}: pRenderPassBegin.pClearValues[${i}].depthStencil.depth`, 'a number in [0, 1]', depth);
    }
  });
  for (const v of fb.attachments) {
    if (v.isDestroyed) throw new InvalidStateError(`${what}: an attachment of the framebuffer was destroyed`);
    v.image.checkBacked(`${what}: a framebuffer attachment`);
  }
  const subpass = pass.subpasses[0]!;
  const depthFormat = subpass.depth >= 0 ? formatAspectMask(pass.attachments[subpass.depth]!.format) : 0;
  st.rendering = 2;
  st.renderingKey = `${pass.key}#0`;
  st.renderColors = subpass.colors.length;
  st.renderDepth = (depthFormat & IMAGE_ASPECT.depth) !== 0;
  st.renderStencil = (depthFormat & IMAGE_ASPECT.stencil) !== 0;
  st.renderArea.set([x, y, width, height]);
  st.renderLayers = pass.viewMask !== 0 ? 1 : fb.layers;
  st.use(pass);
  st.use(fb);
  for (const v of fb.attachments) {
    st.use(v);
    st.use(v.image);
  }
}

/**
 * The walked transfer, clear, barrier, render pass, synchronization2 and dynamic state commands' state checks; false for a command
 * this module does not check (the caller's own cases, or its refusal).
 */
export function checkWalkedTransfer(
  st: WalkState & QueryState,
  name: string,
  args: Decoded,
  objects: readonly unknown[],
  checkCopy: (s: VulkanBuffer, d: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint, dstOffset: number | bigint) => void,
  device: DeviceOwner,
): boolean {
  switch (name) {
    case 'vkCmdCopyBuffer':
    case 'vkCmdCopyBuffer2': {
      const info = name === 'vkCmdCopyBuffer' ? args : (args.pCopyBufferInfo as Decoded);
      const src = objects[info.srcBuffer as number] as VulkanBuffer;
      const dst = objects[info.dstBuffer as number] as VulkanBuffer;
      for (const r of list(info.pRegions) as Decoded[]) checkCopy(src, dst, r.size as number | bigint, r.srcOffset as number | bigint, r.dstOffset as number | bigint);
      st.use(src);
      st.use(dst);
      return true;
    }
    case 'vkCmdUpdateBuffer':
      checkUpdateBuffer(name, args, objects, st);
      return true;
    case 'vkCmdCopyImage':
      checkCopyImage(name, args, objects, st);
      return true;
    case 'vkCmdCopyImage2':
      checkCopyImage(name, args.pCopyImageInfo as Decoded, objects, st);
      return true;
    case 'vkCmdBlitImage':
      checkBlitImage(name, args, objects, st, device);
      return true;
    case 'vkCmdBlitImage2':
      checkBlitImage(name, args.pBlitImageInfo as Decoded, objects, st, device);
      return true;
    case 'vkCmdResolveImage':
      checkResolveImage(name, args, objects, st);
      return true;
    case 'vkCmdResolveImage2':
      checkResolveImage(name, args.pResolveImageInfo as Decoded, objects, st);
      return true;
    case 'vkCmdCopyBufferToImage':
      checkBufferImage(name, true, args, objects, st);
      return true;
    case 'vkCmdCopyBufferToImage2':
      checkBufferImage(name, true, args.pCopyBufferToImageInfo as Decoded, objects, st);
      return true;
    case 'vkCmdCopyImageToBuffer':
      checkBufferImage(name, false, args, objects, st);
      return true;
    case 'vkCmdCopyImageToBuffer2':
      checkBufferImage(name, false, args.pCopyImageToBufferInfo as Decoded, objects, st);
      return true;
    case 'vkCmdClearColorImage':
      checkClearImage(name, true, args, objects, st);
      return true;
    case 'vkCmdClearDepthStencilImage':
      checkClearImage(name, false, args, objects, st);
      return true;
    case 'vkCmdClearAttachments':
      checkClearAttachments(name, args, st);
      return true;
    case 'vkCmdPipelineBarrier':
      checkPipelineBarrier(name, args, objects, st);
      return true;
    case 'vkCmdWaitEvents': {
      // As vkCmdPipelineBarrier's barriers (outside rendering), and a source stage mask (VUID-vkCmdWaitEvents-srcStageMask-requiredbitmask, -dstStageMask-requiredbitmask).
      if (num(args.srcStageMask) === 0 || num(args.dstStageMask) === 0) throw new InvalidArgumentError(`${name}: srcStageMask and dstStageMask must name pipeline stages, got 0x${num(args.srcStageMask).toString(16)} and 0x${num(args.dstStageMask).toString(16)}`, 'srcStageMask');
      checkPipelineBarrier(name, args, objects, st);
      for (const e of list(args.pEvents)) st.use(objects[e as number] as DeviceChild);
      return true;
    }
    case 'vkCmdPipelineBarrier2':
      checkSynchronization2(name, device);
      checkDependencyInfo(name, 'pDependencyInfo', args.pDependencyInfo as Decoded, objects, st, false, false);
      return true;
    case 'vkCmdSetEvent2':
      checkSynchronization2(name, device);
      checkDependencyInfo(name, 'pDependencyInfo', args.pDependencyInfo as Decoded, objects, st, true, true);
      st.use(objects[args.event as number] as DeviceChild);
      return true;
    case 'vkCmdWaitEvents2':
      // As vkCmdWaitEvents: outside rendering, one VkDependencyInfo per event (the native check has their count).
      checkSynchronization2(name, device);
      list(args.pDependencyInfos).forEach((d, i) => checkDependencyInfo(name, `pDependencyInfos[${i}]`, d as Decoded, objects, st, false, false));
      for (const e of list(args.pEvents)) st.use(objects[e as number] as DeviceChild);
      return true;
    case 'vkCmdSetViewportWithCount':
      checkWithCount(name, list(args.pViewports), true);
      return true;
    case 'vkCmdSetScissorWithCount':
      checkWithCount(name, list(args.pScissors), false);
      return true;
    case 'vkCmdSetRenderingAttachmentLocations':
      checkAttachmentLocations(name, list((args.pLocationInfo as Decoded).pColorAttachmentLocations).map(num), st, device);
      return true;
    case 'vkCmdBeginRenderPass':
      checkBeginRenderPass(name, args.pRenderPassBegin as Decoded, num(args.contents), objects, st);
      return true;
    case 'vkCmdBeginRenderPass2':
      checkBeginRenderPass(name, args.pRenderPassBegin as Decoded, num((args.pSubpassBeginInfo as Decoded).contents), objects, st);
      return true;
    case 'vkCmdEndRenderPass2':
      // The native check pairs it with a vkCmdBeginRenderPass(2) (VUID-vkCmdEndRenderPass2-None-06171).
      st.rendering = 0;
      st.renderingKey = '';
      return true;
    case 'vkCmdNextSubpass2':
      throw new InvalidStateError(`${name}: the typed API's render passes have one subpass (VUID-vkCmdNextSubpass2-None-03102)`);
    default:
      return false;
  }
}
