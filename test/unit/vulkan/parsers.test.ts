// The three Vulkan manifest parsers, the filter globs and the device filter variables, over values.
import { describe, expect, it } from 'vitest';
import { parseDriverManifest } from '../../../lib/vulkan/discovery/driver-manifest.js';
import { parseDeviceSelect, parseIdFilter, readDeviceFilters } from '../../../lib/vulkan/discovery/device-filters.js';
import { parseLayerManifest } from '../../../lib/vulkan/discovery/layer-manifest.js';
import { classifyGlob, layerDisabledByFilter, nameMatchesFilter, parseLayerDisableFilter, parseNameFilter } from '../../../lib/vulkan/discovery/name-filter.js';
import { parseSettingsFile } from '../../../lib/vulkan/discovery/settings-file.js';
import { envFromMap } from '../../../lib/core/platform/platform.js';

const base = { type: 'GLOBAL', library_path: 'libx.so', api_version: '1.3.250', implementation_version: '4', description: 'd' };
const one = (file_format_version: string, layer: Record<string, unknown>): unknown => ({ file_format_version, layer: { name: 'VK_LAYER_T', ...base, ...layer } });

describe('layer manifests', () => {
  it('VK-LM-1: every file format version 1.0.0 to 1.2.1 reads, with every field', () => {
    for (const v of ['1.0.0', '1.0.1', '1.1.0', '1.1.1', '1.1.2', '1.2.0', '1.2.1']) {
      const r = parseLayerManifest('/m.json', one(v, {}), 'explicit', 64);
      expect(r.layers.map((l) => l.name), v).toEqual(['VK_LAYER_T']);
      expect(r.diagnostics.filter((d) => d.severity !== 'info'), v).toEqual([]);
    }
    const full = parseLayerManifest(
      '/m.json',
      one('1.2.1', {
        library_arch: '64',
        functions: { vkNegotiateLoaderLayerInterfaceVersion: 'Neg' },
        instance_extensions: [{ name: 'VK_EXT_a', spec_version: '3' }],
        device_extensions: [{ name: 'VK_EXT_b', spec_version: '2', entrypoints: ['vkCmdB'] }],
        enable_environment: { EN: '1' },
        disable_environment: { DIS: '' },
        pre_instance_functions: { vkEnumerateInstanceVersion: 'MyVersion', vkOther: 'x' },
      }),
      'implicit',
      64,
    );
    const l = full.layers[0];
    expect(l?.apiVersion).toEqual({ major: 1, minor: 3, patch: 250, packed: (1 << 22) | (3 << 12) | 250 });
    expect(l?.implementation_version).toBe(4);
    expect(l?.functions).toEqual({ vkNegotiateLoaderLayerInterfaceVersion: 'Neg' });
    expect(l?.instance_extensions).toEqual([{ extensionName: 'VK_EXT_a', specVersion: 3 }]);
    expect(l?.device_extensions).toEqual([{ extensionName: 'VK_EXT_b', specVersion: 2, entrypoints: ['vkCmdB'] }]);
    expect(l?.enable_environment).toEqual({ name: 'EN', value: '1' });
    expect(l?.disable_environment).toEqual({ name: 'DIS', value: '' });
    expect(l?.pre_instance_functions).toEqual({ vkEnumerateInstanceVersion: 'MyVersion' });
  });

  it('VK-LM-1: "layers" arrays give every layer; DEVICE layers are skipped as if not found; library_arch of the other width skips', () => {
    const r = parseLayerManifest(
      '/m.json',
      {
        file_format_version: '1.0.1',
        layers: [
          { name: 'VK_LAYER_A', ...base },
          { name: 'VK_LAYER_DEV', ...base, type: 'DEVICE' },
          { name: 'VK_LAYER_32', ...base, library_arch: '32' },
          'not an object',
          { name: 'VK_LAYER_B', ...base, type: 'INSTANCE' },
        ],
      },
      'explicit',
      64,
    );
    expect(r.layers.map((l) => l.name)).toEqual(['VK_LAYER_A', 'VK_LAYER_B']);
    expect(r.diagnostics.find((d) => d.field === 'layers[1].type')?.reason).toMatch(/DEVICE/);
    expect(r.diagnostics.find((d) => d.field === 'layers[2].library_arch')?.reason).toMatch(/32-bit/);
    expect(r.diagnostics.find((d) => d.field === 'layers[3]')?.severity).toBe('error');
    expect(parseLayerManifest('/m.json', one('1.0.0', { library_arch: '32' }), 'explicit', 32).layers).toHaveLength(1);
    const old = parseLayerManifest('/m.json', { file_format_version: '1.0.0', layers: [{ name: 'VK_LAYER_A', ...base }] }, 'explicit', 64);
    expect(old.layers).toHaveLength(1);
    expect(old.diagnostics.some((d) => d.field === 'layers' && /1\.0\.1/.test(d.reason))).toBe(true);
  });

  it('VK-LM-2: an implicit layer without disable_environment is rejected; explicit layers ignore both variables', () => {
    const r = parseLayerManifest('/m.json', one('1.1.0', { enable_environment: { E: '1' } }), 'implicit', 64);
    expect(r.layers).toEqual([]);
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error', file: '/m.json', field: 'layer.disable_environment' });
    const e = parseLayerManifest('/m.json', one('1.1.0', { enable_environment: { E: '1' }, disable_environment: { D: '1' } }), 'explicit', 64);
    expect(e.layers[0]?.enable_environment).toBeUndefined();
    expect(e.layers[0]?.disable_environment).toBeUndefined();
  });

  it('VK-LM-3: component_layers and library_path exclude each other; a meta layer needs components', () => {
    const both = parseLayerManifest('/m.json', one('1.1.1', { component_layers: ['VK_LAYER_X'] }), 'explicit', 64);
    expect(both.layers).toEqual([]);
    expect(both.diagnostics[0]?.reason).toMatch(/exclude each other/);
    const meta = parseLayerManifest('/m.json', { file_format_version: '1.1.1', layer: { name: 'VK_LAYER_M', type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'm', component_layers: ['A', 'B'] } }, 'explicit', 64);
    expect(meta.layers[0]?.component_layers).toEqual(['A', 'B']);
    expect(meta.layers[0]?.library_path).toBeUndefined();
    const neither = parseLayerManifest('/m.json', { file_format_version: '1.1.1', layer: { name: 'VK_LAYER_M', type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'm' } }, 'explicit', 64);
    expect(neither.diagnostics[0]?.reason).toMatch(/neither library_path nor component_layers/);
  });

  it('VK-LM-4: malformed manifests give one error naming the file and field; nothing throws', () => {
    const cases: [unknown, string | undefined][] = [
      [[], undefined],
      [{ layer: {} }, 'file_format_version'],
      [{ file_format_version: '1.0.0' }, 'layer'],
      [{ file_format_version: '1.0.0', layers: {} }, 'layers'],
      [one('1.0.0', { name: 7 }), 'layer.name'],
      [one('1.0.0', { type: 'SOMETHING' }), 'layer.type'],
      [one('1.0.0', { api_version: null }), 'layer.api_version'],
      [one('1.0.0', { description: ['x'] }), 'layer.description'],
      [one('1.0.0', { library_path: '' }), 'layer.library_path'],
    ];
    for (const [json, field] of cases) {
      const r = parseLayerManifest('/bad.json', json, 'explicit', 64);
      expect(r.layers, JSON.stringify(json)).toEqual([]);
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      expect(errors, JSON.stringify(json)).toHaveLength(1);
      expect(errors[0]?.file).toBe('/bad.json');
      expect(errors[0]?.field).toBe(field);
    }
  });

  it('VK-ML-4: override_paths, blacklisted_layers and app_keys are read only for the implicit override meta layer', () => {
    const fields = { component_layers: ['A'], override_paths: ['/p'], blacklisted_layers: ['B'], app_keys: ['/app'], disable_environment: { D: '1' } };
    const meta = (name: string, kind: 'implicit' | 'explicit') =>
      parseLayerManifest('/o.json', { file_format_version: '1.1.2', layer: { name, type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'o', ...fields } }, kind, 64);
    const o = meta('VK_LAYER_LUNARG_override', 'implicit').layers[0];
    expect([o?.override_paths, o?.blacklisted_layers, o?.app_keys]).toEqual([['/p'], ['B'], ['/app']]);
    const other = meta('VK_LAYER_T_meta', 'implicit');
    expect(other.layers[0]?.blacklisted_layers).toBeUndefined();
    expect(other.layers[0]?.app_keys).toBeUndefined();
    expect(other.diagnostics.some((d) => d.field === 'layer.blacklisted_layers')).toBe(true);
  });
});

describe('driver manifests', () => {
  it('VK-DR-1: library_path, api_version, library_arch and is_portability_driver', () => {
    const r = parseDriverManifest('/icd.json', { file_format_version: '1.0.1', ICD: { library_path: './libd.so', api_version: '1.2.3', library_arch: '64', is_portability_driver: true } }, 64);
    expect(r.ok && r.manifest).toMatchObject({ library_path: './libd.so', api_version: '1.2.3', library_arch: '64', is_portability_driver: true });
    expect(r.ok && r.manifest.apiVersion.packed).toBe((1 << 22) | (2 << 12) | 3);
    const arch = parseDriverManifest('/icd.json', { file_format_version: '1.0.0', ICD: { library_path: 'x.so', api_version: '1.0.0', library_arch: '32' } }, 64);
    expect(arch.ok).toBe(false);
    // No api_version: skipped (as both Khronos versions do); one that is not a string: version 0, with a warning.
    const noApi = parseDriverManifest('/icd.json', { file_format_version: '1.0.0', ICD: { library_path: 'x.so' } }, 64);
    expect(noApi.ok).toBe(false);
    expect(noApi.diagnostics[0]).toMatchObject({ severity: 'error', field: 'ICD.api_version' });
    const numberApi = parseDriverManifest('/icd.json', { file_format_version: '1.0.0', ICD: { library_path: 'x.so', api_version: 1 } }, 64);
    expect(numberApi.ok && numberApi.manifest.api_version).toBe('0.0.0');
    expect(numberApi.diagnostics[0]).toMatchObject({ severity: 'warning', field: 'ICD.api_version' });
    for (const bad of [null, {}, { file_format_version: '1.0.0' }, { file_format_version: '1.0.0', ICD: { library_path: 3 } }]) {
      const x = parseDriverManifest('/icd.json', bad, 64);
      expect(x.ok).toBe(false);
      expect(x.diagnostics.filter((d) => d.severity === 'error')).toHaveLength(1);
    }
  });
});

describe('filter globs', () => {
  it('VK-LF-5: prefix, suffix, substring and whole names, compared without ASCII case; * and ** mean everything', () => {
    expect(classifyGlob('abc*')).toEqual({ kind: 'prefix', text: 'abc' });
    expect(classifyGlob('*abc')).toEqual({ kind: 'suffix', text: 'abc' });
    expect(classifyGlob('*abc*')).toEqual({ kind: 'substring', text: 'abc' });
    expect(classifyGlob('a*c')).toEqual({ kind: 'fullname', text: 'a*c' });
    const f = parseNameFilter('VK_LAYER_KHRONOS_*,*_API_DUMP,*Mesa*,VK_LAYER_exact,,');
    expect(nameMatchesFilter('vk_layer_khronos_validation', f)).toBe(true);
    expect(nameMatchesFilter('VK_LAYER_LUNARG_api_dump', f)).toBe(true);
    expect(nameMatchesFilter('VK_LAYER_MESA_overlay', f)).toBe(true);
    expect(nameMatchesFilter('VK_LAYER_EXACT', f)).toBe(true);
    expect(nameMatchesFilter('VK_LAYER_exact2', f)).toBe(false);
    expect(nameMatchesFilter('VK_LAYER_LUNARG_api_dump2', f)).toBe(false);
    expect(nameMatchesFilter('anything', parseNameFilter('*'))).toBe(true);
    expect(nameMatchesFilter('anything', parseNameFilter('**'))).toBe(true);
    expect(nameMatchesFilter('anything', parseNameFilter(''))).toBe(false);
    expect(nameMatchesFilter('a', parseNameFilter('a*b'))).toBe(false);
  });

  it('VK-LF-2: the disable variable understands ~all~, ~implicit~, ~explicit~ (any case)', () => {
    const d = parseLayerDisableFilter('~IMPLICIT~,VK_LAYER_X');
    expect(layerDisabledByFilter('VK_LAYER_Y', 'implicit', d)).toBe(true);
    expect(layerDisabledByFilter('VK_LAYER_Y', 'explicit', d)).toBe(false);
    expect(layerDisabledByFilter('vk_layer_x', 'explicit', d)).toBe(true);
    expect(layerDisabledByFilter('VK_LAYER_Y', 'explicit', parseLayerDisableFilter('~explicit~'))).toBe(true);
    expect(layerDisabledByFilter('VK_LAYER_Y', 'implicit', parseLayerDisableFilter('~all~'))).toBe(true);
    expect(layerDisabledByFilter('VK_LAYER_Y', 'implicit', parseLayerDisableFilter('~unknown~'))).toBe(false);
  });
});

describe('settings file', () => {
  it('the settings object for this executable wins over the global one; layers, drivers, stderr_log read', () => {
    const file = {
      file_format_version: '1.0.1',
      settings_array: [
        { stderr_log: ['all'], layers: [{ control: 'off', name: 'VK_LAYER_A', path: '/a.json' }] },
        {
          app_keys: ['/usr/bin/app'],
          stderr_log: ['warn', 'layer'],
          layers: [
            { control: 'on', name: 'VK_LAYER_B', path: '/b.json', treat_as_implicit_manifest: true },
            { control: 'unordered_layer_location' },
            { control: 'whatever', name: 'VK_LAYER_C', path: '/c.json' },
          ],
          additional_drivers: [{ path: '/d1.json' }, { path: '/d2.json' }],
          additional_drivers_use_exclusively: true,
        },
      ],
    };
    const r = parseSettingsFile('/s.json', file, '/usr/bin/app');
    expect(r.ok && r.settings).toMatchObject({
      appliesTo: '/usr/bin/app',
      stderrLog: ['warn', 'layer'],
      layers: [
        { control: 'on', name: 'VK_LAYER_B', path: '/b.json', treatAsImplicitManifest: true },
        { control: 'unordered_layer_location' },
        { control: 'auto', name: 'VK_LAYER_C', path: '/c.json', treatAsImplicitManifest: false },
      ],
      additionalDrivers: ['/d1.json', '/d2.json'],
      additionalDriversUseExclusively: true,
    });
    const g = parseSettingsFile('/s.json', file, '/other');
    expect(g.ok && g.settings.appliesTo).toBe('global');
    expect(parseSettingsFile('/s.json', { file_format_version: '1.0.0', settings: { layers: [{ control: 'on' }] } }, '/x').ok).toBe(false);
    expect(parseSettingsFile('/s.json', { settings: {} }, '/x').ok).toBe(false);
    expect(parseSettingsFile('/s.json', { file_format_version: '1.0.0', settings_array: [{ app_keys: ['/y'], stderr_log: ['all'] }] }, '/x').ok).toBe(false);
  });
});

describe('device filter variables', () => {
  it('VK_LOADER_DEVICE_SELECT and the id filters parse as the current Khronos loader reads them', () => {
    expect(parseDeviceSelect('10de:1f91')).toEqual({ vendorId: 0x10de, deviceId: 0x1f91 });
    expect(parseDeviceSelect('0x8086:0x3e92')).toEqual({ vendorId: 0x8086, deviceId: 0x3e92 });
    expect(parseDeviceSelect('10de')).toBeUndefined();
    expect(parseIdFilter('0x10de,5-9,010')).toEqual([[0x10de, 0x10de], [5, 9], [8, 8]]);
    expect(parseIdFilter('')).toBeUndefined();
    const env = envFromMap({ VK_LOADER_VENDOR_ID_FILTER: '0x1002', VK_LOADER_DISABLE_INST_EXT_FILTER: '1', VK_LOADER_DEVICE_SELECT: '1002:73bf' }, false);
    const r = readDeviceFilters({ env, secure: (n) => env.getSecure(n) });
    expect(r).toEqual({ filters: { deviceSelect: { vendorId: 0x1002, deviceId: 0x73bf }, vendorIdRanges: [[0x1002, 0x1002]] }, disableInstanceExtensionFilter: true });
  });
});
