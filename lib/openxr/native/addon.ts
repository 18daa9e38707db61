// The addon's OpenXR surface, as the TypeScript classes see it: the instance and its chain
// (native/openxr/addon/openxr.cc), the generated bindings, the published plan, and the typed API
// (native/openxr/addon/openxr_{api,session,space,actions,input,hand_tracking,frame,system}.cc).
// Internal: applications use Instance, Session, Space, ActionSet, Action.
import { loadNativeAddon, type NativeAddon } from '../../core/native/load.js';
import type { NativeVulkanDevice, NativeVulkanDeviceCreateInfo } from '../../vulkan/native/addon.js';

/** The plan as the native side takes it (lib/openxr/native/plan.ts builds it from an InstancePlan). */
export interface NativeOpenXrPlan {
  readonly runtime: { readonly manifestPath: string; readonly libraryPath: string; readonly negotiateFunctionName: string };
  /** Nearest the application first. `required`: a failure fails the instance (else the layer is left out). */
  readonly apiLayers: readonly {
    readonly name: string;
    readonly manifestPath: string;
    readonly libraryPath: string;
    readonly negotiateFunctionName: string;
    readonly required: boolean;
  }[];
}

/** A loader debug-utils message (XrDebugUtilsMessengerCallbackDataEXT, flattened). */
export interface NativeDebugUtilsMessage {
  readonly severity: number;
  readonly types: number;
  readonly messageId: string;
  readonly functionName: string;
  readonly message: string;
}

export interface NativeOpenXrCreateInfo {
  /**
   * Required (OpenXR has no default, and neither does this loader): at most 127 bytes in UTF-8
   * (XR_MAX_APPLICATION_NAME_SIZE - 1) and no NUL, else XR_ERROR_NAME_INVALID before anything
   * loads; the runtime answers XR_ERROR_NAME_INVALID to an empty one.
   */
  readonly applicationName: string;
  readonly applicationVersion?: number;
  /** Optional; at most 127 bytes in UTF-8 (XR_MAX_ENGINE_NAME_SIZE - 1) and no NUL, else XR_ERROR_NAME_INVALID. */
  readonly engineName?: string;
  readonly engineVersion?: number;
  /** XR_MAKE_VERSION value; default XR_API_VERSION_1_0 (accepted by 1.0 and 1.1 runtimes). */
  readonly apiVersion?: bigint;
  readonly enabledApiLayerNames?: readonly string[];
  readonly enabledExtensionNames?: readonly string[];
  /** Chained into XrInstanceCreateInfo.next as an XrDebugUtilsMessengerCreateInfoEXT (all severities and types). */
  readonly debugMessenger?: (message: NativeDebugUtilsMessage) => void;
}

/** What the exported xrEnumerate* commands answer once published (lib/openxr/api/publish-plan.ts). */
export interface NativeOpenXrPublishedLists {
  readonly apiLayerProperties: readonly { readonly layerName: string; readonly specVersion: number; readonly layerVersion: number; readonly description: string }[];
  readonly instanceExtensions: readonly { readonly name: string; readonly extensionVersion: number }[];
  readonly layerExtensions: Readonly<Record<string, readonly { readonly name: string; readonly extensionVersion: number }[]>>;
}

/** A native OpenXR instance (native/openxr/addon/openxr.cc). Failures throw an Error with code 'KL_OPENXR_ERROR' and `xrResult`. */
export interface NativeOpenXrInstance {
  getInstanceProcAddr(name: string): bigint;
  getProperties(): { runtimeName: string; runtimeVersion: bigint };
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  readonly apiLayerNames: string[];
  /** xrCreateDebugUtilsMessengerEXT through the chain; the callback is called asynchronously. Returns the handle. */
  createDebugUtilsMessenger(callback: (message: NativeDebugUtilsMessage) => void, severities: number, types: number): bigint;
  destroyDebugUtilsMessenger(handle: bigint): void;
  submitDebugUtilsMessage(severity: number, types: number, message: string): void;
}

/** The generated bindings' native side: runs kCommands[index] with the arguments in C order (counts left out). */
export interface NativeOpenXrCommands {
  call(index: number, args: readonly unknown[]): unknown;
  /** The XrInstance the bindings are bound to, null for the pre-instance commands only. */
  readonly instance: bigint | null;
}

export interface NativeFrameState {
  predictedDisplayTime: bigint;
  predictedDisplayPeriod: number;
  shouldRender: boolean;
}

export interface NativeSession {
  begin(viewConfigurationType: number): void;
  end(): void;
  requestExit(): void;
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  enumerateReferenceSpaces(): number[];
  /** Resolves with the session's one frame-state object (updated in place each frame). */
  waitFrame(): Promise<NativeFrameState>;
  waitFrameSync(): NativeFrameState;
  /**
   * waitFrame() answered by calling `callback` on the JavaScript thread instead of settling a
   * promise: `error` is null and `frameState` the session's one frame-state object, or `error` the
   * failure. The callback must not throw (its exception would be uncaught).
   */
  waitFrameCallback(callback: (error: unknown, frameState: NativeFrameState | undefined) => void): void;
  /**
   * The frame query the wait thread runs after each xrWaitFrame (its own output the back buffer),
   * copied into `front` on delivery; after xrSyncActions of `syncSets` when not empty. undefined detaches.
   */
  /** True when the wait thread finished a wait whose frame JavaScript has not received yet. */
  readonly waitFrameResultWaiting: boolean;
  setWaitFrameQuery(
    query: NativeBound<'frameQuery'> | undefined,
    front: Float32Array | undefined,
    syncSets: readonly NativeActionSet[],
    syncPaths: readonly (bigint | undefined)[],
  ): void;
  /** XR_SUCCESS (0) or XR_FRAME_DISCARDED (9). */
  beginFrame(): number;
  endFrame(displayTime?: bigint | number, environmentBlendMode?: number): void;
  /** For openxrLocateViews. */
  bindViewLocator(space: NativeSpace, viewConfigurationType: number, viewCount: number, out: Float32Array): NativeBound<'viewLocator'>;
  attachActionSets(sets: readonly NativeActionSet[]): void;
  /** XR_SUCCESS (0) or XR_SESSION_NOT_FOCUSED (8). */
  syncActions(sets: readonly NativeActionSet[], subactionPaths: readonly (bigint | undefined)[]): number;
  /** For openxrReadActionState: out [currentState (vector2f: x), changedSinceLastSync, isActive, vector2f: y]; time[0]: lastChangeTime. */
  bindActionState(action: NativeAction, subactionPath: bigint | undefined, out: Float64Array, time: BigInt64Array): NativeBound<'actionState'>;
  currentInteractionProfile(topLevelUserPath: bigint): bigint;
}

export interface NativeSpace {
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  locate(base: NativeSpace, time: bigint | number, out: Float32Array): number;
  /** For openxrLocateSpace: the pose into `out`, the XrSpaceLocationFlags into result[0]. */
  bindLocator(base: NativeSpace, out: Float32Array, result: Uint32Array): NativeBound<'spaceLocator'>;
}

export interface NativeHandTracker {
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  /** A locator for openxrLocateHandJoints: the runtime writes its XrHandJointLocationEXT array (10 floats a joint) into `out`, isActive (1 or 0) goes into result[0]. */
  bindLocator(base: NativeSpace, out: Float32Array, result: Uint32Array): NativeBound<'handJointLocator'>;
}

export interface NativeActionSet {
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
}

export interface NativeAction {
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
}

export interface NativeSystemProperties {
  readonly systemId: bigint;
  readonly vendorId: number;
  readonly systemName: string;
  readonly graphicsProperties: { readonly maxSwapchainImageWidth: number; readonly maxSwapchainImageHeight: number; readonly maxLayerCount: number };
  readonly trackingProperties: { readonly orientationTracking: boolean; readonly positionTracking: boolean };
}

export interface NativeViewConfigurationView {
  readonly recommendedImageRectWidth: number;
  readonly maxImageRectWidth: number;
  readonly recommendedImageRectHeight: number;
  readonly maxImageRectHeight: number;
  readonly recommendedSwapchainSampleCount: number;
  readonly maxSwapchainSampleCount: number;
}

export type NativeEvent =
  | { readonly type: 'sessionStateChanged'; readonly structureType: number; readonly session: bigint; readonly state: number; readonly time: bigint }
  | { readonly type: 'instanceLossPending'; readonly structureType: number; readonly lossTime: bigint }
  | { readonly type: 'interactionProfileChanged'; readonly structureType: number; readonly session: bigint }
  | { readonly type: 'eventsLost'; readonly structureType: number; readonly lostEventCount: number }
  | {
      readonly type: 'referenceSpaceChangePending';
      readonly structureType: number;
      readonly session: bigint;
      readonly referenceSpaceType: number;
      readonly changeTime: bigint;
      readonly poseValid: boolean;
    }
  | { readonly type: 'other'; readonly structureType: number };

/** XR_KHR_vulkan_enable2's graphics binding as the native session takes it. */
export interface NativeVulkanBinding {
  readonly vulkan: {
    /** The native VulkanDevice (the session keeps it and its instance). */
    readonly device: NativeVulkanDevice;
    readonly physicalDevice: bigint;
    readonly queueFamilyIndex: number;
    readonly queueIndex: number;
  };
}

export interface NativeSwapchainCreateInfo {
  readonly usageFlags: number;
  readonly format: number;
  readonly sampleCount: number;
  readonly width: number;
  readonly height: number;
  readonly faceCount: number;
  readonly arraySize: number;
  readonly mipCount: number;
}

export interface NativeSwapchain {
  acquire(): number;
  /** false when the timeout (ns) expired. */
  wait(timeoutNs: number): boolean;
  release(): void;
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  /** The VkImages. */
  readonly images: readonly bigint[];
}

export interface NativeProjectionLayer {
  readonly space: NativeSpace;
  readonly views: readonly {
    readonly swapchain: NativeSwapchain;
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
    readonly arrayIndex: number;
    /** XrCompositionLayerDepthInfoKHR chained to the view. */
    readonly depth?: {
      readonly swapchain: NativeSwapchain;
      readonly x: number;
      readonly y: number;
      readonly width: number;
      readonly height: number;
      readonly arrayIndex: number;
      readonly minDepth: number;
      readonly maxDepth: number;
      readonly nearZ: number;
      readonly farZ: number;
    };
  }[];
}

/**
 * A per-frame call's data, bound once (handles, dispatch entries, the output's address): an opaque
 * native external, passed back to the one native function of its kind each call.
 */
export interface NativeBound<Kind extends string> {
  readonly __nativeBound: Kind;
}

/** An action of a frame query as the native binding takes it. */
export interface NativeFrameQueryAction {
  readonly action: NativeAction;
  readonly subactionPath?: bigint;
}

export interface NativeOpenXrAddon {
  readonly OpenXrInstance: new (plan: NativeOpenXrPlan, createInfo: NativeOpenXrCreateInfo) => NativeOpenXrInstance;
  /** The generated bindings (native/openxr/addon/openxr_commands.cc): none, an instance, or a handle the generated xrCreateInstance made. */
  readonly OpenXrCommands: new (instance?: NativeOpenXrInstance | bigint) => NativeOpenXrCommands;
  openxrRuntimeExtensions(runtime: NativeOpenXrPlan['runtime']): { extensionName: string; extensionVersion: number }[];
  /** The loader's exported xrGetInstanceProcAddr (0n: XR_NULL_HANDLE), as native code sees it. */
  openxrGetInstanceProcAddr(instance: bigint, name: string): bigint;
  /** Replaces the plan snapshot the exported xrCreateInstance works from (native/openxr/loader/published_plan.h). */
  openxrPublishPlan(plan: NativeOpenXrPlan, lists?: NativeOpenXrPublishedLists): void;
  readonly OpenXrSession: new (instance: NativeOpenXrInstance, systemId: bigint, graphics?: NativeVulkanBinding) => NativeSession;
  readonly OpenXrSwapchain: new (session: NativeSession, createInfo: NativeSwapchainCreateInfo) => NativeSwapchain;
  openxrVulkanGraphicsRequirements(instance: NativeOpenXrInstance, systemId: bigint): { minApiVersion: bigint; maxApiVersion: bigint };
  openxrCreateVulkanInstance(
    instance: NativeOpenXrInstance,
    systemId: bigint,
    createInfo: { readonly applicationName: string; readonly apiVersion: number; readonly enabledExtensionNames: readonly string[] },
  ): bigint;
  openxrGetVulkanGraphicsDevice(instance: NativeOpenXrInstance, systemId: bigint, vulkanInstance: bigint): bigint;
  openxrCreateVulkanDevice(
    instance: NativeOpenXrInstance,
    systemId: bigint,
    physicalDevice: bigint,
    createInfo: NativeVulkanDeviceCreateInfo,
  ): bigint;
  openxrSwapchainFormats(session: NativeSession): number[];
  /** xrEndFrame with these projection layers: each call reads 11 floats per view (pose, fov) from `data`. */
  openxrBindEndFrame(
    session: NativeSession,
    layers: readonly NativeProjectionLayer[],
    environmentBlendMode: number,
    data: Float32Array,
  ): NativeBound<'endFrame'>;
  readonly OpenXrSpace: {
    new (session: NativeSession, kind: 'reference', referenceSpaceType: number, pose?: Float32Array): NativeSpace;
    new (session: NativeSession, kind: 'action', action: NativeAction, subactionPath?: bigint, pose?: Float32Array): NativeSpace;
  };
  readonly OpenXrActionSet: new (instance: NativeOpenXrInstance, name: string, localizedName: string, priority: number) => NativeActionSet;
  readonly OpenXrAction: new (
    set: NativeActionSet,
    name: string,
    localizedName: string,
    type: number,
    subactionPaths: readonly bigint[],
  ) => NativeAction;
  openxrGetSystem(instance: NativeOpenXrInstance, formFactor: number): bigint;
  openxrGetSystemProperties(instance: NativeOpenXrInstance, systemId: bigint): NativeSystemProperties;
  openxrEnumerateViewConfigurations(instance: NativeOpenXrInstance, systemId: bigint): number[];
  openxrEnumerateViewConfigurationViews(instance: NativeOpenXrInstance, systemId: bigint, type: number): NativeViewConfigurationView[];
  openxrEnumerateEnvironmentBlendModes(instance: NativeOpenXrInstance, systemId: bigint, type: number): number[];
  openxrStringToPath(instance: NativeOpenXrInstance, path: string): bigint;
  openxrPathToString(instance: NativeOpenXrInstance, path: bigint): string;
  openxrPollEvent(instance: NativeOpenXrInstance): NativeEvent | null;
  /** CLOCK_MONOTONIC now as an XrTime, through xrConvertTimespecTimeToTimeKHR. */
  openxrConvertMonotonicNow(instance: NativeOpenXrInstance): bigint;
  /** XR_FB_display_refresh_rate: the session's current rate (0 when the runtime has none) and the ones it offers, Hz. */
  openxrDisplayRefreshRates(instance: NativeOpenXrInstance, session: bigint): { current: number; available: number[] };
  openxrSuggestBindings(instance: NativeOpenXrInstance, profile: bigint, actions: readonly NativeAction[], bindings: readonly bigint[]): void;
  /** A frame query (native/openxr/addon/openxr_frame_query.h): one call per frame writes every result into `out`. */
  openxrBindFrameQuery(
    session: NativeSession,
    spaces: readonly NativeSpace[],
    bases: readonly NativeSpace[],
    views: { readonly space: NativeSpace; readonly viewConfigurationType: number; readonly viewCount: number } | null,
    actions: readonly NativeFrameQueryAction[],
    out: Float32Array,
    allowLocateSpaces?: boolean,
  ): { readonly query: NativeBound<'frameQuery'>; readonly locatePath: 'xrLocateSpaces' | 'xrLocateSpace' | 'none'; readonly floats: number };
  // The per-frame calls: one native function per kind, taking what was bound (native/openxr/addon/openxr_handles.h,
  // "Bound data", says why).
  openxrRunFrameQuery(query: NativeBound<'frameQuery'>, time: bigint | number): void;
  /** The pose into the bound output, the XrSpaceLocationFlags into the bound result slot. */
  openxrLocateSpace(locator: NativeBound<'spaceLocator'>, time: bigint | number): void;
  /** The runtime writes the joints into the bound output; 1 (tracked) or 0 into the bound result slot. */
  openxrLocateHandJoints(locator: NativeBound<'handJointLocator'>, time: bigint | number): void;
  /** XrViewStateFlags; 11 floats a view in the bound output. */
  openxrLocateViews(locator: NativeBound<'viewLocator'>, time: bigint | number): number;
  openxrReadActionState(reader: NativeBound<'actionState'>): void;
  /** Without displayTime: the one of the last beginFrame. */
  openxrEndFrame(frame: NativeBound<'endFrame'>, displayTime?: bigint | number): void;
  readonly OpenXrHandTracker: new (session: NativeSession, hand: number) => NativeHandTracker;
  /** XR_SUCCESS (0) or XR_SESSION_NOT_FOCUSED (8). */
  openxrApplyHaptic(
    session: NativeSession,
    action: NativeAction,
    subactionPath: bigint | undefined,
    duration: bigint | number,
    frequency: number,
    amplitude: number,
  ): number;
  openxrStopHaptic(session: NativeSession, action: NativeAction, subactionPath: bigint | undefined): number;
  openxrBoundSources(session: NativeSession, action: NativeAction): bigint[];
  openxrInputSourceLocalizedName(session: NativeSession, source: bigint, whichComponents: number): string;
  /** null when the runtime answers XR_SPACE_BOUNDS_UNAVAILABLE. */
  openxrReferenceSpaceBounds(session: NativeSession, referenceSpaceType: number): { width: number; height: number } | null;
}

export function loadOpenXrAddon(): NativeOpenXrAddon & NativeAddon {
  return loadNativeAddon() as NativeAddon & NativeOpenXrAddon;
}
