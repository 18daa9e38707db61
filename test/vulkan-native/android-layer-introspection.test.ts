// VK-LD-2 (Android): the addon's introspection of a real layer library (test/native/android_layer_introspection,
// built as libVkLayer_kltest_full.so and, without vkEnumerateInstanceExtensionProperties, libVkLayer_kltest_noext.so),
// and the Android platform using it by default.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAndroidPlatform } from '../../lib/core/platform/android.js';
import { nodeFileSystem } from '../../lib/core/platform/node-fs.js';
import { loadNativeAddon } from '../../lib/core/native/load.js';
import { discover } from '../../lib/vulkan/discovery/discover.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { loadVulkanAddon } from '../../lib/vulkan/native/addon.js';
import { testNativeDir } from '../helpers/paths.js';

const folder = path.join(testNativeDir, 'android_layer_introspection');
const full = path.join(folder, 'libVkLayer_kltest_full.so');
const noext = path.join(folder, 'libVkLayer_kltest_noext.so');
const quiet = { logWriter: () => {} };
const api = (major: number, minor: number, patch: number): number => ((major << 22) | (minor << 12) | patch) >>> 0;

describe('VK-LD-2: layer library introspection through the addon', () => {
  it('VK-LD-2: names, versions, descriptions and per-layer extensions read back; the library is closed again', () => {
    const before = loadNativeAddon().openLibraryCount();
    expect(loadVulkanAddon().vulkanIntrospectLayerLibrary(full)).toEqual({
      layers: [
        { layerName: 'VK_LAYER_KLTEST_android_a', specVersion: api(1, 3, 250), implementationVersion: 7, description: 'KL test Android layer A (introspection only)' },
        { layerName: 'VK_LAYER_KLTEST_android_b', specVersion: api(1, 1, 0), implementationVersion: 2, description: 'KL test Android layer B' },
      ],
      extensions: {
        VK_LAYER_KLTEST_android_a: [
          { extensionName: 'VK_EXT_kltest_android_one', specVersion: 3 },
          { extensionName: 'VK_EXT_kltest_android_two', specVersion: 1 },
        ],
        VK_LAYER_KLTEST_android_b: [],
      },
    });
    expect(loadNativeAddon().openLibraryCount()).toBe(before);
  });

  it('VK-LD-2: a missing symbol or an unloadable file is an error naming the file, the symbol and the reason', () => {
    expect(loadVulkanAddon().vulkanIntrospectLayerLibrary(noext)).toEqual({
      error: `'${noext}' vkEnumerateInstanceExtensionProperties: the library does not export it`,
      symbol: 'vkEnumerateInstanceExtensionProperties',
    });
    const missing = path.join(folder, 'libVkLayer_absent.so');
    const r = loadVulkanAddon().vulkanIntrospectLayerLibrary(missing);
    expect('error' in r && r.error).toMatch(new RegExp(`^cannot load '${missing.replace(/[.]/g, '\\.')}': .*No such file`));
    expect('symbol' in r).toBe(false);
  });

  it('VK-LD-2: createAndroidPlatform introspects the app folder\'s libVkLayer_*.so with the addon by default', () => {
    const platform = createAndroidPlatform({ fs: nodeFileSystem(), android: { property: () => '0', nativeLibraryDir: folder } });
    const loader = createLoader({ platform, ...quiet });
    expect(loader.enumerateInstanceLayerProperties().map((l) => [l.layerName, l.specVersion, l.implementationVersion])).toEqual([
      ['VK_LAYER_KLTEST_android_a', api(1, 3, 250), 7],
      ['VK_LAYER_KLTEST_android_b', api(1, 1, 0), 2],
    ]);
    expect(loader.enumerateInstanceExtensionProperties('VK_LAYER_KLTEST_android_a').map((e) => e.extensionName)).toEqual(['VK_EXT_kltest_android_one', 'VK_EXT_kltest_android_two']);
    expect(loader.planInstance({ enabledLayerNames: ['VK_LAYER_KLTEST_android_b'] }).layers.map((l) => l.libraryPath)).toEqual([full]);
    const d = discover({ platform, ...quiet }).diagnostics.filter((x) => x.file === noext);
    expect(d.map((x) => x.field)).toEqual(['vkEnumerateInstanceExtensionProperties']);
  });
});
