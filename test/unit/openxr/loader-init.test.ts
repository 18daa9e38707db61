// loader.initializeLoader({ properties }): xrInitializeLoaderKHR with XR_EXT_loader_init_properties
// for one loader, over fixture platforms (the differential against the Khronos loader 1.1.61 is in
// test/system/openxr-differential.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoader } from '../../../lib/openxr/loader.js';
import { InvalidArgumentError } from '../../../lib/core/errors.js';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { layerManifest, makeTempRoot, put, runtimeManifest } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
const IMP = '/usr/share/openxr/1/api_layers/implicit.d';
const EXP = '/usr/share/openxr/1/api_layers/explicit.d';
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-xrinit-'));
  put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest('libactive.so'));
  put(root, '/opt/env/runtime.json', runtimeManifest('libfromenv.so'));
  put(root, '/opt/property/runtime.json', runtimeManifest('libfromproperty.so'));
  put(root, `${IMP}/overlay.json`, layerManifest({ name: 'XR_APILAYER_overlay', library_path: 'liboverlay.so', disable_environment: 'NO_OVERLAY' }));
  put(root, `${EXP}/dump.json`, layerManifest({ name: 'XR_APILAYER_dump', library_path: 'libdump.so' }));
  put(root, '/opt/layers/extra.json', layerManifest({ name: 'XR_APILAYER_extra', library_path: 'libextra.so' }));
});
afterEach(() => cleanup());

function loader(env: Record<string, string>, elevated = false) {
  return createLoader({ platform: createFixturePlatform({ root, env: { HOME: '/home/u', ...env }, elevated }), logWriter: () => {}, runtimeExtensions: () => [] });
}
const runtimeLibrary = (l: ReturnType<typeof loader>): string | undefined => l.discover().runtime?.libraryPath;
const chain = (l: ReturnType<typeof loader>): string[] => l.resolveEnabledLayers([]).map((e) => e.layer.name);

describe('OpenXR loader init (XR_KHR_loader_init, XR_EXT_loader_init_properties)', () => {
  it('XR-LI-1: properties stand in for XR_RUNTIME_JSON, XR_ENABLE_API_LAYERS, XR_API_LAYER_PATH and an implicit layer\'s disable variable, over the environment', () => {
    const l = loader({ XR_RUNTIME_JSON: '/opt/env/runtime.json', XR_ENABLE_API_LAYERS: 'XR_APILAYER_dump' });
    expect(runtimeLibrary(l)).toMatch(/libfromenv\.so$/);
    expect(chain(l)).toEqual(['XR_APILAYER_overlay', 'XR_APILAYER_dump']);
    l.initializeLoader({ properties: { XR_RUNTIME_JSON: '/opt/property/runtime.json', XR_API_LAYER_PATH: '/opt/layers', XR_ENABLE_API_LAYERS: 'XR_APILAYER_extra', NO_OVERLAY: '1' } });
    expect(runtimeLibrary(l)).toMatch(/libfromproperty\.so$/);
    expect(chain(l)).toEqual(['XR_APILAYER_extra']);
    expect(l.enumerateApiLayerProperties().map((p) => p.layerName)).toEqual(['XR_APILAYER_extra']);
    // Another loader in the same process keeps the environment's answer.
    expect(runtimeLibrary(loader({ XR_RUNTIME_JSON: '/opt/env/runtime.json' }))).toMatch(/libfromenv\.so$/);
  });

  it('XR-LI-1: a later call with properties replaces the earlier set ({} clears it); a call without keeps it', () => {
    const l = loader({});
    l.initializeLoader({ properties: { XR_RUNTIME_JSON: '/opt/property/runtime.json', NO_OVERLAY: '' } });
    l.initializeLoader({});
    l.initializeLoader();
    expect(runtimeLibrary(l)).toMatch(/libfromproperty\.so$/);
    expect(chain(l)).toEqual([]);
    l.initializeLoader({ properties: { XR_RUNTIME_JSON: '/opt/env/runtime.json' } });
    expect(runtimeLibrary(l)).toMatch(/libfromenv\.so$/);
    expect(chain(l)).toEqual(['XR_APILAYER_overlay']);
    l.initializeLoader({ properties: {} });
    expect(runtimeLibrary(l)).toMatch(/libactive\.so$/);
  });

  it('XR-LI-1: an elevated process ignores XR_RUNTIME_JSON from the environment but honours the property', () => {
    const l = loader({ XR_RUNTIME_JSON: '/opt/env/runtime.json' }, true);
    expect(runtimeLibrary(l)).toMatch(/libactive\.so$/);
    l.initializeLoader({ properties: { XR_RUNTIME_JSON: '/opt/property/runtime.json' } });
    expect(runtimeLibrary(l)).toMatch(/libfromproperty\.so$/);
  });

  it('XR-LI-1: a property with an empty name, a value that is not a string, or info that is not an object is InvalidArgumentError; nothing changes', () => {
    const l = loader({});
    l.initializeLoader({ properties: { XR_RUNTIME_JSON: '/opt/property/runtime.json' } });
    const bad: unknown[] = [{ properties: { '': 'x' } }, { properties: { XR_RUNTIME_JSON: 3 } }, { properties: ['XR_RUNTIME_JSON'] }, null, 'XR_RUNTIME_JSON'];
    for (const info of bad) {
      let thrown: unknown;
      try {
        l.initializeLoader(info as never);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, JSON.stringify(info)).toBeInstanceOf(InvalidArgumentError);
      expect((thrown as InvalidArgumentError).code).toBe('KL_INVALID_ARGUMENT');
    }
    expect(runtimeLibrary(l)).toMatch(/libfromproperty\.so$/);
  });
});
