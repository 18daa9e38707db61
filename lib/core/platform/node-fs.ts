// The PlatformFileSystem over node:fs, optionally with every absolute path mapped under a root
// folder (the fixture platform). Synchronous: discovery reads a handful of small files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStat, PlatformFileSystem } from './platform.js';

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

export interface PathMapping {
  /** Platform path → host path. */
  toHost(p: string): string;
  /** Host path → platform path (for realpath answers). */
  fromHost(p: string): string;
}

export const identityMapping: PathMapping = { toHost: (p) => p, fromHost: (p) => p };

export function nodeFileSystem(mapping: PathMapping = identityMapping): PlatformFileSystem {
  return {
    stat(p: string): FileStat | undefined {
      try {
        const s = fs.statSync(mapping.toHost(p));
        return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size };
      } catch {
        return undefined;
      }
    },
    readdir(p: string) {
      try {
        return { entries: fs.readdirSync(mapping.toHost(p)) };
      } catch (err) {
        return { error: describe(err) };
      }
    },
    readFile(p: string, maxBytes: number) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(mapping.toHost(p), 'r');
        const size = fs.fstatSync(fd).size;
        if (size > maxBytes) return { error: `the file is ${size} bytes, more than the ${maxBytes} allowed for a manifest`, tooLarge: true };
        // Read up to maxBytes + 1 so a file that grows (or a device with no size) is still capped.
        const buf = Buffer.alloc(Math.min(maxBytes + 1, Math.max(size, 64 * 1024)));
        let total = 0;
        for (;;) {
          if (total === buf.length) {
            if (total > maxBytes) return { error: `the file is more than the ${maxBytes} bytes allowed for a manifest`, tooLarge: true };
            break;
          }
          const n = fs.readSync(fd, buf, total, buf.length - total, null);
          if (n === 0) break;
          total += n;
        }
        if (total > maxBytes) return { error: `the file is more than the ${maxBytes} bytes allowed for a manifest`, tooLarge: true };
        return { data: new Uint8Array(buf.buffer, buf.byteOffset, total) };
      } catch (err) {
        return { error: describe(err) };
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    },
    realpath(p: string): string | undefined {
      try {
        return mapping.fromHost(fs.realpathSync.native(mapping.toHost(p)));
      } catch {
        return undefined;
      }
    },
  };
}

/** Maps POSIX-style absolute paths under `root`, e.g. /etc/xdg → <root>/etc/xdg. */
export function rootedPosixMapping(root: string): PathMapping {
  const absRoot = path.resolve(root);
  return {
    toHost: (p) => (path.posix.isAbsolute(p) ? path.join(absRoot, p) : p),
    fromHost: (p) => {
      const rel = path.relative(absRoot, p);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return p;
      return '/' + rel.split(path.sep).join('/');
    },
  };
}

/**
 * Maps Windows paths under `root`: `C:\a\b.json` → <root>/C/a/b.json (drive letter upper-cased,
 * as Windows paths are case-insensitive for the drive).
 */
export function rootedWindowsMapping(root: string): PathMapping {
  const absRoot = path.resolve(root);
  return {
    toHost: (p) => {
      const m = /^([A-Za-z]):[\\/](.*)$/.exec(p);
      if (!m) return path.join(absRoot, '_relative_', p.replace(/\\/g, '/'));
      const drive = (m[1] ?? 'C').toUpperCase();
      return path.join(absRoot, drive, (m[2] ?? '').replace(/\\/g, '/'));
    },
    fromHost: (p) => {
      const rel = path.relative(absRoot, p);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return p;
      const [drive, ...rest] = rel.split(path.sep);
      return `${drive}:\\${rest.join('\\')}`;
    },
  };
}
