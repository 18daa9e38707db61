// The ELF header of a shared library: enough to tell whether this process can load it at all
// (a non-ELF file, a 32-bit library in a 64-bit process, another CPU's library) before dlopen
// gives its terser answer.
import { readFileStart } from './file-start.js';

export interface ElfHeader {
  readonly bits: 32 | 64;
  readonly endianness: 'little' | 'big';
  /** e_type: 3 is ET_DYN (a shared object). */
  readonly type: number;
  /** e_machine, e.g. 62 x86-64, 183 AArch64. */
  readonly machine: number;
}

export type ElfReadResult =
  | { readonly kind: 'elf'; readonly header: ElfHeader }
  | { readonly kind: 'not-elf'; readonly reason: string }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** e_machine values by name, for messages. */
const MACHINE_NAMES: Readonly<Record<number, string>> = {
  3: 'x86 (i386)',
  8: 'MIPS',
  20: 'PowerPC',
  21: 'PowerPC 64',
  22: 'IBM S/390',
  40: 'ARM (32-bit)',
  62: 'x86-64',
  183: 'AArch64',
  243: 'RISC-V',
  258: 'LoongArch',
};

export function machineName(machine: number): string {
  return MACHINE_NAMES[machine] ?? `e_machine ${machine}`;
}

/** The ELF class and machine this Node process needs, from `process.arch`; undefined when unknown. */
export function expectedElf(nodeArch: string = process.arch): { bits: 32 | 64; machine: number } | undefined {
  switch (nodeArch) {
    case 'x64':
      return { bits: 64, machine: 62 };
    case 'arm64':
      return { bits: 64, machine: 183 };
    case 'ia32':
      return { bits: 32, machine: 3 };
    case 'arm':
      return { bits: 32, machine: 40 };
    case 'ppc64':
      return { bits: 64, machine: 21 };
    case 's390x':
      return { bits: 64, machine: 22 };
    case 'riscv64':
      return { bits: 64, machine: 243 };
    case 'loong64':
      return { bits: 64, machine: 258 };
    case 'mips':
    case 'mipsel':
      return { bits: 32, machine: 8 };
    default:
      return undefined;
  }
}

/** Parses the first bytes of a file (at least the 20 bytes up to e_machine). */
export function parseElfHeader(bytes: Uint8Array): ElfReadResult {
  if (bytes.length < 4 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) {
    const shown = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    return { kind: 'not-elf', reason: bytes.length === 0 ? 'the file is empty' : `no ELF magic (the file starts with ${shown})` };
  }
  if (bytes.length < 20) return { kind: 'not-elf', reason: `the ELF header is truncated (${bytes.length} bytes)` };
  const cls = bytes[4];
  const data = bytes[5];
  if (cls !== 1 && cls !== 2) return { kind: 'not-elf', reason: `unknown ELF class ${cls}` };
  if (data !== 1 && data !== 2) return { kind: 'not-elf', reason: `unknown ELF data encoding ${data}` };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = data === 1;
  return {
    kind: 'elf',
    header: {
      bits: cls === 1 ? 32 : 64,
      endianness: little ? 'little' : 'big',
      type: view.getUint16(16, little),
      machine: view.getUint16(18, little),
    },
  };
}

/** Reads and parses the ELF header of a file on the host file system. */
export function readElfHeader(file: string): ElfReadResult {
  const start = readFileStart(file, 64);
  return 'bytes' in start ? parseElfHeader(start.bytes) : { kind: 'unreadable', reason: start.unreadable };
}
