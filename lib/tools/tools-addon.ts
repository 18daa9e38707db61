// Loads the tools addon (khronos_loader_tools.node, native/tools/): the natives of the bench and
// of the doctor's probes, shipped beside the product addon but not part of its surface. It is
// loaded after the product addon and handed that addon's path: the benchmarks time the loader the
// product addon exports (its xr*/vk* entry points, on raw handles), and the probes' native log
// records reach the same log stream through it.
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  addonBinaryPath,
  loadNativeAddon,
  nativeArtifactDir,
  type NativeBenchSamples,
  type NativeOpenXrBenchScenario,
  type NativeOpenXrProbeResult,
  type NativeOpenXrProbeTarget,
  type NativeVulkanBenchScenario,
  type NativeVulkanProbeResult,
} from '../native.js';

/** A product-addon object with a raw handle (OpenXrInstance, OpenXrSession, OpenXrSpace), or the handle itself. */
export type NativeHandleArgument = bigint | { readonly handle: bigint };

/** This package's instance, or another loader library (its xrCreateInstance makes the instance: XR_MND_headless, API 1.0). */
export type NativeOpenXrBenchTarget =
  | { readonly command: string; readonly instance: NativeHandleArgument }
  | { readonly command: string; readonly loaderLibrary: string };

export interface NativeToolsAddon {
  /** The product addon whose exported entry points the benchmarks call (done by loadToolsAddon). */
  useLoaderAddon(path: string): void;
  /** `khronos-loader doctor`: load, look up the negotiate symbol and negotiate one runtime; never throws for a broken library. */
  openxrProbeRuntime(runtime: NativeOpenXrProbeTarget & { readonly createInstance?: boolean }): NativeOpenXrProbeResult;
  /** The same for one API layer (its name goes to the negotiate function). */
  openxrProbeApiLayer(layer: NativeOpenXrProbeTarget & { readonly name: string }): NativeOpenXrProbeResult;
  /** Loads and negotiates one Vulkan driver, then lists its physical devices; never throws for what the library does. */
  vulkanProbeDriver(driver: { readonly libraryPath: string; readonly manifestPath?: string }): NativeVulkanProbeResult;
  /** Loads and negotiates one Vulkan layer (manifest names for renamed entry points). */
  vulkanProbeLayer(layer: {
    readonly name: string;
    readonly libraryPath: string;
    readonly manifestPath?: string;
    readonly negotiateFunctionName?: string;
    readonly getInstanceProcAddrName?: string;
    readonly getDeviceProcAddrName?: string;
  }): NativeVulkanProbeResult;
  /** ns per xrLocateSpace through the exported trampoline and through the xrGetInstanceProcAddr pointer. */
  benchOpenXrLocateSpace(instance: NativeHandleArgument, iterations: number, repeats: number): { trampolineNs: number; procAddrNs: number };
  readonly OpenXrBenchScenario: new (target: NativeOpenXrBenchTarget) => NativeOpenXrBenchScenario;
  /** The commands OpenXrBenchScenario can time. */
  openxrBenchCommands(): string[];
  /** A frame's locates in a C loop through the instance's chain (native/tools/bench/openxr_frame_bench.h). */
  benchOpenXrFrameNative(
    instance: NativeHandleArgument,
    session: NativeHandleArgument,
    spaces: readonly NativeHandleArgument[],
    bases: readonly NativeHandleArgument[],
    command: 'xrLocateSpace' | 'xrLocateSpaces',
    time: number,
    iterations: number,
    repeats: number,
  ): NativeBenchSamples;
  /** Without loaderLibrary: this package's exports, working from the plan published with publishVulkanPlan. */
  /** `timingLoop`: which copy of the timed loops (0 or 1; two loaders in one process each get their own). */
  readonly VulkanBenchScenario: new (target: { readonly command: string; readonly loaderLibrary?: string; readonly timingLoop?: 0 | 1 }) => NativeVulkanBenchScenario;
  /** The commands VulkanBenchScenario can time. */
  vulkanBenchCommands(): string[];
  /** The cheapest N-API call taking two numbers: the yardstick for the per-call cost of the per-frame calls. */
  benchEmpty(a: number, b: number): number;
}

let tools: NativeToolsAddon | undefined;

/** The tools addon, beside the product addon (build/Release, prebuilds/<platform>-<arch>, or KHRONOS_LOADER_NATIVE_DIR). */
export function loadToolsAddon(): NativeToolsAddon {
  if (tools === undefined) {
    loadNativeAddon();
    const require = createRequire(import.meta.url);
    const loaded = require(path.join(nativeArtifactDir(), 'khronos_loader_tools.node')) as NativeToolsAddon;
    loaded.useLoaderAddon(addonBinaryPath());
    tools = loaded;
  }
  return tools;
}
