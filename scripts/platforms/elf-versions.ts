// What a shared library needs from the C and C++ runtimes, read from its ELF file: every symbol
// version it requires (.gnu.version_r, per library) and which imported symbols carry each one
// (.dynsym with .gnu.version). A portable prebuild needs nothing newer than its glibc baseline
// and nothing at all from libstdc++ (GLIBCXX_*, CXXABI_*), which it links statically.
import { readFileSync } from 'node:fs';

export interface VersionNeed {
  /** The library the version comes from, e.g. "libc.so.6". */
  readonly file: string;
  /** e.g. "GLIBC_2.17". */
  readonly version: string;
  /** The imported symbols bound to this version, e.g. ["dlopen"]. */
  readonly symbols: readonly string[];
}

export type ElfVersionsResult =
  | { readonly kind: 'elf'; readonly machine: number; readonly needs: readonly VersionNeed[] }
  | { readonly kind: 'not-elf' };

const SHT_DYNSYM = 11;
const SHT_GNU_VERNEED = 0x6ffffffe;
const SHT_GNU_VERSYM = 0x6fffffff;

interface Section {
  readonly type: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
  readonly entsize: number;
  readonly info: number;
}

/** Little-endian 64-bit ELF only (x86-64 and AArch64 Linux); anything else throws naming the file. */
export function readElfVersions(file: string, bytes: Buffer = readFileSync(file)): ElfVersionsResult {
  if (bytes.length < 64 || bytes.readUInt32BE(0) !== 0x7f454c46) return { kind: 'not-elf' };
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new Error(`${file}: only little-endian 64-bit ELF files are read (class ${bytes[4]}, data ${bytes[5]})`);
  const machine = bytes.readUInt16LE(18);
  const shoff = Number(bytes.readBigUInt64LE(40));
  const shentsize = bytes.readUInt16LE(58);
  const shnum = bytes.readUInt16LE(60);
  const sections: Section[] = [];
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * shentsize;
    if (at + 64 > bytes.length) throw new Error(`${file}: section header ${i} lies outside the file`);
    sections.push({
      type: bytes.readUInt32LE(at + 4),
      offset: Number(bytes.readBigUInt64LE(at + 24)),
      size: Number(bytes.readBigUInt64LE(at + 32)),
      link: bytes.readUInt32LE(at + 40),
      info: bytes.readUInt32LE(at + 44),
      entsize: Number(bytes.readBigUInt64LE(at + 56)),
    });
  }
  const stringAt = (table: Section | undefined, offset: number): string => {
    if (table === undefined) throw new Error(`${file}: a string table is missing`);
    const start = table.offset + offset;
    const end = bytes.indexOf(0, start);
    return bytes.toString('latin1', start, end < 0 ? table.offset + table.size : end);
  };

  // Version index (as in .gnu.version) -> { file, version } from the version-needs section.
  const byIndex = new Map<number, { file: string; version: string }>();
  const verneed = sections.find((s) => s.type === SHT_GNU_VERNEED);
  if (verneed !== undefined) {
    const strings = sections[verneed.link];
    let entry = verneed.offset;
    for (let n = 0; n < verneed.info; n++) {
      const count = bytes.readUInt16LE(entry + 2);
      const fileName = stringAt(strings, bytes.readUInt32LE(entry + 4));
      let aux = entry + bytes.readUInt32LE(entry + 8);
      for (let k = 0; k < count; k++) {
        const other = bytes.readUInt16LE(aux + 6);
        byIndex.set(other, { file: fileName, version: stringAt(strings, bytes.readUInt32LE(aux + 8)) });
        aux += bytes.readUInt32LE(aux + 12);
      }
      const next = bytes.readUInt32LE(entry + 12);
      if (next === 0) break;
      entry += next;
    }
  }

  const symbolsByIndex = new Map<number, string[]>();
  const dynsym = sections.find((s) => s.type === SHT_DYNSYM);
  const versym = sections.find((s) => s.type === SHT_GNU_VERSYM);
  if (dynsym !== undefined && versym !== undefined) {
    const strings = sections[dynsym.link];
    const count = dynsym.size / (dynsym.entsize || 24);
    for (let i = 1; i < count; i++) {
      const index = bytes.readUInt16LE(versym.offset + 2 * i) & 0x7fff;
      if (!byIndex.has(index)) continue;
      const name = stringAt(strings, bytes.readUInt32LE(dynsym.offset + i * 24));
      const list = symbolsByIndex.get(index) ?? [];
      list.push(name);
      symbolsByIndex.set(index, list);
    }
  }
  const needs = [...byIndex.entries()].map(([index, need]) => ({ ...need, symbols: (symbolsByIndex.get(index) ?? []).sort() }));
  return { kind: 'elf', machine, needs };
}

/** "GLIBC_2.34" -> [2, 34]; undefined for other names (GLIBC_PRIVATE, GCC_3.0, ...). */
export function glibcVersion(version: string): number[] | undefined {
  const match = /^GLIBC_(\d+(?:\.\d+)*)$/.exec(version);
  return match?.[1]?.split('.').map(Number);
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Why this file would not load on glibc `baseline` with no libstdc++ of the right age: one line
 * per offending version, naming the symbols that need it. Empty when it loads.
 */
export function baselineViolations(file: string, needs: readonly VersionNeed[], baseline: readonly number[] = [2, 28]): string[] {
  const out: string[] = [];
  for (const need of needs) {
    const symbols = need.symbols.length > 0 ? need.symbols.join(', ') : '(no symbol named)';
    if (/^(GLIBCXX|CXXABI)_/.test(need.version)) {
      out.push(`${file}: needs ${need.version} from ${need.file} (${symbols}): the C++ runtime must be linked statically`);
      continue;
    }
    const glibc = glibcVersion(need.version);
    if (glibc !== undefined && compareVersions(glibc, baseline) > 0) {
      out.push(`${file}: needs ${need.version} from ${need.file} (${symbols}), newer than GLIBC_${baseline.join('.')}`);
    }
  }
  return out;
}
