// Prints how many tests of the OpenXR system suite ran on each runtime, from vitest's JSON report:
//   tsx scripts/openxr-runtime-counts.ts build/ci/vitest.json
// CI prints it so its log shows the suite passing on every runtime, not just in total.
import { readFileSync } from 'node:fs';

interface AssertionResult {
  readonly ancestorTitles: readonly string[];
  readonly status: string;
}
interface JsonReport {
  readonly testResults: ReadonlyArray<{ readonly assertionResults: readonly AssertionResult[] }>;
}

const SUITE = 'OpenXR system suite on ';

export function countByRuntime(report: JsonReport): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      const suite = test.ancestorTitles.find((t) => t.startsWith(SUITE));
      if (suite === undefined) continue;
      const runtime = suite.slice(SUITE.length);
      const byStatus = counts.get(runtime) ?? new Map<string, number>();
      byStatus.set(test.status, (byStatus.get(test.status) ?? 0) + 1);
      counts.set(runtime, byStatus);
    }
  }
  return counts;
}

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: tsx scripts/openxr-runtime-counts.ts <vitest JSON report>\n');
  process.exit(2);
}
const counts = countByRuntime(JSON.parse(readFileSync(file, 'utf8')) as JsonReport);
if (counts.size === 0) {
  process.stderr.write(`no "${SUITE}..." tests in ${file}\n`);
  process.exit(1);
}
for (const [runtime, byStatus] of counts) {
  const parts = [...byStatus].map(([status, n]) => `${n} ${status}`).join(', ');
  process.stdout.write(`OpenXR system suite on ${runtime}: ${parts}\n`);
}
