// The ergonomic API's input calls on the simulated runtime — vector2f actions
// (thumbsticks), triggers and buttons of the touch and index controller profiles as scripted in
// native/bundled/simxr/scripted_inputs.cc, haptics the runtime records, bound sources and their localized
// names, play-area bounds, and XrTime as bigint.
import { afterEach, describe, expect, it } from 'vitest';
import type { Action } from '../../lib/openxr/api/action.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import type { Session } from '../../lib/openxr/api/session.js';
import { createTestInstance, runUntil, type TestInstance } from './helpers.js';
import { openXrErrorFrom } from '../helpers/errors.js';
import { drainHapticEvents } from '../../lib/openxr/simulated-runtime.js';

const TOUCH = '/interaction_profiles/oculus/touch_controller';
const INDEX = '/interaction_profiles/valve/index_controller';
const SIMPLE = '/interaction_profiles/khr/simple_controller';
const HANDS = ['/user/hand/left', '/user/hand/right'];

/** Where `time` falls in a period of `periodMs`, in [0, 1) (scripted_inputs.cc's phase). */
const phase = (time: bigint, periodMs: number): number => Number(time % BigInt(periodMs * 1_000_000)) / (periodMs * 1e6);

let opened: TestInstance | undefined;
const savedEnv = { ...process.env };
afterEach(() => {
  opened?.dispose();
  opened = undefined;
  for (const key of ['SIMXR_CONTROLLER', 'SIMXR_PLAY_AREA_M']) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

interface Controls {
  readonly instance: Instance;
  readonly session: Session;
  readonly stick: Action;
  readonly stickX: Action;
  readonly trigger: Action;
  readonly triggerPressed: Action;
  readonly buttonA: Action;
  readonly haptic: Action;
  readonly set: Parameters<Session['syncActions']>[0][number];
}

/** An action set with a thumbstick, trigger, A button and haptic output, suggested for `profiles`, attached and focused. */
async function controls(profiles: readonly string[], env: Record<string, string> = {}): Promise<Controls> {
  Object.assign(process.env, env);
  opened = createTestInstance();
  const instance = opened.instance;
  const set = instance.createActionSet({ name: 'game', localizedName: 'Game' });
  const make = (name: string, type: 'boolean' | 'float' | 'vector2f' | 'vibration') =>
    set.createAction({ name, localizedName: name, type, subactionPaths: HANDS });
  const stick = make('move', 'vector2f');
  const stickX = make('turn', 'float');
  const trigger = make('trigger', 'float');
  const triggerPressed = make('fire', 'boolean');
  const buttonA = make('jump', 'boolean');
  const haptic = make('buzz', 'vibration');
  for (const profile of profiles) {
    const bindings = [];
    if (profile === SIMPLE) {
      for (const hand of HANDS) bindings.push({ action: triggerPressed, path: `${hand}/input/select/click` }, { action: haptic, path: `${hand}/output/haptic` });
    } else {
      for (const hand of HANDS) {
        bindings.push(
          { action: stick, path: `${hand}/input/thumbstick` },
          { action: stickX, path: `${hand}/input/thumbstick/x` },
          { action: trigger, path: `${hand}/input/trigger` }, // identifier only: a float reads the value
          { action: triggerPressed, path: `${hand}/input/trigger/value` }, // a boolean thresholds it at 0.5
          { action: haptic, path: `${hand}/output/haptic` },
        );
      }
      bindings.push({ action: buttonA, path: '/user/hand/right/input/a/click' });
    }
    instance.suggestBindings(profile, bindings);
  }
  const session = instance.createSession(instance.getSystem(), { headless: true });
  session.attachActionSets([set]);
  await runUntil(session, () => session.state === 'focused');
  return { instance, session, stick, stickX, trigger, triggerPressed, buttonA, haptic, set };
}

/** One frame: wait, begin, sync, `f(predictedDisplayTime)`, end. */
async function frame(c: Controls, f: (time: bigint) => void): Promise<void> {
  const state = await c.session.waitFrame();
  c.session.beginFrame();
  expect(c.session.syncActions([c.set])).toBe(true);
  f(state.predictedDisplayTime);
  c.session.endFrame();
}

describe('controller input on the simulated runtime', () => {
  it('NODE-3: a vector2f action reads the touch controller thumbstick as scripted (left: radius 0.8 every 2 s)', async () => {
    const c = await controls([SIMPLE, TOUCH]);
    expect(c.session.currentInteractionProfile('/user/hand/left')).toBe(TOUCH);
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      await frame(c, (time) => {
        const left = c.stick.getVector2f('/user/hand/left');
        const a = 2 * Math.PI * phase(time, 2000);
        expect(left.isActive).toBe(true);
        expect(left.currentState.x).toBeCloseTo(0.8 * Math.sin(a), 4);
        expect(left.currentState.y).toBeCloseTo(0.8 * Math.cos(a), 4);
        expect(typeof left.lastChangeTime).toBe('bigint');
        expect(left.lastChangeTime).toBeLessThanOrEqual(time);
        if (i > 0) expect(left.changedSinceLastSync).toBe(true); // it moves every frame
        // The point, not x alone: x repeats on either side of the circle's top (sin(a) = sin(π − a)),
        // so a window of 30 frames around it had fewer than 20 distinct x values.
        seen.add(`${left.currentState.x.toFixed(3)},${left.currentState.y.toFixed(3)}`);
        // The x component bound to a float action reads the same; the right stick its own figure.
        expect(c.stickX.getFloat('/user/hand/left').currentState).toBeCloseTo(0.8 * Math.sin(a), 4);
        const right = c.stick.getVector2f('/user/hand/right');
        expect(right.currentState.x).toBeCloseTo(0.9 * Math.sin(2 * Math.PI * phase(time, 3000)), 4);
        expect(right.currentState.y).toBeCloseTo(0.5 * Math.sin(2 * Math.PI * phase(time, 1500)), 4);
        // Both hands together: the larger deflection.
        const both = c.stick.getVector2f();
        const expected = Math.hypot(left.currentState.x, left.currentState.y) >= Math.hypot(right.currentState.x, right.currentState.y) ? left : right;
        expect(both.currentState).toBe(c.stick.getVector2f().currentState); // one reused object per reader
        expect(Math.hypot(both.currentState.x, both.currentState.y)).toBeCloseTo(Math.hypot(expected.currentState.x, expected.currentState.y), 4);
      });
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(openXrErrorFrom(() => c.stick.getFloat()).result).toBe('XR_ERROR_ACTION_TYPE_MISMATCH');
  });

  it('triggers read their scripted triangle wave as floats and thresholded as booleans; the A button its schedule', async () => {
    const c = await controls([TOUCH]);
    let pressedFrames = 0;
    for (let i = 0; i < 190; i++) {
      await frame(c, (time) => {
        const expected = 1 - Math.abs(2 * phase(time, 2000) - 1);
        const value = c.trigger.getFloat('/user/hand/left').currentState;
        expect(value).toBeCloseTo(expected, 4);
        const fire = c.triggerPressed.getBoolean('/user/hand/left');
        expect(fire.currentState).toBe(value >= 0.5);
        const jump = c.buttonA.getBoolean('/user/hand/right');
        const p = phase(time, 2000) * 2000;
        expect(jump.currentState).toBe(p >= 300 && p < 700);
        // A button's last change is the exact edge of its schedule.
        const edge = Number(jump.lastChangeTime % 2_000_000_000n) / 1e6;
        expect(edge).toBeCloseTo(jump.currentState ? 300 : 700, 6);
        if (jump.currentState) pressedFrames++;
        expect(c.buttonA.getBoolean('/user/hand/left').isActive).toBe(false); // bound on the right hand only
      });
    }
    expect(pressedFrames).toBeGreaterThan(0);
  });

  it('the runtime prefers the configured controller\'s own profile (SIMXR_CONTROLLER), else the first suggested', async () => {
    let c = await controls([SIMPLE, TOUCH, INDEX], { SIMXR_CONTROLLER: 'index' });
    expect(c.session.currentInteractionProfile('/user/hand/right')).toBe(INDEX);
    expect(c.session.boundSources(c.buttonA)).toEqual(['/user/hand/right/input/a/click']);
    opened?.dispose();
    c = await controls([SIMPLE], { SIMXR_CONTROLLER: 'touch' });
    expect(c.session.currentInteractionProfile('/user/hand/left')).toBe(SIMPLE);
    expect(c.stick.getVector2f('/user/hand/left').isActive).toBe(false); // the simple controller has no thumbstick
    opened?.dispose();
    process.env.SIMXR_CONTROLLER = 'gamepad';
    expect(() => createTestInstance()).toThrow(/XR_ERROR_INITIALIZATION_FAILED/);
  });

  it('suggestions are checked against each profile: a path it lacks or a type it cannot read is XR_ERROR_PATH_UNSUPPORTED', () => {
    opened = createTestInstance();
    const set = opened.instance.createActionSet({ name: 'set', localizedName: 'Set' });
    const stick = set.createAction({ name: 'stick', localizedName: 'Stick', type: 'vector2f' });
    const click = set.createAction({ name: 'click', localizedName: 'Click', type: 'boolean' });
    const suggest = (profile: string, action: Action, path: string) => () => opened?.instance.suggestBindings(profile, [{ action, path }]);
    expect(openXrErrorFrom(suggest(TOUCH, stick, '/user/hand/left/input/trackpad')).result).toBe('XR_ERROR_PATH_UNSUPPORTED');
    expect(openXrErrorFrom(suggest(TOUCH, click, '/user/hand/left/input/a/click')).result).toBe('XR_ERROR_PATH_UNSUPPORTED'); // A is on the right
    expect(openXrErrorFrom(suggest(SIMPLE, stick, '/user/hand/left/input/select/click')).result).toBe('XR_ERROR_PATH_UNSUPPORTED');
    expect(openXrErrorFrom(suggest(TOUCH, stick, '/user/hand/left/input/thumbstick/x')).result).toBe('XR_ERROR_PATH_UNSUPPORTED');
    suggest(INDEX, stick, '/user/hand/left/input/trackpad')();
    suggest(INDEX, click, '/user/hand/left/input/thumbstick')(); // a boolean on the identifier reads its click
  });

  it('boundSources and inputSourceLocalizedName name the inputs of the profile in use', async () => {
    const c = await controls([TOUCH]);
    expect(c.session.boundSources(c.trigger)).toEqual(['/user/hand/left/input/trigger/value', '/user/hand/right/input/trigger/value']);
    expect(c.session.boundSources(c.stick)).toEqual(['/user/hand/left/input/thumbstick', '/user/hand/right/input/thumbstick']);
    expect(c.session.inputSourceLocalizedName('/user/hand/left/input/trigger/value')).toBe('Left Hand Oculus Touch Controller Trigger');
    expect(c.session.inputSourceLocalizedName('/user/hand/right/input/a/click', ['component'])).toBe('A');
    expect(c.session.inputSourceLocalizedName('/user/hand/right/output/haptic', ['user-path', 'component'])).toBe('Right Hand Haptic');
    expect(openXrErrorFrom(() => c.session.inputSourceLocalizedName('/user/hand/left/input/trackpad/x')).result).toBe('XR_ERROR_PATH_UNSUPPORTED');
    expect(() => c.session.inputSourceLocalizedName('/user/hand/left/input/trigger/value', [])).toThrow(TypeError);
    expect(() => c.session.inputSourceLocalizedName('/user/hand/left/input/trigger/value', ['colour' as never])).toThrow(TypeError);
    expect(() => c.session.boundSources({} as Action)).toThrow(TypeError);
  });
});

describe('haptics on the simulated runtime', () => {
  it('applyHapticFeedback / stopHapticFeedback reach the bound outputs and the runtime records them', async () => {
    const c = await controls([TOUCH]);
    expect(drainHapticEvents(c.session)).toEqual([]);
    let when = 0n;
    await frame(c, (time) => {
      when = time;
      expect(c.haptic.applyHapticFeedback({ amplitude: 0.5, frequency: 160, duration: 20_000_000n }, '/user/hand/left')).toBe(true);
      expect(c.haptic.applyHapticFeedback({ amplitude: 1 })).toBe(true); // both hands, the shortest pulse
      expect(c.haptic.stopHapticFeedback('/user/hand/right')).toBe(true);
    });
    const events = drainHapticEvents(c.session);
    const action = c.haptic.handle;
    expect(events).toEqual([
      { time: when, source: '/user/hand/left/output/haptic', action, duration: 20_000_000n, frequency: 160, amplitude: 0.5, stopped: false },
      { time: when, source: '/user/hand/left/output/haptic', action, duration: -1n, frequency: 0, amplitude: 1, stopped: false },
      { time: when, source: '/user/hand/right/output/haptic', action, duration: -1n, frequency: 0, amplitude: 1, stopped: false },
      { time: when, source: '/user/hand/right/output/haptic', action, duration: 0n, frequency: 0, amplitude: 0, stopped: true },
    ]);
    expect(drainHapticEvents(c.session)).toEqual([]); // drained
  });

  it('NODE-1 NODE-2: haptic misuse: wrong action type, bad amplitude, undeclared subaction path, destroyed action', async () => {
    const c = await controls([TOUCH]);
    expect(openXrErrorFrom(() => c.trigger.applyHapticFeedback({ amplitude: 1 })).result).toBe('XR_ERROR_ACTION_TYPE_MISMATCH');
    expect(openXrErrorFrom(() => c.haptic.applyHapticFeedback({ amplitude: 2 })).result).toBe('XR_ERROR_VALIDATION_FAILURE');
    expect(openXrErrorFrom(() => c.haptic.applyHapticFeedback({ amplitude: 1 }, '/user/head')).result).toBe('XR_ERROR_PATH_UNSUPPORTED');
    expect(() => c.haptic.applyHapticFeedback({ amplitude: '1' } as never)).toThrow(TypeError);
    expect(() => c.haptic.applyHapticFeedback({ amplitude: 1, duration: '5' } as never)).toThrow(TypeError);
    expect(drainHapticEvents(c.session)).toEqual([]);
    c.haptic.destroy();
    expect(openXrErrorFrom(() => c.haptic.applyHapticFeedback({ amplitude: 1 })).result).toBe('XR_ERROR_HANDLE_INVALID');
  });

  it('haptics on a session that is not focused answer false and nothing vibrates', async () => {
    opened = createTestInstance();
    const set = opened.instance.createActionSet({ name: 'set', localizedName: 'Set' });
    const buzz = set.createAction({ name: 'buzz', localizedName: 'Buzz', type: 'vibration' });
    opened.instance.suggestBindings(TOUCH, [{ action: buzz, path: '/user/hand/left/output/haptic' }]);
    const session = opened.instance.createSession(opened.instance.getSystem(), { headless: true });
    session.attachActionSets([set]);
    expect(buzz.applyHapticFeedback({ amplitude: 1 })).toBe(false);
    expect(buzz.stopHapticFeedback()).toBe(false);
    expect(drainHapticEvents(session)).toEqual([]);
  });
});

describe('play-area bounds and XrTime', () => {
  it('referenceSpaceBounds is the configured play area for STAGE and null where the runtime has none', () => {
    process.env.SIMXR_PLAY_AREA_M = '3x2.5';
    opened = createTestInstance();
    const session = opened.instance.createSession(opened.instance.getSystem(), { headless: true });
    expect(session.referenceSpaceBounds('stage')).toEqual({ width: 3, height: 2.5 });
    expect(session.referenceSpaceBounds('local')).toBeNull();
    expect(() => session.referenceSpaceBounds('floor' as never)).toThrow(TypeError);
    session.destroy();
    expect(openXrErrorFrom(() => session.referenceSpaceBounds('stage')).result).toBe('XR_ERROR_HANDLE_INVALID');
    opened.dispose();
    delete process.env.SIMXR_PLAY_AREA_M;
    opened = createTestInstance();
    expect(opened.instance.createSession(opened.instance.getSystem(), { headless: true }).referenceSpaceBounds('stage')).toEqual({ width: 2, height: 2 });
    opened.dispose();
    process.env.SIMXR_PLAY_AREA_M = '3';
    expect(() => createTestInstance()).toThrow(/XR_ERROR_INITIALIZATION_FAILED/);
  });

  it('NODE-3: frame times, event times and action change times are bigint XrTimes; locate takes a bigint or a number', async () => {
    opened = createTestInstance();
    const session = opened.instance.createSession(opened.instance.getSystem(), { headless: true });
    const events = opened.instance.pollEvents();
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) if (e.type === 'sessionStateChanged') expect(typeof e.time).toBe('bigint');
    await runUntil(session, () => session.state === 'focused');
    const frameState = await session.waitFrame();
    session.beginFrame();
    expect(typeof frameState.predictedDisplayTime).toBe('bigint');
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const a = new Float32Array(7);
    const b = new Float32Array(7);
    expect(view.locate(local, frameState.predictedDisplayTime, a)).toBe(15);
    expect(view.locate(local, Number(frameState.predictedDisplayTime), b)).toBe(15);
    expect(Array.from(b)).toEqual(Array.from(a)); // exact while the time is below 2^53 ns
    expect(() => view.locate(local, '1' as never, a)).toThrow(TypeError);
    expect(() => view.locate(local, 2n ** 64n, a)).toThrow(TypeError); // not an int64
    session.endFrame({ displayTime: frameState.predictedDisplayTime });
  });
});
