// VK-LD-2 (Android profile): layers come from libVkLayer_*.so libraries' introspection functions,
// answered here by the fixture platform's introspectLayerLibrary (the real one is the addon's,
// tested in test/vulkan-native/android-layer-introspection.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import type { AndroidLayerIntrospection } from '../../../lib/core/platform/platform.js';
import { discover } from '../../../lib/vulkan/discovery/discover.js';
import { createLoader } from '../../../lib/vulkan/loader.js';
import { makeTempRoot, put } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-vkandroid-'));
});
afterEach(() => cleanup());

const quiet = { logWriter: () => {} };
const API_1_3_250 = (1 << 22) | (3 << 12) | 250;

/** What each fixture library says about itself; a missing entry is a library whose symbol is absent. */
const libraries: Record<string, AndroidLayerIntrospection> = {
  '/data/app/lib/libVkLayer_app.so': {
    layers: [
      { layerName: 'VK_LAYER_T_app_one', specVersion: API_1_3_250, implementationVersion: 4, description: 'app layer one' },
      { layerName: 'VK_LAYER_T_app_two', specVersion: API_1_3_250, implementationVersion: 1, description: 'app layer two' },
    ],
    extensions: { VK_LAYER_T_app_one: [{ extensionName: 'VK_EXT_t_one', specVersion: 2 }] },
  },
  '/data/local/debug/vulkan/libVkLayer_debug.so': {
    layers: [{ layerName: 'VK_LAYER_T_debug', specVersion: API_1_3_250, implementationVersion: 9, description: 'debug layer' }],
    extensions: {},
  },
};

function android(debuggable: string) {
  put(root, '/data/app/lib/libVkLayer_app.so', 'x');
  put(root, '/data/app/lib/libVkLayer_broken.so', 'x');
  put(root, '/data/app/lib/libother.so', 'x');
  put(root, '/data/local/debug/vulkan/libVkLayer_debug.so', 'x');
  const introspected: string[] = [];
  const platform = createFixturePlatform({
    root,
    os: 'android',
    executablePath: '/system/bin/app_process64',
    android: {
      property: (n) => (n === 'ro.debuggable' ? debuggable : undefined),
      nativeLibraryDir: '/data/app/lib',
      introspectLayerLibrary: (p) => {
        introspected.push(p);
        return libraries[p] ?? { error: `'${p}' vkEnumerateInstanceLayerProperties: the library does not export it`, symbol: 'vkEnumerateInstanceLayerProperties' };
      },
    },
  });
  return { platform, introspected };
}

describe('VK-LD-2: Android layer libraries described by their introspection functions', () => {
  it('VK-LD-2: each library\'s layers, in library order, explicit, the .so as library with the default symbols', () => {
    const { platform } = android('1');
    const d = discover({ platform, ...quiet });
    expect(d.layers.map((l) => [l.name, l.kind, l.source, l.library, l.libraryExists])).toEqual([
      ['VK_LAYER_T_app_one', 'explicit', 'android-app', '/data/app/lib/libVkLayer_app.so', true],
      ['VK_LAYER_T_app_two', 'explicit', 'android-app', '/data/app/lib/libVkLayer_app.so', true],
      ['VK_LAYER_T_debug', 'explicit', 'android-debug', '/data/local/debug/vulkan/libVkLayer_debug.so', true],
    ]);
    const loader = createLoader({ platform, ...quiet });
    expect(loader.enumerateInstanceLayerProperties()).toEqual([
      { layerName: 'VK_LAYER_T_app_one', specVersion: API_1_3_250, implementationVersion: 4, description: 'app layer one' },
      { layerName: 'VK_LAYER_T_app_two', specVersion: API_1_3_250, implementationVersion: 1, description: 'app layer two' },
      { layerName: 'VK_LAYER_T_debug', specVersion: API_1_3_250, implementationVersion: 9, description: 'debug layer' },
    ]);
    expect(loader.enumerateInstanceExtensionProperties('VK_LAYER_T_app_one')).toEqual([{ extensionName: 'VK_EXT_t_one', specVersion: 2 }]);
    expect(loader.enumerateInstanceExtensionProperties('VK_LAYER_T_debug')).toEqual([]);
    // Explicit: nothing is on until the application asks; then the plan loads the .so with the default symbols.
    expect(loader.planInstance().layers).toEqual([]);
    const planned = loader.planInstance({ enabledLayerNames: ['VK_LAYER_T_debug', 'VK_LAYER_T_app_one'] }).layers;
    expect(planned.map((l) => [l.name, l.libraryPath, l.apiVersion, l.implementationVersion])).toEqual([
      ['VK_LAYER_T_debug', '/data/local/debug/vulkan/libVkLayer_debug.so', API_1_3_250, 9],
      ['VK_LAYER_T_app_one', '/data/app/lib/libVkLayer_app.so', API_1_3_250, 4],
    ]);
    expect(planned[1]?.symbols).toEqual({ negotiateLoaderLayerInterfaceVersion: 'vkNegotiateLoaderLayerInterfaceVersion', getInstanceProcAddr: 'vkGetInstanceProcAddr', getDeviceProcAddr: 'vkGetDeviceProcAddr' });
  });

  it('VK-LD-2: a library whose introspection fails is a diagnostic naming the file and symbol; the others still count', () => {
    const { platform } = android('1');
    const d = discover({ platform, ...quiet });
    const bad = d.diagnostics.filter((x) => x.file === '/data/app/lib/libVkLayer_broken.so');
    expect(bad).toHaveLength(1);
    expect(bad[0]?.field).toBe('vkEnumerateInstanceLayerProperties');
    expect(bad[0]?.reason).toMatch(/introspection failed: .*does not export it/);
    expect(d.layers).toHaveLength(3);
  });

  it('VK-LD-2: /data/local/debug/vulkan is introspected only on a debuggable device', () => {
    const off = android('0');
    expect(discover({ platform: off.platform, ...quiet }).layers.map((l) => l.name)).toEqual(['VK_LAYER_T_app_one', 'VK_LAYER_T_app_two']);
    expect(off.introspected).toEqual(['/data/app/lib/libVkLayer_app.so', '/data/app/lib/libVkLayer_broken.so']);
    const on = android('1');
    discover({ platform: on.platform, ...quiet });
    expect(on.introspected).toEqual(['/data/app/lib/libVkLayer_app.so', '/data/app/lib/libVkLayer_broken.so', '/data/local/debug/vulkan/libVkLayer_debug.so']);
  });
});
