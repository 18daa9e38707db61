// The tools addon (khronos_loader_tools.node, native/tools/): the natives only the bench and the
// doctor use — the probes that load and negotiate one runtime, layer or driver, and the timed
// scenarios of the benchmarks. It ships beside the product addon but is not part of its surface, so
// lib/openxr and lib/vulkan never see it. It is loaded after the product addon and handed that
// addon's path: the benchmarks time the loader the product addon exports (its xr*/vk* entry
// points, on raw handles), and the probes' native log records reach the same log stream through it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { addonBinaryPath, loadNativeAddon, nativeArtifactDir } from '../../core/native/load.js';

/** What a doctor probe loads (native/tools/probes/openxr_probe.cc). */
export interface NativeOpenXrProbeTarget {
  readonly libraryPath: string;
  readonly negotiateFunctionName?: string;
  readonly manifestPath?: string;
}

/** A probe's answer: which stage failed (load: dlopen, symbol: dlsym, negotiate) and why, or the negotiated versions. */
export interface NativeOpenXrProbeResult {
  readonly ok: boolean;
  readonly stage: 'load' | 'symbol' | 'negotiate';
  readonly reason: string;
  /** Set when the negotiate symbol is missing. */
  readonly symbol?: string;
  readonly interfaceVersion?: number;
  /** "major.minor.patch". */
  readonly apiVersion?: string;
  /** Runtimes only: their own instance extensions, or why they could not be listed. */
  readonly extensions?: readonly { readonly extensionName: string; readonly extensionVersion: number }[];
  readonly extensionsError?: string;
  /** Runtimes probed with createInstance: XrInstanceProperties of an instance made directly on the runtime, or why not. */
  readonly runtimeName?: string;
  /** "major.minor.patch". */
  readonly runtimeVersion?: string;
  readonly instanceError?: string;
}

/** What vulkanProbeDriver / vulkanProbeLayer answer (native/tools/probes/vulkan_probe.h). */
export interface NativeVulkanProbeResult {
  readonly ok: boolean;
  readonly stage: 'load' | 'negotiate';
  /** On failure: the loader's message, naming the file, the symbol and the reason. */
  readonly reason: string;
  readonly interfaceVersion?: number;
  /** Drivers: vkEnumerateInstanceVersion's answer, "major.minor.patch". */
  readonly apiVersion?: string;
  /** Drivers: the physical devices of an instance created through this driver alone, or why there are none. */
  readonly devices?: readonly string[];
  readonly devicesError?: string;
}

/** What `OpenXrBenchScenario.measure` returns: one sample per repeat, ns per call (per frame for xrWaitFrame). */
export interface NativeBenchSamples {
  /** Wall-clock ns per call. */
  readonly wallNs: number[];
  /** The calling thread's CPU ns per call (CLOCK_THREAD_CPUTIME_ID). */
  readonly cpuNs: number[];
}

/** A function's place independent of where a process loaded it: the shared object and the offset in it. */
export interface PointerOrigin {
  readonly file: string;
  readonly offset: number;
}

/**
 * A benchmark scenario (native/tools/bench/openxr_bench.cc): what one command needs, created through a
 * loader's exported functions; `measure` times the command through the exports ("trampoline")
 * or through the pointer xrGetInstanceProcAddr returned ("pointer"), in one native loop.
 */
export interface NativeOpenXrBenchScenario {
  measure(mode: 'trampoline' | 'pointer', iterations: number, repeats: number): NativeBenchSamples;
  /** The scenario's handles (0n when the command does not need one): for koffi and other callers. */
  readonly handles: {
    readonly instance: bigint;
    readonly session: bigint;
    /** VIEW reference space (the located one). */
    readonly space: bigint;
    /** LOCAL reference space (the base). */
    readonly baseSpace: bigint;
    readonly actionSet: bigint;
    readonly action: bigint;
  };
  /** The XrTime the per-call loops start from. */
  readonly time: number;
  /** Where the function xrGetInstanceProcAddr handed out lives (shared object and offset), or null. */
  readonly pointerOrigin: PointerOrigin | null;
  destroy(): void;
}

/**
 * A Vulkan benchmark scenario (native/tools/bench/vulkan_bench.cc): instance, the first physical device,
 * a device (and for command-buffer commands a command buffer in the recording state), created
 * through one loader's exports; `measure` times the command through the export or the pointer
 * vkGetDeviceProcAddr returned.
 */
export interface NativeVulkanBenchScenario {
  measure(mode: 'trampoline' | 'pointer', iterations: number, repeats: number): NativeBenchSamples;
  /** Where the function vkGetDeviceProcAddr handed out lives, or null. */
  readonly pointerOrigin: PointerOrigin | null;
  /** Where the loader's own exported vkGetDeviceProcAddr lives (its file is the loader), or null. */
  readonly loaderOrigin: PointerOrigin | null;
  readonly deviceName: string;
  /** The swapchain's present mode for the presentation commands ('IMMEDIATE' or 'MAILBOX'), else ''. */
  readonly presentMode: string;
  destroy(): void;
}

/** What one paced C frame times (native/tools/bench/openxr_paced_bench.cc). */
export type NativePacedRead = 'empty' | 'tiny-read' | 'floats-read' | 'delivery-copy' | 'first-locate' | 'locates' | 'query' | 'views' | 'actions';

/**
 * The paced bench's C side (native/tools/bench/openxr_paced_bench.cc): a headless session begun and
 * focused on this package's instance or on another loader library's, its spaces and action states;
 * `run` is a paced C frame loop timing one read per frame (ns); `handles` let koffi drive the same session.
 */
export interface NativeOpenXrPacedRig {
  /** ns of `what` per paced frame; 'delivery-copy' copies `copyFloats` floats written by another thread after xrWaitFrame. */
  run(what: NativePacedRead, durationMs: number, copyFloats?: number): Float64Array;
  readonly handles: {
    readonly instance: bigint;
    readonly session: bigint;
    readonly local: bigint;
    readonly spaces: readonly bigint[];
    readonly actions: readonly { readonly action: bigint; readonly subactionPath: bigint; readonly type: 'boolean' | 'float' }[];
    /** False when xrWaitFrame gave no display time (the C loop paced itself by a timer). */
    readonly waitFrameTimes: boolean;
    readonly actionsSkipped?: string;
  };
  destroy(): void;
}

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
  readonly OpenXrPacedRig: new (target: ({ readonly instance: NativeHandleArgument } | { readonly loaderLibrary: string }) & { readonly spaces: number }) => NativeOpenXrPacedRig;
  /** The commands OpenXrBenchScenario can time. */
  openxrBenchCommands(): string[];
  /** Without loaderLibrary: this package's exports, working from the plan published with publishVulkanPlan. */
  /** `timingLoop`: which copy of the timed loops (0 or 1; two loaders in one process each get their own). */
  /** `display` (an X server, ":<n>") for the presentation commands: the window is made there. */
  readonly VulkanBenchScenario: new (target: {
    readonly command: string;
    readonly loaderLibrary?: string;
    readonly timingLoop?: 0 | 1;
    readonly display?: string;
  }) => NativeVulkanBenchScenario;
  /** The commands VulkanBenchScenario can time. */
  vulkanBenchCommands(): string[];
  /** The frame bench's C loop through the instance's chain: xrLocateSpace per space, or one xrLocateSpaces, `iterations` times per repeat. */
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
  /**
   * The runtime's own cost of a per-call read: wall ns per call of a C loop of `command` through
   * the instance's chain, with the typed API's handles ([space, base], [tracker, base] or [session, action]).
   */
  benchOpenXrRuntimeCall(
    instance: NativeHandleArgument,
    command: OpenXrRuntimeCallName,
    handles: readonly [NativeHandleArgument, NativeHandleArgument],
    time: number,
    iterations: number,
  ): number;
  /** The cheapest N-API call taking two numbers (the benchmark's yardstick). */
  benchEmpty(a: number, b: number): number;
}

/** The runtime calls benchOpenXrRuntimeCall times, one per per-call read. */
export type OpenXrRuntimeCallName =
  | 'xrLocateSpace'
  | 'xrLocateHandJointsEXT'
  | 'xrGetActionStateBoolean'
  | 'xrGetActionStateFloat'
  | 'xrGetActionStateVector2f'
  | 'xrGetActionStatePose';

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

/** The bench's yardstick addon (native/tools/bench/yardstick): one empty call, plain C, no node-addon-api. */
export interface NativeYardstickAddon {
  /** The cheapest N-API call taking two numbers and returning one. */
  empty(a: number, b: number): number;
}

let yardstick: NativeYardstickAddon | undefined;

/** khronos_napi_yardstick.node beside the tools addon. */
export function loadYardstickAddon(): NativeYardstickAddon {
  if (yardstick === undefined) {
    const require = createRequire(import.meta.url);
    yardstick = require(path.join(nativeArtifactDir(), 'khronos_napi_yardstick.node')) as NativeYardstickAddon;
  }
  return yardstick;
}
