// Runtime and API layer discovery on fixture platforms (Linux, Windows, Android).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '../../../lib/openxr/discovery/context.js';
import { discover } from '../../../lib/openxr/discovery/discover.js';
import { createLoader } from '../../../lib/openxr/loader.js';
import type { LogRecord } from '../../../lib/core/log.js';
import { createFixturePlatform, registryFromMap } from '../../../lib/core/platform/fixture.js';
import type { Platform } from '../../../lib/core/platform/platform.js';
import { discoverRuntime } from '../../../lib/openxr/discovery/runtime-discovery.js';
import { layerManifest, link, makeTempRoot, put, runtimeManifest } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot());
});
afterEach(() => cleanup());

const quiet = { logWriter: () => {} };
const HOME = '/home/u';

function linux(env: Record<string, string> = {}, elevated = false): Platform {
  return createFixturePlatform({ root, env: { HOME, ...env }, elevated });
}

function lib(p: string): string {
  put(root, p, 'not really a library');
  return p;
}

describe('OpenXR runtime discovery', () => {
  it('XR-RD-1: XR_RUNTIME_JSON names the one runtime manifest; no search then', () => {
    put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/a.so')));
    put(root, '/opt/b/manifest.json', runtimeManifest(lib('/rt/b.so')));
    const d = discover({ platform: linux({ XR_RUNTIME_JSON: '/opt/b/manifest.json' }), ...quiet });
    expect(d.runtime?.manifestPath).toBe('/opt/b/manifest.json');
    expect(d.runtime?.source).toBe('XR_RUNTIME_JSON');
    expect(d.searched.runtime).toEqual(['/opt/b/manifest.json']);
  });

  it('XR-RD-1: XR_RUNTIME_JSON naming a broken file gives no runtime rather than falling back', () => {
    put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/a.so')));
    const d = discover({ platform: linux({ XR_RUNTIME_JSON: '/nope.json' }), ...quiet });
    expect(d.runtime).toBeNull();
    expect(d.diagnostics).toContainEqual(expect.objectContaining({ file: '/nope.json', code: 'XR_ERROR_RUNTIME_UNAVAILABLE' }));
  });

  it('XR-RD-1: XR_RUNTIME_JSON is ignored when elevated, with the Khronos loader\'s warning', () => {
    put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/a.so')));
    put(root, '/opt/b/manifest.json', runtimeManifest(lib('/rt/b.so')));
    const records: LogRecord[] = [];
    const d = discover({ platform: linux({ XR_RUNTIME_JSON: '/opt/b/manifest.json' }, true), ...quiet, onLog: (r) => records.push(r) });
    expect(d.runtime?.manifestPath).toBe('/etc/xdg/openxr/1/active_runtime.json');
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'error',
        command: 'platform_utils',
        message:
          "!!! WARNING !!! Environment variable XR_RUNTIME_JSON is being ignored due to running with secure execution. The value '/opt/b/manifest.json' will NOT be used.",
      }),
    );
  });

  it('XR-RD-2: XDG_CONFIG_HOME, then XDG_CONFIG_DIRS in order, then SYSCONFDIR, then EXTRASYSCONFDIR; first found wins', () => {
    const env = { XDG_CONFIG_HOME: '/cfg/home', XDG_CONFIG_DIRS: '/cfg/a::/cfg/b' };
    const d0 = discover({ platform: linux(env), ...quiet });
    expect(d0.searched.runtime).toEqual([
      '/cfg/home/openxr/1/active_runtime.x86_64.json',
      '/cfg/home/openxr/1/active_runtime.json',
      '/cfg/a/openxr/1/active_runtime.x86_64.json',
      '/cfg/a/openxr/1/active_runtime.json',
      '/cfg/b/openxr/1/active_runtime.x86_64.json',
      '/cfg/b/openxr/1/active_runtime.json',
      '/usr/local/etc/openxr/1/active_runtime.x86_64.json',
      '/usr/local/etc/openxr/1/active_runtime.json',
      '/etc/openxr/1/active_runtime.x86_64.json',
      '/etc/openxr/1/active_runtime.json',
    ]);
    expect(d0.runtime).toBeNull();
    put(root, '/etc/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/etc.so')));
    expect(discover({ platform: linux(env), ...quiet }).runtime?.source).toBe('EXTRASYSCONFDIR');
    put(root, '/usr/local/etc/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/sys.so')));
    expect(discover({ platform: linux(env), ...quiet }).runtime?.source).toBe('SYSCONFDIR');
    put(root, '/cfg/b/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/b.so')));
    expect(discover({ platform: linux(env), ...quiet }).runtime?.libraryPath).toBe('/rt/b.so');
    put(root, '/cfg/a/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/a.so')));
    expect(discover({ platform: linux(env), ...quiet }).runtime?.libraryPath).toBe('/rt/a.so');
    put(root, '/cfg/home/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/home.so')));
    const d = discover({ platform: linux(env), ...quiet });
    expect(d.runtime?.libraryPath).toBe('/rt/home.so');
    expect(d.runtime?.source).toBe('XDG_CONFIG_HOME');
  });

  it('XR-RD-2: active_runtime.<arch>.json is preferred over active_runtime.json in the same folder', () => {
    put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/plain.so')));
    put(root, '/etc/xdg/openxr/1/active_runtime.x86_64.json', runtimeManifest(lib('/rt/arch.so')));
    put(root, '/etc/xdg/openxr/1/active_runtime.aarch64.json', runtimeManifest(lib('/rt/arm.so')));
    expect(discover({ platform: linux(), ...quiet }).runtime?.libraryPath).toBe('/rt/arch.so');
    const arm = createFixturePlatform({ root, env: { HOME }, arch: 'aarch64' });
    expect(discover({ platform: arm, ...quiet }).runtime?.libraryPath).toBe('/rt/arm.so');
  });

  it('XR-RD-2: defaults $HOME/.config and /etc/xdg; the per-user folder is skipped when elevated', () => {
    put(root, `${HOME}/.config/openxr/1/active_runtime.json`, runtimeManifest(lib('/rt/user.so')));
    put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/xdg.so')));
    expect(discover({ platform: linux(), ...quiet }).runtime?.libraryPath).toBe('/rt/user.so');
    expect(discover({ platform: linux({}, true), ...quiet }).runtime?.libraryPath).toBe('/rt/xdg.so');
  });

  it('XR-RD-3: Windows reads HKLM\\SOFTWARE\\Khronos\\OpenXR\\1 ActiveRuntime; a 32-bit process on 64-bit Windows reads WOW6432Node', () => {
    put(root, 'C/rt64/rt.json', runtimeManifest('rt64.dll'));
    put(root, 'C/rt32/rt.json', runtimeManifest('rt32.dll'));
    const registry = registryFromMap({
      'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1': [{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\rt64\\rt.json' }],
      'HKLM\\SOFTWARE\\WOW6432Node\\Khronos\\OpenXR\\1': [{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\rt32\\rt.json' }],
    });
    const p64 = createFixturePlatform({ root, os: 'windows', registry, pointerBits: 64 });
    const d64 = discover({ platform: p64, ...quiet });
    expect(d64.runtime?.manifestPath).toBe('C:\\rt64\\rt.json');
    expect(d64.runtime?.source).toBe('registry');
    expect(d64.runtime?.libraryPathKind).toBe('bare');
    const p32 = createFixturePlatform({ root, os: 'windows', registry, pointerBits: 32 });
    expect(discover({ platform: p32, ...quiet }).runtime?.manifestPath).toBe('C:\\rt32\\rt.json');
    const p32on32 = createFixturePlatform({ root, os: 'windows', registry: registryFromMap({}, false), pointerBits: 32 });
    expect(discover({ platform: p32on32, ...quiet }).runtime).toBeNull();
  });

  it('XR-RD-3: a registry value naming a missing file gives no runtime, with a diagnostic naming the value', () => {
    const registry = registryFromMap({ 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1': [{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\gone\\rt.json' }] });
    const d = discover({ platform: createFixturePlatform({ root, os: 'windows', registry }), ...quiet });
    expect(d.runtime).toBeNull();
    expect(d.diagnostics).toContainEqual(expect.objectContaining({ file: 'C:\\gone\\rt.json', code: 'XR_ERROR_RUNTIME_UNAVAILABLE' }));
  });

  it('XR-RD-4: Android looks in /product, /odm, /oem, /vendor, /system etc/openxr/1, arch name first', () => {
    const android = { property: () => undefined };
    const p = createFixturePlatform({ root, os: 'android', arch: 'aarch64', android });
    const d0 = discover({ platform: p, ...quiet });
    expect(d0.searched.runtime.filter((s) => s.endsWith('active_runtime.json'))).toEqual([
      '/product/etc/openxr/1/active_runtime.json',
      '/odm/etc/openxr/1/active_runtime.json',
      '/oem/etc/openxr/1/active_runtime.json',
      '/vendor/etc/openxr/1/active_runtime.json',
      '/system/etc/openxr/1/active_runtime.json',
    ]);
    put(root, '/system/etc/openxr/1/active_runtime.json', runtimeManifest('libsystem_rt.so'));
    put(root, '/vendor/etc/openxr/1/active_runtime.aarch64.json', runtimeManifest('libvendor_rt.so'));
    expect(discover({ platform: p, ...quiet }).runtime?.libraryPath).toBe('libvendor_rt.so');
    // The Khronos loader's secure getenv is a stub on Android: XR_RUNTIME_JSON never applies.
    put(root, '/data/rt.json', runtimeManifest('libother.so'));
    const withEnv = createFixturePlatform({ root, os: 'android', arch: 'aarch64', android, env: { XR_RUNTIME_JSON: '/data/rt.json' } });
    expect(discover({ platform: withEnv, ...quiet }).runtime?.libraryPath).toBe('libvendor_rt.so');
  });

  it('XR-RD-5: library_path absolute as is, relative from the real manifest folder (through a symlink), bare to the system search', () => {
    put(root, '/opt/vendor/rt/manifest.json', runtimeManifest('./lib/librt.so'));
    lib('/opt/vendor/rt/lib/librt.so');
    link(root, '/etc/xdg/openxr/1/active_runtime.json', `${root}/opt/vendor/rt/manifest.json`);
    const d = discover({ platform: linux(), ...quiet });
    expect(d.runtime?.libraryPathKind).toBe('relative');
    expect(d.runtime?.libraryPath).toBe('/opt/vendor/rt/./lib/librt.so');
    expect(d.runtime?.libraryExists).toBe(true);
    put(root, '/etc/xdg/openxr/1/active_runtime.x86_64.json', runtimeManifest('librt_bare.so', { xrNegotiateLoaderRuntimeInterface: 'MyNegotiate' }));
    const bare = discover({ platform: linux(), ...quiet }).runtime;
    expect(bare?.libraryPathKind).toBe('bare');
    expect(bare?.libraryPath).toBe('librt_bare.so');
    expect(bare?.negotiateFunctionName).toBe('MyNegotiate');
  });

  it.each([
    ['{"file_format_version": "2.0.0", "runtime": {"library_path": "a.so"}}', 'file_format_version'],
    ['{"file_format_version": "1.0.0", "runtime": {}}', 'runtime.library_path'],
    ['{"file_format_version": "1.0.0", "runtime": {"library_path": 7}}', 'runtime.library_path'],
    ['{"file_format_version": "1.0.0"}', 'runtime'],
    ['{"runtime": {"library_path": "a.so"}}', 'file_format_version'],
    ['{"file_format_version": "1.0.0", "runtime": {"library_path": "/missing/librt.so"}}', 'runtime.library_path'],
    ['not json', undefined],
  ])('XR-RD-5: a bad runtime manifest is an error naming the file and field, and XR_ERROR_RUNTIME_UNAVAILABLE (%s)', (text, field) => {
    put(root, '/etc/xdg/openxr/1/active_runtime.json', text);
    const d = discover({ platform: linux(), ...quiet });
    const problem = d.diagnostics.find((x) => x.file === '/etc/xdg/openxr/1/active_runtime.json');
    expect(problem).toMatchObject({ severity: 'error', code: 'XR_ERROR_RUNTIME_UNAVAILABLE' });
    expect(problem?.field).toBe(field);
    expect(() => createLoader({ platform: linux(), ...quiet }).planInstance()).toThrow(
      expect.objectContaining({ result: 'XR_ERROR_RUNTIME_UNAVAILABLE', code: 'XR_ERROR_RUNTIME_UNAVAILABLE', resultValue: -51 }),
    );
  });

  it('XR-RD-6: discovery reads only the manifest: a runtime library that is not even a library discovers fine', () => {
    put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest(lib('/rt/garbage.so')));
    const d = discover({ platform: linux(), ...quiet });
    expect(d.runtime?.libraryPath).toBe('/rt/garbage.so');
    expect(d.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
    // ...and the runtime is only needed when an instance is planned (then the native side loads it).
    const plan = createLoader({ platform: linux(), ...quiet }).planInstance();
    expect(plan.runtime.negotiateFunctionName).toBe('xrNegotiateLoaderRuntimeInterface');
  });

  it('XR-RD-2: the log says where it looked, in the Khronos loader\'s words', () => {
    const records: LogRecord[] = [];
    const ctx = createContext(linux(), { ...quiet, onLog: (r) => records.push(r) });
    discoverRuntime(ctx);
    expect(records.map((r) => r.message)).toContain(`Looking for active_runtime.x86_64.json or active_runtime.json in XDG_CONFIG_HOME: ${HOME}/.config/openxr/`);
    expect(records).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'RuntimeManifestFile::FindManifestFiles - failed to determine active runtime file path for this environment' }),
    );
  });
});

const EXPLICIT_SUFFIX = 'openxr/1/api_layers/explicit.d';
const IMPLICIT_SUFFIX = 'openxr/1/api_layers/implicit.d';

describe('OpenXR API layer discovery', () => {
  it('XR-LD-2: the Linux folders in the Khronos loader\'s order, with the default values', () => {
    const d = discover({ platform: linux(), ...quiet });
    expect(d.searched.explicitLayers).toEqual([
      `/etc/xdg/${EXPLICIT_SUFFIX}`,
      `/usr/local/etc/${EXPLICIT_SUFFIX}`,
      `/etc/${EXPLICIT_SUFFIX}`,
      `/usr/local/share/${EXPLICIT_SUFFIX}`,
      `/usr/share/${EXPLICIT_SUFFIX}`,
      `${HOME}/.local/share/${EXPLICIT_SUFFIX}`,
    ]);
    const env = { XDG_CONFIG_DIRS: '/c1:/c2', XDG_DATA_DIRS: '/d1:/d2/', XDG_DATA_HOME: '/dh' };
    const d2 = discover({ platform: linux(env), sysconfdir: '/sc', extraSysconfdir: '/extra', ...quiet });
    expect(d2.searched.implicitLayers).toEqual([
      `/c1/${IMPLICIT_SUFFIX}`,
      `/c2/${IMPLICIT_SUFFIX}`,
      `/sc/${IMPLICIT_SUFFIX}`,
      `/extra/${IMPLICIT_SUFFIX}`,
      `/d1/${IMPLICIT_SUFFIX}`,
      `/d2/${IMPLICIT_SUFFIX}`,
      `/dh/${IMPLICIT_SUFFIX}`,
    ]);
  });

  it('XR-LD-2: when elevated, the per-user folder and XDG overrides are not used', () => {
    const d = discover({ platform: linux({ XDG_DATA_DIRS: '/mine', XDG_DATA_HOME: '/dh' }, true), ...quiet });
    expect(d.searched.explicitLayers).toEqual([
      `/etc/xdg/${EXPLICIT_SUFFIX}`,
      `/usr/local/etc/${EXPLICIT_SUFFIX}`,
      `/etc/${EXPLICIT_SUFFIX}`,
      `/usr/local/share/${EXPLICIT_SUFFIX}`,
      `/usr/share/${EXPLICIT_SUFFIX}`,
    ]);
  });

  it('XR-LD-1: implicit layers are on by default, explicit layers are off until asked for', () => {
    put(root, `/usr/share/${IMPLICIT_SUFFIX}/i.json`, layerManifest({ name: 'XR_APILAYER_imp', library_path: 'libimp.so', disable_environment: 'NO_IMP' }));
    put(root, `/usr/share/${EXPLICIT_SUFFIX}/e.json`, layerManifest({ name: 'XR_APILAYER_exp', library_path: 'libexp.so' }));
    const d = discover({ platform: linux(), ...quiet });
    expect(d.apiLayers.map((l) => [l.name, l.kind, l.enabledByDefault])).toEqual([
      ['XR_APILAYER_imp', 'implicit', true],
      ['XR_APILAYER_exp', 'explicit', false],
    ]);
    expect(d.apiLayers[1]?.enabledReason).toMatch(/only when the application or XR_ENABLE_API_LAYERS asks/);
    const loader = createLoader({ platform: linux(), ...quiet, runtimeExtensions: () => [] });
    put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest('librt.so'));
    expect(loader.planInstance().apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_imp']);
    expect(loader.planInstance({ enabledApiLayerNames: ['XR_APILAYER_exp'] }).apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_imp', 'XR_APILAYER_exp']);
  });

  it('XR-LD-3: XR_API_LAYER_PATH replaces the explicit search; implicit layers always come from the standard folders', () => {
    put(root, `/usr/share/${EXPLICIT_SUFFIX}/std.json`, layerManifest({ name: 'XR_APILAYER_std', library_path: 'a.so' }));
    put(root, `/usr/share/${IMPLICIT_SUFFIX}/imp.json`, layerManifest({ name: 'XR_APILAYER_imp', library_path: 'a.so', disable_environment: 'X' }));
    put(root, '/mine/one/l.json', layerManifest({ name: 'XR_APILAYER_one', library_path: 'a.so' }));
    put(root, '/mine/two/l.json', layerManifest({ name: 'XR_APILAYER_two', library_path: 'a.so' }));
    const d = discover({ platform: linux({ XR_API_LAYER_PATH: '/mine/one::/mine/two' }), ...quiet });
    expect(d.searched.explicitLayers).toEqual(['/mine/one', '/mine/two']);
    expect(d.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_imp', 'XR_APILAYER_one', 'XR_APILAYER_two']);
    expect(d.apiLayers[1]?.source).toBe('XR_API_LAYER_PATH');
  });

  it('XR-LD-3: XR_API_LAYER_PATH is ignored when elevated', () => {
    put(root, `/usr/share/${EXPLICIT_SUFFIX}/std.json`, layerManifest({ name: 'XR_APILAYER_std', library_path: 'a.so' }));
    put(root, '/mine/l.json', layerManifest({ name: 'XR_APILAYER_mine', library_path: 'a.so' }));
    const d = discover({ platform: linux({ XR_API_LAYER_PATH: '/mine' }, true), ...quiet });
    expect(d.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_std']);
    expect(d.diagnostics).toContainEqual(expect.objectContaining({ file: 'environment variable XR_API_LAYER_PATH' }));
  });

  it('XR-LD-4: Windows HKLM then HKCU ApiLayers keys; DWORD 0 means use; HKCU is not read when elevated', () => {
    put(root, 'C/layers/a.json', layerManifest({ name: 'XR_APILAYER_a', library_path: 'a.dll' }));
    put(root, 'C/layers/b.json', layerManifest({ name: 'XR_APILAYER_b', library_path: 'b.dll' }));
    put(root, 'C/layers/c.json', layerManifest({ name: 'XR_APILAYER_c', library_path: '.\\c.dll' }));
    put(root, 'C/layers/c.dll', 'x');
    put(root, 'C/layers/i.json', layerManifest({ name: 'XR_APILAYER_i', library_path: 'C:\\layers\\c.dll', disable_environment: 'DISABLE_I' }));
    const registry = registryFromMap({
      'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1\\ApiLayers\\Explicit': [
        { name: 'C:\\layers\\a.json', type: 'REG_DWORD', data: 0 },
        { name: 'C:\\layers\\b.json', type: 'REG_DWORD', data: 1 },
      ],
      'HKCU\\SOFTWARE\\Khronos\\OpenXR\\1\\ApiLayers\\Explicit': [{ name: 'C:\\layers\\c.json', type: 'REG_DWORD', data: 0 }],
      'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1\\ApiLayers\\Implicit': [{ name: 'C:\\layers\\i.json', type: 'REG_DWORD', data: 0 }],
    });
    const user = discover({ platform: createFixturePlatform({ root, os: 'windows', registry }), ...quiet });
    expect(user.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_i', 'XR_APILAYER_a', 'XR_APILAYER_c']);
    expect(user.apiLayers[2]?.libraryPath).toBe('C:\\layers\\.\\c.dll');
    const admin = discover({ platform: createFixturePlatform({ root, os: 'windows', registry, elevated: true }), ...quiet });
    expect(admin.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_i', 'XR_APILAYER_a']);
  });

  it('XR-LD-5: Android reads APK assets first, then the system folders in the spec\'s order per kind', () => {
    const assets: Record<string, string> = {
      'openxr/1/api_layers/explicit.d/apk.json': layerManifest({ name: 'XR_APILAYER_apk', library_path: 'libapk.so' }),
      'openxr/1/api_layers/explicit.d/readme.txt': 'no',
    };
    const android = {
      property: () => undefined,
      nativeLibraryDir: '/data/app/lib/arm64',
      assets: {
        list: (dir: string) => Object.keys(assets).filter((k) => k.startsWith(dir)).map((k) => k.slice(dir.length)),
        read: (file: string) => (assets[file] === undefined ? undefined : new TextEncoder().encode(assets[file])),
      },
    };
    const p = createFixturePlatform({ root, os: 'android', arch: 'aarch64', android });
    const d = discover({ platform: p, ...quiet });
    expect(d.searched.implicitLayers).toEqual(['/product', '/odm', '/oem', '/system', '/vendor'].map((x) => `${x}/etc/${IMPLICIT_SUFFIX}`));
    expect(d.searched.explicitLayers).toEqual(['/product', '/oem', '/vendor', '/system', '/odm'].map((x) => `${x}/etc/${EXPLICIT_SUFFIX}`));
    expect(d.apiLayers.map((l) => [l.name, l.source])).toEqual([['XR_APILAYER_apk', 'android-assets']]);
    put(root, `/odm/etc/${EXPLICIT_SUFFIX}/x.json`, layerManifest({ name: 'XR_APILAYER_odm', library_path: 'libodm.so' }));
    put(root, `/vendor/etc/${EXPLICIT_SUFFIX}/x.json`, layerManifest({ name: 'XR_APILAYER_vendor', library_path: 'libv.so' }));
    expect(discover({ platform: p, ...quiet }).apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_apk', 'XR_APILAYER_vendor', 'XR_APILAYER_odm']);
  });

  it('XR-LD-6: only *.json files are candidates, and a layer library is never opened (even a non-library enumerates)', () => {
    const dir = `/usr/share/${EXPLICIT_SUFFIX}`;
    put(root, `${dir}/a.json`, layerManifest({ name: 'XR_APILAYER_a', library_path: lib('/l/not-a-library.so') }));
    put(root, `${dir}/b.json.bak`, layerManifest({ name: 'XR_APILAYER_bak', library_path: 'x.so' }));
    put(root, `${dir}/c.JSON`, layerManifest({ name: 'XR_APILAYER_upper', library_path: 'x.so' }));
    const d = discover({ platform: linux(), ...quiet });
    expect(d.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_a']);
  });

  it('XR-LD-7: a duplicate name keeps the first in search order; within a folder files are read sorted', () => {
    const dir = `/usr/share/${EXPLICIT_SUFFIX}`;
    put(root, `${dir}/z.json`, layerManifest({ name: 'XR_APILAYER_dup', library_path: 'z.so' }));
    put(root, `${dir}/a.json`, layerManifest({ name: 'XR_APILAYER_dup', library_path: 'a.so' }));
    put(root, `/etc/xdg/${EXPLICIT_SUFFIX}/first.json`, layerManifest({ name: 'XR_APILAYER_early', library_path: 'e.so' }));
    put(root, `${dir}/m.json`, layerManifest({ name: 'XR_APILAYER_early', library_path: 'late.so' }));
    const d = discover({ platform: linux(), ...quiet });
    expect(d.apiLayers.map((l) => [l.name, l.libraryPath])).toEqual([
      ['XR_APILAYER_early', 'e.so'],
      ['XR_APILAYER_dup', 'a.so'],
    ]);
    const dups = d.diagnostics.filter((x) => x.field === 'api_layer.name');
    expect(dups.map((x) => x.file)).toEqual([`${dir}/m.json`, `${dir}/z.json`]);
    expect(dups[0]?.reason).toMatch(/already provided by \/etc\/xdg/);
    // Enumeration lists each name once.
    expect(createLoader({ platform: linux(), ...quiet }).enumerateApiLayerProperties().map((l) => l.layerName)).toEqual([
      'XR_APILAYER_early',
      'XR_APILAYER_dup',
    ]);
  });

  it('XR-LD-7: the same folder listed twice is searched once (no self-duplicates)', () => {
    put(root, `/d/${EXPLICIT_SUFFIX}/a.json`, layerManifest({ name: 'XR_APILAYER_a', library_path: 'a.so' }));
    const d = discover({ platform: linux({ XDG_DATA_DIRS: '/d:/d/' }), ...quiet });
    expect(d.apiLayers).toHaveLength(1);
    expect(d.diagnostics).toEqual([expect.objectContaining({ file: 'active runtime' })]);
  });

  it('XR-LD-7: symlink loops and broken links in a search folder are one diagnostic each', () => {
    const dir = `/usr/share/${EXPLICIT_SUFFIX}`;
    put(root, `${dir}/ok.json`, layerManifest({ name: 'XR_APILAYER_ok', library_path: 'a.so' }));
    link(root, `${dir}/loop.json`, `${root}${dir}/loop.json`);
    link(root, `${dir}/dangling.json`, `${root}/nowhere.json`);
    link(root, `${dir}/sub`, `${root}${dir}`);
    const d = discover({ platform: linux(), ...quiet });
    expect(d.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_ok']);
    const files = d.diagnostics.filter((x) => x.file.startsWith(dir)).map((x) => x.file);
    expect(files.sort()).toEqual([`${dir}/dangling.json`, `${dir}/loop.json`]);
  });
});
