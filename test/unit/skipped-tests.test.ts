// CI fails when a test did not run: scripts/skipped-tests.ts over vitest's JSON report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skippedTests, type SkipReport } from '../../scripts/skipped-tests.js';
import { repoRoot } from '../helpers/paths.js';

const report = (statuses: string[]): SkipReport => ({
  testResults: [
    {
      name: path.join(repoRoot, 'test/system/example.test.ts'),
      assertionResults: statuses.map((status, i) => ({ fullName: `suite test ${i}`, status })),
    },
  ],
});

const dir = mkdtempSync(path.join(os.tmpdir(), 'kl-skipped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScript(r: SkipReport): { status: number | null; stdout: string; stderr: string } {
  const file = path.join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(r));
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/skipped-tests.ts'), file], { cwd: repoRoot, encoding: 'utf8' });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('BUILD: CI fails when a test did not run', () => {
  it('BUILD: skipped, todo and pending tests are listed by file and name; passed and failed ones are not', () => {
    expect(skippedTests(report(['passed', 'skipped', 'failed', 'todo', 'pending']), repoRoot)).toEqual([
      'test/system/example.test.ts: suite test 1 (skipped)',
      'test/system/example.test.ts: suite test 3 (todo)',
      'test/system/example.test.ts: suite test 4 (pending)',
    ]);
  });

  it('BUILD: the script exits 1 naming the skipped test, and 0 when every test ran', () => {
    const failing = runScript(report(['passed', 'skipped']));
    expect(failing.status).toBe(1);
    expect(failing.stderr).toContain('1 test(s) did not run');
    expect(failing.stderr).toContain('test/system/example.test.ts: suite test 1 (skipped)');
    const passing = runScript(report(['passed', 'passed']));
    expect(passing.status, passing.stderr).toBe(0);
    expect(passing.stdout).toContain('none skipped');
  });
});
