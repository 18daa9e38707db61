// The command encoder's generated opcodes (lib/generated/vulkan-encoder.ts, one per core vkCmd*
// whose arguments are stream words) on the real driver (Mesa lavapipe, or the one
// KHRONOS_LOADER_VK_DRIVER_JSON names), with VK_LAYER_KHRONOS_validation in the chain where it is
// installed: they record what the typed methods record, the registry's checks refuse a malformed
// command natively before any Vulkan call, and the typed methods' state checks hold for them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saxpySpirv } from '../../examples/compute.js';
import { createSaxpyObjects } from '../../lib/tools/bench/vulkan-record.js';
import { ENCODED_COMMANDS } from '../../lib/generated/vulkan-encoder.js';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import { CommandEncoder, CommandStreamError, VK_API_VERSION_1_1, VK_API_VERSION_1_3, type CommandBuffer, type Device, type Instance, type PhysicalDevice } from '../../lib/vulkan/index.js';
import { hasValidation, missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { repoRoot } from '../helpers/paths.js';
import { Format, type EncodableObject, type Image } from '../../lib/vulkan/index.js';

const skip = missingRealDriver();
const WARNING = 0x100;
const HOST_VISIBLE_COHERENT = 0x2 | 0x4;
const TRANSFER = 0x1 | 0x2;
const STAGE_COMPUTE = 0x20;
const PIPELINE_STAGE_COMPUTE = 0x800;
const PIPELINE_STAGE_TRANSFER = 0x1000;
const ACCESS_SHADER_READ = 0x20;
const ACCESS_SHADER_WRITE = 0x40;
const ACCESS_TRANSFER_READ = 0x800;
const BIND_POINT_GRAPHICS = 0;
const BIND_POINT_COMPUTE = 1;
const N = 1024;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function device(apiVersion: number): { instance: Instance; pd: PhysicalDevice; device: Device } {
  const instance = realDriverLoader().createInstance({
    applicationName: 'kl-encoder-generated-test',
    apiVersion,
    enabledLayerNames: hasValidation() ? ['VK_LAYER_KHRONOS_validation'] : [],
    enabledExtensionNames: ['VK_EXT_debug_utils'],
  });
  open.push(instance);
  instance.startDebugMessenger();
  const pd = instance.enumeratePhysicalDevices()[0]!;
  return { instance, pd, device: pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] }) };
}

function saxpy(pd: PhysicalDevice, dev: Device) {
  const { x, y, set, layout, pipeline } = createSaxpyObjects(pd, dev, { spirv: saxpySpirv(), elements: N, memoryFlags: HOST_VISIBLE_COHERENT, usage: TRANSFER });
  const z = dev.createBuffer({ size: N * 4, usage: TRANSFER });
  z.bindMemory(dev.allocateMemory(z.memoryRequirements.size, pd.findMemoryType(z.memoryRequirements.memoryTypeBits, HOST_VISIBLE_COHERENT)));
  const views = { x: new Float32Array(x.memory!.map()), y: new Float32Array(y.memory!.map()), z: new Uint32Array(z.memory!.map()) };
  const reset = () => {
    for (let i = 0; i < N; i++) {
      views.x[i] = Math.cos(i) * 2.5;
      views.y[i] = (i % 31) / 3;
    }
    views.z.fill(0);
  };
  return { x, y, z, set, layout, pipeline, views, reset };
}

const PUSH = new Uint32Array([0x3fc0_0000, N]); // a = 1.5f, n

const opcodeOf = (name: string): number => ENCODED_COMMANDS.find((c) => c.name === name)!.opcode;
const header = (name: string, words?: number): number => (opcodeOf(name) | ((words ?? ENCODED_COMMANDS.find((c) => c.name === name)!.words) << 16)) >>> 0;

describe.skipIf(skip !== null)('the encoder\'s generated opcodes on the real driver', () => {
  it('(VK-CE-2) generated vkCmdBindPipeline and vkCmdDispatch compute the same bytes as the typed per-call recording; vkCmdFillBuffer fills exactly its range; validation reports nothing', async () => {
    const { instance, pd, device: dev } = device(VK_API_VERSION_1_1);
    const s = saxpy(pd, dev);
    const pool = dev.createCommandPool(0);
    const queue = dev.queue(0);
    const fence = dev.createFence();
    const run = async (cb: CommandBuffer): Promise<Uint32Array> => {
      s.reset();
      fence.reset();
      queue.submit(cb, fence);
      expect(await fence.wait()).toBe(true);
      return new Uint32Array(s.views.z);
    };
    const perCall = pool.allocateCommandBuffer().begin(1);
    for (let k = 0; k < 3; k++) {
      perCall.bindPipeline(s.pipeline).bindDescriptorSet(s.layout, s.set).pushConstants(s.layout, STAGE_COMPUTE, 0, PUSH).dispatch(N / 256);
      perCall.pipelineBarrier(PIPELINE_STAGE_COMPUTE, PIPELINE_STAGE_COMPUTE, ACCESS_SHADER_WRITE, ACCESS_SHADER_READ | ACCESS_SHADER_WRITE);
    }
    perCall.pipelineBarrier(PIPELINE_STAGE_COMPUTE, PIPELINE_STAGE_TRANSFER, ACCESS_SHADER_WRITE, ACCESS_TRANSFER_READ).copyBuffer(s.y, s.z, N * 4).end();
    const expected = await run(perCall);

    const encoder = new CommandEncoder(pool.allocateCommandBuffer(), [s.pipeline, s.layout, s.set, s.y, s.z]);
    encoder.begin(1);
    for (let k = 0; k < 3; k++) {
      encoder.vkCmdBindPipeline(BIND_POINT_COMPUTE, 0).bindDescriptorSet(1, 2).pushConstants(1, STAGE_COMPUTE, 0, PUSH).vkCmdDispatch(N / 256, 1, 1);
      encoder.pipelineBarrier(PIPELINE_STAGE_COMPUTE, PIPELINE_STAGE_COMPUTE, ACCESS_SHADER_WRITE, ACCESS_SHADER_READ | ACCESS_SHADER_WRITE);
    }
    encoder.pipelineBarrier(PIPELINE_STAGE_COMPUTE, PIPELINE_STAGE_TRANSFER, ACCESS_SHADER_WRITE, ACCESS_TRANSFER_READ).copyBuffer(3, 4, N * 4);
    expect(encoder.end()).toBe(3 * 5 + 2);
    const encoded = await run(encoder.commandBuffer);
    const input = new Float32Array(N);
    for (let i = 0; i < N; i++) input[i] = (i % 31) / 3;
    const inputBits = new Uint32Array(input.buffer);
    expect(expected.filter((v, i) => v !== inputBits[i]).length).toBeGreaterThan(N / 2); // the dispatches ran
    expect(Buffer.from(encoded.buffer).equals(Buffer.from(expected.buffer))).toBe(true);

    // vkCmdFillBuffer: 64 bytes from byte 16 (a bigint size too), the rest untouched.
    encoder.begin(1).vkCmdFillBuffer(4, 16, 64n, 0xdead_beef).end();
    const filled = await run(encoder.commandBuffer);
    expect([...filled.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
    expect([...filled.subarray(4, 20)]).toEqual(new Array(16).fill(0xdead_beef));
    expect(filled.subarray(20).every((v) => v === 0)).toBe(true);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it('(VK-CE-3) the registry\'s checks refuse a generated command natively before any Vulkan call: an enum value outside its type, a VkBool32 other than 0 or 1, a slot of another kind or past the table, a length not the opcode\'s, a command recorded only inside a render pass; the typed methods refuse the same with TypeError naming the argument', async () => {
    const { instance, pd, device: dev } = device(VK_API_VERSION_1_3);
    const s = saxpy(pd, dev);
    const encoder = new CommandEncoder(dev.createCommandPool(0).allocateCommandBuffer(), [s.pipeline, s.layout, s.set, s.y, s.z]);
    encoder.begin().vkCmdFillBuffer(4, 0, 16, 7).end(); // the recording a refusal leaves in place
    const refused = (words: number[], reason: string): void => {
      encoder.begin().vkCmdSetLineWidth(1).writeWords(new Uint32Array(words));
      try {
        encoder.end();
        expect.unreachable(`${reason}: accepted`);
      } catch (e) {
        expect(e).toBeInstanceOf(CommandStreamError);
        expect([(e as CommandStreamError).reason, (e as CommandStreamError).commandIndex, (e as CommandStreamError).byteOffset]).toEqual([reason, 1, 8]);
      }
    };
    refused([header('vkCmdSetDepthCompareOp'), 8], 'bad-value'); // VkCompareOp ends at 7
    refused([header('vkCmdBindPipeline'), 2, 0], 'bad-value'); // VK_PIPELINE_BIND_POINT 2 is no value of the core enum
    refused([header('vkCmdSetDepthTestEnable'), 2], 'bad-value');
    refused([header('vkCmdFillBuffer'), 0, 0, 0, 16, 0, 7], 'handle-kind'); // slot 0 is the pipeline
    refused([header('vkCmdFillBuffer'), 5, 0, 0, 16, 0, 7], 'handle-index');
    refused([header('vkCmdDraw', 4), 3, 1, 0], 'bad-length');
    refused([header('vkCmdDraw'), 3, 1, 0, 0], 'render-pass-scope');
    refused([header('vkCmdEndRendering')], 'render-pass-scope');
    // The command buffer kept its fill: z[0..4) = 7.
    const fence = dev.createFence();
    s.reset();
    dev.queue(0).submit(encoder.commandBuffer, fence);
    expect(await fence.wait()).toBe(true);
    expect([...s.views.z.subarray(0, 5)]).toEqual([7, 7, 7, 7, 0]);
    // The generated methods check first and write nothing when they refuse.
    encoder.begin();
    expect(() => encoder.vkCmdSetDepthCompareOp(8)).toThrow(/vkCmdSetDepthCompareOp: depthCompareOp must be a VkCompareOp value, got 8/);
    expect(() => encoder.vkCmdSetDepthTestEnable(1 as never)).toThrow(InvalidArgumentError);
    expect(() => encoder.vkCmdFillBuffer(0, 0, 16, 7)).toThrow(/vkCmdFillBuffer: dstBuffer \(table slot 0\) is not a VulkanBuffer/);
    expect(() => encoder.vkCmdFillBuffer(4, -4, 16, 7)).toThrow(/dstOffset/);
    expect(() => encoder.vkCmdFillBuffer(4, 0, 2n ** 64n, 7)).toThrow(/size/);
    expect(() => encoder.vkCmdDrawIndexed(3, 1, 0, 2 ** 31, 0)).toThrow(/vertexOffset must be an integer in \[-2\^31, 2\^31\)/);
    expect(() => encoder.vkCmdSetLineWidth('1' as never)).toThrow(/lineWidth must be a number/);
    expect(encoder.byteLength).toBe(0);
    expect(instance.takeDebugMessages().filter((m) => m.severity >= WARNING)).toEqual([]);
  });

  it('(VK-CE-4) the typed methods\' state checks hold for the generated commands: a dispatch with no pipeline bound, a compute pipeline bound at the graphics bind point, a dispatch base above 0, a fill past the buffer or not a multiple of 4, an indirect dispatch past its buffer: typed errors at end(), nothing recorded', () => {
    const { pd, device: dev } = device(VK_API_VERSION_1_1);
    const s = saxpy(pd, dev);
    const encoder = new CommandEncoder(dev.createCommandPool(0).allocateCommandBuffer(), [s.pipeline, s.layout, s.set, s.y, s.z]);
    const ends = (record: (e: CommandEncoder) => unknown, error: Function, message: RegExp): void => {
      encoder.begin();
      record(encoder);
      expect(() => encoder.end()).toThrow(error as new () => Error);
      encoder.begin();
      record(encoder);
      expect(() => encoder.end()).toThrow(message);
    };
    ends((e) => e.vkCmdDispatch(1, 1, 1), InvalidStateError, /dispatch: no compute pipeline is bound/);
    ends((e) => e.vkCmdBindPipeline(BIND_POINT_GRAPHICS, 0), InvalidArgumentError, /pipelineBindPoint must be VK_PIPELINE_BIND_POINT_COMPUTE/);
    ends((e) => e.vkCmdBindPipeline(BIND_POINT_COMPUTE, 0).vkCmdDispatch(1, 1, 1), InvalidStateError, /descriptor set 0/); // bound, but no set for its shader
    ends((e) => e.vkCmdBindPipeline(BIND_POINT_COMPUTE, 0).bindDescriptorSet(1, 2).pushConstants(1, STAGE_COMPUTE, 0, PUSH).vkCmdDispatchBase(1, 0, 0, 1, 1, 1), InvalidArgumentError, /baseGroupX/);
    ends((e) => e.vkCmdFillBuffer(4, N * 4 - 8, 16, 7), InvalidArgumentError, /vkCmdFillBuffer: dstOffset 4088 and size 16/);
    ends((e) => e.vkCmdFillBuffer(4, 2, 16, 7), InvalidArgumentError, /multiples of 4/);
    ends((e) => e.vkCmdBindPipeline(BIND_POINT_COMPUTE, 0).bindDescriptorSet(1, 2).pushConstants(1, STAGE_COMPUTE, 0, PUSH).vkCmdDispatchIndirect(3, 0), InvalidArgumentError, /vkCmdDispatchIndirect: buffer needs usage 0x100/);
    // The same streams, with what they lack, are recorded.
    expect(encoder.begin().vkCmdBindPipeline(BIND_POINT_COMPUTE, 0).bindDescriptorSet(1, 2).pushConstants(1, STAGE_COMPUTE, 0, PUSH).vkCmdDispatchBase(0, 0, 0, 1, 1, 1).end()).toBe(4);
    expect(encoder.begin().vkCmdFillBuffer(4, N * 4 - 16, 16, 7).vkCmdFillBuffer(4, 8, 0xffff_ffff_ffff_ffffn, 1).end()).toBe(2);
  });

  it('(VK-CE-4) end() checks each dispatch: one after commands that change nothing it reads still has its group counts checked against maxComputeWorkGroupCount, one after a change is checked whole', () => {
    const { pd, device: dev } = device(VK_API_VERSION_1_1);
    const s = saxpy(pd, dev);
    const encoder = new CommandEncoder(dev.createCommandPool(0).allocateCommandBuffer(), [s.pipeline, s.layout, s.set]);
    const max = dev.limits.maxComputeWorkGroupCount[0];
    const group = (e: CommandEncoder) => e.bindPipeline(0).bindDescriptorSet(1, 2).pushConstants(1, STAGE_COMPUTE, 0, PUSH);
    group(encoder.begin()).dispatch(1);
    group(encoder).dispatch(max + 1);
    expect(() => encoder.end()).toThrow(/command 7 of the stream: dispatch: the group counts/);
    group(encoder.begin()).dispatch(1).dispatch(1, max + 1, 1);
    expect(() => encoder.end()).toThrow(/command 4 of the stream: dispatch: the group counts/);
    // A dispatch after pushes of fewer bytes: the pushed bytes still cover the shader's.
    expect(group(encoder.begin()).dispatch(1).pushConstants(1, STAGE_COMPUTE, 0, PUSH.subarray(0, 1)).dispatch(1).end()).toBe(6);
  });

  it('(VK-CE-5) a generated command the device\'s table lacks (a Vulkan 1.3 command on a Vulkan 1.1 instance) is refused as unavailable before any Vulkan call', () => {
    const { pd, device: dev } = device(VK_API_VERSION_1_1);
    const s = saxpy(pd, dev);
    const encoder = new CommandEncoder(dev.createCommandPool(0).allocateCommandBuffer(), [s.y]);
    encoder.begin().vkCmdSetLineWidth(1).vkCmdSetCullMode(0);
    expect(() => encoder.end()).toThrow(expect.objectContaining({ reason: 'unavailable', commandIndex: 1, opcode: opcodeOf('vkCmdSetCullMode') }));
  });

  it('(VK-CE-5) the stream is checked whole before the device\'s table: a malformed command after an unavailable one is refused for what is wrong with it; an unavailable command is found at its own index whether its words are numbers only or checked one by one', () => {
    const { pd, device: dev } = device(VK_API_VERSION_1_1);
    const s = saxpy(pd, dev);
    const cb = dev.createCommandPool(0).allocateCommandBuffer();
    const encoder = new CommandEncoder(cb, [s.y]);
    // vkCmdSetCullMode (Vulkan 1.3, numbers only), then a header of an opcode no command has.
    encoder.begin().vkCmdSetLineWidth(1).vkCmdSetCullMode(0).writeWords(new Uint32Array([0x0001_7fff]));
    expect(() => encoder.end()).toThrow(expect.objectContaining({ reason: 'unknown-opcode', commandIndex: 2, byteOffset: 16 }));
    // vkCmdSetDepthTestEnable (Vulkan 1.3, a VkBool32 checked) after numbers-only commands the device has.
    encoder.begin().vkCmdSetLineWidth(1).vkCmdSetDepthBias(0, 0, 0).vkCmdSetDepthTestEnable(true);
    expect(() => encoder.end()).toThrow(expect.objectContaining({ reason: 'unavailable', commandIndex: 2, opcode: opcodeOf('vkCmdSetDepthTestEnable') }));
    // The refusals left the encoder as it was: a stream of commands the device has records.
    expect(encoder.begin().vkCmdSetLineWidth(1).vkCmdSetDepthBias(0, 0, 0).end()).toBe(2);
  });

  it('(VK-CE-6) a frame of draws through the walked opcodes (vkCmdBeginRendering, vkCmdBindPipeline, vkCmdPushConstants, vkCmdBindVertexBuffers, vkCmdSetViewport/Scissor, vkCmdDraw, vkCmdEndRendering) gives the pixels per-call recording gives; a draw outside the rendering, an unclosed rendering and a draw without its viewport are refused before any Vulkan call; validation silent', async () => {
    const instance = realDriverLoader().createInstance({ applicationName: 'kl-encoder-draw-test', apiVersion: VK_API_VERSION_1_3, enabledLayerNames: hasValidation() ? ['VK_LAYER_KHRONOS_validation'] : [], enabledExtensionNames: ['VK_EXT_debug_utils'] });
    open.push(instance);
    instance.startDebugMessenger();
    const pd = instance.enumeratePhysicalDevices()[0]!;
    const dev = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true } });
    const W = 32;
    const H = 32;
    const spirv = (name: string) => {
      const bytes = readFileSync(path.join(repoRoot, 'examples/shaders', name));
      return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    };
    const host = (usage: number, bytes: number) => {
      const b = dev.createBuffer({ size: bytes, usage });
      b.bindMemory(dev.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST_VISIBLE_COHERENT)));
      return b;
    };
    // Two triangles, red over the top-left half and green over a smaller one, drawn in that order.
    const vertices = new Float32Array([-1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 0, 0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 0, -1, 0, 0, 1, 0, -1, 0, 0, 0, 1, 0]);
    const vb = host(0x80, vertices.byteLength);
    new Float32Array(vb.memory!.map()).set(vertices);
    const image = dev.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: W, height: H }, usage: 0x10 | 0x1 });
    image.bindMemory(dev.allocateMemory(image.memoryRequirements.size, pd.requireMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
    const view = dev.createImageView(image);
    const readback = host(0x2, W * H * 4);
    const readbackBytes = new Uint8Array(readback.memory!.map());
    const layout = dev.createPipelineLayout([], [{ stageFlags: 0x1, offset: 0, size: 64 }]);
    const pipeline = dev.createGraphicsPipeline({
      layout,
      stages: { vertex: { module: dev.createShaderModule(spirv('colored.vert.spv')) }, fragment: { module: dev.createShaderModule(spirv('colored.frag.spv')) } },
      vertexInput: { bindings: [{ binding: 0, stride: 24 }], attributes: [{ location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 }, { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 }] },
      topology: 'triangle-list',
      rasterization: { cullMode: 'none', frontFace: 'counter-clockwise' },
      rendering: { colorFormats: [Format.R8G8B8A8_UNORM] },
    });
    const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const pool = dev.createCommandPool(0);
    const fence = dev.createFence();
    const submit = async (cb: CommandBuffer) => {
      fence.reset();
      dev.queue(0).submit(cb, fence);
      expect(await fence.wait()).toBe(true);
    };
    const pixels = async (): Promise<Uint8Array> => {
      const copyOut = pool.allocateCommandBuffer().begin(1);
      copyOut.imageBarrier(image, { oldLayout: 'color-attachment-optimal', newLayout: 'transfer-src-optimal', srcStageMask: 0x400, dstStageMask: 0x1000, srcAccessMask: 0x100, dstAccessMask: 0x800 });
      copyOut.copyImageToBuffer(image, 'transfer-src-optimal', readback);
      await submit(copyOut.end());
      return readbackBytes.slice();
    };
    const toAttachment = { oldLayout: 'undefined', newLayout: 'color-attachment-optimal', srcStageMask: 0x1, dstStageMask: 0x400, srcAccessMask: 0, dstAccessMask: 0x100 } as const;

    // Per call.
    const perCall = pool.allocateCommandBuffer().begin(1);
    perCall.imageBarrier(image, toAttachment);
    perCall
      .beginRendering({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 1, 1] }] })
      .bindPipeline(pipeline)
      .setViewport(0, 0, W, H)
      .setScissor(0, 0, W, H)
      .pushConstants(layout, 0x1, 0, identity)
      .bindVertexBuffers(0, [vb])
      .draw(3)
      .draw(3, 1, 3)
      .endRendering();
    await submit(perCall.end());
    const expected = await pixels();
    const count = (rgba: readonly number[]) => {
      let n = 0;
      for (let i = 0; i < W * H; i++) if (rgba.every((c, k) => expected[i * 4 + k] === c)) n++;
      return n;
    };
    // The scene is what it should be: red, green and the clear colour all there (so a difference below is the encoder's).
    expect([count([255, 0, 0, 255]) > 0, count([0, 255, 0, 255]) > 0, count([0, 0, 255, 255]) > 0]).toEqual([true, true, true]);

    // Through the encoder: the table holds the image, its view, the pipeline, its layout and the vertex buffer.
    const table: EncodableObject[] = [image as Image, view, pipeline, layout, vb];
    const [IMG, VIEW, PIPE, LAYOUT, VB] = [0, 1, 2, 3, 4];
    const encoder = new CommandEncoder(pool.allocateCommandBuffer(), table);
    const attachment = { imageView: VIEW, imageLayout: 2, resolveMode: 0, resolveImageView: null, resolveImageLayout: 0, loadOp: 1, storeOp: 0, clearValue: { color: { float32: [0, 0, 1, 1] } } };
    const rendering = { flags: 0, renderArea: { offset: { x: 0, y: 0 }, extent: { width: W, height: H } }, layerCount: 1, viewMask: 0, colorAttachmentCount: 1, pColorAttachments: [attachment], pDepthAttachment: null, pStencilAttachment: null };
    const frame = (withViewport: boolean, close: boolean, drawOutside: boolean) => {
      encoder.begin(1).imageBarrier(IMG, toAttachment);
      if (drawOutside) encoder.vkCmdDraw(3, 1, 0, 0);
      encoder.vkCmdBeginRendering(rendering).vkCmdBindPipeline(BIND_POINT_GRAPHICS, PIPE);
      if (withViewport) encoder.vkCmdSetViewport(0, 1, [{ x: 0, y: 0, width: W, height: H, minDepth: 0, maxDepth: 1 }]);
      encoder.vkCmdSetScissor(0, 1, [{ offset: { x: 0, y: 0 }, extent: { width: W, height: H } }]);
      encoder.vkCmdPushConstants(LAYOUT, 0x1, 0, 64, identity).vkCmdBindVertexBuffers(0, 1, [VB], [0]).vkCmdDraw(3, 1, 0, 0).vkCmdDraw(3, 1, 3, 0);
      if (close) encoder.vkCmdEndRendering();
      return encoder;
    };
    expect(frame(true, true, false).end()).toBe(10);
    await submit(encoder.commandBuffer);
    expect(await pixels()).toEqual(expected);

    // Refused before any Vulkan call; the command buffer keeps its frame (submitted again: the same pixels).
    expect(() => frame(true, true, true).end()).toThrow(expect.objectContaining({ reason: 'render-pass-scope', commandIndex: 1 }));
    expect(() => frame(true, false, false).end()).toThrow(expect.objectContaining({ reason: 'render-pass-scope', commandIndex: 1 }));
    expect(() => frame(false, true, false).end()).toThrow(InvalidStateError);
    expect(() => frame(false, true, false).end()).toThrow(/no viewport is set/);
    // Argument checks of the walked methods: arrays as long as their counts, structures' members typed.
    expect(() => encoder.begin().vkCmdBindVertexBuffers(0, 2, [VB], [0])).toThrow(InvalidArgumentError);
    expect(() => encoder.begin().vkCmdSetViewport(0, 1, [{ x: 0, y: 0, width: 'wide' as unknown as number, height: H, minDepth: 0, maxDepth: 1 }])).toThrow(/pViewports\[0\]\.width/);
    expect(() => encoder.begin().vkCmdBindVertexBuffers(0, 1, [IMG], [0])).toThrow(/pBuffers\[0\]/);
    encoder.begin().end();
    await submit(encoder.commandBuffer);
    const warnings = instance.takeDebugMessages().filter((m) => m.severity >= WARNING).map((m) => `${m.messageIdName}: ${m.message}`);
    expect(warnings).toEqual([]);
  });

  // The objects of the run tests (VK-CE-15): a graphics pipeline drawing into a 16x16 view, a vertex buffer of
  // 3 vertices, an index buffer of 12 UINT16 indices, and `opening(draws)`: commands 0-5, then `draws` draws (commands 6 …).
  const runsScene = () => {
    const instance = realDriverLoader().createInstance({ applicationName: 'kl-encoder-runs-test', apiVersion: VK_API_VERSION_1_3 });
    open.push(instance);
    const pd = instance.enumeratePhysicalDevices()[0]!;
    const dev = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true } });
    const spirv = (name: string) => {
      const bytes = readFileSync(path.join(repoRoot, 'examples/shaders', name));
      return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    };
    const vb = dev.createBuffer({ size: 72, usage: 0x80 });
    vb.bindMemory(dev.allocateMemory(vb.memoryRequirements.size, pd.findMemoryType(vb.memoryRequirements.memoryTypeBits, 0)));
    const image = dev.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: 16, height: 16 }, usage: 0x10 });
    image.bindMemory(dev.allocateMemory(image.memoryRequirements.size, pd.findMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
    const view = dev.createImageView(image);
    const layout = dev.createPipelineLayout([], [{ stageFlags: 0x1, offset: 0, size: 64 }]);
    const otherPush = dev.createPipelineLayout([], [{ stageFlags: 0x1, offset: 0, size: 16 }]);
    const pipeline = dev.createGraphicsPipeline({
      layout,
      stages: { vertex: { module: dev.createShaderModule(spirv('colored.vert.spv')) }, fragment: { module: dev.createShaderModule(spirv('colored.frag.spv')) } },
      vertexInput: { bindings: [{ binding: 0, stride: 24 }], attributes: [{ location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 }, { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 }] },
      topology: 'triangle-list',
      rasterization: { cullMode: 'none', frontFace: 'counter-clockwise' },
      rendering: { colorFormats: [Format.R8G8B8A8_UNORM] },
    });
    const ib = dev.createBuffer({ size: 24, usage: 0x40 });
    ib.bindMemory(dev.allocateMemory(ib.memoryRequirements.size, pd.findMemoryType(ib.memoryRequirements.memoryTypeBits, 0)));
    const [VIEW, PIPE, LAYOUT, VB, OTHER, IB] = [0, 1, 2, 3, 4, 5];
    const encoder = new CommandEncoder(dev.createCommandPool(0).allocateCommandBuffer(), [view, pipeline, layout, vb, otherPush, ib]);
    const attachment = { imageView: VIEW, imageLayout: 2, resolveMode: 0, resolveImageView: null, resolveImageLayout: 0, loadOp: 1, storeOp: 0, clearValue: { color: { float32: [0, 0, 0, 1] } } };
    const rendering = { flags: 0, renderArea: { offset: { x: 0, y: 0 }, extent: { width: 16, height: 16 } }, layerCount: 1, viewMask: 0, colorAttachmentCount: 1, pColorAttachments: [attachment], pDepthAttachment: null, pStencilAttachment: null };
    const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    // Commands 0-5, then `draws` draws (commands 6 …).
    const opening = (draws: number) => {
      encoder.begin(1).vkCmdBeginRendering(rendering).vkCmdBindPipeline(BIND_POINT_GRAPHICS, PIPE);
      encoder.vkCmdSetViewport(0, 1, [{ x: 0, y: 0, width: 16, height: 16, minDepth: 0, maxDepth: 1 }]).vkCmdSetScissor(0, 1, [{ offset: { x: 0, y: 0 }, extent: { width: 16, height: 16 } }]);
      encoder.vkCmdPushConstants(LAYOUT, 0x1, 0, 64, identity).vkCmdBindVertexBuffers(0, 1, [VB], [0]);
      for (let i = 0; i < draws; i++) encoder.vkCmdDraw(3, 1, 0, 0);
      return encoder;
    };
    return { opening, PIPE, OTHER, IB };
  };

  it('(VK-CE-15) end() walks the commands the encoder noted and the first draw of each run of vkCmdDraw between them: counts and command indices take the runs in, a run after a change is checked, and a stream whose words were changed through `stream` (a draw turned into other commands) is walked again whole', () => {
    const { opening, PIPE, OTHER } = runsScene();
    // Runs of draws between noted commands: every command counted.
    const runs = opening(40);
    runs.vkCmdSetScissor(0, 1, [{ offset: { x: 0, y: 0 }, extent: { width: 8, height: 8 } }]);
    for (let i = 0; i < 25; i++) runs.vkCmdDraw(3, 1, 3, 0);
    expect(runs.vkCmdEndRendering().end()).toBe(6 + 40 + 1 + 25 + 1);
    // A state error after a run names its own index: the run's 3 draws counted (commands 6-8), the indexed draw is command 9.
    expect(() => opening(3).vkCmdDrawIndexed(3, 1, 0, 0, 0).vkCmdEndRendering().end()).toThrow(/^command 9 of the stream: vkCmdDrawIndexed: no index buffer is bound/);
    // The first draw of a run after a change is checked: push constants of another layout's ranges, then draws (command 9 the first of them).
    const changed = opening(2).vkCmdPushConstants(OTHER, 0x1, 0, 16, new Float32Array(4));
    for (let i = 0; i < 10; i++) changed.vkCmdDraw(3, 1, 0, 0);
    expect(() => changed.vkCmdEndRendering().end()).toThrow(/^command 9 of the stream: vkCmdDraw: the push constants were pushed with a layout/);
    // The stream's words changed after they were written: the third of five draws turned into vkCmdBindPipeline (3 words) and
    // vkCmdSetLineWidth (2 words), which the walk of the noted commands alone would not see.
    const bind = (point: number) => {
      const e = opening(5).vkCmdEndRendering();
      const u = new Uint32Array(e.stream);
      const at = (e.byteLength / 4) - 1 - 3 * 5; // the third draw: 3 draws and the end after it
      expect(u[at]).toBe(header('vkCmdDraw'));
      u.set([header('vkCmdBindPipeline'), point, PIPE, header('vkCmdSetLineWidth'), 0x3f80_0000], at);
      return e;
    };
    // Refused for what the changed words say (a GraphicsPipeline at the compute bind point, command 8), nothing recorded.
    expect(() => bind(BIND_POINT_COMPUTE).end()).toThrow(/^command 8 of the stream: vkCmdBindPipeline: pipelineBindPoint must be VK_PIPELINE_BIND_POINT_GRAPHICS/);
    // Changed into well-formed commands the walk accepts: recorded, each counted (one command more than written).
    expect(bind(BIND_POINT_GRAPHICS).end()).toBe(6 + 5 + 1 + 1);
  });

  it('(VK-CE-15) runs of vkCmdDrawIndexed are walked on their first command and their index ranges alone: counts take them in, mixed with runs of vkCmdDraw; a draw whose indices leave the bound range inside a run is refused with its own index; a draw turned into vkCmdDrawIndexed through `stream` in a frame of draws only is walked again whole', () => {
    const { opening, IB } = runsScene();
    const UINT16 = 0;
    // Commands 0-5, 2 draws (6-7), the index buffer bound (8): 12 indices of 2 bytes.
    const indexed = () => opening(2).vkCmdBindIndexBuffer(IB, 0, UINT16);
    // Runs of indexed draws, and runs of both kinds in one gap between noted commands: every command counted.
    const mixed = indexed();
    for (let i = 0; i < 30; i++) mixed.vkCmdDrawIndexed(3, 1, i % 10, 0, 0);
    for (let i = 0; i < 5; i++) mixed.vkCmdDraw(3, 1, 0, 0);
    for (let i = 0; i < 10; i++) mixed.vkCmdDrawIndexed(12, 1, 0, -1, 0);
    expect(mixed.vkCmdEndRendering().end()).toBe(9 + 30 + 5 + 10 + 1);
    // The fifth indexed draw of a run reads indices [10, 13) of 12: commands 9-12 pass, command 13 is refused; after draws of the other kind too.
    const past = indexed();
    for (let i = 0; i < 4; i++) past.vkCmdDrawIndexed(3, 1, 9, 0, 0);
    past.vkCmdDrawIndexed(3, 1, 10, 0, 0).vkCmdDrawIndexed(3, 1, 0, 0, 0).vkCmdEndRendering();
    expect(() => past.end()).toThrow(/^command 13 of the stream: vkCmdDrawIndexed: indices \[10, 13\) of 2 bytes from offset 0 go past/);
    const after = indexed().vkCmdDrawIndexed(3, 1, 0, 0, 0).vkCmdDraw(3, 1, 0, 0).vkCmdDrawIndexed(12, 1, 0, 0, 0).vkCmdDrawIndexed(6, 1, 7, 0, 0).vkCmdEndRendering();
    expect(() => after.end()).toThrow(/^command 12 of the stream: vkCmdDrawIndexed: indices \[7, 13\)/);
    // A frame of draws only (no vkCmdDrawIndexed written: its gaps are skipped whole) whose words were changed after they
    // were written: six draws (30 words) turned into five indexed draws, with no index buffer bound. Walked again whole: refused at the first.
    const turned = opening(8).vkCmdEndRendering();
    const u = new Uint32Array(turned.stream);
    const at = turned.byteLength / 4 - 1 - 6 * 5; // the third draw (commands 6-7 before it): six draws and the end after it
    expect(u[at]).toBe(header('vkCmdDraw'));
    for (let i = 0; i < 5; i++) u.set([header('vkCmdDrawIndexed'), 3, 1, 0, 0, 0], at + 6 * i);
    expect(() => turned.end()).toThrow(/^command 8 of the stream: vkCmdDrawIndexed: no index buffer is bound/);
  });
});
