// What a Windows DLL imports, from `objdump -p` (binutils reads PE files on every host; the
// mingw-w64 one is preferred where installed), and which imports a prebuild may have: Windows'
// own DLLs only, so that the DLLs need no mingw runtime (libstdc++, libgcc, winpthread) beside them.
import { spawnSync } from 'node:child_process';

/** System DLLs every Windows 10 has; anything else would have to ship beside the prebuild. */
const WINDOWS_SYSTEM_DLLS = new Set(['kernel32.dll', 'msvcrt.dll', 'advapi32.dll', 'user32.dll', 'ntdll.dll', 'ws2_32.dll', 'bcrypt.dll', 'shell32.dll', 'ole32.dll']);

function objdump(): string {
  const found = ['x86_64-w64-mingw32-objdump', 'objdump'].find((c) => spawnSync('sh', ['-c', `command -v ${c}`]).status === 0);
  if (found === undefined) throw new Error('objdump is missing (Debian: apt-get install binutils)');
  return found;
}

/** The DLL names of `file`'s import directory, as written there. */
export function dllImports(file: string): string[] {
  const result = spawnSync(objdump(), ['-p', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`objdump -p ${file}: ${result.stderr}`);
  if (!/file format pei-x86-64/.test(result.stdout)) throw new Error(`${file} is not a 64-bit Windows DLL`);
  return [...result.stdout.matchAll(/^\s*DLL Name: (\S+)$/gm)].map((m) => m[1] ?? '');
}

/** One line per import outside Windows' own DLLs. */
export function dllImportViolations(label: string, imports: readonly string[]): string[] {
  return imports.filter((name) => !WINDOWS_SYSTEM_DLLS.has(name.toLowerCase())).map((name) => `${label} imports ${name}, which is not a Windows system DLL`);
}
