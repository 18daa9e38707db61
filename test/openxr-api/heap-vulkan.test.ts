// #11.4 NODE-3: the Vulkan-rendered frame's calls allocate little and keep nothing: a child
// process (--expose-gc) runs 450 frames of waitFrameSync, beginFrame, locateViews, both eyes
// acquired, waited, cleared, submitted and released, and endFrame with the projection layer (its
// native structures built once and reused), and reports heapUsed growth with no GC in between.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const missing = missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE] });

describe.skipIf(missing !== null)('heap of the Vulkan-rendered frame', () => {
  it('#11.4 NODE-3: 450 rendered frames allocate under 1.5 KB each and retain nothing per frame (the layers are not rebuilt)', () => {
    const frames = 450;
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(repoRoot, 'test/openxr-api/fixtures/heap-vulkan-frame.ts'), String(frames)], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, VK_DRIVER_FILES: LAVAPIPE },
      timeout: 60_000,
    });
    const r = JSON.parse(out.trim().split('\n').pop() as string) as { allocated: number; retained: number; collectionsDuringRun: number };
    process.stderr.write(`[#11.4 heap] ${frames} Vulkan-rendered frames: ${r.allocated} bytes allocated, ${r.retained} retained\n`);
    expect(r.collectionsDuringRun).toBe(0);
    // Measured: about 0.9 KB per frame, most of it the frame calls' numbers (frame state, times);
    // rebuilding the layers' native structures every frame would be about 3 KB.
    expect(r.allocated / frames).toBeLessThan(1536);
    expect(r.retained).toBeLessThan(128 * 1024);
  }, 90_000);
});
