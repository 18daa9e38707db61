// Random sequences of the typed Vulkan calls, valid and invalid, in a child process on the real
// driver (fixtures/random-calls.ts): the child never dies of a signal, every refusal is one of the
// package's typed errors, and the sequences get deep enough that dispatches and submissions run.
// Seeds: KL_RANDOM_SEEDS (comma-separated) to replay, else three fresh ones per run; a failure
// names its seed and the last steps the child printed.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/core/native/load.js';
import { missingRealDriver, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriver();
const STEPS = 400;
const seeds = process.env.KL_RANDOM_SEEDS ? process.env.KL_RANDOM_SEEDS.split(',').map(Number) : [0, 1, 2].map(() => Math.floor(Math.random() * 2 ** 32));

function runChild(seed: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/vulkan-misuse/fixtures/random-calls.ts', String(seed), String(STEPS)], {
      cwd: packageRoot,
      env: { ...process.env, VK_DRIVER_FILES: REAL_DRIVER_MANIFEST },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe.skipIf(skip !== null)('random sequences of typed Vulkan calls (child process, real driver)', () => {
  it.each(seeds)(`NODE-1: ${STEPS} random calls, valid and invalid, never end the process by a signal (seed %i)`, async (seed) => {
    const r = await runChild(seed);
    const tail = r.stdout.trim().split('\n').slice(-8).join('\n');
    const context = `seed ${seed} (replay: KL_RANDOM_SEEDS=${seed}); child ended with ${r.signal ?? `exit ${r.code}`}; last steps:\n${tail}\n${r.stderr.slice(-2000)}`;
    expect(r.signal, context).toBeNull();
    expect(r.code, context).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as { steps: number; done: number; refused: number; worked: Record<string, number> };
    expect(summary.steps).toBe(STEPS);
    expect(summary.done + summary.refused).toBe(STEPS);
    // Both kinds happened: calls that worked and refusals.
    expect(summary.refused, context).toBeGreaterThan(STEPS / 10);
    expect(summary.done, context).toBeGreaterThan(STEPS / 10);
    process.stderr.write(`[NODE-1 random calls] seed ${seed}: ${summary.done} worked, ${summary.refused} refused; dispatches ${summary.worked.dispatch ?? 0}, draws ${summary.worked.draw ?? 0}, submissions ${summary.worked.submit ?? 0}\n`);
  }, 120_000);

  it('NODE-1, VKGFX: the sequences reach the deep states: over fixed seeds, dispatches and draws are recorded and submitted', async () => {
    let dispatches = 0;
    let draws = 0;
    let submits = 0;
    for (const seed of [11, 12]) {
      const r = await runChild(seed);
      expect(r.signal, `seed ${seed}`).toBeNull();
      const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as { worked: Record<string, number> };
      dispatches += summary.worked.dispatch ?? 0;
      draws += summary.worked.draw ?? 0;
      submits += summary.worked.submit ?? 0;
    }
    expect(dispatches).toBeGreaterThan(0);
    expect(draws).toBeGreaterThan(0);
    expect(submits).toBeGreaterThan(0);
  }, 120_000);
});
