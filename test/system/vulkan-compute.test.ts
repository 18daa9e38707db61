// The typed Vulkan compute API and examples/compute.ts on a real driver (Mesa lavapipe, or the one
// KHRONOS_LOADER_VK_DRIVER_JSON names), through real discovery, with VK_LAYER_KHRONOS_validation in
// the chain listening through a debug-utils messenger where it is installed (what needs it skips
// with the reason where it is not).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSaxpy, saxpySpirv } from '../../examples/compute.js';
import { packageRoot } from '../../lib/core/native/load.js';
import { createInstanceFromPlan, VK_API_VERSION_1_1, VulkanError, type Device, type Instance, type PhysicalDevice } from '../../lib/vulkan/index.js';
import { missingSystemComponent } from '../helpers/system.js';
import { hasValidation, missingRealDriver, missingValidation, ON_LAVAPIPE, REAL_DEVICE_NAME, REAL_DRIVER_MANIFEST, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { driver, plan, testLibrary } from '../vulkan-native/helpers.js';
import { vulkanCompute } from '../../lib/vulkan/native/addon.js';
import { tsWorker } from '../openxr-api/fixtures/ts-worker.js';

const skip = missingRealDriver();
const validation = hasValidation();
const noValidation = skip ?? missingValidation();
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const WARNING = 0x100;
const ERROR = 0x1000;
const HOST_VISIBLE_COHERENT = 0x2 | 0x4;
const STORAGE = 0x20;
const DESCRIPTOR_STORAGE_BUFFER = 7;
const STAGE_COMPUTE = 0x20;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function validatedInstance(): Instance {
  const instance = realDriverLoader().createInstance({
    applicationName: 'kl-compute-test',
    apiVersion: VK_API_VERSION_1_1,
    enabledLayerNames: validation ? [VALIDATION] : [],
    enabledExtensionNames: ['VK_EXT_debug_utils'],
    collectCreateMessages: true,
  });
  open.push(instance);
  instance.startDebugMessenger();
  return instance;
}

function deviceOf(instance: Instance): { pd: PhysicalDevice; device: Device } {
  const pd = instance.enumeratePhysicalDevices()[0]!;
  return { pd, device: pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] }) };
}

describe.skipIf(skip !== null)('the typed Vulkan compute API on the real driver', () => {
  it('NODE-1, VK-CH-3: the compute example (SAXPY) is correct against JavaScript and validation in the chain reports nothing', async () => {
    const instance = validatedInstance();
    expect(instance.enabledLayerNames.includes(VALIDATION)).toBe(validation);
    const result = await runSaxpy(instance, { elements: 1 << 20, repeats: 3 });
    expect(result.deviceName).toMatch(REAL_DEVICE_NAME);
    expect(result.correct).toBe(true);
    expect(result.maxRelativeError).toBeLessThanOrEqual(3e-5);
    expect(result.gbPerSecond).toBeGreaterThan(0);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it.skipIf(noValidation !== null)('VK-CH-3: validation hears the commands this API records (a dispatch with no descriptor set bound is reported)', async () => {
    const instance = validatedInstance();
    const { device } = deviceOf(instance);
    const setLayout = device.createDescriptorSetLayout([
      { binding: 0, descriptorType: DESCRIPTOR_STORAGE_BUFFER, stageFlags: STAGE_COMPUTE },
      { binding: 1, descriptorType: DESCRIPTOR_STORAGE_BUFFER, stageFlags: STAGE_COMPUTE },
    ]);
    const layout = device.createPipelineLayout([setLayout], [{ stageFlags: STAGE_COMPUTE, offset: 0, size: 8 }]);
    const pipeline = device.createComputePipeline({ layout, module: device.createShaderModule(saxpySpirv()) });
    const cb = device.createCommandPool(0).allocateCommandBuffer();
    // The typed dispatch() refuses this state itself (test/vulkan-misuse); the raw recording
    // function below it records it, for validation to hear.
    cb.begin().bindPipeline(pipeline).pushConstants(layout, STAGE_COMPUTE, 0, new Uint32Array(2));
    expect(() => cb.dispatch(1)).toThrow(/no set is bound/);
    vulkanCompute().cmdDispatch(cb.handle, 1, 1, 1);
    cb.end();
    const fence = device.createFence();
    device.queue(0).submit(cb, fence);
    expect(await fence.wait()).toBe(true);
    const errors = instance.takeDebugMessages().filter((m) => m.severity >= ERROR);
    expect(errors.map((m) => m.messageIdName).join(' ')).toMatch(/VUID-vkCmdDispatch/);
  });

  it('NODE-1: semaphores order two submissions (copy, then a copy that waits on it); validation reports nothing', async () => {
    const instance = validatedInstance();
    const { pd, device } = deviceOf(instance);
    const TRANSFER = 0x1 | 0x2;
    const hostBuffer = () => {
      const b = device.createBuffer({ size: 64, usage: TRANSFER });
      b.bindMemory(device.allocateMemory(b.memoryRequirements.size, pd.findMemoryType(b.memoryRequirements.memoryTypeBits, HOST_VISIBLE_COHERENT)));
      return b;
    };
    const [a, b, c] = [hostBuffer(), hostBuffer(), hostBuffer()];
    new Uint32Array(a.memory!.map()).set([1, 2, 3, 4]);
    const pool = device.createCommandPool(0);
    const first = pool.allocateCommandBuffer().begin(1).copyBuffer(a, b, 16).end();
    const second = pool.allocateCommandBuffer().begin(1).copyBuffer(b, c, 16).pipelineBarrier(0x1000, 0x4000, 0x1000, 0x2000).end();
    const ready = device.createSemaphore();
    const fence = device.createFence();
    const queue = device.queue(0);
    queue.submit(first, undefined, { signal: ready });
    queue.submit(second, fence, { wait: ready, waitStage: 0x1000 /* TRANSFER */ });
    expect(await fence.wait()).toBe(true);
    expect([...new Uint32Array(c.memory!.map(), 0, 4)]).toEqual([1, 2, 3, 4]);
    expect(() => queue.submit(first, undefined, { signal: 'x' as never })).toThrow(TypeError);
    ready.destroy();
    expect(() => queue.submit(first, undefined, { wait: ready })).toThrow(VulkanError);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it('NODE-1: physical-device queries: limits, features, memory types and heaps, device extensions', () => {
    const instance = validatedInstance();
    const pd = instance.enumeratePhysicalDevices()[0]!;
    expect(pd.limits.maxComputeWorkGroupCount[0]).toBeGreaterThanOrEqual(65535);
    expect(pd.limits.maxPushConstantsSize).toBeGreaterThanOrEqual(128);
    expect(typeof pd.features.robustBufferAccess).toBe('boolean');
    if (ON_LAVAPIPE) expect(pd.features.shaderInt64).toBe(true); // lavapipe has it
    const memory = pd.memoryProperties;
    expect(memory.memoryHeaps.length).toBeGreaterThan(0);
    expect(typeof memory.memoryHeaps[0]!.size).toBe('bigint');
    expect(pd.findMemoryType(0xffffffff, HOST_VISIBLE_COHERENT)).toBeGreaterThanOrEqual(0);
    expect(pd.findMemoryType(0, HOST_VISIBLE_COHERENT)).toBe(-1);
    expect(pd.enumerateDeviceExtensionProperties().map((e) => e.extensionName)).toContain('VK_KHR_maintenance4');
  });

  it('NODE-1: mapped memory is an ArrayBuffer over the device memory, detached by unmap() and by destroy(); mapping twice is refused; flush and invalidate', () => {
    const instance = validatedInstance();
    const { pd, device } = deviceOf(instance);
    const buffer = device.createBuffer({ size: 4096, usage: STORAGE });
    const memory = device.allocateMemory(buffer.memoryRequirements.size, pd.findMemoryType(buffer.memoryRequirements.memoryTypeBits, HOST_VISIBLE_COHERENT));
    buffer.bindMemory(memory);
    const mapped = memory.map();
    expect(mapped.byteLength).toBe(buffer.memoryRequirements.size);
    new Uint32Array(mapped).fill(0xabcdef01);
    expect(() => memory.map()).toThrow(VulkanError);
    memory.unmap();
    expect(mapped.byteLength).toBe(0); // detached: JavaScript cannot reach the memory any more
    const again = new Uint32Array(memory.map(0, 64), 0, 4); // 64: a multiple of nonCoherentAtomSize, for flush()
    expect([...again]).toEqual([0xabcdef01, 0xabcdef01, 0xabcdef01, 0xabcdef01]); // the same memory, really written
    memory.flush(); // the mapped range (from 0, VK_WHOLE_SIZE)
    memory.invalidate();
    memory.unmap();
    expect(again.length).toBe(0);
    expect(() => memory.flush()).toThrow(VulkanError); // only mapped memory can be flushed
    expect(() => memory.invalidate(-1)).toThrow(TypeError);
    const whole = memory.map();
    memory.invalidate(0, memory.size);
    memory.destroy();
    expect(whole.byteLength).toBe(0);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it('NODE-1, NODE-2: use after destroy throws VulkanError (also for children of a destroyed device); wrong arguments throw TypeError', () => {
    const instance = validatedInstance();
    const { device } = deviceOf(instance);
    const buffer = device.createBuffer({ size: 256, usage: STORAGE });
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    const fence = device.createFence(true);
    expect(fence.signaled).toBe(true);
    buffer.destroy();
    buffer.destroy(); // NODE-1: a second destroy() does nothing
    expect(buffer.isDestroyed).toBe(true);
    expect(() => cb.copyBuffer(buffer, buffer, 4)).toThrow(VulkanError);
    pool.destroy();
    expect(cb.isDestroyed).toBe(true); // freed with its pool
    expect(() => cb.begin()).toThrow(VulkanError);
    device.destroy();
    expect(fence.isDestroyed).toBe(true);
    try {
      fence.reset();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(VulkanError);
      expect((e as VulkanError).result).toBe('VK_ERROR_VALIDATION_FAILED');
    }
    expect(() => device.createFence()).toThrow(VulkanError);
    const other = deviceOf(instance).device;
    expect(() => other.createBuffer({ size: -1, usage: STORAGE })).toThrow(TypeError);
    expect(() => other.createShaderModule(new Uint32Array([1, 2, 3]))).toThrow(TypeError);
    expect(() => other.createShaderModule(new Float32Array(4) as never)).toThrow(TypeError);
    expect(() => other.createPipelineLayout(['x'] as never)).toThrow(TypeError);
    const ocb = other.createCommandPool(0).allocateCommandBuffer();
    expect(() => ocb.dispatch(1.5)).toThrow(TypeError);
    expect(() => ocb.pushConstants(null as never, STAGE_COMPUTE, 0, new Uint8Array(4))).toThrow(TypeError);
    expect(() => other.queue(0).submit({} as never)).toThrow(TypeError);
    expect(() => other.createCommandPool(7)).toThrow(TypeError);
    instance.destroy();
    expect(other.isDestroyed).toBe(true);
    expect(() => ocb.end()).toThrow(VulkanError);
  });

  it('NODE-4: await fence.wait() waits on a native thread: the event loop runs meanwhile; a timeout resolves false', async () => {
    const instance = validatedInstance();
    const { device } = deviceOf(instance);
    const fence = device.createFence(false); // never submitted: only the timeout ends the wait
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    const signalled = await fence.wait(300_000_000n);
    clearInterval(timer);
    expect(signalled).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // A wait that blocked the JavaScript thread would let no tick run before it resolved (the
    // await continues in a microtask); any tick proves the loop ran. How many depends on the load.
    expect(ticks).toBeGreaterThan(0);
    // While a wait is pending, the fence (and its device) cannot be destroyed under it.
    const pending = fence.wait(100_000_000n);
    expect(() => fence.destroy()).toThrow(VulkanError);
    expect(() => device.destroy()).toThrow(VulkanError);
    await pending;
    fence.destroy();
  });

  it('NODE-3: recording and submission allocate nothing: the heap flat over 100,000 recordings of 8 commands (child process, --expose-gc)', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/system/fixtures/vulkan-heap-record.ts', '100000'], {
      cwd: packageRoot,
      encoding: 'utf8',
    });
    const r = JSON.parse(out.trim().split('\n').pop()!) as { allocated: number; youngAllocated: number; retained: number; collectionsDuringRun: number };
    process.stderr.write(`[NODE-3 vulkan heap] 100,000 recordings: ${r.youngAllocated} young-generation bytes allocated (heapUsed ${r.allocated}), ${r.retained} retained\n`);
    expect(r.collectionsDuringRun).toBe(0);
    // The young generation (heapUsed also counts the JIT's own growth, 110-293 KB measured): 41 KB
    // measured. 16 bytes per call would be 12.8 MB.
    expect(r.youngAllocated).toBeLessThan(512 * 1024);
    expect(r.retained).toBeLessThan(256 * 1024);
  });

  it('NODE-5: worker threads and the main thread each run SAXPY on their own instance at once, all correct, validation clean', async () => {
    const inWorker = () =>
      new Promise<{ correct: boolean; deviceName: string; problems: number }>((resolve, reject) => {
        const worker = tsWorker(new URL('./fixtures/vulkan-worker-saxpy.ts', import.meta.url), { workerData: { elements: 1 << 18, validation } });
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => code !== 0 && reject(new Error(`worker exited with ${code}`)));
      });
    const instance = validatedInstance();
    const [a, b, main] = await Promise.all([inWorker(), inWorker(), runSaxpy(instance, { elements: 1 << 18, repeats: 2 })]);
    expect([a, b].map((r) => [r.correct, r.problems])).toEqual([
      [true, 0],
      [true, 0],
    ]);
    expect(a.deviceName).toMatch(REAL_DEVICE_NAME);
    expect(main.correct).toBe(true);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it('NODE-1: the example as a program prints the device, the time and GB/s, and the check (VK_INSTANCE_LAYERS brings validation in, which prints nothing)', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'kl-compute-'));
    try {
      const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/compute.ts', '--elements', '262144', '--repeats', '2'], {
        cwd: packageRoot,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, VK_DRIVER_FILES: REAL_DRIVER_MANIFEST, ...(validation ? { VK_INSTANCE_LAYERS: VALIDATION } : {}) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out).toMatch(ON_LAVAPIPE ? /^device: llvmpipe/m : /^device: \S/m);
      if (validation) expect(out).toMatch(/^layers: .*VK_LAYER_KHRONOS_validation/m);
      expect(out).toMatch(/^saxpy: 262144 floats, best of 2 dispatches: [\d.]+ ms, [\d.]+ GB\/s$/m);
      expect(out).toMatch(/^check against JavaScript: correct/m);
      expect(out).not.toMatch(/Validation (Error|Warning)/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('the typed Vulkan API on the project\'s test driver (no vkDeviceWaitIdle)', () => {
  it('NODE-1, NODE-2: waitIdle() on a chain without vkDeviceWaitIdle throws VulkanError instead of calling NULL; a device with no objects is destroyed without waiting', () => {
    const instance = createInstanceFromPlan(plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_no_wait_idle'))]), { applicationName: 'kl-no-wait' });
    open.push(instance);
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    try {
      device.waitIdle();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(VulkanError);
      expect((e as VulkanError).result).toBe('VK_ERROR_FEATURE_NOT_PRESENT');
    }
    device.destroy();
    expect(device.isDestroyed).toBe(true);
  });

  it('NODE-2: the per-command recording functions (raw N-API) refuse a wrong argument with a TypeError naming it, before any Vulkan call', () => {
    const instance = createInstanceFromPlan(plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_v7'))]), { applicationName: 'kl-record-args' });
    open.push(instance);
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    const cb = device.createCommandPool(0).allocateCommandBuffer().begin();
    const layout = device.createPipelineLayout([], [{ stageFlags: 0x20, offset: 0, size: 8 }]);
    const n = vulkanCompute();
    const refused = (call: () => void, message: string) => {
      try {
        call();
        expect.unreachable(message);
      } catch (e) {
        expect(e).toBeInstanceOf(TypeError);
        expect((e as TypeError & { code?: string }).code).toBe('KL_INVALID_ARGUMENT');
        expect((e as Error).message).toBe(message);
      }
    };
    refused(() => n.cmdDispatch(1 as unknown as bigint, 1, 1, 1), 'commandBuffer must be a bigint handle');
    refused(() => n.cmdDispatch(cb.handle, -1, 1, 1), 'groupCountX must be an integer in [0, 2^32)');
    refused(() => n.cmdDispatch(cb.handle, 1, 1.5, 1), 'groupCountY must be an integer in [0, 2^32)');
    refused(() => n.cmdBindComputePipeline(cb.handle, 'p' as unknown as bigint), 'pipeline must be a bigint handle');
    refused(() => n.cmdBindComputeDescriptorSet(cb.handle, layout.handle, 2 ** 32, 1n), 'firstSet must be an integer in [0, 2^32)');
    refused(() => n.cmdPushConstants(cb.handle, layout.handle, 0x20, 0, [1, 2] as unknown as Uint32Array), 'data must be a TypedArray or DataView');
    refused(() => n.cmdPushConstants(cb.handle, layout.handle, 0x20, 0, new Uint32Array(0)), 'data has no bytes (an empty, detached or out-of-bounds view)');
    refused(() => n.cmdPipelineBarrier(cb.handle, 0x800, 0x800, 0x40, undefined as unknown as number), 'dstAccessMask must be an integer in [0, 2^32)');
    // Right arguments are recorded (the test driver counts them; recording them raises nothing).
    n.cmdDispatch(cb.handle, 1, 1, 1);
    n.cmdPushConstants(cb.handle, layout.handle, 0x20, 0, new DataView(new ArrayBuffer(8)));
    cb.end();
  });
});

const noGlslang = missingSystemComponent({ 'glslangValidator (glslang-tools)': ['/usr/bin/glslangValidator'] });

describe.skipIf(noGlslang !== null)('the example shaders', () => {
  it('NODE-1: the committed SPIR-V is what scripts/build-shaders.sh makes from the GLSL', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'kl-spv-'));
    try {
      execFileSync(path.join(packageRoot, 'scripts/build-shaders.sh'), [out], { stdio: 'ignore' });
      const committed = readdirSync(path.join(packageRoot, 'examples/shaders')).filter((f) => f.endsWith('.spv'));
      expect(committed).toEqual(expect.arrayContaining(['saxpy.spv', 'eye-pattern.spv', 'colored.vert.spv', 'colored.frag.spv', 'multiview.vert.spv', 'textured.vert.spv', 'textured.frag.spv']));
      // Every committed module has its source (no SPIR-V without GLSL), and the build makes each one as committed.
      expect(readdirSync(out).sort()).toEqual(committed.sort());
      for (const shader of committed) {
        expect(readFileSync(path.join(out, shader)).equals(readFileSync(path.join(packageRoot, 'examples/shaders', shader))), shader).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
