// What the record bench parent (run-vulkan-record-bench.ts) asks its child process (vulkan-record-child.ts) and what it answers.
import type { MeasurePlan } from './measure-native.js';
import type { RecordMeasurement } from './vulkan-record.js';

/** `bench vulkan --command record`: the command-recording benchmark. */
export const RECORD_COMMAND = 'record';

export interface RecordChildRequest {
  /** Frames per timed run (iterations) and timed runs (repeats). */
  readonly plan: MeasurePlan;
  /** Commands per frame. */
  readonly commands: number;
  /** vkCmdDraw per frame in the frame of draws. */
  readonly draws: number;
  /** Which frame this child times: the compute frame, or the frame of draws (its own process: a driver without graphics may fail it alone). */
  readonly frame: 'compute' | 'draws';
}

/** measurement: the frame asked for (the frame of draws' `commands` counts its other commands too). */
export type RecordChildResult = { readonly ok: true; readonly deviceName: string; readonly measurement: RecordMeasurement } | { readonly ok: false; readonly error: string };
