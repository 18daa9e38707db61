// Runs once before the test files: brings the addon and the native test components (test
// runtime, layers, drivers and helper programs under test/native/) up to date with CMake.
// KHRONOS_LOADER_PREBUILT=1 (a machine with no compiler, e.g. scripts/gpu-system-tests.sh's
// folder) skips the builds and only checks their outputs are there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function run(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

export default function setup(): void {
  // KHRONOS_LOADER_PREBUILT=1: the native outputs were built elsewhere (scripts/gpu-system-tests.sh
  // packs them for a machine without a compiler; npm run test:sanitize builds instrumented copies
  // and names them with KHRONOS_LOADER_NATIVE_DIR / KL_TEST_NATIVE_DIR): check they exist, build nothing.
  if (process.env.KHRONOS_LOADER_PREBUILT === '1') {
    const needed = [
      process.env.KHRONOS_LOADER_NATIVE_DIR ? path.join(process.env.KHRONOS_LOADER_NATIVE_DIR, 'khronos_loader.node') : 'build/Release/khronos_loader.node',
      // KL_PREBUILT_WITHOUT_TOOLS=1: npm run test:sanitize:thread builds no tools addon (no test of its list loads it).
      ...(process.env.KL_PREBUILT_WITHOUT_TOOLS === '1' ? [] : [process.env.KHRONOS_LOADER_NATIVE_DIR ? path.join(process.env.KHRONOS_LOADER_NATIVE_DIR, 'khronos_loader_tools.node') : 'build/Release/khronos_loader_tools.node']),
      process.env.KL_TEST_NATIVE_DIR ?? 'build/test-native',
    ];
    const missing = needed.filter((p) => !existsSync(path.resolve(root, p)));
    if (missing.length > 0) throw new Error(`KHRONOS_LOADER_PREBUILT=1 but ${missing.join(', ')} missing under ${root}: build them first (npm run build; a vitest run without the variable)`);
    return;
  }
  run(process.execPath, [path.join(root, 'node_modules/cmake-js/bin/cmake-js'), 'build', '--out', 'build']);
  if (existsSync(path.join(root, 'test/native/CMakeLists.txt'))) {
    const out = path.join(root, 'build/test-native');
    run('cmake', ['-S', 'test/native', '-B', out, '-DCMAKE_BUILD_TYPE=RelWithDebInfo']);
    run('cmake', ['--build', out, '--parallel', '2']);
  }
}
