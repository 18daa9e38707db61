// The API-neutral core (lib/core): what OpenXR and Vulkan discovery both build on, tested on its
// own with a dialect and context that belong to neither API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  compareVersions,
  createDiscoveryContext,
  createFixturePlatform,
  createLogger,
  envFolders,
  jsonFilesInFolders,
  parseJsonObject,
  parseVersion,
  readManifestBytes,
  resolveLibraryPath,
  splitPathList,
  sysconfFolders,
  type DiscoveryContext,
  type LogDialect,
  type LogRecord,
  type Platform,
} from '../../../lib/core/index.js';
import { link, makeTempRoot, put } from '../openxr/fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-core-'));
});
afterEach(() => cleanup());

/** A dialect of no real API: prints "<LEVEL>/<category>: message" for the categories the value names. */
const TEST_DIALECT: LogDialect = {
  variable: 'TEST_LOADER_DEBUG',
  selects(value) {
    const wanted = new Set((value ?? '').split(','));
    return (r) => wanted.has(r.level) || (r.category !== undefined && wanted.has(r.category));
  },
  format: (r) => `${r.level.toUpperCase()}/${r.category ?? '-'}: ${r.message}\n`,
};

function context(platform: Platform, printed: string[] = [], records: LogRecord[] = []): DiscoveryContext<'TEST_ERROR'> {
  return createDiscoveryContext<'TEST_ERROR'>(platform, {}, {
    logger: createLogger(TEST_DIALECT, platform.env, (t) => printed.push(t), (r) => records.push(r)),
    source: 'test.discovery',
    ignoredWhileElevated: (name, value) => ({ level: 'warn', message: `ignoring ${name}=${value}` }),
  });
}

describe('core: manifests, versions, folders, search paths', () => {
  it('XR-LM-5 VK-LM-4: JSON errors and a non-object top level are one diagnostic naming the file; comments only when asked for', () => {
    expect(parseJsonObject('/m.json', '{"a": 1}')).toEqual({ root: { a: 1 } });
    const bad = parseJsonObject('/m.json', '{"a": ');
    expect('error' in bad && bad.error.file).toBe('/m.json');
    expect('error' in bad && bad.error.reason).toMatch(/^not valid JSON \(/);
    const arr = parseJsonObject('/m.json', '[1]');
    expect('error' in arr && arr.error.reason).toBe('the top level is an array, not a JSON object');
    const commented = '\ufeff{ // c\n "a": /* x */ 2 }';
    expect('error' in parseJsonObject('/m.json', commented)).toBe(true);
    expect(parseJsonObject('/m.json', commented, { comments: true })).toEqual({ root: { a: 2 } });
  });

  it('XR-RD-5 VK-LM-1: versions are three dot-separated numbers, compared numerically; anything else says why', () => {
    expect(parseVersion(' 1.2.10 ')).toEqual({ ok: true, version: { major: 1, minor: 2, patch: 10 } });
    expect(parseVersion('1.2')).toEqual({ ok: false, reason: '"1.2" is not a major.minor.patch version' });
    expect(parseVersion('1.x.0').ok).toBe(false);
    const v = (s: string): { major: number; minor: number; patch: number } => {
      const r = parseVersion(s);
      if (!r.ok) throw new Error(r.reason);
      return r.version;
    };
    expect(compareVersions(v('1.2.10'), v('1.2.9'))).toBeGreaterThan(0);
    expect(compareVersions(v('1.0.0'), v('1.1.0'))).toBeLessThan(0);
    expect(compareVersions(v('1.1.2'), v('1.1.2'))).toBe(0);
  });

  it('XR-LM-5 VK-LM-4: manifest reads fail with the reason: missing, a directory, too large', () => {
    put(root, '/d/big.json', 'x'.repeat(64));
    const platform = createFixturePlatform({ root });
    const ctx = { platform, maxManifestBytes: 16 };
    const missing = readManifestBytes(ctx, '/d/none.json');
    expect('error' in missing && missing.error.reason).toBe('the file does not exist (or is a broken symlink or a symlink loop)');
    const dir = readManifestBytes(ctx, '/d');
    expect('error' in dir && dir.error.reason).toBe('is a directory, not a manifest file');
    const big = readManifestBytes(ctx, '/d/big.json');
    expect('error' in big && big.error.reason).toMatch(/^cannot be read: /);
    expect(readManifestBytes({ platform, maxManifestBytes: 100 }, '/d/big.json')).toHaveProperty('data');
  });

  it('XR-LD-6 VK-LD-5: every *.json of a folder, sorted by name; a folder listed twice (or through a symlink) is read once', () => {
    for (const n of ['b.json', 'a.json', 'c.txt', 'B.json']) put(root, `/f/${n}`, '{}');
    link(root, '/g', `${root}/f`);
    put(root, '/file', 'not a folder');
    // Node's readdir happens to sort (libuv scandir); a platform's need not, so this one reverses.
    const base = createFixturePlatform({ root });
    const reversed: Platform = {
      ...base,
      fs: {
        ...base.fs,
        readdir: (p) => {
          const r = base.fs.readdir(p);
          return 'error' in r ? r : { entries: [...r.entries].reverse() };
        },
      },
    };
    const ctx = context(reversed);
    const r = jsonFilesInFolders(ctx, [
      { path: '/f', source: 'ONE' },
      { path: '/g', source: 'TWO' },
      { path: '/missing', source: 'ONE' },
      { path: '/file', source: 'ONE' },
    ]);
    expect(r.files).toEqual([
      { file: '/f/B.json', source: 'ONE' },
      { file: '/f/a.json', source: 'ONE' },
      { file: '/f/b.json', source: 'ONE' },
    ]);
    expect(r.searched).toEqual(['/f', '/g', '/missing', '/file']);
    expect(ctx.diagnostics).toEqual([{ severity: 'warning', file: '/file', reason: 'is a search folder (ONE) but not a directory; skipped' }]);
  });

  it('XR-LD-2 VK-LD-1: search folders from a variable or its fallback, empty entries dropped, SYSCONFDIR then EXTRASYSCONFDIR', () => {
    const ctx = context(createFixturePlatform({ root, env: { DIRS: ':/a::/b/' } }));
    expect(envFolders(ctx, 'DIRS', '/x', 'rel.d', 'DIRS')).toEqual([
      { path: '/a/rel.d', source: 'DIRS' },
      { path: '/b/rel.d', source: 'DIRS' },
    ]);
    expect(envFolders(ctx, 'UNSET', '/x:/y', undefined, 'UNSET')).toEqual([
      { path: '/x', source: 'UNSET' },
      { path: '/y', source: 'UNSET' },
    ]);
    expect(envFolders(ctx, 'UNSET', undefined, 'r', 'UNSET')).toEqual([]);
    expect(sysconfFolders(ctx, 'r', { sysconfdir: 'S', extraSysconfdir: 'E' })).toEqual([
      { path: '/usr/local/etc/r', source: 'S' },
      { path: '/etc/r', source: 'E' },
    ]);
    expect(splitPathList('C:\\a;;D:\\b', ';')).toEqual(['C:\\a', 'D:\\b']);
  });

  it('XR-LD-3 VK-LD-4: an elevated process ignores a set variable, uses the fallback, and says so once per variable in the API\'s words', () => {
    const printed: string[] = [];
    const ctx = context(createFixturePlatform({ root, elevated: true, env: { DIRS: '/evil', TEST_LOADER_DEBUG: 'warn' } }), printed);
    expect(envFolders(ctx, 'DIRS', '/safe', undefined, 'DIRS')).toEqual([{ path: '/safe', source: 'DIRS' }]);
    expect(ctx.secureEnv('DIRS')).toBeUndefined();
    expect(printed).toEqual(['WARN/-: ignoring DIRS=/evil\n']);
    expect(ctx.diagnostics).toEqual([
      { severity: 'warning', file: 'environment variable DIRS', reason: "ignored because the process runs elevated (value '/evil')" },
    ]);
  });

  it('XR-LM-4 VK-LM-1: library_path is bare (no separator), absolute, or relative to the manifest folder', () => {
    put(root, '/m/lib/x.so', '');
    const platform = createFixturePlatform({ root });
    expect(resolveLibraryPath(platform, '/m', 'libx.so')).toEqual({ kind: 'bare', path: 'libx.so', inManifest: 'libx.so', exists: undefined });
    expect(resolveLibraryPath(platform, '/m', 'lib/x.so')).toEqual({ kind: 'relative', path: '/m/lib/x.so', inManifest: 'lib/x.so', exists: true });
    expect(resolveLibraryPath(platform, '/m/', '/m/lib/y.so')).toEqual({ kind: 'absolute', path: '/m/lib/y.so', inManifest: '/m/lib/y.so', exists: false });
  });
});

describe('core: the logger', () => {
  it('NODE-7: a dialect decides what is printed and how (by level and by category); listeners get every record', () => {
    const printed: string[] = [];
    const records: LogRecord[] = [];
    const ctx = context(createFixturePlatform({ root, env: { TEST_LOADER_DEBUG: 'error,driver' } }), printed, records);
    ctx.log('error', 'e');
    ctx.log('info', 'not printed');
    ctx.log('debug', 'about a driver', undefined, 'driver');
    ctx.report({ severity: 'error', file: '/x.json', field: 'a.b', reason: 'bad', code: 'TEST_ERROR' });
    expect(printed).toEqual(['ERROR/-: e\n', 'DEBUG/driver: about a driver\n', 'ERROR/-: /x.json [a.b]: bad (TEST_ERROR)\n']);
    expect(records.map((r) => [r.level, r.source, r.message])).toEqual([
      ['error', 'test.discovery', 'e'],
      ['info', 'test.discovery', 'not printed'],
      ['debug', 'test.discovery', 'about a driver'],
      ['error', 'test.discovery', '/x.json [a.b]: bad (TEST_ERROR)'],
    ]);
    expect(records[2]?.category).toBe('driver');
  });
});
