// Runs test/native/simxr_probe (built by the global setup) against the simulated runtime through
// the system Khronos loader, and returns the JSON it wrote.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';

export const probePath = path.join(testNativeDir, 'simxr_probe/simxr_probe');
export const manifestPath = path.join(repoRoot, 'build/Release/khronos_simxr.json');
export const coreValidationManifest = '/usr/share/openxr/1/api_layers/explicit.d/XrApiLayer_core_validation.x86_64-linux-gnu.json';

/** Why the probe tests cannot run here, or null. */
export function probeUnavailable(extra: Record<string, readonly string[]> = {}): string | null {
  return missingSystemComponent({
    'system OpenXR loader (libopenxr-loader1)': ['/usr/lib/x86_64-linux-gnu/libopenxr_loader.so.1'],
    'test/native simxr_probe (needs libopenxr-dev)': [probePath],
    ...extra,
  });
}

export interface ProbeRun {
  readonly result: Record<string, unknown>;
  readonly stdout: string;
  readonly stderr: string;
}

export function runProbe(scenario: string, options: { env?: Record<string, string>; args?: string[] } = {}): ProbeRun {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'simxr-probe-')), 'result.json');
  const env: Record<string, string | undefined> = { ...process.env, XR_RUNTIME_JSON: manifestPath, ...options.env };
  // Settings the developer's shell may have that would change what the loader does.
  if (options.env?.XR_ENABLE_API_LAYERS === undefined) delete env.XR_ENABLE_API_LAYERS;
  if (options.env?.XR_LOADER_DEBUG === undefined) delete env.XR_LOADER_DEBUG;
  const run = spawnSync(probePath, [scenario, '--out', out, ...(options.args ?? [])], { env, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`simxr_probe ${scenario} exited with ${run.status}: ${run.stderr}`);
  return { result: JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>, stdout: run.stdout, stderr: run.stderr };
}

/** XrResult values used by the tests (from the OpenXR registry). */
export const XR = {
  SUCCESS: 0,
  SPACE_BOUNDS_UNAVAILABLE: 7,
  SESSION_NOT_FOCUSED: 8,
  FRAME_DISCARDED: 9,
  ERROR_VALIDATION_FAILURE: -1,
  ERROR_INITIALIZATION_FAILED: -6,
  ERROR_FUNCTION_UNSUPPORTED: -7,
  ERROR_EXTENSION_NOT_PRESENT: -9,
  ERROR_LIMIT_REACHED: -10,
  ERROR_SIZE_INSUFFICIENT: -11,
  ERROR_HANDLE_INVALID: -12,
  ERROR_SESSION_RUNNING: -14,
  ERROR_SESSION_NOT_RUNNING: -16,
  ERROR_PATH_INVALID: -19,
  ERROR_PATH_FORMAT_INVALID: -21,
  ERROR_PATH_UNSUPPORTED: -22,
  ERROR_ACTION_TYPE_MISMATCH: -27,
  ERROR_SESSION_NOT_READY: -28,
  ERROR_SESSION_NOT_STOPPING: -29,
  ERROR_TIME_INVALID: -30,
  ERROR_REFERENCE_SPACE_UNSUPPORTED: -31,
  ERROR_FORM_FACTOR_UNSUPPORTED: -34,
  ERROR_CALL_ORDER_INVALID: -37,
  ERROR_GRAPHICS_DEVICE_INVALID: -38,
  ERROR_POSE_INVALID: -39,
  ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED: -42,
  ERROR_NAME_DUPLICATED: -44,
  ERROR_ACTIONSET_NOT_ATTACHED: -46,
  ERROR_ACTIONSETS_ALREADY_ATTACHED: -47,
} as const;

/** XrSessionState values. */
export const STATE = { IDLE: 1, READY: 2, SYNCHRONIZED: 3, VISIBLE: 4, FOCUSED: 5, STOPPING: 6, EXITING: 8 } as const;
