// CommandBuffer.blitImage's regions (vkCmdBlitImage, docs/usage.md "Vulkan 1.3 and 1.4 commands per
// call"): read into VkImageBlit's members and checked by the encoder's blit check (checkBlit in
// encoder/encoded-checks.ts: layouts, usages, samples, formats' blit features, linear filtering,
// subresources and offsets inside the images), then packed as the native call takes them.
import { InvalidArgumentError, describeValue } from '../../../core/errors.js';
import type { DecodedValue } from '../../../generated/vulkan-encoder.js';
import { checkUint, type DeviceOwner } from '../device-objects.js';
import { checkBlit, type WalkState } from '../encoder/encoded-checks.js';
import { IMAGE_LAYOUTS, Image } from '../image.js';

/** A VkImageSubresourceLayers: aspectMask (default: the image's aspects), mipLevel 0, baseArrayLayer 0 and layerCount 1 by default. */
export interface ImageSubresourceLayers {
  readonly aspectMask?: number;
  readonly mipLevel?: number;
  readonly baseArrayLayer?: number;
  readonly layerCount?: number;
}

/** A VkOffset3D (z 0 by default). */
export interface Offset3D {
  readonly x: number;
  readonly y: number;
  readonly z?: number;
}

/** One VkImageBlit: the box [srcOffsets[0], srcOffsets[1]) of the source scaled onto [dstOffsets[0], dstOffsets[1]) of the destination. */
export interface ImageBlitRegion {
  readonly srcSubresource?: ImageSubresourceLayers;
  readonly srcOffsets: readonly [Offset3D, Offset3D];
  readonly dstSubresource?: ImageSubresourceLayers;
  readonly dstOffsets: readonly [Offset3D, Offset3D];
}

const FILTERS = { nearest: 0, linear: 1 } as const;
/** Words of one VkImageBlit (native/vulkan/addon/vulkan_record_calls.cc asserts the same). */
const BLIT_WORDS = 20;
type Decoded = { readonly [name: string]: DecodedValue };

function subresource(name: string, image: Image, v: ImageSubresourceLayers | undefined): Decoded {
  if (v !== undefined && (typeof v !== 'object' || v === null)) throw new InvalidArgumentError(`blitImage: ${name} must be an object, got ${describeValue(v)}`, name);
  const s = { aspectMask: v?.aspectMask ?? image.aspectMask, mipLevel: v?.mipLevel ?? 0, baseArrayLayer: v?.baseArrayLayer ?? 0, layerCount: v?.layerCount ?? 1 };
  for (const [k, n] of Object.entries(s)) checkUint(`${name}.${k}`, n);
  return s;
}

function offsets(name: string, v: readonly Offset3D[]): Decoded[] {
  if (!Array.isArray(v) || v.length !== 2) throw new InvalidArgumentError(`blitImage: ${name} must be an array of 2 offsets, got ${describeValue(v)}`, name);
  return v.map((o: Offset3D, k) => {
    if (typeof o !== 'object' || o === null) throw new InvalidArgumentError(`blitImage: ${name}[${k}] must be { x, y, z? }, got ${describeValue(o)}`, `${name}[${k}]`);
    const p = { x: o.x, y: o.y, z: o.z ?? 0 };
    for (const [c, n] of Object.entries(p)) {
      if (typeof n !== 'number' || !Number.isInteger(n) || n < -0x8000_0000 || n > 0x7fff_ffff) throw new InvalidArgumentError(`blitImage: ${name}[${k}].${c} must be an int32, got ${describeValue(n)}`, `${name}[${k}].${c}`);
    }
    return p;
  });
}

/**
 * The arguments of blitImage checked (before any Vulkan call) and packed: the layouts' and filter's
 * values and the regions' words (20 a region, VkImageBlit's layout).
 */
export function readBlit(src: Image, srcLayout: string, dst: Image, dstLayout: string, regions: readonly ImageBlitRegion[], filter: string, st: WalkState, device: DeviceOwner): { srcLayout: number; dstLayout: number; filter: number; words: Uint32Array } {
  const layout = (name: string, v: string): number => {
    if (typeof v !== 'string' || !Object.hasOwn(IMAGE_LAYOUTS, v)) throw new InvalidArgumentError(`blitImage: ${name} must be an image layout name ('transfer-src-optimal', 'transfer-dst-optimal' or 'general'), got ${describeValue(v)}`, name);
    return IMAGE_LAYOUTS[v as keyof typeof IMAGE_LAYOUTS];
  };
  const s = layout('srcLayout', srcLayout);
  const d = layout('dstLayout', dstLayout);
  if (typeof filter !== 'string' || !Object.hasOwn(FILTERS, filter)) throw new InvalidArgumentError(`blitImage: filter must be 'nearest' or 'linear', got ${describeValue(filter)}`, 'filter');
  const f = FILTERS[filter as keyof typeof FILTERS];
  // VUID-vkCmdBlitImage-regionCount-arraylength
  if (!Array.isArray(regions) || regions.length === 0) throw new InvalidArgumentError(`blitImage: regions must be a non-empty array of regions, got ${describeValue(regions)}`, 'regions');
  const decoded = regions.map((r: ImageBlitRegion, i) => {
    if (typeof r !== 'object' || r === null) throw new InvalidArgumentError(`blitImage: regions[${i}] must be an object, got ${describeValue(r)}`, `regions[${i}]`);
    return { srcSubresource: subresource(`regions[${i}].srcSubresource`, src, r.srcSubresource), srcOffsets: offsets(`regions[${i}].srcOffsets`, r.srcOffsets), dstSubresource: subresource(`regions[${i}].dstSubresource`, dst, r.dstSubresource), dstOffsets: offsets(`regions[${i}].dstOffsets`, r.dstOffsets) };
  });
  checkBlit('blitImage', src, s, dst, d, f, decoded, st, device);
  const words = new Uint32Array(BLIT_WORDS * decoded.length);
  decoded.forEach((r, i) => {
    const at = i * BLIT_WORDS;
    for (const [side, base] of [['src', 0], ['dst', 10]] as const) {
      const sub = r[`${side}Subresource`] as { aspectMask: number; mipLevel: number; baseArrayLayer: number; layerCount: number };
      words.set([sub.aspectMask, sub.mipLevel, sub.baseArrayLayer, sub.layerCount], at + base);
      (r[`${side}Offsets`] as { x: number; y: number; z: number }[]).forEach((o, k) => words.set([o.x >>> 0, o.y >>> 0, o.z >>> 0], at + base + 4 + 3 * k));
    }
  });
  return { srcLayout: s, dstLayout: d, filter: f, words };
}
