// What the bench parent asks a Khronos-side child process and what it answers (over IPC).
import type { Measurement, MeasurePlan } from './measure-native.js';
import type { BenchCommandName } from './openxr-commands.js';
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
      /** Absent when not asked for. */
      readonly koffi?: Summary | { readonly unavailable: string };
    }
  | { readonly ok: false; readonly error: string };
