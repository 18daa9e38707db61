// Command pools, command buffers and queues. Recording and submission check their arguments and
// pass numbers and kept handles to the native side: no JavaScript objects are created per call.
import { VulkanError } from '../errors.js';
import type { AccessFlags, PipelineStageFlags, ShaderStageFlags } from '../../generated/vulkan.js';
import { InvalidArgumentError, InvalidStateError, describeValue, invalidArgument } from '../../core/errors.js';
import {
  BUFFER_USAGE,
  DescriptorPool,
  DeviceMemory,
  type DeviceLimits,
  type SubmissionQueue,
  VulkanBuffer,
  checkSize as size,
  checkUint as uint,
  ComputePipeline,
  DescriptorSet,
  DeviceChild,
  Fence,
  PipelineLayout,
  Semaphore,
  type DeviceOwner,
} from './device-objects.js';
import { toVulkanError, withVulkanErrors } from '../errors.js';
import { formatAspectMask, IMAGE_LAYOUTS, Image, type ImageLayoutName } from './image.js';
import { checkMemoryBarrierMasks, IMAGE_BARRIER_WORDS, writeImageBarrier } from './image-barrier.js';
import { vulkanCompute, type NativeVulkanCompute } from '../native/addon.js';
import { dynamicRenderingKey, Framebuffer, GraphicsPipeline, IMAGE_ASPECT, IMAGE_USAGE, LOAD_OPS, OwnedImage, RenderPass, STORE_OPS, type PipelineNeeds } from './graphics.js';
import { ImageView } from './device-objects.js';
import { checkBufferImageRegion, checkScissor, checkSynchronization2, checkViewport, checkWalkedTransfer } from './encoder/encoded-checks.js';
import { checkBeginQuery, checkCopyQueryPoolResults, checkEndQuery, checkEventCommand, checkEventCommand2, checkNoActiveQuery, checkNoQueryBegunInside, checkResetQueryPool, checkWriteTimestamp, QueryPool, VulkanEvent } from './queries.js';
import { readAttachmentLocations, readScissor, readViewport, requireCommand, type Rect2D, type Viewport } from './per-call/later-commands.js';
import { readBlit, type ImageBlitRegion } from './per-call/blit.js';
import { checkSubmit2, type Submit2Semaphores } from './per-call/submit2.js';
import { decodeWalked, ENCODED_COMMANDS, ENCODED_RUN_HEADERS, ENCODED_ENUMS, ENCODED_OPCODE_BASE, ENCODED_STRUCTS, type DecodedValue, type EncodedNodeInfo } from '../../generated/vulkan-encoder.js';

const VK_ERROR_VALIDATION_FAILED = -1000011001;

/**
 * A viewport inside the device's limits, as the driver reads it (32-bit floats):
 * VUID-VkViewport-width-01771, -height-01773 (maxViewportDimensions), -x-01774, -x-01232, -y-01775,
 * -y-01776, -y-01777, -y-01233 (viewportBoundsRange). `prefix` names the members in the error.
 */
function checkViewportLimits(what: string, limits: { readonly maxViewportDimensions: readonly [number, number]; readonly viewportBoundsRange: readonly [number, number] }, x: number, y: number, width: number, height: number, prefix: string): void {
  const dims = limits.maxViewportDimensions;
  const fx = Math.fround(x);
  const fy = Math.fround(y);
  const fw = Math.fround(width);
  const fh = Math.fround(height);
  if (fw > dims[0] || Math.abs(fh) > dims[1]) throw new InvalidArgumentError(`${what}: ${prefix}width and |${prefix}height| must be at most maxViewportDimensions ${dims[0]}x${dims[1]}, got ${width} and ${height}`, `${prefix}width`);
  const lo = limits.viewportBoundsRange[0];
  const hi = limits.viewportBoundsRange[1];
  if (fx < lo || fx + fw > hi || fy < lo || fy > hi || fy + fh < lo || fy + fh > hi) {
    throw new InvalidArgumentError(`${what}: ${prefix}x, x + width, y and y + height must lie in viewportBoundsRange [${lo}, ${hi}], got x ${x}, width ${width}, y ${y}, height ${height}`, `${prefix}x`);
  }
}
const NO_HANDLE = 0n;

// `Function & { prototype: T }`: VulkanBuffer has a private constructor, which no `new (...) => T` type admits.
function usable<T extends DeviceChild>(name: string, v: unknown, type: Function & { prototype: T }, device?: DeviceOwner): T {
  if (!(v instanceof type)) throw new InvalidArgumentError(`${name} must be a ${type.name}`);
  const child = v as T;
  if (child.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, `${name} (a ${type.name}) was destroyed`);
  if (device !== undefined && !child.ownedBy(device)) throw new InvalidArgumentError(`${name} (a ${type.name}) belongs to another device`, name);
  return child;
}

// VkCommandBufferUsageFlagBits
const ONE_TIME_SUBMIT = 0x1;
const SIMULTANEOUS_USE = 0x4;
const KNOWN_BEGIN_FLAGS = 0x7;
// The command buffer lifecycle (the specification's "Command Buffer Lifecycle"); pending is
// executable plus a submission not known to have completed.
const enum Lifecycle {
  Initial = 0,
  Recording = 1,
  Executable = 2,
}
/** Bytes of push constants a command buffer tracks (every device's maxPushConstantsSize fits). */
const PUSH_WORDS = 1024;
/** Vertex bindings a command buffer tracks (the specification requires maxVertexInputBindings of at least 16). */
const MAX_VERTEX_BINDINGS = 64;

export class CommandPool extends DeviceChild {
  protected readonly kind = 'VkCommandPool';
  readonly queueFamilyIndex: number;
  /** @internal the command buffers allocated from this pool and not freed */
  readonly buffers = new Set<CommandBuffer>();

  /** @internal flags: VkCommandPoolCreateFlags (RESET_COMMAND_BUFFER = 2 is always added so buffers can be re-recorded). */
  constructor(device: DeviceOwner, queueFamilyIndex: number, flags = 0) {
    uint('queueFamilyIndex', queueFamilyIndex);
    uint('flags', flags);
    super(device, withVulkanErrors(() => vulkanCompute().createCommandPool(device.liveHandle, queueFamilyIndex, flags | 0x2)));
    this.queueFamilyIndex = queueFamilyIndex;
  }

  /** vkAllocateCommandBuffers (one primary buffer). */
  allocateCommandBuffer(): CommandBuffer {
    this.live();
    const cb = new CommandBuffer(this.device, this, withVulkanErrors(() => this.native.allocateCommandBuffer(this.device.liveHandle, this.handle)));
    this.buffers.add(cb);
    return cb;
  }

  /** vkDestroyCommandPool frees its command buffers too. */
  protected release(): void {
    // VUID-vkDestroyCommandPool-commandPool-00041: none of its buffers pending.
    if (!this.device.isDestroyed) for (const cb of this.buffers) if (cb.pending) throw new InvalidStateError('destroy: a command buffer of the pool was submitted and has not completed (wait for its fence or the queue first)');
    for (const cb of [...this.buffers]) cb.abandon();
    this.buffers.clear();
    this.native.destroy(this.device.liveHandle, 'commandPool', this.handle);
  }
}

/**
 * What the commands recorded since begin() leave bound, and the objects they use: kept so that no
 * command reaches the driver in a state where it would be undefined behaviour (docs/usage.md,
 * "What the typed Vulkan API checks"). Reused arrays and counts: recording allocates nothing.
 */
class RecordingState {
  pipeline: ComputePipeline | null = null;
  readonly boundLayouts: (PipelineLayout | null)[] = [];
  readonly boundSets: (DescriptorSet | null)[] = [];
  // Graphics: the open rendering (0 none, 1 dynamic rendering, 2 a render pass) and its key (what
  // a pipeline drawing in it must have been made for), the graphics bind point's pipeline and sets,
  // the vertex bindings bound (by binding number), the index buffer, viewport and scissor set.
  rendering = 0;
  renderingKey = '';
  graphicsPipeline: GraphicsPipeline | null = null;
  readonly graphicsLayouts: (PipelineLayout | null)[] = [];
  readonly graphicsSets: (DescriptorSet | null)[] = [];
  readonly vertexBound = new Uint8Array(MAX_VERTEX_BINDINGS);
  indexBuffer: VulkanBuffer | null = null;
  indexOffset = 0;
  indexBytes = 4;
  // Where the bound index range ends (the buffer's size, or offset + size of vkCmdBindIndexBuffer2).
  indexEnd = 0;
  viewportSet = false;
  scissorSet = false;
  // What the encoder's walk keeps of the open rendering for vkCmdClearAttachments (encoded-checks.ts).
  renderColors = 0;
  renderDepth = false;
  renderStencil = false;
  readonly renderArea = new Int32Array(4);
  renderLayers = 0;
  // The occlusion query begun and not ended (queries.ts), and the rendering it began in.
  activeQueryPool: QueryPool | null = null;
  activeQuery = 0;
  activeQueryRendering = 0;
  readonly queryMarks = new Map<QueryPool, Uint8Array>();
  timestampBits: number | undefined = undefined;
  pushLayout: PipelineLayout | null = null;
  readonly pushed = new Uint8Array(PUSH_WORDS / 4);
  // The objects the recorded commands use (each once), and each descriptor set's updateSerial then.
  readonly used: (DeviceChild | Image)[] = [];
  readonly usedSerial: number[] = [];
  usedCount = 0;

  clear(): void {
    this.pipeline = null;
    this.boundLayouts.fill(null);
    this.boundSets.fill(null);
    this.rendering = 0;
    this.renderingKey = '';
    this.graphicsPipeline = null;
    this.graphicsLayouts.fill(null);
    this.graphicsSets.fill(null);
    this.vertexBound.fill(0);
    this.indexBuffer = null;
    this.viewportSet = false;
    this.scissorSet = false;
    this.renderColors = 0;
    this.renderLayers = 0;
    this.activeQueryPool = null;
    if (this.queryMarks.size !== 0) this.queryMarks.clear();
    this.pushLayout = null;
    this.pushed.fill(0);
    this.used.fill(null as unknown as DeviceChild, 0, this.usedCount); // drop the references (the array keeps its length)
    this.usedCount = 0;
  }

  use(object: DeviceChild | Image): void {
    const used = this.used;
    const count = this.usedCount;
    for (let i = 0; i < count; i++) {
      if (used[i] === object) {
        if (object instanceof DescriptorSet) this.usedSerial[i] = object.updateSerial;
        return;
      }
    }
    used[count] = object;
    this.usedSerial[count] = object instanceof DescriptorSet ? object.updateSerial : 0;
    this.usedCount = count + 1;
  }

  bindPipeline(p: ComputePipeline): void {
    this.pipeline = p;
    this.use(p);
  }

  /** VUID-vkCmdBindDescriptorSets-firstSet-00360, -pDescriptorSets-00358 (checked before the call). */
  static checkBindSet(l: PipelineLayout, s: DescriptorSet, firstSet: number): void {
    const setLayout = l.setLayouts[firstSet];
    if (setLayout === undefined) throw new InvalidArgumentError(`bindDescriptorSet: firstSet ${firstSet} is not a set of the layout (it has ${l.setLayouts.length})`, 'firstSet');
    if (setLayout !== s.layout && setLayout.key !== s.layout.key) throw new InvalidArgumentError(`bindDescriptorSet: the set was allocated with a set layout unlike the layout's set ${firstSet}`, 'set');
  }

  bindSet(l: PipelineLayout, s: DescriptorSet, firstSet: number): void {
    this.boundLayouts[firstSet] = l;
    this.boundSets[firstSet] = s;
    this.use(l);
    this.use(s);
  }

  push(l: PipelineLayout, offset: number, bytes: number): void {
    // Values pushed with a layout of other push-constant ranges are not kept for this one.
    if (this.pushLayout !== null && this.pushLayout !== l && this.pushLayout.pushKey !== l.pushKey) this.pushed.fill(0);
    this.pushLayout = l;
    this.pushed.fill(1, offset / 4, (offset + bytes) / 4);
    this.use(l);
  }

  /**
   * InvalidStateError unless a dispatch now reads only what is bound and defined: a live compute
   * pipeline (VUID-vkCmdDispatch-None-08606), a set bound for each set the shader declares with a
   * layout compatible with the pipeline's (-08600; -08114: each binding it declares written with
   * a live resource) and its push constants pushed with a compatible layout (-maintenance4-08602);
   * InvalidArgumentError for group counts past maxComputeWorkGroupCount (-groupCountX-00386).
   */
  checkDispatch(limits: DeviceLimits, x: number, y: number, z: number): void {
    const max = limits.maxComputeWorkGroupCount;
    if (x > max[0] || y > max[1] || z > max[2]) {
      throw new InvalidArgumentError(`dispatch: the group counts (${x}, ${y}, ${z}) must be at most maxComputeWorkGroupCount (${max[0]}, ${max[1]}, ${max[2]})`, 'groupCountX');
    }
    const p = this.pipeline;
    if (p === null) throw new InvalidStateError('dispatch: no compute pipeline is bound (bindPipeline() first)');
    if (p.isDestroyed) throw new InvalidStateError('dispatch: the bound compute pipeline was destroyed');
    if (this.rendering !== 0) throw new InvalidStateError('dispatch: inside a render pass or dynamic rendering (VUID-vkCmdDispatch-renderpass: end it first)');
    this.checkBound('dispatch', p, this.boundLayouts, this.boundSets, p.pushRanges);
  }

  /**
   * InvalidStateError unless what `p`'s shaders read is bound and defined: a set bound (in `layouts`
   * and `sets`, one bind point's) for each set they declare, with a compatible layout and each
   * binding written with a live resource, and their push-constant bytes pushed with a compatible layout.
   */
  checkBound(
    what: string,
    p: Pick<PipelineNeeds, 'layout' | 'requiredSets' | 'requiredBindings'>,
    layouts: readonly (PipelineLayout | null)[],
    boundSets: readonly (DescriptorSet | null)[],
    pushRanges: readonly { readonly offset: number; readonly end: number }[],
  ): void {
    const sets = p.requiredSets;
    const layoutKeys = p.layout.compatKeys;
    for (let i = 0; i < sets.length; i++) {
      const n = sets[i]!;
      const boundLayout = layouts[n];
      const set = boundSets[n];
      if (boundLayout === undefined || boundLayout === null || set === undefined || set === null) {
        throw new InvalidStateError(`${what}: the pipeline's shader uses descriptor set ${n}, and no set is bound there (bindDescriptorSet(layout, set, ${n}${what === 'dispatch' ? '' : ", 'graphics'"}) first)`);
      }
      if (boundLayout !== p.layout && boundLayout.compatKeys[n] !== layoutKeys[n]) {
        throw new InvalidStateError(`${what}: the set bound at ${n} was bound with a pipeline layout not compatible with the pipeline's for set ${n}`);
      }
      if (set.isDestroyed) throw new InvalidStateError(`${what}: the descriptor set bound at ${n} was destroyed`);
      const bindings = p.requiredBindings[i]!;
      for (let j = 0; j < bindings.length; j++) {
        const why = set.unreadable(bindings[j]!);
        if (why !== null) throw new InvalidStateError(`${what}: the pipeline's shader reads set ${n}, binding ${bindings[j]}: ${why}`);
      }
    }
    for (let r = 0; r < pushRanges.length; r++) {
      const push = pushRanges[r]!;
      const pl = this.pushLayout;
      if (pl === null) throw new InvalidStateError(`${what}: the pipeline's shader reads push constants [${push.offset}, ${push.end}) and none were pushed (pushConstants() first)`);
      if (pl !== p.layout && pl.pushKey !== p.layout.pushKey) throw new InvalidStateError(`${what}: the push constants were pushed with a layout whose push-constant ranges are not the pipeline layout's`);
      for (let at = push.offset; at < push.end; at += 4) {
        if (this.pushed[at >>> 2] !== 1) throw new InvalidStateError(`${what}: the pipeline's shader reads push-constant bytes [${push.offset}, ${push.end}) and byte ${at} was never pushed`);
      }
    }
  }

  /**
   * InvalidStateError unless a draw now is defined: inside dynamic rendering or a render pass
   * (VUID-vkCmdDraw-renderpass), a live graphics pipeline bound (-None-08606) made for the
   * rendering's formats and view mask or a compatible render pass and subpass (-renderPass-02684,
   * -dynamicRenderingUnusedAttachments-08911 and its kin), every vertex binding it declares bound
   * (-None-04007), viewport and scissor set (-None-07831, -None-07832), what its shaders read bound
   * (as for dispatch).
   */
  checkDraw(what: string): GraphicsPipeline {
    if (this.rendering === 0) throw new InvalidStateError(`${what}: not inside a render pass or dynamic rendering (beginRendering() or beginRenderPass() first)`);
    const p = this.graphicsPipeline;
    if (p === null) throw new InvalidStateError(`${what}: no graphics pipeline is bound (bindPipeline() first)`);
    if (p.isDestroyed) throw new InvalidStateError(`${what}: the bound graphics pipeline was destroyed`);
    if (p.renderingKey !== this.renderingKey) {
      throw new InvalidStateError(
        `${what}: the bound graphics pipeline was made for ${p.renderPass === null ? 'dynamic rendering with other attachment formats or view mask' : 'a render pass (and subpass)'} unlike the current ${this.rendering === 1 ? 'dynamic rendering' : 'render pass'}`,
      );
    }
    const bindings = p.vertexBindings;
    for (let i = 0; i < bindings.length; i++) {
      if (this.vertexBound[bindings[i]!] !== 1) throw new InvalidStateError(`${what}: the pipeline reads vertex binding ${bindings[i]} and no vertex buffer is bound there (bindVertexBuffers() first)`);
    }
    if (!this.viewportSet) throw new InvalidStateError(`${what}: no viewport is set (the pipeline's viewport is dynamic: setViewport() first)`);
    if (!this.scissorSet) throw new InvalidStateError(`${what}: no scissor is set (the pipeline's scissor is dynamic: setScissor() first)`);
    this.checkBound(what, p, this.graphicsLayouts, this.graphicsSets, p.pushRanges);
    return p;
  }

  /** InvalidStateError when an object the recorded commands use is gone, or a set they bind was written since. */
  checkStillValid(): void {
    for (let i = 0; i < this.usedCount; i++) {
      const u = this.used[i]!;
      if (u.isDestroyed) throw new InvalidStateError(`submit: a ${u instanceof Image ? 'Image' : u.constructor.name} the recorded commands use was destroyed (record the command buffer again)`);
      if (u instanceof VulkanBuffer && (u.memory === null || u.memory.isDestroyed)) throw new InvalidStateError('submit: the memory of a buffer the recorded commands use was destroyed');
      if (u instanceof OwnedImage && (u.memory === null || u.memory.isDestroyed)) throw new InvalidStateError('submit: the memory of an image the recorded commands use was destroyed');
      if (u instanceof DescriptorSet) {
        if (u.updateSerial !== this.usedSerial[i]) throw new InvalidStateError('submit: a descriptor set the recorded commands bind was written after it was bound (record the command buffer again)');
        const why = u.brokenWrite();
        if (why !== null) throw new InvalidStateError(`submit: ${why}`);
      }
    }
  }

  uses(child: DeviceChild): boolean {
    for (let i = 0; i < this.usedCount; i++) {
      const u = this.used[i]!;
      if (u === child) return true;
      if (u instanceof Image && (u.backing === child || (u instanceof OwnedImage && u.memory === child))) return true;
      if (u instanceof ImageView && (u.image.backing === child || (u.image instanceof OwnedImage && u.image.memory === child))) return true;
      if (u instanceof VulkanBuffer && child instanceof DeviceMemory && u.memory === child) return true;
      if (u instanceof DescriptorSet && ((child instanceof DescriptorPool && u.pool === child) || u.references(child))) return true;
    }
    return false;
  }
}

export class CommandBuffer extends DeviceChild {
  protected readonly kind = 'VkCommandBuffer';
  readonly #pool: CommandPool;
  readonly #n: NativeVulkanCompute;
  readonly #colour = new Float32Array(4);

  #lifecycle = Lifecycle.Initial;
  #flags = 0;
  #state = new RecordingState();
  // Where an encoded stream's commands are checked before it is recorded (swapped in on success).
  #scratch = new RecordingState();
  // The last submission: its queue, serial and fence; and whether a one-time recording was submitted.
  #queue: SubmissionQueue | null = null;
  #serial = 0;
  #fence: Fence | null = null;
  #submittedOnce = false;

  /** @internal */
  constructor(device: DeviceOwner, pool: CommandPool, handle: bigint) {
    super(device, handle);
    this.#pool = pool;
    this.#n = this.native;
    this.#state.timestampBits = this.#scratch.timestampBits = device.timestampValidBits(pool.queueFamilyIndex);
  }

  /** Whether begin() was called and end() not yet. */
  get isRecording(): boolean {
    return this.#lifecycle === Lifecycle.Recording;
  }

  /** @internal Whether the recording was begun with SIMULTANEOUS_USE. */
  get simultaneousUse(): boolean {
    return (this.#flags & SIMULTANEOUS_USE) !== 0;
  }

  /** @internal Whether the last submission of the buffer is not known to have completed. */
  get pending(): boolean {
    const queue = this.#queue;
    if (queue === null) return false;
    if (queue.completedSerial >= this.#serial) return false;
    const fence = this.#fence;
    if (fence !== null && fence.signals(queue, this.#serial) && !fence.inFlight) return false;
    return queue.completedSerial < this.#serial;
  }

  /** @internal Whether a command recorded since the last begin() uses `child` (directly, through a set, or as a buffer's memory). */
  uses(child: DeviceChild): boolean {
    return child === this || child === this.#pool || this.#state.uses(child);
  }

  #notPending(what: string): void {
    if (this.pending) throw new InvalidStateError(`${what}: the command buffer was submitted and has not completed (await its fence, or queue.waitIdle(), first)`);
  }

  /**
   * InvalidStateError inside a render pass or dynamic rendering, for the commands recorded outside
   * them only (VUID-vkCmdCopyBuffer-renderpass, -vkCmdClearColorImage-renderpass; a pipeline barrier
   * inside one needs a self-dependency the typed API does not make: VUID-vkCmdPipelineBarrier-None-09553/-07889).
   */
  #outsideRendering(what: string): void {
    if (this.#state.rendering !== 0) throw new InvalidStateError(`${what}: inside ${this.#state.rendering === 1 ? 'dynamic rendering (endRendering() first)' : 'a render pass (endRenderPass() first)'}`);
  }

  #recording(what: string): void {
    if (this.#lifecycle !== Lifecycle.Recording) {
      throw new InvalidStateError(
        this.#lifecycle === Lifecycle.Initial ? `${what}: the command buffer is not recording (call begin() first)` : `${what}: the command buffer's recording was ended (call begin() to record it again)`,
      );
    }
  }

  /** vkBeginCommandBuffer (flags: VkCommandBufferUsageFlags; ONE_TIME_SUBMIT = 1). Resets a recorded buffer. */
  begin(flags = 0): this {
    uint('flags', flags);
    if ((flags & ~KNOWN_BEGIN_FLAGS) !== 0) throw new InvalidArgumentError(`begin(flags): flags must be VkCommandBufferUsageFlags (bits of 0x7), got 0x${flags.toString(16)}`, 'flags');
    this.live();
    // VUID-vkBeginCommandBuffer-commandBuffer-00049: not recording, not pending.
    if (this.#lifecycle === Lifecycle.Recording) throw new InvalidStateError('begin: the command buffer is already recording (end() it first)');
    this.#notPending('begin');
    try {
      this.#n.beginCommandBuffer(this.handle, flags);
    } catch (error) {
      throw toVulkanError(error);
    }
    this.#state.clear();
    this.#lifecycle = Lifecycle.Recording;
    this.#flags = flags;
    this.#submittedOnce = false;
    return this;
  }

  end(): this {
    this.live();
    // VUID-vkEndCommandBuffer-commandBuffer-00059
    this.#recording('end');
    // VUID-vkEndCommandBuffer-commandBuffer-00060 (no render pass active), -None-06281 (no dynamic rendering active)
    if (this.#state.rendering !== 0) throw new InvalidStateError(`end: ${this.#state.rendering === 1 ? 'dynamic rendering is open (endRendering() first)' : 'a render pass is open (endRenderPass() first)'}`);
    checkNoActiveQuery(this.#state, 'end');
    try {
      this.#n.endCommandBuffer(this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    this.#lifecycle = Lifecycle.Executable;
    return this;
  }

  /** vkResetCommandBuffer */
  reset(): this {
    this.live();
    // VUID-vkResetCommandBuffer-commandBuffer-00045
    this.#notPending('reset');
    try {
      this.#n.resetCommandBuffer(this.handle);
    } catch (error) {
      throw toVulkanError(error);
    }
    this.#state.clear();
    this.#lifecycle = Lifecycle.Initial;
    this.#submittedOnce = false;
    return this;
  }

  /** vkCmdBindPipeline: a compute pipeline at the compute bind point, a graphics pipeline at the graphics one. */
  bindPipeline(pipeline: ComputePipeline | GraphicsPipeline): this {
    if (pipeline instanceof GraphicsPipeline) return this.#bindGraphicsPipeline(pipeline);
    const p = usable('pipeline', pipeline, ComputePipeline, this.device);
    this.live();
    this.#recording('bindPipeline');
    this.#n.cmdBindComputePipeline(this.handle, p.handle);
    this.#state.bindPipeline(p);
    return this;
  }

  #bindGraphicsPipeline(pipeline: GraphicsPipeline): this {
    const p = usable('pipeline', pipeline, GraphicsPipeline, this.device);
    this.live();
    this.#recording('bindPipeline');
    this.#n.cmdBindGraphicsPipeline(this.handle, p.handle);
    this.#state.graphicsPipeline = p;
    this.#state.use(p);
    return this;
  }

  /** vkCmdBindDescriptorSets (one set at `firstSet`; bindPoint 'compute', the default, or 'graphics'). */
  bindDescriptorSet(layout: PipelineLayout, set: DescriptorSet, firstSet = 0, bindPoint: 'compute' | 'graphics' = 'compute'): this {
    const l = usable('layout', layout, PipelineLayout, this.device);
    const s = usable('set', set, DescriptorSet, this.device);
    uint('firstSet', firstSet);
    if (bindPoint !== 'compute' && bindPoint !== 'graphics') throw new InvalidArgumentError(`bindDescriptorSet: bindPoint must be 'compute' or 'graphics', got ${describeValue(bindPoint)}`, 'bindPoint');
    this.live();
    this.#recording('bindDescriptorSet');
    RecordingState.checkBindSet(l, s, firstSet);
    if (bindPoint === 'graphics') {
      this.#n.cmdBindGraphicsDescriptorSet(this.handle, l.handle, firstSet, s.handle);
      const st = this.#state;
      st.graphicsLayouts[firstSet] = l;
      st.graphicsSets[firstSet] = s;
      st.use(l);
      st.use(s);
      return this;
    }
    this.#n.cmdBindComputeDescriptorSet(this.handle, l.handle, firstSet, s.handle);
    this.#state.bindSet(l, s, firstSet);
    return this;
  }

  /** vkCmdPushConstants: `data`'s bytes at `offset` (stageFlags: VkShaderStageFlags, e.g. ShaderStageFlags.COMPUTE). */
  pushConstants(layout: PipelineLayout, stageFlags: ShaderStageFlags, offset: number, data: ArrayBufferView): this {
    const l = usable('layout', layout, PipelineLayout, this.device);
    uint('stageFlags', stageFlags);
    uint('offset', offset);
    if (!ArrayBuffer.isView(data)) throw new InvalidArgumentError('pushConstants: data must be a TypedArray or DataView');
    const bytes = data.byteLength;
    l.checkPushConstants(stageFlags, offset, bytes);
    this.live();
    this.#recording('pushConstants');
    this.#n.cmdPushConstants(this.handle, l.handle, stageFlags, offset, data);
    this.#state.push(l, offset, bytes);
    return this;
  }

  /** vkCmdDispatch */
  dispatch(groupCountX: number, groupCountY = 1, groupCountZ = 1): this {
    uint('groupCountX', groupCountX);
    uint('groupCountY', groupCountY);
    uint('groupCountZ', groupCountZ);
    this.live();
    this.#recording('dispatch');
    this.#state.checkDispatch(this.device.limits, groupCountX, groupCountY, groupCountZ);
    this.#n.cmdDispatch(this.handle, groupCountX, groupCountY, groupCountZ);
    return this;
  }

  /** vkCmdPipelineBarrier with one global VkMemoryBarrier (masks: PipelineStageFlags, AccessFlags). */
  pipelineBarrier(srcStageMask: PipelineStageFlags, dstStageMask: PipelineStageFlags, srcAccessMask: AccessFlags, dstAccessMask: AccessFlags): this {
    checkMemoryBarrierMasks(srcStageMask, dstStageMask, srcAccessMask, dstAccessMask, this.device.graphicsFeatures.synchronization2 === true);
    this.live();
    this.#recording('pipelineBarrier');
    this.#outsideRendering('pipelineBarrier');
    this.#n.cmdPipelineBarrier(this.handle, srcStageMask, dstStageMask, srcAccessMask, dstAccessMask);
    return this;
  }

  /** vkCmdCopyBuffer (one region). */
  copyBuffer(src: VulkanBuffer, dst: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint = 0, dstOffset: number | bigint = 0): this {
    const s = usable('src', src, VulkanBuffer, this.device);
    const d = usable('dst', dst, VulkanBuffer, this.device);
    size('bytes', bytes);
    size('srcOffset', srcOffset);
    size('dstOffset', dstOffset);
    this.live();
    this.#recording('copyBuffer');
    this.#outsideRendering('copyBuffer');
    checkCopy(s, d, bytes, srcOffset, dstOffset);
    this.#n.cmdCopyBuffer(this.handle, s.handle, d.handle, srcOffset, dstOffset, bytes);
    this.#state.use(s);
    this.#state.use(d);
    return this;
  }

  /**
   * vkCmdPipelineBarrier with one VkImageMemoryBarrier: a layout transition of `image` (its
   * aspects, image.aspectMask: colour, or depth and stencil; every mip level, all its array layers
   * unless `layers` says which).
   */
  imageBarrier(image: Image, barrier: ImageBarrier): this {
    const handle = this.#image('imageBarrier', image);
    const b = BARRIER_WORDS;
    writeImageBarrier(barrier, image.arrayLayers, b, 0);
    const aspect = formatAspectMask(image.format);
    if (aspect === IMAGE_ASPECT.color) this.#n.cmdImageBarrier(this.handle, handle, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!);
    else this.#n.cmdImageBarrier(this.handle, handle, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!, aspect);
    return this;
  }

  /**
   * vkCmdClearColorImage with a float colour (0..1 for UNORM and SRGB formats) over every mip
   * level and the array layers [baseArrayLayer, baseArrayLayer + layerCount). `layout` is the
   * image's layout now: 'transfer-dst-optimal' or 'general'.
   */
  clearColorImage(image: Image, layout: 'transfer-dst-optimal' | 'general', r: number, g: number, b: number, a: number, baseArrayLayer = 0, layerCount = 1): this {
    const handle = this.#image('clearColorImage', image);
    // VUID-vkCmdClearColorImage-image-00002 (TRANSFER_DST usage); its format is checkLayers'.
    if (image.usage !== undefined && (image.usage & IMAGE_USAGE.TRANSFER_DST) === 0) throw new InvalidArgumentError('clearColorImage: the image has no TRANSFER_DST (0x2) usage', 'image');
    if (layout !== 'transfer-dst-optimal' && layout !== 'general') throw new InvalidArgumentError("clearColorImage: layout must be 'transfer-dst-optimal' or 'general'");
    if (typeof r !== 'number' || typeof g !== 'number' || typeof b !== 'number' || typeof a !== 'number') throw new InvalidArgumentError('clearColorImage: the colour is 4 numbers');
    checkLayers(image, baseArrayLayer, layerCount, 'clearColorImage'); // one call (V8 inlines this method only while it stays small)
    // Through a kept Float32Array: four fractional numbers passed to a native function would each
    // be boxed (a heap object per channel per call).
    const colour = this.#colour;
    colour[0] = r;
    colour[1] = g;
    colour[2] = b;
    colour[3] = a;
    this.#n.cmdClearColorImage(this.handle, handle, IMAGE_LAYOUTS[layout], colour, baseArrayLayer, layerCount);
    return this;
  }

  /**
   * vkCmdClearDepthStencilImage over every mip level and the array layers [baseArrayLayer,
   * baseArrayLayer + layerCount) of an image of a depth/stencil format: its depth aspect to `depth`
   * (in [0, 1]: VUID-VkClearDepthStencilValue-depth-00022) and its stencil aspect, where it has one,
   * to `stencil` (an integer, the low bits used). `layout` is the image's layout now:
   * 'transfer-dst-optimal' or 'general'.
   */
  clearDepthStencilImage(image: Image, layout: 'transfer-dst-optimal' | 'general', depth: number, stencil = 0, baseArrayLayer = 0, layerCount = 1): this {
    const handle = this.#image('clearDepthStencilImage', image);
    if (layout !== 'transfer-dst-optimal' && layout !== 'general') throw new InvalidArgumentError("clearDepthStencilImage: layout must be 'transfer-dst-optimal' or 'general'", 'layout');
    if (typeof depth !== 'number' || !(depth >= 0 && depth <= 1)) throw invalidArgument('clearDepthStencilImage: depth', 'a number in [0, 1]', depth);
    if (typeof stencil !== 'number' || !Number.isInteger(stencil) || stencil < 0 || stencil > 0xffff_ffff) throw invalidArgument('clearDepthStencilImage: stencil', 'an integer in [0, 2^32)', stencil);
    checkLayers(image, baseArrayLayer, layerCount, 'clearDepthStencilImage');
    this.#n.cmdClearDepthStencilImage(this.handle, handle, IMAGE_LAYOUTS[layout], depth, stencil, image.aspectMask, baseArrayLayer, layerCount);
    return this;
  }


  // ---- queries and events (docs/usage.md, "Queries and events") -------------------------------

  /** vkCmdResetQueryPool of queries [firstQuery, firstQuery + queryCount) (default: the whole pool). */
  resetQueryPool(pool: QueryPool, firstQuery = 0, queryCount?: number): this {
    const p = usable('pool', pool, QueryPool, this.device);
    const count = queryCount ?? p.queryCount - firstQuery;
    this.live();
    this.#recording('resetQueryPool');
    checkResetQueryPool(this.#state, 'resetQueryPool', p, firstQuery, count);
    this.#n.cmdQuery(this.handle, 0, p.handle, firstQuery, count);
    this.#state.use(p);
    return this;
  }

  /** vkCmdBeginQuery of an occlusion query (flags 0). */
  beginQuery(pool: QueryPool, query: number, flags = 0): this {
    const p = usable('pool', pool, QueryPool, this.device);
    this.live();
    this.#recording('beginQuery');
    checkBeginQuery(this.#state, 'beginQuery', p, query, flags);
    this.#n.cmdQuery(this.handle, 1, p.handle, query, flags);
    this.#state.use(p);
    return this;
  }

  /** vkCmdEndQuery of the active query. */
  endQuery(pool: QueryPool, query: number): this {
    const p = usable('pool', pool, QueryPool, this.device);
    this.live();
    this.#recording('endQuery');
    checkEndQuery(this.#state, 'endQuery', p, query);
    this.#n.cmdQuery(this.handle, 2, p.handle, query, 0);
    return this;
  }

  /** vkCmdWriteTimestamp: the time `pipelineStage` (one PipelineStageFlags bit) is reached, into a timestamp query. */
  writeTimestamp(pipelineStage: number, pool: QueryPool, query: number): this {
    const p = usable('pool', pool, QueryPool, this.device);
    this.live();
    this.#recording('writeTimestamp');
    checkWriteTimestamp(this.#state, 'writeTimestamp', p, query, pipelineStage);
    this.#n.cmdQuery(this.handle, 3, p.handle, query, pipelineStage);
    this.#state.use(p);
    return this;
  }

  /** vkCmdCopyQueryPoolResults into `buffer` (TRANSFER_DST usage) at `offset`, `stride` apart (flags: VkQueryResultFlags, e.g. 0x1 for 64-bit results). */
  copyQueryPoolResults(pool: QueryPool, firstQuery: number, queryCount: number, buffer: VulkanBuffer, offset: number | bigint, stride: number | bigint, flags = 0): this {
    const p = usable('pool', pool, QueryPool, this.device);
    const b = usable('buffer', buffer, VulkanBuffer, this.device);
    size('offset', offset);
    size('stride', stride);
    this.live();
    this.#recording('copyQueryPoolResults');
    checkCopyQueryPoolResults(this.#state, 'copyQueryPoolResults', p, firstQuery, queryCount, b, offset, stride, flags);
    this.#n.cmdCopyQueryPoolResults(this.handle, p.handle, firstQuery, queryCount, b.handle, offset, stride, flags);
    this.#state.use(p);
    this.#state.use(b);
    return this;
  }

  /** vkCmdSetEvent: the event is set when the stages of `stageMask` are done. */
  setEvent(event: VulkanEvent, stageMask: number): this {
    return this.#event('setEvent', event, stageMask, true);
  }

  /** vkCmdResetEvent */
  resetEvent(event: VulkanEvent, stageMask: number): this {
    return this.#event('resetEvent', event, stageMask, false);
  }

  #event(what: string, event: VulkanEvent, stageMask: number, set: boolean): this {
    const e = usable('event', event, VulkanEvent, this.device);
    this.live();
    this.#recording(what);
    checkEventCommand(this.#state, what, stageMask);
    this.#n.cmdEvent(this.handle, e.handle, stageMask, set);
    this.#state.use(e);
    return this;
  }

  // ---- graphics (docs/usage.md, "Vulkan: graphics") --------------------------------------------

  #attachment(what: string, name: string, v: unknown, depth: boolean): { view: ImageView; layout: number; loadOp: number; storeOp: number } {
    if (typeof v !== 'object' || v === null) throw new InvalidArgumentError(`${what}: ${name} must be an object`, name);
    const a = v as RenderingAttachment;
    const view = usable(`${name}.view`, a.view, ImageView, this.device);
    const image = view.image;
    image.checkBacked(`${what}: ${name}.view's image`);
    // VUID-VkRenderingInfo-colorAttachmentCount-06087 / -pDepthAttachment-06088 (usage), -06547 (aspect)
    const usage = depth ? IMAGE_USAGE.DEPTH_STENCIL_ATTACHMENT : IMAGE_USAGE.COLOR_ATTACHMENT;
    if (image.usage !== undefined && (image.usage & usage) === 0) throw new InvalidArgumentError(`${what}: ${name}.view's image has no ${depth ? 'DEPTH_STENCIL_ATTACHMENT (0x20)' : 'COLOR_ATTACHMENT (0x10)'} usage`, `${name}.view`);
    if (depth !== ((view.aspect & IMAGE_ASPECT.color) === 0)) throw new InvalidArgumentError(`${what}: ${name}.view is ${depth ? 'a colour view where a depth view goes' : 'a depth/stencil view where a colour view goes'}`, `${name}.view`);
    const layout = layoutOf(`${name}.layout`, a.layout ?? (depth ? 'depth-attachment-optimal' : 'color-attachment-optimal'));
    const loadOp = pick(`${name}.loadOp`, LOAD_OPS, a.loadOp);
    const storeOp = pick(`${name}.storeOp`, STORE_OPS, a.storeOp);
    return { view, layout, loadOp, storeOp };
  }

  /**
   * vkCmdBeginRendering (Vulkan 1.3 dynamic rendering): draws go to `colorAttachments` and
   * `depthAttachment` until endRendering(). renderArea defaults to the first attachment's extent.
   */
  beginRendering(info: RenderingInfo): this {
    if (typeof info !== 'object' || info === null) throw new InvalidArgumentError('beginRendering(info): info must be an object', 'info');
    this.live();
    this.#recording('beginRendering');
    const st = this.#state;
    // VUID-vkCmdBeginRendering-renderpass (not inside a render pass), -dynamicRendering-06446 (the feature)
    if (st.rendering !== 0) throw new InvalidStateError('beginRendering: a render pass or dynamic rendering is already open (end it first)');
    if (this.device.graphicsFeatures.dynamicRendering === false) throw new InvalidStateError('beginRendering: the device was created without the dynamicRendering feature (createDevice({ enabledFeatures: { dynamicRendering: true } }))');
    if (!Array.isArray(info.colorAttachments)) throw new InvalidArgumentError('beginRendering: info.colorAttachments must be an array', 'info.colorAttachments');
    const colors = info.colorAttachments.map((a, i) => this.#attachment('beginRendering', `info.colorAttachments[${i}]`, a, false));
    const depth = info.depthAttachment === undefined ? null : this.#attachment('beginRendering', 'info.depthAttachment', info.depthAttachment, true);
    const views = depth === null ? colors.map((c) => c.view) : [...colors.map((c) => c.view), depth.view];
    if (views.length === 0) throw new InvalidArgumentError('beginRendering: give at least one colour or depth attachment', 'info.colorAttachments');
    const first = views[0]!.image;
    const area = renderArea('beginRendering', info.renderArea, first.width, first.height);
    const viewMask = info.viewMask ?? 0;
    const layerCount = info.layerCount ?? 1;
    uint('info.viewMask', viewMask);
    uint('info.layerCount', layerCount);
    // VUID-VkRenderingInfo-viewMask-06069 (layerCount above 0 without multiview), -multiview-06127 (the feature),
    // -viewMask-06128 (views inside each attachment's layers), -pNext-06079/-06080 (the area inside each attachment)
    if (viewMask === 0 && layerCount === 0) throw new InvalidArgumentError('beginRendering: info.layerCount must be above 0 when info.viewMask is 0', 'info.layerCount');
    if (viewMask !== 0 && this.device.graphicsFeatures.multiview === false) throw new InvalidStateError('beginRendering: info.viewMask needs the multiview feature, and the device was created without it');
    const needLayers = viewMask !== 0 ? 32 - Math.clz32(viewMask) : layerCount;
    for (let i = 0; i < views.length; i++) {
      const v = views[i]!;
      if (area.x + area.width > v.image.width || area.y + area.height > v.image.height) {
        throw new InvalidArgumentError(`beginRendering: the render area [${area.x}, ${area.y}, ${area.width}x${area.height}] is not inside attachment ${i}'s ${v.image.width}x${v.image.height}`, 'info.renderArea');
      }
      if (v.layerCount < needLayers) throw new InvalidArgumentError(`beginRendering: attachment ${i}'s view has ${v.layerCount} layer(s), the rendering needs ${needLayers}${viewMask !== 0 ? ` (viewMask 0b${viewMask.toString(2)})` : ''}`, 'info.viewMask');
    }
    const clears = this.#clears;
    for (let i = 0; i < colors.length; i++) writeColour(clears, i, info.colorAttachments[i]!.clearValue);
    if (depth !== null) writeDepth(clears, colors.length, info.depthAttachment!.clearValue);
    this.#n.cmdBeginRendering(
      this.handle,
      area.x,
      area.y,
      area.width,
      area.height,
      layerCount,
      viewMask,
      colors.map((c) => ({ view: c.view.handle, layout: c.layout, loadOp: c.loadOp, storeOp: c.storeOp })),
      depth === null ? null : { view: depth.view.handle, layout: depth.layout, loadOp: depth.loadOp, storeOp: depth.storeOp },
      clears.buffer,
    );
    st.rendering = 1;
    st.renderColors = colors.length;
    st.renderingKey = dynamicRenderingKey(
      colors.map((c) => c.view.format),
      depth !== null && (depth.view.aspect & IMAGE_ASPECT.depth) !== 0 ? depth.view.format : 0,
      depth !== null && (formatAspectMask(depth.view.format) & IMAGE_ASPECT.stencil) !== 0 && (depth.view.aspect & IMAGE_ASPECT.stencil) !== 0 ? depth.view.format : 0,
      viewMask,
    );
    for (const v of views) {
      st.use(v);
      st.use(v.image);
    }
    return this;
  }

  /** vkCmdEndRendering */
  endRendering(): this {
    this.live();
    this.#recording('endRendering');
    // VUID-vkCmdEndRendering-None-06161, -commandBuffer-06162
    if (this.#state.rendering !== 1) throw new InvalidStateError(`endRendering: ${this.#state.rendering === 2 ? 'a render pass is open (endRenderPass())' : 'no dynamic rendering is open (beginRendering() first)'}`);
    checkNoQueryBegunInside(this.#state, 'endRendering');
    this.#n.cmdEndRendering(this.handle, 0);
    this.#state.rendering = 0;
    this.#state.renderingKey = '';
    return this;
  }

  /** vkCmdBeginRenderPass (inline contents, subpass 0). clearValues: per attachment, [r, g, b, a] or { depth, stencil? }. */
  beginRenderPass(info: RenderPassBeginInfo): this {
    if (typeof info !== 'object' || info === null) throw new InvalidArgumentError('beginRenderPass(info): info must be an object', 'info');
    const pass = usable('info.renderPass', info.renderPass, RenderPass, this.device);
    const fb = usable('info.framebuffer', info.framebuffer, Framebuffer, this.device);
    this.live();
    this.#recording('beginRenderPass');
    const st = this.#state;
    if (st.rendering !== 0) throw new InvalidStateError('beginRenderPass: a render pass or dynamic rendering is already open (end it first)');
    // VUID-VkRenderPassBeginInfo-renderPass-00904 (a compatible render pass), -pNext-02852/-02853 (area inside), -clearValueCount-00902
    if (fb.renderPass !== pass && fb.renderPass.key !== pass.key) throw new InvalidArgumentError('beginRenderPass: info.framebuffer was made for a render pass not compatible with info.renderPass', 'info.framebuffer');
    const area = renderArea('beginRenderPass', info.renderArea, fb.width, fb.height);
    if (area.x + area.width > fb.width || area.y + area.height > fb.height) throw new InvalidArgumentError(`beginRenderPass: the render area is not inside the framebuffer's ${fb.width}x${fb.height}`, 'info.renderArea');
    const values = info.clearValues ?? [];
    if (!Array.isArray(values)) throw new InvalidArgumentError('beginRenderPass: info.clearValues must be an array', 'info.clearValues');
    const clears = this.#clears;
    if (pass.attachments.length > clears.count) throw new InvalidArgumentError(`beginRenderPass: at most ${clears.count} attachments`, 'info.renderPass');
    // Indexed loops, no closure: a frame's render passes allocate nothing (docs/performance.md, 'The XR scene: frames and the young generation').
    for (let i = 0; i < pass.attachments.length; i++) {
      const a = pass.attachments[i]!;
      const clearsHere = a.loadOp === LOAD_OPS.clear || a.stencilLoadOp === LOAD_OPS.clear;
      if (clearsHere && values[i] === undefined) throw new InvalidArgumentError(`beginRenderPass: attachment ${i} is cleared (loadOp 'clear') and info.clearValues[${i}] is missing`, 'info.clearValues');
      if (values[i] === undefined) continue;
      if (formatAspectMask(a.format) === IMAGE_ASPECT.color) writeColour(clears, i, values[i] as readonly number[]);
      else writeDepth(clears, i, values[i] as DepthClear);
    }
    const views = fb.attachments;
    for (let i = 0; i < views.length; i++) {
      if (views[i]!.isDestroyed) throw new InvalidStateError('beginRenderPass: an attachment of the framebuffer was destroyed');
      views[i]!.image.checkBacked('beginRenderPass: a framebuffer attachment');
    }
    this.#n.cmdBeginRenderPass(this.handle, pass.handle, fb.handle, area.x, area.y, area.width, area.height, pass.attachments.length, clears.buffer);
    st.rendering = 2;
    st.renderingKey = subpassKey(pass.key);
    st.use(pass);
    st.use(fb);
    for (let i = 0; i < views.length; i++) {
      st.use(views[i]!);
      st.use(views[i]!.image);
    }
    return this;
  }

  /** vkCmdEndRenderPass */
  endRenderPass(): this {
    this.live();
    this.#recording('endRenderPass');
    if (this.#state.rendering !== 2) throw new InvalidStateError(`endRenderPass: ${this.#state.rendering === 1 ? 'dynamic rendering is open (endRendering())' : 'no render pass is open (beginRenderPass() first)'}`);
    checkNoQueryBegunInside(this.#state, 'endRenderPass');
    this.#n.cmdEndRendering(this.handle, 1);
    this.#state.rendering = 0;
    this.#state.renderingKey = '';
    return this;
  }

  /** vkCmdBindVertexBuffers: buffers[i] (VERTEX_BUFFER usage) at binding firstBinding + i, from offsets[i] (default 0). */
  bindVertexBuffers(firstBinding: number, buffers: readonly VulkanBuffer[], offsets?: readonly number[]): this {
    uint('firstBinding', firstBinding);
    if (!Array.isArray(buffers) || buffers.length === 0) throw new InvalidArgumentError('bindVertexBuffers: buffers must be a non-empty array of VulkanBuffer', 'buffers');
    if (offsets !== undefined && (!Array.isArray(offsets) || offsets.length !== buffers.length)) throw new InvalidArgumentError('bindVertexBuffers: offsets must hold one offset per buffer', 'offsets');
    // VUID-vkCmdBindVertexBuffers-firstBinding-00624 (inside the tracked bindings), -pOffsets-00626, -pBuffers-00627, -00628
    if (firstBinding + buffers.length > MAX_VERTEX_BINDINGS) throw new InvalidArgumentError(`bindVertexBuffers: bindings [${firstBinding}, ${firstBinding + buffers.length}) go past ${MAX_VERTEX_BINDINGS}`, 'firstBinding');
    for (let i = 0; i < buffers.length; i++) {
      const b = usable(BUFFER_NAMES[i]!, buffers[i], VulkanBuffer, this.device);
      const offset = offsets === undefined ? 0 : offsets[i]!;
      uintSafe(OFFSET_NAMES[i]!, offset);
      b.checkBacked(BACKED_NAMES[i]!);
      b.checkUsage('bindVertexBuffers', USAGE_VERTEX, BUFFER_NAMES[i]!);
      if (offset >= Number(b.size)) throw new InvalidArgumentError(`bindVertexBuffers: offsets[${i}] (${offset}) must be below the buffer's size ${b.size}`, `offsets[${i}]`);
    }
    this.live();
    this.#recording('bindVertexBuffers');
    const st = this.#state;
    for (let i = 0; i < buffers.length; i++) {
      this.#n.cmdBindVertexBuffer(this.handle, firstBinding + i, buffers[i]!.handle, offsets === undefined ? 0 : offsets[i]!);
      st.vertexBound[firstBinding + i] = 1;
      st.use(buffers[i]!);
    }
    return this;
  }

  /** vkCmdBindIndexBuffer (INDEX_BUFFER usage; indexType 'uint16' or 'uint32', the default). */
  bindIndexBuffer(buffer: VulkanBuffer, offset = 0, indexType: 'uint16' | 'uint32' = 'uint32'): this {
    const b = usable('buffer', buffer, VulkanBuffer, this.device);
    uintSafe('offset', offset);
    if (indexType !== 'uint16' && indexType !== 'uint32') throw new InvalidArgumentError(`bindIndexBuffer: indexType must be 'uint16' or 'uint32', got ${describeValue(indexType)}`, 'indexType');
    const bytes = indexType === 'uint16' ? 2 : 4;
    b.checkBacked('bindIndexBuffer: buffer');
    b.checkUsage('bindIndexBuffer', USAGE_INDEX, 'buffer');
    // VUID-vkCmdBindIndexBuffer-offset-08782 (below the size), -offset-08783 (a multiple of the index size)
    if (offset >= Number(b.size) || offset % bytes !== 0) throw new InvalidArgumentError(`bindIndexBuffer: offset must be a multiple of ${bytes} below the buffer's size ${b.size}, got ${offset}`, 'offset');
    this.live();
    this.#recording('bindIndexBuffer');
    this.#n.cmdBindIndexBuffer(this.handle, b.handle, offset, bytes === 2 ? 0 : 1);
    const st = this.#state;
    st.indexBuffer = b;
    st.indexOffset = offset;
    st.indexBytes = bytes;
    st.indexEnd = Number(b.size);
    st.use(b);
    return this;
  }

  /** vkCmdSetViewport (viewport 0). A negative height flips y (Vulkan 1.1). */
  setViewport(x: number, y: number, width: number, height: number, minDepth = 0, maxDepth = 1): this {
    // VUID-VkViewport-width-01770 (above 0), -height-01773 (not 0), -minDepth-01234/-maxDepth-01235 (in [0, 1])
    // No array of the six (a frame's calls allocate nothing: NODE-3).
    if (!finite(x) || !finite(y) || !finite(width) || !finite(height) || !finite(minDepth) || !finite(maxDepth)) {
      throw new InvalidArgumentError('setViewport: x, y, width, height, minDepth and maxDepth must be finite numbers', 'x');
    }
    if (!(width > 0) || height === 0) throw new InvalidArgumentError(`setViewport: width must be above 0 and height not 0, got ${width} and ${height}`, 'width');
    if (minDepth < 0 || minDepth > 1 || maxDepth < 0 || maxDepth > 1) throw new InvalidArgumentError(`setViewport: minDepth and maxDepth must lie in [0, 1], got ${minDepth} and ${maxDepth}`, 'minDepth');
    checkViewportLimits('setViewport', this.device.limits, x, y, width, height, '');
    this.live();
    this.#recording('setViewport');
    this.#n.cmdSetViewport(this.handle, x, y, width, height, minDepth, maxDepth);
    this.#state.viewportSet = true;
    return this;
  }

  /** vkCmdSetScissor (scissor 0). */
  setScissor(x: number, y: number, width: number, height: number): this {
    uint('x', x);
    uint('y', y);
    uint('width', width);
    uint('height', height);
    // VUID-vkCmdSetScissor-x-00595 (x, y not negative), -offset-00596/-00597 (no overflow)
    if (x + width > 0x7fff_ffff || y + height > 0x7fff_ffff) throw new InvalidArgumentError('setScissor: x + width and y + height must stay below 2^31', 'width');
    this.live();
    this.#recording('setScissor');
    this.#n.cmdSetScissor(this.handle, x, y, width, height);
    this.#state.scissorSet = true;
    return this;
  }

  // ---- Vulkan 1.3 and 1.4 commands (per-call/, docs/usage.md "Vulkan 1.3 and 1.4 commands per call") ----

  /** vkCmdSetViewportWithCount (Vulkan 1.3) with one viewport: the VIEWPORT_WITH_COUNT state, which the typed API's pipelines do not read (draws still need setViewport). */
  setViewportWithCount(viewports: readonly Viewport[]): this {
    const v = readViewport('setViewportWithCount', viewports);
    checkViewportLimits('setViewportWithCount', this.device.limits, v.x, v.y, v.width, v.height, 'viewports[0].');
    this.#open('setViewportWithCount', 'vkCmdSetViewportWithCount');
    this.#n.cmdSetViewportWithCount(this.handle, v.x, v.y, v.width, v.height, v.minDepth, v.maxDepth);
    return this;
  }

  /** vkCmdSetScissorWithCount (Vulkan 1.3) with one scissor (as setViewportWithCount: draws still need setScissor). */
  setScissorWithCount(scissors: readonly Rect2D[]): this {
    const r = readScissor('setScissorWithCount', scissors);
    this.#open('setScissorWithCount', 'vkCmdSetScissorWithCount');
    this.#n.cmdSetScissorWithCount(this.handle, r.x, r.y, r.width, r.height);
    return this;
  }

  /** vkCmdPushConstants2 (Vulkan 1.4): pushConstants() with a VkPushConstantsInfo. */
  pushConstants2(info: { readonly layout: PipelineLayout; readonly stageFlags: ShaderStageFlags; readonly offset: number; readonly values: ArrayBufferView }): this {
    if (typeof info !== 'object' || info === null) throw new InvalidArgumentError(`pushConstants2: info must be { layout, stageFlags, offset, values }, got ${describeValue(info)}`, 'info');
    const l = usable('info.layout', info.layout, PipelineLayout, this.device);
    uint('info.stageFlags', info.stageFlags);
    uint('info.offset', info.offset);
    if (!ArrayBuffer.isView(info.values)) throw new InvalidArgumentError('pushConstants2: info.values must be a TypedArray or DataView', 'info.values');
    l.checkPushConstants(info.stageFlags, info.offset, info.values.byteLength);
    this.#open('pushConstants2', 'vkCmdPushConstants2');
    this.#n.cmdPushConstants2(this.handle, l.handle, info.stageFlags, info.offset, info.values);
    this.#state.push(l, info.offset, info.values.byteLength);
    return this;
  }

  /** vkCmdSetRenderingAttachmentLocations (Vulkan 1.4, the dynamicRenderingLocalRead feature): one location per colour attachment of the open beginRendering(). */
  setRenderingAttachmentLocations(locations: readonly number[]): this {
    this.live();
    this.#recording('setRenderingAttachmentLocations');
    this.#n.cmdSetRenderingAttachmentLocations(this.handle, readAttachmentLocations('setRenderingAttachmentLocations', locations, this.#state, this.device));
    return this;
  }

  /** vkCmdBlitImage: `regions` of `src` scaled onto `dst` (layouts 'transfer-src-optimal' / 'transfer-dst-optimal' or 'general'; filter 'nearest' or 'linear'). */
  blitImage(src: Image, srcLayout: 'transfer-src-optimal' | 'general', dst: Image, dstLayout: 'transfer-dst-optimal' | 'general', regions: readonly ImageBlitRegion[], filter: 'nearest' | 'linear' = 'nearest'): this {
    const s = this.#image('blitImage', src, 'src');
    const d = this.#image('blitImage', dst, 'dst');
    const b = readBlit(src, srcLayout, dst, dstLayout, regions, filter, this.#state, this.device);
    this.#n.cmdBlitImage(this.handle, s, b.srcLayout, d, b.dstLayout, b.words, b.filter);
    return this;
  }

  #open(what: string, command: Parameters<typeof requireCommand>[2]): void {
    this.live();
    this.#recording(what);
    requireCommand(what, this.device, command);
  }

  /** vkCmdDraw */
  draw(vertexCount: number, instanceCount = 1, firstVertex = 0, firstInstance = 0): this {
    uint('vertexCount', vertexCount);
    uint('instanceCount', instanceCount);
    uint('firstVertex', firstVertex);
    uint('firstInstance', firstInstance);
    this.live();
    this.#recording('draw');
    this.#state.checkDraw('draw');
    this.#n.cmdDraw(this.handle, vertexCount, instanceCount, firstVertex, firstInstance);
    return this;
  }

  /** vkCmdDrawIndexed (an index buffer bound; the indices read inside it). */
  drawIndexed(indexCount: number, instanceCount = 1, firstIndex = 0, vertexOffset = 0, firstInstance = 0): this {
    uint('indexCount', indexCount);
    uint('instanceCount', instanceCount);
    uint('firstIndex', firstIndex);
    uint('firstInstance', firstInstance);
    if (!Number.isInteger(vertexOffset) || vertexOffset < -0x8000_0000 || vertexOffset > 0x7fff_ffff) throw new InvalidArgumentError(`drawIndexed: vertexOffset must be an int32, got ${describeValue(vertexOffset)}`, 'vertexOffset');
    this.live();
    this.#recording('drawIndexed');
    const st = this.#state;
    st.checkDraw('drawIndexed');
    // VUID-vkCmdDrawIndexed-None-07312 (an index buffer bound), -robustBufferAccess2-08798 (the indices inside it)
    const ib = st.indexBuffer;
    if (ib === null) throw new InvalidStateError('drawIndexed: no index buffer is bound (bindIndexBuffer() first)');
    if (st.indexOffset + (firstIndex + indexCount) * st.indexBytes > st.indexEnd) {
      throw new InvalidArgumentError(`drawIndexed: indices [${firstIndex}, ${firstIndex + indexCount}) of ${st.indexBytes} bytes from offset ${st.indexOffset} go past the index buffer's size ${st.indexEnd}`, 'indexCount');
    }
    this.#n.cmdDrawIndexed(this.handle, indexCount, instanceCount, firstIndex, vertexOffset, firstInstance);
    return this;
  }

  /** vkCmdDrawIndirect: drawCount VkDrawIndirectCommands (16 bytes each, `stride` apart) read from `buffer` (INDIRECT_BUFFER usage) at `offset`. */
  drawIndirect(buffer: VulkanBuffer, offset: number, drawCount: number, stride = 16): this {
    return this.#drawIndirect('drawIndirect', buffer, offset, drawCount, stride, 16);
  }

  /** vkCmdDrawIndexedIndirect: as drawIndirect with VkDrawIndexedIndirectCommands (20 bytes each); an index buffer bound. */
  drawIndexedIndirect(buffer: VulkanBuffer, offset: number, drawCount: number, stride = 20): this {
    return this.#drawIndirect('drawIndexedIndirect', buffer, offset, drawCount, stride, 20);
  }

  #drawIndirect(what: string, buffer: VulkanBuffer, offset: number, drawCount: number, stride: number, commandBytes: number): this {
    const b = usable('buffer', buffer, VulkanBuffer, this.device);
    uintSafe('offset', offset);
    uint('drawCount', drawCount);
    uint('stride', stride);
    b.checkBacked(`${what}: buffer`);
    // VUID-vkCmdDrawIndirect-buffer-02709 (usage), -offset-02710 (a multiple of 4), -drawCount-00476 (stride),
    // -drawCount-00487/-00488 (inside the buffer), -drawCount-02718 (above 1 needs the multiDrawIndirect feature)
    b.checkUsage(what, USAGE_INDIRECT, 'buffer');
    if (drawCount > 1 && this.device.graphicsFeatures.multiDrawIndirect === false) throw new InvalidStateError(`${what}: drawCount above 1 needs the multiDrawIndirect feature, and the device was created without it (enabledFeatures: { multiDrawIndirect: true })`);
    if (offset % 4 !== 0) throw new InvalidArgumentError(`${what}: offset must be a multiple of 4, got ${offset}`, 'offset');
    if (drawCount > 1 && (stride % 4 !== 0 || stride < commandBytes)) throw new InvalidArgumentError(`${what}: stride must be a multiple of 4 and at least ${commandBytes} when drawCount is above 1, got ${stride}`, 'stride');
    if (drawCount > 0 && offset + (drawCount - 1) * stride + commandBytes > Number(b.size)) {
      throw new InvalidArgumentError(`${what}: ${drawCount} command(s) of ${commandBytes} bytes, ${stride} apart from offset ${offset}, go past the buffer's size ${b.size}`, 'drawCount');
    }
    this.live();
    this.#recording(what);
    const st = this.#state;
    st.checkDraw(what);
    if (commandBytes === 20 && st.indexBuffer === null) throw new InvalidStateError(`${what}: no index buffer is bound (bindIndexBuffer() first)`);
    this.#n.cmdDrawIndirect(this.handle, commandBytes === 20 ? 1 : 0, b.handle, offset, drawCount, stride);
    st.use(b);
    return this;
  }

  /** vkCmdCopyBufferToImage (one region; default: the whole of mip level 0, layer 0, from offset 0, tightly packed). */
  copyBufferToImage(buffer: VulkanBuffer, image: Image, layout: 'transfer-dst-optimal' | 'general', region: BufferImageRegion = {}): this {
    return this.#copyBufferImage('copyBufferToImage', true, buffer, image, layout, region);
  }

  /** vkCmdCopyImageToBuffer (one region; as copyBufferToImage). */
  copyImageToBuffer(image: Image, layout: 'transfer-src-optimal' | 'general', buffer: VulkanBuffer, region: BufferImageRegion = {}): this {
    return this.#copyBufferImage('copyImageToBuffer', false, buffer, image, layout, region);
  }

  #copyBufferImage(what: string, toImage: boolean, buffer: VulkanBuffer, image: Image, layout: string, region: BufferImageRegion): this {
    const b = usable('buffer', buffer, VulkanBuffer, this.device);
    if (!(image instanceof Image)) throw new InvalidArgumentError(`${what}: image must be an Image`, 'image');
    if (!image.belongsTo(this.device)) throw new InvalidArgumentError(`${what}: the image belongs to another device`, 'image');
    const wanted = toImage ? 'transfer-dst-optimal' : 'transfer-src-optimal';
    if (layout !== wanted && layout !== 'general') throw new InvalidArgumentError(`${what}: layout must be '${wanted}' or 'general', got ${describeValue(layout)}`, 'layout');
    if (typeof region !== 'object' || region === null) throw new InvalidArgumentError(`${what}: region must be an object`, 'region');
    const own = formatAspectMask(image.format);
    const aspect = region.aspect === undefined ? (own === IMAGE_ASPECT.color ? own : own & IMAGE_ASPECT.depth || own) : pick('region.aspect', IMAGE_ASPECT, region.aspect);
    const mipLevel = region.mipLevel ?? 0;
    const baseArrayLayer = region.baseArrayLayer ?? 0;
    const layerCount = region.layerCount ?? 1;
    const x = region.x ?? 0;
    const y = region.y ?? 0;
    const z = region.z ?? 0;
    const levelWidth = Math.max(1, image.width >>> mipLevel);
    const levelHeight = Math.max(1, image.height >>> mipLevel);
    const levelDepth = Math.max(1, image.depth >>> mipLevel);
    const width = region.width ?? levelWidth - x;
    const height = region.height ?? levelHeight - y;
    const depth = region.depth ?? levelDepth - z;
    const bufferOffset = region.bufferOffset ?? 0;
    const rowLength = region.bufferRowLength ?? 0;
    const imageHeight = region.bufferImageHeight ?? 0;
    for (const [n, v] of [['mipLevel', mipLevel], ['baseArrayLayer', baseArrayLayer], ['layerCount', layerCount], ['x', x], ['y', y], ['z', z], ['width', width], ['height', height], ['depth', depth], ['bufferRowLength', rowLength], ['bufferImageHeight', imageHeight]] as const) uint(`region.${n}`, v);
    uintSafe('region.bufferOffset', bufferOffset);
    // The region inside the image's level and the buffer, the usages, both backed (encoded-checks.ts: the encoder's walk checks its regions with it).
    checkBufferImageRegion(what, toImage, b, image, { aspect, mipLevel, baseArrayLayer, layerCount, x, y, z, width, height, depth, bufferOffset, rowLength, imageHeight });
    this.live();
    this.#recording(what);
    if (this.#state.rendering !== 0) throw new InvalidStateError(`${what}: inside a render pass or dynamic rendering (end it first)`);
    this.#n.cmdCopyBufferImage(this.handle, toImage, b.handle, image.handle, IMAGE_LAYOUTS[layout as ImageLayoutName], bufferOffset, rowLength, imageHeight, aspect, mipLevel, baseArrayLayer, layerCount, x, y, z, width, height, depth);
    this.#state.use(b);
    this.#state.use(image);
    return this;
  }

  // Clear values of beginRendering / beginRenderPass (16 bytes each), reused.
  readonly #clears = newClearValues(16);

  #image(what: string, image: Image, name = 'image'): bigint {
    if (!(image instanceof Image)) throw new InvalidArgumentError(`${what}: ${name} must be an Image (a swapchain's images)`, name);
    if (!image.belongsTo(this.device)) throw new InvalidArgumentError(`${what}: the ${name === 'image' ? 'image' : `${name} image`} belongs to another device`, name);
    this.live();
    this.#recording(what);
    this.#outsideRendering(what);
    // Recorded (the command is made right after): kept here, not in the callers, so that
    // clearColorImage stays small enough for V8 to inline it (four numbers unboxed).
    const handle = image.liveHandle;
    this.#state.use(image);
    return handle;
  }

  /**
   * @internal Before an encoded stream is recorded into this buffer (CommandEncoder.end()): the
   * buffer may begin (not recording, not pending), and the stream's commands, walked here with the
   * state checks of the methods above, leave nothing undefined. A stream that is not well formed is
   * walked up to its first malformed command (the native side refuses it whole). A walked command
   * (arrays, structures) is read back by its layout: from words the generated methods wrote
   * (`written`: they check each argument as the native check does) as they are, from words
   * appended raw after the native check of the whole stream (`validate`). With `starts` (its first
   * `noted` words: where the commands start, all but the draws, as the encoder wrote them), the walk
   * visits those and the first draw of each run in the gaps between them, and takes the rest of a run
   * for draws of its header (the native check confirms it, or the encoder walks the stream again without
   * `starts`); without `indexed` (no vkCmdDrawIndexed written) a gap is one run of vkCmdDraw, not visited.
   * Nothing of the buffer's own state changes until encodedRecorded().
   */
  checkEncoded(u: Uint32Array, words: number, objects: readonly unknown[], flags: number, validate: () => void, written: boolean, starts: Uint32Array | null = null, noted = 0, indexed = true): boolean {
    this.live();
    if (this.#lifecycle === Lifecycle.Recording) throw new InvalidStateError('CommandEncoder.end: the command buffer is recording through its own begin() (end() it first)');
    this.#notPending('CommandEncoder.end');
    if ((flags & ~KNOWN_BEGIN_FLAGS) !== 0) throw new InvalidArgumentError(`CommandEncoder.begin(flags): flags must be VkCommandBufferUsageFlags (bits of 0x7), got 0x${flags.toString(16)}`, 'flags');
    const st = this.#scratch;
    st.clear();
    const limits = this.device.limits;
    const max = limits.maxComputeWorkGroupCount;
    // A frame rebinds what is bound already and pushes the same bytes again, command group after
    // group: a command that changes nothing of what a dispatch reads is not checked again, and a
    // dispatch after no change needs only its group counts checked (nothing else can change during
    // this walk: no set is written, no object destroyed).
    let dispatchChecked = false;
    let pushLayout: PipelineLayout | null = null;
    let pushStages = 0;
    let pushOffset = 0;
    let pushBytes = 0;
    // Draw after draw of one header with nothing bound or set between: each reads the state the first
    // was checked against; a vkCmdDraw's own words (counts) have no limit to check, a vkCmdDrawIndexed's
    // indices must lie inside the bound index range. The header of the run command checked last, else 0.
    let runChecked = 0;
    let validated = false;
    let k = 0; // the next noted start (with `starts`)
    for (let w = 0, index = 0; w < words; index++) {
      const header = u[w]!;
      const op = header & 0xffff;
      const length = header >>> 16;
      if (header === runChecked) {
        // The run of draws after a checked one of the same header: each reads the state the first was checked against.
        let next = w;
        if (header === DRAW_HEADER) {
          // With `starts` and no vkCmdDrawIndexed written, the gap up to the next noted command is that run (not visited); else a tight loop.
          if (starts !== null && !indexed) next = k < noted ? starts[k]! : words;
          if (next <= w || (next - w) % 5 !== 0) {
            next = w + 5;
            while (next < words && u[next] === DRAW_HEADER) next += 5;
          }
        } else {
          // vkCmdDrawIndexed: its indices [firstIndex, firstIndex + indexCount) inside the bound range, words 3 and 1
          // read and nothing else; the first outside it ends the run and is checked below (its error, its index).
          const room = st.indexEnd - st.indexOffset;
          const bytes = st.indexBytes;
          while (next + 6 <= words && u[next] === INDEXED_HEADER && (u[next + 3]! + u[next + 1]!) * bytes <= room) next += 6;
        }
        if (next > w) {
          index += (next - w) / length - 1; // (the loop's index++ counts the last)
          w = next;
          continue;
        }
      }
      if (starts !== null) {
        // A command the encoder did not note, not a run command (one of the five compute methods', or words
        // changed through `stream`): the stream is walked whole from here, and checked natively so.
        if (w === starts[k]) k++;
        else if (header !== DRAW_HEADER && header !== INDEXED_HEADER) starts = null;
      }
      runChecked = 0;
      if (length === 0 || w + length > words) return false;
      try {
        if (op === 1 && length === 2) {
          const p = objects[u[w + 1]!];
          if (!(p instanceof ComputePipeline)) return false;
          if (p !== st.pipeline) {
            st.bindPipeline(p);
            dispatchChecked = false;
          }
        } else if (op === 2 && length === 4) {
          const l = objects[u[w + 1]!];
          const s = objects[u[w + 2]!];
          if (!(l instanceof PipelineLayout) || !(s instanceof DescriptorSet)) return false;
          const firstSet = u[w + 3]!;
          if (st.boundLayouts[firstSet] !== l || st.boundSets[firstSet] !== s) {
            RecordingState.checkBindSet(l, s, firstSet);
            st.bindSet(l, s, firstSet);
            dispatchChecked = false;
          }
        } else if (op === 3 && length >= 5) {
          const l = objects[u[w + 1]!];
          if (!(l instanceof PipelineLayout)) return false;
          const stages = u[w + 2]!;
          const offset = u[w + 3]!;
          const bytes = u[w + 4]!;
          if (bytes !== (length - 5) * 4) return false;
          if (l !== pushLayout || stages !== pushStages || offset !== pushOffset || bytes !== pushBytes) {
            l.checkPushConstants(stages, offset, bytes);
            st.push(l, offset, bytes);
            pushLayout = l;
            pushStages = stages;
            pushOffset = offset;
            pushBytes = bytes;
            dispatchChecked = false;
          }
        } else if (op === 4 && length === 4) {
          const x = u[w + 1]!;
          const y = u[w + 2]!;
          const z = u[w + 3]!;
          if (!dispatchChecked || x > max[0]! || y > max[1]! || z > max[2]!) {
            st.checkDispatch(limits, x, y, z);
            dispatchChecked = true;
          }
        } else if (op === 5 && length === 5) {
          // CommandEncoder.pipelineBarrier's masks, as CommandBuffer.pipelineBarrier checks them.
          checkMemoryBarrierMasks(u[w + 1]!, u[w + 2]!, u[w + 3]!, u[w + 4]!, this.device.graphicsFeatures.synchronization2 === true);
        } else if (op === 6 && length === 9) {
          const s = objects[u[w + 1]!];
          const d = objects[u[w + 2]!];
          if (!(s instanceof VulkanBuffer) || !(d instanceof VulkanBuffer)) return false;
          checkCopy(s, d, readU64(u, w + 7), readU64(u, w + 3), readU64(u, w + 5));
          st.use(s);
          st.use(d);
        } else if ((op === 7 || op === 8) && length >= 2) {
          const image = objects[u[w + 1]!];
          if (!(image instanceof Image)) return false;
          if (op === 8 && length === 9) checkLayers(image, u[w + 7]!, u[w + 8]!, 'clearColorImage');
          // The stream's barrier names the colour aspect (native/vulkan/loader/command_stream.h).
          if (op === 7 && image.aspectMask !== 1) throw invalidArgument('imageBarrier: image', "an image of a colour format (a depth image's transitions are recorded per call: CommandBuffer.imageBarrier)", `an image of VkFormat ${image.format}`);
          st.use(image);
        } else if (op >= ENCODED_OPCODE_BASE) {
          const c = ENCODED_COMMANDS[op - ENCODED_OPCODE_BASE];
          // A command the registry's checks refuse ends the walk: the native side refuses the stream there.
          if (c === undefined || (c.words !== 0 && length !== c.words)) return false;
          if (c.renderPass === 'inside' ? st.rendering === 0 : c.renderPass === 'outside' && st.rendering !== 0) return false;
          if (c.walked) {
            if (!validated && !written) {
              validate(); // words from writeWords: the whole stream well-formed first, so that its words read back as the layout says
              validated = true;
            }
            try {
              const args = decodeWalked(op - ENCODED_OPCODE_BASE, u, w + 1);
              useSlots(st, c.nodes, args, objects);
              checkWalked(st, c.name, args, objects, this.device);
            } catch (error) {
              // Words the methods wrote that do not read back (an argument whose getter answered
              // differently when written): the native refusal, not what reading them made of them.
              if (!validated) validate();
              throw error;
            }
          } else {
            // (index loops: a for-of's iterator is an allocation each frame where V8 does not remove it)
            const cargs = c.args;
            for (let i = 0; i < cargs.length; i++) {
              const a = cargs[i]!;
              const v = u[w + 1 + a.word]!;
              if (a.kind === 'Bool32' && v > 1) return false;
              if (a.kind === 'Enum' && !ENCODED_ENUMS[a.enum!]!.includes(v | 0)) return false;
              if (a.slotMask !== undefined && !slotHolds(a.slotMask, objects[v])) return false;
            }
            for (let i = 0; i < cargs.length; i++) if (cargs[i]!.slotMask !== undefined) st.use(objects[u[w + 1 + cargs[i]!.word]!] as DeviceChild | Image);
            checkGenerated(st, c.name, u, w + 1, objects, limits, this.device);
            runChecked = header === DRAW_HEADER || header === INDEXED_HEADER ? header : 0;
          }
          dispatchChecked = false;
          pushLayout = null;
        } else if (op !== 5) return false;
      } catch (error) {
        if (error instanceof Error) error.message = `command ${index} of the stream: ${error.message}`;
        throw error;
      }
      w += length;
    }
    // VUID-vkEndCommandBuffer-commandBuffer-00061: every query begun was ended.
    checkNoActiveQuery(st, 'CommandEncoder.end');
    return starts !== null;
  }

  /** @internal Whether `object` (an object of an encoder's table) belongs to this buffer's device. */
  ownsObject(object: DeviceChild | Image): boolean {
    return object instanceof Image ? object.belongsTo(this.device) : object.ownedBy(this.device);
  }

  /** @internal The stream checkEncoded() walked was recorded (begin … end): its state is the buffer's now. */
  encodedRecorded(flags: number): void {
    const state = this.#state;
    this.#state = this.#scratch;
    this.#scratch = state;
    this.#lifecycle = Lifecycle.Executable;
    this.#flags = flags;
    this.#submittedOnce = false;
  }

  /**
   * @internal InvalidStateError unless the buffer may be submitted now (VUID-vkQueueSubmit-pCommandBuffers-00070
   * executable, -00071 not pending unless SIMULTANEOUS_USE, -00072 a ONE_TIME_SUBMIT recording once,
   * -00074 its pool's queue family; every object it uses still there, and no set written since).
   */
  checkSubmittable(queueFamily: number): void {
    this.live();
    if (this.#lifecycle === Lifecycle.Recording) throw new InvalidStateError('submit: the command buffer is still recording (end() it first)');
    if (this.#lifecycle === Lifecycle.Initial) throw new InvalidStateError('submit: the command buffer holds no recording (begin() … end() first)');
    if ((this.#flags & SIMULTANEOUS_USE) === 0 && this.pending) throw new InvalidStateError('submit: the command buffer was submitted and has not completed (await its fence first, or record it with SIMULTANEOUS_USE 0x4)');
    if ((this.#flags & ONE_TIME_SUBMIT) !== 0 && this.#submittedOnce) throw new InvalidStateError('submit: the command buffer was recorded with ONE_TIME_SUBMIT and was submitted already (record it again)');
    if (this.#pool.queueFamilyIndex !== queueFamily) throw new InvalidArgumentError(`submit: the command buffer's pool is for queue family ${this.#pool.queueFamilyIndex}, the queue is of family ${queueFamily}`, 'commandBuffer');
    this.#state.checkStillValid();
  }

  /** @internal The buffer was submitted as `serial` on `queue` with `fence`. */
  submitted(queue: SubmissionQueue, serial: number, fence: Fence | null): void {
    this.#queue = queue;
    this.#serial = serial;
    this.#fence = fence;
    this.#submittedOnce = true;
  }

  protected release(): void {
    this.#n.freeCommandBuffer(this.device.liveHandle, this.#pool.handle, this.handle);
    this.#pool.buffers.delete(this);
  }
}

/** The class of the objects each encoder slot kind (HANDLE_KIND) holds. */
const SLOT_CLASSES: readonly (Function | undefined)[] = [undefined, ComputePipeline, PipelineLayout, DescriptorSet, VulkanBuffer, Image, GraphicsPipeline, ImageView, RenderPass, Framebuffer, QueryPool, VulkanEvent];

/** Whether `object` is of a kind in `mask` (bit k: HANDLE_KIND k). */
function slotHolds(mask: number, object: unknown): boolean {
  for (let k = 1; k < SLOT_CLASSES.length; k++) if ((mask & (1 << k)) !== 0 && object instanceof SLOT_CLASSES[k]!) return true;
  return false;
}

/** vkCmdDraw's and vkCmdDrawIndexed's whole header words (5 and 6 words): the encoder's run commands, whose starts it does not note. */
const [DRAW_HEADER, INDEXED_HEADER] = ENCODED_RUN_HEADERS;
if (ENCODED_COMMANDS[(DRAW_HEADER & 0xffff) - ENCODED_OPCODE_BASE]?.name !== 'vkCmdDraw' || DRAW_HEADER >>> 16 !== 5 || ENCODED_COMMANDS[(INDEXED_HEADER & 0xffff) - ENCODED_OPCODE_BASE]?.name !== 'vkCmdDrawIndexed' || INDEXED_HEADER >>> 16 !== 6) {
  throw new InvalidStateError('the generated encoder\'s run commands are not vkCmdDraw of 5 words and vkCmdDrawIndexed of 6');
}

/** The table slots a walked command's read-back arguments name, in `out`. */
function collectSlots(nodes: readonly EncodedNodeInfo[], args: { readonly [name: string]: DecodedValue }, out: number[]): void {
  for (const n of nodes) {
    const v = args[n.name];
    if (v === null || v === undefined) continue;
    const values = n.shape === 'array' || n.shape === 'fixed' ? (v as readonly DecodedValue[]) : [v];
    if (n.elem === 'Slot') {
      for (const slot of values) if (slot !== null) out.push(slot as number);
    } else if (n.elem === 'Struct' && !ENCODED_STRUCTS[n.struct!]!.isUnion) {
      for (const e of values) collectSlots(ENCODED_STRUCTS[n.struct!]!.nodes, e as { readonly [name: string]: DecodedValue }, out);
    }
  }
}

// decodeWalked answers the same object for the same words at the same place: its slots are collected once.
const SLOTS_OF = new WeakMap<object, readonly number[]>();

/** Every table object a walked command's arguments name, used (kept for the submit's checks). */
function useSlots(st: RecordingState, nodes: readonly EncodedNodeInfo[], args: { readonly [name: string]: DecodedValue }, objects: readonly unknown[]): void {
  let slots = SLOTS_OF.get(args);
  if (slots === undefined) {
    const found: number[] = [];
    collectSlots(nodes, args, found);
    SLOTS_OF.set(args, found);
    slots = found;
  }
  for (let i = 0; i < slots.length; i++) st.use(objects[slots[i]!] as DeviceChild | Image);
}

/**
 * The state checks of the typed methods for the generated opcodes whose registry checks (native)
 * leave undefined behaviour: a generated vkCmdBindPipeline binds as bindPipeline() does, a dispatch
 * is checked as dispatch() is, a buffer a command reads or writes is backed, of the usage the
 * command needs, the range inside it. `a`: the command's first argument word.
 */
function checkGenerated(st: RecordingState, name: string, u: Uint32Array, a: number, objects: readonly unknown[], limits: DeviceLimits, device: DeviceOwner): void {
  switch (name) {
    case 'vkCmdBindPipeline': {
      // VUID-vkCmdBindPipeline-pipelineBindPoint-00777 (a compute pipeline at the compute bind point, 1), -00778 (a graphics one at the graphics bind point, 0)
      const p = objects[u[a + 1]!];
      if (p instanceof GraphicsPipeline) {
        if (u[a] !== 0) throw invalidArgument('vkCmdBindPipeline: pipelineBindPoint', 'VK_PIPELINE_BIND_POINT_GRAPHICS (0) for a GraphicsPipeline', u[a]);
        st.graphicsPipeline = p;
        return;
      }
      if (u[a] !== 1) throw invalidArgument('vkCmdBindPipeline: pipelineBindPoint', 'VK_PIPELINE_BIND_POINT_COMPUTE (1) for a ComputePipeline', u[a]);
      st.bindPipeline(p as ComputePipeline);
      return;
    }
    case 'vkCmdDraw':
      st.checkDraw('vkCmdDraw');
      return;
    case 'vkCmdDrawIndexed': {
      st.checkDraw('vkCmdDrawIndexed');
      // VUID-vkCmdDrawIndexed-None-07312 (an index buffer bound), -robustBufferAccess2-08798 (the indices inside it)
      const ib = st.indexBuffer;
      if (ib === null) throw new InvalidStateError('vkCmdDrawIndexed: no index buffer is bound (vkCmdBindIndexBuffer first)');
      if (st.indexOffset + (u[a + 2]! + u[a]!) * st.indexBytes > st.indexEnd) {
        throw new InvalidArgumentError(`vkCmdDrawIndexed: indices [${u[a + 2]}, ${u[a + 2]! + u[a]!}) of ${st.indexBytes} bytes from offset ${st.indexOffset} go past the bound index range's end ${st.indexEnd} (the buffer's size ${ib.size}, or vkCmdBindIndexBuffer2's offset + size)`, 'indexCount');
      }
      return;
    }
    case 'vkCmdDrawIndirect':
    case 'vkCmdDrawIndexedIndirect': {
      const commandBytes = name === 'vkCmdDrawIndirect' ? 16 : 20;
      const b = objects[u[a]!] as VulkanBuffer;
      const offset = Number(readU64(u, a + 1));
      const drawCount = u[a + 3]!;
      const stride = u[a + 4]!;
      b.checkBacked(`${name}: buffer`);
      // VUID-vkCmdDrawIndirect-buffer-02709 (usage), -offset-02710 (a multiple of 4), -drawCount-00476 (stride), -drawCount-00487/-00488 (inside the buffer), -drawCount-02718 (multiDrawIndirect)
      b.checkUsage(name, USAGE_INDIRECT, 'buffer');
      if (drawCount > 1 && device.graphicsFeatures.multiDrawIndirect === false) throw new InvalidStateError(`${name}: drawCount above 1 needs the multiDrawIndirect feature, and the device was created without it`);
      if (offset % 4 !== 0) throw new InvalidArgumentError(`${name}: offset must be a multiple of 4, got ${offset}`, 'offset');
      if (drawCount > 1 && (stride % 4 !== 0 || stride < commandBytes)) throw new InvalidArgumentError(`${name}: stride must be a multiple of 4 and at least ${commandBytes} when drawCount is above 1, got ${stride}`, 'stride');
      if (drawCount > 0 && offset + (drawCount - 1) * stride + commandBytes > Number(b.size)) throw new InvalidArgumentError(`${name}: ${drawCount} command(s) of ${commandBytes} bytes, ${stride} apart from offset ${offset}, go past the buffer's size ${b.size}`, 'drawCount');
      st.checkDraw(name);
      if (commandBytes === 20 && st.indexBuffer === null) throw new InvalidStateError(`${name}: no index buffer is bound (vkCmdBindIndexBuffer first)`);
      return;
    }
    case 'vkCmdDrawIndirectCount':
    case 'vkCmdDrawIndexedIndirectCount':
      // VUID-vkCmdDrawIndirectCount-None-04445: the drawIndirectCount feature, which the typed API's createDevice does not enable.
      throw new InvalidStateError(`${name}: needs the drawIndirectCount feature, which the typed API's devices do not enable`);
    case 'vkCmdEndRendering':
    case 'vkCmdEndRenderPass':
      // The native check pairs begin and end (VUID-vkCmdEndRendering-None-06161, VUID-vkCmdEndRenderPass-None-06170).
      checkNoQueryBegunInside(st, name);
      st.rendering = 0;
      st.renderingKey = '';
      return;
    case 'vkCmdNextSubpass':
      throw new InvalidStateError('vkCmdNextSubpass: the typed API\'s render passes have one subpass (VUID-vkCmdNextSubpass-None-00909)');
    case 'vkCmdDispatch':
      st.checkDispatch(limits, u[a]!, u[a + 1]!, u[a + 2]!);
      return;
    case 'vkCmdDispatchBase':
      // VUID-vkCmdDispatchBase-baseGroupX-00427: a base above 0 needs a pipeline made with VK_PIPELINE_CREATE_DISPATCH_BASE_BIT, which the typed API does not make.
      if (u[a]! !== 0 || u[a + 1]! !== 0 || u[a + 2]! !== 0) throw new InvalidArgumentError('vkCmdDispatchBase: baseGroupX, baseGroupY and baseGroupZ must be 0 (the typed API makes no pipeline with VK_PIPELINE_CREATE_DISPATCH_BASE_BIT)', 'baseGroupX');
      st.checkDispatch(limits, u[a + 3]!, u[a + 4]!, u[a + 5]!);
      return;
    case 'vkCmdDispatchIndirect': {
      st.checkDispatch(limits, 0, 0, 0);
      // VUID-vkCmdDispatchIndirect-buffer-02709 (INDIRECT_BUFFER usage), -offset-02710 (a multiple of 4), -offset-00407 (the command inside the buffer)
      const b = objects[u[a]!] as VulkanBuffer;
      const offset = readU64(u, a + 1);
      b.checkBacked('vkCmdDispatchIndirect: buffer');
      b.checkUsage('vkCmdDispatchIndirect', USAGE_INDIRECT, 'buffer');
      if (BigInt(offset) % 4n !== 0n || BigInt(offset) + 12n > BigInt(b.size)) throw new InvalidArgumentError(`vkCmdDispatchIndirect: offset ${offset} must be a multiple of 4 with its 12 bytes inside the buffer's ${b.size}`, 'offset');
      return;
    }
    case 'vkCmdFillBuffer': {
      // VUID-vkCmdFillBuffer-dstBuffer-00029 (TRANSFER_DST usage), -00031 (backed), -dstOffset-00024/-00025, -size-00026/-00027/-00028
      const b = objects[u[a]!] as VulkanBuffer;
      const offset = BigInt(readU64(u, a + 1));
      const size = BigInt(readU64(u, a + 3));
      b.checkBacked('vkCmdFillBuffer: dstBuffer');
      b.checkUsage('vkCmdFillBuffer', BUFFER_USAGE.TRANSFER_DST, 'dstBuffer');
      const whole = size === 0xffff_ffff_ffff_ffffn;
      if (offset % 4n !== 0n || offset >= BigInt(b.size) || (!whole && (size === 0n || size % 4n !== 0n || offset + size > BigInt(b.size)))) {
        throw new InvalidArgumentError(`vkCmdFillBuffer: dstOffset ${offset} and size ${size} must be multiples of 4 (size above 0, or VK_WHOLE_SIZE) inside the buffer's ${b.size}`, 'size');
      }
      return;
    }
    case 'vkCmdBindIndexBuffer':
    case 'vkCmdBindIndexBuffer2': {
      // VUID-vkCmdBindIndexBuffer-buffer-08784 (INDEX_BUFFER usage), -08785 (backed), -offset-08782 (below the size)
      const b = objects[u[a]!] as VulkanBuffer;
      b.checkBacked(`${name}: buffer`);
      b.checkUsage(name, USAGE_INDEX, 'buffer');
      if (BigInt(readU64(u, a + 1)) >= BigInt(b.size)) throw new InvalidArgumentError(`${name}: offset must be below the buffer's size ${b.size}`, 'offset');
      // VUID-vkCmdBindIndexBuffer-indexType-08786/-08787: UINT16 (0) or UINT32 (1); -offset-08783: a multiple of its size
      const indexType = u[a + (name === 'vkCmdBindIndexBuffer' ? 3 : 5)]!;
      if (indexType !== 0 && indexType !== 1) throw invalidArgument(`${name}: indexType`, 'VK_INDEX_TYPE_UINT16 (0) or VK_INDEX_TYPE_UINT32 (1) (the typed API enables no other)', indexType);
      const bytes = indexType === 0 ? 2 : 4;
      const offset = Number(readU64(u, a + 1));
      if (offset % bytes !== 0) throw new InvalidArgumentError(`${name}: offset ${offset} must be a multiple of the index size ${bytes}`, 'offset');
      let end = Number(b.size);
      if (name === 'vkCmdBindIndexBuffer2') {
        // VUID-vkCmdBindIndexBuffer2-size-08767 (offset + size inside the buffer), -size-08768 (a multiple of the index size); VK_WHOLE_SIZE: the rest of the buffer
        const size = BigInt(readU64(u, a + 3));
        if (size !== 0xffff_ffff_ffff_ffffn) {
          if (size % BigInt(bytes) !== 0n || BigInt(offset) + size > BigInt(b.size)) throw new InvalidArgumentError(`${name}: size ${size} must be a multiple of the index size ${bytes} with offset ${offset} + size inside the buffer's ${b.size} (or VK_WHOLE_SIZE)`, 'size');
          end = offset + Number(size);
        }
      }
      st.indexBuffer = b;
      st.indexOffset = offset;
      st.indexBytes = bytes;
      st.indexEnd = end;
      return;
    }
    case 'vkCmdResetQueryPool':
      checkResetQueryPool(st, name, objects[u[a]!] as QueryPool, u[a + 1]!, u[a + 2]!);
      return;
    case 'vkCmdBeginQuery':
      checkBeginQuery(st, name, objects[u[a]!] as QueryPool, u[a + 1]!, u[a + 2]!);
      return;
    case 'vkCmdEndQuery':
      checkEndQuery(st, name, objects[u[a]!] as QueryPool, u[a + 1]!);
      return;
    case 'vkCmdWriteTimestamp':
      checkWriteTimestamp(st, name, objects[u[a + 1]!] as QueryPool, u[a + 2]!, u[a]!);
      return;
    case 'vkCmdCopyQueryPoolResults':
      checkCopyQueryPoolResults(st, name, objects[u[a]!] as QueryPool, u[a + 1]!, u[a + 2]!, objects[u[a + 3]!] as VulkanBuffer, readU64(u, a + 4), readU64(u, a + 6), u[a + 8]!);
      return;
    case 'vkCmdSetEvent':
    case 'vkCmdResetEvent':
      checkEventCommand(st, name, u[a + 1]!);
      return;
    case 'vkCmdWriteTimestamp2':
      checkSynchronization2(name, device);
      checkWriteTimestamp(st, name, objects[u[a + 2]!] as QueryPool, u[a + 3]!, BigInt(readU64(u, a)));
      return;
    case 'vkCmdResetEvent2':
      checkSynchronization2(name, device);
      checkEventCommand2(st, name, 'stageMask', BigInt(readU64(u, a + 1)));
      return;
    default:
      // The others set dynamic state the typed API's pipelines do not read.
      return;
  }
}


const TWO_32 = 0x1_0000_0000;
/** A VkDeviceSize as two words (low first): a number when it is a safe integer, else a bigint. */
function readU64(u: Uint32Array, at: number): number | bigint {
  const high = u[at + 1]!;
  return high < 0x20_0000 ? high * TWO_32 + u[at]! : (BigInt(high) << 32n) | BigInt(u[at]!);
}

/** VUID-vkCmdClearColorImage-baseArrayLayer-01735, VkImageSubresourceRange-layerCount-01720 */
/**
 * The clear's image and layers: a colour image for clearColorImage (VUID-vkCmdClearColorImage-image-00007),
 * a depth/stencil one for clearDepthStencilImage (VUID-vkCmdClearDepthStencilImage-image-00014);
 * the layers inside it.
 */
function checkLayers(image: Image, baseArrayLayer: number, layerCount: number, what: 'clearColorImage' | 'clearDepthStencilImage'): void {
  const colour = image.aspectMask === 1;
  if (colour !== (what === 'clearColorImage')) {
    throw invalidArgument(`${what}: image`, colour ? 'an image of a depth/stencil format' : 'an image of a colour format', `an image of VkFormat ${image.format}`);
  }
  uint('baseArrayLayer', baseArrayLayer);
  uint('layerCount', layerCount);
  if (layerCount === 0 || baseArrayLayer + layerCount > image.arrayLayers) {
    throw new InvalidArgumentError(`${what}: the layers [${baseArrayLayer}, ${baseArrayLayer + layerCount}) must be inside the image's ${image.arrayLayers}, layerCount above 0`, 'layerCount');
  }
}

/**
 * InvalidArgumentError / InvalidStateError unless a copy of `bytes` from src at srcOffset to dst
 * at dstOffset is defined: both buffers backed by memory (VUID-vkCmdCopyBuffer-srcBuffer-00119,
 * -dstBuffer-00121), with TRANSFER_SRC / TRANSFER_DST usage (-00118, -00120), the regions inside
 * them (-srcOffset-00113, -dstOffset-00114, -size-00115, -size-00116), not overlapping in one
 * buffer (-pRegions-00117), and bytes above 0 (VkBufferCopy-size-01988).
 */
export function checkCopy(s: VulkanBuffer, d: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint, dstOffset: number | bigint): void {
  s.checkBacked('copyBuffer: src');
  d.checkBacked('copyBuffer: dst');
  s.checkUsage('copyBuffer', BUFFER_USAGE.TRANSFER_SRC, 'src');
  d.checkUsage('copyBuffer', BUFFER_USAGE.TRANSFER_DST, 'dst');
  if (bytes === 0 || bytes === 0n) throw new InvalidArgumentError('copyBuffer: bytes must be above 0, got 0', 'bytes');
  // Numbers below 2^53 add exactly; only a bigint among them takes the BigInt path (recording allocates nothing).
  if (typeof bytes === 'number' && typeof srcOffset === 'number' && typeof dstOffset === 'number' && typeof s.size === 'number' && typeof d.size === 'number') {
    if (srcOffset + bytes > s.size || dstOffset + bytes > d.size || (s === d && srcOffset < dstOffset + bytes && dstOffset < srcOffset + bytes)) copyRefused(s, d, bytes, srcOffset, dstOffset);
    return;
  }
  const n = BigInt(bytes);
  const so = BigInt(srcOffset);
  const dO = BigInt(dstOffset);
  if (so + n > BigInt(s.size) || dO + n > BigInt(d.size) || (s === d && so < dO + n && dO < so + n)) copyRefused(s, d, bytes, srcOffset, dstOffset);
}

function copyRefused(s: VulkanBuffer, d: VulkanBuffer, bytes: number | bigint, srcOffset: number | bigint, dstOffset: number | bigint): never {
  if (BigInt(srcOffset) + BigInt(bytes) > BigInt(s.size)) throw new InvalidArgumentError(`copyBuffer: srcOffset ${srcOffset} + bytes ${bytes} is past src's size ${s.size}`, 'bytes');
  if (BigInt(dstOffset) + BigInt(bytes) > BigInt(d.size)) throw new InvalidArgumentError(`copyBuffer: dstOffset ${dstOffset} + bytes ${bytes} is past dst's size ${d.size}`, 'bytes');
  throw new InvalidArgumentError('copyBuffer: the source and destination regions of one buffer overlap', 'dstOffset');
}

// imageBarrier's words, reused (recording allocates nothing).
const BARRIER_WORDS = new Uint32Array(IMAGE_BARRIER_WORDS);

/** An image layout transition (VkImageMemoryBarrier; the stage and access masks are VkPipelineStageFlags / VkAccessFlags: PipelineStageFlags and AccessFlags). */
export interface ImageBarrier {
  readonly oldLayout: ImageLayoutName;
  readonly newLayout: ImageLayoutName;
  readonly srcStageMask: PipelineStageFlags;
  readonly dstStageMask: PipelineStageFlags;
  readonly srcAccessMask?: AccessFlags;
  readonly dstAccessMask?: AccessFlags;
  readonly baseArrayLayer?: number;
  readonly layerCount?: number;
}

export interface SubmitSemaphores {
  readonly wait?: Semaphore;
  /** VkPipelineStageFlags the wait applies to (default PipelineStageFlags.ALL_COMMANDS). */
  readonly waitStage?: PipelineStageFlags;
  readonly signal?: Semaphore;
}

/** A VkQueue of a device (owned by the device; it has nothing to destroy). */
export class Queue {
  readonly handle: bigint;
  readonly familyIndex: number;
  readonly #device: DeviceOwner;
  readonly #n: NativeVulkanCompute;
  #submitted = 0;
  #completed = 0;

  /** @internal Submissions up to this serial are known to have completed (a fence seen signaled, waitIdle()). */
  get completedSerial(): number {
    return this.#completed;
  }

  /** @internal Submissions on one queue complete in order for a fence: all up to `serial` are done. */
  markCompleted(serial: number): void {
    if (serial > this.#completed) this.#completed = serial;
  }

  /** @internal Everything submitted so far has completed (vkQueueWaitIdle, vkDeviceWaitIdle returned). */
  markIdle(): void {
    this.#completed = this.#submitted;
  }

  /** @internal */
  constructor(device: DeviceOwner, handle: bigint, familyIndex: number) {
    this.#device = device;
    this.handle = handle;
    this.familyIndex = familyIndex;
    this.#n = vulkanCompute();
  }

  #live(): void {
    if (this.#device.isDestroyed) throw new VulkanError(VK_ERROR_VALIDATION_FAILED, 'the VkQueue\'s device was destroyed');
  }

  /** vkQueueSubmit of one command buffer; `fence` is signalled when it completes. */
  submit(commandBuffer: CommandBuffer, fence?: Fence, semaphores?: SubmitSemaphores): void {
    const device = this.#device;
    const cb = usable('commandBuffer', commandBuffer, CommandBuffer, device);
    const f = fence === undefined ? undefined : usable('fence', fence, Fence, device);
    let wait = NO_HANDLE;
    let signal = NO_HANDLE;
    let waitStage = 0x10000;
    let waitSemaphore: Semaphore | undefined;
    let signalSemaphore: Semaphore | undefined;
    if (semaphores !== undefined) {
      if (typeof semaphores !== 'object' || semaphores === null) throw new InvalidArgumentError('submit: semaphores must be an object');
      if (semaphores.wait !== undefined) wait = (waitSemaphore = usable('semaphores.wait', semaphores.wait, Semaphore, device)).handle;
      if (semaphores.signal !== undefined) signal = (signalSemaphore = usable('semaphores.signal', semaphores.signal, Semaphore, device)).handle;
      if (semaphores.waitStage !== undefined) {
        uint('semaphores.waitStage', semaphores.waitStage);
        // VUID-VkSubmitInfo-pWaitDstStageMask-requiredbitmask
        if (semaphores.waitStage === 0) throw new InvalidArgumentError('submit: semaphores.waitStage must name at least one pipeline stage, got 0', 'semaphores.waitStage');
        waitStage = semaphores.waitStage;
      }
    }
    this.#live();
    cb.checkSubmittable(this.familyIndex);
    if (f !== undefined) f.checkSubmittable();
    if (waitSemaphore !== undefined) waitSemaphore.checkWaitable();
    if (signalSemaphore !== undefined) signalSemaphore.checkSignalable(signalSemaphore === waitSemaphore);
    try {
      this.#n.queueSubmit(this.handle, cb.handle, f === undefined ? NO_HANDLE : f.handle, wait, waitStage, signal);
    } catch (error) {
      throw toVulkanError(error);
    }
    const serial = ++this.#submitted;
    cb.submitted(this, serial, f ?? null);
    if (f !== undefined) f.submitted(this, serial);
    if (waitSemaphore !== undefined) waitSemaphore.used(this, serial, false);
    if (signalSemaphore !== undefined) signalSemaphore.used(this, serial, true);
  }

  /**
   * vkQueueSubmit2 (Vulkan 1.3, the synchronization2 feature) of one batch: `commandBuffers` in
   * order, after the `semaphores.wait` semaphores are signalled (each at its VkPipelineStageFlags2
   * stageMask), signalling `semaphores.signal` and `fence` when done. Checked as submit() is.
   */
  submit2(commandBuffers: readonly CommandBuffer[], fence?: Fence, semaphores?: Submit2Semaphores): void {
    const device = this.#device;
    if (!Array.isArray(commandBuffers)) throw new InvalidArgumentError(`submit2: commandBuffers must be an array of CommandBuffer, got ${describeValue(commandBuffers)}`, 'commandBuffers');
    const cbs = commandBuffers.map((cb, i) => usable(`commandBuffers[${i}]`, cb, CommandBuffer, device));
    const f = fence === undefined ? undefined : usable('fence', fence, Fence, device);
    const s = checkSubmit2(device, f, semaphores, (name, v) => usable(name, v, Semaphore, device));
    this.#live();
    cbs.forEach((cb, i) => {
      cb.checkSubmittable(this.familyIndex);
      // VUID-vkQueueSubmit2-commandBuffer-03875: twice in one batch only with SIMULTANEOUS_USE.
      if (cbs.indexOf(cb) !== i && !cb.simultaneousUse) throw new InvalidStateError(`submit2: commandBuffers[${i}] is listed before it and was not recorded with SIMULTANEOUS_USE (0x4)`);
    });
    try {
      this.#n.queueSubmit2(this.handle, cbs.map((cb) => cb.handle), f === undefined ? NO_HANDLE : f.handle, s.waits.map((w) => w.handle), s.waitStages, s.signals.map((w) => w.handle), s.signalStages);
    } catch (error) {
      throw toVulkanError(error);
    }
    const serial = ++this.#submitted;
    for (const cb of cbs) cb.submitted(this, serial, f ?? null);
    if (f !== undefined) f.submitted(this, serial);
    for (const w of s.waits) w.used(this, serial, s.signals.includes(w));
    for (const w of s.signals) w.used(this, serial, true);
  }

  /** vkQueueWaitIdle (blocks the calling thread: prefer a fence and `await fence.wait()`). */
  waitIdle(): void {
    this.#live();
    withVulkanErrors(() => this.#n.queueWaitIdle(this.handle));
    this.markIdle();
  }
}

// ---- graphics helpers ---------------------------------------------------------------------------

const USAGE_INDEX = 0x40;
const USAGE_VERTEX = 0x80;
const USAGE_INDIRECT = 0x100;

/** One attachment of beginRendering. clearValue: [r, g, b, a] for colour, { depth, stencil? } for depth (used with loadOp 'clear'). */
export interface RenderingAttachment {
  readonly view: ImageView;
  /** The layout the view is in during rendering (default 'color-attachment-optimal' / 'depth-attachment-optimal'). */
  readonly layout?: ImageLayoutName;
  readonly loadOp: keyof typeof LOAD_OPS;
  readonly storeOp: keyof typeof STORE_OPS;
}

export interface DepthClear {
  readonly depth: number;
  readonly stencil?: number;
}

export interface RenderArea {
  readonly x?: number;
  readonly y?: number;
  readonly width: number;
  readonly height: number;
}

/** beginRendering's argument (VkRenderingInfo). */
export interface RenderingInfo {
  readonly colorAttachments: readonly (RenderingAttachment & { readonly clearValue?: readonly number[] })[];
  readonly depthAttachment?: RenderingAttachment & { readonly clearValue?: DepthClear };
  readonly renderArea?: RenderArea;
  /** Layers rendered when viewMask is 0 (default 1). */
  readonly layerCount?: number;
  /** Multiview: one bit per view (layer); 0 for none. */
  readonly viewMask?: number;
}

/** beginRenderPass's argument (VkRenderPassBeginInfo). */
export interface RenderPassBeginInfo {
  readonly renderPass: RenderPass;
  readonly framebuffer: Framebuffer;
  readonly renderArea?: RenderArea;
  /** Per attachment: [r, g, b, a] (colour) or { depth, stencil? }; needed for attachments with loadOp 'clear'. */
  readonly clearValues?: readonly (readonly number[] | DepthClear | undefined)[];
}

/** One VkBufferImageCopy region (texels; the buffer side tightly packed when bufferRowLength / bufferImageHeight are 0). */
export interface BufferImageRegion {
  readonly bufferOffset?: number;
  readonly bufferRowLength?: number;
  readonly bufferImageHeight?: number;
  readonly aspect?: keyof typeof IMAGE_ASPECT;
  readonly mipLevel?: number;
  readonly baseArrayLayer?: number;
  readonly layerCount?: number;
  readonly x?: number;
  readonly y?: number;
  readonly z?: number;
  readonly width?: number;
  readonly height?: number;
  readonly depth?: number;
}

function finite(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v);
}

function uintSafe(name: string, v: unknown): asserts v is number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new InvalidArgumentError(`${name} must be a non-negative safe integer, got ${describeValue(v)}`, name);
}

function pick<T extends Record<string, number>>(name: string, table: T, v: unknown): number {
  const value = typeof v === 'string' && Object.hasOwn(table, v) ? table[v] : undefined;
  if (value === undefined) throw new InvalidArgumentError(`${name} must be one of ${Object.keys(table).map((k) => `'${k}'`).join(', ')}, got ${describeValue(v)}`, name);
  return value;
}

function layoutOf(name: string, v: unknown): number {
  return pick(name, IMAGE_LAYOUTS, v);
}

/** The render area (the caller reads it at once: one object, refilled each call). */
function renderArea(what: string, v: RenderArea | undefined, width: number, height: number): { x: number; y: number; width: number; height: number } {
  const area = AREA;
  if (v === undefined) {
    area.x = 0;
    area.y = 0;
    area.width = width;
    area.height = height;
    return area;
  }
  if (typeof v !== 'object' || v === null) throw new InvalidArgumentError(`${what}: info.renderArea must be an object`, 'info.renderArea');
  area.x = v.x ?? 0;
  area.y = v.y ?? 0;
  area.width = v.width;
  area.height = v.height;
  uint('info.renderArea.x', area.x);
  uint('info.renderArea.y', area.y);
  uint('info.renderArea.width', area.width);
  uint('info.renderArea.height', area.height);
  if (area.width === 0 || area.height === 0) throw new InvalidArgumentError(`${what}: info.renderArea's width and height must be above 0`, 'info.renderArea');
  return area;
}

interface ClearValues {
  readonly buffer: ArrayBuffer;
  readonly f32: Float32Array;
  readonly u32: Uint32Array;
  readonly count: number;
}

function newClearValues(count: number): ClearValues {
  const buffer = new ArrayBuffer(16 * count);
  return { buffer, f32: new Float32Array(buffer), u32: new Uint32Array(buffer), count };
}

function writeColour(c: ClearValues, i: number, v: readonly number[] | undefined): void {
  if (i >= c.count) throw new InvalidArgumentError(`at most ${c.count} attachments`, 'colorAttachments');
  const rgba = v ?? ZERO4;
  if (!Array.isArray(rgba) || rgba.length !== 4 || typeof rgba[0] !== 'number' || typeof rgba[1] !== 'number' || typeof rgba[2] !== 'number' || typeof rgba[3] !== 'number') throw new InvalidArgumentError(`clear value ${i} must be [r, g, b, a] (4 numbers)`, 'clearValue');
  const f = c.f32;
  f[i * 4] = rgba[0]!;
  f[i * 4 + 1] = rgba[1]!;
  f[i * 4 + 2] = rgba[2]!;
  f[i * 4 + 3] = rgba[3]!;
}

function writeDepth(c: ClearValues, i: number, v: DepthClear | undefined): void {
  if (i >= c.count) throw new InvalidArgumentError(`at most ${c.count} attachments`, 'depthAttachment');
  const d = v ?? { depth: 1 };
  // VUID-VkClearDepthStencilValue-depth-00022: depth in [0, 1]
  if (typeof d !== 'object' || d === null || typeof d.depth !== 'number' || !(d.depth >= 0 && d.depth <= 1)) throw new InvalidArgumentError(`depth clear value ${i} must be { depth: a number in [0, 1], stencil? }`, 'clearValue');
  const stencil = d.stencil ?? 0;
  uint('clearValue.stencil', stencil);
  c.f32[i * 4] = d.depth;
  c.u32[i * 4 + 1] = stencil;
}

const ZERO4: readonly number[] = [0, 0, 0, 0];
const AREA = { x: 0, y: 0, width: 0, height: 0 };
const BUFFER_NAMES = Array.from({ length: MAX_VERTEX_BINDINGS }, (_, i) => `buffers[${i}]`);
const OFFSET_NAMES = Array.from({ length: MAX_VERTEX_BINDINGS }, (_, i) => `offsets[${i}]`);
const BACKED_NAMES = BUFFER_NAMES.map((name) => `bindVertexBuffers: ${name}`);
const SUBPASS_KEYS = new Map<string, string>();
/** A render pass's subpass 0 rendering key (as a pipeline's, graphics.ts), made once per pass key. */
function subpassKey(passKey: string): string {
  let key = SUBPASS_KEYS.get(passKey);
  if (key === undefined) SUBPASS_KEYS.set(passKey, (key = `${passKey}#0`));
  return key;
}

type Decoded = { readonly [name: string]: DecodedValue };
const NO_VALUES: readonly DecodedValue[] = Object.freeze([]);
const list = (v: DecodedValue | undefined): readonly DecodedValue[] => (v === null || v === undefined ? NO_VALUES : (v as readonly DecodedValue[]));

// The walk's argument names for messages, made once each (a frame's walk builds no string it does not throw).
const INDEXED_NAMES = new Map<string, string[]>();
/** `${head}[${i}]`, made once. */
function nameAt(head: string, i: number): string {
  let names = INDEXED_NAMES.get(head);
  if (names === undefined) INDEXED_NAMES.set(head, (names = []));
  return (names[i] ??= `${head}[${i}]`);
}
const num = (v: DecodedValue | undefined): number => Number(v as number | bigint);

/**
 * The state checks of the typed methods for the walked opcodes (the native check has the registry's:
 * lengths, enums, slot kinds, render pass scope): what they bind and set is kept as the typed
 * methods keep it, and a command whose use the typed API does not check yet is refused before any
 * Vulkan call (record it per call through CommandBuffer).
 */
function checkWalked(st: RecordingState, name: string, args: Decoded, objects: readonly unknown[], device: DeviceOwner): void {
  switch (name) {
    case 'vkCmdBeginRendering':
      beginRenderingEncoded(st, args.pRenderingInfo as Decoded, objects, device);
      return;
    case 'vkCmdBindVertexBuffers':
    case 'vkCmdBindVertexBuffers2': {
      const first = num(args.firstBinding);
      const buffers = list(args.pBuffers);
      const offsets = list(args.pOffsets);
      const sizes = list(args.pSizes);
      // VUID-vkCmdBindVertexBuffers2-pStrides-03363: strides need a pipeline with dynamic vertex input binding stride, which the typed API does not make.
      if (args.pStrides !== undefined && args.pStrides !== null) throw invalidArgument(`${name}: pStrides`, 'null (the typed API makes no pipeline with dynamic vertex strides)', 'strides');
      // VUID-vkCmdBindVertexBuffers-firstBinding-00624 (inside the tracked bindings), -pOffsets-00626, -pBuffers-00627, -00628
      if (first + buffers.length > MAX_VERTEX_BINDINGS) throw new InvalidArgumentError(`${name}: bindings [${first}, ${first + buffers.length}) go past ${MAX_VERTEX_BINDINGS}`, 'firstBinding');
      for (let i = 0; i < buffers.length; i++) {
        const b = objects[buffers[i] as number] as VulkanBuffer;
        const offset = num(offsets[i]);
        b.checkBacked(nameAt(name === 'vkCmdBindVertexBuffers' ? 'vkCmdBindVertexBuffers: pBuffers' : 'vkCmdBindVertexBuffers2: pBuffers', i));
        b.checkUsage(name, USAGE_VERTEX, nameAt('pBuffers', i));
        if (offset >= Number(b.size)) throw new InvalidArgumentError(`${name}: pOffsets[${i}] (${offset}) must be below the buffer's size ${b.size}`, `pOffsets[${i}]`);
        const whole = sizes[i] === undefined || sizes[i] === 0xffff_ffff_ffff_ffffn;
        if (!whole && offset + num(sizes[i]) > Number(b.size)) throw new InvalidArgumentError(`${name}: pOffsets[${i}] + pSizes[${i}] go past the buffer's size ${b.size}`, `pSizes[${i}]`);
        st.vertexBound[first + i] = 1;
      }
      return;
    }
    case 'vkCmdSetViewport':
      // VUID-vkCmdSetViewport-firstViewport-01224 / -viewportCount-01225: one viewport, the first, without the multiViewport feature (the typed API does not enable it)
      if (num(args.firstViewport) !== 0 || num(args.viewportCount) !== 1) throw new InvalidArgumentError('vkCmdSetViewport: firstViewport must be 0 and viewportCount 1 (the typed API enables no multiViewport)', 'viewportCount');
      checkViewport(name, list(args.pViewports)[0] as Decoded);
      st.viewportSet = true;
      return;
    case 'vkCmdSetScissor':
      if (num(args.firstScissor) !== 0 || num(args.scissorCount) !== 1) throw new InvalidArgumentError('vkCmdSetScissor: firstScissor must be 0 and scissorCount 1 (the typed API enables no multiViewport)', 'scissorCount');
      checkScissor(name, list(args.pScissors)[0] as Decoded);
      st.scissorSet = true;
      return;
    case 'vkCmdSetBlendConstants':
      return; // any four floats
    case 'vkCmdPushConstants':
    case 'vkCmdPushConstants2': {
      const info = name === 'vkCmdPushConstants' ? args : (args.pPushConstantsInfo as Decoded);
      // VUID-VkPushConstantsInfo-layout-09496: a null layout needs the dynamicPipelineLayout feature, which the typed API does not enable.
      if (info.layout === null) throw new InvalidArgumentError(`${name}: pPushConstantsInfo.layout must be a PipelineLayout (the typed API enables no dynamicPipelineLayout)`, 'pPushConstantsInfo.layout');
      const l = objects[info.layout as number] as PipelineLayout;
      const bytes = num(info.size);
      const offset = num(info.offset);
      l.checkPushConstants(num(info.stageFlags), offset, bytes);
      st.push(l, offset, bytes);
      return;
    }
    case 'vkCmdBindDescriptorSets': {
      const l = objects[args.layout as number] as PipelineLayout;
      const first = num(args.firstSet);
      const point = num(args.pipelineBindPoint);
      if (point !== 0 && point !== 1) throw invalidArgument('vkCmdBindDescriptorSets: pipelineBindPoint', 'VK_PIPELINE_BIND_POINT_GRAPHICS (0) or VK_PIPELINE_BIND_POINT_COMPUTE (1)', point);
      // VUID-vkCmdBindDescriptorSets-dynamicOffsetCount-00359: one offset per dynamic descriptor, and the typed API's set layouts have none.
      if (num(args.dynamicOffsetCount) !== 0) throw new InvalidArgumentError('vkCmdBindDescriptorSets: dynamicOffsetCount must be 0 (the typed API\'s set layouts have no dynamic descriptors)', 'dynamicOffsetCount');
      list(args.pDescriptorSets).forEach((slot, i) => {
        const s = objects[slot as number] as DescriptorSet;
        RecordingState.checkBindSet(l, s, first + i);
        if (point === 1) {
          st.bindSet(l, s, first + i);
        } else {
          st.graphicsLayouts[first + i] = l;
          st.graphicsSets[first + i] = s;
        }
      });
      return;
    }
    default:
      // Copies, blits, clears, barriers and render passes (encoded-checks.ts).
      if (checkWalkedTransfer(st, name, args, objects, checkCopy, device)) return;
      throw new InvalidStateError(`${name}: the encoder writes and checks its words, but the typed API's state checks for it are not in the encoder's walk yet: record it per call through CommandBuffer`);
  }
}

/** The name of a vkCmdBeginRendering attachment (kind 0: colour attachment i, 1: depth, 2: stencil), for messages. */
function renderingAttachmentName(kind: number, i: number): string {
  return kind === 0 ? nameAt('pRenderingInfo.pColorAttachments', i) : kind === 1 ? 'pRenderingInfo.pDepthAttachment' : 'pRenderingInfo.pStencilAttachment';
}

/** One attachment of vkCmdBeginRendering (as CommandBuffer.beginRendering() checks it); its view. No string is built unless thrown. */
function renderingAttachment(a: Decoded, kind: number, i: number, objects: readonly unknown[]): ImageView {
  const what = 'vkCmdBeginRendering';
  const depth = kind !== 0;
  if (a.imageView === null) {
    const where = renderingAttachmentName(kind, i);
    throw new InvalidArgumentError(`${what}: ${where}.imageView must be an ImageView (VK_NULL_HANDLE attachments are recorded per call)`, `${where}.imageView`);
  }
  // The typed API resolves no attachments: VUID-VkRenderingAttachmentInfo-imageView-06129 and kin are not checked.
  if (num(a.resolveMode) !== 0 || a.resolveImageView !== null) {
    const where = renderingAttachmentName(kind, i);
    throw new InvalidArgumentError(`${what}: ${where}: resolveMode must be VK_RESOLVE_MODE_NONE (0) and resolveImageView null`, `${where}.resolveMode`);
  }
  const view = objects[a.imageView as number] as ImageView;
  const image = view.image;
  try {
    image.checkBacked(what);
  } catch (error) {
    // (the message names the attachment: made only when it throws)
    image.checkBacked(`${what}: ${renderingAttachmentName(kind, i)}.imageView's image`);
    throw error;
  }
  // VUID-VkRenderingInfo-colorAttachmentCount-06087 / -pDepthAttachment-06088 (usage), -06547 (aspect)
  const usage = depth ? IMAGE_USAGE.DEPTH_STENCIL_ATTACHMENT : IMAGE_USAGE.COLOR_ATTACHMENT;
  if (image.usage !== undefined && (image.usage & usage) === 0) {
    const where = renderingAttachmentName(kind, i);
    throw new InvalidArgumentError(`${what}: ${where}.imageView's image has no ${depth ? 'DEPTH_STENCIL_ATTACHMENT (0x20)' : 'COLOR_ATTACHMENT (0x10)'} usage`, `${where}.imageView`);
  }
  if (depth !== ((view.aspect & IMAGE_ASPECT.color) === 0)) {
    const where = renderingAttachmentName(kind, i);
    throw new InvalidArgumentError(`${what}: ${where}.imageView is ${depth ? 'a colour view where a depth view goes' : 'a depth/stencil view where a colour view goes'}`, `${where}.imageView`);
  }
  if (num(a.loadOp) > LOAD_OPS['dont-care'] || num(a.storeOp) > STORE_OPS['dont-care']) {
    const where = renderingAttachmentName(kind, i);
    throw new InvalidArgumentError(`${what}: ${where}: loadOp and storeOp must be of Vulkan 1.0 (the typed API enables no other)`, `${where}.loadOp`);
  }
  return view;
}

// The last rendering key the walk made, and what it was made of: a frame that begins the same rendering again builds no key string.
const lastKeyFormats: number[] = [];
let lastKeyCount = -1;
let lastKeyDepth = 0;
let lastKeyStencil = 0;
let lastKeyViewMask = 0;
let lastKey = '';

/** dynamicRenderingKey of these colour attachments' formats, made again only when they differ from the last call's. */
function encodedRenderingKey(colors: readonly DecodedValue[], objects: readonly unknown[], depthFormat: number, stencilFormat: number, viewMask: number): string {
  let same = colors.length === lastKeyCount && depthFormat === lastKeyDepth && stencilFormat === lastKeyStencil && viewMask === lastKeyViewMask;
  for (let i = 0; same && i < colors.length; i++) same = (objects[(colors[i] as Decoded).imageView as number] as ImageView).format === lastKeyFormats[i];
  if (same) return lastKey;
  lastKeyFormats.length = 0;
  for (let i = 0; i < colors.length; i++) lastKeyFormats.push((objects[(colors[i] as Decoded).imageView as number] as ImageView).format);
  lastKeyCount = colors.length;
  lastKeyDepth = depthFormat;
  lastKeyStencil = stencilFormat;
  lastKeyViewMask = viewMask;
  lastKey = dynamicRenderingKey(lastKeyFormats, depthFormat, stencilFormat, viewMask);
  return lastKey;
}

/** vkCmdBeginRendering's state checks, as CommandBuffer.beginRendering() makes them (in its order). Allocates nothing: no closure, array or string unless it throws. */
function beginRenderingEncoded(st: RecordingState, info: Decoded, objects: readonly unknown[], device: DeviceOwner): void {
  const what = 'vkCmdBeginRendering';
  // VUID-vkCmdBeginRendering-dynamicRendering-06446 (the feature); flags: the typed API records no suspended or secondary rendering
  if (device.graphicsFeatures.dynamicRendering === false) throw new InvalidStateError(`${what}: the device was created without the dynamicRendering feature (createDevice({ enabledFeatures: { dynamicRendering: true } }))`);
  if (num(info.flags) !== 0) throw invalidArgument(`${what}: pRenderingInfo.flags`, '0 (no suspending, resuming or secondary command buffer contents)', info.flags);
  const colors = list(info.pColorAttachments);
  for (let i = 0; i < colors.length; i++) renderingAttachment(colors[i] as Decoded, 0, i, objects);
  const depth = info.pDepthAttachment === null ? null : renderingAttachment(info.pDepthAttachment as Decoded, 1, 0, objects);
  if (info.pStencilAttachment !== null) {
    const stencil = renderingAttachment(info.pStencilAttachment as Decoded, 2, 0, objects);
    // VUID-VkRenderingInfo-pDepthAttachment-06085: a depth and a stencil attachment are one view
    if (depth !== null && stencil !== depth) throw new InvalidArgumentError(`${what}: pDepthAttachment and pStencilAttachment must name the same view when both are given`, 'pRenderingInfo.pStencilAttachment');
  }
  const viewCount = colors.length + (depth === null ? 0 : 1);
  if (viewCount === 0) throw new InvalidArgumentError(`${what}: give at least one colour or depth attachment`, 'pRenderingInfo.pColorAttachments');
  const area = info.renderArea as Decoded;
  const x = (area.offset as Decoded).x as number;
  const y = (area.offset as Decoded).y as number;
  const width = num((area.extent as Decoded).width);
  const height = num((area.extent as Decoded).height);
  const viewMask = num(info.viewMask);
  const layerCount = num(info.layerCount);
  // VUID-VkRenderingInfo-viewMask-06069, -multiview-06127, -viewMask-06128, -pNext-06079/-06080 and -renderArea-06077 (offsets not negative)
  if (x < 0 || y < 0) throw new InvalidArgumentError(`${what}: the render area's offset must not be negative, got (${x}, ${y})`, 'pRenderingInfo.renderArea');
  if (viewMask === 0 && layerCount === 0) throw new InvalidArgumentError(`${what}: pRenderingInfo.layerCount must be above 0 when viewMask is 0`, 'pRenderingInfo.layerCount');
  if (viewMask !== 0 && device.graphicsFeatures.multiview === false) throw new InvalidStateError(`${what}: pRenderingInfo.viewMask needs the multiview feature, and the device was created without it`);
  const needLayers = viewMask !== 0 ? 32 - Math.clz32(viewMask) : layerCount;
  for (let i = 0; i < viewCount; i++) {
    const v = i < colors.length ? (objects[(colors[i] as Decoded).imageView as number] as ImageView) : depth!;
    if (x + width > v.image.width || y + height > v.image.height) throw new InvalidArgumentError(`${what}: the render area [${x}, ${y}, ${width}x${height}] is not inside attachment ${i}'s ${v.image.width}x${v.image.height}`, 'pRenderingInfo.renderArea');
    if (v.layerCount < needLayers) throw new InvalidArgumentError(`${what}: attachment ${i}'s view has ${v.layerCount} layer(s), the rendering needs ${needLayers}`, 'pRenderingInfo.viewMask');
  }
  st.rendering = 1;
  st.renderColors = colors.length;
  st.renderDepth = depth !== null && (depth.aspect & IMAGE_ASPECT.depth) !== 0;
  st.renderStencil = info.pStencilAttachment !== null || (depth !== null && (depth.aspect & IMAGE_ASPECT.stencil) !== 0);
  const renderArea = st.renderArea;
  renderArea[0] = x;
  renderArea[1] = y;
  renderArea[2] = width;
  renderArea[3] = height;
  st.renderLayers = viewMask !== 0 ? 1 : layerCount;
  st.renderingKey = encodedRenderingKey(
    colors,
    objects,
    depth !== null && (depth.aspect & IMAGE_ASPECT.depth) !== 0 ? depth.format : 0,
    depth !== null && (formatAspectMask(depth.format) & IMAGE_ASPECT.stencil) !== 0 && (depth.aspect & IMAGE_ASPECT.stencil) !== 0 ? depth.format : 0,
    viewMask,
  );
  for (let i = 0; i < colors.length; i++) st.use((objects[(colors[i] as Decoded).imageView as number] as ImageView).image);
  if (depth !== null) st.use(depth.image);
}
