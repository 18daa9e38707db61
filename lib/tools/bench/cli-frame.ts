// `khronos-loader bench openxr --command frame [--spaces 1,4,16,64] [--api 1.0,1.1] [--iterations N]
// [--repeats R] [--runtime manifest] [--json]`: what locating N spaces costs per frame — N
// space.locate calls against one frame query from JavaScript, and the same work in C
// (docs/performance.md, 'OpenXR: frame queries').
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FRAME_BENCH_SPACE_COUNTS, formatFrameBenchMarkdown, frameTargets, runFrameBench, type FrameBenchApiVersion } from './frame-bench.js';
import { simulatedRuntime } from '../../openxr/simulated-runtime.js';
import { flagsOf, parseOrExitCode, positiveInteger, type BenchCliIo } from './cli-args.js';

export const BENCH_FRAME_USAGE = `usage: khronos-loader bench openxr --command frame [options]

  Per frame, N reference spaces located in LOCAL: N space.locate calls from JavaScript, one frame
  query (session.createFrameQuery) from JavaScript, and the query's work in C through this loader
  (xrLocateSpace in a loop; xrLocateSpaces on an OpenXR 1.1 instance), on the simulated runtime.
  --spaces <list>       comma-separated space counts (default ${FRAME_BENCH_SPACE_COUNTS.join(',')})
  --api <list>          OpenXR instance versions: 1.0, 1.1 or both (default 1.0,1.1)
  --iterations <n>      located spaces per timed run; frames = n ÷ spaces (default 40000)
  --repeats <n>         timed runs per cell, after a warm-up (default 21)
  --runtime <manifest>  run on this runtime instead of the simulated runtime
  --json                the results as JSON instead of Markdown
`;

export interface FrameBenchCliArgs {
  readonly spaceCounts: readonly number[];
  readonly apiVersions: readonly FrameBenchApiVersion[];
  readonly locatesPerRun?: number;
  readonly repeats?: number;
  readonly runtime?: string;
  readonly json: boolean;
}

/** True when the `bench openxr` arguments ask for the frame benchmark. */
export function isFrameBench(args: readonly string[]): boolean {
  for (const { flag, value } of flagsOf(args)) if (flag === '--command' && value() === 'frame') return true;
  return false;
}

/** Parses the arguments after "bench" (with `openxr --command frame` among them); a string is the usage error. */
export function parseFrameBenchArgs(args: readonly string[]): FrameBenchCliArgs | string {
  let spaceCounts: number[] = [...FRAME_BENCH_SPACE_COUNTS];
  let apiVersions: FrameBenchApiVersion[] = ['1.0', '1.1'];
  let locatesPerRun: number | undefined;
  let repeats: number | undefined;
  let runtime: string | undefined;
  let json = false;
  for (const { flag, arg, value } of flagsOf(args)) {
    switch (flag) {
      case 'openxr':
        break;
      case '--command':
        value();
        break;
      case '--json':
        json = true;
        break;
      case '--spaces': {
        const list = (value() ?? '').split(',').filter((s) => s !== '');
        const counts = list.map((s) => positiveInteger('--spaces', s));
        const bad = counts.find((c) => typeof c === 'string');
        if (list.length === 0 || bad !== undefined) return typeof bad === 'string' ? bad : '--spaces needs comma-separated whole numbers';
        spaceCounts = counts as number[];
        break;
      }
      case '--api': {
        const list = (value() ?? '').split(',').filter((s) => s !== '');
        if (list.length === 0 || list.some((v) => v !== '1.0' && v !== '1.1')) return `--api takes 1.0, 1.1 or 1.0,1.1, got ${JSON.stringify(list.join(','))}`;
        apiVersions = list as FrameBenchApiVersion[];
        break;
      }
      case '--iterations':
      case '--repeats': {
        const n = positiveInteger(flag, value());
        if (typeof n === 'string') return n;
        if (flag === '--iterations') locatesPerRun = n;
        else repeats = n;
        break;
      }
      case '--runtime': {
        const file = value();
        if (file === undefined || file === '') return '--runtime needs a runtime manifest';
        runtime = path.resolve(file);
        break;
      }
      default:
        return `bench openxr --command frame: unknown argument ${JSON.stringify(arg)}`;
    }
  }
  return {
    spaceCounts,
    apiVersions,
    json,
    ...(locatesPerRun !== undefined ? { locatesPerRun } : {}),
    ...(repeats !== undefined ? { repeats } : {}),
    ...(runtime !== undefined ? { runtime } : {}),
  };
}

export function runFrameBenchCli(args: readonly string[], io: BenchCliIo, runtimeLabel: (manifest: string) => string): number {
  const parsed = parseOrExitCode(args, io, BENCH_FRAME_USAGE, parseFrameBenchArgs);
  if (typeof parsed === 'number') return parsed;
  if (parsed.runtime !== undefined && !existsSync(parsed.runtime)) {
    io.stderr(`khronos-loader bench: --runtime ${parsed.runtime}: no such runtime manifest\n`);
    return 1;
  }
  const manifestPath = parsed.runtime ?? simulatedRuntime();
  try {
    const result = runFrameBench({
      runtime: { manifestPath, label: parsed.runtime !== undefined ? runtimeLabel(parsed.runtime) : 'simulated runtime' },
      apiVersions: parsed.apiVersions,
      spaceCounts: parsed.spaceCounts,
      ...(parsed.locatesPerRun !== undefined ? { locatesPerRun: parsed.locatesPerRun } : {}),
      ...(parsed.repeats !== undefined ? { repeats: parsed.repeats } : {}),
      onProgress: (line) => io.stderr(`bench: ${line}\n`),
    });
    io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatFrameBenchMarkdown(result)}\n${frameTargets(result).join('\n')}\n`);
    return 0;
  } catch (error) {
    io.stderr(`khronos-loader bench: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
