// A Session's swapchains (a session with a Vulkan graphics binding): the formats the runtime
// offers and xrCreateSwapchain. Session's methods delegate here.
import type { Device } from '../../vulkan/api/device.js';
import type { Instance } from './instance.js';
import { callNative, instanceState } from './handles.js';
import type { NativeSession } from '../native/addon.js';
import { Swapchain, swapchainCreateInfo, type SwapchainCreateOptions } from '../vulkan/swapchain.js';
import { InvalidStateError } from '../../core/errors.js';

/** xrEnumerateSwapchainFormats: VkFormat values, the runtime's preference first (a Vulkan session). */
export function swapchainFormats(instance: Instance, session: NativeSession): number[] {
  const s = instanceState(instance);
  return callNative(() => s.api.openxrSwapchainFormats(session));
}

/** xrCreateSwapchain and xrEnumerateSwapchainImages (a session with a Vulkan graphics binding). */
export function createSwapchain(instance: Instance, session: NativeSession, device: Device | undefined, options: SwapchainCreateOptions): Swapchain {
  const info = swapchainCreateInfo(options);
  if (device === undefined) {
    callNative(() => session.handle);
    throw new InvalidStateError('createSwapchain: this session has no graphics binding (create it with { graphics: { vulkan } })');
  }
  const api = instanceState(instance).api;
  const native = callNative(() => new api.OpenXrSwapchain(session, info));
  return new Swapchain(native, device, info);
}
