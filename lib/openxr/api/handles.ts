// Shared by the typed API's handle classes and below all of them: it imports none of them, so
// they can all import it without a circle. Calling native code with OpenXR failures turned into
// OpenXrError; the native object behind an Instance or a Session, for the modules that hold only
// the JavaScript object; and the per-instance state (the native API, the path cache).
import type { NativeAddon } from '../../core/native/load.js';
import type { NativeOpenXrInstance } from '../native/addon.js';
import { loadOpenXrAddon, type NativeOpenXrAddon, type NativeSession } from '../native/addon.js';
import { rethrowNative } from '../errors.js';
import { invalidArgument } from '../../core/errors.js';

/** Runs a native call; native OpenXR failures become OpenXrError, argument errors stay InvalidArgumentError. */
export function callNative<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    rethrowNative(error);
  }
}

// Keyed by the JavaScript handle objects, filled in by their constructors.
const nativeInstances = new WeakMap<object, NativeOpenXrInstance>();
const nativeSessions = new WeakMap<object, NativeSession>();

/** @internal Called by the Instance constructor. */
export function registerNativeInstance(instance: object, native: NativeOpenXrInstance): void {
  nativeInstances.set(instance, native);
}

/** @internal The native instance behind an Instance (for the benchmark and other native surfaces). */
export function nativeInstanceOf(instance: object): NativeOpenXrInstance {
  const native = nativeInstances.get(instance);
  if (!native) throw invalidArgument('instance', 'an Instance created by this loader', instance);
  return native;
}

/** @internal Called by the Session constructor. */
export function registerNativeSession(session: object, native: NativeSession): void {
  nativeSessions.set(session, native);
}

/** @internal The native session behind a Session; InvalidArgumentError for anything else. */
export function nativeSessionOf(session: unknown): NativeSession {
  const native = typeof session === 'object' && session !== null ? nativeSessions.get(session) : undefined;
  if (!native) throw invalidArgument('session', 'a Session', session);
  return native;
}

export interface InstanceState {
  readonly native: NativeOpenXrInstance;
  readonly api: NativeOpenXrAddon & NativeAddon;
  /** xrStringToPath answers, by string. */
  readonly paths: Map<string, bigint>;
}

const states = new WeakMap<object, InstanceState>();

/** The state of an Instance (InvalidArgumentError for anything else). */
export function instanceState(instance: object): InstanceState {
  let state = states.get(instance);
  if (state === undefined) {
    state = { native: nativeInstanceOf(instance), api: loadOpenXrAddon(), paths: new Map() };
    states.set(instance, state);
  }
  return state;
}

/** xrStringToPath, cached per instance (paths are immutable for the instance's lifetime). */
export function pathOf(instance: object, path: string, what = 'path'): bigint {
  if (typeof path !== 'string') throw invalidArgument(what, "an OpenXR path string (e.g. '/user/hand/left')", path);
  const state = instanceState(instance);
  let value = state.paths.get(path);
  if (value === undefined) {
    value = callNative(() => state.api.openxrStringToPath(state.native, path));
    state.paths.set(path, value);
  }
  return value;
}
