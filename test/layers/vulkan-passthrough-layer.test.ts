// The bundled pass-through Vulkan layer (native/bundled/layers/vulkan_passthrough_layer.cc) with many
// devices live at once: each wrapped call finds its own device's next functions in the layer's
// lock-free table (and, past 32 live devices, in the list under its lock), across removals.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VULKAN_PASSTHROUGH_LAYER_PREFIX, vulkanPassthroughLayerLibrary } from '../../lib/tools/bench/vulkan-layers.js';
import { createInstanceFromPlan, type Device, type PhysicalDevice } from '../../lib/vulkan/api/index.js';
import { missingSystemComponent } from '../helpers/system.js';
import { driver, driverFromManifest, LAVAPIPE_MANIFEST, layer, plan, testLibrary, VK_API_VERSION_1_3 } from '../vulkan-native/helpers.js';

describe('the bundled pass-through Vulkan layer', () => {
  it('VK-CH-3: with 40 devices of two drivers live through the layer (past its 32-device table) and some destroyed in between, every device\'s vkGetDeviceQueue reaches its own driver (system: lavapipe)', (ctx) => {
    const missing = missingSystemComponent({ lavapipe: [LAVAPIPE_MANIFEST] });
    if (missing) return ctx.skip(missing);
    const testDriver = testLibrary('vulkan_test_driver', 'kl_vk_driver_v7');
    expect(existsSync(testDriver)).toBe(true);
    // Two drivers whose handles mean nothing to each other: a call routed down another device's
    // chain hands lavapipe a test-driver device (or the reverse) and does not come back right.
    const instance = createInstanceFromPlan(
      plan([driverFromManifest(LAVAPIPE_MANIFEST), driver(testDriver)], [layer(`${VULKAN_PASSTHROUGH_LAYER_PREFIX}_1`, vulkanPassthroughLayerLibrary())]),
      { applicationName: 'pass-through layer, many devices', apiVersion: VK_API_VERSION_1_3 },
    );
    try {
      expect(instance.enabledLayerNames).toEqual([`${VULKAN_PASSTHROUGH_LAYER_PREFIX}_1`]);
      const physical = instance.enumeratePhysicalDevices();
      const lavapipe = physical.find((p) => p.properties.deviceName.startsWith('llvmpipe'));
      const test = physical.find((p) => p.properties.deviceName.startsWith('kl-v7'));
      expect(lavapipe && test, physical.map((p) => p.properties.deviceName).join(', ')).toBeTruthy();
      // Every 8th device on lavapipe (5 of 40), the rest on the test driver.
      const create = (i: number): { device: Device; on: PhysicalDevice } => {
        const on = i % 8 === 0 ? lavapipe! : test!;
        return { device: on.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] }), on };
      };
      const live = Array.from({ length: 40 }, (_, i) => create(i));
      // The queue each driver answers, asked again through the layer: the same handle each time,
      // a different one for every device.
      const queues = (): bigint[] => live.map(({ device }) => device.getQueue(0, 0));
      const first = queues();
      expect(first.every((q) => q !== 0n)).toBe(true);
      expect(new Set(first).size).toBe(live.length);
      expect(queues()).toEqual(first);
      // Destroy every third device (table slots become tombstones, the overflow list shrinks), then
      // create ten more (which reuse them): the rest still reach their own drivers.
      const kept = live.filter((_, i) => i % 3 !== 0);
      for (const [i, d] of live.entries()) if (i % 3 === 0) d.device.destroy();
      live.splice(0, live.length, ...kept, ...Array.from({ length: 10 }, (_, i) => create(i)));
      const again = queues();
      expect(again.slice(0, kept.length)).toEqual(first.filter((_, i) => i % 3 !== 0));
      expect(new Set(again).size).toBe(live.length);
      expect(queues()).toEqual(again);
    } finally {
      instance.destroy();
    }
  });
});
