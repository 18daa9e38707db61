// The Vulkan-rendered demo's calls under both validators — VK_LAYER_KHRONOS_validation in
// this package's Vulkan chain (its VK_EXT_debug_utils messenger hears every device call: the
// demo's and the simulated runtime's readback, both made through this loader) and Debian's
// XR_APILAYER_LUNARG_core_validation in the OpenXR chain (its report file) — report nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORE_VALIDATION_LAYER, formatDemo, runDemo, VULKAN_VALIDATION_LAYER } from '../../lib/tools/cli/demo.js';
import { missingSystemComponent } from '../helpers/system.js';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const missing = missingSystemComponent({
  'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE],
  'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': ['/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json'],
  'XR_APILAYER_LUNARG_core_validation (libopenxr1-dev layers)': ['/usr/share/openxr/1/api_layers/explicit.d/XrApiLayer_core_validation.x86_64-linux-gnu.json'],
});

const dir = mkdtempSync(path.join(tmpdir(), 'kl-vk-xr-validation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(missing !== null)('the Vulkan-rendered demo under the validation layers', () => {
  it('XR-CI-11: VK_LAYER_KHRONOS_validation and core_validation report nothing for the demo\'s calls; every frame arrives as drawn', async () => {
    const report = path.join(dir, 'core-validation.txt');
    const saved = { type: process.env.XR_CORE_VALIDATION_EXPORT_TYPE, file: process.env.XR_CORE_VALIDATION_FILE_NAME };
    process.env.XR_CORE_VALIDATION_EXPORT_TYPE = 'text';
    process.env.XR_CORE_VALIDATION_FILE_NAME = report;
    let result;
    try {
      result = await runDemo({ seconds: 2, vulkan: true, coreValidation: true, vulkanValidation: true, env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } });
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
    // core_validation writes its report file with its first message: none, no file.
    const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
    expect(text.match(/VALID_ERROR|VALID_WARNING|VUID-[\w-]+/g) ?? []).toEqual([]);
    expect(VULKAN_VALIDATION_LAYER).toBe('VK_LAYER_KHRONOS_validation');
  });
});
