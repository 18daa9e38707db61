// Every public OpenXR function against bad arguments (NODE-1, NODE-2), property-based (fast-check),
// over the simulated runtime: each call succeeds, or throws TypeError / RangeError / OpenXrError
// (or the application's own error from its throwing proxy or getter) — never a crash, never a
// plain Error from the native side — and every error carries a documented string `code`. Handles destroyed from inside a callback: a getter or
// valueOf that destroys the instance in the middle of a call.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFrameLoop } from '../../lib/openxr/api/frame-loop.js';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import type { Session } from '../../lib/openxr/api/session.js';
import type { Space } from '../../lib/openxr/api/space.js';
import type { System } from '../../lib/openxr/api/system.js';
import { badValue, everyPositionWithCodes as everyPosition, detachedFloat32Array, refusedCleanly, resizableBuffer, sharedView, shrunkResizableView, trackingResizableView } from './bad-values.js';
import { until } from '../helpers/until.js';
import { HAND_JOINT_COUNT, HAND_JOINT_STRIDE } from '../../lib/openxr/api/types.js';

const loader = createLoader({ platform: createLinuxPlatform({ env: { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: '' } }), runtimeExtensions: nativeRuntimeExtensions });
const newInstance = (): Instance => loader.createInstance({ applicationName: 'properties', enabledExtensionNames: ['XR_MND_headless'] });

let instance: Instance;
let system: System;
let session: Session;
let local: Space;
let view: Space;
beforeAll(() => {
  instance = newInstance();
  system = instance.getSystem();
  session = instance.createSession(system);
  local = session.createReferenceSpace('local');
  view = session.createReferenceSpace('view');
});
afterAll(() => instance.destroy());


describe('OpenXR public functions against bad arguments (fast-check)', () => {
  it('NODE-1, NODE-2: createLoader() and loader.createInstance()', () => {
    everyPosition([{ platform: createLinuxPlatform() }], ([o]) => createLoader(o as never).discover());
    everyPosition([{ applicationName: 'ok', enabledExtensionNames: ['XR_MND_headless'] }], ([o]) => loader.createInstance(o as never));
    everyPosition([null], ([name]) => loader.enumerateInstanceExtensionProperties(name as never));
  });

  it('NODE-1, NODE-2: Instance methods', () => {
    everyPosition(['head-mounted-display'], ([f]) => instance.getSystem(f as never));
    everyPosition([system, { headless: true }], ([s, o]) => instance.createSession(s as never, o as never));
    everyPosition(['xrGetSystem'], ([n]) => instance.getInstanceProcAddr(n as never));
    everyPosition(['/user/hand/left'], ([p]) => instance.stringToPath(p as never));
    everyPosition([{ name: 'set', localizedName: 'Set', priority: 0 }], ([o]) => instance.createActionSet(o as never));
    everyPosition(['/interaction_profiles/khr/simple_controller', []], ([p, b]) => instance.suggestBindings(p as never, b as never));
    everyPosition([1, 1, 'message'], ([s, t, m]) => instance.submitDebugUtilsMessage(s as never, t as never, m as never));
  });

  it('NODE-1, NODE-2: System and Session methods', () => {
    everyPosition(['primary-stereo'], ([t]) => system.viewConfigurationViews(t as never));
    everyPosition(['primary-stereo'], ([t]) => system.environmentBlendModes(t as never));
    everyPosition(['local', [0, 0, 0, 0, 0, 0, 1]], ([t, p]) => session.createReferenceSpace(t as never, p as never));
    everyPosition(['primary-stereo'], ([t]) => session.viewCount(t as never));
    everyPosition([local, 1, new Float32Array(64), 'primary-stereo'], ([s, t, o, v]) => session.locateViews(s as never, t as never, o as never, v as never));
    everyPosition(['/user/hand/left'], ([p]) => session.currentInteractionProfile(p as never));
    everyPosition([[]], ([a]) => session.syncActions(a as never));
  });

  it('NODE-1, NODE-2: actions (create, the four state readers, haptics), action spaces, frame queries and hand trackers', () => {
    const own = loader.createInstance({ applicationName: 'properties', enabledExtensionNames: ['XR_MND_headless', 'XR_EXT_hand_tracking'] });
    try {
      const s = own.createSession(own.getSystem());
      const ownLocal = s.createReferenceSpace('local');
      const ownView = s.createReferenceSpace('view');
      const hands = ['/user/hand/left', '/user/hand/right'];
      const set = own.createActionSet({ name: 'props', localizedName: 'Props', priority: 0 });
      everyPosition([{ name: 'made', localizedName: 'Made', type: 'boolean', subactionPaths: hands }], ([o]) => set.createAction(o as never));
      const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean', subactionPaths: hands });
      const value = set.createAction({ name: 'value', localizedName: 'Value', type: 'float', subactionPaths: hands });
      const stick = set.createAction({ name: 'stick', localizedName: 'Stick', type: 'vector2f', subactionPaths: hands });
      const grip = set.createAction({ name: 'grip', localizedName: 'Grip', type: 'pose', subactionPaths: hands });
      const buzz = set.createAction({ name: 'buzz', localizedName: 'Buzz', type: 'vibration', subactionPaths: hands });
      s.attachActionSets([set]);
      everyPosition(['/user/hand/left', s], ([p, ss]) => select.getBoolean(p as never, ss as never));
      everyPosition(['/user/hand/left', s], ([p, ss]) => value.getFloat(p as never, ss as never));
      everyPosition(['/user/hand/left', s], ([p, ss]) => stick.getVector2f(p as never, ss as never));
      everyPosition(['/user/hand/left', s], ([p, ss]) => grip.getPose(p as never, ss as never));
      everyPosition([{ amplitude: 0.5, duration: 1_000_000n }, '/user/hand/left', s], ([v, p, ss]) => buzz.applyHapticFeedback(v as never, p as never, ss as never));
      everyPosition(['/user/hand/left', s], ([p, ss]) => buzz.stopHapticFeedback(p as never, ss as never));
      everyPosition([grip, '/user/hand/left', [0, 0, 0, 0, 0, 0, 1]], ([a, p, pose]) => s.createActionSpace(a as never, p as never, pose as never));
      everyPosition([{ spaces: [[ownView, ownLocal]], views: { space: ownLocal }, actions: [select] }], ([o]) => s.createFrameQuery(o as never));
      const query = s.createFrameQuery({ spaces: [[ownView, ownLocal]], views: { space: ownLocal }, actions: [select, { action: value, subactionPath: '/user/hand/left' }] });
      everyPosition([1, new Float32Array(query.length)], ([t, o]) => query.run(t as never, o as never));
      everyPosition(['left'], ([h]) => s.createHandTracker(h as never));
      const tracker = s.createHandTracker('left');
      everyPosition([ownLocal, 1, new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE)], ([b, t, o]) => tracker.locate(b as never, t as never, o as never));
    } finally {
      own.destroy();
    }
  });

  it('NODE-1, NODE-2: endFrame() given bad options and bad layers in a begun frame; the frame still ends', async () => {
    const own = newInstance();
    try {
      const s = own.createSession(own.getSystem());
      const ownLocal = s.createReferenceSpace('local');
      own.pollEvents();
      s.beginSession();
      const fov = { angleLeft: -0.7, angleRight: 0.7, angleUp: 0.7, angleDown: -0.7 };
      const layer = (field: string, bad: unknown): unknown => {
        const view = { swapchain: {}, pose: [0, 0, 0, 0, 0, 0, 1], fov, [field]: bad };
        return { type: 'projection', space: ownLocal, views: [view, view], ...(field === 'layer' ? { space: bad } : {}) };
      };
      const fields = ['layer', 'swapchain', 'pose', 'fov', 'imageRect', 'arrayIndex', 'depth'];
      /** True when `end` ended the frame; false when it was refused cleanly (refusedCleanly's rules). */
      const ended = (end: () => unknown): boolean => {
        try {
          end();
          return true;
        } catch (e) {
          refusedCleanly(() => {
            throw e;
          });
          return false;
        }
      };
      let frames = 0;
      // The values that once got past the checks come first on every run, then a random sample.
      const fixed: [unknown, string][] = [[null, 'pose'], [7, 'fov'], [null, 'layer'], [{ views: null }, 'depth']];
      for (const [bad, field] of [...fixed, ...fc.sample(fc.tuple(badValue, fc.constantFrom(...fields)), 120)]) {
        const frame = await s.waitFrame();
        s.beginFrame();
        let done = false;
        for (const options of [bad, { layers: bad }, { layers: [bad] }, { layers: [layer(field, bad)] }, { displayTime: bad }, { environmentBlendMode: bad }, { displayTime: frame.predictedDisplayTime, layers: [layer(field, bad)] }]) {
          done = ended(() => s.endFrame(options as never));
          if (done) break;
        }
        // What was refused left the frame open and nothing half-built behind: it ends normally.
        if (!done) s.endFrame();
        frames++;
      }
      expect(frames).toBe(fixed.length + 120);
      // The session still runs frames.
      await s.waitFrame();
      s.beginFrame();
      s.endFrame();
    } finally {
      own.destroy();
    }
  });

  it('NODE-1, NODE-2: runFrameLoop() given bad options: a typed error (a rejected promise), never a crash', async () => {
    const own = newInstance();
    try {
      const s = own.createSession(own.getSystem());
      // Each run ends within 30 ms of frames or at its signal's 300 ms, whichever bad value it is given.
      const good = () => ({ onFrame: () => undefined, durationMs: 30, signal: AbortSignal.timeout(300) });
      const keys = ['onFrame', 'durationMs', 'signal', 'viewConfigurationType', 'timeCalls', 'displayRateHz', 'frameQuery', 'syncActions'];
      let runs = 0;
      for (const [bad, key] of fc.sample(fc.tuple(badValue, fc.constantFrom(...keys)), 60)) {
        for (const options of [bad, { ...good(), [key]: bad }]) {
          try {
            await runFrameLoop(s, options as never);
          } catch (e) {
            refusedCleanly(() => {
              throw e;
            });
          }
        }
        runs++;
      }
      expect(runs).toBe(60);
    } finally {
      own.destroy();
    }
  });

  it('NODE-1, NODE-3: space.locate() with every kind of bad base, time and output buffer', () => {
    everyPosition([local, 1, new Float32Array(7)], ([b, t, o]) => view.locate(b as never, t as never, o as never));
  });

  it('NODE-3: a bound output buffer that is then detached, shrunk or swapped is refused, never written through a stale pointer', () => {
    const out = new Float32Array(7);
    expect(view.locate(local, 1, out)).toBeGreaterThan(0);
    structuredClone(out.buffer, { transfer: [out.buffer] });
    expect(() => view.locate(local, 1, out)).toThrow(TypeError);
    const buffer = resizableBuffer(28, 64);
    const fixed = new Float32Array(buffer, 0, 7);
    expect(view.locate(local, 1, fixed)).toBeGreaterThan(0);
    buffer.resize(8);
    expect(() => view.locate(local, 1, fixed)).toThrow(TypeError);
    for (const o of [trackingResizableView(7), sharedView(7)]) {
      expect(view.locate(local, 1, o)).toBeGreaterThan(0);
      expect(Math.hypot(o[3]!, o[4]!, o[5]!, o[6]!)).toBeCloseTo(1, 4); // a unit quaternion was written
    }
    for (const o of [detachedFloat32Array(7), shrunkResizableView(7)]) expect(() => view.locate(local, 1, o)).toThrow(TypeError);
    const views = new Float32Array(64);
    session.locateViews(local, 1, views);
    structuredClone(views.buffer, { transfer: [views.buffer] });
    expect(() => session.locateViews(local, 1, views)).toThrow(TypeError);
  });
});

describe('OpenXR handles destroyed from inside a callback', () => {
  function destroyedMidCall(call: (own: Instance, destroyer: () => void) => unknown): void {
    const own = newInstance();
    const e = refusedCleanly(() => call(own, () => own.destroy()), true);
    expect(e).toBeUndefined();
    expect(own.isDestroyed).toBe(true);
  }

  it('NODE-1: createSession options whose getter destroys the instance: XR_ERROR_HANDLE_INVALID or TypeError, no crash', () => {
    destroyedMidCall((own, destroy) =>
      own.createSession(own.getSystem(), {
        get headless() {
          destroy();
          return true;
        },
      } as never),
    );
  });

  it('NODE-1: a pose whose element getter destroys the instance under createReferenceSpace()', () => {
    destroyedMidCall((own, destroy) => {
      const s = own.createSession(own.getSystem());
      const pose = [0, 0, 0, 0, 0, 0, 1];
      Object.defineProperty(pose, 6, { get: () => (destroy(), 1) });
      return s.createReferenceSpace('local', pose as never);
    });
  });

  it('NODE-1: action-set options whose getter destroys the instance', () => {
    destroyedMidCall((own, destroy) =>
      own.createActionSet({
        get name() {
          destroy();
          return 'set';
        },
        localizedName: 'Set',
      } as never),
    );
  });

  it('NODE-1, NODE-4: the instance destroyed from a waitFrame continuation and from a debug messenger listener', async () => {
    const own = newInstance();
    const s = own.createSession(own.getSystem());
    s.beginSession();
    const pending = s.waitFrame().then(() => own.destroy());
    await pending;
    expect(own.isDestroyed).toBe(true);
    expect(() => s.beginFrame()).toThrow(OpenXrError);

    const withUtils = loader.createInstance({ applicationName: 'listener', enabledExtensionNames: ['XR_MND_headless', 'XR_EXT_debug_utils'] });
    let heard = 0;
    withUtils.createDebugUtilsMessenger(() => {
      heard++;
      withUtils.destroy();
    });
    withUtils.submitDebugUtilsMessage(0x1000, 0x1, 'destroy me');
    await until('the listener that destroys its instance', () => heard >= 1);
    expect(withUtils.isDestroyed).toBe(true);
  });
});
