// VK-CH-6: the spec's "requirements of a well-behaved loader" (LLP_LOADER_1..13) that discovery
// and policy carry out. Rules 1, 3, 4, 5, 8 and 9 are about loading and chains and are tested on
// the native core (test/vulkan-native/chain.test.ts); these are the rest, one test per rule, each
// through the public loader over a fixture tree.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform, type FixturePlatformOptions } from '../../../lib/core/platform/fixture.js';
import { createLoader } from '../../../lib/vulkan/loader.js';
import { VulkanLayerNotPresentError } from '../../../lib/vulkan/errors.js';
import { makeTempRoot, put, vkLayerManifest, type VkLayerSpec } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-vk-llp-'));
});
afterEach(() => cleanup());

const quiet = { logWriter: () => {} };
const IMPLICIT = '/usr/share/vulkan/implicit_layer.d';
const EXPLICIT = '/usr/share/vulkan/explicit_layer.d';

function layer(file: string, spec: VkLayerSpec): void {
  put(root, file, vkLayerManifest({ library_path: `/usr/lib/lib${spec.name}.so`, ...spec }));
}
/** The override meta layer (a meta layer: component_layers, no library_path). */
function override(file: string, spec: Partial<VkLayerSpec> & { component_layers: string[] }): void {
  put(root, file, vkLayerManifest({ name: 'VK_LAYER_LUNARG_override', file_format_version: '1.1.2', disable_environment: { NO_OVERRIDE: '1' }, ...spec }));
}
function implicit(name: string, extra: Partial<VkLayerSpec> = {}): VkLayerSpec {
  return { name, disable_environment: { [`DISABLE_${name}`]: '1' }, ...extra };
}
function chain(requested: string[], opts: Omit<FixturePlatformOptions, 'root'> = {}): string[] {
  const platform = createFixturePlatform({ root, executablePath: '/usr/bin/app', ...opts, env: { HOME: '/home/me', ...opts.env } });
  return createLoader({ platform, ...quiet }).resolveEnabledLayers(requested);
}

describe('VK-CH-6: LLP_LOADER rules carried out by discovery and policy', () => {
  it('VK-CH-6 LLP_LOADER_2: layers load from non-standard places (VK_LAYER_PATH, VK_ADD_LAYER_PATH) without a global install', () => {
    layer('/home/me/dev/a.json', { name: 'VK_LAYER_T_in_development' });
    layer('/opt/extra/b.json', { name: 'VK_LAYER_T_added' });
    expect(() => chain(['VK_LAYER_T_in_development'])).toThrow(VulkanLayerNotPresentError);
    expect(chain(['VK_LAYER_T_in_development'], { env: { VK_LAYER_PATH: '/home/me/dev' } })).toEqual(['VK_LAYER_T_in_development']);
    expect(chain(['VK_LAYER_T_added'], { env: { VK_ADD_LAYER_PATH: '/opt/extra' } })).toEqual(['VK_LAYER_T_added']);
  });

  it('VK-CH-6 LLP_LOADER_6: an implicit layer with an enable variable is on only while that variable has its value; without one it is on', () => {
    layer(`${IMPLICIT}/a.json`, implicit('VK_LAYER_T_gated', { enable_environment: { ENABLE_GATED: '1' } }));
    layer(`${IMPLICIT}/b.json`, implicit('VK_LAYER_T_default_on'));
    expect(chain([])).toEqual(['VK_LAYER_T_default_on']);
    expect(chain([], { env: { ENABLE_GATED: '0' } })).toEqual(['VK_LAYER_T_default_on']);
    expect(chain([], { env: { ENABLE_GATED: '1' } })).toEqual(['VK_LAYER_T_gated', 'VK_LAYER_T_default_on']);
  });

  it('VK-CH-6 LLP_LOADER_7: an enabled implicit layer is not loaded when its disable variable is set or the override blacklists it', () => {
    layer(`${IMPLICIT}/a.json`, implicit('VK_LAYER_T_implicit', { enable_environment: { ENABLE_IT: '1' } }));
    expect(chain([], { env: { ENABLE_IT: '1' } })).toEqual(['VK_LAYER_T_implicit']);
    expect(chain([], { env: { ENABLE_IT: '1', DISABLE_VK_LAYER_T_implicit: '1' } })).toEqual([]);
    layer(`${EXPLICIT}/component.json`, { name: 'VK_LAYER_T_component' });
    override(`${IMPLICIT}/override.json`, {
      component_layers: ['VK_LAYER_T_component'],
      blacklisted_layers: ['VK_LAYER_T_implicit'],
    });
    expect(chain([], { env: { ENABLE_IT: '1' } })).not.toContain('VK_LAYER_T_implicit');
  });

  it('VK-CH-6 LLP_LOADER_10: a meta layer loads only when every component is found with the same API major.minor', () => {
    layer(`${EXPLICIT}/a.json`, { name: 'VK_LAYER_T_a', api_version: '1.3.0' });
    layer(`${EXPLICIT}/b.json`, { name: 'VK_LAYER_T_b', api_version: '1.3.200' });
    layer(`${EXPLICIT}/old.json`, { name: 'VK_LAYER_T_old', api_version: '1.1.0' });
    put(root, `${EXPLICIT}/m1.json`, vkLayerManifest({ name: 'VK_LAYER_T_meta_ok', api_version: '1.3.0', component_layers: ['VK_LAYER_T_a', 'VK_LAYER_T_b'] }));
    put(root, `${EXPLICIT}/m2.json`, vkLayerManifest({ name: 'VK_LAYER_T_meta_missing', api_version: '1.3.0', component_layers: ['VK_LAYER_T_a', 'VK_LAYER_T_nowhere'] }));
    put(root, `${EXPLICIT}/m3.json`, vkLayerManifest({ name: 'VK_LAYER_T_meta_old', api_version: '1.3.0', component_layers: ['VK_LAYER_T_a', 'VK_LAYER_T_old'] }));
    expect(chain(['VK_LAYER_T_meta_ok'])).toEqual(['VK_LAYER_T_a', 'VK_LAYER_T_b']);
    expect(() => chain(['VK_LAYER_T_meta_missing'])).toThrow(VulkanLayerNotPresentError);
    expect(() => chain(['VK_LAYER_T_meta_old'])).toThrow(VulkanLayerNotPresentError);
  });

  it('VK-CH-6 LLP_LOADER_11: the override meta layer and its components go into the chain after every other implicit layer', () => {
    layer(`${IMPLICIT}/a.json`, implicit('VK_LAYER_T_implicit_a'));
    layer(`${IMPLICIT}/z.json`, implicit('VK_LAYER_T_implicit_z'));
    layer(`${EXPLICIT}/c.json`, { name: 'VK_LAYER_T_component' });
    // Sorted by file name the override's manifest comes first: its place must still be last.
    override(`${IMPLICIT}/0-override.json`, {
      component_layers: ['VK_LAYER_T_component'],
    });
    expect(chain([])).toEqual(['VK_LAYER_T_implicit_a', 'VK_LAYER_T_implicit_z', 'VK_LAYER_T_component']);
  });

  it('VK-CH-6 LLP_LOADER_12: every layer on the override\'s blacklist is disabled, even when the application asks for it', () => {
    layer(`${EXPLICIT}/a.json`, { name: 'VK_LAYER_T_banned' });
    layer(`${EXPLICIT}/b.json`, { name: 'VK_LAYER_T_allowed' });
    expect(chain(['VK_LAYER_T_banned', 'VK_LAYER_T_allowed'])).toEqual(['VK_LAYER_T_banned', 'VK_LAYER_T_allowed']);
    layer(`${EXPLICIT}/component.json`, { name: 'VK_LAYER_T_component' });
    override(`${IMPLICIT}/override.json`, {
      component_layers: ['VK_LAYER_T_component'],
      blacklisted_layers: ['VK_LAYER_T_banned'],
    });
    expect(chain(['VK_LAYER_T_allowed'])).toEqual(['VK_LAYER_T_component', 'VK_LAYER_T_allowed']);
    expect(() => chain(['VK_LAYER_T_banned'])).toThrow(VulkanLayerNotPresentError);
    expect(chain(['VK_LAYER_T_allowed'], { env: { VK_INSTANCE_LAYERS: 'VK_LAYER_T_banned' } })).not.toContain('VK_LAYER_T_banned');
  });

  it('VK-CH-6 LLP_LOADER_13: an elevated process loads nothing from VK_LAYER_PATH, VK_ADD_LAYER_PATH, VK_IMPLICIT_LAYER_PATH or VK_ADD_IMPLICIT_LAYER_PATH', () => {
    layer('/opt/explicit/a.json', { name: 'VK_LAYER_T_user_explicit' });
    layer('/opt/added/a.json', { name: 'VK_LAYER_T_user_added' });
    layer('/opt/implicit/a.json', implicit('VK_LAYER_T_user_implicit'));
    layer('/opt/added_implicit/a.json', implicit('VK_LAYER_T_user_added_implicit'));
    const env = {
      VK_LAYER_PATH: '/opt/explicit',
      VK_ADD_LAYER_PATH: '/opt/added',
      VK_IMPLICIT_LAYER_PATH: '/opt/implicit',
      VK_ADD_IMPLICIT_LAYER_PATH: '/opt/added_implicit',
    };
    // Not elevated: each variable brings its layer in (VK_LAYER_PATH wins over VK_ADD_LAYER_PATH).
    expect(chain(['VK_LAYER_T_user_explicit'], { env })).toEqual(['VK_LAYER_T_user_implicit', 'VK_LAYER_T_user_explicit']);
    expect(chain(['VK_LAYER_T_user_added'], { env: { VK_ADD_LAYER_PATH: '/opt/added', VK_ADD_IMPLICIT_LAYER_PATH: '/opt/added_implicit' } })).toEqual([
      'VK_LAYER_T_user_added_implicit',
      'VK_LAYER_T_user_added',
    ]);
    // Elevated: none of them.
    expect(chain([], { env, elevated: true })).toEqual([]);
    for (const name of ['VK_LAYER_T_user_explicit', 'VK_LAYER_T_user_added']) {
      expect(() => chain([name], { env, elevated: true })).toThrow(VulkanLayerNotPresentError);
    }
  });
});
