// The native Vulkan core on real Debian components: Mesa lavapipe as the driver,
// VK_LAYER_KHRONOS_validation and VK_LAYER_MESA_device_select as layers in the chain.
// A missing component skips with the reason (fails under KHRONOS_LOADER_SYSTEM_TESTS=required).
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/native.js';
import { createInstanceFromPlan } from '../../lib/vulkan/api/index.js';
import { missingSystemComponent } from '../helpers/system.js';
import {
  DEVICE_SELECT_MANIFEST,
  LAVAPIPE_MANIFEST,
  VALIDATION_MANIFEST,
  driverFromManifest,
  layerFromManifest,
  mappedLibraries,
  owningLibrary,
  plan,
  VK_API_VERSION_1_3,
} from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
  proto(prototype: string): unknown;
  call(fn: bigint, proto: unknown, ...args: unknown[]): unknown;
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const addonPath = path.join(packageRoot, 'build/Release/khronos_loader.node');

const missingLavapipe = missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST] });
const missingLayers = missingSystemComponent({
  'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST],
  'VK_LAYER_KHRONOS_validation (vulkan-validationlayers)': [VALIDATION_MANIFEST],
  'VK_LAYER_MESA_device_select (mesa-vulkan-drivers)': [DEVICE_SELECT_MANIFEST],
});
const VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING = 0x100;
const VK_PHYSICAL_DEVICE_TYPE_CPU = 4;
const queueInfo = { queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] };

describe.skipIf(missingLavapipe !== null)('lavapipe as the driver', () => {
  it('VK-DR-1 / VK-CH-3: lavapipe negotiates, its CPU device is listed, a device and queue work, device commands are lavapipe\'s own functions', () => {
    const lvp = driverFromManifest(LAVAPIPE_MANIFEST);
    const instance = createInstanceFromPlan(plan([lvp]), { applicationName: 'kl-lavapipe', apiVersion: VK_API_VERSION_1_3 });
    const [pd] = instance.enumeratePhysicalDevices();
    expect(pd!.properties.deviceName).toMatch(/^llvmpipe/);
    expect(pd!.properties.deviceType).toBe(VK_PHYSICAL_DEVICE_TYPE_CPU);
    expect(pd!.properties.vendorID).toBe(0x10005);
    const device = pd!.createDevice(queueInfo);
    const queue = device.getQueue(0, 0);
    expect(owningLibrary(device.getDeviceProcAddr('vkQueueWaitIdle'))).toMatch(/libvulkan_lvp\.so$/);
    // The addon's exported trampoline dispatches through the queue's loader dispatch pointer.
    expect(koffi.load(addonPath).func('int32_t vkQueueWaitIdle(void*)')(queue)).toBe(0);
    expect(koffi.call(device.getDeviceProcAddr('vkDeviceWaitIdle'), koffi.proto('int32_t PFN_DeviceWaitIdle(void*)'), device.handle)).toBe(0);
    instance.destroy();
    expect(device.isDestroyed).toBe(true);
  });
});

describe.skipIf(missingLayers !== null)('lavapipe with VK_LAYER_KHRONOS_validation and VK_LAYER_MESA_device_select', () => {
  const create = () =>
    createInstanceFromPlan(
      plan([driverFromManifest(LAVAPIPE_MANIFEST)], [layerFromManifest(VALIDATION_MANIFEST, 'explicit'), layerFromManifest(DEVICE_SELECT_MANIFEST, 'implicit')]),
      { applicationName: 'kl-validation', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames: ['VK_EXT_debug_utils'], collectCreateMessages: true },
    );

  it('VK-CH-1 / VK-CH-6 LLP_LOADER_1: both real layers in the chain (application side first); validation reports nothing for correct calls', () => {
    const instance = create();
    expect(instance.enabledLayerNames).toEqual(['VK_LAYER_KHRONOS_validation', 'VK_LAYER_MESA_device_select']);
    instance.startDebugMessenger();
    const [pd] = instance.enumeratePhysicalDevices();
    const device = pd!.createDevice(queueInfo);
    device.getQueue(0, 0);
    expect(koffi.load(addonPath).func('int32_t vkDeviceWaitIdle(void*)')(device.handle)).toBe(0);
    device.destroy();
    const problems = instance.takeDebugMessages().filter((m) => m.severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING);
    expect(problems).toEqual([]);
    instance.destroy();
  });

  it('VK-CH-3: validation reports a planted misuse (vkGetDeviceQueue with a queue index the device does not have) through a debug-utils messenger', () => {
    const instance = create();
    instance.startDebugMessenger();
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice(queueInfo);
    try {
      // Device commands go straight to the first layer: validation's own functions.
      expect(owningLibrary(device.getDeviceProcAddr('vkDeviceWaitIdle'))).toMatch(/libVkLayer_khronos_validation\.so$/);
      // vkGetDeviceQueue is the loader's (it must give queues their dispatch pointer), then validation's.
      const getQueue = device.getDeviceProcAddr('vkGetDeviceQueue');
      expect(owningLibrary(getQueue)).toBe(addonPath);
      const out = [0n];
      koffi.call(getQueue, koffi.proto('void PFN_GetDeviceQueue(void*, uint32_t, uint32_t, _Out_ void**)'), device.handle, 0, 5, out);
      const errors = instance.takeDebugMessages().filter((m) => m.severity >= 0x1000);
      expect(errors.map((m) => m.messageIdName)).toContain('VUID-vkGetDeviceQueue-queueIndex-00385');
    } finally {
      instance.destroy();
    }
  });

  it('VK-CH-1: after destroy() lavapipe and both layers are unloaded (/proc/self/maps)', () => {
    const instance = create();
    instance.enumeratePhysicalDevices()[0]!.createDevice(queueInfo);
    expect(mappedLibraries('libVkLayer_khronos_validation.so')).toHaveLength(1);
    expect(mappedLibraries('libVkLayer_MESA_device_select.so')).toHaveLength(1);
    instance.destroy();
    expect(mappedLibraries('libVkLayer_khronos_validation.so')).toEqual([]);
    expect(mappedLibraries('libVkLayer_MESA_device_select.so')).toEqual([]);
  });
});
