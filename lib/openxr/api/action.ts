// Action sets and actions. State reads are per-frame calls: each (action, subaction path,
// session) gets a native reader bound to a Float64Array and a BigInt64Array (lastChangeTime, an
// XrTime), and the result object it answers with is reused (copy what you keep). Haptics:
// applyHapticFeedback / stopHapticFeedback on vibration actions.
import type { Instance } from './instance.js';
import { OpenXrError } from '../errors.js';
import { callNative, instanceState, nativeSessionOf, pathOf } from './handles.js';
import { fromNative, rethrowNative } from '../errors.js';
import { XR_INTERACTION_PROFILES } from '../../generated/openxr-interaction-profiles.js';
import { loadOpenXrAddon, type NativeAction, type NativeActionSet, type NativeBound, type NativeOpenXrAddon } from '../native/addon.js';
import type { Session } from './session.js';
import { ACTION_TYPES, enumValue, type ActionTypeName, type XrTime } from './types.js';
import { invalidArgument } from '../../core/errors.js';

let actionSetNativeOf: (set: ActionSet) => NativeActionSet;
let setAttachedSession: (set: ActionSet, session: Session) => void;
let actionNativeOf: (action: Action) => NativeAction;

/** @internal session.attachActionSets() records the session on each set it attached. */
export function markAttached(set: ActionSet, session: Session): void {
  setAttachedSession(set, session);
}

/** @internal */
export function nativeActionSetOf(set: unknown): NativeActionSet {
  if (!(set instanceof ActionSet)) throw invalidArgument('actionSet', 'an ActionSet', set);
  return actionSetNativeOf(set);
}

/** @internal */
export function nativeActionOf(action: unknown): NativeAction {
  if (!(action instanceof Action)) throw invalidArgument('action', 'an Action', action);
  return actionNativeOf(action);
}

export interface ActionSetOptions {
  /** Lower-case identifier (xr.xml: well-formed path component). */
  readonly name: string;
  readonly localizedName: string;
  readonly priority?: number;
}

export interface ActionOptions {
  readonly name: string;
  readonly localizedName: string;
  readonly type: ActionTypeName;
  /** Top-level user paths such as '/user/hand/left'. */
  readonly subactionPaths?: readonly string[];
}

/** The reused answer of action.getBoolean(). */
export interface BooleanActionState {
  readonly currentState: boolean;
  readonly changedSinceLastSync: boolean;
  /** When the state last changed (XrTime, ns); 0n when inactive. Read on access: not reading it allocates nothing. */
  readonly lastChangeTime: XrTime;
  readonly isActive: boolean;
}

/** The reused answer of action.getFloat(). */
export interface FloatActionState {
  readonly currentState: number;
  readonly changedSinceLastSync: boolean;
  readonly lastChangeTime: XrTime;
  readonly isActive: boolean;
}

/** The reused answer of action.getVector2f() (a thumbstick, a trackpad): x and y in [-1, 1]. */
export interface Vector2fActionState {
  /** The same object every call, updated in place. */
  readonly currentState: { readonly x: number; readonly y: number };
  readonly changedSinceLastSync: boolean;
  readonly lastChangeTime: XrTime;
  readonly isActive: boolean;
}

export interface PoseActionState {
  readonly isActive: boolean;
}

/** XrHapticVibration. */
export interface HapticVibration {
  /** ns (bigint or number); default -1n, XR_MIN_HAPTIC_DURATION: the shortest pulse the device can make. */
  readonly duration?: XrTime | number;
  /** Hz; default 0, XR_FREQUENCY_UNSPECIFIED: the runtime's choice. */
  readonly frequency?: number;
  /** 0..1. */
  readonly amplitude: number;
}

/** XR_MIN_HAPTIC_DURATION. */
export const MIN_HAPTIC_DURATION = -1n;

/**
 * What a state reader answers with: the fields read from the bound arrays (lastChangeTime only
 * when asked for). One class per action type, so that each answer's currentState keeps one
 * representation (a boolean, a number, the reused vector) and the read that fills it stays
 * monomorphic in V8 (docs/performance.md, "The per-call path at the N-API minimum").
 */
class ActionStateView {
  changedSinceLastSync = false;
  isActive = false;
  readonly #time: BigInt64Array;
  constructor(time: BigInt64Array) {
    this.#time = time;
  }
  get lastChangeTime(): XrTime {
    return this.#time[0] as bigint;
  }
}

class BooleanStateView extends ActionStateView {
  currentState = false;
}

class FloatStateView extends ActionStateView {
  currentState = 0;
}

class Vector2fStateView extends ActionStateView {
  readonly currentState = { x: 0, y: 0 };
}

class PoseStateView extends ActionStateView {}

/** The answer class of each type that has a state reader. */
const STATE_VIEWS = { boolean: BooleanStateView, float: FloatStateView, vector2f: Vector2fStateView, pose: PoseStateView } as const;
type StateViewType = keyof typeof STATE_VIEWS;

/** A bound native reader and its answer: made once per (subaction path, session), reused by every read. */
interface Reader<View extends ActionStateView = ActionStateView> {
  readonly session: Session;
  readonly bound: NativeBound<'actionState'>;
  readonly out: Float64Array;
  readonly result: View;
}

export class ActionSet {
  readonly instance: Instance;
  readonly name: string;
  readonly #native: NativeActionSet;
  #attachedSession: Session | undefined;

  static {
    actionSetNativeOf = (set) => set.#native;
    setAttachedSession = (set, session) => {
      set.#attachedSession = session;
    };
  }

  /** The session the set was attached to by session.attachActionSets() (action state reads default to it). */
  get attachedSession(): Session | undefined {
    return this.#attachedSession;
  }

  /** @internal Use instance.createActionSet(). */
  constructor(instance: Instance, native: NativeActionSet, name: string) {
    this.instance = instance;
    this.#native = native;
    this.name = name;
  }

  get handle(): bigint {
    return callNative(() => this.#native.handle);
  }

  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /** xrCreateAction. */
  createAction(options: ActionOptions): Action {
    if (typeof options !== 'object' || options === null) throw invalidArgument('createAction(options): options', '{ name, localizedName, type }', options);
    const type = enumValue(ACTION_TYPES, options.type, 'type');
    const paths = (options.subactionPaths ?? []).map((p) => pathOf(this.instance, p));
    const api = instanceState(this.instance).api;
    const native = withNameReason(() => new api.OpenXrAction(this.#native, options.name, options.localizedName, type, paths), 'action', options, `action set '${this.name}'`);
    return new Action(this, native, options.name, options.type);
  }

  /** xrDestroyActionSet: its actions are destroyed with it. Does nothing once destroyed. */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    callNative(() => this.#native.destroy());
  }
}

export class Action {
  readonly actionSet: ActionSet;
  readonly name: string;
  readonly type: ActionTypeName;
  readonly #native: NativeAction;
  readonly #readers = new Map<string, Reader>();
  // The reader of a call with no subaction path and no session, the common per-frame call: found
  // without the map lookup.
  #defaultReader: Reader | undefined;
  // The one native function that reads every action's state: the call in #read() keeps one target.
  readonly #readNative: NativeOpenXrAddon['openxrReadActionState'] = loadOpenXrAddon().openxrReadActionState;

  static {
    actionNativeOf = (action) => action.#native;
  }

  /** @internal Use actionSet.createAction(). */
  constructor(actionSet: ActionSet, native: NativeAction, name: string, type: ActionTypeName) {
    this.actionSet = actionSet;
    this.#native = native;
    this.name = name;
    this.type = type;
  }

  get handle(): bigint {
    return callNative(() => this.#native.handle);
  }

  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /** xrGetActionStateBoolean as of the last syncActions; the returned object is reused. */
  // Each getter fills its own answer class: the shared #read() touches only the readers (one shape
  // for every type), so reading actions of several types in one frame leaves each getter monomorphic.
  getBoolean(subactionPath?: string, session?: Session): BooleanActionState {
    const reader = this.#read<BooleanStateView>('boolean', subactionPath, session);
    const o = reader.out;
    const r = reader.result;
    r.currentState = o[0] === 1;
    r.changedSinceLastSync = o[1] === 1;
    r.isActive = o[2] === 1;
    return r;
  }

  /** xrGetActionStateFloat; the returned object is reused. */
  getFloat(subactionPath?: string, session?: Session): FloatActionState {
    const reader = this.#read<FloatStateView>('float', subactionPath, session);
    const o = reader.out;
    const r = reader.result;
    r.currentState = o[0] as number;
    r.changedSinceLastSync = o[1] === 1;
    r.isActive = o[2] === 1;
    return r;
  }

  /** xrGetActionStateVector2f (a thumbstick or trackpad); the returned object and its currentState are reused. */
  getVector2f(subactionPath?: string, session?: Session): Vector2fActionState {
    const reader = this.#read<Vector2fStateView>('vector2f', subactionPath, session);
    const o = reader.out;
    const r = reader.result;
    r.currentState.x = o[0] as number;
    r.currentState.y = o[3] as number;
    r.changedSinceLastSync = o[1] === 1;
    r.isActive = o[2] === 1;
    return r;
  }

  /** xrGetActionStatePose (locate it through session.createActionSpace()); the returned object is reused. */
  getPose(subactionPath?: string, session?: Session): PoseActionState {
    const reader = this.#read<PoseStateView>('pose', subactionPath, session);
    const o = reader.out;
    const r = reader.result;
    r.changedSinceLastSync = o[1] === 1;
    r.isActive = o[2] === 1;
    return r;
  }

  /** The type check, the reader, the native read into the reader's bound arrays (the caller fills its answer). */
  #read<View extends ActionStateView>(type: StateViewType, subactionPath: string | undefined, session: Session | undefined): Reader<View> {
    if (this.type !== type) throw new OpenXrError('XR_ERROR_ACTION_TYPE_MISMATCH', `the action ${this.name} is a ${this.type} action, not ${type}`);
    const reader = (subactionPath === undefined && session === undefined ? this.#defaultReader : undefined) ?? this.#reader(type, subactionPath, session);
    try {
      this.#readNative(reader.bound);
    } catch (error) {
      rethrowNative(error);
    }
    return reader as Reader<View>;
  }

  #reader(type: StateViewType, subactionPath: string | undefined, session: Session | undefined): Reader {
    const key = subactionPath ?? '';
    const reader = this.#readers.get(key);
    if (reader !== undefined && (session === undefined || reader.session === session)) return reader;
    return this.#bindReader(type, key, subactionPath, session ?? this.actionSet.attachedSession);
  }

  #bindReader(type: StateViewType, key: string, subactionPath: string | undefined, session: Session | undefined): Reader {
    const nativeSession = this.#sessionFor(session);
    const path = subactionPath === undefined ? undefined : pathOf(this.actionSet.instance, subactionPath);
    const out = new Float64Array(4);
    const time = new BigInt64Array(1);
    const bound = callNative(() => nativeSession.bindActionState(this.#native, path, out, time));
    const reader: Reader = { session: session as Session, bound, out, result: new STATE_VIEWS[type](time) };
    this.#readers.set(key, reader);
    if (key === '') this.#defaultReader = reader;
    return reader;
  }

  #sessionFor(session: Session | undefined): ReturnType<typeof nativeSessionOf> {
    if (session === undefined) {
      throw new OpenXrError('XR_ERROR_ACTIONSET_NOT_ATTACHED', `the action set ${this.actionSet.name} is not attached to a session`);
    }
    return nativeSessionOf(session);
  }

  /**
   * xrApplyHapticFeedback on a vibration action: every output it is bound to (on `subactionPath`'s
   * hand, when given) vibrates. Returns false when the session is not focused
   * (XR_SESSION_NOT_FOCUSED: nothing vibrates). Allocates nothing for a number duration.
   */
  applyHapticFeedback(vibration: HapticVibration, subactionPath?: string, session?: Session): boolean {
    if (typeof vibration !== 'object' || vibration === null || typeof vibration.amplitude !== 'number') {
      throw invalidArgument('applyHapticFeedback(vibration): vibration', '{ amplitude: number, duration?, frequency? }', vibration);
    }
    const duration = vibration.duration ?? MIN_HAPTIC_DURATION;
    const frequency = vibration.frequency ?? 0;
    if ((typeof duration !== 'bigint' && typeof duration !== 'number') || typeof frequency !== 'number') {
      throw typeof frequency !== 'number'
        ? invalidArgument('applyHapticFeedback: vibration.frequency', 'a number of Hz', frequency)
        : invalidArgument('applyHapticFeedback: vibration.duration', 'a bigint or number of ns', duration);
    }
    this.#requireVibration();
    const nativeSession = this.#sessionFor(session ?? this.actionSet.attachedSession);
    const path = subactionPath === undefined ? undefined : pathOf(this.actionSet.instance, subactionPath);
    const api = instanceState(this.actionSet.instance).api;
    try {
      return api.openxrApplyHaptic(nativeSession, this.#native, path, duration, frequency, vibration.amplitude) === 0;
    } catch (error) {
      rethrowNative(error);
    }
  }

  /** xrStopHapticFeedback. Returns false when the session is not focused. */
  stopHapticFeedback(subactionPath?: string, session?: Session): boolean {
    this.#requireVibration();
    const nativeSession = this.#sessionFor(session ?? this.actionSet.attachedSession);
    const path = subactionPath === undefined ? undefined : pathOf(this.actionSet.instance, subactionPath);
    const api = instanceState(this.actionSet.instance).api;
    try {
      return api.openxrStopHaptic(nativeSession, this.#native, path) === 0;
    } catch (error) {
      rethrowNative(error);
    }
  }

  #requireVibration(): void {
    if (this.type !== 'vibration') throw new OpenXrError('XR_ERROR_ACTION_TYPE_MISMATCH', `the action ${this.name} is a ${this.type} action, not vibration`);
  }

  /** xrDestroyAction. Does nothing once destroyed (or its action set is). */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    callNative(() => this.#native.destroy());
    this.#readers.clear();
    this.#defaultReader = undefined;
  }
}

/** Which characters of `name` a well-formed path name (lower-case letters, digits, '-', '_', '.') does not allow. */
function badNameCharacters(name: string): string {
  const bad: string[] = [];
  for (const [i, c] of [...name].entries()) {
    if (!/[a-z0-9_.-]/.test(c)) bad.push(`${JSON.stringify(c)} at ${i}`);
  }
  return bad.length === 0 ? '' : `: ${bad.slice(0, 4).join(', ')}${bad.length > 4 ? ', …' : ''} ${bad.length === 1 ? 'is' : 'are'} not`;
}

/**
 * Runs xrCreateActionSet / xrCreateAction; the name results of the runtime (the XrResult kept) say
 * which name and why: the spec's well-formed path name rules for a name, empty and duplicated names.
 */
function withNameReason<T>(call: () => T, kind: 'action set' | 'action', options: { name: unknown; localizedName: unknown }, owner: string): T {
  try {
    return call();
  } catch (error) {
    const e = fromNative(error);
    if (!(e instanceof OpenXrError)) throw e;
    const name = String(options.name);
    const localized = String(options.localizedName);
    const reasons: Partial<Record<string, string>> = {
      XR_ERROR_PATH_FORMAT_INVALID: `name '${name}': an ${kind} name must be lower-case letters, digits, '-', '_' or '.' (the spec's well-formed path name rules)${badNameCharacters(name)}`,
      XR_ERROR_NAME_INVALID: `name '${name}': an ${kind} name must not be empty`,
      XR_ERROR_LOCALIZED_NAME_INVALID: `localizedName '${localized}': an ${kind}'s localized name must not be empty`,
      XR_ERROR_NAME_DUPLICATED: `name '${name}': ${owner} already has an ${kind} of that name`,
      XR_ERROR_LOCALIZED_NAME_DUPLICATED: `localizedName '${localized}': ${owner} already has an ${kind} of that localized name`,
    };
    const command = kind === 'action' ? 'xrCreateAction' : 'xrCreateActionSet';
    const why = reasons[e.result];
    // Only the runtime's bare result is explained; a message that already says why is kept.
    if (why === undefined || e.message !== `${e.result}: ${command} failed`) throw e;
    throw new OpenXrError(e.result, `${command}: ${why}`);
  }
}

export function createActionSet(instance: Instance, options: ActionSetOptions): ActionSet {
  if (typeof options !== 'object' || options === null) throw invalidArgument('createActionSet(options): options', '{ name, localizedName, priority? }', options);
  const priority = options.priority ?? 0;
  if (!Number.isInteger(priority) || priority < 0) throw invalidArgument('options.priority', 'a whole number >= 0', priority);
  const s = instanceState(instance);
  const native = withNameReason(() => new s.api.OpenXrActionSet(s.native, options.name, options.localizedName, priority), 'action set', options, 'this instance');
  return new ActionSet(instance, native, options.name);
}

export interface SuggestedBinding {
  readonly action: Action;
  /** A binding path such as '/user/hand/left/input/select/click'. */
  readonly path: string;
}

/** xrSuggestInteractionProfileBindings for one interaction profile ('/interaction_profiles/khr/simple_controller'). */
export function suggestBindings(instance: Instance, interactionProfile: string, bindings: readonly SuggestedBinding[]): void {
  if (!Array.isArray(bindings)) throw invalidArgument('suggestBindings(profile, bindings): bindings', 'an array of { action, path }', bindings);
  const s = instanceState(instance);
  const profile = pathOf(instance, interactionProfile);
  bindings.forEach((b, i) => {
    if (typeof b !== 'object' || b === null) throw invalidArgument(`suggestBindings(profile, bindings): bindings[${i}]`, 'an object { action, path }', b);
  });
  const actions = bindings.map((b) => nativeActionOf(b.action));
  const paths = bindings.map((b, i) => pathOf(instance, b.path, `bindings[${i}].path`));
  try {
    s.api.openxrSuggestBindings(s.native, profile, actions, paths);
  } catch (error) {
    const e = fromNative(error);
    if (e instanceof OpenXrError && e.result === 'XR_ERROR_PATH_UNSUPPORTED' && e.message === 'XR_ERROR_PATH_UNSUPPORTED: xrSuggestInteractionProfileBindings failed') {
      throw new OpenXrError(e.result, `xrSuggestInteractionProfileBindings: ${unsupportedPath(instance, interactionProfile, bindings)}`);
    }
    throw e;
  }
}

/**
 * Which path of a suggestBindings() call the runtime refused (XR_ERROR_PATH_UNSUPPORTED), judged by
 * the OpenXR specification's interaction profile allowlist (generated from the registry): the
 * profile, or the first binding path the profile does not have.
 */
export function unsupportedPath(instance: Instance, interactionProfile: string, bindings: readonly SuggestedBinding[]): string {
  const profile = XR_INTERACTION_PROFILES[interactionProfile];
  if (profile === undefined || !Object.prototype.hasOwnProperty.call(XR_INTERACTION_PROFILES, interactionProfile)) {
    return `interactionProfile '${interactionProfile}' is not an interaction profile of the OpenXR specification (e.g. '/interaction_profiles/khr/simple_controller')`;
  }
  const enabled = (by: string | undefined): boolean => by === undefined || by === 'XR_VERSION_1_0' || by.startsWith('XR_VERSION_') || instance.enabledExtensionNames.includes(by);
  if (!profile.requiredBy.some((by) => by === 'XR_VERSION_1_0' || instance.enabledExtensionNames.includes(by))) {
    const versions = profile.requiredBy.filter((by) => by.startsWith('XR_VERSION_'));
    const extensions = profile.requiredBy.filter((by) => !by.startsWith('XR_VERSION_'));
    const needs = [...(extensions.length > 0 ? [`the extension ${extensions.join(' or ')} (enabledExtensionNames)`] : []), ...versions.map((v) => `an OpenXR ${v.slice(11).replace('_', '.')} instance (apiVersion)`)];
    return `interactionProfile '${interactionProfile}' (${profile.title}) needs ${needs.join(' or ')}; the runtime refused it`;
  }
  for (const [i, binding] of bindings.entries()) {
    const user = profile.userPaths.find((u) => binding.path.startsWith(`${u}/`));
    if (user === undefined) {
      return `bindings[${i}].path '${binding.path}' is not under a user path of ${interactionProfile} (${profile.userPaths.join(', ')})`;
    }
    const rest = binding.path.slice(user.length);
    const components = profile.components.filter((c) => enabled(c.addedBy) && (c.userPath === undefined || c.userPath === user));
    const identifier = (subpath: string): string => subpath.slice(0, subpath.lastIndexOf('/'));
    if (!components.some((c) => c.subpath === rest || (identifier(c.subpath).lastIndexOf('/') > 0 && identifier(c.subpath) === rest))) {
      const examples = components.slice(0, 4).map((c) => `${user}${c.subpath}`).join(', ');
      return `bindings[${i}].path '${binding.path}' is not a binding path of ${interactionProfile} (its paths under ${user} include ${examples})`;
    }
  }
  return `the runtime does not support interactionProfile '${interactionProfile}' or one of the ${bindings.length} binding paths, though the specification's allowlist has them all`;
}
