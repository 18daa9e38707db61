// checkRuntimes(): the doctor's machinery over every listed OpenXR runtime, not only the active
// one. Each runtime's library is checked on disk, then loaded and negotiated in a child process of
// its own (run-probes.ts), where an instance is also created on it for its own name and version;
// the answer is read by the doctor's own rules (probe-problems.ts). Never throws for anything a
// manifest or a library does.
import type { ListedRuntime } from '../../../openxr/discovery/runtime-list.js';
import { reportComponent } from './probe-problems.js';
import type { ProbeJob } from '../protocol.js';
import { verdict } from '../report.js';
import type { ComponentReport } from './report.js';
import { DEFAULT_PROBE_TIMEOUT_MS, runProbes } from '../run-probes.js';
import { diagnosticProblem, type ComponentDraft } from './static-checks.js';
import { loadablePath, withLibraryChecks } from '../static-checks.js';

export interface CheckRuntimesOptions {
  /** Per runtime, from the moment the child starts loading it (default 5000 ms). */
  readonly timeoutMs?: number;
  /** The environment of the probe processes (default process.env): runtimes read their settings from it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The Node process.arch the libraries must match (default: this process's). */
  readonly nodeArch?: string;
  /** How many probe processes at once (default: CPUs, at most 4). */
  readonly concurrency?: number;
}

export interface RuntimeCheckReport {
  /** One per listed runtime, in the list's order; `inForce` is `active`. */
  readonly components: readonly ComponentReport[];
  readonly timeoutMs: number;
  /** true when the active runtime is broken. */
  readonly broken: boolean;
  readonly exitCode: 0 | 1;
}

function draftOf(r: ListedRuntime, nodeArch: string): ComponentDraft {
  const problems = r.problems.map(diagnosticProblem);
  const base = { kind: 'runtime' as const, name: r.name, manifestPath: r.manifestPath, inForce: r.active, inForceReason: r.activeReason, problems };
  if (r.libraryPath === null || r.libraryPathKind === null || r.negotiateFunctionName === null) {
    return { ...base, probe: { skip: 'the manifest cannot be used' } };
  }
  const libraryPath = loadablePath(r.libraryPath, r.libraryPathKind);
  const job: ProbeJob = { target: 'runtime', name: r.name, libraryPath, negotiateFunctionName: r.negotiateFunctionName, manifestPath: r.manifestPath, createInstance: true };
  return { ...base, libraryPath, probe: withLibraryChecks(problems, libraryPath, r.libraryPathKind, r.manifestPath, 'runtime.library_path', job, nodeArch) };
}

export async function checkRuntimes(runtimes: readonly ListedRuntime[], options: CheckRuntimesOptions = {}): Promise<RuntimeCheckReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const drafts = runtimes.map((r) => draftOf(r, options.nodeArch ?? process.arch));
  const jobs = drafts.flatMap((d, index) => ('job' in d.probe ? [{ index, job: d.probe.job }] : []));
  const outcomes = await runProbes(
    jobs.map((j) => j.job),
    { timeoutMs, ...(options.env ? { env: options.env } : {}), ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}) },
  );
  const outcomeOf = new Map(jobs.map((j, k) => [j.index, outcomes[k]]));
  const components = drafts.map((d, index) => reportComponent(d, outcomeOf.get(index)));
  return { components, timeoutMs, ...verdict(components) };
}
