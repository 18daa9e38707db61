// Fails when a vitest JSON report holds a test that did not run (skipped, todo): CI runs with
// KHRONOS_LOADER_SYSTEM_TESTS=required, where a missing component already fails, and this catches
// every other reason a test may not run (a skipIf, a `.skip` left in, a runtime condition), so a
// green CI never tested less than the suite holds.
//   tsx scripts/skipped-tests.ts build/ci/vitest.json
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface AssertionResult {
  readonly fullName?: string;
  readonly title?: string;
  readonly status: string;
}
export interface SkipReport {
  readonly testResults: ReadonlyArray<{ readonly name: string; readonly assertionResults: readonly AssertionResult[] }>;
}

const NOT_RUN = new Set(['skipped', 'pending', 'todo', 'disabled']);

/** "file: test name" for every test of the report that did not run. */
export function skippedTests(report: SkipReport, root = process.cwd()): string[] {
  const skipped: string[] = [];
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (NOT_RUN.has(test.status)) skipped.push(`${path.relative(root, file.name)}: ${test.fullName ?? test.title ?? '(unnamed)'} (${test.status})`);
    }
  }
  return skipped;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (file === undefined) {
    process.stderr.write('usage: tsx scripts/skipped-tests.ts <vitest JSON report>\n');
    process.exit(2);
  }
  const skipped = skippedTests(JSON.parse(readFileSync(file, 'utf8')) as SkipReport);
  if (skipped.length > 0) {
    process.stderr.write(`${skipped.length} test(s) did not run:\n${skipped.map((s) => `  ${s}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('every test of the report ran (none skipped)\n');
}
