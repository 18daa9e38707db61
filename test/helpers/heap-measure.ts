// For child processes run with --expose-gc: heapUsed growth across `run` with no garbage
// collection in between (a gc observer proves none ran: `collectionsDuringRun`), so every byte
// allocated counts, garbage or not (`allocated`), and the growth after full collections (`retained`).
import { PerformanceObserver } from 'node:perf_hooks';

export interface HeapMeasurement {
  readonly allocated: number;
  readonly retained: number;
  readonly collectionsDuringRun: number;
}

export async function measureHeap(run: () => void): Promise<HeapMeasurement> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  observer.observe({ entryTypes: ['gc'] });
  run();
  const afterRun = process.memoryUsage().heapUsed;
  await new Promise((resolve) => setImmediate(resolve)); // let the observer report
  observer.disconnect();
  gc();
  gc();
  return { allocated: afterRun - before, retained: process.memoryUsage().heapUsed - before, collectionsDuringRun: collections };
}
