// The settings file's device_configurations in the native core (VK-DC-2, VK-DC-3), from a plan:
// the test driver reports deviceID = the VkApplicationInfo::apiVersion it received and
// driverVersion = its interface version, with zero UUIDs; the comparison with the Khronos loader
// 1.4.359 is test/system/vulkan-device-configurations-differential.test.ts.
import { describe, expect, it } from 'vitest';
import { createInstanceFromPlan, VulkanError } from '../../lib/vulkan/api/index.js';
import type { VulkanDeviceConfiguration } from '../../lib/vulkan/plan/plan.js';
import { driver, plan, testLibrary, VK_API_VERSION_1_0 } from './helpers.js';

const VK_API_VERSION_1_1 = (1 << 22) | (1 << 12);
const zeros = Array.from({ length: 16 }, () => 0);
const entry = (driverVersion: number): VulkanDeviceConfiguration => ({ index: 0, deviceUUID: zeros, driverUUID: zeros, driverVersion, deviceName: '', driverName: '' });

/** deviceIDs (the apiVersion the driver got) of the devices, or the VkResult it threw. */
function devices(deviceConfigurations: VulkanDeviceConfiguration[] | undefined, apiVersion: number): number[] | number {
  const p = plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7'))], [], { deviceFilters: deviceConfigurations ? { deviceConfigurations } : {} });
  const instance = createInstanceFromPlan(p, { applicationName: 'app', apiVersion });
  try {
    return instance.enumeratePhysicalDevices().map((d) => d.properties.deviceID);
  } catch (err) {
    if (err instanceof VulkanError) return err.resultValue;
    throw err;
  } finally {
    instance.destroy();
  }
}

describe('device_configurations in the native core', () => {
  it('VK-DC-3: with entries, a 1.0 application\'s drivers that support 1.1 get apiVersion 1.1; without them (or with an empty list: no device, the size query says 0) 1.0 as asked', () => {
    expect(devices([entry(7)], VK_API_VERSION_1_0)).toEqual([VK_API_VERSION_1_1]);
    expect(devices(undefined, VK_API_VERSION_1_0)).toEqual([VK_API_VERSION_1_0]);
    expect(devices([], VK_API_VERSION_1_0)).toEqual([]); // an empty selection: nothing (and no raise)
  });

  it('VK-DC-2: an entry whose driverVersion differs matches nothing: VK_ERROR_INITIALIZATION_FAILED; two entries naming the one device: the size query says 1 and the fill stops there', () => {
    expect(devices([entry(8)], VK_API_VERSION_1_1)).toBe(-3);
    expect(devices([entry(7), entry(7)], VK_API_VERSION_1_1)).toEqual([VK_API_VERSION_1_1]);
    expect(devices([entry(8), entry(7)], VK_API_VERSION_1_1)).toEqual([VK_API_VERSION_1_1]);
  });
});
