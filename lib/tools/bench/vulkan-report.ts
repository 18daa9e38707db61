// A `bench vulkan` run as Markdown: what was measured and how, the table with ratio columns,
// footnotes for empty cells, and the targets (ours at or below Khronos; the same device-command
// pointer as Khronos hands out).
import path from 'node:path';
import type { PointerOrigin } from '../native/addon.js';
import { markdownTable } from './markdown-table.js';
import { formatSummary, type Summary } from './stats.js';
import { VULKAN_COLUMN_TITLES, type VulkanBenchResult, type VulkanBenchRow, type VulkanCell } from './run-vulkan-bench.js';
import { compareTrampolines, TRAMPOLINE_MARGIN, VERDICT_ERROR, type SpeedVerdict, type TrampolineComparison } from './vulkan-verdict.js';

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

function describeComparison(c: TrampolineComparison, ours: Summary, khronos: Summary, measuredAgain: boolean): string {
  const { interval } = c;
  const pairs =
    interval.samples === 1
      ? 'one estimate: no interval'
      : `${(interval.coverage * 100).toFixed(1)} % interval ${interval.low.toFixed(3)}–${interval.high.toFixed(3)}× (${interval.samples} crossover pairs of processes${measuredAgain ? ', the row measured again' : ''})`;
  return `ours ÷ Khronos = ${c.ratio.toFixed(3)}×; ${pairs}; spreads between processes ±${(ours.relativeIqr * 50).toFixed(1)} % / ±${(khronos.relativeIqr * 50).toFixed(1)} % — ${c.verdict}`;
}

/** Target lines: trampolines at or below Khronos at every layer count; device-command pointers the same function. */
export function vulkanTargets(result: VulkanBenchResult, driverLabel?: string): string[] {
  const lines: string[] = [];
  const on = driverLabel === undefined ? '' : ` on ${driverLabel}`;
  for (const row of result.rows) {
    const ours = wall(row.cells['ours-trampoline']);
    const khronos = wall(row.cells['khronos-trampoline']);
    const comparison = compareTrampolines(row.cells['ours-trampoline'], row.cells['khronos-trampoline'], result.verdictConfidence);
    const text = `Vulkan \`${result.command.name}\`${on}, ${row.label}, trampoline: ours at or below Khronos`;
    if (ours === undefined || khronos === undefined || comparison === undefined) lines.push(`- ${text}: not measured`);
    else lines.push(`- ${text}: ${describeComparison(comparison, ours, khronos, row.processes > result.processes)}`);
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
      '(native/tools/bench/vulkan_bench.cc) for both loaders; ' +
      (result.processes > 1
        ? `${result.processes} fresh child processes, each timing both loaders (their runs interleaved; which loader is set up and timed first alternates from process to process); ` +
          "the cell is the median of the processes' medians ± half their interquartile range; " +
          "the trampoline ratio: in each process the median over its rounds of our run ÷ Khronos's run next to it; then crossover estimates (the geometric mean of two neighbouring processes' ratios, one of each order, so the order cancels), and their median: " +
          `met when its sign-test interval (${(result.verdictConfidence * 100).toFixed(1)} % or more) lies at or below ${(1 + TRAMPOLINE_MARGIN).toFixed(2)}, missed when it lies above, within noise otherwise` +
          (result.maxProcesses > result.processes
            ? `; a row within noise was measured again, ${result.processes} more processes at a time up to ${result.maxProcesses}, and judged on all of them (each look's interval at ${(result.verdictConfidence * 100).toFixed(1)} %: ${VERDICT_ERROR * 100} % shared among the ${Math.ceil(result.maxProcesses / result.processes)} looks a row may take).`
            : '.')
        : 'the median of the runs ± half the interquartile range; both loaders in one child process.') +
      (result.glibcTunables !== undefined ? ` The children ran with GLIBC_TUNABLES=${result.glibcTunables}.` : ''),
    `- driver: ${result.driver.deviceName ?? ''} (${result.driver.manifestPath}, VK_DRIVER_FILES); implicit layers off for both loaders (VK_LOADER_LAYERS_DISABLE=~implicit~); ` +
      'layers enabled with VK_INSTANCE_LAYERS: copies of the bundled pass-through Vulkan layer (it wraps the timed commands), each in its own folder on VK_LAYER_PATH in chain order ' +
      '(so a Khronos loader that orders such layers by discovery, as 1.3.239 does, builds the same chain), and the real layers named.',
    '- "trampoline": the loader\'s exported function; "pointer": what the loader\'s vkGetDeviceProcAddr returned (for vkGetDeviceQueue both loaders hand out their own trampoline: the queue must get the dispatch pointer).',
    `- Khronos loader: ${'path' in k ? `${k.path}${k.packageVersion ? ` (libvulkan1 ${k.packageVersion})` : ''}, dlopened in the same child processes as ours` : k.unavailable}.`,
  ];
  const shown = result.presentation;
  if (shown !== undefined) {
    lines.push(
      'server' in shown
        ? `- window: a private Xvfb started for these rows and stopped after; present mode ${shown.presentMode ?? 'unknown (no process set up a swapchain)'}; "trampoline" is each loader's exported vkAcquireNextImageKHR / vkQueuePresentKHR, "pointer" what its vkGetDeviceProcAddr returned.`
        : `- window: not measured — ${shown.unavailable}.`,
    );
  }
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
    for (const row of result.rows) counts[compareTrampolines(row.cells['ours-trampoline'], row.cells['khronos-trampoline'], result.verdictConfidence)?.verdict ?? 'not measured']++;
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return `${total} trampoline rows: ${counts.met} met, ${counts['within noise']} within noise, ${counts.missed} missed${counts['not measured'] > 0 ? `, ${counts['not measured']} not measured` : ''}`;
}
