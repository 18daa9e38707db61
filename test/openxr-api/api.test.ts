// The typed OpenXR API over the simulated runtime: lifecycle, events, frame loop, spaces,
// destroyed-handle errors, argument errors, actions (NODE-1..4).
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { Session } from '../../lib/openxr/api/session.js';
import { SpaceLocationFlags, VIEW_FLOATS } from '../../lib/openxr/api/types.js';
import { createTestInstance, runUntil, type TestInstance } from './helpers.js';
import { openXrErrorFrom } from '../helpers/errors.js';

let current: TestInstance | undefined;
afterEach(() => {
  current?.dispose();
  current = undefined;
});
function setup(options?: Parameters<typeof createTestInstance>[0]): TestInstance {
  current = createTestInstance(options);
  return current;
}


const ALL_VALID = SpaceLocationFlags.ORIENTATION_VALID | SpaceLocationFlags.POSITION_VALID;

describe('session lifecycle and events', () => {
  it('NODE-1: a session goes idle → ready → synchronized → visible → focused, and back to exiting; each state is a stateChanged event', async () => {
    const { instance } = setup({ passthroughLayers: 1 });
    const system = instance.getSystem('head-mounted-display');
    expect(system.getProperties().systemName).toBe('khronos-loader simulated HMD');
    expect(system.viewConfigurations()).toEqual(['primary-stereo']);
    const session = instance.createSession(system, { headless: true });
    const seen: string[] = [];
    session.on('stateChanged', (state) => seen.push(state));
    const events = instance.pollEvents();
    expect(events.map((e) => e.type)).toEqual(['sessionStateChanged', 'sessionStateChanged']);
    expect(events[0]).toMatchObject({ session, state: 'idle' });
    expect(session.state).toBe('ready');
    await runUntil(session, () => session.state === 'focused');
    session.requestExit();
    await runUntil(session, () => session.state === 'stopping');
    session.endSession();
    instance.pollEvents();
    expect(session.state).toBe('exiting');
    expect(seen).toEqual(['idle', 'ready', 'synchronized', 'visible', 'focused', 'visible', 'synchronized', 'stopping', 'idle', 'exiting']);
    session.destroy();
    expect(session.isDestroyed).toBe(true);
  });

  it('NODE-4: events() is an async iterator over the same events', async () => {
    const { instance } = setup();
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const states: string[] = [];
    const controller = new AbortController();
    for await (const e of instance.events({ signal: controller.signal, intervalMs: 1 })) {
      if (e.type === 'sessionStateChanged') states.push(e.state);
      if (states.length === 2) controller.abort();
    }
    expect(states).toEqual(['idle', 'ready']);
    expect(session.state).toBe('ready');
  });

  it('NODE-2: a session without XR_MND_headless fails with the XrResult and says what to enable', () => {
    const { instance } = setup({ headless: false });
    const e = openXrErrorFrom(() => instance.createSession(instance.getSystem(), { headless: true }));
    expect(e.result).toBe('XR_ERROR_GRAPHICS_DEVICE_INVALID');
    expect(e.message).toMatch(/XR_MND_headless/);
  });

  it('NODE-2: runtime failures carry the result name and code (endSession before stopping)', () => {
    const { instance } = setup();
    const session = instance.createSession(instance.getSystem(), { headless: true });
    instance.pollEvents();
    session.beginSession();
    const e = openXrErrorFrom(() => session.endSession());
    expect([e.result, e.resultValue]).toEqual(['XR_ERROR_SESSION_NOT_STOPPING', -29]);
    const order = openXrErrorFrom(() => session.beginFrame());
    expect(order.result).toBe('XR_ERROR_CALL_ORDER_INVALID');
  });
});

describe('frame loop', () => {
  it('NODE-4: waitFrame resolves off the JavaScript thread: timers keep running while it waits', async () => {
    const { instance } = setup();
    const session = instance.createSession(instance.getSystem(), { headless: true });
    instance.pollEvents();
    session.beginSession();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    let last = 0n;
    for (let i = 0; i < 20; i++) {
      const frame = await session.waitFrame();
      expect(frame.predictedDisplayTime).toBeGreaterThan(last);
      expect(frame.predictedDisplayPeriod).toBe(11_111_111);
      last = frame.predictedDisplayTime;
      session.beginFrame();
      session.endFrame();
    }
    clearInterval(timer);
    // 20 frames at 90 Hz are ~220 ms: a blocked loop would see no ticks at all. The 1 ms timer's
    // rate depends on the machine's load; more than a handful of ticks is what shows it ran.
    expect(ticks).toBeGreaterThan(5);
  });

  it('NODE-3: waitFrame answers with the same reused object; a second pending wait is a call-order error', async () => {
    const { instance } = setup();
    const session = instance.createSession(instance.getSystem(), { headless: true });
    instance.pollEvents();
    session.beginSession();
    const a = await session.waitFrame();
    session.beginFrame();
    session.endFrame();
    const pending = session.waitFrame();
    await expect(session.waitFrame()).rejects.toMatchObject({ result: 'XR_ERROR_CALL_ORDER_INVALID' });
    const b = await pending;
    expect(b).toBe(a);
    // A synchronous wait before the waited frame is begun would block forever: refused.
    expect(() => session.waitFrameSync()).toThrow(/block forever/);
    session.beginFrame();
    session.endFrame();
    const c = session.waitFrameSync(); // the next frame, synchronously
    expect(c).toBe(a);
    session.beginFrame();
    session.endFrame();
  });

  it('NODE-3: locate and locateViews write into the caller\'s arrays', async () => {
    const { instance } = setup({ passthroughLayers: 1 });
    const session = instance.createSession(instance.getSystem(), { headless: true });
    await runUntil(session, () => session.state === 'focused');
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const frame = await session.waitFrame();
    session.beginFrame();
    const out = new Float32Array(7);
    expect(view.locate(local, frame.predictedDisplayTime, out) & ALL_VALID).toBe(ALL_VALID);
    const q = Math.hypot(out[3]!, out[4]!, out[5]!, out[6]!);
    expect(q).toBeCloseTo(1, 4);
    const views = new Float32Array(2 * VIEW_FLOATS);
    expect(session.locateViews(local, frame.predictedDisplayTime, views) & ALL_VALID).toBe(ALL_VALID);
    // Two eyes 63 mm apart, each with a 90° symmetric field of view.
    const eyeDistance = Math.hypot(views[0]! - views[11]!, views[1]! - views[12]!, views[2]! - views[13]!);
    expect(eyeDistance).toBeCloseTo(0.063, 3);
    expect(views[7]).toBeCloseTo(-Math.PI / 4, 4);
    expect(views[9]).toBeCloseTo(Math.PI / 4, 4);
    // A new array rebinds; the same array is written again.
    const other = new Float32Array(8);
    view.locate(local, frame.predictedDisplayTime, other);
    expect(Array.from(other.subarray(0, 7))).toEqual(Array.from(out));
    // The identity: a space located in itself.
    local.locate(local, frame.predictedDisplayTime, out);
    expect(Array.from(out)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    session.endFrame();
  });
});

describe('destroyed handles (NODE-1)', () => {
  it('NODE-1: destroying the session invalidates its spaces; calls on them throw XR_ERROR_HANDLE_INVALID', async () => {
    const { instance } = setup();
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view', [0, 1, 0, 0, 0, 0, 1]);
    const out = new Float32Array(7);
    view.locate(local, 1000, out);
    session.destroy();
    expect(local.isDestroyed).toBe(true);
    for (const f of [() => view.locate(local, 1000, out), () => local.handle, () => session.beginSession(), () => session.beginFrame(), () => session.locateViews(local, 1, new Float32Array(22))]) {
      const e = openXrErrorFrom(f);
      expect([e.result, e.resultValue]).toEqual(['XR_ERROR_HANDLE_INVALID', -12]);
    }
    await expect(session.waitFrame()).rejects.toMatchObject({ result: 'XR_ERROR_HANDLE_INVALID' });
    local.destroy(); // NODE-1: destroy() of a destroyed handle does nothing
    session.destroy();
    expect([local.isDestroyed, session.isDestroyed]).toEqual([true, true]);
  });

  it('NODE-1: destroying the instance invalidates sessions, spaces, action sets and actions; a pending waitFrame rejects', async () => {
    const { instance } = setup({ passthroughLayers: 1 });
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const set = instance.createActionSet({ name: 'set', localizedName: 'Set' });
    const action = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean' });
    instance.pollEvents();
    session.beginSession();
    const pending = session.waitFrame();
    instance.destroy();
    await expect(pending).rejects.toMatchObject({ result: 'XR_ERROR_HANDLE_INVALID' });
    for (const h of [session, local, set, action]) expect(h.isDestroyed).toBe(true);
    for (const f of [() => local.locate(local, 1, new Float32Array(7)), () => set.createAction({ name: 'x', localizedName: 'x', type: 'float' }), () => action.handle, () => instance.getSystem(), () => instance.pollEvent()]) {
      expect(openXrErrorFrom(f).result).toBe('XR_ERROR_HANDLE_INVALID');
    }
  });

  it('NODE-1: destroying an action set invalidates its actions; destroying a space leaves its siblings', () => {
    const { instance } = setup();
    const set = instance.createActionSet({ name: 'set', localizedName: 'Set' });
    const action = set.createAction({ name: 'a', localizedName: 'A', type: 'float' });
    set.destroy();
    expect(action.isDestroyed).toBe(true);
    expect(openXrErrorFrom(() => action.handle).result).toBe('XR_ERROR_HANDLE_INVALID');
    action.destroy(); // NODE-1: does nothing once its action set is gone
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const a = session.createReferenceSpace('local');
    const b = session.createReferenceSpace('stage');
    a.destroy();
    expect(b.isDestroyed).toBe(false);
    expect(b.locate(b, 1000, new Float32Array(7))).toBeGreaterThan(0);
    expect(openXrErrorFrom(() => b.locate(a, 1000, new Float32Array(7))).result).toBe('XR_ERROR_HANDLE_INVALID');
  });
});

describe('argument errors', () => {
  it('NODE-1: wrong argument types throw TypeError, never reach the runtime', () => {
    const { instance } = setup();
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const out = new Float32Array(7);
    const bad = (f: () => unknown) => expect(f).toThrow(TypeError);
    bad(() => local.locate({} as never, 1, out));
    bad(() => local.locate(session as never, 1, out));
    bad(() => local.locate(local, 1, new Float64Array(7) as never));
    bad(() => local.locate(local, 1, new Float32Array(3)));
    bad(() => local.locate(local, '1' as never, out));
    bad(() => session.createReferenceSpace('sideways' as never));
    bad(() => session.createReferenceSpace('local', [1, 2] as never));
    bad(() => instance.getSystem('toaster' as never));
    bad(() => instance.createSession({} as never, { headless: true }));
    bad(() => instance.createActionSet({ name: 'x', localizedName: 'x', priority: -1 }));
    bad(() => session.locateViews(local, 1, new Float32Array(21)));
    bad(() => session.attachActionSets([local] as never));
    // A detached output array: the bound locator is rebuilt and refuses it.
    const detachable = new Float32Array(7);
    local.locate(local, 1, detachable);
    structuredClone(detachable.buffer, { transfer: [detachable.buffer] });
    bad(() => local.locate(local, 1, detachable));
  });

  it('NODE-2: an invalid name from the runtime is an OpenXrError', () => {
    const { instance } = setup();
    const e = openXrErrorFrom(() => instance.createActionSet({ name: 'Not Valid', localizedName: 'x' }));
    expect(e.result).toBe('XR_ERROR_PATH_FORMAT_INVALID');
  });
});

describe('actions on the scripted simple controller', () => {
  it('NODE-3: boolean and pose actions follow the scripted controller; state objects are reused', async () => {
    const { instance } = setup({ passthroughLayers: 1 });
    const set = instance.createActionSet({ name: 'gameplay', localizedName: 'Gameplay', priority: 0 });
    const hands = ['/user/hand/left', '/user/hand/right'];
    const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean', subactionPaths: hands });
    const grip = set.createAction({ name: 'grip', localizedName: 'Grip', type: 'pose', subactionPaths: hands });
    instance.suggestBindings('/interaction_profiles/khr/simple_controller', [
      { action: select, path: '/user/hand/left/input/select/click' },
      { action: select, path: '/user/hand/right/input/select/click' },
      { action: grip, path: '/user/hand/left/input/grip/pose' },
    ]);
    const session = instance.createSession(instance.getSystem(), { headless: true });
    session.attachActionSets([set]);
    const leftGrip = session.createActionSpace(grip, '/user/hand/left');
    const local = session.createReferenceSpace('local');
    await runUntil(session, () => session.state === 'focused');
    const active = [set];
    const states = new Set<boolean>();
    let first: unknown;
    const out = new Float32Array(7);
    for (let i = 0; i < 170; i++) {
      const frame = await session.waitFrame();
      session.beginFrame();
      expect(session.syncActions(active)).toBe(true);
      const left = select.getBoolean('/user/hand/left');
      first ??= left;
      expect(left).toBe(first);
      expect(left.isActive).toBe(true);
      states.add(left.currentState);
      expect(grip.getPose('/user/hand/left').isActive).toBe(true);
      expect(leftGrip.locate(local, frame.predictedDisplayTime, out) & ALL_VALID).toBe(ALL_VALID);
      session.endFrame();
    }
    expect([...states].sort()).toEqual([false, true]); // the left select toggles every second
    expect(grip.getPose('/user/hand/right').isActive).toBe(false); // no right grip binding suggested
    expect(session.currentInteractionProfile('/user/hand/left')).toBe('/interaction_profiles/khr/simple_controller');
    expect(() => select.getFloat()).toThrow(OpenXrError);
  });
});

it('NODE-1: Session is exported and is an EventEmitter: listeners get state changes until removed', async () => {
  const { Session: Exported } = await import('../../lib/openxr/index.js');
  expect(Exported).toBe(Session);
  const { instance } = setup();
  const session = instance.createSession(instance.getSystem(), { headless: true });
  expect(session).toBeInstanceOf(Exported);
  expect(session).toBeInstanceOf(EventEmitter);
  const seen: string[] = [];
  const listener = (state: string): void => void seen.push(state);
  session.on('stateChanged', listener);
  instance.pollEvents();
  expect(seen).toEqual(['idle', 'ready']);
  session.off('stateChanged', listener);
  await runUntil(session, () => session.state === 'focused');
  expect(seen).toEqual(['idle', 'ready']);
});
