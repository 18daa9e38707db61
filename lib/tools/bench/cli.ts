// `khronos-loader bench openxr [--layers <names|N>] [--command <xrCommand>] [--iterations N]
// [--repeats R] [--processes P] [--runtime <name|manifest>] [--json] [--svg file] [--no-khronos]
// [--khronos-loader path]`: ns per call with 0..N bundled pass-through layers and with named real
// layers, this loader beside the Khronos loader (and koffi) on the shipped simulated runtime or
// another runtime (e.g. Monado), as a Markdown table or JSON, and a chart. The options come from
// the command's table (lib/tools/cli/specs.ts); the benchmark's modules are imported only once
// the arguments are right, and --svg's folder is checked before the benchmark starts.
import { writeFileSync } from 'node:fs';
import { errorMessage, parseOptions, runCommand, usageError } from '../cli/args.js';
import { BENCH_OPENXR } from '../cli/specs.js';
import { parseLayerList, runtimeLabel, type BenchCliIo, type CommonBenchArgs } from './cli-args.js';
import { isFrameBench, runFrameBenchCli } from './cli-frame.js';
import { isSceneBench, runSceneBenchCli } from './cli-scene.js';
import { runVulkanBenchCli } from './cli-vulkan.js';
import type { BenchCommandName } from './openxr-commands.js';

export { runtimeLabel, type BenchCliIo } from './cli-args.js';

export interface BenchCliArgs extends CommonBenchArgs {
  readonly command: BenchCommandName;
  readonly svg?: string;
  /** --runtime as given ("simulated", a listed name or a manifest path); resolved when the benchmark starts. */
  readonly runtime?: string;
}

function validate(o: Exclude<ReturnType<typeof parseOptions<typeof BENCH_OPENXR>>, string>): BenchCliArgs | string {
  let maxPassthrough: number | undefined;
  let realLayers: string[] = [];
  if (o['--layers'] !== undefined) {
    const list = parseLayerList(o['--layers'], /^XR_APILAYER_\w+$/, 'API layer');
    if (typeof list === 'string') return list;
    if (list.counts.length > 0) maxPassthrough = Math.max(...list.counts);
    realLayers = list.layers;
  }
  // Named layers alone: a row without layers to compare them with.
  const top = maxPassthrough ?? (realLayers.length > 0 ? 0 : 4);
  const khronosLoader = o['--no-khronos'] === true ? false : o['--khronos-loader'];
  return {
    // 'frame' and 'scene' are benchmarks of their own (cli-frame.ts, cli-scene.ts), which never reach here.
    command: (o['--command'] ?? 'xrLocateSpace') as BenchCommandName,
    passthroughCounts: Array.from({ length: top + 1 }, (_, i) => i),
    realLayers,
    json: o['--json'] === true,
    ...(o['--iterations'] !== undefined ? { iterations: o['--iterations'] } : {}),
    ...(o['--repeats'] !== undefined ? { repeats: o['--repeats'] } : {}),
    ...(o['--processes'] !== undefined ? { processes: o['--processes'] } : {}),
    ...(o['--svg'] !== undefined ? { svg: o['--svg'] } : {}),
    ...(khronosLoader !== undefined ? { khronosLoader } : {}),
    ...(o['--runtime'] !== undefined ? { runtime: o['--runtime'] } : {}),
  };
}

/** The target word ("openxr" or "vulkan") and the rest, or the argument error. */
function targetOf(args: readonly string[]): { readonly target: 'openxr' | 'vulkan'; readonly rest: readonly string[] } | string {
  const [first, ...rest] = args;
  if (first === 'openxr' || first === 'vulkan') return { target: first, rest };
  return `needs a target, "openxr" or "vulkan", got ${first === undefined ? 'nothing' : JSON.stringify(first)}`;
}

/** Parses the arguments after "bench" (`openxr` first); a string is the argument error (one line). */
export function parseBenchArgs(args: readonly string[]): BenchCliArgs | string {
  const which = targetOf(args);
  if (typeof which === 'string') return which;
  if (which.target !== 'openxr') return `bench openxr arguments start with "openxr", got ${JSON.stringify(which.target)}`;
  const o = parseOptions(BENCH_OPENXR, which.rest);
  return typeof o === 'string' ? o : validate(o);
}

/** `bench <openxr|vulkan> ...`: the arguments after "bench". */
export async function runBenchCli(args: readonly string[], io: BenchCliIo): Promise<number> {
  const which = targetOf(args);
  if (typeof which === 'string') return usageError('bench', which, io);
  if (which.target === 'vulkan') return runVulkanBenchCli(which.rest, io);
  if (isFrameBench(which.rest)) return runFrameBenchCli(which.rest, io);
  if (isSceneBench(which.rest)) return runSceneBenchCli(which.rest, io);
  return runCommand(BENCH_OPENXR, which.rest, io, validate, async (parsed) => {
    try {
      let runtime: { manifestPath: string; label: string } | undefined;
      if (parsed.runtime !== undefined) {
        const { resolveRuntimeOption } = await import('../cli/runtime-option.js');
        const resolved = resolveRuntimeOption(parsed.runtime, io.env ?? process.env);
        if ('error' in resolved) return usageError(BENCH_OPENXR.name, resolved.error, io);
        if (!resolved.bundled) runtime = { manifestPath: resolved.manifestPath, label: runtimeLabel(resolved.manifestPath) };
      }
      const [{ runOpenXrBench }, { formatBenchMarkdown, renderBenchChart }] = await Promise.all([import('./run-openxr-bench.js'), import('./report.js')]);
      const result = await runOpenXrBench({
        command: parsed.command,
        passthroughCounts: parsed.passthroughCounts,
        realLayers: parsed.realLayers,
        ...(parsed.iterations !== undefined ? { iterations: parsed.iterations } : {}),
        ...(parsed.repeats !== undefined ? { repeats: parsed.repeats } : {}),
        ...(parsed.processes !== undefined ? { processes: parsed.processes } : {}),
        ...(parsed.khronosLoader !== undefined ? { khronosLoader: parsed.khronosLoader } : {}),
        ...(runtime !== undefined ? { runtime } : {}),
        onProgress: (line) => io.stderr(`bench: ${line}\n`),
      });
      // The results first: a chart that cannot be written after all does not lose them.
      io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : formatBenchMarkdown(result, parsed.svg !== undefined ? { chartLink: parsed.svg } : {}));
      if (parsed.svg !== undefined) writeFileSync(parsed.svg, renderBenchChart(result));
      return 0;
    } catch (error) {
      io.stderr(`khronos-loader bench: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
