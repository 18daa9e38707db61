// The doctor's report model, whichever API: one entry per component (a runtime or driver, each
// layer, each manifest that could not be used), each with its problems — what is wrong, why (file,
// field or symbol, reason) and what to do about it — and whether it is "in force", i.e. whether
// every application started now would load it. Each API's report.ts names its own kinds.

export type ProblemSeverity = 'error' | 'warning';

/** Where a problem was found: the manifest's checks, the library file, or the probe in a child process. */
export type ProblemStage = 'manifest' | 'library' | 'architecture' | 'load' | 'symbol' | 'negotiate' | 'crash' | 'timeout' | 'probe';

export interface ProblemCause {
  /** The manifest, library or environment variable concerned. */
  readonly file: string;
  /** The manifest field, as the spec spells it. */
  readonly field?: string;
  /** The symbol looked up, for a missing negotiate function. */
  readonly symbol?: string;
  readonly reason: string;
}

export interface Problem {
  readonly severity: ProblemSeverity;
  readonly stage: ProblemStage;
  /** One line: what is wrong. */
  readonly what: string;
  readonly why: ProblemCause;
  /** What to do about it. */
  readonly fix: string;
}

export type ComponentKind = 'runtime' | 'api-layer' | 'manifest';
export type ComponentStatus = 'ok' | 'warning' | 'broken';


/** One checked component, whatever the API: its kinds, layer kinds and negotiation facts are the API's. */
export interface ComponentReportOf<Kind extends string, LayerKind extends string, Negotiation> {
  readonly kind: Kind;
  /** The layer name; for a runtime or driver, its library's file name; for an unusable manifest, the layer name if it could be read. */
  readonly name: string;
  /** Layers: implicit or explicit (unknown for a manifest outside the standard folders). */
  readonly layerKind?: LayerKind;
  /** Empty when there is no manifest (a layer named by the environment that nothing provides). */
  readonly manifestPath: string;
  readonly libraryPath?: string;
  /** true when applications started now would load it (the active runtime or a selected driver, implicit layers on by default, layers the environment enables). */
  readonly inForce: boolean;
  readonly inForceReason: string;
  readonly status: ComponentStatus;
  readonly problems: readonly Problem[];
  /** Present when the probe negotiated. */
  readonly negotiated?: Negotiation;
  /** Whether the library was loaded in a child process, or why not. */
  readonly probe: { readonly ran: true; readonly durationMs: number; readonly stderr: string } | { readonly ran: false; readonly reason: string };
}

/** A doctor's whole report, whatever the API. */
export interface DoctorReportOf<Api extends string, Component> {
  readonly api: Api;
  readonly platform: { readonly os: string; readonly arch: string; readonly elevated: boolean };
  readonly components: readonly Component[];
  /** Problems that belong to no component (search folders, environment, unusable manifests). */
  readonly general: readonly Problem[];
  /** The probe timeout used, in milliseconds. */
  readonly timeoutMs: number;
  /** true when the active runtime (or a selected driver) or a layer in force is broken. */
  readonly broken: boolean;
  /** 1 when `broken`, else 0. */
  readonly exitCode: 0 | 1;
}


export function componentStatus(problems: readonly Problem[]): ComponentStatus {
  if (problems.some((p) => p.severity === 'error')) return 'broken';
  if (problems.length > 0) return 'warning';
  return 'ok';
}

/** The report's verdict: broken when something in force is broken. */
export function verdict(components: readonly { readonly inForce: boolean; readonly status: ComponentStatus }[]): { broken: boolean; exitCode: 0 | 1 } {
  const broken = components.some((c) => c.inForce && c.status === 'broken');
  return { broken, exitCode: broken ? 1 : 0 };
}
