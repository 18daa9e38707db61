// The public `khronos-loader/openxr` entry.
export { discover, type DiscoveryResult } from './discover.js';
export {
  createLoader,
  type ApiLayerProperties,
  type LoaderOptions,
  type OpenXrLoader,
  type PlanInstanceRequest,
  type RuntimeExtensionProvider,
} from './loader.js';
export type { DiscoveryOptions } from './context.js';
export type { Diagnostic, DiagnosticSeverity } from './diagnostics.js';
export { formatDiagnostic } from './diagnostics.js';
export { OpenXrError, XR_RESULT_CODES, type XrResultName } from './errors.js';
export type { DiscoveredApiLayer, LayerSource } from './layer-discovery.js';
export type { DiscoveredRuntime, RuntimeSource } from './runtime-discovery.js';
export type { EnabledLayer, EnabledLayerOrigin, LayerState } from './layer-policy.js';
export type { ApiLayerKind, ExtensionProperty } from './manifest.js';
export type { LibraryPathKind } from './library-path.js';
export type { InstancePlan, PlannedApiLayer, PlannedRuntime } from './plan.js';
export { LOADER_EXTENSIONS } from './extensions.js';

// The typed API (NODE-1..5).
export { Instance, type CreateInstanceOptions, type InstanceProperties } from './instance.js';
export { System, type SystemProperties, type ViewConfigurationView } from './system.js';
export {
  Session,
  type ActiveActionSet,
  type CreateSessionOptions,
  type EndFrameOptions,
  type FrameState,
  type PoseArray,
  type SessionEvents,
} from './session.js';
export { Space, type SpaceKind } from './space.js';
export {
  Action,
  ActionSet,
  type ActionOptions,
  type ActionSetOptions,
  type BooleanActionState,
  type FloatActionState,
  type PoseActionState,
  type SuggestedBinding,
} from './action.js';
export type { EventIteratorOptions, OpenXrEvent } from './events.js';
export { describeFrameLoopMode, runFrameLoop, type FrameLoopMode, type FrameLoopOptions, type FrameLoopStats } from './frame-loop.js';
export {
  ACTION_TYPES,
  ENVIRONMENT_BLEND_MODES,
  FORM_FACTORS,
  POSE_FLOATS,
  REFERENCE_SPACE_TYPES,
  SESSION_STATES,
  SpaceLocationFlags,
  VIEW_CONFIGURATION_TYPES,
  VIEW_FLOATS,
  ViewStateFlags,
  type ActionTypeName,
  type EnvironmentBlendModeName,
  type FormFactorName,
  type ReferenceSpaceTypeName,
  type SessionStateName,
  type ViewConfigurationTypeName,
} from './types.js';
export { simulatedRuntime, type SimulatedRuntimeOptions } from './simulated-runtime.js';
export { createPassthroughLayers, type PassthroughLayerSet } from './bundled-layers.js';
export { createInstanceFromPlan } from './instance.js';
