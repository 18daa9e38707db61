// Runs once before the test files: brings the addon and the native test components (test
// runtime, layers, drivers and helper programs under test/native/) up to date with CMake.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function run(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

export default function setup(): void {
  // npm run test:sanitize has built its own instrumented copies (scripts/test-sanitize.sh).
  if (process.env.KL_NATIVE_PREBUILT === '1') return;
  run(process.execPath, [path.join(root, 'node_modules/cmake-js/bin/cmake-js'), 'build', '--out', 'build']);
  if (existsSync(path.join(root, 'test/native/CMakeLists.txt'))) {
    const out = path.join(root, 'build/test-native');
    run('cmake', ['-S', 'test/native', '-B', out, '-DCMAKE_BUILD_TYPE=RelWithDebInfo']);
    run('cmake', ['--build', out, '--parallel', '2']);
  }
}
