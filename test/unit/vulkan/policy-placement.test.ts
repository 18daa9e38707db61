// Where createLoader({ layers: { enable } }) puts the layers it turns on (VK-PO-2), over a fixture
// root: where VK_LOADER_LAYERS_ENABLE puts what it forces on (test/system/
// vulkan-policy-differential.test.ts compares the two with the Khronos loader 1.4.359).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { createLoader } from '../../../lib/vulkan/loader.js';
import type { VulkanDiscoveryOptions } from '../../../lib/vulkan/discovery/context.js';
import { makeTempRoot, put, vkLayerManifest } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => ({ root, cleanup } = makeTempRoot('kl-vkplace-')));
afterEach(() => cleanup());

/** Layers by file name order in one folder each kind: a (implicit, gated), b (implicit), c, d (explicit). */
function tree(): void {
  const layer = (dir: string, name: string, extra: object = {}): void => void put(root, `/usr/share/vulkan/${dir}/${name}.json`, vkLayerManifest({ name, library_path: `/usr/lib/${name}.so`, ...extra }));
  layer('implicit_layer.d', 'VK_LAYER_T_a', { enable_environment: { A_ON: '1' }, disable_environment: { A_OFF: '1' } });
  layer('implicit_layer.d', 'VK_LAYER_T_b', { disable_environment: { B_OFF: '1' } });
  layer('explicit_layer.d', 'VK_LAYER_T_c');
  layer('explicit_layer.d', 'VK_LAYER_T_d');
}

function chain(options: Omit<VulkanDiscoveryOptions, 'platform'>, requested: string[], env: Record<string, string> = {}): string[] {
  const platform = createFixturePlatform({ root, executablePath: '/usr/bin/app', env: { HOME: '/home/me', ...env } });
  return createLoader({ platform, logWriter: () => {}, ...options }).resolveEnabledLayers(requested);
}

describe('Vulkan policy: where layers.enable places layers', () => {
  it('VK-PO-2: an implicit layer enable turns on joins the implicit pass in the loader\'s order, as VK_LOADER_LAYERS_ENABLE places it', () => {
    tree();
    expect(chain({}, [], { VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_a' })).toEqual(['VK_LAYER_T_a', 'VK_LAYER_T_b']);
    expect(chain({ layers: { enable: ['VK_LAYER_T_a'] } }, [])).toEqual(['VK_LAYER_T_a', 'VK_LAYER_T_b']);
    expect(chain({ layers: { enable: ['VK_LAYER_T_a'] } }, ['VK_LAYER_T_d'])).toEqual(['VK_LAYER_T_a', 'VK_LAYER_T_b', 'VK_LAYER_T_d']);
  });

  it('VK-PO-2: an explicit layer enable names and the application asks for takes enable\'s place (the loader\'s order), as with VK_LOADER_LAYERS_ENABLE', () => {
    tree();
    expect(chain({}, ['VK_LAYER_T_d', 'VK_LAYER_T_c'], { VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_*' })).toEqual(['VK_LAYER_T_a', 'VK_LAYER_T_b', 'VK_LAYER_T_c', 'VK_LAYER_T_d']);
    expect(chain({ layers: { enable: ['VK_LAYER_T_*'] } }, ['VK_LAYER_T_d', 'VK_LAYER_T_c'])).toEqual(['VK_LAYER_T_a', 'VK_LAYER_T_b', 'VK_LAYER_T_c', 'VK_LAYER_T_d']);
    expect(chain({ layers: { enable: ['VK_LAYER_T_d'] } }, ['VK_LAYER_T_d', 'VK_LAYER_T_c'])).toEqual(['VK_LAYER_T_b', 'VK_LAYER_T_d', 'VK_LAYER_T_c']);
  });
});
