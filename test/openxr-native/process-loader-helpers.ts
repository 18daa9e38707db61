// Children for the process-wide Vulkan loader tests (fixtures/): each runs in a process of its own,
// because provideProcessVulkanLoader() cannot be undone and because the Khronos loader aborts the
// process when a runtime hands it an instance it does not know.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { monadoUnderTest } from '../helpers/openxr-runtimes.js';
import { repoRoot } from '../helpers/paths.js';
import { LAVAPIPE_MANIFEST } from '../vulkan-native/helpers.js';

export interface SessionChild {
  /** The fixture's JSON lines by step ('published', 'ran'); absent when the process died before. */
  readonly steps: Record<string, Record<string, unknown>>;
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

/** The environment of a child on `manifest`, with the runtime's own variables (Monado's headless ones). */
function childEnv(manifest: string, runtimeEnv: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XR_RUNTIME_JSON: manifest, XR_API_LAYER_PATH: '', VK_DRIVER_FILES: LAVAPIPE_MANIFEST };
  for (const [k, v] of Object.entries(runtimeEnv)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function runFixture(fixture: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): SessionChild {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/openxr-native/fixtures', fixture), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  const steps: Record<string, Record<string, unknown>> = {};
  for (const line of child.stdout.split('\n')) {
    if (!line.startsWith('{"')) continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    steps[typeof parsed.step === 'string' ? parsed.step : typeof parsed.mode === 'string' ? parsed.mode : 'line'] = parsed;
  }
  return { steps, status: child.status, signal: child.signal, output: `${child.stdout}\n${child.stderr}`.slice(-4000) };
}

/** test/native/xr_vulkan_frames's `variant` in a child on the runtime `manifest`, with or without the process loader provided first. */
export function runSessionChild(
  manifest: string,
  runtimeEnv: Readonly<Record<string, string | undefined>>,
  processLoader: boolean,
  variant: string,
  limit: number,
  timeoutMs = 120_000,
): SessionChild {
  return runFixture('xr-vulkan-session.ts', [...(processLoader ? ['--process-loader'] : []), variant, String(limit)], childEnv(manifest, runtimeEnv), timeoutMs);
}

/** fixtures/process-loader-probe.ts in `mode`. */
export function runProbeChild(mode: string, ...args: string[]): SessionChild {
  return runFixture('process-loader-probe.ts', [mode, ...args], { ...process.env, VK_DRIVER_FILES: LAVAPIPE_MANIFEST }, 60_000);
}

/** The fields of a "key=value key=value" report. */
export function reportFields(report: string): Record<string, string> {
  return Object.fromEntries(report.split(' ').filter((w) => w.includes('=')).map((w) => w.split('=', 2) as [string, string]));
}

/** Monado as the suite runs it (skip reason, manifest, its headless variables). */
export const monado = monadoUnderTest();

/** The states of a session from start to exit, each change once. */
export const FULL_SESSION_STATES = 'idle,ready,synchronized,visible,focused,visible,synchronized,stopping,idle,exiting';
