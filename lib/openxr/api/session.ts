// A Session: an XrSession, headless (XR_MND_headless) or rendering through Vulkan
// (XR_KHR_vulkan_enable2: swapchains of VkImages, projection layers in endFrame). An EventEmitter:
// 'stateChanged' (state, event) whenever a polled event changes its state. The frame loop:
// `await session.waitFrame()` runs xrWaitFrame on the session's own native thread, so the event
// loop never blocks; beginFrame() and endFrame() are synchronous; locateViews() writes into a
// caller's Float32Array and allocates nothing.
import { EventEmitter } from 'node:events';
import type { Instance } from './instance.js';
import { nativeActionOf, nativeActionSetOf, type Action, type ActionSet } from './action.js';
import type { OpenXrEvent } from './events.js';
import { callNative, instanceState, pathOf, registerNativeSession } from './handles.js';
import { rethrowNative } from '../errors.js';
import { loadOpenXrAddon, type NativeBound, type NativeFrameState, type NativeOpenXrAddon, type NativeSession } from '../native/addon.js';
import { Space, nativeSpaceOf } from './space.js';
import { FrameQuery, type FrameQueryOptions } from './frame-query.js';
import type { System } from './system.js';
import type { Device } from '../../vulkan/api/device.js';
import type { PhysicalDevice } from '../../vulkan/api/instance.js';
import { Swapchain, swapchainCreateInfo, type SwapchainCreateOptions } from '../vulkan/swapchain.js';
import type { NativeProjectionLayer } from '../native/addon.js';
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
  type HandName,
  type InputSourceNamePart,
  type XrTime,
} from './types.js';
import type { HandTracker } from './hand-tracker.js';
import * as input from './session-input.js';

/**
 * What waitFrame() answers. The same object every frame (per session), updated in place: copy
 * the fields you keep beyond the frame.
 */
export interface FrameState {
  /** XrTime in ns (CLOCK_MONOTONIC), a bigint: past 104 days of uptime it no longer fits a number exactly. */
  readonly predictedDisplayTime: XrTime;
  /** ns. */
  readonly predictedDisplayPeriod: number;
  readonly shouldRender: boolean;
}

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

/** An XrFovf: radians, left and down negative. */
export interface Fov {
  readonly angleLeft: number;
  readonly angleRight: number;
  readonly angleUp: number;
  readonly angleDown: number;
}

/** One eye's image of a projection layer (XrCompositionLayerProjectionView). */
export interface ProjectionView {
  /** The pose the image was rendered from, in the layer's space. */
  readonly pose: PoseArray;
  /** Its field of view: an Fov, or [angleLeft, angleRight, angleUp, angleDown] (e.g. a subarray of locateViews' output). */
  readonly fov: Fov | readonly [number, number, number, number] | Float32Array;
  readonly swapchain: Swapchain;
  /** Default: the whole image. */
  readonly imageRect?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  /** The array layer of the swapchain image. Default 0. */
  readonly arrayIndex?: number;
}

export interface ProjectionLayer {
  readonly type: 'projection';
  readonly space: Space;
  readonly views: readonly ProjectionView[];
}

export interface EndFrameOptions {
  /** Default: the begun frame's predictedDisplayTime, exactly as the runtime gave it. */
  readonly displayTime?: XrTime | number;
  readonly environmentBlendMode?: EnvironmentBlendModeName;
  /**
   * Composition layers (a session with graphics). The layers' structures are built natively once
   * and reused while the spaces, swapchains, rectangles and array indices stay the same; each call
   * copies only the poses and fields of view.
   */
  readonly layers?: readonly ProjectionLayer[];
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
  // The one native function of each per-frame kind (every session's calls keep one target).
  readonly #locateViewsNative: NativeOpenXrAddon['openxrLocateViews'] = loadOpenXrAddon().openxrLocateViews;
  readonly #endFrameNative: NativeOpenXrAddon['openxrEndFrame'] = loadOpenXrAddon().openxrEndFrame;
  // The bound view locator and what it was bound to.
  #viewLocator: NativeBound<'viewLocator'> | undefined;
  #viewSpace: Space | undefined;
  #viewOut: Float32Array | undefined;
  #viewLength = -1;
  #viewType = 0;
  // syncActions: the last array passed and its native form, reused while the caller reuses it.
  #syncInput: readonly (ActionSet | ActiveActionSet)[] | undefined;
  #syncSets: ReturnType<typeof nativeActionSetOf>[] = [];
  #syncPaths: (bigint | undefined)[] = [];
  /** The Vulkan device a graphics session renders with (retained until destroy()). */
  readonly #device: Device | undefined;
  readonly description = 'an OpenXR session';
  // endFrame with layers: the bound native call, what it was bound to (flattened: per layer the
  // space and view count, per view the swapchain, rectangle and array index), and its pose data.
  #endFrameBound: NativeBound<'endFrame'> | undefined;
  #endFrameKey: unknown[] = [];
  #endFrameBlend = -1;
  #endFrameData = new Float32Array(0);

  /** @internal Use instance.createSession(). */
  constructor(instance: Instance, system: System, native: NativeSession, device?: Device) {
    super();
    this.instance = instance;
    this.system = system;
    this.#native = native;
    this.#device = device;
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
    return promise.then(undefined, rethrowNative);
  }

  /** xrWaitFrame on this thread (blocks the event loop until the frame; for workers and scripts). */
  waitFrameSync(): FrameState {
    try {
      return this.#native.waitFrameSync();
    } catch (error) {
      rethrowNative(error); // not callNative(() => ...): no closure per frame
    }
  }

  /** xrBeginFrame. Returns true when the previous begun frame was discarded (XR_FRAME_DISCARDED). */
  beginFrame(): boolean {
    try {
      return this.#native.beginFrame() !== 0;
    } catch (error) {
      rethrowNative(error);
    }
  }

  /** xrEndFrame: with `layers` (a graphics session), or with none (valid for a headless session). */
  endFrame(options?: EndFrameOptions): void {
    if (options !== undefined && options.layers !== undefined && options.layers.length > 0) {
      this.#endFrameWithLayers(options, options.layers);
      return;
    }
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

  #endFrameWithLayers(options: EndFrameOptions, layers: readonly ProjectionLayer[]): void {
    const blend = options.environmentBlendMode === undefined ? 1 : enumValue(ENVIRONMENT_BLEND_MODES, options.environmentBlendMode, 'environmentBlendMode');
    if (!Array.isArray(layers)) throw new TypeError('endFrame: layers must be an array of projection layers');
    if (this.#endFrameBound === undefined || blend !== this.#endFrameBlend || !this.#sameLayerShape(layers)) this.#bindEndFrame(layers, blend);
    // Poses and fields of view, 11 floats per view (as locateViews writes them).
    const data = this.#endFrameData;
    let o = 0;
    // Index loops: for-of would allocate an iterator per loop until the function is optimised.
    for (let l = 0; l < layers.length; l++) {
      const layerViews = (layers[l] as ProjectionLayer).views;
      for (let v = 0; v < layerViews.length; v++) {
        const view = layerViews[v] as ProjectionView;
        const pose = view.pose;
        // Float32Array to Float32Array: a copy that boxes no number, even before the JIT optimises this.
        if (pose instanceof Float32Array && pose.length === 7) data.set(pose, o);
        else for (let i = 0; i < 7; i++) data[o + i] = pose[i] as number;
        const fov = view.fov;
        if (fov instanceof Float32Array && fov.length === 4) data.set(fov, o + 7);
        else if (fov instanceof Float32Array || Array.isArray(fov)) {
          for (let i = 0; i < 4; i++) data[o + 7 + i] = (fov as ArrayLike<number>)[i] as number;
        } else {
          const f = fov as Fov;
          data[o + 7] = f.angleLeft;
          data[o + 8] = f.angleRight;
          data[o + 9] = f.angleUp;
          data[o + 10] = f.angleDown;
        }
        o += 11;
      }
    }
    if (Number.isNaN(data[0]) || Number.isNaN(data[o - 1])) throw new TypeError('endFrame: each view needs a pose (7 numbers) and a fov (4 numbers)');
    try {
      this.#endFrameNative(this.#endFrameBound as NativeBound<'endFrame'>, options.displayTime);
    } catch (error) {
      rethrowNative(error);
    }
  }

  // True when `layers` has the structure the bound call was built for (compared in place: no allocation).
  #sameLayerShape(layers: readonly ProjectionLayer[]): boolean {
    const key = this.#endFrameKey;
    let k = 0;
    for (let l = 0; l < layers.length; l++) {
      const layer = layers[l] as ProjectionLayer;
      if (key[k++] !== layer.space || key[k++] !== layer.views.length) return false;
      for (let v = 0; v < layer.views.length; v++) {
        const view = layer.views[v] as ProjectionView;
        const r = view.imageRect;
        if (key[k++] !== view.swapchain || key[k++] !== (view.arrayIndex ?? 0)) return false;
        if (key[k++] !== (r === undefined ? 0 : r.x) || key[k++] !== (r === undefined ? 0 : r.y)) return false;
        if (key[k++] !== (r === undefined ? view.swapchain.width : r.width) || key[k++] !== (r === undefined ? view.swapchain.height : r.height)) return false;
      }
    }
    return k === key.length;
  }

  #bindEndFrame(layers: readonly ProjectionLayer[], blend: number): void {
    const key: unknown[] = [];
    const native: NativeProjectionLayer[] = layers.map((layer, l) => {
      if (typeof layer !== 'object' || layer === null || layer.type !== 'projection') throw new TypeError(`endFrame: layers[${l}] must be { type: 'projection', space, views }`);
      if (!Array.isArray(layer.views) || layer.views.length === 0) throw new TypeError(`endFrame: layers[${l}].views must be a non-empty array`);
      key.push(layer.space, layer.views.length);
      return {
        space: nativeSpaceOf(layer.space),
        views: layer.views.map((view, v) => {
          if (!(view.swapchain instanceof Swapchain)) throw new TypeError(`endFrame: layers[${l}].views[${v}].swapchain must be a Swapchain`);
          const fov = view.fov as unknown;
          const pose = view.pose as unknown;
          if (!((Array.isArray(pose) || pose instanceof Float32Array) && (pose as ArrayLike<number>).length >= 7)) {
            throw new TypeError(`endFrame: layers[${l}].views[${v}].pose must be [px, py, pz, qx, qy, qz, qw]`);
          }
          if (typeof fov !== 'object' || fov === null || !('angleLeft' in fov || (fov as ArrayLike<number>).length >= 4)) {
            throw new TypeError(`endFrame: layers[${l}].views[${v}].fov must be { angleLeft, angleRight, angleUp, angleDown } or 4 numbers`);
          }
          const r = view.imageRect ?? { x: 0, y: 0, width: view.swapchain.width, height: view.swapchain.height };
          const arrayIndex = view.arrayIndex ?? 0;
          key.push(view.swapchain, arrayIndex, r.x, r.y, r.width, r.height);
          return { swapchain: view.swapchain.native, x: r.x, y: r.y, width: r.width, height: r.height, arrayIndex };
        }),
      };
    });
    const data = new Float32Array(native.reduce((n, layer) => n + layer.views.length, 0) * VIEW_FLOATS);
    const s = instanceState(this.instance);
    this.#endFrameBound = callNative(() => s.api.openxrBindEndFrame(this.#native, native, blend, data));
    this.#endFrameData = data;
    this.#endFrameKey = key;
    this.#endFrameBlend = blend;
  }

  /** xrEnumerateSwapchainFormats: VkFormat values, the runtime's preference first (a Vulkan session). */
  swapchainFormats(): number[] {
    const s = instanceState(this.instance);
    return callNative(() => s.api.openxrSwapchainFormats(this.#native));
  }

  /** xrCreateSwapchain and xrEnumerateSwapchainImages (a session with a Vulkan graphics binding). */
  createSwapchain(options: SwapchainCreateOptions): Swapchain {
    const info = swapchainCreateInfo(options);
    const device = this.#device;
    if (device === undefined) {
      callNative(() => this.#native.handle);
      throw new TypeError('createSwapchain: this session has no graphics binding (create it with { graphics: { vulkan } })');
    }
    const api = instanceState(this.instance).api;
    const native = callNative(() => new api.OpenXrSwapchain(this.#native, info));
    return new Swapchain(native, device, info);
  }

  /**
   * xrLocateViews: for each view (2 for primary-stereo) writes 11 floats into `out` — pose
   * px py pz qx qy qz qw, then fov angleLeft angleRight angleUp angleDown (radians) — and returns
   * the XrViewStateFlags. Allocates nothing once bound: keep passing the same space and out.
   */
  locateViews(space: Space, time: XrTime | number, out: Float32Array, viewConfigurationType: ViewConfigurationTypeName = 'primary-stereo'): number {
    const type = viewConfigurationType === 'primary-stereo' ? 2 : enumValue(VIEW_CONFIGURATION_TYPES, viewConfigurationType, 'viewConfigurationType');
    if (space !== this.#viewSpace || out !== this.#viewOut || out.length !== this.#viewLength || type !== this.#viewType) {
      this.#bindViewLocator(space, out, type);
    }
    try {
      return this.#locateViewsNative(this.#viewLocator as NativeBound<'viewLocator'>, time);
    } catch (error) {
      rethrowNative(error);
    }
  }

  /**
   * A frame query (issue 14): bound once to a list of (space, base) pairs, the views and action
   * states, its run(time, out) does all of them in one native call and writes every result into
   * one Float32Array (layout: query.layout). Use it instead of many locate()/locateViews()/
   * getBoolean() calls per frame.
   */
  createFrameQuery(options: FrameQueryOptions): FrameQuery {
    return new FrameQuery(this, options);
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
    this.#endFrameBound = undefined;
    this.#endFrameKey = [];
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
  if (typeof options !== 'object' || options === null || !('headless' in options ? options.headless === true : 'graphics' in options)) {
    throw new TypeError('createSession(system, options): options must be { headless: true } or { graphics: { vulkan: { device, physicalDevice, queueFamilyIndex, queueIndex } } }');
  }
  if (system === null || typeof system !== 'object' || system.instance !== instance) {
    throw new TypeError('system must be a System of this instance (instance.getSystem())');
  }
  const s = instanceState(instance);
  let native: NativeSession;
  let device: Device | undefined;
  if ('graphics' in options) {
    const vulkan = (options.graphics as { vulkan?: VulkanSessionBinding } | null)?.vulkan;
    if (typeof vulkan !== 'object' || vulkan === null || typeof vulkan.device !== 'object' || vulkan.device === null || typeof vulkan.physicalDevice !== 'object') {
      throw new TypeError('createSession: graphics.vulkan must be { device, physicalDevice, queueFamilyIndex, queueIndex } (createVulkanGraphics() answers one)');
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
