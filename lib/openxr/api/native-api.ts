// The native surface of the typed OpenXR API (native/napi/openxr_{api,session,space,actions,
// frame,system}.cc), as the TypeScript classes see it. Internal: applications use Session, Space,
// ActionSet, Action.
import { loadNativeAddon, type NativeAddon, type NativeOpenXrInstance } from '../../native.js';

export interface NativeFrameState {
  predictedDisplayTime: number;
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
  /** XR_SUCCESS (0) or XR_FRAME_DISCARDED (9). */
  beginFrame(): number;
  endFrame(displayTime?: number, environmentBlendMode?: number): void;
  bindViewLocator(space: NativeSpace, viewConfigurationType: number, viewCount: number, out: Float32Array): (time: number) => number;
  attachActionSets(sets: readonly NativeActionSet[]): void;
  /** XR_SUCCESS (0) or XR_SESSION_NOT_FOCUSED (8). */
  syncActions(sets: readonly NativeActionSet[], subactionPaths: readonly (bigint | undefined)[]): number;
  bindActionState(action: NativeAction, subactionPath: bigint | undefined, out: Float64Array): () => void;
  currentInteractionProfile(topLevelUserPath: bigint): bigint;
}

export interface NativeSpace {
  destroy(): void;
  readonly isDestroyed: boolean;
  readonly handle: bigint;
  locate(base: NativeSpace, time: number, out: Float32Array): number;
  bindLocator(base: NativeSpace, out: Float32Array): (time: number) => number;
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
  | { readonly type: 'sessionStateChanged'; readonly structureType: number; readonly session: bigint; readonly state: number; readonly time: number }
  | { readonly type: 'instanceLossPending'; readonly structureType: number; readonly lossTime: number }
  | { readonly type: 'interactionProfileChanged'; readonly structureType: number; readonly session: bigint }
  | { readonly type: 'eventsLost'; readonly structureType: number; readonly lostEventCount: number }
  | {
      readonly type: 'referenceSpaceChangePending';
      readonly structureType: number;
      readonly session: bigint;
      readonly referenceSpaceType: number;
      readonly changeTime: number;
      readonly poseValid: boolean;
    }
  | { readonly type: 'other'; readonly structureType: number };

export interface NativeOpenXrApi {
  readonly OpenXrSession: new (instance: NativeOpenXrInstance, systemId: bigint) => NativeSession;
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
  openxrSuggestBindings(instance: NativeOpenXrInstance, profile: bigint, actions: readonly NativeAction[], bindings: readonly bigint[]): void;
  /** The cheapest N-API call taking two numbers (the benchmark's yardstick). */
  benchEmpty(a: number, b: number): number;
}

export function loadOpenXrApi(): NativeOpenXrApi & NativeAddon {
  return loadNativeAddon() as NativeAddon & NativeOpenXrApi;
}
