// Every file the CLI writes is written whole or not at all: the text goes to a temporary file in
// the same folder, is flushed to disk, and is renamed over the target (rename is atomic within a
// file system), so a loader reading the target sees the old file or the new one, never a part.
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

let counter = 0;

function tempName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${++counter}.tmp`);
}

/** Writes `text` to `target` atomically (temp file + fsync + rename), creating its folder. */
export function writeFileAtomic(target: string, text: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const temp = tempName(target);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    const data = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Keeps what is at `target` as `keep` (a symlink stays a symlink to the same place, a file is
 * copied), atomically; returns false when there is nothing at `target`.
 */
export function keepPrevious(target: string, keep: string, readText: (p: string) => string): boolean {
  let st;
  try {
    st = lstatSync(target);
  } catch {
    return false;
  }
  if (st.isSymbolicLink()) {
    const temp = tempName(keep);
    symlinkSync(readlinkSync(target), temp);
    renameSync(temp, keep);
    return true;
  }
  writeFileAtomic(keep, readText(target));
  return true;
}
