// Builds the prebuilt binaries the package ships, prebuilds/<platform>-<arch>/ (node-gyp-build's
// layout): the N-API addon (one binary serves every Node >= 20), the simulated OpenXR runtime and
// the bundled layers beside it. Every Linux target is linked to load on glibc 2.28 and later with
// the C++ runtime inside (cmake/GlibcBaseline.cmake); win32-x64 is cross-built with mingw-w64, its
// DLLs importing only Windows' own (cmake/Windows.cmake).
//
//   tsx scripts/prebuild.ts --all            every target this machine can cross-compile
//   tsx scripts/prebuild.ts --host           this machine's own target (what npm pack ships)
//   tsx scripts/prebuild.ts linux-arm64 ...  the targets named
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHIPPED_PLATFORMS, type ShippedPlatform } from './platforms/shipped-prebuilds.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface PrebuildTarget {
  /** The folder name under prebuilds/: `${process.platform}-${process.arch}` of the machines it serves. */
  readonly name: ShippedPlatform;
  /** Extra cmake-js arguments. */
  readonly cmakeArgs: readonly string[];
  /** The strip program for this target's binaries. */
  readonly strip: string;
  /** Debian packages the cross-build needs (named in the error when the compiler is missing). */
  readonly compiler: string;
  readonly packages: readonly string[];
}

// One recipe per platform the package ships (scripts/platforms/shipped-prebuilds.ts lists them), so
// the two lists cannot drift apart.
const RECIPES: Readonly<Record<ShippedPlatform, Omit<PrebuildTarget, 'name'>>> = {
  'linux-x64': {
    cmakeArgs: ['--arch', 'x64', '--CDKL_GLIBC_BASELINE=ON'],
    strip: 'strip',
    compiler: 'g++',
    packages: ['g++'],
  },
  'linux-arm64': {
    cmakeArgs: ['--arch', 'arm64', '--CDKL_GLIBC_BASELINE=ON', `--CDCMAKE_TOOLCHAIN_FILE=${path.join(root, 'cmake/toolchain-aarch64-linux-gnu.cmake')}`],
    strip: 'aarch64-linux-gnu-strip',
    compiler: 'aarch64-linux-gnu-g++',
    packages: ['g++-aarch64-linux-gnu'],
  },
  'win32-x64': {
    // mingw-w64, POSIX threads; every DLL links its C++ runtime in (cmake/Windows.cmake).
    cmakeArgs: ['--arch', 'x64', `--CDCMAKE_TOOLCHAIN_FILE=${path.join(root, 'cmake/toolchain-x86_64-w64-mingw32.cmake')}`],
    strip: 'x86_64-w64-mingw32-strip',
    compiler: 'x86_64-w64-mingw32-g++-posix',
    packages: ['g++-mingw-w64-x86-64'],
  },
};
const PREBUILD_TARGETS: readonly PrebuildTarget[] = SHIPPED_PLATFORMS.map((name) => ({ name, ...RECIPES[name] }));

function hasProgram(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The shipped files of a build folder: the addon (renamed as node-gyp-build finds it), the tools
 * addon of bench and doctor (khronos_loader_tools.node, loaded by path, never picked by
 * node-gyp-build: its tags tie with the addon's, and "khronos-loader.node" sorts first) and the libraries.
 */
function shippedFiles(buildDir: string): { from: string; to: string }[] {
  return readdirSync(buildDir)
    .filter((f) => f.endsWith('.node') || f.endsWith('.so') || f.endsWith('.dll'))
    .map((f) => ({ from: path.join(buildDir, f), to: f === 'khronos_loader.node' ? 'khronos-loader.node' : f }));
}

function buildTarget(target: PrebuildTarget): void {
  if (!hasProgram(target.compiler)) {
    throw new Error(`prebuild ${target.name}: ${target.compiler} is missing (Debian: apt-get install ${target.packages.join(' ')})`);
  }
  const out = path.join('build', 'prebuild', target.name);
  // A configure that failed earlier leaves a cache without a build file, which cmake-js build
  // would take as configured: start that folder again.
  const outDir = path.join(root, out);
  if (existsSync(path.join(outDir, 'CMakeCache.txt')) && !existsSync(path.join(outDir, 'build.ninja')) && !existsSync(path.join(outDir, 'Makefile'))) {
    rmSync(outDir, { recursive: true, force: true });
  }
  process.stderr.write(`prebuild ${target.name}: cmake-js build --out ${out}\n`);
  execFileSync(process.execPath, [path.join(root, 'node_modules/cmake-js/bin/cmake-js'), 'build', '--out', out, '--parallel', '2', ...target.cmakeArgs], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const dest = path.join(root, 'prebuilds', target.name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const file of shippedFiles(path.join(root, out, 'Release'))) {
    const to = path.join(dest, file.to);
    copyFileSync(file.from, to);
    execFileSync(target.strip, ['--strip-unneeded', to], { stdio: 'inherit' });
    process.stderr.write(`prebuild ${target.name}: ${path.relative(root, to)}\n`);
  }
}

function hostTargetName(): string {
  return `${process.platform}-${process.arch}`;
}

function main(argv: readonly string[]): void {
  const names = argv.includes('--all')
    ? PREBUILD_TARGETS.map((t) => t.name)
    : argv.includes('--host')
      ? [hostTargetName()]
      : argv.filter((a) => !a.startsWith('--'));
  if (names.length === 0) throw new Error('usage: tsx scripts/prebuild.ts --all | --host | <platform-arch>...');
  for (const name of names) {
    const target = PREBUILD_TARGETS.find((t) => t.name === name);
    if (target === undefined) {
      throw new Error(`prebuild: no recipe for ${name} (known: ${PREBUILD_TARGETS.map((t) => t.name).join(', ')}); build from source with npx cmake-js build`);
    }
    buildTarget(target);
  }
}

main(process.argv.slice(2));
