// The loader settings file's device_configurations (VK-DC-1..4) against the Khronos Vulkan loader
// 1.4.359, the first release that applies them: copies of test/native's topology driver offering
// physical devices with distinct deviceUUID/driverUUID/driverVersion (one Vulkan 1.0 device among
// them), a settings file in ~/.config/vulkan/loader_settings.d, the same environment for both. The
// Khronos side is test/native/vk_enumerate (--devices, --device-capacity), ours the typed API and the
// exported vkEnumeratePhysicalDevices (test/native/vulkan_c_abi on the typed API's instance):
// same devices in the same order, the same size-query count, the same VkResult (VK_INCOMPLETE,
// VK_ERROR_INITIALIZATION_FAILED), the same groups (not filtered) and the same VK_LOADER_DEBUG lines.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { addonBinaryPath, flushLoaderLog } from '../../lib/core/native/load.js';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { VulkanError } from '../../lib/vulkan/errors.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { topologyDriver, topologyDriverCopy } from '../helpers/vk-topology-driver.js';
import { makeTempRoot } from '../unit/vulkan/fixtures.js';

const enumerate = path.join(testNativeDir, 'vk_enumerate/vk_enumerate');
const cAbi = path.join(testNativeDir, 'vulkan_c_abi/libkl_vk_c_abi.so');
const k359 = khronosVulkanLoaders().find((l) => l.version === '1.4.359');
const skip =
  k359 === undefined
    ? 'Khronos Vulkan loader 1.4.359 declared absent'
    : (k359.missing ??
      missingSystemComponent({ 'test/native vk_enumerate': [enumerate], 'test/native kl_vk_driver_topology': [topologyDriver], 'test/native kl_vk_c_abi': [cAbi] }));
const VK_API_VERSION_1_0 = 1 << 22;
const VK_API_VERSION_1_1 = (1 << 22) | (1 << 12);

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffiRequire = createRequire(import.meta.url);

/** What one side saw. */
interface Seen {
  /** The size query: VkResult and count. */
  size: [number, number];
  /** The fill of that size: VkResult and names (none unless VK_SUCCESS). */
  fill: [number, string[]];
  /** The fill with room for `capacity`: VkResult, count and names. */
  capped?: [number, number, string[]];
  groups?: string[][];
  /** The VK_LOADER_DEBUG lines about the selection, in order. */
  lines: string[];
}

const MARKERS = ['Reordering the output', 'pPhysicalDevices array index', 'did not appear in the settings file', 'loader_apply_settings_device_configurations', 'Raising the VkApplicationInfo'];
/** 1.4.359's stderr lines about the selection as "LEVEL: message" (the header's level word, the message after its padding). */
const selectionLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => MARKERS.some((m) => l.includes(m)))
    .map((l) => /^\[Vulkan Loader\] (\w+)(?: \| \w+)?:\s+(.*)$/s.exec(l))
    .map((m) => `${m?.[1] ?? '?'}: ${m?.[2] ?? ''}`);
const LEVEL_WORD: Record<LogRecord['level'], string> = { error: 'ERROR', warn: 'WARNING', info: 'INFO', debug: 'DEBUG' };

let root = '';
let cleanup = (): void => {};
let n = 0;

const hex = (first: number): string => Array.from({ length: 16 }, (_, i) => ((first + i) % 256).toString(16).padStart(2, '0')).join('');
const bytes = (first: number): number[] => Array.from({ length: 16 }, (_, i) => (first + i) % 256);

/** A copy of the topology driver with these lines in its topology file; returns its manifest. */
const driver = (lines: string[]): string => topologyDriverCopy(path.join(root, `driver-${++n}`), lines);

/**
 * An environment with these drivers and this device_configurations value in the settings file.
 * The driver manifests go in ~/.config/vulkan/icd.d (named so that they sort in the given order):
 * with device_configurations, VK_DRIVER_FILES and VK_ADD_DRIVER_FILES are off (VK-DC-1).
 */
function environment(drivers: string[], deviceConfigurations: unknown): Record<string, string> {
  const home = path.join(root, `home-${++n}`);
  const folder = path.join(home, '.config/vulkan/loader_settings.d');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'vk_loader_settings.json'), JSON.stringify({ file_format_version: '1.0.0', settings: { device_configurations: deviceConfigurations } }));
  const icd = path.join(home, '.config/vulkan/icd.d');
  mkdirSync(icd, { recursive: true });
  drivers.forEach((manifest, i) => copyFileSync(manifest, path.join(icd, `${i}_driver.json`)));
  return {
    HOME: home,
    XDG_CONFIG_DIRS: path.join(root, 'none'),
    XDG_DATA_DIRS: path.join(root, 'none'),
    VK_DRIVER_FILES: path.join(root, 'ignored'),
    VK_LOADER_DEBUG: 'all',
  };
}

function khronos(env: Record<string, string>, apiVersion: number, capacity?: number): Seen {
  const out = path.join(root, `out-${++n}.json`);
  const args = ['--loader', k359?.library ?? '', '--out', out, '--devices', '--api-version', String(apiVersion), ...(capacity !== undefined ? ['--device-capacity', String(capacity)] : [])];
  const run = spawnSync(enumerate, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const raw = JSON.parse(readFileSync(out, 'utf8')) as {
    create: { result: number };
    devices: { sizeResult: number; sizeCount: number; result: number; list: string[] };
    capped?: { result: number; count: number; list: string[] };
    groups: { result: number; list: string[][] };
  };
  expect(raw.create.result).toBe(0);
  expect(raw.groups.result).toBe(0);
  return {
    size: [raw.devices.sizeResult, raw.devices.sizeCount],
    fill: [raw.devices.result, raw.devices.list],
    ...(raw.capped ? { capped: [raw.capped.result, raw.capped.count, raw.capped.list] as [number, number, string[]] } : {}),
    groups: raw.groups.list,
    lines: selectionLines(run.stderr),
  };
}

async function ours(env: Record<string, string>, apiVersion: number, capacity?: number): Promise<Seen & { typed: string[] | number; typedGroups: string[][] | number }> {
  // The native core's records reach loaderLog (not the VK_LOADER_DEBUG printer): compared as "LEVEL: message".
  const heard: string[] = [];
  const listener = (r: LogRecord): void => {
    if (MARKERS.some((m) => r.message.includes(m))) heard.push(`${LEVEL_WORD[r.level]}: ${r.message}`);
  };
  await flushLoaderLog(); // what earlier instances logged is not this one's
  loaderLog.on('record', listener);
  const loader = createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
  const instance = loader.createInstance({ applicationName: 'kl-devcfg', apiVersion, enabledLayerNames: [] });
  try {
    const koffi = koffiRequire('koffi') as Koffi;
    const call = koffi.load(cAbi).func('int kl_vk_c_abi_enumerate(const char*, uint64_t, int, _Out_ char* report, size_t)');
    const buffer = Buffer.alloc(4096);
    expect(call(addonBinaryPath(), instance.handle, capacity ?? -1, buffer, buffer.length)).toBe(0);
    const report = buffer.toString('utf8', 0, buffer.indexOf(0));
    await flushLoaderLog();
    const lines = [...heard]; // creation and the exported function's calls, as vk_enumerate makes them
    const m = /^size=(-?\d+):(\d+) fill=(?:(-?\d+):([^ ]*))?(?: capped=(-?\d+):(\d+):(.*))?$/.exec(report);
    expect(m, report).not.toBeNull();
    const names = (s: string | undefined): string[] => (s ? s.split(',') : []);
    const typedOrResult = <T>(f: () => T): T | number => {
      try {
        return f();
      } catch (err) {
        if (err instanceof VulkanError) return err.resultValue;
        throw err;
      }
    };
    const typed = typedOrResult(() => instance.enumeratePhysicalDevices().map((d) => d.properties.deviceName));
    const typedGroups = typedOrResult(() => instance.enumeratePhysicalDeviceGroups().map((g) => g.physicalDevices.map((d) => d.properties.deviceName)));
    return {
      size: [Number(m?.[1]), Number(m?.[2])],
      fill: [Number(m?.[3] ?? m?.[1]), names(m?.[4])],
      ...(m?.[5] !== undefined ? { capped: [Number(m[5]), Number(m[6]), names(m[7])] as [number, number, string[]] } : {}),
      lines,
      typed,
      typedGroups,
    };
  } finally {
    instance.destroy();
    loaderLog.off('record', listener);
  }
}

// device NAME TYPE VENDOR ID [pci=...] [group=N] [uuid=HEX] [driveruuid=HEX] [version=N] [api=1.0]
const withGroups = [
  'groups',
  `device a-gpu 2 10 20 pci=0:3:0.0 group=1 uuid=${hex(0xa0)} driveruuid=${hex(0xd0)} version=100`,
  `device a-gpu2 2 10 21 pci=0:4:0.0 group=1 uuid=${hex(0xb0)} driveruuid=${hex(0xd0)} version=100`,
  `device a-old 4 10 22 uuid=${hex(0xc0)} driveruuid=${hex(0xd0)} version=100 api=1.0`,
];
const withoutGroups = [`device b-cpu 4 11 30 uuid=${hex(0x10)} driveruuid=${hex(0xe0)} version=7`, `device b-twin 4 11 31 uuid=${hex(0x10)} driveruuid=${hex(0xe0)} version=7`];
const config = (device: number, driver: number, driverVersion: number, extra: Record<string, unknown> = {}) => ({
  deviceUUID: bytes(device),
  driverUUID: bytes(driver),
  driverVersion,
  ...extra,
});

describe.skipIf(skip !== null)('device_configurations against the Khronos loader 1.4.359', () => {
  beforeAll(() => {
    ({ root, cleanup } = makeTempRoot('kl-vkdevcfg-'));
  });
  afterAll(() => cleanup());

  const same = async (env: Record<string, string>, apiVersion = VK_API_VERSION_1_1, capacity?: number) => {
    const k = khronos(env, apiVersion, capacity);
    const o = await ours(env, apiVersion, capacity);
    expect(o.size).toEqual(k.size);
    expect(o.fill).toEqual(k.fill);
    expect(o.capped).toEqual(k.capped);
    expect(o.lines).toEqual(k.lines);
    return { k, o };
  };

  it('VK-DC-2, VK-DC-4: devices in the entries\' order, the others left out; the size query answers min(entries, devices); groups are not filtered', async () => {
    const env = environment([driver(withGroups), driver(withoutGroups)], [config(0x10, 0xe0, 7), config(0xb0, 0xd0, 100), config(0xa0, 0xd0, 100)]);
    const { k, o } = await same(env);
    expect(o.size).toEqual([0, 3]);
    expect(o.fill).toEqual([0, ['b-twin', 'a-gpu2', 'a-gpu']]); // b-twin sorts before b-cpu (deviceID XOR vendorID) and carries the same IDs
    expect(o.typed).toEqual(['b-twin', 'a-gpu2', 'a-gpu']);
    expect(k.groups).toContainEqual(['a-old']);
    expect(k.groups?.flat().sort()).toEqual(['a-gpu', 'a-gpu2', 'a-old', 'b-cpu', 'b-twin']);
    // The typed API lists a group's devices that enumeratePhysicalDevices reports.
    expect(o.typedGroups).toEqual(k.groups?.map((g) => g.filter((d) => d !== 'a-old' && d !== 'b-cpu')).filter((g) => g.length > 0));
    expect(o.lines.length).toBeGreaterThan(4);
  });

  it('VK-DC-1, VK-DC-2: an entry no device matches warns, a Vulkan 1.0 device never matches, a malformed entry is skipped: the count is min(entries, devices), the fill only the matches', async () => {
    const env = environment([driver(withGroups), driver(withoutGroups)], [config(0x55, 0x55, 1, { deviceName: 'nowhere', driverName: 'none' }), config(0xc0, 0xd0, 100), { deviceUUID: bytes(0xa0) }, config(0xa0, 0xd0, 100)]);
    const { o } = await same(env);
    expect(o.size).toEqual([0, 3]);
    expect(o.fill).toEqual([0, ['a-gpu']]);
    expect(o.lines.filter((l) => l.includes('Missing VkPhysicalDevice'))).toHaveLength(2);
    expect(o.lines.some((l) => l.includes('deviceName: "nowhere"') && l.includes('driverName: none'))).toBe(true);
  });

  it('VK-DC-2: a fill with room for fewer than the matches answers VK_INCOMPLETE with what fits, as 1.4.359', async () => {
    const env = environment([driver(withGroups), driver(withoutGroups)], [config(0xa0, 0xd0, 100), config(0xb0, 0xd0, 100), config(0x10, 0xe0, 7)]);
    const two = await same(env, VK_API_VERSION_1_1, 2);
    expect(two.o.capped).toEqual([5, 2, ['a-gpu', 'a-gpu2']]);
    const none = await same(env, VK_API_VERSION_1_1, 0);
    expect(none.o.capped).toEqual([5, 0, []]);
  });

  it('VK-DC-2: no entry matching (or an empty list): the size query succeeds, the fill answers VK_ERROR_INITIALIZATION_FAILED (the typed API throws it)', async () => {
    const drivers = [driver(withGroups), driver(withoutGroups)];
    const unmatched = await same(environment(drivers, [config(0x55, 0x55, 1)]));
    expect(unmatched.o.size).toEqual([0, 1]);
    expect(unmatched.o.fill).toEqual([-3, []]);
    expect(unmatched.o.typed).toBe(-3);
    const empty = await same(environment(drivers, []));
    expect(empty.o.size).toEqual([0, 0]);
    expect(empty.o.fill).toEqual([-3, []]);
  });

  it('VK-DC-3: an application asking for Vulkan 1.0 gets the same selection; each driver is raised to 1.1 with 1.4.359\'s INFO line', async () => {
    const env = environment([driver(withGroups), driver(withoutGroups)], [config(0x10, 0xe0, 7), config(0xa0, 0xd0, 100)]);
    const { o } = await same(env, VK_API_VERSION_1_0);
    expect(o.fill).toEqual([0, ['b-twin', 'a-gpu']]);
    expect(o.lines.filter((l) => l.includes('Raising the VkApplicationInfo::apiVersion from 1.0 to 1.1'))).toHaveLength(2);
  });
});
