// The typed Vulkan API refuses, with a typed error before any Vulkan call, what would be undefined
// behaviour (docs/usage.md, "What the typed Vulkan API checks"): command-buffer state, pipeline and
// descriptor-set compatibility with the shader (read from its SPIR-V), object state and argument
// ranges. Each case is one the driver would crash on or silently accept. Real driver (lavapipe).
import { afterEach, describe, expect, it } from 'vitest';
import { saxpySpirv } from '../../examples/compute.js';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, VK_API_VERSION_1_1, type Device, type Instance, type PhysicalDevice } from '../../lib/vulkan/index.js';
import { missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriver();
const STORAGE = 7;
const COMPUTE = 0x20;
const HOST = 0x2 | 0x4;
const BUFFER_USAGE = 0x20 | 0x1 | 0x2;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function setup(): { instance: Instance; pd: PhysicalDevice; device: Device } {
  const instance = realDriverLoader().createInstance({ applicationName: 'kl-misuse', apiVersion: VK_API_VERSION_1_1 });
  open.push(instance);
  const pd = instance.enumeratePhysicalDevices()[0]!;
  return { instance, pd, device: pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] }) };
}

/** `call` throws `type` with code `code` and a message matching `message`. */
function refuses(call: () => unknown, type: typeof InvalidArgumentError | typeof InvalidStateError, message: RegExp): void {
  let thrown: unknown;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected ${type.name} matching ${message}`).toBeInstanceOf(type);
  expect((thrown as { code: string }).code).toBe(type === InvalidArgumentError ? 'KL_INVALID_ARGUMENT' : 'KL_INVALID_STATE');
  expect((thrown as Error).message).toMatch(message);
}

/** Everything saxpy.spv needs: two storage buffers at set 0, 8 bytes of push constants. */
function saxpyObjects(pd: PhysicalDevice, device: Device) {
  const buffer = () => {
    const b = device.createBuffer({ size: 1024, usage: BUFFER_USAGE });
    b.bindMemory(device.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
    return b;
  };
  const x = buffer();
  const y = buffer();
  const setLayout = device.createDescriptorSetLayout([
    { binding: 0, descriptorType: STORAGE, stageFlags: COMPUTE },
    { binding: 1, descriptorType: STORAGE, stageFlags: COMPUTE },
  ]);
  const layout = device.createPipelineLayout([setLayout], [{ stageFlags: COMPUTE, offset: 0, size: 8 }]);
  const pipeline = device.createComputePipeline({ layout, module: device.createShaderModule(saxpySpirv()) });
  const pool = device.createDescriptorPool(4, [{ type: STORAGE, descriptorCount: 8 }]);
  const set = pool.allocateSet(setLayout);
  set.writeBuffers([
    { binding: 0, descriptorType: STORAGE, buffer: x },
    { binding: 1, descriptorType: STORAGE, buffer: y },
  ]);
  const params = new Uint32Array([0x40200000, 256]); // a = 2.5f, n = 256
  return { x, y, setLayout, layout, pipeline, pool, set, params };
}

describe.skipIf(skip !== null)('the typed Vulkan API refuses undefined behaviour before Vulkan sees it', () => {
  it('NODE-1: command-buffer lifecycle: commands before begin(), end() twice, begin() while recording, submit of a buffer never recorded or still recording', () => {
    const { device } = setup();
    const cb = device.createCommandPool(0).allocateCommandBuffer();
    expect(cb.isRecording).toBe(false);
    refuses(() => cb.dispatch(1), InvalidStateError, /dispatch: the command buffer is not recording \(call begin\(\) first\)/);
    refuses(() => cb.pipelineBarrier(0x800, 0x800, 0x40, 0x20), InvalidStateError, /not recording/);
    refuses(() => cb.end(), InvalidStateError, /end: the command buffer is not recording/);
    refuses(() => device.queue(0).submit(cb), InvalidStateError, /submit: the command buffer holds no recording/);
    cb.begin();
    expect(cb.isRecording).toBe(true);
    refuses(() => cb.begin(), InvalidStateError, /already recording/);
    refuses(() => device.queue(0).submit(cb), InvalidStateError, /still recording \(end\(\) it first\)/);
    cb.end();
    refuses(() => cb.end(), InvalidStateError, /recording was ended \(call begin\(\) to record it again\)/);
    refuses(() => cb.begin(0x10), InvalidArgumentError, /flags must be VkCommandBufferUsageFlags/);
  });

  it('NODE-1: a dispatch needs a pipeline, a compatible set with every binding the shader reads written, and its push constants; the README layout of one binding is refused at createComputePipeline', () => {
    const { pd, device } = setup();
    const o = saxpyObjects(pd, device);
    const cb = device.createCommandPool(0).allocateCommandBuffer();
    // The case: begin().dispatch(1) with no pipeline.
    refuses(() => cb.begin().dispatch(1), InvalidStateError, /no compute pipeline is bound \(bindPipeline\(\) first\)/);
    cb.bindPipeline(o.pipeline);
    refuses(() => cb.dispatch(1), InvalidStateError, /uses descriptor set 0, and no set is bound there/);
    cb.bindDescriptorSet(o.layout, o.set);
    refuses(() => cb.dispatch(1), InvalidStateError, /push constants \[0, 8\) and none were pushed/);
    cb.pushConstants(o.layout, COMPUTE, 0, new Uint32Array([0x40200000]));
    refuses(() => cb.dispatch(1), InvalidStateError, /byte 4 was never pushed/);
    cb.pushConstants(o.layout, COMPUTE, 0, o.params);
    refuses(() => cb.dispatch(2 ** 31), InvalidArgumentError, /maxComputeWorkGroupCount/);
    cb.dispatch(1).end();
    // A set with a binding never written; a set of another layout.
    const unwritten = o.pool.allocateSet(o.setLayout);
    cb.begin().bindPipeline(o.pipeline).bindDescriptorSet(o.layout, unwritten).pushConstants(o.layout, COMPUTE, 0, o.params);
    refuses(() => cb.dispatch(1), InvalidStateError, /set 0, binding 0: binding 0 of the set was never written/);
    const oneBinding = device.createDescriptorSetLayout([{ binding: 0, descriptorType: STORAGE, stageFlags: COMPUTE }]);
    const other = o.pool.allocateSet(oneBinding);
    refuses(() => cb.bindDescriptorSet(o.layout, other), InvalidArgumentError, /set layout unlike the layout's set 0/);
    refuses(() => cb.bindDescriptorSet(o.layout, o.set, 1), InvalidArgumentError, /firstSet 1 is not a set of the layout/);
    cb.end();
    // The README's layout (one binding) and one without push constants: refused before vkCreateComputePipelines.
    const module = device.createShaderModule(saxpySpirv());
    const readmeLayout = device.createPipelineLayout([oneBinding], [{ stageFlags: COMPUTE, offset: 0, size: 8 }]);
    refuses(() => device.createComputePipeline({ layout: readmeLayout, module }), InvalidArgumentError, /set 0, binding 1 is not covered: set layout 0 has no binding 1/);
    const noPush = device.createPipelineLayout([o.setLayout]);
    refuses(() => device.createComputePipeline({ layout: noPush, module }), InvalidArgumentError, /push constants take bytes \[0, 8\); byte 0 is in no push-constant range/);
    const uniform = device.createDescriptorSetLayout([
      { binding: 0, descriptorType: 6, stageFlags: COMPUTE },
      { binding: 1, descriptorType: STORAGE, stageFlags: COMPUTE },
    ]);
    refuses(() => device.createComputePipeline({ layout: device.createPipelineLayout([uniform], [{ stageFlags: COMPUTE, offset: 0, size: 8 }]), module }), InvalidArgumentError, /needs descriptorType 7 or 9, the layout's binding has 6/);
    refuses(() => device.createComputePipeline({ layout: o.layout, module, entryPoint: 'nope' }), InvalidArgumentError, /no entry point "nope" \(it has "main"\)/);
    refuses(() => device.createShaderModule(new Uint32Array([0x07230203, 0x10000, 0, 10, 0, 0x00ff0011])), InvalidArgumentError, /word count of 255 that does not fit/);
  });

  it('NODE-1: submission: a recording that uses a destroyed or rewritten object, a fence still signaled, a buffer pending, a one-time buffer twice, a semaphore wait with no signal', async () => {
    const { pd, device } = setup();
    const o = saxpyObjects(pd, device);
    const queue = device.queue(0);
    const pool = device.createCommandPool(0);
    const cb = pool.allocateCommandBuffer();
    const record = () => cb.begin().bindPipeline(o.pipeline).bindDescriptorSet(o.layout, o.set).pushConstants(o.layout, COMPUTE, 0, o.params).dispatch(1).end();
    const fence = device.createFence();
    record();
    queue.submit(cb, fence);
    // Pending until the fence says otherwise: no re-recording, reset, resubmission, or destroying what it uses.
    if (!fence.signaled) {
      refuses(() => cb.begin(), InvalidStateError, /submitted and has not completed/);
      refuses(() => o.x.destroy(), InvalidStateError, /destroy\(\): a submitted command buffer that has not completed uses this VulkanBuffer/);
    }
    expect(await fence.wait()).toBe(true);
    refuses(() => queue.submit(cb, fence), InvalidStateError, /the fence is signaled \(reset\(\) it/);
    fence.reset();
    // A set written again after it was bound: the recording is invalid.
    o.set.writeBuffers([{ binding: 0, descriptorType: STORAGE, buffer: o.x }]);
    refuses(() => queue.submit(cb, fence), InvalidStateError, /written after it was bound/);
    record();
    o.pipeline.destroy();
    refuses(() => queue.submit(cb, fence), InvalidStateError, /a ComputePipeline the recorded commands use was destroyed/);
    // ONE_TIME_SUBMIT: once.
    const copy = pool.allocateCommandBuffer().begin(1).copyBuffer(o.x, o.y, 64).end();
    queue.submit(copy, fence);
    expect(await fence.wait()).toBe(true);
    refuses(() => queue.submit(copy), InvalidStateError, /ONE_TIME_SUBMIT and was submitted already/);
    // Submitted with no fence: pending (as far as anyone can know) until the queue is waited on.
    const unfenced = pool.allocateCommandBuffer().begin().copyBuffer(o.x, o.y, 64).end();
    queue.submit(unfenced);
    refuses(() => unfenced.begin(), InvalidStateError, /begin: the command buffer was submitted and has not completed/);
    refuses(() => unfenced.reset(), InvalidStateError, /reset: the command buffer was submitted/);
    refuses(() => queue.submit(unfenced), InvalidStateError, /submit: the command buffer was submitted and has not completed/);
    refuses(() => o.y.destroy(), InvalidStateError, /destroy\(\): a submitted command buffer that has not completed uses this VulkanBuffer/);
    refuses(() => o.y.memory!.destroy(), InvalidStateError, /uses this DeviceMemory/);
    refuses(() => pool.destroy(), InvalidStateError, /uses this CommandPool|a command buffer of the pool was submitted/);
    queue.waitIdle();
    unfenced.begin().end();
    unfenced.destroy();
    expect(unfenced.isDestroyed).toBe(true);
    // A binary semaphore waited on with no signal pending would never be signaled.
    const again = pool.allocateCommandBuffer().begin().copyBuffer(o.x, o.y, 64).end();
    refuses(() => queue.submit(again, undefined, { wait: device.createSemaphore() }), InvalidStateError, /semaphores.wait has no signal pending/);
  });

  it('NODE-1: objects: memory bound twice, size 0, usage 0 or unknown bits, queue priorities outside [0, 1], a memory type that does not exist, copies outside their buffers', () => {
    const { pd, device } = setup();
    const b = device.createBuffer({ size: 256, usage: BUFFER_USAGE });
    const memory = device.allocateMemory(b.memoryRequirements.size * 2, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST));
    b.bindMemory(memory);
    refuses(() => b.bindMemory(memory), InvalidStateError, /already bound to memory/);
    refuses(() => device.createBuffer({ size: 0, usage: BUFFER_USAGE }), InvalidArgumentError, /options.size must be above 0, got 0/);
    refuses(() => device.createBuffer({ size: 256, usage: 0 }), InvalidArgumentError, /options.usage must name at least one/);
    refuses(() => device.createBuffer({ size: 256, usage: 0x8000_0000 }), InvalidArgumentError, /bits 0x80000000 that are no Vulkan 1.0 VkBufferUsageFlagBits/);
    refuses(() => device.createBuffer({ size: 2 ** 60, usage: BUFFER_USAGE }), InvalidArgumentError, /options.size is 1152921504606847000, beyond Number.MAX_SAFE_INTEGER .* pass a bigint/);
    refuses(() => pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [2] }] }), InvalidArgumentError, /queuePriorities\[0\] must be a number in \[0, 1\], got 2/);
    refuses(() => pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [NaN] }] }), InvalidArgumentError, /in \[0, 1\], got NaN/);
    refuses(() => device.allocateMemory(256, pd.memoryProperties.memoryTypes.length), InvalidArgumentError, /memoryTypeIndex must be below the physical device's \d+ memory types/);
    refuses(() => device.allocateMemory(256, pd.findMemoryType(0, HOST)), InvalidArgumentError, /memoryTypeIndex is -1, which findMemoryType\(\) returns when no memory type fits/);
    refuses(() => pd.requireMemoryType(0, HOST), InvalidArgumentError, /no memory type in memoryTypeBits 0x0 has every flag of 0x6 \(the types and their VkMemoryPropertyFlags: 0: 0x/);
    refuses(() => device.allocateMemory(0, 0), InvalidArgumentError, /size must be above 0/);
    const unbacked = device.createBuffer({ size: 256, usage: BUFFER_USAGE });
    const cb = device.createCommandPool(0).allocateCommandBuffer().begin();
    refuses(() => cb.copyBuffer(unbacked, b, 16), InvalidStateError, /src: the buffer has no memory bound/);
    refuses(() => cb.copyBuffer(b, b, 512), InvalidArgumentError, /srcOffset 0 \+ bytes 512 is past src's size 256/);
    refuses(() => cb.copyBuffer(b, b, 64, 0, 32), InvalidArgumentError, /overlap/);
    const storageOnly = device.createBuffer({ size: 256, usage: 0x20 });
    storageOnly.bindMemory(device.allocateMemory(storageOnly.memoryRequirements.size, pd.requireMemoryType(storageOnly.memoryRequirements.memoryTypeBits, HOST)));
    refuses(() => cb.copyBuffer(storageOnly, b, 16), InvalidArgumentError, /src needs usage 0x1 \(TRANSFER_SRC\)/);
    refuses(() => device.createPipelineLayout([], [{ stageFlags: COMPUTE, offset: 0, size: 4096 }]), InvalidArgumentError, /at most maxPushConstantsSize/);
    refuses(() => device.createDescriptorSetLayout([{ binding: 0, descriptorType: 7, stageFlags: COMPUTE }, { binding: 0, descriptorType: 7, stageFlags: COMPUTE }]), InvalidArgumentError, /binding 0 is listed twice/);
    refuses(() => device.createDescriptorPool(0, [{ type: 7, descriptorCount: 1 }]), InvalidArgumentError, /maxSets must be above 0/);
  });

  it('NODE-1: CommandEncoder.end() checks the stream\'s commands as CommandBuffer does (a dispatch with no pipeline), and the buffer keeps its previous recording', async () => {
    const { pd, device } = setup();
    const o = saxpyObjects(pd, device);
    const cb = device.createCommandPool(0).allocateCommandBuffer();
    const encoder = new CommandEncoder(cb, [o.pipeline, o.layout, o.set]);
    encoder.begin().bindPipeline(0).bindDescriptorSet(1, 2).pushConstants(1, COMPUTE, 0, o.params).dispatch(1);
    expect(encoder.end()).toBe(4);
    encoder.begin().dispatch(1);
    refuses(() => encoder.end(), InvalidStateError, /command 0 of the stream: dispatch: no compute pipeline is bound/);
    encoder.begin().bindPipeline(0).pushConstants(1, COMPUTE, 0, o.params).dispatch(1);
    refuses(() => encoder.end(), InvalidStateError, /command 2 of the stream: dispatch: .* no set is bound/);
    // The earlier good recording is still the buffer's: it submits.
    const fence = device.createFence();
    device.queue(0).submit(cb, fence);
    expect(await fence.wait()).toBe(true);
  });
});
