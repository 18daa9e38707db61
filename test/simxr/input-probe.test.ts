// The simulated runtime's controllers, haptics record and XR_EXT_hand_tracking driven
// through the real Debian Khronos loader (OpenXR 1.0.20) by test/native/simxr_probe's 'input'
// scenario: a C application with the system headers, as a real one is written. System test:
// skipped with a reason when the loader or the probe is missing, unless
// KHRONOS_LOADER_SYSTEM_TESTS=required.
import { describe, expect, it } from 'vitest';
import { probeUnavailable, runProbe, XR } from './probe.js';

const skip = probeUnavailable();
const phase = (t: number, periodMs: number) => (t % (periodMs * 1e6)) / (periodMs * 1e6);

const rightHandTracked = (t: number) => phase(t, 10_000) < 0.9;
// The runtime's joint velocities are a central difference over ±0.5 ms: unknown (flags and speed
// 0) when the hand is lost at either end, though tracked at t.
const velocityKnown = (t: number) => rightHandTracked(t - 500_000) && rightHandTracked(t + 500_000);
function expectTipVelocity(t: number, velocityFlags: number, speed: number): void {
  if (velocityKnown(t)) {
    expect(velocityFlags).toBe(1); // XR_SPACE_VELOCITY_LINEAR_VALID_BIT
    expect(speed).toBeGreaterThan(0); // the hand follows the moving grip
  } else {
    expect([velocityFlags, speed]).toEqual([0, 0]);
  }
}

describe.skipIf(skip !== null)('simulated runtime input through the Khronos loader', () => {
  it('index controller trackpad and squeeze as scripted, haptics read back by name, hand joints with velocities', () => {
    const r = runProbe('input', { args: ['--frames', '300'], env: { SIMXR_CONTROLLER: 'index' } }).result;
    expect(r.createInstance).toBe(XR.SUCCESS);
    expect(r.supportsHandTracking).toBe(true);
    expect(r.suggest).toBe(XR.SUCCESS);
    expect(r.attach).toBe(XR.SUCCESS);
    expect(r.profile).toBe('/interaction_profiles/valve/index_controller');
    expect(r.getCreateHandTracker).toBe(XR.SUCCESS);
    expect(r.getDrain).toBe(XR.SUCCESS); // the loader forwards the runtime's own command by name
    expect(r.createHandTracker).toBe(XR.SUCCESS);
    expect(r.createHandTrackerBadHand).toBe(XR.ERROR_VALIDATION_FAILURE);
    expect(r.focused).toBe(true);
    const samples = r.samples as [number, boolean, number, number, boolean, number, number, boolean, number, number, number, number][];
    expect(samples).toHaveLength(300);
    let touched = 0;
    let tracked = 0;
    for (const [t, padActive, x, y, , force, located, handActive, tipFlags, tipRadius, velocityFlags, speed] of samples) {
      expect(padActive).toBe(true);
      // The left trackpad: touched in [0, 2.5) s of every 5 s, the finger circling at radius 0.5.
      const p = phase(t, 5000);
      if (p < 0.5) {
        touched++;
        expect(x).toBeCloseTo(-0.5 * Math.cos(2 * Math.PI * p), 4);
        expect(y).toBeCloseTo(0.5 * Math.sin(2 * Math.PI * p), 4);
      } else {
        expect([x, y]).toEqual([0, 0]);
      }
      const squeeze = 0.5 - 0.5 * Math.cos(2 * Math.PI * phase(t, 3000));
      expect(force).toBeCloseTo(Math.max(0, (squeeze - 0.5) * 2), 4);
      // The right hand: lost in [9, 10) s of every 10 s; tracked, every joint valid with a velocity
      // (but within 0.5 ms of an edge of tracking: velocityKnown).
      expect(located).toBe(XR.SUCCESS);
      expect(handActive).toBe(rightHandTracked(t));
      if (handActive) {
        tracked++;
        expect(tipFlags).toBe(15);
        expect(tipRadius).toBeGreaterThan(0.005);
        expectTipVelocity(t, velocityFlags, speed);
      } else {
        expect([tipFlags, tipRadius, velocityFlags]).toEqual([0, 0, 0]);
      }
    }
    expect(touched + tracked).toBeGreaterThan(0);
    // Around the loss window after the frames: 1 ms and 0.25 ms before it, 0.25 ms and 1 ms after.
    const edges = r.velocityEdges as [number, boolean, number, number][];
    expect(edges.map(([t, active, flags]) => [phase(t, 10_000), active, flags])).toEqual([
      [expect.closeTo(0.9 - 1e-4, 9), true, 1],
      [expect.closeTo(0.9 - 2.5e-5, 9), true, 0],
      [expect.closeTo(2.5e-5, 9), true, 0],
      [expect.closeTo(1e-4, 9), true, 1],
    ]);
    for (const [t, , flags, speed] of edges) expectTipVelocity(t, flags, speed);
    // One xrApplyHapticFeedback without a subaction path reached both bound outputs.
    expect(r.drainCount).toBe(XR.SUCCESS);
    expect(r.drain).toBe(XR.SUCCESS);
    expect(r.applyHaptic).toBe(XR.SUCCESS);
    expect(r.haptics).toEqual(
      ['/user/hand/left/output/haptic', '/user/hand/right/output/haptic'].map((source) => [r.hapticTime, source, 5_000_000, 200, 0.25, false, true]),
    );
    expect(r.locateWrongCount).toBe(XR.ERROR_VALIDATION_FAILURE);
    expect(r.destroyHandTracker).toBe(XR.SUCCESS);
    expect(r.locateDestroyed).toBe(XR.ERROR_HANDLE_INVALID);
  });
});
