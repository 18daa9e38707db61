// XR_EXT_hand_tracking through the typed API on the simulated runtime — the
// scripted hands of native/bundled/simxr/hand_tracking.cc (a 26-joint skeleton held 6 cm behind each
// grip, fingers curling with the squeeze, each hand lost for a second on a schedule) written into
// a caller's Float32Array, and the tracker's lifetime.
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../lib/openxr/api/session.js';
import type { Space } from '../../lib/openxr/api/space.js';
import {
  HAND_JOINT_COUNT,
  HAND_JOINT_FLAGS,
  HAND_JOINT_ORIENTATION,
  HAND_JOINT_POSITION,
  HAND_JOINT_RADIUS,
  HAND_JOINT_STRIDE,
  HAND_JOINTS,
  SpaceLocationFlags,
  type HandJointName,
} from '../../lib/openxr/api/types.js';
import { openXrCommands } from '../../lib/openxr/commands.js';
import { createTestInstance, runUntil, type TestInstance } from './helpers.js';
import { openXrErrorFrom } from '../helpers/errors.js';

const ALL = SpaceLocationFlags.ORIENTATION_VALID | SpaceLocationFlags.POSITION_VALID | SpaceLocationFlags.ORIENTATION_TRACKED | SpaceLocationFlags.POSITION_TRACKED;
const SECOND = 1_000_000_000n;

let opened: TestInstance | undefined;
afterEach(() => {
  opened?.dispose();
  opened = undefined;
});

/** A joint as tracker.locate() leaves it: the runtime's XrHandJointLocationEXT (HAND_JOINT_STRIDE floats), its 64-bit flags read as integers. */
function joint(out: Float32Array, name: HandJointName): { position: [number, number, number]; orientation: number[]; radius: number; flags: number } {
  const o = HAND_JOINTS.indexOf(name) * HAND_JOINT_STRIDE;
  const p = o + HAND_JOINT_POSITION;
  const q = o + HAND_JOINT_ORIENTATION;
  const flags = new Uint32Array(out.buffer, out.byteOffset, out.length);
  expect(flags[o + HAND_JOINT_FLAGS + 1]).toBe(0); // the flags' high 32 bits: no such bits defined
  return { position: [out[p]!, out[p + 1]!, out[p + 2]!], orientation: [out[q]!, out[q + 1]!, out[q + 2]!, out[q + 3]!], radius: out[o + HAND_JOINT_RADIUS]!, flags: flags[o + HAND_JOINT_FLAGS]! };
}
const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** A focused session with hand tracking and a grip pose action on both hands (touch controller bindings). */
async function handsSession(): Promise<{ session: Session; stage: Space; grips: [Space, Space]; base: bigint }> {
  opened = createTestInstance({ extensions: ['XR_MND_headless', 'XR_EXT_hand_tracking'] });
  const instance = opened.instance;
  const set = instance.createActionSet({ name: 'set', localizedName: 'Set' });
  const grip = set.createAction({ name: 'grip', localizedName: 'Grip', type: 'pose', subactionPaths: ['/user/hand/left', '/user/hand/right'] });
  instance.suggestBindings('/interaction_profiles/oculus/touch_controller', [
    { action: grip, path: '/user/hand/left/input/grip/pose' },
    { action: grip, path: '/user/hand/right/input/grip/pose' },
  ]);
  const session = instance.createSession(instance.getSystem(), { headless: true });
  session.attachActionSets([set]);
  await runUntil(session, () => session.state === 'focused');
  const frame = await session.waitFrame();
  session.beginFrame();
  session.syncActions([set]);
  session.endFrame();
  // A time on the scripts' common grid (every 120 s: squeeze 3 s and 4 s, tracking 8 s and 10 s), in the past.
  const base = (frame.predictedDisplayTime / (120n * SECOND)) * 120n * SECOND;
  expect(base).toBeGreaterThan(0n);
  const stage = session.createReferenceSpace('stage');
  return { session, stage, grips: [session.createActionSpace(grip, '/user/hand/left'), session.createActionSpace(grip, '/user/hand/right')], base };
}

describe('hand tracking on the simulated runtime', () => {
  it('NODE-3: tracker.locate writes 26 joints (pose, radius, flags) held at the grip, curling with the squeeze', async () => {
    const { session, stage, grips, base } = await handsSession();
    const hands = [session.createHandTracker('left'), session.createHandTracker('right')];
    const out = new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE);
    const grip = new Float32Array(7);
    for (const [h, tracker] of hands.entries()) {
      expect(tracker.hand).toBe(h === 0 ? 'left' : 'right');
      // At the base time the squeeze is open: the fingers are straight.
      expect(tracker.locate(stage, base, out)).toBe(true);
      for (const name of HAND_JOINTS) {
        const j = joint(out, name);
        expect(j.flags).toBe(ALL);
        expect(j.radius).toBeGreaterThan(0.004);
        expect(Math.hypot(...j.orientation)).toBeCloseTo(1, 5);
      }
      expect(grips[h]!.locate(stage, base, grip) & ALL).toBe(ALL);
      const wrist = joint(out, 'wrist').position;
      expect(distance(wrist, [grip[0]!, grip[1]!, grip[2]!])).toBeCloseTo(0.06, 5);
      // The straight middle finger: 1 cm, then its bones (6.3 + 4.5 + 2.8 + 2 cm) from the wrist.
      const straight = distance(wrist, joint(out, 'middle-tip').position);
      expect(straight).toBeCloseTo(0.166, 4);
      for (const finger of ['thumb', 'index', 'middle', 'ring', 'little'] as const) {
        expect(distance(wrist, joint(out, `${finger}-tip`).position)).toBeGreaterThan(distance(wrist, joint(out, `${finger}-metacarpal`).position));
      }
      // Half a squeeze period later the hand is a fist: the fingertips come back toward the wrist.
      const fist = base + (h === 0 ? 1_500_000_000n : 2_000_000_000n);
      expect(tracker.locate(stage, fist, out)).toBe(true);
      expect(distance(joint(out, 'wrist').position, joint(out, 'middle-tip').position)).toBeLessThan(straight - 0.04);
    }
    // Each hand is lost from tracking on its schedule: no joint is valid then.
    expect(hands[0]!.locate(stage, base + 7n * SECOND + SECOND / 2n, out)).toBe(false);
    expect(joint(out, 'palm').flags).toBe(0);
    expect(joint(out, 'index-tip').radius).toBe(0);
    expect(hands[1]!.locate(stage, base + 7n * SECOND + SECOND / 2n, out)).toBe(true);
    expect(hands[1]!.locate(stage, base + 9n * SECOND + SECOND / 2n, out)).toBe(false);
  });

  it('NODE-3: tracker.locate leaves the runtime\'s own XrHandJointLocationEXT array in out: every joint equal bit for bit to the same call through the generated xrLocateHandJointsEXT', async () => {
    const { session, stage, base } = await handsSession();
    const tracker = session.createHandTracker('right');
    // Inside a larger buffer, 8 bytes in: the joints start where out starts, and nothing past them is touched.
    const buffer = new ArrayBuffer(8 + 4 * (HAND_JOINT_COUNT * HAND_JOINT_STRIDE + 2));
    const out = new Float32Array(buffer, 8, HAND_JOINT_COUNT * HAND_JOINT_STRIDE + 2);
    const around = new Float32Array(buffer);
    around.fill(-7);
    const flags = new Uint32Array(buffer, 8);
    const xr = openXrCommands(session.instance);
    for (const time of [base, base + 2_000_000_000n]) {
      expect(tracker.locate(stage, time, out)).toBe(true);
      const { locations } = xr.xrLocateHandJointsEXT(tracker.handle, { baseSpace: stage.handle, time }, { jointLocations: HAND_JOINT_COUNT });
      expect(locations.isActive).toBe(true);
      expect(locations.jointLocations).toHaveLength(HAND_JOINT_COUNT);
      for (const [j, location] of locations.jointLocations.entries()) {
        const o = j * HAND_JOINT_STRIDE;
        expect(BigInt(flags[o + HAND_JOINT_FLAGS]!) | (BigInt(flags[o + HAND_JOINT_FLAGS + 1]!) << 32n)).toBe(location.locationFlags);
        const { orientation: q, position: p } = location.pose;
        expect([...out.subarray(o + HAND_JOINT_ORIENTATION, o + HAND_JOINT_ORIENTATION + 4)]).toEqual([q.x, q.y, q.z, q.w]);
        expect([...out.subarray(o + HAND_JOINT_POSITION, o + HAND_JOINT_POSITION + 3)]).toEqual([p.x, p.y, p.z]);
        expect(out[o + HAND_JOINT_RADIUS]).toBe(location.radius);
      }
      expect([around[0], around[1], around.at(-2), around.at(-1)]).toEqual([-7, -7, -7, -7]);
    }
    // The runtime writes 64-bit flags: out must start at a multiple of 8 bytes.
    const misaligned = new Float32Array(buffer, 4, HAND_JOINT_COUNT * HAND_JOINT_STRIDE);
    expect(() => tracker.locate(stage, base, misaligned)).toThrow(/out must start at a multiple of 8 bytes .*got byteOffset 4/);
  });

  it('NODE-3: locate allocates nothing per call once bound (100,000 calls)', async () => {
    const { session, stage, base } = await handsSession();
    const tracker = session.createHandTracker('right');
    const out = new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE);
    const run = (n: number) => {
      let active = 0;
      for (let i = 0; i < n; i++) if (tracker.locate(stage, base, out)) active++;
      return active;
    };
    run(20_000);
    const before = process.memoryUsage().heapUsed;
    expect(run(100_000)).toBe(100_000);
    // Without a collection in between every allocated byte would show: 16 bytes a call would be 1.6 MB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(512 * 1024);
  });

  it('NODE-1 NODE-2: misuse is typed: no extension, a bad hand or array, destroyed trackers and sessions', async () => {
    opened = createTestInstance();
    const plain = opened.instance.createSession(opened.instance.getSystem(), { headless: true });
    expect(openXrErrorFrom(() => plain.createHandTracker('left')).result).toBe('XR_ERROR_FUNCTION_UNSUPPORTED');
    opened.dispose();

    const { session, stage, base } = await handsSession();
    expect(() => session.createHandTracker('middle' as never)).toThrow(TypeError);
    const tracker = session.createHandTracker('left');
    expect(typeof tracker.handle).toBe('bigint');
    expect(() => tracker.locate(stage, base, new Float32Array(259))).toThrow(TypeError);
    expect(() => tracker.locate(stage, base, new Float64Array(260) as never)).toThrow(TypeError);
    expect(() => tracker.locate({} as Space, base, new Float32Array(260))).toThrow(TypeError);
    const out = new Float32Array(260);
    expect(() => tracker.locate(stage, 'now' as never, out)).toThrow(TypeError);
    expect(openXrErrorFrom(() => tracker.locate(stage, 0n, out)).result).toBe('XR_ERROR_TIME_INVALID');
    tracker.destroy();
    expect(tracker.isDestroyed).toBe(true);
    expect(openXrErrorFrom(() => tracker.locate(stage, base, out)).result).toBe('XR_ERROR_HANDLE_INVALID');
    expect(openXrErrorFrom(() => tracker.handle).result).toBe('XR_ERROR_HANDLE_INVALID');
    tracker.destroy(); // nothing

    const other = session.createHandTracker('right');
    expect(other.locate(stage, base, out)).toBe(true);
    stage.destroy();
    expect(openXrErrorFrom(() => other.locate(stage, base, out)).result).toBe('XR_ERROR_HANDLE_INVALID');
    session.destroy(); // destroys its trackers with it
    expect(other.isDestroyed).toBe(true);
    expect(openXrErrorFrom(() => other.locate(stage, base, out)).result).toBe('XR_ERROR_HANDLE_INVALID');
    other.destroy();
  });
});
