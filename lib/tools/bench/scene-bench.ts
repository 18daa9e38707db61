// The XR scene benchmark (`bench openxr --command scene`; docs/performance.md, 'The XR scene:
// frames and the young generation'): runs examples/xr-scene.ts for a while at the runtime's rate
// and measures, beside the frames drawn and missed and the JavaScript thread's time per frame,
// what the whole frame (the frame loop's calls and the scene's locate, record, submit and
// swapchain calls) allocates in V8's young generation. A probe at the start of every frame reads
// the new space's used bytes; the growth from one frame's probe to the next is what that frame
// allocated when no scavenge ran in between (a scavenge shows as the used bytes falling, and that
// interval is left out). The probe allocates too (the heap-space statistics it reads are objects):
// its own bytes, measured back to back before the run, are taken off.
import { cpus, loadavg } from 'node:os';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { sceneModulePath, type SceneModule } from '../cli/demo-scene.js';

export interface SceneBenchResult {
  readonly runtime: string;
  readonly seconds: number;
  readonly multiview: boolean;
  readonly frames: number;
  readonly framesDrawn: number;
  readonly missed: number;
  /** Mean ms of the JavaScript thread in the scene's render() per frame drawn. */
  readonly jsMsPerFrame: number;
  /** Young-generation bytes a frame allocates (mean over the frames with no scavenge in between, the probe's own taken off). */
  readonly youngBytesPerFrame: number;
  /** The largest single frame's young-generation bytes (the probe's taken off). */
  readonly youngBytesMaxFrame: number;
  /** Frame intervals measured (those with no scavenge). */
  readonly intervalsMeasured: number;
  /** The probe's own bytes per call, measured back to back. */
  readonly probeBytes: number;
  /** Scavenges (minor garbage collections) during the run. */
  readonly scavenges: number;
  /** Scavenges per 1,000 frames drawn. */
  readonly scavengesPer1000Frames: number;
  /**
   * The target "young generation flat per frame": at most YOUNG_FLAT_BYTES a frame (mean, the
   * probe's own taken off), and whether this run met it.
   */
  readonly youngTarget: { readonly boundBytesPerFrame: number; readonly met: boolean };
  /** This machine: CPUs and the 1-minute load average before and after the run (other work on it shows here). */
  readonly machine: { readonly cpus: number; readonly loadBefore: number; readonly loadAfter: number };
}

function newSpaceUsed(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_used_size;
  return 0;
}

/** The probe's own young-generation bytes per call: the median growth of back-to-back calls. */
function probeCost(): number {
  const deltas: number[] = [];
  let previous = newSpaceUsed();
  for (let i = 0; i < 2001; i++) {
    const now = newSpaceUsed();
    if (now >= previous) deltas.push(now - previous);
    previous = now;
  }
  deltas.sort((a, b) => a - b);
  return deltas[Math.floor(deltas.length / 2)] ?? 0;
}

/**
 * What "flat" means here: a frame's mean young-generation bytes, the probe's own taken off, at most
 * this (the probe's own cost varies by a few tens of bytes from call to call).
 */
export const YOUNG_FLAT_BYTES = 64;

export async function runSceneBench(options: { readonly seconds: number; readonly runtime: string }, log: (line: string) => void): Promise<SceneBenchResult> {
  process.env.XR_RUNTIME_JSON = options.runtime;
  const scene = (await import(pathToFileURL(sceneModulePath()).href)) as SceneModule;
  const probeBytes = probeCost();
  let scavenges = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (((entry as { detail?: { kind?: number } }).detail)?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
  });
  observer.observe({ entryTypes: ['gc'] });
  // Made before the run: the probe writes into these and allocates nothing else.
  const grown = new Float64Array(Math.ceil(options.seconds * 200) + 1000);
  let measured = 0;
  let previous = -1;
  const beforeFrame = (): void => {
    const now = newSpaceUsed();
    if (previous >= 0 && now >= previous && measured < grown.length) grown[measured++] = now - previous;
    previous = now;
  };
  const loadBefore = loadavg()[0] as number;
  const r = await scene.runXrScene(options.seconds, log, { beforeFrame });
  const loadAfter = loadavg()[0] as number;
  await new Promise((resolve) => setImmediate(resolve)); // let the observer report
  observer.disconnect();
  let sum = 0;
  let max = 0;
  for (let i = 0; i < measured; i++) {
    sum += grown[i] as number;
    max = Math.max(max, grown[i] as number);
  }
  const s = r.stats;
  const youngBytesPerFrame = measured === 0 ? 0 : sum / measured - probeBytes;
  return {
    runtime: options.runtime,
    seconds: options.seconds,
    multiview: r.multiview,
    frames: r.frames,
    framesDrawn: s.framesDrawn,
    missed: r.missed,
    jsMsPerFrame: s.framesDrawn === 0 ? 0 : s.renderMs / s.framesDrawn,
    youngBytesPerFrame,
    youngBytesMaxFrame: Math.max(0, max - probeBytes),
    intervalsMeasured: measured,
    probeBytes,
    scavenges,
    scavengesPer1000Frames: s.framesDrawn === 0 ? 0 : (1000 * scavenges) / s.framesDrawn,
    youngTarget: { boundBytesPerFrame: YOUNG_FLAT_BYTES, met: measured > 0 && youngBytesPerFrame <= YOUNG_FLAT_BYTES },
    machine: { cpus: cpus().length, loadBefore, loadAfter },
  };
}

export function formatSceneBench(r: SceneBenchResult): string {
  return [
    `The XR scene (examples/xr-scene.ts, ${r.multiview ? 'both eyes in one pass (multiview)' : 'one pass per eye'}) for ${r.seconds} s on ${r.runtime}`,
    '',
    '| frames | drawn | missed | JavaScript per frame | young generation per frame (mean / largest) | scavenges | scavenges per 1,000 frames |',
    '| --: | --: | --: | --: | --: | --: | --: |',
    `| ${r.frames} | ${r.framesDrawn} | ${r.missed} | ${r.jsMsPerFrame.toFixed(3)} ms | ${Math.round(r.youngBytesPerFrame)} B / ${Math.round(r.youngBytesMaxFrame)} B over ${r.intervalsMeasured} frames | ${r.scavenges} | ${r.scavengesPer1000Frames.toFixed(2)} |`,
    '',
    `Young generation flat (at most ${r.youngTarget.boundBytesPerFrame} B a frame): ${r.youngTarget.met ? 'met' : 'not met'}.`,
    `The probe's own ${r.probeBytes} B per frame are taken off. Machine: ${r.machine.cpus} CPUs, load average ${r.machine.loadBefore.toFixed(1)} before and ${r.machine.loadAfter.toFixed(1)} after the run.`,
  ].join('\n');
}
