// The OpenXR loader policy in code, createLoader({ layers }), rule by rule over fixture platforms,
// and against the environment it comes after (docs/usage.md, "Loader policy in code").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoader, type LoaderOptions } from '../../../lib/openxr/loader.js';
import { OpenXrError } from '../../../lib/openxr/errors.js';
import { InvalidArgumentError } from '../../../lib/core/errors.js';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { layerManifest, makeTempRoot, put, runtimeManifest } from './fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-xrpol-'));
  put(root, '/etc/xdg/openxr/1/active_runtime.json', runtimeManifest('libruntime.so'));
  put(root, `${IMP}/overlay.json`, layerManifest({ name: 'XR_APILAYER_overlay_recorder', library_path: 'libXR_APILAYER_overlay_recorder.so', disable_environment: 'NO_RECORDER' }));
  put(root, `${IMP}/fps.json`, layerManifest({ name: 'XR_APILAYER_fps_meter', library_path: 'libXR_APILAYER_fps_meter.so', disable_environment: 'NO_FPS' }));
  put(root, `${IMP}/gated.json`, layerManifest({ name: 'XR_APILAYER_gated', library_path: 'libXR_APILAYER_gated.so', disable_environment: 'NO_GATED', enable_environment: 'GATED' }));
  put(root, `${EXP}/validation.json`, layerManifest({ name: 'XR_APILAYER_LUNARG_core_validation', library_path: 'libXR_APILAYER_LUNARG_core_validation.so', instance_extensions: [{ name: 'XR_EXT_val', extension_version: 1 }] }));
  put(root, `${EXP}/dump.json`, layerManifest({ name: 'XR_APILAYER_LUNARG_api_dump', library_path: 'libXR_APILAYER_LUNARG_api_dump.so' }));
});
afterEach(() => cleanup());

const IMP = '/usr/share/openxr/1/api_layers/implicit.d';
const EXP = '/usr/share/openxr/1/api_layers/explicit.d';
const quiet = { logWriter: () => {} };

function loader(layers: LoaderOptions['layers'], env: Record<string, string> = {}) {
  return createLoader({ platform: createFixturePlatform({ root, env: { HOME: '/home/u', ...env } }), ...quiet, runtimeExtensions: () => [], layers });
}
const chain = (layers: LoaderOptions['layers'], requested: string[] = [], env: Record<string, string> = {}): string[] =>
  loader(layers, env).resolveEnabledLayers(requested).map((e) => e.layer.name);
const IMPLICIT_ON = ['XR_APILAYER_fps_meter', 'XR_APILAYER_overlay_recorder'];

describe('OpenXR loader policy', () => {
  it('XR-PO-1: layers.disable takes matching layers out (globs, ~implicit~, ~explicit~): not enumerated, a request is XR_ERROR_API_LAYER_NOT_PRESENT; allow and enable protect', () => {
    expect(chain(undefined)).toEqual(IMPLICIT_ON);
    const l = loader({ disable: ['*recorder'] });
    expect(l.resolveEnabledLayers([]).map((e) => e.layer.name)).toEqual(['XR_APILAYER_fps_meter']);
    expect(l.enumerateApiLayerProperties().map((p) => p.layerName)).not.toContain('XR_APILAYER_overlay_recorder');
    expect(() => l.resolveEnabledLayers(['XR_APILAYER_overlay_recorder'])).toThrow(OpenXrError);
    expect(l.planInstance().decisions).toContain(
      `layer XR_APILAYER_overlay_recorder (implicit, ${IMP}/overlay.json) not loaded: disabled by createLoader({ layers: { disable } }): not enumerated, and a request for it is XR_ERROR_API_LAYER_NOT_PRESENT`,
    );
    expect(chain({ disable: ['~implicit~'] }, ['XR_APILAYER_LUNARG_api_dump'])).toEqual(['XR_APILAYER_LUNARG_api_dump']);
    let thrown: unknown;
    try {
      chain({ disable: ['~explicit~'] }, [], { XR_ENABLE_API_LAYERS: 'XR_APILAYER_LUNARG_api_dump' });
    } catch (e) {
      thrown = e;
    }
    expect((thrown as OpenXrError).code).toBe('XR_ERROR_API_LAYER_NOT_PRESENT');
    expect(chain({ disable: ['~all~'], allow: ['xr_apilayer_fps*'] })).toEqual(['XR_APILAYER_fps_meter']);
    expect(chain({ disable: ['*'], enable: ['*api_dump'] })).toEqual(['XR_APILAYER_LUNARG_api_dump']);
  });

  it('XR-PO-2: layers.enable turns on explicit layers after XR_ENABLE_API_LAYERS and before the application\'s, and implicit ones their environment turns off (in the implicit pass)', () => {
    const env = { XR_ENABLE_API_LAYERS: 'XR_APILAYER_LUNARG_api_dump' };
    expect(chain({ enable: ['*core_validation'] }, [], env)).toEqual([...IMPLICIT_ON, 'XR_APILAYER_LUNARG_api_dump', 'XR_APILAYER_LUNARG_core_validation']);
    expect(chain({ enable: ['*core_validation'] }, ['XR_APILAYER_LUNARG_api_dump'])).toEqual([...IMPLICIT_ON, 'XR_APILAYER_LUNARG_core_validation', 'XR_APILAYER_LUNARG_api_dump']);
    // An implicit layer joins the implicit pass where the search found it (as its enable variable would place it).
    expect(chain({ enable: ['XR_APILAYER_gated'] })).toEqual(['XR_APILAYER_fps_meter', 'XR_APILAYER_gated', 'XR_APILAYER_overlay_recorder']);
    expect(chain({ enable: ['*recorder'] }, [], { NO_RECORDER: '1' })).toEqual(['XR_APILAYER_fps_meter', 'XR_APILAYER_overlay_recorder']);
    const plan = loader({ enable: ['*core_validation'] }).planInstance();
    expect(plan.apiLayers.find((x) => x.name === 'XR_APILAYER_LUNARG_core_validation')).toMatchObject({ origin: 'policy', reason: 'turned on by createLoader({ layers: { enable } }) ("*core_validation")' });
    // Its extensions are in force for xrEnumerateInstanceExtensionProperties(NULL).
    expect(loader({ enable: ['*core_validation'] }).enumerateInstanceExtensionProperties().map((e) => e.name)).toContain('XR_EXT_val');
    expect(loader(undefined).enumerateInstanceExtensionProperties().map((e) => e.name)).not.toContain('XR_EXT_val');
  });

  it('XR-PO-3: safe mode loads no implicit layer the application (its names or layers.enable) does not name; the plan says which were left out', () => {
    expect(chain({ safe: true })).toEqual([]);
    expect(chain({ safe: true }, ['XR_APILAYER_overlay_recorder'])).toEqual(['XR_APILAYER_overlay_recorder']);
    expect(chain({ safe: true, enable: ['*fps*'] }, ['XR_APILAYER_LUNARG_api_dump'])).toEqual(['XR_APILAYER_fps_meter', 'XR_APILAYER_LUNARG_api_dump']);
    expect(chain({ safe: true }, [], { XR_ENABLE_API_LAYERS: 'XR_APILAYER_LUNARG_api_dump' })).toEqual(['XR_APILAYER_LUNARG_api_dump']);
    const plan = loader({ safe: true }).planInstance();
    expect(plan.apiLayers).toEqual([]);
    expect(plan.decisions).toContain('layer XR_APILAYER_fps_meter not loaded: safe mode (createLoader({ layers: { safe: true } })) loads no implicit layer the application does not name');
  });

  it('XR-PO-4: layers.order puts the layers each entry matches first, in its order; the rest keep theirs', () => {
    const req = ['XR_APILAYER_LUNARG_core_validation', 'XR_APILAYER_LUNARG_api_dump'];
    expect(chain(undefined, req)).toEqual([...IMPLICIT_ON, ...req]);
    expect(chain({ order: ['*api_dump', '*validation', 'XR_APILAYER_overlay*'] }, req)).toEqual(['XR_APILAYER_LUNARG_api_dump', 'XR_APILAYER_LUNARG_core_validation', 'XR_APILAYER_overlay_recorder', 'XR_APILAYER_fps_meter']);
    const plan = loader({ order: ['*api_dump'] }).planInstance({ enabledApiLayerNames: req });
    expect(plan.apiLayers[0]).toMatchObject({ name: 'XR_APILAYER_LUNARG_api_dump', reason: 'requested by the application; placed by layers.order[0] ("*api_dump")' });
  });

  it('XR-PO-5: a wrong layers option is an InvalidArgumentError naming it', () => {
    const bad: [unknown, RegExp][] = [
      [[], /^options\.layers must be an object/],
      [{ enable: 'x' }, /^options\.layers\.enable must be an array/],
      [{ order: [3] }, /^options\.layers\.order\[0\] must be a non-empty name or glob without commas, got 3/],
      [{ safe: 'yes' }, /^options\.layers\.safe must be a boolean/],
      [{ drivers: [] }, /^options\.layers\.drivers must be one of enable, disable, allow, order, safe/],
    ];
    for (const [layers, message] of bad) {
      expect(() => loader(layers as LoaderOptions['layers']), JSON.stringify(layers)).toThrow(InvalidArgumentError);
      expect(() => loader(layers as LoaderOptions['layers'])).toThrow(message);
    }
  });
});
