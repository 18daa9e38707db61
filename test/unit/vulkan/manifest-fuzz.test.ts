// Bad input for the three Vulkan parsers (layer, driver, settings file) and for discovery over a
// folder of bad files: generated values, random bytes, deep nesting, symlink loops, huge files.
// Nothing throws; each bad file is one diagnostic; every good file still counts.
import * as fc from 'fast-check';
import { symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { discover } from '../../../lib/vulkan/discovery/discover.js';
import { parseDriverManifest } from '../../../lib/vulkan/discovery/driver-manifest.js';
import { parseLayerManifest } from '../../../lib/vulkan/discovery/layer-manifest.js';
import { parseSettingsFile } from '../../../lib/vulkan/discovery/settings-file.js';
import { makeTempRoot, put, vkDriverManifest, vkLayerManifest } from './fixtures.js';

const RUNS = 1000;

/** Usually a plausible value, now and then anything at all, or missing. */
function field<T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 60, arbitrary: plausible }, { weight: 1, arbitrary: fc.anything() }, { weight: 1, arbitrary: fc.constant(undefined) });
}

const versionText = fc.oneof(fc.constantFrom('1.0.0', '1.0.1', '1.1.0', '1.1.1', '1.1.2', '1.2.0', '1.2.1', '2.0.0', '1.3', 'x', ''), fc.string());
const envObject = fc.oneof(fc.dictionary(fc.stringMatching(/^[A-Z_]{1,8}$/), fc.oneof(fc.string(), fc.anything()), { maxKeys: 2 }), fc.anything());
const extensions = fc.array(fc.record({ name: field(fc.stringMatching(/^VK_EXT_[a-z]{1,6}$/)), spec_version: field(fc.nat().map(String)), entrypoints: field(fc.array(fc.string(), { maxLength: 2 })) }, { requiredKeys: [] }), { maxLength: 3 });
const layerObject = fc.record(
  {
    name: field(fc.stringMatching(/^VK_LAYER_[A-Za-z_]{1,12}$/)),
    type: field(fc.oneof({ weight: 8, arbitrary: fc.constantFrom('GLOBAL', 'INSTANCE') }, { weight: 1, arbitrary: fc.constantFrom('DEVICE', 'OTHER') })),
    library_path: field(fc.constantFrom('libx.so', './rel/libx.so', '/abs/libx.so', '')),
    library_arch: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('32', '64', '128') }),
    api_version: field(versionText),
    implementation_version: field(fc.constantFrom('1', '22', '3x', '')),
    description: field(fc.string()),
    functions: field(fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
    instance_extensions: field(extensions),
    device_extensions: field(extensions),
    enable_environment: field(envObject),
    disable_environment: field(fc.oneof({ weight: 6, arbitrary: fc.constant({ DISABLE_FUZZ: '1' }) }, { weight: 1, arbitrary: envObject })),
    component_layers: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.anything()) }),
    override_paths: field(fc.array(fc.string(), { maxLength: 2 })),
    blacklisted_layers: field(fc.array(fc.string(), { maxLength: 2 })),
    app_keys: field(fc.array(fc.string(), { maxLength: 2 })),
    pre_instance_functions: field(fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
  },
  { requiredKeys: [] },
);
const layerFile = fc.record(
  {
    file_format_version: field(versionText),
    layer: field(layerObject),
    layers: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.array(fc.oneof(layerObject, fc.anything()), { maxLength: 3 }) }, { weight: 1, arbitrary: fc.anything() }),
  },
  { requiredKeys: [] },
);
const driverFile = fc.oneof(
  { weight: 10, arbitrary: fc.record({ file_format_version: field(versionText), ICD: field(fc.record({ library_path: field(fc.constantFrom('libd.so', '', './d.so')), api_version: field(versionText), library_arch: field(fc.constantFrom('32', '64', 'x')), is_portability_driver: field(fc.boolean()) }, { requiredKeys: [] })) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.anything() },
);
const settingsObject = fc.record(
  {
    app_keys: field(fc.array(fc.constantFrom('/usr/bin/app', '/other'), { maxLength: 2 })),
    stderr_log: field(fc.array(fc.constantFrom('all', 'warn', 'x'), { maxLength: 2 })),
    layers: field(fc.array(fc.oneof(fc.record({ control: field(fc.constantFrom('on', 'off', 'auto', 'unordered_layer_location', 'x')), name: field(fc.string()), path: field(fc.string()), treat_as_implicit_manifest: field(fc.boolean()) }, { requiredKeys: [] }), fc.anything()), { maxLength: 3 })),
    additional_drivers: field(fc.array(fc.oneof(fc.record({ path: field(fc.string()) }, { requiredKeys: [] }), fc.anything()), { maxLength: 2 })),
    additional_drivers_use_exclusively: field(fc.boolean()),
    device_configurations: field(fc.array(fc.anything(), { maxLength: 2 })),
  },
  { requiredKeys: [] },
);
const settingsFile = fc.record({ file_format_version: field(versionText), settings: field(settingsObject), settings_array: field(fc.array(fc.oneof(settingsObject, fc.anything()), { maxLength: 3 })) }, { requiredKeys: [] });

describe('Vulkan manifest parsers under fuzzing', () => {
  it('VK-LM-4: 1000 generated layer manifests: never a throw; no layer out means at least one error (or info for a skip) naming the file', () => {
    let layersOut = 0;
    let rejected = 0;
    fc.assert(
      fc.property(layerFile, fc.constantFrom('implicit', 'explicit') as fc.Arbitrary<'implicit' | 'explicit'>, (json, kind) => {
        const r = parseLayerManifest('/fuzz.json', json, kind, 64);
        expect(r.diagnostics.every((d) => d.file === '/fuzz.json' && d.reason.length > 0)).toBe(true);
        for (const l of r.layers) {
          expect(typeof l.name).toBe('string');
          expect(l.library_path === undefined).toBe(l.component_layers !== undefined);
          if (kind === 'implicit') expect(l.disable_environment).toBeDefined();
        }
        if (r.layers.length === 0) {
          rejected++;
          expect(r.diagnostics.some((d) => d.severity === 'error' || d.severity === 'info')).toBe(true);
        } else layersOut += r.layers.length;
      }),
      { numRuns: RUNS },
    );
    expect(layersOut).toBeGreaterThan(50);
    expect(rejected).toBeGreaterThan(50);
  });

  it('VK-DR-1: 1000 generated driver manifests: never a throw; a rejected one is exactly one error (or info), an accepted one has none', () => {
    let ok = 0;
    fc.assert(
      fc.property(driverFile, (json) => {
        const r = parseDriverManifest('/icd.json', json, 64);
        const fatal = r.diagnostics.filter((d) => d.severity === 'error' || (d.severity === 'info' && /skipped/.test(d.reason)));
        if (r.ok) {
          ok++;
          expect(fatal).toEqual([]);
        } else expect(fatal).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
    expect(ok).toBeGreaterThan(50);
  });

  it('1000 generated settings files: never a throw; an unusable file says no loader settings are active', () => {
    let active = 0;
    fc.assert(
      fc.property(settingsFile, (json) => {
        const r = parseSettingsFile('/s.json', json, '/usr/bin/app');
        if (r.ok) {
          active++;
          expect(['global', '/usr/bin/app']).toContain(r.settings.appliesTo);
        } else expect(r.diagnostics.at(-1)?.reason).toMatch(/no loader settings are active/);
      }),
      { numRuns: RUNS },
    );
    expect(active).toBeGreaterThan(20);
  });
});

describe('Vulkan discovery over bad files', () => {
  let root = '';
  let cleanup = (): void => {};
  beforeAll(() => {
    ({ root, cleanup } = makeTempRoot('kl-vk-fuzz-'));
  });
  afterAll(() => cleanup());

  it('VK-LM-4: bytes, deep nesting, a symlink loop, a huge file and a folder named .json beside good manifests: one diagnostic each, the good ones load', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 3 }), (blobs, goodCount) => {
        const dir = `/case-${Math.random().toString(36).slice(2)}/vulkan/explicit_layer.d`;
        const icd = dir.replace('explicit_layer.d', 'icd.d');
        const bad: string[] = [];
        blobs.forEach((b, i) => {
          // Random bytes that happen to be a valid manifest are not "bad"; make them invalid JSON for sure.
          bad.push(put(root, `${dir}/bad-${i}.json`, Buffer.concat([Buffer.from('\u0001'), Buffer.from(b)])));
        });
        bad.push(put(root, `${dir}/deep.json`, '['.repeat(20000) + ']'.repeat(20000)));
        bad.push(put(root, `${dir}/huge.json`, Buffer.alloc(64 * 1024 + 1, 0x20)));
        const loopA = path.join(root, dir, 'loop-a.json');
        symlinkSync(path.join(root, dir, 'loop-b.json'), loopA);
        symlinkSync(loopA, path.join(root, dir, 'loop-b.json'));
        put(root, `${dir}/folder.json/x`, 'x');
        for (let i = 0; i < goodCount; i++) put(root, `${dir}/good-${i}.json`, vkLayerManifest({ name: `VK_LAYER_FUZZ_good_${i}`, library_path: 'libgood.so' }));
        put(root, `${icd}/bad.json`, '{"file_format_version": "1.0.0", "ICD": 7}');
        put(root, `${icd}/good.json`, vkDriverManifest('libgood_driver.so'));
        const platform = createFixturePlatform({ root, env: { VK_LAYER_PATH: dir, VK_DRIVER_FILES: icd } });
        const d = discover({ platform, logWriter: () => {}, maxManifestBytes: 64 * 1024 });
        expect(d.layers.map((l) => l.name)).toEqual(Array.from({ length: goodCount }, (_, i) => `VK_LAYER_FUZZ_good_${i}`));
        expect(d.drivers.map((x) => x.libraryPath)).toEqual(['libgood_driver.so']);
        const perFile = (f: string): number => d.diagnostics.filter((x) => x.file === f).length;
        for (const f of bad.map((b) => '/' + path.relative(root, b))) expect(perFile(f), f).toBe(1);
        expect(perFile(`${dir}/loop-a.json`)).toBe(1);
        expect(perFile(`${dir}/folder.json`)).toBe(1);
        expect(perFile(`${icd}/bad.json`)).toBe(1);
      }),
      { numRuns: 15 },
    );
    writeFileSync(path.join(root, 'done'), '');
  });
});
