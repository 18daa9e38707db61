// npm run test:stress [-- --rounds N] [-- vitest arguments]: npm test's suites (the main and
// timing projects) on a loaded machine: two busy loops (one per core of a 2-core machine) run
// beside the whole suite, N times in a row (default 5); the first red round stops it. Prints a
// line per round and the table at the end; exit 1 when any round failed. What holds here holds
// beside compilers, lavapipe and wine in CI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(args: readonly string[]): { rounds: number; vitest: string[] } {
  const rest = [...args];
  let rounds = 5;
  const i = rest.indexOf('--rounds');
  if (i >= 0) {
    rounds = Number(rest[i + 1]);
    if (!Number.isInteger(rounds) || rounds < 1) {
      process.stderr.write(`test-stress: --rounds needs a whole number of rounds, at least 1, got: ${rest[i + 1] ?? 'nothing'}\n`);
      process.exit(2);
    }
    rest.splice(i, 2);
  }
  return { rounds, vitest: rest };
}

/** A child process that keeps one core busy until it is killed. */
function busyLoop(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

const { rounds, vitest } = parseArgs(process.argv.slice(2));
const loops = [busyLoop(), busyLoop()];
const stop = (): void => {
  for (const l of loops) l.kill('SIGKILL');
};
process.on('exit', stop);
const results: Array<{ round: number; status: number | null; seconds: number }> = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const t0 = performance.now();
    process.stdout.write(`test-stress: round ${round} of ${rounds}, two busy loops beside the suite\n`);
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'main', '--project', 'timing', ...vitest], { cwd: root, stdio: 'inherit' });
    const seconds = (performance.now() - t0) / 1000;
    results.push({ round, status: r.status, seconds });
    process.stdout.write(`test-stress: round ${round}: ${r.status === 0 ? 'green' : `red (vitest exit ${r.status ?? r.signal})`} in ${seconds.toFixed(0)} s\n`);
    if (r.status !== 0) break;
  }
} finally {
  stop();
}
process.stdout.write(`test-stress: ${results.filter((r) => r.status === 0).length} of ${rounds} rounds green in a row\n`);
for (const r of results) process.stdout.write(`  round ${r.round}: ${r.status === 0 ? 'green' : 'red'}, ${r.seconds.toFixed(0)} s\n`);
process.exit(results.length === rounds && results.every((r) => r.status === 0) ? 0 : 1);
