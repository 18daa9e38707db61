// What the Vulkan bench parent asks its child processes (lib/bench/vulkan-child.ts) and what they answer.
import type { PointerOrigin } from '../native.js';
import type { Measurement, MeasurePlan } from './measure-native.js';

export type VulkanBenchCommandName = 'vkGetDeviceQueue' | 'vkCmdPushConstants';

export interface VulkanChildRequest {
  /** 'ours': this package's loader, planned from the child's environment; 'khronos': `libraryPath` dlopened. */
  readonly side: 'ours' | 'khronos';
  readonly libraryPath?: string;
  readonly command: VulkanBenchCommandName;
  readonly plan: MeasurePlan;
}

export type VulkanChildResult =
  | {
      readonly ok: true;
      /** The layers the instance enabled, nearest the application first (ours only: the Khronos loader does not say). */
      readonly layerNames?: readonly string[];
      readonly deviceName: string;
      readonly trampoline: Measurement;
      readonly pointer: Measurement;
      readonly pointerOrigin: PointerOrigin | null;
      /** The loader's own shared object (where its exports live), as dladdr names it; null when unknown. */
      readonly loaderFile: string | null;
    }
  | { readonly ok: false; readonly error: string };
