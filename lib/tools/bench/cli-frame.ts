// `khronos-loader bench openxr --command frame [--spaces 1,4,16,64] [--api 1.0,1.1] [--iterations N]
// [--repeats R] [--runtime <name|manifest>] [--json]`: what locating N spaces costs per frame — N
// space.locate calls against one frame query from JavaScript, and the same work in C
// (docs/performance.md, 'OpenXR: frame queries'). The options come from the command's table
// (lib/tools/cli/specs.ts); the benchmark's modules are imported only once they are right.
import { badValue, errorMessage, parseOptions, runCommand, usageError } from '../cli/args.js';
import { BENCH_OPENXR_FRAME } from '../cli/specs.js';
import { BUNDLED_RUNTIME_KEYWORD } from '../doctor/openxr/no-runtime.js';
import { runtimeLabel, type BenchCliIo } from './cli-args.js';
import { FRAME_BENCH_API_VERSIONS, FRAME_BENCH_SPACE_COUNTS, type FrameBenchApiVersion } from './frame-spaces.js';

export interface FrameBenchCliArgs {
  readonly spaceCounts: readonly number[];
  readonly apiVersions: readonly FrameBenchApiVersion[];
  readonly locatesPerRun?: number;
  readonly repeats?: number;
  /** --runtime as given ("simulated", a listed name or a manifest path); resolved when the benchmark starts. */
  readonly runtime?: string;
  readonly json: boolean;
  /** --command paced: the paced frame-loop benchmark (paced-bench.ts) instead of the frame-query one. */
  readonly paced: boolean;
  /** --khronos-loader: the Khronos OpenXR loader for the paced bench's koffi rows. */
  readonly khronosLoader?: string;
}

/** True when the `bench openxr` arguments ask for the frame benchmark. */
export function isFrameBench(args: readonly string[]): boolean {
  return args.some((a, i) => a === '--command=frame' || a === '--command=paced' || (a === '--command' && (args[i + 1] === 'frame' || args[i + 1] === 'paced')));
}

function validate(o: Exclude<ReturnType<typeof parseOptions<typeof BENCH_OPENXR_FRAME>>, string>): FrameBenchCliArgs | string {
  let spaceCounts: number[] = [...FRAME_BENCH_SPACE_COUNTS];
  let apiVersions: FrameBenchApiVersion[] = [...FRAME_BENCH_API_VERSIONS];
  const spaces = o['--spaces'];
  if (spaces !== undefined) {
    const items = spaces.split(',').filter((s) => s !== '');
    const counts = items.map(Number);
    if (items.length === 0 || items.some((s, i) => !/^\d+$/.test(s) || !((counts[i] ?? 0) >= 1))) return badValue('--spaces', 'a whole number >= 1 per space count, separated by commas', spaces);
    spaceCounts = counts;
  }
  const api = o['--api'];
  if (api !== undefined) {
    const items = api.split(',').filter((s) => s !== '');
    const known: readonly string[] = FRAME_BENCH_API_VERSIONS;
    if (items.length === 0 || items.some((v) => !known.includes(v))) return badValue('--api', `OpenXR instance versions ${FRAME_BENCH_API_VERSIONS.join(' and/or ')}, separated by commas`, api);
    apiVersions = items as FrameBenchApiVersion[];
  }
  return {
    spaceCounts,
    apiVersions,
    json: o['--json'] === true,
    paced: o['--command'] === 'paced',
    ...(o['--iterations'] !== undefined ? { locatesPerRun: o['--iterations'] } : {}),
    ...(o['--repeats'] !== undefined ? { repeats: o['--repeats'] } : {}),
    ...(o['--runtime'] !== undefined ? { runtime: o['--runtime'] } : {}),
    ...(o['--khronos-loader'] !== undefined ? { khronosLoader: o['--khronos-loader'] } : {}),
  };
}

/** Parses the `bench openxr --command frame` arguments (after "bench", "openxr" first); a string is the argument error (one line). */
export function parseFrameBenchArgs(args: readonly string[]): FrameBenchCliArgs | string {
  const o = parseOptions(BENCH_OPENXR_FRAME, args[0] === 'openxr' ? args.slice(1) : args);
  return typeof o === 'string' ? o : validate(o);
}

/** The arguments after "bench openxr". */
export function runFrameBenchCli(args: readonly string[], io: BenchCliIo): Promise<number> {
  return runCommand(BENCH_OPENXR_FRAME, args, io, validate, async (parsed) => {
    try {
      if (parsed.paced) {
        const [{ runPacedBench, formatPacedBenchMarkdown, pacedTargets }, { resolveRuntimeOption }, { findKhronosLoader }] = await Promise.all([
          import('./paced-bench.js'),
          import('../cli/runtime-option.js'),
          import('./khronos-loader-side.js'),
        ]);
        const khronosLoader = parsed.khronosLoader ?? findKhronosLoader();
        const resolved = resolveRuntimeOption(parsed.runtime ?? BUNDLED_RUNTIME_KEYWORD, io.env ?? process.env);
        if ('error' in resolved) return usageError(BENCH_OPENXR_FRAME.name, resolved.error, io);
        const result = await runPacedBench({
          runtime: { manifestPath: resolved.manifestPath, label: resolved.bundled ? 'simulated runtime' : runtimeLabel(resolved.manifestPath) },
          ...(parsed.locatesPerRun !== undefined ? { durationMs: parsed.locatesPerRun } : {}),
          ...(khronosLoader !== undefined ? { khronosLoader } : {}),
          onProgress: (line) => io.stderr(`bench: ${line}\n`),
        });
        io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatPacedBenchMarkdown(result)}\n\n${pacedTargets(result).join('\n')}\n`);
        return 0;
      }
      const [{ runFrameBench, formatFrameBenchMarkdown, frameTargets }, { resolveRuntimeOption }] = await Promise.all([import('./frame-bench.js'), import('../cli/runtime-option.js')]);
      const resolved = resolveRuntimeOption(parsed.runtime ?? BUNDLED_RUNTIME_KEYWORD, io.env ?? process.env);
      if ('error' in resolved) return usageError(BENCH_OPENXR_FRAME.name, resolved.error, io);
      const result = runFrameBench({
        runtime: { manifestPath: resolved.manifestPath, label: resolved.bundled ? 'simulated runtime' : runtimeLabel(resolved.manifestPath) },
        apiVersions: parsed.apiVersions,
        spaceCounts: parsed.spaceCounts,
        ...(parsed.locatesPerRun !== undefined ? { locatesPerRun: parsed.locatesPerRun } : {}),
        ...(parsed.repeats !== undefined ? { repeats: parsed.repeats } : {}),
        onProgress: (line) => io.stderr(`bench: ${line}\n`),
      });
      io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatFrameBenchMarkdown(result)}\n${frameTargets(result).join('\n')}\n`);
      return 0;
    } catch (error) {
      io.stderr(`khronos-loader bench: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
