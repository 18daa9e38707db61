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
import { saxpySpirv } from '../../examples/compute.js';

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

  it('NODE-1, NODE-2: pipelines, images, views, samplers, render passes, framebuffers, semaphores, descriptor writes', () => {
    const module = device.createShaderModule(saxpySpirv());
    const setLayout = device.createDescriptorSetLayout([
      { binding: 0, descriptorType: 7, stageFlags: 0x20 },
      { binding: 1, descriptorType: 7, stageFlags: 0x20 },
    ]);
    const layout = device.createPipelineLayout([setLayout], [{ stageFlags: 0x20, offset: 0, size: 8 }]);
    everyPosition([[setLayout], [{ stageFlags: 0x20, offset: 0, size: 8 }]], ([l, r]) => device.createPipelineLayout(l as never, r as never));
    everyPosition([{ layout, module, entryPoint: 'main' }], ([o]) => device.createComputePipeline(o as never));
    const imageOptions = { format: 37, extent: { width: 8, height: 8 }, usage: 0x10 | 0x1 | 0x2, arrayLayers: 1 };
    everyPosition([imageOptions], ([o]) => device.createImage(o as never));
    const image = device.createImage(imageOptions as never);
    image.bindMemory(device.allocateMemory(image.memoryRequirements.size, pd.findMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
    everyPosition([image, 0, 1], ([i, b, n]) => device.createImageView(i as never, b as never, n as never));
    everyPosition([{ magFilter: 'linear' }], ([o]) => device.createSampler(o as never));
    const passOptions = { attachments: [{ format: 37, loadOp: 'clear', storeOp: 'store', finalLayout: 'general' }], subpasses: [{ colorAttachments: [{ attachment: 0 }] }] };
    everyPosition([passOptions], ([o]) => device.createRenderPass(o as never));
    const pass = device.createRenderPass(passOptions as never);
    const view = device.createImageView(image);
    everyPosition([{ renderPass: pass, attachments: [view], width: 8, height: 8 }], ([o]) => device.createFramebuffer(o as never));
    everyPosition([{ layout, stages: { vertex: { module }, fragment: { module } }, renderPass: pass, topology: 'triangle-list' }], ([o]) => device.createGraphicsPipeline(o as never));
    everyPosition([], () => device.createSemaphore());
    const pool = device.createDescriptorPool(4, [{ type: 7, descriptorCount: 8 }]);
    everyPosition([setLayout], ([l]) => pool.allocateSet(l as never), [], 60);
    const set = pool.allocateSet(setLayout);
    const buffer = device.createBuffer({ size: 256, usage: 0x20 });
    buffer.bindMemory(device.allocateMemory(buffer.memoryRequirements.size, pd.findMemoryType(buffer.memoryRequirements.memoryTypeBits, HOST)));
    everyPosition([[{ binding: 0, descriptorType: 7, buffer }]], ([w]) => set.writeBuffers(w as never));
    everyPosition([[{ binding: 0, descriptorType: 3, view, layout: 'general' }]], ([w]) => set.writeImages(w as never));
    pool.destroy();
    buffer.destroy();
    view.destroy();
    pass.destroy();
    image.destroy();
    layout.destroy();
    setLayout.destroy();
    module.destroy();
  });

  it('NODE-1, NODE-2: every recording method of a command buffer, queue.submit()', () => {
    const HOST_VISIBLE = pd.findMemoryType(0xffffffff, HOST);
    const buffer = (usage: number): ReturnType<Device['createBuffer']> => {
      const b = device.createBuffer({ size: 256, usage });
      b.bindMemory(device.allocateMemory(b.memoryRequirements.size, pd.findMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
      return b;
    };
    expect(HOST_VISIBLE).toBeGreaterThanOrEqual(0);
    const src = buffer(0x1 | 0x2 | 0x80 | 0x100 | 0x40);
    const dst = buffer(0x1 | 0x2);
    const image = device.createImage({ format: 37, extent: { width: 8, height: 8 }, usage: 0x10 | 0x1 | 0x2 });
    image.bindMemory(device.allocateMemory(image.memoryRequirements.size, pd.findMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
    const view = device.createImageView(image);
    const setLayout = device.createDescriptorSetLayout([
      { binding: 0, descriptorType: 7, stageFlags: 0x20 },
      { binding: 1, descriptorType: 7, stageFlags: 0x20 },
    ]);
    const layout = device.createPipelineLayout([setLayout], [{ stageFlags: 0x20, offset: 0, size: 8 }]);
    const pipeline = device.createComputePipeline({ layout, module: device.createShaderModule(saxpySpirv()) });
    const descriptors = device.createDescriptorPool(1, [{ type: 7, descriptorCount: 2 }]);
    const set = descriptors.allocateSet(setLayout);
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    everyPosition([0], ([f]) => {
      cb.begin(f as never);
      cb.end();
    }, [cb]);
    cb.begin();
    everyPosition([pipeline], ([p]) => cb.bindPipeline(p as never), [cb]);
    everyPosition([layout, set, 0, 'compute'], ([l, s, f, b]) => cb.bindDescriptorSet(l as never, s as never, f as never, b as never), [cb]);
    everyPosition([0x800, 0x800, 0x40, 0x20], ([a, b, c, d]) => cb.pipelineBarrier(a as never, b as never, c as never, d as never), [cb]);
    everyPosition([src, dst, 64, 0, 0], ([a, b, n, o1, o2]) => cb.copyBuffer(a as never, b as never, n as never, o1 as never, o2 as never), [cb]);
    const barrier = { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: 0x1, dstStageMask: 0x1000 };
    everyPosition([image, barrier], ([i, b]) => cb.imageBarrier(i as never, b as never), [cb]);
    everyPosition([image, 'transfer-dst-optimal', 0, 0, 0, 1, 0, 1], ([i, l, r, g, b, a, base, n]) => cb.clearColorImage(i as never, l as never, r as never, g as never, b as never, a as never, base as never, n as never), [cb]);
    everyPosition([image, 'transfer-dst-optimal', 1, 0], ([i, l, d, st]) => cb.clearDepthStencilImage(i as never, l as never, d as never, st as never), [cb]);
    everyPosition([src, image, 'transfer-dst-optimal', { bufferOffset: 0 }], ([b, i, l, r]) => cb.copyBufferToImage(b as never, i as never, l as never, r as never), [cb]);
    everyPosition([image, 'general', dst, {}], ([i, l, b, r]) => cb.copyImageToBuffer(i as never, l as never, b as never, r as never), [cb]);
    everyPosition([{ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] }], ([info]) => {
      cb.beginRendering(info as never);
      return cb.endRendering();
    }, [cb]);
    everyPosition([0, [src], [0]], ([f, b, o]) => cb.bindVertexBuffers(f as never, b as never, o as never), [cb]);
    everyPosition([src, 0, 'uint16'], ([b, o, t]) => cb.bindIndexBuffer(b as never, o as never, t as never), [cb]);
    everyPosition([0, 0, 8, 8, 0, 1], ([x, y, w, h, a, b]) => cb.setViewport(x as never, y as never, w as never, h as never, a as never, b as never), [cb]);
    everyPosition([0, 0, 8, 8], ([x, y, w, h]) => cb.setScissor(x as never, y as never, w as never, h as never), [cb]);
    everyPosition([3, 1, 0, 0], ([a, b, c, d]) => cb.draw(a as never, b as never, c as never, d as never), [cb]);
    everyPosition([3, 1, 0, 0, 0], ([a, b, c, d, e]) => cb.drawIndexed(a as never, b as never, c as never, d as never, e as never), [cb]);
    everyPosition([src, 0, 1, 16], ([b, o, n, st]) => cb.drawIndirect(b as never, o as never, n as never, st as never), [cb]);
    everyPosition([src, 0, 1, 20], ([b, o, n, st]) => cb.drawIndexedIndirect(b as never, o as never, n as never, st as never), [cb]);
    cb.end();
    const queue = device.queue(0);
    const fence = device.createFence();
    const semaphore = device.createSemaphore();
    // Nothing bad reaches vkQueueSubmit: each call is refused, or submits the (harmless) recording.
    everyPosition([cb, fence, {}], ([c, f, s]) => {
      queue.submit(c as never, f as never, s as never);
      queue.waitIdle();
      fence.reset();
    }, [], 60);
    queue.waitIdle();
    pool.destroy();
    fence.destroy();
    semaphore.destroy();
    descriptors.destroy();
    pipeline.destroy();
    layout.destroy();
    setLayout.destroy();
    view.destroy();
    image.destroy();
    src.destroy();
    dst.destroy();
  });

  it('NODE-1: destroyed handles handed to every kind of call, huge strings, detached output: a typed error, no crash', () => {
    const own = pd.createDevice(queue);
    const gone = {
      buffer: own.createBuffer({ size: 64, usage: 0x20 }),
      memory: own.allocateMemory(64, pd.findMemoryType(0xffffffff, HOST)),
      module: own.createShaderModule(saxpySpirv()),
      fence: own.createFence(),
      semaphore: own.createSemaphore(),
      setLayout: own.createDescriptorSetLayout([{ binding: 0, descriptorType: 7, stageFlags: 0x20 }]),
      pool: own.createCommandPool(0),
    };
    const cb = own.createCommandPool(0).allocateCommandBuffer();
    for (const child of Object.values(gone)) child.destroy();
    const detachedCode = saxpySpirv().slice(); // its own buffer (a file read may share a pooled one, which is not transferred)
    structuredClone(detachedCode.buffer, { transfer: [detachedCode.buffer as ArrayBuffer] });
    expect(detachedCode.length).toBe(0);
    const calls: [string, () => unknown][] = [
      ['buffer.bindMemory', () => gone.buffer.bindMemory(own.allocateMemory(64, pd.findMemoryType(0xffffffff, HOST)))],
      ['memory.map', () => gone.memory.map()],
      ['createComputePipeline with a destroyed module', () => own.createComputePipeline({ layout: own.createPipelineLayout([]), module: gone.module })],
      ['createPipelineLayout with a destroyed set layout', () => own.createPipelineLayout([gone.setLayout])],
      ['fence.signaled', () => gone.fence.signaled],
      ['fence.reset', () => gone.fence.reset()],
      ['pool.allocateCommandBuffer', () => gone.pool.allocateCommandBuffer()],
      ['copyBuffer from a destroyed buffer', () => cb.begin().copyBuffer(gone.buffer, gone.buffer, 4)],
      ['submit with a destroyed semaphore', () => own.queue(0).submit(cb.end(), undefined, { wait: gone.semaphore })],
      ['getDeviceProcAddr of a 4 MiB name', () => own.getDeviceProcAddr('vk'.repeat(2 * 1024 * 1024))],
      ['createComputePipeline with a 1 MiB entry point', () => device.createComputePipeline({ layout: device.createPipelineLayout([]), module: device.createShaderModule(saxpySpirv()), entryPoint: 'm'.repeat(1 << 20) })],
      ['createShaderModule of a detached array', () => own.createShaderModule(detachedCode)],
      ['instance.getInstanceProcAddr of a 4 MiB name', () => instance.getInstanceProcAddr('vk'.repeat(2 * 1024 * 1024))],
    ];
    const outcomes = calls.map(([what, call]) => {
      try {
        call();
        return `${what}: no error`;
      } catch (e) {
        refusedCleanly(() => {
          throw e;
        });
        return `${what}: ${(e as { code?: string }).code}`;
      }
    });
    own.destroy();
    // Every call on a destroyed handle is refused; a name no driver knows is no function (0n), not an error.
    expect(outcomes.filter((o) => o.endsWith('no error'))).toEqual(['getDeviceProcAddr of a 4 MiB name: no error', 'instance.getInstanceProcAddr of a 4 MiB name: no error']);
    expect(outcomes.every((o) => /: (KL_|VK_|no error)/.test(o)), outcomes.join('\n')).toBe(true);
  });
});
