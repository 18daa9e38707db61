// The ELF header check the doctor runs before loading a library.
import { describe, expect, it } from 'vitest';
import { expectedElf, parseElfHeader, readElfHeader } from '../../lib/tools/doctor/elf.js';
import { checkLibraryFile } from '../../lib/tools/doctor/static-checks.js';
import { componentLibrary, elf32Header, makeFixture } from './fixture.js';
import { skipOrFail } from '../helpers/system.js';

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

  it('DOCTOR: an AArch64 library is the wrong machine for an x86-64 process, and the reverse', (ctx) => {
    const f = makeFixture({});
    const lib = componentLibrary('kl_doctor_layer_ok');
    const native = readElfHeader(lib);
    if (native.kind !== 'elf') throw new Error(`${lib} is not an ELF file: ${native.reason}`);
    // The test library is built for this machine: x86-64 (EM_X86_64 = 62) or AArch64 (EM_AARCH64 = 183).
    const machines = { 62: { arch: 'x64', name: 'x86-64' }, 183: { arch: 'arm64', name: 'AArch64' } } as const;
    const own = native.header.machine === 62 || native.header.machine === 183 ? machines[native.header.machine] : undefined;
    if (own === undefined) return skipOrFail(ctx, `the test library's ELF machine ${native.header.machine} is neither x86-64 nor AArch64`);
    const other = own.arch === 'x64' ? machines[183] : machines[62];
    const wrong = checkLibraryFile(lib, f.runtimeManifest, 'runtime.library_path', other.arch);
    expect(wrong.fatal).toBe(true);
    expect(wrong.problems[0]?.what).toBe(`${lib} is built for ${own.name}; this process runs on ${other.name}`);
    expect(checkLibraryFile(lib, f.runtimeManifest, 'runtime.library_path', own.arch)).toEqual({ problems: [], fatal: false });
    expect(checkLibraryFile(lib, f.runtimeManifest, 'runtime.library_path', 'ia32').problems[0]?.what).toBe(`${lib} is a 64-bit library; this process is 32-bit`);
  });
});
