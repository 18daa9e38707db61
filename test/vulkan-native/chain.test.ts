// Layers and call chains on the project's own test drivers and layers: negotiation (VK-LN-1,
// VK-LN-2), the instance and device chains (VK-CH-1), dispatchable objects (VK-CH-2), device
// commands straight to the first layer or driver (VK-CH-3), the five steps of
// vkGetInstanceProcAddr with generic trampolines (VK-CH-4), the exported C functions, and the
// LLP_LOADER rules that concern the native core (VK-CH-6).
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { VK_COMMANDS } from '../../lib/generated/vulkan.js';
import { addonBinaryPath, loadNativeAddon } from '../../lib/core/native/load.js';
import { createInstanceFromPlan, VulkanError, type Instance } from '../../lib/vulkan/api/index.js';
import { loadVulkanAddon } from '../../lib/vulkan/native/addon.js';
import { captureLog, driver, layer, mappedLibraries, owningLibrary, plan, testLibrary, VK_API_VERSION_1_3 } from './helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
  proto(prototype: string): unknown;
  call(fn: bigint, proto: unknown, ...args: unknown[]): unknown;
  decode(address: bigint, type: string): unknown;
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
// The addon this process loaded (an instrumented build under the sanitizers).
const addonPath = addonBinaryPath();
const driverLib = (name: string): string => testLibrary('vulkan_test_driver', name);
const layerLib = (name: string): string => testLibrary('vulkan_test_layers', name);
const testLayer = (x: string, extra: Parameters<typeof layer>[2] = {}) => layer(`VK_LAYER_KLTEST_${x}`, layerLib(`kl_vk_layer_${x}`), extra);

let log = captureLog();
let live: Instance[] = [];
afterEach(() => {
  for (const i of live) if (!i.isDestroyed) i.destroy();
  live = [];
  log.stop();
  log = captureLog();
});

function create(layers: ReturnType<typeof layer>[], drivers = ['kl_vk_driver_v7']): Instance {
  const instance = createInstanceFromPlan(plan(drivers.map((d) => driver(driverLib(d))), layers), { applicationName: 'app', apiVersion: VK_API_VERSION_1_3 });
  live.push(instance);
  return instance;
}
const chainSeenByDriver = (instance: Instance): string => instance.enumeratePhysicalDevices()[0]!.properties.deviceName.split('|')[1]!;

describe('VK-LN: layer negotiation', () => {
  it('VK-LN-1: an interface-2 layer negotiates through vkNegotiateLoaderLayerInterfaceVersion and is in the chain', () => {
    const instance = create([testLayer('a')]);
    expect(instance.enabledLayerNames).toEqual(['VK_LAYER_KLTEST_a']);
    expect(chainSeenByDriver(instance)).toBe('app>VK_LAYER_KLTEST_a@2');
  });

  it('VK-LN-1: the negotiate function under the name the manifest gives it', async () => {
    const renamed = testLayer('renamed_negotiate', {
      symbols: { negotiateLoaderLayerInterfaceVersion: 'klRenamedNegotiate', getInstanceProcAddr: 'vkGetInstanceProcAddr', getDeviceProcAddr: 'vkGetDeviceProcAddr' },
    });
    expect(chainSeenByDriver(create([renamed]))).toBe('app>VK_LAYER_KLTEST_renamed_negotiate@2');
    // Without the rename the library exports nothing the loader can use: left out, logged.
    const instance = create([testLayer('renamed_negotiate')]);
    expect(instance.enabledLayerNames).toEqual([]);
    await log.settle();
    expect(log.records.some((r) => r.source === 'vulkan.layer' && r.message.includes('vkNegotiateLoaderLayerInterfaceVersion'))).toBe(true);
  });

  for (const [x, why] of [
    ['negotiate_fails', /vkNegotiateLoaderLayerInterfaceVersion returned -3/],
    ['negotiate_old', /answered interface version 1 and the library does not export vkGetInstanceProcAddr/],
  ] as const) {
    it(`VK-LN-1 / VK-CH-6 LLP_LOADER_5: a layer whose negotiation fails (${x}) is not used; file and symbol logged; the rest of the chain works`, async () => {
      const instance = create([testLayer('a'), testLayer(x), testLayer('b')]);
      expect(instance.enabledLayerNames).toEqual(['VK_LAYER_KLTEST_a', 'VK_LAYER_KLTEST_b']);
      expect(chainSeenByDriver(instance)).toBe('app>VK_LAYER_KLTEST_a@2>VK_LAYER_KLTEST_b@2');
      await log.settle();
      const record = log.records.find((r) => r.source === 'vulkan.layer' && r.message.includes(layerLib(`kl_vk_layer_${x}`)));
      expect(record?.level).toBe('warn');
      expect(record?.message).toMatch(why);
    });
  }

  it('VK-LN-2: interface 1 (exported vkGetInstanceProcAddr), its renamed form, and interface 0 (<layerName>GetInstanceProcAddr)', () => {
    const renamed = testLayer('iface1_renamed', {
      symbols: {
        negotiateLoaderLayerInterfaceVersion: 'vkNegotiateLoaderLayerInterfaceVersion',
        getInstanceProcAddr: 'klRenamedGetInstanceProcAddr',
        getDeviceProcAddr: 'klRenamedGetDeviceProcAddr',
      },
    });
    const instance = create([testLayer('iface1'), renamed, testLayer('iface0')]);
    expect(chainSeenByDriver(instance)).toBe('app>VK_LAYER_KLTEST_iface1@1>VK_LAYER_KLTEST_iface1_renamed@1>VK_LAYER_KLTEST_iface0@0');
    // The device chain of old layers works as well (their vkGetDeviceProcAddr).
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    expect(owningLibrary(device.getDeviceProcAddr('vkQueueWaitIdle'))).toBe(layerLib('kl_vk_layer_iface1'));
    device.destroy();
  });
});

describe('VK-CH: chains and dispatch', () => {
  it('VK-CH-1 / VK-CH-6 LLP_LOADER_1, LLP_LOADER_8: VkLayerInstanceCreateInfo link nodes in chain order, application side first; vkSetInstanceLoaderData works', () => {
    // Each test layer fails vkCreateInstance unless it finds VK_LAYER_LINK_INFO with a next
    // vkGetInstanceProcAddr and VK_LOADER_DATA_CALLBACK whose vkSetInstanceLoaderData copies the dispatch word.
    const instance = create([testLayer('a'), testLayer('b'), testLayer('c')]);
    expect(instance.enabledLayerNames).toEqual(['VK_LAYER_KLTEST_a', 'VK_LAYER_KLTEST_b', 'VK_LAYER_KLTEST_c']);
    expect(chainSeenByDriver(instance)).toBe('app>VK_LAYER_KLTEST_a@2>VK_LAYER_KLTEST_b@2>VK_LAYER_KLTEST_c@2');
  });

  it('VK-CH-1 / VK-CH-6 LLP_LOADER_9: VkLayerDeviceCreateInfo with VkLayerDeviceLink per layer and vkSetDeviceLoaderData', () => {
    // The layers fail vkCreateDevice unless they find both nodes and vkSetDeviceLoaderData works.
    const instance = create([testLayer('a'), testLayer('b')]);
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    expect(device.handle).not.toBe(0n);
    device.destroy();
  });

  it('VK-CH-2: a driver VkDevice without the loader magic is refused with a logged reason; objects get the device dispatch pointer', async () => {
    const bad = create([], ['kl_vk_driver_no_magic']);
    let error: unknown;
    try {
      bad.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VulkanError);
    expect((error as VulkanError).result).toBe('VK_ERROR_INITIALIZATION_FAILED');
    await log.settle();
    expect(log.records.some((r) => r.level === 'error' && r.message.includes('loader magic value 0x01CDC0DE'))).toBe(true);

    const instance = create([]);
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    const queue = device.getQueue(0, 0);
    const deviceWord = koffi.decode(device.handle, 'uint64_t') as bigint;
    expect(deviceWord).not.toBe(0x01cdc0den);
    expect(koffi.decode(queue, 'uint64_t')).toBe(deviceWord);  // the queue dispatches through the device's table
    // The instance's dispatch word is shared by the physical devices the loader hands out.
    expect(koffi.decode(instance.enumeratePhysicalDevices()[0]!.handle, 'uint64_t')).toBe(koffi.decode(instance.handle, 'uint64_t'));
  });

  it('VK-CH-2: every queue asked for, again and in any order, carries the device dispatch pointer; a queue without the loader magic is refused and left as the driver wrote it', async () => {
    // The test driver's family 0: queues 0 and 1 with the magic, queue 2 without (8 bytes each, in a row).
    const instance = create([]);
    const magicWarning = (family: number, index: number) => (r: { level: string; message: string }) =>
      r.level === 'warn' && r.message.endsWith(`: queue ${index} of family ${family} does not start with the loader magic value 0x01CDC0DE; vkGetDeviceQueue checks every queue of this device`);
    // Created with the two good queues: the terminator checked both, nothing to say.
    const good = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1, 1] }] });
    await log.settle();
    expect(log.records.filter((r) => r.message.includes('loader magic'))).toEqual([]);
    const goodWord = koffi.decode(good.handle, 'uint64_t') as bigint;
    for (const index of [0, 1, 1, 0]) expect(koffi.decode(good.getQueue(0, index), 'uint64_t'), `queue ${index}`).toBe(goodWord);
    // vkGetDeviceQueue2 (exported) answers the same queues.
    const getDeviceQueue2 = koffi.load(addonPath).func('void vkGetDeviceQueue2(void*, void*, _Out_ uint64_t*)');
    const queueInfo2 = (family: number, index: number): Buffer => {
      const b = Buffer.alloc(32); // VkDeviceQueueInfo2: sType, pNext, flags, queueFamilyIndex, queueIndex
      b.writeInt32LE(1000145003, 0);
      b.writeUInt32LE(family, 20);
      b.writeUInt32LE(index, 24);
      return b;
    };
    const queue2 = (d: typeof good, family: number, index: number): bigint => {
      const out = [1n];
      getDeviceQueue2(d.handle, queueInfo2(family, index), out);
      return BigInt(out[0]!);
    };
    expect(queue2(good, 0, 1)).toBe(good.getQueue(0, 1));
    good.destroy();
    // Created with all three: the terminator saw queue 2 without the magic, said so, and this
    // device's vkGetDeviceQueue checks every queue it hands out.
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1, 1, 1] }] });
    await log.settle();
    expect(log.records.filter(magicWarning(0, 2))).toHaveLength(1);
    const deviceWord = koffi.decode(device.handle, 'uint64_t') as bigint;
    const q0 = device.getQueue(0, 0);
    const q1 = device.getQueue(0, 1);
    expect(q1).toBe(q0 + 8n);
    for (const [family, index, queue] of [[0, 0, q0], [0, 1, q1], [0, 1, q1], [0, 0, q0]] as const) {
      expect(device.getQueue(family, index)).toBe(queue);
      expect(koffi.decode(queue, 'uint64_t')).toBe(deviceWord);
    }
    let error: unknown;
    try {
      device.getQueue(0, 2);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VulkanError);
    await log.settle();
    expect(log.records.some((r) => r.level === 'error' && r.message.startsWith(`VkQueue ${q0 + 16n} from the driver does not start with the loader magic value`))).toBe(true);
    expect(BigInt(koffi.decode(q0 + 16n, 'uint64_t') as number)).toBe(0x12345678n);
    // The exported trampoline refuses it too (NULL), and writes nothing into it.
    const getDeviceQueue = koffi.load(addonPath).func('void vkGetDeviceQueue(void*, uint32_t, uint32_t, _Out_ uint64_t*)');
    const out = [1n];
    getDeviceQueue(device.handle, 0, 2, out);
    expect(BigInt(out[0]!)).toBe(0n);
    expect(queue2(device, 0, 2)).toBe(0n); // and vkGetDeviceQueue2, whose slot checks too
    expect(queue2(device, 0, 1)).toBe(q1);
    expect(BigInt(koffi.decode(q0 + 16n, 'uint64_t') as number)).toBe(0x12345678n);
    device.destroy();
  });

  it('VK-CH-3: device commands go straight to the first layer, or to the driver without layers; exported trampolines reach them', () => {
    const plain = create([]);
    const d0 = plain.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    expect(owningLibrary(d0.getDeviceProcAddr('vkQueueWaitIdle'))).toBe(driverLib('kl_vk_driver_v7'));

    const layered = create([testLayer('a'), testLayer('b')]);
    const d1 = layered.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    expect(owningLibrary(d1.getDeviceProcAddr('vkQueueWaitIdle'))).toBe(layerLib('kl_vk_layer_a'));
    const calls = koffi.load(layerLib('kl_vk_layer_a')).func('uint32_t kl_test_layer_queue_wait_idle_calls()');
    const before = calls() as number;
    const exported = koffi.load(addonPath).func('int32_t vkQueueWaitIdle(void*)');
    expect(exported(d1.getQueue(0, 0))).toBe(0);
    expect(koffi.call(d1.getDeviceProcAddr('vkQueueWaitIdle'), koffi.proto('int32_t PFN_QueueWaitIdle(void*)'), d1.getQueue(0, 0))).toBe(0);
    expect(calls()).toBe(before + 2);
  });

  it('VK-CH-4: unknown physical-device commands (step 3) reach the driver through vk_icdGetPhysicalDeviceProcAddr, across layers', () => {
    const proto = koffi.proto('int32_t PFN_KlPhys(void*, uint32_t, _Out_ uint32_t*)');
    for (const layers of [[], [testLayer('a'), testLayer('b')]]) {
      const instance = create(layers);
      const fn = instance.getInstanceProcAddr('vkKlTestPhysicalDeviceCommand');
      expect(fn).not.toBe(0n);
      const out = [0];
      expect(koffi.call(fn, proto, instance.enumeratePhysicalDevices()[0]!.handle, 5, out)).toBe(0);
      expect(out[0]).toBe(5 + 4096);  // the driver checked it got its own physical device
    }
  });

  it('VK-CH-4: unknown device commands (step 4) through a generic trampoline; vkGetDeviceProcAddr gives the chain\'s own', () => {
    const proto = koffi.proto('int32_t PFN_KlDev(void*, uint32_t, _Out_ uint32_t*)');
    const instance = create([testLayer('a')]);
    const viaInstance = instance.getInstanceProcAddr('vkKlTestDeviceCommand');
    const layerOnly = instance.getInstanceProcAddr('vkKlTestLayerCommand');
    expect(viaInstance).not.toBe(0n);
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    const out = [0];
    expect(koffi.call(viaInstance, proto, device.handle, 21, out)).toBe(0);
    expect(out[0]).toBe(42);
    expect(koffi.call(layerOnly, proto, device.handle, 1, out)).toBe(0);
    expect(out[0]).toBe(8);  // answered by the layer, which the driver knows nothing of
    expect(owningLibrary(device.getDeviceProcAddr('vkKlTestDeviceCommand'))).toBe(driverLib('kl_vk_driver_v7'));
    expect(device.getDeviceProcAddr('vkNoSuchCommandKL')).toBe(0n);
  });

  it('VK-DR-1: vkEnumeratePhysicalDeviceGroups through the exported trampoline: one group per device, the handles the application knows', () => {
    const instance = create([testLayer('a')], ['kl_vk_driver_v7', 'kl_vk_driver_discrete']);
    const devices = instance.enumeratePhysicalDevices().map((d) => d.handle);
    const enumerateGroups = koffi.load(addonPath).func('int32_t vkEnumeratePhysicalDeviceGroups(void*, _Inout_ uint32_t*, void*)');
    const count = [0];
    expect(enumerateGroups(instance.handle, count, null)).toBe(0);
    expect(count[0]).toBe(2);
    // VkPhysicalDeviceGroupProperties: sType, pNext, physicalDeviceCount, physicalDevices[32], subsetAllocation (288 bytes).
    const groups = Buffer.alloc(288 * 2);
    for (const g of [0, 1]) groups.writeInt32LE(1000070000, g * 288);
    expect(enumerateGroups(instance.handle, count, groups)).toBe(0);
    const members = [0, 1].map((g) => {
      expect(groups.readUInt32LE(g * 288 + 16)).toBe(1);
      return groups.readBigUInt64LE(g * 288 + 24);
    });
    expect(members).toEqual(devices);
  });

  it('VK-CH-4: step 5 and known commands: NULL for non-Vulkan names; core commands are the loader\'s trampolines', () => {
    const instance = create([testLayer('a')]);
    expect(instance.getInstanceProcAddr('notAVulkanCommand')).toBe(0n);
    expect(owningLibrary(instance.getInstanceProcAddr('vkEnumeratePhysicalDevices'))).toBe(addonPath);
    expect(owningLibrary(instance.getInstanceProcAddr('vkQueueSubmit'))).toBe(addonPath);
  });

  it('VK-CH-4: for a core command the loader answers itself, vkGetInstanceProcAddr and vkGetDeviceProcAddr hand out its exported function (one trampoline a command, as the Khronos loader does)', () => {
    const exports = new (loadNativeAddon().NativeLibrary)(addonPath);
    try {
      const instance = create([testLayer('a')]);
      const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
      let compared = 0;
      for (const { name } of VK_COMMANDS.filter((c) => c.requiredBy.startsWith('VK_VERSION_'))) {
        const answer = instance.getInstanceProcAddr(name);
        if (answer === 0n) continue; // a command the chain does not provide
        expect(answer, name).toBe(exports.symbolAddress(name));
        compared++;
      }
      expect(compared).toBeGreaterThan(200);
      // vkGetDeviceProcAddr: the driver's or first layer's function for most, the loader's own for these.
      for (const name of ['vkGetDeviceProcAddr', 'vkDestroyDevice', 'vkGetDeviceQueue', 'vkGetDeviceQueue2', 'vkAllocateCommandBuffers']) {
        expect(device.getDeviceProcAddr(name), name).toBe(exports.symbolAddress(name));
      }
      expect(owningLibrary(device.getDeviceProcAddr('vkQueueWaitIdle'))).toBe(layerLib('kl_vk_layer_a'));
    } finally {
      exports.close();
    }
  });

  it('VK-CH-4: the addon exports vkGetInstanceProcAddr, vkGetDeviceProcAddr and every core command', () => {
    const addon = koffi.load(addonPath);
    const core = VK_COMMANDS.filter((c) => c.requiredBy.startsWith('VK_VERSION_')).map((c) => c.name);
    expect(core.length).toBeGreaterThan(200);
    for (const name of core) expect(() => addon.func(`void ${name}()`), name).not.toThrow();
    const instance = create([]);
    expect(loadVulkanAddon().vulkanGetInstanceProcAddr(instance.handle, 'vkCreateDevice')).toBe(instance.getInstanceProcAddr('vkCreateDevice'));
    expect(loadVulkanAddon().vulkanGetInstanceProcAddr(0n, 'vkCreateInstance')).not.toBe(0n);
    expect(loadVulkanAddon().vulkanGetInstanceProcAddr(0n, 'vkCreateDevice')).toBe(0n);
  });

  it('VK-CH-1: destroy() destroys the devices and the instance down the chain, then the layers and drivers are unloaded (/proc/self/maps); destroy() again does nothing', () => {
    const instance = create([testLayer('b'), testLayer('c')], ['kl_vk_driver_v5', 'kl_vk_driver_v6']);
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    expect(mappedLibraries('libkl_vk_layer_b.so')).toHaveLength(1);
    expect(mappedLibraries('libkl_vk_driver_v6.so')).toHaveLength(1);
    instance.destroy();
    expect(device.isDestroyed).toBe(true);
    for (const l of ['libkl_vk_layer_b.so', 'libkl_vk_layer_c.so', 'libkl_vk_driver_v5.so', 'libkl_vk_driver_v6.so']) {
      expect(mappedLibraries(l), l).toEqual([]);
    }
    expect(() => instance.enumeratePhysicalDevices()).toThrow(VulkanError);
    expect(() => device.getQueue(0, 0)).toThrow(VulkanError);
    // NODE-1: destroy() again does nothing, for the device and the instance.
    device.destroy();
    instance.destroy();
    expect([device.isDestroyed, instance.isDestroyed]).toEqual([true, true]);
    expect(() => instance.enumeratePhysicalDevices()).toThrow(VulkanError);
  });

  it('VK-CH-1: wrong arguments throw TypeError', () => {
    const instance = create([]);
    const pd = instance.enumeratePhysicalDevices()[0]!;
    expect(() => pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 3, queuePriorities: [1] }] })).toThrow(TypeError);
    const device = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    expect(() => device.getQueue(0, 1)).toThrow(TypeError);
    expect(() => instance.getInstanceProcAddr(3 as unknown as string)).toThrow(TypeError);
    expect(() => new (loadVulkanAddon().VulkanDevice)(instance as never, 1n, { queueCreateInfos: [] })).toThrow(TypeError);
  });
});

describe('VK-CH-6: LLP_LOADER rules of the native core', () => {
  it('VK-CH-6 LLP_LOADER_4: a layer whose manifest api_version is not Vulkan 1.x is not loaded; the reason is logged', async () => {
    const vulkan2 = (2 << 22) | (0 << 12);
    const instance = create([testLayer('a', { apiVersion: vulkan2 }), testLayer('b', { apiVersion: (1 << 22) | (3 << 12) })]);
    expect(instance.enabledLayerNames).toEqual(['VK_LAYER_KLTEST_b']);
    expect(chainSeenByDriver(instance)).toBe('app>VK_LAYER_KLTEST_b@2');
    await log.settle();
    expect(log.records.some((r) => r.message.includes('VK_LAYER_KLTEST_a') && r.message.includes('LLP_LOADER_4'))).toBe(true);
  });
});

describe('VK-CH-6: duplicates', () => {
  it('VK-CH-6 LLP_LOADER_3: a layer name listed twice is used once, at its first place', () => {
    const instance = create([testLayer('a'), testLayer('b'), testLayer('a')]);
    expect(instance.enabledLayerNames).toEqual(['VK_LAYER_KLTEST_a', 'VK_LAYER_KLTEST_b']);
    expect(chainSeenByDriver(instance)).toBe('app>VK_LAYER_KLTEST_a@2>VK_LAYER_KLTEST_b@2');
  });
});
