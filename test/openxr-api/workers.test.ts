// NODE-5: frame loops in worker threads while the main thread runs its own, each with its own
// loader and instance; two instances at once in one thread.
import { describe, expect, it } from 'vitest';
import { runFrameLoop } from '../../lib/openxr/api/frame-loop.js';
import { tsWorker } from './fixtures/ts-worker.js';
import { createTestInstance } from './helpers.js';
import { threadSanitizerCount } from '../helpers/sanitizer-env.js';

/** Frames each loop runs: 60, or 20 under ThreadSanitizer (the same three loops at once). */
const FRAMES = threadSanitizerCount(60, 20);

interface WorkerResult {
  rendered: number;
  missed: number;
  flags: number;
  head: number[];
  time: number;
}

const ORIENTATION_AND_POSITION_VALID = 0x1 | 0x2;

function runWorker(frames: number): Promise<WorkerResult> {
  const worker = tsWorker(new URL('./fixtures/worker-loop.ts', import.meta.url), { workerData: { frames } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`worker exited with ${code}`)));
  });
}

describe('worker_threads and several instances', () => {
  it('NODE-5: two workers and the main thread each run a frame loop through their own loader at once', async () => {
    const main = createTestInstance({ passthroughLayers: 1 });
    try {
      const session = main.instance.createSession(main.instance.getSystem(), { headless: true });
      const local = session.createReferenceSpace('local');
      const view = session.createReferenceSpace('view');
      const head = new Float32Array(7);
      let rendered = 0;
      const controller = new AbortController();
      const [a, b, stats] = await Promise.all([
        runWorker(FRAMES),
        runWorker(FRAMES),
        runFrameLoop(session, {
          signal: controller.signal,
          onFrame(frame) {
            view.locate(local, frame.predictedDisplayTime, head);
            if (++rendered >= FRAMES) controller.abort();
          },
        }),
      ]);
      for (const r of [a, b]) {
        expect(r.rendered).toBeGreaterThanOrEqual(FRAMES);
        // The worker's locate reached the runtime: valid flags, a unit quaternion (the array
        // started as zeros; the pose is [px, py, pz, qx, qy, qz, qw]), and the simulated head pose at that time, as this thread's own
        // instance locates it (the scripted motion is a function of time).
        expect(r.flags & ORIENTATION_AND_POSITION_VALID).toBe(ORIENTATION_AND_POSITION_VALID);
        expect(Math.hypot(r.head[3]!, r.head[4]!, r.head[5]!, r.head[6]!)).toBeCloseTo(1, 5);
        const here = new Float32Array(7);
        view.locate(local, r.time, here);
        expect(r.head).toEqual([...here]);
      }
      expect(stats.rendered).toBeGreaterThanOrEqual(FRAMES);
    } finally {
      main.dispose();
    }
  });

  it('NODE-5: two instances in one thread, each with a session: their handles never cross', async () => {
    const one = createTestInstance({ passthroughLayers: 1 });
    const two = createTestInstance();
    try {
      const s1 = one.instance.createSession(one.instance.getSystem(), { headless: true });
      const s2 = two.instance.createSession(two.instance.getSystem(), { headless: true });
      const seen1: string[] = [];
      const seen2: string[] = [];
      s1.on('stateChanged', (s) => seen1.push(s));
      s2.on('stateChanged', (s) => seen2.push(s));
      one.instance.pollEvents();
      two.instance.pollEvents();
      expect(seen1).toEqual(['idle', 'ready']);
      expect(seen2).toEqual(['idle', 'ready']);
      s1.beginSession();
      s2.beginSession();
      const l1 = s1.createReferenceSpace('local');
      const l2 = s2.createReferenceSpace('local');
      const [f1, f2] = await Promise.all([s1.waitFrame(), s2.waitFrame()]);
      s1.beginFrame();
      s2.beginFrame();
      expect(l1.locate(l1, f1.predictedDisplayTime, new Float32Array(7))).toBeGreaterThan(0);
      // A space of the other instance's session is refused, not dispatched to the wrong chain.
      expect(() => l1.locate(l2, f1.predictedDisplayTime, new Float32Array(7))).toThrow(/another session/);
      s1.endFrame();
      s2.endFrame();
      one.instance.destroy();
      expect(s1.isDestroyed).toBe(true);
      expect(s2.isDestroyed).toBe(false);
      expect(f2.shouldRender).toBe(false);
      const next = await s2.waitFrame();
      expect(next.predictedDisplayTime).toBeGreaterThan(0);
      s2.beginFrame();
      s2.endFrame();
    } finally {
      one.dispose();
      two.dispose();
    }
  });
});
