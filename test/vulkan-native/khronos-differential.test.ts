// Beside the Khronos Vulkan loader (Debian libvulkan1) in the same process, on a real driver
// (lavapipe, or the one KHRONOS_LOADER_VK_DRIVER_JSON names) with
// VK_LAYER_MESA_device_select (implicit) and VK_LAYER_KHRONOS_validation: vkGetDeviceProcAddr
// hands out the same functions — the first layer's own for ordinary device commands, the
// loader's own for the few the loader must see (queues, command buffers, device teardown).
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/core/native/load.js';
import { createInstanceFromPlan } from '../../lib/vulkan/api/index.js';
import { missingSystemComponent } from '../helpers/system.js';
import { missingRealDriverWithDebianLayers, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { DEVICE_SELECT_MANIFEST, VALIDATION_MANIFEST, driverFromManifest, layerFromManifest, owningLibrary, plan } from './helpers.js';

interface KoffiLibrary {
  func(prototype: string): (...args: unknown[]) => unknown;
}
interface Koffi {
  load(path: string): KoffiLibrary;
  struct(name: string, fields: Record<string, unknown>): unknown;
  pointer(type: unknown): unknown;
  address(value: unknown): bigint;
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
const KHRONOS_LOADER = '/usr/lib/x86_64-linux-gnu/libvulkan.so.1';
const addonPath = path.join(packageRoot, 'build/Release/khronos_loader.node');
const missing = missingSystemComponent({ 'Khronos Vulkan loader (libvulkan1)': [KHRONOS_LOADER] }) ?? missingRealDriverWithDebianLayers();

const COMMANDS = [
  'vkQueueWaitIdle', 'vkQueueSubmit', 'vkCmdDispatch', 'vkCreateBuffer', 'vkDeviceWaitIdle', 'vkBeginCommandBuffer',
  'vkGetDeviceQueue', 'vkGetDeviceQueue2', 'vkAllocateCommandBuffers', 'vkDestroyDevice', 'vkGetDeviceProcAddr',
];

/** The Khronos loader's device for the real driver with validation enabled through VK_INSTANCE_LAYERS. */
function khronosDevice(): { gdpa: (name: string) => bigint; destroy: () => void } {
  const vk = koffi.load(KHRONOS_LOADER);
  const appInfo = koffi.struct('KlDiffApplicationInfo', {
    sType: 'int', pNext: 'void*', pApplicationName: 'const char*', applicationVersion: 'uint32', pEngineName: 'const char*',
    engineVersion: 'uint32', apiVersion: 'uint32',
  });
  koffi.struct('KlDiffInstanceCreateInfo', {
    sType: 'int', pNext: 'void*', flags: 'uint32', pApplicationInfo: koffi.pointer(appInfo), enabledLayerCount: 'uint32',
    ppEnabledLayerNames: 'void*', enabledExtensionCount: 'uint32', ppEnabledExtensionNames: 'void*',
  });
  const queueInfo = koffi.struct('KlDiffQueueCreateInfo', {
    sType: 'int', pNext: 'void*', flags: 'uint32', queueFamilyIndex: 'uint32', queueCount: 'uint32', pQueuePriorities: 'void*',
  });
  koffi.struct('KlDiffDeviceCreateInfo', {
    sType: 'int', pNext: 'void*', flags: 'uint32', queueCreateInfoCount: 'uint32', pQueueCreateInfos: koffi.pointer(queueInfo),
    enabledLayerCount: 'uint32', ppEnabledLayerNames: 'void*', enabledExtensionCount: 'uint32', ppEnabledExtensionNames: 'void*',
    pEnabledFeatures: 'void*',
  });
  const createInstance = vk.func('int vkCreateInstance(KlDiffInstanceCreateInfo*, void*, _Out_ void**)');
  const enumerate = vk.func('int vkEnumeratePhysicalDevices(void*, _Inout_ uint32_t*, _Out_ void**)');
  const createDevice = vk.func('int vkCreateDevice(void*, KlDiffDeviceCreateInfo*, void*, _Out_ void**)');
  const getDeviceProcAddr = vk.func('void* vkGetDeviceProcAddr(void*, const char*)');
  const destroyDevice = vk.func('void vkDestroyDevice(void*, void*)');
  const destroyInstance = vk.func('void vkDestroyInstance(void*, void*)');
  const instance: unknown[] = [null];
  const app = { sType: 0, pNext: null, pApplicationName: 'kl-diff', applicationVersion: 0, pEngineName: null, engineVersion: 0, apiVersion: (1 << 22) | (3 << 12) };
  const none = { enabledLayerCount: 0, ppEnabledLayerNames: null, enabledExtensionCount: 0, ppEnabledExtensionNames: null };
  expect(createInstance({ sType: 1, pNext: null, flags: 0, pApplicationInfo: app, ...none }, null, instance)).toBe(0);
  const count = [1];
  const physical: unknown[] = [null];
  expect(enumerate(instance[0], count, physical)).toBe(0);
  const priority = Buffer.alloc(4);
  priority.writeFloatLE(1);
  const queue = { sType: 2, pNext: null, flags: 0, queueFamilyIndex: 0, queueCount: 1, pQueuePriorities: priority };
  const device: unknown[] = [null];
  expect(createDevice(physical[0], { sType: 3, pNext: null, flags: 0, queueCreateInfoCount: 1, pQueueCreateInfos: queue, ...none, pEnabledFeatures: null }, null, device)).toBe(0);
  return {
    gdpa: (name) => koffi.address(getDeviceProcAddr(device[0], name)),
    destroy: () => {
      destroyDevice(device[0], null);
      destroyInstance(instance[0], null);
    },
  };
}

describe.skipIf(missing !== null)('beside the Khronos Vulkan loader', () => {
  const saved = { files: process.env.VK_DRIVER_FILES, layers: process.env.VK_INSTANCE_LAYERS };
  beforeAll(() => {
    process.env.VK_DRIVER_FILES = REAL_DRIVER_MANIFEST;
    process.env.VK_INSTANCE_LAYERS = 'VK_LAYER_KHRONOS_validation';
  });
  afterAll(() => {
    for (const [key, value] of [['VK_DRIVER_FILES', saved.files], ['VK_INSTANCE_LAYERS', saved.layers]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('VK-CH-3: vkGetDeviceProcAddr gives the same functions as the Khronos loader (the layer\'s own, or the loader\'s own where Khronos gives its own)', () => {
    const khronos = khronosDevice();
    // The Khronos order: implicit layers, then VK_INSTANCE_LAYERS.
    const instance = createInstanceFromPlan(
      plan([driverFromManifest(REAL_DRIVER_MANIFEST)], [layerFromManifest(DEVICE_SELECT_MANIFEST, 'implicit'), layerFromManifest(VALIDATION_MANIFEST, 'explicit')]),
      { applicationName: 'kl-diff', apiVersion: (1 << 22) | (3 << 12) },
    );
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    try {
      for (const name of COMMANDS) {
        const theirs = khronos.gdpa(name);
        const ours = device.getDeviceProcAddr(name);
        if (owningLibrary(theirs)?.includes('libvulkan.so') === true) {
          expect(owningLibrary(ours), name).toBe(addonPath);
        } else {
          expect(ours, name).toBe(theirs);
          expect(owningLibrary(ours), name).toMatch(/libVkLayer_khronos_validation\.so$/);
        }
      }
    } finally {
      instance.destroy();
      khronos.destroy();
    }
  });
});
