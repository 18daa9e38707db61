// The public `khronos-loader/openxr` entry.
export { discover, type DiscoveryResult } from './discovery/discover.js';
export { listRuntimes, type ListedRuntime, type ListedRuntimeSource, type ListRuntimesOptions } from './discovery/runtime-list.js';
export {
  createLoader,
  type ApiLayerProperties,
  type LoaderOptions,
  type OpenXrLoader,
  type PlanInstanceRequest,
  type RuntimeExtensionProvider,
} from './loader.js';
export type { DiscoveryOptions } from './discovery/context.js';
export type { LayerPolicyOptions } from '../core/loader-policy.js';
// The registry's versions: XR_API_VERSION_1_1 for createInstance's apiVersion, and versions as a person reads them.
export {
  XR_API_VERSION_1_0,
  XR_API_VERSION_1_1,
  XR_CURRENT_API_VERSION,
  xrMakeVersion,
  xrVersionParts,
  xrVersionString,
  type XrVersionParts,
} from '../generated/openxr.js';
export type { Diagnostic, DiagnosticSeverity } from './discovery/diagnostics.js';
export { formatDiagnostic } from './discovery/diagnostics.js';
export { OpenXrError, XR_RESULT_CODES, type XrResultName } from './errors.js';
export type { DiscoveredApiLayer, LayerSource } from './discovery/layer-discovery.js';
export type { DiscoveredRuntime, RuntimeSource } from './discovery/runtime-discovery.js';
export type { EnabledLayer, EnabledLayerOrigin, LayerState } from './discovery/layer-policy.js';
export type { ApiLayerKind, ExtensionProperty } from './discovery/manifest.js';
export type { LibraryPathKind } from '../core/library-path.js';
export type { InstancePlan, PlannedApiLayer, PlannedRuntime } from './plan/plan.js';
export { LOADER_EXTENSIONS } from './discovery/extensions.js';

// The typed API (NODE-1..5).
export { Instance, type CreateInstanceOptions, type InstanceProperties } from './api/instance.js';
export { System, type SystemProperties, type ViewConfigurationView } from './api/system.js';
export {
  Session,
  type ActiveActionSet,
  type CreateSessionOptions,
  type EndFrameOptions,
  type Fov,
  type FrameState,
  type PoseArray,
  type ProjectionLayer,
  type ProjectionView,
  type ProjectionViewDepth,
  type SessionEvents,
  type VulkanSessionBinding,
} from './api/session.js';
// XR_KHR_vulkan_enable2: the Vulkan objects made through the runtime, and swapchains.
export { Swapchain, SWAPCHAIN_USAGE, DEPTH_FORMATS, chooseDepthFormat, type SwapchainCreateOptions, type SwapchainUsageName } from './vulkan/swapchain.js';
export type { VulkanGraphics, VulkanGraphicsOptions, VulkanGraphicsRequirements } from './vulkan/graphics.js';
export { Space, type SpaceKind } from './api/space.js';
export {
  FrameQuery,
  FRAME_ACTION_FLOATS,
  FRAME_SPACE_FLOATS,
  type FrameQueryAction,
  type FrameQueryLayout,
  type FrameQueryLocatePath,
  type FrameQueryOptions,
  type FrameQuerySpace,
} from './api/frame-query.js';
export {
  Action,
  ActionSet,
  type ActionOptions,
  type ActionSetOptions,
  type BooleanActionState,
  type FloatActionState,
  type PoseActionState,
  type SuggestedBinding,
  type HapticVibration,
  type Vector2fActionState,
  MIN_HAPTIC_DURATION,
} from './api/action.js';
// XR_EXT_hand_tracking, reference space bounds.
export { HandTracker } from './api/hand-tracker.js';
export type { SpaceBounds } from './api/session-input.js';
export type { EventIteratorOptions, OpenXrEvent } from './api/events.js';
export { describeFrameLoopMode, runFrameLoop, type FrameLoopMode, type FrameLoopOptions, type FrameLoopStats } from './api/frame-loop.js';
export {
  ACTION_TYPES,
  ENVIRONMENT_BLEND_MODES,
  FORM_FACTORS,
  HAND_JOINT_COUNT,
  HAND_JOINT_FLAGS,
  HAND_JOINT_ORIENTATION,
  HAND_JOINT_POSITION,
  HAND_JOINT_RADIUS,
  HAND_JOINT_STRIDE,
  HAND_JOINTS,
  HANDS,
  INPUT_SOURCE_NAME_PARTS,
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
  type HandJointName,
  type HandName,
  type InputSourceNamePart,
  type XrTime,
  type ReferenceSpaceTypeName,
  type SessionStateName,
  type ViewConfigurationTypeName,
} from './api/types.js';
// The simulated runtime: its manifest, and the records only it keeps (eye images, haptics).
export {
  drainHapticEvents,
  drainSubmittedPixels,
  simulatedRuntime,
  type HapticEvent,
  type SimulatedRuntimeOptions,
  type SubmittedPixel,
} from './simulated-runtime.js';
export { createPassthroughLayers, type PassthroughLayerSet } from './bundled-layers.js';
export { createInstanceFromPlan } from './api/instance.js';
export { publishOpenXrPlan, type PublishedLists } from './api/publish-plan.js';
export { openXrCommands, XR_GENERATED_COMMANDS, XrStructureType, type OpenXrCommands } from './commands.js';
export type * as XrTypes from '../generated/openxr-commands.js';
export { examplePath } from '../core/examples.js';
