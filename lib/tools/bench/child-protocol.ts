// What the bench parent asks its child processes (lib/tools/bench/child-process.ts) and what they answer.
import type { PointerOrigin } from '../native/addon.js';
import type { Measurement, MeasurePlan } from './measure-native.js';
import type { BenchCommandName } from './openxr-commands.js';
import type { BenchEnvironment, LayerConfig } from './openxr-scenario.js';
import type { PerCallResult } from './measure-per-call.js';
import type { Summary } from './stats.js';

export interface KhronosChildRequest {
  /** The other loader library (libopenxr_loader.so.1), dlopened by the child. */
  readonly libraryPath: string;
  readonly command: BenchCommandName;
  readonly plan: MeasurePlan;
  /** Also time xrLocateSpace through koffi on the same library and handles. */
  readonly koffi: boolean;
}

export type KhronosChildResult =
  | {
      readonly ok: true;
      readonly trampoline: Measurement;
      readonly pointer: Measurement;
      readonly pointerOrigin: PointerOrigin | null;
      /** Absent when not asked for. */
      readonly koffi?: Summary | { readonly unavailable: string };
    }
  | { readonly ok: false; readonly error: string };

/** This package's side of one row, measured in ours-child. */
export interface OursChildRequest {
  readonly env: BenchEnvironment;
  readonly config: LayerConfig;
  readonly command: BenchCommandName;
  readonly plan: MeasurePlan;
  /** Also time the trampoline with a second instance live. */
  readonly severalLive: boolean;
  /** Also time the JavaScript form (space.locate) and the empty N-API call beside it. */
  readonly js: boolean;
}

/** A failed extra cell says why, the others still count. */
export type OursOptionalCell<T> = T | { readonly error: string };

export type OursChildResult =
  | {
      readonly ok: true;
      /** The layers our instance actually enabled, nearest the application first. */
      readonly apiLayerNames: readonly string[];
      readonly trampoline: Measurement;
      readonly pointer: Measurement;
      readonly pointerOrigin: PointerOrigin | null;
      readonly severalLive?: OursOptionalCell<Measurement>;
      readonly js?: OursOptionalCell<Summary>;
      readonly emptyNapiCall?: Summary;
      /** The per-call reads beside the plain-C yardstick, in rounds (measure-per-call.ts). */
      readonly perCall?: OursOptionalCell<PerCallResult>;
    }
  | { readonly ok: false; readonly error: string };
