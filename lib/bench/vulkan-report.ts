// A `bench vulkan` run as Markdown: what was measured and how, the table with ratio columns,
// footnotes for empty cells, and the targets (ours at or below Khronos; the same device-command
// pointer as Khronos hands out).
import path from 'node:path';
import type { PointerOrigin } from '../native.js';
import { markdownTable } from './markdown-table.js';
import { formatSummary, medianInterval, summarize, type MedianInterval, type Summary } from './stats.js';
import { VULKAN_COLUMN_TITLES, type VulkanBenchResult, type VulkanBenchRow, type VulkanCell } from './run-vulkan-bench.js';

function wall(cell: VulkanCell | undefined): Summary | undefined {
  return cell !== undefined && 'wall' in cell ? cell.wall : undefined;
}

function formatCell(cell: VulkanCell | undefined, notes: Map<string, number>): string {
  if (cell === undefined) return '';
  if ('skipped' in cell) {
    if (!notes.has(cell.skipped)) notes.set(cell.skipped, notes.size + 1);
    return `n/a [${notes.get(cell.skipped)}]`;
  }
  return formatSummary(cell.wall);
}

function ratio(a: Summary | undefined, b: Summary | undefined): string {
  return a === undefined || b === undefined || b.median === 0 ? 'n/a' : `${(a.median / b.median).toFixed(2)}×`;
}

function origin(o: PointerOrigin | null | undefined): string {
  return o ? `${path.basename(o.file)}+0x${o.offset.toString(16)}` : 'unknown';
}

/** How the two loaders' vkGetDeviceProcAddr answers compare, in words. */
export function pointerComparison(row: VulkanBenchRow): { readonly same: boolean; readonly loaderOwn?: true; readonly text: string } {
  const { ours, khronos } = row.pointerOrigins;
  if (!ours || !khronos) return { same: false, text: 'not compared (a side did not run)' };
  // Commands the loader must see (vkGetDeviceQueue sets the queue's dispatch pointer): each loader
  // hands out its own trampoline. Told by the loaders' own files (where their exports live), not by
  // file names: the addon is build/Release/khronos_loader.node in a checkout but
  // prebuilds/<platform>/khronos-loader.node in the package, and a Khronos loader may be any libvulkan.
  if (ours.file === row.loaderFiles.ours && khronos.file === row.loaderFiles.khronos) {
    return { same: false, loaderOwn: true, text: `each loader's own trampoline (ours ${origin(ours)}, Khronos ${origin(khronos)}), as the command must pass through the loader` };
  }
  if (ours.file === khronos.file && ours.offset === khronos.offset) return { same: true, text: `the same function (${origin(ours)})` };
  // Copies of the pass-through layer are one function at one offset in separate files.
  if (path.basename(ours.file).startsWith('libkhronos_vk_layer_passthrough_') && path.basename(khronos.file).startsWith('libkhronos_vk_layer_passthrough_') && ours.offset === khronos.offset) {
    return { same: true, text: `the same function of the top pass-through copy (ours ${origin(ours)}, Khronos ${origin(khronos)}: the two loaders put different copies on top)` };
  }
  return { same: false, text: `different functions: ours ${origin(ours)}, Khronos ${origin(khronos)}` };
}

function pointerCell(p: ReturnType<typeof pointerComparison>): string {
  return p.same ? 'same function' : p.loaderOwn ? "each loader's own" : 'differs';
}

export function formatVulkanBenchTable(result: VulkanBenchResult, notes: Map<string, number> = new Map()): string {
  const header = ['layers', ...result.columns.map((c) => VULKAN_COLUMN_TITLES[c]), 'ours ÷ Khronos: trampoline', 'ours ÷ Khronos: pointer', 'pointer vs Khronos'];
  const rows = result.rows.map((row) => [
    row.realLayers.length > 0 ? row.label : String(row.passthrough),
    ...result.columns.map((c) => formatCell(row.cells[c], notes)),
    ratio(wall(row.cells['ours-trampoline']), wall(row.cells['khronos-trampoline'])),
    ratio(wall(row.cells['ours-pointer']), wall(row.cells['khronos-pointer'])),
    pointerCell(pointerComparison(row)),
  ]);
  return markdownTable(header, rows);
}

export type SpeedVerdict = 'met' | 'within noise' | 'missed';

/**
 * How much slower than Khronos's a trampoline may measure and still be "at" Khronos's: 2 %, 0.05 ns
 * on the cheapest row (a 2.7 ns vkGetDeviceQueue), a fraction of one clock cycle. Equality can only
 * be judged to some resolution; below this one the two loaders' ratio moves with where a process
 * happened to put things, not with the trampolines' instructions.
 */
export const TRAMPOLINE_MARGIN = 0.02;

export interface TrampolineComparison {
  /** ours ÷ Khronos: the median of the crossover estimates (the table's figure). */
  readonly ratio: number;
  /**
   * The sign-test interval of that median. Each process times both loaders; which one is set up and
   * timed first alternates, and the set-up order alone can move a call by a third (whichever
   * loader's objects the heap placed first). A crossover estimate is the geometric mean of the
   * ratios of two neighbouring processes, one of each order: the order's effect cancels.
   */
  readonly interval: MedianInterval;
  /**
   * met: shown at or below Khronos within TRAMPOLINE_MARGIN (the interval's high end at most
   * 1 + margin). missed: shown slower than that (its low end above 1 + margin). within noise: the
   * interval straddles 1 + margin; more processes would decide.
   */
  readonly verdict: SpeedVerdict;
}

/**
 * Ours ÷ Khronos in each process: the median over its rounds of run r of ours ÷ run r of Khronos
 * (timed next to each other, so a burst of other work on the machine hits both), or, without the
 * runs, the ratio of the process's medians.
 */
export function processRatios(ours: Extract<VulkanCell, { wall: Summary }>, khronos: Extract<VulkanCell, { wall: Summary }>): number[] {
  const processes = Math.min(ours.processWalls.length, khronos.processWalls.length);
  return Array.from({ length: processes }, (_, p) => {
    const o = ours.processRuns?.[p];
    const k = khronos.processRuns?.[p];
    if (o === undefined || k === undefined || o.length !== k.length || o.length === 0) return ours.processWalls[p]! / khronos.processWalls[p]!;
    return summarize(o.map((x, r) => x / k[r]!)).median;
  });
}

/** The geometric mean of each (even, odd) pair of per-process ratios; one ratio alone stays as it is. */
export function crossoverRatios(perProcess: readonly number[]): number[] {
  if (perProcess.length < 2) return [...perProcess];
  const pairs: number[] = [];
  for (let p = 0; p + 1 < perProcess.length; p += 2) pairs.push(Math.sqrt(perProcess[p]! * perProcess[p + 1]!));
  return pairs;
}

/** How our trampoline compares with Khronos's in one row (both timed in each process). */
export function compareTrampolines(ours: VulkanCell | undefined, khronos: VulkanCell | undefined): TrampolineComparison | undefined {
  if (ours === undefined || khronos === undefined || !('wall' in ours) || !('wall' in khronos)) return undefined;
  const estimates = crossoverRatios(processRatios(ours, khronos)).filter((r) => Number.isFinite(r));
  if (estimates.length === 0) return undefined;
  const interval = medianInterval(estimates);
  const ratio = summarize(estimates).median;
  const limit = 1 + TRAMPOLINE_MARGIN;
  const verdict: SpeedVerdict = interval.samples === 1 ? (ratio <= limit ? 'met' : 'missed') : interval.high <= limit ? 'met' : interval.low > limit ? 'missed' : 'within noise';
  return { ratio, interval, verdict };
}

function describeComparison(c: TrampolineComparison, ours: Summary, khronos: Summary): string {
  const { interval } = c;
  const pairs =
    interval.samples === 1
      ? 'one estimate: no interval'
      : `${(interval.coverage * 100).toFixed(0)} % interval ${interval.low.toFixed(3)}–${interval.high.toFixed(3)}× (${interval.samples} crossover pairs of processes)`;
  return `ours ÷ Khronos = ${c.ratio.toFixed(3)}×; ${pairs}; spreads between processes ±${(ours.relativeIqr * 50).toFixed(1)} % / ±${(khronos.relativeIqr * 50).toFixed(1)} % — ${c.verdict}`;
}

/** Target lines: trampolines at or below Khronos at every layer count; device-command pointers the same function. */
export function vulkanTargets(result: VulkanBenchResult, driverLabel?: string): string[] {
  const lines: string[] = [];
  const on = driverLabel === undefined ? '' : ` on ${driverLabel}`;
  for (const row of result.rows) {
    const ours = wall(row.cells['ours-trampoline']);
    const khronos = wall(row.cells['khronos-trampoline']);
    const comparison = compareTrampolines(row.cells['ours-trampoline'], row.cells['khronos-trampoline']);
    const text = `Vulkan \`${result.command.name}\`${on}, ${row.label}, trampoline: ours at or below Khronos`;
    if (ours === undefined || khronos === undefined || comparison === undefined) lines.push(`- ${text}: not measured`);
    else lines.push(`- ${text}: ${describeComparison(comparison, ours, khronos)}`);
    const p = pointerComparison(row);
    lines.push(`- Vulkan \`${result.command.name}\`${on}, ${row.label}, pointer: ${p.text} — ${p.same ? 'met' : p.loaderOwn ? 'not applicable (a loader command)' : 'NOT met'}`);
  }
  return lines;
}

export interface VulkanReportOptions {
  readonly headingLevel?: number;
  readonly title?: string;
  /** Leave out the machine and date lines (a page that states them once). */
  readonly omitRunInfo?: boolean;
}

export function formatVulkanBenchMarkdown(result: VulkanBenchResult, options: VulkanReportOptions = {}): string {
  const h = '#'.repeat(options.headingLevel ?? 2);
  const notes = new Map<string, number>();
  const table = formatVulkanBenchTable(result, notes);
  const k = result.khronosLoader;
  const lines = [
    `${h} ${options.title ?? `Vulkan \`${result.command.name}\` on ${result.driver.deviceName ?? 'the driver'}`}`,
    '',
    `- measured: ${result.command.measures}.`,
    `- method: per cell a warm-up run${result.plan.warmupIterations === result.plan.iterations ? ' as long as a timed run' : ''}, then ${result.plan.repeats} runs of ${result.plan.iterations.toLocaleString('en-US')} calls timed in one C++ loop ` +
      '(native/napi/vulkan_bench.cc) for both loaders; ' +
      (result.processes > 1
        ? `${result.processes} fresh child processes, each timing both loaders (their runs interleaved; which loader is set up and timed first alternates from process to process); ` +
          "the cell is the median of the processes' medians ± half their interquartile range; " +
          "the trampoline ratio: in each process the median over its rounds of our run ÷ Khronos's run next to it; then crossover estimates (the geometric mean of two neighbouring processes' ratios, one of each order, so the order cancels), and their median: " +
          `met when its sign-test interval (95 % or more) lies at or below ${(1 + TRAMPOLINE_MARGIN).toFixed(2)}, missed when it lies above, within noise otherwise.`
        : 'the median of the runs ± half the interquartile range; both loaders in one child process.') +
      (result.glibcTunables !== undefined ? ` The children ran with GLIBC_TUNABLES=${result.glibcTunables}.` : ''),
    `- driver: ${result.driver.deviceName ?? ''} (${result.driver.manifestPath}, VK_DRIVER_FILES); implicit layers off for both loaders (VK_LOADER_LAYERS_DISABLE=~implicit~); ` +
      'layers enabled with VK_INSTANCE_LAYERS: copies of the bundled pass-through Vulkan layer (it wraps the timed commands), each in its own folder on VK_LAYER_PATH in chain order ' +
      '(so a Khronos loader that orders such layers by discovery, as 1.3.239 does, builds the same chain), and the real layers named.',
    '- "trampoline": the loader\'s exported function; "pointer": what the loader\'s vkGetDeviceProcAddr returned (for vkGetDeviceQueue both loaders hand out their own trampoline: the queue must get the dispatch pointer).',
    `- Khronos loader: ${'path' in k ? `${k.path}${k.packageVersion ? ` (libvulkan1 ${k.packageVersion})` : ''}, dlopened in the same child processes as ours` : k.unavailable}.`,
  ];
  if (!options.omitRunInfo) lines.push(`- machine: ${result.machine.cpuModel}, ${result.machine.cores} cores, ${result.machine.os}; Node ${result.machine.node}; ${result.date}.`);
  lines.push('', table);
  if (notes.size > 0) {
    lines.push('');
    for (const [reason, n] of notes) lines.push(`[${n}] ${reason}`);
  }
  lines.push('');
  return lines.join('\n');
}

/** "8 rows: 6 met, 2 within noise, 0 missed": the trampoline target over several runs' rows. */
export function vulkanTrampolineTally(results: readonly VulkanBenchResult[]): string {
  const counts: Record<SpeedVerdict | 'not measured', number> = { met: 0, 'within noise': 0, missed: 0, 'not measured': 0 };
  for (const result of results) {
    for (const row of result.rows) counts[compareTrampolines(row.cells['ours-trampoline'], row.cells['khronos-trampoline'])?.verdict ?? 'not measured']++;
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return `${total} trampoline rows: ${counts.met} met, ${counts['within noise']} within noise, ${counts.missed} missed${counts['not measured'] > 0 ? `, ${counts['not measured']} not measured` : ''}`;
}
