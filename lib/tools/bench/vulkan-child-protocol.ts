// What the Vulkan bench parent asks its child processes (lib/tools/bench/vulkan-child.ts) and what they answer.
import type { PointerOrigin } from '../native/addon.js';
import type { Measurement, MeasurePlan } from './measure-native.js';

/**
 * The device commands `bench vulkan` times one call at a time (the CLI's --command choices read
 * this list); the last three present to a window on an X server (PRESENT_BENCH_COMMANDS).
 */
export const VULKAN_BENCH_COMMAND_NAMES = ['vkGetDeviceQueue', 'vkCmdPushConstants', 'vkAcquireNextImageKHR+vkQueuePresentKHR', 'vkAcquireNextImageKHR', 'vkQueuePresentKHR'] as const;
export type VulkanBenchCommandName = (typeof VULKAN_BENCH_COMMAND_NAMES)[number];
export type VulkanBenchSide = 'ours' | 'khronos';

/** The commands that present to a window: the bench runs them under an X server of its own. */
export const PRESENT_BENCH_COMMANDS: readonly VulkanBenchCommandName[] = ['vkAcquireNextImageKHR+vkQueuePresentKHR', 'vkAcquireNextImageKHR', 'vkQueuePresentKHR'];
export const presentsToWindow = (command: VulkanBenchCommandName): boolean => PRESENT_BENCH_COMMANDS.includes(command);

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
  /** The X server the presentation commands make their window on (":<n>"). */
  readonly display?: string;
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
      /** The presentation commands' present mode ('IMMEDIATE' or 'MAILBOX'). */
      readonly presentMode?: string;
      readonly sides: Partial<Record<VulkanBenchSide, VulkanSideResult>>;
    }
  | { readonly ok: false; readonly error: string };
