// CI's shortened soak (docs/performance.md, 'Soak'): bench/soak.ts (npm run soak) at a fraction of its size —
// 1,000 instance cycles through two pass-through layers, 1,000 session + space cycles, a 20 s
// 90 Hz frame loop, 2 workers × 50 rounds at once — with its samples written as JSON. What must
// hold at any length: every phase ends with the file descriptors and shared objects it began with,
// the JavaScript heap does not grow with the cycles, memory still held after malloc_trim(0) stays
// within a few MiB, and the frame loop keeps pace. The full run's numbers are in bench/RESULTS.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

interface Sample {
  at: number;
  rss: number;
  fds: number;
  maps: number;
  heap: number;
}
interface Phase {
  name: string;
  first: Sample;
  last: Sample;
  rssSlope: number;
  heapSlope: number;
  trimmed: { start: number; end: number };
  frames?: { total: number; missed: number; duringSamples: number };
}

const MiB = 2 ** 20;

describe('shortened soak (npm run soak at a fraction of its size)', () => {
  it('NODE-3: instance, session, frame-loop and worker phases end with the fds, shared objects and heap they began with; the loop keeps pace', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kl-soak-'));
    try {
      const json = path.join(dir, 'soak.json');
      execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/soak.ts'], {
        cwd: repoRoot,
        env: { ...process.env, KL_SOAK_WRITE: '0', KL_SOAK_JSON: json, KL_SOAK_SCALE: '0.1', KL_SOAK_FRAME_MINUTES: String(20 / 60), KL_SOAK_WORKERS: '2', KL_SOAK_ROUNDS: '50' },
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 240_000,
      });
      const phases = JSON.parse(readFileSync(json, 'utf8')) as Phase[];
      expect(phases.map((p) => p.name.split(' ')[0])).toEqual(['xrCreateInstance', 'xrCreateSession', '90', '2']);
      for (const p of phases) {
        process.stderr.write(
          `[soak] ${p.name}: fds ${p.first.fds} -> ${p.last.fds}, maps ${p.first.maps} -> ${p.last.maps}, heap ${(p.first.heap / MiB).toFixed(1)} -> ${(p.last.heap / MiB).toFixed(1)} MiB, trimmed RSS ${(p.trimmed.start / MiB).toFixed(1)} -> ${(p.trimmed.end / MiB).toFixed(1)} MiB${p.frames ? `, ${p.frames.total} frames, ${p.frames.missed} missed (${p.frames.duringSamples} across the soak's samples)` : ''}\n`,
        );
        // Descriptors and libraries: exactly what the phase began with (a leaked layer or runtime
        // library, an event fd of a thread never joined, shows here).
        expect(p.last.fds, p.name).toBe(p.first.fds);
        expect(p.last.maps, p.name).toBe(p.first.maps);
        // The heap after a gc: what a leaked handle object per cycle (100 bytes and more, 1,000
        // cycles) would add is 100 KB; the phase may move by V8's own bookkeeping, well under 1 MiB.
        expect(Math.abs(p.last.heap - p.first.heap), p.name).toBeLessThan(MiB);
        // Memory still held after malloc_trim(0): the full run measures 0.3 MiB per 1,000 instance
        // cycles; 8 MiB is room for a worker isolate's leftovers, not for a leak of a chain per cycle.
        expect(p.trimmed.end - p.trimmed.start, p.name).toBeLessThan(8 * MiB);
      }
      const loop = phases[2]!.frames!;
      expect(loop.total).toBeGreaterThan(20 * 90 * 0.9);
      // What the soak's loop shows is that it keeps pace, not the machine's scheduling: a loop that
      // falls behind (per-frame work over a period, pauses growing with a leak) misses far more than
      // 5 %. Scheduling noise alone is about 1 %: the full, quiet run misses 0.007 %, this 20 s
      // loop 0.3-0.6 % on an idle 2-core machine and 1.2 % in a CI run (22 of 1,779, none of them
      // next to the soak's own gc samples on the idle machine). The bound is 5 %, as in
      // frame-loop-30s.test.ts.
      expect(loop.missed / loop.total).toBeLessThan(0.05);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
