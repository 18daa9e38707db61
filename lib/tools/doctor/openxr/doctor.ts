// doctor(): checks every OpenXR manifest found, then loads and negotiates the runtime and each
// API layer in a child process of its own, and returns the report. Never throws for anything a
// manifest or a library does.
import { createContext, type DiscoveryOptions } from '../../../openxr/discovery/context.js';
import { discoverWith } from '../../../openxr/discovery/discover.js';
import { createHostPlatform } from '../../../core/platform/host.js';
import type { Platform } from '../../../core/platform/platform.js';
import { reportComponent } from './probe-problems.js';
import { verdict } from '../report.js';
import type { ComponentReport, DoctorReport } from './report.js';
import { DEFAULT_PROBE_TIMEOUT_MS, runProbes, type ProbeOutcome } from '../run-probes.js';
import { staticChecks } from './static-checks.js';

export interface DoctorOptions extends Omit<DiscoveryOptions, 'platform'> {
  /**
   * The environment discovery reads and the probe processes run with (default: process.env).
   * The doctor loads the libraries it finds, so it always runs on the real file system.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Force the elevation answer (tests); default: as the process runs. */
  elevated?: boolean;
  /** Per library, from the moment the child starts loading it (default 5000 ms). */
  timeoutMs?: number;
  /** How many probe processes at once (default: CPUs, at most 4). */
  concurrency?: number;
  /** The Node process.arch the libraries must match (default: this process's). */
  nodeArch?: string;
}

export async function doctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const platform: Platform = createHostPlatform({ env, ...(options.elevated !== undefined ? { elevated: options.elevated } : {}) });
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const discovery = discoverWith(createContext(platform, options));
  const checked = staticChecks(discovery, platform, options.nodeArch ?? process.arch);

  const jobs = checked.components.flatMap((c, i) => ('job' in c.probe ? [{ index: i, job: c.probe.job }] : []));
  const outcomes = await runProbes(
    jobs.map((j) => j.job),
    { timeoutMs, env, ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}) },
  );
  const byComponent = new Map<number, ProbeOutcome>();
  jobs.forEach((j, k) => {
    const o = outcomes[k];
    if (o !== undefined) byComponent.set(j.index, o);
  });

  const components: ComponentReport[] = checked.components.map((c, i) => reportComponent(c, byComponent.get(i)));

  return {
    api: 'openxr',
    platform: discovery.platform,
    components,
    general: checked.general,
    timeoutMs,
    ...verdict(components),
  };
}
