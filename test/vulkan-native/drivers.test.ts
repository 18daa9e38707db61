// Drivers (VK-DR-1, native part): negotiation of every interface version and its obligations,
// failures dropped with a logged reason while other drivers work, several drivers aggregated
// and sorted, device filters, portability drivers.
import { afterEach, describe, expect, it } from 'vitest';
import { createInstanceFromPlan, instanceExtensionsOfPlan, VulkanError } from '../../lib/vulkan/api/index.js';
import { captureLog, driver, plan, testLibrary, VK_API_VERSION_1_0, VK_API_VERSION_1_3 } from './helpers.js';

const lib = (name: string): string => testLibrary('vulkan_test_driver', name);
let log = captureLog();
afterEach(() => {
  log.stop();
  log = captureLog();
});

function onlyDevice(drivers: string[], apiVersion = VK_API_VERSION_1_3) {
  const instance = createInstanceFromPlan(plan(drivers.map((d) => driver(lib(d)))), { applicationName: 'app', apiVersion });
  const devices = instance.enumeratePhysicalDevices();
  instance.destroy();
  return devices;
}

describe('VK-DR-1: driver interface negotiation', () => {
  for (const version of [0, 1, 2, 3, 4, 5, 6, 7]) {
    it(`VK-DR-1: a driver of interface version ${version} is loaded and used (${version === 0 ? 'legacy vkGetInstanceProcAddr export' : version === 1 ? 'vk_icdGetInstanceProcAddr' : 'vk_icdNegotiateLoaderICDInterfaceVersion'})`, () => {
      const [device] = onlyDevice([`kl_vk_driver_v${version}`]);
      expect(device!.properties.deviceName).toBe(`kl-v${version}|app`);
      // driverVersion = the interface version the driver negotiated (or its legacy level).
      expect(device!.properties.driverVersion).toBe(version);
    });
  }

  it('VK-DR-1: interface 7 functions reached only through vk_icdGetInstanceProcAddr', () => {
    const [device] = onlyDevice(['kl_vk_driver_v7_gipa']);
    expect(device!.properties.deviceName).toBe('kl-v7-gipa|app');
    expect(device!.properties.driverVersion).toBe(7);
  });

  it('VK-DR-1: before interface 5 a Vulkan 1.0 driver gets apiVersion 1.0; from 5 on the application\'s', () => {
    const [v4] = onlyDevice(['kl_vk_driver_v4_api10']);
    expect(v4!.properties.deviceID).toBe(VK_API_VERSION_1_0);
    const [v5] = onlyDevice(['kl_vk_driver_v5_api10']);
    expect(v5!.properties.deviceID).toBe(VK_API_VERSION_1_3);
  });

  for (const [target, why] of [
    ['kl_vk_driver_negotiate_fails', /vk_icdNegotiateLoaderICDInterfaceVersion returned -9/],
    ['kl_vk_driver_negotiate_too_new', /answered version 8, newer than the 7 the loader offered/],
  ] as const) {
    it(`VK-DR-1: a failing driver (${target}) is dropped with its file, symbol and reason logged; the other driver works`, async () => {
      const devices = onlyDevice([target, 'kl_vk_driver_v7']);
      expect(devices.map((d) => d.properties.deviceName)).toEqual(['kl-v7|app']);
      await log.settle();
      const warning = log.records.find((r) => r.source === 'vulkan.driver' && r.message.includes(lib(target)));
      expect(warning?.level).toBe('warn');
      expect(warning?.message).toMatch(why);
    });
  }

  it('VK-DR-1: a library that cannot be loaded is dropped with dlerror\'s reason', async () => {
    const devices = onlyDevice(['/nonexistent/libnothing.so', 'kl_vk_driver_v6']);
    expect(devices).toHaveLength(1);
    await log.settle();
    expect(log.records.some((r) => r.message.includes('/nonexistent/libnothing.so') && r.message.includes('cannot load the library'))).toBe(true);
  });

  it('VK-DR-1: with no usable driver, creation fails with VK_ERROR_INCOMPATIBLE_DRIVER naming every reason', () => {
    let error: unknown;
    try {
      createInstanceFromPlan(plan([driver(lib('kl_vk_driver_negotiate_fails'))]), { applicationName: 'app' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VulkanError);
    expect((error as VulkanError).result).toBe('VK_ERROR_INCOMPATIBLE_DRIVER');
    expect((error as VulkanError).resultValue).toBe(-9);
    expect((error as VulkanError).message).toContain('kl_vk_driver_negotiate_fails');
  });
});

describe('VK-DR-1: several drivers', () => {
  it('VK-DR-1: each driver gets its own driver instance; physical devices of all are aggregated, sorted as on Linux (discrete, integrated, ..., cpu)', () => {
    const devices = onlyDevice(['kl_vk_driver_v7', 'kl_vk_driver_integrated', 'kl_vk_driver_discrete']);
    expect(devices.map((d) => d.properties.deviceName)).toEqual(['kl-discrete|app', 'kl-integrated|app', 'kl-v7|app']);
  });

  it('VK-DR-1: device filters: VK_LOADER_DEVICE_SELECT goes first; VENDOR_ID / DEVICE_ID filters keep only their ranges', () => {
    const drivers = ['kl_vk_driver_v7', 'kl_vk_driver_integrated', 'kl_vk_driver_discrete'].map((d) => driver(lib(d)));
    const names = (deviceFilters: object) => {
      const instance = createInstanceFromPlan(plan(drivers, [], { deviceFilters }), { applicationName: 'app' });
      const result = instance.enumeratePhysicalDevices().map((d) => d.properties.deviceName.split('|')[0]);
      instance.destroy();
      return result;
    };
    expect(names({ deviceSelect: { vendorId: 4098, deviceId: VK_API_VERSION_1_0 } })).toEqual(['kl-integrated', 'kl-discrete', 'kl-v7']);
    expect(names({ vendorIdRanges: [[4096, 4097]] })).toEqual(['kl-discrete', 'kl-v7']);
    expect(names({ deviceIdRanges: [[0, 10]] })).toEqual([]);
  });

  it('VK-DR-1: a portability driver is used only when the application enables VK_KHR_portability_enumeration with the flag', async () => {
    const drivers = [driver(lib('kl_vk_driver_portability'), { isPortabilityDriver: true }), driver(lib('kl_vk_driver_v7'))];
    const without = createInstanceFromPlan(plan(drivers), { applicationName: 'app' });
    expect(without.enumeratePhysicalDevices().map((d) => d.properties.deviceName)).toEqual(['kl-v7|app']);
    without.destroy();
    await log.settle();
    expect(log.records.some((r) => r.message.includes('portability driver') && r.message.includes('kl_vk_driver_portability'))).toBe(true);
    const withFlag = createInstanceFromPlan(plan(drivers), {
      applicationName: 'app',
      flags: 1,
      enabledExtensionNames: ['VK_KHR_portability_enumeration'],
    });
    expect(withFlag.enumeratePhysicalDevices().map((d) => d.properties.deviceName).sort()).toEqual(['kl-portability|app', 'kl-v7|app']);
    withFlag.destroy();
  });

  it('VK-DR-1: an instance extension no driver, layer or the loader supports fails with VK_ERROR_EXTENSION_NOT_PRESENT', () => {
    expect(() =>
      createInstanceFromPlan(plan([driver(lib('kl_vk_driver_v7'))]), { applicationName: 'app', enabledExtensionNames: ['VK_KHR_nonexistent'] }),
    ).toThrow(/VK_ERROR_EXTENSION_NOT_PRESENT.*VK_KHR_nonexistent/);
  });

  it('VK-DR-1: instance extensions: the union of the drivers\' that the loader knows, plus the loader\'s own; VK_LOADER_DISABLE_INST_EXT_FILTER keeps the rest', () => {
    const drivers = [driver(lib('kl_vk_driver_v7')), driver(lib('kl_vk_driver_portability'), { isPortabilityDriver: true })];
    const filtered = instanceExtensionsOfPlan(plan(drivers));
    // Driver order, then the loader's own (VK_EXT_debug_report, VK_EXT_debug_utils, VK_KHR_portability_enumeration, VK_LUNARG_direct_driver_loading) no driver listed first.
    expect(filtered).toEqual(['VK_KHR_get_physical_device_properties2', 'VK_KHR_portability_enumeration', 'VK_EXT_debug_report', 'VK_EXT_debug_utils', 'VK_LUNARG_direct_driver_loading']);
    const unfiltered = instanceExtensionsOfPlan(plan(drivers, [], { disableInstanceExtensionFilter: true }));
    expect(unfiltered).toContain('VK_KLTEST_unknown_instance_extension');
    const enable = { applicationName: 'app', enabledExtensionNames: ['VK_KLTEST_unknown_instance_extension'] };
    expect(() => createInstanceFromPlan(plan(drivers), enable)).toThrow(/VK_ERROR_EXTENSION_NOT_PRESENT/);
    const instance = createInstanceFromPlan(plan(drivers, [], { disableInstanceExtensionFilter: true }), enable);
    expect(instance.enumeratePhysicalDevices()).toHaveLength(1);
    instance.destroy();
  });
});
