// Differential tests: the Debian Khronos Vulkan loader (libvulkan1 1.3.239, dlopened by
// test/native/vk_enumerate) and our discovery + policy run on the same fixture trees and
// environments. Fixture layers are copies of test/native/vk_discovery_probe_layer and log their
// vkCreateInstance, so the real chain order is observed; fixture drivers are copies of
// vk_discovery_probe_driver and log which ones the loader used. Our side creates the instance
// through createLoader().createInstance() (discovery's plan carried out by our native core) and
// is observed through the same probes. Where we differ on purpose the
// scenario says so (README: "Vulkan: differences from the Khronos loader").
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { VulkanError } from '../../lib/vulkan/errors.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { WITHHELD_WSI_INSTANCE_EXTENSIONS } from '../../lib/vulkan/native/plan.js';
import { isCurrentKhronosVulkan, khronosVulkanLoaders, type KhronosVulkanLoader, type KhronosVulkanVersion } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { packageRoot } from '../../lib/core/native/load.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { makeTempRoot, put, vkDriverManifest, vkLayerManifest, type VkLayerSpec } from '../unit/vulkan/fixtures.js';

const enumerate = path.join(testNativeDir, 'vk_enumerate/vk_enumerate');
const probeLayer = path.join(testNativeDir, 'vk_discovery_probe_layer/libvk_discovery_probe_layer.so');
const probeDriver = path.join(testNativeDir, 'vk_discovery_probe_driver/libvk_discovery_probe_driver.so');
const skip = missingSystemComponent({
  'test/native vk_enumerate (needs libvulkan-dev headers)': [enumerate],
  'test/native vk_discovery_probe_layer': [probeLayer],
  'test/native vk_discovery_probe_driver': [probeDriver],
});

interface LayerProps {
  layerName: string;
  specVersion: number;
  implementationVersion: number;
  description: string;
}
interface ExtList {
  result: number;
  list: { extensionName: string; specVersion: number }[];
}
interface Answer {
  layers: LayerProps[];
  /** vkEnumerateInstanceExtensionProperties(NULL) (result 0) as name@specVersion, in the loader's order. */
  extensions: string[];
  layerExtensions: Record<string, ExtList>;
  create?: number;
  /** Layer names in vkCreateInstance order (application side first). */
  chain?: string[];
  /** Driver libraries that created an instance, in order. */
  drivers?: string[];
}

/**
 * What the probe drivers offer unless a scenario says otherwise: extensions both Khronos loaders
 * know, window-system ones (surface, platform surface and a surface query extension), a loader
 * extension the driver offers too (its spec version stays the driver's), and a name no loader
 * knows (filtered out by all).
 */
const DRIVER_EXTENSIONS = [
  'VK_KHR_get_physical_device_properties2 2',
  'VK_KHR_external_memory_capabilities 1',
  'VK_KHR_surface 25',
  'VK_KHR_xlib_surface 6',
  'VK_KHR_get_surface_capabilities2 1',
  'VK_EXT_debug_utils 1',
  'VK_KLTEST_unknown_to_loaders 3',
];

/**
 * The window-system instance extensions this loader does not implement (VK_KHR_display and its
 * family, other platforms' surfaces): it never lists them (docs/conformance.md); the Khronos
 * loaders list those a driver offers. The surface extensions it implements (VK_KHR_surface,
 * VK_KHR_xlib_surface, ...) are compared like any other: both Khronos loaders are built with X11,
 * XCB and Wayland (Debian's 1.3.239; scripts/build-khronos-vulkan-loader.sh for 1.4.309,
 * scripts/build-khronos-vulkan-loader-release.sh for 1.4.359).
 */
const WITHHELD = new Set(WITHHELD_WSI_INSTANCE_EXTENSIONS);

/**
 * The Khronos loader's instance-extension list with every deliberate difference taken out, each
 * for its reason: the window-system extensions not implemented here. 1.3.239 predates
 * VK_LUNARG_direct_driver_loading, which this loader lists as 1.4.309 does.
 */
function accountedKhronosExtensions(k: readonly string[]): string[] {
  const list = k.filter((e) => !WITHHELD.has(e.slice(0, e.indexOf('@'))));
  const direct = 'VK_LUNARG_direct_driver_loading@1';
  return comparingWith('1.3.239') && !list.includes(direct) ? [...list, direct] : list;
}

let T = '';
/** The Khronos loader the running describe block compares with. */
let current: KhronosVulkanLoader | undefined;
function khronosArgs(): string[] {
  if (current?.library === undefined) throw new Error('no Khronos loader selected');
  return ['--loader', current.library];
}
let cleanup = (): void => {};
let n = 0;

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The files this process has mapped (/proc/self/maps) under `dir`, each once. */
function mappedUnder(dir: string): string[] {
  const files = readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .map((l) => l.slice(l.indexOf('/')))
    .filter((f) => f.startsWith(dir));
  return [...new Set(files)];
}

/** One scenario's tree: its own root, a probe driver, and helpers to place layers. */
class Scenario {
  readonly root: string;
  private readonly libToName = new Map<string, string>();
  private readonly offered = new Set<string>();
  constructor() {
    this.root = path.join(T, `s${++n}`);
    mkdirSync(this.root, { recursive: true });
  }
  /** Where a folder of the standard search lives under the root. */
  dir(kind: 'configHome' | 'xdgConfig' | 'dataHome' | 'xdgData', which: 'implicit' | 'explicit' | 'icd'): string {
    const base = { configHome: 'home/.config', xdgConfig: 'xdgconf', dataHome: 'home/.local/share', xdgData: 'data' }[kind];
    return path.join(this.root, base, 'vulkan', which === 'icd' ? 'icd.d' : `${which}_layer.d`);
  }
  /** A probe layer copy for `name` (one library per layer so the log tells them apart). */
  lib(name: string, copy = name): string {
    const p = path.join(this.root, 'libs', copy, 'libprobe_layer.so');
    if (!existsSync(p)) {
      mkdirSync(path.dirname(p), { recursive: true });
      copyFileSync(probeLayer, p);
    }
    this.libToName.set(real(p), name);
    return p;
  }
  layer(folder: string, file: string, spec: Omit<VkLayerSpec, 'library_path'> & { library_path?: string }): string {
    const full = path.join(folder, file);
    const manifest = spec.component_layers ? spec : { ...spec, library_path: spec.library_path ?? this.lib(spec.name) };
    put('/', full, vkLayerManifest(manifest as VkLayerSpec));
    return full;
  }
  raw(folder: string, file: string, text: string): string {
    return put('/', path.join(folder, file), text);
  }
  /** A probe driver copy; `extensions` ("name version") are the instance extensions it offers (default DRIVER_EXTENSIONS). */
  driver(folder: string, file: string, extra: Record<string, unknown> = {}, extensions: readonly string[] = DRIVER_EXTENSIONS): string {
    const lib = path.join(this.root, 'drivers', file.replace(/\.json$/, ''), 'libprobe_driver.so');
    mkdirSync(path.dirname(lib), { recursive: true });
    copyFileSync(probeDriver, lib);
    writeFileSync(path.join(path.dirname(lib), 'instance_extensions'), extensions.map((e) => `${e}\n`).join(''));
    for (const e of extensions) this.offered.add(e.split(' ')[0]!);
    return put('/', path.join(folder, file), vkDriverManifest(lib, extra));
  }
  /** The instance extension names any of its drivers offers. */
  offeredExtensions(): string[] {
    return [...this.offered];
  }
  nameOf(lib: string): string {
    return this.libToName.get(real(lib)) ?? `?${lib}`;
  }
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      HOME: path.join(this.root, 'home'),
      XDG_CONFIG_DIRS: path.join(this.root, 'xdgconf'),
      XDG_DATA_DIRS: path.join(this.root, 'data'),
      VK_DRIVER_FILES: path.join(this.root, 'icd'),
      ...extra,
    };
  }
}

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;
let exportedEnumerate: ((layer: string | null, count: number[], props: Buffer | null) => unknown) | undefined;

/** The addon's exported vkEnumerateInstanceExtensionProperties (native callers), after publishing `plan`: result and name@version list. */
function exportedExtensions(plan: Parameters<typeof publishVulkanPlan>[0], layerName: string | null): { result: number; list: string[] } {
  exportedEnumerate ??= koffi
    .load(path.join(packageRoot, 'build/Release/khronos_loader.node'))
    .func('int vkEnumerateInstanceExtensionProperties(const char*, _Inout_ uint32_t*, void*)') as NonNullable<typeof exportedEnumerate>;
  publishVulkanPlan(plan);
  const count = [0];
  let result = exportedEnumerate!(layerName, count, null) as number;
  if (result !== 0) return { result, list: [] };
  const size = 256 + 4;
  const buffer = Buffer.alloc(Math.max(1, count[0]!) * size);
  result = exportedEnumerate!(layerName, count, buffer) as number;
  const list: string[] = [];
  for (let i = 0; i < count[0]!; ++i) {
    const name = buffer.subarray(i * size, i * size + 256);
    list.push(`${name.toString('utf8', 0, name.indexOf(0))}@${buffer.readUInt32LE(i * size + 256)}`);
  }
  return { result, list };
}

let exportedLayerEnumerate: ((count: number[], props: Buffer | null) => unknown) | undefined;

/** The addon's exported vkEnumerateInstanceLayerProperties, after publishing `plan`: result and layer names. */
function exportedLayers(plan: Parameters<typeof publishVulkanPlan>[0]): { result: number; list: string[] } {
  exportedLayerEnumerate ??= koffi
    .load(path.join(packageRoot, 'build/Release/khronos_loader.node'))
    .func('int vkEnumerateInstanceLayerProperties(_Inout_ uint32_t*, void*)') as NonNullable<typeof exportedLayerEnumerate>;
  publishVulkanPlan(plan);
  const count = [0];
  let result = exportedLayerEnumerate!(count, null) as number;
  if (result !== 0) return { result, list: [] };
  const size = 256 + 4 + 4 + 256; // VkLayerProperties
  const buffer = Buffer.alloc(Math.max(1, count[0]!) * size);
  result = exportedLayerEnumerate!(count, buffer) as number;
  const list: string[] = [];
  for (let i = 0; i < count[0]!; ++i) {
    const name = buffer.subarray(i * size, i * size + 256);
    list.push(name.toString('utf8', 0, name.indexOf(0)));
  }
  return { result, list };
}

const extNames = (list: readonly { extensionName: string; specVersion: number }[]): string[] => list.map((e) => `${e.extensionName}@${e.specVersion}`);

function khronos(s: Scenario, env: Record<string, string>, layers?: string[]): Answer {
  const out = path.join(T, `out-${++n}.json`);
  const log = path.join(T, `log-${n}.txt`);
  const args = [...khronosArgs(), '--out', out];
  if (layers) {
    args.push('--create');
    for (const l of layers) args.push('--layer', l);
  }
  execFileSync(enumerate, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env, PROBE_LOG: log }, stdio: ['ignore', 'ignore', 'ignore'] });
  const raw = JSON.parse(readFileSync(out, 'utf8')) as { layers: { list: LayerProps[] }; extensions: ExtList; layerExtensions: Record<string, ExtList>; create?: { result: number } };
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  expect(raw.extensions.result).toBe(0);
  const answer: Answer = { layers: raw.layers.list, extensions: extNames(raw.extensions.list), layerExtensions: raw.layerExtensions };
  if (raw.create) {
    answer.create = raw.create.result;
    answer.chain = lines.filter((l) => l.startsWith('vk-layer-create ')).map((l) => s.nameOf(l.slice('vk-layer-create '.length)));
    answer.drivers = lines.filter((l) => l.startsWith('vk-driver-create ')).map((l) => real(l.slice('vk-driver-create '.length)));
  }
  return answer;
}

function ours(s: Scenario, env: Record<string, string>, layers?: string[]): Answer {
  // Configured as Debian builds its loader: SYSCONFDIR=/etc, no EXTRASYSCONFDIR.
  const loader = createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
  const props = loader.enumerateInstanceLayerProperties();
  const layerExtensions: Record<string, ExtList> = {};
  for (const p of props) layerExtensions[p.layerName] = { result: 0, list: loader.enumerateInstanceExtensionProperties(p.layerName) };
  const answer: Answer = { layers: props, extensions: extNames(loader.enumerateInstanceExtensionProperties()), layerExtensions };
  // The exported C function answers the same list, and each layer's.
  const plan = loader.planInstance();
  expect(exportedExtensions(plan, null), 'exported vkEnumerateInstanceExtensionProperties(NULL)').toEqual({ result: 0, list: answer.extensions });
  for (const p of props) expect(exportedExtensions(plan, p.layerName).list, p.layerName).toEqual(extNames(layerExtensions[p.layerName]!.list));
  // The exported vkEnumerateInstanceLayerProperties lists every available layer, as createLoader() does, not only the plan's chain.
  expect(exportedLayers(plan), 'exported vkEnumerateInstanceLayerProperties').toEqual({ result: 0, list: props.map((p) => p.layerName) });
  if (layers) {
    try {
      const plan = loader.planInstance({ enabledLayerNames: layers });
      // Our native core creates the instance too (loader.createInstance: plan + native chain); the
      // probe layers and driver log the order they are really entered in, as on the Khronos side.
      const log = path.join(T, `ours-${++n}.txt`);
      const previous = process.env.PROBE_LOG;
      process.env.PROBE_LOG = log;
      try {
        const instance = loader.createInstance({ applicationName: 'kl-differential', enabledLayerNames: layers });
        expect(instance.enabledLayerNames).toEqual(plan.layers.map((l) => l.name));
        instance.destroy();
      } finally {
        if (previous === undefined) delete process.env.PROBE_LOG;
        else process.env.PROBE_LOG = previous;
      }
      const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
      answer.create = 0;
      answer.chain = lines.filter((l) => l.startsWith('vk-layer-create ')).map((l) => s.nameOf(l.slice('vk-layer-create '.length)));
      answer.drivers = lines.filter((l) => l.startsWith('vk-driver-create ')).map((l) => real(l.slice('vk-driver-create '.length)));
      // What the native chain did is what the plan said.
      expect(answer.chain).toEqual(plan.layers.map((l) => l.name));
      expect(answer.drivers).toEqual(plan.drivers.map((d) => real(d.libraryPath)));
    } catch (err) {
      if (!(err instanceof VulkanError)) throw err;
      answer.create = err.resultValue;
    }
  }
  return answer;
}

const names = (a: Answer): string[] => a.layers.map((l) => l.layerName).sort();
const sorted = (a: readonly LayerProps[]): LayerProps[] => [...a].sort((x, y) => (x.layerName < y.layerName ? -1 : x.layerName > y.layerName ? 1 : 0));

/** Deliberate differences a scenario runs into (README: Vulkan differences table). */
interface Known {
  /** The Khronos loader (before 1.4.359) enumerates every layer of a duplicated name; we (and 1.4.359) only the first. */
  duplicatesEnumerated?: boolean;
  /** Two manifests of one name in one folder: the Khronos loader lists every copy (before 1.4.359) or the first in readdir order (1.4.359); we the first by file name. */
  duplicateInOneFolder?: boolean;
  /** 1.3.239 orders layers enabled by environment in discovery order; we (as 1.4.309) VK_INSTANCE_LAYERS first in its own order, then VK_LOADER_LAYERS_ENABLE. */
  envLayerOrder?: boolean;
  /** 1.3.239 keeps the last occurrence of a name enabled twice; we (as the spec says, and 1.4.309) the first. */
  lastOccurrenceWins?: boolean;
  /** 1.3.239 enables an implicit meta layer's components before a plain implicit layer found earlier in the search; we (as 1.4.309) follow the search order. */
  implicitMetaOrder?: boolean;
  /** Before 1.4.359 VK_INSTANCE_LAYERS does not move implicit layers (they stay in the implicit pass); we (as 1.4.359) place them where it names them. */
  implicitInInstanceLayers?: boolean;
}

/** Which Khronos loader versions show each difference: elsewhere the answers must be equal. */
const differsIn: Record<keyof Known, readonly KhronosVulkanVersion[]> = {
  duplicatesEnumerated: ['1.3.239', '1.4.309'],
  duplicateInOneFolder: ['1.3.239', '1.4.309', '1.4.359'],
  envLayerOrder: ['1.3.239'],
  lastOccurrenceWins: ['1.3.239'],
  implicitMetaOrder: ['1.3.239'],
  implicitInInstanceLayers: ['1.3.239', '1.4.309'],
};

/** The running comparison is with this Khronos version. */
const comparingWith = (version: KhronosVulkanVersion): boolean => current?.version === version;

/**
 * Instance extensions of implicit layers the override layer blacklists: both Khronos loaders
 * (1.3.239, 1.4.309) still list them in vkEnumerateInstanceExtensionProperties(NULL), though the
 * layer is neither listed nor loaded; we do not (docs/conformance.md). Taken out of the Khronos
 * list by name where a scenario says so.
 */
interface KnownExtensions {
  blacklistedLayerExtensions?: readonly string[];
}

function same(s: Scenario, env: Record<string, string>, layers?: string[], scenarioKnown: Known & KnownExtensions = {}): { k: Answer; o: Answer } & Answer {
  const known: Known = {};
  for (const flag of Object.keys(differsIn) as (keyof Known)[]) {
    if (scenarioKnown[flag] === true && current !== undefined && differsIn[flag].includes(current.version)) known[flag] = true;
  }
  const k = khronos(s, env, layers);
  const o = ours(s, env, layers);
  if (known.duplicatesEnumerated || known.duplicateInOneFolder) expect([...new Set(names(o))]).toEqual([...new Set(names(k))]);
  else expect(sorted(o.layers)).toEqual(sorted(k.layers));
  for (const [name, r] of Object.entries(k.layerExtensions)) {
    expect(o.layerExtensions[name]?.list.map((e) => `${e.extensionName}@${e.specVersion}`).sort(), name).toEqual(r.list.map((e) => `${e.extensionName}@${e.specVersion}`).sort());
  }
  // vkEnumerateInstanceExtensionProperties(NULL): the whole list, names and spec versions, both
  // ways, the deliberate differences taken out of the Khronos side by name.
  const blacklisted = new Set(scenarioKnown.blacklistedLayerExtensions ?? []);
  const accounted = accountedKhronosExtensions(k.extensions);
  for (const e of blacklisted) expect(accounted, 'the Khronos loader lists a blacklisted layer\'s extension').toContain(e);
  expect([...o.extensions].sort(), 'instance extensions').toEqual(accounted.filter((e) => !blacklisted.has(e)).sort());
  expect(o.extensions.filter((e) => WITHHELD.has(e.slice(0, e.indexOf('@'))))).toEqual([]);
  expect(o.create).toBe(k.create);
  if (k.create === 0) {
    if (known.envLayerOrder || known.lastOccurrenceWins || known.implicitMetaOrder || known.implicitInInstanceLayers) expect([...(o.chain ?? [])].sort()).toEqual([...(k.chain ?? [])].sort());
    else expect(o.chain).toEqual(k.chain);
    expect(o.drivers).toEqual(k.drivers);
  }
  return { ...k, k, o };
}


for (const loader of khronosVulkanLoaders()) describe.skipIf(skip !== null || loader.missing !== null)(`Vulkan discovery and policy against the Khronos loader ${loader.version}`, () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-vkdiff-'));
    current = loader;
  });
  afterAll(() => {
    cleanup();
    current = undefined;
  });

  function scenario(): Scenario {
    const s = new Scenario();
    s.driver(path.join(s.root, 'icd'), 'probe_icd.json');
    return s;
  }

  it('VK-LD-1: every standard folder is searched (config home, XDG_CONFIG_DIRS, data home, XDG_DATA_DIRS); implicit layers enter the chain', () => {
    const s = scenario();
    s.layer(s.dir('configHome', 'explicit'), 'a.json', { name: 'VK_LAYER_T_config_home' });
    s.layer(s.dir('xdgConfig', 'explicit'), 'b.json', { name: 'VK_LAYER_T_xdg_config' });
    s.layer(s.dir('dataHome', 'explicit'), 'c.json', { name: 'VK_LAYER_T_data_home' });
    s.layer(s.dir('xdgData', 'explicit'), 'd.json', { name: 'VK_LAYER_T_xdg_data' });
    s.layer(s.dir('xdgData', 'implicit'), 'i.json', { name: 'VK_LAYER_T_implicit', disable_environment: { T_DISABLE: '1' } });
    const k = same(s, s.env(), ['VK_LAYER_T_xdg_data', 'VK_LAYER_T_config_home']);
    expect(names(k)).toHaveLength(5);
    expect(k.chain).toEqual(['VK_LAYER_T_implicit', 'VK_LAYER_T_xdg_data', 'VK_LAYER_T_config_home']);
    // The oracles' builds: every one (Debian's 1.3.239, 1.4.309 and 1.4.359 as built here) has its
    // window systems on, so each lists the xlib surface extension the probe driver offers.
    expect(k.extensions.some((e) => e.startsWith('VK_KHR_xlib_surface@'))).toBe(true);
  });

  it('VK-LD-1, VK-LD-5: a name found in two folders: the first in search order wins (config home before XDG_DATA_DIRS)', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'dup.json', { name: 'VK_LAYER_T_dup', implementation_version: '2', library_path: s.lib('VK_LAYER_T_dup', 'late') });
    s.layer(s.dir('configHome', 'explicit'), 'dup.json', { name: 'VK_LAYER_T_dup', implementation_version: '1' });
    const r = same(s, s.env(), ['VK_LAYER_T_dup'], { duplicatesEnumerated: true });
    expect(r.chain).toEqual(['VK_LAYER_T_dup']);
    expect(r.o.layers.filter((l) => l.layerName === 'VK_LAYER_T_dup').map((l) => l.implementationVersion)).toEqual([1]);
    // 1.3.239 and 1.4.309 list both copies and load the first; 1.4.359 lists the first only, as we do.
    expect(r.k.layers.filter((l) => l.layerName === 'VK_LAYER_T_dup').map((l) => l.implementationVersion)).toEqual(comparingWith('1.4.359') ? [1] : [1, 2]);
  });

  it('VK-LD-5: two manifests of one name in one folder: the loader reads them in a stable order; we take the first by file name', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.layer(dir, 'b.json', { name: 'VK_LAYER_T_same', implementation_version: '2', library_path: s.lib('VK_LAYER_T_same', 'b') });
    s.layer(dir, 'a.json', { name: 'VK_LAYER_T_same', implementation_version: '1' });
    const r = same(s, s.env(), ['VK_LAYER_T_same'], { duplicateInOneFolder: true });
    // 1.3.239 and 1.4.309 list both copies; 1.4.359 one, the first its readdir returned.
    expect(r.k.layers.filter((l) => l.layerName === 'VK_LAYER_T_same')).toHaveLength(comparingWith('1.4.359') ? 1 : 2);
    const o = r.o;
    expect(o.layers.filter((l) => l.layerName === 'VK_LAYER_T_same').map((l) => l.implementationVersion)).toEqual([1]);
  });

  it('VK-LD-4: VK_LAYER_PATH replaces the standard explicit folders (folders and single files)', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'std.json', { name: 'VK_LAYER_T_standard' });
    const own = path.join(s.root, 'own');
    s.layer(own, 'own.json', { name: 'VK_LAYER_T_own' });
    const single = s.layer(path.join(s.root, 'single'), 'one.json', { name: 'VK_LAYER_T_single' });
    const k = same(s, s.env({ VK_LAYER_PATH: `${own}:${single}` }), ['VK_LAYER_T_own', 'VK_LAYER_T_single']);
    expect(names(k)).toEqual(['VK_LAYER_T_own', 'VK_LAYER_T_single']);
  });

  it('VK-LD-4: VK_ADD_LAYER_PATH is searched before the standard folders (its layer of a shared name wins)', () => {
    const s = scenario();
    s.layer(s.dir('configHome', 'explicit'), 'x.json', { name: 'VK_LAYER_T_x', implementation_version: '1', library_path: s.lib('VK_LAYER_T_x', 'std') });
    const add = path.join(s.root, 'add');
    s.layer(add, 'x.json', { name: 'VK_LAYER_T_x', implementation_version: '7' });
    const r = same(s, s.env({ VK_ADD_LAYER_PATH: add }), ['VK_LAYER_T_x'], { duplicatesEnumerated: true });
    expect(r.k.layers.find((l) => l.layerName === 'VK_LAYER_T_x')?.implementationVersion).toBe(7);
    expect(r.o.layers.filter((l) => l.layerName === 'VK_LAYER_T_x').map((l) => l.implementationVersion)).toEqual([7]);
    expect(r.k.chain).toEqual(['VK_LAYER_T_x']);
  });

  it('VK-LD-4: VK_ADD_LAYER_PATH is ignored when VK_LAYER_PATH is set', () => {
    const s = scenario();
    const only = path.join(s.root, 'only');
    const add = path.join(s.root, 'add');
    s.layer(only, 'a.json', { name: 'VK_LAYER_T_only' });
    s.layer(add, 'b.json', { name: 'VK_LAYER_T_added' });
    const k = same(s, s.env({ VK_LAYER_PATH: only, VK_ADD_LAYER_PATH: add }));
    expect(names(k)).toEqual(['VK_LAYER_T_only']);
  });

  it('VK-LM-2: an implicit layer with enable_environment is off until the variable has the value; disable_environment turns it off', () => {
    const s = scenario();
    const dir = s.dir('xdgConfig', 'implicit');
    s.layer(dir, 'e.json', { name: 'VK_LAYER_T_enable_env', enable_environment: { T_ENABLE: '1' }, disable_environment: { T_OFF_E: '1' } });
    s.layer(dir, 'd.json', { name: 'VK_LAYER_T_disable_env', disable_environment: { T_OFF_D: '1' } });
    expect(same(s, s.env(), []).chain).toEqual(['VK_LAYER_T_disable_env']);
    expect(same(s, s.env({ T_ENABLE: '0' }), []).chain).toEqual(['VK_LAYER_T_disable_env']);
    expect(same(s, s.env({ T_ENABLE: '1' }), []).chain).toEqual(['VK_LAYER_T_disable_env', 'VK_LAYER_T_enable_env']);
    expect(same(s, s.env({ T_ENABLE: '1', T_OFF_E: '1', T_OFF_D: '0' }), []).chain).toEqual([]);
    // Set to the empty string is set.
    expect(same(s, s.env({ T_OFF_D: '' }), []).chain).toEqual([]);
  });

  it('VK-LM-2: an implicit layer without disable_environment is rejected; the rest of the folder still loads', () => {
    const s = scenario();
    const dir = s.dir('xdgConfig', 'implicit');
    s.layer(dir, 'bad.json', { name: 'VK_LAYER_T_no_disable' });
    s.layer(dir, 'good.json', { name: 'VK_LAYER_T_good', disable_environment: { T_OFF: '1' } });
    const k = same(s, s.env(), []);
    expect(names(k)).toEqual(['VK_LAYER_T_good']);
  });

  it('VK-LM-1, VK-LM-4: broken manifests (bad JSON, missing fields, DEVICE type, other library_arch) are skipped, good ones still count', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.raw(dir, '2-no-layer.json', '{ "file_format_version": "1.0.0" }');
    s.layer(dir, '3-device.json', { name: 'VK_LAYER_T_device', type: 'DEVICE' });
    s.layer(dir, '4-arch32.json', { name: 'VK_LAYER_T_arch32', library_arch: '32' });
    s.raw(dir, '5-no-name.json', JSON.stringify({ file_format_version: '1.0.0', layer: { type: 'GLOBAL', library_path: 'x.so', api_version: '1.0.0', implementation_version: '1', description: 'd' } }));
    s.layer(dir, '6-good.json', { name: 'VK_LAYER_T_good', library_arch: '64' });
    s.raw(dir, '7-both.json', JSON.stringify({ file_format_version: '1.1.1', layer: { name: 'VK_LAYER_T_both', type: 'GLOBAL', library_path: 'x.so', component_layers: ['VK_LAYER_T_good'], api_version: '1.3.0', implementation_version: '1', description: 'd' } }));
    const k = same(s, s.env(), ['VK_LAYER_T_good']);
    expect(names(k)).toEqual(['VK_LAYER_T_good']);
  });

  it('VK-LM-4: a manifest that is not JSON: 1.3.239 fails the whole enumeration (VK_ERROR_OUT_OF_HOST_MEMORY); we (as 1.4.309) skip the file and keep the rest', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.raw(dir, '1-not-json.json', '{ "file_format_version": "1.0.0", ');
    s.layer(dir, '2-good.json', { name: 'VK_LAYER_T_good' });
    if (current !== undefined && isCurrentKhronosVulkan(current.version)) {
      const r = same(s, s.env(), ['VK_LAYER_T_good']);
      expect(names(r)).toEqual(['VK_LAYER_T_good']);
      expect(r.chain).toEqual(['VK_LAYER_T_good']);
      return;
    }
    const out = path.join(T, `bad-json-${++n}.json`);
    execFileSync(enumerate, [...khronosArgs(), '--out', out], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...s.env() }, stdio: ['ignore', 'ignore', 'ignore'] });
    const k = JSON.parse(readFileSync(out, 'utf8')) as { layers: { result: number; list: LayerProps[] } };
    expect(k.layers.result).toBe(-1);
    const o = ours(s, s.env(), ['VK_LAYER_T_good']);
    expect(names(o)).toEqual(['VK_LAYER_T_good']);
    expect(o.chain).toEqual(['VK_LAYER_T_good']);
  });

  it('VK-LM-1: a "layers" array gives several layers; version strings and extensions read as the loader reads them', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.raw(
      dir,
      'multi.json',
      JSON.stringify({
        file_format_version: '1.0.1',
        layers: [
          { name: 'VK_LAYER_T_one', type: 'INSTANCE', library_path: s.lib('VK_LAYER_T_one'), api_version: '1.2.198', implementation_version: '12', description: 'one', instance_extensions: [{ name: 'VK_EXT_t_one', spec_version: '4' }] },
          { name: 'VK_LAYER_T_two', type: 'GLOBAL', library_path: s.lib('VK_LAYER_T_two'), api_version: '1.3', implementation_version: '3x', description: 'two' },
        ],
      }),
    );
    const k = same(s, s.env(), ['VK_LAYER_T_two', 'VK_LAYER_T_one']);
    expect(k.chain).toEqual(['VK_LAYER_T_two', 'VK_LAYER_T_one']);
  });

  it('VK-LF-1, VK-LF-5: VK_LOADER_LAYERS_ENABLE globs (prefix, case-insensitive substring) force layers on, after the implicit ones and before the application\'s', () => {
    const s = scenario();
    s.layer(s.dir('xdgConfig', 'implicit'), 'i.json', { name: 'VK_LAYER_T_implicit', disable_environment: { T_OFF: '1' } });
    const dir = s.dir('xdgData', 'explicit');
    s.layer(dir, 'a.json', { name: 'VK_LAYER_T_alpha' });
    s.layer(dir, 'b.json', { name: 'VK_LAYER_T_beta' });
    s.layer(dir, 'c.json', { name: 'VK_LAYER_OTHER_gamma' });
    const k = same(s, s.env({ VK_LOADER_LAYERS_ENABLE: 'vk_layer_t_a*,*GAMM*' }), ['VK_LAYER_T_beta']);
    expect(k.chain).toEqual(['VK_LAYER_T_implicit', 'VK_LAYER_T_alpha', 'VK_LAYER_OTHER_gamma', 'VK_LAYER_T_beta']);
    expect(same(s, s.env({ VK_LOADER_LAYERS_ENABLE: '*beta' }), []).chain).toEqual(['VK_LAYER_T_implicit', 'VK_LAYER_T_beta']);
    expect(same(s, s.env({ VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_alph' }), []).chain).toEqual(['VK_LAYER_T_implicit']);
  });

  it('VK-LF-2: VK_LOADER_LAYERS_DISABLE=~implicit~ turns implicit layers off and leaves explicit ones', () => {
    const s = scenario();
    s.layer(s.dir('xdgConfig', 'implicit'), 'i.json', { name: 'VK_LAYER_T_implicit', disable_environment: { T_OFF: '1' } });
    s.layer(s.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_explicit' });
    expect(same(s, s.env({ VK_LOADER_LAYERS_DISABLE: '~implicit~' }), ['VK_LAYER_T_explicit']).chain).toEqual(['VK_LAYER_T_explicit']);
  });

  it('VK-LF-2: VK_LOADER_LAYERS_DISABLE=~explicit~ takes explicit layers out of the list: an application asking for one gets VK_ERROR_LAYER_NOT_PRESENT', () => {
    const s = scenario();
    s.layer(s.dir('xdgConfig', 'implicit'), 'i.json', { name: 'VK_LAYER_T_implicit', disable_environment: { T_OFF: '1' } });
    s.layer(s.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_explicit' });
    const env = s.env({ VK_LOADER_LAYERS_DISABLE: '~explicit~' });
    const r = same(s, env, []);
    expect(r.chain).toEqual(['VK_LAYER_T_implicit']);
    expect(names(r)).toEqual(['VK_LAYER_T_implicit']);
    expect(same(s, env, ['VK_LAYER_T_explicit']).create).toBe(-6);
  });

  it('VK-LF-2: VK_LOADER_LAYERS_DISABLE=~all~ (and "*") leaves no layer at all', () => {
    const s = scenario();
    s.layer(s.dir('xdgConfig', 'implicit'), 'i.json', { name: 'VK_LAYER_T_implicit', disable_environment: { T_OFF: '1' } });
    s.layer(s.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_explicit' });
    const k = same(s, s.env({ VK_LOADER_LAYERS_DISABLE: '~all~' }), []);
    expect(k.chain).toEqual([]);
    expect(names(k)).toEqual([]);
    expect(same(s, s.env({ VK_LOADER_LAYERS_DISABLE: '*' }), ['VK_LAYER_T_explicit']).create).toBe(-6);
    // "**" means ~all~ as well (the documented glob rules, and 1.4.359); 1.3.239's and 1.4.309's
    // determine_filter_type falls through and makes it a suffix glob "*" that matches nothing
    // (deliberate difference with those two).
    const env = s.env({ VK_LOADER_LAYERS_DISABLE: '**' });
    expect(names(khronos(s, env, []))).toHaveLength(comparingWith('1.4.359') ? 0 : 2);
    const o = ours(s, env, []);
    expect(names(o)).toEqual([]);
    expect(o.chain).toEqual([]);
  });

  it('VK-LF-2, VK-LF-5: a suffix glob in VK_LOADER_LAYERS_DISABLE; ENABLE wins over DISABLE for the same layer', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.layer(dir, 'a.json', { name: 'VK_LAYER_T_keep' });
    s.layer(dir, 'b.json', { name: 'VK_LAYER_T_drop_me' });
    const r = same(s, s.env({ VK_LOADER_LAYERS_DISABLE: '*_ME' }), ['VK_LAYER_T_keep']);
    expect(r.chain).toEqual(['VK_LAYER_T_keep']);
    expect(names(r)).toEqual(['VK_LAYER_T_keep']);
    expect(same(s, s.env({ VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_drop*' }), []).chain).toEqual(['VK_LAYER_T_drop_me']);
  });

  it('VK-LF-4: VK_INSTANCE_LAYERS comes before VK_LOADER_LAYERS_ENABLE and the application, in its own order, and overrides DISABLE', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.layer(dir, 'a.json', { name: 'VK_LAYER_T_a' });
    s.layer(dir, 'b.json', { name: 'VK_LAYER_T_b' });
    s.layer(dir, 'c.json', { name: 'VK_LAYER_T_c' });
    s.layer(dir, 'd.json', { name: 'VK_LAYER_T_d' });
    const r = same(s, s.env({ VK_INSTANCE_LAYERS: 'VK_LAYER_T_c:VK_LAYER_T_a', VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_d' }), ['VK_LAYER_T_b', 'VK_LAYER_T_a'], { envLayerOrder: true });
    expect(r.o.chain).toEqual(['VK_LAYER_T_c', 'VK_LAYER_T_a', 'VK_LAYER_T_d', 'VK_LAYER_T_b']);
    expect(r.k.chain?.at(-1)).toBe('VK_LAYER_T_b');
    // 1.4.309 orders exactly as we do (same() compared the chains in order); 1.3.239 does not.
    if (comparingWith('1.3.239')) expect(r.k.chain).not.toEqual(r.o.chain);
    // Deliberate: VK-LF-4 (and LoaderLayerInterface.md) say VK_INSTANCE_LAYERS overrides DISABLE;
    // both Khronos loaders (1.3.239, 1.4.309) take the disabled layer out of the list first.
    const env = s.env({ VK_INSTANCE_LAYERS: 'VK_LAYER_T_a', VK_LOADER_LAYERS_DISABLE: '~all~' });
    expect(khronos(s, env, []).chain).toEqual([]);
    expect(ours(s, env, []).chain).toEqual(['VK_LAYER_T_a']);
  });

  it('VK-LF-4, VK-LF-1, VK-LF-5: chain order with VK_INSTANCE_LAYERS, VK_LOADER_LAYERS_ENABLE, implicit and application layers equals the current Khronos loader (1.4.309) in every combination', () => {
    const s = scenario();
    s.layer(s.dir('xdgConfig', 'implicit'), 'i.json', { name: 'VK_LAYER_T_implicit', disable_environment: { T_OFF: '1' } });
    // One folder per layer, VK_LAYER_PATH in a chosen order: discovery order is fixed (no readdir order).
    const order = ['d', 'a', 'f', 'b', 'e', 'c'];
    for (const x of order) s.layer(path.join(s.root, 'lp', x), `${x}.json`, { name: `VK_LAYER_T_${x}` });
    const layerPath = order.map((x) => path.join(s.root, 'lp', x)).join(':');
    const cases: { instance?: string; enable?: string; app: string[]; ours: string[] }[] = [
      { instance: 'VK_LAYER_T_f:VK_LAYER_T_b:VK_LAYER_T_d', enable: 'VK_LAYER_T_e,VK_LAYER_T_a', app: ['VK_LAYER_T_c', 'VK_LAYER_T_b'], ours: ['f', 'b', 'd', 'a', 'e', 'c'] },
      { instance: 'VK_LAYER_T_c:VK_LAYER_T_a', enable: '*_T_f,*_T_d', app: ['VK_LAYER_T_e', 'VK_LAYER_T_d', 'VK_LAYER_T_b'], ours: ['c', 'a', 'd', 'f', 'e', 'b'] },
      { instance: 'VK_LAYER_T_e:VK_LAYER_T_a', enable: 'vk_layer_t_*', app: ['VK_LAYER_T_b'], ours: ['e', 'a', 'd', 'f', 'b', 'c'] },
      { instance: 'VK_LAYER_T_b:VK_LAYER_T_c:VK_LAYER_T_b', app: ['VK_LAYER_T_a', 'VK_LAYER_T_c'], ours: ['b', 'c', 'a'] },
      { enable: 'VK_LAYER_T_c,VK_LAYER_T_f', app: ['VK_LAYER_T_f', 'VK_LAYER_T_d'], ours: ['f', 'c', 'd'] },
    ];
    for (const c of cases) {
      const env = s.env({ VK_LAYER_PATH: layerPath, ...(c.instance ? { VK_INSTANCE_LAYERS: c.instance } : {}), ...(c.enable ? { VK_LOADER_LAYERS_ENABLE: c.enable } : {}) });
      // same() compares the chains in order with 1.4.309, as sets with 1.3.239 (discovery order there).
      const r = same(s, env, c.app, { envLayerOrder: true });
      expect(r.o.chain, JSON.stringify(c)).toEqual(['VK_LAYER_T_implicit', ...c.ours.map((x) => `VK_LAYER_T_${x}`)]);
    }
  });

  it('VK-LF-6: VK_INSTANCE_LAYERS orders implicit layers too: a named implicit layer leaves the implicit pass and takes its place in the list, even when its own variables turn it off (the current Khronos loader, 1.4.359)', () => {
    const s = scenario();
    // One implicit layer per search folder, so discovery order is fixed (no readdir order).
    s.layer(s.dir('configHome', 'implicit'), 'i0.json', { name: 'VK_LAYER_T_i0', disable_environment: { T_OFF_0: '1' } });
    s.layer(s.dir('xdgConfig', 'implicit'), 'i1.json', { name: 'VK_LAYER_T_i1', disable_environment: { T_OFF_1: '1' } });
    s.layer(s.dir('dataHome', 'implicit'), 'i2.json', { name: 'VK_LAYER_T_i2', disable_environment: { T_OFF_2: '1' } });
    s.layer(s.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_e' });
    const known = { implicitInInstanceLayers: true };
    const named = same(s, s.env({ VK_INSTANCE_LAYERS: 'VK_LAYER_T_i2:VK_LAYER_T_e:VK_LAYER_T_i1' }), [], known);
    expect(named.o.chain).toEqual(['VK_LAYER_T_i0', 'VK_LAYER_T_i2', 'VK_LAYER_T_e', 'VK_LAYER_T_i1']);
    // 1.3.239 and 1.4.309 keep named implicit layers in the implicit pass (same() compared as sets there).
    if (!comparingWith('1.4.359')) expect(named.k.chain).toEqual(['VK_LAYER_T_i0', 'VK_LAYER_T_i1', 'VK_LAYER_T_i2', 'VK_LAYER_T_e']);
    // Without the variable: discovery order.
    expect(same(s, s.env(), []).chain).toEqual(['VK_LAYER_T_i0', 'VK_LAYER_T_i1', 'VK_LAYER_T_i2']);
    // Named, an implicit layer is on even with its disable variable set (the variable names it, as an application would).
    const offEnv = s.env({ VK_INSTANCE_LAYERS: 'VK_LAYER_T_i1:VK_LAYER_T_i0', T_OFF_1: '1' });
    if (comparingWith('1.3.239')) {
      // 1.3.239 leaves the named implicit layer off when its disable variable is set; 1.4.309 and 1.4.359 enable it.
      expect([...(khronos(s, offEnv, ['VK_LAYER_T_e']).chain ?? [])].sort()).toEqual(['VK_LAYER_T_e', 'VK_LAYER_T_i0', 'VK_LAYER_T_i2']);
      expect(ours(s, offEnv, ['VK_LAYER_T_e']).chain).toEqual(['VK_LAYER_T_i2', 'VK_LAYER_T_i1', 'VK_LAYER_T_i0', 'VK_LAYER_T_e']);
    } else {
      const off = same(s, offEnv, ['VK_LAYER_T_e'], known);
      expect(off.o.chain).toEqual(['VK_LAYER_T_i2', 'VK_LAYER_T_i1', 'VK_LAYER_T_i0', 'VK_LAYER_T_e']);
    }
    if (!comparingWith('1.4.359')) return;
    // Deliberate: 1.4.359 leaves an implicit layer out of the implicit pass when its name is any
    // substring of the variable's value, so a longer name that is not even found turns it off; we
    // match whole names (docs/conformance.md).
    const longer = s.env({ VK_INSTANCE_LAYERS: 'VK_LAYER_T_i0_longer' });
    expect(khronos(s, longer, []).chain).toEqual(['VK_LAYER_T_i1', 'VK_LAYER_T_i2']);
    expect(ours(s, longer, []).chain).toEqual(['VK_LAYER_T_i0', 'VK_LAYER_T_i1', 'VK_LAYER_T_i2']);
  });

  it('VK-ML-1, VK-ML-2: a meta layer stands for its components in order; their extensions are its; a name already enabled is dropped', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.layer(dir, 'a.json', { name: 'VK_LAYER_T_comp_a', instance_extensions: [{ name: 'VK_EXT_t_a', spec_version: '2' }] });
    s.layer(dir, 'b.json', { name: 'VK_LAYER_T_comp_b', instance_extensions: [{ name: 'VK_EXT_t_b', spec_version: '5' }] });
    s.layer(dir, 'meta.json', { name: 'VK_LAYER_T_meta', file_format_version: '1.1.1', component_layers: ['VK_LAYER_T_comp_b', 'VK_LAYER_T_comp_a'] });
    const k = same(s, s.env(), ['VK_LAYER_T_meta']);
    expect(k.chain).toEqual(['VK_LAYER_T_comp_b', 'VK_LAYER_T_comp_a']);
    const twice = same(s, s.env(), ['VK_LAYER_T_comp_a', 'VK_LAYER_T_meta'], { lastOccurrenceWins: true });
    expect(twice.o.chain).toEqual(['VK_LAYER_T_comp_a', 'VK_LAYER_T_comp_b']);
    // 1.3.239: the last occurrence decides; 1.4.309 (as we): the first.
    expect(twice.k.chain).toEqual(comparingWith('1.3.239') ? ['VK_LAYER_T_comp_b', 'VK_LAYER_T_comp_a'] : ['VK_LAYER_T_comp_a', 'VK_LAYER_T_comp_b']);
  });

  it('VK-ML-2, VK-ML-3: an implicit meta layer brings its components in (in search order with the other implicit layers); an implicit component ignores its own disable variable only for us (deliberate)', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_explicit_component' });
    // The component in a later folder than the meta layer (within one folder the Khronos loader follows readdir order).
    s.layer(s.dir('xdgData', 'implicit'), 'c.json', { name: 'VK_LAYER_T_implicit_component', disable_environment: { T_OFF_COMPONENT: '1' } });
    const meta = {
      name: 'VK_LAYER_T_implicit_meta',
      file_format_version: '1.1.1',
      component_layers: ['VK_LAYER_T_explicit_component', 'VK_LAYER_T_implicit_component'],
      disable_environment: { T_OFF_META: '1' },
    };
    s.layer(s.dir('xdgConfig', 'implicit'), 'm.json', meta);
    expect(same(s, s.env(), []).chain).toEqual(['VK_LAYER_T_explicit_component', 'VK_LAYER_T_implicit_component']);
    expect(same(s, s.env({ T_OFF_META: '1' }), []).chain).toEqual(['VK_LAYER_T_implicit_component']);
    const env = s.env({ T_OFF_COMPONENT: '1' });
    expect(khronos(s, env, []).chain).toEqual(['VK_LAYER_T_explicit_component']);
    expect(ours(s, env, []).chain).toEqual(['VK_LAYER_T_explicit_component', 'VK_LAYER_T_implicit_component']);
    // The component found before the meta layer: it keeps its own place.
    const early = scenario();
    early.layer(early.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_explicit_component' });
    early.layer(early.dir('xdgConfig', 'implicit'), 'c.json', { name: 'VK_LAYER_T_implicit_component', disable_environment: { T_OFF_COMPONENT: '1' } });
    early.layer(early.dir('xdgData', 'implicit'), 'm.json', meta);
    const r = same(early, early.env(), [], { implicitMetaOrder: true });
    expect(r.o.chain).toEqual(['VK_LAYER_T_implicit_component', 'VK_LAYER_T_explicit_component']);
    if (comparingWith('1.3.239')) expect(r.k.chain).toEqual(['VK_LAYER_T_explicit_component', 'VK_LAYER_T_implicit_component']);
  });


  it('VK-ML-1: a meta layer with a missing component (or another API minor) is unusable: not enumerated, and asking for it fails', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.layer(dir, 'a.json', { name: 'VK_LAYER_T_comp', api_version: '1.2.0' });
    s.layer(dir, 'm1.json', { name: 'VK_LAYER_T_meta_missing', file_format_version: '1.1.1', api_version: '1.2.0', component_layers: ['VK_LAYER_T_comp', 'VK_LAYER_T_nowhere'] });
    s.layer(dir, 'm2.json', { name: 'VK_LAYER_T_meta_minor', file_format_version: '1.1.1', api_version: '1.3.0', component_layers: ['VK_LAYER_T_comp'] });
    const k = same(s, s.env(), ['VK_LAYER_T_meta_missing']);
    expect(names(k)).toEqual(['VK_LAYER_T_comp']);
    expect(k.create).toBe(-6);
  });

  it('VK-ML-4, VK-ML-5: the override layer with override_paths: its components come only from there (VK_LAYER_PATH ignored); it goes after the other implicit layers', () => {
    const s = scenario();
    const gapii = path.join(s.root, 'gapii_pkg/data/vulkan/explicit_layer.d');
    s.layer(gapii, 'gapii.json', { name: 'VK_LAYER_GOOGLE_gapii' });
    s.layer(s.dir('xdgData', 'explicit'), 'std.json', { name: 'VK_LAYER_T_standard_explicit' });
    s.layer(s.dir('xdgConfig', 'implicit'), 'other.json', { name: 'VK_LAYER_T_zz_other_implicit', disable_environment: { T_OFF: '1' } });
    s.layer(s.dir('xdgConfig', 'implicit'), 'VkLayer_override.json', {
      name: 'VK_LAYER_LUNARG_override',
      file_format_version: '1.1.2',
      api_version: '1.3.0',
      component_layers: ['VK_LAYER_GOOGLE_gapii'],
      override_paths: [gapii],
      app_keys: [],
      blacklisted_layers: [],
      disable_environment: { DISABLE_VK_LAYER_LUNARG_override: '1' },
    });
    const layerPath = path.join(s.root, 'layerpath');
    s.layer(layerPath, 'lp.json', { name: 'VK_LAYER_T_from_layer_path' });
    const k = same(s, s.env({ VK_LAYER_PATH: layerPath }), []);
    expect(names(k)).toEqual(['VK_LAYER_GOOGLE_gapii', 'VK_LAYER_LUNARG_override', 'VK_LAYER_T_zz_other_implicit']);
    expect(k.chain).toEqual(['VK_LAYER_T_zz_other_implicit', 'VK_LAYER_GOOGLE_gapii']);
  });

  it('VK-ML-4: the override layer\'s blacklisted_layers are never enabled, not even when the application asks', () => {
    const s = scenario();
    const dir = s.dir('xdgData', 'explicit');
    s.layer(dir, 'a.json', { name: 'VK_LAYER_T_wanted' });
    s.layer(dir, 'b.json', { name: 'VK_LAYER_T_banned' });
    s.layer(s.dir('xdgConfig', 'implicit'), 'o.json', {
      name: 'VK_LAYER_LUNARG_override',
      file_format_version: '1.1.2',
      component_layers: ['VK_LAYER_T_wanted'],
      blacklisted_layers: ['VK_LAYER_T_banned'],
      disable_environment: { DISABLE_OVERRIDE: '1' },
    });
    const k = same(s, s.env(), ['VK_LAYER_T_banned']);
    expect(names(k)).not.toContain('VK_LAYER_T_banned');
    expect(same(s, s.env(), []).chain).toEqual(['VK_LAYER_T_wanted']);
  });

  it('VK-ML-4: an override layer whose app_keys do not name this executable does not apply', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'a.json', { name: 'VK_LAYER_T_component' });
    s.layer(s.dir('xdgConfig', 'implicit'), 'o.json', {
      name: 'VK_LAYER_LUNARG_override',
      file_format_version: '1.1.2',
      component_layers: ['VK_LAYER_T_component'],
      app_keys: ['/no/such/app'],
      disable_environment: { DISABLE_OVERRIDE: '1' },
    });
    const k = same(s, s.env(), []);
    expect(k.chain).toEqual([]);
  });

  /** An override meta layer manifest (implicit, VK_LAYER_LUNARG_override) with the given shape. */
  function override(s: Scenario, shape: { component_layers?: string[]; blacklisted_layers?: string[]; override_paths?: string[]; app_keys?: string[] }): void {
    s.raw(
      s.dir('xdgConfig', 'implicit'),
      'VkLayer_override.json',
      JSON.stringify({
        file_format_version: '1.1.2',
        layer: {
          name: 'VK_LAYER_LUNARG_override',
          type: 'GLOBAL',
          api_version: '1.3.0',
          implementation_version: '1',
          description: 'override',
          component_layers: shape.component_layers ?? [],
          ...(shape.blacklisted_layers ? { blacklisted_layers: shape.blacklisted_layers } : {}),
          ...(shape.override_paths ? { override_paths: shape.override_paths } : {}),
          ...(shape.app_keys ? { app_keys: shape.app_keys } : {}),
          disable_environment: { DISABLE_VK_LAYER_LUNARG_override: '1' },
        },
      }),
    );
  }

  it('VK-ML-4: an override layer with empty component_layers that only blacklists: listed; a blacklisted explicit layer asked for is VK_ERROR_LAYER_NOT_PRESENT, a blacklisted implicit layer is not loaded', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'banned.json', { name: 'VK_LAYER_T_banned', instance_extensions: [{ name: 'VK_EXT_t_banned', spec_version: '1' }] });
    s.layer(s.dir('xdgData', 'explicit'), 'fine.json', { name: 'VK_LAYER_T_fine' });
    // Two folders: within one the Khronos loader follows readdir order.
    s.layer(s.dir('xdgConfig', 'implicit'), 'banned_implicit.json', {
      name: 'VK_LAYER_T_banned_implicit',
      disable_environment: { T_OFF: '1' },
      instance_extensions: [{ name: 'VK_EXT_t_banned_implicit', spec_version: '1' }],
    });
    s.layer(s.dir('xdgData', 'implicit'), 'other_implicit.json', { name: 'VK_LAYER_T_other_implicit', disable_environment: { T_OFF: '1' } });
    override(s, { blacklisted_layers: ['VK_LAYER_T_banned', 'VK_LAYER_T_banned_implicit'] });
    // Deliberate: both Khronos loaders still list the blacklisted implicit layer's extension.
    const known = { blacklistedLayerExtensions: ['VK_EXT_t_banned_implicit@1'] };
    const r = same(s, s.env(), ['VK_LAYER_T_fine'], known);
    expect(names(r)).toEqual(['VK_LAYER_LUNARG_override', 'VK_LAYER_T_fine', 'VK_LAYER_T_other_implicit']);
    expect(r.chain).toEqual(['VK_LAYER_T_other_implicit', 'VK_LAYER_T_fine']);
    expect(r.o.extensions.some((e) => e.startsWith('VK_EXT_t_banned'))).toBe(false);
    expect(same(s, s.env(), ['VK_LAYER_T_banned'], known).create).toBe(-6);
    // With the override off (its disable variable), nothing is blacklisted.
    const off = same(s, s.env({ DISABLE_VK_LAYER_LUNARG_override: '1' }), ['VK_LAYER_T_banned']);
    expect(off.chain).toEqual(['VK_LAYER_T_banned_implicit', 'VK_LAYER_T_other_implicit', 'VK_LAYER_T_banned']);
  });

  it('VK-ML-4: override_paths with empty component_layers: the explicit search is those folders only (VK_LAYER_PATH and the standard folders ignored)', () => {
    const s = scenario();
    const only = path.join(s.root, 'override_only');
    s.layer(only, 'there.json', { name: 'VK_LAYER_T_there' });
    s.layer(s.dir('xdgData', 'explicit'), 'std.json', { name: 'VK_LAYER_T_standard' });
    const layerPath = path.join(s.root, 'layerpath');
    s.layer(layerPath, 'lp.json', { name: 'VK_LAYER_T_layer_path' });
    override(s, { override_paths: [only] });
    const r = same(s, s.env({ VK_LAYER_PATH: layerPath }), ['VK_LAYER_T_there']);
    expect(names(r)).toEqual(['VK_LAYER_LUNARG_override', 'VK_LAYER_T_there']);
    expect(r.chain).toEqual(['VK_LAYER_T_there']);
    expect(same(s, s.env(), ['VK_LAYER_T_standard']).create).toBe(-6);
    // Off: the standard search again.
    expect(same(s, s.env({ DISABLE_VK_LAYER_LUNARG_override: '1' }), ['VK_LAYER_T_standard']).chain).toEqual(['VK_LAYER_T_standard']);
  });

  it('VK-ML-4: app_keys naming this executable apply the override (its components and blacklist); naming another do not', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'comp.json', { name: 'VK_LAYER_T_component' });
    s.layer(s.dir('xdgData', 'explicit'), 'banned.json', { name: 'VK_LAYER_T_banned' });
    // Both executables: the Khronos side runs vk_enumerate, ours runs in this Node process.
    override(s, { component_layers: ['VK_LAYER_T_component'], blacklisted_layers: ['VK_LAYER_T_banned'], app_keys: [real(enumerate), real(process.execPath)] });
    expect(same(s, s.env(), []).chain).toEqual(['VK_LAYER_T_component']);
    expect(same(s, s.env(), ['VK_LAYER_T_banned']).create).toBe(-6);
    const other = scenario();
    other.layer(other.dir('xdgData', 'explicit'), 'comp.json', { name: 'VK_LAYER_T_component' });
    other.layer(other.dir('xdgData', 'explicit'), 'banned.json', { name: 'VK_LAYER_T_banned' });
    override(other, { component_layers: ['VK_LAYER_T_component'], blacklisted_layers: ['VK_LAYER_T_banned'], app_keys: ['/no/such/app'] });
    const r = same(other, other.env(), ['VK_LAYER_T_banned']);
    expect(r.chain).toEqual(['VK_LAYER_T_banned']);
  });

  it('VK-ML-4: the override layer\'s disable_environment turns it off: no components, no blacklist, no override_paths', () => {
    const s = scenario();
    const only = path.join(s.root, 'override_only');
    s.layer(only, 'comp.json', { name: 'VK_LAYER_T_component' });
    s.layer(s.dir('xdgData', 'explicit'), 'banned.json', { name: 'VK_LAYER_T_banned' });
    override(s, { component_layers: ['VK_LAYER_T_component'], blacklisted_layers: ['VK_LAYER_T_banned'], override_paths: [only] });
    const on = same(s, s.env(), []);
    expect(on.chain).toEqual(['VK_LAYER_T_component']);
    const off = same(s, s.env({ DISABLE_VK_LAYER_LUNARG_override: '1' }), ['VK_LAYER_T_banned']);
    expect(off.chain).toEqual(['VK_LAYER_T_banned']);
  });

  it('VK-ML-4, VK-LM-4: an override manifest with a wrong field type: component_layers or blacklisted_layers not an array is read as empty (as both Khronos loaders), with a diagnostic naming file and field', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'banned.json', { name: 'VK_LAYER_T_banned' });
    const file = s.raw(
      s.dir('xdgConfig', 'implicit'),
      'VkLayer_override.json',
      JSON.stringify({
        file_format_version: '1.1.2',
        layer: { name: 'VK_LAYER_LUNARG_override', type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'o', component_layers: [], blacklisted_layers: 'VK_LAYER_T_banned', disable_environment: { D: '1' } },
      }),
    );
    const r = same(s, s.env(), ['VK_LAYER_T_banned']);
    expect(names(r)).toEqual(['VK_LAYER_LUNARG_override', 'VK_LAYER_T_banned']);
    expect(r.chain).toEqual(['VK_LAYER_T_banned']);
    const diagnostics = (env: Record<string, string>) =>
      createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} }).discovery.diagnostics;
    expect(diagnostics(s.env())).toContainEqual(expect.objectContaining({ file, field: 'layer.blacklisted_layers' }));
    s.raw(
      s.dir('xdgConfig', 'implicit'),
      'VkLayer_override.json',
      JSON.stringify({
        file_format_version: '1.1.2',
        layer: { name: 'VK_LAYER_LUNARG_override', type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'o', component_layers: 'VK_LAYER_T_banned', disable_environment: { D: '1' } },
      }),
    );
    expect(names(same(s, s.env(), []))).toEqual(['VK_LAYER_LUNARG_override', 'VK_LAYER_T_banned']);
    expect(diagnostics(s.env())).toContainEqual(expect.objectContaining({ file, field: 'layer.component_layers', reason: expect.stringContaining('should be an array of strings') }));
  });

  it('VK-LF-1: asking for a layer nobody provides fails with VK_ERROR_LAYER_NOT_PRESENT; asking twice for one layer loads it once', () => {
    const s = scenario();
    s.layer(s.dir('xdgData', 'explicit'), 'a.json', { name: 'VK_LAYER_T_real' });
    expect(same(s, s.env(), ['VK_LAYER_T_real', 'VK_LAYER_T_imaginary']).create).toBe(-6);
    expect(same(s, s.env(), ['VK_LAYER_T_real', 'VK_LAYER_T_real']).chain).toEqual(['VK_LAYER_T_real']);
  });

  it('VK-IE-1, VK-IE-2: instance extensions: every driver asked (the first driver\'s spec version for a shared name), the loader\'s own, the implicit layers\' that are on (a driver\'s version wins over a layer\'s); an explicit layer\'s only under its name; an unknown name is VK_ERROR_LAYER_NOT_PRESENT', () => {
    const s = new Scenario();
    const a = s.driver(path.join(s.root, 'drivers-a'), 'a.json', {}, ['VK_KHR_get_physical_device_properties2 2', 'VK_KHR_device_group_creation 1', 'VK_KHR_surface 25']);
    const b = s.driver(path.join(s.root, 'drivers-b'), 'b.json', {}, [
      'VK_KHR_device_group_creation 7', 'VK_KHR_external_fence_capabilities 1', 'VK_EXT_debug_report 9', 'VK_KLTEST_unknown_to_loaders 1',
    ]);
    const implicit = s.dir('xdgConfig', 'implicit');
    s.layer(implicit, 'on.json', {
      name: 'VK_LAYER_T_implicit_on',
      disable_environment: { T_OFF: '1' },
      instance_extensions: [{ name: 'VK_EXT_t_implicit', spec_version: '3' }, { name: 'VK_KHR_device_group_creation', spec_version: '9' }],
    });
    s.layer(implicit, 'off.json', { name: 'VK_LAYER_T_implicit_off', enable_environment: { T_ON: '1' }, disable_environment: { T_OFF2: '1' }, instance_extensions: [{ name: 'VK_EXT_t_off', spec_version: '1' }] });
    s.layer(s.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_explicit', instance_extensions: [{ name: 'VK_EXT_t_explicit', spec_version: '2' }] });
    const env = s.env({ VK_DRIVER_FILES: `${a}:${b}` });
    const r = same(s, env, []);
    expect(r.o.extensions).toEqual([
      'VK_KHR_get_physical_device_properties2@2', 'VK_KHR_device_group_creation@1', 'VK_KHR_surface@25', 'VK_KHR_external_fence_capabilities@1',
      'VK_EXT_debug_report@9', 'VK_EXT_debug_utils@2', 'VK_KHR_portability_enumeration@1', 'VK_LUNARG_direct_driver_loading@1', 'VK_EXT_t_implicit@3',
    ]);
    expect(r.k.extensions).toContain('VK_KHR_surface@25');  // a surface extension the loader implements (VK-WSI-1): listed by both
    expect(r.o.layerExtensions['VK_LAYER_T_explicit']?.list).toEqual([{ extensionName: 'VK_EXT_t_explicit', specVersion: 2 }]);
    // The implicit layer that is off contributes once it is on; VK_LOADER_DISABLE_INST_EXT_FILTER lets the unknown name through.
    expect(same(s, { ...env, T_ON: '1' }, []).o.extensions).toContain('VK_EXT_t_off@1');
    expect(same(s, { ...env, VK_LOADER_DISABLE_INST_EXT_FILTER: '1' }, []).o.extensions).toContain('VK_KLTEST_unknown_to_loaders@1');
    // A name no layer has: VK_ERROR_LAYER_NOT_PRESENT from both, and from the exported C function.
    const out = path.join(T, `query-${++n}.json`);
    execFileSync(enumerate, [...khronosArgs(), '--out', out, '--query-layer', 'VK_LAYER_T_nowhere'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'ignore', 'ignore'] });
    const k = JSON.parse(readFileSync(out, 'utf8')) as { layerExtensions: Record<string, ExtList> };
    expect(k.layerExtensions['VK_LAYER_T_nowhere']?.result).toBe(-6);
    const loader = createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });
    expect(() => loader.enumerateInstanceExtensionProperties('VK_LAYER_T_nowhere')).toThrow(expect.objectContaining({ code: 'VK_ERROR_LAYER_NOT_PRESENT', resultValue: -6 }));
    expect(exportedExtensions(loader.planInstance(), 'VK_LAYER_T_nowhere').result).toBe(-6);
  });

  it('VK-DR-4: VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING=1 keeps the driver and layer libraries mapped after vkDestroyInstance; unset or another value, they unload (/proc/self/maps, both loaders)', () => {
    for (const value of ['1', undefined, '0', '11']) {
      const s = scenario();
      s.layer(s.dir('xdgData', 'explicit'), 'keep.json', { name: 'VK_LAYER_T_keep' });
      const env = s.env(value === undefined ? {} : { VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING: value });
      // The Khronos loader in its own process: what is still mapped once the instance is destroyed.
      const out = path.join(T, `out-${++n}.json`);
      execFileSync(enumerate, [...khronosArgs(), '--out', out, '--create', '--layer', 'VK_LAYER_T_keep', '--maps', s.root], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env, PROBE_LOG: path.join(T, `log-${n}.txt`) },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      const k = (JSON.parse(readFileSync(out, 'utf8')) as { mapped: string[] }).mapped.map(real).sort();
      // Ours in this process (each scenario has its own library copies, so nothing else maps them).
      expect(ours(s, env, ['VK_LAYER_T_keep']).create).toBe(0);
      const o = mappedUnder(real(s.root)).map(real).sort();
      const expected = value === '1' ? [path.join(s.root, 'drivers/probe_icd/libprobe_driver.so'), path.join(s.root, 'libs/VK_LAYER_T_keep/libprobe_layer.so')].map(real).sort() : [];
      // 1.3.239 predates the variable: it unloads them whatever the value.
      expect(k, `Khronos ${current!.version}, value ${String(value)}`).toEqual(comparingWith('1.3.239') ? [] : expected);
      expect(o, `ours, value ${String(value)}`).toEqual(expected);
    }
  });

  it('VK-DR-1: VK_DRIVER_FILES (folders and files) and VK_ICD_FILENAMES replace the standard driver folders', () => {
    const s = new Scenario();
    s.driver(s.dir('xdgData', 'icd'), 'standard.json');
    const chosen = s.driver(path.join(s.root, 'chosen'), 'chosen.json');
    s.driver(path.join(s.root, 'folder'), 'in_folder.json');
    const env = s.env({ VK_DRIVER_FILES: `${chosen}:${path.join(s.root, 'folder')}` });
    const k = same(s, env, []);
    expect(k.drivers?.map((d) => path.basename(path.dirname(d)))).toEqual(['chosen', 'in_folder']);
    const { VK_DRIVER_FILES: _unused, ...rest } = env;
    void _unused;
    expect(same(s, { ...rest, VK_ICD_FILENAMES: chosen }, []).drivers?.map((d) => path.basename(path.dirname(d)))).toEqual(['chosen']);
  });

  it('VK-DR-1: VK_ADD_DRIVER_FILES comes before the standard driver folders', () => {
    const s = new Scenario();
    s.driver(s.dir('xdgData', 'icd'), 'standard.json');
    const added = s.driver(path.join(s.root, 'added'), 'added.json');
    const env = s.env({ VK_ADD_DRIVER_FILES: added });
    delete (env as Record<string, string | undefined>)['VK_DRIVER_FILES'];
    const k = same(s, env, []);
    expect(k.drivers?.map((d) => path.basename(path.dirname(d)))).toEqual(['added', 'standard']);
  });

  it('VK-IE-1, VK-LD-6: a portability driver is asked before any instance, as the Khronos loader asks it: its instance extensions are listed by createLoader() and the exported function alike; vkCreateInstance leaves it out without portability enumeration', () => {
    const s = new Scenario();
    const dir = path.join(s.root, 'icd');
    s.driver(dir, 'plain.json');
    s.driver(dir, 'portable.json', { is_portability_driver: true }, ['VK_KHR_external_semaphore_capabilities 1', 'VK_KHR_external_fence_capabilities 1']);
    s.layer(s.dir('xdgData', 'explicit'), 'e.json', { name: 'VK_LAYER_T_explicit_listed' });
    const r = same(s, s.env({ VK_DRIVER_FILES: dir }), []);
    expect(r.o.extensions).toEqual(expect.arrayContaining(['VK_KHR_external_semaphore_capabilities@1', 'VK_KHR_external_fence_capabilities@1']));
    expect(r.o.layers.map((l) => l.layerName)).toEqual(['VK_LAYER_T_explicit_listed']);
    expect(r.drivers?.map((d) => path.basename(path.dirname(d)))).toEqual(['plain']);
  });

  it('VK-DR-1: VK_LOADER_DRIVERS_DISABLE and VK_LOADER_DRIVERS_SELECT filter drivers by manifest file name', () => {
    const s = new Scenario();
    const dir = s.dir('xdgData', 'icd');
    s.driver(dir, 'alpha_icd.json');
    s.driver(dir, 'beta_icd.json');
    s.driver(dir, 'gamma_icd.json');
    const env = s.env();
    delete (env as Record<string, string | undefined>)['VK_DRIVER_FILES'];
    const base = (d?: string[]): string[] | undefined => d?.map((x) => path.basename(path.dirname(x)));
    expect(base(same(s, { ...env, VK_LOADER_DRIVERS_DISABLE: 'beta*' }, []).drivers)).toEqual(['alpha_icd', 'gamma_icd']);
    expect(base(same(s, { ...env, VK_LOADER_DRIVERS_SELECT: '*GAMMA_ICD.json' }, []).drivers)).toEqual(['gamma_icd']);
    expect(base(same(s, { ...env, VK_LOADER_DRIVERS_DISABLE: '*', VK_LOADER_DRIVERS_SELECT: 'alpha_icd.json' }, []).drivers)).toEqual(['alpha_icd']);
  });
});
