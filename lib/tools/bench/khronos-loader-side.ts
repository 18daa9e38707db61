// The Khronos OpenXR loader (libopenxr_loader.so.1) measured beside this package's: in a child
// process, so the row's XR_RUNTIME_JSON / XR_API_LAYER_PATH / XR_ENABLE_API_LAYERS apply to it
// alone, with no compiler and no development files (the addon dlopens the library).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { runBenchChild } from './child-process.js';
import type { KhronosChildRequest, KhronosChildResult } from './child-protocol.js';

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

/** Runs one Khronos-side measurement in a child with `env`; never throws (the answer says what failed). */
export function measureKhronosLoader(request: KhronosChildRequest, env: Readonly<Record<string, string>>, timeoutMs = 600_000): Promise<KhronosChildResult> {
  return runBenchChild<KhronosChildRequest, KhronosChildResult>('khronos-child', request, env, (error) => ({ ok: false, error }), timeoutMs);
}
