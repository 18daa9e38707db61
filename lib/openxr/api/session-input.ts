// What a Session offers about its input sources and play area beyond action state: bound sources
// and their localized names, reference space bounds, hand trackers, and the simulated runtime's
// haptics record. Session's methods delegate here, so session.ts stays about the session itself.
import { nativeActionOf, type Action } from './action.js';
import { callNative, instanceState, nativeSessionOf, pathOf } from './handles.js';
import { openXrErrorFromCode } from './native-instance.js';
import { HandTracker } from './hand-tracker.js';
import type { Session } from './session.js';
import { HANDS, INPUT_SOURCE_NAME_PARTS, REFERENCE_SPACE_TYPES, enumValue, type HandName, type InputSourceNamePart, type ReferenceSpaceTypeName, type XrTime } from './types.js';

/** The simulated runtime's record of one haptic call reaching one output (native/simxr/include/simxr_haptics.h). */
export interface HapticEvent {
  /** The session's frame time when the call came. */
  readonly time: XrTime;
  /** The output, e.g. '/user/hand/left/output/haptic'. */
  readonly source: string;
  /** The XrAction handle the call named. */
  readonly action: bigint;
  /** ns as given (-1n: XR_MIN_HAPTIC_DURATION); 0n for a stop. */
  readonly duration: XrTime;
  readonly frequency: number;
  readonly amplitude: number;
  /** true for xrStopHapticFeedback. */
  readonly stopped: boolean;
}

/** The extent of a reference space's bounds rectangle, metres (XrExtent2Df: width along X, height along Z). */
export interface SpaceBounds {
  readonly width: number;
  readonly height: number;
}

export function boundSources(session: Session, action: Action): string[] {
  const s = instanceState(session.instance);
  const nativeAction = nativeActionOf(action);
  const paths = callNative(() => s.api.openxrBoundSources(nativeSessionOf(session), nativeAction));
  return paths.map((p) => callNative(() => s.api.openxrPathToString(s.native, p)));
}

export function inputSourceLocalizedName(session: Session, source: string, parts: readonly InputSourceNamePart[]): string {
  if (!Array.isArray(parts) || parts.length === 0) throw new TypeError(`parts must be a non-empty array of ${Object.keys(INPUT_SOURCE_NAME_PARTS).map((k) => `'${k}'`).join(', ')}`);
  let flags = 0;
  for (const part of parts) flags |= enumValue(INPUT_SOURCE_NAME_PARTS, part, 'parts[]');
  const s = instanceState(session.instance);
  const path = pathOf(session.instance, source);
  return callNative(() => s.api.openxrInputSourceLocalizedName(nativeSessionOf(session), path, flags));
}

const XR_ERROR_RUNTIME_FAILURE = -2;

export function referenceSpaceBounds(session: Session, type: ReferenceSpaceTypeName): SpaceBounds | null {
  const value = enumValue(REFERENCE_SPACE_TYPES, type, 'referenceSpaceType');
  const s = instanceState(session.instance);
  const nativeSession = nativeSessionOf(session);
  callNative(() => nativeSession.handle); // a destroyed session: XR_ERROR_HANDLE_INVALID first
  refuseCompositorlessBounds(session);
  return callNative(() => s.api.openxrReferenceSpaceBounds(nativeSession, value));
}

/**
 * Monado (up to at least the commit this project pins) asks its compositor for the bounds in
 * xrGetReferenceSpaceBoundsRect (oxr_space.c) without checking that the session has one; a
 * headless session has none, and the call dereferences a null pointer. Refused here with a typed
 * error instead of crashing the process.
 */
function refuseCompositorlessBounds(session: Session): void {
  const runtimeName = session.instance.getProperties().runtimeName;
  if (session.vulkanDevice === undefined && /^Monado\b/.test(runtimeName)) {
    throw openXrErrorFromCode(
      XR_ERROR_RUNTIME_FAILURE,
      `${runtimeName} reads xrGetReferenceSpaceBoundsRect from the session's compositor, which a headless session does not have (the call would crash the process)`,
    );
  }
}

export function createHandTracker(session: Session, hand: HandName): HandTracker {
  const value = enumValue(HANDS, hand, 'hand');
  session.instance.requireExtension('XR_EXT_hand_tracking', 'xrCreateHandTrackerEXT');
  const s = instanceState(session.instance);
  const native = callNative(() => new s.api.OpenXrHandTracker(nativeSessionOf(session), value));
  return new HandTracker(session, native, hand);
}

export function drainHapticEvents(session: Session): HapticEvent[] {
  const s = instanceState(session.instance);
  return callNative(() => s.api.openxrDrainHapticEvents(nativeSessionOf(session))).map((e) => ({
    time: e.time,
    source: callNative(() => s.api.openxrPathToString(s.native, e.source)),
    action: e.action,
    duration: e.duration,
    frequency: e.frequency,
    amplitude: e.amplitude,
    stopped: e.stopped,
  }));
}
