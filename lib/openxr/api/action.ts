// Action sets and actions. State reads are per-frame calls: each (action, subaction path,
// session) gets a native reader bound to a Float64Array, and the result object it answers with is
// reused (copy what you keep).
import type { Instance } from './instance.js';
import { OpenXrError } from '../errors.js';
import { callNative, instanceState, nativeSessionOf, pathOf } from './handles.js';
import { rethrowNative } from './native-instance.js';
import type { NativeAction, NativeActionSet } from './native-api.js';
import type { Session } from './session.js';
import { ACTION_TYPES, enumValue, type ActionTypeName } from './types.js';

let actionSetNativeOf: (set: ActionSet) => NativeActionSet;
let actionNativeOf: (action: Action) => NativeAction;

/** @internal */
export function nativeActionSetOf(set: unknown): NativeActionSet {
  if (!(set instanceof ActionSet)) throw new TypeError('expected an ActionSet');
  return actionSetNativeOf(set);
}

/** @internal */
export function nativeActionOf(action: unknown): NativeAction {
  if (!(action instanceof Action)) throw new TypeError('expected an Action');
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
  /** XrTime in ns. */
  readonly lastChangeTime: number;
  readonly isActive: boolean;
}

/** The reused answer of action.getFloat(). */
export interface FloatActionState {
  readonly currentState: number;
  readonly changedSinceLastSync: boolean;
  readonly lastChangeTime: number;
  readonly isActive: boolean;
}

export interface PoseActionState {
  readonly isActive: boolean;
}

interface Reader {
  readonly session: Session;
  readonly read: () => void;
  readonly out: Float64Array;
  readonly result: { currentState: boolean | number; changedSinceLastSync: boolean; lastChangeTime: number; isActive: boolean };
}

export class ActionSet {
  readonly instance: Instance;
  readonly name: string;
  readonly #native: NativeActionSet;
  /** The session the set was attached to (action state reads default to it). */
  attachedSession: Session | undefined;

  static {
    actionSetNativeOf = (set) => set.#native;
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
    if (typeof options !== 'object' || options === null) throw new TypeError('createAction(options) needs { name, localizedName, type }');
    const type = enumValue(ACTION_TYPES, options.type, 'type');
    const paths = (options.subactionPaths ?? []).map((p) => pathOf(this.instance, p));
    const api = instanceState(this.instance).api;
    const native = callNative(() => new api.OpenXrAction(this.#native, options.name, options.localizedName, type, paths));
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
  getBoolean(subactionPath?: string, session?: Session): BooleanActionState {
    return this.#read('boolean', subactionPath, session) as BooleanActionState;
  }

  /** xrGetActionStateFloat; the returned object is reused. */
  getFloat(subactionPath?: string, session?: Session): FloatActionState {
    return this.#read('float', subactionPath, session) as FloatActionState;
  }

  /** xrGetActionStatePose (locate it through session.createActionSpace()); the returned object is reused. */
  getPose(subactionPath?: string, session?: Session): PoseActionState {
    return this.#read('pose', subactionPath, session);
  }

  #read(type: ActionTypeName, subactionPath: string | undefined, session: Session | undefined): Reader['result'] {
    if (this.type !== type) throw new OpenXrError('XR_ERROR_ACTION_TYPE_MISMATCH', `the action ${this.name} is a ${this.type} action, not ${type}`);
    const key = subactionPath ?? '';
    let reader = this.#readers.get(key);
    const target = session ?? this.actionSet.attachedSession;
    if (reader === undefined || (session !== undefined && reader.session !== session)) reader = this.#bindReader(key, subactionPath, target);
    try {
      reader.read();
    } catch (error) {
      rethrowNative(error);
    }
    const o = reader.out;
    const r = reader.result;
    r.currentState = type === 'boolean' ? o[0] === 1 : (o[0] as number);
    r.changedSinceLastSync = o[1] === 1;
    r.lastChangeTime = o[2] as number;
    r.isActive = o[3] === 1;
    return r;
  }

  #bindReader(key: string, subactionPath: string | undefined, session: Session | undefined): Reader {
    if (session === undefined) {
      throw new OpenXrError('XR_ERROR_ACTIONSET_NOT_ATTACHED', `the action set ${this.actionSet.name} is not attached to a session`);
    }
    const path = subactionPath === undefined ? undefined : pathOf(this.actionSet.instance, subactionPath);
    const out = new Float64Array(4);
    const nativeSession = nativeSessionOf(session);
    const read = callNative(() => nativeSession.bindActionState(this.#native, path, out));
    const reader: Reader = { session, read, out, result: { currentState: false, changedSinceLastSync: false, lastChangeTime: 0, isActive: false } };
    this.#readers.set(key, reader);
    return reader;
  }

  /** xrDestroyAction. Does nothing once destroyed (or its action set is). */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    callNative(() => this.#native.destroy());
    this.#readers.clear();
  }
}

export function createActionSet(instance: Instance, options: ActionSetOptions): ActionSet {
  if (typeof options !== 'object' || options === null) throw new TypeError('createActionSet(options) needs { name, localizedName }');
  const priority = options.priority ?? 0;
  if (!Number.isInteger(priority) || priority < 0) throw new TypeError('priority must be a whole number >= 0');
  const s = instanceState(instance);
  const native = callNative(() => new s.api.OpenXrActionSet(s.native, options.name, options.localizedName, priority));
  return new ActionSet(instance, native, options.name);
}

export interface SuggestedBinding {
  readonly action: Action;
  /** A binding path such as '/user/hand/left/input/select/click'. */
  readonly path: string;
}

/** xrSuggestInteractionProfileBindings for one interaction profile ('/interaction_profiles/khr/simple_controller'). */
export function suggestBindings(instance: Instance, interactionProfile: string, bindings: readonly SuggestedBinding[]): void {
  if (!Array.isArray(bindings)) throw new TypeError('bindings must be an array of { action, path }');
  const s = instanceState(instance);
  const profile = pathOf(instance, interactionProfile);
  const actions = bindings.map((b) => nativeActionOf(b.action));
  const paths = bindings.map((b) => pathOf(instance, b.path));
  callNative(() => s.api.openxrSuggestBindings(s.native, profile, actions, paths));
}
