// Where openxr.simulatedRuntime() finds the manifest: beside the library in a source checkout,
// written into a cache folder with an absolute library path otherwise (prebuilds).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulatedRuntime, SIMULATED_RUNTIME_LIBRARY } from '../../lib/openxr/simulated-runtime.js';
import { repoRoot } from '../helpers/paths.js';

const built = path.join(repoRoot, 'build/Release', SIMULATED_RUNTIME_LIBRARY);

describe('simulatedRuntime()', () => {
  it('SIMXR: in a source checkout, the manifest CMake wrote beside the built library', () => {
    const manifest = simulatedRuntime();
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { file_format_version: string; runtime: { library_path: string } };
    expect(parsed.file_format_version).toBe('1.0.0');
    expect(path.resolve(path.dirname(manifest), parsed.runtime.library_path)).toBe(path.dirname(manifest) + '/' + SIMULATED_RUNTIME_LIBRARY);
  });

  it('SIMXR: beside a library without a manifest (prebuilds), writes one with the absolute library path into the cache', () => {
    const prebuilds = mkdtempSync(path.join(os.tmpdir(), 'simxr-prebuilds-'));
    copyFileSync(built, path.join(prebuilds, SIMULATED_RUNTIME_LIBRARY));
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'simxr-cache-'));
    const manifest = simulatedRuntime({ libraryDir: prebuilds, cacheDir });
    expect(manifest.startsWith(cacheDir)).toBe(true);
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { runtime: { library_path: string } };
    expect(parsed.runtime.library_path).toBe(path.join(prebuilds, SIMULATED_RUNTIME_LIBRARY));
    // Asked again, the same file; a stale manifest pointing elsewhere is replaced.
    expect(simulatedRuntime({ libraryDir: prebuilds, cacheDir })).toBe(manifest);
    writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', runtime: { library_path: '/elsewhere/lib.so' } }));
    expect(simulatedRuntime({ libraryDir: prebuilds, cacheDir })).toBe(manifest);
    expect((JSON.parse(readFileSync(manifest, 'utf8')) as { runtime: { library_path: string } }).runtime.library_path).toBe(
      path.join(prebuilds, SIMULATED_RUNTIME_LIBRARY),
    );
  });

  it('SIMXR: a missing runtime library is an error naming the file', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'simxr-empty-'));
    mkdirSync(empty, { recursive: true });
    expect(() => simulatedRuntime({ libraryDir: empty })).toThrow(SIMULATED_RUNTIME_LIBRARY);
  });
});
