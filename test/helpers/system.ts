// System tests use real Debian components. When one is missing the test skips and says why,
// unless KHRONOS_LOADER_SYSTEM_TESTS=required (as in CI), where it fails instead.
import { existsSync } from 'node:fs';

export const systemTestsRequired = process.env.KHRONOS_LOADER_SYSTEM_TESTS === 'required';

/** The first of `paths` that exists, or undefined. */
export function findFirst(paths: readonly string[]): string | undefined {
  return paths.find((p) => existsSync(p));
}

/**
 * Returns null when every named file exists; otherwise the reason the system test cannot run.
 * Under KHRONOS_LOADER_SYSTEM_TESTS=required a missing component throws, so the suite fails.
 */
export function missingSystemComponent(components: Record<string, readonly string[]>): string | null {
  const missing = Object.entries(components)
    .filter(([, candidates]) => findFirst(candidates) === undefined)
    .map(([name, candidates]) => `${name} (looked for ${candidates.join(', ')})`);
  if (missing.length === 0) return null;
  const reason = `missing system component: ${missing.join('; ')}`;
  if (systemTestsRequired) {
    throw new Error(`${reason} — KHRONOS_LOADER_SYSTEM_TESTS=required, so this is a failure, not a skip`);
  }
  process.stderr.write(`[system test skipped] ${reason}\n`);
  return reason;
}

/**
 * For a test that cannot run here: skips it with the reason (also printed), or, under
 * KHRONOS_LOADER_SYSTEM_TESTS=required, fails it.
 */
export function skipOrFail(ctx: { skip(note?: string): never }, reason: string): never {
  if (systemTestsRequired) {
    throw new Error(`${reason} — KHRONOS_LOADER_SYSTEM_TESTS=required, so this is a failure, not a skip`);
  }
  process.stderr.write(`[test skipped] ${reason}\n`);
  return ctx.skip(reason);
}
