// Pre-instance functions (VK-CH-5): implicit layers whose manifest names pre_instance_functions
// intercept vkEnumerateInstanceVersion / vkEnumerateInstanceExtensionProperties /
// vkEnumerateInstanceLayerProperties through the Vk...Chain structures; their libraries are
// unloaded after each call.
import { describe, expect, it } from 'vitest';
import { preInstance } from '../../lib/vulkan/api/index.js';
import { VK_HEADER_VERSION } from '../../lib/generated/vulkan.js';
import { driver, layer, mappedLibraries, plan, testLibrary } from './helpers.js';

const interceptor = (kind: 'implicit' | 'explicit') =>
  layer('VK_LAYER_KLTEST_pre_instance', testLibrary('vulkan_test_layers', 'kl_vk_layer_pre_instance'), {
    kind,
    preInstanceFunctions: {
      vkEnumerateInstanceVersion: 'klPreEnumerateInstanceVersion',
      vkEnumerateInstanceExtensionProperties: 'klPreEnumerateInstanceExtensionProperties',
    },
  });
const drivers = [
  driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7')),
  driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_portability'), { isPortabilityDriver: true }),
];

describe('VK-CH-5: pre-instance functions', () => {
  it('VK-CH-5: without interceptors the loader answers itself', () => {
    expect(preInstance.enumerateInstanceVersion(plan(drivers)) & 0xfff).toBe(VK_HEADER_VERSION);
    expect(preInstance.enumerateInstanceExtensionProperties(plan(drivers))).toContain('VK_KHR_portability_enumeration');
    expect(preInstance.enumerateInstanceLayerProperties(plan(drivers, [interceptor('implicit')]))).toEqual(['VK_LAYER_KLTEST_pre_instance']);
  });

  it('VK-CH-5: an implicit layer intercepts through the chain structures, then its library is unloaded', () => {
    const p = plan(drivers, [interceptor('implicit')]);
    const version = preInstance.enumerateInstanceVersion(p);
    expect(version & 0xfff).toBe(77);
    expect(version >>> 12).toBe(preInstance.enumerateInstanceVersion(plan(drivers)) >>> 12);
    const extensions = preInstance.enumerateInstanceExtensionProperties(p);
    expect(extensions).toContain('VK_KHR_get_physical_device_properties2');
    expect(extensions).not.toContain('VK_KHR_portability_enumeration');
    expect(mappedLibraries('libkl_vk_layer_pre_instance.so')).toEqual([]);
  });

  it('VK-CH-5: an explicit layer\'s pre_instance_functions are not used', () => {
    expect(preInstance.enumerateInstanceVersion(plan(drivers, [interceptor('explicit')])) & 0xfff).toBe(VK_HEADER_VERSION);
  });
});
