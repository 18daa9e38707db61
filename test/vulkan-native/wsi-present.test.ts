// Window-system integration for real (docs/conformance.md, "Surfaces"): under a private Xvfb, a
// small C helper (test/native/vulkan_wsi_present) makes an Xlib or an XCB window, creates the
// surface, the device and the swapchain through this package's loader (the plan published with
// lavapipe and VK_LAYER_KHRONOS_validation in the chain), clears each image to a known colour,
// presents it, and reads the window's centre pixel back from the X server (XGetImage). The same
// helper as a program runs through the Khronos loaders for comparison.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonBinaryPath } from '../../lib/core/native/load.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { missingRealDriver, missingValidation, REAL_DRIVER_MANIFEST, VALIDATION_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { missingXvfb, startXvfb, type Xvfb } from '../helpers/xvfb.js';
import { testNativeDir } from '../helpers/paths.js';
import { driverFromManifest, layerFromManifest, mappedLibraries, plan, testLibrary } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const addonPath = addonBinaryPath();
const missing = missingXvfb() ?? missingRealDriver() ?? missingValidation();

const VK_SUCCESS = 0;
const VK_SUBOPTIMAL_KHR = 1000001003;
const VK_ERROR_OUT_OF_DATE_KHR = -1000001004;
const VK_ERROR_SURFACE_LOST_KHR = -1000000000;

interface Report {
  readonly text: string;
  readonly fields: Readonly<Record<string, string>>;
}
function parse(text: string): Report {
  const fields: Record<string, string> = {};
  for (const m of text.replace(/ first=.*$/, '').matchAll(/(\S+)=(\S+)/g)) fields[m[1]!] = m[2]!;
  return { text, fields };
}

describe.skipIf(missing !== null)('surfaces and presentation under Xvfb (VK-WSI)', () => {
  let xvfb: Xvfb;
  let present: (...args: unknown[]) => unknown;
  beforeAll(async () => {
    xvfb = await startXvfb();
    present = koffi
      .load(testLibrary('vulkan_wsi_present', 'kl_vk_wsi_present'))
      .func('int kl_wsi_present(const char*, int, const char*, const char*, unsigned int, int, _Out_ char* report, size_t)');
  }, 60_000);
  afterAll(async () => {
    await xvfb?.stop();
  });

  // Through this loader, in this process: the plan holds lavapipe and the validation layer.
  function throughOurs(mode: string, rgb: number): Report {
    publishVulkanPlan(plan([driverFromManifest(REAL_DRIVER_MANIFEST)], [layerFromManifest(VALIDATION_MANIFEST, 'explicit')]));
    const buffer = Buffer.alloc(1024);
    present(addonPath, 1, xvfb.display, mode, rgb, 1, buffer, buffer.length);
    return parse(buffer.toString('utf8', 0, buffer.indexOf(0)));
  }
  // Through a Khronos loader, in a process of its own.
  function throughKhronos(library: string, mode: string, rgb: number): Report {
    const r = spawnSync(path.join(testNativeDir, 'vulkan_wsi_present', 'kl_vk_wsi_present'), [library, xvfb.display, mode, rgb.toString(16), '1'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, VK_ICD_FILENAMES: REAL_DRIVER_MANIFEST, VK_DRIVER_FILES: REAL_DRIVER_MANIFEST },
    });
    return parse(r.stdout.trim());
  }

  it.each([
    ['xlib', 0x3366cc],
    ['xcb', 0xcc6633],
  ])('VK-WSI-2: a %s window shows the colour presented through this loader, the validation layer silent, the driver unloaded after destroy', (mode, rgb) => {
    const r = throughOurs(mode, rgb);
    expect(r.text).toMatch(/^ok .* destroyed$/);
    expect(r.fields.pixel).toBe(rgb.toString(16).padStart(6, '0'));
    expect(r.fields.support).toBe('1');
    expect(r.fields.platform).toBe('1');
    expect([r.fields.acquire, r.fields.present]).toEqual([String(VK_SUCCESS), String(VK_SUCCESS)]);
    expect(r.fields.messages, r.text).toBe('0');
    expect(mappedLibraries('libvulkan_lvp.so')).toEqual([]);
    expect(mappedLibraries('libVkLayer_khronos_validation.so')).toEqual([]);
  });

  for (const loader of khronosVulkanLoaders()) {
    it.skipIf(loader.missing !== null)(`VK-WSI-3: the Khronos loader ${loader.version} presents the same colours into the same windows, with the same answers`, () => {
      for (const [mode, rgb] of [
        ['xlib', 0x3366cc],
        ['xcb', 0xcc6633],
      ] as const) {
        const theirs = throughKhronos(loader.library!, mode, rgb);
        const ours = throughOurs(mode, rgb);
        expect(theirs.text).toMatch(/^ok .* destroyed$/);
        expect(ours.fields).toEqual(theirs.fields);
      }
    });
  }

  it('VK-WSI-4: a window handle that is not a window: the surface is made, the driver\'s VkResult comes back from the query, no crash', () => {
    const ours = throughOurs('not-a-window', 0x00ff00);
    expect(ours.text).toMatch(/^not-a-window /);
    expect(ours.fields.create).toBe(String(VK_SUCCESS));
    expect(Number(ours.fields.caps)).toBeLessThan(0);
    const [system] = khronosVulkanLoaders();
    if (system?.library !== undefined) expect(ours.fields.caps).toBe(throughKhronos(system.library, 'not-a-window', 0x00ff00).fields.caps);
    expect(ours.fields.caps).toBe(String(VK_ERROR_SURFACE_LOST_KHR));
  });

  it('VK-WSI-4: after the window is resized, acquire or present reports VK_SUBOPTIMAL_KHR or VK_ERROR_OUT_OF_DATE_KHR', () => {
    const r = throughOurs('xlib-resize', 0x808080);
    expect(r.text).toMatch(/^ok .* destroyed$/);
    const after = [Number(r.fields['after-resize']!.split('/')[0]), Number(r.fields['after-resize']!.split('/')[1])];
    expect(after.some((v) => v === VK_SUBOPTIMAL_KHR || v === VK_ERROR_OUT_OF_DATE_KHR), r.text).toBe(true);
  });
});
