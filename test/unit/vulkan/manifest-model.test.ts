// Model-based Vulkan layer manifests: each manifest is written from a model (a valid layer plus
// defects drawn from a catalogue), and whether it loads, and with what, comes from the model and
// the Khronos rules (LoaderLayerInterface, "Layer Manifest File Format": the required fields, what
// makes a layer skipped, what is only a warning), never from the parser under test.
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDriverManifest } from '../../../lib/vulkan/discovery/driver-manifest.js';
import { parseLayerManifest } from '../../../lib/vulkan/discovery/layer-manifest.js';

type Kind = 'implicit' | 'explicit';

interface LayerModel {
  kind: Kind;
  name: string;
  type: 'INSTANCE' | 'GLOBAL';
  libraryPath: string;
  apiVersion: string;
  implementationVersion: number;
  description: string;
  instanceExtensions: Array<{ name: string; version: number }>;
  deviceExtensions: Array<{ name: string; version: number; entrypoints: string[] }>;
  enableEnvironment: { name: string; value: string } | undefined;
  fileFormat: '1.0.0' | '1.1.0' | '1.1.2' | '1.2.0';
}

/** One change to the written manifest, and whether the Khronos rules skip the layer for it. */
interface Defect {
  readonly label: string;
  readonly fatal: boolean;
  readonly only?: Kind;
  /** The field it changes (a leading / for the file's own): one case never changes a field twice. */
  readonly field?: string;
  apply(root: Record<string, unknown>, layer: Record<string, unknown>): void;
}

const drop = (field: string, fatal: boolean, only?: Kind): Defect => ({ label: `no ${field}`, fatal, field, ...(only ? { only } : {}), apply: (_root, layer) => void delete layer[field] });
const set = (field: string, value: unknown, fatal: boolean): Defect => ({ label: `${field} = ${JSON.stringify(value)}`, fatal, field, apply: (_root, layer) => void (layer[field] = value) });

const DEFECTS: readonly Defect[] = [
  // The file: file_format_version is required and read as a string; a version the loader does not
  // know is only reported ("may cause errors"); without "layer" (or "layers") nothing loads.
  { label: 'no file_format_version', fatal: true, field: '/file_format_version', apply: (root) => void delete root.file_format_version },
  { label: 'file_format_version as a number', fatal: true, field: '/file_format_version', apply: (root) => void (root.file_format_version = 1) },
  { label: 'file_format_version 1.9.9', fatal: false, field: '/file_format_version', apply: (root) => void (root.file_format_version = '1.9.9') },
  { label: 'no layer', fatal: true, field: '/layer', apply: (root) => void delete root.layer },
  // Required in every layer: name, type (INSTANCE or GLOBAL; DEVICE layers are skipped), api_version,
  // implementation_version, description, and library_path unless it is a meta layer.
  drop('name', true),
  set('name', 7, true),
  drop('type', true),
  set('type', 'DEVICE', true),
  set('type', 'COMPUTE', true),
  set('type', 3, true),
  drop('api_version', true),
  set('api_version', 1.3, true),
  drop('implementation_version', true),
  set('implementation_version', 1, true),
  drop('description', true),
  set('description', ['x'], true),
  drop('library_path', true),
  // library_path and component_layers exclude each other.
  // (Its field is library_path's: with library_path dropped it would be a valid meta layer, another model.)
  { label: 'library_path and component_layers', fatal: true, field: 'library_path', apply: (_root, layer) => void (layer.component_layers = ['VK_LAYER_other']) },
  // An implicit layer needs disable_environment with a string value.
  drop('disable_environment', true, 'implicit'),
  { label: 'disable_environment is empty', fatal: true, only: 'implicit', field: 'disable_environment', apply: (_root, layer) => void (layer.disable_environment = {}) },
  { label: 'disable_environment value is a number', fatal: true, only: 'implicit', field: 'disable_environment', apply: (_root, layer) => void (layer.disable_environment = { DISABLE_MODEL: 1 }) },
  // Optional: their absence loses nothing else; unknown fields are ignored; a name without the
  // VK_LAYER_ prefix is only a policy warning.
  drop('functions', false),
  drop('instance_extensions', false),
  drop('device_extensions', false),
  drop('enable_environment', false),
  { label: 'an unknown layer field', fatal: false, apply: (_root, layer) => void (layer.vendor_extra = { anything: [1, 2] }) },
  { label: 'an unknown top-level field', fatal: false, apply: (root) => void (root.comment = 'written by hand') },
];

const extensionName = (prefix: string): fc.Arbitrary<string> => fc.stringMatching(/^[a-z_]{1,10}$/).map((s) => `${prefix}${s}`);

const layerModel: fc.Arbitrary<LayerModel> = fc.record({
  kind: fc.constantFrom<Kind>('implicit', 'explicit'),
  name: fc.stringMatching(/^[A-Za-z0-9_]{1,20}$/).map((s) => `VK_LAYER_${s}`),
  type: fc.constantFrom<'INSTANCE' | 'GLOBAL'>('INSTANCE', 'GLOBAL'),
  libraryPath: fc.constantFrom('libmodel.so', './rel/libmodel.so', '/abs/libmodel.so'),
  apiVersion: fc.constantFrom('1.0.0', '1.1.126', '1.2.0', '1.3.250', '1.4.309'),
  implementationVersion: fc.nat({ max: 1000 }),
  description: fc.string({ maxLength: 40 }),
  instanceExtensions: fc.uniqueArray(fc.record({ name: extensionName('VK_EXT_'), version: fc.nat({ max: 50 }) }), { maxLength: 3, selector: (e) => e.name }),
  deviceExtensions: fc.uniqueArray(fc.record({ name: extensionName('VK_KHR_'), version: fc.nat({ max: 50 }), entrypoints: fc.array(fc.stringMatching(/^vk[A-Z][a-zA-Z]{1,12}$/), { maxLength: 2 }) }), { maxLength: 2, selector: (e) => e.name }),
  enableEnvironment: fc.constantFrom(undefined, { name: 'ENABLE_MODEL_LAYER', value: '1' }),
  fileFormat: fc.constantFrom('1.0.0', '1.1.0', '1.1.2', '1.2.0'),
});

function write(model: LayerModel, defects: readonly Defect[]): Record<string, unknown> {
  const layer: Record<string, unknown> = {
    name: model.name,
    type: model.type,
    library_path: model.libraryPath,
    api_version: model.apiVersion,
    implementation_version: String(model.implementationVersion),
    description: model.description,
    functions: { vkGetInstanceProcAddr: 'modelGetInstanceProcAddr' },
    instance_extensions: model.instanceExtensions.map((e) => ({ name: e.name, spec_version: String(e.version) })),
    device_extensions: model.deviceExtensions.map((e) => ({ name: e.name, spec_version: String(e.version), entrypoints: e.entrypoints })),
    disable_environment: { DISABLE_MODEL_LAYER: '1' },
  };
  if (model.enableEnvironment !== undefined) layer.enable_environment = { [model.enableEnvironment.name]: model.enableEnvironment.value };
  const root: Record<string, unknown> = { file_format_version: model.fileFormat, layer };
  for (const d of defects) d.apply(root, layer);
  // A round trip through JSON, as a manifest file is read.
  return JSON.parse(JSON.stringify(root)) as Record<string, unknown>;
}

const modelCase = layerModel.chain((model) =>
  fc.record({
    model: fc.constant(model),
    defects: fc
      .subarray(DEFECTS.filter((d) => d.only === undefined || d.only === model.kind), { maxLength: 2 })
      .filter((ds) => ds.length < 2 || ds[0]!.field === undefined || ds[0]!.field !== ds[1]!.field),
  }),
);

const versionOf = (text: string): { major: number; minor: number; patch: number } => {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return { major, minor, patch };
};

describe('Vulkan layer manifests generated from a model', () => {
  it('VK-LM-1 VK-LM-2 VK-LM-3 VK-LM-4: a layer loads exactly when the model has no defect the Khronos rules skip it for, with the model\'s values', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(modelCase, ({ model, defects }) => {
        const r = parseLayerManifest('/model.json', write(model, defects), model.kind, 64);
        const shouldLoad = defects.every((d) => !d.fatal);
        const what = defects.map((d) => d.label).join(', ') || 'no defect';
        expect(r.layers.length, what).toBe(shouldLoad ? 1 : 0);
        expect(r.diagnostics.every((d) => d.file === '/model.json'), what).toBe(true);
        if (!shouldLoad) {
          rejected++;
          // Skipped with a reason: an error, or an info line where Khronos only notes it (DEVICE layers).
          expect(r.diagnostics.some((d) => d.severity === 'error' || d.severity === 'warning' || d.severity === 'info'), what).toBe(true);
          return;
        }
        accepted++;
        const dropped = (label: string): boolean => defects.some((d) => d.label === label);
        const layer = r.layers[0]!;
        expect(layer, what).toMatchObject({
          name: model.name,
          type: model.type,
          library_path: model.libraryPath,
          api_version: model.apiVersion,
          apiVersion: versionOf(model.apiVersion),
          implementation_version: model.implementationVersion,
          description: model.description,
          functions: dropped('no functions') ? {} : { vkGetInstanceProcAddr: 'modelGetInstanceProcAddr' },
          instance_extensions: dropped('no instance_extensions') ? [] : model.instanceExtensions.map((e) => ({ extensionName: e.name, specVersion: e.version })),
          device_extensions: dropped('no device_extensions') ? [] : model.deviceExtensions.map((e) => ({ extensionName: e.name, specVersion: e.version, entrypoints: e.entrypoints })),
        });
        expect(layer.component_layers).toBeUndefined();
        // The environment conditions apply to implicit layers (VK-LM-2).
        if (model.kind === 'implicit') {
          expect(layer.disable_environment).toEqual({ name: 'DISABLE_MODEL_LAYER', value: '1' });
          expect(layer.enable_environment).toEqual(dropped('no enable_environment') ? undefined : model.enableEnvironment);
        }
      }),
      { numRuns: 800 },
    );
    // Both outcomes are reached often (up to two defects drawn from the catalogue).
    expect(accepted).toBeGreaterThan(150);
    expect(rejected).toBeGreaterThan(150);
  });
});

// Driver manifests (LoaderDriverInterface, "Driver Manifest File Format"): file_format_version and
// ICD with a non-empty library_path and an api_version are required; a file version the loader
// does not know is only reported; a library of the other width is skipped.
interface DriverModel {
  libraryPath: string;
  apiVersion: string;
  fileFormat: '1.0.0' | '1.0.1';
  portability: boolean;
}
interface DriverDefect {
  readonly label: string;
  readonly fatal: boolean;
  readonly field: string;
  apply(root: Record<string, unknown>, icd: Record<string, unknown>): void;
}
const DRIVER_DEFECTS: readonly DriverDefect[] = [
  { label: 'no file_format_version', fatal: true, field: '/file_format_version', apply: (root) => void delete root.file_format_version },
  { label: 'file_format_version as a number', fatal: true, field: '/file_format_version', apply: (root) => void (root.file_format_version = 1) },
  { label: 'file_format_version 1.0.7', fatal: false, field: '/file_format_version', apply: (root) => void (root.file_format_version = '1.0.7') },
  { label: 'no ICD', fatal: true, field: '/ICD', apply: (root) => void delete root.ICD },
  { label: 'no library_path', fatal: true, field: 'library_path', apply: (_root, icd) => void delete icd.library_path },
  { label: 'library_path empty', fatal: true, field: 'library_path', apply: (_root, icd) => void (icd.library_path = '') },
  { label: 'no api_version', fatal: true, field: 'api_version', apply: (_root, icd) => void delete icd.api_version },
  // Both Khronos versions log "Skipping ICD JSON" for a non-string api_version and then use the
  // driver with version 0 (seen with lavapipe's manifest and api_version 1): the model follows what they do.
  { label: 'api_version as a number', fatal: false, field: 'api_version', apply: (_root, icd) => void (icd.api_version = 1) },
  { label: 'library_arch 32', fatal: true, field: 'library_arch', apply: (_root, icd) => void (icd.library_arch = '32') },
  { label: 'library_arch 64', fatal: false, field: 'library_arch', apply: (_root, icd) => void (icd.library_arch = '64') },
  { label: 'an unknown ICD field', fatal: false, field: 'vendor', apply: (_root, icd) => void (icd.vendor_extra = [1]) },
];
const driverCase = fc.record({
  model: fc.record({
    libraryPath: fc.constantFrom('libdriver.so', './rel/libdriver.so', '/abs/libdriver.so'),
    apiVersion: fc.constantFrom('1.0.0', '1.1.0', '1.3.239', '1.4.309'),
    fileFormat: fc.constantFrom<'1.0.0' | '1.0.1'>('1.0.0', '1.0.1'),
    portability: fc.boolean(),
  }),
  defects: fc.subarray([...DRIVER_DEFECTS], { maxLength: 2 }).filter((ds) => ds.length < 2 || ds[0]!.field !== ds[1]!.field),
});

describe('Vulkan driver manifests generated from a model', () => {
  it('VK-DR-1: a driver manifest is accepted exactly when the model has no defect the Khronos rules skip it for, with the model\'s values', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(driverCase, ({ model, defects }: { model: DriverModel; defects: readonly DriverDefect[] }) => {
        const icd: Record<string, unknown> = { library_path: model.libraryPath, api_version: model.apiVersion, is_portability_driver: model.portability };
        const root: Record<string, unknown> = { file_format_version: model.fileFormat, ICD: icd };
        for (const d of defects) d.apply(root, icd);
        const r = parseDriverManifest('/icd.json', JSON.parse(JSON.stringify(root)), 64);
        const what = defects.map((d) => d.label).join(', ') || 'no defect';
        expect(r.ok, what).toBe(defects.every((d) => !d.fatal));
        expect(r.diagnostics.every((d) => d.file === '/icd.json'), what).toBe(true);
        if (!r.ok) {
          rejected++;
          return;
        }
        accepted++;
        const version = defects.some((d) => d.label === 'api_version as a number') ? '0.0.0' : model.apiVersion;
        expect(r.manifest, what).toMatchObject({ library_path: model.libraryPath, api_version: version, apiVersion: versionOf(version), is_portability_driver: model.portability });
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(100);
    expect(rejected).toBeGreaterThan(100);
  });
});
