// The demo's event-loop lag: read from Node's monitorEventLoopDelay() histogram as what exceeds
// its timer's interval, and "not measured" where the histogram does not record those intervals
// (Bun's and Deno's: docs/platforms.md, "Bun and Deno"; test/runtimes/bun-deno.test.ts runs the
// demo under both).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { eventLoopLag, formatDemo, type DemoResult, type LagHistogram } from '../../lib/tools/cli/demo.js';

/** A histogram answering these percentiles (ns), as the runtimes' IntervalHistogram does. */
function histogram(count: number, p50: number, p99: number, max: number): LagHistogram {
  return { count, max, percentile: (p) => (p <= 50 ? p50 : p99) };
}

const result: DemoResult = {
  runtimeName: 'khronos-loader simulated runtime (simxr)',
  apiLayers: ['XR_APILAYER_KHRONOSLOADER_passthrough_1'],
  coreValidation: 'off',
  passthroughLayers: 'on',
  runtimeManifest: '/pkg/build/Release/khronos_simxr.json',
  hz: 90,
  frameLoop: 'paced by xrWaitFrame',
  seconds: 1,
  frames: 90,
  rendered: 90,
  missed: 0,
  missedPercent: 0,
  lagP50Ms: null,
  lagP99Ms: null,
  lagMaxMs: null,
  nsPerCall: { beginFrame: 1000, locateViews: 1000, locate: 100, endFrame: 1000 },
  nsPerFrameCall: 775,
};

describe('RUNTIMES: the demo\'s event-loop lag', () => {
  it('RUNTIMES: Node\'s histogram (intervals of the 1 ms timer): the lag is what exceeds the interval', () => {
    const lag = eventLoopLag(histogram(834, 1_130_495, 3_262_463, 12_599_295));
    expect(lag?.p50Ms).toBeCloseTo(0.130495, 6);
    expect(lag?.p99Ms).toBeCloseTo(2.262463, 6);
    expect(lag?.maxMs).toBeCloseTo(11.599295, 6);
    // An interval shorter than the timer's (a late callback's next one) is no negative lag.
    expect(eventLoopLag(histogram(100, 990_000, 1_500_000, 2_000_000))?.p50Ms).toBe(0);
  });

  it('RUNTIMES: a histogram that recorded nothing, or whose median sample is under half the interval (Bun, Deno), is not measured', () => {
    expect(eventLoopLag(histogram(0, 0, 0, 0))).toBeNull();
    expect(eventLoopLag(histogram(1000, 2_445, 9_478, 459_077))).toBeNull(); // Deno 2.9, an idle second
    expect(eventLoopLag(histogram(808, 119_103, 3_715_071, 15_731_131))).toBeNull(); // Bun 1.4, an idle second
    expect(eventLoopLag(histogram(50, 600_000, 900_000, 1_000_000), 1)).not.toBeNull();
    expect(eventLoopLag(histogram(50, 600_000, 900_000, 1_000_000), 2)).toBeNull(); // a 2 ms timer
  });

  it('RUNTIMES: Node\'s own monitorEventLoopDelay() is measured', async () => {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const deadline = performance.now() + 10_000;
    while (h.count < 50 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    h.disable();
    expect(h.count).toBeGreaterThanOrEqual(50);
    expect(eventLoopLag(h)).not.toBeNull();
  });

  it('RUNTIMES: the demo prints "not measured" for an unmeasured lag, never 0.000 ms, and the figures otherwise', () => {
    const unmeasured = formatDemo(result);
    expect(unmeasured).toMatch(/event loop: +lag not measured: this runtime's monitorEventLoopDelay\(\) does not record its timer's intervals/);
    expect(unmeasured).not.toMatch(/0\.000 ms/);
    expect(formatDemo({ ...result, lagP50Ms: 0.13, lagP99Ms: 2.26, lagMaxMs: 11.6 })).toMatch(/event loop: +lag p50 0\.130 ms, p99 2\.260 ms, max 11\.600 ms \(waitFrame runs off the JavaScript thread\)/);
  });
});
