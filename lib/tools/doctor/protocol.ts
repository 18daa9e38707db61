// The protocol between the doctor and its probe child (probe-child.ts): one job in (argv), one
// JSON line out on stdout. Anything else the library prints to stdout is not the answer; the
// answer is recognised by its `klProbe` field.
import type { NativeOpenXrProbeResult, NativeVulkanProbeResult } from '../native/addon.js';
import type { LogRecord } from '../../core/log.js';

export interface ProbeJob {
  readonly target: 'runtime' | 'api-layer' | 'vulkan-driver' | 'vulkan-layer';
  /** The layer name (given to its negotiate function); for a runtime, used in messages only. */
  readonly name: string;
  /** As the loader would open it: absolute, or a bare name for the system library search. */
  readonly libraryPath: string;
  readonly negotiateFunctionName: string;
  readonly manifestPath: string;
  /** Vulkan layers of interface 0/1: the manifest's names for vkGetInstanceProcAddr / vkGetDeviceProcAddr. */
  readonly getInstanceProcAddrName?: string;
  readonly getDeviceProcAddrName?: string;
  /** Runtimes: also create an instance on it (no layers) for its XrInstanceProperties. */
  readonly createInstance?: boolean;
}

/** Printed right before the library is loaded: the parent's timeout runs from here. */
export interface ProbeStartLine {
  readonly klProbe: 'start';
}

export interface ProbeAnswerLine {
  readonly klProbe: 'answer';
  readonly result: NativeOpenXrProbeResult | NativeVulkanProbeResult;
  /** The loader's log records of the probe (negotiation reasons and successes). */
  readonly log: readonly Pick<LogRecord, 'level' | 'source' | 'message'>[];
}

/** The child could not run the probe (the addon failed to load, a bad job). */
export interface ProbeErrorLine {
  readonly klProbe: 'error';
  readonly message: string;
}

export type ProbeLine = ProbeStartLine | ProbeAnswerLine | ProbeErrorLine;

export const PROBE_LINE_MARKER = '{"klProbe":';

/** Finds protocol lines in a chunk of stdout; other text (a library's own prints) is returned as noise. */
export function parseProbeOutput(stdout: string): { lines: ProbeLine[]; noise: string[]; malformed: string[] } {
  const lines: ProbeLine[] = [];
  const noise: string[] = [];
  const malformed: string[] = [];
  for (const raw of stdout.split('\n')) {
    if (raw === '') continue;
    const at = raw.indexOf(PROBE_LINE_MARKER);
    if (at === -1) {
      noise.push(raw);
      continue;
    }
    if (at > 0) noise.push(raw.slice(0, at));
    const text = raw.slice(at);
    try {
      const parsed = JSON.parse(text) as { klProbe?: unknown };
      if (parsed.klProbe === 'start' || parsed.klProbe === 'answer' || parsed.klProbe === 'error') lines.push(parsed as ProbeLine);
      else malformed.push(text);
    } catch {
      malformed.push(text);
    }
  }
  return { lines, noise, malformed };
}
