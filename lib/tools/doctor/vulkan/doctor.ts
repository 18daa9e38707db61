// doctorVulkan(): checks every Vulkan driver and layer manifest discovery found, then loads and
// negotiates each driver and each layer library in a child process of its own, and returns the
// report. Never throws for anything a manifest or a library does.
import { createHostPlatform } from '../../../core/platform/host.js';
import type { NativeVulkanProbeResult } from '../../native/addon.js';
import type { VulkanDiscoveryOptions } from '../../../vulkan/discovery/context.js';
import { discoverState } from '../../../vulkan/discovery/discover.js';
import { componentStatus, verdict } from '../report.js';
import { DEFAULT_PROBE_TIMEOUT_MS, runProbes, type ProbeOutcome } from '../run-probes.js';
import { vulkanProbeProblems } from './probe-problems.js';
import type { VulkanComponentReport, VulkanDoctorReport } from './report.js';
import { vulkanStaticChecks } from './static-checks.js';

export interface VulkanDoctorOptions extends Omit<VulkanDiscoveryOptions, 'platform'> {
  /** The environment discovery reads and the probe processes run with (default: process.env). */
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

export async function doctorVulkan(options: VulkanDoctorOptions = {}): Promise<VulkanDoctorReport> {
  const env = options.env ?? process.env;
  const platform = createHostPlatform({ env, ...(options.elevated !== undefined ? { elevated: options.elevated } : {}) });
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const { env: _env, elevated: _elevated, timeoutMs: _t, concurrency, nodeArch, ...discoveryOptions } = options;
  const state = discoverState(platform, discoveryOptions);
  const checked = vulkanStaticChecks(state, nodeArch ?? process.arch);

  const jobs = checked.components.flatMap((c, i) => ('job' in c.probe ? [{ index: i, job: c.probe.job }] : []));
  const outcomes = await runProbes<NativeVulkanProbeResult>(
    jobs.map((j) => j.job),
    { timeoutMs, env, ...(concurrency !== undefined ? { concurrency } : {}) },
  );
  const byComponent = new Map<number, ProbeOutcome<NativeVulkanProbeResult>>();
  jobs.forEach((j, k) => {
    const o = outcomes[k];
    if (o !== undefined) byComponent.set(j.index, o);
  });

  const components: VulkanComponentReport[] = checked.components.map((c, i) => {
    const outcome = byComponent.get(i);
    const problems = [...c.problems];
    let negotiated: VulkanComponentReport['negotiated'];
    if (outcome) {
      const p = vulkanProbeProblems(c, outcome);
      problems.push(...p.problems);
      negotiated = p.negotiated;
    }
    const { probe: _draftProbe, ...rest } = c;
    return {
      ...rest,
      problems,
      status: componentStatus(problems),
      ...(negotiated ? { negotiated } : {}),
      probe: outcome ? { ran: true as const, durationMs: outcome.durationMs, stderr: outcome.output } : { ran: false as const, reason: 'skip' in c.probe ? c.probe.skip : 'not probed' },
    };
  });

  return { api: 'vulkan', platform: state.result.platform, components, general: checked.general, timeoutMs, ...verdict(components) };
}
