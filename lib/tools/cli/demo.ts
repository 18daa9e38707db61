// khronos-loader demo (npm run demo): the package's main job, end to end. A frame loop at the
// simulated runtime's display rate (90 Hz) — or on any runtime (--runtime <name|manifest>, a name
// from `khronos-loader runtimes` or a manifest path, e.g. Monado's), in the mode runFrameLoop finds
// there — through this loader, with the bundled
// pass-through layer and, when installed, the Khronos core_validation layer; it prints frames
// rendered and missed, event-loop lag and what each per-frame call costs from JavaScript.
// --vulkan: the session renders through Vulkan (XR_KHR_vulkan_enable2, this package's Vulkan
// loader, VK_LAYER_KHRONOS_validation when installed): each eye cleared to a colour that changes
// every frame; on the simulated runtime the frames it received are checked against what was drawn.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createHostPlatform } from '../../core/platform/host.js';
import { createPassthroughLayers } from '../../openxr/bundled-layers.js';
import { discover } from '../../openxr/discovery/discover.js';
import { describeFrameLoopMode, runFrameLoop } from '../../openxr/api/frame-loop.js';
import { createLoader } from '../../openxr/loader.js';
import { nativeRuntimeExtensions } from '../../openxr/native/plan.js';
import { simulatedRuntime } from '../../openxr/simulated-runtime.js';
import { POSE_FLOATS, VIEW_FLOATS } from '../../openxr/api/types.js';
import { expectedElf, readElfHeader } from '../doctor/elf.js';
import type { Session } from '../../openxr/api/session.js';
import type { SubmittedPixel } from '../../openxr/simulated-runtime.js';
import { OpenXrError } from '../../openxr/errors.js';
import type { VulkanGraphics } from '../../openxr/vulkan/graphics.js';
import { createLoader as createVulkanLoader, type VulkanLoader } from '../../vulkan/loader.js';
import { publishVulkanPlan } from '../../vulkan/api/instance.js';
import { provideProcessVulkanLoader, VulkanProcessLoaderError } from '../../vulkan/api/process-loader.js';
import { EyeColourRenderer, type EyeRendererTimes, type SubmittedPixelCheck } from './vulkan-eyes.js';
import { drainSubmittedPixels } from '../../openxr/simulated-runtime.js';
import { UnavailableError } from '../../core/errors.js';

export const CORE_VALIDATION_LAYER = 'XR_APILAYER_LUNARG_core_validation';
export const VULKAN_VALIDATION_LAYER = 'VK_LAYER_KHRONOS_validation';
const OPTIONAL_EXTENSIONS = ['XR_KHR_convert_timespec_time', 'XR_FB_display_refresh_rate'];
// VkDebugUtilsMessageSeverityFlagBitsEXT: WARNING and ERROR are what validation reports.
const VK_SEVERITY_WARNING_OR_ERROR = 0x100 | 0x1000;

export interface DemoOptions {
  /** Default 5. */
  readonly seconds?: number;
  /** The simulated display rate (SIMXR_DISPLAY_HZ), default 90. */
  readonly hz?: number;
  /** The runtime to run on instead of the simulated one: a manifest path or a name listRuntimes() gives (createLoader({ runtime })). */
  readonly runtime?: string;
  /** Bundled pass-through layers to stack, default 1. */
  readonly passthroughLayers?: number;
  /** 'auto' (default): use core_validation when it is installed. */
  readonly coreValidation?: boolean | 'auto';
  /** The environment discovery reads (default process.env); XR_API_LAYER_PATH is set on a copy. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Render through Vulkan (XR_KHR_vulkan_enable2) instead of a headless session. */
  readonly vulkan?: boolean;
  /** The eye images' width and height in the Vulkan mode, default 256. */
  readonly eyeSize?: number;
  /** 'auto' (default): put VK_LAYER_KHRONOS_validation in the Vulkan chain when it is installed. */
  readonly vulkanValidation?: boolean | 'auto';
}

/** What the Vulkan mode adds to the result. */
export interface VulkanDemoResult {
  readonly deviceName: string;
  /** The swapchains' VkFormat. */
  readonly format: number;
  readonly eyeSize: number;
  readonly validation: 'on' | 'not installed' | 'off';
  /** Warnings and errors VK_LAYER_KHRONOS_validation reported for the run (its messenger's). */
  readonly validationMessages: readonly string[];
  readonly framesDrawn: number;
  /** Mean ns per call from JavaScript. */
  readonly nsPerCall: EyeRendererTimes;
  /** The simulated runtime's readback against what was drawn; null on runtimes without it. */
  readonly pixels: SubmittedPixelCheck | null;
  /** Which libvulkan.so.1 the process has: this package's (provided before the runtime loaded, so a
   * runtime that links libvulkan.so.1, such as Monado, uses this loader too), or why not. */
  readonly processLoader: string;
}

export interface DemoResult {
  readonly runtimeName: string;
  readonly apiLayers: readonly string[];
  readonly coreValidation: 'on' | 'not installed' | 'off';
  /**
   * 'elevated': the bundled pass-through layers were left out, since an elevated process's loader
   * ignores XR_API_LAYER_PATH (as the Khronos loader does), the only way the demo can offer them.
   */
  readonly passthroughLayers: 'on' | 'off' | 'elevated';
  /** The runtime manifest the demo ran on. */
  readonly runtimeManifest: string;
  /** The rate frames ran at (the runtime's, or runFrameLoop's timer). */
  readonly hz: number;
  /** How runFrameLoop ran (describeFrameLoopMode). */
  readonly frameLoop: string;
  readonly seconds: number;
  readonly frames: number;
  readonly rendered: number;
  readonly missed: number;
  /** missed / (frames + missed), percent. */
  readonly missedPercent: number;
  /** Event-loop lag in ms; null: not measured, where monitorEventLoopDelay() does not record its timer's intervals (Bun, Deno: eventLoopLag()). */
  readonly lagP50Ms: number | null;
  readonly lagP99Ms: number | null;
  readonly lagMaxMs: number | null;
  /**
   * Mean ns per call from JavaScript, per kind, over the run (each timed with performance.now());
   * null for calls that did not run (begin/end frame on a runtime that refuses them headless).
   */
  readonly nsPerCall: { readonly beginFrame: number | null; readonly locateViews: number; readonly locate: number; readonly endFrame: number | null };
  /** Mean over the calls that ran. */
  readonly nsPerFrameCall: number;
  /** The Vulkan mode's figures (absent for a headless run). */
  readonly vulkan?: VulkanDemoResult;
}

const LAG_RESOLUTION_MS = 1;

/** The part of an event-loop-delay histogram the demo reads (node:perf_hooks' IntervalHistogram). */
export interface LagHistogram {
  readonly count: number;
  readonly max: number;
  percentile(percentile: number): number;
}

/** Event-loop lag in milliseconds: p50, p99 and the largest. */
export interface EventLoopLag {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/**
 * The lag a monitorEventLoopDelay() histogram with a `resolutionMs` timer recorded, or null where it
 * measured none. Node's histogram records each interval between the timer's callbacks, so the lag
 * is what exceeds the resolution, and at least half of the intervals reach it. A histogram that
 * recorded nothing, or whose median sample is under half the resolution, did not record the
 * timer's intervals (Bun's and Deno's record other, shorter samples: docs/platforms.md, "Bun and
 * Deno"); subtracting the resolution from those would print a lag of 0.000 ms that nobody measured.
 */
export function eventLoopLag(histogram: LagHistogram, resolutionMs: number = LAG_RESOLUTION_MS): EventLoopLag | null {
  if (!(histogram.count > 0) || !(histogram.percentile(50) >= (resolutionMs * 1e6) / 2)) return null;
  const lag = (intervalNs: number) => Math.max(0, intervalNs / 1e6 - resolutionMs);
  return { p50Ms: lag(histogram.percentile(50)), p99Ms: lag(histogram.percentile(99)), maxMs: lag(histogram.max) };
}

/**
 * False only for a library known to be built for another CPU than this process's: a multiarch
 * system (or an emulated Node) may have the layer installed for another architecture only.
 */
function builtForThisCpu(libraryPath: string): boolean {
  const want = expectedElf();
  const read = readElfHeader(libraryPath);
  return want === undefined || read.kind !== 'elf' || (read.header.machine === want.machine && read.header.bits === want.bits);
}

function findCoreValidation(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const found = discover({ platform: createHostPlatform({ env }), logWriter: () => {} }).apiLayers.find((l) => l.name === CORE_VALIDATION_LAYER);
  return found === undefined || !builtForThisCpu(found.libraryPath) ? undefined : path.dirname(found.manifestPath);
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const seconds = options.seconds ?? 5;
  const hz = options.hz ?? 90;
  const baseEnv = options.env ?? process.env;
  const wantValidation = options.coreValidation ?? 'auto';
  const validationDir = wantValidation === false ? undefined : findCoreValidation(baseEnv);
  if (wantValidation === true && validationDir === undefined) throw new UnavailableError(`${CORE_VALIDATION_LAYER} is not installed`);

  const elevated = createHostPlatform({ env: baseEnv }).elevated;
  const layers = createPassthroughLayers(elevated ? 0 : (options.passthroughLayers ?? 1));
  const env = {
    ...baseEnv,
    XR_API_LAYER_PATH: [layers.folder, ...(validationDir ? [validationDir] : [])].join(path.delimiter),
  };
  // The loader reads its own environment copy; the runtime reads the process's (SIMXR_DISPLAY_HZ),
  // so that one variable is set for the moment the instance is created.
  const savedHz = process.env.SIMXR_DISPLAY_HZ;
  process.env.SIMXR_DISPLAY_HZ = String(hz);
  let instance;
  let runtimeManifest: string;
  let processLoader = 'not provided';
  let vulkanSetup: VulkanDemoSetup | undefined;
  try {
    // The application's choice of runtime, for this loader only (the demo's default: the simulated one).
    const loader = createLoader({ platform: createHostPlatform({ env }), runtime: options.runtime ?? simulatedRuntime(), runtimeExtensions: nativeRuntimeExtensions });
    runtimeManifest = loader.discover().runtime?.manifestPath ?? '';
    // Frame times and the display rate from the runtime where it offers them (runFrameLoop uses
    // them when xrWaitFrame does not pace a headless session).
    const offered = new Set(loader.enumerateInstanceExtensionProperties().map((e) => e.name));
    // A runtime that calls the libvulkan.so.1 it links against with the application's instance
    // (Monado) needs this package's loader to be that library, before the runtime is loaded.
    // It also makes its own Vulkan instance during xrCreateInstance, from the published plan.
    if (options.vulkan === true) {
      processLoader = provideProcessLoaderForDemo();
      vulkanSetup = vulkanLoaderForDemo(env, options.vulkanValidation ?? 'auto');
      publishVulkanPlan(vulkanSetup.loader.planInstance({ enabledLayerNames: vulkanSetup.layerNames, enabledExtensionNames: ['VK_EXT_debug_utils'] }));
    }
    instance = loader.createInstance({
      applicationName: 'khronos-loader demo',
      enabledApiLayerNames: [...(validationDir ? [CORE_VALIDATION_LAYER] : []), ...layers.names],
      enabledExtensionNames: [options.vulkan === true ? 'XR_KHR_vulkan_enable2' : 'XR_MND_headless', ...OPTIONAL_EXTENSIONS.filter((e) => offered.has(e))],
    });
  } catch (error) {
    // No instance (an unknown runtime name, a runtime that fails): the layers' temporary folder goes now.
    layers.dispose();
    throw error;
  } finally {
    if (savedHz === undefined) delete process.env.SIMXR_DISPLAY_HZ;
    else process.env.SIMXR_DISPLAY_HZ = savedHz;
  }
  let graphics: VulkanGraphics | undefined;
  let session: Session | undefined;
  try {
    const system = instance.getSystem('head-mounted-display');
    const vulkanValidation: VulkanDemoResult['validation'] = vulkanSetup?.validation ?? 'off';
    if (vulkanSetup !== undefined) {
      graphics = instance.createVulkanGraphics(system, {
        loader: vulkanSetup.loader,
        applicationName: 'khronos-loader demo',
        enabledLayerNames: vulkanSetup.layerNames,
        enabledExtensionNames: ['VK_EXT_debug_utils'],
      });
      graphics.instance.startDebugMessenger();
      session = instance.createSession(system, { graphics: { vulkan: graphics } });
    } else {
      session = instance.createSession(system, { headless: true });
    }
    const running: Session = session;
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const views = new Float32Array(session.viewCount() * VIEW_FLOATS);
    const head = new Float32Array(POSE_FLOATS);
    const total = { beginFrame: 0, locateViews: 0, locate: 0, endFrame: 0 };
    let timedFrames = 0;
    const eyeSize = options.eyeSize ?? 256;
    const renderer = graphics === undefined ? undefined : new EyeColourRenderer(session, graphics, local, eyeSize, views, { kind: 'clear' }, { timeCalls: true });

    // The histogram records the interval between its 1 ms timer's callbacks; the lag is what
    // exceeds that interval.
    const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
    lag.enable();
    const stats = await runFrameLoop(session, {
      durationMs: seconds * 1000,
      timeCalls: true,
      onFrame: (frame) => {
        if (frame.predictedDisplayTime === 0n) return renderer?.render(frame); // no frame times from this runtime: nothing to locate at
        const t0 = performance.now();
        running.locateViews(local, frame.predictedDisplayTime, views);
        const t1 = performance.now();
        view.locate(local, frame.predictedDisplayTime, head);
        const t2 = performance.now();
        total.locateViews += t1 - t0;
        total.locate += t2 - t1;
        timedFrames++;
        return renderer?.render(frame);
      },
    });
    lag.disable();
    const lagMeasured = eventLoopLag(lag);

    const perCall = (ms: number, n: number) => (n === 0 ? 0 : (ms * 1e6) / n);
    const nsPerCall = {
      beginFrame: stats.nsPerBeginFrame ?? null,
      endFrame: stats.nsPerEndFrame ?? null,
      locateViews: perCall(total.locateViews, timedFrames),
      locate: perCall(total.locate, timedFrames),
    };
    const ran = Object.values(nsPerCall).filter((v): v is number => v !== null);
    const runtimeName = instance.getProperties().runtimeName;
    const apiLayers = instance.apiLayerNames;
    let vulkan: VulkanDemoResult | undefined;
    if (renderer !== undefined && graphics !== undefined) {
      graphics.device.waitIdle();
      const pixels = drained(session);
      const pixelCheck = pixels === null ? null : renderer.check(pixels);
      const messages = graphics.instance.takeDebugMessages().filter((m) => (m.severity & VK_SEVERITY_WARNING_OR_ERROR) !== 0);
      vulkan = {
        deviceName: graphics.physicalDevice.properties.deviceName,
        format: renderer.format,
        eyeSize,
        validation: vulkanValidation,
        validationMessages: messages.map((m) => `${m.messageIdName}: ${m.message}`),
        framesDrawn: renderer.framesDrawn,
        nsPerCall: renderer.times(),
        pixels: pixelCheck,
        processLoader,
      };
    }
    return {
      runtimeName,
      apiLayers,
      coreValidation: validationDir ? 'on' : wantValidation === false ? 'off' : 'not installed',
      passthroughLayers: elevated ? 'elevated' : layers.names.length > 0 ? 'on' : 'off',
      runtimeManifest,
      hz: stats.mode?.displayRateHz ?? hz,
      frameLoop: describeFrameLoopMode(stats.mode),
      seconds,
      frames: stats.frames,
      rendered: stats.rendered,
      missed: stats.missed,
      missedPercent: (100 * stats.missed) / Math.max(1, stats.frames + stats.missed),
      lagP50Ms: lagMeasured?.p50Ms ?? null,
      lagP99Ms: lagMeasured?.p99Ms ?? null,
      lagMaxMs: lagMeasured?.maxMs ?? null,
      nsPerCall,
      nsPerFrameCall: ran.reduce((a, b) => a + b, 0) / ran.length,
      ...(vulkan !== undefined && { vulkan }),
    };
  } finally {
    // The session before the Vulkan device it renders with, the Vulkan objects before the XR instance.
    if (session !== undefined && !session.isDestroyed) session.destroy();
    if (graphics !== undefined && !graphics.instance.isDestroyed) graphics.instance.destroy();
    instance.destroy();
    layers.dispose();
  }
}

const fmt = (v: number, digits = 2) => v.toFixed(digits);

function formatLag(r: DemoResult): string {
  if (r.lagP50Ms === null || r.lagP99Ms === null || r.lagMaxMs === null) {
    return 'lag not measured: this runtime\'s monitorEventLoopDelay() does not record its timer\'s intervals (waitFrame runs off the JavaScript thread)';
  }
  return `lag p50 ${fmt(r.lagP50Ms, 3)} ms, p99 ${fmt(r.lagP99Ms, 3)} ms, max ${fmt(r.lagMaxMs, 3)} ms (waitFrame runs off the JavaScript thread)`;
}
const fmtCall = (v: number | null) => (v === null ? 'skipped' : fmt(v, 0));

/** The simulated runtime's readback records; null where the runtime offers no readback. */
function drained(session: Session): SubmittedPixel[] | null {
  try {
    return drainSubmittedPixels(session);
  } catch (error) {
    if (error instanceof OpenXrError && error.result === 'XR_ERROR_FUNCTION_UNSUPPORTED') return null;
    throw error;
  }
}

interface VulkanDemoSetup {
  readonly loader: VulkanLoader;
  readonly layerNames: readonly string[];
  readonly validation: VulkanDemoResult['validation'];
}

/** The Vulkan loader for --vulkan, with VK_LAYER_KHRONOS_validation when installed (or asked for). */
function vulkanLoaderForDemo(env: NodeJS.ProcessEnv, want: boolean | 'auto'): VulkanDemoSetup {
  const loader = createVulkanLoader({ platform: createHostPlatform({ env }) });
  const installed = want !== false && loader.enumerateInstanceLayerProperties().some((l) => l.layerName === VULKAN_VALIDATION_LAYER);
  if (want === true && !installed) throw new UnavailableError(`${VULKAN_VALIDATION_LAYER} is not installed`);
  return { loader, layerNames: installed ? [VULKAN_VALIDATION_LAYER] : [], validation: installed ? 'on' : want === false ? 'off' : 'not installed' };
}

/** provideProcessVulkanLoader() for --vulkan; a refusal (another libvulkan.so.1 already loaded,
 * not Linux) is reported, not fatal: runtimes that use the application's vkGetInstanceProcAddr
 * (the simulated one) render without it, and createVulkanGraphics() refuses those that need it. */
function provideProcessLoaderForDemo(): string {
  try {
    const state = provideProcessVulkanLoader();
    return state.kind === 'this-package' ? `this package's (${state.path})` : `${state.kind} (${state.path ?? ''})`;
  } catch (error) {
    if (error instanceof VulkanProcessLoaderError) return `not this package's: ${error.message}`;
    throw error;
  }
}

function formatVulkan(v: VulkanDemoResult): string[] {
  const pixels =
    v.pixels === null
      ? 'not checked (the runtime has no readback; the simulated runtime has)'
      : `${v.pixels.framesAsDrawn} of ${v.pixels.framesDrawn} frames received exactly as drawn (${v.pixels.asDrawn} of ${v.pixels.received} eye images)` +
        v.pixels.differences.map((d) => `\n                ${d}`).join('');
  return [
    `  Vulkan:       ${v.deviceName}, two ${v.eyeSize}x${v.eyeSize} swapchains (VkFormat ${v.format}), ${v.framesDrawn} frames drawn (a colour per eye, new every frame)`,
    `  validation:   ${VULKAN_VALIDATION_LAYER}: ${v.validation}${v.validation === 'on' ? `, ${v.validationMessages.length} warnings or errors` : ''}` +
      v.validationMessages.slice(0, 3).map((m) => `\n                ${m}`).join(''),
    `  runtime got:  ${pixels}`,
    `  libvulkan.so.1 in this process: ${v.processLoader}`,
    `  ns per eye-pair call from JavaScript: acquire ${fmt(v.nsPerCall.acquire, 0)}, wait ${fmt(v.nsPerCall.wait, 0)}, ` +
      `record+submit ${fmt(v.nsPerCall.recordAndSubmit, 0)}, release ${fmt(v.nsPerCall.release, 0)}`,
  ];
}

export function formatDemo(r: DemoResult): string {
  return [
    `khronos-loader demo: ${r.seconds} s ${r.vulkan !== undefined ? 'Vulkan-rendered ' : ''}frame loop at ${Number(r.hz.toFixed(2))} Hz through the loader`,
    `  runtime:      ${r.runtimeName} (${r.runtimeManifest})`,
    `  frame loop:   ${r.frameLoop}`,
    `  API layers:   ${r.apiLayers.join(', ') || '(none)'}  (core_validation: ${r.coreValidation}${r.passthroughLayers === 'elevated' ? '; pass-through layer left out: an elevated process ignores XR_API_LAYER_PATH' : ''})`,
    `  frames:       ${r.rendered} rendered, ${r.missed} missed (${fmt(r.missedPercent)} %), ${r.frames} in all`,
    `  event loop:   ${formatLag(r)}`,
    `  ns per frame call from JavaScript: ${fmt(r.nsPerFrameCall, 0)} mean — beginFrame ${fmtCall(r.nsPerCall.beginFrame)}, ` +
      `locateViews ${fmt(r.nsPerCall.locateViews, 0)}, locate ${fmt(r.nsPerCall.locate, 0)}, endFrame ${fmtCall(r.nsPerCall.endFrame)}` +
      ` (each timed with performance.now(), whose own cost is included)`,
    ...(r.vulkan !== undefined ? formatVulkan(r.vulkan) : []),
    '',
  ].join('\n');
}
