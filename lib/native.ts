// Loads the compiled addon through node-gyp-build: the local build (build/Release) when this is
// a source checkout, otherwise the prebuilt binary shipped in prebuilds/<platform>-<arch>/.
// KHRONOS_LOADER_NATIVE_DIR names another folder holding khronos_loader.node and the libraries
// beside it (npm run test:sanitize points it at the sanitizer build).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { emitLog, logLevelFromNative } from './core/log.js';
import { locateAddonBinary } from './native-binary.js';
import type { RegistryHive } from './core/platform/platform.js';
import type { RegistryKeyContents } from './core/platform/windows-registry.js';

/** A shared library opened by the native side (dlopen RTLD_NOW | RTLD_LOCAL). */
export interface NativeLibrary {
  readonly path: string;
  readonly isOpen: boolean;
  /** The symbol's address, or null when the library does not export it. */
  symbolAddress(name: string): bigint | null;
  /** The symbol's address; throws a LibraryError naming the symbol when it is absent. */
  requireSymbolAddress(name: string): bigint;
  /** Drops this object's reference; the library is unloaded when no owner is left. */
  close(): void;
}

/** The plan as the native side takes it (lib/openxr/api/native-instance.ts builds it from an InstancePlan). */
export interface NativeOpenXrPlan {
  readonly runtime: { readonly manifestPath: string; readonly libraryPath: string; readonly negotiateFunctionName: string };
  /** Nearest the application first. `required`: a failure fails the instance (else the layer is left out). */
  readonly apiLayers: readonly {
    readonly name: string;
    readonly manifestPath: string;
    readonly libraryPath: string;
    readonly negotiateFunctionName: string;
    readonly required: boolean;
  }[];
}

/** A loader debug-utils message (XrDebugUtilsMessengerCallbackDataEXT, flattened). */
export interface NativeDebugUtilsMessage {
  readonly severity: number;
  readonly types: number;
  readonly messageId: string;
  readonly functionName: string;
  readonly message: string;
}

export interface NativeOpenXrCreateInfo {
  /**
   * Required (OpenXR has no default, and neither does this loader): at most 127 bytes in UTF-8
   * (XR_MAX_APPLICATION_NAME_SIZE - 1) and no NUL, else XR_ERROR_NAME_INVALID before anything
   * loads; the runtime answers XR_ERROR_NAME_INVALID to an empty one.
   */
  readonly applicationName: string;
  readonly applicationVersion?: number;
  /** Optional; at most 127 bytes in UTF-8 (XR_MAX_ENGINE_NAME_SIZE - 1) and no NUL, else XR_ERROR_NAME_INVALID. */
  readonly engineName?: string;
  readonly engineVersion?: number;
  /** XR_MAKE_VERSION value; default XR_API_VERSION_1_0 (accepted by 1.0 and 1.1 runtimes). */
  readonly apiVersion?: bigint;
  readonly enabledApiLayerNames?: readonly string[];
  readonly enabledExtensionNames?: readonly string[];
  /** Chained into XrInstanceCreateInfo.next as an XrDebugUtilsMessengerCreateInfoEXT (all severities and types). */
  readonly debugMessenger?: (message: NativeDebugUtilsMessage) => void;
}

/** What the exported xrEnumerate* commands answer once published (lib/openxr/api/publish-plan.ts). */
export interface NativeOpenXrPublishedLists {
  readonly apiLayerProperties: readonly { readonly layerName: string; readonly specVersion: number; readonly layerVersion: number; readonly description: string }[];
  readonly instanceExtensions: readonly { readonly name: string; readonly extensionVersion: number }[];
  readonly layerExtensions: Readonly<Record<string, readonly { readonly name: string; readonly extensionVersion: number }[]>>;
}

/** A native OpenXR instance (native/napi/openxr.cc). Failures throw an Error with code 'KL_OPENXR_ERROR' and `xrResult`. */
export interface NativeOpenXrInstance {
  getInstanceProcAddr(name: string): bigint;
  getProperties(): { runtimeName: string; runtimeVersion: bigint };
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  readonly apiLayerNames: string[];
  /** xrCreateDebugUtilsMessengerEXT through the chain; the callback is called asynchronously. Returns the handle. */
  createDebugUtilsMessenger(callback: (message: NativeDebugUtilsMessage) => void, severities: number, types: number): bigint;
  destroyDebugUtilsMessenger(handle: bigint): void;
  submitDebugUtilsMessage(severity: number, types: number, message: string): void;
}

/** The generated bindings' native side: runs kCommands[index] with the arguments in C order (counts left out). */
export interface NativeOpenXrCommands {
  call(index: number, args: readonly unknown[]): unknown;
  /** The XrInstance the bindings are bound to, null for the pre-instance commands only. */
  readonly instance: bigint | null;
}

/** What a doctor probe loads (native/napi/openxr_probe.cc). */
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

/** What vulkanProbeDriver / vulkanProbeLayer answer (native/napi/vulkan_probe.h). */
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

/**
 * A benchmark scenario (native/napi/bench.cc): what one command needs, created through a
 * loader's exported functions; `measure` times the command through the exports ("trampoline")
 * or through the pointer xrGetInstanceProcAddr returned ("pointer"), in one native loop.
 */
/** A function's place independent of where a process loaded it: the shared object and the offset in it. */
export interface PointerOrigin {
  readonly file: string;
  readonly offset: number;
}

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
 * A Vulkan benchmark scenario (native/napi/vulkan_bench.cc): instance, the first physical device,
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
  destroy(): void;
}

export interface NativeAddon {
  readonly napiVersion: number;
  readonly NativeLibrary: new (path: string) => NativeLibrary;
  setLogHandler(handler: ((level: number, source: string, message: string) => void) | null): void;
  openLibraryCount(): number;
  readonly OpenXrInstance: new (plan: NativeOpenXrPlan, createInfo: NativeOpenXrCreateInfo) => NativeOpenXrInstance;
  /** The generated bindings (native/napi/openxr_commands.cc): none, an instance, or a handle the generated xrCreateInstance made. */
  readonly OpenXrCommands: new (instance?: NativeOpenXrInstance | bigint) => NativeOpenXrCommands;
  openxrRuntimeExtensions(runtime: NativeOpenXrPlan['runtime']): { extensionName: string; extensionVersion: number }[];
  /** The loader's exported xrGetInstanceProcAddr (0n: XR_NULL_HANDLE), as native code sees it. */
  openxrGetInstanceProcAddr(instance: bigint, name: string): bigint;
  /** Replaces the plan snapshot the exported xrCreateInstance works from (native/openxr/published_plan.h). */
  openxrPublishPlan(plan: NativeOpenXrPlan, lists?: NativeOpenXrPublishedLists): void;
  /** Windows only (native/napi/windows_registry.h): one registry key, null when it does not exist; throws KL_REGISTRY_ERROR when it cannot be read. */
  windowsRegistryReadKey?(hive: RegistryHive, key: string): RegistryKeyContents | null;
  /** Windows only: the process runs at high integrity (elevated). */
  windowsHighIntegrity?(): boolean;
}

/** The package root: dist/native.js and lib/native.ts both sit one level below it. */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let addon: NativeAddon | undefined;

/**
 * The folder holding the addon binary that node-gyp-build picks (build/Release in a checkout,
 * prebuilds/<platform>-<arch> in the package). The shared libraries that ship with the addon
 * (the simulated runtime, the bundled layers) sit beside it.
 */
export function nativeArtifactDir(): string {
  return path.dirname(addonBinaryPath());
}

/**
 * The addon binary node-gyp-build picks; PrebuildMissingError (one message, no stack) when there is
 * none. KHRONOS_LOADER_NATIVE_DIR names another build's folder (npm run test:sanitize's instrumented one).
 */
export function addonBinaryPath(): string {
  const override = process.env.KHRONOS_LOADER_NATIVE_DIR;
  if (override) return path.resolve(override, 'khronos_loader.node');
  const require = createRequire(import.meta.url);
  const nodeGypBuild = require('node-gyp-build') as { path(dir: string): string };
  return locateAddonBinary(packageRoot, (root) => nodeGypBuild.path(root));
}

export function loadNativeAddon(): NativeAddon {
  if (addon === undefined) {
    const require = createRequire(import.meta.url);
    addon = require(addonBinaryPath()) as NativeAddon;
    // Native log records join the same stream as the TypeScript side's.
    addon.setLogHandler((level, source, message) => emitLog({ level: logLevelFromNative(level), source, message }));
  }
  return addon;
}
