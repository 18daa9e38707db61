// What `bench openxr` and `bench vulkan` share: the CLI's output streams and a whole-number flag.
import type { LogWriter } from '../../core/log.js';

export interface BenchCliIo {
  stdout: (text: string) => void;
  stderr: LogWriter;
}

/** What `bench openxr` and `bench vulkan` both take. */
export interface CommonBenchArgs {
  readonly passthroughCounts: readonly number[];
  readonly realLayers: readonly string[];
  readonly iterations?: number;
  readonly repeats?: number;
  readonly processes?: number;
  readonly json: boolean;
  /** The Khronos loader library, or false to leave it out. */
  readonly khronosLoader?: string | false;
}

/** A flag's value as a whole number >= 1, or the usage error. */
export function positiveInteger(flag: string, value: string | undefined): number | string {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isInteger(n) || n < 1) return `${flag} needs a whole number >= 1, got ${JSON.stringify(value ?? '')}`;
  return n;
}

/** The arguments as flags, `--flag value` and `--flag=value` alike; `value()` takes the flag's value. */
export function* flagsOf(args: readonly string[]): Generator<{ readonly flag: string; readonly arg: string; value(): string | undefined }> {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    yield { flag, arg, value: () => (flag !== arg ? arg.slice(eq + 1) : args[++i]) };
  }
}

/**
 * The CLI's first steps for a bench command: --help prints `usage` (exit 0), a usage error prints
 * it with the error (exit 2); otherwise the parsed arguments.
 */
export function parseOrExitCode<T>(args: readonly string[], io: BenchCliIo, usage: string, parse: (args: readonly string[]) => T | string): T | number {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(usage);
    return 0;
  }
  const parsed = parse(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\n${usage}`);
    return 2;
  }
  return parsed;
}
