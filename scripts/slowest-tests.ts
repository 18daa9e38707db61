// Prints the slowest test files of a vitest JSON report (wall time from the file's first test to
// its last, as vitest records them), with each file's test counts, then the totals:
//   tsx scripts/slowest-tests.ts build/ci/vitest.json [COUNT]      (COUNT defaults to 15)
// CI prints it after the tests so a file that grows slow shows in the log.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface AssertionResult {
  readonly status: string;
}
export interface JsonReport {
  readonly numTotalTests?: number;
  readonly numPassedTests?: number;
  readonly numFailedTests?: number;
  readonly numPendingTests?: number;
  readonly startTime?: number;
  readonly testResults: ReadonlyArray<{
    readonly name: string;
    readonly startTime: number;
    readonly endTime: number;
    readonly assertionResults: readonly AssertionResult[];
  }>;
}

export interface FileTime {
  readonly file: string;
  readonly seconds: number;
  readonly tests: number;
  readonly passed: number;
  readonly skipped: number;
}

/** Every file of the report, slowest first; `root` makes the paths relative. */
export function fileTimes(report: JsonReport, root = process.cwd()): FileTime[] {
  return report.testResults
    .map((r) => ({
      file: path.relative(root, r.name),
      seconds: Math.max(0, r.endTime - r.startTime) / 1000,
      tests: r.assertionResults.length,
      passed: r.assertionResults.filter((a) => a.status === 'passed').length,
      skipped: r.assertionResults.filter((a) => a.status === 'pending' || a.status === 'skipped' || a.status === 'todo').length,
    }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

export function formatSlowest(report: JsonReport, count: number, root = process.cwd()): string {
  const times = fileTimes(report, root);
  const shown = times.slice(0, count);
  const width = Math.max(4, ...shown.map((t) => t.file.length));
  const lines = [`The ${shown.length} slowest of ${times.length} test files:`, `${'seconds'.padStart(8)}  ${'file'.padEnd(width)}  tests (passed, skipped)`];
  for (const t of shown) lines.push(`${t.seconds.toFixed(1).padStart(8)}  ${t.file.padEnd(width)}  ${t.tests} (${t.passed}, ${t.skipped})`);
  const sum = times.reduce((s, t) => s + t.seconds, 0);
  lines.push(`Sum over all files: ${sum.toFixed(1)} s; tests: ${report.numTotalTests ?? '?'} (${report.numPassedTests ?? '?'} passed, ${report.numFailedTests ?? '?'} failed, ${report.numPendingTests ?? '?'} skipped)`);
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  const count = Number(process.argv[3] ?? 15);
  if (file === undefined || !Number.isInteger(count) || count <= 0) {
    process.stderr.write('usage: tsx scripts/slowest-tests.ts <vitest JSON report> [COUNT]\n');
    process.exit(2);
  }
  process.stdout.write(formatSlowest(JSON.parse(readFileSync(file, 'utf8')) as JsonReport, count));
}
