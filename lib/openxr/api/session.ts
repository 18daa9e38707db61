// A Session: an XrSession, headless (XR_MND_headless) or rendering through Vulkan
// (XR_KHR_vulkan_enable2: swapchains of VkImages, projection layers in endFrame). An EventEmitter:
// 'stateChanged' (state, event) whenever a polled event changes its state. The frame loop:
// `await session.waitFrame()` runs xrWaitFrame on the session's own native thread, so the event
// loop never blocks; beginFrame() and endFrame() are synchronous; locateViews() writes into a
// caller's Float32Array and allocates nothing.
import { typedEventEmitterClass } from '../../core/portable-types.js';
import type { Instance } from './instance.js';
import { nativeActionOf, type Action, type ActionSet } from './action.js';
import type { OpenXrEvent } from './events.js';
import { callNative, instanceState, pathOf, registerNativeSession } from './handles.js';
import { OpenXrError, fromNative } from '../errors.js';
import type { NativeFrameState, NativeSession } from '../native/addon.js';
import { Space } from './space.js';
import { FrameQuery, type FrameQueryOptions } from './frame-query.js';
import type { System } from './system.js';
import type { Device } from '../../vulkan/api/device.js';
import type { PhysicalDevice } from '../../vulkan/api/instance.js';
import { chooseDepthFormat, type Swapchain, type SwapchainCreateOptions } from '../vulkan/swapchain.js';
import {
  ENVIRONMENT_BLEND_MODES,
  REFERENCE_SPACE_TYPES,
  VIEW_CONFIGURATION_TYPES,
  enumName,
  enumValue,
  type ReferenceSpaceTypeName,
  type SessionStateName,
  type ViewConfigurationTypeName,
  type HandName,
  type InputSourceNamePart,
  type XrTime,
} from './types.js';
import type { HandTracker } from './hand-tracker.js';
import * as input from './session-input.js';
import { EndFrameBinding, ViewLocator, type EndFrameOptions, type FrameState, type PoseArray } from './session-frames.js';
import * as swapchains from './session-swapchains.js';
import { InvalidArgumentError, invalidArgument } from '../../core/errors.js';

export type { EndFrameOptions, FrameState, Fov, PoseArray, ProjectionLayer, ProjectionView, ProjectionViewDepth } from './session-frames.js';


export interface SessionEvents {
  stateChanged: [state: SessionStateName, event: OpenXrEvent];
  interactionProfileChanged: [event: OpenXrEvent];
  referenceSpaceChangePending: [event: OpenXrEvent];
}

/** XrGraphicsBindingVulkan2KHR: what createVulkanGraphics() answers has all of it. */
export interface VulkanSessionBinding {
  readonly device: Device;
  readonly physicalDevice: PhysicalDevice;
  readonly queueFamilyIndex: number;
  readonly queueIndex: number;
}

export type CreateSessionOptions =
  /** A session without graphics (XR_MND_headless, which the instance must enable). The default. */
  | { readonly headless: true }
  /** A session that renders through Vulkan (XR_KHR_vulkan_enable2; the device from createVulkanGraphics()). */
  | { readonly graphics: { readonly vulkan: VulkanSessionBinding } };


export interface ActiveActionSet {
  readonly actionSet: ActionSet;
  readonly subactionPath?: string;
}


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

function poseArgument(pose: PoseArray | undefined, what: string): Float32Array | undefined {
  if (pose === undefined) return undefined;
  if (pose instanceof Float32Array) {
    if (pose.length < 7) throw new InvalidArgumentError(`${what} must be [px, py, pz, qx, qy, qz, qw], got a Float32Array of ${pose.length}`, what);
    return pose;
  }
  if (!Array.isArray(pose) || pose.length !== 7 || pose.some((v) => typeof v !== 'number')) {
    throw invalidArgument(what, '[px, py, pz, qx, qy, qz, qw] (7 numbers) or a Float32Array', pose);
  }
  return Float32Array.from(pose);
}

/**
 * Why the runtime found a pose invalid (XR_ERROR_POSE_INVALID): a value that is not finite, or an
 * orientation whose quaternion is not of unit length (the OpenXR Specification's XrPosef asks for
 * a unit quaternion).
 */
export function poseProblem(pose: ArrayLike<number>, what: string): string {
  const names = ['px', 'py', 'pz', 'qx', 'qy', 'qz', 'qw'];
  for (let i = 0; i < 7; i++) {
    if (!Number.isFinite(pose[i])) return `${what}: ${names[i]} is ${String(pose[i])}, not a finite number`;
  }
  const length = Math.hypot(pose[3] as number, pose[4] as number, pose[5] as number, pose[6] as number);
  const q = [3, 4, 5, 6].map((i) => String(Math.round((pose[i] as number) * 1e4) / 1e4)).join(', ');
  return `${what}: the orientation (qx, qy, qz, qw) = (${q}) has length ${length.toPrecision(6)}, not 1: a pose's quaternion must be normalized`;
}

/** Runs a create call that takes a pose; an XR_ERROR_POSE_INVALID from the runtime says which pose and why. */
function withPose<T>(call: () => T, pose: Float32Array | undefined, what: string, command: string): T {
  try {
    return call();
  } catch (error) {
    const e = fromNative(error);
    if (e instanceof OpenXrError && e.result === 'XR_ERROR_POSE_INVALID') {
      const why = pose === undefined ? `${what}: the identity pose` : poseProblem(pose, what);
      throw new OpenXrError('XR_ERROR_POSE_INVALID', `${command} refused ${why}`);
    }
    throw e;
  }
}

// Node's EventEmitter, typed by SessionEvents without naming a Node type in the published declarations.
const SessionEventEmitter = typedEventEmitterClass<SessionEvents>();

/** An XrSession. Events: 'stateChanged' (state, event), 'interactionProfileChanged', 'referenceSpaceChangePending'. */
export class Session extends SessionEventEmitter {
  readonly instance: Instance;
  readonly system: System;
  readonly #native: NativeSession;
  #state: SessionStateName = 'unknown';
  #running = false;
  readonly #viewCounts = new Map<number, number>();
  // locateViews' bound native call, endFrame's with layers, syncActions' native arguments.
  readonly #views: ViewLocator;
  readonly #endFrame: EndFrameBinding;
  readonly #sync: input.ActionSync;
  /** The Vulkan device a graphics session renders with (retained until destroy()). */
  readonly #device: Device | undefined;
  readonly description = 'an OpenXR session';
  // waitFrame()'s rejection handler, made once: a closure per frame would allocate.
  readonly #waitFrameFailed = (error: unknown): never => {
    throw withSessionState(error, this, 'xrWaitFrame');
  };

  /** @internal Use instance.createSession(). */
  constructor(instance: Instance, system: System, native: NativeSession, device?: Device) {
    super();
    this.instance = instance;
    this.system = system;
    this.#native = native;
    this.#device = device;
    this.#views = new ViewLocator(this, native);
    this.#endFrame = new EndFrameBinding(instance, native);
    this.#sync = new input.ActionSync(instance, native);
    device?.retain(this);
    registerNativeSession(this, native);
  }

  /** The Vulkan device the session renders with (undefined for a headless session). */
  get vulkanDevice(): Device | undefined {
    return this.#device;
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
    try {
      this.#native.begin(type);
    } catch (error) {
      throw withSessionState(error, this, 'xrBeginSession');
    }
    this.#running = true;
  }

  /** xrEndSession (call when the state is 'stopping'). */
  endSession(): void {
    try {
      this.#native.end();
    } catch (error) {
      throw withSessionState(error, this, 'xrEndSession');
    }
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
    const p = poseArgument(pose, 'pose');
    const api = instanceState(this.instance).api;
    const native = withPose(() => new api.OpenXrSpace(this.#native, 'reference', value, p), p, 'pose', 'xrCreateReferenceSpace');
    return new Space(this, native, { kind: 'reference', referenceSpaceType: type });
  }

  /** xrCreateActionSpace for a pose action (its set attached to this session). */
  createActionSpace(action: Action, subactionPath?: string, pose?: PoseArray): Space {
    const nativeAction = nativeActionOf(action);
    const path = subactionPath === undefined ? undefined : pathOf(this.instance, subactionPath);
    const p = poseArgument(pose, 'pose');
    const api = instanceState(this.instance).api;
    const native = withPose(() => new api.OpenXrSpace(this.#native, 'action', nativeAction, path, p), p, 'pose', 'xrCreateActionSpace');
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
      return Promise.reject(withSessionState(error, this, 'xrWaitFrame'));
    }
    return promise.then(undefined, this.#waitFrameFailed);
  }

  /**
   * @internal The frame loop's wait (runFrameLoop): waitFrame() answered by calling `callback`
   * (error null and the session's FrameState, or the native failure; turn it into the thrown
   * error with _waitFrameError) instead of a promise, so a frame allocates no promise.
   */
  _waitFrameCallback(callback: (error: unknown, frame: FrameState | undefined) => void): void {
    try {
      this.#native.waitFrameCallback(callback);
    } catch (error) {
      throw withSessionState(error, this, 'xrWaitFrame');
    }
  }

  /** @internal A failure _waitFrameCallback's callback was given, as waitFrame() would reject with it. */
  _waitFrameError(error: unknown): unknown {
    return withSessionState(error, this, 'xrWaitFrame');
  }

  /** xrWaitFrame on this thread (blocks the event loop until the frame; for workers and scripts). */
  waitFrameSync(): FrameState {
    try {
      return this.#native.waitFrameSync();
    } catch (error) {
      throw withSessionState(error, this, 'xrWaitFrame'); // not callNative(() => ...): no closure per frame
    }
  }

  /** xrBeginFrame. Returns true when the previous begun frame was discarded (XR_FRAME_DISCARDED). */
  beginFrame(): boolean {
    try {
      return this.#native.beginFrame() !== 0;
    } catch (error) {
      throw withSessionState(error, this, 'xrBeginFrame');
    }
  }

  /** xrEndFrame: with `layers` (a graphics session), or with none (valid for a headless session). */
  endFrame(options?: EndFrameOptions): void {
    if (options !== undefined && (typeof options !== 'object' || options === null)) throw invalidArgument('endFrame(options)', 'an object (EndFrameOptions) or undefined', options);
    if (options !== undefined && options.layers !== undefined && !Array.isArray(options.layers)) {
      throw invalidArgument('endFrame: options.layers', 'an array of projection layers', options.layers);
    }
    if (options !== undefined && options.layers !== undefined && options.layers.length > 0) {
      this.#endFrame.end(options, options.layers);
      return;
    }
    try {
      if (options === undefined) this.#native.endFrame();
      else {
        const blend = options.environmentBlendMode === undefined ? undefined : enumValue(ENVIRONMENT_BLEND_MODES, options.environmentBlendMode, 'environmentBlendMode');
        this.#native.endFrame(options.displayTime, blend);
      }
    } catch (error) {
      throw withSessionState(error, this, 'xrEndFrame');
    }
  }

  /**
   * xrLocateViews: for each view (2 for primary-stereo) writes 11 floats into `out` — pose
   * px py pz qx qy qz qw, then fov angleLeft angleRight angleUp angleDown (radians) — and returns
   * the XrViewStateFlags. Allocates nothing once bound: keep passing the same space and out.
   */
  locateViews(space: Space, time: XrTime | number, out: Float32Array, viewConfigurationType: ViewConfigurationTypeName = 'primary-stereo'): number {
    const type = viewConfigurationType === 'primary-stereo' ? 2 : enumValue(VIEW_CONFIGURATION_TYPES, viewConfigurationType, 'viewConfigurationType');
    return this.#views.locate(space, time, out, type);
  }

  /**
   * A frame query (docs/usage.md, 'One native call per frame: frame queries'): bound once to a list of (space, base) pairs, the views and action
   * states, its run(time, out) does all of them in one native call and writes every result into
   * one Float32Array (layout: query.layout). Use it instead of many locate()/locateViews()/
   * getBoolean() calls per frame.
   */
  createFrameQuery(options: FrameQueryOptions): FrameQuery {
    return new FrameQuery(this, options);
  }

  /**
   * Reads done before JavaScript wakes (docs/usage.md, "Reads done before JavaScript wakes"): while
   * set, every waitFrame() runs `query` on the session's wait thread right after xrWaitFrame
   * returns, at that frame's predictedDisplayTime (after xrSyncActions of `options.syncActions`,
   * when given), and copies the results into `query.out` before the promise resolves, so the frame
   * finds them written. The thread writes a buffer of its own; `query.out` is written on the
   * JavaScript thread only, while no wait runs. A frame whose predictedDisplayTime is 0n (a
   * headless runtime without a compositor) is not queried. A failing read rejects the wait with
   * its OpenXrError. While a wait is pending, destroying a space, action or action set the query
   * (or the sync) uses throws InvalidStateError. `undefined` detaches. Not while a waitFrame() is
   * pending (XR_ERROR_CALL_ORDER_INVALID).
   */
  setWaitFrameQuery(query: FrameQuery | undefined, options: { readonly syncActions?: readonly (ActionSet | ActiveActionSet)[] } = {}): void {
    if (query === undefined) {
      callNative(() => this.#native.setWaitFrameQuery(undefined, undefined, [], []));
      return;
    }
    if (!(query instanceof FrameQuery)) throw invalidArgument('setWaitFrameQuery(query)', 'a FrameQuery (session.createFrameQuery()) or undefined', query);
    if (query.session !== this) throw invalidArgument('setWaitFrameQuery(query)', "a frame query of this session", 'a query of another session');
    if (typeof options !== 'object' || options === null) throw invalidArgument('setWaitFrameQuery(query, options)', '{ syncActions? }', options);
    const { sets, paths } =
      options.syncActions === undefined ? { sets: [], paths: [] } : input.nativeActiveActionSets(this.instance, options.syncActions, 'setWaitFrameQuery: options.syncActions');
    const bound = query.waitThreadQuery();
    callNative(() => this.#native.setWaitFrameQuery(bound, query.out, sets, paths));
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

  /**
   * XR_FB_display_refresh_rate (enable it on the instance): the session's display rate and the
   * rates the runtime offers, in Hz. A runtime without a compositor may answer current 0.
   */
  displayRefreshRates(): { current: number; available: number[] } {
    this.instance.requireExtension('XR_FB_display_refresh_rate', 'xrGetDisplayRefreshRateFB');
    const s = instanceState(this.instance);
    return callNative(() => s.api.openxrDisplayRefreshRates(s.native, this.#native.handle));
  }

  /** xrEnumerateSwapchainFormats: VkFormat values, the runtime's preference first (a Vulkan session). */
  swapchainFormats(): number[] {
    return swapchains.swapchainFormats(this.instance, this.#native);
  }

  /**
   * The depth VkFormat to create a depth swapchain with (XR_KHR_composition_layer_depth): the
   * runtime's first offered of D32_SFLOAT, D16_UNORM, D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT (with
   * `stencil`: of the last two). UnavailableError when it offers none.
   */
  depthSwapchainFormat(options: { readonly stencil?: boolean } = {}): number {
    return chooseDepthFormat(this.swapchainFormats(), options);
  }

  /** xrCreateSwapchain and xrEnumerateSwapchainImages (a session with a Vulkan graphics binding). */
  createSwapchain(options: SwapchainCreateOptions): Swapchain {
    return swapchains.createSwapchain(this.instance, this.#native, this.#device, options);
  }

  /** xrAttachSessionActionSets (once per session). */
  attachActionSets(actionSets: readonly ActionSet[]): void {
    input.attachActionSets(this, this.#native, actionSets);
  }

  /**
   * xrSyncActions. Returns false when the session is not focused (XR_SESSION_NOT_FOCUSED: the
   * states then read inactive). Pass the same array every frame and nothing is allocated.
   */
  syncActions(actionSets: readonly (ActionSet | ActiveActionSet)[]): boolean {
    return this.#sync.sync(actionSets);
  }

  /** xrEnumerateBoundSourcesForAction: the input paths the action is bound to ('/user/hand/left/input/trigger/value'). */
  boundSources(action: Action): string[] {
    return input.boundSources(this, action);
  }

  /** xrGetInputSourceLocalizedName: e.g. ['user-path', 'component'] gives 'Left Hand Trigger'. */
  inputSourceLocalizedName(source: string, parts: readonly InputSourceNamePart[] = ['user-path', 'interaction-profile', 'component']): string {
    return input.inputSourceLocalizedName(this, source, parts);
  }

  /** xrGetReferenceSpaceBoundsRect: the play area's extent in metres; null when the runtime has none (XR_SPACE_BOUNDS_UNAVAILABLE). */
  referenceSpaceBounds(type: ReferenceSpaceTypeName): input.SpaceBounds | null {
    return input.referenceSpaceBounds(this, type);
  }

  /** xrCreateHandTrackerEXT (enable XR_EXT_hand_tracking on the instance): destroyed with the session. */
  createHandTracker(hand: HandName): HandTracker {
    return input.createHandTracker(this, hand);
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
    try {
      callNative(() => this.#native.destroy());
    } finally {
      // Once the native session is gone (destroyed here, or with its instance) the device may go.
      if (this.#native.isDestroyed) this.#device?.unretain(this);
    }
    if (handle !== undefined) sessionsOf(this.instance).delete(handle);
    this.#running = false;
    this.#endFrame.release();
    this.#views.release();
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

/** What a session-state result says, with the state the session is in (as of the last polled event). */
const STATE_RESULTS: Readonly<Partial<Record<string, string>>> = {
  XR_ERROR_SESSION_NOT_RUNNING: 'the session is not running',
  XR_ERROR_SESSION_RUNNING: 'the session is already running',
  XR_ERROR_SESSION_NOT_READY: "the session is not ready (beginSession() needs the state 'ready')",
  XR_ERROR_SESSION_NOT_STOPPING: "the session is not stopping (endSession() needs the state 'stopping')",
  XR_ERROR_CALL_ORDER_INVALID: 'the frame calls are out of order (waitFrame(), then beginFrame(), then endFrame())',
};

/** A native failure as OpenXrError; one of the session-state results says the session's state. */
function withSessionState(error: unknown, session: Session, command: string): unknown {
  const e = fromNative(error);
  if (!(e instanceof OpenXrError)) return e;
  const why = STATE_RESULTS[e.result];
  if (why === undefined || e.message !== `${e.result}: ${command} failed`) return e;
  const running = session.isRunning ? 'beginSession() was called' : 'beginSession() has not been called since the session was created or ended';
  const hint = e.result === 'XR_ERROR_SESSION_NOT_RUNNING' ? "; call beginSession() once the state is 'ready' (instance.pollEvents() delivers it)" : '';
  return new OpenXrError(e.result, `${command}: ${why}: its state is '${session.state}' as of the last polled event and ${running}${hint}`);
}

export function createSession(instance: Instance, system: System, options: CreateSessionOptions = { headless: true }): Session {
  if (typeof options !== 'object' || options === null || !('headless' in options ? options.headless === true : 'graphics' in options)) {
    throw invalidArgument('createSession(system, options): options', '{ headless: true } or { graphics: { vulkan: { device, physicalDevice, queueFamilyIndex, queueIndex } } }', options);
  }
  if (system === null || typeof system !== 'object' || system.instance !== instance) {
    throw invalidArgument('system', 'a System of this instance (instance.getSystem())', system);
  }
  const s = instanceState(instance);
  let native: NativeSession;
  let device: Device | undefined;
  if ('graphics' in options) {
    const vulkan = (options.graphics as { vulkan?: VulkanSessionBinding } | null)?.vulkan;
    if (typeof vulkan !== 'object' || vulkan === null || typeof vulkan.device !== 'object' || vulkan.device === null || typeof (vulkan.device as { getQueue?: unknown }).getQueue !== 'function' || typeof vulkan.physicalDevice !== 'object' || vulkan.physicalDevice === null) {
      throw invalidArgument('createSession: options.graphics.vulkan', '{ device, physicalDevice, queueFamilyIndex, queueIndex } (createVulkanGraphics() answers one)', vulkan);
    }
    device = vulkan.device;
    const binding = {
      vulkan: { device: device.nativeDevice, physicalDevice: vulkan.physicalDevice.handle, queueFamilyIndex: vulkan.queueFamilyIndex, queueIndex: vulkan.queueIndex },
    };
    device.getQueue(vulkan.queueFamilyIndex, vulkan.queueIndex); // TypeError unless the device has that queue
    native = callNative(() => new s.api.OpenXrSession(s.native, system.id, binding));
  } else {
    native = callNative(() => new s.api.OpenXrSession(s.native, system.id));
  }
  const session = new Session(instance, system, native, device);
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
