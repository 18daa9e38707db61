// For child processes run with --expose-gc: heapUsed growth across `run` with no garbage
// collection in between (a gc observer proves none ran: `collectionsDuringRun`), so every byte
// allocated counts, garbage or not (`allocated`), and the growth after full collections (`retained`).
// `youngAllocated` counts only the young generation, where JavaScript objects are born: what the
// code under test allocates, without the old-space and code-space growth of the JIT optimising it
// concurrently (which on a loaded machine lands in a measured round now and then, 100-200 KB).
// `retained` is read from the heap spaces right after the full collections, leaving out the code
// spaces: the JIT installing code it compiled concurrently is not the code under test keeping
// objects (heapUsed read there moved 45 KB → 150-240 KB in 1 run of 6).
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

export interface HeapMeasurement {
  readonly allocated: number;
  readonly youngAllocated: number;
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
  const retainedBefore = objectSpacesUsed();
  const before = process.memoryUsage().heapUsed;
  const youngBefore = youngUsed();
  observer.observe({ entryTypes: ['gc'] });
  run();
  const youngAfter = youngUsed();
  const afterRun = process.memoryUsage().heapUsed;
  await new Promise((resolve) => setImmediate(resolve)); // let the observer report
  observer.disconnect();
  gc();
  gc();
  const retained = objectSpacesUsed() - retainedBefore;
  return { allocated: afterRun - before, youngAllocated: youngAfter - youngBefore, retained, collectionsDuringRun: collections };
}

const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);
const CODE_SPACES = new Set(['code_space', 'code_large_object_space']);

/** Bytes used in the heap spaces `include` accepts (by V8's space names). */
function spacesUsed(include: (name: string) => boolean): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (include(space.space_name)) used += space.space_used_size;
  return used;
}

// The predicates are made once: a closure made per reading would itself count in the young generation.
const isYoung = (name: string): boolean => YOUNG_SPACES.has(name);
const isNotCode = (name: string): boolean => !CODE_SPACES.has(name);
const youngUsed = (): number => spacesUsed(isYoung);
// Every heap space but the JIT's code spaces.
const objectSpacesUsed = (): number => spacesUsed(isNotCode);
