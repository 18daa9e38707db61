// Every public method and getter of the typed Vulkan API's device, its objects, command buffers,
// queues, query pools, events and the command encoder's per-call methods against bad values
// (NODE-1, NODE-2, VK-PROP-1), property-based (fast-check), on the real driver (Mesa lavapipe;
// skipped with the reason where it is missing) through VK_LAYER_KHRONOS_validation:
// - the members are enumerated from the classes' prototypes (less those the source marks
//   @internal): a public member without a case here fails the coverage test;
// - each member with bad values in every argument position (wrong types, NaN, 2^53, bigints,
//   detached, resizable and shared buffers, huge strings, wrong-length arrays, throwing proxies,
//   objects of another device, destroyed objects, objects of a destroyed device): it succeeds or
//   throws an error with a documented code, never a crash;
// - each member on a destroyed receiver, and on a receiver whose device was destroyed: a typed error;
// - random bad calls interleaved with good ones (a SAXPY dispatch, an image clear read back): the
//   good ones give the right bytes every time, and the validation layer reports nothing for the
//   whole run (shown listening by a planted error in the same run).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommandBuffer,
  CommandEncoder,
  CommandPool,
  ComputePipeline,
  DescriptorPool,
  DescriptorSet,
  DescriptorSetLayout,
  Device,
  DeviceMemory,
  EncodedVulkanCommands,
  Fence,
  Format,
  Framebuffer,
  GraphicsPipeline,
  ImageView,
  OwnedImage,
  PipelineLayout,
  QueryPool,
  Queue,
  RenderPass,
  Sampler,
  Semaphore,
  ShaderModule,
  VK_API_VERSION_1_3,
  VulkanBuffer,
  VulkanEvent,
  type Instance,
  type PhysicalDevice,
} from '../../lib/vulkan/index.js';
import { repoRoot } from '../helpers/paths.js';
import { hasValidation, missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { PLANTED_VULKAN_VALIDATION_VUID, plantVulkanValidationError } from '../helpers/planted-validation.js';
import { badValue, documentedCode, refusedCleanly } from './bad-values.js';

const HOST = 0x2 | 0x4;
const COMPUTE = 0x20;
const VERTEX = 0x1;
const STORAGE_BUFFER = 7;
const COMBINED_IMAGE_SAMPLER = 1;
const ELEMENTS = 256;
const SIZE = 8; // the colour image's width and height
const WARNING = 0x100;
const PERFORMANCE = 0x4; // a validation message of this type only advises (a GENERAL layout where an optimal one would be faster)

function spirv(name: string): Uint32Array {
  const bytes = readFileSync(path.join(repoRoot, 'examples/shaders', name));
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Every object the cases use, made on one device. */
function build(pd: PhysicalDevice, device: Device) {
  const memoryFor = (requirements: { size: number | bigint; memoryTypeBits: number }, flags: number) => device.allocateMemory(requirements.size, pd.requireMemoryType(requirements.memoryTypeBits, flags));
  const buffer = (usage: number, size = ELEMENTS * 4) => {
    const b = device.createBuffer({ size, usage });
    b.bindMemory(memoryFor(b.memoryRequirements, HOST));
    return b;
  };
  const image = (format: number, usage: number) => {
    const i = device.createImage({ format: format as Format, extent: { width: SIZE, height: SIZE }, usage });
    i.bindMemory(memoryFor(i.memoryRequirements, 0));
    return i;
  };
  // x, y of SAXPY (storage; y also copied from and to), a readback buffer, vertex / index / indirect data.
  const x = buffer(0x20 | 0x1 | 0x2);
  const y = buffer(0x20 | 0x1 | 0x2);
  const readback = buffer(0x1 | 0x2);
  const geometry = buffer(0x80 | 0x40 | 0x100 | 0x1 | 0x2);
  const spare = device.createBuffer({ size: 64, usage: 0x2 }); // not bound: bindMemory's receiver
  const spareMemory = memoryFor(spare.memoryRequirements, HOST);
  const mapped = device.allocateMemory(256, pd.requireMemoryType(0xffffffff, HOST));
  const color = image(Format.R8G8B8A8_UNORM, 0x1 | 0x2 | 0x4 | 0x10);
  const depth = image(Format.D32_SFLOAT, 0x2 | 0x20);
  const unbound = device.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: SIZE, height: SIZE }, usage: 0x2 });
  const unboundMemory = memoryFor(unbound.memoryRequirements, 0);
  const view = device.createImageView(color);
  const setLayout = device.createDescriptorSetLayout([
    { binding: 0, descriptorType: STORAGE_BUFFER, stageFlags: COMPUTE },
    { binding: 1, descriptorType: STORAGE_BUFFER, stageFlags: COMPUTE },
  ]);
  const imageSetLayout = device.createDescriptorSetLayout([{ binding: 0, descriptorType: COMBINED_IMAGE_SAMPLER, stageFlags: 0x10 }]);
  const descriptors = device.createDescriptorPool(4, [
    { type: STORAGE_BUFFER, descriptorCount: 4 },
    { type: COMBINED_IMAGE_SAMPLER, descriptorCount: 2 },
  ]);
  const set = descriptors.allocateSet(setLayout);
  set.writeBuffers([
    { binding: 0, descriptorType: STORAGE_BUFFER, buffer: x },
    { binding: 1, descriptorType: STORAGE_BUFFER, buffer: y },
  ]);
  const imageSet = descriptors.allocateSet(imageSetLayout);
  const sampler = device.createSampler({ magFilter: 'linear' });
  const layout = device.createPipelineLayout([setLayout], [{ stageFlags: COMPUTE, offset: 0, size: 8 }]);
  const module = device.createShaderModule(spirv('saxpy.spv'));
  const pipeline = device.createComputePipeline({ layout, module });
  const vert = device.createShaderModule(spirv('colored.vert.spv'));
  const frag = device.createShaderModule(spirv('colored.frag.spv'));
  const graphicsLayout = device.createPipelineLayout([], [{ stageFlags: VERTEX, offset: 0, size: 64 }]);
  const vertexInput = {
    bindings: [{ binding: 0, stride: 24 }],
    attributes: [
      { location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 },
      { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 },
    ],
  };
  const graphics = device.createGraphicsPipeline({ layout: graphicsLayout, stages: { vertex: { module: vert }, fragment: { module: frag } }, vertexInput, rendering: { colorFormats: [Format.R8G8B8A8_UNORM] } });
  const renderPass = device.createRenderPass({ attachments: [{ format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'general' }], subpasses: [{ colorAttachments: [{ attachment: 0 }] }] });
  const framebuffer = device.createFramebuffer({ renderPass, attachments: [view], width: SIZE, height: SIZE });
  const occlusion = device.createQueryPool({ queryType: 'occlusion', queryCount: 4 });
  const timestamps = device.createQueryPool({ queryType: 'timestamp', queryCount: 4 });
  const event = device.createEvent();
  const fence = device.createFence();
  const signaled = device.createFence(true); // wait()'s receiver: a bad value may be a valid timeout of 2^64 - 1 ns, which must not wait forever
  const semaphore = device.createSemaphore();
  const commands = device.createCommandPool(0);
  const cb = commands.allocateCommandBuffer(); // the recording the command cases record into
  const submitted = commands.allocateCommandBuffer(); // what submit() is given (an empty recording)
  const encoder = new CommandEncoder(commands.allocateCommandBuffer(), [pipeline, layout, set, x, y, color]);
  return {
    pd, device, x, y, readback, geometry, spare, spareMemory, mapped, color, depth, unbound, unboundMemory, view, setLayout, imageSetLayout, descriptors, set, imageSet, sampler, layout, module,
    pipeline, vert, frag, graphicsLayout, vertexInput, graphics, renderPass, framebuffer, occlusion, timestamps, event, fence, signaled, semaphore, commands, cb, submitted, encoder, queue: device.queue(0),
  };
}
type World = ReturnType<typeof build>;

/** Opens a dynamic rendering with everything a draw needs bound. */
function drawable(w: World): void {
  w.cb.beginRendering({ colorAttachments: [{ view: w.view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] });
  w.cb.bindPipeline(w.graphics).bindVertexBuffers(0, [w.geometry]).bindIndexBuffer(w.geometry, 0, 'uint16').setViewport(0, 0, SIZE, SIZE).setScissor(0, 0, SIZE, SIZE);
  w.cb.pushConstants(w.graphicsLayout, VERTEX, 0, new Float32Array(16));
}

interface Case {
  /** The object the member is read from. */
  readonly receiver: (w: World) => object;
  /** Arguments a correct call takes. */
  readonly args?: (w: World) => unknown[];
  /** What runs instead of `receiver[member](...args)` (pairs that must be closed again, say). */
  readonly call?: (w: World, args: unknown[]) => unknown;
  /** The state the receiver needs before the calls (the command buffer recording, a rendering open). */
  readonly prepare?: (w: World) => void;
  /** Calls that may answer on a destroyed receiver (a getter of what was kept, an idempotent destroy) — with why. */
  readonly answersDestroyed?: string;
  readonly runs?: number;
}

const recording = (w: World) => {
  w.cb.reset().begin();
};
const cbCase = (args: (w: World) => unknown[], more: Partial<Case> = {}): Case => ({ receiver: (w) => w.cb, args, prepare: recording, ...more });
const inRendering = (args: (w: World) => unknown[]): Case =>
  cbCase(args, {
    prepare: (w) => {
      recording(w);
      drawable(w);
    },
  });
const encoding = (w: World) => {
  if (w.encoder.commandBuffer.isRecording || w.encoder.byteLength > 0) refusedCleanly(() => w.encoder.end());
  w.encoder.begin();
};
const encCase = (args: (w: World) => unknown[], more: Partial<Case> = {}): Case => ({ receiver: (w) => w.encoder, args, prepare: encoding, answersDestroyed: 'writes into the encoder\'s own stream; end() refuses the destroyed command buffer', ...more });

/** A fresh object of each class, for destroy() (the world's objects stay). */
const makers: Record<string, (w: World) => { destroy(): void; readonly isDestroyed: boolean }> = {
  Device: (w) => w.pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] }),
  DeviceMemory: (w) => w.device.allocateMemory(64, w.pd.requireMemoryType(0xffffffff, HOST)),
  VulkanBuffer: (w) => w.device.createBuffer({ size: 64, usage: 0x2 }),
  ShaderModule: (w) => w.device.createShaderModule(spirv('saxpy.spv')),
  DescriptorSetLayout: (w) => w.device.createDescriptorSetLayout([]),
  ImageView: (w) => w.device.createImageView(w.color),
  DescriptorSet: (w) => w.descriptors.allocateSet(w.imageSetLayout),
  DescriptorPool: (w) => w.device.createDescriptorPool(1, [{ type: STORAGE_BUFFER, descriptorCount: 1 }]),
  PipelineLayout: (w) => w.device.createPipelineLayout([]),
  ComputePipeline: (w) => w.device.createComputePipeline({ layout: w.layout, module: w.module }),
  Fence: (w) => w.device.createFence(),
  Semaphore: (w) => w.device.createSemaphore(),
  Sampler: (w) => w.device.createSampler(),
  OwnedImage: (w) => w.device.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: 4, height: 4 }, usage: 0x2 }),
  RenderPass: (w) => w.device.createRenderPass({ attachments: [{ format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'general' }], subpasses: [{ colorAttachments: [{ attachment: 0 }] }] }),
  Framebuffer: (w) => w.device.createFramebuffer({ renderPass: w.renderPass, attachments: [w.view], width: SIZE, height: SIZE }),
  GraphicsPipeline: (w) => w.device.createGraphicsPipeline({ layout: w.graphicsLayout, stages: { vertex: { module: w.vert }, fragment: { module: w.frag } }, vertexInput: w.vertexInput, rendering: { colorFormats: [Format.R8G8B8A8_UNORM] } }),
  CommandPool: (w) => w.device.createCommandPool(0),
  CommandBuffer: (w) => w.commands.allocateCommandBuffer(),
  QueryPool: (w) => w.device.createQueryPool({ queryType: 'occlusion', queryCount: 1 }),
  VulkanEvent: (w) => w.device.createEvent(),
};
/** The world's object of each class (the receiver of its isDestroyed). */
const ofWorld: Record<string, (w: World) => object> = {
  Device: (w) => w.device, DeviceMemory: (w) => w.mapped, VulkanBuffer: (w) => w.x, ShaderModule: (w) => w.module, DescriptorSetLayout: (w) => w.setLayout, ImageView: (w) => w.view,
  DescriptorSet: (w) => w.set, DescriptorPool: (w) => w.descriptors, PipelineLayout: (w) => w.layout, ComputePipeline: (w) => w.pipeline, Fence: (w) => w.fence, Semaphore: (w) => w.semaphore,
  Sampler: (w) => w.sampler, OwnedImage: (w) => w.color, RenderPass: (w) => w.renderPass, Framebuffer: (w) => w.framebuffer, GraphicsPipeline: (w) => w.graphics, CommandPool: (w) => w.commands,
  CommandBuffer: (w) => w.cb, QueryPool: (w) => w.occlusion, VulkanEvent: (w) => w.event,
};

const unmapAfter = (w: World, f: () => unknown): unknown => {
  try {
    return f();
  } finally {
    if (!w.mapped.isDestroyed && w.mapped.isMapped) w.mapped.unmap();
  }
};
const barrier = { oldLayout: 'undefined', newLayout: 'general', srcStageMask: 0x1, dstStageMask: 0x1000 };

const cases: Record<string, Case> = {
  'Device.handle': { receiver: (w) => w.device, answersDestroyed: 'the handle it had (docs/usage.md)' },
  'Device.getDeviceProcAddr': { receiver: (w) => w.device, args: () => ['vkCmdDispatch'] },
  'Device.getQueue': { receiver: (w) => w.device, args: () => [0, 0] },
  'Device.queue': { receiver: (w) => w.device, args: () => [0, 0] },
  'Device.createSwapchain': { receiver: (w) => w.device, args: (w) => [w.x, { minImageCount: 2 }] }, // no surface headless: its good calls are test/faults/wsi-properties.test.ts's
  'Device.createBuffer': { receiver: (w) => w.device, args: () => [{ size: 64, usage: 0x20 }] },
  'Device.allocateMemory': { receiver: (w) => w.device, args: (w) => [64, w.pd.requireMemoryType(0xffffffff, HOST)] },
  'Device.createShaderModule': { receiver: (w) => w.device, args: () => [spirv('saxpy.spv')] },
  'Device.createDescriptorSetLayout': { receiver: (w) => w.device, args: () => [[{ binding: 0, descriptorType: STORAGE_BUFFER, stageFlags: COMPUTE }]] },
  'Device.createDescriptorPool': { receiver: (w) => w.device, args: () => [1, [{ type: STORAGE_BUFFER, descriptorCount: 2 }]] },
  'Device.createPipelineLayout': { receiver: (w) => w.device, args: (w) => [[w.setLayout], [{ stageFlags: COMPUTE, offset: 0, size: 8 }]] },
  'Device.createComputePipeline': { receiver: (w) => w.device, args: (w) => [{ layout: w.layout, module: w.module, entryPoint: 'main' }], runs: 40 },
  'Device.createCommandPool': { receiver: (w) => w.device, args: () => [0, 0] },
  'Device.createFence': { receiver: (w) => w.device, args: () => [true] },
  'Device.createImageView': { receiver: (w) => w.device, args: (w) => [w.color, { viewType: '2d', aspect: 'color' }] },
  'Device.createImage': { receiver: (w) => w.device, args: () => [{ format: Format.R8G8B8A8_UNORM, extent: { width: 4, height: 4 }, usage: 0x2 }] },
  'Device.createSampler': { receiver: (w) => w.device, args: () => [{ magFilter: 'linear', minFilter: 'nearest' }] },
  'Device.createRenderPass': { receiver: (w) => w.device, args: () => [{ attachments: [{ format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'general' }], subpasses: [{ colorAttachments: [{ attachment: 0 }] }] }] },
  'Device.createFramebuffer': { receiver: (w) => w.device, args: (w) => [{ renderPass: w.renderPass, attachments: [w.view], width: SIZE, height: SIZE }] },
  'Device.createGraphicsPipeline': { receiver: (w) => w.device, args: (w) => [{ layout: w.graphicsLayout, stages: { vertex: { module: w.vert }, fragment: { module: w.frag } }, vertexInput: w.vertexInput, rendering: { colorFormats: [Format.R8G8B8A8_UNORM] } }], runs: 40 },
  'Device.createSemaphore': { receiver: (w) => w.device },
  'Device.createQueryPool': { receiver: (w) => w.device, args: () => [{ queryType: 'timestamp', queryCount: 2 }] },
  'Device.createEvent': { receiver: (w) => w.device },
  'Device.waitIdle': { receiver: (w) => w.device },

  'DeviceMemory.map': { receiver: (w) => w.mapped, args: () => [0, 64], call: (w, a) => unmapAfter(w, () => w.mapped.map(...(a as [number, number]))) },
  'DeviceMemory.flush': { receiver: (w) => w.mapped, args: () => [0, 64], call: (w, a) => unmapAfter(w, () => (w.mapped.map(), w.mapped.flush(...(a as [number, number])))) },
  'DeviceMemory.invalidate': { receiver: (w) => w.mapped, args: () => [0, 64], call: (w, a) => unmapAfter(w, () => (w.mapped.map(), w.mapped.invalidate(...(a as [number, number])))) },
  'DeviceMemory.isMapped': { receiver: (w) => w.mapped, answersDestroyed: 'false: nothing is mapped' },
  'DeviceMemory.unmap': { receiver: (w) => w.mapped, call: (w) => unmapAfter(w, () => (w.mapped.map(), w.mapped.unmap())) },
  'VulkanBuffer.bindMemory': { receiver: (w) => w.spare, args: (w) => [w.spareMemory, 0] },
  'VulkanBuffer.memory': { receiver: (w) => w.x, answersDestroyed: 'the memory it was bound to (kept)' },
  'ImageView.isDestroyed': { receiver: (w) => w.view, answersDestroyed: 'a getter of the state' },
  'DescriptorSet.writeBuffers': { receiver: (w) => w.set, args: (w) => [[{ binding: 0, descriptorType: STORAGE_BUFFER, buffer: w.x }, { binding: 1, descriptorType: STORAGE_BUFFER, buffer: w.y }]] },
  'DescriptorSet.writeImages': { receiver: (w) => w.imageSet, args: (w) => [[{ binding: 0, descriptorType: COMBINED_IMAGE_SAMPLER, view: w.view, layout: 'general', sampler: w.sampler }]] },
  'DescriptorPool.allocateSet': { receiver: (w) => w.descriptors, args: (w) => [w.imageSetLayout] },
  'Fence.signaled': { receiver: (w) => w.fence },
  'Fence.reset': { receiver: (w) => w.fence },
  'Fence.wait': { receiver: (w) => w.signaled, args: () => [0] },
  'OwnedImage.memory': { receiver: (w) => w.color, answersDestroyed: 'the memory it was bound to (kept)' },
  'OwnedImage.bindMemory': { receiver: (w) => w.unbound, args: (w) => [w.unboundMemory, 0] },
  'CommandPool.allocateCommandBuffer': { receiver: (w) => w.commands },
  'Queue.submit': {
    receiver: (w) => w.queue,
    args: (w) => [w.submitted, w.fence, {}],
    prepare: (w) => {
      if (!w.submitted.isRecording) w.submitted.reset().begin().end();
    },
    call: (w, a) => {
      w.fence.reset();
      try {
        return w.queue.submit(...(a as [CommandBuffer]));
      } finally {
        w.queue.waitIdle();
      }
    },
    runs: 60,
  },
  // The device has no synchronization2: the good call is a typed refusal naming it; the bad values are refused before that.
  'Queue.submit2': {
    receiver: (w) => w.queue,
    args: (w) => [[w.submitted], w.fence, {}],
    prepare: (w) => {
      if (!w.submitted.isRecording) w.submitted.reset().begin().end();
    },
    call: (w, a) => {
      w.fence.reset();
      try {
        return w.queue.submit2(...(a as [CommandBuffer[]]));
      } finally {
        w.queue.waitIdle();
      }
    },
    runs: 60,
  },
  'Queue.waitIdle': { receiver: (w) => w.queue },
  'QueryPool.getResults': { receiver: (w) => w.occlusion, args: () => [0, 1, { wait: false }] },
  'VulkanEvent.signaled': { receiver: (w) => w.event },
  'VulkanEvent.set': { receiver: (w) => w.event },
  'VulkanEvent.reset': { receiver: (w) => w.event },

  'CommandBuffer.isRecording': { receiver: (w) => w.cb, answersDestroyed: 'false: a destroyed buffer records nothing' },
  'CommandBuffer.begin': { receiver: (w) => w.cb, args: () => [0], prepare: (w) => void w.cb.reset(), call: (w, a) => (w.cb.begin(...(a as [number])), w.cb.end(), w.cb.reset()) },
  'CommandBuffer.end': cbCase(() => []),
  'CommandBuffer.reset': { receiver: (w) => w.cb },
  'CommandBuffer.bindPipeline': cbCase((w) => [w.pipeline]),
  'CommandBuffer.bindDescriptorSet': cbCase((w) => [w.layout, w.set, 0, 'compute']),
  'CommandBuffer.pushConstants': cbCase((w) => [w.layout, COMPUTE, 0, new Float32Array(2)]),
  'CommandBuffer.dispatch': cbCase(() => [1, 1, 1], { prepare: (w) => (recording(w), w.cb.bindPipeline(w.pipeline).bindDescriptorSet(w.layout, w.set).pushConstants(w.layout, COMPUTE, 0, new Float32Array(2))) }),
  'CommandBuffer.pipelineBarrier': cbCase(() => [0x800, 0x800, 0x40, 0x20]),
  'CommandBuffer.copyBuffer': cbCase((w) => [w.x, w.y, 64, 0, 0]),
  'CommandBuffer.imageBarrier': cbCase((w) => [w.color, barrier]),
  'CommandBuffer.clearColorImage': cbCase((w) => [w.color, 'general', 0, 0, 0, 1, 0, 1]),
  'CommandBuffer.clearDepthStencilImage': cbCase((w) => [w.depth, 'general', 1, 0, 0, 1]),
  'CommandBuffer.resetQueryPool': cbCase((w) => [w.occlusion, 0, 1]),
  'CommandBuffer.beginQuery': cbCase((w) => [w.occlusion, 0, 0], { call: (w, a) => (w.cb.beginQuery(...(a as [QueryPool, number])), w.cb.endQuery(w.occlusion, 0), w.cb.resetQueryPool(w.occlusion)) }),
  'CommandBuffer.endQuery': cbCase((w) => [w.occlusion, 0], { call: (w, a) => (w.cb.beginQuery(w.occlusion, 0), w.cb.endQuery(...(a as [QueryPool, number])), w.cb.resetQueryPool(w.occlusion)) }),
  'CommandBuffer.writeTimestamp': cbCase((w) => [0x1, w.timestamps, 0], { call: (w, a) => (w.cb.resetQueryPool(w.timestamps), w.cb.writeTimestamp(...(a as [number, QueryPool, number]))) }),
  'CommandBuffer.copyQueryPoolResults': cbCase((w) => [w.occlusion, 0, 1, w.readback, 0, 8, 0x1]),
  'CommandBuffer.setEvent': cbCase((w) => [w.event, 0x1]),
  'CommandBuffer.resetEvent': cbCase((w) => [w.event, 0x1]),
  'CommandBuffer.beginRendering': cbCase((w) => [{ colorAttachments: [{ view: w.view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] }], { call: (w, a) => w.cb.beginRendering(...(a as [never])).endRendering() }),
  'CommandBuffer.endRendering': cbCase(() => [], { call: (w) => w.cb.beginRendering({ colorAttachments: [{ view: w.view, loadOp: 'load', storeOp: 'store' }] }).endRendering() }),
  'CommandBuffer.beginRenderPass': cbCase((w) => [{ renderPass: w.renderPass, framebuffer: w.framebuffer, clearValues: [[0, 0, 0, 1]] }], { call: (w, a) => w.cb.beginRenderPass(...(a as [never])).endRenderPass() }),
  'CommandBuffer.endRenderPass': cbCase(() => [], { call: (w) => w.cb.beginRenderPass({ renderPass: w.renderPass, framebuffer: w.framebuffer, clearValues: [[0, 0, 0, 1]] }).endRenderPass() }),
  'CommandBuffer.bindVertexBuffers': inRendering((w) => [0, [w.geometry], [0]]),
  'CommandBuffer.bindIndexBuffer': inRendering((w) => [w.geometry, 0, 'uint16']),
  'CommandBuffer.setViewport': inRendering(() => [0, 0, SIZE, SIZE, 0, 1]),
  'CommandBuffer.setScissor': inRendering(() => [0, 0, SIZE, SIZE]),
  'CommandBuffer.setViewportWithCount': inRendering(() => [[{ x: 0, y: 0, width: SIZE, height: SIZE, minDepth: 0, maxDepth: 1 }]]),
  'CommandBuffer.setScissorWithCount': inRendering(() => [[{ offset: { x: 0, y: 0 }, extent: { width: SIZE, height: SIZE } }]]),
  // Vulkan 1.4 commands and a 1.4 feature: on a 1.3 driver (lavapipe 22.3) the good call is a typed refusal too.
  'CommandBuffer.pushConstants2': cbCase((w) => [{ layout: w.layout, stageFlags: COMPUTE, offset: 0, values: new Float32Array(2) }]),
  'CommandBuffer.setRenderingAttachmentLocations': inRendering(() => [[0]]),
  'CommandBuffer.blitImage': cbCase((w) => [w.color, 'general', w.color, 'general', [{ srcOffsets: [{ x: 0, y: 0, z: 0 }, { x: SIZE / 2, y: SIZE / 2, z: 1 }], dstOffsets: [{ x: SIZE / 2, y: SIZE / 2, z: 0 }, { x: SIZE, y: SIZE, z: 1 }] }], 'nearest']),
  'CommandBuffer.draw': inRendering(() => [3, 1, 0, 0]),
  'CommandBuffer.drawIndexed': inRendering(() => [3, 1, 0, 0, 0]),
  'CommandBuffer.drawIndirect': inRendering((w) => [w.geometry, 0, 1, 16]),
  'CommandBuffer.drawIndexedIndirect': inRendering((w) => [w.geometry, 0, 1, 20]),
  'CommandBuffer.copyBufferToImage': cbCase((w) => [w.x, w.color, 'general', { bufferOffset: 0 }]),
  'CommandBuffer.copyImageToBuffer': cbCase((w) => [w.color, 'general', w.readback, {}]),

  // Slots: 0 pipeline, 1 layout, 2 set, 3 x, 4 y, 5 color.
  'CommandEncoder.bind': { receiver: (w) => w.encoder, args: (w) => [[w.pipeline, w.layout, w.set, w.x, w.y, w.color]], prepare: (w) => void refusedCleanly(() => w.encoder.end()), answersDestroyed: 'the table is checked, not the command buffer' },
  'CommandEncoder.slot': { receiver: (w) => w.encoder, args: (w) => [w.x], answersDestroyed: 'an index in its own table' },
  'CommandEncoder.kinds': { receiver: (w) => w.encoder, answersDestroyed: 'a copy of its own table' },
  'CommandEncoder.stream': { receiver: (w) => w.encoder, answersDestroyed: 'its own stream' },
  'CommandEncoder.byteLength': { receiver: (w) => w.encoder, answersDestroyed: 'its own stream' },
  'CommandEncoder.commandCount': { receiver: (w) => w.encoder, answersDestroyed: 'its own stream' },
  'CommandEncoder.begin': encCase(() => [0], { call: (w, a) => w.encoder.begin(...(a as [number])) }),
  'CommandEncoder.bindPipeline': encCase(() => [0]),
  'CommandEncoder.bindDescriptorSet': encCase(() => [1, 2, 0]),
  'CommandEncoder.pushConstants': encCase(() => [1, COMPUTE, 0, new Float32Array(2)]),
  'CommandEncoder.dispatch': encCase(() => [1, 1, 1]),
  'CommandEncoder.pipelineBarrier': encCase(() => [0x800, 0x800, 0x40, 0x20]),
  'CommandEncoder.copyBuffer': encCase(() => [3, 4, 64, 0, 0]),
  'CommandEncoder.imageBarrier': encCase(() => [5, barrier]),
  'CommandEncoder.clearColorImage': encCase(() => [5, 'general', 0, 0, 0, 1, 0, 1]),
  'CommandEncoder.writeWords': encCase(() => [new Uint32Array(0)]),
  'CommandEncoder.end': { receiver: (w) => w.encoder, prepare: encoding, call: (w) => (w.encoder.begin(), w.encoder.end()) },
};
// isDestroyed and destroy() of every device object: the inherited members, one case per class.
for (const [name, make] of Object.entries(makers)) {
  cases[`${name}.isDestroyed`] ??= { receiver: ofWorld[name]!, answersDestroyed: 'a getter of the state' };
  // destroy() of a fresh object (the world's stay); extra arguments are ignored.
  cases[`${name}.destroy`] = {
    receiver: ofWorld[name]!,
    args: () => [undefined],
    call: (w) => {
      const made = make(w);
      made.destroy();
      expect(made.isDestroyed).toBe(true);
    },
    answersDestroyed: 'destroy() of a destroyed object does nothing (docs/usage.md)',
  };
}

/** The classes whose public members the cases must cover; the encoder's generated vkCmd* methods are test/faults' encoder fuzz's. */
const CLASSES: readonly { readonly name: string; readonly prototype: object }[] = [
  Device, DeviceMemory, VulkanBuffer, ShaderModule, DescriptorSetLayout, ImageView, DescriptorSet, DescriptorPool, PipelineLayout, ComputePipeline, Fence, Semaphore, Sampler,
  OwnedImage, RenderPass, Framebuffer, GraphicsPipeline, CommandPool, CommandBuffer, Queue, QueryPool, VulkanEvent, CommandEncoder,
];
const SOURCES = ['device', 'device-objects', 'image', 'graphics', 'commands', 'queries', 'command-encoder'].map((f) => path.join(repoRoot, 'lib/vulkan/api', `${f}.ts`));

/** Per class declared in the sources: its members marked @internal (not public API). */
function internalMembers(): Map<string, Set<string>> {
  const classes = new Map<string, Set<string>>();
  for (const file of SOURCES) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    source.forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || node.name === undefined) return;
      const internal = new Set<string>();
      for (const member of node.members) {
        if (member.name === undefined || ts.isPrivateIdentifier(member.name)) continue;
        const doc = member.getFullText().slice(0, member.getStart() - member.getFullStart());
        const hidden = (ts.getCombinedModifierFlags(member as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
        if (/@internal/.test(doc) || hidden) internal.add(member.name.getText());
      }
      classes.set(node.name.text, internal);
    });
  }
  return classes;
}

/** `Class.member` for every public method and getter of CLASSES (inherited ones under the receiving class). */
function publicMembers(): string[] {
  const internal = internalMembers();
  const found: string[] = [];
  for (const cls of CLASSES) {
    const seen = new Set<string>();
    for (let proto = cls.prototype as object | null; proto !== null && proto !== Object.prototype && proto !== EncodedVulkanCommands.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
      const declaring = (proto as { constructor: { name: string } }).constructor.name;
      const hidden = internal.get(declaring);
      if (hidden === undefined) throw new Error(`${cls.name}: ${declaring} is declared outside ${SOURCES.map((s) => path.basename(s)).join(', ')}`);
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name === 'constructor' || hidden.has(name) || seen.has(name)) continue;
        seen.add(name);
        // An overridden member counts once, under the class it is read from.
        found.push(`${cls.name}.${name}`);
      }
    }
  }
  return found;
}

function isGetter(receiver: object, name: string): boolean {
  for (let p: object | null = receiver; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    const d = Object.getOwnPropertyDescriptor(p, name);
    if (d !== undefined) return d.get !== undefined;
  }
  return false;
}

/** Calls the member `key` names (or the case's own call). */
function invoke(w: World, key: string, c: Case, args: unknown[]): unknown {
  if (c.call !== undefined) return c.call(w, args);
  const receiver = c.receiver(w) as Record<string, unknown>;
  const name = key.slice(key.indexOf('.') + 1);
  if (isGetter(receiver, name)) return receiver[name];
  return (receiver[name] as (...a: unknown[]) => unknown).apply(receiver, args);
}

/** The call's outcome: what it returned (a promise awaited), or the error it threw or rejected with. */
async function settle(f: () => unknown): Promise<{ value?: unknown; error?: unknown }> {
  try {
    const value = f();
    return { value: value instanceof Promise ? await value : value };
  } catch (error) {
    return { error };
  }
}

/** A typed error with a documented code, or what the call made destroyed again (the world's objects kept). */
function expectClean(w: World, outcome: { value?: unknown; error?: unknown }, what: string): void {
  if ('error' in outcome && outcome.error !== undefined) {
    refusedCleanly(() => {
      throw outcome.error;
    });
    return;
  }
  const made = outcome.value as { destroy?: () => void } | undefined;
  // The world's objects and the memory bound to them (what the memory getters answer).
  const kept = new Set<unknown>(Object.values(w).flatMap((o) => [o, (o as { memory?: unknown }).memory]));
  if (made !== null && typeof made === 'object' && typeof made.destroy === 'function' && !kept.has(made)) {
    expect(() => made.destroy!(), what).not.toThrow();
  }
}

/**
 * fast-check's options with a report that names the seed and path (to replay a failure with
 * `{ seed, path }`) and cuts the counterexample short: a 1 MiB string would fill the log.
 */
function runs(numRuns: number): fc.Parameters<unknown[]> {
  return {
    numRuns,
    reporter: (details) => {
      if (!details.failed) return;
      const shown = fc.stringify(details.counterexample);
      const cause = details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
      throw new Error(`property failed: seed ${details.seed}, path "${details.counterexamplePath}" (replay with { seed, path }); counterexample ${shown.length > 2000 ? `${shown.slice(0, 2000)}… (${shown.length} characters)` : shown}\n${cause.message}`, { cause });
    },
  };
}

const skip = missingRealDriver();
describe.skipIf(skip !== null)('the typed Vulkan API against bad values on every public member (fast-check, real driver, validation layer)', () => {
  let instance: Instance;
  let main: World;
  let other: World; // another device of the same instance: its objects are foreign to main's
  let gone: World; // its objects destroyed one by one, the device kept
  let orphaned: World; // its device destroyed
  let bad: fc.Arbitrary<unknown>;

  beforeAll(() => {
    instance = realDriverLoader().createInstance({ applicationName: 'api-properties', apiVersion: VK_API_VERSION_1_3, enabledLayerNames: hasValidation() ? ['VK_LAYER_KHRONOS_validation'] : [], enabledExtensionNames: ['VK_EXT_debug_utils'] });
    instance.startDebugMessenger();
    const pd = instance.enumeratePhysicalDevices()[0]!;
    const device = () => pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true } });
    main = build(pd, device());
    other = build(pd, device());
    gone = build(pd, device());
    orphaned = build(pd, device());
    const objects = (w: World) => (Object.values(w) as unknown[]).filter((o): o is { destroy(): void } => typeof o === 'object' && o !== null && typeof (o as { destroy?: unknown }).destroy === 'function' && o !== w.device);
    for (const o of objects(gone).reverse()) refusedCleanly(() => o.destroy());
    orphaned.device.destroy();
    // Objects of another device, destroyed ones, ones of a destroyed device, and main's own in the wrong place.
    const handles = [...objects(other), ...objects(gone), ...objects(orphaned), other.device, orphaned.device, ...objects(main).slice(0, 12)];
    bad = fc.oneof({ arbitrary: badValue, weight: 3 }, { arbitrary: fc.constantFrom(...handles), weight: 1 }, { arbitrary: fc.constantFrom('x'.repeat(1 << 20), 'vkCmd'.repeat(1 << 18), [], [undefined], new Array(70000).fill(0)), weight: 1 });
  });
  afterAll(() => instance?.destroy());
  /** The messages since the last call that report misuse: warnings and errors, but performance advice. */
  const problems = () => instance.takeDebugMessages().filter((m) => m.severity >= WARNING && m.types !== PERFORMANCE);

  it('VK-PROP-1: every public method and getter of the typed device-level classes has a case here (enumerated from their prototypes, less @internal)', () => {
    const members = publicMembers();
    expect(members.length).toBeGreaterThan(100);
    expect(members.filter((m) => !(m in cases)), 'public members without a case').toEqual([]);
    expect(Object.keys(cases).filter((k) => !members.includes(k)), 'cases of no public member').toEqual([]);
  });

  it('NODE-1, NODE-2, VK-PROP-1: each member with bad values in every argument position: it succeeds or throws a documented code, never a crash; validation reports nothing', async () => {
    // Found by this test: a size above its memory type's heap reached vkAllocateMemory
    // (VUID-vkAllocateMemory-pAllocateInfo-01713; lavapipe answered VK_ERROR_OUT_OF_DEVICE_MEMORY).
    const type = main.pd.requireMemoryType(0xffffffff, HOST);
    for (const size of [0xffff_ffff_ffff_ffffn, 2 ** 50]) expect(() => main.device.allocateMemory(size, type), `allocateMemory(${size})`).toThrow(/at most the \d+ bytes of memory type \d+'s heap/);
    const before = problems();
    expect(before).toEqual([]);
    for (const [key, c] of Object.entries(cases)) {
      const good = c.args?.(main) ?? [];
      const width = Math.max(1, good.length);
      c.prepare?.(main);
      await fc.assert(
        fc.asyncProperty(fc.array(bad, { minLength: width, maxLength: width }), fc.nat(width - 1), async (values, at) => {
          const mixed = [...good];
          mixed[at] = values[at];
          for (const args of [values, mixed]) expectClean(main, await settle(() => invoke(main, key, c, args)), key);
        }),
        runs(c.runs ?? 25),
      );
      const reported = problems();
      expect(reported.map((m) => `${m.messageIdName}: ${m.message}`), `validation after ${key}`).toEqual([]);
    }
  }, 300_000);

  it('NODE-1, VK-PROP-1: what the bad values found reaches no driver: a barrier stage mask 0 or an access no stage of its mask supports (per call and encoded), an image whose memory was destroyed in createImageView() and createFramebuffer(), a null-prototype table slot', () => {
    const own = build(main.pd, main.device);
    own.cb.reset().begin();
    for (const masks of [[0x800, 0x800, 0x8000_0000, 0x20], [0x80000, 0x800, 0, 0], [0x800, 0, 0x40, 0], [0, 0x800, 0, 0x20], [0x1, 0x800, 0x40, 0x20], [0x800, 0x2000, 0x40, 0x20], [0x1000, 0x800, 0x4000, 0x20]] as const) {
      expect(() => own.cb.pipelineBarrier(...(masks as unknown as [number, number, number, number])), `pipelineBarrier(${masks.join(', ')})`).toThrow(/must not be 0 without the synchronization2 feature|is not supported by any stage of|must name Vulkan 1.0 stages/);
      own.encoder.begin().pipelineBarrier(...(masks as unknown as [number, number, number, number]));
      expect(() => own.encoder.end(), `encoded pipelineBarrier(${masks.join(', ')})`).toThrow(/must not be 0 without the synchronization2 feature|is not supported by any stage of|must name Vulkan 1.0 stages/);
    }
    // What a stage supports, ALL_GRAPHICS standing for the graphics stages, ALL_COMMANDS for every one.
    for (const masks of [[0x800, 0x800, 0x40, 0x20], [0x1000, 0x4000, 0x1000, 0x2000], [0x10000, 0x10000, 0x1ffff, 0x1ffff], [0x8000, 0x1, 0x100, 0], [0x1, 0x2000, 0x8000, 0x10000]] as const) {
      expect(own.cb.pipelineBarrier(...(masks as unknown as [number, number, number, number]))).toBe(own.cb);
      own.encoder.begin().pipelineBarrier(...(masks as unknown as [number, number, number, number]));
      expect(own.encoder.end()).toBe(1);
    }
    // Viewports past maxViewportDimensions or viewportBoundsRange (2^31 wide; a y that is -inf as a 32-bit float).
    const { maxViewportDimensions: dims, viewportBoundsRange: bounds } = main.device.limits;
    for (const v of [[0, 0, 2 ** 31, 8], [0, -Number.MAX_VALUE, 8, 8], [0, 0, 8, -(dims[1] + 1)], [bounds[0] - 1, 0, 8, 8], [bounds[1] - 4, 0, 8, 8], [0, bounds[1] - 4, 8, 8], [0, bounds[0] + 4, 8, -8]] as const) {
      expect(() => own.cb.setViewport(...(v as unknown as [number, number, number, number])), `setViewport(${v.join(', ')})`).toThrow(/setViewport: (width and \|height\| must be at most|x, x \+ width, y and y \+ height must lie in)/);
    }
    expect(own.cb.setViewport(bounds[0], bounds[1], dims[0] / 2, -dims[1] / 2)).toBe(own.cb);
    own.cb.end();
    own.color.memory!.destroy();
    expect(() => own.device.createImageView(own.color)).toThrow(/createImageView: image: the image's memory was destroyed/);
    expect(() => own.device.createFramebuffer({ renderPass: own.renderPass, attachments: [own.view], width: SIZE, height: SIZE })).toThrow(/the image's memory was destroyed/);
    own.encoder.begin();
    expect(() => own.encoder.copyBuffer(Object.create(null) as never, 4, 64)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
    expect(() => own.encoder.bindPipeline(Object.create(null) as never)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
    expect(() => own.encoder.end()).not.toThrow();
    // A sparse table: its hole is refused at bind(), not found undefined at end().
    // eslint-disable-next-line no-sparse-arrays
    expect(() => own.encoder.bind([own.pipeline, , own.x] as never)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
    const reported = problems();
    expect(reported.map((m) => `${m.messageIdName}: ${m.message}`)).toEqual([]);
  });

  it('NODE-1, VK-PROP-1: each member on a destroyed receiver, and on one whose device was destroyed: a documented typed error', async () => {
    for (const [label, w] of [['destroyed', gone], ['device destroyed', orphaned]] as const) {
      const answered: string[] = [];
      for (const [key, c] of Object.entries(cases)) {
        // gone's device and queue are alive (a queue is never destroyed but with its device).
        if (w === gone && (key.startsWith('Device.') || key.startsWith('Queue.'))) continue;
        const outcome = await settle(() => invoke(w, key, c, c.args?.(w) ?? []));
        if (outcome.error === undefined) {
          if (c.answersDestroyed === undefined) answered.push(key);
          continue;
        }
        expect(documentedCode((outcome.error as { code?: unknown }).code), `${label} ${key}: ${String(outcome.error)}`).toBe(true);
      }
      expect(answered, `${label}: answered without an error`).toEqual([]);
    }
  });

  it('VK-PROP-1: random bad calls interleaved with good ones: every SAXPY dispatch (per call and encoded) and image clear reads back as the model computes; validation reports nothing (and reports a planted error)', async () => {
    // The good calls' own objects on main's device (none of them among the bad values).
    const g = build(main.pd, main.device);
    const keys = Object.keys(cases);
    type Op = { op: 'bad'; key: string; values: unknown[]; at: number } | { op: 'saxpy'; a: number; seed: number; encoded: boolean } | { op: 'clear'; rgba: [number, number, number, number] };
    const byte = fc.integer({ min: 0, max: 255 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.record({ op: fc.constant('bad' as const), key: fc.constantFrom(...keys), values: fc.array(bad, { minLength: 8, maxLength: 8 }), at: fc.nat(7) }), weight: 4 },
      { arbitrary: fc.record({ op: fc.constant('saxpy' as const), a: fc.integer({ min: -64, max: 64 }).map((n) => n / 4), seed: fc.nat(1000), encoded: fc.boolean() }), weight: 1 },
      { arbitrary: fc.record({ op: fc.constant('clear' as const), rgba: fc.tuple(byte, byte, byte, byte) }), weight: 1 },
    );
    const xs = new Float32Array(g.x.memory!.map());
    const ys = new Float32Array(g.y.memory!.map());
    const pixels = new Uint8Array(g.readback.memory!.map());
    const cb = g.commands.allocateCommandBuffer();
    const submit = async (buffer: CommandBuffer): Promise<void> => {
      g.fence.reset();
      g.queue.submit(buffer, g.fence);
      expect(await g.fence.wait()).toBe(true);
    };
    const toHost = [0x800, 0x4000, 0x40, 0x2000] as const; // compute shader → host, shader write → host read
    let good = 0;
    const silent = (what: string) => {
      const reported = problems();
      expect(reported.map((m) => `${m.messageIdName}: ${m.message}`), what).toEqual([]);
    };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 16 }), async (ops) => {
        for (const o of ops) {
          if (o.op === 'bad') {
            const c = cases[o.key]!;
            const good = c.args?.(main) ?? [];
            const mixed = [...good];
            if (good.length > 0) mixed[o.at % good.length] = o.values[o.at % good.length];
            refusedCleanly(() => c.prepare?.(main));
            for (const args of [o.values.slice(0, Math.max(1, good.length)), mixed]) expectClean(main, await settle(() => invoke(main, o.key, c, args)), o.key);
            continue;
          }
          silent('validation before a good call');
          if (o.op === 'saxpy') {
            // The model: y[i] = a * x[i] + y[i] in float32 (a is a multiple of 1/4 and x, y of 1/8: exact).
            for (let i = 0; i < ELEMENTS; i++) {
              xs[i] = ((i * 7 + o.seed) % 61) / 8 - 3;
              ys[i] = ((i * 13 + o.seed) % 37) / 8;
            }
            const want = Float32Array.from(xs, (x, i) => o.a * x + ys[i]!);
            const params = new Float32Array([o.a, 0]);
            new Uint32Array(params.buffer)[1] = ELEMENTS;
            if (o.encoded) {
              // Slots: 0 pipeline, 1 layout, 2 set.
              g.encoder.begin(1).bindPipeline(0).bindDescriptorSet(1, 2, 0).pushConstants(1, COMPUTE, 0, params).dispatch(1).pipelineBarrier(...toHost);
              expect(g.encoder.end()).toBe(5);
              await submit(g.encoder.commandBuffer);
            } else {
              cb.reset().begin(1).bindPipeline(g.pipeline).bindDescriptorSet(g.layout, g.set).pushConstants(g.layout, COMPUTE, 0, params).dispatch(1).pipelineBarrier(...toHost).end();
              await submit(cb);
            }
            expect(ys, `saxpy a=${o.a} seed=${o.seed}${o.encoded ? ' (encoded)' : ''}`).toEqual(want);
          } else {
            pixels.fill(0xee);
            const [r, gr, b, a] = o.rgba.map((v) => v / 255) as [number, number, number, number];
            cb.reset()
              .begin(1)
              .imageBarrier(g.color, { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: 0x1, dstStageMask: 0x1000, dstAccessMask: 0x1000 })
              .clearColorImage(g.color, 'transfer-dst-optimal', r, gr, b, a)
              .imageBarrier(g.color, { oldLayout: 'transfer-dst-optimal', newLayout: 'transfer-src-optimal', srcStageMask: 0x1000, dstStageMask: 0x1000, srcAccessMask: 0x1000, dstAccessMask: 0x800 })
              .copyImageToBuffer(g.color, 'transfer-src-optimal', g.readback)
              .pipelineBarrier(0x1000, 0x4000, 0x1000, 0x2000)
              .end();
            await submit(cb);
            const want = new Uint8Array(SIZE * SIZE * 4);
            for (let p = 0; p < SIZE * SIZE; p++) want.set(o.rgba, p * 4);
            expect(pixels.subarray(0, want.length), `clear to ${o.rgba.join(',')}`).toEqual(want);
          }
          silent(`validation after a good ${o.op}`);
          good++;
        }
      }),
      runs(12),
    );
    expect(good).toBeGreaterThan(0);
    silent('validation after the run');
    if (hasValidation()) {
      // The layer listened: a misuse the typed API cannot make, planted through the raw bindings, is reported.
      const planted = realDriverLoader().createInstance({ applicationName: 'api-properties-planted', apiVersion: VK_API_VERSION_1_3, enabledLayerNames: ['VK_LAYER_KHRONOS_validation'], enabledExtensionNames: ['VK_EXT_debug_utils'] });
      expect(plantVulkanValidationError(planted)).toContain(PLANTED_VULKAN_VALIDATION_VUID);
    }
  }, 300_000);
});
