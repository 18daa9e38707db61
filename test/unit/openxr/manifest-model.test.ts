// Model-based manifest tests: manifests are generated from a model (a valid layer manifest plus
// defects drawn from a catalogue), and the expected outcome comes from the model and the
// requirements (XR-LM-1, XR-LM-2, XR-LM-5), never from the parser under test.
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discover } from '../../../lib/openxr/discovery/discover.js';
import { parseApiLayerManifest } from '../../../lib/openxr/discovery/manifest.js';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { makeTempRoot, put } from './fixtures.js';

type Kind = 'implicit' | 'explicit';

interface LayerModel {
  kind: Kind;
  name: string;
  libraryPath: string;
  apiMinor: number;
  implementationVersion: number;
  description: string;
  extensions: Array<{ name: string; version: number }>;
  functions: Record<string, string>;
  enableEnvironment: string | undefined;
}

/** One change to the written manifest, and whether the requirements make the manifest invalid. */
interface Defect {
  readonly label: string;
  readonly fatal: boolean;
  /** Only for this kind of layer (XR-LM-2 is about implicit layers). */
  readonly only?: Kind;
  /** A non-fatal defect the parser must report as a warning on this field. */
  readonly warns?: string;
  apply(root: Record<string, unknown>, layer: Record<string, unknown>): void;
}

const drop = (field: string, fatal: boolean, only?: Kind): Defect => ({
  label: `no ${field}`,
  fatal,
  ...(only ? { only } : {}),
  apply: (_root, layer) => void delete layer[field],
});
const retype = (field: string, value: unknown): Defect => ({
  label: `${field} = ${JSON.stringify(value)}`,
  fatal: true,
  apply: (_root, layer) => void (layer[field] = value),
});

const DEFECTS: readonly Defect[] = [
  // XR-LM-5: a missing, mistyped or unsupported file_format_version.
  { label: 'no file_format_version', fatal: true, apply: (root) => void delete root.file_format_version },
  { label: 'file_format_version 2.0.0', fatal: true, apply: (root) => void (root.file_format_version = '2.0.0') },
  { label: 'file_format_version as a number', fatal: true, apply: (root) => void (root.file_format_version = 1) },
  // XR-LM-1: api_layer and its required fields, missing or mistyped.
  { label: 'no api_layer', fatal: true, apply: (root) => void delete root.api_layer },
  { label: 'api_layer is an array', fatal: true, apply: (root) => void (root.api_layer = [root.api_layer]) },
  drop('name', true),
  drop('library_path', true),
  drop('api_version', true),
  drop('implementation_version', true),
  drop('description', true),
  retype('name', 7),
  retype('library_path', ['lib.so']),
  retype('api_version', 1),
  retype('description', { text: 'x' }),
  // XR-LM-1, XR-LM-2: an implicit layer needs disable_environment.
  drop('disable_environment', true, 'implicit'),
  // Optional fields may be absent; a mistyped optional field is ignored with a warning naming it
  // (as the Khronos loader ignores it); unknown fields are ignored.
  {
    label: 'instance_extensions is a string',
    fatal: false,
    warns: 'api_layer.instance_extensions',
    apply: (_root, layer) => void (layer.instance_extensions = 'XR_EXT_a'),
  },
  drop('functions', false),
  drop('instance_extensions', false),
  drop('enable_environment', false),
  { label: 'an unknown field', fatal: false, apply: (_root, layer) => void (layer.vendor_extra = { anything: [1, 2] }) },
  { label: 'an unknown top-level field', fatal: false, apply: (root) => void (root.comment = 'written by hand') },
];

const layerModel: fc.Arbitrary<LayerModel> = fc.record({
  kind: fc.constantFrom<Kind>('implicit', 'explicit'),
  name: fc.stringMatching(/^XR_APILAYER_[A-Za-z0-9_]{1,20}$/),
  libraryPath: fc.constantFrom('libmodel.so', './rel/libmodel.so', 'sub/dir/libmodel.so'),
  apiMinor: fc.constantFrom(0, 1),
  implementationVersion: fc.nat({ max: 1000 }),
  description: fc.string({ maxLength: 40 }),
  extensions: fc.uniqueArray(fc.record({ name: fc.stringMatching(/^XR_EXT_[a-z_]{1,10}$/), version: fc.nat({ max: 50 }) }), { maxLength: 3, selector: (e) => e.name }),
  functions: fc.constantFrom<Record<string, string>>({}, { xrNegotiateLoaderApiLayerInterface: 'myNegotiate' }),
  enableEnvironment: fc.constantFrom(undefined, 'ENABLE_MODEL_LAYER'),
});

/** The manifest the model describes, with the defects applied. */
function write(model: LayerModel, defects: readonly Defect[]): string {
  const layer: Record<string, unknown> = {
    name: model.name,
    library_path: model.libraryPath,
    api_version: `1.${model.apiMinor}`,
    implementation_version: String(model.implementationVersion),
    description: model.description,
    functions: model.functions,
    instance_extensions: model.extensions.map((e) => ({ name: e.name, extension_version: String(e.version) })),
    disable_environment: 'DISABLE_MODEL_LAYER',
  };
  if (model.enableEnvironment !== undefined) layer.enable_environment = model.enableEnvironment;
  const root: Record<string, unknown> = { file_format_version: '1.0.0', api_layer: layer };
  for (const d of defects) d.apply(root, layer);
  return JSON.stringify(root);
}

const modelCase = layerModel.chain((model) =>
  fc.record({
    model: fc.constant(model),
    defects: fc.subarray(DEFECTS.filter((d) => d.only === undefined || d.only === model.kind), { maxLength: 2 }),
  }),
);

describe('OpenXR layer manifests generated from a model', () => {
  it('XR-LM-1 XR-LM-2 XR-LM-5: a manifest is accepted exactly when the model has no fatal defect, with the model\'s values', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(modelCase, ({ model, defects }) => {
        const r = parseApiLayerManifest('/model.json', write(model, defects), model.kind);
        const shouldLoad = defects.every((d) => !d.fatal);
        expect(r.ok, defects.map((d) => d.label).join(', ') || 'no defect').toBe(shouldLoad);
        if (!r.ok) {
          rejected++;
          expect(r.error).toMatchObject({ severity: 'error', file: '/model.json' });
          return;
        }
        accepted++;
        const dropped = (label: string): boolean => defects.some((d) => d.label === label);
        expect(r.manifest).toMatchObject({
          file_format_version: '1.0.0',
          name: model.name,
          library_path: model.libraryPath,
          api_version: `1.${model.apiMinor}`,
          apiVersionMajor: 1,
          apiVersionMinor: model.apiMinor,
          implementation_version: model.implementationVersion,
          description: model.description,
          functions: dropped('no functions') ? {} : model.functions,
          instance_extensions: dropped('no instance_extensions') || dropped('instance_extensions is a string') ? [] : model.extensions.map((e) => ({ name: e.name, extensionVersion: e.version })),
        });
        for (const d of defects) if (d.warns) expect(r.warnings.map((w) => w.field)).toContain(d.warns);
        // The environment variables mean something for implicit layers only (XR-LM-1, XR-LM-3).
        const implicit = model.kind === 'implicit';
        expect(r.manifest.disable_environment).toBe(implicit ? 'DISABLE_MODEL_LAYER' : undefined);
        expect(r.manifest.enable_environment).toBe(implicit && !dropped('no enable_environment') ? model.enableEnvironment : undefined);
      }),
      { numRuns: 600 },
    );
    // Both outcomes are reached often (the model draws up to two defects from the catalogue).
    expect(accepted).toBeGreaterThan(100);
    expect(rejected).toBeGreaterThan(100);
  });

  it('XR-LM-5: a folder of model manifests: exactly the ones without a fatal defect are discovered, each bad one named once', () => {
    const { root, cleanup } = makeTempRoot('kl-xr-model-');
    try {
      const folder = '/usr/share/openxr/1/api_layers/explicit.d';
      const cases = fc.sample(modelCase, { numRuns: 120, seed: 1511 });
      const expected: string[] = [];
      const bad: string[] = [];
      cases.forEach(({ model, defects }, i) => {
        // Explicit layers with unique names, so duplicates (XR-LD-7) play no part.
        // Bare library names: found by the system search when loaded, so discovery does not check
        // that they exist (absolute and relative ones must; XR-RD-5).
        const m = { ...model, kind: 'explicit' as const, name: `XR_APILAYER_MODEL_${i}`, libraryPath: 'libmodel.so' };
        const file = `${folder}/m${String(i).padStart(3, '0')}.json`;
        put(root, file, write(m, defects.filter((d) => d.only === undefined)));
        if (defects.some((d) => d.only === undefined && d.fatal)) bad.push(file);
        else expected.push(m.name);
      });
      const d = discover({ platform: createFixturePlatform({ root, env: { XDG_DATA_DIRS: '/usr/share' } }), logWriter: () => {} });
      expect(d.apiLayers.map((l) => l.name)).toEqual(expected);
      const errors = d.diagnostics.filter((x) => x.severity === 'error' && x.file.startsWith(folder)).map((x) => x.file);
      expect(errors).toEqual(bad);
      expect(expected.length).toBeGreaterThan(20);
      expect(bad.length).toBeGreaterThan(20);
    } finally {
      cleanup();
    }
  });
});
