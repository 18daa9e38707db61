// Wayland presentation for real (docs/conformance.md, "Surfaces"): under a private weston (headless
// backend, test/helpers/weston.ts), the C helper of test/vulkan-native/wsi-present.test.ts
// (test/native/vulkan_wsi_present, its "wayland" mode) makes an xdg-shell toplevel, creates the
// surface with vkCreateWaylandSurfaceKHR, asks vkGetPhysicalDeviceWaylandPresentationSupportKHR,
// the surface queries, a swapchain, and presents a known colour three times through this package's
// loader (lavapipe and VK_LAYER_KHRONOS_validation in the plan); the same helper as a program runs
// through the Khronos loaders for comparison. No pixel readback: weston's headless backend shows
// its output to no one, and its screenshooter needs a protocol of its own and a debug-mode compositor.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonBinaryPath } from '../../lib/core/native/load.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { missingRealDriver, missingValidation, REAL_DRIVER_MANIFEST, VALIDATION_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { missingWeston, startWeston, type Weston } from '../helpers/weston.js';
import { testNativeDir } from '../helpers/paths.js';
import { driverFromManifest, layerFromManifest, mappedLibraries, plan, testLibrary } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const addonPath = addonBinaryPath();
const missing = missingWeston() ?? missingRealDriver() ?? missingValidation();

const VK_SUCCESS = 0;
const COLOUR = 0x33cc66;

interface Report {
  readonly text: string;
  readonly fields: Readonly<Record<string, string>>;
}
function parse(text: string): Report {
  const fields: Record<string, string> = {};
  for (const m of text.replace(/ first=.*$/, '').matchAll(/(\S+)=(\S+)/g)) fields[m[1]!] = m[2]!;
  return { text, fields };
}

describe.skipIf(missing !== null)('Wayland surfaces and presentation under weston (VK-WSI)', () => {
  let weston: Weston;
  let present: (...args: unknown[]) => unknown;
  beforeAll(async () => {
    weston = await startWeston();
    present = koffi
      .load(testLibrary('vulkan_wsi_present', 'kl_vk_wsi_present'))
      .func('int kl_wsi_present(const char*, int, const char*, const char*, unsigned int, int, _Out_ char* report, size_t)');
  }, 60_000);
  afterAll(async () => {
    await weston?.stop();
  });

  // Through this loader, in this process: the plan holds lavapipe and the validation layer.
  function throughOurs(): Report {
    publishVulkanPlan(plan([driverFromManifest(REAL_DRIVER_MANIFEST)], [layerFromManifest(VALIDATION_MANIFEST, 'explicit')]));
    const buffer = Buffer.alloc(1024);
    present(addonPath, 1, weston.socket, 'wayland', COLOUR, 1, buffer, buffer.length);
    return parse(buffer.toString('utf8', 0, buffer.indexOf(0)));
  }
  // Through a Khronos loader, in a process of its own.
  function throughKhronos(library: string): Report {
    const r = spawnSync(path.join(testNativeDir, 'vulkan_wsi_present', 'kl_vk_wsi_present'), [library, weston.socket, 'wayland', COLOUR.toString(16), '1'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, VK_ICD_FILENAMES: REAL_DRIVER_MANIFEST, VK_DRIVER_FILES: REAL_DRIVER_MANIFEST },
    });
    return parse(r.stdout.trim());
  }

  it('VK-WSI-2: a Wayland toplevel takes a swapchain and three presents through this loader, presentation supported, the validation layer silent, the driver unloaded after destroy', () => {
    const r = throughOurs();
    expect(r.text).toMatch(/^ok .* destroyed$/);
    expect(r.fields.support).toBe('1');
    expect(r.fields.platform).toBe('1');
    expect([r.fields.acquire, r.fields.present]).toEqual([String(VK_SUCCESS), String(VK_SUCCESS)]);
    expect(r.fields.messages, r.text).toBe('0');
    expect(mappedLibraries('libvulkan_lvp.so')).toEqual([]);
    expect(mappedLibraries('libVkLayer_khronos_validation.so')).toEqual([]);
  });

  for (const loader of khronosVulkanLoaders()) {
    it.skipIf(loader.missing !== null)(`VK-WSI-3: the Khronos loader ${loader.version} gives the same answers for the same Wayland toplevel`, () => {
      const theirs = throughKhronos(loader.library!);
      const ours = throughOurs();
      expect(theirs.text).toMatch(/^ok .* destroyed$/);
      expect(ours.fields).toEqual(theirs.fields);
    });
  }
});
