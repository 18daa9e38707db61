// Shared by the typed API's classes: calling native code with OpenXR failures turned into
// OpenXrError, and the per-instance bookkeeping (its sessions by handle, its path cache).
import type { Instance } from './instance.js';
import { nativeInstanceOf } from './instance.js';
import { rethrowNative } from './native-instance.js';
import { loadOpenXrApi, type NativeOpenXrApi } from './native-api.js';
import type { NativeAddon, NativeOpenXrInstance } from '../../native.js';
import type { Session } from './session.js';
import type { ActionSet } from './action.js';

/** Runs a native call; native OpenXR failures become OpenXrError, argument errors stay TypeError. */
export function callNative<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    rethrowNative(error);
  }
}

export interface InstanceState {
  readonly native: NativeOpenXrInstance;
  readonly api: NativeOpenXrApi & NativeAddon;
  /** Live sessions by XrSession handle, so events reach their Session. */
  readonly sessions: Map<bigint, Session>;
  readonly actionSets: Set<ActionSet>;
  /** xrStringToPath answers, by string. */
  readonly paths: Map<string, bigint>;
}

const states = new WeakMap<Instance, InstanceState>();

export function instanceState(instance: Instance): InstanceState {
  let state = states.get(instance);
  if (state === undefined) {
    state = { native: nativeInstanceOf(instance), api: loadOpenXrApi(), sessions: new Map(), actionSets: new Set(), paths: new Map() };
    states.set(instance, state);
  }
  return state;
}

/** xrStringToPath, cached per instance (paths are immutable for the instance's lifetime). */
export function pathOf(instance: Instance, path: string): bigint {
  if (typeof path !== 'string') throw new TypeError(`an OpenXR path must be a string, got ${typeof path}`);
  const state = instanceState(instance);
  let value = state.paths.get(path);
  if (value === undefined) {
    value = callNative(() => state.api.openxrStringToPath(state.native, path));
    state.paths.set(path, value);
  }
  return value;
}
