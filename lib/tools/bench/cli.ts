// `khronos-loader bench openxr [--layers <names|N>] [--command <xrCommand>] [--iterations N]
// [--repeats R] [--processes P] [--runtime manifest] [--json] [--svg file] [--no-khronos] [--khronos-loader path]`:
// ns per call with 0..N bundled pass-through layers and with named real layers, this loader beside
// the Khronos loader (and koffi) on the shipped simulated runtime or another runtime (e.g. Monado),
// as a Markdown table or JSON, and a chart.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { flagsOf, positiveInteger, type BenchCliIo, type CommonBenchArgs } from './cli-args.js';
import { benchCommand, supportedCommandNames, type BenchCommandName } from './openxr-commands.js';
import { formatBenchMarkdown, renderBenchChart } from './report.js';
import { runOpenXrBench, type OpenXrBenchOptions } from './run-openxr-bench.js';
import { runVulkanBenchCli } from './cli-vulkan.js';
import { isFrameBench, runFrameBenchCli } from './cli-frame.js';

export type { BenchCliIo } from './cli-args.js';

export const BENCH_USAGE = `usage: khronos-loader bench openxr [options]
       khronos-loader bench vulkan [options] (bench vulkan --help)

  Times one OpenXR command through this loader (its exported trampoline, the pointer from
  xrGetInstanceProcAddr, and from JavaScript where the typed API has the call) with 0..N copies of
  the bundled pass-through layer and with real layers, beside the Khronos loader and koffi when
  installed, on the simulated runtime that ships with the package.
  --command <name>      ${supportedCommandNames()} (default xrLocateSpace), or frame: N spaces per
                        frame, N locate calls against one frame query (bench openxr --command frame --help)
  --layers <list>       comma-separated: a number N for rows with 0..N pass-through layers (default 4),
                        and names of real API layers for a row each (e.g. XR_APILAYER_LUNARG_core_validation)
  --iterations <n>      calls (frames for xrWaitFrame) per timed run (default per command)
  --repeats <n>         timed runs per cell, after a warm-up (default 7)
  --processes <n>       fresh child processes per side and row, alternating the sides (default 1);
                        a cell is then the median of the processes' medians
  --runtime <manifest>  run on this runtime (XR_RUNTIME_JSON for both loaders; e.g. Monado's) instead of
                        the simulated runtime; the runtime reads its own settings from the environment
  --json                the results as JSON instead of Markdown
  --svg <file>          also write the chart (cost per call against layer count) as SVG
  --no-khronos          leave the Khronos loader (and koffi) out
  --khronos-loader <p>  the Khronos loader library (default: libopenxr_loader.so.1 where distributions put it)
`;


export interface BenchCliArgs extends CommonBenchArgs {
  readonly command: BenchCommandName;
  readonly svg?: string;
  /** A runtime manifest instead of the simulated runtime. */
  readonly runtime?: string;
}


/** Parses the arguments after "bench"; a string is the usage error. */
export function parseBenchArgs(args: readonly string[]): BenchCliArgs | string {
  let target: string | undefined;
  let command: BenchCommandName = 'xrLocateSpace';
  let maxPassthrough: number | undefined;
  const realLayers: string[] = [];
  let iterations: number | undefined;
  let repeats: number | undefined;
  let processes: number | undefined;
  let json = false;
  let svg: string | undefined;
  let khronosLoader: string | false | undefined;
  let runtime: string | undefined;
  for (const { flag, arg, value } of flagsOf(args)) {
    switch (flag) {
      case '--json':
        json = true;
        break;
      case '--no-khronos':
        khronosLoader = false;
        break;
      case '--command': {
        const name = value() ?? '';
        try {
          command = benchCommand(name).name;
        } catch (error) {
          return (error as Error).message;
        }
        break;
      }
      case '--layers': {
        const list = value();
        if (list === undefined || list.trim() === '') return '--layers needs a number or layer names';
        for (const item of list.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
          if (/^\d+$/.test(item)) maxPassthrough = Math.max(maxPassthrough ?? 0, Number(item));
          else if (/^XR_APILAYER_\w+$/.test(item)) realLayers.push(item);
          else return `--layers: ${JSON.stringify(item)} is neither a layer count nor an API layer name (XR_APILAYER_...)`;
        }
        break;
      }
      case '--iterations': {
        const n = positiveInteger('--iterations', value());
        if (typeof n === 'string') return n;
        iterations = n;
        break;
      }
      case '--repeats': {
        const n = positiveInteger('--repeats', value());
        if (typeof n === 'string') return n;
        repeats = n;
        break;
      }
      case '--processes': {
        const n = positiveInteger('--processes', value());
        if (typeof n === 'string') return n;
        processes = n;
        break;
      }
      case '--svg': {
        const file = value();
        if (file === undefined || file === '') return '--svg needs a file name';
        svg = file;
        break;
      }
      case '--runtime': {
        const file = value();
        if (file === undefined || file === '') return '--runtime needs a runtime manifest';
        runtime = path.resolve(file);
        break;
      }
      case '--khronos-loader': {
        const file = value();
        if (file === undefined || file === '') return '--khronos-loader needs a library path';
        khronosLoader = file;
        break;
      }
      default:
        if (!arg.startsWith('-') && target === undefined) {
          target = arg;
          if (target !== 'openxr') return `bench knows "openxr" and "vulkan", not ${JSON.stringify(target)}`;
        } else return `unknown argument ${JSON.stringify(arg)}`;
    }
  }
  if (target === undefined) return 'bench needs a target: openxr or vulkan';
  // Named layers alone: a row without layers to compare them with.
  const top = maxPassthrough ?? (realLayers.length > 0 ? 0 : 4);
  return {
    command,
    passthroughCounts: Array.from({ length: top + 1 }, (_, i) => i),
    realLayers,
    json,
    ...(iterations !== undefined ? { iterations } : {}),
    ...(repeats !== undefined ? { repeats } : {}),
    ...(processes !== undefined ? { processes } : {}),
    ...(svg !== undefined ? { svg } : {}),
    ...(khronosLoader !== undefined ? { khronosLoader } : {}),
    ...(runtime !== undefined ? { runtime } : {}),
  };
}

/** The runtime's name from its manifest (runtime.name), for the report; else the manifest's file name. */
export function runtimeLabel(manifest: string): string {
  try {
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as { runtime?: { name?: unknown } };
    const name = json.runtime?.name;
    if (typeof name === 'string' && name !== '') return `${name} runtime`;
  } catch {
    // Unreadable or not JSON: the loader reports that when it runs; the label falls back to the path.
  }
  return manifest;
}

export async function runBenchCli(args: readonly string[], io: BenchCliIo): Promise<number> {
  if (args[0] === 'vulkan') return runVulkanBenchCli(args.slice(1), io);
  if (args[0] === 'openxr' && isFrameBench(args)) return runFrameBenchCli(args, io, runtimeLabel);
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(BENCH_USAGE);
    return 0;
  }
  const parsed = parseBenchArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\n${BENCH_USAGE}`);
    return 2;
  }
  if (parsed.runtime !== undefined && !existsSync(parsed.runtime)) {
    io.stderr(`khronos-loader bench: --runtime ${parsed.runtime}: no such runtime manifest\n`);
    return 1;
  }
  const options: OpenXrBenchOptions = {
    command: parsed.command,
    passthroughCounts: parsed.passthroughCounts,
    realLayers: parsed.realLayers,
    ...(parsed.iterations !== undefined ? { iterations: parsed.iterations } : {}),
    ...(parsed.repeats !== undefined ? { repeats: parsed.repeats } : {}),
    ...(parsed.processes !== undefined ? { processes: parsed.processes } : {}),
    ...(parsed.khronosLoader !== undefined ? { khronosLoader: parsed.khronosLoader } : {}),
    ...(parsed.runtime !== undefined ? { runtime: { manifestPath: parsed.runtime, label: runtimeLabel(parsed.runtime) } } : {}),
    onProgress: (line) => io.stderr(`bench: ${line}\n`),
  };
  try {
    const result = await runOpenXrBench(options);
    if (parsed.svg !== undefined) writeFileSync(parsed.svg, renderBenchChart(result));
    io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : formatBenchMarkdown(result, parsed.svg !== undefined ? { chartLink: parsed.svg } : {}));
    return 0;
  } catch (error) {
    io.stderr(`khronos-loader bench: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
