// Times calls made from JavaScript: space.locate through the typed API (a bound native locator,
// one N-API call per locate), and the cheapest N-API call as the yardstick. The loop is the same
// for both (and for koffi): process.hrtime.bigint() around `iterations` calls.
import type { Instance } from '../../openxr/api/instance.js';
import { loadToolsAddon } from '../native/addon.js';
import { POSE_FLOATS } from '../../openxr/api/types.js';
import { summarize, type Summary } from './stats.js';
import { warmupIterations, type MeasurePlan } from './measure-native.js';

/** ns per call of `call(i)`: a warm-up run, then one sample per repeat. */
export function timeJsLoop(plan: MeasurePlan, call: (i: number) => unknown): Summary {
  const run = (n: number): number => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) call(i);
    return Number(process.hrtime.bigint() - start) / n;
  };
  run(warmupIterations(plan));
  const samples: number[] = [];
  for (let r = 0; r < plan.repeats; r++) samples.push(run(plan.iterations));
  return summarize(samples);
}

/**
 * space.locate(base, time, out) from JavaScript on a headless session of `instance` (VIEW in
 * LOCAL, as the native loop). The session is destroyed afterwards (one session per instance).
 */
export function measureJsLocateSpace(instance: Instance, time: number, plan: MeasurePlan): Summary {
  const session = instance.createSession(instance.getSystem(), { headless: true });
  try {
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const out = new Float32Array(POSE_FLOATS);
    return timeJsLoop(plan, (i) => view.locate(local, time + i, out));
  } finally {
    session.destroy();
  }
}

/** The cheapest N-API call taking two numbers (the addon's benchEmpty). */
export function measureEmptyNapiCall(plan: MeasurePlan): Summary {
  const api = loadToolsAddon();
  return timeJsLoop(plan, (i) => api.benchEmpty(i, 1));
}
