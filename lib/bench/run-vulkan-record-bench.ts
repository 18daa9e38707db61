// `bench vulkan --command record` (issue 14): the record scenario (vulkan-record.ts) in a fresh
// child process whose environment has only the driver (lavapipe by default) and no layers, and
// the result as Markdown with the issue's targets: the encoder at least 10× cheaper than one
// N-API call per command, and within 2× of the C loop.
import { existsSync } from 'node:fs';
import { runBenchChild } from './child-process.js';
import { DEFAULT_REPEATS, machineInfo, type MachineInfo } from './run-openxr-bench.js';
import { LAVAPIPE_MANIFEST_CANDIDATES, vulkanRowEnvironment } from './run-vulkan-bench.js';
import { markdownTable } from './markdown-table.js';
import { formatSummary } from './stats.js';
import type { RecordChildRequest, RecordChildResult } from './vulkan-record-protocol.js';
import { RECORD_COMMANDS, RECORD_MIX, recordRatios, type RecordMeasurement } from './vulkan-record.js';

export const RECORD_COMMAND = 'record';
export const RECORD_DEFAULT_FRAMES = 20;

export interface RecordBenchOptions {
  /** Frames per timed run (default 20). */
  readonly frames?: number;
  readonly repeats?: number;
  /** Commands per frame (default 10,000). */
  readonly commands?: number;
  readonly driverManifest?: string;
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly onProgress?: (line: string) => void;
}

export interface RecordBenchResult {
  readonly date: string;
  readonly machine: MachineInfo;
  readonly driver: { readonly manifestPath: string; readonly deviceName: string };
  readonly frames: number;
  readonly repeats: number;
  readonly measurement: RecordMeasurement;
}

export async function runRecordBench(options: RecordBenchOptions = {}): Promise<RecordBenchResult> {
  const frames = options.frames ?? RECORD_DEFAULT_FRAMES;
  const repeats = options.repeats ?? DEFAULT_REPEATS;
  const commands = options.commands ?? RECORD_COMMANDS;
  for (const [what, n] of [['frames', frames], ['repeats', repeats], ['commands', commands]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`${what} must be a whole number >= 1, got ${n}`);
  }
  const manifest = options.driverManifest ?? LAVAPIPE_MANIFEST_CANDIDATES.find((p) => existsSync(p));
  if (manifest === undefined) throw new Error(`no Vulkan driver to measure on: lavapipe (${LAVAPIPE_MANIFEST_CANDIDATES.join(', ')}) is not installed; pass a driver manifest`);
  options.onProgress?.(`record: ${commands} commands per frame, ${frames} frames × ${repeats} runs per side`);
  const env = vulkanRowEnvironment(options.baseEnv ?? process.env, manifest, [], []);
  const answer = await runBenchChild<RecordChildRequest, RecordChildResult>('vulkan-record-child', { plan: { iterations: frames, repeats }, commands }, env, (error) => ({ ok: false, error }));
  if (!answer.ok) throw new Error(answer.error);
  return { date: new Date().toISOString(), machine: machineInfo(), driver: { manifestPath: manifest, deviceName: answer.deviceName }, frames, repeats, measurement: answer.measurement };
}

/** The issue's two targets, each with the measured ratio and whether it is met. */
export function recordTargets(result: RecordBenchResult): string[] {
  const { perCall, encoder, cLoop, commands } = result.measurement;
  const perCommandNs = (frameNs: number) => `${(frameNs / commands).toFixed(1)} ns`;
  const ratios = recordRatios(result.measurement);
  const cheaper = ratios.perCallOverEncoder;
  const slower = ratios.encoderOverCLoop;
  // What each way adds above the driver's own recording (the C loop): the crossing and the JavaScript work.
  const perCallAbove = perCall.median - cLoop.median;
  const encoderAbove = encoder.median - cLoop.median;
  const overhead =
    encoderAbove > 0 ? `what each way adds above the C loop: ${(perCallAbove / encoderAbove).toFixed(1)}× less through the encoder` : 'the encoder measured no slower than the C loop in this run';
  const above = encoderAbove > 0 ? `the encoder's own writing and decoding ${perCommandNs(encoderAbove)} above it` : 'the encoder no slower in this run: the difference is within its noise';
  return [
    `- issue 14, ${result.measurement.commands} commands: the encoder ≥ 10× cheaper than one N-API call per command: per-call ÷ encoder = ${cheaper.toFixed(2)}× — ${cheaper >= 10 ? 'met' : 'NOT met'}` +
      ` (the driver's own recording, the C loop, bounds it at per-call ÷ C loop = ${ratios.perCallOverCLoop.toFixed(2)}× on this driver; ${overhead})`,
    `- issue 14, ${result.measurement.commands} commands: the encoder within 2× of the C loop: encoder ÷ C loop = ${slower.toFixed(2)}× — ${slower <= 2 ? 'met' : 'NOT met'}` +
      ` (the C loop ${perCommandNs(cLoop.median)} a command, ${above})`,
  ];
}

export function formatRecordBenchMarkdown(result: RecordBenchResult, headingLevel = 2, subtitle?: string): string {
  const { commands, perCall, encoder, cLoop } = result.measurement;
  const perCommand = (ns: number) => `${(ns / commands).toFixed(1)} ns`;
  const rows = [
    ['one N-API call per command (CommandBuffer methods)', perCall],
    ['CommandEncoder (one call at end())', encoder],
    ['C loop through the loader (exported vkCmd*)', cLoop],
  ] as const;
  return [
    `${'#'.repeat(headingLevel)} Recording ${commands.toLocaleString('en-US')} commands (issue 14)${subtitle ? `, ${subtitle}` : ''}`,
    '',
    `One frame: vkBeginCommandBuffer, ${commands.toLocaleString('en-US')} commands (${RECORD_MIX.join(', ')}, in turn, written out group after group in each way, as a frame records them), vkEndCommandBuffer, on ` +
      `${result.driver.deviceName} (${result.driver.manifestPath}), no layers, recorded and not submitted; ${result.frames} frames per timed run, ` +
      `median of ${result.repeats} runs after a warm-up, ± half the interquartile range; the ways timed round by round (each round one run of each), ` +
      `the targets' ratios the median of the rounds' ratios; one child process, ${result.date}.`,
    '',
    markdownTable(
      ['way', 'per frame', 'per command', '÷ C loop'],
      rows.map(([label, s]) => [label, formatSummary({ ...s, median: s.median / 1000 }, 'µs'), perCommand(s.median), `${(s.median / cLoop.median).toFixed(2)}×`]),
    ),
    '',
    ...recordTargets(result),
    '',
  ].join('\n');
}
