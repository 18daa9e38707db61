// Controllers and hands in Node: a thumbstick moves you around the play area, the A button (or
// the trigger on a simple controller) fires with a haptic pulse in that hand, and both hands'
// 26 joints are located every frame (XR_EXT_hand_tracking). On the simulated runtime that ships
// with khronos-loader the controllers and hands move on a script; on another runtime
// (XR_RUNTIME_JSON) whatever it offers is used and the rest is skipped.
//
//   npx tsx examples/controllers-and-hands.ts
//
// The per-frame code (`onFrame`) allocates nothing: its outputs are typed arrays made once and
// the state objects the action reads answer with are reused (test/openxr-api/heap-controllers.test.ts
// checks it).
import { pathToFileURL } from 'node:url';
import {
  createLoader,
  drainHapticEvents,
  runFrameLoop,
  simulatedRuntime,
  HAND_JOINT_COUNT,
  HAND_JOINT_POSITION,
  HAND_JOINT_STRIDE,
  HAND_JOINTS,
  type FrameState,
  type HandTracker,
  type Instance,
  type Session,
  type Space,
} from 'khronos-loader/openxr';

const HANDS = ['/user/hand/left', '/user/hand/right'] as const;
const THUMB_TIP = HAND_JOINTS.indexOf('thumb-tip');
const INDEX_TIP = HAND_JOINTS.indexOf('index-tip');

export interface ControllerAppStats {
  frames: number;
  /** Where the thumbstick has moved the user, metres in the play area (x, z). */
  readonly position: Float64Array;
  shots: number;
  /** Frames in which each hand was tracked. */
  readonly handFrames: [number, number];
  /** The closest the thumb and index tips of each hand came (a pinch), metres. */
  readonly closestPinch: [number, number];
}

export interface ControllerApp {
  /** Call once per frame, between beginFrame and endFrame, with the frame's state. */
  onFrame(frame: FrameState): void;
  readonly stats: ControllerAppStats;
}

/** Sets up actions (before the session's first sync) and hand trackers; the returned onFrame does the per-frame work. */
export function createControllerApp(instance: Instance, session: Session, stage: Space): ControllerApp {
  const set = instance.createActionSet({ name: 'play', localizedName: 'Play' });
  const move = set.createAction({ name: 'move', localizedName: 'Move', type: 'vector2f', subactionPaths: [...HANDS] });
  const fire = set.createAction({ name: 'fire', localizedName: 'Fire', type: 'boolean', subactionPaths: [...HANDS] });
  const buzz = set.createAction({ name: 'buzz', localizedName: 'Buzz', type: 'vibration', subactionPaths: [...HANDS] });
  const haptics = HANDS.flatMap((hand) => [{ action: buzz, path: `${hand}/output/haptic` }]);
  instance.suggestBindings('/interaction_profiles/oculus/touch_controller', [
    { action: move, path: '/user/hand/left/input/thumbstick' },
    { action: fire, path: '/user/hand/right/input/a/click' },
    { action: fire, path: '/user/hand/left/input/x/click' },
    ...haptics,
  ]);
  instance.suggestBindings('/interaction_profiles/valve/index_controller', [
    { action: move, path: '/user/hand/left/input/thumbstick' },
    ...HANDS.map((hand) => ({ action: fire, path: `${hand}/input/a/click` })),
    ...haptics,
  ]);
  instance.suggestBindings('/interaction_profiles/khr/simple_controller', [...HANDS.map((hand) => ({ action: fire, path: `${hand}/input/select/click` })), ...haptics]);
  session.attachActionSets([set]);

  const trackers: HandTracker[] = instance.enabledExtensionNames.includes('XR_EXT_hand_tracking')
    ? [session.createHandTracker('left'), session.createHandTracker('right')]
    : [];
  // Made once, reused every frame.
  // The runtime writes its XrHandJointLocationEXT array straight into these (HAND_JOINT_STRIDE floats a joint).
  const joints = [new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE), new Float32Array(HAND_JOINT_COUNT * HAND_JOINT_STRIDE)];
  const active = [set];
  const pulse = { amplitude: 0.8, frequency: 0, duration: 30_000_000n };
  const stats: ControllerAppStats = { frames: 0, position: new Float64Array(2), shots: 0, handFrames: [0, 0], closestPinch: [Infinity, Infinity] };

  function onFrame(frame: FrameState): void {
    stats.frames++;
    if (!session.syncActions(active)) return; // not focused: no input
    const stick = move.getVector2f('/user/hand/left');
    if (stick.isActive) {
      const seconds = frame.predictedDisplayPeriod / 1e9;
      (stats.position[0] as number) += stick.currentState.x * seconds; // 1 m/s at full deflection
      (stats.position[1] as number) -= stick.currentState.y * seconds;
    }
    for (let h = 0; h < HANDS.length; h++) {
      const hand = HANDS[h] as string;
      const pressed = fire.getBoolean(hand);
      if (pressed.isActive && pressed.changedSinceLastSync && pressed.currentState) {
        stats.shots++;
        buzz.applyHapticFeedback(pulse, hand);
      }
      const tracker = trackers[h];
      const out = joints[h] as Float32Array;
      if (tracker !== undefined && tracker.locate(stage, frame.predictedDisplayTime, out)) {
        stats.handFrames[h] = (stats.handFrames[h] as number) + 1;
        const t = THUMB_TIP * HAND_JOINT_STRIDE + HAND_JOINT_POSITION;
        const i = INDEX_TIP * HAND_JOINT_STRIDE + HAND_JOINT_POSITION;
        // Not Math.hypot: V8's optimised code does not always inline it, and a call boxes its
        // three arguments and result (~190 bytes a frame for two hands, seen on a loaded machine).
        const dx = (out[t] as number) - (out[i] as number);
        const dy = (out[t + 1] as number) - (out[i + 1] as number);
        const dz = (out[t + 2] as number) - (out[i + 2] as number);
        const pinch = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (pinch < (stats.closestPinch[h] as number)) stats.closestPinch[h] = pinch;
      }
    }
  }
  return { onFrame, stats };
}

async function main(): Promise<void> {
  process.env.XR_RUNTIME_JSON ??= simulatedRuntime();
  const loader = createLoader();
  const offered = new Set(loader.enumerateInstanceExtensionProperties().map((e) => e.name));
  const instance = loader.createInstance({
    applicationName: 'controllers-and-hands example',
    enabledExtensionNames: ['XR_MND_headless', ...['XR_EXT_hand_tracking', 'XR_KHR_convert_timespec_time'].filter((e) => offered.has(e))],
  });
  const session = instance.createSession(instance.getSystem(), { headless: true });
  const stage = session.createReferenceSpace('stage');
  const app = createControllerApp(instance, session, stage);
  const bounds = session.referenceSpaceBounds('stage');
  console.log(bounds === null ? 'play area: unknown' : `play area: ${bounds.width} m x ${bounds.height} m`);
  await runFrameLoop(session, { durationMs: 3000, onFrame: (frame) => (frame.predictedDisplayTime === 0n ? undefined : app.onFrame(frame)) });
  const s = app.stats;
  console.log(`interaction profile: ${session.currentInteractionProfile('/user/hand/left') ?? 'none'}`);
  console.log(`${s.frames} frames; moved to (${s.position[0]?.toFixed(2)}, ${s.position[1]?.toFixed(2)}); ${s.shots} shots`);
  console.log(`hands tracked in ${s.handFrames[0]} and ${s.handFrames[1]} frames; closest pinch ${s.closestPinch.map((d) => (d === Infinity ? '-' : `${(d * 100).toFixed(1)} cm`)).join(' and ')}`);
  try {
    console.log(`the runtime felt ${drainHapticEvents(session).filter((e) => !e.stopped).length} haptic pulses`);
  } catch {
    // Only the simulated runtime keeps a record of haptics.
  }
  instance.destroy();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
