// The native Vulkan core on a real driver (Mesa lavapipe, or the one KHRONOS_LOADER_VK_DRIVER_JSON
// names) and real Debian layers: VK_LAYER_KHRONOS_validation and VK_LAYER_MESA_device_select in
// the chain. A missing component skips with the reason (fails under KHRONOS_LOADER_SYSTEM_TESTS=required).
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/core/native/load.js';
import { createInstanceFromPlan } from '../../lib/vulkan/api/index.js';
import { vkMakeApiVersion } from '../../lib/generated/vulkan.js';
import { missingRealDriver, missingRealDriverWithDebianLayers, ON_LAVAPIPE, REAL_DEVICE_NAME, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import {
  DEVICE_SELECT_MANIFEST,
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

const missingDriver = missingRealDriver();
const missingLayers = missingRealDriverWithDebianLayers();
const VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING = 0x100;
const VK_PHYSICAL_DEVICE_TYPE_CPU = 4;
const queueInfo = { queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] };

describe.skipIf(missingDriver !== null)('the real driver (lavapipe, or KHRONOS_LOADER_VK_DRIVER_JSON)', () => {
  it('VK-DR-1 / VK-CH-3: the driver negotiates, its device is listed, a device and queue work, device commands are the driver\'s own functions', () => {
    const real = driverFromManifest(REAL_DRIVER_MANIFEST);
    const instance = createInstanceFromPlan(plan([real]), { applicationName: 'kl-real-driver', apiVersion: VK_API_VERSION_1_3 });
    const [pd] = instance.enumeratePhysicalDevices();
    expect(pd!.properties.deviceName).toMatch(REAL_DEVICE_NAME);
    // The device's Vulkan version reads as parts and text; the packed value stays available.
    const { apiVersion } = pd!.properties;
    expect(apiVersion.major).toBe(1);
    expect(apiVersion.text).toBe(`${apiVersion.major}.${apiVersion.minor}.${apiVersion.patch}`);
    expect(apiVersion.packed).toBe(vkMakeApiVersion(0, apiVersion.major, apiVersion.minor, apiVersion.patch));
    if (ON_LAVAPIPE) {
      expect(pd!.properties.deviceType).toBe(VK_PHYSICAL_DEVICE_TYPE_CPU);
      expect(pd!.properties.vendorID).toBe(0x10005);
    }
    const device = pd!.createDevice(queueInfo);
    const queue = device.getQueue(0, 0);
    // Straight to the driver: lavapipe's library, or (another driver) anything but this loader.
    const waitIdleOwner = owningLibrary(device.getDeviceProcAddr('vkQueueWaitIdle'));
    if (ON_LAVAPIPE) expect(waitIdleOwner).toMatch(/libvulkan_lvp\.so$/);
    else {
      expect(waitIdleOwner).toBeTruthy();
      expect(waitIdleOwner).not.toBe(addonPath);
    }
    // The addon's exported trampoline dispatches through the queue's loader dispatch pointer.
    expect(koffi.load(addonPath).func('int32_t vkQueueWaitIdle(void*)')(queue)).toBe(0);
    expect(koffi.call(device.getDeviceProcAddr('vkDeviceWaitIdle'), koffi.proto('int32_t PFN_DeviceWaitIdle(void*)'), device.handle)).toBe(0);
    instance.destroy();
    expect(device.isDestroyed).toBe(true);
  });
});

describe.skipIf(missingLayers !== null)('the real driver with VK_LAYER_KHRONOS_validation and VK_LAYER_MESA_device_select', () => {
  const create = () =>
    createInstanceFromPlan(
      plan([driverFromManifest(REAL_DRIVER_MANIFEST)], [layerFromManifest(VALIDATION_MANIFEST, 'explicit'), layerFromManifest(DEVICE_SELECT_MANIFEST, 'implicit')]),
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

  it('VK-CH-1: after destroy() both layers are unloaded (/proc/self/maps)', () => {
    const instance = create();
    instance.enumeratePhysicalDevices()[0]!.createDevice(queueInfo);
    expect(mappedLibraries('libVkLayer_khronos_validation.so')).toHaveLength(1);
    expect(mappedLibraries('libVkLayer_MESA_device_select.so')).toHaveLength(1);
    instance.destroy();
    expect(mappedLibraries('libVkLayer_khronos_validation.so')).toEqual([]);
    expect(mappedLibraries('libVkLayer_MESA_device_select.so')).toEqual([]);
  });
});
