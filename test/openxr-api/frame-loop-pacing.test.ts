// The frame loop against a runtime whose xrWaitFrame does not block: the simulated runtime with
// SIMXR_WAIT_FRAME_BLOCKS=0 returns at once with display times a period apart each call. Without a
// timer the loop would run tens of thousands of frames a second.
import { afterEach, describe, expect, it } from 'vitest';
import { runFrameLoop } from '../../lib/openxr/api/frame-loop.js';
import { createTestInstance, type TestInstance } from './helpers.js';
import { UnavailableError } from '../../lib/core/errors.js';

const saved = { blocks: process.env.SIMXR_WAIT_FRAME_BLOCKS, hz: process.env.SIMXR_DISPLAY_HZ, times: process.env.SIMXR_WAIT_FRAME_TIMES };

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

describe('frame loop pacing', () => {
  let t: TestInstance | undefined;
  afterEach(() => {
    t?.dispose();
    t = undefined;
    restore('SIMXR_WAIT_FRAME_BLOCKS', saved.blocks);
    restore('SIMXR_DISPLAY_HZ', saved.hz);
    restore('SIMXR_WAIT_FRAME_TIMES', saved.times);
  });

  it('NODE-4: without display times (predictedDisplayTime 0, no XR_KHR_convert_timespec_time) runFrameLoop throws before the first onFrame, naming the extension', async () => {
    // The simulated runtime answering as a headless runtime without a compositor; it offers no clock conversion.
    process.env.SIMXR_WAIT_FRAME_TIMES = '0';
    t = createTestInstance();
    expect(t.instance.enabledExtensionNames).toEqual(['XR_MND_headless']);
    const session = t.instance.createSession(t.instance.getSystem(), { headless: true });
    const times: bigint[] = [];
    const error = await runFrameLoop(session, { durationMs: 300, onFrame: (frame) => void times.push(frame.predictedDisplayTime) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).code).toBe('KL_UNAVAILABLE');
    expect((error as Error).message).toMatch(/XR_KHR_convert_timespec_time/);
    expect(times).toEqual([]);
  });

  it('NODE-4: a runtime whose xrWaitFrame returns at once is paced by a timer at its predicted period, never spins', async () => {
    process.env.SIMXR_WAIT_FRAME_BLOCKS = '0';
    process.env.SIMXR_DISPLAY_HZ = '50';
    t = createTestInstance();
    const session = t.instance.createSession(t.instance.getSystem(), { headless: true });
    const times: bigint[] = [];
    const stats = await runFrameLoop(session, { durationMs: 600, onFrame: (frame) => void times.push(frame.predictedDisplayTime) });
    expect(stats.mode?.pacing).toBe('timer');
    expect(stats.mode?.frameTimes).toBe('wait-frame');
    expect(stats.mode?.displayRateHz).toBeCloseTo(50, 3);
    expect(stats.displayPeriod).toBe(20_000_000);
    // At most one frame per period of the elapsed time, beside the first few the loop runs before
    // it sees that the waits do not block (three in a row) and the frame that started it; a
    // spinning loop runs thousands (21,398 in 600 ms when the timer was left out).
    expect(stats.frames).toBeGreaterThan(3);
    expect(stats.frames).toBeLessThanOrEqual((50 * stats.elapsedMs) / 1000 + 2 + 4);
    // The runtime's own display times, a whole number of periods apart and increasing.
    expect(times.length).toBe(stats.rendered);
    for (let i = 1; i < times.length; i++) {
      const gap = times[i]! - times[i - 1]!;
      expect(gap > 0n && gap % 20_000_000n === 0n).toBe(true);
    }
  });

  it('NODE-4: a runtime whose xrWaitFrame blocks keeps pacing the loop itself', async () => {
    process.env.SIMXR_DISPLAY_HZ = '50';
    t = createTestInstance();
    const session = t.instance.createSession(t.instance.getSystem(), { headless: true });
    const stats = await runFrameLoop(session, { durationMs: 300, onFrame: () => undefined });
    expect(stats.mode?.pacing).toBe('runtime');
    expect(stats.frames).toBeGreaterThan(3);
    expect(stats.frames).toBeLessThanOrEqual((50 * stats.elapsedMs) / 1000 + 2);
  });
});
