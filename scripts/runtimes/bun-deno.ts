// Bun and Deno for the runtime checks (docs/platforms.md, "Bun and Deno"): installed with npm from
// their npm packages at pinned versions into a cache folder outside the checkout, then found there
// by `npm run test:runtimes` (scripts/test-runtimes.ts) and test/runtimes/bun-deno.test.ts. The
// registry is whatever the machine's npm configuration names.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export type RuntimeName = 'bun' | 'deno';

/** The npm package each runtime comes from, its pinned version and its executable inside the package. */
export const RUNTIME_PACKAGES: Readonly<Record<RuntimeName, { readonly packageName: string; readonly version: string; readonly executable: string }>> = {
  bun: { packageName: '@oven/bun-linux-x64', version: '1.4.5', executable: 'bin/bun' },
  deno: { packageName: '@deno/linux-x64-glibc', version: '2.9.6', executable: 'deno' },
};

export const RUNTIME_NAMES: readonly RuntimeName[] = ['bun', 'deno'];

/** An installed runtime: its executable and version ("1.4.5"). */
export interface InstalledRuntime {
  readonly name: RuntimeName;
  readonly executable: string;
  readonly version: string;
}

/**
 * The folder Bun and Deno are installed into: KHRONOS_LOADER_RUNTIMES_DIR, else `bun-deno` in the
 * CI cache folder .ci/run uses (KHRONOS_LOADER_CI_CACHE, else $XDG_CACHE_HOME/khronos-loader-ci,
 * else ~/.cache/khronos-loader-ci), so a developer's install and CI's are the same one.
 */
export function runtimesDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.KHRONOS_LOADER_RUNTIMES_DIR) return path.resolve(env.KHRONOS_LOADER_RUNTIMES_DIR);
  const ciCache = env.KHRONOS_LOADER_CI_CACHE || path.join(env.XDG_CACHE_HOME || path.join(env.HOME || homedir(), '.cache'), 'khronos-loader-ci');
  return path.join(ciCache, 'bun-deno');
}

/** The runtime installed in `dir` at its pinned version, or why not (a sentence). */
export function installedRuntime(name: RuntimeName, dir: string = runtimesDir()): InstalledRuntime | string {
  const { packageName, version, executable } = RUNTIME_PACKAGES[name];
  const packageDir = path.join(dir, 'node_modules', packageName);
  const manifest = path.join(packageDir, 'package.json');
  if (!existsSync(manifest)) return `${packageName} is not installed in ${dir} (npm run test:runtimes installs it)`;
  const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
  if (installed !== version) return `${packageName} in ${dir} is ${String(installed)}, not the pinned ${version} (npm run test:runtimes installs it)`;
  const file = path.join(packageDir, executable);
  if (!existsSync(file)) return `${packageName}@${version} in ${dir} has no ${executable}`;
  return { name, executable: file, version };
}

/**
 * Installs what is missing (or at another version) of Bun and Deno into `dir` with
 * `npm install --prefix`, and returns both. Only Linux x64 with glibc: the packages are that
 * platform's builds. Throws with npm's output when npm fails.
 */
export function installRuntimes(dir: string = runtimesDir(), log: (line: string) => void = () => {}): Record<RuntimeName, InstalledRuntime> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Bun and Deno are installed here for linux-x64 only (their packages ${RUNTIME_NAMES.map((n) => RUNTIME_PACKAGES[n].packageName).join(', ')}); this is ${process.platform}-${process.arch}`);
  }
  const missing = RUNTIME_NAMES.filter((name) => typeof installedRuntime(name, dir) === 'string');
  if (missing.length > 0) {
    mkdirSync(dir, { recursive: true });
    const specs = missing.map((name) => `${RUNTIME_PACKAGES[name].packageName}@${RUNTIME_PACKAGES[name].version}`);
    log(`installing ${specs.join(', ')} into ${dir}`);
    const npm = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', ...specs], { encoding: 'utf8' });
    if (npm.status !== 0) throw new Error(`npm install ${specs.join(' ')} failed (${npm.error?.message ?? `exit ${String(npm.status)}`}):\n${npm.stdout}${npm.stderr}`);
  }
  const found = Object.fromEntries(
    RUNTIME_NAMES.map((name) => {
      const runtime = installedRuntime(name, dir);
      if (typeof runtime === 'string') throw new Error(runtime);
      return [name, runtime];
    }),
  );
  return found as Record<RuntimeName, InstalledRuntime>;
}

/** The command line that runs the ES module `script` with `args` under the runtime (Node: this process's). */
export function runtimeCommand(runtime: InstalledRuntime | 'node', script: string, args: readonly string[] = []): { command: string; args: string[] } {
  if (runtime === 'node') return { command: process.execPath, args: [script, ...args] };
  // Deno: every permission (the addon is native code; the suites read and write files, the
  // environment and the system's libraries).
  if (runtime.name === 'deno') return { command: runtime.executable, args: ['run', '-A', script, ...args] };
  return { command: runtime.executable, args: [script, ...args] };
}

/** Mesa lavapipe's driver manifest (Debian's mesa-vulkan-drivers), the driver the Vulkan runs use. */
export const LAVAPIPE_MANIFEST = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

/**
 * The simulated runtime's settings test/runtimes/openxr-smoke.mjs checks, for its environment at
 * start: Bun's process.env writes do not reach native getenv, so the suite cannot set them itself there.
 */
export const SMOKE_ENV: Readonly<Record<string, string>> = {
  SIMXR_DISPLAY_HZ: '60',
  SIMXR_RESOLUTION: '640x480',
  SIMXR_IPD_M: '0.07',
  SIMXR_CONTROLLER: 'touch',
};

/**
 * The environment of the runs under each runtime: `base` (this process's), lavapipe as the Vulkan
 * driver, and Deno's cache and update check kept out of the home folder; `extra` last.
 */
export function runtimeEnv(
  dir: string = runtimesDir(),
  extra: Readonly<Record<string, string>> = {},
  base: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  return { ...env, VK_DRIVER_FILES: LAVAPIPE_MANIFEST, DENO_DIR: path.join(dir, 'deno-cache'), DENO_NO_UPDATE_CHECK: '1', ...extra };
}
