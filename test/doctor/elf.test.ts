// The ELF header check the doctor runs before loading a library.
import { describe, expect, it } from 'vitest';
import { expectedElf, parseElfHeader, readElfHeader } from '../../lib/doctor/elf.js';
import { checkLibraryFile } from '../../lib/doctor/static-checks.js';
import { componentLibrary, elf32Header, makeFixture } from './fixture.js';

describe('ELF header checks', () => {
  it('DOCTOR: a built test library is a 64-bit shared object for this machine', () => {
    const r = readElfHeader(componentLibrary('kl_doctor_layer_ok'));
    expect(r.kind).toBe('elf');
    if (r.kind !== 'elf') return;
    expect(r.header.type).toBe(3);
    expect({ bits: r.header.bits, machine: r.header.machine }).toEqual(expectedElf());
  });

  it('DOCTOR: the crafted 32-bit header, a text file, an empty file and a truncated header', () => {
    expect(parseElfHeader(elf32Header())).toEqual({ kind: 'elf', header: { bits: 32, endianness: 'little', type: 3, machine: 3 } });
    expect(parseElfHeader(new TextEncoder().encode('hello'))).toEqual({ kind: 'not-elf', reason: 'no ELF magic (the file starts with 68 65 6c 6c)' });
    expect(parseElfHeader(new Uint8Array())).toEqual({ kind: 'not-elf', reason: 'the file is empty' });
    expect(parseElfHeader(elf32Header().subarray(0, 10))).toEqual({ kind: 'not-elf', reason: 'the ELF header is truncated (10 bytes)' });
  });

  it('DOCTOR: an AArch64 library is the wrong machine for an x86-64 process, and the reverse', () => {
    const f = makeFixture({});
    const lib = componentLibrary('kl_doctor_layer_ok');
    const native = readElfHeader(lib);
    if (native.kind !== 'elf' || native.header.machine !== 62) return; // the check below is stated for x86-64 builds
    const asArm = checkLibraryFile(lib, f.runtimeManifest, 'runtime.library_path', 'arm64');
    expect(asArm.fatal).toBe(true);
    expect(asArm.problems[0]?.what).toBe(`${lib} is built for x86-64; this process runs on AArch64`);
    expect(checkLibraryFile(lib, f.runtimeManifest, 'runtime.library_path', 'x64')).toEqual({ problems: [], fatal: false });
    expect(checkLibraryFile(lib, f.runtimeManifest, 'runtime.library_path', 'ia32').problems[0]?.what).toBe(`${lib} is a 64-bit library; this process is 32-bit`);
  });
});
