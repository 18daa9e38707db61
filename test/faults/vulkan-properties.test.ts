// Every public Vulkan function against bad arguments (NODE-1, NODE-2), property-based (fast-check):
// the instance level over the project's test driver, the device level over the real driver
// (Mesa lavapipe; skipped with the reason where it is missing). Each call succeeds, or throws
// TypeError / RangeError / VulkanError (or the application's own error from its throwing proxy or
// getter) — never a crash. Also: mapped memory detached under a view, SharedArrayBuffer and
// resizable-buffer push constants, handles destroyed from inside a getter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInstanceFromPlan, VulkanError, type Device, type Instance, type PhysicalDevice } from '../../lib/vulkan/index.js';
import { InvalidArgumentError } from '../../lib/core/errors.js';
import { missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { driver, plan, testLibrary, VK_API_VERSION_1_3 } from '../vulkan-native/helpers.js';
import { everyPosition, refusedCleanly, sharedView, shrunkResizableView, trackingResizableView } from './bad-values.js';

const queue = { queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] };
const testDriverPlan = plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7'))]);


describe('Vulkan instance-level functions against bad arguments (fast-check, test driver)', () => {
  let instance: Instance;
  let pd: PhysicalDevice;
  beforeAll(() => {
    instance = createInstanceFromPlan(testDriverPlan, { applicationName: 'properties', apiVersion: VK_API_VERSION_1_3 });
    pd = instance.enumeratePhysicalDevices()[0]!;
  });
  afterAll(() => instance.destroy());

  it('NODE-1, NODE-2: createInstanceFromPlan(), getInstanceProcAddr(), createDevice(), findMemoryType()', () => {
    everyPosition([testDriverPlan, { applicationName: 'x', apiVersion: VK_API_VERSION_1_3 }], ([p, o]) => createInstanceFromPlan(p as never, o as never));
    everyPosition(['vkCreateDevice'], ([n]) => instance.getInstanceProcAddr(n as never));
    everyPosition([queue], ([o]) => pd.createDevice(o as never));
    everyPosition([1, 0], ([bits, flags]) => pd.findMemoryType(bits as never, flags as never));
  });
});

const skip = missingRealDriver();
describe.skipIf(skip !== null)('Vulkan device-level functions against bad arguments (fast-check, real driver)', () => {
  let instance: Instance;
  let pd: PhysicalDevice;
  let device: Device;
  beforeAll(() => {
    instance = realDriverLoader().createInstance({ applicationName: 'properties', apiVersion: VK_API_VERSION_1_3 });
    pd = instance.enumeratePhysicalDevices()[0]!;
    device = pd.createDevice(queue);
  });
  afterAll(() => instance.destroy());
  const HOST = 0x2 | 0x4;

  it('NODE-1, NODE-2: createBuffer(), allocateMemory(), getDeviceProcAddr(), queue(), createShaderModule(), createFence(), createCommandPool()', () => {
    everyPosition([{ size: 64, usage: 0x20 }], ([o]) => device.createBuffer(o as never));
    everyPosition([256, pd.findMemoryType(0xffffffff, HOST)], ([s, t]) => device.allocateMemory(s as never, t as never));
    everyPosition(['vkQueueSubmit'], ([n]) => device.getDeviceProcAddr(n as never));
    everyPosition([0, 0], ([f, i]) => device.queue(f as never, i as never), [device.queue(0, 0)]);
    everyPosition([new Uint32Array([0x07230203, 0x00010000, 0, 1, 0])], ([c]) => device.createShaderModule(c as never));
    everyPosition([false], ([s]) => device.createFence(s as never));
    everyPosition([0, 0], ([q, f]) => device.createCommandPool(q as never, f as never));
    everyPosition([[{ binding: 0, descriptorType: 7, stageFlags: 0x20 }]], ([b]) => device.createDescriptorSetLayout(b as never));
    everyPosition([1, [{ type: 7, descriptorCount: 1 }]], ([m, p]) => device.createDescriptorPool(m as never, p as never));
  });

  it('NODE-1: buffer.bindMemory(), memory.map()/flush()/invalidate() with bad offsets and sizes', () => {
    const buffer = device.createBuffer({ size: 256, usage: 0x20 });
    const memory = device.allocateMemory(buffer.memoryRequirements.size, pd.findMemoryType(buffer.memoryRequirements.memoryTypeBits, HOST));
    everyPosition([memory, 0], ([m, o]) => buffer.bindMemory(m as never, o as never));
    everyPosition([0, 64], ([o, s]) => {
      const mapped = memory.map(o as never, s as never);
      memory.unmap();
      return mapped instanceof ArrayBuffer ? undefined : mapped;
    });
    memory.map();
    everyPosition([0, 64], ([o, s]) => memory.flush(o as never, s as never));
    memory.unmap();
    buffer.destroy();
    memory.destroy();
  });

  it('NODE-1: map() refuses ranges past the allocation (RangeError); a view over mapped memory is detached by unmap() and destroy(); pushConstants takes SharedArrayBuffer and resizable views and refuses detached, out-of-bounds and out-of-range ones', () => {
    const memory = device.allocateMemory(256, pd.findMemoryType(0xffffffff, HOST));
    // A range past the allocation would give JavaScript bytes the driver never mapped.
    for (const [offset, size] of [[0, 257], [256, 1], [0, 0], [255, 2], [0, 2 ** 32 + 1], [300, 0xffff_ffff_ffff_ffffn]] as const) {
      expect(() => memory.map(offset, size), `map(${offset}, ${size})`).toThrow(InvalidArgumentError);
    }
    expect(memory.map(255, 1).byteLength).toBe(1);
    memory.unmap();
    const view = new Uint32Array(memory.map());
    view[0] = 7;
    memory.unmap();
    expect(view.length).toBe(0);
    expect(view[0]).toBeUndefined();
    const second = new Uint8Array(memory.map());
    second.fill(1);
    memory.destroy();
    expect(second.length).toBe(0);
    expect(() => second.fill(2)).toThrow(TypeError); // a detached view writes nowhere

    const layout = device.createPipelineLayout([], [{ stageFlags: 0x20, offset: 0, size: 16 }]);
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer().begin();
    for (const data of [sharedView(4), trackingResizableView(4)]) expect(cb.pushConstants(layout, 0x20, 0, data)).toBe(cb);
    // Past the layout's range, another stage, misaligned: a driver would copy past its fixed block.
    for (const [stage, offset, data] of [[0x20, 16, new Float32Array(4)], [0x20, 0, new Float32Array(5)], [0x1, 0, new Float32Array(4)], [0x20, 2, new Float32Array(2)], [0, 0, new Float32Array(4)]] as const) {
      expect(() => cb.pushConstants(layout, stage, offset, data), `stage ${stage} offset ${offset} bytes ${data.byteLength}`).toThrow(InvalidArgumentError);
    }
    for (const data of [shrunkResizableView(4), (() => {
      const a = new Float32Array(4);
      structuredClone(a.buffer, { transfer: [a.buffer] });
      return a;
    })()]) {
      refusedCleanly(() => cb.pushConstants(layout, 0x20, 0, data));
    }
    everyPosition([layout, 0x20, 0, new Float32Array(4)], ([l, s, o, d]) => cb.pushConstants(l as never, s as never, o as never, d as never), [cb]);
    everyPosition([1, 1, 1], ([x, y, z]) => cb.dispatch(x as never, y as never, z as never), [cb]);
    cb.end();
    pool.destroy();
    layout.destroy();
  });

  it('NODE-1: the device destroyed from a getter in the middle of createBuffer(): a typed error, no crash', () => {
    const own = pd.createDevice(queue);
    const made = refusedCleanly(() =>
      own.createBuffer({
        get size() {
          own.destroy();
          return 64;
        },
        usage: 0x20,
      }),
    );
    expect(made).toBeUndefined();
    expect(() => own.createFence()).toThrow(VulkanError);
  });
});
