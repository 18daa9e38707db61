// The per-call forms of the Vulkan 1.3 and 1.4 dynamic-state and push-constant commands
// (CommandBuffer.setViewportWithCount, setScissorWithCount, pushConstants2,
// setRenderingAttachmentLocations; docs/usage.md, "Vulkan 1.3 and 1.4 commands per call"): their
// arguments read and checked with the encoder's walked checks (encoder/encoded-checks.ts), and
// whether the device's dispatch table has the command, before any Vulkan call.
import { InvalidArgumentError, InvalidStateError, describeValue } from '../../../core/errors.js';
import { checkUint, type DeviceOwner } from '../device-objects.js';
import { checkAttachmentLocations, checkScissor, checkViewport, type WalkState } from '../encoder/encoded-checks.js';

/** The later commands the per-call methods record, by their bit in the native deviceCommandAvailability answer, and their Vulkan version. */
export const COMMAND_BITS = {
  vkCmdSetViewportWithCount: [1, '1.3'],
  vkCmdSetScissorWithCount: [2, '1.3'],
  vkCmdPushConstants2: [4, '1.4'],
  vkCmdSetRenderingAttachmentLocations: [8, '1.4'],
  vkQueueSubmit2: [16, '1.3'],
} as const;

/** InvalidStateError unless the device's dispatch table has `name` (a device of an older Vulkan version does not: the call would go through NULL). */
export function requireCommand(what: string, device: DeviceOwner, name: keyof typeof COMMAND_BITS): void {
  const [bit, version] = COMMAND_BITS[name];
  if (!device.hasCommand(bit)) throw new InvalidStateError(`${what}: the device has no ${name} (a core command of Vulkan ${version}: create the instance and device with Vulkan ${version} on a driver that has it)`);
}

/** One VkViewport of setViewportWithCount (minDepth 0 and maxDepth 1 when left out). */
export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly minDepth?: number;
  readonly maxDepth?: number;
}

/** One VkRect2D of setScissorWithCount. */
export interface Rect2D {
  readonly offset: { readonly x: number; readonly y: number };
  readonly extent: { readonly width: number; readonly height: number };
}

/** The one element of a WithCount array (the typed API enables no multiViewport: VUID-vkCmdSetViewportWithCount-viewportCount-03395, VUID-vkCmdSetScissorWithCount-scissorCount-03398). */
function only<T>(what: string, name: string, items: readonly T[]): T {
  if (!Array.isArray(items)) throw new InvalidArgumentError(`${what}: ${name} must be an array, got ${describeValue(items)}`, name);
  if (items.length !== 1) throw new InvalidArgumentError(`${what}: ${name} must hold 1 element (the typed API enables no multiViewport), got ${items.length}`, name);
  const item = items[0];
  if (typeof item !== 'object' || item === null) throw new InvalidArgumentError(`${what}: ${name}[0] must be an object, got ${describeValue(item)}`, `${name}[0]`);
  return item;
}

/** The viewport of setViewportWithCount, checked as vkCmdSetViewport's (finite numbers, width above 0, height not 0, depths in [0, 1]). */
export function readViewport(what: string, viewports: readonly Viewport[]): Required<Viewport> {
  const v = only(what, 'viewports', viewports);
  const viewport = { x: v.x, y: v.y, width: v.width, height: v.height, minDepth: v.minDepth ?? 0, maxDepth: v.maxDepth ?? 1 };
  checkViewport(what, viewport, 'viewports[0]');
  return viewport;
}

/** The scissor of setScissorWithCount: integers (offset int32), checked as vkCmdSetScissor's (offset not negative, no overflow). */
export function readScissor(what: string, scissors: readonly Rect2D[]): { x: number; y: number; width: number; height: number } {
  const r = only(what, 'scissors', scissors);
  if (typeof r.offset !== 'object' || r.offset === null || typeof r.extent !== 'object' || r.extent === null) throw new InvalidArgumentError(`${what}: scissors[0] must be { offset: { x, y }, extent: { width, height } }`, 'scissors[0]');
  const { x, y } = r.offset;
  for (const [n, v] of [['x', x], ['y', y]] as const) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x8000_0000 || v > 0x7fff_ffff) throw new InvalidArgumentError(`${what}: scissors[0].offset.${n} must be an int32, got ${describeValue(v)}`, `scissors[0].offset.${n}`);
  }
  checkUint('scissors[0].extent.width', r.extent.width);
  checkUint('scissors[0].extent.height', r.extent.height);
  checkScissor(what, r as unknown as Parameters<typeof checkScissor>[1], 'scissors[0]');
  return { x, y, width: r.extent.width, height: r.extent.height };
}

/** The locations of setRenderingAttachmentLocations as the native call takes them, checked with the encoder's check. */
export function readAttachmentLocations(what: string, locations: readonly number[], st: WalkState, device: DeviceOwner): Uint32Array {
  if (!Array.isArray(locations)) throw new InvalidArgumentError(`${what}: locations must be an array of attachment locations, got ${describeValue(locations)}`, 'locations');
  locations.forEach((l, i) => checkUint(`locations[${i}]`, l));
  checkAttachmentLocations(what, locations, st, device, 'locations', 'locations.length');
  // VUID-VkRenderingAttachmentLocationInfo-colorAttachmentCount-arraylength: the native call passes no empty array.
  if (locations.length === 0) throw new InvalidArgumentError(`${what}: the rendering has no colour attachments to locate`, 'locations');
  requireCommand(what, device, 'vkCmdSetRenderingAttachmentLocations');
  return Uint32Array.from(locations);
}
