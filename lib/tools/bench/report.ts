// A bench run as Markdown (a table with ratio columns and the notes that say what was measured)
// and as an SVG chart of cost per call against the number of pass-through layers.
import path from 'node:path';
import { packageRoot } from '../../core/native/load.js';
import { renderLineChart, type ChartSeries } from './chart-svg.js';
import { markdownTable } from './markdown-table.js';
import { COLUMNS, type BenchRow, type Cell, type ColumnId, type OpenXrBenchResult } from './run-openxr-bench.js';
import { formatSummary, type Summary } from './stats.js';
import { PER_CALL_TARGET_RATIO, type PerCallResult } from './measure-per-call.js';

/** A path inside the package as a relative one, so a report reads the same on every machine. */
export function shownPath(p: string): string {
  const rel = path.relative(packageRoot, p);
  return rel.startsWith('..') || path.isAbsolute(rel) ? p : rel;
}

/** The figure a cell is compared by: wall ns per call, or CPU ns per frame for frame commands. */
function figure(result: OpenXrBenchResult, cell: Cell | undefined): Summary | undefined {
  if (cell === undefined || 'skipped' in cell) return undefined;
  return result.command.kind === 'frame' ? (cell.cpu ?? cell.wall) : cell.wall;
}

function scaled(summary: Summary, factor: number): Summary {
  return { ...summary, median: summary.median * factor, min: summary.min * factor, max: summary.max * factor };
}

function formatCell(result: OpenXrBenchResult, cell: Cell | undefined, notes: Map<string, number>): string {
  if (cell === undefined) return '';
  if ('skipped' in cell) {
    if (!notes.has(cell.skipped)) notes.set(cell.skipped, notes.size + 1);
    return `n/a [${notes.get(cell.skipped)}]`;
  }
  if (result.command.kind === 'frame') {
    const cpu = cell.cpu ? `${formatSummary(scaled(cell.cpu, 1e-3), 'µs')} CPU` : '';
    return `${cpu}; ${formatSummary(scaled(cell.wall, 1e-6), 'ms')} wall`;
  }
  return formatSummary(cell.wall);
}

function ratio(a: Summary | undefined, b: Summary | undefined): string {
  if (a === undefined || b === undefined || b.median === 0) return 'n/a';
  return `${(a.median / b.median).toFixed(2)}×`;
}

interface RatioColumn {
  readonly title: string;
  readonly numerator: ColumnId;
  readonly denominator: ColumnId;
}

function ratioColumns(result: OpenXrBenchResult): RatioColumn[] {
  const has = (id: ColumnId) => result.columns.includes(id);
  const out: RatioColumn[] = [];
  if (has('khronos-trampoline')) out.push({ title: 'ours ÷ Khronos: trampoline', numerator: 'ours-trampoline', denominator: 'khronos-trampoline' });
  if (has('khronos-pointer')) out.push({ title: 'ours ÷ Khronos: pointer', numerator: 'ours-pointer', denominator: 'khronos-pointer' });
  if (has('ours-js') && has('koffi')) out.push({ title: 'JS space.locate ÷ koffi', numerator: 'ours-js', denominator: 'koffi' });
  return out;
}

/** A row's per-call ratio (space.locate ÷ the plain-C yardstick, timed in rounds in one process), or why there is none. */
function perCallRatio(row: BenchRow, notes: Map<string, number>): string {
  const perCall = row.perCall;
  if (perCall === undefined) return 'n/a';
  if ('error' in perCall) {
    if (!notes.has(perCall.error)) notes.set(perCall.error, notes.size + 1);
    return `n/a [${notes.get(perCall.error)}]`;
  }
  const cell = perCall.cells.find((c) => c.name === 'space.locate');
  return cell ? `${cell.ratio.toFixed(2)}×` : 'n/a';
}

/** What the per-call reads cost against the yardstick, as one Markdown line (measure-per-call.ts). */
export function formatPerCallLine(perCall: PerCallResult, label: string): string {
  const cells = perCall.cells.map(
    (c) => `${c.name} ${formatSummary(c.ns)} (${c.ratio.toFixed(2)}×), its runtime call alone ${formatSummary(c.runtime)}, the path above it ${c.pathRatio.toFixed(2)}×`,
  );
  const skipped = Object.entries(perCall.skipped).map(([name, why]) => `${name} not timed: ${why}`);
  return (
    `- per-call path, ${label}: the yardstick, an empty two-argument N-API call of a plain-C addon without node-addon-api, costs ${formatSummary(perCall.yardstick)}; ` +
    `timed beside it in ${PER_CALL_ROUNDS_TEXT}: ${[...cells, ...skipped].join('; ')} (× the yardstick, the median of the rounds' ratios; ` +
    `"the path above it" = (read − the runtime's call timed alone in C) ÷ the yardstick, what the target ≤ ${PER_CALL_TARGET_RATIO}× is judged on).`
  );
}

const PER_CALL_ROUNDS_TEXT = 'rounds in the same process';

/** The table alone: one row per layer configuration, the measured columns, then the ratios. */
export function formatBenchTable(result: OpenXrBenchResult, notes: Map<string, number> = new Map()): string {
  const ratios = ratioColumns(result);
  const perCall = result.rows.some((r) => r.perCall !== undefined);
  const header = ['layers', ...result.columns.map((c) => COLUMNS[c].title), ...ratios.map((r) => r.title), ...(perCall ? ['JS space.locate ÷ plain-C N-API call'] : [])];
  const rows = result.rows.map((row: BenchRow) => [
    row.realLayers.length > 0 ? row.label : String(row.layers),
    ...result.columns.map((c) => formatCell(result, row.cells[c], notes)),
    ...ratios.map((r) => ratio(figure(result, row.cells[r.numerator]), figure(result, row.cells[r.denominator]))),
    ...(perCall ? [perCallRatio(row, notes)] : []),
  ]);
  return markdownTable(header, rows);
}

export interface ReportOptions {
  /** Markdown heading level of the section (default 2). */
  readonly headingLevel?: number;
  /** A heading to use instead of the default. */
  readonly title?: string;
  /** Where the chart is, to link it from the section. */
  readonly chartLink?: string;
  /** Leave out the machine, date and Khronos loader lines (a page that states them once). */
  readonly omitRunInfo?: boolean;
}

/** A Markdown section: what was measured, how, on what, the table and its footnotes. */
export function formatBenchMarkdown(result: OpenXrBenchResult, options: ReportOptions = {}): string {
  const h = '#'.repeat(options.headingLevel ?? 2);
  const unit = result.command.kind === 'frame' ? 'frames' : 'calls';
  const notes = new Map<string, number>();
  const table = formatBenchTable(result, notes);
  const k = result.khronosLoader;
  const lines = [
    `${h} ${options.title ?? `OpenXR \`${result.command.name}\` on the ${result.runtime.label}`}`,
    '',
    `- measured: ${result.command.measures}.`,
    `- method: per cell a warm-up run, then ${result.plan.repeats} runs of ${result.plan.iterations.toLocaleString('en-US')} ${unit}; ` +
      (result.processes > 1
        ? `in each of ${result.processes} fresh child processes per side, alternating the sides; the cell is the median of the processes' medians, ± half their interquartile range as a percentage of it (where a function lands in memory differs from process to process and moves sub-nanosecond figures). `
        : 'the median of the runs, ± half the interquartile range as a percentage of it; each side runs in a child process of its own. ') +
      'Native cells time the calls in one C++ loop ' +
      '(native/tools/bench/openxr_bench.cc) for both loaders; JavaScript cells time a loop of calls with process.hrtime.bigint().',
    `- runtime: ${result.runtime.label} (${shownPath(result.runtime.manifestPath)}); layers: copies of the bundled pass-through layer, each intercepting every command, and the real layers named.`,
    '- "trampoline": the loader\'s exported function; "pointer": what the loader\'s xrGetInstanceProcAddr returned.' +
      (result.columns.includes('ours-several-trampoline') ? ' "several live": a second instance of ours is live, so the trampoline finds the table by handle.' : ''),
    ...(options.omitRunInfo && 'path' in k ? [] : [`- Khronos loader: ${'path' in k ? `${k.path}${k.packageVersion ? ` (libopenxr-loader1 ${k.packageVersion})` : ''}, run in a child process with the same runtime and layers` : k.unavailable}.`]),
  ];
  if (result.columns.includes('koffi')) lines.push('- koffi: xrLocateSpace on the Khronos loader called through koffi with a raw Buffer out-parameter, in the same child.');
  if (result.emptyNapiCall) lines.push(`- yardstick: an empty N-API call taking two numbers costs ${formatSummary(result.emptyNapiCall)} from JavaScript.`);
  for (const row of result.rows) {
    if (row.perCall !== undefined && !('error' in row.perCall)) lines.push(formatPerCallLine(row.perCall, row.realLayers.length > 0 ? row.label : `${row.layers} layers`));
  }
  if (!options.omitRunInfo) lines.push(`- machine: ${result.machine.cpuModel}, ${result.machine.cores} cores, ${result.machine.os}; Node ${result.machine.node}; ${result.date}.`);
  if (options.chartLink) lines.push(`- chart: [${options.chartLink}](${options.chartLink})`);
  lines.push('', table);
  if (notes.size > 0) {
    lines.push('');
    for (const [reason, n] of notes) lines.push(`[${n}] ${reason}`);
  }
  lines.push('');
  return lines.join('\n');
}

/** The chart: one line per measured column, cost against pass-through layer count. */
export function renderBenchChart(result: OpenXrBenchResult): string {
  const frame = result.command.kind === 'frame';
  const rows = result.rows.filter((r) => r.realLayers.length === 0);
  const series: ChartSeries[] = result.columns
    .map((c) => ({
      label: COLUMNS[c].title,
      points: rows.flatMap((r): [number, number][] => {
        const f = figure(result, r.cells[c]);
        return f === undefined ? [] : [[r.passthrough, frame ? f.median / 1000 : f.median]];
      }),
    }))
    .filter((s) => s.points.length > 0);
  return renderLineChart(series, {
    title: `${result.command.name} on the ${result.runtime.label}`,
    xLabel: 'pass-through API layers in the chain',
    yLabel: frame ? 'CPU µs per frame' : 'ns per call (median)',
  });
}
