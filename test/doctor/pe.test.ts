// doctor's library checks on Windows (lib/tools/doctor/pe.ts): the PE header of a DLL, read before
// LoadLibraryExW would answer "Bad EXE format".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePeHeader } from '../../lib/tools/doctor/pe.js';
import { checkLibraryFile } from '../../lib/tools/doctor/static-checks.js';

/** The first bytes of a PE file: DOS stub pointing at offset 0x80, the PE signature, the COFF file header. */
function peBytes(machine: number, characteristics: number): Uint8Array {
  const bytes = new Uint8Array(0x100);
  const view = new DataView(bytes.buffer);
  bytes[0] = 0x4d; // 'M'
  bytes[1] = 0x5a; // 'Z'
  view.setUint32(0x3c, 0x80, true);
  view.setUint32(0x80, 0x00004550, true); // 'PE\0\0'
  view.setUint16(0x84, machine, true);
  view.setUint16(0x80 + 22, characteristics, true);
  return bytes;
}

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kl-pe-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('DOCTOR: Windows DLL checks', () => {
  it('DOCTOR: the PE machine and DLL flag are read; a file without MZ or PE signature is not a DLL', () => {
    expect(parsePeHeader(peBytes(0x8664, 0x2022))).toEqual({ kind: 'pe', header: { machine: 0x8664, dll: true } });
    expect(parsePeHeader(peBytes(0x14c, 0x0102))).toEqual({ kind: 'pe', header: { machine: 0x14c, dll: false } });
    expect(parsePeHeader(new Uint8Array([0x7f, 0x45, 0x4c, 0x46]))).toEqual({ kind: 'not-pe', reason: 'no MZ signature at the start of the file' });
    const noPe = peBytes(0x8664, 0x2022);
    noPe[0x80] = 0;
    expect(parsePeHeader(noPe)).toEqual({ kind: 'not-pe', reason: 'no PE signature at offset 128' });
  });

  it('DOCTOR: on Windows a DLL for another CPU, a program and an ELF file are unloadable, each named with the manifest field; an x64 DLL passes', () => {
    const put = (name: string, bytes: Uint8Array): string => {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      return file;
    };
    const manifest = 'C:\\rt\\rt.json';
    const check = (file: string, arch = 'x64') => checkLibraryFile(file, manifest, 'runtime.library_path', arch, 'win32');
    const x64 = put('x64.dll', peBytes(0x8664, 0x2022));
    expect(check(x64)).toEqual({ problems: [], fatal: false });
    const arm64 = check(x64, 'arm64');
    expect(arm64.fatal).toBe(true);
    expect(arm64.problems[0]?.what).toBe(`${x64} is built for x86-64; this process runs on ARM64`);
    expect(check(put('i386.dll', peBytes(0x14c, 0x2102))).problems[0]?.what).toMatch(/is built for x86 \(i386\); this process runs on x86-64$/);
    expect(check(put('app.exe', peBytes(0x8664, 0x0022))).problems[0]?.what).toMatch(/app\.exe is a program, not a DLL$/);
    const elf = check(put('libx.so', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1])));
    expect(elf).toMatchObject({ fatal: true, problems: [{ stage: 'architecture', why: { field: 'runtime.library_path' } }] });
    expect(elf.problems[0]?.what).toMatch(/libx\.so is not a Windows DLL$/);
    expect(check(path.join(dir, 'absent.dll')).problems[0]).toMatchObject({ stage: 'library', why: { file: manifest, field: 'runtime.library_path' } });
  });
});
