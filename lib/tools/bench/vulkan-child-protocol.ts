// What the Vulkan bench parent asks its child processes (lib/tools/bench/vulkan-child.ts) and what they answer.
import type { PointerOrigin } from '../native/addon.js';
import type { Measurement, MeasurePlan } from './measure-native.js';

/** The device commands `bench vulkan` times one call at a time (the CLI's --command choices read this list). */
export const VULKAN_BENCH_COMMAND_NAMES = ['vkGetDeviceQueue', 'vkCmdPushConstants'] as const;
export type VulkanBenchCommandName = (typeof VULKAN_BENCH_COMMAND_NAMES)[number];
export type VulkanBenchSide = 'ours' | 'khronos';

export interface VulkanChildRequest {
  /**
   * The loaders this process sets up and times, in this order ('ours': this package's loader,
   * planned from the child's environment; 'khronos': `khronosLibrary` dlopened). Both in one
   * process share the driver's and the layers' code, so only the loaders differ between them.
   */
  readonly sides: readonly VulkanBenchSide[];
  readonly khronosLibrary?: string;
  readonly command: VulkanBenchCommandName;
  readonly plan: MeasurePlan;
}

/** One loader's cells in a child process, or why that loader could not be timed there. */
export type VulkanSideResult =
  | {
      readonly ok: true;
      readonly trampoline: Measurement;
      readonly pointer: Measurement;
      readonly pointerOrigin: PointerOrigin | null;
      /** The loader's own shared object (where its exports live), as dladdr names it; null when unknown. */
      readonly loaderFile: string | null;
    }
  | { readonly ok: false; readonly error: string };

export type VulkanChildResult =
  | {
      readonly ok: true;
      /** The layers our instance enabled, nearest the application first (the Khronos loader does not say). */
      readonly layerNames?: readonly string[];
      readonly deviceName?: string;
      readonly sides: Partial<Record<VulkanBenchSide, VulkanSideResult>>;
    }
  | { readonly ok: false; readonly error: string };
