// XR_KHR_vulkan_enable2 end to end on real components: native code in this process
// (test/native/xr_vulkan_frames) that uses only the addon's exported C functions creates an
// OpenXR instance on the simulated runtime, lets the runtime create its Vulkan instance and device
// through the addon's vkGetInstanceProcAddr (Mesa lavapipe, VK_LAYER_KHRONOS_validation in the
// published Vulkan plan), renders N frames into swapchain images with vkCmdClearColorImage and
// submits them in projection layers; the runtime's readback records must equal what was drawn,
// validation must report nothing, and nothing of the chain may stay mapped after.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { packageRoot } from '../../lib/core/native/load.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { SIMULATED_RUNTIME_LIBRARY, simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { missingSystemComponent } from '../helpers/system.js';
import { testNativeDir } from '../helpers/paths.js';
import { PLANTED_CORE_VALIDATION_VUID, PLANTED_VULKAN_VALIDATION_VUID, plantCoreValidationError, plantVulkanValidationError } from '../helpers/planted-validation.js';
import { createInstanceFromPlan } from '../../lib/vulkan/api/index.js';
import { LAVAPIPE_MANIFEST, VALIDATION_MANIFEST, driverFromManifest, layerFromManifest, mappedLibraries, plan } from '../vulkan-native/helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const addonPath = path.join(packageRoot, 'build/Release/khronos_loader.node');

const missing = missingSystemComponent({
  'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST],
  'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': [VALIDATION_MANIFEST],
  'the xr_vulkan_frames test library (built with the system OpenXR and Vulkan headers)': [
    path.join(testNativeDir, 'xr_vulkan_frames', 'libkl_xr_vulkan_frames.so'),
  ],
});

// XrResult values the error paths expect.
const XR = {
  SUCCESS: 0,
  ERROR_VALIDATION_FAILURE: -1,
  ERROR_HANDLE_INVALID: -12,
  ERROR_FUNCTION_UNSUPPORTED: -7,
  ERROR_FEATURE_UNSUPPORTED: -8,
  ERROR_CALL_ORDER_INVALID: -37,
  ERROR_LAYER_INVALID: -23,
  ERROR_SWAPCHAIN_RECT_INVALID: -25,
  ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED: -26,
  ERROR_GRAPHICS_DEVICE_INVALID: -38,
  ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING: -50,
} as const;
// The contract's format list: R8G8B8A8_SRGB, B8G8R8A8_SRGB, R8G8B8A8_UNORM, B8G8R8A8_UNORM.
// The colour formats, then the depth formats lavapipe makes (XR_KHR_composition_layer_depth).
const CONTRACT_FORMATS = '43,50,37,44,126,124,129,130';

const CORE_VALIDATION_FOLDER = '/usr/share/openxr/1/api_layers/explicit.d';
const CORE_VALIDATION_MANIFEST = `${CORE_VALIDATION_FOLDER}/XrApiLayer_core_validation.x86_64-linux-gnu.json`;

/** The OpenXR plan (the simulated runtime, with the given explicit layers from Debian's folder) and the Vulkan plan. */
function publishPlans(apiLayers: string[] = []): void {
  const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: apiLayers.length > 0 ? CORE_VALIDATION_FOLDER : '' };
  createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions }).publishPlan({ enabledApiLayerNames: apiLayers });
  publishVulkanPlan(publishedVulkanChain());
}

/** The Vulkan chain publishPlans() publishes: lavapipe under VK_LAYER_KHRONOS_validation. */
function publishedVulkanChain(): ReturnType<typeof plan> {
  return plan([driverFromManifest(LAVAPIPE_MANIFEST)], [layerFromManifest(VALIDATION_MANIFEST, 'explicit')]);
}

function runNative(variant: string, frames = 0): { rc: number; report: string } {
  const run = koffi
    .load(path.join(testNativeDir, 'xr_vulkan_frames', 'libkl_xr_vulkan_frames.so'))
    .func('int kl_xr_vulkan_frames_run(const char*, const char*, uint32_t, _Out_ char* report, size_t)');
  const buffer = Buffer.alloc(4096);
  const rc = run(addonPath, variant, frames, buffer, buffer.length) as number;
  return { rc, report: buffer.toString('utf8', 0, buffer.indexOf(0)) };
}

/** Lavapipe, the validation layer and the simulated runtime: none may stay mapped once everything is destroyed. */
function chainLibrariesMapped(): string[] {
  return [
    ...mappedLibraries('libvulkan_lvp.so'),
    ...mappedLibraries('libVkLayer_khronos_validation.so'),
    ...mappedLibraries(SIMULATED_RUNTIME_LIBRARY),
  ];
}

const savedEnv = { ...process.env };
afterEach(() => {
  for (const k of ['XR_CORE_VALIDATION_FILE_NAME', 'XR_CORE_VALIDATION_EXPORT_TYPE']) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

/** The fields of a "key=value key=value" report. */
function fields(report: string): Record<string, string> {
  return Object.fromEntries(report.split(' ').filter((w) => w.includes('=')).map((w) => w.split('=') as [string, string]));
}

describe.skipIf(missing !== null)('XR_KHR_vulkan_enable2 on the simulated runtime through this package\'s Vulkan loader', () => {
  // [title, variant, frames, plant]: each renders every frame with its own colour per eye and compares the
  // runtime's records with what it drew; with `plant`, the error planted for VK_LAYER_KHRONOS_validation
  // through the same Vulkan chain after it shows the layer that reported nothing was listening.
  const frameRuns: Array<[string, string, number, boolean]> = [
    ['XR-CI-5 XR-CI-11 VK-CH-4: 40 frames, a swapchain per eye (RGBA and BGRA): every frame\'s centre texel reaches the runtime as drawn; validation reports nothing but the error planted through the same chain after; nothing stays mapped', 'eyes', 40, true],
    ['one swapchain with arraySize 2, each view on its own array layer (imageArrayIndex honoured), destroyed by the application', 'array', 12, false],
    ['XR-CI-7: xrDestroyInstance alone destroys the session and its swapchains (their images and memory) before the application destroys its device', 'instance-teardown', 5, false],
    ['4-sample swapchains: the runtime resolves the texel it reads', 'msaa', 6, false],
  ];
  it.each(frameRuns)('%s', (_title, variant, frames, plant) => {
    publishPlans();
    const { rc, report } = runNative(variant, frames);
    expect(report).toBe(
      `formats=${CONTRACT_FORMATS} records=${frames * 2} left=0 mismatches=0 first-mismatch=none xrEndFrame=${SIMULATED_RUNTIME_LIBRARY} validation=0 destroyed`,
    );
    expect(rc).toBe(0);
    if (plant) expect(plantVulkanValidationError(createInstanceFromPlan(publishedVulkanChain(), { applicationName: 'planted', enabledExtensionNames: ['VK_EXT_debug_utils'] }))).toContain(PLANTED_VULKAN_VALIDATION_VUID);
    expect(chainLibrariesMapped()).toEqual([]);
  });

  it('the spec\'s results: requirements call missing, foreign device, queue index, swapchain variants (static, cube, mips, usages) and order rules, layers with an unreleased swapchain or a bad rect, a quad layer; headless sessions list no format', () => {
    publishPlans();
    const { rc, report } = runNative('errors');
    expect(rc, report).toBe(0);
    const f = fields(report);
    expect(f).toEqual({
      requirementsMissing: `${XR.ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING}`,
      noBinding: `${XR.ERROR_GRAPHICS_DEVICE_INVALID}`,
      withoutExtensionRequirements: `${XR.ERROR_FUNCTION_UNSUPPORTED}`,
      withoutExtensionDrain: `${XR.ERROR_FUNCTION_UNSUPPORTED}`,
      headlessSession: `${XR.SUCCESS}`,
      headlessFormats: `${XR.SUCCESS}`,
      headlessFormatCount: '0',
      headlessSwapchain: `${XR.ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED}`,
      headlessRecords: '0',
      wrongDevice: `${XR.ERROR_GRAPHICS_DEVICE_INVALID}`,
      badQueueIndex: `${XR.ERROR_VALIDATION_FAILURE}`,
      unknownFormat: `${XR.ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED}`,
      zeroArraySize: `${XR.ERROR_VALIDATION_FAILURE}`,
      threeSamples: `${XR.ERROR_VALIDATION_FAILURE}`,
      eightSamples: `${XR.ERROR_VALIDATION_FAILURE}`,
      srgbSampled: `${XR.SUCCESS}`,
      storageMutable: `${XR.SUCCESS}`,
      fullMipChain: `${XR.SUCCESS}`,
      mipPastChain: `${XR.ERROR_VALIDATION_FAILURE}`,
      cube: `${XR.SUCCESS}`,
      cubeNotSquare: `${XR.ERROR_VALIDATION_FAILURE}`,
      depthUsage: `${XR.ERROR_FEATURE_UNSUPPORTED}`,
      protectedContent: `${XR.ERROR_FEATURE_UNSUPPORTED}`,
      unknownUsageBit: `${XR.ERROR_VALIDATION_FAILURE}`,
      zeroWidth: `${XR.ERROR_VALIDATION_FAILURE}`,
      static: `${XR.SUCCESS}`,
      staticImages: '1',
      staticCycle: `${XR.SUCCESS}`,
      staticAcquireAgain: `${XR.ERROR_CALL_ORDER_INVALID}`,
      deviceOnOtherPhysicalDevice: `${XR.ERROR_VALIDATION_FAILURE}`,
      releaseWithoutWait: `${XR.ERROR_CALL_ORDER_INVALID}`,
      waitWithoutAcquire: `${XR.ERROR_CALL_ORDER_INVALID}`,
      acquiredImages: '3',
      acquirePastImageCount: `${XR.ERROR_CALL_ORDER_INVALID}`,
      wait: `${XR.SUCCESS}`,
      waitTwice: `${XR.ERROR_CALL_ORDER_INVALID}`,
      release: `${XR.SUCCESS}`,
      releaseAgain: `${XR.ERROR_CALL_ORDER_INVALID}`,
      unreleasedSwapchain: `${XR.ERROR_LAYER_INVALID}`,
      rectOutside: `${XR.ERROR_SWAPCHAIN_RECT_INVALID}`,
      rectEmpty: `${XR.ERROR_SWAPCHAIN_RECT_INVALID}`,
      arrayIndexOutside: `${XR.ERROR_VALIDATION_FAILURE}`,
      endFrame: `${XR.SUCCESS}`,
      recordsAfterOneFrame: '2',
      quadLayer: `${XR.SUCCESS}`,
      recordsAfterQuadFrame: '2',
      destroySwapchain: `${XR.SUCCESS}`,
      acquireDestroyed: `${XR.ERROR_HANDLE_INVALID}`,
      validation: '0',
    });
    expect(chainLibrariesMapped()).toEqual([]);
  });
});

describe.skipIf(missing !== null)('SIMXR_VULKAN_DEVICE', () => {
  afterEach(() => {
    delete process.env.SIMXR_VULKAN_DEVICE;
  });

  it('picks the physical device xrGetVulkanGraphicsDevice2KHR returns: by index or part of its name; one it cannot find is XR_ERROR_RUNTIME_FAILURE', () => {
    publishPlans();
    const frameReport = `formats=${CONTRACT_FORMATS} records=4 left=0 mismatches=0 first-mismatch=none xrEndFrame=${SIMULATED_RUNTIME_LIBRARY} validation=0 destroyed`;
    for (const wanted of ['0', 'llvmpipe']) {
      process.env.SIMXR_VULKAN_DEVICE = wanted;
      expect(runNative('eyes', 2).report, wanted).toBe(frameReport);
    }
    // lavapipe is the plan's only driver, with one physical device. -2: XR_ERROR_RUNTIME_FAILURE.
    for (const wanted of ['1', 'no-such-gpu']) {
      process.env.SIMXR_VULKAN_DEVICE = wanted;
      expect(runNative('eyes', 2).report, wanted).toBe('error: xrGetVulkanGraphicsDevice2KHR -2');
    }
    expect(chainLibrariesMapped()).toEqual([]);
  });
});

const missingCoreValidation = missing ?? missingSystemComponent({ 'XR_APILAYER_LUNARG_core_validation (openxr-layer-corevalidation)': [CORE_VALIDATION_MANIFEST] });

describe.skipIf(missingCoreValidation !== null)('the Vulkan frame loop under both validation layers', () => {
  it('XR-CI-11: XR_APILAYER_LUNARG_core_validation in the OpenXR chain and VK_LAYER_KHRONOS_validation in the Vulkan one report nothing for 10 rendered frames, and the error planted for each in the same test', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'kl-xrvk-validation-')), 'core_validation.txt');
    process.env.XR_CORE_VALIDATION_EXPORT_TYPE = 'text';
    process.env.XR_CORE_VALIDATION_FILE_NAME = file;
    publishPlans(['XR_APILAYER_LUNARG_core_validation']);
    const { rc, report } = runNative('eyes', 10);
    // xrEndFrame enters the layer first: it sees every call of the frame loop.
    expect(report).toBe(
      `formats=${CONTRACT_FORMATS} records=20 left=0 mismatches=0 first-mismatch=none xrEndFrame=libXrApiLayer_core_validation.so validation=0 destroyed`,
    );
    expect(rc).toBe(0);
    // The layer writes its file only when it has something to report: nothing so far.
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').toBe('');
    // The planted errors, with the same settings: the same report file, the same Vulkan chain.
    plantCoreValidationError(CORE_VALIDATION_MANIFEST);
    expect(readFileSync(file, 'utf8').match(/VUID-[\w-]+/g)).toEqual([PLANTED_CORE_VALIDATION_VUID]);
    expect(plantVulkanValidationError(createInstanceFromPlan(publishedVulkanChain(), { applicationName: 'planted', enabledExtensionNames: ['VK_EXT_debug_utils'] }))).toContain(PLANTED_VULKAN_VALIDATION_VUID);
    // (core_validation itself stays mapped whatever the loader does: its STB_GNU_UNIQUE symbols make glibc keep it.)
    expect(chainLibrariesMapped()).toEqual([]);
  });
});
