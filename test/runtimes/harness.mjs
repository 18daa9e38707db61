// The smoke suites' harness (test/runtimes/*-smoke.mjs). vitest does not run under Bun or Deno, so
// each suite is a plain ES module that any of the three runtimes runs as it is: its checks run in
// order, each prints "ok" or "not ok" with the reason, the last line says how many passed, and the
// process exits 1 when any failed (or when the whole run passes its deadline). docs/platforms.md,
// "Bun and Deno", says what runs it.
import assert from 'node:assert/strict';

export { assert };

/** "bun 1.4.5", "deno 2.9.6" or "node v20.20.2": the runtime this process is. */
export function runtimeName() {
  if (typeof globalThis.Bun !== 'undefined') return `bun ${globalThis.Bun.version}`;
  if (typeof globalThis.Deno !== 'undefined') return `deno ${globalThis.Deno.version.deno}`;
  return `node ${process.version}`;
}

/**
 * Polls `condition` (which may be async) until it answers true; throws naming `what` when
 * `timeoutMs` passes first.
 */
export async function until(what, condition, timeoutMs = 5000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Runs `checks` ([name, fn] pairs; fn may be async) one after another and exits: 0 when every
 * check passed, 1 otherwise. A check that throws fails with its message; the next ones still run.
 * `cleanup` runs last, whatever happened. The whole run has `deadlineMs`.
 */
export async function runChecks(suite, checks, { cleanup = () => {}, deadlineMs = 60_000 } = {}) {
  const watchdog = setTimeout(() => {
    console.log(`not ok - ${suite}: the run passed its ${deadlineMs} ms deadline`);
    process.exit(1);
  }, deadlineMs);
  console.log(`${suite} on ${runtimeName()}`);
  let passed = 0;
  for (const [index, [name, fn]] of checks.entries()) {
    const started = performance.now();
    try {
      await fn();
      passed++;
      console.log(`ok ${index + 1} - ${name} (${(performance.now() - started).toFixed(0)} ms)`);
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      console.log(`not ok ${index + 1} - ${name}\n  ${reason.split('\n').join('\n  ')}`);
    }
  }
  try {
    await cleanup();
  } catch (error) {
    console.log(`not ok - ${suite}: cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    passed = -1;
  }
  clearTimeout(watchdog);
  console.log(`${suite}: ${Math.max(passed, 0)} of ${checks.length} checks passed on ${runtimeName()}`);
  process.exit(passed === checks.length ? 0 : 1);
}
