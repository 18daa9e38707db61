// The OpenXR doctor's report: one entry per component (the active runtime, each API layer, each
// manifest that could not be used), on the model of ../report.ts.
import type { ApiLayerKind } from '../../../openxr/discovery/manifest.js';
import type { ComponentReportOf, DoctorReportOf } from '../report.js';

export type ComponentKind = 'runtime' | 'api-layer' | 'manifest';

/** What the child process learnt by loading and negotiating. */
export interface NegotiationSummary {
  readonly interfaceVersion: number;
  readonly apiVersion: string;
  /** Runtimes: their own instance extensions (when they could be listed). */
  readonly extensions?: readonly { readonly name: string; readonly extensionVersion: number }[];
  /** Runtimes probed with an instance: XrInstanceProperties' runtimeName and runtimeVersion. */
  readonly runtimeName?: string;
  readonly runtimeVersion?: string;
}

export type ComponentReport = ComponentReportOf<ComponentKind, ApiLayerKind, NegotiationSummary>;
export type DoctorReport = DoctorReportOf<'openxr', ComponentReport>;
