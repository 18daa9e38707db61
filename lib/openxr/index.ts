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
