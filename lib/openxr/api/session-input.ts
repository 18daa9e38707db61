// What a Session offers about its input sources and play area beyond action state: bound sources
// and their localized names, reference space bounds, hand trackers. Session's methods delegate
// here, so session.ts stays about the session itself.
import { markAttached, nativeActionOf, nativeActionSetOf, type Action, type ActionSet } from './action.js';
import { callNative, instanceState, nativeSessionOf, pathOf } from './handles.js';
import { openXrErrorFromCode, rethrowNative } from '../errors.js';
import { HandTracker } from './hand-tracker.js';
import type { ActiveActionSet, Session } from './session.js';
import type { Instance } from './instance.js';
import type { NativeSession } from '../native/addon.js';
import { HANDS, INPUT_SOURCE_NAME_PARTS, REFERENCE_SPACE_TYPES, enumValue, type HandName, type InputSourceNamePart, type ReferenceSpaceTypeName } from './types.js';
import { invalidArgument } from '../../core/errors.js';

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
  if (!Array.isArray(parts) || parts.length === 0) throw invalidArgument('parts', `a non-empty array of ${Object.keys(INPUT_SOURCE_NAME_PARTS).map((k) => `'${k}'`).join(', ')}`, parts);
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

/** xrAttachSessionActionSets (once per session). */
export function attachActionSets(session: Session, native: NativeSession, actionSets: readonly ActionSet[]): void {
  if (!Array.isArray(actionSets)) throw invalidArgument('attachActionSets(actionSets)', 'an array of ActionSet', actionSets);
  const natives = actionSets.map((s) => nativeActionSetOf(s));
  callNative(() => native.attachActionSets(natives));
  for (const s of actionSets) markAttached(s, session);
}

/** @internal xrSyncActions' native arguments: each set's native object and subaction path (`what` names the argument in errors). */
export function nativeActiveActionSets(
  instance: Instance,
  actionSets: readonly (ActionSet | ActiveActionSet)[],
  what: string,
): { sets: ReturnType<typeof nativeActionSetOf>[]; paths: (bigint | undefined)[] } {
  if (!Array.isArray(actionSets)) throw invalidArgument(what, 'an array of ActionSet or { actionSet, subactionPath }', actionSets);
  const sets = actionSets.map((a: ActionSet | ActiveActionSet, i: number) => {
    if (typeof a !== 'object' || a === null) throw invalidArgument(`${what}: actionSets[${i}]`, 'an ActionSet or { actionSet, subactionPath }', a);
    return nativeActionSetOf('actionSet' in a ? a.actionSet : a);
  });
  const paths = actionSets.map((a: ActionSet | ActiveActionSet) => ('actionSet' in a && a.subactionPath !== undefined ? pathOf(instance, a.subactionPath) : undefined));
  return { sets, paths };
}

/** @internal xrSyncActions: the last array passed and its native form, reused while the caller reuses it. */
export class ActionSync {
  readonly #instance: Instance;
  readonly #native: NativeSession;
  #input: readonly (ActionSet | ActiveActionSet)[] | undefined;
  #sets: ReturnType<typeof nativeActionSetOf>[] = [];
  #paths: (bigint | undefined)[] = [];

  constructor(instance: Instance, native: NativeSession) {
    this.#instance = instance;
    this.#native = native;
  }

  /** false when the session is not focused (XR_SESSION_NOT_FOCUSED). */
  sync(actionSets: readonly (ActionSet | ActiveActionSet)[]): boolean {
    if (actionSets !== this.#input) {
      const { sets, paths } = nativeActiveActionSets(this.#instance, actionSets, 'syncActions(actionSets)');
      this.#sets = sets;
      this.#paths = paths;
      this.#input = actionSets;
    }
    try {
      return this.#native.syncActions(this.#sets, this.#paths) === 0;
    } catch (error) {
      rethrowNative(error);
    }
  }
}
