// The frame query (docs/usage.md, 'One native call per frame: frame queries') — one native call per frame for many (space, base) locations, the
// views and action states, into one Float32Array. Its results must be exactly what the separate
// calls (space.locate, session.locateViews, action.getBoolean/getFloat/getPose) answer, bit for
// bit, on an OpenXR 1.0 instance (a native loop of xrLocateSpace) and on a 1.1 instance
// (xrLocateSpaces, one call per base space), here on the simulated runtime through this loader.
import { afterEach, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createPassthroughLayers, type PassthroughLayerSet } from '../../lib/openxr/bundled-layers.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { XR_API_VERSION_1_0, XR_API_VERSION_1_1 } from '../../lib/generated/openxr.js';
import { FRAME_ACTION_FLOATS, FRAME_SPACE_FLOATS, type FrameQuery } from '../../lib/openxr/api/frame-query.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import type { Action, ActionSet } from '../../lib/openxr/api/action.js';
import type { Session } from '../../lib/openxr/api/session.js';
import type { Space } from '../../lib/openxr/api/space.js';
import { POSE_FLOATS, VIEW_FLOATS } from '../../lib/openxr/api/types.js';
import { openXrErrorFrom } from '../helpers/errors.js';
import { runUntil } from './helpers.js';

const VERSIONS = [
  ['1.0', XR_API_VERSION_1_0, 'xrLocateSpace'],
  ['1.1', XR_API_VERSION_1_1, 'xrLocateSpaces'],
] as const;

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.reverse()) f();
  cleanup = [];
});

function createInstance(apiVersion: bigint, passthroughLayers = 0): Instance {
  const layers: PassthroughLayerSet | undefined = passthroughLayers > 0 ? createPassthroughLayers(passthroughLayers) : undefined;
  const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: layers?.folder ?? '' };
  const loader = createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions });
  const instance = loader.createInstance({
    applicationName: 'frame-query test',
    apiVersion,
    enabledApiLayerNames: layers?.names ?? [],
    enabledExtensionNames: ['XR_MND_headless'],
  });
  cleanup.push(() => {
    if (!instance.isDestroyed) instance.destroy();
    layers?.dispose();
  });
  return instance;
}

interface Rig {
  readonly instance: Instance;
  readonly session: Session;
  readonly set: ActionSet;
  readonly select: Action;
  readonly trigger: Action;
  readonly hand: Action;
  readonly stick: Action;
  readonly local: Space;
  readonly view: Space;
  readonly stage: Space;
}

/** A focused session with the simple controller's select (boolean and float), grip poses, and reference spaces. */
async function focusedRig(apiVersion: bigint, passthroughLayers = 0): Promise<Rig> {
  const instance = createInstance(apiVersion, passthroughLayers);
  const hands = ['/user/hand/left', '/user/hand/right'];
  const set = instance.createActionSet({ name: 'gameplay', localizedName: 'Gameplay' });
  const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean', subactionPaths: hands });
  const trigger = set.createAction({ name: 'trigger', localizedName: 'Trigger', type: 'float', subactionPaths: hands });
  const hand = set.createAction({ name: 'hand', localizedName: 'Hand', type: 'pose', subactionPaths: hands });
  const stick = set.createAction({ name: 'stick', localizedName: 'Stick', type: 'vector2f', subactionPaths: hands });
  instance.suggestBindings('/interaction_profiles/khr/simple_controller', [
    { action: select, path: '/user/hand/left/input/select/click' },
    { action: select, path: '/user/hand/right/input/select/click' },
    { action: trigger, path: '/user/hand/right/input/select/click' },
    { action: hand, path: '/user/hand/left/input/grip/pose' },
    { action: hand, path: '/user/hand/right/input/aim/pose' },
  ]);
  const session = instance.createSession(instance.getSystem(), { headless: true });
  session.attachActionSets([set]);
  const local = session.createReferenceSpace('local');
  const view = session.createReferenceSpace('view');
  const stage = session.createReferenceSpace('stage');
  await runUntil(session, () => session.state === 'focused');
  return { instance, session, set, select, trigger, hand, stick, local, view, stage };
}

const bits = (a: ArrayLike<number>): number[] => Array.from(new Uint32Array(Float32Array.from(a).buffer));

describe.each(VERSIONS)('frame query on an OpenXR %s instance (simulated runtime)', (_name, apiVersion, locatePath) => {
  it(`NODE-3: one run() writes what space.locate, locateViews and the action reads answer, bit for bit, through ${locatePath}`, async () => {
    const rig = await focusedRig(apiVersion);
    const { session, local, view, stage, select, trigger, hand } = rig;
    const left = session.createActionSpace(hand, '/user/hand/left');
    const right = session.createActionSpace(hand, '/user/hand/right', [0.01, 0.02, -0.05, 0, 0, 0.3826834, 0.9238795]);
    const both = session.createActionSpace(hand);
    const offsetView = session.createReferenceSpace('view', [0, 0.1, -0.2, 0, 0.7071068, 0, 0.7071068]);
    // Several bases (xrLocateSpaces groups by base), the same space twice, a space in itself.
    const pairs: [Space, Space][] = [
      [view, local], [left, local], [right, local], [both, stage], [offsetView, view], [stage, local],
      [local, view], [view, local], [left, right], [right, stage], [view, view],
    ];
    if (apiVersion === XR_API_VERSION_1_1) pairs.push([session.createReferenceSpace('local-floor'), stage]);
    const actions = [
      { action: select, subactionPath: '/user/hand/left' },
      { action: select, subactionPath: '/user/hand/right' },
      select,
      { action: trigger, subactionPath: '/user/hand/right' },
      { action: hand, subactionPath: '/user/hand/left' },
      hand,
      rig.stick, // bound to nothing on a simple controller: inactive
    ];
    const query = session.createFrameQuery({ spaces: pairs, views: { space: local }, actions });
    expect(query.locatePath).toBe(locatePath);
    expect(query.layout).toEqual({
      spaceCount: pairs.length,
      spaces: 0,
      viewCount: 2,
      viewState: pairs.length * FRAME_SPACE_FLOATS,
      views: pairs.length * FRAME_SPACE_FLOATS + 1,
      actionCount: actions.length,
      actions: pairs.length * FRAME_SPACE_FLOATS + 1 + 2 * VIEW_FLOATS,
      length: pairs.length * FRAME_SPACE_FLOATS + 1 + 2 * VIEW_FLOATS + actions.length * FRAME_ACTION_FLOATS,
    });
    const out = new Float32Array(query.length + 3).fill(-7); // longer than needed: the tail stays as it was
    const pose = pairs.map(() => new Float32Array(POSE_FLOATS));
    const views = new Float32Array(2 * VIEW_FLOATS);
    const seen = { selectValues: new Set<number>(), validFlags: new Set<number>() };
    for (let frame = 0; frame < 70; frame++) {
      const state = await session.waitFrame();
      session.beginFrame();
      session.syncActions([rig.set]);
      // The frame's time and a time between frames (the scripted motion is a function of time).
      for (const time of [state.predictedDisplayTime, state.predictedDisplayTime + 3_456_789n]) {
        query.run(time, out);
        pairs.forEach(([space, base], i) => {
          const flags = space.locate(base, time, pose[i] as Float32Array);
          const at = query.spaceOffset(i);
          expect(bits(out.subarray(at, at + POSE_FLOATS)), `spaces[${i}] at frame ${frame}`).toEqual(bits(pose[i] as Float32Array));
          expect(out[at + 7]).toBe(flags);
          seen.validFlags.add(flags);
        });
        expect(out[query.layout.viewState]).toBe(session.locateViews(local, time, views));
        expect(bits(out.subarray(query.layout.views, query.layout.views + 2 * VIEW_FLOATS))).toEqual(bits(views));
        for (const v of [0, 1]) expect(bits(out.subarray(query.viewOffset(v), query.viewOffset(v) + VIEW_FLOATS)), `view ${v}`).toEqual(bits(views.subarray(v * VIEW_FLOATS, (v + 1) * VIEW_FLOATS)));
      }
      const a = (i: number): number[] => Array.from(out.subarray(query.actionOffset(i), query.actionOffset(i) + FRAME_ACTION_FLOATS));
      const b = (s: { currentState: boolean; changedSinceLastSync: boolean; isActive: boolean }) => [s.currentState ? 1 : 0, 0, s.changedSinceLastSync ? 1 : 0, s.isActive ? 1 : 0];
      expect(a(0)).toEqual(b(select.getBoolean('/user/hand/left')));
      expect(a(1)).toEqual(b(select.getBoolean('/user/hand/right')));
      expect(a(2)).toEqual(b(select.getBoolean()));
      const f = trigger.getFloat('/user/hand/right');
      expect(a(3)).toEqual([Math.fround(f.currentState), 0, f.changedSinceLastSync ? 1 : 0, f.isActive ? 1 : 0]);
      expect(a(4)).toEqual([0, 0, 0, hand.getPose('/user/hand/left').isActive ? 1 : 0]);
      expect(a(5)).toEqual([0, 0, 0, hand.getPose().isActive ? 1 : 0]);
      expect(a(6)).toEqual([0, 0, 0, 0]);
      seen.selectValues.add(a(0)[0] as number);
      session.endFrame();
    }
    expect(Array.from(out.subarray(query.length))).toEqual([-7, -7, -7]);
    // The run covered presses and releases, and located spaces (all four flags) and none.
    expect([...seen.selectValues].sort()).toEqual([0, 1]);
    expect(seen.validFlags.has(0xf)).toBe(true);
  });

  it('NODE-1 NODE-2: a destroyed handle, a too-small or foreign output, spaces of another session and bad entries throw typed errors; the process lives', async () => {
    const rig = await focusedRig(apiVersion);
    const { session, local, view, stage, select } = rig;
    const otherInstance = createInstance(apiVersion);
    const other = otherInstance.createSession(otherInstance.getSystem(), { headless: true });
    const otherSpace = other.createReferenceSpace('local');
    expect(openXrErrorFrom(() => session.createFrameQuery({ spaces: [[view, otherSpace]] }))).toMatchObject({
      result: 'XR_ERROR_VALIDATION_FAILURE',
      message: expect.stringMatching(/spaces\[0\]\.base belongs to another session/),
    });
    expect(openXrErrorFrom(() => session.createFrameQuery({ views: { space: otherSpace } })).message).toMatch(/views\.space belongs to another session/);
    expect(() => session.createFrameQuery({ spaces: [[view, {} as Space]] })).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT', message: 'frame query: spaces[0].base must be a Space, got an object (Object)' }));
    expect(() => session.createFrameQuery({ spaces: [view as unknown as [Space, Space]] })).toThrow(TypeError);
    expect(() => session.createFrameQuery({ actions: [{} as Action] })).toThrow(/actions\[0\] must be an Action/);
    expect(() => session.createFrameQuery({})).toThrow(/nothing to query/);
    const rumble = rig.instance.createActionSet({ name: 'haptics', localizedName: 'Haptics' }).createAction({ name: 'rumble', localizedName: 'Rumble', type: 'vibration' });
    expect(openXrErrorFrom(() => session.createFrameQuery({ actions: [rumble] }))).toMatchObject({ result: 'XR_ERROR_ACTION_TYPE_MISMATCH', message: expect.stringMatching(/actions\[0\] \(rumble\) is a vibration output/) });
    expect(() => session.createFrameQuery({ views: { space: local, viewConfigurationType: 'sideways' as 'primary-stereo' } })).toThrow(/viewConfigurationType must be one of/);

    const query = session.createFrameQuery({ spaces: [[view, local], [stage, local]], actions: [select] });
    expect(query.length).toBe(2 * FRAME_SPACE_FLOATS + FRAME_ACTION_FLOATS);
    expect(() => query.run(1e9, new Float32Array(query.length - 1))).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT', message: `frame query: out must have at least ${query.length} elements (see query.layout; a detached buffer has none), got ${query.length - 1}` }));
    expect(() => query.run(1e9, new Float64Array(query.length) as unknown as Float32Array)).toThrow(/out must be a Float32Array/);
    expect(() => session.createFrameQuery({ spaces: [[view, local]], out: new Float32Array(7) })).toThrow(/at least 8 elements/);
    // The runtime's own refusal: XrTime must be positive.
    expect(openXrErrorFrom(() => query.run(0)).result).toBe('XR_ERROR_TIME_INVALID');
    expect(() => query.run('soon' as unknown as number)).toThrow(/time must be an XrTime/);
    // An output whose buffer was transferred away: the query sees it has no elements, also when it is the query's own.
    const moved = new Float32Array(query.length);
    query.run(1e9, moved);
    structuredClone(moved.buffer, { transfer: [moved.buffer] });
    expect(() => query.run(1e9, moved)).toThrow(/at least 20 elements .* got 0/);
    expect(() => query.run(1e9)).toThrow(/at least 20 elements .* got 0/);

    query.run(1e9, new Float32Array(query.length));
    stage.destroy();
    const err = openXrErrorFrom(() => query.run(1e9));
    expect(err.result).toBe('XR_ERROR_HANDLE_INVALID');
    expect(err.message).toMatch(/spaces\[1\]\.space has been destroyed/);
    expect(openXrErrorFrom(() => session.createFrameQuery({ spaces: [[stage, local]] })).message).toMatch(/spaces\[0\]\.space has been destroyed/);
    const actionQuery = session.createFrameQuery({ actions: [select] });
    select.destroy();
    expect(openXrErrorFrom(() => actionQuery.run(1e9)).message).toMatch(/actions\[0\]\.action has been destroyed/);
    const viewQuery = session.createFrameQuery({ spaces: [[view, local]], views: { space: view } });
    viewQuery.run(1e9);
    session.destroy();
    expect(openXrErrorFrom(() => viewQuery.run(1e9)).result).toBe('XR_ERROR_HANDLE_INVALID');
    rig.instance.destroy();
    expect(openXrErrorFrom(() => viewQuery.run(1e9)).result).toBe('XR_ERROR_HANDLE_INVALID');
    expect(openXrErrorFrom(() => session.createFrameQuery({ spaces: [[view, local]] })).result).toBe('XR_ERROR_HANDLE_INVALID');
  });

  it('NODE-3: the query rebinds only when handed another output; query.out is used when none is passed', async () => {
    const rig = await focusedRig(apiVersion);
    const { session, local, view } = rig;
    const mine = new Float32Array(FRAME_SPACE_FLOATS);
    const query: FrameQuery = session.createFrameQuery({ spaces: [{ space: view, base: local }], out: mine });
    expect(query.out).toBe(mine);
    query.run(2e9);
    const first = Array.from(mine);
    expect(first[7]).toBe(0xf);
    const other = new Float32Array(FRAME_SPACE_FLOATS);
    query.run(2e9, other);
    expect(Array.from(other)).toEqual(first);
    expect(query.out).toBe(other);
    mine.fill(0);
    query.run(3e9);
    expect(Array.from(mine)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]); // the query now writes `other`
    expect(Array.from(other)).not.toEqual(first);
  });
});

describe('frame query through an API layer', () => {
  it('NODE-3: on a 1.1 instance with a pass-through layer, xrLocateSpaces goes through the chain and agrees with xrLocateSpace; locateWith forces the loop', async () => {
    const rig = await focusedRig(XR_API_VERSION_1_1, 1);
    const { session, local, view, stage } = rig;
    const pairs = [[view, local], [stage, local], [stage, view], [local, stage], [view, stage]] as const;
    const query = session.createFrameQuery({ spaces: pairs });
    expect(query.locatePath).toBe('xrLocateSpaces');
    // locateWith 'xrLocateSpace': the native loop even where xrLocateSpaces exists, with the same results.
    const loop = session.createFrameQuery({ spaces: pairs, locateWith: 'xrLocateSpace' });
    expect(loop.locatePath).toBe('xrLocateSpace');
    expect(() => session.createFrameQuery({ spaces: pairs, locateWith: 'fast' as 'auto' })).toThrow(/locateWith must be 'auto' or 'xrLocateSpace'/);
    const pose = new Float32Array(POSE_FLOATS);
    for (const time of [1e9, 1.5e9, 4.25e9]) {
      query.run(time);
      loop.run(time);
      expect(bits(loop.out)).toEqual(bits(query.out));
      pairs.forEach(([s, b], i) => {
        expect(query.out[i * FRAME_SPACE_FLOATS + 7]).toBe(s.locate(b, time, pose));
        expect(bits(query.out.subarray(i * FRAME_SPACE_FLOATS, i * FRAME_SPACE_FLOATS + 7))).toEqual(bits(pose));
      });
    }
  });
});
