// Differential tests: the Debian Khronos OpenXR loader (libopenxr-loader1, through
// test/native/xr_enumerate) and our discovery run on the same fixture trees and environments.
// Where we differ on purpose, the scenario says so and why, and checks the difference is real.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoader } from '../../lib/openxr/loader.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import type { ExtensionProperty } from '../../lib/openxr/discovery/manifest.js';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { layerManifest, makeTempRoot, put, runtimeManifest, type LayerSpec } from '../unit/openxr/fixtures.js';

const probe = path.join(testNativeDir, 'xr_enumerate/xr_enumerate');
const probeRuntime = path.join(testNativeDir, 'discovery_probe_runtime/libdiscovery_probe_runtime.so');
const probeLayer = path.join(testNativeDir, 'discovery_probe_layer/libdiscovery_probe_layer.so');
const skip = missingSystemComponent({
  'Debian libopenxr-loader1': ['/usr/lib/x86_64-linux-gnu/libopenxr_loader.so.1'],
  'test/native xr_enumerate (needs libopenxr-dev)': [probe],
  'test/native discovery_probe_runtime': [probeRuntime],
  'test/native discovery_probe_layer': [probeLayer],
});

/** What the probe runtime reports as its own extensions (discovery_probe_runtime.c). */
const PROBE_RUNTIME_EXTENSIONS: ExtensionProperty[] = [
  { name: 'XR_EXT_probe_runtime_extension', extensionVersion: 3 },
  { name: 'XR_EXT_probe_shared_extension', extensionVersion: 1 },
];

interface LayerProps {
  layerName: string;
  specVersion: number;
  layerVersion: number;
  description: string;
}
interface ExtResult {
  result: number;
  list: ExtensionProperty[];
}
interface Answer {
  apiLayers: { result: number; list: LayerProps[] };
  extensions: ExtResult;
  layerExtensions: Record<string, ExtResult>;
  create?: { result: number };
  /** Layer names in negotiation order (application side first) and their library paths. */
  negotiated?: Array<{ name: string; library: string }>;
  runtimeLibrary?: string;
}

let T = '';
let cleanup = (): void => {};
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

function runKhronos(env: Record<string, string>, create?: { layers?: string[]; extensions?: string[] }): Answer {
  const out = path.join(T, `out-${++n}.json`);
  const log = path.join(T, `log-${n}.txt`);
  const args = ['--out', out];
  if (create) {
    args.push('--create');
    for (const l of create.layers ?? []) args.push('--layer', l);
    for (const e of create.extensions ?? []) args.push('--extension', e);
  }
  execFileSync(probe, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env, PROBE_LOG: log }, stdio: ['ignore', 'ignore', 'ignore'] });
  const answer = JSON.parse(readFileSync(out, 'utf8')) as Answer;
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  answer.negotiated = lines
    .filter((l) => l.startsWith('layer-negotiate '))
    .map((l) => {
      const [, name = '', library = ''] = l.split(' ');
      return { name, library };
    });
  const rt = lines.find((l) => l.startsWith('runtime-negotiate '));
  if (rt) answer.runtimeLibrary = rt.slice('runtime-negotiate '.length);
  return answer;
}

function code(fn: () => unknown): number {
  try {
    fn();
    return 0;
  } catch (err) {
    if (err instanceof OpenXrError) return err.code;
    throw err;
  }
}

function runOurs(env: Record<string, string>, create?: { layers?: string[]; extensions?: string[] }): Answer {
  const platform = createLinuxPlatform({ env, elevated: false });
  // Configured as Debian builds its loader: SYSCONFDIR=/etc, no EXTRASYSCONFDIR.
  const loader = createLoader({
    platform,
    sysconfdir: '/etc',
    extraSysconfdir: null,
    logWriter: () => {},
    runtimeExtensions: () => PROBE_RUNTIME_EXTENSIONS,
  });
  const layers = loader.enumerateApiLayerProperties();
  let extensions: ExtResult = { result: 0, list: [] };
  extensions.result = code(() => {
    extensions = { result: 0, list: loader.enumerateInstanceExtensionProperties() };
  });
  const layerExtensions: Record<string, ExtResult> = {};
  for (const name of [...layers.map((l) => l.layerName), 'XR_APILAYER_PROBE_no_such_layer']) {
    let r: ExtResult = { result: 0, list: [] };
    r.result = code(() => {
      r = { result: 0, list: loader.enumerateInstanceExtensionProperties(name) };
    });
    layerExtensions[name] = r;
  }
  const answer: Answer = { apiLayers: { result: 0, list: layers }, extensions, layerExtensions };
  if (create) {
    answer.create = {
      result: code(() => {
        const plan = loader.planInstance({ enabledApiLayerNames: create.layers ?? [], enabledExtensionNames: create.extensions ?? [] });
        answer.negotiated = plan.apiLayers.map((l) => ({ name: l.name, library: l.libraryPath }));
        answer.runtimeLibrary = plan.runtime.libraryPath;
      }),
    };
  }
  return answer;
}

const byName = <T extends { layerName: string }>(a: readonly T[]): T[] => [...a].sort((x, y) => x.layerName.localeCompare(y.layerName));
const extSet = (list: readonly ExtensionProperty[]): string[] =>
  list
    .filter((e) => e.name !== 'XR_EXT_debug_utils')
    .map((e) => `${e.name}@${e.extensionVersion}`)
    .sort();

/**
 * Compares the two answers. Within one folder the Khronos loader follows readdir order and we sort
 * by file name (XR-LD-7), so lists are compared as sets; order is compared where it is defined:
 * the enabled layer chain.
 */
function expectSame(k: Answer, o: Answer): void {
  expect(o.apiLayers.result).toBe(k.apiLayers.result);
  expect(byName(o.apiLayers.list)).toEqual(byName(k.apiLayers.list));
  expect(o.extensions.result).toBe(k.extensions.result);
  expect(extSet(o.extensions.list)).toEqual(extSet(k.extensions.list));
  if (k.extensions.result === 0) {
    // Both add the loader's own XR_EXT_debug_utils (1.0.20 at spec version 4, we at the current 5).
    expect(k.extensions.list.some((e) => e.name === 'XR_EXT_debug_utils')).toBe(true);
    expect(o.extensions.list.some((e) => e.name === 'XR_EXT_debug_utils')).toBe(true);
  }
  expect(Object.keys(o.layerExtensions).sort()).toEqual(Object.keys(k.layerExtensions).sort());
  for (const [name, r] of Object.entries(k.layerExtensions)) {
    expect(o.layerExtensions[name]?.result, name).toBe(r.result);
    expect(extSet(o.layerExtensions[name]?.list ?? []), name).toEqual(extSet(r.list));
  }
  expect(o.create?.result).toBe(k.create?.result);
  if (k.create?.result === 0) {
    expect(o.negotiated?.map((l) => l.name)).toEqual(k.negotiated?.map((l) => l.name));
    expect(o.negotiated?.map((l) => real(l.library))).toEqual(k.negotiated?.map((l) => real(l.library)));
    expect(real(o.runtimeLibrary ?? '')).toBe(real(k.runtimeLibrary ?? ''));
  }
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

describe.skipIf(skip !== null)(`OpenXR differential vs the Debian Khronos loader${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-xr-diff-'));
  });
  afterAll(() => cleanup());

  it('XR-LD-1 XR-CI-1 XR-CI-8: explicit layers enumerate, and the application\'s are enabled in its order', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root);
    const create = { layers: ['XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A'] };
    const k = runKhronos(env, create);
    expect(k.create?.result).toBe(0);
    expectSame(k, runOurs(env, create));
  });

  it('XR-CI-1: XR_ENABLE_API_LAYERS entries come before the application\'s', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root, { XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_B:XR_APILAYER_TEST_C' });
    const create = { layers: ['XR_APILAYER_TEST_A'] };
    const k = runKhronos(env, create);
    expect(k.negotiated?.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A']);
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
    expect(k.create?.result).toBe(-36);
    expect(o.create?.result).toBe(0);
    expect(o.negotiated?.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_C', 'XR_APILAYER_TEST_A']);
    // Without the repeated name both agree, on the same order.
    const k2 = runKhronos(env, { layers: ['XR_APILAYER_TEST_A'] });
    expect(k2.negotiated?.map((l) => l.name)).toEqual(o.negotiated?.map((l) => l.name));
    expectSame({ ...k, create: { result: 0 }, negotiated: k2.negotiated ?? [], runtimeLibrary: k2.runtimeLibrary ?? '' }, o);
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
    expect(k.negotiated?.map((l) => l.name)).toEqual(['XR_APILAYER_TEST_implicit', 'XR_APILAYER_TEST_B']);
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
    expect(k.runtimeLibrary).toContain('/rt/other/');
    expectSame(k, runOurs(env, create));
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
    expect(k1.runtimeLibrary).toContain('/rt/user/');
    expectSame(k1, runOurs(withHome, create));
    const withoutHome = baseEnv(root, { XDG_CONFIG_DIRS: dirs });
    const k2 = runKhronos(withoutHome, create);
    expect(k2.runtimeLibrary).toContain('/rt/second/');
    expectSame(k2, runOurs(withoutHome, create));
  });

  it('XR-RD-2: XDG_CONFIG_HOME unset falls back to $HOME/.config', () => {
    const root = scenarioRoot();
    standardTree(root);
    put(root, 'home/.config/openxr/1/active_runtime.json', runtimeManifest(runtimeLib(root, 'homecfg')));
    const env = baseEnv(root);
    const create = { layers: [] };
    const k = runKhronos(env, create);
    expect(k.runtimeLibrary).toContain('/rt/homecfg/');
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
    const o = runOurs(env, create);
    // The bare name is opened by the system search: Khronos reports where dlopen found it, we report the name.
    expect(o.negotiated?.[1]?.library).toBe('libprobe_bare_layer.so');
    expect(k.negotiated?.[1]?.library).toBe(path.join(bareDir, 'libprobe_bare_layer.so'));
    const kAdjusted = { ...k, negotiated: k.negotiated?.map((l, i) => (i === 1 ? { ...l, library: 'libprobe_bare_layer.so' } : l)) };
    expectSame(kAdjusted, o);
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
    expect(extSet(k.extensions.list)).toContain('XR_EXT_layer_C@2');
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
    // Khronos 1.0.20 enumerates both copies (REQUIREMENTS XR-LD-7 documents this deliberate difference)...
    expect(k.apiLayers.list.map((l) => l.description)).toEqual(['first', 'second']);
    expect(o.apiLayers.list.map((l) => l.description)).toEqual(['first']);
    // ...and both enable the first one found.
    expect(k.create?.result).toBe(0);
    expect(k.negotiated?.[0]?.library).toContain('/libs/first/');
    expectSame({ ...k, apiLayers: { ...k.apiLayers, list: k.apiLayers.list.slice(0, 1) } }, o);
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
    expect(k.runtimeLibrary).toContain('/rt/main/');
    expect(o.runtimeLibrary).toContain('/rt/arch/');
    expectSame({ ...k, runtimeLibrary: o.runtimeLibrary ?? '' }, o);
  });

  it('XR-LD-6 XR-RN-3: enumeration never loads a layer library, nor asks the runtime about a layer', () => {
    const root = scenarioRoot();
    standardTree(root);
    const env = baseEnv(root);
    const log = path.join(root, 'enum.log');
    rmSync(log, { force: true });
    execFileSync(probe, ['--out', path.join(root, 'enum.json')], { env: { ...env, PATH: process.env.PATH ?? '', PROBE_LOG: log }, stdio: 'ignore' });
    const lines = existsSync(log) ? readFileSync(log, 'utf8') : '';
    expect(lines).not.toMatch(/layer-negotiate|runtime-enumerate-extensions-with-layer/);
    // Ours reads manifests only: a layer whose library is not even a shared object still enumerates.
    writeLayer(root, EXPLICIT, 'fake.json', { name: 'XR_APILAYER_TEST_fake', library_path: put(root, 'libs/fake/lib.so', 'not a library') });
    expect(runOurs(env).apiLayers.list.map((l) => l.layerName)).toContain('XR_APILAYER_TEST_fake');
  });
});
