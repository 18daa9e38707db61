// GPU compute from Node with khronos-loader's Vulkan API: SAXPY (y = a·x + y) over 16 M floats on
// the first physical device, checked against JavaScript, with the device name, the time per
// dispatch and the bandwidth it reached (3 floats moved per element: read x, read y, write y).
//
//   npx tsx examples/compute.ts [--elements N] [--repeats R]
//
// The shader is examples/shaders/saxpy.comp, compiled to saxpy.spv by scripts/build-shaders.sh.
// Layers come from the usual places (VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation adds the
// validation layer; VK_DRIVER_FILES picks the driver).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createLoader,
  examplePath,
  AccessFlags,
  BufferUsageFlags,
  DescriptorType,
  MemoryPropertyFlags,
  PipelineStageFlags,
  QueueFlags,
  ShaderStageFlags,
  VK_API_VERSION_1_1,
  type Instance,
} from 'khronos-loader/vulkan';

const WORKGROUP_SIZE = 256; // local_size_x in saxpy.comp

export interface SaxpyOptions {
  readonly elements?: number;
  /** Timed dispatches (the result is y + repeats·a·x). */
  readonly repeats?: number;
  readonly a?: number;
}

export interface SaxpyResult {
  readonly deviceName: string;
  readonly elements: number;
  readonly repeats: number;
  /** The fastest dispatch, submit to fence, in milliseconds. */
  readonly bestMs: number;
  /** Bytes moved by one dispatch (12 per element) over bestMs. */
  readonly gbPerSecond: number;
  /** Largest |GPU − JavaScript| relative to the expected value. */
  readonly maxRelativeError: number;
  readonly correct: boolean;
}

export function saxpySpirv(): Uint32Array {
  const bytes = readFileSync(examplePath('shaders/saxpy.spv'));
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** SAXPY on the instance's first physical device; everything it creates is destroyed before it returns. */
export async function runSaxpy(instance: Instance, options: SaxpyOptions = {}): Promise<SaxpyResult> {
  const n = options.elements ?? 16 * 1024 * 1024;
  const repeats = options.repeats ?? 10;
  const a = options.a ?? 2.5;
  const bytes = n * 4;

  const physicalDevice = instance.enumeratePhysicalDevices()[0];
  if (physicalDevice === undefined) throw new Error('no Vulkan physical device');
  const family = physicalDevice.queueFamilies.findIndex((f) => (f.queueFlags & QueueFlags.COMPUTE) !== 0);
  const device = physicalDevice.createDevice({ queueCreateInfos: [{ queueFamilyIndex: family, queuePriorities: [1] }] });
  try {
    const queue = device.queue(family, 0);

    // x and y where the device computes fastest; one host-visible staging buffer for both.
    const storage = (size: number, usage: number, flags: number) => {
      const buffer = device.createBuffer({ size, usage });
      const { size: need, memoryTypeBits } = buffer.memoryRequirements;
      // Device-local where there is such a type, any type otherwise; requireMemoryType() throws naming the bits and flags.
      const type = flags === MemoryPropertyFlags.DEVICE_LOCAL && physicalDevice.findMemoryType(memoryTypeBits, flags) < 0 ? physicalDevice.requireMemoryType(memoryTypeBits, 0) : physicalDevice.requireMemoryType(memoryTypeBits, flags);
      const memory = device.allocateMemory(need, type);
      buffer.bindMemory(memory);
      return { buffer, memory };
    };
    const x = storage(bytes, BufferUsageFlags.STORAGE_BUFFER | BufferUsageFlags.TRANSFER_DST, MemoryPropertyFlags.DEVICE_LOCAL);
    const y = storage(bytes, BufferUsageFlags.STORAGE_BUFFER | BufferUsageFlags.TRANSFER_DST | BufferUsageFlags.TRANSFER_SRC, MemoryPropertyFlags.DEVICE_LOCAL);
    const staging = storage(2 * bytes, BufferUsageFlags.TRANSFER_SRC | BufferUsageFlags.TRANSFER_DST, MemoryPropertyFlags.HOST_VISIBLE | MemoryPropertyFlags.HOST_COHERENT);

    // Inputs, written straight into the mapped staging memory.
    const mapping = staging.memory.map();
    const hostX = new Float32Array(mapping, 0, n);
    const hostY = new Float32Array(mapping, bytes, n);
    for (let i = 0; i < n; i++) {
      hostX[i] = (i % 1024) / 1024;
      hostY[i] = ((i * 7) % 1000) / 1000;
    }
    const expected = new Float32Array(hostY);

    const setLayout = device.createDescriptorSetLayout([
      { binding: 0, descriptorType: DescriptorType.STORAGE_BUFFER, stageFlags: ShaderStageFlags.COMPUTE },
      { binding: 1, descriptorType: DescriptorType.STORAGE_BUFFER, stageFlags: ShaderStageFlags.COMPUTE },
    ]);
    const pool = device.createDescriptorPool(1, [{ type: DescriptorType.STORAGE_BUFFER, descriptorCount: 2 }]);
    const set = pool.allocateSet(setLayout);
    set.writeBuffers([
      { binding: 0, descriptorType: DescriptorType.STORAGE_BUFFER, buffer: x.buffer },
      { binding: 1, descriptorType: DescriptorType.STORAGE_BUFFER, buffer: y.buffer },
    ]);
    const layout = device.createPipelineLayout([setLayout], [{ stageFlags: ShaderStageFlags.COMPUTE, offset: 0, size: 8 }]);
    const module = device.createShaderModule(saxpySpirv());
    const pipeline = device.createComputePipeline({ layout, module });
    module.destroy(); // the pipeline keeps what it needs

    const params = new DataView(new ArrayBuffer(8));
    params.setFloat32(0, a, true);
    params.setUint32(4, n, true);
    const groups = Math.min(Math.ceil(n / WORKGROUP_SIZE), physicalDevice.limits.maxComputeWorkGroupCount[0], 65535);

    const commandPool = device.createCommandPool(family);
    const upload = commandPool.allocateCommandBuffer();
    upload
      .begin(1)
      .copyBuffer(staging.buffer, x.buffer, bytes, 0, 0)
      .copyBuffer(staging.buffer, y.buffer, bytes, bytes, 0)
      .pipelineBarrier(PipelineStageFlags.TRANSFER, PipelineStageFlags.COMPUTE_SHADER, AccessFlags.TRANSFER_WRITE, AccessFlags.SHADER_READ | AccessFlags.SHADER_WRITE)
      .end();
    const compute = commandPool.allocateCommandBuffer();
    compute
      .begin()
      .bindPipeline(pipeline)
      .bindDescriptorSet(layout, set)
      .pushConstants(layout, ShaderStageFlags.COMPUTE, 0, params)
      .dispatch(groups)
      .pipelineBarrier(PipelineStageFlags.COMPUTE_SHADER, PipelineStageFlags.COMPUTE_SHADER, AccessFlags.SHADER_WRITE, AccessFlags.SHADER_READ | AccessFlags.SHADER_WRITE)
      .end();
    const download = commandPool.allocateCommandBuffer();
    download
      .begin(1)
      .pipelineBarrier(PipelineStageFlags.COMPUTE_SHADER, PipelineStageFlags.TRANSFER, AccessFlags.SHADER_WRITE, AccessFlags.TRANSFER_READ)
      .copyBuffer(y.buffer, staging.buffer, bytes, 0, bytes)
      .pipelineBarrier(PipelineStageFlags.TRANSFER, PipelineStageFlags.HOST, AccessFlags.TRANSFER_WRITE, AccessFlags.HOST_READ)
      .end();

    const fence = device.createFence();
    const run = async (cb: typeof compute): Promise<number> => {
      const start = process.hrtime.bigint();
      queue.submit(cb, fence);
      await fence.wait(); // on a native thread: the event loop keeps running
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      fence.reset();
      return ms;
    };
    await run(upload);
    let bestMs = Infinity;
    for (let r = 0; r < repeats; r++) bestMs = Math.min(bestMs, await run(compute));
    await run(download);

    // The same arithmetic in float32 in JavaScript.
    const fa = Math.fround(a);
    for (let r = 0; r < repeats; r++) for (let i = 0; i < n; i++) expected[i] = Math.fround(Math.fround(fa * hostX[i]!) + expected[i]!);
    let maxRelativeError = 0;
    for (let i = 0; i < n; i++) {
      const e = expected[i]!;
      const err = Math.abs(hostY[i]! - e) / Math.max(Math.abs(e), 1e-6);
      if (!(err <= maxRelativeError)) maxRelativeError = err; // NaN counts as wrong
    }
    const deviceName = physicalDevice.properties.deviceName;
    staging.memory.unmap(); // hostX and hostY are detached from here on
    return {
      deviceName,
      elements: n,
      repeats,
      bestMs,
      gbPerSecond: (3 * bytes) / (bestMs / 1e3) / 1e9,
      maxRelativeError,
      correct: maxRelativeError <= 1e-5 * repeats,
    };
  } finally {
    device.destroy(); // and every buffer, memory, pipeline, pool and fence it owns
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { elements: { type: 'string' }, repeats: { type: 'string' } } });
  const instance = createLoader().createInstance({ applicationName: 'khronos-loader compute example', apiVersion: VK_API_VERSION_1_1 });
  try {
    const result = await runSaxpy(instance, {
      ...(values.elements !== undefined && { elements: Number(values.elements) }),
      ...(values.repeats !== undefined && { repeats: Number(values.repeats) }),
    });
    console.log(`device: ${result.deviceName}`);
    console.log(`layers: ${instance.enabledLayerNames.join(', ') || '(none)'}`);
    console.log(`saxpy: ${result.elements} floats, best of ${result.repeats} dispatches: ${result.bestMs.toFixed(3)} ms, ${result.gbPerSecond.toFixed(2)} GB/s`);
    console.log(`check against JavaScript: ${result.correct ? 'correct' : 'WRONG'} (max relative error ${result.maxRelativeError.toExponential(2)})`);
    if (!result.correct) process.exitCode = 1;
  } finally {
    instance.destroy();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
