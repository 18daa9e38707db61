// Depth swapchains and XR_KHR_composition_layer_depth through the typed API, on the simulated
// runtime with lavapipe: depth formats offered after the colour ones, depth swapchains created with
// depth usage, the projection layer submitted with an XrCompositionLayerDepthInfoKHR per view, the
// depth each eye was cleared to read back by the runtime (each depth format it offers), stereo in
// one array swapchain (imageArrayIndex per eye), the spec's checks of the depth info, and the typed
// API's own refusals (the extension not enabled, clears of the wrong kind of image).
import { afterEach, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { InvalidArgumentError, InvalidStateError } from '../../lib/core/errors.js';
import type { ProjectionLayer, ProjectionView, Session } from '../../lib/openxr/api/session.js';
import type { Space } from '../../lib/openxr/api/space.js';
import { VIEW_FLOATS } from '../../lib/openxr/api/types.js';
import type { VulkanGraphics } from '../../lib/openxr/vulkan/graphics.js';
import { DEPTH_FORMATS, type Swapchain } from '../../lib/openxr/vulkan/swapchain.js';
import { drainSubmittedPixels, type SubmittedPixel } from '../../lib/openxr/simulated-runtime.js';
import { AccessFlags, PipelineStageFlags } from '../../lib/generated/vulkan.js';
import type { CommandBuffer, ImageBarrier } from '../../lib/vulkan/api/commands.js';
import { createLoader as createVulkanLoader } from '../../lib/vulkan/loader.js';
import { EyeColourRenderer, eyeColour, toAttachment, toTransfer } from '../../lib/tools/cli/vulkan-eyes.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/paths.js';
import { errorFrom, openXrErrorFrom } from '../helpers/errors.js';
import { missingSystemComponent } from '../helpers/system.js';
import { createTestInstance, runUntil, type TestInstance } from './helpers.js';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const missing = missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE] });
const RGBA8 = 37;
const SIZE = 16;
const COLOUR_FORMATS = [43, 50, 37, 44];

// A waited depth image is in DEPTH_STENCIL_ATTACHMENT_OPTIMAL (XR_KHR_vulkan_enable2); a clear needs TRANSFER_DST.
const depthToTransfer: ImageBarrier = {
  oldLayout: 'depth-stencil-attachment-optimal',
  newLayout: 'transfer-dst-optimal',
  srcStageMask: PipelineStageFlags.LATE_FRAGMENT_TESTS,
  dstStageMask: PipelineStageFlags.TRANSFER,
  srcAccessMask: AccessFlags.DEPTH_STENCIL_ATTACHMENT_WRITE,
  dstAccessMask: AccessFlags.TRANSFER_WRITE,
};
const depthToAttachment: ImageBarrier = {
  oldLayout: 'transfer-dst-optimal',
  newLayout: 'depth-stencil-attachment-optimal',
  srcStageMask: PipelineStageFlags.TRANSFER,
  dstStageMask: PipelineStageFlags.EARLY_FRAGMENT_TESTS,
  srcAccessMask: AccessFlags.TRANSFER_WRITE,
  dstAccessMask: AccessFlags.DEPTH_STENCIL_ATTACHMENT_WRITE | AccessFlags.DEPTH_STENCIL_ATTACHMENT_READ,
};

/** The depth eye `eye` of frame `n` is cleared to. */
const depthOf = (n: number, eye: number): number => 0.125 + 0.5 * eye + 0.03125 * (n % 8);
/** The colour (bytes) eye `eye` of frame `n` is cleared to. */
const colourOf = (n: number, eye: number): [number, number, number, number] => [(n * 29 + 3) & 255, eye === 0 ? 40 : 220, 128, 255];
/** The largest error of a depth texel of `format` (its unit in the last place for UNORM formats). */
const depthTolerance = (format: number): number => (format === 124 ? 1 / 65535 : format === 129 ? 1 / 0xff_ffff : 0);

interface Rig {
  t: TestInstance;
  graphics: VulkanGraphics;
  session: Session;
  local: Space;
  views: Float32Array;
  commandBuffer: CommandBuffer;
}
let rig: Rig | undefined;

async function setUp(extensions: readonly string[] = ['XR_KHR_vulkan_enable2', 'XR_KHR_composition_layer_depth']): Promise<Rig> {
  const t = createTestInstance({ extensions });
  const system = t.instance.getSystem();
  const loader = createVulkanLoader({ platform: createLinuxPlatform({ env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } }) });
  const graphics = t.instance.createVulkanGraphics(system, { loader, applicationName: 'vulkan depth test' });
  const session = t.instance.createSession(system, { graphics: { vulkan: graphics } });
  const local = session.createReferenceSpace('local');
  await runUntil(session, () => session.state === 'focused');
  const commandBuffer = graphics.device.createCommandPool(graphics.queueFamilyIndex).allocateCommandBuffer();
  rig = { t, graphics, session, local, views: new Float32Array(2 * VIEW_FLOATS), commandBuffer };
  return rig;
}

afterEach(() => {
  if (rig === undefined) return;
  rig.graphics.device.waitIdle();
  if (!rig.session.isDestroyed) rig.session.destroy();
  if (!rig.graphics.instance.isDestroyed) rig.graphics.instance.destroy();
  rig.t.dispose();
  rig = undefined;
});

/** One eye's targets: a colour swapchain and a depth swapchain, and the array layer the eye uses in each. */
interface EyeTarget {
  readonly colour: Swapchain;
  readonly depth: Swapchain;
  readonly layer: number;
}

/**
 * Acquires each distinct swapchain once, clears each eye's colour and depth layer to frame `n`'s
 * values, submits, waits and releases: the images are then the runtime's to read back.
 */
async function drawFrame(r: Rig, eyes: readonly EyeTarget[], n: number): Promise<void> {
  const swapchains = [...new Set(eyes.flatMap((e) => [e.colour, e.depth]))];
  const index = new Map(swapchains.map((s) => [s, s.acquire()] as const));
  for (const s of swapchains) expect(s.wait()).toBe(true);
  const cb = r.commandBuffer.begin(1);
  eyes.forEach((eye, i) => {
    const colour = eye.colour.images[index.get(eye.colour)!]!;
    const depth = eye.depth.images[index.get(eye.depth)!]!;
    const [red, green, blue] = colourOf(n, i);
    const layers = { baseArrayLayer: eye.layer, layerCount: 1 };
    cb.imageBarrier(colour, { ...toTransfer, ...layers })
      .clearColorImage(colour, 'transfer-dst-optimal', red / 255, green / 255, blue / 255, 1, eye.layer, 1)
      .imageBarrier(colour, { ...toAttachment, ...layers });
    cb.imageBarrier(depth, { ...depthToTransfer, ...layers })
      .clearDepthStencilImage(depth, 'transfer-dst-optimal', depthOf(n, i), 0, eye.layer, 1)
      .imageBarrier(depth, { ...depthToAttachment, ...layers });
  });
  cb.end();
  const fence = r.graphics.device.createFence();
  r.graphics.queue.submit(cb, fence);
  expect(await fence.wait()).toBe(true);
  fence.destroy();
  for (const s of swapchains) s.release();
}

/** The projection layer of `eyes` with depth (nearZ 0.1, farZ 100 unless `depth` says otherwise). */
function layerOf(r: Rig, eyes: readonly EyeTarget[], depth: Partial<NonNullable<ProjectionView['depth']>> = {}): ProjectionLayer {
  return {
    type: 'projection',
    space: r.local,
    views: eyes.map((eye, i) => ({
      pose: r.views.subarray(i * VIEW_FLOATS, i * VIEW_FLOATS + 7),
      fov: r.views.subarray(i * VIEW_FLOATS + 7, (i + 1) * VIEW_FLOATS),
      swapchain: eye.colour,
      arrayIndex: eye.layer,
      depth: { swapchain: eye.depth, arrayIndex: eye.layer, nearZ: 0.1, farZ: 100, ...depth },
    })),
  };
}

async function beginFrame(r: Rig): Promise<void> {
  const frame = await r.session.waitFrame();
  r.session.beginFrame();
  r.session.locateViews(r.local, frame.predictedDisplayTime, r.views);
}

/** Checks each frame's records: per eye the colour record, then its depth record with the depth it was cleared to. */
function expectAsDrawn(pixels: readonly SubmittedPixel[], frames: number, depthFormat: number, firstFrame = 1): void {
  expect(pixels.length).toBe(4 * frames);
  for (const [i, p] of pixels.entries()) {
    const n = Math.floor(i / 4);
    const eye = Math.floor((i % 4) / 2);
    expect({ frameIndex: p.frameIndex, viewIndex: p.viewIndex, aspect: p.aspect, x: p.x, y: p.y }).toEqual({ frameIndex: firstFrame + n, viewIndex: eye, aspect: i % 2 === 0 ? 'color' : 'depth', x: SIZE / 2, y: SIZE / 2 });
    if (p.aspect === 'color') {
      expect([...p.bytes]).toEqual(colourOf(n, eye));
      expect(p.depth).toBeUndefined();
    } else {
      expect(p.format).toBe(depthFormat);
      expect(Math.abs((p.depth as number) - depthOf(n, eye))).toBeLessThanOrEqual(depthTolerance(depthFormat));
    }
  }
}

describe.skipIf(missing !== null)('depth swapchains and XR_KHR_composition_layer_depth (simulated runtime, lavapipe)', () => {
  it('XRDEPTH: the runtime offers XR_KHR_composition_layer_depth and the depth formats after the colour ones; depth swapchains need a depth format', async () => {
    // setUp's instance enabled XR_KHR_composition_layer_depth: the runtime refuses an extension it does not offer.
    const r = await setUp();
    const formats = r.session.swapchainFormats();
    expect(formats.slice(0, 4)).toEqual(COLOUR_FORMATS);
    const depth = formats.slice(4);
    // lavapipe makes D32_SFLOAT and D16_UNORM depth attachments at least; each offered one is a known depth format.
    expect(depth).toEqual(expect.arrayContaining([126, 124]));
    expect(depth.every((f) => (DEPTH_FORMATS as readonly number[]).includes(f))).toBe(true);
    expect(r.session.depthSwapchainFormat()).toBe(126);
    const swapchain = r.session.createSwapchain({ format: 126, width: SIZE, height: SIZE });
    expect(swapchain.images.every((image) => image.aspectMask === 0x2 && image.format === 126)).toBe(true);
    // Depth usage of a colour format, colour usage of a depth format: what the runtime cannot make.
    expect(openXrErrorFrom(() => r.session.createSwapchain({ format: RGBA8, width: SIZE, height: SIZE, usage: ['depth-stencil-attachment'] })).result).toBe('XR_ERROR_FEATURE_UNSUPPORTED');
    expect(openXrErrorFrom(() => r.session.createSwapchain({ format: 126, width: SIZE, height: SIZE, usage: ['color-attachment'] })).result).toBe('XR_ERROR_FEATURE_UNSUPPORTED');
  }, 60_000);

  it('XRDEPTH: the depth each eye was cleared to comes back in the runtime readback of the depth layer, for every depth format offered', async () => {
    const r = await setUp();
    const depthFormats = r.session.swapchainFormats().filter((f) => (DEPTH_FORMATS as readonly number[]).includes(f));
    const colour = [0, 1].map(() => r.session.createSwapchain({ format: RGBA8, width: SIZE, height: SIZE }));
    let frameIndex = 1;
    for (const format of depthFormats) {
      const depth = [0, 1].map(() => r.session.createSwapchain({ format, width: SIZE, height: SIZE, usage: ['depth-stencil-attachment', 'transfer-dst'] }));
      const eyes = [0, 1].map((e) => ({ colour: colour[e]!, depth: depth[e]!, layer: 0 }));
      const FRAMES = 4;
      for (let n = 0; n < FRAMES; n++) {
        await beginFrame(r);
        await drawFrame(r, eyes, n);
        r.session.endFrame({ layers: [layerOf(r, eyes)] });
      }
      expectAsDrawn(drainSubmittedPixels(r.session), FRAMES, format, frameIndex);
      frameIndex += FRAMES;
      for (const s of depth) s.destroy();
    }
  }, 60_000);

  it('XRDEPTH: stereo in one array swapchain (arraySize 2, imageArrayIndex per eye): each eye\'s colour and depth read back from its own layer', async () => {
    const r = await setUp();
    const colour = r.session.createSwapchain({ format: RGBA8, width: SIZE, height: SIZE, arraySize: 2 });
    const depth = r.session.createSwapchain({ format: r.session.depthSwapchainFormat(), width: SIZE, height: SIZE, arraySize: 2 });
    expect(colour.images[0]!.arrayLayers).toBe(2);
    const eyes = [0, 1].map((layer) => ({ colour, depth, layer }));
    const FRAMES = 5;
    for (let n = 0; n < FRAMES; n++) {
      await beginFrame(r);
      await drawFrame(r, eyes, n);
      r.session.endFrame({ layers: [layerOf(r, eyes)] });
    }
    expectAsDrawn(drainSubmittedPixels(r.session), FRAMES, depth.format);
  }, 60_000);

  it('XRDEPTH: the runtime checks each depth info as the spec says: XR_ERROR_VALIDATION_FAILURE or XR_ERROR_SWAPCHAIN_RECT_INVALID for a wrong one; reversed and infinite ranges pass', async () => {
    const r = await setUp();
    const colour = [0, 1].map(() => r.session.createSwapchain({ format: RGBA8, width: SIZE, height: SIZE }));
    const depth = [0, 1].map(() => r.session.createSwapchain({ format: 126, width: SIZE, height: SIZE }));
    const eyes = [0, 1].map((e) => ({ colour: colour[e]!, depth: depth[e]!, layer: 0 }));
    await beginFrame(r);
    await drawFrame(r, eyes, 0);
    const failure = (depthInfo: Partial<NonNullable<ProjectionView['depth']>>): string => openXrErrorFrom(() => r.session.endFrame({ layers: [layerOf(r, eyes, depthInfo)] })).result;
    expect(failure({ minDepth: 0.6, maxDepth: 0.4 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ minDepth: 0.5, maxDepth: 0.5 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ minDepth: -0.1 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ maxDepth: 1.5 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ minDepth: Number.NaN })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ nearZ: 5, farZ: 5 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ nearZ: 0 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ farZ: -1 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ farZ: Number.NaN })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ arrayIndex: 1 })).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(failure({ imageRect: { x: 8, y: 8, width: 16, height: 16 } })).toBe('XR_ERROR_SWAPCHAIN_RECT_INVALID');
    // A colour swapchain as the depth image.
    expect(failure({ swapchain: colour[0]! })).toBe('XR_ERROR_VALIDATION_FAILURE');
    // Nothing was submitted by the refused calls.
    expect(drainSubmittedPixels(r.session)).toEqual([]);
    // Reversed depth (nearZ > farZ) with an infinite near plane: valid.
    r.session.endFrame({ layers: [layerOf(r, eyes, { nearZ: Number.POSITIVE_INFINITY, farZ: 0.1, minDepth: 0, maxDepth: 1 })] });
    expectAsDrawn(drainSubmittedPixels(r.session), 1, 126);
  }, 60_000);

  it('XRDEPTH: a projection view with depth on an instance without XR_KHR_composition_layer_depth: InvalidStateError naming it, before any call', async () => {
    const r = await setUp(['XR_KHR_vulkan_enable2']);
    const colour = [0, 1].map(() => r.session.createSwapchain({ format: RGBA8, width: SIZE, height: SIZE }));
    const depth = [0, 1].map(() => r.session.createSwapchain({ format: 126, width: SIZE, height: SIZE }));
    const eyes = [0, 1].map((e) => ({ colour: colour[e]!, depth: depth[e]!, layer: 0 }));
    await beginFrame(r);
    await drawFrame(r, eyes, 0);
    const error = errorFrom(InvalidStateError, () => r.session.endFrame({ layers: [layerOf(r, eyes)] }));
    expect(error.code).toBe('KL_INVALID_STATE');
    expect(error.message).toMatch(/XR_KHR_composition_layer_depth/);
    // The frame is still open: ended without depth it goes through, colour only.
    r.session.endFrame({ layers: [{ ...layerOf(r, eyes), views: layerOf(r, eyes).views.map(({ depth: _unused, ...view }) => view) }] });
    const pixels = drainSubmittedPixels(r.session);
    expect(pixels.map((p) => p.aspect)).toEqual(['color', 'color']);
  }, 60_000);

  it('XRDEPTH: clearDepthStencilImage takes only depth images, depths in [0, 1] and layers inside the image; clearColorImage no depth image (InvalidArgumentError)', async () => {
    const r = await setUp();
    const colour = r.session.createSwapchain({ format: RGBA8, width: SIZE, height: SIZE });
    const depth = r.session.createSwapchain({ format: 126, width: SIZE, height: SIZE });
    const cb = r.commandBuffer.begin(1);
    const bad = (f: () => unknown): string => errorFrom(InvalidArgumentError, f).message;
    expect(bad(() => cb.clearDepthStencilImage(colour.images[0]!, 'transfer-dst-optimal', 0.5))).toMatch(/clearDepthStencilImage: image must be an image of a depth\/stencil format/);
    expect(bad(() => cb.clearColorImage(depth.images[0]!, 'transfer-dst-optimal', 0, 0, 0, 1))).toMatch(/clearColorImage: image must be an image of a colour format/);
    expect(bad(() => cb.clearDepthStencilImage(depth.images[0]!, 'transfer-dst-optimal', 1.5))).toMatch(/depth must be a number in \[0, 1\], got 1.5/);
    expect(bad(() => cb.clearDepthStencilImage(depth.images[0]!, 'transfer-dst-optimal', Number.NaN))).toMatch(/depth must be a number in \[0, 1\]/);
    expect(bad(() => cb.clearDepthStencilImage(depth.images[0]!, 'transfer-dst-optimal', 0.5, -1))).toMatch(/stencil must be an integer/);
    expect(bad(() => cb.clearDepthStencilImage(depth.images[0]!, 'transfer-dst-optimal', 0.5, 0, 1, 1))).toMatch(/clearDepthStencilImage: the layers \[1, 2\) must be inside the image's 1/);
    expect(bad(() => cb.clearDepthStencilImage(depth.images[0]!, 'color-attachment-optimal' as 'general', 0.5))).toMatch(/layout must be/);
    cb.end();
  }, 60_000);

  it('XRDEPTH: SIMXR_READBACK_GRID=4x3 reads each view at the centres of a 4 x 3 grid, row by row: each texel is what the eye-pattern shader wrote there', async () => {
    const previous = process.env.SIMXR_READBACK_GRID;
    process.env.SIMXR_READBACK_GRID = '4x3'; // read by the runtime at xrCreateInstance
    let r: Rig;
    try {
      r = await setUp();
    } finally {
      if (previous === undefined) delete process.env.SIMXR_READBACK_GRID;
      else process.env.SIMXR_READBACK_GRID = previous;
    }
    const spirv = readFileSync(path.join(repoRoot, 'examples/shaders/eye-pattern.spv'));
    const renderer = new EyeColourRenderer(r.session, r.graphics, r.local, SIZE, r.views, { kind: 'compute', spirv: new Uint32Array(spirv.buffer, spirv.byteOffset, spirv.byteLength / 4) });
    const FRAMES = 3;
    for (let n = 0; n < FRAMES; n++) {
      const frame = await r.session.waitFrame();
      r.session.beginFrame();
      r.session.locateViews(r.local, frame.predictedDisplayTime, r.views);
      r.session.endFrame({ layers: renderer.render(frame) });
    }
    r.graphics.device.waitIdle();
    const pixels = drainSubmittedPixels(r.session);
    // 16 texels wide: column centres 2, 6, 10, 14; 16 high in 3 rows: 2, 8, 13.
    const cells = [2, 8, 13].flatMap((y) => [2, 6, 10, 14].map((x) => [x, y] as const));
    expect(pixels.length).toBe(FRAMES * 2 * cells.length);
    for (const [i, p] of pixels.entries()) {
      const n = Math.floor(i / (2 * cells.length));
      const eye = Math.floor(i / cells.length) % 2;
      const [x, y] = cells[i % cells.length]!;
      const rgba = eyeColour(n, eye, x, y);
      expect({ frameIndex: p.frameIndex, viewIndex: p.viewIndex, x: p.x, y: p.y, aspect: p.aspect }).toEqual({ frameIndex: n + 1, viewIndex: eye, x, y, aspect: 'color' });
      expect([...p.bytes]).toEqual(p.format === 44 ? [rgba[2], rgba[1], rgba[0], rgba[3]] : rgba);
    }
  }, 60_000);
});
