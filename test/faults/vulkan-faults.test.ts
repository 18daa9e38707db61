// Fault injection, Vulkan: the "_faults" build of the test driver fails the Nth call
// of a chosen command, answers NULL from vk_icdGetInstanceProcAddr, changes its counts between
// the two calls of the two-call idiom, or dies (SIGABRT) or hangs in negotiation, as KL_FAULT_*
// choose (fault-env.ts). The loader turns each into a typed error or a diagnostic naming the
// driver, leaves no library of a failed instance mapped, and this process lives; crashes and
// hangs run where the doctor isolates them, in its probe child.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { doctorVulkan, type VulkanDoctorReport } from '../../lib/tools/doctor/index.js';
import { createInstanceFromPlan, type Instance } from '../../lib/vulkan/api/index.js';
import { vulkanErrorFrom } from '../helpers/errors.js';
import { captureLog, driver, mappedLibraries, plan, testLibrary, VK_API_VERSION_1_3 } from '../vulkan-native/helpers.js';
import { faultEnv, withFault, type Fault } from './fault-env.js';
import { sanitizerEnv } from '../helpers/sanitizer-env.js';

const FAULTS = testLibrary('vulkan_test_driver', 'kl_vk_driver_faults');
const GOOD = testLibrary('vulkan_test_driver', 'kl_vk_driver_v7');

function create(libraries: readonly string[] = [FAULTS], enabledExtensionNames: readonly string[] = []): Instance {
  return createInstanceFromPlan(plan(libraries.map((l) => driver(l))), { applicationName: 'faults', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames });
}

const deviceNames = (instance: Instance): string[] => instance.enumeratePhysicalDevices().map((d) => d.properties.deviceName);
const queue = { queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] };

let log = captureLog();
afterEach(async () => {
  await log.settle(); // records of this test's native calls arrive asynchronously: not into the next test
  log.stop();
  log = captureLog();
});
const warnings = (): string[] => log.records.filter((r) => r.level === 'warn' || r.level === 'error').map((r) => r.message);

describe('Vulkan: a failing driver call becomes a typed error or a diagnostic, and a failed instance leaves nothing mapped', () => {
  it('VK-DR-1: a driver whose negotiation fails is dropped with its file and reason; alone, creation fails with VK_ERROR_INCOMPATIBLE_DRIVER; unloaded', async () => {
    const e = withFault({ in: 'driver', command: 'negotiate', kind: 'fail' }, () => vulkanErrorFrom(() => create()));
    expect([e.result, e.resultValue]).toEqual(['VK_ERROR_INCOMPATIBLE_DRIVER', -9]);
    expect(e.message).toContain('kl_vk_driver_faults');
    await log.settle();
    expect(warnings().some((m) => m.includes(FAULTS) && m.includes('vk_icdNegotiateLoaderICDInterfaceVersion returned -9'))).toBe(true);
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
  });

  it('VK-DR-1, NODE-2: the driver\'s vkCreateInstance failing drops it with its result; beside a good driver the instance works', async () => {
    const alone = withFault({ in: 'driver', command: 'vkCreateInstance', kind: 'fail' }, () => vulkanErrorFrom(() => create()));
    expect(alone.result).toBe('VK_ERROR_INCOMPATIBLE_DRIVER');
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
    const instance = withFault({ in: 'driver', command: 'vkCreateInstance', kind: 'fail' }, () => create([FAULTS, GOOD]));
    expect(deviceNames(instance)).toEqual(['kl-v7|faults']);
    instance.destroy();
    await log.settle();
    expect(warnings().some((m) => m.includes(FAULTS) && m.includes('vkCreateInstance returned -3'))).toBe(true);
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
  });

  it('VK-DR-1: a failing vkEnumeratePhysicalDevices leaves that driver\'s devices out, with a diagnostic naming it', async () => {
    const instance = withFault({ in: 'driver', command: 'vkEnumeratePhysicalDevices', kind: 'fail', nth: 0 }, () => {
      const i = create([FAULTS, GOOD]);
      expect(deviceNames(i)).toEqual(['kl-v7|faults']);
      return i;
    });
    instance.destroy();
    await log.settle();
    expect(warnings().some((m) => m.includes(FAULTS) && m.includes('vkEnumeratePhysicalDevices returned -3'))).toBe(true);
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
  });

  it('NODE-2: only the Nth vkCreateDevice fails (1st of 2): a VulkanError with its result, then a device is created', () => {
    withFault({ in: 'driver', command: 'vkCreateDevice', kind: 'fail', nth: 1 }, () => {
      const instance = create();
      const [pd] = instance.enumeratePhysicalDevices();
      const e = vulkanErrorFrom(() => pd!.createDevice(queue));
      expect([e.result, e.resultValue]).toEqual(['VK_ERROR_INITIALIZATION_FAILED', -3]);
      const device = pd!.createDevice(queue);
      device.destroy();
      instance.destroy();
    });
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
  });
});

describe('Vulkan: NULL pointers from vk_icdGetInstanceProcAddr', () => {
  for (const command of ['vkGetPhysicalDeviceProperties', 'vkCreateDevice', 'vkEnumeratePhysicalDevices', 'vkDestroyInstance']) {
    it(`VK-DR-1: a driver that answers NULL for ${command} is not used, with a diagnostic naming the command; the good driver beside it works`, async () => {
      const instance = withFault({ in: 'driver', command, kind: 'null', nth: 0 }, () => create([FAULTS, GOOD]));
      expect(deviceNames(instance)).toEqual(['kl-v7|faults']);
      instance.destroy();
      await log.settle();
      expect(warnings().some((m) => m.includes(FAULTS) && m.includes(`vkGetInstanceProcAddr(instance, "${command}") returned NULL`))).toBe(true);
      expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
    });
  }

  it('VK-DR-1: a driver that answers NULL for vkCreateInstance is dropped at load; alone, VK_ERROR_INCOMPATIBLE_DRIVER; unloaded', () => {
    const e = withFault({ in: 'driver', command: 'vkCreateInstance', kind: 'null', nth: 0 }, () => vulkanErrorFrom(() => create()));
    expect(e.result).toBe('VK_ERROR_INCOMPATIBLE_DRIVER');
    expect(e.message).toMatch(/vkGetInstanceProcAddr\(NULL, "vkCreateInstance"\) returned NULL/);
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
  });
});

describe('Vulkan: counts that change between the two calls of the two-call idiom', () => {
  for (const kind of ['count-grow', 'count-lie'] as const) {
    it(`VK-DR-1: vkEnumeratePhysicalDevices ${kind} (every call): exactly the driver's one device, never a handle it did not write`, async () => {
      withFault({ in: 'driver', command: 'vkEnumeratePhysicalDevices', kind, nth: kind === 'count-grow' ? 2 : 0 }, () => {
        const instance = create();
        expect(deviceNames(instance)).toEqual(['kl-faults|faults']);
        instance.destroy();
      });
      await log.settle();
      expect(warnings()).toEqual([]);
      expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
    });
  }

  it('VK-DR-1: vkEnumeratePhysicalDevices count-shrink: the device that went away is not listed', () => {
    withFault({ in: 'driver', command: 'vkEnumeratePhysicalDevices', kind: 'count-shrink', nth: 0 }, () => {
      const instance = create();
      expect(deviceNames(instance)).toEqual([]);
      instance.destroy();
    });
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
  });

  for (const [kind, nth] of [['count-grow', 2], ['count-shrink', 0], ['count-lie', 0]] as const) {
    it(`VK-DR-1: vkEnumerateInstanceExtensionProperties ${kind} (${nth === 0 ? 'every call' : `call ${nth}`}): the driver gets only extensions it listed; no read past what it wrote`, async () => {
      withFault({ in: 'driver', command: 'vkEnumerateInstanceExtensionProperties', kind, nth }, () => {
        const instance = create([FAULTS], ['VK_KHR_get_physical_device_properties2']);
        expect(deviceNames(instance)).toEqual(['kl-faults|faults']);
        instance.destroy();
      });
      await log.settle();
      expect(warnings()).toEqual([]);
      expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
    });
  }

  it('VK-DR-1, NODE-2: a driver extension list that grows at every call is given up after a few tries: a diagnostic naming the driver, and the extension asked for is VK_ERROR_EXTENSION_NOT_PRESENT', async () => {
    const e = withFault({ in: 'driver', command: 'vkEnumerateInstanceExtensionProperties', kind: 'count-grow', nth: 0 }, () =>
      vulkanErrorFrom(() => create([FAULTS], ['VK_KHR_get_physical_device_properties2'])),
    );
    expect(e.result).toBe('VK_ERROR_EXTENSION_NOT_PRESENT');
    expect(e.message).toContain('VK_KHR_get_physical_device_properties2');
    await log.settle();
    expect(warnings().some((m) => m.includes(FAULTS) && m.includes('vkEnumerateInstanceExtensionProperties returned 5'))).toBe(true);
    expect(mappedLibraries('kl_vk_driver_faults')).toEqual([]);
  });
});

describe('Vulkan: crashes and hangs in driver negotiation, isolated in the doctor\'s probe child', () => {
  const TIMEOUT_MS = 3000;
  function run(fault: Fault): Promise<VulkanDoctorReport> {
    const root = mkdtempSync(path.join(os.tmpdir(), 'kl-vkfaults-'));
    mkdirSync(path.join(root, 'home'));
    const manifest = path.join(root, 'faults.json');
    writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.1', ICD: { library_path: FAULTS, api_version: '1.3.0' } }));
    const env = {
      HOME: path.join(root, 'home'),
      XDG_DATA_DIRS: path.join(root, 'nothing'),
      XDG_CONFIG_DIRS: path.join(root, 'nothing'),
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      VK_DRIVER_FILES: manifest,
      VK_LAYER_PATH: path.join(root, 'nothing'),
      VK_IMPLICIT_LAYER_PATH: path.join(root, 'nothing'),
      ...faultEnv(fault),
      ...sanitizerEnv({ deliberateCrash: true }),
    };
    return doctorVulkan({ env, sysconfdir: path.join(root, 'nothing'), extraSysconfdir: null, timeoutMs: TIMEOUT_MS, logWriter: () => undefined });
  }

  it('VK-DR-1: a driver that aborts in negotiation is reported as crashed with SIGABRT; this process lives', async () => {
    const r = await run({ in: 'driver', command: 'negotiate', kind: 'abort' });
    const c = r.components.find((x) => x.name === 'libkl_vk_driver_faults.so');
    expect(c?.problems[0]).toMatchObject({ stage: 'crash', what: 'crashed with SIGABRT during negotiation', why: { file: FAULTS } });
  });

  it('VK-DR-1: a driver that hangs in negotiation is killed after the timeout and reported', async () => {
    const r = await run({ in: 'driver', command: 'negotiate', kind: 'hang' });
    const c = r.components.find((x) => x.name === 'libkl_vk_driver_faults.so');
    expect(c?.problems.map((p) => [p.stage, p.what])).toEqual([['timeout', 'did not return within 3 s']]);
  });
});
