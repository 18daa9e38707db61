// createLoader().createInstance() end to end on a real driver (Mesa lavapipe, or the one
// KHRONOS_LOADER_VK_DRIVER_JSON names): real discovery (a fixture environment whose VK_DRIVER_FILES
// names it; the layers from /usr/share/vulkan) and our native core carrying the plan out.
// VK_LAYER_MESA_device_select is implicit, the validation layer comes in by name (Debian's: those
// tests skip with the reason where they are absent).
import { describe, expect, it } from 'vitest';
import { VK_API_VERSION_1_3, VulkanError } from '../../lib/vulkan/index.js';
import { missingRealDriver, missingRealDriverWithDebianLayers, REAL_DEVICE_NAME, REAL_DRIVER_MANIFEST, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriverWithDebianLayers();
const noDriver = missingRealDriver();
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const DEVICE_SELECT = 'VK_LAYER_MESA_device_select';
const WARNING = 0x100;

describe.skipIf(skip !== null)('createLoader().createInstance() on the real driver through real discovery, with the Debian layers', () => {
  it('VK-CH-1, VK-LF-1: the chain the instance reports is the plan\'s (implicit device_select, then validation by name); the driver\'s device is listed', () => {
    const loader = realDriverLoader();
    const options = { applicationName: 'kl-loader', apiVersion: VK_API_VERSION_1_3, enabledLayerNames: [VALIDATION] };
    const plan = loader.planInstance(options);
    expect(plan.drivers.map((d) => d.manifestPath)).toEqual([REAL_DRIVER_MANIFEST]);
    const instance = loader.createInstance(options);
    try {
      expect(instance.enabledLayerNames).toEqual(plan.layers.map((l) => l.name));
      expect(instance.enabledLayerNames).toEqual([DEVICE_SELECT, VALIDATION]);
      const [pd] = instance.enumeratePhysicalDevices();
      expect(pd!.properties.deviceName).toMatch(REAL_DEVICE_NAME);
    } finally {
      instance.destroy();
    }
  });

  it('VK-LF-4, VK-LF-1: VK_INSTANCE_LAYERS and VK_LOADER_LAYERS_ENABLE bring validation in without the application; NODEVICE_SELECT turns the implicit layer off', () => {
    const envs: Record<string, string>[] = [{ VK_INSTANCE_LAYERS: VALIDATION }, { VK_LOADER_LAYERS_ENABLE: '*khronos_valid*' }];
    for (const extra of envs) {
      const instance = realDriverLoader(extra).createInstance({ applicationName: 'kl-loader-env' });
      expect(instance.enabledLayerNames).toEqual([DEVICE_SELECT, VALIDATION]);
      instance.destroy();
    }
    const instance = realDriverLoader({ NODEVICE_SELECT: '1' }).createInstance({ applicationName: 'kl-loader-env', enabledLayerNames: [VALIDATION] });
    expect(instance.enabledLayerNames).toEqual([VALIDATION]);
    instance.destroy();
  });

  it('VK-CH-3: validation in the chain reports nothing for instance, device and queue; the instance extension asked for is enabled', () => {
    const instance = realDriverLoader().createInstance({
      applicationName: 'kl-loader-clean',
      apiVersion: VK_API_VERSION_1_3,
      enabledLayerNames: [VALIDATION],
      enabledExtensionNames: ['VK_EXT_debug_utils'],
      collectCreateMessages: true,
    });
    try {
      instance.startDebugMessenger();
      const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
      device.getQueue(0, 0);
      device.destroy();
      expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
    } finally {
      instance.destroy();
    }
  });

});

describe.skipIf(noDriver !== null)('createLoader().createInstance() on the real driver through real discovery', () => {
  it('VK-LF-1: a layer nobody provides fails with VK_ERROR_LAYER_NOT_PRESENT before anything loads; wrong options are a TypeError', () => {
    const loader = realDriverLoader();
    expect(() => loader.createInstance({ applicationName: 'x', enabledLayerNames: ['VK_LAYER_T_nobody'] })).toThrow(VulkanError);
    try {
      loader.createInstance({ applicationName: 'x', enabledLayerNames: ['VK_LAYER_T_nobody'] });
    } catch (e) {
      expect((e as VulkanError).result).toBe('VK_ERROR_LAYER_NOT_PRESENT');
    }
    expect(() => loader.createInstance(null as never)).toThrow(TypeError);
    expect(() => loader.createInstance({ applicationName: 'x', enabledLayerNames: 'VK_LAYER_KHRONOS_validation' as never })).toThrow(TypeError);
  });
});
