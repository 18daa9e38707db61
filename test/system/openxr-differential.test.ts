// Differential tests: the Khronos OpenXR loaders (Debian's libopenxr-loader1 1.0.20 and the current
// 1.1.61, test/helpers/khronos-openxr-loaders.ts, through test/native/xr_enumerate) and our
// discovery run on the same fixture trees and environments.
// Where we differ on purpose, the scenario says so and why, and checks the difference is real.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtensionProperty } from '../../lib/openxr/discovery/manifest.js';
import { khronosOpenXrLoaders, missingXrProbes, xrProbes, type KhronosOpenXrLoader, type KhronosOpenXrVersion } from '../helpers/khronos-openxr-loaders.js';
import { repoRoot } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { layerManifest, makeTempRoot, put, runtimeManifest, type LayerSpec } from '../unit/openxr/fixtures.js';
import { ourAnswer, type CreateRequest, type ExtResult, type LoaderAnswer } from './fixtures/our-loader.js';
import { packageRoot } from '../../lib/core/native/load.js';

const { enumerate: probe, runtime: probeRuntime, layer: probeLayer } = xrProbes;
const skip = missingSystemComponent({ 'Debian libopenxr-loader1': ['/usr/lib/x86_64-linux-gnu/libopenxr_loader.so.1'] }) ?? missingXrProbes();

interface LayerProps {
  layerName: string;
  specVersion: number;
  layerVersion: number;
  description: string;
}

/** What the probe runtime and layers logged while a loader ran (discovery_probe_common/probe_log.h). */
interface ProbeLog {
  /** Layer names in negotiation order and the library each copy was loaded from. */
  negotiated: Array<{ name: string; library: string }>;
  /**
   * The chain as the layers saw it, in call order: each layer's name, the name its
   * XrApiLayerNextInfo carries, who comes after it, whether the headers were right, and what the
   * call down returned.
   */
  chain: string[];
  /** The runtime library whose xrCreateInstance was reached. */
  runtimeLibrary?: string;
  runtimeDestroyed: boolean;
  /** Every runtime library negotiated (for enumeration too), in order. */
  runtimesNegotiated: string[];
  /** XR-RN-3 violations: the runtime asked for a layer's extensions. */
  runtimeAskedAboutLayer: string[];
}

interface Answer {
  apiLayers: { result: number; list: LayerProps[] };
  extensions: ExtResult;
  layerExtensions: Record<string, ExtResult>;
  create?: { result: number; destroyResult?: number };
  /** xrInitializeLoaderKHR resolved with XR_NULL_HANDLE, and what calling it returned (--init). */
  init?: { getProcAddrResult: number; resolved: boolean; result?: number };
  log: ProbeLog;
}

let T = '';
let cleanup = (): void => {};
/** The Khronos loader the running describe block compares with. */
let current: KhronosOpenXrLoader | undefined;
const comparingWith = (version: KhronosOpenXrVersion): boolean => current?.version === version;
let n = 0;

/** A scenario's tree lives in its own folder under T. */
function scenarioRoot(): string {
  const dir = path.join(T, `s${++n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A probe layer library copy (each copy loads separately, with its own state). */
function layerLib(root: string, name: string, file = 'libprobe_layer.so'): string {
  const p = path.join(root, 'libs', name, file);
  mkdirSync(path.dirname(p), { recursive: true });
  copyFileSync(probeLayer, p);
  return p;
}

function runtimeLib(root: string, id: string, file = 'libprobe_runtime.so'): string {
  const p = path.join(root, 'rt', id, file);
  mkdirSync(path.dirname(p), { recursive: true });
  copyFileSync(probeRuntime, p);
  return p;
}

function writeLayer(root: string, folder: string, file: string, spec: LayerSpec): void {
  put(root, path.join(folder, file), layerManifest(spec));
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function readProbeLog(file: string): ProbeLog {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const after = (prefix: string): string[] => lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
  const runtimeLibrary = after('runtime-create ')[0];
  return {
    negotiated: after('layer-negotiate ').map((l) => {
      const [name = '', library = ''] = l.split(' ');
      return { name, library };
    }),
    chain: lines.filter((l) => l.startsWith('layer-create ') || l.startsWith('layer-created ')),
    ...(runtimeLibrary !== undefined ? { runtimeLibrary } : {}),
    runtimeDestroyed: lines.includes('runtime-destroy'),
    runtimesNegotiated: after('runtime-negotiate '),
    runtimeAskedAboutLayer: after('runtime-enumerate-extensions-with-layer '),
  };
}

function probeEnv(env: Record<string, string>, log: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env, PROBE_LOG: log };
}

function runKhronos(env: Record<string, string>, create?: CreateRequest, init?: Readonly<Record<string, string>>): Answer {
  const out = path.join(T, `out-${++n}.json`);
  const log = path.join(T, `log-${n}.txt`);
  const args = ['--out', out];
  if (init) {
    args.push('--init');
    // An empty name is the invalid property xr_enumerate adds with --init-empty-name.
    for (const [name, value] of Object.entries(init)) args.push(...(name === '' ? ['--init-empty-name'] : ['--init-property', `${name}=${value}`]));
  }
  if (create) {
    args.push('--create');
    for (const l of create.layers ?? []) args.push('--layer', l);
    for (const e of create.extensions ?? []) args.push('--extension', e);
  }
  // The loader under comparison: its folder first on LD_LIBRARY_PATH (a scenario's own entries after it).
  const loaderEnv: Record<string, string> = { ...env };
  const loaderDir = current?.env.LD_LIBRARY_PATH;
  if (loaderDir !== undefined) loaderEnv.LD_LIBRARY_PATH = env.LD_LIBRARY_PATH === undefined ? loaderDir : `${loaderDir}:${env.LD_LIBRARY_PATH}`;
  execFileSync(probe, args, { env: probeEnv(loaderEnv, log), stdio: ['ignore', 'ignore', 'ignore'] });
  return { ...(JSON.parse(readFileSync(out, 'utf8')) as Omit<Answer, 'log'>), log: readProbeLog(log) };
}

/**
 * Ours, with the native side: the runtime is asked for its extensions and xrCreateInstance goes
 * through the fixture layers to the fixture runtime, in this process — or, with `inChild`, in a
 * child process that has exactly `env` (for what the dynamic linker reads at start).
 */
function runOurs(env: Record<string, string>, create?: CreateRequest, options: { inChild?: boolean; init?: Readonly<Record<string, string>> } = {}): Answer & Pick<LoaderAnswer, 'layerFolders'> {
  const log = path.join(T, `log-${++n}.txt`);
  let answer: LoaderAnswer;
  if (options.inChild) {
    const script = path.join(repoRoot, 'test/system/fixtures/our-loader.ts');
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', script, JSON.stringify({ create })], {
      cwd: repoRoot,
      env: probeEnv(env, log),
      encoding: 'utf8',
    });
    answer = JSON.parse(stdout) as LoaderAnswer;
  } else {
    answer = ourAnswer(env, create, log, options.init);
  }
  return { ...answer, log: readProbeLog(log) };
}

/**
 * An enumerated layer list in the order that is defined: folder by folder in search order
 * (XR-LD-1, XR-LD-2), by name within one folder (the Khronos loader follows readdir order there,
 * we sort by file name: XR-LD-7). `folders` maps a layer name to its manifest folder.
 */
function inDefinedOrder(list: readonly LayerProps[], folders: Record<string, string>): Array<{ folder: string; layers: LayerProps[] }> {
  const groups: Array<{ folder: string; layers: LayerProps[] }> = [];
  for (const layer of list) {
    const folder = folders[layer.layerName] ?? '?';
    const last = groups[groups.length - 1];
    if (last?.folder === folder) last.layers.push(layer);
    else groups.push({ folder, layers: [layer] });
  }
  for (const g of groups) g.layers.sort((x, y) => x.layerName.localeCompare(y.layerName));
  return groups;
}

/**
 * Extension lists have no defined order, so they compare as sorted lists (with versions).
 * XR_EXT_debug_utils is the loader's own: Debian's 1.0.20 reports spec version 4, we the current one.
 */
const extList = (list: readonly ExtensionProperty[]): string[] =>
  list.map((e) => (e.name === 'XR_EXT_debug_utils' ? e.name : `${e.name}@${e.extensionVersion}`)).sort();

/** Compares the two answers: enumeration, instance creation, and what the probe libraries saw. */
function expectSame(k: Answer, o: ReturnType<typeof runOurs>): void {
  expect(o.apiLayers.result).toBe(k.apiLayers.result);
  expect(inDefinedOrder(o.apiLayers.list, o.layerFolders)).toEqual(inDefinedOrder(k.apiLayers.list, o.layerFolders));
  expect(o.extensions.result).toBe(k.extensions.result);
  expect(extList(o.extensions.list)).toEqual(extList(k.extensions.list));
  expect(Object.keys(o.layerExtensions).sort()).toEqual(Object.keys(k.layerExtensions).sort());
  for (const [name, r] of Object.entries(k.layerExtensions)) {
    expect(o.layerExtensions[name]?.result, name).toBe(r.result);
    expect(extList(o.layerExtensions[name]?.list ?? []), name).toEqual(extList(r.list));
  }
  // Both loaders load the same runtime library to ask it for its extensions (and never about a layer).
  expect(o.log.runtimesNegotiated.map(real).slice(0, 1)).toEqual(k.log.runtimesNegotiated.map(real).slice(0, 1));
  expect(o.log.runtimeAskedAboutLayer).toEqual([]);
  expect(k.log.runtimeAskedAboutLayer).toEqual([]);
  expect(o.create?.result).toBe(k.create?.result);
  // The chain: which layer copies were negotiated, in what order, and what each layer saw when
  // xrCreateInstance went down through it to the runtime; then xrDestroyInstance reached the runtime.
  if (k.create === undefined || k.create.result === 0) {
    expect(o.log.negotiated.map((l) => l.name)).toEqual(k.log.negotiated.map((l) => l.name));
    expect(o.log.negotiated.map((l) => real(l.library))).toEqual(k.log.negotiated.map((l) => real(l.library)));
  } else {
    // A request that cannot succeed (a missing layer or extension) fails in our plan, before any
    // library is loaded; Debian's 1.0.20 loads the layers it found first.
    expect(o.log.negotiated).toEqual([]);
  }
  expect(o.log.chain).toEqual(k.log.chain);
  expect(real(o.log.runtimeLibrary ?? '')).toBe(real(k.log.runtimeLibrary ?? ''));
  if (k.create?.result === 0) {
    expect(k.log.runtimeLibrary).toBeDefined();
    expect(o.create?.destroyResult).toBe(0);
    expect(k.create.destroyResult).toBe(0);
    expect(o.log.runtimeDestroyed).toBe(true);
    expect(k.log.runtimeDestroyed).toBe(true);
  }
}

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
  struct(name: string, fields: Record<string, unknown>): unknown;
  pointer(type: unknown): unknown;
  proto(prototype: string): unknown;
  call(fn: unknown, proto: unknown, ...args: unknown[]): unknown;
}

/**
 * Our exported xrGetInstanceProcAddr(XR_NULL_HANDLE, "xrInitializeLoaderKHR"), called as native
 * code calls it, with one XrLoaderInitInfoPropertiesEXT of `values`.
 */
let nativeInit: { koffi: Koffi; gipa: (...args: unknown[]) => unknown; proto: unknown } | undefined;
function ourNativeInit(values: readonly { name: string; value: string }[]): { getProcAddrResult: number; resolved: boolean; result?: number } {
  if (nativeInit === undefined) {
    const koffi = createRequire(import.meta.url)('koffi') as Koffi;
    const lib = koffi.load(path.join(packageRoot, 'build/Release/khronos_loader.node'));
    const value = koffi.struct('KlTestXrLoaderInitPropertyValue', { name: 'const char*', value: 'const char*' });
    koffi.struct('KlTestXrLoaderInitInfoProperties', { type: 'int32_t', next: 'void*', propertyValueCount: 'uint32_t', propertyValues: koffi.pointer(value) });
    nativeInit = { koffi, gipa: lib.func('int xrGetInstanceProcAddr(uint64_t, const char*, _Out_ void**)'), proto: koffi.proto('int KlTestXrInitializeLoader(KlTestXrLoaderInitInfoProperties* info)') };
  }
  const { koffi, gipa, proto } = nativeInit;
  const fn: unknown[] = [null];
  const getProcAddrResult = gipa(0, 'xrInitializeLoaderKHR', fn) as number;
  if (fn[0] === null) return { getProcAddrResult, resolved: false };
  const info = { type: 1000838000, next: null, propertyValueCount: values.length, propertyValues: values.length > 0 ? values : null };
  return { getProcAddrResult, resolved: true, result: koffi.call(fn[0], proto, info) as number };
}

/** The usual environment: everything inside the scenario folder, nothing from the machine. */
function baseEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: path.join(root, 'home'),
    XDG_CONFIG_DIRS: path.join(root, 'xdgconf'),
    XDG_DATA_DIRS: path.join(root, 'data'),
    ...extra,
  };
}

const EXPLICIT = 'data/openxr/1/api_layers/explicit.d';
const IMPLICIT = 'data/openxr/1/api_layers/implicit.d';

/** A standard tree: a runtime in XDG_CONFIG_DIRS and explicit layers A, B, C, each in its own library. */
function standardTree(root: string): void {
  put(root, 'xdgconf/openxr/1/active_runtime.json', runtimeManifest(runtimeLib(root, 'main')));
  for (const x of ['A', 'B', 'C']) {
    writeLayer(root, EXPLICIT, `${x}.json`, {
      name: `XR_APILAYER_TEST_${x}`,
      library_path: layerLib(root, x),
      instance_extensions: [{ name: `XR_EXT_layer_${x}`, extension_version: '2' }],
    });
  }
}

for (const loader of khronosOpenXrLoaders()) describe.skipIf(skip !== null || loader.missing !== null)(`OpenXR differential vs the Khronos loader ${loader.version}${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-xr-diff-'));
    current = loader;
  });
  afterAll(() => {
    cleanup();
    current = undefined;
  });

  it('XR-LD-1 XR-CI-1 XR-CI-8: explicit layers enumerate, and the application\'s are enabled in its order', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root);
    const create = { layers: ['XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A'] };
    const k = runKhronos(env, create);
    expect(k.create?.result).toBe(0);
    // What the layers saw of the Khronos loader's chain (XR-CI-3); ours must be the same.
    expect(k.log.chain).toEqual([
      'layer-create XR_APILAYER_TEST_C next-info-name XR_APILAYER_TEST_C then XR_APILAYER_TEST_A headers ok',
      'layer-create XR_APILAYER_TEST_A next-info-name XR_APILAYER_TEST_A then runtime headers ok',
      'layer-created XR_APILAYER_TEST_A result 0',
      'layer-created XR_APILAYER_TEST_C result 0',
    ]);
    expect(k.log.runtimeLibrary).toContain('/rt/main/');
    expectSame(k, runOurs(env, create));
  });

  it('XR-CI-1: XR_ENABLE_API_LAYERS entries come before the application\'s', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root, { XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_B:XR_APILAYER_TEST_C' });
    const create = { layers: ['XR_APILAYER_TEST_A'] };
    const k = runKhronos(env, create);
    expect(k.log.negotiated.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A']);
    expectSame(k, runOurs(env, create));
  });

  it('XR-CI-1 (expected difference): a layer named by both XR_ENABLE_API_LAYERS and the application is enabled once; Debian 1.0.20 fails', () => {
    // Debian's 1.0.20 loads the layer for the first name, then does not find it again for the
    // second and fails xrCreateInstance with XR_ERROR_API_LAYER_NOT_PRESENT. The requirement
    // (duplicates dropped, first kept) and current Khronos loaders (layers_already_found) keep it once.
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root, { XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_B:XR_APILAYER_TEST_C' });
    const create = { layers: ['XR_APILAYER_TEST_A', 'XR_APILAYER_TEST_B'] };
    const k = runKhronos(env, create);
    const o = runOurs(env, create);
    if (comparingWith('1.1.61')) {
      // The current Khronos loader enables it once, as we do: no difference.
      expect(k.create?.result).toBe(0);
      expect(k.log.negotiated.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A']);
      expectSame(k, o);
      return;
    }
    expect(k.create?.result).toBe(-36);
    expect(o.create?.result).toBe(0);
    expect(o.log.negotiated.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A']);
    // Without the repeated name both agree, on the same order.
    const k2 = runKhronos(env, { layers: ['XR_APILAYER_TEST_A'] });
    expect(k2.log.negotiated.map((l) => l.name)).toEqual(o.log.negotiated.map((l) => l.name));
    expectSame({ ...k, create: k2.create ?? { result: -1 }, log: k2.log }, o);
  });

  it('XR-CI-1: an empty XR_ENABLE_API_LAYERS entry is a missing layer, a trailing separator is not', () => {
    const root = scenarioRoot();
    standardTree(root);
    for (const value of [':XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_B:', 'XR_APILAYER_TEST_B::XR_APILAYER_TEST_A']) {
      const env = baseEnv(root, { XR_ENABLE_API_LAYERS: value });
      const create = { layers: [] };
      expectSame(runKhronos(env, create), runOurs(env, create));
    }
  });

  it('XR-CI-1: a requested layer nobody has fails with XR_ERROR_API_LAYER_NOT_PRESENT', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root);
    const create = { layers: ['XR_APILAYER_TEST_A', 'XR_APILAYER_TEST_nope'] };
    const k = runKhronos(env, create);
    expect(k.create?.result).toBe(-36);
    expectSame(k, runOurs(env, create));
  });

  it('XR-LD-1 XR-LM-3: an implicit layer is on and first in the chain; its disable variable turns it off', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, IMPLICIT, 'imp.json', {
      name: 'XR_APILAYER_TEST_implicit',
      library_path: layerLib(root, 'imp'),
      disable_environment: 'DISABLE_TEST_IMPLICIT',
      instance_extensions: [{ name: 'XR_EXT_implicit_ext', extension_version: 7 }],
    });
    const create = { layers: ['XR_APILAYER_TEST_B'] };
    const on = baseEnv(root);
    const k = runKhronos(on, create);
    expect(k.log.negotiated.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_implicit', 'XR_APILAYER_TEST_B']);
    expectSame(k, runOurs(on, create));
    const off = baseEnv(root, { DISABLE_TEST_IMPLICIT: '' });
    const k2 = runKhronos(off, create);
    expect(k2.apiLayers.list.map((l) => l.layerName)).not.toContain('XR_APILAYER_TEST_implicit');
    expectSame(k2, runOurs(off, create));
  });

  it('XR-LM-3: enable_environment must be set, and disable wins over enable', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, IMPLICIT, 'imp.json', {
      name: 'XR_APILAYER_TEST_gated',
      library_path: layerLib(root, 'gated'),
      enable_environment: 'ENABLE_TEST_GATED',
      disable_environment: 'DISABLE_TEST_GATED',
    });
    const create = { layers: [] };
    const extras: Array<Record<string, string>> = [{}, { ENABLE_TEST_GATED: '1' }, { ENABLE_TEST_GATED: '1', DISABLE_TEST_GATED: '1' }];
    for (const extra of extras) {
      const env = baseEnv(root, extra);
      expectSame(runKhronos(env, create), runOurs(env, create));
    }
  });

  it('XR-LM-2: an implicit layer without disable_environment is not loaded', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, IMPLICIT, 'nodisable.json', { name: 'XR_APILAYER_TEST_nodisable', library_path: layerLib(root, 'nd') });
    const env = baseEnv(root);
    const create = { layers: [] };
    const k = runKhronos(env, create);
    expect(k.apiLayers.list.map((l) => l.layerName)).not.toContain('XR_APILAYER_TEST_nodisable');
    expectSame(k, runOurs(env, create));
  });

  it('XR-LD-3: XR_API_LAYER_PATH replaces the explicit search; implicit layers still come from the standard folders', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, IMPLICIT, 'imp.json', { name: 'XR_APILAYER_TEST_imp', library_path: layerLib(root, 'imp'), disable_environment: 'X_OFF' });
    writeLayer(root, 'override1', 'o.json', { name: 'XR_APILAYER_TEST_override1', library_path: layerLib(root, 'o1') });
    writeLayer(root, 'override2', 'o.json', { name: 'XR_APILAYER_TEST_override2', library_path: layerLib(root, 'o2') });
    const env = baseEnv(root, { XR_API_LAYER_PATH: `${path.join(root, 'override1')}::${path.join(root, 'override2')}` });
    const create = { layers: ['XR_APILAYER_TEST_override2', 'XR_APILAYER_TEST_override1'] };
    const k = runKhronos(env, create);
    expect(k.apiLayers.list.map((l) => l.layerName).sort()).toEqual(['XR_APILAYER_TEST_imp', 'XR_APILAYER_TEST_override1', 'XR_APILAYER_TEST_override2']);
    expectSame(k, runOurs(env, create));
  });

  it('XR-RD-1: XR_RUNTIME_JSON names the runtime; no search is made', () => {
    const root = scenarioRoot();
    standardTree(root);
    const other = put(root, 'elsewhere/other_runtime.json', runtimeManifest(runtimeLib(root, 'other')));
    const env = baseEnv(root, { XR_RUNTIME_JSON: other });
    const create = { layers: [] };
    const k = runKhronos(env, create);
    expect(k.log.runtimeLibrary).toContain('/rt/other/');
    expectSame(k, runOurs(env, create));
  });

  it('XR-LI-1: xrInitializeLoaderKHR with loader properties (XR_EXT_loader_init_properties): they stand in for XR_RUNTIME_JSON, XR_ENABLE_API_LAYERS and an implicit layer\'s disable variable, over the environment, as 1.1.61 does', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, IMPLICIT, 'imp.json', { name: 'XR_APILAYER_TEST_implicit', library_path: layerLib(root, 'imp'), disable_environment: 'DISABLE_TEST_IMPLICIT' });
    const fromEnv = put(root, 'elsewhere/env_runtime.json', runtimeManifest(runtimeLib(root, 'env')));
    const fromProperty = put(root, 'elsewhere/property_runtime.json', runtimeManifest(runtimeLib(root, 'property')));
    const env = baseEnv(root, { XR_RUNTIME_JSON: fromEnv, XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_C' });
    const properties = { XR_RUNTIME_JSON: fromProperty, XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_B', DISABLE_TEST_IMPLICIT: '1' };
    const create = { layers: ['XR_APILAYER_TEST_A'] };
    const k = runKhronos(env, create, properties);
    if (comparingWith('1.0.20')) {
      // Debian's 1.0.20 has XR_KHR_loader_init only on Android: the command does not resolve.
      expect(k.init?.resolved).toBe(false);
      return;
    }
    expect(k.init).toEqual({ getProcAddrResult: 0, resolved: true, result: 0 });
    expect(k.log.runtimeLibrary).toContain('/rt/property/');
    expect(k.log.negotiated.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_A']);
    expectSame(k, runOurs(env, create, { init: properties }));
    // No properties: the environment decides again.
    const k2 = runKhronos(env, create, {});
    expect(k2.log.runtimeLibrary).toContain('/rt/env/');
    expect(k2.log.negotiated.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_implicit', 'XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A']);
    expectSame(k2, runOurs(env, create, { init: {} }));
    // Native callers: resolved with XR_NULL_HANDLE by both; a property with an empty name is
    // XR_ERROR_VALIDATION_FAILURE for both; no properties is XR_SUCCESS for both.
    const bad = runKhronos(env, undefined, { '': '' });
    expect(bad.init).toEqual({ getProcAddrResult: 0, resolved: true, result: -1 });
    expect(ourNativeInit([{ name: '', value: 'x' }])).toEqual(bad.init);
    expect(ourNativeInit([])).toEqual(k2.init);
    // Deliberate: properties given to the native function cannot change a plan already published
    // (docs/conformance.md): XR_ERROR_FEATURE_UNSUPPORTED, where 1.1.61 answers XR_SUCCESS.
    expect(ourNativeInit([{ name: 'XR_RUNTIME_JSON', value: fromProperty }]).result).toBe(-8);
  });

  it('XR-RD-2: XDG_CONFIG_HOME comes before XDG_CONFIG_DIRS, whose entries are taken in order', () => {
    const root = scenarioRoot();
    standardTree(root);
    put(root, 'cfg2/openxr/1/active_runtime.json', runtimeManifest(runtimeLib(root, 'second')));
    put(root, 'cfg3/openxr/1/active_runtime.json', runtimeManifest(runtimeLib(root, 'third')));
    put(root, 'userconf/openxr/1/active_runtime.json', runtimeManifest(runtimeLib(root, 'user')));
    const dirs = `${path.join(root, 'nothing')}:${path.join(root, 'cfg2')}:${path.join(root, 'cfg3')}`;
    const create = { layers: [] };
    const withHome = baseEnv(root, { XDG_CONFIG_DIRS: dirs, XDG_CONFIG_HOME: path.join(root, 'userconf') });
    const k1 = runKhronos(withHome, create);
    expect(k1.log.runtimeLibrary).toContain('/rt/user/');
    expectSame(k1, runOurs(withHome, create));
    const withoutHome = baseEnv(root, { XDG_CONFIG_DIRS: dirs });
    const k2 = runKhronos(withoutHome, create);
    expect(k2.log.runtimeLibrary).toContain('/rt/second/');
    expectSame(k2, runOurs(withoutHome, create));
  });

  it('XR-RD-2: XDG_CONFIG_HOME unset falls back to $HOME/.config', () => {
    const root = scenarioRoot();
    standardTree(root);
    put(root, 'home/.config/openxr/1/active_runtime.json', runtimeManifest(runtimeLib(root, 'homecfg')));
    const env = baseEnv(root);
    const create = { layers: [] };
    const k = runKhronos(env, create);
    expect(k.log.runtimeLibrary).toContain('/rt/homecfg/');
    expectSame(k, runOurs(env, create));
  });

  it('XR-LD-2: XDG variables unset: the system folders (Debian\'s api_dump and core_validation) and no runtime', () => {
    const root = scenarioRoot();
    const env = { HOME: path.join(root, 'home') };
    const create = { layers: ['XR_APILAYER_LUNARG_api_dump'] };
    const k = runKhronos(env, create);
    expect(k.apiLayers.list.map((l) => l.layerName)).toEqual(
      expect.arrayContaining(['XR_APILAYER_LUNARG_api_dump', 'XR_APILAYER_LUNARG_core_validation']),
    );
    expect(k.create?.result).toBe(-51);
    expectSame(k, runOurs(env, create));
  });

  it('XR-LD-2: XDG_DATA_HOME, and $HOME/.local/share when it is unset, are searched last', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, 'userdata/openxr/1/api_layers/explicit.d', 'u.json', { name: 'XR_APILAYER_TEST_userdata', library_path: layerLib(root, 'ud') });
    writeLayer(root, 'home/.local/share/openxr/1/api_layers/explicit.d', 'h.json', { name: 'XR_APILAYER_TEST_homedata', library_path: layerLib(root, 'hd') });
    const create = { layers: ['XR_APILAYER_TEST_userdata'] };
    const a = baseEnv(root, { XDG_DATA_HOME: path.join(root, 'userdata') });
    expectSame(runKhronos(a, create), runOurs(a, create));
    const b = baseEnv(root);
    const create2 = { layers: ['XR_APILAYER_TEST_homedata'] };
    const k = runKhronos(b, create2);
    expect(k.create?.result).toBe(0);
    expectSame(k, runOurs(b, create2));
  });

  it('XR-LM-4 XR-RD-5: relative library paths resolve from the manifest\'s folder, bare names through the system search', () => {
    const root = scenarioRoot();
    layerLib(root, 'rel');
    put(root, 'xdgconf/openxr/1/active_runtime.json', runtimeManifest('../../../rt/relrt/libprobe_runtime.so'));
    runtimeLib(root, 'relrt');
    writeLayer(root, EXPLICIT, 'rel.json', { name: 'XR_APILAYER_TEST_relative', library_path: '../../../../../libs/rel/libprobe_layer.so' });
    const bareDir = path.dirname(layerLib(root, 'bare', 'libprobe_bare_layer.so'));
    writeLayer(root, EXPLICIT, 'bare.json', { name: 'XR_APILAYER_TEST_bare', library_path: 'libprobe_bare_layer.so' });
    const env = baseEnv(root, { LD_LIBRARY_PATH: bareDir });
    const create = { layers: ['XR_APILAYER_TEST_relative', 'XR_APILAYER_TEST_bare'] };
    const k = runKhronos(env, create);
    expect(k.create?.result).toBe(0);
    // The dynamic linker reads LD_LIBRARY_PATH at process start: ours runs in a child with this environment.
    const o = runOurs(env, create, { inChild: true });
    // The bare name is opened by the system search: both find it where LD_LIBRARY_PATH points.
    expect(o.log.negotiated[1]?.library).toBe(path.join(bareDir, 'libprobe_bare_layer.so'));
    expect(k.log.negotiated[1]?.library).toBe(path.join(bareDir, 'libprobe_bare_layer.so'));
    expectSame(k, o);
  });

  it('XR-LM-5: broken manifests are skipped and every other manifest still loads', () => {
    const root = scenarioRoot();
    standardTree(root);
    const lib = layerLib(root, 'ok');
    put(root, `${EXPLICIT}/bad-json.json`, '{ "file_format_version": "1.0.0", "api_layer": { ');
    put(root, `${EXPLICIT}/bad-version.json`, layerManifest({ name: 'XR_APILAYER_TEST_v', library_path: lib }).replace('1.0.0', '2.0.0'));
    put(root, `${EXPLICIT}/v101.json`, layerManifest({ name: 'XR_APILAYER_TEST_v101', library_path: lib }).replace('1.0.0', '1.0.1'));
    put(root, `${EXPLICIT}/no-name.json`, JSON.stringify({ file_format_version: '1.0.0', api_layer: { library_path: lib, api_version: '1.0', implementation_version: '1', description: 'x' } }));
    put(root, `${EXPLICIT}/name-number.json`, JSON.stringify({ file_format_version: '1.0.0', api_layer: { name: 5, library_path: lib, api_version: '1.0', implementation_version: '1', description: 'x' } }));
    put(root, `${EXPLICIT}/bad-api.json`, layerManifest({ name: 'XR_APILAYER_TEST_api', library_path: lib, api_version: '2.0' }));
    put(root, `${EXPLICIT}/array.json`, '[1, 2, 3]');
    put(root, `${EXPLICIT}/binary.json`, new Uint8Array([0, 159, 146, 150, 255, 1, 2]));
    put(root, `${EXPLICIT}/missing-lib.json`, layerManifest({ name: 'XR_APILAYER_TEST_missinglib', library_path: path.join(root, 'libs/none/lib.so') }));
    put(root, `${EXPLICIT}/not-json.txt`, layerManifest({ name: 'XR_APILAYER_TEST_txt', library_path: lib }));
    put(root, `${EXPLICIT}/comments.json`, `// a comment\n${layerManifest({ name: 'XR_APILAYER_TEST_comments', library_path: lib })}/* tail */`);
    const env = baseEnv(root);
    const create = { layers: ['XR_APILAYER_TEST_comments', 'XR_APILAYER_TEST_A'] };
    const k = runKhronos(env, create);
    expect(k.apiLayers.list.map((l) => l.layerName).sort()).toEqual([
      'XR_APILAYER_TEST_A',
      'XR_APILAYER_TEST_B',
      'XR_APILAYER_TEST_C',
      'XR_APILAYER_TEST_comments',
    ]);
    expectSame(k, runOurs(env, create));
  });

  it('XR-CI-2: a requested extension neither the runtime nor an enabled layer provides fails with XR_ERROR_EXTENSION_NOT_PRESENT', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root);
    const ok = { layers: ['XR_APILAYER_TEST_A'], extensions: ['XR_EXT_probe_runtime_extension', 'XR_EXT_debug_utils'] };
    const k = runKhronos(env, ok);
    expect(k.create?.result).toBe(0);
    expectSame(k, runOurs(env, ok));
    const bad = { layers: ['XR_APILAYER_TEST_A'], extensions: ['XR_EXT_nobody_has_this'] };
    const k2 = runKhronos(env, bad);
    expect(k2.create?.result).toBe(-9);
    expectSame(k2, runOurs(env, bad));
  });

  it('XR-CI-9: the NULL-layer extension list has the implicit and XR_ENABLE_API_LAYERS layers\' extensions, the runtime\'s, the loader\'s', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, IMPLICIT, 'imp.json', {
      name: 'XR_APILAYER_TEST_imp',
      library_path: layerLib(root, 'imp'),
      disable_environment: 'X_OFF',
      instance_extensions: [
        { name: 'XR_EXT_probe_shared_extension', extension_version: '4' },
        { name: 'XR_EXT_implicit_only', extension_version: 1 },
      ],
    });
    const env = baseEnv(root, { XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_C:XR_APILAYER_TEST_unknown' });
    const k = runKhronos(env);
    expect(extList(k.extensions.list)).toContain('XR_EXT_layer_C@2');
    expectSame(k, runOurs(env));
  });

  it('XR-LD-7 (expected difference): a duplicate layer name is listed once by us, every time by Khronos; the first found is the one enabled', () => {
    const root = scenarioRoot();
    put(root, 'xdgconf/openxr/1/active_runtime.json', runtimeManifest(runtimeLib(root, 'main')));
    writeLayer(root, 'data1/openxr/1/api_layers/explicit.d', 'dup.json', { name: 'XR_APILAYER_TEST_dup', library_path: layerLib(root, 'first'), description: 'first' });
    writeLayer(root, 'data2/openxr/1/api_layers/explicit.d', 'dup.json', { name: 'XR_APILAYER_TEST_dup', library_path: layerLib(root, 'second'), description: 'second' });
    const env = baseEnv(root, { XDG_DATA_DIRS: `${path.join(root, 'data1')}:${path.join(root, 'data2')}` });
    const create = { layers: ['XR_APILAYER_TEST_dup'] };
    const k = runKhronos(env, create);
    const o = runOurs(env, create);
    // Khronos 1.0.20 and 1.1.61 enumerate both copies (REQUIREMENTS XR-LD-7 documents this deliberate difference)...
    expect(k.apiLayers.list.map((l) => l.description)).toEqual(['first', 'second']);
    expect(o.apiLayers.list.map((l) => l.description)).toEqual(['first']);
    // ...and 1.0.20 and we enable the first one found, once. 1.1.61 enables every copy of the name:
    // both libraries are loaded and both are in the chain, the first on top (deliberate difference:
    // one name, one layer).
    expect(k.create?.result).toBe(0);
    expect(k.log.negotiated[0]?.library).toContain('/libs/first/');
    const once = [
      'layer-create XR_APILAYER_TEST_dup next-info-name XR_APILAYER_TEST_dup then runtime headers ok',
      'layer-created XR_APILAYER_TEST_dup result 0',
    ];
    expect(o.log.chain).toEqual(once);
    if (comparingWith('1.1.61')) {
      expect(k.log.negotiated.map((l) => l.library.includes('/libs/second/'))).toEqual([false, true]);
      expect(k.log.chain).toEqual([
        'layer-create XR_APILAYER_TEST_dup next-info-name XR_APILAYER_TEST_dup then XR_APILAYER_TEST_dup headers ok',
        once[0],
        once[1],
        'layer-created XR_APILAYER_TEST_dup result 0',
      ]);
    } else {
      expect(k.log.negotiated).toHaveLength(1);
    }
    expectSame({ ...k, apiLayers: { ...k.apiLayers, list: k.apiLayers.list.slice(0, 1) }, log: { ...k.log, negotiated: k.log.negotiated.slice(0, 1), chain: once } }, o);
  });

  it('XR-LM-1 (expected difference): a layer manifest without "description" is rejected by us (the spec requires it), accepted by Khronos', () => {
    const root = scenarioRoot();
    standardTree(root);
    writeLayer(root, EXPLICIT, 'nodesc.json', { name: 'XR_APILAYER_TEST_nodesc', library_path: layerLib(root, 'nodesc'), description: null });
    const env = baseEnv(root);
    const k = runKhronos(env);
    const o = runOurs(env);
    expect(k.apiLayers.list.map((l) => l.layerName)).toContain('XR_APILAYER_TEST_nodesc');
    expect(o.apiLayers.list.map((l) => l.layerName)).not.toContain('XR_APILAYER_TEST_nodesc');
    const kSpec: Answer = {
      ...k,
      apiLayers: { ...k.apiLayers, list: k.apiLayers.list.filter((l) => l.layerName !== 'XR_APILAYER_TEST_nodesc') },
      layerExtensions: Object.fromEntries(Object.entries(k.layerExtensions).filter(([name]) => name !== 'XR_APILAYER_TEST_nodesc')),
    };
    expectSame(kSpec, o);
  });

  it('XR-RD-2 (expected difference): active_runtime.<arch>.json is preferred by us and current Khronos loaders; Debian 1.0.20 predates it', () => {
    const root = scenarioRoot();
    standardTree(root);
    put(root, 'xdgconf/openxr/1/active_runtime.x86_64.json', runtimeManifest(runtimeLib(root, 'arch')));
    const env = baseEnv(root);
    const create = { layers: [] };
    const k = runKhronos(env, create);
    const o = runOurs(env, create);
    expect(o.log.runtimeLibrary).toContain('/rt/arch/');
    if (comparingWith('1.1.61')) {
      // The current Khronos loader prefers it too: no difference.
      expect(k.log.runtimeLibrary).toContain('/rt/arch/');
      expectSame(k, o);
      return;
    }
    expect(k.log.runtimeLibrary).toContain('/rt/main/');
    expectSame({ ...k, log: { ...k.log, runtimeLibrary: o.log.runtimeLibrary, runtimesNegotiated: o.log.runtimesNegotiated } }, o);
  });

  it('XR-LD-6 XR-RN-3: enumeration never loads a layer library, nor asks the runtime about a layer', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root);
    // Enumeration only: the runtime is loaded (asked for its extensions: the log works and is
    // read), no layer library is.
    const k = runKhronos(env);
    const o = runOurs(env);
    for (const answer of [k, o]) {
      expect(answer.log.runtimesNegotiated.length).toBeGreaterThan(0);
      expect(answer.log.runtimesNegotiated[0]).toContain('/rt/main/');
      expect(answer.log.negotiated).toEqual([]);
      expect(answer.log.runtimeAskedAboutLayer).toEqual([]);
      expect(answer.apiLayers.list.map((l) => l.layerName)).toContain('XR_APILAYER_TEST_A');
    }
    // Positive control: the same tree with xrCreateInstance does load the layer, and the log shows it.
    const create = { layers: ['XR_APILAYER_TEST_A'] };
    for (const answer of [runKhronos(env, create), runOurs(env, create)]) {
      expect(answer.log.negotiated.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_A']);
    }
    // Ours reads manifests only: a layer whose library is not even a shared object still enumerates.
    writeLayer(root, EXPLICIT, 'fake.json', { name: 'XR_APILAYER_TEST_fake', library_path: put(root, 'libs/fake/lib.so', 'not a library') });
    expect(runOurs(env).apiLayers.list.map((l) => l.layerName)).toContain('XR_APILAYER_TEST_fake');
  });
});
