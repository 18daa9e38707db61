// The XR scene example (examples/xr-scene.ts) on the simulated runtime with lavapipe and
// VK_LAYER_KHRONOS_validation (when installed): the runtime reads each submitted eye back on a
// 32 × 32 grid (SIMXR_READBACK_GRID), colour and depth, and each grid texel is checked against what
// the geometry predicts there — computed here from the view poses and fields of view and the grip
// poses the runtime reported for the frame, by casting the texel's ray at the cubes and the floor,
// independently of the shaders: a cube's texels in the cube's colour with the depth of its nearest
// face, the floor's in grey, the background elsewhere (depth 1).
import { describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { drainSubmittedPixels, type SubmittedPixel } from '../../lib/openxr/simulated-runtime.js';
import { VIEW_FLOATS } from '../../lib/openxr/api/types.js';
import { createLoader as createVulkanLoader } from '../../lib/vulkan/loader.js';
import { createXrScene, CUBE_HALF, FAR, NEAR, BACKGROUND } from '../../examples/xr-scene.js';
import { missingSystemComponent } from '../helpers/system.js';
import { createTestInstance, runUntil } from './helpers.js';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const missing = missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE] });
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const SIZE = 64;
const GRID = 32;
const FRAMES = 6;

type Vec3 = [number, number, number];

/** Rotates v by the unit quaternion q = [x, y, z, w]. */
function rotate(q: readonly number[], v: Vec3): Vec3 {
  const [x, y, z, w] = q as [number, number, number, number];
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}
const conjugate = (q: readonly number[]): number[] => [-(q[0] as number), -(q[1] as number), -(q[2] as number), q[3] as number];

/** The ray parameter where origin + t·dir enters the cube of half edge `half` at `pose` (7 floats), or Infinity. */
function hitCube(pose: Float32Array, at: number, half: number, origin: Vec3, dir: Vec3): number {
  const q = conjugate([...pose.subarray(at + 3, at + 7)]);
  const o = rotate(q, [origin[0] - (pose[at] as number), origin[1] - (pose[at + 1] as number), origin[2] - (pose[at + 2] as number)]);
  const d = rotate(q, dir);
  let near = -Infinity;
  let far = Infinity;
  for (let i = 0; i < 3; i++) {
    if (Math.abs(d[i] as number) < 1e-12) {
      if (Math.abs(o[i] as number) > half) return Infinity;
      continue;
    }
    const a = (-half - (o[i] as number)) / (d[i] as number);
    const b = (half - (o[i] as number)) / (d[i] as number);
    near = Math.max(near, Math.min(a, b));
    far = Math.min(far, Math.max(a, b));
  }
  return near <= far && near > 0 ? near : Infinity;
}

const srgb = (c: number): number => Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));

interface Prediction {
  readonly kind: 'cube-left' | 'cube-right' | 'floor' | 'background' | 'edge';
  /** The depth value the eye's projection gives the hit (1 for the background). */
  readonly depth: number;
}

/**
 * What texel (x, y) of eye `eye` shows: the ray through the texel's centre, in STAGE space, cast at
 * the two cubes and the floor. Texels whose ray passes within 15 % of a cube's edge (hit by the
 * cube grown, missed by the cube shrunk) are 'edge' and not checked.
 */
function predict(views: Float32Array, grips: Float32Array, eye: number, x: number, y: number): Prediction {
  const at = eye * VIEW_FLOATS;
  const tanL = Math.tan(views[at + 7] as number);
  const tanR = Math.tan(views[at + 8] as number);
  const tanU = Math.tan(views[at + 9] as number);
  const tanD = Math.tan(views[at + 10] as number);
  const tx = tanL + ((x + 0.5) / SIZE) * (tanR - tanL);
  const ty = tanU + ((y + 0.5) / SIZE) * (tanD - tanU); // rows run downwards
  const q = [...views.subarray(at + 3, at + 7)];
  const origin: Vec3 = [views[at] as number, views[at + 1] as number, views[at + 2] as number];
  const dir = rotate(q, [tx, ty, -1]); // t along it is the distance in front of the eye
  const depthOf = (t: number): number => (FAR / (FAR - NEAR)) * (1 - NEAR / t);
  let best: Prediction = { kind: 'background', depth: 1 };
  let bestT = Infinity;
  for (let h = 0; h < 2; h++) {
    if (grips[h * 7 + 6] === 0 && grips[h * 7 + 3] === 0) continue; // not located: not drawn
    const t = hitCube(grips, h * 7, CUBE_HALF * 0.85, origin, dir);
    const grown = hitCube(grips, h * 7, CUBE_HALF * 1.15, origin, dir);
    if (t < bestT) {
      bestT = hitCube(grips, h * 7, CUBE_HALF, origin, dir);
      best = { kind: h === 0 ? 'cube-left' : 'cube-right', depth: depthOf(bestT) };
    } else if (grown < bestT) {
      bestT = grown;
      best = { kind: 'edge', depth: 0 };
    }
  }
  if (dir[1] < 0) {
    const t = -origin[1] / dir[1];
    const px = origin[0] + t * dir[0];
    const pz = origin[2] + t * dir[2];
    // The floor is 8 m × 8 m around the origin; its border is not checked.
    const extent = Math.max(Math.abs(px), Math.abs(pz));
    if (t < bestT && extent < 3.95) return { kind: 'floor', depth: depthOf(t) };
    if (t < bestT && extent < 4.05) return { kind: 'edge', depth: 0 };
  }
  return best;
}

describe.skipIf(missing !== null)('the XR scene example (simulated runtime, lavapipe)', () => {
  it('XRDEPTH: each eye\'s cubes cover the texels their projection predicts, in their colour and at their depth; the floor and the background elsewhere; validation silent', async () => {
    const previous = process.env.SIMXR_READBACK_GRID;
    process.env.SIMXR_READBACK_GRID = `${GRID}x${GRID}`;
    let t: ReturnType<typeof createTestInstance>;
    try {
      t = createTestInstance({ extensions: ['XR_KHR_vulkan_enable2', 'XR_KHR_composition_layer_depth'] });
    } finally {
      if (previous === undefined) delete process.env.SIMXR_READBACK_GRID;
      else process.env.SIMXR_READBACK_GRID = previous;
    }
    const system = t.instance.getSystem();
    const loader = createVulkanLoader({ platform: createLinuxPlatform({ env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE } }) });
    const layers = loader.enumerateInstanceLayerProperties().some((l) => l.layerName === VALIDATION) ? [VALIDATION] : [];
    const graphics = t.instance.createVulkanGraphics(system, { loader, applicationName: 'xr scene test', enabledLayerNames: layers, enabledExtensionNames: ['VK_EXT_debug_utils'] });
    graphics.instance.startDebugMessenger();
    try {
      const session = t.instance.createSession(system, { graphics: { vulkan: graphics } });
      const scene = createXrScene(t.instance, session, graphics, { size: SIZE });
      await runUntil(session, () => session.state === 'focused');
      drainSubmittedPixels(session);
      const counts = { cube: 0, floor: 0, background: 0 };
      for (let n = 0; n < FRAMES; n++) {
        const frame = await session.waitFrame();
        session.beginFrame();
        session.endFrame({ layers: scene.render(frame) });
        graphics.device.waitIdle();
        const pixels = drainSubmittedPixels(session);
        // Per eye: its colour grid, then its depth grid.
        expect(pixels.length).toBe(2 * 2 * GRID * GRID);
        for (let eye = 0; eye < 2; eye++) {
          const colour = pixels.slice(eye * 2 * GRID * GRID, (eye * 2 + 1) * GRID * GRID);
          const depth = pixels.slice((eye * 2 + 1) * GRID * GRID, (eye * 2 + 2) * GRID * GRID);
          expect(colour.every((p) => p.aspect === 'color' && p.viewIndex === eye)).toBe(true);
          expect(depth.every((p) => p.aspect === 'depth' && p.viewIndex === eye)).toBe(true);
          for (let i = 0; i < GRID * GRID; i++) {
            const c = colour[i] as SubmittedPixel;
            const d = depth[i] as SubmittedPixel;
            expect([d.x, d.y]).toEqual([c.x, c.y]);
            const p = predict(scene.views, scene.grips, eye, c.x, c.y);
            const [r, g, b] = c.format === 44 || c.format === 50 ? [c.bytes[2], c.bytes[1], c.bytes[0]] : [c.bytes[0], c.bytes[1], c.bytes[2]];
            const where = `frame ${n} eye ${eye} texel (${c.x}, ${c.y}) predicted ${p.kind}: rgb ${r} ${g} ${b}, depth ${d.depth}`;
            if (p.kind === 'edge') continue;
            if (p.kind === 'background') {
              const srgbFormat = c.format === 43 || c.format === 50;
              const want = BACKGROUND.slice(0, 3).map((v) => (srgbFormat ? srgb(v) : Math.round(v * 255)));
              expect([r, g, b], where).toEqual(want);
              expect(d.depth, where).toBe(1);
              counts.background++;
              continue;
            }
            expect(Math.abs((d.depth as number) - p.depth), where).toBeLessThan(1e-4);
            if (p.kind === 'floor') {
              expect(Math.max(r!, g!, b!) - Math.min(r!, g!, b!), where).toBeLessThanOrEqual(24); // grey
              counts.floor++;
            } else {
              // Lit, so not the exact base colour: its dominant channel (left red, right blue).
              if (p.kind === 'cube-left') expect(r! > g! && r! > b!, where).toBe(true);
              else expect(b! > r! && b! > g!, where).toBe(true);
              counts.cube++;
            }
          }
        }
      }
      process.stderr.write(`xr-scene: ${counts.cube} cube, ${counts.floor} floor, ${counts.background} background texels checked over ${FRAMES} frames; validation ${layers.length > 0 ? 'on' : 'not installed'}\n`);
      // The check saw all three kinds (the scripted controllers are in view).
      expect(counts.cube).toBeGreaterThan(10);
      expect(counts.floor).toBeGreaterThan(100);
      expect(counts.background).toBeGreaterThan(100);
      const messages = graphics.instance.takeDebugMessages().filter((m) => (m.severity & 0x1100) !== 0);
      expect(messages.map((m) => `${m.messageIdName}: ${m.message}`)).toEqual([]);
      scene.finish();
      session.destroy();
    } finally {
      graphics.device.waitIdle();
      t.dispose();
      if (!graphics.instance.isDestroyed) graphics.instance.destroy();
    }
  }, 120_000);
});
