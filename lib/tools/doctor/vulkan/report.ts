// The Vulkan doctor's report model: one entry per driver and per layer discovery found (and per
// manifest it could not use), with the same problem lines as the OpenXR doctor's (report.ts).
import type { VulkanLayerKind } from '../../../vulkan/discovery/layer-manifest.js';
import type { ComponentReportOf, DoctorReportOf } from '../report.js';

export type VulkanComponentKind = 'driver' | 'layer';

/** What the child process learnt by loading and negotiating. */
export interface VulkanNegotiationSummary {
  readonly interfaceVersion: number;
  /** Drivers: the instance version they report. */
  readonly apiVersion?: string;
  /** Drivers: physical devices of an instance created through this driver alone. */
  readonly devices?: readonly string[];
}

export type VulkanComponentReport = ComponentReportOf<VulkanComponentKind, VulkanLayerKind, VulkanNegotiationSummary>;
export type VulkanDoctorReport = DoctorReportOf<'vulkan', VulkanComponentReport>;
