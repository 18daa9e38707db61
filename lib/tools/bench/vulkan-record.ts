// `bench vulkan --command record` (docs/performance.md): one frame of 10,000 mixed compute commands (bind
// pipeline, bind descriptor set, push constants, dispatch, pipeline barrier, in turn) recorded
// into one command buffer three ways: the typed API's one N-API call per command, the
// CommandEncoder (written into an ArrayBuffer, recorded in one call at end()), and a C loop
// through the loader's exported vkCmd* functions (the addon's cLoop). Recording only: nothing is
// submitted. Each frame is vkBeginCommandBuffer … vkEndCommandBuffer.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../core/native/load.js';
import { CommandEncoder } from '../../vulkan/api/command-encoder.js';
import { nativeCommandStream } from '../../vulkan/native/addon.js';
import type { CommandBuffer } from '../../vulkan/api/commands.js';
import type { VulkanBuffer, ComputePipeline, DescriptorSet, PipelineLayout } from '../../vulkan/api/device-objects.js';
import type { Device } from '../../vulkan/api/device.js';
import type { Instance, PhysicalDevice } from '../../vulkan/api/instance.js';
import { warmupIterations, type MeasurePlan } from './measure-native.js';
import { summarize, type Summary } from './stats.js';
import { medianRoundRatio, timeInRounds } from './rounds.js';
import { UnavailableError } from '../../core/errors.js';

export const RECORD_COMMANDS = 10_000;
export const RECORD_MIX = ['vkCmdBindPipeline', 'vkCmdBindDescriptorSets', 'vkCmdPushConstants (8 bytes)', 'vkCmdDispatch(1, 1, 1)', 'vkCmdPipelineBarrier (one VkMemoryBarrier)'] as const;

const STORAGE_BUFFER = 0x20;
const DESCRIPTOR_STORAGE_BUFFER = 7;
const STAGE_COMPUTE = 0x20;
const PIPELINE_STAGE_COMPUTE = 0x800;
const ACCESS_SHADER_READ = 0x20;
const ACCESS_SHADER_WRITE = 0x40;
const ONE_TIME_SUBMIT = 1;

/** The SAXPY compute shader of examples/ (a source checkout's). */
export const RECORD_SHADER = path.join(packageRoot, 'examples/shaders/saxpy.spv');

/** The objects a recorded frame uses: the SAXPY pipeline over two 1 KiB storage buffers. */
export interface RecordScenario {
  readonly device: Device;
  readonly pipeline: ComputePipeline;
  readonly layout: PipelineLayout;
  readonly set: DescriptorSet;
  readonly commandBuffer: CommandBuffer;
  /** The push constants: a = 1.0f, n = 256 (the C loop pushes the same). */
  readonly params: Uint32Array;
  /** An encoder over [pipeline, layout, set] (slots 0, 1, 2) for commandBuffer. */
  readonly encoder: CommandEncoder;
}

/** The SAXPY shader's objects: x and y (storage buffers of `elements` floats in memory with `memoryFlags`), their descriptor set, the pipeline and its layout (8 bytes of push constants: a, n). */
export interface SaxpyObjects {
  readonly x: VulkanBuffer;
  readonly y: VulkanBuffer;
  readonly set: DescriptorSet;
  readonly layout: PipelineLayout;
  readonly pipeline: ComputePipeline;
}

export interface SaxpyObjectOptions {
  readonly spirv?: Uint32Array;
  readonly elements?: number;
  /** VkMemoryPropertyFlags of the buffers' memory (default 0: any type). */
  readonly memoryFlags?: number;
  /** VkBufferUsageFlags besides STORAGE_BUFFER. */
  readonly usage?: number;
}

export function createSaxpyObjects(pd: PhysicalDevice, device: Device, options: SaxpyObjectOptions = {}): SaxpyObjects {
  const buffer = () => {
    const b = device.createBuffer({ size: (options.elements ?? 256) * 4, usage: STORAGE_BUFFER | (options.usage ?? 0) });
    b.bindMemory(device.allocateMemory(b.memoryRequirements.size, pd.findMemoryType(b.memoryRequirements.memoryTypeBits, options.memoryFlags ?? 0)));
    return b;
  };
  const x = buffer();
  const y = buffer();
  const setLayout = device.createDescriptorSetLayout([
    { binding: 0, descriptorType: DESCRIPTOR_STORAGE_BUFFER, stageFlags: STAGE_COMPUTE },
    { binding: 1, descriptorType: DESCRIPTOR_STORAGE_BUFFER, stageFlags: STAGE_COMPUTE },
  ]);
  const set = device.createDescriptorPool(1, [{ type: DESCRIPTOR_STORAGE_BUFFER, descriptorCount: 2 }]).allocateSet(setLayout);
  set.writeBuffers([
    { binding: 0, descriptorType: DESCRIPTOR_STORAGE_BUFFER, buffer: x },
    { binding: 1, descriptorType: DESCRIPTOR_STORAGE_BUFFER, buffer: y },
  ]);
  const layout = device.createPipelineLayout([setLayout], [{ stageFlags: STAGE_COMPUTE, offset: 0, size: 8 }]);
  const pipeline = device.createComputePipeline({ layout, module: device.createShaderModule(options.spirv ?? readShader()) });
  return { x, y, set, layout, pipeline };
}

/** Creates the scenario's objects on the instance's first physical device (queue family 0); they go with `device.destroy()`. */
export function createRecordScenario(instance: Instance, spirv: Uint32Array = readShader()): RecordScenario {
  const pd = instance.enumeratePhysicalDevices()[0];
  if (pd === undefined) throw new UnavailableError('no Vulkan physical device');
  const device = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
  const { pipeline, layout, set } = createSaxpyObjects(pd, device, { spirv });
  const commandBuffer = device.createCommandPool(0).allocateCommandBuffer();
  const encoder = new CommandEncoder(commandBuffer, [pipeline, layout, set]);
  return { device, pipeline, layout, set, commandBuffer, params: new Uint32Array([0x3f800000, 256]), encoder };
}

function readShader(): Uint32Array {
  if (!existsSync(RECORD_SHADER)) throw new UnavailableError(`the record benchmark needs the SAXPY shader ${RECORD_SHADER} (in a source checkout)`);
  const bytes = readFileSync(RECORD_SHADER);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

// A frame records the mix in its natural order, group after group: bind pipeline, bind
// descriptor set, push constants, dispatch, barrier (the C loop too). Written as a switch on
// `i % 5` per command, the loop itself cost JavaScript 1.6 ns a command (the C loop's switch far
// less), which the encoder's figure carried.

/** One frame through the typed API: one N-API call per command. */
export function recordPerCall(s: RecordScenario, commands = RECORD_COMMANDS): void {
  const cb = s.commandBuffer;
  cb.begin(ONE_TIME_SUBMIT);
  let i = 0;
  for (; i + 5 <= commands; i += 5) {
    cb.bindPipeline(s.pipeline);
    cb.bindDescriptorSet(s.layout, s.set);
    cb.pushConstants(s.layout, STAGE_COMPUTE, 0, s.params);
    cb.dispatch(1);
    cb.pipelineBarrier(PIPELINE_STAGE_COMPUTE, PIPELINE_STAGE_COMPUTE, ACCESS_SHADER_WRITE, ACCESS_SHADER_READ);
  }
  // The rest of a count that is not a multiple of five, in the same order.
  if (i < commands) cb.bindPipeline(s.pipeline);
  if (i + 1 < commands) cb.bindDescriptorSet(s.layout, s.set);
  if (i + 2 < commands) cb.pushConstants(s.layout, STAGE_COMPUTE, 0, s.params);
  if (i + 3 < commands) cb.dispatch(1);
  cb.end();
}

/** The same frame through the encoder: written into its stream, recorded in one call. */
export function recordEncoded(s: RecordScenario, commands = RECORD_COMMANDS): void {
  const e = s.encoder;
  e.begin(ONE_TIME_SUBMIT);
  let i = 0;
  for (; i + 5 <= commands; i += 5) {
    e.bindPipeline(0);
    e.bindDescriptorSet(1, 2);
    e.pushConstants(1, STAGE_COMPUTE, 0, s.params);
    e.dispatch(1);
    e.pipelineBarrier(PIPELINE_STAGE_COMPUTE, PIPELINE_STAGE_COMPUTE, ACCESS_SHADER_WRITE, ACCESS_SHADER_READ);
  }
  if (i < commands) e.bindPipeline(0);
  if (i + 1 < commands) e.bindDescriptorSet(1, 2);
  if (i + 2 < commands) e.pushConstants(1, STAGE_COMPUTE, 0, s.params);
  if (i + 3 < commands) e.dispatch(1);
  e.end();
}

export interface RecordMeasurement {
  readonly commands: number;
  /** Wall ns per frame (begin, `commands` commands, end). */
  readonly perCall: Summary;
  readonly encoder: Summary;
  readonly cLoop: Summary;
  /**
   * Each round's runs (wall ns per frame), in round order: round r timed one run of each way in
   * turn, so a slow spell of the machine slows the three alike and cancels in the round's ratios.
   */
  readonly rounds?: { readonly perCall: readonly number[]; readonly encoder: readonly number[]; readonly cLoop: readonly number[] };
  /** Frames each way recorded, untimed, before the rounds (recordWarmupFrames). */
  readonly warmupFrames?: number;
}

/**
 * Frames of each way recorded before the timed rounds: V8 optimizes the encoder's methods and
 * end()'s walk, called once a frame, only after some hundred frames (a frame of 1,000 draws costs
 * 5-20× its steady figure over its first 150-200 frames on lavapipe), and an application records
 * thousands; the targets are about that steady frame. plan.warmupIterations overrides it.
 */
export const RECORD_WARMUP_FRAMES = 400;

export function recordWarmupFrames(plan: MeasurePlan): number {
  return plan.warmupIterations ?? Math.max(warmupIterations(plan), RECORD_WARMUP_FRAMES);
}

/** The targets' ratios: the median over the rounds of each round's ratio (without rounds, the ratio of the medians). */
export function recordRatios(m: RecordMeasurement): { readonly perCallOverEncoder: number; readonly encoderOverCLoop: number; readonly perCallOverCLoop: number } {
  const ratio = (a: readonly number[] | undefined, b: readonly number[] | undefined, sa: Summary, sb: Summary) =>
    a !== undefined && b !== undefined && a.length === b.length && a.length > 0 ? medianRoundRatio(a, b) : sa.median / sb.median;
  const r = m.rounds;
  return {
    perCallOverEncoder: ratio(r?.perCall, r?.encoder, m.perCall, m.encoder),
    encoderOverCLoop: ratio(r?.encoder, r?.cLoop, m.encoder, m.cLoop),
    perCallOverCLoop: ratio(r?.perCall, r?.cLoop, m.perCall, m.cLoop),
  };
}

/** Times the three ways, `plan.iterations` frames per timed run, after a warm-up of each (recordWarmupFrames): `plan.repeats` rounds of one run of each way. */
export function measureRecord(s: RecordScenario, plan: MeasurePlan, commands = RECORD_COMMANDS): RecordMeasurement {
  const native = nativeCommandStream();
  const cLoop = (frames: number) => native.cLoop(s.commandBuffer.handle, s.pipeline.handle, s.layout.handle, s.set.handle, commands, frames);
  // ns per frame over `frames` frames recorded one way.
  const timeFrames = (frames: number, record: (scenario: RecordScenario, count: number) => void): number => {
    const start = process.hrtime.bigint();
    for (let f = 0; f < frames; f++) record(s, commands);
    return Number(process.hrtime.bigint() - start) / frames;
  };
  const warmup = recordWarmupFrames(plan);
  timeFrames(warmup, recordPerCall);
  timeFrames(warmup, recordEncoded);
  cLoop(warmup);
  const [perCall, encoder, c] = timeInRounds(plan.repeats, [() => timeFrames(plan.iterations, recordPerCall), () => timeFrames(plan.iterations, recordEncoded), () => cLoop(plan.iterations)]);
  const rounds = { perCall: perCall!, encoder: encoder!, cLoop: c! };
  return { commands, perCall: summarize(rounds.perCall), encoder: summarize(rounds.encoder), cLoop: summarize(rounds.cLoop), rounds, warmupFrames: warmup };
}
