// Where the Vulkan loader settings file is found (VK-SF-1), compared with the Khronos Vulkan loader
// 1.4.359 itself: a settings file in each location turns on a layer of its own, and the layer the
// Khronos loader loads (vkCreateInstance through test/native/vk_enumerate; copies of the probe layer
// log the chain they are really entered in) must be the one our plan loads, environment by
// environment. Our loader is configured as that build (SYSCONFDIR=/etc, no EXTRASYSCONFDIR); the
// system locations (/etc, /etc/xdg, /usr/local/share) are not written here: test/unit/vulkan/
// settings-locations.test.ts covers them over fixture roots.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { makeTempRoot, put, vkDriverManifest, vkLayerManifest } from '../unit/vulkan/fixtures.js';

const enumerate = path.join(testNativeDir, 'vk_enumerate/vk_enumerate');
const probeLayer = path.join(testNativeDir, 'vk_discovery_probe_layer/libvk_discovery_probe_layer.so');
const probeDriver = path.join(testNativeDir, 'vk_discovery_probe_driver/libvk_discovery_probe_driver.so');
const k359 = khronosVulkanLoaders().find((l) => l.version === '1.4.359');
const skip =
  k359 === undefined
    ? 'Khronos Vulkan loader 1.4.359 declared absent'
    : (k359.missing ??
      missingSystemComponent({ 'test/native vk_enumerate': [enumerate], 'test/native vk_discovery_probe_layer': [probeLayer], 'test/native vk_discovery_probe_driver': [probeDriver] }));

const REL = 'vulkan/loader_settings.d/vk_loader_settings.json';
/** The locations a test may write (relative to the tree), each with the layer its settings file turns on. */
const LOCATIONS = ['ch', 'dh', 'home/.config', 'home/.local/share', 'cd1', 'cd2', 'dd1', 'dd2'] as const;
const layerOf = (location: string): string => `VK_LAYER_T_${location.replace(/[^a-z0-9]/gi, '_')}`;

let T = '';
let cleanup = (): void => {};
let n = 0;
const at = (p: string): string => path.join(T, p);

/** A probe layer copy and its manifest, outside every search folder: only a settings file brings it in. */
function layerManifest(name: string): string {
  const lib = at(`libs/${name}/libprobe_layer.so`);
  if (!existsSync(lib)) {
    mkdirSync(path.dirname(lib), { recursive: true });
    copyFileSync(probeLayer, lib);
  }
  return put('/', at(`manifests/${name}.json`), vkLayerManifest({ name, library_path: lib }));
}

/** A settings file at `location` turning on `name` (its layers section only); other settings objects may come first. */
function settingsFile(location: string, name = layerOf(location), before: object[] = []): string {
  const settings = { layers: [{ control: 'on', name, path: layerManifest(name) }, { control: 'unordered_layer_location' }] };
  return put('/', at(`${location}/${REL}`), JSON.stringify({ file_format_version: '1.0.0', settings_array: [...before, settings] }, null, 2));
}

/** Every location set, HOME included: the test passes variables to take locations away. */
function env(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: at('home'),
    XDG_CONFIG_HOME: at('ch'),
    XDG_DATA_HOME: at('dh'),
    XDG_CONFIG_DIRS: `${at('cd1')}:${at('cd2')}`,
    XDG_DATA_DIRS: `${at('dd1')}:${at('dd2')}`,
    VK_DRIVER_FILES: at('icd/probe_icd.json'),
    ...extra,
  };
}

/** The chain 1.4.359 builds for vkCreateInstance with no layers asked for (names, application side first). */
function khronosChain(e: Record<string, string>): string[] {
  const out = at(`out-${++n}.json`);
  const log = at(`log-${n}.txt`);
  execFileSync(enumerate, ['--loader', k359!.library!, '--out', out, '--create'], { env: { ...e, PROBE_LOG: log }, stdio: ['ignore', 'ignore', 'ignore'] });
  expect((JSON.parse(readFileSync(out, 'utf8')) as { create: { result: number } }).create.result).toBe(0);
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
  return lines.filter((l) => l.startsWith('vk-layer-create ')).map((l) => path.basename(path.dirname(l.slice('vk-layer-create '.length))));
}

/** Our plan for the same: its chain and the settings file in force. */
function ours(e: Record<string, string>, executablePath?: string): { chain: string[]; file: string | null } {
  const host = createLinuxPlatform({ env: e, elevated: false });
  const platform = executablePath === undefined ? host : { ...host, executablePath };
  const loader = createLoader({ platform, sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
  return { chain: loader.planInstance().layers.map((l) => l.name), file: loader.discovery.settingsFile?.file ?? null };
}

/** Both loaders under `extra`: the same chain, which is `expected` (the layer of the file in force, or none). */
function same(extra: Record<string, string>, expected: string | null): void {
  const e = env(extra);
  const k = khronosChain(e);
  const o = ours(e);
  const what = JSON.stringify(extra);
  expect(k, `Khronos 1.4.359, ${what}`).toEqual(expected === null ? [] : [layerOf(expected)]);
  expect(o.chain, `ours, ${what}`).toEqual(k);
  expect(o.file, what).toBe(expected === null ? null : at(`${expected}/${REL}`));
}

describe.skipIf(skip !== null)('the loader settings file\'s locations against the Khronos Vulkan loader 1.4.359', () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-vksettings-'));
    mkdirSync(at('drv'), { recursive: true });
    copyFileSync(probeDriver, at('drv/libprobe_driver.so'));
    put('/', at('icd/probe_icd.json'), vkDriverManifest(at('drv/libprobe_driver.so')));
    for (const l of LOCATIONS) settingsFile(l);
  });
  afterAll(() => cleanup());

  it('VK-SF-1: a file in every location: XDG_CONFIG_HOME, XDG_DATA_HOME, ~/.config, ~/.local/share, XDG_CONFIG_DIRS, XDG_DATA_DIRS win in that order, ~/... only while its variable is unset or empty', () => {
    const none = at('none');
    same({}, 'ch');
    same({ XDG_CONFIG_HOME: '' }, 'dh');
    same({ XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' }, 'home/.config');
    same({ XDG_CONFIG_HOME: none }, 'dh');
    same({ XDG_CONFIG_HOME: none, XDG_DATA_HOME: '' }, 'home/.local/share');
    same({ XDG_CONFIG_HOME: none, XDG_DATA_HOME: none }, 'cd1');
    same({ XDG_CONFIG_HOME: none, XDG_DATA_HOME: none, XDG_CONFIG_DIRS: none }, 'dd1');
    same({ HOME: none, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' }, 'cd1');
  });

  it('VK-SF-1: only the first entry of a list variable is searched: a file in the second entry of XDG_CONFIG_DIRS or XDG_DATA_DIRS is not found (nor an empty first entry\'s next)', () => {
    const none = at('none');
    const away = { HOME: none, XDG_CONFIG_HOME: none, XDG_DATA_HOME: none };
    same({ ...away, XDG_CONFIG_DIRS: `${none}:${at('cd2')}`, XDG_DATA_DIRS: `${none}:${at('dd2')}` }, null);
    same({ ...away, XDG_CONFIG_DIRS: `${at('cd2')}:${at('cd1')}` }, 'cd2');
    same({ ...away, XDG_CONFIG_DIRS: none, XDG_DATA_DIRS: `${at('dd2')}:${at('dd1')}` }, 'dd2');
    same({ ...away, XDG_CONFIG_DIRS: `:${at('cd1')}`, XDG_DATA_DIRS: `:${at('dd1')}` }, null);
    same({ ...away, XDG_CONFIG_HOME: `${none}:${at('ch')}`, XDG_CONFIG_DIRS: none, XDG_DATA_DIRS: none }, null);
  });

  it('VK-SF-1: the first path that exists is the file, whatever it is: a folder of that name in XDG_CONFIG_HOME means no settings at all', () => {
    mkdirSync(at(`chdir/${REL}`), { recursive: true });
    same({ XDG_CONFIG_HOME: at('chdir') }, null);
    put('/', at(`chbad/${REL}`), '{ "file_format_version": "1.0.0", ');
    same({ XDG_CONFIG_HOME: at('chbad') }, null);
  });

  it('VK-SF-1: app_keys: the settings object naming the executable wins over the global one in the same file', () => {
    const exe = realpathSync(enumerate);
    const forApp = { app_keys: [exe], layers: [{ control: 'on', name: 'VK_LAYER_T_for_app', path: layerManifest('VK_LAYER_T_for_app') }] };
    const forOther = { app_keys: ['/usr/bin/other'], layers: [{ control: 'on', name: 'VK_LAYER_T_for_other', path: layerManifest('VK_LAYER_T_for_other') }] };
    settingsFile('apps', 'VK_LAYER_T_global', [forOther, forApp]);
    settingsFile('others', 'VK_LAYER_T_global', [forOther]);
    for (const [location, layer] of [['apps', 'VK_LAYER_T_for_app'], ['others', 'VK_LAYER_T_global']] as const) {
      const e = env({ XDG_CONFIG_HOME: at(location) });
      const k = khronosChain(e);
      expect(k, location).toEqual([layer]);
      expect(ours(e, exe).chain, location).toEqual(k);
    }
  });
});
