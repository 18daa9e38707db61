// A VkImageMemoryBarrier as the typed API takes it (ImageBarrier), checked and flattened into
// eight words: what CommandBuffer.imageBarrier passes to the addon and what CommandEncoder writes
// into its stream (native/vulkan/loader/command_stream.h, ImageBarrier).
import type { ImageBarrier } from './commands.js';
import { checkUint as uint } from './device-objects.js';
import { IMAGE_LAYOUTS } from './image.js';
import { InvalidArgumentError } from '../../core/errors.js';

/** oldLayout, newLayout, srcStageMask, dstStageMask, srcAccessMask, dstAccessMask, baseArrayLayer, layerCount */
export const IMAGE_BARRIER_WORDS = 8;

/**
 * @internal The four masks of a global VkMemoryBarrier (pipelineBarrier): each a uint32; without
 * synchronization2 neither stage mask 0 (VUID-vkCmdPipelineBarrier-srcStageMask-03937,
 * -dstStageMask-03937); each Vulkan 1.0 access bit supported by a stage of its mask
 * (VUID-vkCmdPipelineBarrier-srcAccessMask-02815, -dstAccessMask-02816; Vulkan spec,
 * "Access Types", the table of supported access types); only Vulkan 1.0 bits.
 */
export function checkMemoryBarrierMasks(srcStageMask: number, dstStageMask: number, srcAccessMask: number, dstAccessMask: number, synchronization2 = false): void {
  uint('srcStageMask', srcStageMask);
  uint('dstStageMask', dstStageMask);
  uint('srcAccessMask', srcAccessMask);
  uint('dstAccessMask', dstAccessMask);
  checkStageAccess('srcStageMask', srcStageMask, 'srcAccessMask', srcAccessMask, synchronization2);
  checkStageAccess('dstStageMask', dstStageMask, 'dstAccessMask', dstAccessMask, synchronization2);
}

// VkPipelineStageFlagBits of Vulkan 1.0: the shader stages, and what ALL_GRAPHICS (0x8000) stands for.
const SHADER_STAGES = 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x800;
const GRAPHICS_STAGES = 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400;
// Per Vulkan 1.0 VkAccessFlagBits bit (0x1 … 0x4000): the stages that support it. MEMORY_READ and MEMORY_WRITE (0x8000, 0x10000): any.
const ACCESS_STAGES: readonly number[] = [
  0x2, // INDIRECT_COMMAND_READ: DRAW_INDIRECT
  0x4, // INDEX_READ: VERTEX_INPUT
  0x4, // VERTEX_ATTRIBUTE_READ: VERTEX_INPUT
  SHADER_STAGES, // UNIFORM_READ
  0x80, // INPUT_ATTACHMENT_READ: FRAGMENT_SHADER
  SHADER_STAGES, // SHADER_READ
  SHADER_STAGES, // SHADER_WRITE
  0x400, // COLOR_ATTACHMENT_READ: COLOR_ATTACHMENT_OUTPUT
  0x400, // COLOR_ATTACHMENT_WRITE
  0x100 | 0x200, // DEPTH_STENCIL_ATTACHMENT_READ: EARLY and LATE_FRAGMENT_TESTS
  0x100 | 0x200, // DEPTH_STENCIL_ATTACHMENT_WRITE
  0x1000, // TRANSFER_READ: TRANSFER
  0x1000, // TRANSFER_WRITE
  0x4000, // HOST_READ: HOST
  0x4000, // HOST_WRITE
];

function checkStageAccess(stageName: string, stages: number, accessName: string, access: number, synchronization2: boolean): void {
  if (stages === 0 && !synchronization2) throw new InvalidArgumentError(`pipelineBarrier: ${stageName} must not be 0 without the synchronization2 feature`, stageName);
  // Bits of extensions need their features, which a typed device does not enable (VUID-vkCmdPipelineBarrier-srcStageMask-parameter, VUID-VkMemoryBarrier-srcAccessMask-parameter and kin).
  if ((stages & ~0x1ffff) !== 0 || (access & ~0x1ffff) !== 0) throw new InvalidArgumentError(`pipelineBarrier: ${stageName} and ${accessName} must name Vulkan 1.0 stages and accesses (bits of 0x1ffff), got 0x${stages.toString(16)} and 0x${access.toString(16)}`, stageName);
  if ((stages & 0x10000) !== 0) return; // ALL_COMMANDS: every access
  const expanded = (stages & 0x8000) !== 0 ? stages | GRAPHICS_STAGES : stages;
  for (let bit = 0; bit < ACCESS_STAGES.length; bit++) {
    if ((access & (1 << bit)) !== 0 && (ACCESS_STAGES[bit]! & expanded) === 0) {
      throw new InvalidArgumentError(`pipelineBarrier: ${accessName} bit 0x${(1 << bit).toString(16)} is not supported by any stage of ${stageName} 0x${stages.toString(16)} (Vulkan spec, "Access Types")`, accessName);
    }
  }
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
