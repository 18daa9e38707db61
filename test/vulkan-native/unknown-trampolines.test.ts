// The generic trampolines for Vulkan commands the loader does not know (native/vulkan/
// unknown_functions.cc, one per CPU: x86-64 and AArch64), called as an application calls them,
// through a pointer, here from test/native/call_probe (no koffi needed, so this file also runs on
// the linux-arm64 prebuild under qemu-user: test/platforms/vitest.emulated.config.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nativeArtifactDir } from '../../lib/core/native/load.js';
import { createInstanceFromPlan, type Instance } from '../../lib/vulkan/api/index.js';
import { testNativeDir } from '../helpers/paths.js';
import { driver, layer, owningLibrary, plan, testLibrary, VK_API_VERSION_1_3 } from './helpers.js';

interface CallProbe {
  callHandleU32Out(fn: bigint, handle: bigint, value: number): { result: number; out: number };
}
const probe = createRequire(import.meta.url)(path.join(testNativeDir, 'call_probe/kl_call_probe.node')) as CallProbe;
const testLayer = (x: string) => layer(`VK_LAYER_KLTEST_${x}`, testLibrary('vulkan_test_layers', `kl_vk_layer_${x}`));
const isAddon = (fn: bigint): boolean => path.dirname(owningLibrary(fn) ?? '') === nativeArtifactDir();

let live: Instance[] = [];
afterEach(() => {
  for (const i of live) if (!i.isDestroyed) i.destroy();
  live = [];
});

function create(layers: ReturnType<typeof layer>[]): Instance {
  const instance = createInstanceFromPlan(plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7'))], layers), {
    applicationName: 'app',
    apiVersion: VK_API_VERSION_1_3,
  });
  live.push(instance);
  return instance;
}

describe(`VK-CH-4: generic trampolines for unknown commands (${process.arch})`, () => {
  it('VK-CH-4: an unknown physical-device command is a loader trampoline that hands the driver its own physical device, with and without layers', () => {
    for (const layers of [[], [testLayer('a'), testLayer('b')]]) {
      const instance = create(layers);
      const fn = instance.getInstanceProcAddr('vkKlTestPhysicalDeviceCommand');
      expect(fn).not.toBe(0n);
      expect(isAddon(fn)).toBe(true);
      const answer = probe.callHandleU32Out(fn, instance.enumeratePhysicalDevices()[0]!.handle, 5);
      // The driver adds its vendor id (4096) only when it got its own VkPhysicalDevice.
      expect(answer).toEqual({ result: 0, out: 5 + 4096 });
    }
  });

  it('VK-CH-4: an unknown device command from vkGetInstanceProcAddr is a loader trampoline reaching the driver; a layer-only command reaches the layer', () => {
    const instance = create([testLayer('a')]);
    const viaInstance = instance.getInstanceProcAddr('vkKlTestDeviceCommand');
    const layerOnly = instance.getInstanceProcAddr('vkKlTestLayerCommand');
    expect(isAddon(viaInstance)).toBe(true);
    expect(isAddon(layerOnly)).toBe(true);
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    expect(probe.callHandleU32Out(viaInstance, device.handle, 21)).toEqual({ result: 0, out: 42 });
    expect(probe.callHandleU32Out(layerOnly, device.handle, 1)).toEqual({ result: 0, out: 8 });
  });
});
