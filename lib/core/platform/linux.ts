// The real Linux platform: process.env, the real file system, and the process's elevation.
import * as fs from 'node:fs';
import { nodeFileSystem } from './node-fs.js';
import { archAbiName, envFromMap, type Platform } from './platform.js';

const AT_SECURE = 23;

/**
 * glibc's secure_getenv answers NULL when the kernel set AT_SECURE for the process (setuid,
 * setgid, file capabilities, LSM transitions). Read it from /proc/self/auxv when we can; fall
 * back to comparing real and effective ids, which covers setuid/setgid.
 */
export function readAtSecure(auxvPath = '/proc/self/auxv'): boolean | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(auxvPath);
  } catch {
    return undefined;
  }
  const word = process.arch === 'ia32' || process.arch === 'arm' ? 4 : 8;
  for (let off = 0; off + 2 * word <= data.length; off += 2 * word) {
    const type = word === 8 ? Number(data.readBigUInt64LE(off)) : data.readUInt32LE(off);
    const value = word === 8 ? Number(data.readBigUInt64LE(off + word)) : data.readUInt32LE(off + word);
    if (type === 0) break;
    if (type === AT_SECURE) return value !== 0;
  }
  return undefined;
}

export function idsDiffer(): boolean {
  if (typeof process.getuid !== 'function' || typeof process.geteuid !== 'function') return false;
  const gid = process.getgid?.();
  const egid = process.getegid?.();
  return process.getuid() !== process.geteuid() || gid !== egid;
}

export interface LinuxPlatformOptions {
  /** The environment to read (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Force the elevation answer (tests); default: AT_SECURE, else real vs effective ids. */
  elevated?: boolean;
}

export function createLinuxPlatform(options: LinuxPlatformOptions = {}): Platform {
  const elevated = options.elevated ?? (readAtSecure() === true || idsDiffer());
  const pointerBits: 32 | 64 = process.arch === 'ia32' || process.arch === 'arm' ? 32 : 64;
  return {
    os: 'linux',
    env: envFromMap(options.env ?? process.env, elevated),
    fs: nodeFileSystem(),
    elevated,
    pointerBits,
    arch: archAbiName(process.arch, pointerBits),
    executablePath: process.execPath,
    pathSeparator: ':',
  };
}
