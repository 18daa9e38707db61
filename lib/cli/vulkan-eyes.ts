// The Vulkan-rendered demo's renderer: each frame, both eyes' swapchain images are acquired,
// cleared to a colour that changes every frame (different per eye) with the typed Vulkan command
// buffer, submitted on the session's queue and released; the frame's projection layer goes to
// endFrame. What it drew is known exactly (eyeColour), so the simulated runtime's readback can be
// checked against it. The per-frame path reuses its command buffers, fences, views and layer.
import type { FrameState, ProjectionLayer, Session } from '../openxr/api/session.js';
import type { Space } from '../openxr/api/space.js';
import type { Swapchain } from '../openxr/api/swapchain.js';
import type { SubmittedPixel } from '../openxr/api/native-api.js';
import { VIEW_FLOATS } from '../openxr/api/types.js';
import type { VulkanGraphics } from '../openxr/api/vulkan-graphics.js';
import type { CommandBuffer } from '../vulkan/api/commands.js';
import type { Fence } from '../vulkan/api/device-objects.js';
import { ACCESS, PIPELINE_STAGE, type Image } from '../vulkan/api/image.js';
import type { ImageBarrier } from '../vulkan/api/commands.js';

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

/** The colour eye `eye` of frame `n` (0-based) is cleared to, as R, G, B, A bytes. */
export function eyeColour(n: number, eye: number): [number, number, number, number] {
  return [red(n), green(n, eye), blue(eye), 255];
}

const toAttachment: ImageBarrier = {
  oldLayout: 'transfer-dst-optimal',
  newLayout: 'color-attachment-optimal',
  srcStageMask: PIPELINE_STAGE.TRANSFER,
  dstStageMask: PIPELINE_STAGE.COLOR_ATTACHMENT_OUTPUT,
  srcAccessMask: ACCESS.TRANSFER_WRITE,
  dstAccessMask: ACCESS.COLOR_ATTACHMENT_WRITE | ACCESS.COLOR_ATTACHMENT_READ,
};
// XR_KHR_vulkan_enable2: a waited image is in COLOR_ATTACHMENT_OPTIMAL; the clear needs TRANSFER_DST.
const toTransfer: ImageBarrier = {
  oldLayout: 'color-attachment-optimal',
  newLayout: 'transfer-dst-optimal',
  srcStageMask: PIPELINE_STAGE.COLOR_ATTACHMENT_OUTPUT,
  dstStageMask: PIPELINE_STAGE.TRANSFER,
  srcAccessMask: ACCESS.COLOR_ATTACHMENT_WRITE,
  dstAccessMask: ACCESS.TRANSFER_WRITE,
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
  readonly #displayTimes = new Float64Array(REMEMBERED_FRAMES);
  readonly #ns = { acquire: 0, wait: 0, recordAndSubmit: 0, release: 0 };
  readonly #acquired = [0, 0];

  /**
   * `views`: where the caller's locateViews writes each frame (VIEW_FLOATS per view): the layer's
   * poses and fields of view are read from it.
   */
  constructor(session: Session, graphics: VulkanGraphics, space: Space, size: number, views: Float32Array) {
    this.#graphics = graphics;
    const formats = session.swapchainFormats();
    const format = formats.find((f) => f === VK_FORMAT_R8G8B8A8_UNORM || f === VK_FORMAT_B8G8R8A8_UNORM);
    if (format === undefined) throw new Error(`the runtime offers no 8-bit UNORM swapchain format (it offers ${formats.join(', ')})`);
    this.format = format;
    const eyes = session.viewCount();
    this.swapchains = Array.from({ length: eyes }, () => session.createSwapchain({ format, width: size, height: size, usage: ['color-attachment', 'transfer-dst'] }));
    if (views.length < eyes * VIEW_FLOATS) throw new TypeError(`views must hold ${VIEW_FLOATS} floats per view`);
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
    let t = performance.now();
    for (let eye = 0; eye < swapchains.length; eye++) this.#acquired[eye] = (swapchains[eye] as Swapchain).acquire();
    let t1 = performance.now();
    this.#ns.acquire += t1 - t;
    t = t1;
    for (let eye = 0; eye < swapchains.length; eye++) (swapchains[eye] as Swapchain).wait();
    t1 = performance.now();
    this.#ns.wait += t1 - t;
    t = t1;
    const cb = slot.commandBuffer.begin(ONE_TIME_SUBMIT);
    for (let eye = 0; eye < swapchains.length; eye++) {
      const image = (swapchains[eye] as Swapchain).images[this.#acquired[eye] as number] as Image;
      cb.imageBarrier(image, toTransfer)
        .clearColorImage(image, 'transfer-dst-optimal', red(n) / 255, green(n, eye) / 255, blue(eye) / 255, 1)
        .imageBarrier(image, toAttachment);
    }
    cb.end();
    this.#graphics.queue.submit(cb, slot.fence);
    slot.submitted = true;
    t1 = performance.now();
    this.#ns.recordAndSubmit += t1 - t;
    t = t1;
    for (let eye = 0; eye < swapchains.length; eye++) (swapchains[eye] as Swapchain).release();
    this.#ns.release += performance.now() - t;
    this.#displayTimes[n % REMEMBERED_FRAMES] = time;
    this.#framesDrawn = n + 1;
    return this.#layers;
  }

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
      const rgba = eyeColour(n, p.viewIndex);
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
