// Physical-device order and groups against both Khronos loaders (1.3.239 and 1.4.309): copies of
// test/native's topology driver (kl_vk_driver_topology), each reading its devices (type, ids, PCI
// address, group) from a file beside it, two drivers at once (one answering
// vkEnumeratePhysicalDeviceGroups, one without it); the Khronos side through
// test/native/vk_enumerate --devices, ours through createLoader().createInstance().
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { topologyDriver, topologyDriverCopy } from '../helpers/vk-topology-driver.js';
import { makeTempRoot } from '../unit/vulkan/fixtures.js';

const enumerate = path.join(testNativeDir, 'vk_enumerate/vk_enumerate');
const skip = missingSystemComponent({
  'test/native vk_enumerate (needs libvulkan-dev headers)': [enumerate],
  'test/native kl_vk_driver_topology': [topologyDriver],
});
const VK_API_VERSION_1_1 = (1 << 22) | (1 << 12);

interface Devices {
  devices: string[];
  groups: string[][];
}

let root = '';
let cleanup = (): void => {};
let n = 0;

/** A copy of the topology driver with these lines in its topology file; returns its manifest. */
const driver = (lines: string[]): string => topologyDriverCopy(path.join(root, `driver-${++n}`), lines);

function environment(drivers: string[], extra: Record<string, string>): Record<string, string> {
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  return { HOME: home, XDG_CONFIG_DIRS: path.join(root, 'none'), XDG_DATA_DIRS: path.join(root, 'none'), VK_DRIVER_FILES: drivers.join(':'), ...extra };
}

function khronos(library: string, env: Record<string, string>): Devices {
  const out = path.join(root, `out-${++n}.json`);
  execFileSync(enumerate, ['--loader', library, '--out', out, '--devices'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'ignore', 'ignore'] });
  const raw = JSON.parse(readFileSync(out, 'utf8')) as { create: { result: number }; devices: { result: number; list: string[] }; groups: { result: number; list: string[][] } };
  expect(raw.create.result).toBe(0);
  expect(raw.devices.result).toBe(0);
  expect(raw.groups.result).toBe(0);
  return { devices: raw.devices.list, groups: raw.groups.list };
}

function ours(env: Record<string, string>): Devices {
  const loader = createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
  const instance = loader.createInstance({ applicationName: 'kl-devices', apiVersion: VK_API_VERSION_1_1, enabledLayerNames: [] });
  try {
    return {
      devices: instance.enumeratePhysicalDevices().map((d) => d.properties.deviceName),
      groups: instance.enumeratePhysicalDeviceGroups().map((g) => g.physicalDevices.map((d) => d.properties.deviceName)),
    };
  } finally {
    instance.destroy();
  }
}

// device NAME TYPE(1 integrated, 2 discrete, 3 virtual, 4 cpu, 0 other) VENDOR ID [pci=D:B:d.f] [group=N]
const withGroups = [
  'groups',
  'device a-cpu 4 1 1',
  'device a-int-pci3 1 10 20 pci=0:3:0.0 group=1',
  'device a-int-pci1 1 10 21 pci=0:1:0.0 group=1',
  'device a-dis-nopci 2 10 30',
  'device a-other 0 10 31',
  'device a-dis-pci-dom1 2 10 32 pci=1:0:0.0',
];
const withoutGroups = ['device b-dis-pci2 2 11 40 pci=0:2:0.0', 'device b-int-pci0 1 11 41 pci=0:0:0.0', 'device b-virt 3 11 42', 'device b-dis-pci2-fn1 2 11 43 pci=0:2:0.1'];

for (const loader of khronosVulkanLoaders()) {
  describe.skipIf(skip !== null || loader.missing !== null)(`Physical devices and groups against the Khronos loader ${loader.version}`, () => {
    beforeAll(() => {
      ({ root, cleanup } = makeTempRoot('kl-vkdevices-'));
    });
    afterAll(() => cleanup());

    const same = (env: Record<string, string>): Devices => {
      const k = khronos(loader.library ?? '', env);
      const o = ours(env);
      expect(o.devices).toEqual(k.devices);
      expect(o.groups).toEqual(k.groups);
      return o;
    };

    it('VK-DR-1: two drivers: devices sorted by type, then PCI domain/bus/device/function (VK_EXT_pci_bus_info) before devices without; groups the drivers report kept, the others one each, sorted the same way', () => {
      const r = same(environment([driver(withGroups), driver(withoutGroups)], {}));
      expect(r.devices).toEqual(['b-dis-pci2', 'b-dis-pci2-fn1', 'a-dis-pci-dom1', 'a-dis-nopci', 'b-int-pci0', 'a-int-pci1', 'a-int-pci3', 'b-virt', 'a-other', 'a-cpu']);
      expect(r.groups).toEqual([['b-dis-pci2'], ['b-dis-pci2-fn1'], ['a-dis-pci-dom1'], ['a-dis-nopci'], ['b-int-pci0'], ['a-int-pci1', 'a-int-pci3'], ['b-virt'], ['a-other'], ['a-cpu']]);
    });

    it('VK-DR-1: the driver order does not decide where sorting does; ties (same type, no PCI) go by deviceID XOR vendorID, then the last driver\'s first (the Khronos loader\'s driver list)', () => {
      const first = driver(['device x-cpu-5 4 1 4', 'device x-cpu-tie 4 2 3']); // 1^4 = 5, 2^3 = 1
      const second = driver(['groups', 'device y-cpu-2 4 1 3', 'device y-cpu-tie 4 3 2']); // 1^3 = 2, 3^2 = 1
      const r = same(environment([first, second], {}));
      expect(r.devices).toEqual(['y-cpu-tie', 'x-cpu-tie', 'y-cpu-2', 'x-cpu-5']);
      expect(same(environment([second, first], {})).devices).toEqual(['x-cpu-tie', 'y-cpu-tie', 'y-cpu-2', 'x-cpu-5']);
    });

    it('VK-DR-1: VK_LOADER_DEVICE_SELECT (vendor:device, hex) puts that device and its group first; VK_LOADER_DISABLE_SELECT=1 leaves them unsorted (the last driver\'s devices first, each driver\'s in its order)', () => {
      const env = environment([driver(withGroups), driver(withoutGroups)], {});
      const selected = same({ ...env, VK_LOADER_DEVICE_SELECT: '11:42' });
      expect(selected.devices[0]).toBe('b-virt');
      expect(selected.groups[0]).toEqual(['b-virt']);
      const inGroup = same({ ...env, VK_LOADER_DEVICE_SELECT: '0x10:0x20' });
      expect(inGroup.devices[0]).toBe('a-int-pci3');
      expect(inGroup.groups[0]).toEqual(['a-int-pci3', 'a-int-pci1']);
      const unsorted = same({ ...env, VK_LOADER_DISABLE_SELECT: '1', VK_LOADER_DEVICE_SELECT: '11:42' });
      expect(unsorted.devices).toEqual(['b-dis-pci2', 'b-int-pci0', 'b-virt', 'b-dis-pci2-fn1', 'a-cpu', 'a-int-pci3', 'a-int-pci1', 'a-dis-nopci', 'a-other', 'a-dis-pci-dom1']);
      expect(unsorted.groups[5]).toEqual(['a-int-pci3', 'a-int-pci1']);
    });
  });
}
