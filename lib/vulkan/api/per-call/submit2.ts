// Queue.submit2's arguments (vkQueueSubmit2, Vulkan 1.3 synchronization2; docs/usage.md "Vulkan 1.3
// and 1.4 commands per call"): read and checked as Queue.submit checks its own (each command buffer
// ended, of this device, not pending, of the queue's family; the fence unsignaled and not in flight;
// a waited semaphore with a signal pending, a signalled one without), plus the stage masks
// (VkPipelineStageFlags2 of Vulkan 1.3) and the synchronization2 feature, before any Vulkan call.
import { InvalidArgumentError, InvalidStateError, describeValue } from '../../../core/errors.js';
import { Fence, Semaphore, type DeviceOwner } from '../device-objects.js';
import { KNOWN_STAGES2 } from '../queries.js';
import { requireCommand } from './later-commands.js';

/** A semaphore of submit2 and the VkPipelineStageFlags2 its wait or signal applies to (default ALL_COMMANDS). */
export interface SemaphoreSubmit {
  readonly semaphore: Semaphore;
  readonly stageMask?: bigint | number;
}

/** submit2's semaphores: waited before, signalled after the command buffers. */
export interface Submit2Semaphores {
  readonly wait?: readonly SemaphoreSubmit[];
  readonly signal?: readonly SemaphoreSubmit[];
}

/** What submit2 hands the native call, and the objects it marks submitted. */
export interface CheckedSubmit2 {
  readonly waits: Semaphore[];
  readonly waitStages: bigint[];
  readonly signals: Semaphore[];
  readonly signalStages: bigint[];
}

const ALL_COMMANDS = 0x10000n;
const HOST = 0x4000n;

function semaphores(name: string, list: readonly SemaphoreSubmit[] | undefined, usable: (name: string, v: unknown) => Semaphore): { items: Semaphore[]; stages: bigint[] } {
  const items: Semaphore[] = [];
  const stages: bigint[] = [];
  if (list === undefined) return { items, stages };
  if (!Array.isArray(list)) throw new InvalidArgumentError(`submit2: ${name} must be an array of { semaphore, stageMask? }, got ${describeValue(list)}`, name);
  list.forEach((e: SemaphoreSubmit, i) => {
    if (typeof e !== 'object' || e === null) throw new InvalidArgumentError(`submit2: ${name}[${i}] must be { semaphore, stageMask? }, got ${describeValue(e)}`, `${name}[${i}]`);
    const s = usable(`semaphores.${name}[${i}].semaphore`, e.semaphore);
    const raw = e.stageMask ?? ALL_COMMANDS;
    const stage = typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 ? BigInt(raw) : raw;
    // VUID-VkSemaphoreSubmitInfo-stageMask-parameter (Vulkan 1.3 stages), -stageMask-03929 and kin (no HOST stage)
    if (typeof stage !== 'bigint' || stage < 0n || (stage & ~KNOWN_STAGES2) !== 0n || (stage & HOST) !== 0n) {
      throw new InvalidArgumentError(`submit2: semaphores.${name}[${i}].stageMask must name Vulkan 1.3 pipeline stages (VkPipelineStageFlagBits2) other than HOST, got ${describeValue(raw)}`, `semaphores.${name}[${i}].stageMask`);
    }
    // VUID-vkQueueSubmit2-semaphore-03873 and kin: a binary semaphore once per batch side (a second wait would never end).
    if (items.includes(s)) throw new InvalidArgumentError(`submit2: semaphores.${name}[${i}] names a semaphore listed before it`, `semaphores.${name}[${i}].semaphore`);
    items.push(s);
    stages.push(stage);
  });
  return { items, stages };
}

/**
 * The semaphores of submit2 read and checked, the fence's and the device's state checked (the
 * command buffers are the caller's: CommandBuffer.checkSubmittable).
 */
export function checkSubmit2(device: DeviceOwner, fence: Fence | undefined, options: Submit2Semaphores | undefined, usable: (name: string, v: unknown) => Semaphore): CheckedSubmit2 {
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new InvalidArgumentError(`submit2: semaphores must be an object, got ${describeValue(options)}`, 'semaphores');
  const wait = semaphores('wait', options?.wait, usable);
  const signal = semaphores('signal', options?.signal, usable);
  // VUID-vkQueueSubmit2-synchronization2-03866
  if (device.graphicsFeatures.synchronization2 === false) throw new InvalidStateError('submit2: needs the synchronization2 feature, and the device was created without it (createDevice({ enabledFeatures: { synchronization2: true } }), or queue.submit)');
  requireCommand('submit2', device, 'vkQueueSubmit2');
  if (fence !== undefined) fence.checkSubmittable();
  for (const s of wait.items) s.checkWaitable();
  for (const s of signal.items) s.checkSignalable(wait.items.includes(s));
  return { waits: wait.items, waitStages: wait.stages, signals: signal.items, signalStages: signal.stages };
}
