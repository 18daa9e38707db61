// npm run soak (docs/performance.md, 'Soak'): does the loader keep anything it should give back?
//  1. instance create/destroy cycles through two pass-through layers over the simulated runtime;
//  2. session + two reference spaces create/destroy cycles on one instance;
//  3. a 90 Hz frame loop (runFrameLoop) with a head locate per frame;
//  4. the concurrency test at full size: workers each creating and destroying instances and
//     running frames at once (test/openxr-api/fixtures/worker-rounds.ts).
// RSS, open file descriptors, mapped shared objects and the JavaScript heap are sampled (after a
// gc) through each phase; the slope is a least-squares fit over the second half of the samples
// (the first half is warm-up: caches, the allocator's arenas). Writes the "Soak" section of
// bench/RESULTS.md. KL_SOAK_SCALE (default 1) multiplies the cycle counts, KL_SOAK_FRAME_MINUTES
// (default 10) sets the frame loop's length, KL_SOAK_WORKERS / KL_SOAK_ROUNDS (8 / 1000) phase 4;
// KL_SOAK_WRITE=0 prints without writing; KL_SOAK_JSON=<file> also writes each phase's first and
// last sample, slopes and frame counts there (test/faults/soak-short.test.ts, CI's shortened run).
// Run with --expose-gc (npm run soak does).
// Each phase also reads RSS after glibc's malloc_trim(0) at its start and end: memory the program
// freed but malloc keeps in its arenas is given back then, so what remains is memory still held
// (bench/soak-rss-probe.ts takes the instance cycle apart the same way).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import koffi from 'koffi';
import os from 'node:os';
import path from 'node:path';
import { createLinuxPlatform } from '../lib/core/platform/linux.js';
import { createPassthroughLayers } from '../lib/openxr/bundled-layers.js';
import { createLoader } from '../lib/openxr/loader.js';
import { runFrameLoop } from '../lib/openxr/api/frame-loop.js';
import { simulatedRuntime } from '../lib/openxr/simulated-runtime.js';
import { packageRoot } from '../lib/core/native/load.js';
import { tsWorker } from '../test/openxr-api/fixtures/ts-worker.js';

const scale = Number(process.env.KL_SOAK_SCALE ?? 1);
const cycles = Math.max(20, Math.round(10_000 * scale));
const frameMinutes = Number(process.env.KL_SOAK_FRAME_MINUTES ?? 10);
const workers = Number(process.env.KL_SOAK_WORKERS ?? 8);
const rounds = Number(process.env.KL_SOAK_ROUNDS ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run soak does)');
const progress = (line: string) => process.stderr.write(`soak: ${line}\n`);

interface Sample {
  readonly at: number;
  readonly rss: number;
  readonly fds: number;
  readonly maps: number;
  readonly heap: number;
}

const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');

/** RSS once freed memory is given back by malloc_trim(0) (after a gc). */
function trimmedRss(): number {
  gc!();
  mallocTrim(0);
  return Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * 4096;
}

function sample(at: number): Sample {
  gc!();
  const pageSize = 4096;
  const rss = Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * pageSize;
  const objects = new Set<string>();
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    const file = line.split(/\s+/)[5];
    if (file && /\.so(\.|$)|\.node$/.test(file)) objects.add(file);
  }
  return { at, rss, fds: readdirSync('/proc/self/fd').length, maps: objects.size, heap: process.memoryUsage().heapUsed };
}

/** Least-squares slope of `value` over `at`, on the second half of the samples. */
function slope(samples: readonly Sample[], value: (s: Sample) => number): number {
  const tail = samples.slice(Math.floor(samples.length / 2));
  const n = tail.length;
  const mx = tail.reduce((a, s) => a + s.at, 0) / n;
  const my = tail.reduce((a, s) => a + value(s), 0) / n;
  let num = 0;
  let den = 0;
  for (const s of tail) {
    num += (s.at - mx) * (value(s) - my);
    den += (s.at - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

interface PhaseResult {
  readonly name: string;
  readonly count: string;
  readonly samples: readonly Sample[];
  readonly per: number;
  readonly perUnit: string;
  readonly extra?: string;
  /**
   * The frame loop's frames and missed frames; duringSamples: the periods missed across a frame
   * in which the soak itself took a sample (a full gc and a read of /proc/self/maps, milliseconds
   * on a busy machine, long enough to miss a period at 90 Hz).
   */
  readonly frames?: { readonly total: number; readonly missed: number; readonly duringSamples: number };
  /** RSS after malloc_trim(0) at the phase's start and end. */
  readonly trimmed: { readonly start: number; readonly end: number };
}

const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime() };

/** A turn of the event loop: N-API finalizers that Node defers to the loop run in it. */
const eventLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function cyclePhase(name: string, n: number, step: (i: number) => void | Promise<void>): Promise<{ samples: Sample[]; trimmed: PhaseResult['trimmed'] }> {
  await step(0); // the first cycle loads the addon and fills the caches: the baseline comes after it
  await eventLoopTurn();
  const trimmedStart = trimmedRss();
  const samples: Sample[] = [sample(0)];
  const every = Math.max(1, Math.floor(n / 40));
  const started = performance.now();
  for (let i = 1; i <= n; i++) {
    await step(i);
    // As an application between frames or requests: without a turn of the loop, the finalizers
    // of the handles each cycle drops pile up (about 1.8 KiB of native memory a cycle).
    if (i % 100 === 0) await eventLoopTurn();
    if (i % every === 0) samples.push(sample(i));
  }
  progress(`${name}: ${n} cycles in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await eventLoopTurn();
  return { samples, trimmed: { start: trimmedStart, end: trimmedRss() } };
}

async function instanceCycles(): Promise<PhaseResult> {
  const layers = createPassthroughLayers(2);
  try {
    const loader = createLoader({ platform: createLinuxPlatform({ env: { ...env, XR_API_LAYER_PATH: layers.folder } }) });
    const { samples, trimmed } = await cyclePhase('instances', cycles, () => {
      loader.createInstance({ applicationName: 'soak', enabledApiLayerNames: layers.names, enabledExtensionNames: ['XR_MND_headless'] }).destroy();
    });
    return { name: 'xrCreateInstance + xrDestroyInstance, 2 pass-through layers', count: `${cycles} cycles`, samples, trimmed, per: 1000, perUnit: '1,000 cycles' };
  } finally {
    layers.dispose();
  }
}

async function sessionCycles(): Promise<PhaseResult> {
  const loader = createLoader({ platform: createLinuxPlatform({ env: { ...env, XR_API_LAYER_PATH: '' } }) });
  const instance = loader.createInstance({ applicationName: 'soak', enabledExtensionNames: ['XR_MND_headless'] });
  try {
    const system = instance.getSystem();
    const { samples, trimmed } = await cyclePhase('sessions', cycles, () => {
      const session = instance.createSession(system, { headless: true });
      session.createReferenceSpace('local');
      session.createReferenceSpace('view');
      session.destroy();
      instance.pollEvents();
    });
    return { name: 'xrCreateSession + 2 × xrCreateReferenceSpace + xrDestroySession', count: `${cycles} cycles`, samples, trimmed, per: 1000, perUnit: '1,000 cycles' };
  } finally {
    instance.destroy();
  }
}

async function frameLoop(): Promise<PhaseResult> {
  const loader = createLoader({ platform: createLinuxPlatform({ env: { ...env, XR_API_LAYER_PATH: '' } }) });
  const instance = loader.createInstance({ applicationName: 'soak', enabledExtensionNames: ['XR_MND_headless'] });
  try {
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const head = new Float32Array(7);
    const durationMs = frameMinutes * 60_000;
    const trimmedStart = trimmedRss();
    const samples: Sample[] = [sample(0)];
    const started = performance.now();
    // Which misses the soak caused: a sample taken since the last frame marks the next gap.
    let sampledSinceFrame = false;
    let lastDisplayTime = 0n;
    let duringSamples = 0;
    const timer = setInterval(() => {
      samples.push(sample((performance.now() - started) / 1000));
      sampledSinceFrame = true;
    }, Math.max(1000, durationMs / 40));
    const stats = await runFrameLoop(session, {
      durationMs,
      onFrame(frame) {
        if (sampledSinceFrame && lastDisplayTime !== 0n && frame.predictedDisplayPeriod > 0) {
          duringSamples += Math.max(0, Math.round(Number(frame.predictedDisplayTime - lastDisplayTime) / frame.predictedDisplayPeriod) - 1);
        }
        sampledSinceFrame = false;
        lastDisplayTime = frame.predictedDisplayTime;
        view.locate(local, frame.predictedDisplayTime, head);
      },
    });
    clearInterval(timer);
    samples.push(sample((performance.now() - started) / 1000));
    const missedPct = (100 * stats.missed) / Math.max(1, stats.frames);
    const count = `${stats.frames} frames, ${stats.missed} missed (${missedPct.toFixed(3)} %; ${duringSamples} across the soak's own ${samples.length - 1} samples)`;
    progress(`frame loop: ${count}`);
    return {
      name: `90 Hz frame loop (runFrameLoop, a locate per frame), ${frameMinutes} min`,
      count,
      samples,
      trimmed: { start: trimmedStart, end: trimmedRss() },
      per: 60,
      perUnit: 'minute',
      frames: { total: stats.frames, missed: stats.missed, duringSamples },
    };
  } finally {
    instance.destroy();
  }
}

// `count` workers at once, each `n` rounds; settled when all have exited.
function runWorkers(count: number, n: number): Promise<{ rounds: number; frames: number; located: number }[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const worker = tsWorker(new URL('../test/openxr-api/fixtures/worker-rounds.ts', import.meta.url), { workerData: { rounds: n, frames: 3 } });
      // Settled when the worker has exited, not when it reports: a worker still tearing down holds
      // its event loop's descriptors, which the phase's end sample would count.
      return new Promise<{ rounds: number; frames: number; located: number }>((resolve, reject) => {
        let report: { rounds: number; frames: number; located: number } | undefined;
        worker.once('message', (m: { rounds: number; frames: number; located: number }) => (report = m));
        worker.once('error', reject);
        worker.once('exit', (code) => (code === 0 && report !== undefined ? resolve(report) : reject(new Error(`worker exited with ${code}${report === undefined ? ', no report' : ''}`))));
      });
    }),
  );
}

async function concurrency(): Promise<PhaseResult> {
  // A warm-up batch first, as the cycle phases warm up: the first worker threads leave what any
  // later ones reuse (glibc's per-thread arenas, the TypeScript loader's caches), up to 10.4 MiB of
  // trimmed RSS in CI with 2 workers; the phase measures what the batch at its size adds after that.
  await runWorkers(workers, Math.min(rounds, 5));
  await eventLoopTurn();
  const trimmedStart = trimmedRss();
  const samples: Sample[] = [sample(0)];
  const started = performance.now();
  const results = await runWorkers(workers, rounds);
  samples.push(sample(workers * rounds));
  const frames = results.reduce((a, r) => a + r.frames, 0);
  const located = results.reduce((a, r) => a + r.located, 0);
  progress(`concurrency: ${workers} × ${rounds} rounds in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (frames !== workers * rounds * 3 || located !== frames) throw new Error(`concurrency: ${frames} frames, ${located} located, expected ${workers * rounds * 3}`);
  await eventLoopTurn();
  const trimmed = { start: trimmedStart, end: trimmedRss() };
  return { name: `${workers} workers at once, each ${rounds} × (instance, session, 2 spaces, 3 frames, destroy)`, count: `${workers * rounds} rounds, ${frames} frames, all located`, samples, trimmed, per: 0, perUnit: '' };
}

function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

function row(p: PhaseResult): string {
  const first = p.samples[0]!;
  const last = p.samples[p.samples.length - 1]!;
  const flat = (v: (s: Sample) => number, unit: (x: number) => string) => (p.per === 0 ? '—' : `${unit(slope(p.samples, v) * p.per)} per ${p.perUnit}`);
  return [
    p.name,
    p.count,
    `${mib(first.rss)} → ${mib(last.rss)}`,
    flat((s) => s.rss, (x) => `${(x / 1024).toFixed(1)} KiB`),
    `${mib(first.heap)} → ${mib(last.heap)}`,
    flat((s) => s.heap, (x) => `${(x / 1024).toFixed(1)} KiB`),
    `${mib(p.trimmed.start)} → ${mib(p.trimmed.end)}`,
    `${first.fds} → ${last.fds}`,
    `${first.maps} → ${last.maps}`,
  ].join(' | ');
}

const phases: PhaseResult[] = [];
phases.push(await instanceCycles());
phases.push(await sessionCycles());
phases.push(await frameLoop());
phases.push(await concurrency());

const section = [
  '## Soak (`npm run soak`)',
  '',
  `\`npm run soak\` on ${os.cpus()[0]?.model ?? 'this machine'} (${os.cpus().length} cores, shared), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; the simulated runtime.`,
  'RSS and the JavaScript heap are sampled after a gc, 40 times a phase; the slope is a least-squares fit over the second half of the samples',
  '(the first half is warm-up). RSS trimmed: RSS after a gc and glibc malloc_trim(0) at the phase start and end (freed memory malloc keeps',
  'in its arenas is given back; what remains is held). The cycle phases give the event loop a turn every 100 cycles.',
  'fds: open file descriptors; maps: distinct shared objects mapped.',
  '',
  '| phase | done | RSS MiB | RSS slope | heap MiB | heap slope | RSS trimmed MiB | fds | maps |',
  '|---|---|---|---|---|---|---|---|---|',
  ...phases.map((p) => `| ${row(p)} |`),
  '',
].join('\n');
process.stdout.write(`${section}\n`);

if (process.env.KL_SOAK_JSON) {
  const json = phases.map((p) => ({
    name: p.name,
    first: p.samples[0],
    last: p.samples[p.samples.length - 1],
    rssSlope: slope(p.samples, (x) => x.rss),
    heapSlope: slope(p.samples, (x) => x.heap),
    trimmed: p.trimmed,
    frames: p.frames,
  }));
  writeFileSync(process.env.KL_SOAK_JSON, `${JSON.stringify(json, null, 2)}\n`);
}

if (process.env.KL_SOAK_WRITE !== '0') {
  const file = path.join(packageRoot, 'bench/RESULTS.md');
  const text = readFileSync(file, 'utf8');
  // The section's heading, whatever follows '## Soak' on its line (an older run's heading too).
  const start = text.search(/^## Soak\b/m);
  const next = start < 0 ? -1 : text.indexOf('\n## ', start + 1);
  const updated = start < 0 ? `${text.trimEnd()}\n\n${section}` : `${text.slice(0, start)}${section}${next < 0 ? '' : text.slice(next + 1)}`;
  writeFileSync(file, updated);
  progress('bench/RESULTS.md updated');
}
