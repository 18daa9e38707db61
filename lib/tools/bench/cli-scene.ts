// `khronos-loader bench openxr --command scene [--seconds S] [--runtime <name|manifest>] [--json]`:
// the XR scene example (examples/xr-scene.ts) at the runtime's display rate — frames drawn and
// missed, the JavaScript thread's time per frame and the young-generation bytes per frame
// (scene-bench.ts; docs/performance.md, 'The XR scene: frames and the young generation'). The
// options come from the command's table (lib/tools/cli/specs.ts); the benchmark's modules are
// imported only once they are right.
import { errorMessage, parseOptions, runCommand, usageError } from '../cli/args.js';
import { BENCH_OPENXR_SCENE } from '../cli/specs.js';
import { BUNDLED_RUNTIME_KEYWORD } from '../doctor/openxr/no-runtime.js';
import type { BenchCliIo } from './cli-args.js';

export interface SceneBenchCliArgs {
  readonly seconds: number;
  /** --runtime as given ("simulated", a listed name or a manifest path); resolved when the benchmark starts. */
  readonly runtime?: string;
  readonly json: boolean;
}

/** True when the `bench openxr` arguments ask for the scene benchmark. */
export function isSceneBench(args: readonly string[]): boolean {
  return args.some((a, i) => a === '--command=scene' || (a === '--command' && args[i + 1] === 'scene'));
}

function validate(o: Exclude<ReturnType<typeof parseOptions<typeof BENCH_OPENXR_SCENE>>, string>): SceneBenchCliArgs {
  return { seconds: o['--seconds'] ?? 30, json: o['--json'] === true, ...(o['--runtime'] !== undefined ? { runtime: o['--runtime'] } : {}) };
}

/** The arguments after "bench openxr". */
export function runSceneBenchCli(args: readonly string[], io: BenchCliIo): Promise<number> {
  return runCommand(BENCH_OPENXR_SCENE, args, io, validate, async (parsed) => {
    try {
      const [{ runSceneBench, formatSceneBench }, { resolveRuntimeOption }] = await Promise.all([import('./scene-bench.js'), import('../cli/runtime-option.js')]);
      const resolved = resolveRuntimeOption(parsed.runtime ?? BUNDLED_RUNTIME_KEYWORD, io.env ?? process.env);
      if ('error' in resolved) return usageError(BENCH_OPENXR_SCENE.name, resolved.error, io);
      const result = await runSceneBench({ seconds: parsed.seconds, runtime: resolved.manifestPath }, (line) => io.stderr(`bench: ${line}\n`));
      io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatSceneBench(result)}\n`);
      return 0;
    } catch (error) {
      io.stderr(`khronos-loader bench: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
