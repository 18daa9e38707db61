// Manifests, enable policy, enabled-layer order, extension lists and the instance plan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoader } from '../../../lib/openxr/loader.js';
import { OpenXrError } from '../../../lib/openxr/errors.js';
import { implicitLayerState, splitEnableApiLayers } from '../../../lib/openxr/discovery/layer-policy.js';
import { parseApiLayerManifest } from '../../../lib/openxr/discovery/manifest.js';
import { discover } from '../../../lib/openxr/discovery/discover.js';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { envFromMap } from '../../../lib/core/platform/platform.js';
import { layerManifest, makeTempRoot, put, runtimeManifest, type LayerSpec } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot());
});
afterEach(() => cleanup());

const quiet = { logWriter: () => {} };
const EXP = '/usr/share/openxr/1/api_layers/explicit.d';
const IMP = '/usr/share/openxr/1/api_layers/implicit.d';
const RUNTIME_EXTS = [
  { name: 'XR_KHR_runtime_ext', extensionVersion: 2 },
  { name: 'XR_EXT_shared', extensionVersion: 1 },
];

function setup(env: Record<string, string> = {}) {
  put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest('libruntime.so'));
  const platform = createFixturePlatform({ root, env: { HOME: '/home/u', ...env } });
  return createLoader({ platform, ...quiet, runtimeExtensions: () => RUNTIME_EXTS });
}

function layer(dir: string, file: string, spec: LayerSpec): void {
  put(root, `${dir}/${file}`, layerManifest(spec));
}

describe('OpenXR API layer manifests', () => {
  it('XR-LM-1: every field is read as the spec names it', () => {
    const r = parseApiLayerManifest(
      '/x.json',
      JSON.stringify({
        file_format_version: '1.0.0',
        api_layer: {
          name: 'XR_APILAYER_test',
          library_path: 'xrTestLayer.so',
          api_version: '1.0',
          implementation_version: '2',
          description: 'LunarG test API layer',
          functions: { xrNegotiateLoaderApiLayerInterface: 'TestLayer_xrNegotiateLoaderApiLayerInterface' },
          instance_extensions: [
            { name: 'XR_EXT_instance_extension_example', extension_version: '1' },
            { name: 'XR_EXT_numeric_version', extension_version: 3 },
          ],
          enable_environment: 'ENABLE_XR_API_LAYER_TEST_1',
          disable_environment: 'DISABLE_XR_API_LAYER_TEST_1',
        },
      }),
      'implicit',
    );
    expect(r).toMatchObject({
      ok: true,
      warnings: [],
      manifest: {
        name: 'XR_APILAYER_test',
        library_path: 'xrTestLayer.so',
        api_version: '1.0',
        apiVersionMajor: 1,
        apiVersionMinor: 0,
        implementation_version: 2,
        description: 'LunarG test API layer',
        functions: { xrNegotiateLoaderApiLayerInterface: 'TestLayer_xrNegotiateLoaderApiLayerInterface' },
        instance_extensions: [
          { name: 'XR_EXT_instance_extension_example', extensionVersion: 1 },
          { name: 'XR_EXT_numeric_version', extensionVersion: 3 },
        ],
        enable_environment: 'ENABLE_XR_API_LAYER_TEST_1',
        disable_environment: 'DISABLE_XR_API_LAYER_TEST_1',
      },
    });
  });

  it.each([
    ['name', { name: undefined }, 'api_layer.name'],
    ['library_path', { library_path: 42 }, 'api_layer.library_path'],
    ['api_version', { api_version: '2.0' }, 'api_layer.api_version'],
    ['api_version 0.0', { api_version: '0.0' }, 'api_layer.api_version'],
    ['implementation_version', { implementation_version: 3 }, 'api_layer.implementation_version'],
    ['description', { description: undefined }, 'api_layer.description'],
  ])('XR-LM-1: a missing or mistyped required field (%s) is one error naming it', (_label, patch, field) => {
    const base: Record<string, unknown> = { name: 'XR_APILAYER_x', library_path: 'x.so', api_version: '1.0', implementation_version: '1', description: 'd' };
    const layerObj = { ...base, ...patch };
    const r = parseApiLayerManifest('/m.json', JSON.stringify({ file_format_version: '1.0.0', api_layer: layerObj }), 'explicit');
    expect(r).toEqual({ ok: false, error: expect.objectContaining({ severity: 'error', file: '/m.json', field }) });
  });

  it('XR-LM-1: optional fields with the wrong shape are ignored with a warning; the layer still loads', () => {
    const r = parseApiLayerManifest(
      '/m.json',
      JSON.stringify({
        file_format_version: '1.0.0',
        api_layer: {
          name: 'XR_APILAYER_x',
          library_path: 'x.so',
          api_version: '1.0',
          implementation_version: '7beta',
          description: 'd',
          functions: { xrNegotiateLoaderApiLayerInterface: 5 },
          instance_extensions: [{ name: 'XR_EXT_ok', extension_version: '1' }, { name: 3 }, 'x', { name: 'XR_EXT_neg', extension_version: -1 }],
        },
      }),
      'explicit',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.manifest.implementation_version).toBe(7);
    expect(r.manifest.instance_extensions).toEqual([{ name: 'XR_EXT_ok', extensionVersion: 1 }]);
    expect(r.manifest.functions).toEqual({});
    expect(r.warnings.map((w) => w.field)).toEqual([
      'api_layer.implementation_version',
      'api_layer.functions.xrNegotiateLoaderApiLayerInterface',
      'api_layer.instance_extensions[1].name',
      'api_layer.instance_extensions[2]',
      'api_layer.instance_extensions[3].extension_version',
    ]);
  });

  it('XR-LM-2: an implicit layer without disable_environment is not loaded, with an error naming the field', () => {
    layer(IMP, 'nodis.json', { name: 'XR_APILAYER_nodis', library_path: 'a.so' });
    const d = discover({ platform: createFixturePlatform({ root }), ...quiet });
    expect(d.apiLayers).toEqual([]);
    expect(d.diagnostics).toContainEqual(expect.objectContaining({ file: `${IMP}/nodis.json`, field: 'api_layer.disable_environment', severity: 'error' }));
    // The same manifest as an explicit layer needs no disable_environment.
    layer(EXP, 'nodis.json', { name: 'XR_APILAYER_nodis', library_path: 'a.so' });
    expect(discover({ platform: createFixturePlatform({ root }), ...quiet }).apiLayers.map((l) => l.kind)).toEqual(['explicit']);
  });

  it('XR-LM-3: enable_environment must be set (even empty); disable_environment set turns it off; both set: off', () => {
    const m = { enable_environment: 'EN', disable_environment: 'DIS' };
    expect(implicitLayerState(envFromMap({}, false), m).enabled).toBe(false);
    expect(implicitLayerState(envFromMap({ EN: '' }, false), m).enabled).toBe(true);
    expect(implicitLayerState(envFromMap({ EN: '1', DIS: '' }, false), m)).toMatchObject({ enabled: false, reason: expect.stringMatching(/DIS is set.*wins over EN/) });
    expect(implicitLayerState(envFromMap({ DIS: '0' }, false), { disable_environment: 'DIS' }).enabled).toBe(false);
    expect(implicitLayerState(envFromMap({}, false), { disable_environment: 'DIS' })).toMatchObject({ enabled: true });
    // Not secure reads: they apply even when elevated.
    expect(implicitLayerState(envFromMap({ EN: '1' }, true), m).enabled).toBe(true);
  });

  it('XR-LM-4: layer library_path: absolute as is, relative from the manifest folder, bare for the system search; missing files skip the layer', () => {
    put(root, '/opt/l/libabs.so', 'x');
    put(root, `${EXP}/libs/librel.so`, 'x');
    layer(EXP, 'abs.json', { name: 'XR_APILAYER_abs', library_path: '/opt/l/libabs.so' });
    layer(EXP, 'rel.json', { name: 'XR_APILAYER_rel', library_path: 'libs/librel.so' });
    layer(EXP, 'bare.json', { name: 'XR_APILAYER_bare', library_path: 'libbare.so' });
    layer(EXP, 'gone.json', { name: 'XR_APILAYER_gone', library_path: '/opt/l/libgone.so' });
    layer(EXP, 'gonerel.json', { name: 'XR_APILAYER_gonerel', library_path: './nothing/lib.so' });
    const d = discover({ platform: createFixturePlatform({ root }), ...quiet });
    expect(d.apiLayers.map((l) => [l.name, l.libraryPathKind, l.libraryPath])).toEqual([
      ['XR_APILAYER_abs', 'absolute', '/opt/l/libabs.so'],
      ['XR_APILAYER_bare', 'bare', 'libbare.so'],
      ['XR_APILAYER_rel', 'relative', `${EXP}/libs/librel.so`],
    ]);
    const missing = d.diagnostics.filter((x) => x.field === 'api_layer.library_path').map((x) => x.file);
    expect(missing).toEqual([`${EXP}/gone.json`, `${EXP}/gonerel.json`]);
  });

  it('XR-LM-5: each malformed manifest is skipped with one message naming the file and the problem; the others load', () => {
    put(root, `${EXP}/1.json`, '{"file_format_version": "1.0.0", "api_layer": {');
    put(root, `${EXP}/2.json`, JSON.stringify({ file_format_version: '1.0.0', api_layer: 'nope' }));
    put(root, `${EXP}/3.json`, JSON.stringify({ file_format_version: 1, api_layer: {} }));
    put(root, `${EXP}/4.json`, layerManifest({ name: 'XR_APILAYER_v', library_path: 'a.so' }).replace('1.0.0', '1.1.0'));
    layer(EXP, '5.json', { name: 'XR_APILAYER_good', library_path: 'a.so' });
    const d = discover({ platform: createFixturePlatform({ root }), ...quiet });
    expect(d.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_good']);
    const problems = d.diagnostics.filter((x) => x.file.startsWith(EXP));
    expect(problems.map((p) => [p.file.slice(EXP.length + 1), p.field])).toEqual([
      ['1.json', undefined],
      ['2.json', 'api_layer'],
      ['3.json', 'file_format_version'],
      ['4.json', 'file_format_version'],
    ]);
    expect(problems[0]?.reason).toMatch(/not valid JSON/);
    expect(problems[3]?.reason).toMatch(/1\.1\.0 is not supported/);
  });
});

describe('OpenXR enable policy and instance plan', () => {
  function threeLayers(): void {
    layer(IMP, 'i.json', { name: 'XR_APILAYER_imp', library_path: 'i.so', disable_environment: 'NO_IMP', instance_extensions: [{ name: 'XR_EXT_shared', extension_version: '9' }, { name: 'XR_EXT_imp', extension_version: '1' }] });
    layer(IMP, 'j.json', { name: 'XR_APILAYER_off', library_path: 'j.so', enable_environment: 'WANT_OFF', disable_environment: 'NO_OFF', instance_extensions: [{ name: 'XR_EXT_off', extension_version: '1' }] });
    for (const x of ['a', 'b', 'c']) layer(EXP, `${x}.json`, { name: `XR_APILAYER_${x}`, library_path: `${x}.so`, instance_extensions: [{ name: `XR_EXT_${x}`, extension_version: '1' }] });
  }

  it('XR-CI-1: implicit layers, then XR_ENABLE_API_LAYERS, then the application\'s; duplicates dropped, the first kept', () => {
    threeLayers();
    const loader = setup({ XR_ENABLE_API_LAYERS: 'XR_APILAYER_c:XR_APILAYER_imp:XR_APILAYER_a' });
    const enabled = loader.resolveEnabledLayers(['XR_APILAYER_b', 'XR_APILAYER_a', 'XR_APILAYER_b']);
    expect(enabled.map((e) => [e.layer.name, e.origin])).toEqual([
      ['XR_APILAYER_imp', 'implicit'],
      ['XR_APILAYER_c', 'XR_ENABLE_API_LAYERS'],
      ['XR_APILAYER_a', 'XR_ENABLE_API_LAYERS'],
      ['XR_APILAYER_b', 'application'],
    ]);
  });

  it('XR-CI-1: a requested layer that does not exist (or is an implicit layer turned off) is XR_ERROR_API_LAYER_NOT_PRESENT', () => {
    threeLayers();
    const loader = setup();
    const attempt = (names: string[]): OpenXrError => {
      try {
        loader.planInstance({ enabledApiLayerNames: names });
      } catch (err) {
        if (err instanceof OpenXrError) return err;
      }
      throw new Error('expected an OpenXrError');
    };
    const e = attempt(['XR_APILAYER_a', 'XR_APILAYER_missing']);
    expect(e.result).toBe('XR_ERROR_API_LAYER_NOT_PRESENT');
    expect(e.resultValue).toBe(-36);
    expect(e.message).toMatch(/XR_APILAYER_missing/);
    expect(attempt(["XR_APILAYER_off"]).message).toMatch(/implicit layer its environment turns off \(off: its enable_environment variable WANT_OFF is not set\)/);
    // XR_ENABLE_API_LAYERS entries are requests too, and are split as the Khronos loader splits them.
    expect(splitEnableApiLayers('a::b:', ':')).toEqual(['a', '', 'b']);
    expect(() => setup({ XR_ENABLE_API_LAYERS: ':XR_APILAYER_a' }).planInstance()).toThrow(expect.objectContaining({ result: 'XR_ERROR_API_LAYER_NOT_PRESENT' }));
  });

  it('XR-CI-1: the plan carries each layer\'s library, negotiate symbol, kind, manifest and reason, application side first', () => {
    threeLayers();
    layer(EXP, 'r.json', { name: 'XR_APILAYER_renamed', library_path: 'r.so', functions: { xrNegotiateLoaderApiLayerInterface: 'Renamed_Negotiate' } });
    const plan = setup().planInstance({ enabledApiLayerNames: ['XR_APILAYER_renamed'] });
    expect(plan.runtime).toMatchObject({ manifestPath: '/etc/xdg/openxr/1/active_runtime.json', libraryPath: 'libruntime.so', negotiateFunctionName: 'xrNegotiateLoaderRuntimeInterface' });
    expect(plan.apiLayers).toEqual([
      expect.objectContaining({ name: 'XR_APILAYER_imp', kind: 'implicit', origin: 'implicit', manifestPath: `${IMP}/i.json`, negotiateFunctionName: 'xrNegotiateLoaderApiLayerInterface' }),
      expect.objectContaining({ name: 'XR_APILAYER_renamed', kind: 'explicit', origin: 'application', libraryPath: 'r.so', negotiateFunctionName: 'Renamed_Negotiate', reason: 'requested by the application' }),
    ]);
    expect(plan.decisions[0]).toMatch(/^runtime \/etc\/xdg\/openxr\/1\/active_runtime.json: /);
  });

  it('XR-CI-2: an extension neither the runtime nor an enabled layer provides is XR_ERROR_EXTENSION_NOT_PRESENT', () => {
    threeLayers();
    const loader = setup();
    const plan = loader.planInstance({ enabledApiLayerNames: ['XR_APILAYER_a'], enabledExtensionNames: ['XR_KHR_runtime_ext', 'XR_EXT_a', 'XR_EXT_imp', 'XR_EXT_debug_utils'] });
    expect(plan.extensions.map((e) => [e.name, e.providedBy])).toEqual([
      ['XR_KHR_runtime_ext', ['runtime']],
      ['XR_EXT_a', ['XR_APILAYER_a']],
      ['XR_EXT_imp', ['XR_APILAYER_imp']],
      ['XR_EXT_debug_utils', ['loader']],
    ]);
    // XR_EXT_b belongs to a layer that is not enabled.
    expect(() => loader.planInstance({ enabledApiLayerNames: ['XR_APILAYER_a'], enabledExtensionNames: ['XR_EXT_b'] })).toThrow(
      expect.objectContaining({ result: 'XR_ERROR_EXTENSION_NOT_PRESENT', code: 'XR_ERROR_EXTENSION_NOT_PRESENT', resultValue: -9 }),
    );
    // An injected runtime list takes precedence over the provider.
    expect(() => loader.planInstance({ enabledExtensionNames: ['XR_KHR_runtime_ext'], runtimeExtensions: [] })).toThrow(
      expect.objectContaining({ result: 'XR_ERROR_EXTENSION_NOT_PRESENT' }),
    );
  });

  it('XR-CI-8: xrEnumerateApiLayerProperties from manifests: name, spec version from api_version, layer version, description', () => {
    threeLayers();
    layer(EXP, 'v.json', { name: 'XR_APILAYER_versions', library_path: 'v.so', api_version: '1.1', implementation_version: '42', description: 'Versions' });
    const props = setup().enumerateApiLayerProperties();
    expect(props.map((p) => p.layerName)).toEqual(['XR_APILAYER_imp', 'XR_APILAYER_a', 'XR_APILAYER_b', 'XR_APILAYER_c', 'XR_APILAYER_versions']);
    expect(props[4]).toEqual({ layerName: 'XR_APILAYER_versions', specVersion: 2 ** 48 + 2 ** 32, layerVersion: 42, description: 'Versions' });
    expect(setup({ NO_IMP: '1', WANT_OFF: '1' }).enumerateApiLayerProperties().map((p) => p.layerName)[0]).toBe('XR_APILAYER_off');
  });

  it('XR-CI-9: NULL layer → in-force layers\' extensions, the runtime\'s (its version wins), the loader\'s; a layer name → its manifest only; unknown → XR_ERROR_API_LAYER_NOT_PRESENT', () => {
    threeLayers();
    const loader = setup({ XR_ENABLE_API_LAYERS: 'XR_APILAYER_b' });
    expect(loader.enumerateInstanceExtensionProperties()).toEqual([
      { name: 'XR_EXT_shared', extensionVersion: 1 },
      { name: 'XR_EXT_imp', extensionVersion: 1 },
      { name: 'XR_EXT_b', extensionVersion: 1 },
      { name: 'XR_KHR_runtime_ext', extensionVersion: 2 },
      { name: 'XR_EXT_debug_utils', extensionVersion: 5 },
    ]);
    expect(loader.enumerateInstanceExtensionProperties('XR_APILAYER_imp')).toEqual([
      { name: 'XR_EXT_shared', extensionVersion: 9 },
      { name: 'XR_EXT_imp', extensionVersion: 1 },
    ]);
    expect(() => loader.enumerateInstanceExtensionProperties('XR_APILAYER_nope')).toThrow(expect.objectContaining({ result: 'XR_ERROR_API_LAYER_NOT_PRESENT' }));
    expect(() => loader.enumerateInstanceExtensionProperties('XR_APILAYER_off')).toThrow(expect.objectContaining({ result: 'XR_ERROR_API_LAYER_NOT_PRESENT' }));
  });

  it('XR-CI-9: without an active runtime the NULL-layer list is XR_ERROR_RUNTIME_UNAVAILABLE, a layer\'s list still answers', () => {
    threeLayers();
    const loader = createLoader({ platform: createFixturePlatform({ root, env: { HOME: '/home/u' } }), ...quiet });
    expect(() => loader.enumerateInstanceExtensionProperties()).toThrow(expect.objectContaining({ result: 'XR_ERROR_RUNTIME_UNAVAILABLE' }));
    expect(loader.enumerateInstanceExtensionProperties('XR_APILAYER_a')).toEqual([{ name: 'XR_EXT_a', extensionVersion: 1 }]);
  });
});
