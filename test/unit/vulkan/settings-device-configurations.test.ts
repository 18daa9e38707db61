// The loader settings file's device_configurations as the Khronos loader 1.4.359 reads them
// (VK-DC-1) and the plan that carries them to the native terminator (VK-DC-2); the terminator
// itself is checked against 1.4.359 in test/system/vulkan-device-configurations-differential.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { discover } from '../../../lib/vulkan/discovery/discover.js';
import { parseSettingsFile } from '../../../lib/vulkan/discovery/settings-file.js';
import { createLoader } from '../../../lib/vulkan/loader.js';
import { makeTempRoot, put, vkDriverManifest } from './fixtures.js';

const FILE = '/home/me/.config/vulkan/loader_settings.d/vk_loader_settings.json';
const uuid = (first: number): number[] => Array.from({ length: 16 }, (_, i) => (first + i) % 256);
const entry = (first: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  deviceUUID: uuid(first),
  driverUUID: uuid(first + 100),
  driverVersion: first,
  ...extra,
});
const parse = (device_configurations: unknown, more: Record<string, unknown> = {}) =>
  parseSettingsFile(FILE, { file_format_version: '1.0.0', settings: { device_configurations, ...more } }, '/usr/bin/app');

describe('device_configurations in the loader settings file', () => {
  it('VK-DC-1: well-formed entries are kept in the file\'s order with their index; a malformed one is skipped with a warning naming it and what it needs', () => {
    const r = parse([entry(1), { deviceUUID: uuid(2), driverVersion: 2 }, entry(3, { deviceName: 'GPU A', driverName: 'drv' }), entry(4, { deviceUUID: uuid(4).slice(1) })]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.deviceConfigurations).toEqual([
      { index: 0, deviceUUID: uuid(1), driverUUID: uuid(101), driverVersion: 1, deviceName: '', driverName: '' },
      { index: 2, deviceUUID: uuid(3), driverUUID: uuid(103), driverVersion: 3, deviceName: 'GPU A', driverName: 'drv' },
    ]);
    expect(r.diagnostics.map((d) => [d.field, d.severity])).toEqual([
      ['device_configurations[1]', 'warning'],
      ['device_configurations[3]', 'warning'],
    ]);
    expect(r.diagnostics[0]?.reason).toContain('driverUUID');
    expect(r.diagnostics[1]?.reason).toContain('deviceUUID');
  });

  it('VK-DC-1: numbers as cJSON\'s valueint reads them: UUID bytes truncated and 0..255 (else the entry is skipped), driverVersion saturated to a C int, then a uint32', () => {
    const bytes = uuid(0);
    bytes[0] = 255.9;
    const r = parse([
      entry(0, { deviceUUID: bytes, driverVersion: 1.9 }),
      entry(1, { driverVersion: 4294967295 }),
      entry(2, { driverVersion: -1 }),
      entry(3, { deviceUUID: [...uuid(3).slice(0, 15), 256] }),
      entry(4, { driverUUID: [...uuid(4).slice(0, 15), -1] }),
      entry(5, { driverUUID: [...uuid(5).slice(0, 15), '5'] }),
      entry(6, { driverVersion: true }),
    ]);
    if (!r.ok) throw new Error('settings should be active');
    const list = r.settings.deviceConfigurations ?? [];
    expect(list.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(list[0]?.deviceUUID[0]).toBe(255);
    expect(list.map((c) => c.driverVersion)).toEqual([1, 2147483647, 4294967295]);
  });

  it('VK-DC-1: an entry that is not an object drops every entry (no selection); an empty list is a selection of nothing; names that do not fit are left empty', () => {
    const dropped = parse([entry(1), 'x']);
    expect(dropped.ok).toBe(false); // nothing else in the file: no settings are active
    expect(dropped.diagnostics.some((d) => d.field === 'device_configurations[1]')).toBe(true);
    const withStderr = parse([entry(1), 7], { stderr_log: ['error'] });
    expect(withStderr.ok && withStderr.settings.deviceConfigurations).toBeUndefined();
    const empty = parse([]);
    expect(empty.ok && empty.settings.deviceConfigurations).toEqual([]);
    const names = parse([entry(1, { deviceName: 'x'.repeat(254), driverName: 'y'.repeat(255) })]);
    expect(names.ok && names.settings.deviceConfigurations?.map((c) => [c.deviceName.length, c.driverName])).toEqual([[254, '']]);
  });
});

describe('device_configurations in the plan', () => {
  let root = '';
  let cleanup = (): void => {};
  beforeEach(() => {
    ({ root, cleanup } = makeTempRoot('kl-vkdevcfg-'));
  });
  afterEach(() => cleanup());
  const platform = (env: Record<string, string> = {}) =>
    createFixturePlatform({ root, executablePath: '/usr/bin/app', env: { HOME: '/home/me', VK_ADD_DRIVER_FILES: '/icd', VK_LOADER_DRIVERS_DISABLE: 'b_*', ...env } });

  it('VK-DC-1, VK-DC-2: the plan\'s device filters carry the entries, its decisions name each entry and the file; the driver variables are off (even for an empty list)', () => {
    put(root, '/home/me/.config/vulkan/icd.d/a_icd.json', vkDriverManifest('/lib/a.so'));
    put(root, '/home/me/.config/vulkan/icd.d/b_icd.json', vkDriverManifest('/lib/b.so'));
    put(root, '/icd/c_icd.json', vkDriverManifest('/lib/c.so')); // VK_ADD_DRIVER_FILES, off with device_configurations
    put(root, FILE, JSON.stringify({ file_format_version: '1.0.0', settings: { device_configurations: [{}, entry(16, { deviceName: 'GPU' })] } }));
    const loader = createLoader({ platform: platform(), logWriter: () => {} });
    const plan = loader.planInstance();
    expect(plan.deviceFilters.deviceConfigurations).toEqual([{ index: 1, deviceUUID: uuid(16), driverUUID: uuid(116), driverVersion: 16, deviceName: 'GPU', driverName: '' }]);
    expect(plan.decisions.filter((d) => d.includes('device_configurations'))).toEqual([
      `devices: position 0 is the first Vulkan 1.1 device with deviceUUID 10111213-1415-1617-1819-1a1b1c1d1e1f, driverUUID 74757677-7879-7a7b-7c7d-7e7f80818283 and driverVersion 16 (device_configurations[1] of ${FILE}); devices no entry names are left out`,
    ]);
    expect(plan.drivers.map((d) => d.libraryPath)).toEqual(['/lib/a.so', '/lib/b.so']);
    put(root, FILE, JSON.stringify({ file_format_version: '1.0.0', settings: { device_configurations: [] } }));
    const emptyPlan = createLoader({ platform: platform(), logWriter: () => {} }).planInstance();
    expect(emptyPlan.deviceFilters.deviceConfigurations).toEqual([]);
    expect(emptyPlan.drivers.map((d) => d.libraryPath)).toEqual(['/lib/a.so', '/lib/b.so']);
    put(root, FILE, JSON.stringify({ file_format_version: '1.0.0', settings: { stderr_log: ['error'] } }));
    const none = discover({ platform: platform(), logWriter: () => {} });
    expect(none.drivers.map((d) => [d.libraryPath, d.selected])).toEqual([['/lib/c.so', true], ['/lib/a.so', true], ['/lib/b.so', false]]);
    expect(createLoader({ platform: platform(), logWriter: () => {} }).planInstance().deviceFilters.deviceConfigurations).toBeUndefined();
  });
});
