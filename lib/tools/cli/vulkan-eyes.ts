// The Vulkan-rendered demo's renderer: each frame, both eyes' swapchain images are acquired,
// cleared to a colour that changes every frame (different per eye) with the typed Vulkan command
// buffer — or, given the SPIR-V of examples/shaders/eye-pattern.comp, written by that compute
// shader as storage images — submitted on the session's queue and released; the frame's
// projection layer goes to endFrame. What it drew is known exactly (eyeColour), so the simulated
// runtime's readback can be checked against it. The per-frame path reuses its command buffers,
// fences, descriptor sets, push-constant array, views and layer, and allocates nothing unless it
// is asked to time its calls (performance.now() answers a new number each call).
import { performance } from 'node:perf_hooks';
import type { FrameState, ProjectionLayer, Session } from '../../openxr/api/session.js';
import type { Space } from '../../openxr/api/space.js';
import type { Swapchain } from '../../openxr/vulkan/swapchain.js';
import type { SubmittedPixel } from '../../openxr/simulated-runtime.js';
import { VIEW_FLOATS } from '../../openxr/api/types.js';
import type { VulkanGraphics } from '../../openxr/vulkan/graphics.js';
import type { CommandBuffer } from '../../vulkan/api/commands.js';
import type { DescriptorSet, Fence, PipelineLayout, ComputePipeline } from '../../vulkan/api/device-objects.js';
import { AccessFlags, PipelineStageFlags } from '../../generated/vulkan.js';
import type { Image } from '../../vulkan/api/image.js';
import type { ImageBarrier } from '../../vulkan/api/commands.js';
import { InvalidArgumentError, UnavailableError } from '../../core/errors.js';

/** VkFormats whose bytes are the clear colour's, rounded: the renderer asks for one of these. */
export const VK_FORMAT_R8G8B8A8_UNORM = 37;
export const VK_FORMAT_B8G8R8A8_UNORM = 44;
const ONE_TIME_SUBMIT = 0x1;
// Frames in flight: a slot's command buffer is re-recorded once its fence says the GPU is done.
const SLOTS = 3;
// The displayed time of each drawn frame, by frame number modulo this (the runtime keeps at most 65536 records).
const REMEMBERED_FRAMES = 1 << 16;

// The colour eye `eye` of frame `n` (0-based) is cleared to, channel by channel (bytes; alpha 255).
const red = (n: number) => (n * 3 + 17) & 255;
const green = (n: number, eye: number) => (n * 7 + eye * 128) & 255;
const blue = (eye: number) => (eye === 0 ? 64 : 192);

/**
 * The colour of texel (x, y) of eye `eye` in frame `n` (0-based), as R, G, B, A bytes: the clear
 * colour (x and y 0), or what eye-pattern.comp writes there.
 */
export function eyeColour(n: number, eye: number, x = 0, y = 0): [number, number, number, number] {
  return [(red(n) + x) & 255, (green(n, eye) + y) & 255, blue(eye), 255];
}

/** What EyeColourRenderer draws with: clearColorImage, or the eye-pattern compute shader. */
export type EyeDrawing = { readonly kind: 'clear' } | { readonly kind: 'compute'; readonly spirv: Uint32Array };

const STORAGE_IMAGE = 3;
const STAGE_COMPUTE = 0x20;
const GROUP_SIZE = 8; // local_size_x and _y in eye-pattern.comp
const toGeneral: ImageBarrier = {
  oldLayout: 'color-attachment-optimal',
  newLayout: 'general',
  srcStageMask: PipelineStageFlags.COLOR_ATTACHMENT_OUTPUT,
  dstStageMask: PipelineStageFlags.COMPUTE_SHADER,
  srcAccessMask: AccessFlags.COLOR_ATTACHMENT_WRITE,
  dstAccessMask: AccessFlags.SHADER_WRITE,
};
const generalToAttachment: ImageBarrier = {
  oldLayout: 'general',
  newLayout: 'color-attachment-optimal',
  srcStageMask: PipelineStageFlags.COMPUTE_SHADER,
  dstStageMask: PipelineStageFlags.COLOR_ATTACHMENT_OUTPUT,
  srcAccessMask: AccessFlags.SHADER_WRITE,
  dstAccessMask: AccessFlags.COLOR_ATTACHMENT_WRITE | AccessFlags.COLOR_ATTACHMENT_READ,
};

/** The compute path's objects: one descriptor set per swapchain image, per eye. */
interface ComputeEyes {
  readonly pipeline: ComputePipeline;
  readonly layout: PipelineLayout;
  readonly sets: readonly (readonly DescriptorSet[])[];
  /** The push constants (frame, eye), rewritten each dispatch. */
  readonly constants: Uint32Array;
}

/** The clear path's transitions of a swapchain image, around its clear (exported for the tests that clear eyes their own way). */
export const toAttachment: ImageBarrier = {
  oldLayout: 'transfer-dst-optimal',
  newLayout: 'color-attachment-optimal',
  srcStageMask: PipelineStageFlags.TRANSFER,
  dstStageMask: PipelineStageFlags.COLOR_ATTACHMENT_OUTPUT,
  srcAccessMask: AccessFlags.TRANSFER_WRITE,
  dstAccessMask: AccessFlags.COLOR_ATTACHMENT_WRITE | AccessFlags.COLOR_ATTACHMENT_READ,
};
// XR_KHR_vulkan_enable2: a waited image is in COLOR_ATTACHMENT_OPTIMAL; the clear needs TRANSFER_DST.
export const toTransfer: ImageBarrier = {
  oldLayout: 'color-attachment-optimal',
  newLayout: 'transfer-dst-optimal',
  srcStageMask: PipelineStageFlags.COLOR_ATTACHMENT_OUTPUT,
  dstStageMask: PipelineStageFlags.TRANSFER,
  srcAccessMask: AccessFlags.COLOR_ATTACHMENT_WRITE,
  dstAccessMask: AccessFlags.TRANSFER_WRITE,
};

export interface EyeRendererTimes {
  /** Mean ns per call from JavaScript over the frames drawn. */
  readonly acquire: number;
  readonly wait: number;
  /** Recording both eyes' commands and the queue submission. */
  readonly recordAndSubmit: number;
  readonly release: number;
}

export interface SubmittedPixelCheck {
  /** Records the runtime gave (one per eye per frame it received). */
  readonly received: number;
  /** Records whose bytes and display time are what was drawn for that frame and eye. */
  readonly asDrawn: number;
  /** Frames drawn whose both eyes came back as drawn. */
  readonly framesAsDrawn: number;
  readonly framesDrawn: number;
  /** Up to 5 records that differ, described. */
  readonly differences: readonly string[];
}

interface Slot {
  readonly commandBuffer: CommandBuffer;
  readonly fence: Fence;
  submitted: boolean;
}

export class EyeColourRenderer {
  readonly swapchains: readonly Swapchain[];
  readonly format: number;
  #framesDrawn = 0;
  readonly #graphics: VulkanGraphics;
  readonly #views: Float32Array;
  readonly #layers: readonly ProjectionLayer[];
  readonly #slots: Slot[] = [];
  readonly #displayTimes = new BigInt64Array(REMEMBERED_FRAMES);
  readonly #ns = { acquire: 0, wait: 0, recordAndSubmit: 0, release: 0 };
  readonly #acquired = [0, 0];
  readonly #compute: ComputeEyes | undefined;
  readonly #size: number;
  readonly #timeCalls: boolean;

  /**
   * `views`: where the caller's locateViews writes each frame (VIEW_FLOATS per view): the layer's
   * poses and fields of view are read from it. `timeCalls`: time acquire, wait, record + submit
   * and release for times() (the demo's per-call cost).
   */
  constructor(
    session: Session,
    graphics: VulkanGraphics,
    space: Space,
    size: number,
    views: Float32Array,
    drawing: EyeDrawing = { kind: 'clear' },
    options: { readonly timeCalls?: boolean } = {},
  ) {
    this.#graphics = graphics;
    this.#size = size;
    this.#timeCalls = options.timeCalls === true;
    const formats = session.swapchainFormats();
    const format = formats.find((f) => f === VK_FORMAT_R8G8B8A8_UNORM || f === VK_FORMAT_B8G8R8A8_UNORM);
    if (format === undefined) throw new UnavailableError(`the runtime offers no 8-bit UNORM swapchain format (it offers ${formats.join(', ')})`);
    this.format = format;
    const eyes = session.viewCount();
    const usage = drawing.kind === 'compute' ? (['color-attachment', 'unordered-access'] as const) : (['color-attachment', 'transfer-dst'] as const);
    this.swapchains = Array.from({ length: eyes }, () => session.createSwapchain({ format, width: size, height: size, usage }));
    if (drawing.kind === 'compute') this.#compute = this.#computeEyes(drawing.spirv);
    if (views.length < eyes * VIEW_FLOATS) throw new InvalidArgumentError(`views must hold ${VIEW_FLOATS} floats per view`);
    this.#views = views;
    // Each view's pose and fov are subarrays of the locateViews output: updated in place every frame.
    const projectionViews = this.swapchains.map((swapchain, eye) => ({
      pose: this.#views.subarray(eye * VIEW_FLOATS, eye * VIEW_FLOATS + 7),
      fov: this.#views.subarray(eye * VIEW_FLOATS + 7, eye * VIEW_FLOATS + 11),
      swapchain,
    }));
    this.#layers = [{ type: 'projection', space, views: projectionViews }];
    const pool = graphics.device.createCommandPool(graphics.queueFamilyIndex);
    for (let i = 0; i < SLOTS; i++) this.#slots.push({ commandBuffer: pool.allocateCommandBuffer(), fence: graphics.device.createFence(), submitted: false });
  }

  #computeEyes(spirv: Uint32Array): ComputeEyes {
    const device = this.#graphics.device;
    const setLayout = device.createDescriptorSetLayout([{ binding: 0, descriptorType: STORAGE_IMAGE, stageFlags: STAGE_COMPUTE }]);
    const layout = device.createPipelineLayout([setLayout], [{ stageFlags: STAGE_COMPUTE, offset: 0, size: 8 }]);
    const pipeline = device.createComputePipeline({ layout, module: device.createShaderModule(spirv) });
    const images = this.swapchains.reduce((n, s) => n + s.images.length, 0);
    const pool = device.createDescriptorPool(images, [{ type: STORAGE_IMAGE, descriptorCount: images }]);
    const sets = this.swapchains.map((swapchain) =>
      swapchain.images.map((image) => {
        const set = pool.allocateSet(setLayout);
        set.writeImages([{ binding: 0, descriptorType: STORAGE_IMAGE, view: device.createImageView(image), layout: 'general' }]);
        return set;
      }),
    );
    return { pipeline, layout, sets, constants: new Uint32Array(2) };
  }

  get framesDrawn(): number {
    return this.#framesDrawn;
  }

  /** Draws frame `framesDrawn` into both eyes and answers the layers to end the frame with (located views in `views`). */
  render(frame: FrameState): readonly ProjectionLayer[] {
    const n = this.#framesDrawn;
    const time = frame.predictedDisplayTime;
    const slot = this.#slots[n % SLOTS] as Slot;
    if (slot.submitted) {
      if (!slot.fence.signaled) this.#graphics.queue.waitIdle(); // the GPU fell SLOTS frames behind
      slot.fence.reset();
    }
    const swapchains = this.swapchains;
    const timeCalls = this.#timeCalls;
    let t = timeCalls ? performance.now() : 0;
    for (let eye = 0; eye < swapchains.length; eye++) this.#acquired[eye] = (swapchains[eye] as Swapchain).acquire();
    if (timeCalls) t = this.#lap('acquire', t);
    for (let eye = 0; eye < swapchains.length; eye++) (swapchains[eye] as Swapchain).wait();
    if (timeCalls) t = this.#lap('wait', t);
    const cb = slot.commandBuffer.begin(ONE_TIME_SUBMIT);
    const compute = this.#compute;
    for (let eye = 0; eye < swapchains.length; eye++) {
      const index = this.#acquired[eye] as number;
      const image = (swapchains[eye] as Swapchain).images[index] as Image;
      if (compute === undefined) {
        cb.imageBarrier(image, toTransfer)
          .clearColorImage(image, 'transfer-dst-optimal', red(n) / 255, green(n, eye) / 255, blue(eye) / 255, 1)
          .imageBarrier(image, toAttachment);
      } else {
        compute.constants[0] = n;
        compute.constants[1] = eye;
        const groups = Math.ceil(this.#size / GROUP_SIZE);
        cb.imageBarrier(image, toGeneral)
          .bindPipeline(compute.pipeline)
          .bindDescriptorSet(compute.layout, (compute.sets[eye] as readonly DescriptorSet[])[index] as DescriptorSet)
          .pushConstants(compute.layout, STAGE_COMPUTE, 0, compute.constants)
          .dispatch(groups, groups)
          .imageBarrier(image, generalToAttachment);
      }
    }
    cb.end();
    this.#graphics.queue.submit(cb, slot.fence);
    slot.submitted = true;
    if (timeCalls) t = this.#lap('recordAndSubmit', t);
    for (let eye = 0; eye < swapchains.length; eye++) (swapchains[eye] as Swapchain).release();
    if (timeCalls) this.#lap('release', t);
    this.#displayTimes[n % REMEMBERED_FRAMES] = time;
    this.#framesDrawn = n + 1;
    return this.#layers;
  }

  // Adds the ms since `since` to the call's total; answers now.
  #lap(call: keyof EyeRendererTimes, since: number): number {
    const now = performance.now();
    this.#ns[call] += now - since;
    return now;
  }

  /** Mean ns per call over the frames drawn (zeros unless constructed with timeCalls). */
  times(): EyeRendererTimes {
    const per = (ms: number) => (this.#framesDrawn === 0 ? 0 : (ms * 1e6) / this.#framesDrawn);
    return { acquire: per(this.#ns.acquire), wait: per(this.#ns.wait), recordAndSubmit: per(this.#ns.recordAndSubmit), release: per(this.#ns.release) };
  }

  /**
   * Compares the runtime's readback records with what was drawn: record frameIndex k is the k-th
   * frame ended with layers, which is frame k - 1 here (every drawn frame is ended with its layers).
   */
  check(pixels: readonly SubmittedPixel[]): SubmittedPixelCheck {
    const differences: string[] = [];
    const goodViews = new Map<number, number>();
    let asDrawn = 0;
    for (const p of pixels) {
      const n = p.frameIndex - 1;
      // The readback's texel: the centre of the image (the views cover whole images).
      const centre = this.#compute === undefined ? 0 : this.#size >> 1;
      const rgba = eyeColour(n, p.viewIndex, centre, centre);
      const expected = p.format === VK_FORMAT_B8G8R8A8_UNORM ? [rgba[2], rgba[1], rgba[0], rgba[3]] : rgba;
      const time = this.#displayTimes[n % REMEMBERED_FRAMES];
      const ok = n >= 0 && n < this.#framesDrawn && p.format === this.format && expected.every((v, i) => v === p.bytes[i]) && p.displayTime === time;
      if (ok) {
        asDrawn++;
        goodViews.set(n, (goodViews.get(n) ?? 0) + 1);
      } else if (differences.length < 5) {
        differences.push(`frame ${p.frameIndex} view ${p.viewIndex}: got [${p.bytes.join(', ')}] at ${p.displayTime}, drew [${expected.join(', ')}] at ${String(time)} (format ${p.format})`);
      }
    }
    const eyes = this.swapchains.length;
    let framesAsDrawn = 0;
    for (const count of goodViews.values()) if (count === eyes) framesAsDrawn++;
    return { received: pixels.length, asDrawn, framesAsDrawn, framesDrawn: this.#framesDrawn, differences };
  }
}
