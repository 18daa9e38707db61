// Runs each probe job in its own child process (probe-child.ts) with a timeout, and classifies
// how it ended: an answer, a signal (a crash), a timeout (a hang), an exit without an answer, or
// output that is not an answer. Nothing a child does can throw here: every failure is data.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { NativeOpenXrProbeResult } from '../native/addon.js';
import { parseProbeOutput, type ProbeJob } from './protocol.js';

export const DEFAULT_PROBE_TIMEOUT_MS = 5000;
/** How long a child may take to start (Node, the addon) before it begins the probe; not part of the probe's timeout. */
export const PROBE_STARTUP_LIMIT_MS = 60_000;

interface OutcomeBase {
  /** The child's stderr (and any stdout that was not the answer), as context for the report. */
  readonly output: string;
  /** Time from the start of the probe to its end, in ms. */
  readonly durationMs: number;
}

export type ProbeOutcome<R = NativeOpenXrProbeResult> =
  | (OutcomeBase & { readonly kind: 'answered'; readonly result: R; readonly log: readonly string[]; readonly afterwards?: string })
  | (OutcomeBase & { readonly kind: 'signal'; readonly signal: string })
  | (OutcomeBase & { readonly kind: 'timeout'; readonly timeoutMs: number })
  | (OutcomeBase & { readonly kind: 'exited'; readonly exitCode: number; readonly message?: string })
  | (OutcomeBase & { readonly kind: 'startup-timeout'; readonly timeoutMs: number })
  | (OutcomeBase & { readonly kind: 'spawn-failed'; readonly message: string });

export interface RunProbesOptions {
  /** Per probe, from the moment the child starts loading the library (default 5000 ms). */
  readonly timeoutMs?: number;
  /** The environment of the children (default: process.env); XR_LOADER_DEBUG is removed from it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How many children at once (default: the number of CPUs, at most 4). */
  readonly concurrency?: number;
}

/** How to start the child: the compiled .js with plain node, or the .ts source through tsx. */
export function probeChildCommand(moduleUrl: string = import.meta.url): { command: string; args: string[] } {
  const fromSource = moduleUrl.endsWith('.ts');
  const childUrl = new URL(fromSource ? './probe-child.ts' : './probe-child.js', moduleUrl);
  const childPath = fileURLToPath(childUrl);
  if (!fromSource) return { command: process.execPath, args: [childPath] };
  // tsx resolved from here, so the child works whatever its working directory.
  const tsx = createRequire(moduleUrl).resolve('tsx');
  return { command: process.execPath, args: ['--import', pathToFileURL(tsx).href, childPath] };
}

function childEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    // The loader's debug output is not wanted in the protocol; NODE_OPTIONS from a test runner
    // must not load anything into the child either.
    if (v === undefined || k === 'XR_LOADER_DEBUG' || k === 'NODE_OPTIONS') continue;
    out[k] = v;
  }
  return out;
}

const MAX_CAPTURE = 64 * 1024;

function append(buf: string, chunk: string): string {
  if (buf.length >= MAX_CAPTURE) return buf;
  const next = buf + chunk;
  return next.length > MAX_CAPTURE ? next.slice(0, MAX_CAPTURE) + '\n[output truncated]' : next;
}

/** Runs one probe in a child process. Never rejects. */
export function runProbe<R = NativeOpenXrProbeResult>(job: ProbeJob, options: RunProbesOptions = {}): Promise<ProbeOutcome<R>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const { command, args } = probeChildCommand();
  return new Promise<ProbeOutcome<R>>((resolve) => {
    let stdout = '';
    let stderr = '';
    let started: number | undefined;
    let timedOut: 'probe' | 'startup' | undefined;
    let settled = false;
    const spawnedAt = Date.now();
    const finish = (outcome: ProbeOutcome<R>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const child = spawn(command, [...args, JSON.stringify(job)], {
      env: childEnv(options.env ?? process.env),
      // Library paths arrive absolute (or bare, for the system search); a crashing library's core
      // file, where the system writes one, lands in the temporary folder, not in the user's project.
      cwd: os.tmpdir(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const kill = (which: 'probe' | 'startup'): void => {
      timedOut = which;
      child.kill('SIGKILL');
    };
    let timer = setTimeout(() => kill('startup'), PROBE_STARTUP_LIMIT_MS);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout = append(stdout, chunk);
      if (started === undefined && stdout.includes('{"klProbe":"start"}')) {
        started = Date.now();
        clearTimeout(timer);
        timer = setTimeout(() => kill('probe'), timeoutMs);
      }
    });
    child.stderr.on('data', (chunk: string) => {
      stderr = append(stderr, chunk);
    });
    child.on('error', (err) => {
      finish({ kind: 'spawn-failed', message: err.message, output: stderr, durationMs: 0 });
    });
    child.on('close', (code, signal) => {
      const durationMs = Date.now() - (started ?? spawnedAt);
      const parsed = parseProbeOutput(stdout);
      const output = [stderr.trimEnd(), ...parsed.noise, ...parsed.malformed].filter((s) => s !== '').join('\n');
      const base = { output, durationMs };
      const answer = parsed.lines.find((l) => l.klProbe === 'answer');
      const error = parsed.lines.find((l) => l.klProbe === 'error');
      if (answer && answer.klProbe === 'answer') {
        const afterwards = signal ? `the probe process then ended with ${signal}` : code ? `the probe process then exited with code ${code}` : undefined;
        finish({
          kind: 'answered',
          // The job's target decides which native probe answered.
          result: answer.result as R,
          log: answer.log.map((r) => `${r.level}: ${r.message}`),
          ...base,
          ...(afterwards ? { afterwards } : {}),
        });
      } else if (timedOut === 'probe') finish({ kind: 'timeout', timeoutMs, ...base });
      else if (timedOut === 'startup') finish({ kind: 'startup-timeout', timeoutMs: PROBE_STARTUP_LIMIT_MS, ...base });
      else if (signal) finish({ kind: 'signal', signal, ...base });
      else finish({ kind: 'exited', exitCode: code ?? -1, ...(error && error.klProbe === 'error' ? { message: error.message } : {}), ...base });
    });
  });
}

/** Runs every job, a few children at a time; results in the jobs' order. Never rejects. */
export async function runProbes<R = NativeOpenXrProbeResult>(jobs: readonly ProbeJob[], options: RunProbesOptions = {}): Promise<ProbeOutcome<R>[]> {
  const concurrency = Math.max(1, options.concurrency ?? Math.min(4, os.availableParallelism()));
  const results: ProbeOutcome<R>[] = new Array<ProbeOutcome<R>>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i];
      if (job !== undefined) results[i] = await runProbe<R>(job, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, () => worker()));
  return results;
}
