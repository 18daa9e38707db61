// The Vulkan-rendered demo's calls under both validators — VK_LAYER_KHRONOS_validation in
// this package's Vulkan chain (its VK_EXT_debug_utils messenger hears every device call: the
// demo's and the simulated runtime's readback, both made through this loader) and Debian's
// XR_APILAYER_LUNARG_core_validation in the OpenXR chain (its report file) — report nothing; and,
// in the same test with the same settings, each layer reports an error planted for it, so their
// silence is not a layer that was not listening or a report file it could not write.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostPlatform } from '../../lib/core/platform/host.js';
import { CORE_VALIDATION_LAYER, formatDemo, runDemo, VULKAN_VALIDATION_LAYER } from '../../lib/tools/cli/demo.js';
import { createLoader as createVulkanLoader } from '../../lib/vulkan/loader.js';
import { PLANTED_CORE_VALIDATION_VUID, PLANTED_VULKAN_VALIDATION_VUID, plantCoreValidationError, plantVulkanValidationError } from '../helpers/planted-validation.js';
import { missingSystemComponent } from '../helpers/system.js';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const CORE_VALIDATION_MANIFEST = '/usr/share/openxr/1/api_layers/explicit.d/XrApiLayer_core_validation.x86_64-linux-gnu.json';
const missing = missingSystemComponent({
  'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE],
  'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': ['/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json'],
  'XR_APILAYER_LUNARG_core_validation (libopenxr1-dev layers)': [CORE_VALIDATION_MANIFEST],
});

const dir = mkdtempSync(path.join(tmpdir(), 'kl-vk-xr-validation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(missing !== null)('the Vulkan-rendered demo under the validation layers', () => {
  it('XR-CI-11: VK_LAYER_KHRONOS_validation and core_validation report nothing for the demo\'s calls, and the error planted for each in the same test; every frame arrives as drawn', async () => {
    const report = path.join(dir, 'core-validation.txt');
    const saved = { type: process.env.XR_CORE_VALIDATION_EXPORT_TYPE, file: process.env.XR_CORE_VALIDATION_FILE_NAME };
    process.env.XR_CORE_VALIDATION_EXPORT_TYPE = 'text';
    process.env.XR_CORE_VALIDATION_FILE_NAME = report;
    let result;
    let plantedVulkan: string[] = [];
    try {
      result = await runDemo({ seconds: 2, vulkan: true, coreValidation: true, vulkanValidation: true, env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } });
      // The planted errors, after the demo, with the same settings (report file, driver, layers).
      plantCoreValidationError(CORE_VALIDATION_MANIFEST);
      plantedVulkan = plantVulkanValidationError(
        createVulkanLoader({ platform: createHostPlatform({ env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } }) }).createInstance({
          applicationName: 'planted',
          enabledLayerNames: [VULKAN_VALIDATION_LAYER],
          enabledExtensionNames: ['VK_EXT_debug_utils'],
        }),
      );
    } finally {
      for (const [k, v] of [['XR_CORE_VALIDATION_EXPORT_TYPE', saved.type], ['XR_CORE_VALIDATION_FILE_NAME', saved.file]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    process.stderr.write(`[validation]\n${formatDemo(result)}`);
    expect(result.apiLayers).toContain(CORE_VALIDATION_LAYER);
    const vulkan = result.vulkan;
    expect(vulkan?.validation).toBe('on');
    expect(vulkan?.validationMessages).toEqual([]);
    // Frames kept coming under both validation layers (their rate is the machine's load, not checked here).
    expect(vulkan?.framesDrawn).toBeGreaterThan(10);
    expect(vulkan?.pixels?.differences).toEqual([]);
    expect(vulkan?.pixels?.framesAsDrawn).toBe(vulkan?.framesDrawn);
    // core_validation writes its report file with its first message: the planted error's, and
    // nothing before it (the demo's calls).
    const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
    expect(text.match(/VUID-[\w-]+/g) ?? [], text).toEqual([PLANTED_CORE_VALIDATION_VUID]);
    expect(text.match(/VALID_WARNING/g) ?? []).toEqual([]);
    // VK_LAYER_KHRONOS_validation, silent for the demo above, heard the planted misuse.
    expect(plantedVulkan).toContain(PLANTED_VULKAN_VALIDATION_VUID);
    expect(VULKAN_VALIDATION_LAYER).toBe('VK_LAYER_KHRONOS_validation');
  });
});
