// Whether a Vulkan driver keeps the two views' depth apart when both are drawn in one multiview
// render pass into a 2-layer array image (Vulkan spec, 'Multiview': each view renders to the layer
// of its index, depth attachment included). Measured, not assumed from the driver's name: the XR
// scene test (test/openxr-api/xr-scene.test.ts) pixel-checks its one-pass path only where this
// probe finds the layers' depth apart (docs/usage.md, 'The XR scene').
//
// The probe draws with the scene's own multiview pipeline (lit-multiview.vert, lit.frag; the view
// matrices from a uniform buffer, chosen by gl_ViewIndex; the model matrix pushed per draw) and a
// render pass like the scene's (colour and depth, viewMask 0b11, depth test LESS, cleared to 1),
// two draws:
//   A: a quad over the left half of view 0, tilted in depth so that it crosses the near plane
//      (clip z from -0.25 at the left edge to 0.75 at the centre: the driver must clip it, as the
//      scene's floor, which runs behind the eyes); view 1's matrix mirrors x, so in view 1 it is
//      over the right half;
//   B: a quad over the whole image at depth 0.5 in both views (mirror-invariant).
// Kept apart, each layer reads B's 0.5 where A is clipped or behind B, A's depth elsewhere on its
// view's half, 0.5 on the other half. Where a view's fragments reach the other layer (Mesa 22.3's
// lavapipe: in a draw with a clipped triangle, view 1's triangles land in layer 0), the layers read
// something else; the probe counts the texels that are right and reports the first wrong ones.
// A and B are separate draws, so on such a driver each wrong texel holds the other view's depth.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Format, VK_API_VERSION_1_1, type VulkanLoader } from '../../lib/vulkan/index.js';
import { repoRoot } from './paths.js';

const D16 = Format.D16_UNORM; // every device can use it as a depth attachment (Vulkan spec, 'Required Format Support')
const HOST = 0x2 | 0x4;
const VERTEX_STAGE = 0x1;
const UNIFORM_BUFFER = 6;
const TRANSFER = 0x1000;
const LATE_TESTS = 0x200;
const EARLY_TESTS = 0x100;
const COLOR_OUT = 0x400;
const A_DEPTH_WRITE = 0x400;
const A_DEPTH_READ = 0x200;
const A_COLOR_WRITE = 0x100;
const A_TRANSFER_READ = 0x800;
const WARNING = 0x100;
/** A's clip z at its left edge (x = -1, behind the near plane) and at the image's centre (x = 0). */
const TILT_AT_LEFT = -0.25;
const TILT_AT_RIGHT = 0.75;
/** B's depth. */
const PROBE_FAR = 0.5;
/** The probe's image edge, texels. */
const SIZE = 32;
/** Interpolated depth in a D16 texel: a few quanta of room. */
const TOLERANCE = 4 / 65535;

export interface MultiviewDepthProbe {
  /** True when both layers read exactly what kept-apart views predict. */
  readonly apart: boolean;
  /** The device the probe ran on (VkPhysicalDeviceProperties::deviceName) and its driver version. */
  readonly device: string;
  /** Per layer: texels that read what the layer's own view predicts, of SIZE × SIZE. */
  readonly right: readonly [number, number];
  /** Per layer: texels that read what the OTHER view predicts there (the other layer's depth). */
  readonly otherViews: readonly [number, number];
  /** The first few wrong texels, for the test's message. */
  readonly wrong: readonly string[];
  /** VK_LAYER_KHRONOS_validation's messages at warning level or above (empty where it is not installed). */
  readonly validation: readonly string[];
  readonly size: number;
}

/**
 * The depth view `view` predicts at texel column x (any row): the nearer of A (where it is in
 * front of the near plane, on the view's half) and B.
 */
function predictedProbeDepth(view: number, x: number): number {
  const ndc = -1 + (2 * x + 1) / SIZE;
  const onA = view === 0 ? ndc : -ndc; // view 1 mirrors x
  if (onA > 0) return PROBE_FAR;
  const a = TILT_AT_RIGHT + (TILT_AT_RIGHT - TILT_AT_LEFT) * onA; // linear in x from -1 to 0
  return a >= 0 && a < PROBE_FAR ? a : PROBE_FAR;
}

function spirv(name: string): Uint32Array {
  const bytes = readFileSync(path.join(repoRoot, 'examples/shaders', name));
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** A quad (two triangles, 6 vertices of position, normal, colour) over x in [x0, x1], all y, at clip z z0 at x0 to z1 at x1. */
function quad(x0: number, x1: number, z0: number, z1: number, colour: readonly number[]): number[] {
  const v = (x: number, y: number): number[] => [x, y, x === x0 ? z0 : z1, 0, 0, 1, ...colour];
  return [...v(x0, -1), ...v(x1, -1), ...v(x1, 1), ...v(x0, -1), ...v(x1, 1), ...v(x0, 1)];
}

/**
 * Runs the probe on the first physical device of `loader` (a loader whose only driver is the one
 * to probe), with VK_LAYER_KHRONOS_validation when `validation` is set.
 */
export async function probeMultiviewDepth(loader: VulkanLoader, validation: boolean): Promise<MultiviewDepthProbe> {
  const instance = loader.createInstance({
    applicationName: 'kl-multiview-depth-probe',
    apiVersion: VK_API_VERSION_1_1,
    enabledLayerNames: validation ? ['VK_LAYER_KHRONOS_validation'] : [],
    enabledExtensionNames: ['VK_EXT_debug_utils'],
  });
  try {
    instance.startDebugMessenger();
    const pd = instance.enumeratePhysicalDevices()[0];
    if (pd === undefined) throw new Error('the multiview depth probe: the driver offers no physical device');
    const family = pd.queueFamilies.findIndex((f) => (f.queueFlags & 0x1) !== 0);
    const device = pd.createDevice({ queueCreateInfos: [{ queueFamilyIndex: family, queuePriorities: [1] }], enabledFeatures: { multiview: true } });
    const hostBuffer = (usage: number, bytes: number): ReturnType<typeof device.createBuffer> => {
      const b = device.createBuffer({ size: bytes, usage });
      b.bindMemory(device.allocateMemory(b.memoryRequirements.size, pd.requireMemoryType(b.memoryRequirements.memoryTypeBits, HOST)));
      return b;
    };
    const image = (format: Format, usage: number): ReturnType<typeof device.createImage> => {
      const i = device.createImage({ format, extent: { width: SIZE, height: SIZE }, usage, arrayLayers: 2 });
      i.bindMemory(device.allocateMemory(i.memoryRequirements.size, pd.requireMemoryType(i.memoryRequirements.memoryTypeBits, 0)));
      return i;
    };
    const colour = image(Format.R8G8B8A8_UNORM, 0x10);
    const depth = image(D16, 0x20 | 0x1); // depth attachment, transfer source
    const colourView = device.createImageView(colour, { viewType: '2d-array', layerCount: 2 });
    const depthView = device.createImageView(depth, { viewType: '2d-array', layerCount: 2, aspect: 'depth' });
    const renderPass = device.createRenderPass({
      attachments: [
        { format: Format.R8G8B8A8_UNORM, loadOp: 'clear', storeOp: 'store', finalLayout: 'color-attachment-optimal' },
        { format: D16, loadOp: 'clear', storeOp: 'store', finalLayout: 'transfer-src-optimal' },
      ],
      subpasses: [{ colorAttachments: [{ attachment: 0 }], depthStencilAttachment: { attachment: 1 } }],
      dependencies: [
        { srcSubpass: 'external', dstSubpass: 0, srcStageMask: COLOR_OUT | LATE_TESTS, dstStageMask: COLOR_OUT | EARLY_TESTS | LATE_TESTS, dstAccessMask: A_COLOR_WRITE | A_DEPTH_WRITE | A_DEPTH_READ },
        { srcSubpass: 0, dstSubpass: 'external', srcStageMask: LATE_TESTS, dstStageMask: TRANSFER, srcAccessMask: A_DEPTH_WRITE, dstAccessMask: A_TRANSFER_READ },
      ],
      viewMask: 0b11,
    });
    const framebuffer = device.createFramebuffer({ renderPass, attachments: [colourView, depthView], width: SIZE, height: SIZE });
    const viewsLayout = device.createDescriptorSetLayout([{ binding: 0, descriptorType: UNIFORM_BUFFER, stageFlags: VERTEX_STAGE }]);
    const layout = device.createPipelineLayout([viewsLayout], [{ stageFlags: VERTEX_STAGE, offset: 0, size: 64 }]);
    const pipeline = device.createGraphicsPipeline({
      layout,
      stages: { vertex: { module: device.createShaderModule(spirv('lit-multiview.vert.spv')) }, fragment: { module: device.createShaderModule(spirv('lit.frag.spv')) } },
      vertexInput: {
        bindings: [{ binding: 0, stride: 9 * 4 }],
        attributes: [
          { location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 },
          { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 },
          { location: 2, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 24 },
        ],
      },
      topology: 'triangle-list',
      rasterization: { cullMode: 'none', frontFace: 'counter-clockwise' },
      depthStencil: { depthTest: true, depthWrite: true, compareOp: 'less' },
      renderPass,
    });
    // View 0: the identity; view 1: x mirrored (column-major).
    const matrices = hostBuffer(0x10, 2 * 64);
    new Float32Array(matrices.memory!.map()).set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const set = device.createDescriptorPool(1, [{ type: UNIFORM_BUFFER, descriptorCount: 1 }]).allocateSet(viewsLayout);
    set.writeBuffers([{ binding: 0, descriptorType: UNIFORM_BUFFER, buffer: matrices }]);
    const data = new Float32Array([...quad(-1, 0, TILT_AT_LEFT, TILT_AT_RIGHT, [1, 0, 0]), ...quad(-1, 1, PROBE_FAR, PROBE_FAR, [0, 0, 1])]);
    const vertices = hostBuffer(0x80, data.byteLength);
    new Float32Array(vertices.memory!.map()).set(data);
    const readback = hostBuffer(0x2, 2 * SIZE * SIZE * 2);
    const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const cb = device.createCommandPool(family).allocateCommandBuffer().begin(1);
    cb.beginRenderPass({ renderPass, framebuffer, clearValues: [[0, 0, 0, 1], { depth: 1 }] })
      .bindPipeline(pipeline)
      .setViewport(0, 0, SIZE, SIZE)
      .setScissor(0, 0, SIZE, SIZE)
      .bindVertexBuffers(0, [vertices])
      .bindDescriptorSet(layout, set, 0, 'graphics')
      .pushConstants(layout, VERTEX_STAGE, 0, identity)
      .draw(6, 1, 0)
      .pushConstants(layout, VERTEX_STAGE, 0, identity)
      .draw(6, 1, 6)
      .endRenderPass();
    cb.copyImageToBuffer(depth, 'transfer-src-optimal', readback, { layerCount: 2 });
    cb.end();
    const fence = device.createFence();
    device.queue(family).submit(cb, fence);
    if (!(await fence.wait(30_000_000_000n))) throw new Error('the multiview depth probe: the GPU did not finish within 30 s');
    const raw = new Uint16Array(readback.memory!.map().slice(0, 2 * SIZE * SIZE * 2));
    const right: [number, number] = [0, 0];
    const otherViews: [number, number] = [0, 0];
    const wrong: string[] = [];
    for (let layer = 0; layer < 2; layer++) {
      for (let y = 0; y < SIZE; y++) {
        for (let x = 0; x < SIZE; x++) {
          const d = (raw[layer * SIZE * SIZE + y * SIZE + x] as number) / 65535;
          const own = predictedProbeDepth(layer, x);
          if (Math.abs(d - own) <= TOLERANCE) right[layer] = (right[layer] as number) + 1;
          else {
            if (Math.abs(d - predictedProbeDepth(1 - layer, x)) <= TOLERANCE) otherViews[layer] = (otherViews[layer] as number) + 1;
            if (wrong.length < 4) wrong.push(`layer ${layer} texel (${x}, ${y}): depth ${d.toFixed(4)}, its view predicts ${own}, the other view ${predictedProbeDepth(1 - layer, x)}`);
          }
        }
      }
    }
    const validationMessages = instance
      .takeDebugMessages()
      .filter((m) => m.severity >= WARNING)
      .map((m) => `${m.messageIdName}: ${m.message}`);
    device.waitIdle();
    const props = pd.properties;
    return {
      apart: right[0] === SIZE * SIZE && right[1] === SIZE * SIZE,
      device: `${props.deviceName} (driver version ${props.driverVersion})`,
      right,
      otherViews,
      wrong,
      validation: validationMessages,
      size: SIZE,
    };
  } finally {
    instance.destroy();
  }
}
