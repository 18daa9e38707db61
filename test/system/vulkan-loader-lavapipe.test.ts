// createLoader().createInstance() end to end on Debian's components: real discovery (a fixture
// environment whose VK_DRIVER_FILES names Mesa lavapipe; the layers from /usr/share/vulkan) and
// our native core carrying the plan out. VK_LAYER_MESA_device_select is implicit, the validation
// layer comes in by name.
import { describe, expect, it } from 'vitest';
import { VK_API_VERSION_1_3, VulkanError } from '../../lib/vulkan/index.js';
import { LAVAPIPE_MANIFEST, lavapipeLoader, missingLavapipeStack } from '../helpers/vulkan-lavapipe.js';

const skip = missingLavapipeStack();
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const DEVICE_SELECT = 'VK_LAYER_MESA_device_select';
const WARNING = 0x100;

describe.skipIf(skip !== null)('createLoader().createInstance() on lavapipe through real discovery', () => {
  it('VK-CH-1, VK-LF-1: the chain the instance reports is the plan\'s (implicit device_select, then validation by name); lavapipe is the device', () => {
    const loader = lavapipeLoader();
    const options = { applicationName: 'kl-loader', apiVersion: VK_API_VERSION_1_3, enabledLayerNames: [VALIDATION] };
    const plan = loader.planInstance(options);
    expect(plan.drivers.map((d) => d.manifestPath)).toEqual([LAVAPIPE_MANIFEST]);
    const instance = loader.createInstance(options);
    try {
      expect(instance.enabledLayerNames).toEqual(plan.layers.map((l) => l.name));
      expect(instance.enabledLayerNames).toEqual([DEVICE_SELECT, VALIDATION]);
      const [pd] = instance.enumeratePhysicalDevices();
      expect(pd!.properties.deviceName).toMatch(/^llvmpipe/);
    } finally {
      instance.destroy();
    }
  });

  it('VK-LF-4, VK-LF-1: VK_INSTANCE_LAYERS and VK_LOADER_LAYERS_ENABLE bring validation in without the application; NODEVICE_SELECT turns the implicit layer off', () => {
    const envs: Record<string, string>[] = [{ VK_INSTANCE_LAYERS: VALIDATION }, { VK_LOADER_LAYERS_ENABLE: '*khronos_valid*' }];
    for (const extra of envs) {
      const instance = lavapipeLoader(extra).createInstance({ applicationName: 'kl-loader-env' });
      expect(instance.enabledLayerNames).toEqual([DEVICE_SELECT, VALIDATION]);
      instance.destroy();
    }
    const instance = lavapipeLoader({ NODEVICE_SELECT: '1' }).createInstance({ applicationName: 'kl-loader-env', enabledLayerNames: [VALIDATION] });
    expect(instance.enabledLayerNames).toEqual([VALIDATION]);
    instance.destroy();
  });

  it('VK-CH-3: validation in the chain reports nothing for instance, device and queue; the instance extension asked for is enabled', () => {
    const instance = lavapipeLoader().createInstance({
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

  it('VK-LF-1: a layer nobody provides fails with VK_ERROR_LAYER_NOT_PRESENT before anything loads; wrong options are a TypeError', () => {
    const loader = lavapipeLoader();
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
