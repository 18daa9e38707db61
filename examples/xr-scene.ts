// A lit XR scene drawn from Node through khronos-loader's typed Vulkan API: a floor grid, a cube
// at each controller's grip and, when the runtime tracks hands (XR_EXT_hand_tracking), a small
// cube at each hand joint; each eye rendered in a render pass (colour and depth attachments: the
// eye's swapchain images), and the depth submitted with the projection layer
// (XR_KHR_composition_layer_depth) when the runtime offers it. Nothing in the drawing path is
// specific to the simulated runtime that ships with the package: point XR_RUNTIME_JSON at another
// runtime (Monado, a headset's) and VK_DRIVER_FILES at another Vulkan driver.
//
//   npx tsx examples/xr-scene.ts [seconds]      (default 5; `npm run demo -- --scene` runs it too)
//
// Prints the frames drawn and missed and the JavaScript thread's time per frame. The per-frame
// code allocates nothing: the matrices, push constants, poses and layers are made once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  createLoader,
  examplePath,
  runFrameLoop,
  simulatedRuntime,
  HAND_JOINT_COUNT,
  HAND_JOINT_FLOATS,
  SpaceLocationFlags,
  VIEW_FLOATS,
  type FrameState,
  type HandTracker,
  type Instance,
  type ProjectionLayer,
  type Session,
  type Space,
  type Swapchain,
  type VulkanGraphics,
} from 'khronos-loader/openxr';
import {
  createLoader as createVulkanLoader,
  provideProcessVulkanLoader,
  publishVulkanPlan,
  Format,
  type CommandBuffer,
  type Fence,
  type Framebuffer,
  type GraphicsPipeline,
  type PipelineLayout,
  type RenderPass,
  type VulkanBuffer,
} from 'khronos-loader/vulkan';

const HANDS = ['/user/hand/left', '/user/hand/right'] as const;
/** Floats per vertex: position, normal, colour. */
const VERTEX_FLOATS = 9;
/** Half the edge of a controller cube, metres. */
export const CUBE_HALF = 0.05;
/** The floor: FLOOR_TILES × FLOOR_TILES tiles of TILE metres, centred on the STAGE origin, at y = 0. */
const FLOOR_TILES = 16;
const TILE = 0.5;
/** The near and far planes of every eye's projection, metres (the depth layer says the same). */
export const NEAR = 0.05;
export const FAR = 100;
/** The background: what a pixel that shows no geometry is cleared to (linear RGBA, 0..1). */
export const BACKGROUND = [0.05, 0.07, 0.12, 1] as const;
/** The cubes' base colours (left, right) and the joints', lit in the fragment shader. */
export const CUBE_COLOURS = [
  [0.95, 0.35, 0.2],
  [0.2, 0.55, 0.95],
] as const;
const JOINT_COLOUR = [0.9, 0.85, 0.7] as const;
const VERTEX_STAGE = 0x1;
const COLOR_OUT = 0x400;
const EARLY_TESTS = 0x100;
const LATE_TESTS = 0x200;
const A_COLOR_WRITE = 0x100;
const A_DEPTH_WRITE = 0x400;
const A_DEPTH_READ = 0x200;
const HOST_VISIBLE_COHERENT = 0x2 | 0x4;
const VERTEX_BUFFER = 0x80;
const SLOTS = 3;

// ---- geometry (made once) ----------------------------------------------------------------------

/** A cube of half edge `half` centred on the origin, 36 vertices (6 faces, outward normals), one colour. */
function cubeVertices(half: number, colour: readonly number[]): number[] {
  const out: number[] = [];
  // Each face: its normal axis and sign; the two in-plane axes.
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [1, -1]) {
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      const corner = (a: number, b: number): number[] => {
        const p = [0, 0, 0];
        p[axis] = sign * half;
        p[u] = a * half;
        p[v] = b * half * sign; // counter-clockwise seen from outside
        const n = [0, 0, 0];
        n[axis] = sign;
        return [...p, ...n, ...colour];
      };
      out.push(...corner(-1, -1), ...corner(1, -1), ...corner(1, 1), ...corner(-1, -1), ...corner(1, 1), ...corner(-1, 1));
    }
  }
  return out;
}

/** The floor grid: tiles in two greys, normals up. */
function floorVertices(): number[] {
  const out: number[] = [];
  const start = (-FLOOR_TILES / 2) * TILE;
  for (let i = 0; i < FLOOR_TILES; i++) {
    for (let j = 0; j < FLOOR_TILES; j++) {
      const c = (i + j) % 2 === 0 ? [0.55, 0.57, 0.6] : [0.3, 0.32, 0.35];
      const x0 = start + i * TILE;
      const z0 = start + j * TILE;
      const p = (x: number, z: number): number[] => [x, 0, z, 0, 1, 0, ...c];
      out.push(...p(x0, z0), ...p(x0, z0 + TILE), ...p(x0 + TILE, z0 + TILE), ...p(x0, z0), ...p(x0 + TILE, z0 + TILE), ...p(x0 + TILE, z0));
    }
  }
  return out;
}

// ---- matrices (column-major, as GLSL reads them; written into caller-owned arrays) ------------

/** out = a × b (4 × 4, column-major). */
function multiply(out: Float32Array, a: Float32Array, b: Float32Array, outOffset = 0): void {
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += (a[k * 4 + r] as number) * (b[c * 4 + k] as number);
      out[outOffset + c * 4 + r] = s;
    }
  }
}

/** out = the rigid transform of pose [px, py, pz, qx, qy, qz, qw] (at `at`), scaled by `scale`. */
export function poseMatrix(out: Float32Array, pose: Float32Array, at = 0, scale = 1): void {
  const px = pose[at] as number;
  const py = pose[at + 1] as number;
  const pz = pose[at + 2] as number;
  const x = pose[at + 3] as number;
  const y = pose[at + 4] as number;
  const z = pose[at + 5] as number;
  const w = pose[at + 6] as number;
  out[0] = (1 - 2 * (y * y + z * z)) * scale;
  out[1] = 2 * (x * y + z * w) * scale;
  out[2] = 2 * (x * z - y * w) * scale;
  out[3] = 0;
  out[4] = 2 * (x * y - z * w) * scale;
  out[5] = (1 - 2 * (x * x + z * z)) * scale;
  out[6] = 2 * (y * z + x * w) * scale;
  out[7] = 0;
  out[8] = 2 * (x * z + y * w) * scale;
  out[9] = 2 * (y * z - x * w) * scale;
  out[10] = (1 - 2 * (x * x + y * y)) * scale;
  out[11] = 0;
  out[12] = px;
  out[13] = py;
  out[14] = pz;
  out[15] = 1;
}

/**
 * out = projection × view of an eye located by locateViews (pose at `at`, then the fov's four
 * angles): Vulkan clip space (y down, depth 0 at NEAR to 1 at FAR), the OpenXR convention of
 * looking down -Z with +Y up.
 */
export function eyeMatrix(out: Float32Array, views: Float32Array, at: number, scratch: Float32Array): void {
  const tanL = Math.tan(views[at + 7] as number);
  const tanR = Math.tan(views[at + 8] as number);
  const tanU = Math.tan(views[at + 9] as number);
  const tanD = Math.tan(views[at + 10] as number);
  const w = tanR - tanL;
  const h = tanD - tanU; // Vulkan: y grows downwards
  const p = scratch; // projection in [0, 16), view in [16, 32), eye pose in [32, 48)
  p.fill(0, 0, 16);
  p[0] = 2 / w;
  p[5] = 2 / h;
  p[8] = (tanR + tanL) / w;
  p[9] = (tanU + tanD) / h;
  p[10] = -FAR / (FAR - NEAR);
  p[11] = -1;
  p[14] = -(FAR * NEAR) / (FAR - NEAR);
  // The view matrix: the inverse of the eye's rigid pose (transpose the rotation, rotate -position).
  const e = scratch.subarray(32, 48);
  poseMatrix(e, views, at);
  const v = scratch.subarray(16, 32);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) v[c * 4 + r] = e[r * 4 + c] as number;
  v[3] = 0;
  v[7] = 0;
  v[11] = 0;
  for (let r = 0; r < 3; r++) v[12 + r] = -((v[r] as number) * (e[12] as number) + (v[4 + r] as number) * (e[13] as number) + (v[8 + r] as number) * (e[14] as number));
  v[15] = 1;
  multiply(out, p, v);
}

// ---- the scene ----------------------------------------------------------------------------------

export interface XrSceneStats {
  framesDrawn: number;
  /** Frames in which each controller's grip was located (its cube drawn). */
  readonly cubeFrames: [number, number];
  /** Frames in which each hand's joints were drawn. */
  readonly handFrames: [number, number];
  /** Total ms of the JavaScript thread in render() (recording, submission, the swapchain calls). */
  renderMs: number;
}

export interface XrScene {
  /** Draws the frame into both eyes and answers the layers to end it with. Call between beginFrame and endFrame. */
  render(frame: FrameState): readonly ProjectionLayer[];
  readonly stats: XrSceneStats;
  /** The grip poses of the last frame, STAGE space: 7 floats per hand (zeros when not located). */
  readonly grips: Float32Array;
  /** Each eye's view located for the last frame (VIEW_FLOATS per eye, STAGE space). */
  readonly views: Float32Array;
  readonly colour: readonly Swapchain[];
  /** The depth swapchains (empty when the runtime does not offer XR_KHR_composition_layer_depth). */
  readonly depth: readonly Swapchain[];
  readonly stage: Space;
  /** Waits for the GPU (before the session is destroyed). */
  finish(): void;
}

export interface XrSceneOptions {
  /** Each eye's image edge in pixels (default 256). */
  readonly size?: number;
  /** Where the SPIR-V is (default the package's examples/shaders, examplePath()). */
  readonly shaderDir?: string;
}

interface Slot {
  readonly commandBuffer: CommandBuffer;
  readonly fence: Fence;
  submitted: boolean;
}

/**
 * Sets up the scene on a session with Vulkan graphics: swapchains, render pass, pipeline, vertex
 * buffer, actions (grip poses: before the session's first sync) and hand trackers when enabled.
 */
export function createXrScene(instance: Instance, session: Session, vulkan: VulkanGraphics, options: XrSceneOptions = {}): XrScene {
  const size = options.size ?? 256;
  const shaderDir = options.shaderDir ?? path.dirname(examplePath('shaders/lit.vert.spv'));
  const device = vulkan.device;
  const stage = session.createReferenceSpace('stage');

  // Input: a grip pose per hand, located every frame in STAGE space.
  const set = instance.createActionSet({ name: 'scene', localizedName: 'Scene' });
  const grip = set.createAction({ name: 'grip', localizedName: 'Grip', type: 'pose', subactionPaths: [...HANDS] });
  for (const profile of ['/interaction_profiles/khr/simple_controller', '/interaction_profiles/oculus/touch_controller', '/interaction_profiles/valve/index_controller']) {
    instance.suggestBindings(profile, HANDS.map((hand) => ({ action: grip, path: `${hand}/input/grip/pose` })));
  }
  session.attachActionSets([set]);
  const gripSpaces = HANDS.map((hand) => session.createActionSpace(grip, hand));
  const trackers: HandTracker[] = instance.enabledExtensionNames.includes('XR_EXT_hand_tracking') ? [session.createHandTracker('left'), session.createHandTracker('right')] : [];

  // Swapchains: a colour and (with XR_KHR_composition_layer_depth) a depth swapchain per eye.
  const formats = session.swapchainFormats();
  const colourFormat = [Format.R8G8B8A8_SRGB, Format.B8G8R8A8_SRGB, Format.R8G8B8A8_UNORM, Format.B8G8R8A8_UNORM].find((f) => formats.includes(f)) ?? (formats[0] as number);
  const withDepth = instance.enabledExtensionNames.includes('XR_KHR_composition_layer_depth');
  const depthFormat = session.depthSwapchainFormat();
  const colour = [0, 1].map(() => session.createSwapchain({ format: colourFormat, width: size, height: size, usage: ['color-attachment'] }));
  // Without the depth layer the depth buffer is still a swapchain's (the runtime's images), only not submitted.
  const depth = [0, 1].map(() => session.createSwapchain({ format: depthFormat, width: size, height: size, usage: ['depth-stencil-attachment'] }));

  // One render pass for every eye: the images come in their attachment layouts and go back in them.
  const renderPass: RenderPass = device.createRenderPass({
    attachments: [
      { format: colourFormat as Format, loadOp: 'clear', storeOp: 'store', initialLayout: 'color-attachment-optimal', finalLayout: 'color-attachment-optimal' },
      { format: depthFormat as Format, loadOp: 'clear', storeOp: 'store', initialLayout: 'depth-stencil-attachment-optimal', finalLayout: 'depth-stencil-attachment-optimal' },
    ],
    subpasses: [{ colorAttachments: [{ attachment: 0 }], depthStencilAttachment: { attachment: 1 } }],
    dependencies: [
      { srcSubpass: 'external', dstSubpass: 0, srcStageMask: COLOR_OUT | LATE_TESTS, dstStageMask: COLOR_OUT | EARLY_TESTS | LATE_TESTS, dstAccessMask: A_COLOR_WRITE | A_DEPTH_WRITE | A_DEPTH_READ },
    ],
  });
  // A framebuffer per eye and pair of image indices (the two swapchains of an eye acquire in step, but need not).
  const colourViews = colour.map((s) => s.images.map((image) => device.createImageView(image, { viewType: '2d' })));
  const depthViews = depth.map((s) => s.images.map((image) => device.createImageView(image, { viewType: '2d', aspect: 'depth' })));
  const framebuffers: Framebuffer[][][] = [0, 1].map((eye) =>
    (colourViews[eye] as ReturnType<typeof device.createImageView>[]).map((cv) =>
      (depthViews[eye] as ReturnType<typeof device.createImageView>[]).map((dv) => device.createFramebuffer({ renderPass, attachments: [cv, dv], width: size, height: size })),
    ),
  );

  const spirv = (name: string): Uint32Array => {
    const bytes = readFileSync(path.join(shaderDir, name));
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  };
  const layout: PipelineLayout = device.createPipelineLayout([], [{ stageFlags: VERTEX_STAGE, offset: 0, size: 128 }]);
  const pipeline: GraphicsPipeline = device.createGraphicsPipeline({
    layout,
    stages: { vertex: { module: device.createShaderModule(spirv('lit.vert.spv')) }, fragment: { module: device.createShaderModule(spirv('lit.frag.spv')) } },
    vertexInput: {
      bindings: [{ binding: 0, stride: VERTEX_FLOATS * 4 }],
      attributes: [
        { location: 0, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 0 },
        { location: 1, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 12 },
        { location: 2, binding: 0, format: Format.R32G32B32_SFLOAT, offset: 24 },
      ],
    },
    topology: 'triangle-list',
    rasterization: { cullMode: 'back', frontFace: 'counter-clockwise' },
    depthStencil: { depthTest: true, depthWrite: true, compareOp: 'less' },
    renderPass,
  });

  // One vertex buffer: the floor, the two cubes, the joint cube (half edge 1: scaled by the joint's radius).
  const floor = floorVertices();
  const meshes = [floor, cubeVertices(CUBE_HALF, CUBE_COLOURS[0]), cubeVertices(CUBE_HALF, CUBE_COLOURS[1]), cubeVertices(1, JOINT_COLOUR)];
  const firsts: number[] = [];
  let count = 0;
  for (const m of meshes) {
    firsts.push(count);
    count += m.length / VERTEX_FLOATS;
  }
  const data = new Float32Array(meshes.flat());
  const vertices: VulkanBuffer = device.createBuffer({ size: data.byteLength, usage: VERTEX_BUFFER });
  vertices.bindMemory(device.allocateMemory(vertices.memoryRequirements.size, vulkan.physicalDevice.requireMemoryType(vertices.memoryRequirements.memoryTypeBits, HOST_VISIBLE_COHERENT)));
  new Float32Array(vertices.memory!.map()).set(data);
  const buffers = [vertices];
  const [FLOOR_FIRST, LEFT_FIRST, RIGHT_FIRST, JOINT_FIRST] = firsts as [number, number, number, number];
  const FLOOR_COUNT = floor.length / VERTEX_FLOATS;
  const CUBE_COUNT = 36;

  const pool = device.createCommandPool(vulkan.queueFamilyIndex);
  const slots: Slot[] = Array.from({ length: SLOTS }, () => ({ commandBuffer: pool.allocateCommandBuffer(), fence: device.createFence(), submitted: false }));

  // Per-frame state, made once.
  const views = new Float32Array(2 * VIEW_FLOATS);
  const grips = new Float32Array(2 * 7);
  const gripOut = new Float32Array(7);
  const joints = [new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_FLOATS), new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_FLOATS)];
  const handsTracked = [false, false];
  const gripValid = [false, false];
  const viewProjection = [new Float32Array(16), new Float32Array(16)];
  const scratch = new Float32Array(48);
  const model = new Float32Array(16);
  const push = new Float32Array(32); // mvp, model
  const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const acquired = [0, 0, 0, 0]; // colour left, colour right, depth left, depth right
  const clearValues = [[...BACKGROUND], { depth: 1 }] as const;
  const located = SpaceLocationFlags.POSITION_VALID | SpaceLocationFlags.ORIENTATION_VALID;
  const stats: XrSceneStats = { framesDrawn: 0, cubeFrames: [0, 0], handFrames: [0, 0], renderMs: 0 };
  const activeSets = [set];

  const layers: ProjectionLayer[] = [
    {
      type: 'projection',
      space: stage,
      views: [0, 1].map((eye) => ({
        pose: views.subarray(eye * VIEW_FLOATS, eye * VIEW_FLOATS + 7),
        fov: views.subarray(eye * VIEW_FLOATS + 7, (eye + 1) * VIEW_FLOATS),
        swapchain: colour[eye] as Swapchain,
        ...(withDepth && { depth: { swapchain: depth[eye] as Swapchain, minDepth: 0, maxDepth: 1, nearZ: NEAR, farZ: FAR } }),
      })),
    },
  ];

  function drawMesh(cb: CommandBuffer, eye: number, first: number, vertexCount: number, modelMatrix: Float32Array): void {
    multiply(push, viewProjection[eye] as Float32Array, modelMatrix);
    push.set(modelMatrix, 16);
    cb.pushConstants(layout, VERTEX_STAGE, 0, push).draw(vertexCount, 1, first);
  }

  function render(frame: FrameState): readonly ProjectionLayer[] {
    const started = performance.now();
    const time = frame.predictedDisplayTime;
    session.locateViews(stage, time, views);
    const focused = session.syncActions(activeSets);
    for (let h = 0; h < 2; h++) {
      gripValid[h] = focused && ((gripSpaces[h] as Space).locate(stage, time, gripOut) & located) === located;
      if (gripValid[h]) grips.set(gripOut, h * 7);
      else grips.fill(0, h * 7, h * 7 + 7);
      const tracker = trackers[h];
      handsTracked[h] = tracker !== undefined && tracker.locate(stage, time, joints[h] as Float32Array);
    }
    for (let eye = 0; eye < 2; eye++) eyeMatrix(viewProjection[eye] as Float32Array, views, eye * VIEW_FLOATS, scratch);

    const slot = slots[stats.framesDrawn % SLOTS] as Slot;
    if (slot.submitted) {
      if (!slot.fence.signaled) vulkan.queue.waitIdle(); // the GPU fell SLOTS frames behind
      slot.fence.reset();
    }
    for (let eye = 0; eye < 2; eye++) {
      acquired[eye] = (colour[eye] as Swapchain).acquire();
      acquired[eye + 2] = (depth[eye] as Swapchain).acquire();
    }
    for (let eye = 0; eye < 2; eye++) {
      (colour[eye] as Swapchain).wait();
      (depth[eye] as Swapchain).wait();
    }
    const cb = slot.commandBuffer.begin(1);
    for (let eye = 0; eye < 2; eye++) {
      const framebuffer = ((framebuffers[eye] as Framebuffer[][])[acquired[eye] as number] as Framebuffer[])[acquired[eye + 2] as number] as Framebuffer;
      cb.beginRenderPass({ renderPass, framebuffer, clearValues }).bindPipeline(pipeline).setViewport(0, 0, size, size).setScissor(0, 0, size, size).bindVertexBuffers(0, buffers);
      drawMesh(cb, eye, FLOOR_FIRST, FLOOR_COUNT, identity);
      for (let h = 0; h < 2; h++) {
        if (gripValid[h]) {
          poseMatrix(model, grips, h * 7);
          drawMesh(cb, eye, h === 0 ? LEFT_FIRST : RIGHT_FIRST, CUBE_COUNT, model);
        }
        if (handsTracked[h]) {
          const j = joints[h] as Float32Array;
          for (let k = 0; k < HAND_JOINT_COUNT; k++) {
            const at = k * HAND_JOINT_FLOATS;
            if (((j[at + 8] as number) & located) !== located) continue;
            poseMatrix(model, j, at, j[at + 7] as number);
            drawMesh(cb, eye, JOINT_FIRST, CUBE_COUNT, model);
          }
        }
      }
      cb.endRenderPass();
    }
    cb.end();
    vulkan.queue.submit(cb, slot.fence);
    slot.submitted = true;
    for (let eye = 0; eye < 2; eye++) {
      (colour[eye] as Swapchain).release();
      (depth[eye] as Swapchain).release();
    }
    for (let h = 0; h < 2; h++) {
      if (gripValid[h]) stats.cubeFrames[h] = (stats.cubeFrames[h] as number) + 1;
      if (handsTracked[h]) stats.handFrames[h] = (stats.handFrames[h] as number) + 1;
    }
    stats.framesDrawn++;
    stats.renderMs += performance.now() - started;
    return layers;
  }

  return { render, stats, grips, views, colour, depth: withDepth ? depth : [], stage, finish: () => device.waitIdle() };
}

/** Runs the scene for `seconds` on the runtime XR_RUNTIME_JSON names (default: the simulated one); prints what it did. */
export async function runXrScene(seconds: number, log: (line: string) => void = console.log): Promise<{ stats: XrSceneStats; frames: number; missed: number; rendered: number }> {
  process.env.XR_RUNTIME_JSON ??= simulatedRuntime();
  // Before the runtime is loaded: this package's loader becomes the process's libvulkan.so.1 (Monado calls that one).
  provideProcessVulkanLoader();
  const vulkanLoader = createVulkanLoader();
  publishVulkanPlan(vulkanLoader.planInstance());
  const loader = createLoader();
  const offered = new Set(loader.enumerateInstanceExtensionProperties().map((e) => e.name));
  const instance = loader.createInstance({
    applicationName: 'xr-scene example',
    enabledExtensionNames: ['XR_KHR_vulkan_enable2', ...['XR_KHR_composition_layer_depth', 'XR_EXT_hand_tracking'].filter((e) => offered.has(e))],
  });
  try {
    const system = instance.getSystem('head-mounted-display');
    const vulkan = instance.createVulkanGraphics(system, { loader: vulkanLoader, applicationName: 'xr-scene example' });
    const session = instance.createSession(system, { graphics: { vulkan } });
    const scene = createXrScene(instance, session, vulkan);
    const loop = await runFrameLoop(session, { durationMs: seconds * 1000, onFrame: (frame) => scene.render(frame) });
    scene.finish();
    const s = scene.stats;
    log(`Vulkan:  ${vulkan.physicalDevice.properties.deviceName}; depth layer ${scene.depth.length > 0 ? 'submitted' : 'not offered by the runtime'}`);
    log(`frames:  ${s.framesDrawn} drawn of ${loop.frames}, ${loop.missed} missed`);
    log(`scene:   cubes drawn in ${s.cubeFrames[0]} / ${s.cubeFrames[1]} frames (left / right), hands in ${s.handFrames[0]} / ${s.handFrames[1]}`);
    log(`JS time: ${(s.framesDrawn === 0 ? 0 : s.renderMs / s.framesDrawn).toFixed(3)} ms per frame (render: locate, record, submit, swapchain calls)`);
    session.destroy();
    vulkan.instance.destroy();
    return { stats: s, frames: loop.frames, missed: loop.missed, rendered: loop.rendered };
  } finally {
    instance.destroy();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] ?? 5);
  await runXrScene(Number.isFinite(seconds) && seconds > 0 ? seconds : 5);
}
