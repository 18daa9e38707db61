// The Khronos OpenXR loader (libopenxr_loader.so.1) measured beside this package's: in a child
// process, so the row's XR_RUNTIME_JSON / XR_API_LAYER_PATH / XR_ENABLE_API_LAYERS apply to it
// alone, with no compiler and no development files (the addon dlopens the library).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../native.js';
import type { KhronosChildRequest, KhronosChildResult } from './khronos-protocol.js';

/** Where distributions put the Khronos loader. */
export const KHRONOS_LOADER_CANDIDATES: readonly string[] = [
  '/usr/lib/x86_64-linux-gnu/libopenxr_loader.so.1',
  '/usr/lib/aarch64-linux-gnu/libopenxr_loader.so.1',
  '/usr/lib64/libopenxr_loader.so.1',
  '/usr/local/lib/libopenxr_loader.so.1',
  '/usr/lib/libopenxr_loader.so.1',
];

export function findKhronosLoader(candidates: readonly string[] = KHRONOS_LOADER_CANDIDATES): string | undefined {
  return candidates.find((p) => existsSync(p));
}

/** The Debian package version of the Khronos loader, when dpkg knows it. */
export function khronosLoaderPackageVersion(): string | undefined {
  try {
    const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libopenxr-loader1'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    return version === '' ? undefined : version;
  } catch {
    return undefined;
  }
}

/** node arguments that run the child: the .js beside this file, or the .ts through tsx in a source checkout. */
function childCommand(): string[] {
  const self = fileURLToPath(import.meta.url);
  if (self.endsWith('.ts')) return ['--import', 'tsx', self.replace(/khronos-loader-side\.ts$/, 'khronos-child.ts')];
  return [self.replace(/khronos-loader-side\.js$/, 'khronos-child.js')];
}

const STDERR_LIMIT = 4000;

/** Runs one Khronos-side measurement in a child with `env`; never throws (the answer says what failed). */
export function measureKhronosLoader(request: KhronosChildRequest, env: Readonly<Record<string, string>>, timeoutMs = 600_000): Promise<KhronosChildResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...childCommand(), JSON.stringify(request)], {
      cwd: packageRoot,
      env,
      // The child's stdout is ignored: layers such as api_dump print there.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let answer: KhronosChildResult | undefined;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString();
    });
    child.on('message', (message) => {
      answer = message as KhronosChildResult;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `could not start the Khronos-side child: ${error.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (answer !== undefined) resolve(answer);
      else {
        const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
        resolve({ ok: false, error: `the Khronos-side child ${how} without an answer${stderr ? `: ${stderr.trim().slice(0, STDERR_LIMIT)}` : ''}` });
      }
    });
  });
}
