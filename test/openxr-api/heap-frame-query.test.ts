// NODE-3: a frame query allocates nothing per frame. A child process (--expose-gc) runs
// 100,000 queries of 16 spaces, the views and three actions after a warm-up and reports heapUsed
// growth with no GC in between (every byte allocated, garbage or not) and after a full collection.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

function measure(runs: number, apiVersion: '1.0' | '1.1'): { allocated: number; youngAllocated: number; retained: number; collectionsDuringRun: number; locatePath: string; spaces: number } {
  const fixture = path.join(repoRoot, 'test/openxr-api/fixtures/heap-frame-query.ts');
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fixture, String(runs), apiVersion], { cwd: repoRoot, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop() as string);
}

describe('heap: frame query', () => {
  it.each([
    ['1.0', 'xrLocateSpace'],
    ['1.1', 'xrLocateSpaces'],
  ] as const)('NODE-3: the heap stays flat over 100,000 frame-query runs on a %s instance (%s; no per-frame allocation)', (apiVersion, locatePath) => {
    const r = measure(100_000, apiVersion);
    process.stderr.write(
      `[NODE-3 heap, frame query ${apiVersion}] 100,000 runs of ${r.spaces} spaces: ${r.youngAllocated} young-generation bytes allocated (heapUsed ${r.allocated}), ${r.retained} retained\n`,
    );
    expect(r.locatePath).toBe(locatePath);
    expect(r.spaces).toBe(16);
    expect(r.collectionsDuringRun).toBe(0);
    // The young generation, where JavaScript objects are born: 66-100 KB measured over the 100,000
    // runs (less than a byte a run: no object per run). heapUsed also takes in the JIT's old-space
    // and code-space growth, which once reached 266 KB in a CI run. 8 bytes per run would be 800 KB.
    expect(r.youngAllocated).toBeLessThan(256 * 1024);
    // Retained after full collections, the code spaces left out (measureHeap): -100 to +8 KB
    // measured (the heap before the run still held some of the warm-up's); 3 bytes kept per run
    // would be 300 KB.
    expect(r.retained).toBeLessThan(256 * 1024);
  });
});
