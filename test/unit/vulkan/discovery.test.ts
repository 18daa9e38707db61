// Vulkan discovery and policy on fixture platforms: every OS profile, the variables the Debian
// 1.3.239 loader does not have (VK_IMPLICIT_LAYER_PATH, VK_LOADER_LAYERS_ALLOW, the settings file),
// elevation, and the plan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform, registryFromMap, type FixturePlatformOptions } from '../../../lib/core/platform/fixture.js';
import { discover } from '../../../lib/vulkan/discovery/discover.js';
import { VulkanLayerNotPresentError } from '../../../lib/vulkan/errors.js';
import { createLoader } from '../../../lib/vulkan/loader.js';
import { makeTempRoot, put, vkDriverManifest, vkLayerManifest, type VkLayerSpec } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-vkdisc-'));
});
afterEach(() => cleanup());

const quiet = { logWriter: () => {} };
function platform(opts: Omit<FixturePlatformOptions, 'root'> = {}) {
  return createFixturePlatform({ root, executablePath: '/usr/bin/app', ...opts, env: { HOME: '/home/me', ...opts.env } });
}
function layer(p: string, spec: VkLayerSpec): void {
  put(root, p, vkLayerManifest({ library_path: `/usr/lib/${spec.name}.so`, ...spec }));
}
const implicitSpec = (name: string, extra: Partial<VkLayerSpec> = {}): VkLayerSpec => ({ name, disable_environment: { [`DISABLE_${name}`]: '1' }, ...extra });

describe('Linux search folders', () => {
  it('VK-LD-1: the six folders in the spec order; the per-user ones (and every variable) ignored when elevated', () => {
    const folders = ['/home/me/.config', '/etc/xdg', '/etc', '/home/me/.local/share', '/usr/local/share', '/usr/share'];
    folders.forEach((f, i) => layer(`${f}/vulkan/explicit_layer.d/l.json`, { name: `VK_LAYER_T_${i}` }));
    const d = discover({ platform: platform(), ...quiet });
    expect(d.layers.map((l) => l.name)).toEqual(folders.map((_, i) => `VK_LAYER_T_${i}`));
    expect(d.searched.explicitLayers).toEqual(folders.map((f) => `${f}/vulkan/explicit_layer.d`));
    const elevated = discover({ platform: platform({ elevated: true, env: { XDG_DATA_DIRS: '/opt', VK_LAYER_PATH: '/opt' } }), ...quiet });
    expect(elevated.layers.map((l) => l.name)).toEqual(['VK_LAYER_T_1', 'VK_LAYER_T_2', 'VK_LAYER_T_4', 'VK_LAYER_T_5']);
    expect(elevated.diagnostics.some((x) => x.file === 'environment variable VK_LAYER_PATH')).toBe(true);
  });

  it('VK-LD-4: VK_IMPLICIT_LAYER_PATH replaces and VK_ADD_IMPLICIT_LAYER_PATH prepends implicit folders; ignored when elevated', () => {
    layer('/usr/share/vulkan/implicit_layer.d/std.json', implicitSpec('VK_LAYER_T_std'));
    layer('/opt/imp/a.json', implicitSpec('VK_LAYER_T_replace'));
    layer('/opt/add/a.json', implicitSpec('VK_LAYER_T_add'));
    const names = (env: Record<string, string>, elevated = false): string[] => discover({ platform: platform({ env, elevated }), ...quiet }).layers.map((l) => l.name);
    expect(names({ VK_IMPLICIT_LAYER_PATH: '/opt/imp', VK_ADD_IMPLICIT_LAYER_PATH: '/opt/add' })).toEqual(['VK_LAYER_T_replace']);
    expect(names({ VK_ADD_IMPLICIT_LAYER_PATH: '/opt/add' })).toEqual(['VK_LAYER_T_add', 'VK_LAYER_T_std']);
    expect(names({ VK_IMPLICIT_LAYER_PATH: '/opt/imp' }, true)).toEqual(['VK_LAYER_T_std']);
  });

  it('VK-LD-4: a layer found through VK_LAYER_PATH is explicit even when its manifest has implicit fields', () => {
    layer('/opt/layers/a.json', implicitSpec('VK_LAYER_T_looks_implicit', { enable_environment: { X: '1' } }));
    const d = discover({ platform: platform({ env: { VK_LAYER_PATH: '/opt/layers' } }), ...quiet });
    expect(d.layers.map((l) => [l.name, l.kind, l.enabled])).toEqual([['VK_LAYER_T_looks_implicit', 'explicit', false]]);
  });

  it('VK-LD-5: one folder is read in file-name order whatever readdir says; a name seen twice keeps the first', () => {
    for (const f of ['c', 'a', 'b']) layer(`/usr/share/vulkan/explicit_layer.d/${f}.json`, { name: 'VK_LAYER_T_same', implementation_version: f.charCodeAt(0).toString() });
    const d = discover({ platform: platform(), ...quiet });
    expect(d.layers.map((l) => l.implementationVersion)).toEqual(['a'.charCodeAt(0)]);
    expect(d.diagnostics.filter((x) => /duplicate layer name/.test(x.reason)).map((x) => x.file)).toEqual([
      '/usr/share/vulkan/explicit_layer.d/b.json',
      '/usr/share/vulkan/explicit_layer.d/c.json',
    ]);
  });
});

describe('other OS profiles', () => {
  it('VK-LD-2: macOS searches the application bundle first, then as Linux', () => {
    layer('/Applications/My.app/Contents/Resources/vulkan/implicit_layer.d/b.json', implicitSpec('VK_LAYER_T_bundle'));
    layer('/usr/share/vulkan/implicit_layer.d/s.json', implicitSpec('VK_LAYER_T_system'));
    const d = discover({ platform: platform({ os: 'macos', executablePath: '/Applications/My.app/Contents/MacOS/My' }), ...quiet });
    expect(d.searched.implicitLayers[0]).toBe('/Applications/My.app/Contents/Resources/vulkan/implicit_layer.d');
    expect(d.layers.map((l) => l.name)).toEqual(['VK_LAYER_T_bundle', 'VK_LAYER_T_system']);
  });

  it('VK-LD-2: macOS with VK_LOADER_SEARCH_ONLY_IN_BUNDLE searches only the bundle (drivers too), VK_ADD_LAYER_PATH still adds, elevated ignores it', () => {
    layer('/Applications/My.app/Contents/Resources/vulkan/implicit_layer.d/b.json', implicitSpec('VK_LAYER_T_bundle'));
    layer('/usr/share/vulkan/implicit_layer.d/s.json', implicitSpec('VK_LAYER_T_system'));
    layer('/opt/added/e.json', { name: 'VK_LAYER_T_added' });
    layer('/usr/share/vulkan/explicit_layer.d/x.json', { name: 'VK_LAYER_T_system_explicit' });
    const app = { os: 'macos' as const, executablePath: '/Applications/My.app/Contents/MacOS/My' };
    const only = discover({ platform: platform({ ...app, env: { VK_LOADER_SEARCH_ONLY_IN_BUNDLE: '', VK_ADD_LAYER_PATH: '/opt/added' } }), ...quiet });
    expect(only.searched.implicitLayers).toEqual(['/Applications/My.app/Contents/Resources/vulkan/implicit_layer.d']);
    expect(only.searched.drivers).toEqual(['/Applications/My.app/Contents/Resources/vulkan/icd.d']);
    expect(only.layers.map((l) => l.name).sort()).toEqual(['VK_LAYER_T_added', 'VK_LAYER_T_bundle']);
    // Outside an app bundle it leaves no standard folder at all.
    const bare = discover({ platform: platform({ os: 'macos', executablePath: '/usr/local/bin/tool', env: { VK_LOADER_SEARCH_ONLY_IN_BUNDLE: '1' } }), ...quiet });
    expect(bare.searched.implicitLayers).toEqual([]);
    const elevated = discover({ platform: platform({ ...app, elevated: true, env: { VK_LOADER_SEARCH_ONLY_IN_BUNDLE: '1' } }), ...quiet });
    expect(elevated.layers.map((l) => l.name)).toEqual(['VK_LAYER_T_bundle', 'VK_LAYER_T_system', 'VK_LAYER_T_system_explicit']);
  });

  it('VK-LD-2: Fuchsia has no fallback values for XDG_CONFIG_DIRS / XDG_DATA_DIRS', () => {
    layer('/usr/share/vulkan/explicit_layer.d/s.json', { name: 'VK_LAYER_T_fallback' });
    layer('/etc/xdg/vulkan/explicit_layer.d/s.json', { name: 'VK_LAYER_T_xdg' });
    expect(discover({ platform: platform({ os: 'fuchsia' }), ...quiet }).layers).toEqual([]);
    expect(discover({ platform: platform({ os: 'linux' }), ...quiet }).layers).toHaveLength(2);
  });

  it('VK-ML-5: the Fuchsia gapii package: override_paths gives the application VK_LAYER_GOOGLE_gapii; empty override_paths do not', () => {
    const override = (paths: string[]): string =>
      JSON.stringify({
        file_format_version: '1.1.2',
        layer: {
          name: 'VK_LAYER_LUNARG_override',
          api_version: '1.2.198',
          implementation_version: '1',
          app_keys: [],
          blacklisted_layers: [],
          component_layers: ['VK_LAYER_GOOGLE_gapii'],
          description: 'LunarG Override Layer',
          disable_environment: { DISABLE_VK_LAYER_LUNARG_override: '1' },
          override_paths: paths,
          type: 'GLOBAL',
        },
      });
    put(root, '/gapii_pkg/data/vulkan/explicit_layer.d/gapii.json', vkLayerManifest({ name: 'VK_LAYER_GOOGLE_gapii', api_version: '1.2.198', library_path: '/gapii_pkg/lib/libgapii.so' }));
    put(root, '/pkg/data/vulkan/implicit_layer.d/VkLayer_override.json', override(['/gapii_pkg/data/vulkan/explicit_layer.d']));
    const fuchsia = () => platform({ os: 'fuchsia', env: {} });
    const on = createLoader({ platform: fuchsia(), ...quiet });
    expect(on.resolveEnabledLayers([])).toEqual(['VK_LAYER_GOOGLE_gapii']);
    const plan = on.planInstance({});
    expect(plan.layers.map((l) => [l.name, l.libraryPath, l.origin])).toEqual([['VK_LAYER_GOOGLE_gapii', '/gapii_pkg/lib/libgapii.so', 'meta:VK_LAYER_LUNARG_override']]);
    put(root, '/pkg/data/vulkan/implicit_layer.d/VkLayer_override.json', override([]));
    const off = createLoader({ platform: fuchsia(), ...quiet });
    expect(off.resolveEnabledLayers([])).toEqual([]);
    expect(off.enumerateInstanceLayerProperties().map((l) => l.layerName)).toEqual([]);
    expect(off.discovery.diagnostics.some((x) => /VK_LAYER_GOOGLE_gapii was not found/.test(x.reason))).toBe(true);
  });

  it('VK-LD-3: Windows: PnP device keys first, then HKLM and HKCU (DWORD 0 = use); HKCU ignored when elevated; WOW6432Node for 32-bit', () => {
    put(root, '/C/drv/pnp.json', vkLayerManifest(implicitSpec('VK_LAYER_T_pnp', { library_path: 'pnp.dll' })));
    put(root, '/C/drv/pnp2.json', vkLayerManifest(implicitSpec('VK_LAYER_T_pnp_multi', { library_path: 'pnp2.dll' })));
    put(root, '/C/l/hklm.json', vkLayerManifest(implicitSpec('VK_LAYER_T_hklm', { library_path: 'a.dll' })));
    put(root, '/C/l/hkcu.json', vkLayerManifest(implicitSpec('VK_LAYER_T_hkcu', { library_path: 'a.dll' })));
    put(root, '/C/l/skip.json', vkLayerManifest(implicitSpec('VK_LAYER_T_skip', { library_path: 'a.dll' })));
    put(root, '/C/l/wow.json', vkLayerManifest(implicitSpec('VK_LAYER_T_wow', { library_path: 'a.dll' })));
    const display = 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}';
    const registry = registryFromMap({
      [`${display}\\0000`]: [{ name: 'VulkanImplicitLayers', type: 'REG_SZ', data: 'C:\\drv\\pnp.json' }],
      [`${display}\\0001`]: [{ name: 'VulkanImplicitLayers', type: 'REG_MULTI_SZ', data: ['C:\\drv\\pnp2.json'] }],
      'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers': [
        { name: 'C:\\l\\hklm.json', type: 'REG_DWORD', data: 0 },
        { name: 'C:\\l\\skip.json', type: 'REG_DWORD', data: 1 },
      ],
      'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers': [{ name: 'C:\\l\\hkcu.json', type: 'REG_DWORD', data: 0 }],
      'HKLM\\SOFTWARE\\WOW6432Node\\Khronos\\Vulkan\\ImplicitLayers': [{ name: 'C:\\l\\wow.json', type: 'REG_DWORD', data: 0 }],
    });
    const names = (o: Partial<FixturePlatformOptions>): string[] => discover({ platform: platform({ os: 'windows', registry, executablePath: 'C:\\app\\app.exe', ...o }), ...quiet }).layers.map((l) => l.name);
    expect(names({})).toEqual(['VK_LAYER_T_pnp', 'VK_LAYER_T_pnp_multi', 'VK_LAYER_T_hklm', 'VK_LAYER_T_hkcu']);
    expect(names({ elevated: true })).toEqual(['VK_LAYER_T_pnp', 'VK_LAYER_T_pnp_multi', 'VK_LAYER_T_hklm']);
    expect(names({ pointerBits: 32 })).toEqual(['VK_LAYER_T_wow', 'VK_LAYER_T_hkcu']);
    // VK_IMPLICIT_LAYER_PATH replaces the registry as it replaces the folders elsewhere.
    put(root, '/C/own/own.json', vkLayerManifest(implicitSpec('VK_LAYER_T_own', { library_path: 'own.dll' })));
    expect(names({ env: { VK_IMPLICIT_LAYER_PATH: 'C:\\own' } })).toEqual(['VK_LAYER_T_own']);
    expect(names({ env: { VK_ADD_IMPLICIT_LAYER_PATH: 'C:\\own' } })).toEqual(['VK_LAYER_T_own', 'VK_LAYER_T_pnp', 'VK_LAYER_T_pnp_multi', 'VK_LAYER_T_hklm', 'VK_LAYER_T_hkcu']);
  });

  it('VK-DR-1: Windows drivers: PnP VulkanDriverName (VulkanDriverNameWow for 32-bit) first, then HKLM Drivers only', () => {
    put(root, '/C/drv/pnp_icd.json', vkDriverManifest('C:\\drv\\pnp.dll'));
    put(root, '/C/drv/pnp32_icd.json', vkDriverManifest('C:\\drv\\pnp32.dll'));
    put(root, '/C/drv/hklm_icd.json', vkDriverManifest('C:\\drv\\hklm.dll'));
    put(root, '/C/drv/hkcu_icd.json', vkDriverManifest('C:\\drv\\hkcu.dll'));
    const display = 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}';
    const registry = registryFromMap({
      [`${display}\\0000`]: [
        { name: 'VulkanDriverName', type: 'REG_MULTI_SZ', data: ['C:\\drv\\pnp_icd.json'] },
        { name: 'VulkanDriverNameWow', type: 'REG_SZ', data: 'C:\\drv\\pnp32_icd.json' },
      ],
      'HKLM\\SOFTWARE\\Khronos\\Vulkan\\Drivers': [{ name: 'C:\\drv\\hklm_icd.json', type: 'REG_DWORD', data: 0 }],
      'HKCU\\SOFTWARE\\Khronos\\Vulkan\\Drivers': [{ name: 'C:\\drv\\hkcu_icd.json', type: 'REG_DWORD', data: 0 }],
    });
    const libs = (pointerBits: 32 | 64): string[] =>
      discover({ platform: platform({ os: 'windows', registry, pointerBits, executablePath: 'C:\\app\\app.exe' }), ...quiet }).drivers.map((d) => d.libraryPath);
    expect(libs(64)).toEqual(['C:\\drv\\pnp.dll', 'C:\\drv\\hklm.dll']);
    expect(libs(32)).toEqual(['C:\\drv\\pnp32.dll']);
  });

  it('VK-LD-2, VK-DR-2: Android: libVkLayer_*.so in the app folder (and /data/local/debug/vulkan when debuggable); the HAL driver', () => {
    put(root, '/data/app/lib/libVkLayer_app.so', 'x');
    put(root, '/data/app/lib/libother.so', 'x');
    put(root, '/data/local/debug/vulkan/libVkLayer_debug.so', 'x');
    put(root, '/vendor/lib64/hw/vulkan.kona.so', 'x');
    const props = (debuggable: string): Record<string, string> => ({ 'ro.debuggable': debuggable, 'ro.product.platform': 'kona' });
    const android = (debuggable: string) => platform({ os: 'android', android: { property: (n) => props(debuggable)[n], nativeLibraryDir: '/data/app/lib' } });
    const d = discover({ platform: android('1'), ...quiet });
    expect(d.androidLayerLibraries.map((l) => l.path)).toEqual(['/data/app/lib/libVkLayer_app.so', '/data/local/debug/vulkan/libVkLayer_debug.so']);
    expect(discover({ platform: android('0'), ...quiet }).androidLayerLibraries.map((l) => l.path)).toEqual(['/data/app/lib/libVkLayer_app.so']);
    expect(d.drivers.map((x) => [x.libraryPath, x.selected])).toEqual([['/vendor/lib64/hw/vulkan.kona.so', true]]);
  });
});

describe('filters beyond 1.3.239, meta layers, settings file', () => {
  it('VK-LF-3: VK_LOADER_LAYERS_ALLOW keeps a layer DISABLE names; an allowed implicit layer still follows its own variables', () => {
    layer('/usr/share/vulkan/implicit_layer.d/a.json', implicitSpec('VK_LAYER_T_imp_plain'));
    layer('/usr/share/vulkan/implicit_layer.d/b.json', implicitSpec('VK_LAYER_T_imp_gated', { enable_environment: { GATE: '1' } }));
    layer('/usr/share/vulkan/explicit_layer.d/c.json', { name: 'VK_LAYER_T_exp' });
    const chain = (env: Record<string, string>, requested: string[] = []): string[] => createLoader({ platform: platform({ env }), ...quiet }).resolveEnabledLayers(requested);
    expect(chain({ VK_LOADER_LAYERS_DISABLE: '~all~' })).toEqual([]);
    expect(chain({ VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: '*imp*' })).toEqual(['VK_LAYER_T_imp_plain']);
    expect(chain({ VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: '*imp*', GATE: '1' })).toEqual(['VK_LAYER_T_imp_plain', 'VK_LAYER_T_imp_gated']);
    expect(chain({ VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: 'VK_LAYER_T_exp' }, ['VK_LAYER_T_exp'])).toEqual(['VK_LAYER_T_exp']);
    expect(() => chain({ VK_LOADER_LAYERS_DISABLE: '~all~' }, ['VK_LAYER_T_exp'])).toThrow(VulkanLayerNotPresentError);
  });

  it('VK-ML-3: an implicit layer that is a component of the active override layer ignores its own disable variable', () => {
    layer('/usr/share/vulkan/implicit_layer.d/a.json', implicitSpec('VK_LAYER_T_component'));
    put(root, '/usr/share/vulkan/implicit_layer.d/o.json', vkLayerManifest({ name: 'VK_LAYER_LUNARG_override', file_format_version: '1.1.2', component_layers: ['VK_LAYER_T_component'], disable_environment: { NO_OVERRIDE: '1' } }));
    const chain = (env: Record<string, string>): string[] => createLoader({ platform: platform({ env }), ...quiet }).resolveEnabledLayers([]);
    expect(chain({ DISABLE_VK_LAYER_T_component: '1' })).toEqual(['VK_LAYER_T_component']);
    expect(chain({ DISABLE_VK_LAYER_T_component: '1', NO_OVERRIDE: '1' })).toEqual([]);
  });

  it('VK-ML-2: a meta layer reports its components\' extensions as its own', () => {
    layer('/usr/share/vulkan/explicit_layer.d/a.json', { name: 'VK_LAYER_T_a', instance_extensions: [{ name: 'VK_EXT_a', spec_version: '1' }] });
    layer('/usr/share/vulkan/explicit_layer.d/b.json', { name: 'VK_LAYER_T_b', instance_extensions: [{ name: 'VK_EXT_b', spec_version: '2' }] });
    put(root, '/usr/share/vulkan/explicit_layer.d/m.json', vkLayerManifest({ name: 'VK_LAYER_T_meta', component_layers: ['VK_LAYER_T_a', 'VK_LAYER_T_b'] }));
    const loader = createLoader({ platform: platform(), ...quiet });
    expect(loader.enumerateInstanceExtensionProperties('VK_LAYER_T_meta')).toEqual([
      { extensionName: 'VK_EXT_a', specVersion: 1 },
      { extensionName: 'VK_EXT_b', specVersion: 2 },
    ]);
    expect(() => loader.enumerateInstanceExtensionProperties('VK_LAYER_T_none')).toThrow(VulkanLayerNotPresentError);
    expect(loader.discovery.layers.find((l) => l.name === 'VK_LAYER_T_meta')?.components).toEqual(['VK_LAYER_T_a', 'VK_LAYER_T_b']);
  });

  it('the settings file orders layers and turns them on or off; unordered layers go where it says; it wins over the environment', () => {
    layer('/usr/share/vulkan/implicit_layer.d/i.json', implicitSpec('VK_LAYER_T_implicit'));
    layer('/usr/share/vulkan/explicit_layer.d/x.json', { name: 'VK_LAYER_T_unlisted' });
    layer('/opt/l/first.json', { name: 'VK_LAYER_T_first' });
    layer('/opt/l/last.json', { name: 'VK_LAYER_T_last' });
    layer('/opt/l/off.json', { name: 'VK_LAYER_T_off' });
    const settings = (layers: unknown[]): void => {
      put(root, '/home/me/.local/share/vulkan/loader_settings.d/vk_loader_settings.json', JSON.stringify({ file_format_version: '1.0.0', settings: { layers } }));
    };
    settings([
      { control: 'on', name: 'VK_LAYER_T_first', path: '/opt/l/first.json' },
      { control: 'off', name: 'VK_LAYER_T_implicit', path: '/usr/share/vulkan/implicit_layer.d/i.json' },
      { control: 'unordered_layer_location' },
      { control: 'auto', name: 'VK_LAYER_T_last', path: '/opt/l/last.json' },
    ]);
    const loader = createLoader({ platform: platform({ env: { VK_LOADER_LAYERS_DISABLE: '~all~' } }), ...quiet });
    expect(loader.discovery.settingsFile?.file).toBe('/home/me/.local/share/vulkan/loader_settings.d/vk_loader_settings.json');
    expect(loader.enumerateInstanceLayerProperties().map((l) => l.layerName)).toEqual(['VK_LAYER_T_first']);
    const plain = createLoader({ platform: platform(), ...quiet });
    expect(plain.enumerateInstanceLayerProperties().map((l) => l.layerName)).toEqual(['VK_LAYER_T_first', 'VK_LAYER_T_unlisted', 'VK_LAYER_T_last']);
    expect(plain.resolveEnabledLayers(['VK_LAYER_T_last', 'VK_LAYER_T_unlisted'])).toEqual(['VK_LAYER_T_first', 'VK_LAYER_T_unlisted', 'VK_LAYER_T_last']);
    settings([{ control: 'on', name: 'VK_LAYER_T_first', path: '/opt/l/first.json' }]);
    const only = createLoader({ platform: platform(), ...quiet });
    expect(only.enumerateInstanceLayerProperties().map((l) => l.layerName)).toEqual(['VK_LAYER_T_first']);
  });

  it('the settings file adds drivers (each prepended) or uses only them; stderr_log replaces VK_LOADER_DEBUG', () => {
    put(root, '/usr/share/vulkan/icd.d/std.json', vkDriverManifest('/usr/lib/libstd.so'));
    put(root, '/opt/d/one.json', vkDriverManifest('/usr/lib/libone.so'));
    put(root, '/opt/d/two.json', vkDriverManifest('/usr/lib/libtwo.so'));
    const write = (exclusive: boolean): void => {
      put(root, '/etc/vulkan/loader_settings.d/vk_loader_settings.json', JSON.stringify({ file_format_version: '1.0.0', settings: { stderr_log: ['error'], additional_drivers: [{ path: '/opt/d/one.json' }, { path: '/opt/d/two.json' }], additional_drivers_use_exclusively: exclusive } }));
    };
    write(false);
    let printed = '';
    const d = discover({ platform: platform({ env: { VK_LOADER_DEBUG: 'all' } }), logWriter: (t) => (printed += t) });
    expect(d.drivers.map((x) => x.libraryPath)).toEqual(['/usr/lib/libtwo.so', '/usr/lib/libone.so', '/usr/lib/libstd.so']);
    expect(printed).not.toMatch(/INFO/);
    write(true);
    expect(discover({ platform: platform(), ...quiet }).drivers.map((x) => x.libraryPath)).toEqual(['/usr/lib/libtwo.so', '/usr/lib/libone.so']);
  });
});

describe('settings file on Windows, and device configurations', () => {
  it('the settings file named in HKCU (not when elevated), then HKLM, LoaderSettings; device_configurations turn the driver variables off', () => {
    put(root, '/C/user/vk_loader_settings.json', JSON.stringify({ file_format_version: '1.0.1', settings: { stderr_log: ['warn'] } }));
    put(root, '/C/machine/vk_loader_settings.json', JSON.stringify({ file_format_version: '1.0.1', settings: { stderr_log: ['error'], device_configurations: [{}] } }));
    put(root, '/C/icd/a_icd.json', vkDriverManifest('a.dll'));
    put(root, '/C/icd/b_icd.json', vkDriverManifest('b.dll'));
    const registry = registryFromMap({
      'HKCU\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings': [{ name: 'C:\\user\\vk_loader_settings.json', type: 'REG_DWORD', data: 0 }],
      'HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings': [{ name: 'C:\\machine\\vk_loader_settings.json', type: 'REG_DWORD', data: 0 }],
    });
    const env = { VK_DRIVER_FILES: 'C:\\icd', VK_LOADER_DRIVERS_SELECT: 'a_*' };
    const run = (elevated: boolean) => discover({ platform: platform({ os: 'windows', registry, elevated, env, executablePath: 'C:\\app\\app.exe' }), ...quiet });
    const user = run(false);
    expect(user.settingsFile?.file).toBe('C:\\user\\vk_loader_settings.json');
    expect(user.drivers.map((d) => [d.libraryPath, d.selected])).toEqual([['a.dll', true], ['b.dll', false]]);
    const admin = run(true);
    expect(admin.settingsFile?.file).toBe('C:\\machine\\vk_loader_settings.json');
    expect(admin.settingsFile?.deviceConfigurations).toEqual([]); // a malformed entry is skipped; the selection is still on
    const machineOnly = registryFromMap({ 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings': [{ name: 'C:\\machine\\vk_loader_settings.json', type: 'REG_DWORD', data: 0 }] });
    const configured = discover({ platform: platform({ os: 'windows', registry: machineOnly, env, executablePath: 'C:\\app\\app.exe' }), ...quiet });
    expect(configured.drivers).toEqual([]); // VK_DRIVER_FILES is off too (VK-DC-1); the registry names no driver
  });
});

describe('drivers and the plan', () => {
  it('VK-DR-1: driver variables are ignored when elevated; portability drivers only with the application\'s consent; api_version in the plan', () => {
    put(root, '/usr/share/vulkan/icd.d/a.json', vkDriverManifest('liba.so', { api_version: '1.2.0' }));
    put(root, '/usr/share/vulkan/icd.d/p.json', vkDriverManifest('libp.so', { is_portability_driver: true }));
    put(root, '/opt/d.json', vkDriverManifest('libenv.so'));
    const elevated = discover({ platform: platform({ elevated: true, env: { VK_DRIVER_FILES: '/opt/d.json', VK_ADD_DRIVER_FILES: '/opt/d.json' } }), ...quiet });
    expect(elevated.drivers.map((x) => x.libraryPath)).toEqual(['liba.so', 'libp.so']);
    const loader = createLoader({ platform: platform(), ...quiet });
    const plain = loader.planInstance({});
    expect(plain.drivers.map((x) => [x.libraryPath, x.apiVersion])).toEqual([['liba.so', (1 << 22) | (2 << 12)]]);
    expect(plain.decisions.some((x) => /portability driver/.test(x))).toBe(true);
    const portable = loader.planInstance({ enabledExtensionNames: ['VK_KHR_portability_enumeration'], flags: 1 });
    expect(portable.drivers.map((x) => [x.libraryPath, x.isPortabilityDriver])).toEqual([['liba.so', false], ['libp.so', true]]);
  });

  it('VK-LM-1 (plan): symbols come from "functions" (GIPA/GDPA renames only before manifest 1.1.0), pre-instance functions only for implicit layers', () => {
    layer('/usr/share/vulkan/explicit_layer.d/old.json', { name: 'VK_LAYER_T_old', file_format_version: '1.0.0', functions: { vkGetInstanceProcAddr: 'OldGipa', vkGetDeviceProcAddr: 'OldGdpa' } });
    layer('/usr/share/vulkan/explicit_layer.d/new.json', { name: 'VK_LAYER_T_new', file_format_version: '1.1.2', functions: { vkGetInstanceProcAddr: 'Ignored', vkNegotiateLoaderLayerInterfaceVersion: 'Neg' } });
    layer('/usr/share/vulkan/implicit_layer.d/pre.json', implicitSpec('VK_LAYER_T_pre', { file_format_version: '1.1.2', pre_instance_functions: { vkEnumerateInstanceExtensionProperties: 'PreExt' } }));
    const plan = createLoader({ platform: platform({ env: { VK_LOADER_DEVICE_SELECT: '10de:1f91', VK_LOADER_DRIVER_ID_FILTER: '1-3' } }), ...quiet }).planInstance({ enabledLayerNames: ['VK_LAYER_T_old', 'VK_LAYER_T_new'] });
    expect(plan.layers.map((l) => [l.name, l.origin, l.symbols, l.preInstanceFunctions])).toEqual([
      ['VK_LAYER_T_pre', 'implicit', { negotiateLoaderLayerInterfaceVersion: 'vkNegotiateLoaderLayerInterfaceVersion', getInstanceProcAddr: 'vkGetInstanceProcAddr', getDeviceProcAddr: 'vkGetDeviceProcAddr' }, { vkEnumerateInstanceExtensionProperties: 'PreExt' }],
      ['VK_LAYER_T_old', 'application', { negotiateLoaderLayerInterfaceVersion: 'vkNegotiateLoaderLayerInterfaceVersion', getInstanceProcAddr: 'OldGipa', getDeviceProcAddr: 'OldGdpa' }, {}],
      ['VK_LAYER_T_new', 'application', { negotiateLoaderLayerInterfaceVersion: 'Neg', getInstanceProcAddr: 'vkGetInstanceProcAddr', getDeviceProcAddr: 'vkGetDeviceProcAddr' }, {}],
    ]);
    expect(plan.deviceFilters).toEqual({ deviceSelect: { vendorId: 0x10de, deviceId: 0x1f91 }, driverIdRanges: [[1, 3]] });
  });

  it('VK-LF-1: an unknown requested layer gives VulkanLayerNotPresentError with the Khronos message; misuse is a TypeError', () => {
    const loader = createLoader({ platform: platform(), ...quiet });
    try {
      loader.planInstance({ enabledLayerNames: ['VK_LAYER_T_missing'] });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(VulkanLayerNotPresentError);
      const e = err as VulkanLayerNotPresentError;
      expect([e.result, e.resultValue, e.layerName]).toEqual(['VK_ERROR_LAYER_NOT_PRESENT', -6, 'VK_LAYER_T_missing']);
      expect(e.message).toContain('loader_validate_layers: Layer 0 does not exist in the list of available layers');
    }
    expect(() => loader.resolveEnabledLayers('VK_LAYER_X' as unknown as string[])).toThrow(TypeError);
    expect(() => loader.planInstance({ enabledLayerNames: [3 as unknown as string] })).toThrow(TypeError);
  });
});
