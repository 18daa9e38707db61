// The typed Vulkan graphics API on the real driver (lavapipe, or the driver KHRONOS_LOADER_VK_DRIVER_JSON
// names) with VK_LAYER_KHRONOS_validation in the chain when installed: geometry drawn into images the
// device owns, with dynamic rendering and with render passes, read back with copyImageToBuffer and
// checked pixel by pixel against what the geometry predicts (docs/usage.md, "Vulkan: graphics").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Format,
  VK_API_VERSION_1_3,
  type CommandBuffer,
  type Device,
  type GraphicsPipeline,
  type ImageView,
  type Instance,
  type OwnedImage,
  type PhysicalDevice,
  type PipelineLayout,
  type VulkanBuffer,
} from '../../lib/vulkan/index.js';
import { repoRoot } from '../helpers/paths.js';
import { hasValidation, missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriver();
const validation = hasValidation();
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const WARNING = 0x100;
const HOST = 0x2 | 0x4;
const VERTEX = 0x1;
const FRAGMENT = 0x10;
const W = 64;
const H = 64;
// Buffer usages
const TRANSFER_SRC = 0x1;
const TRANSFER_DST = 0x2;
const UNIFORM = 0x10;
const INDEX = 0x40;
const VERTEX_BUFFER = 0x80;
// Image usages
const I_TRANSFER_SRC = 0x1;
const I_TRANSFER_DST = 0x2;
const I_SAMPLED = 0x4;
const I_COLOR = 0x10;
const I_DEPTH = 0x20;
// Stages and accesses
const TOP = 0x1;
const TRANSFER = 0x1000;
const COLOR_OUT = 0x400;
const FRAGMENT_SHADER = 0x80;
const EARLY_TESTS = 0x100;
const LATE_TESTS = 0x200;
const A_COLOR_WRITE = 0x100;
const A_DEPTH_WRITE = 0x400;
const A_DEPTH_READ = 0x200;
const A_TRANSFER_READ = 0x800;
const A_TRANSFER_WRITE = 0x1000;
const A_SHADER_READ = 0x20;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function spirv(name: string): Uint32Array {
  const bytes = readFileSync(path.join(repoRoot, 'examples/shaders', name));
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

interface Gpu {
  instance: Instance;
  pd: PhysicalDevice;
  device: Device;
}

function gpu(): Gpu {
  const instance = realDriverLoader().createInstance({
    applicationName: 'kl-graphics-test',
    apiVersion: VK_API_VERSION_1_3,
    enabledLayerNames: validation ? [VALIDATION] : [],
    enabledExtensionNames: ['VK_EXT_debug_utils'],
    collectCreateMessages: true,
  });
  open.push(instance);
  instance.startDebugMessenger();
  const pd = instance.enumeratePhysicalDevices()[0]!;
  const device = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }], enabledFeatures: { dynamicRendering: true, multiview: true } });
  return { instance, pd, device };
}

/** What the validation layer said at warning level or above (nothing, on the good paths). */
function warnings(g: Gpu): string[] {
  return g.instance
    .takeDebugMessages()
    .filter((m) => m.severity >= WARNING)
    .map((m) => `${m.messageIdName}: ${m.message}`);
}

function hostBuffer(g: Gpu, usage: number, data: ArrayBufferView | number): VulkanBuffer {
  const size = typeof data === 'number' ? data : data.byteLength;
  const b = g.device.createBuffer({ size, usage });
  b.bindMemory(g.device.allocateMemory(b.memoryRequirements.size, g.pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
  if (typeof data !== 'number') new Uint8Array(b.memory!.map()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return b;
}

function deviceImage(g: Gpu, format: number, usage: number, arrayLayers = 1, width = W, height = H): OwnedImage {
  const image = g.device.createImage({ format: format as Format, extent: { width, height }, usage, arrayLayers });
  image.bindMemory(g.device.allocateMemory(image.memoryRequirements.size, g.pd.requireMemoryType(image.memoryRequirements.memoryTypeBits, 0)));
  return image;
}

const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
// Orthographic: x and y as they are, z in [-1, 1] to depth [0, 1] (column-major, as GLSL reads it).
const ORTHO_DEPTH = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 0, 0, 0, 0.5, 1]);

/** Interleaved position (xyz) and colour (rgb): the vertex input colored.vert reads. */
function coloredVertices(v: readonly (readonly number[])[]): Float32Array {
  return new Float32Array(v.flat());
}
const RED = [1, 0, 0];
const GREEN = [0, 1, 0];
// One triangle over the top-left half of the target (Vulkan's y points down).
const TRIANGLE = coloredVertices([
  [-1, -1, 0, ...RED],
  [1, -1, 0, ...RED],
  [-1, 1, 0, ...RED],
]);
const coloredInput = {
  bindings: [{ binding: 0, stride: 24 }],
  attributes: [
    { location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 },
    { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 },
  ],
} as const;

/** A cube of side 1 at the origin, each face its own colour: 24 vertices, 36 uint16 indices; the front (z = -0.5) first, the back (z = +0.5) last. */
function cube(): { vertices: Float32Array; indices: Uint16Array } {
  const faces: [number[][], number[]][] = [
    [[[-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [0.5, 0.5, -0.5], [-0.5, 0.5, -0.5]], GREEN], // front (nearer)
    [[[-0.5, -0.5, -0.5], [-0.5, 0.5, -0.5], [-0.5, 0.5, 0.5], [-0.5, -0.5, 0.5]], [1, 1, 0]],
    [[[0.5, -0.5, -0.5], [0.5, -0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, -0.5]], [1, 0, 1]],
    [[[-0.5, -0.5, -0.5], [-0.5, -0.5, 0.5], [0.5, -0.5, 0.5], [0.5, -0.5, -0.5]], [0, 1, 1]],
    [[[-0.5, 0.5, -0.5], [0.5, 0.5, -0.5], [0.5, 0.5, 0.5], [-0.5, 0.5, 0.5]], [1, 1, 1]],
    [[[-0.5, -0.5, 0.5], [-0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5]], RED], // back (farther), drawn last
  ];
  const vertices: number[] = [];
  const indices: number[] = [];
  faces.forEach(([corners, colour], f) => {
    for (const c of corners) vertices.push(...c, ...colour);
    indices.push(f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3);
  });
  return { vertices: new Float32Array(vertices), indices: new Uint16Array(indices) };
}

interface Target {
  color: OwnedImage;
  colorView: ImageView;
  depth?: OwnedImage;
  depthView?: ImageView;
  readback: VulkanBuffer;
}

function target(g: Gpu, withDepth: boolean, layers = 1): Target {
  const color = deviceImage(g, Format.R8G8B8A8_UNORM, I_COLOR | I_TRANSFER_SRC, layers);
  const colorView = g.device.createImageView(color, { viewType: layers > 1 ? '2d-array' : '2d', layerCount: layers });
  const readback = hostBuffer(g, TRANSFER_DST, W * H * 4 * layers);
  if (!withDepth) return { color, colorView, readback };
  const depth = deviceImage(g, Format.D32_SFLOAT, I_DEPTH, layers);
  const depthView = g.device.createImageView(depth, { viewType: layers > 1 ? '2d-array' : '2d', layerCount: layers });
  expect(depthView.aspect).toBe(0x2);
  return { color, colorView, depth, depthView, readback };
}

/** Submits `cb` and waits for it (polling the fence's promise: no fixed sleep). */
async function run(g: Gpu, cb: CommandBuffer): Promise<void> {
  const fence = g.device.createFence();
  g.device.queue(0).submit(cb, fence);
  expect(await fence.wait(10_000_000_000n)).toBe(true);
}

function pixels(t: Target, layers = 1): Uint8Array {
  return new Uint8Array(t.readback.memory!.map().slice(0, W * H * 4 * layers));
}

function at(p: Uint8Array, x: number, y: number, layer = 0): number[] {
  const i = (layer * W * H + y * W + x) * 4;
  return [p[i]!, p[i + 1]!, p[i + 2]!, p[i + 3]!];
}

/** The colour attachment to transfer-src and copied into the readback buffer (after the rendering). */
function readBack(cb: CommandBuffer, t: Target, layers: number, fromLayout: 'color-attachment-optimal' | 'transfer-src-optimal'): void {
  if (fromLayout !== 'transfer-src-optimal') {
    cb.imageBarrier(t.color, { oldLayout: fromLayout, newLayout: 'transfer-src-optimal', srcStageMask: COLOR_OUT, dstStageMask: TRANSFER, srcAccessMask: A_COLOR_WRITE, dstAccessMask: A_TRANSFER_READ });
  }
  cb.copyImageToBuffer(t.color, 'transfer-src-optimal', t.readback, { layerCount: layers });
}

function toAttachment(cb: CommandBuffer, t: Target): void {
  cb.imageBarrier(t.color, { oldLayout: 'undefined', newLayout: 'color-attachment-optimal', srcStageMask: TOP, dstStageMask: COLOR_OUT, dstAccessMask: A_COLOR_WRITE });
  if (t.depth !== undefined) {
    cb.imageBarrier(t.depth, {
      oldLayout: 'undefined',
      newLayout: 'depth-attachment-optimal',
      srcStageMask: TOP,
      dstStageMask: EARLY_TESTS | LATE_TESTS,
      dstAccessMask: A_DEPTH_READ | A_DEPTH_WRITE,
    });
  }
}

function coloredPipeline(g: Gpu, how: { renderPass?: import('../../lib/vulkan/index.js').RenderPass; rendering?: import('../../lib/vulkan/index.js').PipelineRendering }, depthTest: boolean, vertexShader = 'colored.vert.spv'): { pipeline: GraphicsPipeline; layout: PipelineLayout } {
  const layout = g.device.createPipelineLayout([], vertexShader === 'colored.vert.spv' ? [{ stageFlags: VERTEX, offset: 0, size: 64 }] : []);
  const pipeline = g.device.createGraphicsPipeline({
    layout,
    stages: { vertex: { module: g.device.createShaderModule(spirv(vertexShader)) }, fragment: { module: g.device.createShaderModule(spirv('colored.frag.spv')) } },
    vertexInput: coloredInput,
    topology: 'triangle-list',
    rasterization: { cullMode: 'none', frontFace: 'counter-clockwise' },
    ...(depthTest && { depthStencil: { depthTest: true, depthWrite: true, compareOp: 'less' } }),
    ...how,
  });
  return { pipeline, layout };
}

function countColour(p: Uint8Array, rgba: readonly number[], layer = 0): number {
  let n = 0;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (at(p, x, y, layer).every((c, i) => c === rgba[i])) n++;
  return n;
}

const CLEAR_BLUE = [0, 0, 1, 1];

describe.skipIf(skip !== null)('the typed Vulkan graphics API on the real driver (VKGFX)', () => {
  it('VKGFX: a triangle drawn with dynamic rendering and with a render pass covers the pixels its vertices predict, the clear colour elsewhere; both give the same pixels; validation silent', async () => {
    const g = gpu();
    expect(g.instance.enabledLayerNames.includes(VALIDATION)).toBe(validation);
    const vb = hostBuffer(g, VERTEX_BUFFER, TRIANGLE);
    const pool = g.device.createCommandPool(0);

    // Dynamic rendering
    const t1 = target(g, false);
    const dyn = coloredPipeline(g, { rendering: { colorFormats: [Format.R8G8B8A8_UNORM] } }, false);
    const cb1 = pool.allocateCommandBuffer().begin(1);
    toAttachment(cb1, t1);
    cb1
      .beginRendering({ colorAttachments: [{ view: t1.colorView, loadOp: 'clear', storeOp: 'store', clearValue: CLEAR_BLUE }] })
      .bindPipeline(dyn.pipeline)
      .setViewport(0, 0, W, H)
      .setScissor(0, 0, W, H)
      .pushConstants(dyn.layout, VERTEX, 0, IDENTITY)
      .bindVertexBuffers(0, [vb])
      .draw(3)
      .endRendering();
    readBack(cb1, t1, 1, 'color-attachment-optimal');
    cb1.end();
    await run(g, cb1);
    const p1 = pixels(t1);

    // Render pass: the attachment ends in transfer-src-optimal (finalLayout), ready to copy.
    const t2 = target(g, false);
    const renderPass = g.device.createRenderPass({
      attachments: [{ format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'transfer-src-optimal' }],
      subpasses: [{ colorAttachments: [{ attachment: 0 }] }],
      dependencies: [{ srcSubpass: 0, dstSubpass: 'external', srcStageMask: COLOR_OUT, dstStageMask: TRANSFER, srcAccessMask: A_COLOR_WRITE, dstAccessMask: A_TRANSFER_READ }],
    });
    const framebuffer = g.device.createFramebuffer({ renderPass, attachments: [t2.colorView], width: W, height: H });
    const rp = coloredPipeline(g, { renderPass }, false);
    const cb2 = pool.allocateCommandBuffer().begin(1);
    cb2
      .beginRenderPass({ renderPass, framebuffer, clearValues: [CLEAR_BLUE] })
      .bindPipeline(rp.pipeline)
      .setViewport(0, 0, W, H)
      .setScissor(0, 0, W, H)
      .pushConstants(rp.layout, VERTEX, 0, IDENTITY)
      .bindVertexBuffers(0, [vb])
      .draw(3)
      .endRenderPass();
    readBack(cb2, t2, 1, 'transfer-src-optimal');
    cb2.end();
    await run(g, cb2);
    const p2 = pixels(t2);

    for (const p of [p1, p2]) {
      expect(at(p, 5, 5)).toEqual([255, 0, 0, 255]); // well inside the triangle
      expect(at(p, 30, 20)).toEqual([255, 0, 0, 255]);
      expect(at(p, 58, 58)).toEqual([0, 0, 255, 255]); // well outside
      expect(at(p, 40, 40)).toEqual([0, 0, 255, 255]);
      // The triangle is half the target: x + y < 63 for pixel centres, 2016 of 4096 pixels.
      const red = countColour(p, [255, 0, 0, 255]);
      expect(red).toBeGreaterThanOrEqual(1984);
      expect(red).toBeLessThanOrEqual(2080);
      expect(red + countColour(p, [0, 0, 255, 255])).toBe(W * H);
    }
    expect(Buffer.from(p1).equals(Buffer.from(p2))).toBe(true);
    expect(warnings(g)).toEqual([]);
  });

  it('VKGFX: an indexed, depth-tested cube: the nearer face wins over the farther one drawn after it (dynamic rendering and a render pass); validation silent', async () => {
    const g = gpu();
    const { vertices, indices } = cube();
    const vb = hostBuffer(g, VERTEX_BUFFER, vertices);
    const ib = hostBuffer(g, INDEX, indices);
    const pool = g.device.createCommandPool(0);
    const results: Uint8Array[] = [];
    for (const mode of ['dynamic', 'render-pass'] as const) {
      const t = target(g, true);
      const cb = pool.allocateCommandBuffer().begin(1);
      let p: { pipeline: GraphicsPipeline; layout: PipelineLayout };
      if (mode === 'dynamic') {
        p = coloredPipeline(g, { rendering: { colorFormats: [Format.R8G8B8A8_UNORM], depthFormat: Format.D32_SFLOAT } }, true);
        toAttachment(cb, t);
        cb.beginRendering({
          colorAttachments: [{ view: t.colorView, loadOp: 'clear', storeOp: 'store', clearValue: CLEAR_BLUE }],
          depthAttachment: { view: t.depthView!, loadOp: 'clear', storeOp: 'dont-care', clearValue: { depth: 1 } },
        });
      } else {
        const renderPass = g.device.createRenderPass({
          attachments: [
            { format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'transfer-src-optimal' },
            { format: Format.D32_SFLOAT, loadOp: 'clear', storeOp: 'dont-care', finalLayout: 'depth-stencil-attachment-optimal' },
          ],
          subpasses: [{ colorAttachments: [{ attachment: 0 }], depthStencilAttachment: { attachment: 1 } }],
          dependencies: [
            { srcSubpass: 'external', dstSubpass: 0, srcStageMask: LATE_TESTS, dstStageMask: EARLY_TESTS | LATE_TESTS, dstAccessMask: A_DEPTH_WRITE | A_DEPTH_READ },
            { srcSubpass: 0, dstSubpass: 'external', srcStageMask: COLOR_OUT, dstStageMask: TRANSFER, srcAccessMask: A_COLOR_WRITE, dstAccessMask: A_TRANSFER_READ },
          ],
        });
        const framebuffer = g.device.createFramebuffer({ renderPass, attachments: [t.colorView, t.depthView!], width: W, height: H });
        p = coloredPipeline(g, { renderPass }, true);
        cb.beginRenderPass({ renderPass, framebuffer, clearValues: [CLEAR_BLUE, { depth: 1 }] });
      }
      cb.bindPipeline(p.pipeline)
        .setViewport(0, 0, W, H)
        .setScissor(0, 0, W, H)
        .pushConstants(p.layout, VERTEX, 0, ORTHO_DEPTH)
        .bindVertexBuffers(0, [vb])
        .bindIndexBuffer(ib, 0, 'uint16')
        .drawIndexed(36);
      if (mode === 'dynamic') cb.endRendering();
      else cb.endRenderPass();
      readBack(cb, t, 1, mode === 'dynamic' ? 'color-attachment-optimal' : 'transfer-src-optimal');
      cb.end();
      await run(g, cb);
      results.push(pixels(t));
    }
    for (const p of results) {
      // The cube spans NDC [-0.5, 0.5]: pixels 16..47. The front face (green, depth 0.25) covers it;
      // the back face (red, depth 0.75) drawn after it fails the depth test everywhere.
      expect(at(p, 32, 32)).toEqual([0, 255, 0, 255]);
      expect(at(p, 17, 17)).toEqual([0, 255, 0, 255]);
      expect(at(p, 46, 46)).toEqual([0, 255, 0, 255]);
      expect(at(p, 8, 8)).toEqual([0, 0, 255, 255]);
      expect(at(p, 56, 32)).toEqual([0, 0, 255, 255]);
      expect(countColour(p, [0, 255, 0, 255])).toBe(32 * 32);
      expect(countColour(p, [255, 0, 0, 255])).toBe(0);
    }
    expect(Buffer.from(results[0]!).equals(Buffer.from(results[1]!))).toBe(true);
    expect(warnings(g)).toEqual([]);
  });

  it('VKGFX: multiview (viewMask 0b11) draws one triangle into both layers of an array image, each view its own colour (dynamic rendering and a render pass); validation silent', async () => {
    const g = gpu();
    const vb = hostBuffer(g, VERTEX_BUFFER, TRIANGLE);
    const pool = g.device.createCommandPool(0);
    for (const mode of ['dynamic', 'render-pass'] as const) {
      const t = target(g, false, 2);
      const cb = pool.allocateCommandBuffer().begin(1);
      let pipeline: GraphicsPipeline;
      if (mode === 'dynamic') {
        pipeline = coloredPipeline(g, { rendering: { colorFormats: [Format.R8G8B8A8_UNORM], viewMask: 0b11 } }, false, 'multiview.vert.spv').pipeline;
        toAttachment(cb, t);
        cb.beginRendering({ colorAttachments: [{ view: t.colorView, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }], viewMask: 0b11 });
      } else {
        const renderPass = g.device.createRenderPass({
          attachments: [{ format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'transfer-src-optimal' }],
          subpasses: [{ colorAttachments: [{ attachment: 0 }] }],
          dependencies: [{ srcSubpass: 0, dstSubpass: 'external', srcStageMask: COLOR_OUT, dstStageMask: TRANSFER, srcAccessMask: A_COLOR_WRITE, dstAccessMask: A_TRANSFER_READ }],
          viewMask: 0b11,
        });
        const framebuffer = g.device.createFramebuffer({ renderPass, attachments: [t.colorView], width: W, height: H });
        pipeline = coloredPipeline(g, { renderPass }, false, 'multiview.vert.spv').pipeline;
        cb.beginRenderPass({ renderPass, framebuffer, clearValues: [[0, 0, 0, 1]] });
      }
      cb.bindPipeline(pipeline).setViewport(0, 0, W, H).setScissor(0, 0, W, H).bindVertexBuffers(0, [vb]).draw(3);
      if (mode === 'dynamic') cb.endRendering();
      else cb.endRenderPass();
      readBack(cb, t, 2, mode === 'dynamic' ? 'color-attachment-optimal' : 'transfer-src-optimal');
      cb.end();
      await run(g, cb);
      const p = pixels(t, 2);
      expect(at(p, 5, 5, 0), mode).toEqual([255, 0, 0, 255]); // view 0: the vertex colour
      expect(at(p, 5, 5, 1), mode).toEqual([0, 0, 255, 255]); // view 1: its channels reversed
      expect(at(p, 58, 58, 0), mode).toEqual([0, 0, 0, 255]);
      expect(at(p, 58, 58, 1), mode).toEqual([0, 0, 0, 255]);
      expect(countColour(p, [255, 0, 0, 255], 0)).toBe(countColour(p, [0, 0, 255, 255], 1));
      expect(countColour(p, [255, 0, 0, 255], 1)).toBe(0);
    }
    expect(warnings(g)).toEqual([]);
  });

  it('VKGFX: a fragment shader reads a uniform buffer and a sampled texture uploaded with copyBufferToImage; validation silent', async () => {
    const g = gpu();
    const pool = g.device.createCommandPool(0);
    // A 2x1 texture: a red texel on the left, a green one on the right.
    const texture = deviceImage(g, Format.R8G8B8A8_UNORM, I_SAMPLED | I_TRANSFER_DST, 1, 2, 1);
    const texels = hostBuffer(g, TRANSFER_SRC, new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255]));
    const textureView = g.device.createImageView(texture);
    const sampler = g.device.createSampler({ magFilter: 'nearest', minFilter: 'nearest', mipmapMode: 'nearest', addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge' });
    const tint = hostBuffer(g, UNIFORM, new Float32Array([0.5, 1, 1, 1]));
    const setLayout = g.device.createDescriptorSetLayout([
      { binding: 0, descriptorType: 6, stageFlags: FRAGMENT },
      { binding: 1, descriptorType: 1, stageFlags: FRAGMENT },
    ]);
    const layout = g.device.createPipelineLayout([setLayout]);
    const set = g.device
      .createDescriptorPool(1, [
        { type: 6, descriptorCount: 1 },
        { type: 1, descriptorCount: 1 },
      ])
      .allocateSet(setLayout);
    set.writeBuffers([{ binding: 0, descriptorType: 6, buffer: tint }]);
    set.writeImages([{ binding: 1, descriptorType: 1, view: textureView, layout: 'shader-read-only-optimal', sampler }]);
    const pipeline = g.device.createGraphicsPipeline({
      layout,
      stages: { vertex: { module: g.device.createShaderModule(spirv('textured.vert.spv')) }, fragment: { module: g.device.createShaderModule(spirv('textured.frag.spv')) } },
      vertexInput: {
        bindings: [{ binding: 0, stride: 16 }],
        attributes: [
          { location: 0, binding: 0, format: Format.R32G32_SFLOAT, offset: 0 },
          { location: 1, binding: 0, format: Format.R32G32_SFLOAT, offset: 8 },
        ],
      },
      topology: 'triangle-strip',
      rendering: { colorFormats: [Format.R8G8B8A8_UNORM] },
    });
    const quad = hostBuffer(g, VERTEX_BUFFER, new Float32Array([-1, -1, 0, 0, 1, -1, 1, 0, -1, 1, 0, 1, 1, 1, 1, 1]));
    const t = target(g, false);
    const cb = pool.allocateCommandBuffer().begin(1);
    cb.imageBarrier(texture, { oldLayout: 'undefined', newLayout: 'transfer-dst-optimal', srcStageMask: TOP, dstStageMask: TRANSFER, dstAccessMask: A_TRANSFER_WRITE })
      .copyBufferToImage(texels, texture, 'transfer-dst-optimal')
      .imageBarrier(texture, { oldLayout: 'transfer-dst-optimal', newLayout: 'shader-read-only-optimal', srcStageMask: TRANSFER, dstStageMask: FRAGMENT_SHADER, srcAccessMask: A_TRANSFER_WRITE, dstAccessMask: A_SHADER_READ });
    toAttachment(cb, t);
    cb.beginRendering({ colorAttachments: [{ view: t.colorView, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] })
      .bindPipeline(pipeline)
      .bindDescriptorSet(layout, set, 0, 'graphics')
      .setViewport(0, 0, W, H)
      .setScissor(0, 0, W, H)
      .bindVertexBuffers(0, [quad])
      .draw(4)
      .endRendering();
    readBack(cb, t, 1, 'color-attachment-optimal');
    cb.end();
    await run(g, cb);
    const p = pixels(t);
    // Left half: the red texel times the tint's 0.5 red; right half: the green texel.
    for (const [x, y] of [[3, 3], [20, 60], [31, 31]] as const) {
      const [r, gr, b, a] = at(p, x, y);
      expect(Math.abs(r! - 128)).toBeLessThanOrEqual(1);
      expect([gr, b, a]).toEqual([0, 0, 255]);
    }
    for (const [x, y] of [[33, 3], [60, 60]] as const) expect(at(p, x, y)).toEqual([0, 255, 0, 255]);
    expect(warnings(g)).toEqual([]);
  });
});
