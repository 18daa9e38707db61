// The PE header of a Windows DLL: enough to tell whether this process can load it at all (not a
// PE file, another CPU's DLL, an executable rather than a DLL) before LoadLibraryExW gives its
// terser "Bad EXE format". The Windows counterpart of elf.ts.
import { readFileStart } from './file-start.js';

export interface PeHeader {
  /** IMAGE_FILE_HEADER.Machine, e.g. 0x8664 x86-64, 0xaa64 ARM64, 0x14c i386. */
  readonly machine: number;
  /** IMAGE_FILE_DLL is set in Characteristics. */
  readonly dll: boolean;
}

export type PeReadResult =
  | { readonly kind: 'pe'; readonly header: PeHeader }
  | { readonly kind: 'not-pe'; readonly reason: string }
  | { readonly kind: 'unreadable'; readonly reason: string };

const MACHINE_NAMES: Readonly<Record<number, string>> = { 0x14c: 'x86 (i386)', 0x8664: 'x86-64', 0xaa64: 'ARM64', 0x1c4: 'ARM (32-bit)' };

export function peMachineName(machine: number): string {
  return MACHINE_NAMES[machine] ?? `machine 0x${machine.toString(16)}`;
}

/** The PE machine this Node process needs, from `process.arch`; undefined when unknown. */
export function expectedPeMachine(nodeArch: string = process.arch): number | undefined {
  return ({ x64: 0x8664, arm64: 0xaa64, ia32: 0x14c, arm: 0x1c4 } as Readonly<Record<string, number>>)[nodeArch];
}

/** Parses the DOS stub's pointer to the PE signature and the COFF file header after it. */
export function parsePeHeader(bytes: Uint8Array): PeReadResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 0x40 || bytes[0] !== 0x4d || bytes[1] !== 0x5a) return { kind: 'not-pe', reason: 'no MZ signature at the start of the file' };
  const peOffset = view.getUint32(0x3c, true);
  if (peOffset + 24 > bytes.length) return { kind: 'not-pe', reason: `the PE header offset ${peOffset} lies past the bytes read` };
  if (view.getUint32(peOffset, true) !== 0x00004550) return { kind: 'not-pe', reason: `no PE signature at offset ${peOffset}` };
  return { kind: 'pe', header: { machine: view.getUint16(peOffset + 4, true), dll: (view.getUint16(peOffset + 22, true) & 0x2000) !== 0 } };
}

export function readPeHeader(file: string): PeReadResult {
  const start = readFileStart(file, 4096);
  return 'bytes' in start ? parsePeHeader(start.bytes) : { kind: 'unreadable', reason: start.unreadable };
}
