// `bench vulkan --command record` (docs/performance.md, 'Vulkan: recording 10,000 commands'):
// the record scenario (vulkan-record.ts) in a fresh child process whose environment has only the
// driver (lavapipe by default) and no layers, and the result as Markdown with the record targets:
// the encoder at least 10× cheaper than one N-API call per command, and within 2× of the C loop.
import { existsSync } from 'node:fs';
import { runBenchChild } from './child-process.js';
import { DEFAULT_REPEATS, machineInfo, type MachineInfo } from './run-openxr-bench.js';
import { LAVAPIPE_MANIFEST_CANDIDATES, vulkanRowEnvironment } from './run-vulkan-bench.js';
import { markdownTable } from './markdown-table.js';
import { formatSummary } from './stats.js';
import type { RecordChildRequest, RecordChildResult } from './vulkan-record-protocol.js';
import { RECORD_COMMANDS, RECORD_MIX, recordRatios, type RecordMeasurement } from './vulkan-record.js';
import { DRAW_FRAME, DRAW_FRAME_OTHERS, RECORD_DRAWS } from './vulkan-record-draws.js';
import { InternalError, UnavailableError, invalidArgument } from '../../core/errors.js';

export { RECORD_COMMAND } from './vulkan-record-protocol.js';
export const RECORD_DEFAULT_FRAMES = 20;

export interface RecordBenchOptions {
  /** Frames per timed run (default 20). */
  readonly frames?: number;
  readonly repeats?: number;
  /** Commands per frame (default 10,000). */
  readonly commands?: number;
  /** vkCmdDraw per frame of draws (default 1,000). */
  readonly draws?: number;
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
  /** The frame of draws (vulkan-record-draws.ts): `commands` is its draws and its other commands; absent where the driver could not record it (drawsSkipped says why). */
  readonly draws?: RecordMeasurement;
  readonly drawsSkipped?: string;
}

export async function runRecordBench(options: RecordBenchOptions = {}): Promise<RecordBenchResult> {
  const frames = options.frames ?? RECORD_DEFAULT_FRAMES;
  const repeats = options.repeats ?? DEFAULT_REPEATS;
  const commands = options.commands ?? RECORD_COMMANDS;
  const draws = options.draws ?? RECORD_DRAWS;
  for (const [what, n] of [['frames', frames], ['repeats', repeats], ['commands', commands], ['draws', draws]] as const) {
    if (!Number.isInteger(n) || n < 1) throw invalidArgument(what, 'a whole number >= 1', n);
  }
  const manifest = options.driverManifest ?? LAVAPIPE_MANIFEST_CANDIDATES.find((p) => existsSync(p));
  if (manifest === undefined) throw new UnavailableError(`no Vulkan driver to measure on: lavapipe (${LAVAPIPE_MANIFEST_CANDIDATES.join(', ')}) is not installed; pass a driver manifest`);
  options.onProgress?.(`record: ${commands} commands per frame, ${frames} frames × ${repeats} runs per side`);
  const env = vulkanRowEnvironment(options.baseEnv ?? process.env, manifest, [], []);
  const child = (frame: RecordChildRequest['frame']) =>
    runBenchChild<RecordChildRequest, RecordChildResult>('vulkan-record-child', { plan: { iterations: frames, repeats }, commands, draws, frame }, env, (error) => ({ ok: false, error }));
  const answer = await child('compute');
  if (!answer.ok) throw new InternalError(answer.error);
  // The frame of draws in a process of its own: a driver without graphics (the test driver) fails it alone, and the report says why.
  const drawn = await child('draws');
  const drawsPart = drawn.ok ? { draws: drawn.measurement } : { drawsSkipped: drawn.error };
  return { date: new Date().toISOString(), machine: machineInfo(), driver: { manifestPath: manifest, deviceName: answer.deviceName }, frames, repeats, measurement: answer.measurement, ...drawsPart };
}

/** The two record targets (docs/performance.md), each with the measured ratio and whether it is met; then on which drivers both can hold. */
const ns = (v: number) => `${v.toFixed(1)} ns`;

export function recordTargets(result: RecordBenchResult): string[] {
  const { commands } = result.measurement;
  const ratios = recordRatios(result.measurement);
  const cheaper = ratios.perCallOverEncoder;
  const slower = ratios.encoderOverCLoop;
  // What each way adds above the driver's own recording (the C loop), a command: the crossing and
  // the encoder's work, from the same rounds' ratios as the targets.
  const band = recordTargetBand(result);
  const overhead =
    band.encoderNs > 0 ? `what each way adds above the C loop: ${(band.crossingNs / band.encoderNs).toFixed(1)}× less through the encoder` : 'the encoder measured no slower than the C loop in this run';
  const above = band.encoderNs > 0 ? `the encoder's own writing and decoding ${ns(band.encoderNs)} above it` : 'the encoder no slower in this run: the difference is within its noise';
  return [
    `- record target, ${commands} commands: the encoder ≥ 10× cheaper than one N-API call per command: per-call ÷ encoder = ${cheaper.toFixed(2)}× — ${cheaper >= 10 ? 'met' : 'NOT met'}` +
      ` (the driver's own recording, the C loop, bounds it at per-call ÷ C loop = ${ratios.perCallOverCLoop.toFixed(2)}× on this driver; ${overhead})`,
    `- record target, ${commands} commands: the encoder within 2× of the C loop: encoder ÷ C loop = ${slower.toFixed(2)}× — ${slower <= 2 ? 'met' : 'NOT met'}` +
      ` (the C loop ${ns(band.driverNs)} a command, ${above})`,
    bothTargetsLine(band),
  ];
}

/**
 * Which drivers both targets can hold on, from this run. A command costs the driver's own
 * recording D (the C loop), plus N through one N-API call per command, plus W through the
 * encoder (its JavaScript writing, the check and the decoding): per call N + D, encoder W + D.
 * "≥ 10× cheaper" is N + D ≥ 10(W + D), i.e. D ≤ (N − 10W)/9; "within 2×" is W + D ≤ 2D, i.e.
 * D ≥ W. N and W are the loader's and this run's; D is the driver's. Both hold only for D in
 * [W, (N − 10W)/9], which is empty unless W ≤ N/19.
 */
export interface RecordTargetBand {
  /** ns a command: this driver's recording (the C loop). */
  readonly driverNs: number;
  /** ns a command one N-API call per command adds above the C loop. */
  readonly crossingNs: number;
  /** ns a command the encoder adds above the C loop (negative when it measured faster: noise). */
  readonly encoderNs: number;
  /** The driver recordings both targets hold on (ns a command), or undefined when none. */
  readonly band: { readonly low: number; readonly high: number } | undefined;
}

export function recordTargetBand(result: RecordBenchResult): RecordTargetBand {
  const ratios = recordRatios(result.measurement);
  // From the rounds' ratios, as the targets' lines judge: N = (P/C − 1)·D, W = (E/C − 1)·D.
  const driverNs = result.measurement.cLoop.median / result.measurement.commands;
  const crossingNs = (ratios.perCallOverCLoop - 1) * driverNs;
  const encoderNs = (ratios.encoderOverCLoop - 1) * driverNs;
  const low = Math.max(0, encoderNs);
  const high = (crossingNs - 10 * encoderNs) / 9;
  return { driverNs, crossingNs, encoderNs, band: high >= low ? { low, high } : undefined };
}

function bothTargetsLine({ driverNs, crossingNs, encoderNs, band }: RecordTargetBand): string {
  const start =
    `- record target, both targets at once: with this run's crossing (one N-API call a command, ${ns(crossingNs)} above the C loop) and the encoder's own work (${encoderNs > 0 ? ns(encoderNs) : 'none measured'}), ` +
    "they hold together only on a driver whose own recording D a command is at least the encoder's work and at most (crossing − 10 × encoder)/9";
  if (band === undefined) return `${start}: on no driver (that needs the encoder's work at most crossing/19 = ${ns(crossingNs / 19)}); this driver records at ${ns(driverNs)}`;
  const where = driverNs < band.low ? 'below it: too fast for "within 2×"' : driverNs > band.high ? 'above it: too slow for "≥ 10× cheaper"' : 'inside it';
  return `${start}: D from ${ns(band.low)} to ${ns(band.high)}; this driver records at ${ns(driverNs)}, ${where}`;
}

/** " of N frames of each way" when the measurement says how long its warm-up was. */
function warmupText(m: RecordMeasurement): string {
  return m.warmupFrames === undefined ? '' : ` of ${m.warmupFrames.toLocaleString('en-US')} frames of each way`;
}

export function formatRecordBenchMarkdown(result: RecordBenchResult, headingLevel = 2, subtitle?: string): string {
  const { commands, perCall, encoder, cLoop } = result.measurement;
  const perCommand = (frameNs: number) => ns(frameNs / commands);
  const rows = [
    ['one N-API call per command (CommandBuffer methods)', perCall],
    ['CommandEncoder (one call at end())', encoder],
    ['C loop through the loader (exported vkCmd*)', cLoop],
  ] as const;
  return [
    `${'#'.repeat(headingLevel)} Recording ${commands.toLocaleString('en-US')} commands${subtitle ? `, ${subtitle}` : ''}`,
    '',
    `One frame: vkBeginCommandBuffer, ${commands.toLocaleString('en-US')} commands (${RECORD_MIX.join(', ')}, in turn, written out group after group in each way, as a frame records them), vkEndCommandBuffer, on ` +
      `${result.driver.deviceName} (${result.driver.manifestPath}), no layers, recorded and not submitted; ${result.frames} frames per timed run, ` +
      `median of ${result.repeats} runs after a warm-up${warmupText(result.measurement)}, ± half the interquartile range; the ways timed round by round (each round one run of each), ` +
      `the targets' ratios the median of the rounds' ratios; one child process, ${result.date}.`,
    '',
    markdownTable(
      ['way', 'per frame', 'per command', '÷ C loop'],
      rows.map(([label, s]) => [label, formatSummary({ ...s, median: s.median / 1000 }, 'µs'), perCommand(s.median), `${(s.median / cLoop.median).toFixed(2)}×`]),
    ),
    '',
    ...recordTargets(result),
    '',
    ...formatDraws(result, headingLevel),
  ].join('\n');
}

/**
 * The frame of draws' targets (docs/performance.md): the encoder within 1.2× of the C loop (the
 * draws target), and the record targets restated: what each way adds above the C loop at least
 * 10× less through the encoder, the encoder within 1.1× of the C loop.
 */
export function drawTargets(result: RecordBenchResult): string[] {
  const m = result.draws;
  if (m === undefined) return [];
  const draws = m.commands - DRAW_FRAME_OTHERS;
  const ratios = recordRatios(m);
  const slower = ratios.encoderOverCLoop;
  const added = (ratios.perCallOverCLoop - 1) / Math.max(ratios.encoderOverCLoop - 1, 1e-9);
  const addedText = ratios.encoderOverCLoop <= 1 ? 'the encoder added nothing measurable' : `${added.toFixed(1)}× less through the encoder`;
  return [
    `- draws target, ${draws.toLocaleString('en-US')} draws a frame: the encoder within 1.2× of the C loop: encoder ÷ C loop = ${slower.toFixed(2)}× — ${slower <= 1.2 ? 'met' : 'NOT met'}`,
    `- record target, ${draws.toLocaleString('en-US')} draws a frame: what each way adds above the C loop, at least 10× less through the encoder: ${addedText} (per call ÷ C loop = ${ratios.perCallOverCLoop.toFixed(2)}×) — ${ratios.encoderOverCLoop <= 1 || added >= 10 ? 'met' : 'NOT met'}`,
    `- record target, ${draws.toLocaleString('en-US')} draws a frame: the encoder within 1.1× of the C loop: encoder ÷ C loop = ${slower.toFixed(2)}× — ${slower <= 1.1 ? 'met' : 'NOT met'}`,
  ];
}

function formatDraws(result: RecordBenchResult, headingLevel: number): string[] {
  if (result.draws === undefined) return [`The frame of ${RECORD_DRAWS.toLocaleString('en-US')} draws was not recorded on this driver: ${result.drawsSkipped ?? 'no graphics'}.`, ''];
  const { perCall, encoder, cLoop, commands } = result.draws;
  const draws = commands - DRAW_FRAME_OTHERS;
  const rows = [
    ['one N-API call per command (CommandBuffer methods)', perCall],
    ['CommandEncoder (walked and flat generated opcodes, one call at end())', encoder],
    ['C loop through the loader (exported vkCmd*)', cLoop],
  ] as const;
  return [
    `${'#'.repeat(headingLevel + 1)} Recording ${draws.toLocaleString('en-US')} draws a frame`,
    '',
    `One frame: vkBeginCommandBuffer, ${DRAW_FRAME.join(', ').replace('× draws', `× ${draws.toLocaleString('en-US')}`)}, vkEndCommandBuffer, on ${result.driver.deviceName}, no layers, recorded and not submitted; ` +
      `${result.frames} frames per timed run, median of ${result.repeats} runs after a warm-up${warmupText(result.draws)}, the ways timed round by round, the targets' ratios the median of the rounds' ratios.`,
    '',
    markdownTable(
      ['way', 'per frame', 'per draw', '÷ C loop'],
      rows.map(([label, s]) => [label, formatSummary({ ...s, median: s.median / 1000 }, 'µs'), ns(s.median / draws), `${(s.median / cLoop.median).toFixed(2)}×`]),
    ),
    '',
    ...drawTargets(result),
    '',
  ];
}
