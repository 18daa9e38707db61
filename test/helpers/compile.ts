// Builds a small real shared library from C source into a temporary folder (for tests that
// need a library with particular symbols and no more).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function compileSharedLibrary(name: string, source: string, dir = mkdtempSync(path.join(os.tmpdir(), 'kl-lib-'))): string {
  const sourcePath = path.join(dir, `${name}.c`);
  const libraryPath = path.join(dir, `lib${name}.so`);
  writeFileSync(sourcePath, source);
  execFileSync('cc', ['-shared', '-fPIC', '-O1', '-Wall', '-Werror', '-o', libraryPath, sourcePath]);
  return libraryPath;
}
