// Runtime enumeration (listRuntimes) and the per-loader runtime choice (createLoader({ runtime }))
// on fixture platforms: Windows through the registry adapter, Linux through fixture folders.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../../lib/core/log.js';
import { createFixturePlatform, registryFromMap } from '../../../lib/core/platform/fixture.js';
import type { Platform, RegistryValue } from '../../../lib/core/platform/platform.js';
import { createLoader } from '../../../lib/openxr/loader.js';
import { OpenXrError } from '../../../lib/openxr/errors.js';
import { listRuntimes, type ListedRuntime } from '../../../lib/openxr/discovery/runtime-list.js';
import { link, makeTempRoot, put, runtimeManifest } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-runtimes-'));
});
afterEach(() => cleanup());

const quiet = { logWriter: () => {} };
const HOME = '/home/u';

function named(name: string, library_path: string): string {
  return JSON.stringify({ file_format_version: '1.0.0', runtime: { name, library_path } }, null, 2);
}

function lib(p: string): string {
  put(root, p, 'not really a library');
  return p;
}

const summary = (list: readonly ListedRuntime[]) => list.map((r) => ({ name: r.name, path: r.manifestPath, active: r.active, usable: r.usable }));

describe('listRuntimes on Windows (AvailableRuntimes)', () => {
  const KEY = 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1';
  const dword = (name: string, data: number): RegistryValue => ({ name, type: 'REG_DWORD', data });

  function windows(available: readonly RegistryValue[], active = 'C:\\Steam\\steamxr_win64.json', pointerBits: 32 | 64 = 64): Platform {
    const registry = registryFromMap({
      [KEY]: [{ name: 'ActiveRuntime', type: 'REG_SZ', data: active }],
      [`${KEY}\\AvailableRuntimes`]: available,
      'HKLM\\SOFTWARE\\WOW6432Node\\Khronos\\OpenXR\\1': [{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\Oculus\\oculus_openxr_32.json' }],
      'HKLM\\SOFTWARE\\WOW6432Node\\Khronos\\OpenXR\\1\\AvailableRuntimes': [dword('C:\\Oculus\\oculus_openxr_32.json', 0)],
    });
    return createFixturePlatform({ root, os: 'windows', registry, pointerBits });
  }

  beforeEach(() => {
    put(root, 'C/Steam/steamxr_win64.json', named('SteamVR', 'vrclient_x64.dll'));
    put(root, 'C/Oculus/oculus_openxr_64.json', named('Oculus', '.\\LibOVRRT64_1.dll'));
    lib('C/Oculus/LibOVRRT64_1.dll');
    put(root, 'C/Oculus/oculus_openxr_32.json', named('Oculus (32-bit)', 'LibOVRRT32_1.dll'));
    put(root, 'C/Varjo/VarjoOpenXR.json', runtimeManifest('VarjoOpenXR.dll'));
    put(root, 'C/WMR/MixedRealityRuntime.json', named('Windows Mixed Reality', 'MixedRealityRuntime.dll'));
  });

  it('XR-RD-3: DWORD 0 entries are listed in registry order after the active runtime; non-zero entries disable themselves', () => {
    const platform = windows([
      dword('C:\\Oculus\\oculus_openxr_64.json', 0),
      dword('C:\\Steam\\steamxr_win64.json', 0),
      dword('C:\\Varjo\\VarjoOpenXR.json', 1),
      dword('C:\\WMR\\MixedRealityRuntime.json', 0),
    ]);
    const list = listRuntimes({ platform, ...quiet });
    expect(summary(list)).toEqual([
      { name: 'SteamVR', path: 'C:\\Steam\\steamxr_win64.json', active: true, usable: true },
      { name: 'Oculus', path: 'C:\\Oculus\\oculus_openxr_64.json', active: false, usable: true },
      { name: 'Windows Mixed Reality', path: 'C:\\WMR\\MixedRealityRuntime.json', active: false, usable: true },
    ]);
    const steam = list[0] as ListedRuntime;
    expect(steam.activeReason).toBe('named by the registry value HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\OpenXR\\1\\ActiveRuntime');
    expect(steam.foundAt.map((f) => f.source)).toEqual(['registry', 'AvailableRuntimes']);
    expect(steam.libraryPathKind).toBe('bare');
    expect(list[1]?.activeReason).toMatch(/^not the active runtime \(the active one is C:\\Steam\\steamxr_win64\.json: named by the registry value/);
    expect(list[1]?.libraryPath).toBe('C:\\Oculus\\.\\LibOVRRT64_1.dll');

    const all = listRuntimes({ platform, ...quiet, includeDisabled: true });
    const varjo = all.find((r) => r.manifestPath === 'C:\\Varjo\\VarjoOpenXR.json');
    expect(varjo).toMatchObject({ name: 'VarjoOpenXR', nameFrom: 'file name', disabled: true, active: false, usable: true });
    expect(varjo?.disabledReason).toBe('the runtime disabled itself: its AvailableRuntimes value is 1, not 0');
    expect(all.filter((r) => r.disabled)).toHaveLength(1);
  });

  it('XR-RD-3: a 32-bit process on 64-bit Windows reads the WOW6432Node view of AvailableRuntimes', () => {
    const list = listRuntimes({ platform: windows([dword('C:\\Oculus\\oculus_openxr_64.json', 0)], undefined, 32), ...quiet });
    expect(summary(list)).toEqual([{ name: 'Oculus (32-bit)', path: 'C:\\Oculus\\oculus_openxr_32.json', active: true, usable: true }]);
  });

  it('a stale registration (the manifest is gone) and a value that is not a DWORD are reported, not fatal', () => {
    const platform = windows([
      dword('C:\\Gone\\old_runtime.json', 0),
      { name: 'C:\\WMR\\MixedRealityRuntime.json', type: 'REG_SZ', data: '0' },
      dword('C:\\Oculus\\oculus_openxr_64.json', 0),
    ]);
    const list = listRuntimes({ platform, ...quiet, includeDisabled: true });
    expect(list.map((r) => r.name)).toEqual(['SteamVR', 'old_runtime', 'Windows Mixed Reality', 'Oculus']);
    const gone = list[1] as ListedRuntime;
    expect(gone.usable).toBe(false);
    expect(gone.libraryPath).toBeNull();
    expect(gone.problems).toContainEqual(expect.objectContaining({ severity: 'error', file: 'C:\\Gone\\old_runtime.json', reason: expect.stringMatching(/does not exist/) }));
    const wmr = list[2] as ListedRuntime;
    expect(wmr.disabled).toBe(true);
    expect(wmr.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', field: 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\OpenXR\\1\\AvailableRuntimes\\C:\\WMR\\MixedRealityRuntime.json', reason: expect.stringMatching(/REG_SZ/) }),
    );
    // Without includeDisabled the REG_SZ one is not available.
    expect(listRuntimes({ platform, ...quiet }).map((r) => r.name)).toEqual(['SteamVR', 'old_runtime', 'Oculus']);
  });

  it('no AvailableRuntimes key: the active runtime alone; the active runtime is listed even when its registration disables it', () => {
    const registry = registryFromMap({ [KEY]: [{ name: 'ActiveRuntime', type: 'REG_SZ', data: 'C:\\Steam\\steamxr_win64.json' }] });
    expect(summary(listRuntimes({ platform: createFixturePlatform({ root, os: 'windows', registry }), ...quiet }))).toEqual([
      { name: 'SteamVR', path: 'C:\\Steam\\steamxr_win64.json', active: true, usable: true },
    ]);
    const list = listRuntimes({ platform: windows([dword('C:\\Steam\\steamxr_win64.json', 2)]), ...quiet });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'SteamVR', active: true, disabled: true });
  });
});

describe('listRuntimes on Linux (openxr/1 under the XDG folders)', () => {
  function linux(env: Record<string, string> = {}, elevated = false): Platform {
    return createFixturePlatform({ root, env: { HOME, ...env }, elevated });
  }

  beforeEach(() => {
    put(root, '/usr/share/openxr/1/openxr_monado.json', named('Monado', lib('/usr/lib/x86_64-linux-gnu/libopenxr_monado.so')));
    link(root, `${HOME}/.config/openxr/1/active_runtime.json`, `${root}/usr/share/openxr/1/openxr_monado.json`);
    put(root, '/usr/share/openxr/1/broken.json', '{ "file_format_version": "1.0.0", "runtime": { "library_path": ');
    put(root, '/usr/share/openxr/1/no_library.json', JSON.stringify({ file_format_version: '1.0.0', runtime: { name: 'No library' } }));
    put(root, '/usr/share/openxr/1/notes.json', JSON.stringify({ comment: 'not a runtime manifest' }));
    put(root, '/usr/share/openxr/1/api_layers/explicit.d/layer.json', '{}');
    put(root, '/etc/xdg/openxr/1/steamxr_linux64.json', named('SteamVR', '/home/u/.steam/steamxr.so'));
    put(root, `${HOME}/.local/share/openxr/1/simxr.json`, runtimeManifest('./libkhronos_simxr.so'));
    lib(`${HOME}/.local/share/openxr/1/libkhronos_simxr.so`);
  });

  it('XR-RD-2: every runtime manifest of the config and data folders, the active one first, a broken one listed with why', () => {
    const list = listRuntimes({ platform: linux(), ...quiet });
    expect(summary(list)).toEqual([
      { name: 'Monado', path: '/usr/share/openxr/1/openxr_monado.json', active: true, usable: true },
      { name: 'SteamVR', path: '/etc/xdg/openxr/1/steamxr_linux64.json', active: false, usable: false },
      { name: 'simxr', path: `${HOME}/.local/share/openxr/1/simxr.json`, active: false, usable: true },
      { name: 'broken', path: '/usr/share/openxr/1/broken.json', active: false, usable: false },
      { name: 'no_library', path: '/usr/share/openxr/1/no_library.json', active: false, usable: false },
    ]);
    const [monado, steam, simxr, broken, noLibrary] = list as [ListedRuntime, ListedRuntime, ListedRuntime, ListedRuntime, ListedRuntime];
    // The active_runtime.json link and its target are one runtime.
    expect(monado.foundAt).toEqual([
      { path: `${HOME}/.config/openxr/1/active_runtime.json`, source: 'XDG_CONFIG_HOME' },
      { path: '/usr/share/openxr/1/openxr_monado.json', source: 'XDG_DATA_DIRS' },
    ]);
    expect(monado.activeReason).toMatch(/^first found, in the user's configuration folder/);
    expect(monado.nameFrom).toBe('manifest');
    expect(steam.problems).toEqual([expect.objectContaining({ severity: 'error', field: 'runtime.library_path', reason: expect.stringMatching(/does not exist/) })]);
    expect(steam.activeReason).toMatch(/^not the active runtime \(the active one is \/home\/u\/\.config\/openxr\/1\/active_runtime\.json/);
    expect(simxr).toMatchObject({ nameFrom: 'file name', libraryPath: `${HOME}/.local/share/openxr/1/./libkhronos_simxr.so`, libraryExists: true, source: 'XDG_DATA_HOME' });
    expect(broken.libraryPath).toBeNull();
    expect(broken.problems).toEqual([expect.objectContaining({ severity: 'error', file: '/usr/share/openxr/1/broken.json', code: 'XR_ERROR_RUNTIME_UNAVAILABLE' })]);
    expect(noLibrary.problems).toEqual([expect.objectContaining({ field: 'runtime.library_path', reason: 'required string, found missing' })]);
  });

  it('XR-RD-2: the folders in precedence order: XDG_CONFIG_HOME, XDG_CONFIG_DIRS, SYSCONFDIR, EXTRASYSCONFDIR, XDG_DATA_HOME, XDG_DATA_DIRS', () => {
    const records: LogRecord[] = [];
    listRuntimes({ platform: linux({ XDG_CONFIG_DIRS: '/cfg/a:/cfg/b', XDG_DATA_HOME: '/data/home', XDG_DATA_DIRS: '/data/a:/data/b' }), ...quiet, onLog: (r) => records.push(r) });
    const folders = records.flatMap((r) => /^listRuntimes - looking for runtime manifests in (\S+)/.exec(r.message)?.[1] ?? []);
    expect(folders).toEqual([
      `${HOME}/.config/openxr/1`,
      '/cfg/a/openxr/1',
      '/cfg/b/openxr/1',
      '/usr/local/etc/openxr/1',
      '/etc/openxr/1',
      '/data/home/openxr/1',
      '/data/a/openxr/1',
      '/data/b/openxr/1',
    ]);
  });

  it('XR-RD-1: XR_RUNTIME_JSON is listed first and is the active one; the rest stay listed', () => {
    put(root, '/opt/dev/dev_runtime.json', named('Dev runtime', lib('/opt/dev/libdev.so')));
    const list = listRuntimes({ platform: linux({ XR_RUNTIME_JSON: '/opt/dev/dev_runtime.json' }), ...quiet });
    expect(list.map((r) => [r.name, r.active])).toEqual([
      ['Dev runtime', true],
      ['Monado', false],
      ['SteamVR', false],
      ['simxr', false],
      ['broken', false],
      ['no_library', false],
    ]);
    expect(list[0]?.activeReason).toMatch(/XR_RUNTIME_JSON/);
  });

  it('XR-RD-2: elevated, the per-user folders (and XR_RUNTIME_JSON) are not read', () => {
    const list = listRuntimes({ platform: linux({ XR_RUNTIME_JSON: '/opt/none.json' }, true), ...quiet });
    expect(list.map((r) => r.name)).toEqual(['SteamVR', 'broken', 'no_library', 'Monado']);
    expect(list.some((r) => r.active)).toBe(false);
    expect(list[0]?.activeReason).toMatch(/^not the active runtime \(no runtime is active: /);
  });

  it('no active runtime is a fact of the list, not an error: nothing is logged above info', () => {
    const records: LogRecord[] = [];
    const list = listRuntimes({ platform: linux({ XDG_CONFIG_HOME: '/nowhere' }), ...quiet, onLog: (r) => records.push(r) });
    expect(list.some((r) => r.active)).toBe(false);
    expect(list.length).toBe(5);
    expect(records.filter((r) => r.level !== 'info' && r.level !== 'debug')).toEqual([]);
  });

  it('a second runtime with a name listed before is flagged: choosing by that name gives the first', () => {
    put(root, '/usr/share/openxr/1/steam_copy.json', named('SteamVR', lib('/opt/steam2/steamxr.so')));
    const list = listRuntimes({ platform: linux(), ...quiet });
    const copy = list.find((r) => r.manifestPath === '/usr/share/openxr/1/steam_copy.json');
    expect(copy?.problems).toEqual([expect.objectContaining({ severity: 'warning', field: 'runtime.name', reason: expect.stringMatching(/^\/etc\/xdg\/openxr\/1\/steamxr_linux64\.json is listed before it/) })]);
  });
});

describe('createLoader({ runtime }): the application chooses the runtime for one loader', () => {
  function linux(env: Record<string, string> = {}): Platform {
    return createFixturePlatform({ root, env: { HOME, ...env } });
  }
  beforeEach(() => {
    put(root, '/etc/xdg/openxr/1/active_runtime.json', named('System runtime', lib('/rt/system.so')));
    put(root, '/usr/share/openxr/1/other.json', named('Other runtime', lib('/rt/other.so')));
    put(root, '/opt/dev/dev.json', named('Dev', lib('/rt/dev.so')));
  });

  it('by name from listRuntimes() or by path; the plan, discover() and the log say the application chose it', () => {
    const records: LogRecord[] = [];
    const platform = linux({ XR_RUNTIME_JSON: '/opt/dev/dev.json' });
    const byName = createLoader({ platform, runtime: 'Other runtime', ...quiet, onLog: (r) => records.push(r) });
    const plan = byName.planInstance({ runtimeExtensions: [] });
    expect(plan.runtime).toMatchObject({ manifestPath: '/usr/share/openxr/1/other.json', libraryPath: '/rt/other.so', source: 'application' });
    expect(plan.decisions[0]).toBe(
      'runtime /usr/share/openxr/1/other.json: chosen by the application for this loader (createLoader({ runtime }), by the runtime named "Other runtime" in listRuntimes()); the active runtime and XR_RUNTIME_JSON are not used',
    );
    expect(byName.discover().runtime).toMatchObject({ source: 'application', name: 'Other runtime' });
    expect(records.map((r) => r.message)).toContain(
      'RuntimeManifestFile::FindManifestFiles - using runtime file /usr/share/openxr/1/other.json, chosen by the application (the runtime named "Other runtime" in listRuntimes())',
    );
    expect(records.map((r) => r.message)).toContain('RuntimeManifestFile::FindManifestFiles - XR_RUNTIME_JSON (/opt/dev/dev.json) is not used: the application chose the runtime');

    const byPath = createLoader({ platform, runtime: '/etc/xdg/openxr/1/active_runtime.json', ...quiet });
    expect(byPath.planInstance({ runtimeExtensions: [] }).runtime).toMatchObject({ libraryPath: '/rt/system.so', source: 'application' });
    expect(byPath.planInstance({ runtimeExtensions: [] }).runtime.reason).toMatch(/by its manifest path/);
    // A loader without a choice keeps the environment's runtime, in the same process, on the same platform.
    expect(createLoader({ platform, ...quiet }).planInstance({ runtimeExtensions: [] }).runtime).toMatchObject({ libraryPath: '/rt/dev.so', source: 'XR_RUNTIME_JSON' });
  });

  it('an unknown name is XR_ERROR_RUNTIME_UNAVAILABLE naming the runtimes there are; a non-string is a TypeError; a broken chosen manifest fails like a broken active one', () => {
    const platform = linux();
    let error: unknown;
    try {
      createLoader({ platform, runtime: 'Nope', ...quiet });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OpenXrError);
    expect((error as OpenXrError).result).toBe('XR_ERROR_RUNTIME_UNAVAILABLE');
    expect((error as OpenXrError).message).toContain('"System runtime" (/etc/xdg/openxr/1/active_runtime.json), "Other runtime" (/usr/share/openxr/1/other.json)');
    expect(() => createLoader({ platform, runtime: 42 as unknown as string, ...quiet })).toThrow(TypeError);
    expect(() => createLoader({ platform, runtime: '', ...quiet })).toThrow(TypeError);

    put(root, '/opt/bad.json', '{ "file_format_version": "2.0.0", "runtime": { "library_path": "x.so" } }');
    const bad = createLoader({ platform, runtime: '/opt/bad.json', ...quiet });
    expect(() => bad.planInstance({ runtimeExtensions: [] })).toThrow(/XR_ERROR_RUNTIME_UNAVAILABLE: the runtime manifest the application chose \/opt\/bad\.json is unusable: file_format_version/);
  });
});
