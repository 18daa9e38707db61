// `bench vulkan --command record`, its second frame (docs/performance.md, 'Vulkan: recording 1,000
// draws'): begin dynamic rendering, bind a graphics pipeline and a vertex buffer, viewport,
// scissor, 64 bytes of push constants, 1,000 vkCmdDraw(3), end, recorded three ways as the compute
// frame is: the typed API's one N-API call per command, the CommandEncoder's walked and flat
// generated opcodes (one call at end()), and a C loop through the loader's exported vkCmd* (the
// addon's drawLoop). Recording only: nothing is submitted.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../core/native/load.js';
import { CommandEncoder } from '../../vulkan/api/command-encoder.js';
import { nativeCommandStream } from '../../vulkan/native/addon.js';
import type { CommandBuffer } from '../../vulkan/api/commands.js';
import type { ImageView, PipelineLayout, VulkanBuffer } from '../../vulkan/api/device-objects.js';
import type { GraphicsPipeline } from '../../vulkan/api/graphics.js';
import type { Device } from '../../vulkan/api/device.js';
import type { Instance } from '../../vulkan/api/instance.js';
import type { EncodedVkRenderingInfo, EncodedVkRect2D, EncodedVkViewport } from '../../generated/vulkan-encoder.js';
import { Format } from '../../generated/vulkan.js';
import type { MeasurePlan } from './measure-native.js';
import { summarize } from './stats.js';
import { timeInRounds } from './rounds.js';
import { recordWarmupFrames, type RecordMeasurement } from './vulkan-record.js';
import { UnavailableError } from '../../core/errors.js';

export const RECORD_DRAWS = 1_000;
export const DRAW_FRAME = ['vkCmdBeginRendering', 'vkCmdBindPipeline', 'vkCmdBindVertexBuffers', 'vkCmdSetViewport', 'vkCmdSetScissor', 'vkCmdPushConstants (64 bytes)', 'vkCmdDraw(3) × draws', 'vkCmdEndRendering'] as const;
/** Commands in a frame besides the draws. */
export const DRAW_FRAME_OTHERS = DRAW_FRAME.length - 1;

const ONE_TIME_SUBMIT = 1;
const VERTEX_STAGE = 0x1;
const BIND_POINT_GRAPHICS = 0;
const USAGE_VERTEX_BUFFER = 0x80;
const USAGE_COLOR_ATTACHMENT = 0x10;
const LAYOUT_COLOR_ATTACHMENT = 2;
const LOAD_OP_CLEAR = 1;
const STORE_OP_STORE = 0;
const SIZE = 64;

/** The shaders of examples/ (a source checkout's): position and colour in, a 64-byte matrix pushed. */
export const DRAW_SHADERS = ['colored.vert.spv', 'colored.frag.spv'].map((f) => path.join(packageRoot, 'examples/shaders', f));

export interface DrawScenario {
  readonly device: Device;
  readonly pipeline: GraphicsPipeline;
  readonly layout: PipelineLayout;
  readonly vertexBuffer: VulkanBuffer;
  readonly view: ImageView;
  readonly commandBuffer: CommandBuffer;
  /** An encoder over [pipeline, layout, vertexBuffer, view] (slots 0-3). */
  readonly encoder: CommandEncoder;
  readonly matrix: Float32Array;
  // The encoder's arguments, made once: a frame allocates nothing.
  readonly rendering: EncodedVkRenderingInfo;
  readonly viewports: readonly EncodedVkViewport[];
  readonly scissors: readonly EncodedVkRect2D[];
  readonly buffers: readonly number[];
  readonly offsets: readonly number[];
}

function readSpirv(file: string): Uint32Array {
  if (!existsSync(file)) throw new UnavailableError(`the record benchmark's frame of draws needs the shader ${file} (in a source checkout)`);
  const bytes = readFileSync(file);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** The frame's objects on the instance's first physical device (a Vulkan 1.3 instance: dynamic rendering); they go with `device.destroy()`. */
export function createDrawScenario(instance: Instance): DrawScenario {
  const pd = instance.enumeratePhysicalDevices()[0];
  if (pd === undefined) throw new UnavailableError('no Vulkan physical device');
  const device = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true } });
  const [vert, frag] = DRAW_SHADERS.map(readSpirv) as [Uint32Array, Uint32Array];
  const layout = device.createPipelineLayout([], [{ stageFlags: VERTEX_STAGE, offset: 0, size: 64 }]);
  const pipeline = device.createGraphicsPipeline({
    layout,
    stages: { vertex: { module: device.createShaderModule(vert) }, fragment: { module: device.createShaderModule(frag) } },
    vertexInput: { bindings: [{ binding: 0, stride: 24 }], attributes: [{ location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 }, { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 }] },
    topology: 'triangle-list',
    rasterization: { cullMode: 'none', frontFace: 'counter-clockwise' },
    rendering: { colorFormats: [Format.R8G8B8A8_UNORM] },
  });
  const vertexBuffer = device.createBuffer({ size: 3 * 24, usage: USAGE_VERTEX_BUFFER });
  vertexBuffer.bindMemory(device.allocateMemory(vertexBuffer.memoryRequirements.size, pd.findMemoryType(vertexBuffer.memoryRequirements.memoryTypeBits, 0)));
  const image = device.createImage({ format: Format.R8G8B8A8_UNORM, extent: { width: SIZE, height: SIZE }, usage: USAGE_COLOR_ATTACHMENT });
  image.bindMemory(device.allocateMemory(image.memoryRequirements.size, pd.findMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
  const view = device.createImageView(image);
  const commandBuffer = device.createCommandPool(0).allocateCommandBuffer();
  const encoder = new CommandEncoder(commandBuffer, [pipeline, layout, vertexBuffer, view]);
  const rendering: EncodedVkRenderingInfo = {
    flags: 0,
    renderArea: { offset: { x: 0, y: 0 }, extent: { width: SIZE, height: SIZE } },
    layerCount: 1,
    viewMask: 0,
    colorAttachmentCount: 1,
    pColorAttachments: [{ imageView: 3, imageLayout: LAYOUT_COLOR_ATTACHMENT, resolveMode: 0, resolveImageView: null, resolveImageLayout: 0, loadOp: LOAD_OP_CLEAR, storeOp: STORE_OP_STORE, clearValue: { color: { float32: [0, 0, 0, 1] } } }],
    pDepthAttachment: null,
    pStencilAttachment: null,
  };
  return {
    device,
    pipeline,
    layout,
    vertexBuffer,
    view,
    commandBuffer,
    encoder,
    matrix: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    rendering,
    viewports: [{ x: 0, y: 0, width: SIZE, height: SIZE, minDepth: 0, maxDepth: 1 }],
    scissors: [{ offset: { x: 0, y: 0 }, extent: { width: SIZE, height: SIZE } }],
    buffers: [2],
    offsets: [0],
  };
}

/** One frame through the typed API: one N-API call per command. */
export function recordDrawsPerCall(s: DrawScenario, draws = RECORD_DRAWS): void {
  const cb = s.commandBuffer.begin(ONE_TIME_SUBMIT);
  cb.beginRendering({ colorAttachments: [{ view: s.view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] });
  cb.bindPipeline(s.pipeline).bindVertexBuffers(0, [s.vertexBuffer]).setViewport(0, 0, SIZE, SIZE).setScissor(0, 0, SIZE, SIZE).pushConstants(s.layout, VERTEX_STAGE, 0, s.matrix);
  for (let i = 0; i < draws; i++) cb.draw(3);
  cb.endRendering().end();
}

/** The same frame through the encoder: walked opcodes for the rendering and the arrays, the flat vkCmdDraw, one call at end(). */
export function recordDrawsEncoded(s: DrawScenario, draws = RECORD_DRAWS): void {
  const e = s.encoder.begin(ONE_TIME_SUBMIT);
  e.vkCmdBeginRendering(s.rendering).vkCmdBindPipeline(BIND_POINT_GRAPHICS, 0).vkCmdBindVertexBuffers(0, 1, s.buffers, s.offsets);
  e.vkCmdSetViewport(0, 1, s.viewports).vkCmdSetScissor(0, 1, s.scissors).vkCmdPushConstants(1, VERTEX_STAGE, 0, 64, s.matrix);
  for (let i = 0; i < draws; i++) e.vkCmdDraw(3, 1, 0, 0);
  e.vkCmdEndRendering().end();
}

/** Times the three ways as measureRecord does: `plan.repeats` rounds of one run of each, `plan.iterations` frames a run. */
export function measureDraws(s: DrawScenario, plan: MeasurePlan, draws = RECORD_DRAWS): RecordMeasurement {
  // First through the encoder, which checks the device's table has every command of the frame
  // (CommandStreamError 'unavailable' where a driver lacks one) before the other ways call them.
  recordDrawsEncoded(s, 1);
  const native = nativeCommandStream();
  const cLoop = (frames: number) => native.drawLoop(s.commandBuffer.handle, s.pipeline.handle, s.layout.handle, s.vertexBuffer.handle, s.view.handle, SIZE, SIZE, draws, frames);
  const timeFrames = (frames: number, record: (scenario: DrawScenario, count: number) => void): number => {
    const start = process.hrtime.bigint();
    for (let f = 0; f < frames; f++) record(s, draws);
    return Number(process.hrtime.bigint() - start) / frames;
  };
  const warmup = recordWarmupFrames(plan);
  timeFrames(warmup, recordDrawsPerCall);
  timeFrames(warmup, recordDrawsEncoded);
  cLoop(warmup);
  const [perCall, encoder, c] = timeInRounds(plan.repeats, [() => timeFrames(plan.iterations, recordDrawsPerCall), () => timeFrames(plan.iterations, recordDrawsEncoded), () => cLoop(plan.iterations)]);
  const rounds = { perCall: perCall!, encoder: encoder!, cLoop: c! };
  return { commands: draws + DRAW_FRAME_OTHERS, perCall: summarize(rounds.perCall), encoder: summarize(rounds.encoder), cLoop: summarize(rounds.cLoop), rounds, warmupFrames: warmup };
}
