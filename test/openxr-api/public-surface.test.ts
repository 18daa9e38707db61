// Public behaviour of the typed API that no other test reaches through JavaScript: paths, float
// actions, endFrame's options, syncActions with a subaction path, the system's view and blend
// mode lists, reference space types, diagnostics' text and the pass-through layers' range check.
import { afterEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../lib/core/diagnostics.js';
import { createPassthroughLayers } from '../../lib/openxr/bundled-layers.js';
import { createTestInstance, runUntil, type TestInstance } from './helpers.js';
import { openXrErrorFrom } from '../helpers/errors.js';

let current: TestInstance | undefined;
afterEach(() => {
  current?.dispose();
  current = undefined;
});

/** An instance on the simulated runtime, created with `env` set (the runtime reads SIMXR_* in xrCreateInstance). */
function setup(env: Record<string, string> = {}): TestInstance {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    current = createTestInstance();
    return current;
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('the typed API beyond the frame loop', () => {
  it('NODE-3: Instance.stringToPath gives one XrPath per string, and the runtime\'s error for a malformed one', () => {
    const { instance } = setup();
    const left = instance.stringToPath('/user/hand/left');
    expect(typeof left).toBe('bigint');
    expect(left).toBeGreaterThan(0n);
    expect(instance.stringToPath('/user/hand/left')).toBe(left);
    expect(instance.stringToPath('/user/hand/right')).not.toBe(left);
    expect(openXrErrorFrom(() => instance.stringToPath('no/leading/slash')).result).toBe('XR_ERROR_PATH_FORMAT_INVALID');
  });

  it('NODE-3: System lists two views at the configured resolution and the opaque blend mode; Session lists its reference spaces', () => {
    const { instance } = setup({ SIMXR_RESOLUTION: '1000x800' });
    const system = instance.getSystem('head-mounted-display');
    const views = system.viewConfigurationViews('primary-stereo');
    expect(views).toHaveLength(2);
    for (const v of views) expect(v).toMatchObject({ recommendedImageRectWidth: 1000, recommendedImageRectHeight: 800, recommendedSwapchainSampleCount: 1 });
    expect(system.environmentBlendModes()).toEqual(['opaque']);
    const session = instance.createSession(system, { headless: true });
    expect([...session.referenceSpaceTypes()].sort()).toEqual(['local', 'stage', 'view']);
  });

  it('NODE-3: endFrame passes displayTime and environmentBlendMode to the runtime', async () => {
    const { instance } = setup();
    const session = instance.createSession(instance.getSystem(), { headless: true });
    await runUntil(session, () => session.state === 'focused');
    const frame = await session.waitFrame();
    session.beginFrame();
    // The runtime checks both: a display time other than the frame's, and a blend mode it lacks.
    expect(openXrErrorFrom(() => session.endFrame({ displayTime: frame.predictedDisplayTime + 1n, environmentBlendMode: 'opaque' })).result).toBe('XR_ERROR_TIME_INVALID');
    expect(openXrErrorFrom(() => session.endFrame({ displayTime: frame.predictedDisplayTime, environmentBlendMode: 'additive' })).result).toBe(
      'XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED',
    );
    session.endFrame({ displayTime: frame.predictedDisplayTime, environmentBlendMode: 'opaque' });
    // That one ended the frame: ending it again is out of order.
    expect(openXrErrorFrom(() => session.endFrame({ displayTime: frame.predictedDisplayTime, environmentBlendMode: 'opaque' })).result).toBe('XR_ERROR_CALL_ORDER_INVALID');
  });

  it('NODE-3: a float action bound to a click reads 0 and 1; syncActions with a subaction path activates only that hand', async () => {
    const { instance } = setup();
    const set = instance.createActionSet({ name: 'gameplay', localizedName: 'Gameplay', priority: 0 });
    const hands = ['/user/hand/left', '/user/hand/right'];
    const trigger = set.createAction({ name: 'trigger', localizedName: 'Trigger', type: 'float', subactionPaths: hands });
    instance.suggestBindings('/interaction_profiles/khr/simple_controller', [
      { action: trigger, path: '/user/hand/left/input/select/click' },
      { action: trigger, path: '/user/hand/right/input/select/click' },
    ]);
    const session = instance.createSession(instance.getSystem(), { headless: true });
    session.attachActionSets([set]);
    await runUntil(session, () => session.state === 'focused');
    const values = new Set<number>();
    for (let i = 0; i < 120; i++) {
      await session.waitFrame();
      session.beginFrame();
      expect(session.syncActions([{ actionSet: set, subactionPath: '/user/hand/left' }])).toBe(true);
      const left = trigger.getFloat('/user/hand/left');
      expect(left.isActive).toBe(true);
      values.add(left.currentState);
      // Only the left hand was synchronized.
      expect(trigger.getFloat('/user/hand/right').isActive).toBe(false);
      session.endFrame();
    }
    expect([...values].sort()).toEqual([0, 1]); // the left select toggles every second
  });
});

describe('helpers of the public API', () => {
  it('XR-LM-5: formatDiagnostic names the file, the field, the reason and the result', () => {
    expect(formatDiagnostic({ severity: 'error', file: '/etc/xr/a.json', field: 'api_layer.name', reason: 'missing', code: 'XR_ERROR_FILE_CONTENTS_INVALID' })).toBe(
      '/etc/xr/a.json [api_layer.name]: missing (XR_ERROR_FILE_CONTENTS_INVALID)',
    );
    expect(formatDiagnostic({ severity: 'warning', file: '/etc/xr/b.json', reason: 'duplicate name' })).toBe('/etc/xr/b.json: duplicate name');
  });

  it('NODE-2: createPassthroughLayers refuses a count that is not a whole number >= 0', () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => createPassthroughLayers(bad)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT', argument: 'count' }));
      expect(() => createPassthroughLayers(bad)).toThrow(`count must be a whole number >= 0 (the number of pass-through layers), got ${bad}`);
    }
    const none = createPassthroughLayers(0);
    try {
      expect(none.names).toEqual([]);
    } finally {
      none.dispose();
    }
  });
});
