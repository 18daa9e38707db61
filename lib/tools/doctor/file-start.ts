// The first bytes of a file, for the ELF and PE header readers (elf.ts, pe.ts): the bytes, or why
// the file could not be read.
import * as fs from 'node:fs';

export function readFileStart(file: string, length: number): { readonly bytes: Uint8Array } | { readonly unreadable: string } {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(length);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, n) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { unreadable: e.code ? `${e.code}: ${e.message}` : String(err) };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
