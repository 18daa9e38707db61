// A VkImageMemoryBarrier as the typed API takes it (ImageBarrier), checked and flattened into
// eight words: what CommandBuffer.imageBarrier passes to the addon and what CommandEncoder writes
// into its stream (native/vulkan/loader/command_stream.h, ImageBarrier).
import type { ImageBarrier } from './commands.js';
import { checkUint as uint } from './device-objects.js';
import { IMAGE_LAYOUTS } from './image.js';
import { InvalidArgumentError } from '../../core/errors.js';

/** oldLayout, newLayout, srcStageMask, dstStageMask, srcAccessMask, dstAccessMask, baseArrayLayer, layerCount */
export const IMAGE_BARRIER_WORDS = 8;

/** @internal The four masks of a global VkMemoryBarrier (pipelineBarrier): each a uint32 (TypeError otherwise). */
export function checkMemoryBarrierMasks(srcStageMask: number, dstStageMask: number, srcAccessMask: number, dstAccessMask: number): void {
  uint('srcStageMask', srcStageMask);
  uint('dstStageMask', dstStageMask);
  uint('srcAccessMask', srcAccessMask);
  uint('dstAccessMask', dstAccessMask);
}

/** @internal An ImageLayoutName's VkImageLayout value (TypeError for anything else). */
export function imageLayoutValue(name: string, v: unknown): number {
  const value = typeof v === 'string' ? (IMAGE_LAYOUTS as Record<string, number>)[v] : undefined;
  if (value === undefined) throw new InvalidArgumentError(`${name} must be one of ${Object.keys(IMAGE_LAYOUTS).join(', ')}`);
  return value;
}

/** @internal Checks `barrier` (TypeError) and writes its IMAGE_BARRIER_WORDS words at out[at]; layerCount defaults to the layers from baseArrayLayer on. */
export function writeImageBarrier(barrier: ImageBarrier, arrayLayers: number, out: Uint32Array, at: number): void {
  if (typeof barrier !== 'object' || barrier === null) throw new InvalidArgumentError('imageBarrier(image, barrier): barrier must be an object');
  const oldLayout = imageLayoutValue('barrier.oldLayout', barrier.oldLayout);
  const newLayout = imageLayoutValue('barrier.newLayout', barrier.newLayout);
  uint('barrier.srcStageMask', barrier.srcStageMask);
  uint('barrier.dstStageMask', barrier.dstStageMask);
  const srcAccess = barrier.srcAccessMask ?? 0;
  const dstAccess = barrier.dstAccessMask ?? 0;
  uint('barrier.srcAccessMask', srcAccess);
  uint('barrier.dstAccessMask', dstAccess);
  const base = barrier.baseArrayLayer ?? 0;
  const count = barrier.layerCount ?? arrayLayers - base;
  uint('barrier.baseArrayLayer', base);
  uint('barrier.layerCount', count);
  out[at] = oldLayout;
  out[at + 1] = newLayout;
  out[at + 2] = barrier.srcStageMask;
  out[at + 3] = barrier.dstStageMask;
  out[at + 4] = srcAccess;
  out[at + 5] = dstAccess;
  out[at + 6] = base;
  out[at + 7] = count;
}
