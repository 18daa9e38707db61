// Query pools and events in the typed API and through the command encoder's opcodes, on the real
// driver (Mesa lavapipe, or the one KHRONOS_LOADER_VK_DRIVER_JSON names) with
// VK_LAYER_KHRONOS_validation where it is installed: occlusion counts and timestamps read back
// through both recordings, and the query rules checked before any Vulkan call.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, Format, VK_API_VERSION_1_3, type CommandBuffer, type EncodableObject, type Image, type Instance } from '../../lib/vulkan/index.js';
import { hasValidation, missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { expectEndRefused } from '../helpers/encoder-end.js';
import { repoRoot } from '../helpers/paths.js';

const skip = missingRealDriver();
const WARNING = 0x100;
const HOST = 0x2 | 0x4;
const W = 32;
const TOP = 0x1;
const BOTTOM = 0x2000;
const RESULT_64_WAIT = 0x1 | 0x2;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function scene() {
  const instance = realDriverLoader().createInstance({ applicationName: 'kl-encoder-queries-test', apiVersion: VK_API_VERSION_1_3, enabledLayerNames: hasValidation() ? ['VK_LAYER_KHRONOS_validation'] : [], enabledExtensionNames: ['VK_EXT_debug_utils'] });
  open.push(instance);
  instance.startDebugMessenger();
  const pd = instance.enumeratePhysicalDevices()[0]!;
  const dev = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true } });
  const spirv = (name: string) => {
    const bytes = readFileSync(path.join(repoRoot, 'examples/shaders', name));
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  };
  const host = (usage: number, bytes: number) => {
    const b = dev.createBuffer({ size: bytes, usage });
    b.bindMemory(dev.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
    return b;
  };
  // One red triangle over the top-left half of the image.
  const vertices = new Float32Array([-1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 0, 0, -1, 1, 0, 1, 0, 0]);
  const vb = host(0x80, vertices.byteLength);
  new Float32Array(vb.memory!.map()).set(vertices);
  const image = dev.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: W, height: W }, usage: 0x10 });
  image.bindMemory(dev.allocateMemory(image.memoryRequirements.size, pd.requireMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
  const view = dev.createImageView(image);
  const layout = dev.createPipelineLayout([], [{ stageFlags: 0x1, offset: 0, size: 64 }]);
  const pipeline = dev.createGraphicsPipeline({
    layout,
    stages: { vertex: { module: dev.createShaderModule(spirv('colored.vert.spv')) }, fragment: { module: dev.createShaderModule(spirv('colored.frag.spv')) } },
    vertexInput: { bindings: [{ binding: 0, stride: 24 }], attributes: [{ location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 }, { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 }] },
    topology: 'triangle-list',
    rasterization: { cullMode: 'none', frontFace: 'counter-clockwise' },
    rendering: { colorFormats: [Format.R8G8B8A8_UNORM] },
  });
  const occlusion = dev.createQueryPool({ queryType: 'occlusion', queryCount: 2 });
  const timestamps = dev.createQueryPool({ queryType: 'timestamp', queryCount: 2 });
  const results = host(0x2, 64);
  const event = dev.createEvent();
  const pool = dev.createCommandPool(0);
  const fence = dev.createFence();
  const submit = async (cb: CommandBuffer) => {
    fence.reset();
    dev.queue(0).submit(cb, fence);
    expect(await fence.wait()).toBe(true);
  };
  return { instance, dev, vb, image, view, layout, pipeline, occlusion, timestamps, results, resultWords: new BigUint64Array(results.memory!.map()), event, pool, submit };
}

const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const toAttachment = { oldLayout: 'undefined', newLayout: 'color-attachment-optimal', srcStageMask: 0x1, dstStageMask: 0x400, srcAccessMask: 0, dstAccessMask: 0x100 } as const;

describe.skipIf(skip !== null)('query pools and events through the typed API and the encoder on the real driver', () => {
  it('(VK-CE-11) occlusion counts, timestamps, vkCmdCopyQueryPoolResults and vkCmdSetEvent recorded per call and through the encoder read back the same; validation silent', async () => {
    const s = scene();
    // Per call.
    const cb = s.pool.allocateCommandBuffer().begin(1);
    cb.resetQueryPool(s.occlusion).resetQueryPool(s.timestamps).writeTimestamp(TOP, s.timestamps, 0);
    cb.imageBarrier(s.image, toAttachment);
    cb.beginRendering({ colorAttachments: [{ view: s.view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] }).bindPipeline(s.pipeline).setViewport(0, 0, W, W).setScissor(0, 0, W, W).pushConstants(s.layout, 0x1, 0, identity).bindVertexBuffers(0, [s.vb]);
    cb.beginQuery(s.occlusion, 0).draw(3).endQuery(s.occlusion, 0).beginQuery(s.occlusion, 1).endQuery(s.occlusion, 1).endRendering();
    cb.writeTimestamp(BOTTOM, s.timestamps, 1).copyQueryPoolResults(s.occlusion, 0, 2, s.results, 0, 8, RESULT_64_WAIT).setEvent(s.event, BOTTOM).end();
    expect(s.event.signaled).toBe(false);
    await s.submit(cb);
    const occluded = s.occlusion.getResults(0, 2, { wait: true })!;
    const times = s.timestamps.getResults(0, 2, { wait: true })!;
    expect(occluded[0]).toBeGreaterThan(0n); // the triangle's samples passed
    expect(occluded[1]).toBe(0n); // no draw in the second query
    expect(times[1]).toBeGreaterThanOrEqual(times[0]!);
    expect([...s.resultWords.subarray(0, 2)]).toEqual([...occluded]);
    expect(s.event.signaled).toBe(true);

    // Through the encoder.
    s.event.reset();
    s.resultWords.fill(0n);
    const table: EncodableObject[] = [s.image as Image, s.view, s.pipeline, s.layout, s.vb, s.occlusion, s.timestamps, s.results, s.event];
    const [IMG, VIEW, PIPE, LAYOUT, VB, OCC, TS, RES, EV] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const encoder = new CommandEncoder(s.pool.allocateCommandBuffer(), table);
    const attachment = { imageView: VIEW, imageLayout: 2, resolveMode: 0, resolveImageView: null, resolveImageLayout: 0, loadOp: 1, storeOp: 0, clearValue: { color: { float32: [0, 0, 0, 1] } } };
    const rendering = { flags: 0, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W, height: W } }, layerCount: 1, viewMask: 0, colorAttachmentCount: 1, pColorAttachments: [attachment], pDepthAttachment: null, pStencilAttachment: null };
    encoder.begin(1).vkCmdResetQueryPool(OCC, 0, 2).vkCmdResetQueryPool(TS, 0, 2).vkCmdWriteTimestamp(TOP, TS, 0).imageBarrier(IMG, toAttachment);
    encoder.vkCmdBeginRendering(rendering).vkCmdBindPipeline(0, PIPE).vkCmdSetViewport(0, 1, [{ x: 0, y: 0, width: W, height: W, minDepth: 0, maxDepth: 1 }]).vkCmdSetScissor(0, 1, [{ offset: { x: 0, y: 0 }, extent: { width: W, height: W } }]);
    encoder.vkCmdPushConstants(LAYOUT, 0x1, 0, 64, identity).vkCmdBindVertexBuffers(0, 1, [VB], [0]);
    encoder.vkCmdBeginQuery(OCC, 0, 0).vkCmdDraw(3, 1, 0, 0).vkCmdEndQuery(OCC, 0).vkCmdBeginQuery(OCC, 1, 0).vkCmdEndQuery(OCC, 1).vkCmdEndRendering();
    encoder.vkCmdWriteTimestamp(BOTTOM, TS, 1).vkCmdCopyQueryPoolResults(OCC, 0, 2, RES, 0, 8, RESULT_64_WAIT).vkCmdSetEvent(EV, BOTTOM);
    expect(encoder.end()).toBe(19);
    expect(s.event.signaled).toBe(false);
    await s.submit(encoder.commandBuffer);
    const encodedOcclusion = s.occlusion.getResults(0, 2, { wait: true })!;
    const encodedTimes = s.timestamps.getResults(0, 2, { wait: true })!;
    expect([...encodedOcclusion]).toEqual([...occluded]);
    expect(encodedTimes[1]).toBeGreaterThanOrEqual(encodedTimes[0]!);
    expect(encodedTimes[0]).toBeGreaterThan(times[1]!); // written by this later submission
    expect([...s.resultWords.subarray(0, 2)]).toEqual([...occluded]);
    expect(s.event.signaled).toBe(true);
    const warnings = s.instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => `${m.messageIdName}: ${m.message}`);
    expect(warnings).toEqual([]);
  });

  it('(VK-CE-11) the query and event rules, per call and at end(), before any Vulkan call: a query of the wrong pool type, out of range, ended without its begin or left active, a copy past its buffer, a host stage for an event, a synchronization2 form; query pools and events go with their device', () => {
    const s = scene();
    const cb = s.pool.allocateCommandBuffer().begin();
    expect(() => cb.beginQuery(s.timestamps, 0)).toThrow(/beginQuery: queryPool is a pool of timestamp queries/);
    expect(() => cb.beginQuery(s.occlusion, 2)).toThrow(/queries \[2, 3\) must lie inside the pool's 2/);
    expect(() => cb.endQuery(s.occlusion, 0)).toThrow(InvalidStateError);
    expect(() => cb.writeTimestamp(TOP, s.occlusion, 0)).toThrow(/queryPool must be a pool of timestamp queries/);
    expect(() => cb.writeTimestamp(TOP | BOTTOM, s.timestamps, 0)).toThrow(/pipelineStage must be one VkPipelineStageFlagBits/);
    expect(() => cb.copyQueryPoolResults(s.occlusion, 0, 2, s.results, 56, 8, 0x1)).toThrow(/go past the buffer's size 64/);
    expect(() => cb.setEvent(s.event, 0x4000)).toThrow(InvalidArgumentError);
    cb.resetQueryPool(s.occlusion).beginQuery(s.occlusion, 0);
    expect(() => cb.beginQuery(s.occlusion, 1)).toThrow(/occlusion query 0 is active/);
    expect(() => cb.resetQueryPool(s.occlusion)).toThrow(/query 0 of the pool is active/);
    expect(() => cb.end()).toThrow(/end: occlusion query 0 is still active/);
    cb.endQuery(s.occlusion, 0).end();

    const encoder = new CommandEncoder(s.pool.allocateCommandBuffer(), [s.occlusion, s.timestamps, s.results, s.event]);
    const refused = (record: (e: CommandEncoder) => unknown, error: Function, message: RegExp): void => expectEndRefused(encoder, record, error, message);
    refused((e) => e.vkCmdBeginQuery(1, 0, 0), InvalidArgumentError, /vkCmdBeginQuery: queryPool is a pool of timestamp queries/);
    refused((e) => e.vkCmdBeginQuery(0, 0, 1).vkCmdEndQuery(0, 0), InvalidArgumentError, /flags must be 0/);
    refused((e) => e.vkCmdEndQuery(0, 1), InvalidStateError, /vkCmdEndQuery: query 1 of the pool is not active/);
    refused((e) => e.vkCmdBeginQuery(0, 0, 0), InvalidStateError, /CommandEncoder.end: occlusion query 0 is still active/);
    refused((e) => e.vkCmdResetQueryPool(0, 1, 2), InvalidArgumentError, /vkCmdResetQueryPool: queries \[1, 3\) must lie inside the pool's 2/);
    refused((e) => e.vkCmdWriteTimestamp(TOP, 0, 0), InvalidArgumentError, /queryPool must be a pool of timestamp queries/);
    refused((e) => e.vkCmdCopyQueryPoolResults(0, 0, 2, 2, 4, 8, 0x1), InvalidArgumentError, /dstOffset 4 and stride 8 must be multiples of 8/);
    refused((e) => e.vkCmdSetEvent(3, 0x4000), InvalidArgumentError, /vkCmdSetEvent: stageMask must name Vulkan 1.0 pipeline stages other than HOST/);
    refused((e) => e.vkCmdWriteTimestamp2(1n, 1, 0), InvalidStateError, /vkCmdWriteTimestamp2: needs the synchronization2 feature, and the device was created without it/);
    refused((e) => e.vkCmdWaitEvents(1, [3], TOP, 0, 0, null, 0, null, 0, null), InvalidArgumentError, /srcStageMask and dstStageMask must name pipeline stages/);
    expect(encoder.begin().vkCmdSetEvent(3, BOTTOM).vkCmdWaitEvents(1, [3], BOTTOM, TOP, 0, null, 0, null, 0, null).vkCmdResetEvent(3, BOTTOM).end()).toBe(3);
    // Destroyed with the device; used after that is refused.
    s.dev.destroy();
    expect(s.occlusion.isDestroyed).toBe(true);
    expect(s.event.isDestroyed).toBe(true);
    expect(() => s.occlusion.getResults()).toThrow(/VkQueryPool/);
    expect(() => s.event.signaled).toThrow(/VkEvent/);
  });
});
