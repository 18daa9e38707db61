// A lit XR scene drawn from Node through khronos-loader's typed Vulkan API: a floor grid, a cube
// at each controller's grip and, when the runtime tracks hands (XR_EXT_hand_tracking), a small
// sphere at each hand joint (the joint's radius); the depth submitted with the projection layer
// (XR_KHR_composition_layer_depth) when the runtime offers it. With multiview (Vulkan 1.1, asked
// for through createVulkanGraphics' enabledFeatures) both eyes are drawn in ONE render pass into
// array swapchains (layer 0 the left eye, layer 1 the right: viewMask 0b11, each view its own
// view-projection matrix); without it each eye in its own render pass into its own swapchains. Nothing in the drawing path is
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
import { InvalidArgumentError } from 'khronos-loader';
import {
  createLoader,
  examplePath,
  runFrameLoop,
  simulatedRuntime,
  OpenXrError,
  HAND_JOINT_COUNT,
  HAND_JOINT_FLAGS,
  HAND_JOINT_ORIENTATION,
  HAND_JOINT_POSITION,
  HAND_JOINT_RADIUS,
  HAND_JOINT_STRIDE,
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
  type DescriptorSet,
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
/** The hand joints' spheres (green: told apart from the cubes and the grey floor however lit). */
export const JOINT_COLOUR = [0.25, 0.85, 0.3] as const;
/** The joint sphere's tessellation: rings from pole to pole, and segments around. */
const SPHERE_RINGS = 8;
const SPHERE_SEGMENTS = 12;
const VERTEX_STAGE = 0x1;
const COLOR_OUT = 0x400;
const EARLY_TESTS = 0x100;
const LATE_TESTS = 0x200;
const A_COLOR_WRITE = 0x100;
const A_DEPTH_WRITE = 0x400;
const A_DEPTH_READ = 0x200;
const HOST_VISIBLE_COHERENT = 0x2 | 0x4;
const VERTEX_BUFFER = 0x80;
const UNIFORM_USAGE = 0x10;
/** VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER. */
const UNIFORM_BUFFER = 6;
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

/**
 * A sphere of radius 1 centred on the origin (scaled by each joint's radius when drawn): triangles
 * between rings of vertices on the sphere (so inside it), normals outward, counter-clockwise seen
 * from outside as the cubes' faces.
 */
function sphereVertices(colour: readonly number[]): number[] {
  const out: number[] = [];
  const at = (ring: number, segment: number): number[] => {
    const theta = (Math.PI * ring) / SPHERE_RINGS;
    const phi = (2 * Math.PI * segment) / SPHERE_SEGMENTS;
    return [Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi)];
  };
  const triangle = (a: number[], b: number[], c: number[]): void => {
    // Outward when (b - a) × (c - a) points away from the centre, else the other way round.
    const u = [(b[0] as number) - (a[0] as number), (b[1] as number) - (a[1] as number), (b[2] as number) - (a[2] as number)];
    const v = [(c[0] as number) - (a[0] as number), (c[1] as number) - (a[1] as number), (c[2] as number) - (a[2] as number)];
    const n = [(u[1] as number) * (v[2] as number) - (u[2] as number) * (v[1] as number), (u[2] as number) * (v[0] as number) - (u[0] as number) * (v[2] as number), (u[0] as number) * (v[1] as number) - (u[1] as number) * (v[0] as number)];
    const outward = (n[0] as number) * ((a[0] as number) + (b[0] as number) + (c[0] as number)) + (n[1] as number) * ((a[1] as number) + (b[1] as number) + (c[1] as number)) + (n[2] as number) * ((a[2] as number) + (b[2] as number) + (c[2] as number)) > 0;
    for (const p of outward ? [a, b, c] : [a, c, b]) out.push(...p, ...p, ...colour); // on the unit sphere the normal is the position
  };
  for (let ring = 0; ring < SPHERE_RINGS; ring++) {
    for (let segment = 0; segment < SPHERE_SEGMENTS; segment++) {
      const a = at(ring, segment);
      const b = at(ring + 1, segment);
      const c = at(ring + 1, segment + 1);
      const d = at(ring, segment + 1);
      if (ring > 0) triangle(a, b, d); // the first ring's quads are triangles at the pole
      if (ring < SPHERE_RINGS - 1) triangle(b, c, d);
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

/**
 * out = the rigid transform of pose [px, py, pz, qx, qy, qz, qw] (at `at`), scaled by `scale`; the
 * quaternion read at `orientationAt` where it is elsewhere (a hand joint: HAND_JOINT_ORIENTATION).
 */
export function poseMatrix(out: Float32Array, pose: Float32Array, at = 0, scale = 1, orientationAt = at + 3): void {
  const px = pose[at] as number;
  const py = pose[at + 1] as number;
  const pz = pose[at + 2] as number;
  const x = pose[orientationAt] as number;
  const y = pose[orientationAt + 1] as number;
  const z = pose[orientationAt + 2] as number;
  const w = pose[orientationAt + 3] as number;
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

// eyeMatrix's eye pose and view matrix, made once (no views into `scratch`: a frame allocates nothing).
const EYE_POSE = new Float32Array(16);
const VIEW = new Float32Array(16);

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
  const p = scratch; // the projection in [0, 16)
  p.fill(0, 0, 16);
  p[0] = 2 / w;
  p[5] = 2 / h;
  p[8] = (tanR + tanL) / w;
  p[9] = (tanU + tanD) / h;
  p[10] = -FAR / (FAR - NEAR);
  p[11] = -1;
  p[14] = -(FAR * NEAR) / (FAR - NEAR);
  // The view matrix: the inverse of the eye's rigid pose (transpose the rotation, rotate -position).
  const e = EYE_POSE;
  poseMatrix(e, views, at);
  const v = VIEW;
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
  /** Render passes recorded: one a frame with multiview, two without. */
  renderPasses: number;
  /** Total ms of the JavaScript thread in render() (recording, submission, the swapchain calls). */
  renderMs: number;
}

export interface XrScene {
  /** Draws the frame into both eyes and answers the layers to end it with. Call between beginFrame and endFrame. */
  render(frame: FrameState): readonly ProjectionLayer[];
  readonly stats: XrSceneStats;
  /** The grip poses of the last frame, STAGE space: 7 floats per hand (zeros when not located). */
  readonly grips: Float32Array;
  /**
   * Each hand's joints of the last frame, as HandTracker.locate() wrote them (the runtime's
   * XrHandJointLocationEXT array: HAND_JOINT_STRIDE floats a joint, STAGE space); a joint's sphere was drawn when the hand was tracked (handsTracked)
   * and the joint's position and orientation are valid.
   */
  readonly joints: readonly Float32Array[];
  readonly handsTracked: readonly boolean[];
  /** Whether both eyes are drawn in one pass (multiview) into array swapchains (layer = eye). */
  readonly multiview: boolean;
  /** Each eye's view located for the last frame (VIEW_FLOATS per eye, STAGE space). */
  readonly views: Float32Array;
  /** The colour swapchains: one per eye, or (multiview) one of two layers for both. */
  readonly colour: readonly Swapchain[];
  /** The depth swapchains, as the colour ones (empty when the runtime does not offer XR_KHR_composition_layer_depth). */
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
  /**
   * Both eyes in one pass (default false): the device must have the multiview feature
   * (createVulkanGraphics(system, { enabledFeatures: { multiview: true } })). The two eyes'
   * view-projection matrices are then in a uniform buffer (one per frame in flight), the model
   * matrix in the push constants.
   */
  readonly multiview?: boolean;
}

interface Slot {
  readonly commandBuffer: CommandBuffer;
  readonly fence: Fence;
  submitted: boolean;
  /** Multiview: the frame's uniform buffer (both eyes' view-projection matrices, mapped) and its descriptor set. */
  readonly views?: { readonly set: DescriptorSet; readonly matrices: Float32Array };
}

/**
 * A hand tracker per hand when XR_EXT_hand_tracking is enabled and the system tracks hands: a
 * runtime may offer the extension for a system that does not (XrSystemHandTrackingPropertiesEXT;
 * Monado without hand-tracking devices answers xrCreateHandTrackerEXT with
 * XR_ERROR_FEATURE_UNSUPPORTED), and the scene then draws no joints.
 */
function handTrackers(instance: Instance, session: Session): HandTracker[] {
  if (!instance.enabledExtensionNames.includes('XR_EXT_hand_tracking')) return [];
  const trackers: HandTracker[] = [];
  try {
    for (const hand of ['left', 'right'] as const) trackers.push(session.createHandTracker(hand));
  } catch (error) {
    if (!(error instanceof OpenXrError) || error.result !== 'XR_ERROR_FEATURE_UNSUPPORTED') throw error;
    for (const tracker of trackers) tracker.destroy();
    return [];
  }
  return trackers;
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
  const trackers = handTrackers(instance, session);

  // Swapchains: a colour and (with XR_KHR_composition_layer_depth) a depth swapchain per eye.
  const formats = session.swapchainFormats();
  const colourFormat = [Format.R8G8B8A8_SRGB, Format.B8G8R8A8_SRGB, Format.R8G8B8A8_UNORM, Format.B8G8R8A8_UNORM].find((f) => formats.includes(f)) ?? (formats[0] as number);
  const withDepth = instance.enabledExtensionNames.includes('XR_KHR_composition_layer_depth');
  const depthFormat = session.depthSwapchainFormat();
  const multiview = options.multiview === true;
  // Push constants: per eye the model-view-projection and model matrices (128 bytes, the least
  // every device offers), or with multiview the model matrix alone.
  const PUSH_BYTES = multiview ? 64 : 128;
  // Per eye a swapchain, or with multiview one swapchain of two layers (layer = eye) for both.
  const swapchainCount = multiview ? 1 : 2;
  const arraySize = multiview ? 2 : 1;
  const colour = Array.from({ length: swapchainCount }, () => session.createSwapchain({ format: colourFormat, width: size, height: size, arraySize, usage: ['color-attachment'] }));
  // Without the depth layer the depth buffer is still a swapchain's (the runtime's images), only not submitted.
  const depth = Array.from({ length: swapchainCount }, () => session.createSwapchain({ format: depthFormat, width: size, height: size, arraySize, usage: ['depth-stencil-attachment'] }));

  // One render pass (every eye's, or with viewMask 0b11 both views at once): the images come in
  // their attachment layouts and go back in them.
  const renderPass: RenderPass = device.createRenderPass({
    attachments: [
      { format: colourFormat as Format, loadOp: 'clear', storeOp: 'store', initialLayout: 'color-attachment-optimal', finalLayout: 'color-attachment-optimal' },
      { format: depthFormat as Format, loadOp: 'clear', storeOp: 'store', initialLayout: 'depth-stencil-attachment-optimal', finalLayout: 'depth-stencil-attachment-optimal' },
    ],
    subpasses: [{ colorAttachments: [{ attachment: 0 }], depthStencilAttachment: { attachment: 1 } }],
    dependencies: [
      { srcSubpass: 'external', dstSubpass: 0, srcStageMask: COLOR_OUT | LATE_TESTS, dstStageMask: COLOR_OUT | EARLY_TESTS | LATE_TESTS, dstAccessMask: A_COLOR_WRITE | A_DEPTH_WRITE | A_DEPTH_READ },
    ],
    ...(multiview && { viewMask: 0b11 }),
  });
  // A framebuffer per swapchain and pair of image indices (colour and depth swapchains acquire in
  // step, but need not); with multiview the views hold both layers, the framebuffer one (Vulkan
  // spec, 'Multiview': the view mask picks the layers).
  const viewType = multiview ? '2d-array' : '2d';
  const colourViews = colour.map((s) => s.images.map((image) => device.createImageView(image, { viewType, layerCount: arraySize })));
  const depthViews = depth.map((s) => s.images.map((image) => device.createImageView(image, { viewType, layerCount: arraySize, aspect: 'depth' })));
  const framebuffers: Framebuffer[][][] = colour.map((_, sc) =>
    (colourViews[sc] as ReturnType<typeof device.createImageView>[]).map((cv) =>
      (depthViews[sc] as ReturnType<typeof device.createImageView>[]).map((dv) => device.createFramebuffer({ renderPass, attachments: [cv, dv], width: size, height: size })),
    ),
  );

  const spirv = (name: string): Uint32Array => {
    const bytes = readFileSync(path.join(shaderDir, name));
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  };
  // Multiview: a uniform buffer per frame in flight with both eyes' view-projection matrices.
  const viewsLayout = multiview ? device.createDescriptorSetLayout([{ binding: 0, descriptorType: UNIFORM_BUFFER, stageFlags: VERTEX_STAGE }]) : undefined;
  const layout: PipelineLayout = device.createPipelineLayout(viewsLayout === undefined ? [] : [viewsLayout], [{ stageFlags: VERTEX_STAGE, offset: 0, size: PUSH_BYTES }]);
  const pipeline: GraphicsPipeline = device.createGraphicsPipeline({
    layout,
    stages: { vertex: { module: device.createShaderModule(spirv(multiview ? 'lit-multiview.vert.spv' : 'lit.vert.spv')) }, fragment: { module: device.createShaderModule(spirv('lit.frag.spv')) } },
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

  // One vertex buffer: the floor, the two cubes, the joint sphere (radius 1: scaled by the joint's radius).
  const floor = floorVertices();
  const sphere = sphereVertices(JOINT_COLOUR);
  const meshes = [floor, cubeVertices(CUBE_HALF, CUBE_COLOURS[0]), cubeVertices(CUBE_HALF, CUBE_COLOURS[1]), sphere];
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
  const SPHERE_COUNT = sphere.length / VERTEX_FLOATS;

  const pool = device.createCommandPool(vulkan.queueFamilyIndex);
  const descriptorPool = viewsLayout === undefined ? undefined : device.createDescriptorPool(SLOTS, [{ type: UNIFORM_BUFFER, descriptorCount: SLOTS }]);
  const slots: Slot[] = Array.from({ length: SLOTS }, () => {
    if (viewsLayout === undefined || descriptorPool === undefined) return { commandBuffer: pool.allocateCommandBuffer(), fence: device.createFence(), submitted: false };
    const buffer = device.createBuffer({ size: 2 * 16 * 4, usage: UNIFORM_USAGE });
    buffer.bindMemory(device.allocateMemory(buffer.memoryRequirements.size, vulkan.physicalDevice.requireMemoryType(buffer.memoryRequirements.memoryTypeBits, HOST_VISIBLE_COHERENT)));
    const set = descriptorPool.allocateSet(viewsLayout);
    set.writeBuffers([{ binding: 0, descriptorType: UNIFORM_BUFFER, buffer }]);
    return { commandBuffer: pool.allocateCommandBuffer(), fence: device.createFence(), submitted: false, views: { set, matrices: new Float32Array(buffer.memory!.map(), 0, 32) } };
  });

  // Per-frame state, made once.
  const views = new Float32Array(2 * VIEW_FLOATS);
  const grips = new Float32Array(2 * 7);
  const gripOut = new Float32Array(7);
  const joints = [new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE), new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE)];
  // The joints' XrSpaceLocationFlags (a uint64 each; the low 32 bits at HAND_JOINT_FLAGS): the same memory as integers.
  const jointFlags = joints.map((j) => new Uint32Array(j.buffer, j.byteOffset, j.length));
  const handsTracked = [false, false];
  const gripValid = [false, false];
  const viewProjection = [new Float32Array(16), new Float32Array(16)];
  const scratch = new Float32Array(16);
  const model = new Float32Array(16);
  const push = new Float32Array(32); // per eye: mvp, model
  const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const acquired = [0, 0, 0, 0]; // colour [0, swapchainCount), then depth
  const clearValues = [[...BACKGROUND], { depth: 1 }] as const;
  const located = SpaceLocationFlags.POSITION_VALID | SpaceLocationFlags.ORIENTATION_VALID;
  const stats: XrSceneStats = { framesDrawn: 0, cubeFrames: [0, 0], handFrames: [0, 0], renderPasses: 0, renderMs: 0 };
  const activeSets = [set];

  const layers: ProjectionLayer[] = [
    {
      type: 'projection',
      space: stage,
      views: [0, 1].map((eye) => ({
        pose: views.subarray(eye * VIEW_FLOATS, eye * VIEW_FLOATS + 7),
        fov: views.subarray(eye * VIEW_FLOATS + 7, (eye + 1) * VIEW_FLOATS),
        swapchain: colour[multiview ? 0 : eye] as Swapchain,
        arrayIndex: multiview ? eye : 0,
        ...(withDepth && { depth: { swapchain: depth[multiview ? 0 : eye] as Swapchain, arrayIndex: multiview ? eye : 0, minDepth: 0, maxDepth: 1, nearZ: NEAR, farZ: FAR } }),
      })),
    },
  ];

  /** Draws vertices [first, first + vertexCount) with `modelMatrix`: for eye `eye`, or (multiview) for both. */
  function drawMesh(cb: CommandBuffer, eye: number, first: number, vertexCount: number, modelMatrix: Float32Array): void {
    if (multiview) {
      cb.pushConstants(layout, VERTEX_STAGE, 0, modelMatrix).draw(vertexCount, 1, first);
      return;
    }
    multiply(push, viewProjection[eye] as Float32Array, modelMatrix);
    push.set(modelMatrix, 16);
    cb.pushConstants(layout, VERTEX_STAGE, 0, push).draw(vertexCount, 1, first);
  }

  /** One render pass into swapchain image set `sc`: eye `eye`'s, or (multiview) both eyes'. */
  function drawPass(cb: CommandBuffer, sc: number, eye: number, slot: Slot): void {
    const framebuffer = ((framebuffers[sc] as Framebuffer[][])[acquired[sc] as number] as Framebuffer[])[acquired[sc + swapchainCount] as number] as Framebuffer;
    cb.beginRenderPass({ renderPass, framebuffer, clearValues }).bindPipeline(pipeline).setViewport(0, 0, size, size).setScissor(0, 0, size, size).bindVertexBuffers(0, buffers);
    if (slot.views !== undefined) cb.bindDescriptorSet(layout, slot.views.set, 0, 'graphics');
    drawMesh(cb, eye, FLOOR_FIRST, FLOOR_COUNT, identity);
    for (let h = 0; h < 2; h++) {
      if (gripValid[h]) {
        poseMatrix(model, grips, h * 7);
        drawMesh(cb, eye, h === 0 ? LEFT_FIRST : RIGHT_FIRST, CUBE_COUNT, model);
      }
      if (handsTracked[h]) {
        const j = joints[h] as Float32Array;
        const flags = jointFlags[h] as Uint32Array;
        for (let k = 0; k < HAND_JOINT_COUNT; k++) {
          const at = k * HAND_JOINT_STRIDE;
          if (((flags[at + HAND_JOINT_FLAGS] as number) & located) !== located) continue;
          poseMatrix(model, j, at + HAND_JOINT_POSITION, j[at + HAND_JOINT_RADIUS] as number, at + HAND_JOINT_ORIENTATION);
          drawMesh(cb, eye, JOINT_FIRST, SPHERE_COUNT, model);
        }
      }
    }
    cb.endRenderPass();
    stats.renderPasses++;
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
    // The slot's uniform buffer is the GPU's no more (its fence signalled): this frame's matrices.
    slot.views?.matrices.set(viewProjection[0] as Float32Array, 0);
    slot.views?.matrices.set(viewProjection[1] as Float32Array, 16);
    for (let sc = 0; sc < swapchainCount; sc++) {
      acquired[sc] = (colour[sc] as Swapchain).acquire();
      acquired[sc + swapchainCount] = (depth[sc] as Swapchain).acquire();
    }
    for (let sc = 0; sc < swapchainCount; sc++) {
      (colour[sc] as Swapchain).wait();
      (depth[sc] as Swapchain).wait();
    }
    const cb = slot.commandBuffer.begin(1);
    if (multiview) drawPass(cb, 0, 0, slot);
    else for (let eye = 0; eye < 2; eye++) drawPass(cb, eye, eye, slot);
    cb.end();
    vulkan.queue.submit(cb, slot.fence);
    slot.submitted = true;
    for (let sc = 0; sc < swapchainCount; sc++) {
      (colour[sc] as Swapchain).release();
      (depth[sc] as Swapchain).release();
    }
    for (let h = 0; h < 2; h++) {
      if (gripValid[h]) stats.cubeFrames[h] = (stats.cubeFrames[h] as number) + 1;
      if (handsTracked[h]) stats.handFrames[h] = (stats.handFrames[h] as number) + 1;
    }
    stats.framesDrawn++;
    stats.renderMs += performance.now() - started;
    return layers;
  }

  return { render, stats, grips, joints, handsTracked, multiview, views, colour, depth: withDepth ? depth : [], stage, finish: () => device.waitIdle() };
}

/** Runs the scene for `seconds` on the runtime XR_RUNTIME_JSON names (default: the simulated one); prints what it did. */
export async function runXrScene(
  seconds: number,
  log: (line: string) => void = console.log,
  hooks: { /** Called at the start of every frame's callback, before the scene draws (a benchmark's probe). */ readonly beforeFrame?: () => void } = {},
): Promise<{ stats: XrSceneStats; frames: number; missed: number; rendered: number; multiview: boolean }> {
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
    // One pass per eye by default; XR_SCENE_MULTIVIEW=1 draws both eyes in one pass where the
    // device has multiview (every Vulkan 1.1 device). That path's pixels are not yet verified on
    // lavapipe (docs/usage.md, 'The XR scene').
    const graphicsOptions = { loader: vulkanLoader, applicationName: 'xr-scene example' };
    let vulkan: VulkanGraphics;
    let multiview = process.env.XR_SCENE_MULTIVIEW === '1';
    try {
      vulkan = instance.createVulkanGraphics(system, multiview ? { ...graphicsOptions, enabledFeatures: { multiview: true } } : graphicsOptions);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError) || error.argument !== 'options.enabledFeatures.multiview') throw error;
      log(`multiview: not available (${error.message}); one pass per eye`);
      vulkan = instance.createVulkanGraphics(system, graphicsOptions);
      multiview = false;
    }
    const session = instance.createSession(system, { graphics: { vulkan } });
    const scene = createXrScene(instance, session, vulkan, { multiview });
    const { beforeFrame } = hooks;
    const loop = await runFrameLoop(session, {
      durationMs: seconds * 1000,
      onFrame: (frame) => {
        beforeFrame?.();
        return scene.render(frame);
      },
    });
    scene.finish();
    const s = scene.stats;
    log(`Vulkan:  ${vulkan.physicalDevice.properties.deviceName}; depth layer ${scene.depth.length > 0 ? 'submitted' : 'not offered by the runtime'}; ${scene.multiview ? 'both eyes in one pass (multiview)' : 'one pass per eye'}`);
    log(`frames:  ${s.framesDrawn} drawn of ${loop.frames}, ${loop.missed} missed`);
    log(`scene:   cubes drawn in ${s.cubeFrames[0]} / ${s.cubeFrames[1]} frames (left / right), hands in ${s.handFrames[0]} / ${s.handFrames[1]}`);
    log(`JS time: ${(s.framesDrawn === 0 ? 0 : s.renderMs / s.framesDrawn).toFixed(3)} ms per frame (render: locate, record, submit, swapchain calls)`);
    session.destroy();
    vulkan.instance.destroy();
    return { stats: s, frames: loop.frames, missed: loop.missed, rendered: loop.rendered, multiview: scene.multiview };
  } finally {
    instance.destroy();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] ?? 5);
  await runXrScene(Number.isFinite(seconds) && seconds > 0 ? seconds : 5);
}
