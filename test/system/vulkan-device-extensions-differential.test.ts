// Device extensions against every Khronos Vulkan loader, on the real driver (lavapipe, or the one
// KHRONOS_LOADER_VK_DRIVER_JSON names): vkEnumerateDeviceExtensionProperties with and without a
// layer name, and vkCreateDevice's check of the requested extensions, with layers that list
// device_extensions in their manifests (copies of test/native/vk_discovery_probe_layer, which
// answer none of these commands themselves, so the loader's own answer is what comes back).
// The Khronos side through test/native/vk_enumerate, ours through createLoader().createInstance()
// and the generated bindings.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { VK_API_VERSION_1_1, VulkanError, vulkanCommands } from '../../lib/vulkan/index.js';
import type { VkInstance } from '../../lib/vulkan/commands.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { missingRealDriver, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { makeTempRoot, put, vkLayerManifest } from '../unit/vulkan/fixtures.js';

const enumerate = path.join(testNativeDir, 'vk_enumerate/vk_enumerate');
const probeLayer = path.join(testNativeDir, 'vk_discovery_probe_layer/libvk_discovery_probe_layer.so');
const skip =
  missingSystemComponent({
    'test/native vk_enumerate (needs libvulkan-dev headers)': [enumerate],
    'test/native vk_discovery_probe_layer': [probeLayer],
  }) ?? missingRealDriver();
const VK_ERROR_EXTENSION_NOT_PRESENT = -7;

interface ExtensionList {
  result: number;
  list: string[];
}
interface Answer {
  /** vkEnumerateDeviceExtensionProperties per query ("-": NULL) as name@specVersion, sorted. */
  queries: Record<string, ExtensionList>;
  create: number;
}

let root = '';
let cleanup = (): void => {};
let n = 0;

const IMPLICIT = 'VK_LAYER_T_implicit_device_ext';
const EXPLICIT = 'VK_LAYER_T_explicit_device_ext';
const OTHER = 'VK_LAYER_T_other_device_ext';

/** The tree: an implicit and two explicit probe layers with device_extensions; the real driver. */
function environment(): Record<string, string> {
  const layer = (folder: string, name: string, deviceExtensions: { name: string; spec_version: string }[], implicit: boolean): void => {
    const lib = path.join(root, 'libs', name, 'libprobe_layer.so');
    mkdirSync(path.dirname(lib), { recursive: true });
    copyFileSync(probeLayer, lib);
    const spec = { name, library_path: lib, device_extensions: deviceExtensions, ...(implicit && { disable_environment: { T_OFF: '1' } }) };
    put('/', path.join(root, folder, `${name}.json`), vkLayerManifest(spec));
  };
  // A name the driver lists too (its own spec version must stay), and one only the layer has.
  layer('xdgconf/vulkan/implicit_layer.d', IMPLICIT, [{ name: 'VK_EXT_t_implicit_device', spec_version: '3' }, { name: 'VK_KHR_maintenance1', spec_version: '99' }], true);
  layer('data/vulkan/explicit_layer.d', EXPLICIT, [{ name: 'VK_EXT_t_explicit_device', spec_version: '2' }], false);
  layer('data/vulkan/explicit_layer.d', OTHER, [{ name: 'VK_EXT_t_other_device', spec_version: '1' }], false);
  mkdirSync(path.join(root, 'home'), { recursive: true });
  return { HOME: path.join(root, 'home'), XDG_CONFIG_DIRS: path.join(root, 'xdgconf'), XDG_DATA_DIRS: path.join(root, 'data'), VK_DRIVER_FILES: REAL_DRIVER_MANIFEST };
}

const QUERIES = ['-', IMPLICIT, EXPLICIT, OTHER, 'VK_LAYER_T_nobody'];
const named = (list: readonly { extensionName: string; specVersion: number }[]): string[] => list.map((e) => `${e.extensionName}@${e.specVersion}`).sort();

function khronos(library: string, env: Record<string, string>, layers: string[], extensions: string[]): Answer {
  const out = path.join(root, `out-${++n}.json`);
  const args = ['--loader', library, '--out', out, ...layers.flatMap((l) => ['--layer', l]), ...QUERIES.flatMap((q) => ['--device-query', q]), ...extensions.flatMap((e) => ['--device-extension', e])];
  execFileSync(enumerate, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'ignore', 'ignore'] });
  const raw = JSON.parse(readFileSync(out, 'utf8')) as {
    create: { result: number };
    deviceExtensions: Record<string, { result: number; list: { extensionName: string; specVersion: number }[] }>;
    deviceCreate: { result: number };
  };
  expect(raw.create.result).toBe(0);
  const queries: Record<string, ExtensionList> = {};
  for (const [q, r] of Object.entries(raw.deviceExtensions)) queries[q] = { result: r.result, list: named(r.list) };
  return { queries, create: raw.deviceCreate.result };
}

function ours(env: Record<string, string>, layers: string[], extensions: string[]): Answer {
  const loader = createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
  const instance = loader.createInstance({ applicationName: 'kl-device-extensions', apiVersion: VK_API_VERSION_1_1, enabledLayerNames: layers });
  try {
    const vk = vulkanCommands(instance.handle);
    const pd = vk.vkEnumeratePhysicalDevices(instance.handle as VkInstance).pPhysicalDevices[0]!;
    const queries: Record<string, ExtensionList> = {};
    for (const q of QUERIES) {
      const r = vk.vkEnumerateDeviceExtensionProperties(pd, q === '-' ? null : q);
      queries[q] = { result: r.result, list: named(r.pProperties) };
    }
    let create = 0;
    try {
      vk.vkDestroyDevice(vk.vkCreateDevice(pd, { pQueueCreateInfos: [{ queueFamilyIndex: 0, pQueuePriorities: [1] }], ppEnabledExtensionNames: extensions }).pDevice);
    } catch (error) {
      if (!(error instanceof VulkanError)) throw error;
      create = error.resultValue;
    }
    return { queries, create };
  } finally {
    instance.destroy();
  }
}

for (const loader of khronosVulkanLoaders()) {
  describe.skipIf(skip !== null || loader.missing !== null)(`Device extensions against the Khronos loader ${loader.version}`, () => {
    let env: Record<string, string> = {};
    beforeAll(() => {
      ({ root, cleanup } = makeTempRoot('kl-vkdevext-'));
      env = environment();
    });
    afterAll(() => cleanup());

    const same = (layers: string[], extensions: string[]): Answer => {
      const k = khronos(loader.library ?? '', env, layers, extensions);
      const o = ours(env, layers, extensions);
      expect(o.queries).toEqual(k.queries);
      expect(o.create).toBe(k.create);
      return o;
    };

    it('VK-DX-1: without a layer name, the driver\'s device extensions followed by the implicit layers\' (a name the driver lists keeps its spec version); with a name, that layer\'s manifest list, enabled or not; an unknown name, none', () => {
      const r = same([EXPLICIT], []);
      const all = r.queries['-']!;
      expect(all.result).toBe(0);
      expect(all.list).toContain('VK_EXT_t_implicit_device@3');
      expect(all.list.filter((e) => e.startsWith('VK_KHR_maintenance1@'))).toHaveLength(1);
      expect(all.list).not.toContain('VK_KHR_maintenance1@99');
      expect(all.list).not.toContain('VK_EXT_t_explicit_device@2');
      expect(r.queries[EXPLICIT]).toEqual({ result: 0, list: ['VK_EXT_t_explicit_device@2'] });
      expect(r.queries[OTHER]).toEqual({ result: 0, list: ['VK_EXT_t_other_device@1'] });
      expect(r.queries[IMPLICIT]!.list).toEqual(['VK_EXT_t_implicit_device@3', 'VK_KHR_maintenance1@99']);
      expect(r.queries['VK_LAYER_T_nobody']).toEqual({ result: 0, list: [] });
    });

    it('VK-DX-2: vkCreateDevice accepts an extension a layer in the chain lists (implicit or enabled), and refuses with VK_ERROR_EXTENSION_NOT_PRESENT one nobody offers or one only a layer outside the chain lists', () => {
      expect(same([EXPLICIT], ['VK_EXT_t_explicit_device', 'VK_EXT_t_implicit_device', 'VK_KHR_maintenance1']).create).toBe(0);
      expect(same([EXPLICIT], ['VK_KHR_maintenance1', 'VK_EXT_t_nobody_offers']).create).toBe(VK_ERROR_EXTENSION_NOT_PRESENT);
      expect(same([EXPLICIT], ['VK_EXT_t_other_device']).create).toBe(VK_ERROR_EXTENSION_NOT_PRESENT);
      expect(same([], ['VK_EXT_t_explicit_device']).create).toBe(VK_ERROR_EXTENSION_NOT_PRESENT);
    });
  });
}
