// The OpenXR runtimes the system suite runs on: the simulated runtime this package ships, and
// Monado (the open-source runtime, built headless by scripts/build-monado.sh, which CI
// runs). Each says what it is expected to do where real runtimes legitimately differ,
// so one suite states every other behaviour once for all of them.
import type { FrameLoopMode } from '../../lib/openxr/api/frame-loop.js';
import { monadoHeadlessEnv, monadoManifestPath as monadoManifestPathIn } from '../../lib/openxr/monado-headless.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { repoRoot } from './paths.js';
import { missingSystemComponent } from './system.js';

export interface OpenXrRuntimeUnderTest {
  readonly id: 'simulated' | 'monado';
  /** As it appears in test titles ("on Monado"). */
  readonly title: string;
  /** The runtime manifest (XR_RUNTIME_JSON); undefined when the runtime is missing (then `skip` says why). */
  readonly manifest: string | undefined;
  readonly skip: string | null;
  /**
   * Variables the runtime reads from the process's own environment (Monado's configuration), set
   * while the runtime is in use; undefined removes the variable.
   */
  readonly processEnv: Readonly<Record<string, string | undefined>>;
  /** Extensions enabled where the runtime offers them, beside XR_MND_headless. */
  readonly optionalExtensions: readonly string[];
  readonly expect: {
    readonly systemName: RegExp;
    readonly runtimeName: RegExp;
    /** How runFrameLoop runs on it. */
    readonly frameLoop: FrameLoopMode;
    /** How runFrameLoop({ displayRateHz: 30 }) runs on an instance without the optional extensions. */
    readonly frameLoopWithoutExtensions: FrameLoopMode;
    /** Whether a controller is there to bind the simple controller profile to (Monado's simulated HMD has none). */
    readonly controllers: boolean;
    /**
     * An XR_KHR_vulkan_enable2 session through this package's Vulkan loader (docs/usage.md, 'The
     * process Vulkan loader'): 'renders', or refused with XR_ERROR_RUNTIME_FAILURE
     * (createVulkanGraphics) for the reason `refused` matches.
     */
    /** Without this package's loader as the process's libvulkan.so.1. */
    readonly vulkanThroughThisLoader: 'renders' | { readonly refused: RegExp };
    /** Frames per second a Vulkan-rendered session actually runs at. */
    readonly vulkanFrameRateHz: number;
    /** Whether the runtime reads back what it received (xrDrainSubmittedPixelsSIMXR). */
    readonly pixelReadback: boolean;
    /** XR_EXT_hand_tracking: scripted hands, or what xrCreateHandTrackerEXT answers without a hand-tracking device. */
    readonly handTracking: 'scripted' | 'XR_ERROR_FEATURE_UNSUPPORTED';
    /** session.referenceSpaceBounds('stage') of a headless session, or the error it is refused with. */
    readonly stageBounds: { readonly width: number; readonly height: number } | 'XR_ERROR_RUNTIME_FAILURE';
  };
}

/** Where CI and scripts/build-monado.sh put Monado's manifest when KHRONOS_LOADER_MONADO_JSON is unset. */
export const DEFAULT_MONADO_MANIFEST = monadoManifestPathIn(repoRoot, {});

export function monadoManifestPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return monadoManifestPathIn(repoRoot, env);
}

/** Monado headless (lib/openxr/monado-headless.ts). */
export const MONADO_PROCESS_ENV: Readonly<Record<string, string | undefined>> = monadoHeadlessEnv();

export function simulatedRuntimeUnderTest(): OpenXrRuntimeUnderTest {
  return {
    id: 'simulated',
    title: 'the simulated runtime',
    manifest: simulatedRuntime(),
    skip: null,
    processEnv: {},
    optionalExtensions: ['XR_KHR_convert_timespec_time', 'XR_FB_display_refresh_rate'],
    expect: {
      systemName: /^khronos-loader simulated HMD$/,
      runtimeName: /simulated/i,
      frameLoop: { pacing: 'runtime', frameTimes: 'wait-frame', beginEndFrame: true, displayRateHz: 90, displayRateSource: 'wait-frame' },
      frameLoopWithoutExtensions: { pacing: 'runtime', frameTimes: 'wait-frame', beginEndFrame: true, displayRateHz: 90, displayRateSource: 'wait-frame' },
      controllers: true,
      vulkanThroughThisLoader: 'renders',
      vulkanFrameRateHz: 90,
      pixelReadback: true,
      handTracking: 'scripted',
      stageBounds: { width: 2, height: 2 },
    },
  };
}

export function monadoUnderTest(): OpenXrRuntimeUnderTest {
  const manifest = monadoManifestPath();
  const skip = missingSystemComponent({
    'Monado (scripts/build-monado.sh builds it into build/monado; or set KHRONOS_LOADER_MONADO_JSON)': [manifest],
  });
  return {
    id: 'monado',
    title: 'Monado',
    manifest: skip === null ? manifest : undefined,
    skip,
    processEnv: MONADO_PROCESS_ENV,
    optionalExtensions: ['XR_KHR_convert_timespec_time', 'XR_FB_display_refresh_rate'],
    expect: {
      systemName: /^Monado: Simulated HMD$/,
      runtimeName: /^Monado/,
      // Headless, Monado's xrWaitFrame answers at once with predictedDisplayTime 0 and refuses the
      // following xrBeginFrame; its null compositor's rate (20 Hz) comes through XR_FB_display_refresh_rate.
      frameLoop: { pacing: 'timer', frameTimes: 'convert-timespec', beginEndFrame: false, beginEndFrameSkipped: 'refused', displayRateHz: 20, displayRateSource: 'XR_FB_display_refresh_rate' },
      // Only XR_MND_headless asked for: createInstance enables the clock conversion along with it (Monado
      // offers it), so frame times still come from the runtime's clock; no display rate from the runtime: the option's.
      frameLoopWithoutExtensions: { pacing: 'timer', frameTimes: 'convert-timespec', beginEndFrame: false, beginEndFrameSkipped: 'refused', displayRateHz: 30, displayRateSource: 'option' },
      controllers: false,
      // Its xrGetVulkanGraphicsDevice2KHR and Vulkan session client call the libvulkan Monado links
      // against with the application's VkInstance (oxr_api_system.c, oxr_session_gfx_vk.c).
      vulkanThroughThisLoader: { refused: /calls its own libvulkan's vkGetInstanceProcAddr with the application's VkInstance/ },
      // Its null compositor paces a rendering session at 20 Hz, although xrWaitFrame's period says 62.5 Hz.
      vulkanFrameRateHz: 20,
      pixelReadback: false,
      // Its simulated HMD has no hand-tracking device.
      handTracking: 'XR_ERROR_FEATURE_UNSUPPORTED',
      // Its xrGetReferenceSpaceBoundsRect asks the session's compositor, which a headless session lacks (lib/openxr/api/session-input.ts).
      stageBounds: 'XR_ERROR_RUNTIME_FAILURE',
    },
  };
}

export function openXrRuntimesUnderTest(): OpenXrRuntimeUnderTest[] {
  return [simulatedRuntimeUnderTest(), monadoUnderTest()];
}

/** Sets the runtime's process variables; returns the function that puts the previous values back. */
export function applyProcessEnv(vars: Readonly<Record<string, string | undefined>>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (values: Readonly<Record<string, string | undefined>>): void => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set(vars);
  return () => set(saved);
}
