// Where the Vulkan loader settings file is looked for on Linux (VK-SF-1, VK-SF-2): the Khronos
// loader 1.4.359's locations and order over fixture roots, and the file `khronos-loader layers
// vulkan` writes. test/system/vulkan-settings-locations.test.ts runs the same cases through
// 1.4.359 itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { discover } from '../../../lib/vulkan/discovery/discover.js';
import { settingsFileCandidates } from '../../../lib/vulkan/discovery/settings-discovery.js';
import { createVulkanContext } from '../../../lib/vulkan/discovery/context.js';
import { userSettingsFile } from '../../../lib/tools/cli/layers-cli.js';
import { makeTempRoot, put } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => ({ root, cleanup } = makeTempRoot('kl-vksettings-')));
afterEach(() => cleanup());

const REL = 'vulkan/loader_settings.d/vk_loader_settings.json';
/** A valid settings file under `base`. */
const settingsAt = (base: string): string => put(root, `${base}/${REL}`, JSON.stringify({ file_format_version: '1.0.0', settings: { stderr_log: ['error'] } }));

const HOME = '/home/me';
const ALL_ENV = { HOME, XDG_CONFIG_HOME: '/ch', XDG_DATA_HOME: '/dh', XDG_CONFIG_DIRS: '/cd1:/cd2', XDG_DATA_DIRS: '/dd1:/dd2' };

function inForce(env: Record<string, string>, options: { elevated?: boolean; sysconfdir?: string; extraSysconfdir?: string | null } = {}): string | null {
  const platform = createFixturePlatform({ root, env, ...(options.elevated !== undefined ? { elevated: options.elevated } : {}) });
  const d = discover({ platform, logWriter: () => {}, ...(options.sysconfdir ? { sysconfdir: options.sysconfdir } : {}), ...(options.extraSysconfdir !== undefined ? { extraSysconfdir: options.extraSysconfdir } : {}) });
  return d.settingsFile?.file ?? null;
}

function candidates(env: Record<string, string>, extra: { sysconfdir?: string; extraSysconfdir?: string | null } = {}): string[] {
  const platform = createFixturePlatform({ root, env });
  const ctx = createVulkanContext(platform, { platform, logWriter: () => {}, ...extra });
  return settingsFileCandidates(ctx);
}

describe('Vulkan loader settings file locations (Linux)', () => {
  it('VK-SF-1: the search order is XDG_CONFIG_HOME, XDG_DATA_HOME, ~/.config, ~/.local/share, XDG_CONFIG_DIRS, SYSCONFDIR, EXTRASYSCONFDIR, XDG_DATA_DIRS; the first file found wins', () => {
    expect(candidates({ HOME }, { sysconfdir: '/usr/local/etc', extraSysconfdir: '/etc' }).map((c) => c.slice(0, -REL.length - 1))).toEqual([
      '/home/me/.config',
      '/home/me/.local/share',
      '/etc/xdg',
      '/usr/local/etc',
      '/etc',
      '/usr/local/share',
    ]);
    const bases = ['/ch', '/dh', '/home/me/.config', '/home/me/.local/share', '/cd1', '/etc', '/dd1'];
    for (const b of bases) settingsAt(b);
    // Take each winner away in turn: the next location answers. ~/.config and ~/.local/share only
    // count while XDG_CONFIG_HOME / XDG_DATA_HOME are unset or empty.
    expect(inForce(ALL_ENV)).toBe(`/ch/${REL}`);
    expect(inForce({ ...ALL_ENV, XDG_CONFIG_HOME: '' })).toBe(`/dh/${REL}`);
    expect(inForce({ ...ALL_ENV, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' })).toBe(`/home/me/.config/${REL}`);
    expect(inForce({ ...ALL_ENV, XDG_CONFIG_HOME: '/nowhere', XDG_DATA_HOME: '' })).toBe(`/home/me/.local/share/${REL}`);
    expect(inForce({ ...ALL_ENV, XDG_CONFIG_HOME: '/nowhere', XDG_DATA_HOME: '/nowhere' })).toBe(`/cd1/${REL}`);
    expect(inForce({ ...ALL_ENV, HOME: '/nowhere', XDG_CONFIG_HOME: '/nowhere', XDG_DATA_HOME: '/nowhere', XDG_CONFIG_DIRS: '/nowhere' })).toBe(`/etc/${REL}`);
    expect(inForce({ HOME: '/nowhere', XDG_CONFIG_DIRS: '/nowhere', XDG_DATA_DIRS: '/dd1' }, { sysconfdir: '/usr/local/etc', extraSysconfdir: null })).toBe(`/dd1/${REL}`);
  });

  it('VK-SF-1: of a list variable only the first entry is searched, as 1.4.359 does (a later entry it looks up with the separator in front, relative to the working directory: never here)', () => {
    settingsAt('/cd2');
    settingsAt('/dd2');
    expect(inForce({ HOME: '/nowhere', XDG_CONFIG_DIRS: '/cd1:/cd2', XDG_DATA_DIRS: '/dd1:/dd2' })).toBeNull();
    expect(inForce({ HOME: '/nowhere', XDG_CONFIG_DIRS: '/cd2:/cd1', XDG_DATA_DIRS: '/dd1' })).toBe(`/cd2/${REL}`);
    expect(inForce({ HOME: '/nowhere', XDG_CONFIG_DIRS: '/cd1', XDG_DATA_DIRS: '/dd2:/dd1' })).toBe(`/dd2/${REL}`);
    // An empty first entry is no entry: the list gives nothing (the fallback is only for an unset or empty variable).
    expect(inForce({ HOME: '/nowhere', XDG_CONFIG_DIRS: ':/cd2', XDG_DATA_DIRS: ':/dd2' })).toBeNull();
    expect(candidates({ HOME: '/nowhere', XDG_CONFIG_DIRS: ':/cd2', XDG_DATA_DIRS: ':/dd2' }, { extraSysconfdir: null })).toEqual([`/nowhere/.config/${REL}`, `/nowhere/.local/share/${REL}`, `/etc/${REL}`]);
    // The same holds for XDG_CONFIG_HOME and HOME; an entry of one character ("/") is skipped.
    settingsAt('/ch2');
    expect(inForce({ HOME: '/nowhere', XDG_CONFIG_HOME: '/ch1:/ch2' })).toBeNull();
    put(root, `/.config/${REL}`, '{}');
    expect(candidates({ HOME: '/', XDG_CONFIG_DIRS: '/', XDG_DATA_DIRS: '/' }, { extraSysconfdir: null })).toEqual([`/etc/${REL}`]);
  });

  it('VK-SF-1: the first path that exists wins whatever it is: a folder of that name, or a broken file, means no settings, not the next location', () => {
    settingsAt('/dh');
    put(root, `/ch/${REL}/not-a-file`, '');
    expect(inForce({ HOME, XDG_CONFIG_HOME: '/ch', XDG_DATA_HOME: '/dh' })).toBeNull();
    put(root, `/ch/${REL}`.replace('/ch/', '/ch3/'), '{ not json');
    expect(inForce({ HOME, XDG_CONFIG_HOME: '/ch3', XDG_DATA_HOME: '/dh' })).toBeNull();
    expect(inForce({ HOME, XDG_CONFIG_HOME: '/ch4', XDG_DATA_HOME: '/dh' })).toBe(`/dh/${REL}`);
  });

  it('VK-SF-1: an elevated process searches the system locations only (HOME and the XDG variables are read securely)', () => {
    settingsAt('/home/me/.config');
    settingsAt('/cd1');
    settingsAt('/etc/xdg');
    expect(inForce({ HOME, XDG_CONFIG_DIRS: '/cd1' })).toBe(`/home/me/.config/${REL}`);
    expect(inForce({ HOME, XDG_CONFIG_DIRS: '/cd1' }, { elevated: true })).toBe(`/etc/xdg/${REL}`);
  });

  it('VK-SF-2: khronos-loader layers vulkan writes the user file in force (the first of the four user locations that exists), else the data-home one', () => {
    const at = (p: string): string => `${root}${p}`;
    const env = { HOME: at('/home/me'), XDG_DATA_HOME: at('/dh') };
    expect(userSettingsFile(env)).toBe(at(`/dh/${REL}`));
    expect(userSettingsFile({ HOME: at('/home/me') })).toBe(at(`/home/me/.local/share/${REL}`));
    expect(userSettingsFile({})).toBeUndefined();
    // A file under ~/.config comes after XDG_DATA_HOME's in the search but before ~/.local/share's.
    put(root, `/home/me/.config/${REL}`, '{}');
    expect(userSettingsFile(env)).toBe(at(`/home/me/.config/${REL}`));
    expect(userSettingsFile({ HOME: at('/home/me') })).toBe(at(`/home/me/.config/${REL}`));
    put(root, `/dh/${REL}`, '{}');
    expect(userSettingsFile(env)).toBe(at(`/dh/${REL}`));
    put(root, `/ch/${REL}`, '{}');
    expect(userSettingsFile({ ...env, XDG_CONFIG_HOME: at('/ch') })).toBe(at(`/ch/${REL}`));
  });
});
