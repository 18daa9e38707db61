// Reads done before JavaScript wakes (docs/usage.md, "Reads done before JavaScript wakes"): a frame
// query the session's wait thread runs right after xrWaitFrame, at that frame's display time (after
// xrSyncActions when asked), so onFrame finds query.out written. Its results must be exactly those
// of the same query run on the JavaScript thread at the same time; the thread writes a buffer of its
// own, and query.out changes only when the frame is delivered.
import { afterEach, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { InvalidStateError } from '../../lib/core/errors.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { XR_API_VERSION_1_0, XR_API_VERSION_1_1 } from '../../lib/generated/openxr.js';
import { nativeSessionOf } from '../../lib/openxr/api/handles.js';
import { runFrameLoop } from '../../lib/openxr/api/frame-loop.js';
import type { FrameQuery, FrameQueryOptions } from '../../lib/openxr/api/frame-query.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import type { Action, ActionSet } from '../../lib/openxr/api/action.js';
import type { Session } from '../../lib/openxr/api/session.js';
import type { Space } from '../../lib/openxr/api/space.js';
import { runUntil } from './helpers.js';
import { threadSanitizerCount } from '../helpers/sanitizer-env.js';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.reverse()) f();
  cleanup = [];
});

function createInstance(apiVersion: bigint): Instance {
  const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: '' };
  const loader = createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions });
  const instance = loader.createInstance({ applicationName: 'wait-thread query test', apiVersion, enabledExtensionNames: ['XR_MND_headless'] });
  cleanup.push(() => {
    if (!instance.isDestroyed) instance.destroy();
  });
  return instance;
}

interface Rig {
  readonly session: Session;
  readonly set: ActionSet;
  readonly options: FrameQueryOptions;
  readonly spaces: readonly Space[];
}

/** A focused session and a query of 16 spaces (several bases), the views and 4 action states. */
async function focusedRig(apiVersion: bigint): Promise<Rig> {
  const instance = createInstance(apiVersion);
  const hands = ['/user/hand/left', '/user/hand/right'];
  const set = instance.createActionSet({ name: 'gameplay', localizedName: 'Gameplay' });
  const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean', subactionPaths: hands });
  const trigger = set.createAction({ name: 'trigger', localizedName: 'Trigger', type: 'float', subactionPaths: hands });
  const hand = set.createAction({ name: 'hand', localizedName: 'Hand', type: 'pose', subactionPaths: hands });
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
  const left = session.createActionSpace(hand, '/user/hand/left');
  const right = session.createActionSpace(hand, '/user/hand/right');
  const pairs: [Space, Space][] = [];
  for (let i = 0; pairs.length < 16; i++) pairs.push(([[view, local], [left, local], [right, stage], [left, right]] as [Space, Space][])[i % 4]!);
  const actions: (Action | { action: Action; subactionPath: string })[] = [
    { action: select, subactionPath: '/user/hand/left' },
    { action: select, subactionPath: '/user/hand/right' },
    { action: trigger, subactionPath: '/user/hand/right' },
    { action: hand, subactionPath: '/user/hand/left' },
  ];
  await runUntil(session, () => session.state === 'focused');
  return { session, set, options: { spaces: pairs, views: { space: local }, actions }, spaces: [local, view, stage, left, right] };
}

const bits = (a: Float32Array): number[] => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

describe.each([
  ['1.0', XR_API_VERSION_1_0],
  ['1.1', XR_API_VERSION_1_1],
] as const)('the wait thread frame query on an OpenXR %s instance (simulated runtime)', (_name, apiVersion) => {
  it('NODE-3: runFrameLoop with frameQuery: onFrame finds query.out written, bit for bit what the same query run on the JavaScript thread at the frame time answers, actions synced first', async () => {
    const rig = await focusedRig(apiVersion);
    const { session } = rig;
    const query = session.createFrameQuery(rig.options);
    const onThread = session.createFrameQuery(rig.options);
    const frames = new Set<string>();
    let compared = 0;
    let selectSeen = new Set<number>();
    // Under ThreadSanitizer a frame costs several times as much: a longer loop, fewer frames compared.
    const stats = await runFrameLoop(session, {
      durationMs: threadSanitizerCount(700, 2000),
      frameQuery: query,
      syncActions: [rig.set],
      onFrame(frame) {
        // No sync between the thread's run and this one: the same action states, the same time.
        onThread.run(frame.predictedDisplayTime);
        expect(bits(query.out), `frame at ${frame.predictedDisplayTime}`).toEqual(bits(onThread.out));
        frames.add(bits(query.out.subarray(0, query.layout.actions)).join(','));
        selectSeen.add(query.out[query.actionOffset(1)]!);
        compared++;
      },
    });
    expect(compared).toBeGreaterThan(threadSanitizerCount(20, 5));
    expect(stats.frameQueryRuns).toEqual({ waitThread: stats.frames, javaScriptThread: 0 });
    // The scripted motion moves the poses every frame: each frame's results are its own.
    expect(frames.size).toBe(compared);
    // The actions were synced on the wait thread (no syncActions here): the active pose reads active.
    expect(query.out[query.actionOffset(3) + 3]).toBe(1);
    selectSeen = new Set([...selectSeen].filter((v) => v === 0 || v === 1));
    expect(selectSeen.size).toBeGreaterThan(0);
    // Detached when the loop returned: a wait no longer writes query.out.
    expect(() => session.setWaitFrameQuery(undefined)).not.toThrow();
  });
});

describe('the wait thread frame query, double-buffered', () => {
  it('NODE-3: query.out never changes while a wait is in flight, even after the wait thread wrote its results; it changes when the frame is delivered', async () => {
    const rig = await focusedRig(XR_API_VERSION_1_0);
    const { session } = rig;
    const query: FrameQuery = session.createFrameQuery(rig.options);
    const onThread = session.createFrameQuery(rig.options);
    session.setWaitFrameQuery(query, { syncActions: [rig.set] });
    const native = nativeSessionOf(session);
    let checked = 0;
    for (let frame = 0; frame < 12; frame++) {
      const before = bits(query.out);
      const pending = session.waitFrame();
      // Hold the JavaScript thread (no await: the frame would be delivered) until the wait thread
      // has finished this wait and its query; then the front buffer must still hold the last frame.
      const deadline = performance.now() + 5000;
      while (!native.waitFrameResultWaiting && performance.now() < deadline) {
        // spin
      }
      expect(native.waitFrameResultWaiting).toBe(true);
      expect(bits(query.out)).toEqual(before);
      const state = await pending;
      expect(native.waitFrameResultWaiting).toBe(false);
      expect(bits(query.out)).not.toEqual(before);
      onThread.run(state.predictedDisplayTime);
      expect(bits(query.out)).toEqual(bits(onThread.out));
      session.beginFrame();
      session.endFrame();
      checked++;
    }
    expect(checked).toBe(12);
    session.setWaitFrameQuery(undefined);
  });

  it('NODE-3: while the wait thread may read them, the query handles refuse destroy() (InvalidStateError); after the frame they destroy, and the next wait names the destroyed one', async () => {
    const rig = await focusedRig(XR_API_VERSION_1_0);
    const { session, set } = rig;
    const query = session.createFrameQuery(rig.options);
    session.setWaitFrameQuery(query, { syncActions: [set] });
    const pending = session.waitFrame();
    const space = rig.spaces[3]!; // the left grip space, in the list
    expect(() => space.destroy()).toThrow(InvalidStateError);
    expect(() => set.destroy()).toThrow(InvalidStateError);
    expect(() => session.setWaitFrameQuery(undefined)).toThrow(/XR_ERROR_CALL_ORDER_INVALID/);
    expect(space.isDestroyed).toBe(false);
    await pending;
    session.beginFrame();
    session.endFrame();
    space.destroy();
    expect(space.isDestroyed).toBe(true);
    await expect(session.waitFrame()).rejects.toMatchObject({ code: 'XR_ERROR_HANDLE_INVALID', message: expect.stringMatching(/spaces\[1\]\.space has been destroyed/) });
    session.setWaitFrameQuery(undefined);
    await session.waitFrame();
  });
});
