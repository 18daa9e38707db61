// Layers see every window-system call (docs/conformance.md, "Surfaces"): a recording layer
// (test/native/vulkan_wsi_record_layer) in the chain while the presentation helper
// (test/native/vulkan_wsi_present) makes an Xlib or an XCB window under a private Xvfb, or a
// Wayland xdg-shell toplevel under a private weston (headless backend), creates the surface, asks
// the platform presentation-support query, queries the surface, creates the swapchain, presents
// three frames and destroys everything —
// through this package's loader (in this process) and through the Khronos loaders (the helper as a
// program). The layer writes each call it forwards, with its VkResult, to a file; the lists must
// hold every command and be the same for both loaders.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonBinaryPath } from '../../lib/core/native/load.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { missingRealDriver, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { missingXvfb, startXvfb, type Xvfb } from '../helpers/xvfb.js';
import { missingWeston, startWeston, type Weston } from '../helpers/weston.js';
import { testNativeDir } from '../helpers/paths.js';
import { driverFromManifest, layerFromManifest, mappedLibraries, plan, testLibrary } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const missing = missingXvfb() ?? missingRealDriver();
const missingWayland = missingWeston();
const RECORD_LAYER = 'VK_LAYER_KLTEST_wsi_record';

/** The helper's modes: the window system, its surface command and its presentation-support query. */
const MODES = [
  { mode: 'xlib', create: 'vkCreateXlibSurfaceKHR', support: 'vkGetPhysicalDeviceXlibPresentationSupportKHR' },
  { mode: 'xcb', create: 'vkCreateXcbSurfaceKHR', support: 'vkGetPhysicalDeviceXcbPresentationSupportKHR' },
  { mode: 'wayland', create: 'vkCreateWaylandSurfaceKHR', support: 'vkGetPhysicalDeviceWaylandPresentationSupportKHR' },
] as const;
type Mode = (typeof MODES)[number];

/** What the layer must see for one run of the helper (three frames), in order: each VK_SUCCESS, presentation supported. */
function expectedCalls({ create, support }: Mode): string[] {
  return [
    `${create}=0`,
    'vkGetPhysicalDeviceSurfaceSupportKHR=0',
    `${support}=1`,
    'vkGetPhysicalDeviceSurfaceCapabilitiesKHR=0',
    'vkGetPhysicalDeviceSurfaceFormatsKHR=0',
    'vkGetPhysicalDeviceSurfacePresentModesKHR=0',
    'vkCreateSwapchainKHR=0',
    'vkGetSwapchainImagesKHR=0',
    ...Array.from({ length: 3 }, () => ['vkAcquireNextImageKHR=0', 'vkQueuePresentKHR=0']).flat(),
    'vkDestroySwapchainKHR',
    'vkDestroySurfaceKHR',
  ];
}

describe.skipIf(missing !== null)('layers see every window-system call (VK-WSI)', () => {
  let xvfb: Xvfb;
  let weston: Weston | undefined;
  let present: (...args: unknown[]) => unknown;
  let folder: string;
  let manifest: string;
  beforeAll(async () => {
    xvfb = await startXvfb();
    if (missingWayland === null) weston = await startWeston();
    present = koffi
      .load(testLibrary('vulkan_wsi_present', 'kl_vk_wsi_present'))
      .func('int kl_wsi_present(const char*, int, const char*, const char*, unsigned int, int, _Out_ char* report, size_t)');
    folder = mkdtempSync(path.join(tmpdir(), 'kl-wsi-record-'));
    manifest = path.join(folder, 'wsi_record.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        file_format_version: '1.2.0',
        layer: {
          name: RECORD_LAYER,
          type: 'GLOBAL',
          library_path: testLibrary('vulkan_wsi_record_layer', 'kl_vk_wsi_record_layer'),
          api_version: '1.3.0',
          implementation_version: '1',
          description: 'records the window-system calls it forwards',
        },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await xvfb?.stop();
    await weston?.stop();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  /** The helper's `display` argument: the X display, or weston's socket. */
  const displayFor = (mode: string): string => (mode === 'wayland' ? weston!.socket : xvfb.display);

  function recorded(log: string): string[] {
    return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
  }

  // Through this loader, in this process: the plan holds lavapipe and the recording layer.
  function throughOurs(mode: string): { report: string; calls: string[] } {
    const log = path.join(folder, `ours-${mode}.log`);
    writeFileSync(log, '');
    process.env.KL_WSI_RECORD_LOG = log;
    try {
      publishVulkanPlan(plan([driverFromManifest(REAL_DRIVER_MANIFEST)], [layerFromManifest(manifest, 'explicit')]));
      const buffer = Buffer.alloc(1024);
      present(addonBinaryPath(), 1, displayFor(mode), mode, 0x2080c0, 0, buffer, buffer.length);
      return { report: buffer.toString('utf8', 0, buffer.indexOf(0)), calls: recorded(log) };
    } finally {
      delete process.env.KL_WSI_RECORD_LOG;
    }
  }

  // Through a Khronos loader, in a process of its own, the layer enabled by VK_INSTANCE_LAYERS.
  function throughKhronos(library: string, mode: string): { report: string; calls: string[] } {
    const log = path.join(folder, `khronos-${mode}.log`);
    writeFileSync(log, '');
    const r = spawnSync(path.join(testNativeDir, 'vulkan_wsi_present', 'kl_vk_wsi_present'), [library, displayFor(mode), mode, '2080c0', '0'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        VK_ICD_FILENAMES: REAL_DRIVER_MANIFEST,
        VK_DRIVER_FILES: REAL_DRIVER_MANIFEST,
        VK_LAYER_PATH: folder,
        VK_INSTANCE_LAYERS: RECORD_LAYER,
        VK_LOADER_LAYERS_DISABLE: '~implicit~',
        KL_WSI_RECORD_LOG: log,
      },
    });
    return { report: r.stdout.trim(), calls: recorded(log) };
  }

  // Wayland where weston is installed (its own case is skipped otherwise), Xlib and XCB always.
  const modes = MODES.filter((m) => m.mode !== 'wayland' || missingWayland === null);

  for (const m of MODES) {
    it.skipIf(m.mode === 'wayland' && missingWayland !== null)(`VK-WSI-7: through this loader a layer sees every window-system call of an ${m.mode} window (surface creation, the presentation-support query, the surface queries, the swapchain commands, acquire, present, destruction), in order`, () => {
      const ours = throughOurs(m.mode);
      expect(ours.report).toMatch(/^ok .* destroyed$/);
      expect(ours.calls).toEqual(expectedCalls(m));
      expect(mappedLibraries('libkl_vk_wsi_record_layer.so')).toEqual([]);
    });
  }

  for (const loader of khronosVulkanLoaders()) {
    it.skipIf(loader.missing !== null)(`VK-WSI-7: the Khronos loader ${loader.version} shows the layer the same window-system calls as this loader (${modes.map((m) => m.mode).join(', ')})`, () => {
      for (const m of modes) {
        const theirs = throughKhronos(loader.library!, m.mode);
        expect(theirs.report, m.mode).toMatch(/^ok .* destroyed$/);
        expect(theirs.calls, m.mode).toEqual(expectedCalls(m));
        expect(throughOurs(m.mode).calls, m.mode).toEqual(theirs.calls);
      }
    });
  }
});
