// The whole tree (library, scripts, tests, benchmarks, examples) typechecks under the strict
// tsconfig: the build compiles only lib/, so this is where the rest is held to the same rules.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

describe('BUILD: TypeScript', () => {
  it('BUILD: tsc -p tsconfig.json reports nothing (strict, no unused locals or parameters)', () => {
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: repoRoot, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 300_000); // 81 s measured under a load average of 15 on 2 cores (30 s of CPU): room for the stress run's busy loops beside it
});
