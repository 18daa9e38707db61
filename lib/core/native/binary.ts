// Which addon binary this process loads, and what to say when there is none for its platform.
// node-gyp-build does the picking (build/Release in a source checkout, else
// prebuilds/<platform>-<arch>/ in the package); when it finds nothing, the user gets one message
// naming the platforms the package has binaries for and how to build one from source, instead
// of node-gyp-build's error and stack.
import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A platform-arch pair as node-gyp-build names the prebuild folders ("linux-x64"); `libc` is set
 * only on a Linux with musl (Alpine), which the glibc prebuilds do not serve.
 */
export interface NativeTarget {
  readonly platform: string;
  readonly arch: string;
  readonly libc?: 'musl';
}

/**
 * This process's C library on Linux: musl when Node's own report names no glibc (as detect-libc
 * decides), else glibc.
 */
export function hostLibc(): 'glibc' | 'musl' {
  if (process.platform !== 'linux') return 'glibc';
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime === undefined ? 'musl' : 'glibc';
}

/**
 * The target node-gyp-build resolves for: npm_config_platform / npm_config_arch when set (as
 * node-gyp-build reads them, for cross-installs), else this process's; LIBC (node-gyp-build's
 * variable) or this process's C library for the libc.
 */
export function currentNativeTarget(env: Readonly<Record<string, string | undefined>> = process.env, libc: () => 'glibc' | 'musl' = hostLibc): NativeTarget {
  const platform = env.npm_config_platform || process.platform;
  const arch = env.npm_config_arch || process.arch;
  const musl = platform === 'linux' && (env.LIBC !== undefined && env.LIBC !== '' ? env.LIBC === 'musl' : libc() === 'musl');
  return musl ? { platform, arch, libc: 'musl' } : { platform, arch };
}

/** Whether the package ships a binary for `target` (every Linux prebuild is built for glibc). */
export function hasPrebuild(target: NativeTarget, available: readonly string[]): boolean {
  return target.libc !== 'musl' && available.includes(`${target.platform}-${target.arch}`);
}

/** The prebuild folders the package ships, sorted ("linux-arm64", "linux-x64", ...). */
export function availablePrebuilds(packageRoot: string, listDir: (dir: string) => string[] = readdirNames): string[] {
  try {
    return listDir(path.join(packageRoot, 'prebuilds')).filter((name) => /^[a-z0-9]+-[a-z0-9]+$/.test(name)).sort();
  } catch {
    return [];
  }
}

function readdirNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
}

/** The whole message: what is missing, what exists, how to build it. */
export function missingPrebuildMessage(target: NativeTarget, available: readonly string[], packageRoot: string): string {
  const have = available.length > 0 ? available.join(', ') : 'none';
  const build = `  cd ${packageRoot} && npm install --no-save cmake-js node-addon-api && npx cmake-js build`;
  if (target.libc === 'musl') {
    return [
      `khronos-loader has no prebuilt binary for ${target.platform}-${target.arch} with musl libc (Alpine): the prebuilt Linux binaries need glibc 2.28 or later (prebuilt: ${have}).`,
      'Build it from source in the package folder (needs CMake and a C++20 compiler; on Alpine: apk add build-base cmake linux-headers):',
      build,
    ].join('\n');
  }
  return [
    `khronos-loader has no prebuilt binary for ${target.platform}-${target.arch} (prebuilt: ${have}).`,
    'Build it from source in the package folder (needs CMake and a C++20 compiler):',
    build,
  ].join('\n');
}

/** Thrown when neither a local build nor a prebuild exists for this platform. */
export class PrebuildMissingError extends Error {
  readonly code = 'KL_NO_PREBUILD';
  constructor(
    readonly target: NativeTarget,
    readonly available: readonly string[],
    packageRoot: string,
  ) {
    super(missingPrebuildMessage(target, available, packageRoot));
    this.name = 'PrebuildMissingError';
  }
}

/**
 * The addon binary's path from `resolve` (node-gyp-build's path()), or a PrebuildMissingError
 * when it finds none — or finds only a glibc prebuild for a musl system (node-gyp-build takes an
 * untagged prebuild for either C library; a local build in build/ is still used).
 */
export function locateAddonBinary(
  packageRoot: string,
  resolve: (root: string) => string,
  target: NativeTarget = currentNativeTarget(),
  listDir?: (dir: string) => string[],
): string {
  let found: string;
  try {
    found = resolve(packageRoot);
  } catch {
    throw new PrebuildMissingError(target, availablePrebuilds(packageRoot, listDir), packageRoot);
  }
  const inPrebuilds = path.relative(path.join(packageRoot, 'prebuilds'), found).split(/[\\/]/)[0] !== '..';
  if (target.libc === 'musl' && inPrebuilds) {
    throw new PrebuildMissingError(target, availablePrebuilds(packageRoot, listDir), packageRoot);
  }
  // node-gyp-build takes the first `.node` file of build/Release's listing, or the first of the
  // equally tagged ones in a prebuild folder, and the tools addon sits beside the addon in both.
  // Node lists a folder sorted, so the addon comes first; Bun lists it unsorted, and there the pick
  // can be the tools addon: the addon of the folder node-gyp-build chose is named here instead.
  const addon = inPrebuilds ? PREBUILD_ADDON_FILE : BUILD_ADDON_FILE;
  return path.basename(found) === addon ? found : path.join(path.dirname(found), addon);
}

/** The addon's file name in build/Release (cmake-js) and in a prebuild folder (scripts/prebuild.ts renames it). */
const BUILD_ADDON_FILE = 'khronos_loader.node';
const PREBUILD_ADDON_FILE = 'khronos-loader.node';
