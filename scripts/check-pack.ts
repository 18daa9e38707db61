// Checks what `npm pack` would publish from this folder: every shipped platform's prebuild
// (scripts/platforms/shipped-prebuilds.ts), the LICENSE, the examples. The release workflow runs it
// after putting the prebuilds together, before `npm publish`; exit 1 names each missing file.
//
//   tsx scripts/check-pack.ts
import { execFileSync } from 'node:child_process';
import { missingPrebuildFiles } from './platforms/shipped-prebuilds.js';

const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const files = (JSON.parse(output) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
const missing = [...missingPrebuildFiles(files), ...['LICENSE', 'examples/shaders/saxpy.spv', 'dist/examples/compute.js'].filter((f) => !files.includes(f))];
if (missing.length > 0) {
  process.stderr.write(`check-pack: the tarball would lack ${missing.length} file(s):\n${missing.map((f) => `  ${f}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`check-pack: ${files.length} files, every shipped prebuild, the LICENSE and the examples are in\n`);
