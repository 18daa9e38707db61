// The test runtime's frame loop (test/native/openxr_test_runtime, docs/testing.md, "The OpenXR test
// runtime"): the session lifecycle through xrPollEvent, xrWaitFrame pacing at 90 Hz, xrBeginFrame /
// xrEndFrame, two eyes at fixed poses and actions with constant states, so runFrameLoop and the
// paced bench (`bench openxr --command paced --runtime <its manifest>`) run on it.
import { afterEach, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { runFrameLoop } from '../../lib/openxr/api/frame-loop.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import { HAND_JOINT_COUNT, HAND_JOINT_FLAGS, HAND_JOINT_ORIENTATION, HAND_JOINT_POSITION, HAND_JOINT_RADIUS, HAND_JOINT_STRIDE, SpaceLocationFlags } from '../../lib/openxr/api/types.js';
import { openXrErrorFrom } from '../helpers/errors.js';
import { runtimeManifest } from './helpers.js';

let instance: Instance | undefined;
afterEach(() => {
  if (instance !== undefined && !instance.isDestroyed) instance.destroy();
  instance = undefined;
});

describe('the OpenXR test runtime runs a frame loop', () => {
  it('XRTESTRT: runFrameLoop on the test runtime: paced by its xrWaitFrame at 90 Hz, idle → ready → synchronized → visible → focused, then stopping → idle → exiting; the wait thread reads its fixed poses, eyes and constant action states', async () => {
    const env = { ...process.env, XR_RUNTIME_JSON: runtimeManifest(), XR_API_LAYER_PATH: '' };
    const loader = createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions });
    instance = loader.createInstance({ applicationName: 'test runtime frame loop', enabledExtensionNames: ['XR_MND_headless'] });
    const hands = ['/user/hand/left', '/user/hand/right'];
    const set = instance.createActionSet({ name: 'play', localizedName: 'Play' });
    const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean', subactionPaths: hands });
    const trigger = set.createAction({ name: 'trigger', localizedName: 'Trigger', type: 'float', subactionPaths: hands });
    instance.suggestBindings('/interaction_profiles/khr/simple_controller', [
      { action: select, path: '/user/hand/left/input/select/click' },
      { action: trigger, path: '/user/hand/right/input/select/click' },
    ]);
    const session = instance.createSession(instance.getSystem(), { headless: true });
    session.attachActionSets([set]);
    const states: string[] = [];
    session.on('stateChanged', (state: string) => states.push(state));
    const local = session.createReferenceSpace('local');
    const head = session.createReferenceSpace('view', [0.5, 0, -1, 0, 0, 0, 1]);
    const query = session.createFrameQuery({
      spaces: [[head, local]],
      views: { space: local },
      actions: [
        { action: select, subactionPath: '/user/hand/left' },
        { action: trigger, subactionPath: '/user/hand/right' },
      ],
    });
    const displayTimes: bigint[] = [];
    const stats = await runFrameLoop(session, {
      durationMs: 600,
      frameQuery: query,
      syncActions: [set],
      onFrame(frame) {
        displayTimes.push(frame.predictedDisplayTime);
      },
    });
    expect(stats.mode).toMatchObject({ pacing: 'runtime', frameTimes: 'wait-frame', beginEndFrame: true, displayRateSource: 'wait-frame' });
    expect(stats.mode?.displayRateHz).toBeCloseTo(90, 3);
    // 600 ms at 90 Hz: 54 frames; a loaded machine misses some, but the loop never spins.
    expect(stats.frames).toBeGreaterThan(20);
    expect(stats.frames).toBeLessThan(70);
    expect(stats.frameQueryRuns).toEqual({ waitThread: stats.frames, javaScriptThread: 0 });
    // Display times on the runtime's 90 Hz grid, one period or more apart.
    const period = 1_000_000_000n / 90n;
    for (let i = 1; i < displayTimes.length; i++) expect((displayTimes[i]! - displayTimes[i - 1]!) % period).toBe(0n);
    expect(states).toEqual(['idle', 'ready', 'synchronized', 'visible', 'focused', 'visible', 'synchronized', 'stopping', 'idle', 'exiting']);
    const out = query.out;
    // The head: 1.6 m up, at its pose in the view space; flags all valid and tracked (15).
    expect(Array.from(out.subarray(query.spaceOffset(0), query.spaceOffset(0) + 8))).toEqual([0.5, Math.fround(1.6), -1, 0, 0, 0, 1, 15]);
    // The left eye 32 mm left of the head, 1.6 m up.
    expect(out[query.viewOffset(0)]).toBeCloseTo(-0.032, 6);
    expect(out[query.viewOffset(0) + 1]).toBeCloseTo(1.6, 6);
    // select: true and active; trigger: 0.25 and active (synced on the wait thread while focused).
    expect(Array.from(out.subarray(query.actionOffset(0), query.actionOffset(0) + 4))).toEqual([1, 0, 0, 1]);
    expect(Array.from(out.subarray(query.actionOffset(1), query.actionOffset(1) + 4))).toEqual([0.25, 0, 0, 1]);
  });

  it('XRTESTRT: XR_EXT_hand_tracking on the test runtime: 26 tracked joints a centimetre apart at fixed poses relative to the base; a session without the extension gets no tracker', () => {
    const env = { ...process.env, XR_RUNTIME_JSON: runtimeManifest(), XR_API_LAYER_PATH: '' };
    const loader = createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions });
    expect(loader.enumerateInstanceExtensionProperties().map((e) => e.name)).toContain('XR_EXT_hand_tracking');
    instance = loader.createInstance({ applicationName: 'test runtime hands', enabledExtensionNames: ['XR_MND_headless', 'XR_EXT_hand_tracking'] });
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view'); // 1.6 m up
    const all = SpaceLocationFlags.ORIENTATION_VALID | SpaceLocationFlags.POSITION_VALID | SpaceLocationFlags.ORIENTATION_TRACKED | SpaceLocationFlags.POSITION_TRACKED;
    const out = new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE);
    const flags = new Uint32Array(out.buffer);
    for (const [hand, x] of [['left', -0.2], ['right', 0.2]] as const) {
      const tracker = session.createHandTracker(hand);
      const f = Math.fround;
      // The runtime's float arithmetic: joint j at (x, 1.2 + 0.01 j, -0.3) minus the base's position (VIEW: 1.6 m up).
      for (const [base, baseY] of [[local, 0], [view, f(1.6)]] as const) {
        expect(tracker.locate(base, 1_000_000_000, out)).toBe(true);
        for (let j = 0; j < HAND_JOINT_COUNT; j++) {
          const o = j * HAND_JOINT_STRIDE;
          expect(flags[o + HAND_JOINT_FLAGS]).toBe(all);
          expect([...out.subarray(o + HAND_JOINT_ORIENTATION, o + HAND_JOINT_ORIENTATION + 4)]).toEqual([0, 0, 0, 1]);
          const p = o + HAND_JOINT_POSITION;
          expect([out[p], out[p + 1], out[p + 2]]).toEqual([f(x), f(f(f(1.2) + f(f(0.01) * j)) - baseY), f(-0.3)]);
          expect(out[o + HAND_JOINT_RADIUS]).toBe(Math.fround(0.01));
        }
      }
      expect(openXrErrorFrom(() => tracker.locate(local, 0, out)).result).toBe('XR_ERROR_TIME_INVALID');
      tracker.destroy();
    }
    instance.destroy();
    instance = loader.createInstance({ applicationName: 'test runtime no hands', enabledExtensionNames: ['XR_MND_headless'] });
    const plain = instance.createSession(instance.getSystem(), { headless: true });
    expect(openXrErrorFrom(() => plain.createHandTracker('left')).result).toBe('XR_ERROR_FUNCTION_UNSUPPORTED');
  });
});
