// The Vulkan doctor's report model: one entry per driver and per layer discovery found (and per
// manifest it could not use), with the same problem lines as the OpenXR doctor's (report.ts).
import type { VulkanLayerKind } from '../../vulkan/discovery/layer-manifest.js';
import type { ComponentStatus, Problem } from '../report.js';

export type VulkanComponentKind = 'driver' | 'layer';

/** What the child process learnt by loading and negotiating. */
export interface VulkanNegotiationSummary {
  readonly interfaceVersion: number;
  /** Drivers: the instance version they report. */
  readonly apiVersion?: string;
  /** Drivers: physical devices of an instance created through this driver alone. */
  readonly devices?: readonly string[];
}

export interface VulkanComponentReport {
  readonly kind: VulkanComponentKind;
  /** The layer name; for a driver, its library's file name. */
  readonly name: string;
  readonly layerKind?: VulkanLayerKind;
  readonly manifestPath: string;
  readonly libraryPath?: string;
  /** Drivers: selected by the filters; layers: in the chain of an application asking for no layers. */
  readonly inForce: boolean;
  readonly inForceReason: string;
  readonly status: ComponentStatus;
  readonly problems: readonly Problem[];
  readonly negotiated?: VulkanNegotiationSummary;
  readonly probe: { readonly ran: true; readonly durationMs: number; readonly stderr: string } | { readonly ran: false; readonly reason: string };
}

export interface VulkanDoctorReport {
  readonly api: 'vulkan';
  readonly platform: { readonly os: string; readonly arch: string; readonly elevated: boolean };
  readonly components: readonly VulkanComponentReport[];
  /** Problems that belong to no driver or layer (manifests that could not be used, folders, environment). */
  readonly general: readonly Problem[];
  readonly timeoutMs: number;
  /** true when a selected driver or a layer in force is broken. */
  readonly broken: boolean;
  readonly exitCode: 0 | 1;
}
