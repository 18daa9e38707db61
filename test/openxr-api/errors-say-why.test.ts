// Errors that say why (NODE-2), over the simulated runtime: where the cause of a failure is
// knowable from the arguments or the state, the message says it and the XrResult stays the
// runtime's — a name with a space, the path suggestBindings() refused, the session's state, the
// pose that is not normalized — and a time that is not a safe integer is refused as such.
import { afterEach, describe, expect, it } from 'vitest';
import { FrameQuery } from '../../lib/openxr/api/frame-query.js';
import { errorFrom, openXrErrorFrom } from '../helpers/errors.js';
import { InvalidArgumentError } from '../../lib/core/errors.js';
import { createTestInstance, type TestInstance } from './helpers.js';

let current: TestInstance | undefined;
afterEach(() => {
  current?.dispose();
  current = undefined;
});

function instance(): TestInstance['instance'] {
  current = createTestInstance();
  return current.instance;
}

describe('errors that say why (NODE-2)', () => {
  it("NODE-2: createActionSet({ name: 'Main Set' }) is XR_ERROR_PATH_FORMAT_INVALID naming the name, the rule and the characters it breaks", () => {
    const xr = instance();
    const e = openXrErrorFrom(() => xr.createActionSet({ name: 'Main Set', localizedName: 'Main' }));
    expect([e.code, e.result, e.resultValue]).toEqual(['XR_ERROR_PATH_FORMAT_INVALID', 'XR_ERROR_PATH_FORMAT_INVALID', -21]);
    expect(e.message).toBe(
      `XR_ERROR_PATH_FORMAT_INVALID: xrCreateActionSet: name 'Main Set': an action set name must be lower-case letters, digits, '-', '_' or '.' (the spec's well-formed path name rules): "M" at 0, " " at 4, "S" at 5 are not`,
    );
    const set = xr.createActionSet({ name: 'main', localizedName: 'Main' });
    const action = openXrErrorFrom(() => set.createAction({ name: 'Fire!', localizedName: 'Fire', type: 'boolean' }));
    expect(action.message).toMatch(/^XR_ERROR_PATH_FORMAT_INVALID: xrCreateAction: name 'Fire!': an action name must be .*"F" at 0, "!" at 4 are not$/);
    const duplicate = openXrErrorFrom(() => xr.createActionSet({ name: 'main', localizedName: 'Other' }));
    expect(duplicate.message).toBe("XR_ERROR_NAME_DUPLICATED: xrCreateActionSet: name 'main': this instance already has an action set of that name");
  });

  it('NODE-2: suggestBindings() answers XR_ERROR_PATH_UNSUPPORTED naming the profile or the binding path at fault', () => {
    const xr = instance();
    const set = xr.createActionSet({ name: 'main', localizedName: 'Main' });
    const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean' });
    const unknown = openXrErrorFrom(() => xr.suggestBindings('/interaction_profiles/acme/wand', [{ action: select, path: '/user/hand/left/input/select/click' }]));
    expect([unknown.code, unknown.resultValue]).toEqual(['XR_ERROR_PATH_UNSUPPORTED', -22]);
    expect(unknown.message).toMatch(/interactionProfile '\/interaction_profiles\/acme\/wand' is not an interaction profile of the OpenXR specification/);
    const bindings = [
      { action: select, path: '/user/hand/left/input/select/click' },
      { action: select, path: '/user/hand/right/input/trigger/click' },
    ];
    // Another device's profile of the allowlist: the runtime checks its paths too.
    const wrong = openXrErrorFrom(() => xr.suggestBindings('/interaction_profiles/htc/vive_controller', bindings));
    expect(wrong.result).toBe('XR_ERROR_PATH_UNSUPPORTED');
    expect(wrong.message).toMatch(/bindings\[0\]\.path '\/user\/hand\/left\/input\/select\/click' is not a binding path of \/interaction_profiles\/htc\/vive_controller/);
    // An extension's profile on an instance without the extension.
    const extension = openXrErrorFrom(() => xr.suggestBindings('/interaction_profiles/ext/eye_gaze_interaction', [{ action: select, path: '/user/eyes_ext/input/gaze_ext/pose' }]));
    expect(extension.message).toMatch(/needs the extension XR_EXT_eye_gaze_interaction/);
    // The same bindings on the allowlisted profiles that have them are accepted, the identifier-only form too.
    xr.suggestBindings('/interaction_profiles/htc/vive_controller', [{ action: select, path: '/user/hand/right/input/trigger/click' }, { action: select, path: '/user/hand/left/input/trigger' }]);
    xr.suggestBindings('/interaction_profiles/khr/simple_controller', [{ action: select, path: '/user/hand/left/input/select/click' }]);
  });

  it('NODE-2: beginFrame() before beginSession() is XR_ERROR_SESSION_NOT_RUNNING saying the session state', () => {
    const xr = instance();
    const session = xr.createSession(xr.getSystem(), { headless: true });
    xr.pollEvents();
    expect(session.state).toBe('ready');
    const e = openXrErrorFrom(() => session.beginFrame());
    expect([e.code, e.resultValue]).toEqual(['XR_ERROR_SESSION_NOT_RUNNING', -16]);
    expect(e.message).toMatch(/^XR_ERROR_SESSION_NOT_RUNNING: xrBeginFrame: the session is not running: its state is 'ready' as of the last polled event and beginSession\(\) has not been called/);
    expect(openXrErrorFrom(() => session.endSession()).message).toMatch(/^XR_ERROR_SESSION_NOT_RUNNING: xrEndSession: the session is not running: its state is 'ready'/);
  });

  it('NODE-2: a pose that is not normalized is XR_ERROR_POSE_INVALID naming the pose and its quaternion length', () => {
    const xr = instance();
    const session = xr.createSession(xr.getSystem(), { headless: true });
    const e = openXrErrorFrom(() => session.createReferenceSpace('local', [0, 0, 0, 0, 0, 0, 2]));
    expect([e.code, e.resultValue]).toEqual(['XR_ERROR_POSE_INVALID', -39]);
    expect(e.message).toBe('XR_ERROR_POSE_INVALID: xrCreateReferenceSpace refused pose: the orientation (qx, qy, qz, qw) = (0, 0, 0, 2) has length 2.00000, not 1: a pose\'s quaternion must be normalized');
    const nan = openXrErrorFrom(() => session.createReferenceSpace('local', [Number.NaN, 0, 0, 0, 0, 0, 1]));
    expect(nan.message).toMatch(/pose: px is NaN, not a finite number/);
    expect(session.createReferenceSpace('local', [0, 0, 0, 0, 0, 0.7071068, 0.7071068]).isDestroyed).toBe(false);
  });

  it('NODE-2: locate(), locateViews() and frame queries refuse a number time that is not a safe integer, naming it; a bigint is fine', () => {
    const xr = instance();
    const session = xr.createSession(xr.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const out = new Float32Array(7);
    expect(view.locate(local, 2n ** 60n, out)).toBeGreaterThan(0);
    expect(view.locate(local, 1000, out)).toBeGreaterThan(0);
    const huge = errorFrom(InvalidArgumentError, () => view.locate(local, 2 ** 60, out));
    expect(huge.code).toBe('KL_INVALID_ARGUMENT');
    expect(huge.message).toBe('locate: time is 1152921504606846976, beyond Number.MAX_SAFE_INTEGER (2^53 - 1), where a number no longer holds every integer: pass the XrTime as a bigint');
    expect(() => view.locate(local, 1.5, out)).toThrow(/locate: time must be an XrTime, a whole number of nanoseconds: a bigint, or a number up to Number.MAX_SAFE_INTEGER, got 1.5/);
    expect(() => view.locate(local, 'now' as never, out)).toThrow(/got a string/);
    const views = new Float32Array(22);
    expect(() => session.locateViews(local, 2 ** 60, views)).toThrow(/locateViews: time is 1152921504606846976, beyond Number.MAX_SAFE_INTEGER/);
    const query = session.createFrameQuery({ spaces: [[view, local]] });
    expect(query).toBeInstanceOf(FrameQuery);
    const q = new Float32Array(query.layout.length);
    expect(() => query.run(2 ** 60, q)).toThrow(/frame query: time is 1152921504606846976, beyond Number.MAX_SAFE_INTEGER/);
    query.run(2n ** 60n, q);
  });
});
