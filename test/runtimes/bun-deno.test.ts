// The package under Bun and Deno (docs/platforms.md, "Bun and Deno"), from this checkout's build:
// the typed-API smoke suites (test/runtimes/openxr-smoke.mjs and vulkan-smoke.mjs, plain scripts
// since vitest does not run under either) and a short demo run, headless and rendering through
// Vulkan on lavapipe, under each. Bun and Deno are the pinned ones `npm run test:runtimes`
// installs into the cache folder (scripts/runtimes/bun-deno.ts); where one is not installed its
// tests skip and say so, and fail under KHRONOS_LOADER_SYSTEM_TESTS=required (CI).
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installedRuntime, LAVAPIPE_MANIFEST, RUNTIME_NAMES, RUNTIME_PACKAGES, runtimeCommand, runtimeEnv, runtimesDir, SMOKE_ENV, type InstalledRuntime, type RuntimeName } from '../../scripts/runtimes/bun-deno.js';
import { repoRoot } from '../helpers/paths.js';
import { missingSystemComponent, skipOrFail } from '../helpers/system.js';

const CHILD_TIMEOUT_MS = 120_000;
const cli = path.join(repoRoot, 'dist/tools/cli/main.js');

/** Newest modification time of the files under `dir` whose names end with `suffix`. */
function newest(dir: string, suffix: string): number {
  let time = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) time = Math.max(time, newest(file, suffix));
    else if (e.name.endsWith(suffix)) time = Math.max(time, statSync(file).mtimeMs);
  }
  return time;
}

/** Whether dist/ is older than lib/ (or missing): the suites run the compiled package. */
function distIsStale(): boolean {
  try {
    return newest(path.join(repoRoot, 'lib'), '.ts') > newest(path.join(repoRoot, 'dist'), '.js');
  } catch {
    return true;
  }
}

interface ChildResult {
  readonly code: number | null;
  readonly stdout: string;
  /** stdout and stderr, for assertion messages. */
  readonly output: string;
}

function runUnder(runtime: InstalledRuntime, script: string, args: readonly string[] = [], extraEnv: Readonly<Record<string, string>> = {}): Promise<ChildResult> {
  const { command, args: argv } = runtimeCommand(runtime, script, args);
  return new Promise((resolve) => {
    execFile(command, argv, { cwd: repoRoot, env: runtimeEnv(runtimesDir(), extraEnv), timeout: CHILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, output: `${command} ${argv.join(' ')}: exit ${String(code ?? error?.signal)}\n${stdout}${stderr}` });
    });
  });
}

const runtimes = new Map<RuntimeName, InstalledRuntime | string>(RUNTIME_NAMES.map((name) => [name, installedRuntime(name)]));

/** The runtime, or the test skips (fails under KHRONOS_LOADER_SYSTEM_TESTS=required) saying why it is not there. */
function need(name: RuntimeName, ctx: { skip(note?: string): never }): InstalledRuntime {
  const found = runtimes.get(name);
  if (found === undefined || typeof found === 'string') return skipOrFail(ctx, found ?? `${name} is not known`);
  return found;
}

/** Why the Vulkan runs cannot run here (lavapipe missing), or null. */
const missingLavapipe = () => missingSystemComponent({ 'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST] });

beforeAll(() => {
  // The suites and the demo run dist/, the compiled package: brought up to date first.
  if (distIsStale()) execFileSync('npm', ['run', 'build:ts'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
}, 300_000);

for (const name of RUNTIME_NAMES) {
  const pinned = RUNTIME_PACKAGES[name].version;

  describe(`RUNTIMES: the package under ${name} ${pinned}`, () => {
    it(`RUNTIMES: the typed OpenXR API's smoke suite passes under ${name} (instance, system, session, frame loop, spaces, actions, errors)`, async (ctx) => {
      const runtime = need(name, ctx);
      const run = await runUnder(runtime, path.join(repoRoot, 'test/runtimes/openxr-smoke.mjs'), [], SMOKE_ENV);
      expect(run.code, run.output).toBe(0);
      expect(run.stdout, run.output).not.toMatch(/^not ok/m);
      const [, passed, total] = new RegExp(`^openxr smoke: (\\d+) of (\\d+) checks passed on ${name} ${pinned.replaceAll('.', '\\.')}$`, 'm').exec(run.stdout) ?? [];
      expect(Number(passed), run.output).toBeGreaterThanOrEqual(10);
      expect(passed, run.output).toBe(total);
    });

    it(`RUNTIMES: the typed Vulkan API's smoke suite passes under ${name} (loader, instance, physical devices, saxpy.spv checked on lavapipe)`, async (ctx) => {
      const runtime = need(name, ctx);
      const missing = missingLavapipe();
      if (missing !== null) return ctx.skip(missing);
      const run = await runUnder(runtime, path.join(repoRoot, 'test/runtimes/vulkan-smoke.mjs'));
      expect(run.code, run.output).toBe(0);
      expect(run.stdout, run.output).not.toMatch(/^not ok/m);
      const [, passed, total] = new RegExp(`^vulkan smoke: (\\d+) of (\\d+) checks passed on ${name} ${pinned.replaceAll('.', '\\.')}$`, 'm').exec(run.stdout) ?? [];
      expect(Number(passed), run.output).toBeGreaterThanOrEqual(7);
      expect(passed, run.output).toBe(total);
      expect(run.stdout).toMatch(/^ok \d+ - VULKAN: saxpy\.spv dispatched over \d+ floats/m);
    });

    it(`RUNTIMES: the demo renders frames under ${name} and says its event-loop lag is not measured there (no 0.000 ms)`, async (ctx) => {
      const runtime = need(name, ctx);
      const run = await runUnder(runtime, cli, ['demo', '--seconds', '1']);
      expect(run.code, run.output).toBe(0);
      const [, rendered] = /frames: +(\d+) rendered, \d+ missed/.exec(run.stdout) ?? [];
      expect(Number(rendered), run.output).toBeGreaterThan(0);
      expect(run.stdout, run.output).toMatch(/event loop: +lag not measured: this runtime's monitorEventLoopDelay\(\) does not record/);
      expect(run.stdout).not.toMatch(/0\.000 ms/);
    });

    it(`RUNTIMES: demo --vulkan under ${name}: every frame the simulated runtime received is the one drawn (lavapipe)`, async (ctx) => {
      const runtime = need(name, ctx);
      const missing = missingLavapipe();
      if (missing !== null) return ctx.skip(missing);
      const run = await runUnder(runtime, cli, ['demo', '--vulkan', '--seconds', '1']);
      expect(run.code, run.output).toBe(0);
      const [, asDrawn, drawn] = /runtime got: +(\d+) of (\d+) frames received exactly as drawn/.exec(run.stdout) ?? [];
      expect(Number(drawn), run.output).toBeGreaterThan(0);
      expect(asDrawn, run.output).toBe(drawn);
    });
  });
}
