// A Session: an XrSession (headless: this package has no graphics bindings yet). An EventEmitter:
// 'stateChanged' (state, event) whenever a polled event changes its state. The frame loop:
// `await session.waitFrame()` runs xrWaitFrame on the session's own native thread, so the event
// loop never blocks; beginFrame() and endFrame() are synchronous; locateViews() writes into a
// caller's Float32Array and allocates nothing.
import { EventEmitter } from 'node:events';
import type { Instance } from './instance.js';
import { nativeActionOf, nativeActionSetOf, type Action, type ActionSet } from './action.js';
import type { OpenXrEvent } from './events.js';
import { callNative, instanceState, pathOf, registerNativeSession } from './handles.js';
import { rethrowNative } from './native-instance.js';
import type { NativeFrameState, NativeSession } from './native-api.js';
import { Space, nativeSpaceOf } from './space.js';
import type { System } from './system.js';
import {
  ENVIRONMENT_BLEND_MODES,
  REFERENCE_SPACE_TYPES,
  VIEW_CONFIGURATION_TYPES,
  VIEW_FLOATS,
  enumName,
  enumValue,
  type EnvironmentBlendModeName,
  type ReferenceSpaceTypeName,
  type SessionStateName,
  type ViewConfigurationTypeName,
} from './types.js';

/**
 * What waitFrame() answers. The same object every frame (per session), updated in place: copy
 * the fields you keep beyond the frame.
 */
export interface FrameState {
  /** XrTime in ns (CLOCK_MONOTONIC; exact as a number for 104 days of uptime). */
  readonly predictedDisplayTime: number;
  /** ns. */
  readonly predictedDisplayPeriod: number;
  readonly shouldRender: boolean;
}

export interface SessionEvents {
  stateChanged: [state: SessionStateName, event: OpenXrEvent];
  interactionProfileChanged: [event: OpenXrEvent];
  referenceSpaceChangePending: [event: OpenXrEvent];
}

export interface CreateSessionOptions {
  /** A session without graphics (XR_MND_headless, which the instance must enable). The only kind this package creates so far. */
  readonly headless: true;
}

export interface EndFrameOptions {
  /** Default: the begun frame's predictedDisplayTime, exactly as the runtime gave it. */
  readonly displayTime?: number;
  readonly environmentBlendMode?: EnvironmentBlendModeName;
}

export interface ActiveActionSet {
  readonly actionSet: ActionSet;
  readonly subactionPath?: string;
}

/** A pose as [px, py, pz, qx, qy, qz, qw]. */
export type PoseArray = readonly [number, number, number, number, number, number, number] | Float32Array;

/** Each instance's live sessions by XrSession handle, so events reach their Session. */
const liveSessions = new WeakMap<Instance, Map<bigint, Session>>();

function sessionsOf(instance: Instance): Map<bigint, Session> {
  let sessions = liveSessions.get(instance);
  if (sessions === undefined) {
    sessions = new Map();
    liveSessions.set(instance, sessions);
  }
  return sessions;
}

/** @internal The live Session of `instance` with this XrSession handle (for events). */
export function sessionByHandle(instance: Instance, handle: bigint): Session | undefined {
  return liveSessions.get(instance)?.get(handle);
}

function poseArgument(pose: PoseArray | undefined): Float32Array | undefined {
  if (pose === undefined) return undefined;
  if (pose instanceof Float32Array) return pose;
  if (!Array.isArray(pose) || pose.length !== 7 || pose.some((v) => typeof v !== 'number')) {
    throw new TypeError('a pose is [px, py, pz, qx, qy, qz, qw] (7 numbers) or a Float32Array');
  }
  return Float32Array.from(pose);
}

export class Session extends EventEmitter<SessionEvents> {
  readonly instance: Instance;
  readonly system: System;
  readonly #native: NativeSession;
  #state: SessionStateName = 'unknown';
  #running = false;
  readonly #viewCounts = new Map<number, number>();
  // The bound view locator and what it was bound to.
  #viewLocator: ((time: number) => number) | undefined;
  #viewSpace: Space | undefined;
  #viewOut: Float32Array | undefined;
  #viewLength = -1;
  #viewType = 0;
  // syncActions: the last array passed and its native form, reused while the caller reuses it.
  #syncInput: readonly (ActionSet | ActiveActionSet)[] | undefined;
  #syncSets: ReturnType<typeof nativeActionSetOf>[] = [];
  #syncPaths: (bigint | undefined)[] = [];

  /** @internal Use instance.createSession(). */
  constructor(instance: Instance, system: System, native: NativeSession) {
    super();
    this.instance = instance;
    this.system = system;
    this.#native = native;
    registerNativeSession(this, native);
  }

  get handle(): bigint {
    return callNative(() => this.#native.handle);
  }

  /** The state as of the last polled event (instance.pollEvents(), events(), or runFrameLoop). */
  get state(): SessionStateName {
    return this.#state;
  }

  /** Between beginSession() and endSession(). */
  get isRunning(): boolean {
    return this.#running;
  }

  /** True once this session or its instance is destroyed. */
  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /** xrBeginSession (call when the state is 'ready'). */
  beginSession(viewConfigurationType: ViewConfigurationTypeName = 'primary-stereo'): void {
    const type = enumValue(VIEW_CONFIGURATION_TYPES, viewConfigurationType, 'viewConfigurationType');
    callNative(() => this.#native.begin(type));
    this.#running = true;
  }

  /** xrEndSession (call when the state is 'stopping'). */
  endSession(): void {
    callNative(() => this.#native.end());
    this.#running = false;
  }

  /** xrRequestExitSession: the session goes to 'stopping', then (after endSession) 'exiting'. */
  requestExit(): void {
    callNative(() => this.#native.requestExit());
  }

  /** xrEnumerateReferenceSpaces. */
  referenceSpaceTypes(): (ReferenceSpaceTypeName | number)[] {
    return callNative(() => this.#native.enumerateReferenceSpaces()).map((v) => enumName(REFERENCE_SPACE_TYPES, v) ?? v);
  }

  /** xrCreateReferenceSpace, with an optional pose of the new space in the reference space. */
  createReferenceSpace(type: ReferenceSpaceTypeName, pose?: PoseArray): Space {
    const value = enumValue(REFERENCE_SPACE_TYPES, type, 'referenceSpaceType');
    const p = poseArgument(pose);
    const api = instanceState(this.instance).api;
    const native = callNative(() => new api.OpenXrSpace(this.#native, 'reference', value, p));
    return new Space(this, native, { kind: 'reference', referenceSpaceType: type });
  }

  /** xrCreateActionSpace for a pose action (its set attached to this session). */
  createActionSpace(action: Action, subactionPath?: string, pose?: PoseArray): Space {
    const nativeAction = nativeActionOf(action);
    const path = subactionPath === undefined ? undefined : pathOf(this.instance, subactionPath);
    const p = poseArgument(pose);
    const api = instanceState(this.instance).api;
    const native = callNative(() => new api.OpenXrSpace(this.#native, 'action', nativeAction, path, p));
    return new Space(this, native, { kind: 'action' });
  }

  /**
   * xrWaitFrame on the session's own thread: resolves when the runtime says to start the next
   * frame; the event loop runs meanwhile. One wait at a time per session. Resolves with the
   * session's one FrameState object (updated in place).
   */
  waitFrame(): Promise<FrameState> {
    let promise: Promise<NativeFrameState>;
    try {
      promise = this.#native.waitFrame();
    } catch (error) {
      return Promise.reject(asOpenXrError(error));
    }
    return promise.then(undefined, (error: unknown) => rethrowNative(error));
  }

  /** xrWaitFrame on this thread (blocks the event loop until the frame; for workers and scripts). */
  waitFrameSync(): FrameState {
    return callNative(() => this.#native.waitFrameSync());
  }

  /** xrBeginFrame. Returns true when the previous begun frame was discarded (XR_FRAME_DISCARDED). */
  beginFrame(): boolean {
    try {
      return this.#native.beginFrame() !== 0;
    } catch (error) {
      rethrowNative(error);
    }
  }

  /** xrEndFrame with no composition layers (valid for a headless session). */
  endFrame(options?: EndFrameOptions): void {
    try {
      if (options === undefined) this.#native.endFrame();
      else {
        const blend = options.environmentBlendMode === undefined ? undefined : enumValue(ENVIRONMENT_BLEND_MODES, options.environmentBlendMode, 'environmentBlendMode');
        this.#native.endFrame(options.displayTime, blend);
      }
    } catch (error) {
      rethrowNative(error);
    }
  }

  /**
   * xrLocateViews: for each view (2 for primary-stereo) writes 11 floats into `out` — pose
   * px py pz qx qy qz qw, then fov angleLeft angleRight angleUp angleDown (radians) — and returns
   * the XrViewStateFlags. Allocates nothing once bound: keep passing the same space and out.
   */
  locateViews(space: Space, time: number, out: Float32Array, viewConfigurationType: ViewConfigurationTypeName = 'primary-stereo'): number {
    const type = viewConfigurationType === 'primary-stereo' ? 2 : enumValue(VIEW_CONFIGURATION_TYPES, viewConfigurationType, 'viewConfigurationType');
    if (space !== this.#viewSpace || out !== this.#viewOut || out.length !== this.#viewLength || type !== this.#viewType) {
      this.#bindViewLocator(space, out, type);
    }
    try {
      return (this.#viewLocator as (time: number) => number)(time);
    } catch (error) {
      rethrowNative(error);
    }
  }

  /** The number of views of a view configuration (from the system). */
  viewCount(viewConfigurationType: ViewConfigurationTypeName = 'primary-stereo'): number {
    const type = enumValue(VIEW_CONFIGURATION_TYPES, viewConfigurationType, 'viewConfigurationType');
    let count = this.#viewCounts.get(type);
    if (count === undefined) {
      count = this.system.viewConfigurationViews(viewConfigurationType).length;
      this.#viewCounts.set(type, count);
    }
    return count;
  }

  #bindViewLocator(space: Space, out: Float32Array, type: number): void {
    const nativeSpace = nativeSpaceOf(space);
    if (!(out instanceof Float32Array)) throw new TypeError('out must be a Float32Array');
    const name = enumName(VIEW_CONFIGURATION_TYPES, type) as ViewConfigurationTypeName;
    const count = this.viewCount(name);
    if (out.length < count * VIEW_FLOATS) {
      throw new TypeError(`out must have at least ${count * VIEW_FLOATS} elements (${VIEW_FLOATS} per view; a detached buffer has none)`);
    }
    this.#viewLocator = callNative(() => this.#native.bindViewLocator(nativeSpace, type, count, out));
    this.#viewSpace = space;
    this.#viewOut = out;
    this.#viewLength = out.length;
    this.#viewType = type;
  }

  /**
   * XR_FB_display_refresh_rate (enable it on the instance): the session's display rate and the
   * rates the runtime offers, in Hz. A runtime without a compositor may answer current 0.
   */
  displayRefreshRates(): { current: number; available: number[] } {
    this.instance.requireExtension('XR_FB_display_refresh_rate', 'xrGetDisplayRefreshRateFB');
    const s = instanceState(this.instance);
    return callNative(() => s.api.openxrDisplayRefreshRates(s.native, this.#native.handle));
  }

  /** xrAttachSessionActionSets (once per session). */
  attachActionSets(actionSets: readonly ActionSet[]): void {
    if (!Array.isArray(actionSets)) throw new TypeError('attachActionSets(actionSets: ActionSet[])');
    const natives = actionSets.map((s) => nativeActionSetOf(s));
    callNative(() => this.#native.attachActionSets(natives));
    for (const s of actionSets) s.attachedSession = this;
  }

  /**
   * xrSyncActions. Returns false when the session is not focused (XR_SESSION_NOT_FOCUSED: the
   * states then read inactive). Pass the same array every frame and nothing is allocated.
   */
  syncActions(actionSets: readonly (ActionSet | ActiveActionSet)[]): boolean {
    if (actionSets !== this.#syncInput) {
      if (!Array.isArray(actionSets)) throw new TypeError('syncActions(actionSets: (ActionSet | { actionSet, subactionPath })[])');
      this.#syncSets = actionSets.map((a) => nativeActionSetOf('actionSet' in a ? a.actionSet : a));
      this.#syncPaths = actionSets.map((a) =>
        'actionSet' in a && a.subactionPath !== undefined ? pathOf(this.instance, a.subactionPath) : undefined,
      );
      this.#syncInput = actionSets;
    }
    try {
      return this.#native.syncActions(this.#syncSets, this.#syncPaths) === 0;
    } catch (error) {
      rethrowNative(error);
    }
  }

  /** xrGetCurrentInteractionProfile for a top-level user path; null when none is bound. */
  currentInteractionProfile(topLevelUserPath: string): string | null {
    const s = instanceState(this.instance);
    const profile = callNative(() => this.#native.currentInteractionProfile(pathOf(this.instance, topLevelUserPath)));
    return profile === 0n ? null : callNative(() => s.api.openxrPathToString(s.native, profile));
  }

  /**
   * xrDestroySession: stops the frame thread (a pending waitFrame() rejects with
   * XR_ERROR_HANDLE_INVALID) and destroys the session's spaces with it. Does nothing once the
   * session (or its instance) is destroyed.
   */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    let handle: bigint | undefined;
    try {
      handle = this.#native.handle;
    } catch {
      handle = undefined;
    }
    callNative(() => this.#native.destroy());
    if (handle !== undefined) sessionsOf(this.instance).delete(handle);
    this.#running = false;
    this.#viewLocator = undefined;
    this.#viewSpace = undefined;
    this.#viewOut = undefined;
  }

  /** @internal Called by pollEvent() for events about this session. */
  _dispatch(event: OpenXrEvent): void {
    if (event.type === 'sessionStateChanged') {
      this.#state = event.state;
      this.emit('stateChanged', event.state, event);
    } else if (event.type === 'interactionProfileChanged') {
      this.emit('interactionProfileChanged', event);
    } else if (event.type === 'referenceSpaceChangePending') {
      this.emit('referenceSpaceChangePending', event);
    }
  }
}

function asOpenXrError(error: unknown): unknown {
  try {
    rethrowNative(error);
  } catch (e) {
    return e;
  }
}

export function createSession(instance: Instance, system: System, options: CreateSessionOptions = { headless: true }): Session {
  if (typeof options !== 'object' || options === null || options.headless !== true) {
    throw new TypeError('createSession(system, { headless: true }): only headless sessions (XR_MND_headless) are supported so far');
  }
  if (system === null || typeof system !== 'object' || system.instance !== instance) {
    throw new TypeError('system must be a System of this instance (instance.getSystem())');
  }
  const s = instanceState(instance);
  const native = callNative(() => new s.api.OpenXrSession(s.native, system.id));
  const session = new Session(instance, system, native);
  sessionsOf(instance).set(native.handle, session);
  return session;
}

/** @internal Destroys an instance's live sessions (joining their frame threads) before the instance goes. */
export function destroyInstanceChildren(instance: Instance): void {
  const sessions = sessionsOf(instance);
  for (const session of [...sessions.values()]) {
    if (!session.isDestroyed) {
      try {
        session.destroy();
      } catch {
        // The instance is going anyway.
      }
    }
  }
  sessions.clear();
}
