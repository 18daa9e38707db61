// The Platform adapters: secure environment reads, elevation, path mapping, registry views.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAndroidPlatform } from '../../../lib/core/platform/android.js';
import { createFixturePlatform, registryFromMap } from '../../../lib/core/platform/fixture.js';
import { createLinuxPlatform, readAtSecure } from '../../../lib/core/platform/linux.js';
import { nodeFileSystem, rootedWindowsMapping } from '../../../lib/core/platform/node-fs.js';
import { archAbiName, envFromMap } from '../../../lib/core/platform/platform.js';
import { createWindowsPlatform } from '../../../lib/core/platform/windows.js';
import { link, makeTempRoot, put } from '../openxr/fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-platform-'));
});
afterEach(() => cleanup());

describe('Platform adapters', () => {
  it('secure reads answer nothing when elevated; plain reads still answer; set-but-empty is kept', () => {
    const env = envFromMap({ A: 'x', E: '' }, true);
    expect(env.get('A')).toBe('x');
    expect(env.getSecure('A')).toBeUndefined();
    expect(envFromMap({ E: '' }, false).getSecure('E')).toBe('');
    expect(env.get('missing')).toBeUndefined();
  });

  it('Linux: AT_SECURE is read from the auxiliary vector', () => {
    const auxv = (secure: number): Buffer => {
      const b = Buffer.alloc(48);
      b.writeBigUInt64LE(6n, 0); // AT_PAGESZ
      b.writeBigUInt64LE(4096n, 8);
      b.writeBigUInt64LE(23n, 16); // AT_SECURE
      b.writeBigUInt64LE(BigInt(secure), 24);
      return b; // AT_NULL follows (zeros)
    };
    const f = path.join(root, 'auxv');
    writeFileSync(f, auxv(1));
    expect(readAtSecure(f)).toBe(true);
    writeFileSync(f, auxv(0));
    expect(readAtSecure(f)).toBe(false);
    expect(readAtSecure(path.join(root, 'none'))).toBeUndefined();
    // This test process is not setuid: the real platform is not elevated.
    expect(createLinuxPlatform({ env: {} }).elevated).toBe(false);
    expect(createLinuxPlatform({ env: { XR_RUNTIME_JSON: '/x' }, elevated: true }).env.getSecure('XR_RUNTIME_JSON')).toBeUndefined();
  });

  it('architecture names follow XR_ARCH_ABI', () => {
    expect(archAbiName('x64', 64)).toBe('x86_64');
    expect(archAbiName('arm64', 64)).toBe('aarch64');
    expect(archAbiName('ia32', 32)).toBe('i686');
    expect(createLinuxPlatform({ env: {} }).arch).toBe(archAbiName(process.arch, 64));
  });

  it('the fixture file system maps absolute paths under its root and answers realpath in its own terms', () => {
    put(root, '/etc/a.json', '{}');
    link(root, '/etc/b.json', path.join(root, 'etc/a.json'));
    const p = createFixturePlatform({ root });
    expect(p.fs.stat('/etc/a.json')).toEqual({ kind: 'file', size: 2 });
    expect(p.fs.realpath('/etc/b.json')).toBe('/etc/a.json');
    expect(p.fs.readdir('/etc')).toEqual({ entries: expect.arrayContaining(['a.json', 'b.json']) });
    expect(p.fs.readFile('/etc/a.json', 1)).toMatchObject({ tooLarge: true });
    expect('error' in p.fs.readdir('/nope')).toBe(true);
  });

  it('Windows: paths map drive letters, environment names are case-insensitive, high integrity hides secure reads', () => {
    put(root, 'C/x/y.json', '{}');
    const fs = nodeFileSystem(rootedWindowsMapping(root));
    expect(fs.stat('C:\\x\\y.json')?.kind).toBe('file');
    expect(fs.realpath('c:\\x\\y.json')).toBe('C:\\x\\y.json');
    const w = createWindowsPlatform({ env: { Xr_Runtime_Json: 'C:\\r.json' }, fs, registry: registryFromMap({}), highIntegrity: true, pointerBits: 64, executablePath: 'C:\\a.exe' });
    expect(w.env.get('XR_RUNTIME_JSON')).toBe('C:\\r.json');
    expect(w.env.getSecure('XR_RUNTIME_JSON')).toBeUndefined();
    expect(w.pathSeparator).toBe(';');
    expect(registryFromMap({ 'HKLM\\Software\\K': [] }).values('HKLM', 'SOFTWARE\\k')).toEqual([]);
  });

  it('Android: secure reads never answer (the Khronos loader\'s stub)', () => {
    const a = createAndroidPlatform({ env: { XR_RUNTIME_JSON: '/x' }, fs: nodeFileSystem(), android: { property: () => undefined } });
    expect(a.env.get('XR_RUNTIME_JSON')).toBe('/x');
    expect(a.env.getSecure('XR_RUNTIME_JSON')).toBeUndefined();
  });
});
