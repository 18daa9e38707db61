// NODE-3: the per-frame calls allocate nothing. A child process (--expose-gc) runs 100,000
// locate + locateViews + action reads after a warm-up and reports heapUsed growth with no GC in
// between (every byte allocated, garbage or not) and after a full collection.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

function measure(calls: number): { allocated: number; youngAllocated: number; retained: number; collectionsDuringRun: number } {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(repoRoot, 'test/openxr-api/fixtures/heap-locate.ts'), String(calls)], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop() as string);
}

describe('heap', () => {
  it('NODE-3: the heap stays flat over 100,000 locate calls (no per-call allocation)', () => {
    const r = measure(100_000);
    process.stderr.write(`[NODE-3 heap] 100,000 iterations: ${r.youngAllocated} young-generation bytes allocated (heapUsed ${r.allocated}), ${r.retained} retained\n`);
    expect(r.collectionsDuringRun).toBe(0);
    // The young generation (heapUsed also counts the JIT's own growth): 11.6 KB measured. 16 bytes
    // per call would be 1.6 MB per kind of call.
    expect(r.youngAllocated).toBeLessThan(512 * 1024);
    expect(r.retained).toBeLessThan(256 * 1024);
  });
});
