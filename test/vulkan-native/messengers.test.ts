// Loader-provided debug messengers: VK_EXT_debug_utils messengers chained into
// VkInstanceCreateInfo.pNext hear the loader's own messages during vkCreateInstance and
// vkDestroyInstance, as the Khronos loader does.
import { describe, expect, it } from 'vitest';
import { createInstanceFromPlan } from '../../lib/vulkan/api/index.js';
import { driver, layer, plan, testLibrary } from './helpers.js';

const WARNING = 0x100;
const INFO = 0x10;

describe('VK_EXT_debug_utils messengers in VkInstanceCreateInfo.pNext', () => {
  it('VK-CH-1: hear the loader during vkCreateInstance (a dropped driver, a dropped layer) and vkDestroyInstance', () => {
    const instance = createInstanceFromPlan(
      plan(
        [driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_negotiate_fails')), driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7'))],
        [layer('VK_LAYER_KLTEST_negotiate_fails', testLibrary('vulkan_test_layers', 'kl_vk_layer_negotiate_fails'))],
      ),
      { applicationName: 'app', collectCreateMessages: true },
    );
    const created = instance.takeDebugMessages();
    const warnings = created.filter((m) => m.severity === WARNING).map((m) => m.message);
    expect(warnings.some((m) => m.includes('libkl_vk_driver_negotiate_fails.so') && m.includes('vk_icdNegotiateLoaderICDInterfaceVersion'))).toBe(true);
    expect(warnings.some((m) => m.includes('libkl_vk_layer_negotiate_fails.so') && m.includes('vkNegotiateLoaderLayerInterfaceVersion'))).toBe(true);
    expect(created.every((m) => m.messageIdName === 'Loader Message')).toBe(true);
    instance.destroy();
    const destroyed = instance.takeDebugMessages();
    expect(destroyed.some((m) => m.severity === INFO && m.message.startsWith('vkDestroyInstance:'))).toBe(true);
  });

  it('VK-CH-1: without a chained messenger nothing is collected', () => {
    const instance = createInstanceFromPlan(plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7'))]), { applicationName: 'app' });
    instance.destroy();
    expect(instance.takeDebugMessages()).toEqual([]);
  });
});
