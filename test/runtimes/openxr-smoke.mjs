// The typed OpenXR API's smoke suite, run as it is under Node, Bun and Deno (docs/platforms.md,
// "Bun and Deno"): the loader, an instance on the bundled simulated runtime, its system, a headless
// session, a frame loop of a few dozen frames, spaces and views located, actions (a float, a pose
// and a vibration action) read and driven, typed errors for misuse, and teardown. Every check
// asserts what the simulated runtime is configured to answer (native/bundled/simxr/README.md).
//
//   node|bun|deno run -A test/runtimes/openxr-smoke.mjs     (after npm run build)
//
// It prints one line per check and exits 1 when any fails.
import { InvalidStateError } from '../../dist/index.js';
import {
  createLoader,
  drainHapticEvents,
  OpenXrError,
  POSE_FLOATS,
  runFrameLoop,
  simulatedRuntime,
  VIEW_FLOATS,
} from '../../dist/openxr/index.js';
import { assert, runChecks } from './harness.mjs';

// The simulated runtime reads these from its environment at xrCreateInstance; values other than
// its defaults, so the checks see them arrive. Whoever runs the suite sets them at start
// (SMOKE_ENV in scripts/runtimes/bun-deno.ts); a bare run sets them here, which reaches the runtime
// under Node and Deno but not under Bun (the last checks but one).
const HZ = 60;
const WIDTH = 640;
const HEIGHT = 480;
const IPD_M = 0.07;
process.env.SIMXR_DISPLAY_HZ ??= String(HZ);
process.env.SIMXR_RESOLUTION ??= `${WIDTH}x${HEIGHT}`;
process.env.SIMXR_IPD_M ??= String(IPD_M);
process.env.SIMXR_CONTROLLER ??= 'touch';
const IS_BUN = typeof globalThis.Bun !== 'undefined';

const FRAMES = 30;
const TOUCH = '/interaction_profiles/oculus/touch_controller';
const LEFT = '/user/hand/left';
// XrSpaceLocationFlags: ORIENTATION_VALID | POSITION_VALID.
const POSE_VALID = 0x1 | 0x2;
// XrViewStateFlags of xrLocateViews: the same two bits.
const VIEWS_VALID = 0x1 | 0x2;

/** What the frame loop saw, for the checks after it. */
const seen = { frames: 0, times: [], synced: 0, trigger: [], gripFlags: [], headFlags: [], viewFlags: [], eyeDistance: [], unitQuaternion: [], haptics: 0 };
let loader;
let instance;
let system;
let session;
let local;
let view;
let grip;
let actions;
let stats;
/** The session's stateChanged events, in order. */
const states = [];

const quaternionLength = (pose, at = 0) => Math.hypot(pose[at + 3], pose[at + 4], pose[at + 5], pose[at + 6]);
const finite = (array) => array.every((v) => Number.isFinite(v));

await runChecks(
  'openxr smoke',
  [
    [
      'OPENXR: the loader finds the bundled simulated runtime and lists its extensions',
      () => {
        loader = createLoader({ runtime: simulatedRuntime() });
        assert.match(loader.discover().runtime?.manifestPath ?? '', /khronos_simxr\.json$/);
        const names = loader.enumerateInstanceExtensionProperties().map((e) => e.name);
        for (const name of ['XR_MND_headless', 'XR_EXT_hand_tracking', 'XR_KHR_vulkan_enable2']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      },
    ],
    [
      'OPENXR: an instance is created through the loader and names the runtime',
      () => {
        instance = loader.createInstance({ applicationName: 'khronos-loader runtimes smoke', enabledExtensionNames: ['XR_MND_headless'] });
        assert.match(instance.getProperties().runtimeName, /simulated runtime/);
        assert.deepEqual([...instance.enabledExtensionNames], ['XR_MND_headless']);
        assert.equal(typeof instance.handle, 'bigint');
        assert.notEqual(instance.handle, 0n);
      },
    ],
    [
      'OPENXR: the system is a stereo HMD with the configured image size',
      () => {
        system = instance.getSystem('head-mounted-display');
        const properties = system.getProperties();
        assert.equal(properties.systemId, system.id);
        assert.equal(properties.trackingProperties.orientationTracking, true);
        assert.ok(system.viewConfigurations().includes('primary-stereo'));
        const views = system.viewConfigurationViews('primary-stereo');
        assert.equal(views.length, 2);
        for (const v of views) assert.deepEqual([v.recommendedImageRectWidth, v.recommendedImageRectHeight], [WIDTH, HEIGHT]);
      },
    ],
    [
      'OPENXR: a headless session is created; its stateChanged listener is registered',
      () => {
        session = instance.createSession(system, { headless: true });
        // Events arrive as the frame loop polls them; the loop's check asserts what was heard.
        session.on('stateChanged', (state) => states.push(state));
        assert.equal(session.listenerCount('stateChanged'), 1);
        assert.equal(session.viewCount(), 2);
        assert.ok(session.referenceSpaceTypes().includes('local'));
      },
    ],
    [
      'OPENXR: actions are created, suggested for the Oculus Touch controller and attached',
      () => {
        const set = instance.createActionSet({ name: 'smoke', localizedName: 'Smoke' });
        const trigger = set.createAction({ name: 'trigger', localizedName: 'Trigger', type: 'float', subactionPaths: [LEFT] });
        const pose = set.createAction({ name: 'grip', localizedName: 'Grip', type: 'pose', subactionPaths: [LEFT] });
        const buzz = set.createAction({ name: 'buzz', localizedName: 'Buzz', type: 'vibration', subactionPaths: [LEFT] });
        instance.suggestBindings(TOUCH, [
          { action: trigger, path: `${LEFT}/input/trigger/value` },
          { action: pose, path: `${LEFT}/input/grip/pose` },
          { action: buzz, path: `${LEFT}/output/haptic` },
        ]);
        session.attachActionSets([set]);
        assert.equal(session.currentInteractionProfile(LEFT), TOUCH);
        assert.deepEqual(session.boundSources(trigger), [`${LEFT}/input/trigger/value`]);
        actions = { set, trigger, pose, buzz };
        local = session.createReferenceSpace('local');
        view = session.createReferenceSpace('view');
        grip = session.createActionSpace(pose, LEFT);
      },
    ],
    [
      `OPENXR: runFrameLoop runs ${FRAMES} frames at the runtime's ${HZ} Hz, locating the head, the views and the grip each frame`,
      async () => {
        const head = new Float32Array(POSE_FLOATS);
        const gripPose = new Float32Array(POSE_FLOATS);
        const views = new Float32Array(session.viewCount() * VIEW_FLOATS);
        const stop = new AbortController();
        stats = await runFrameLoop(session, {
          durationMs: 10_000, // a cap: the loop stops after FRAMES frames
          signal: stop.signal,
          onFrame(frame) {
            seen.frames++;
            seen.times.push(frame.predictedDisplayTime);
            if (session.syncActions([actions.set])) {
              seen.synced++;
              const trigger = actions.trigger.getFloat(LEFT);
              if (trigger.isActive) seen.trigger.push(trigger.currentState);
              if (actions.buzz.applyHapticFeedback({ amplitude: 0.5, duration: 10_000_000n }, LEFT)) seen.haptics++;
            }
            seen.headFlags.push(view.locate(local, frame.predictedDisplayTime, head));
            seen.unitQuaternion.push(finite(head) && Math.abs(quaternionLength(head) - 1) < 1e-3);
            seen.gripFlags.push(grip.locate(local, frame.predictedDisplayTime, gripPose));
            seen.viewFlags.push(session.locateViews(local, frame.predictedDisplayTime, views));
            seen.eyeDistance.push(Math.hypot(views[0] - views[VIEW_FLOATS], views[1] - views[VIEW_FLOATS + 1], views[2] - views[VIEW_FLOATS + 2]));
            if (seen.frames >= FRAMES) stop.abort();
          },
        });
        assert.ok(stats.frames >= FRAMES, `${stats.frames} frames`);
        assert.ok(stats.rendered >= FRAMES - 2, `${stats.rendered} rendered of ${stats.frames}`);
        assert.equal(stats.mode?.pacing, 'runtime');
        assert.equal(stats.mode?.frameTimes, 'wait-frame');
        // The runtime's display period is 1/HZ s.
        assert.ok(Math.abs(stats.displayPeriod - 1e9 / HZ) < 1e3, `display period ${stats.displayPeriod} ns`);
        for (let i = 1; i < seen.times.length; i++) assert.ok(seen.times[i] > seen.times[i - 1], `frame times increase (${seen.times[i - 1]} then ${seen.times[i]})`);
        // The simulated runtime's lifecycle, every step an event: up to focused, then down to
        // stopping once the loop asked to exit, idle and exiting after it ended the session.
        assert.deepEqual(states.slice(0, 5), ['idle', 'ready', 'synchronized', 'visible', 'focused']);
        assert.ok(states.includes('stopping'), `states: ${states.join(', ')}`);
        assert.deepEqual(states.slice(-2), ['idle', 'exiting']);
      },
    ],
    [
      'OPENXR: the head and both views are located with valid, normalized poses, the eyes IPD apart',
      () => {
        assert.ok(seen.headFlags.length >= FRAMES);
        assert.ok(seen.headFlags.every((f) => (f & POSE_VALID) === POSE_VALID), `head flags ${seen.headFlags.join(',')}`);
        assert.ok(seen.unitQuaternion.every(Boolean), 'every head pose finite with a unit quaternion');
        assert.ok(seen.viewFlags.every((f) => (f & VIEWS_VALID) === VIEWS_VALID), `view flags ${seen.viewFlags.join(',')}`);
        for (const d of seen.eyeDistance) assert.ok(Math.abs(d - IPD_M) < 1e-4, `eye distance ${d} m, configured ${IPD_M}`);
      },
    ],
    [
      'OPENXR: actions are synced once focused: the trigger reads in [0, 1], the grip is located, haptics reach the runtime',
      () => {
        assert.ok(seen.synced > 0, 'syncActions returned true at least once (focused)');
        assert.ok(seen.trigger.length > 0 && seen.trigger.every((v) => v >= 0 && v <= 1), `trigger ${seen.trigger.join(',')}`);
        assert.ok(seen.gripFlags.slice(-seen.synced).every((f) => (f & POSE_VALID) === POSE_VALID), `grip flags ${seen.gripFlags.join(',')}`);
        assert.equal(seen.haptics, seen.synced);
        const recorded = drainHapticEvents(session);
        assert.equal(recorded.length, seen.haptics);
        assert.ok(recorded.every((e) => e.source === `${LEFT}/output/haptic` && Math.abs(e.amplitude - 0.5) < 1e-6), JSON.stringify(recorded[0], (_, v) => (typeof v === 'bigint' ? String(v) : v)));
      },
    ],
    [
      'OPENXR: space.locate in a tight loop answers a valid pose every call (its ns per call printed as "measure:")',
      () => {
        const head = new Float32Array(POSE_FLOATS);
        const time = seen.times.at(-1);
        const calls = 200_000;
        let valid = 0;
        for (let i = 0; i < 50_000; i++) view.locate(local, time, head); // warm-up: the JIT compiles the loop
        const started = performance.now();
        for (let i = 0; i < calls; i++) if ((view.locate(local, time, head) & POSE_VALID) === POSE_VALID) valid++;
        const ns = ((performance.now() - started) * 1e6) / calls;
        assert.equal(valid, calls);
        console.log(`measure: space.locate ${ns.toFixed(0)} ns per call (${calls} calls, no API layer)`);
      },
    ],
    [
      'OPENXR: misuse throws typed errors, never a crash',
      () => {
        // The session has ended: beginFrame is refused (by the runtime or before the call).
        assert.throws(() => session.beginFrame(), (e) => e instanceof OpenXrError || e instanceof InvalidStateError);
        assert.throws(() => view.locate(local, 0n, new Float32Array(2)), TypeError);
        assert.throws(() => view.locate(local, 'soon', new Float32Array(POSE_FLOATS)), TypeError);
      },
    ],
    [
      IS_BUN
        ? "OPENXR: process.env written after start does not reach the runtime's getenv under Bun (its process.env does not call setenv)"
        : "OPENXR: process.env written after start reaches the runtime's getenv (Node, Deno)",
      () => {
        const saved = process.env.SIMXR_RESOLUTION;
        process.env.SIMXR_RESOLUTION = '320x240';
        let second;
        try {
          second = loader.createInstance({ applicationName: 'khronos-loader runtimes smoke, second', enabledExtensionNames: ['XR_MND_headless'] });
          const width = second.getSystem('head-mounted-display').viewConfigurationViews('primary-stereo')[0].recommendedImageRectWidth;
          if (IS_BUN) assert.notEqual(width, 320, 'Bun now passes process.env writes on: update docs/platforms.md, "Bun and Deno"');
          else assert.equal(width, 320);
        } finally {
          second?.destroy();
          process.env.SIMXR_RESOLUTION = saved;
        }
      },
    ],
    [
      'OPENXR: destroying the instance destroys its session and spaces; calls on them then throw XR_ERROR_HANDLE_INVALID',
      () => {
        instance.destroy();
        assert.equal(session.isDestroyed, true);
        assert.equal(local.isDestroyed, true);
        assert.throws(() => view.locate(local, 1n, new Float32Array(POSE_FLOATS)), (e) => e instanceof OpenXrError && e.result === 'XR_ERROR_HANDLE_INVALID');
        instance.destroy(); // a second destroy does nothing
      },
    ],
  ],
  { cleanup: () => instance?.destroy() },
);
