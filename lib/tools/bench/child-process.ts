// Benchmark sides run in child processes of the same shape (a fresh node, the addon, one native
// timing loop), so no side is timed in a process the others are not: this package's loader in
// ours-child, the Khronos loader (and koffi on it) in khronos-child. Each child gets its request
// as an argument and answers once over IPC; its stdout is ignored (layers such as api_dump print
// there).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../core/native/load.js';

export type BenchChildModule = 'ours-child' | 'khronos-child' | 'vulkan-child' | 'vulkan-record-child';

/** node arguments that run a child module: the .js beside this file, or the .ts through tsx in a source checkout. */
function childCommand(module: BenchChildModule): string[] {
  const self = fileURLToPath(import.meta.url);
  if (self.endsWith('.ts')) return ['--import', 'tsx', self.replace(/child-process\.ts$/, `${module}.ts`)];
  return [self.replace(/child-process\.js$/, `${module}.js`)];
}

const STDERR_LIMIT = 4000;

/** Runs `module` with `request` in `env`; never throws: a failure becomes `failed(reason)`. */
export function runBenchChild<Request, Result>(
  module: BenchChildModule,
  request: Request,
  env: Readonly<Record<string, string>>,
  failed: (reason: string) => Result,
  timeoutMs = 600_000,
): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...childCommand(module), JSON.stringify(request)], {
      cwd: packageRoot,
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let answer: Result | undefined;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString();
    });
    child.on('message', (message) => {
      answer = message as Result;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(failed(`could not start the ${module} process: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (answer !== undefined) resolve(answer);
      else {
        const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
        resolve(failed(`the ${module} process ${how} without an answer${stderr ? `: ${stderr.trim().slice(0, STDERR_LIMIT)}` : ''}`));
      }
    });
  });
}

/** A child's way of answering: over IPC when the parent opened a channel, else on stdout. */
export function answerParent(result: unknown): void {
  if (!process.send) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  process.send(result, () => process.disconnect());
}

/** A child's main: parse the request argument, run, answer (errors as `failed`). */
export function runChildMain<Request, Result>(run: (request: Request) => Promise<Result> | Result, failed: (reason: string) => Result): void {
  const argument = process.argv[2];
  if (argument === undefined) {
    answerParent(failed('no request argument'));
    return;
  }
  Promise.resolve()
    .then(() => run(JSON.parse(argument) as Request))
    .then(answerParent, (error: unknown) => answerParent(failed(error instanceof Error ? error.message : String(error))));
}
