// Bad input: generated manifests, non-JSON bytes, huge files, deep nesting, wrong types.
// Discovery never throws, each bad manifest yields exactly one error diagnostic, every good one loads.
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discover } from '../../../lib/openxr/discovery/discover.js';
import { parseApiLayerManifest, parseRuntimeManifest } from '../../../lib/openxr/discovery/manifest.js';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { makeTempRoot, put } from './fixtures.js';

const EXP = '/usr/share/openxr/1/api_layers/explicit.d';
const quiet = { logWriter: () => {} };

/** A value that is sometimes right and sometimes wrong for a string field. */
const maybeString = (good: fc.Arbitrary<string>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 24, arbitrary: good }, { weight: 1, arbitrary: fc.anything() }, { weight: 1, arbitrary: fc.constant(undefined) });

/** Mostly the good value, sometimes one of the bad ones. */
const mostly = (good: string, ...bad: string[]): fc.Arbitrary<string> =>
  fc.oneof({ weight: 8, arbitrary: fc.constant(good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });

const layerName = fc.stringMatching(/^XR_APILAYER_[A-Za-z0-9_]{1,20}$/);
const extension = fc.record({
  name: maybeString(fc.stringMatching(/^XR_EXT_[a-z_]{1,10}$/)),
  extension_version: fc.oneof(fc.nat().map(String), fc.nat(), fc.anything()),
});
const manifestValue = fc.record(
  {
    file_format_version: maybeString(mostly('1.0.0', '2.0.0', '1.0', '1.0.1', 'x')),
    api_layer: fc.oneof(
      { weight: 20, arbitrary: fc.record(
        {
          name: maybeString(layerName),
          library_path: maybeString(mostly('libfuzz.so', '/missing/lib.so', '')),
          api_version: maybeString(fc.oneof(mostly('1.0', '0.0', '2.0', '1', 'one'), fc.constantFrom('1.1', '1.0.3'))),
          implementation_version: maybeString(fc.constantFrom('1', '22', '3x', '')),
          description: maybeString(fc.string()),
          instance_extensions: fc.oneof(fc.array(extension, { maxLength: 3 }), fc.anything()),
          functions: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.anything()),
          disable_environment: maybeString(fc.constant('DISABLE_FUZZ_LAYER')),
          enable_environment: fc.oneof(fc.constant(undefined), fc.constant('ENABLE_FUZZ_LAYER'), fc.anything()),
        },
        { requiredKeys: [] },
      ) },
      { weight: 1, arbitrary: fc.anything() },
    ),
  },
  { requiredKeys: [] },
);

describe('OpenXR manifest parser under fuzzing', () => {
  let root = '';
  let cleanup = (): void => {};
  beforeAll(() => {
    ({ root, cleanup } = makeTempRoot('kl-xr-fuzz-'));
  });
  afterAll(() => cleanup());

  it('XR-LM-5: 1000 generated manifests: never a throw; a rejected manifest is exactly one error, an accepted one none', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(manifestValue, fc.constantFrom<'implicit' | 'explicit'>('implicit', 'explicit'), (value, kind) => {
        let text: string;
        try {
          text = JSON.stringify(value) ?? 'undefined';
        } catch {
          text = '{"cyclic": true}';
        }
        const r = parseApiLayerManifest('/fuzz.json', text, kind);
        if (r.ok) {
          accepted++;
          expect(typeof r.manifest.name).toBe('string');
          expect(r.warnings.every((w) => w.severity === 'warning')).toBe(true);
        } else {
          rejected++;
          expect(r.error.severity).toBe('error');
          expect(r.error.file).toBe('/fuzz.json');
          expect(r.error.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
    // The generator reaches both outcomes often enough for the property to mean something. About
    // one manifest in nine is accepted (mean ~110 of 1000, sd ~10): 50 is far below any real run,
    // where 100 failed now and then.
    expect(accepted).toBeGreaterThan(50);
    expect(rejected).toBeGreaterThan(100);
  });

  it('XR-LM-5: arbitrary bytes and strings never throw, as layer or runtime manifests', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.string({ maxLength: 200 })), (data) => {
        const a = parseApiLayerManifest('/bytes.json', data, 'explicit');
        const b = parseRuntimeManifest('/bytes.json', data);
        if (!a.ok) expect(a.error.file).toBe('/bytes.json');
        if (!b.ok) expect(b.error.file).toBe('/bytes.json');
      }),
      { numRuns: 500 },
    );
  });

  it('XR-LM-5: a folder of generated manifests: one diagnostic per bad file, every good one loads, discovery does not throw', () => {
    const samples = fc.sample(manifestValue, { numRuns: 150, seed: 20240611 });
    const expectedGood = new Set<string>();
    samples.forEach((value, i) => {
      const name = `m${String(i).padStart(3, '0')}.json`;
      let text: string;
      try {
        text = JSON.stringify(value) ?? 'null';
      } catch {
        text = 'null';
      }
      put(root, `${EXP}/${name}`, text);
      const r = parseApiLayerManifest(`${EXP}/${name}`, text, 'explicit');
      // library_path existence is a discovery check (absolute paths must exist): /missing/lib.so fails there.
      if (r.ok && r.manifest.library_path !== '/missing/lib.so') expectedGood.add(`${EXP}/${name}`);
    });
    // Non-JSON bytes, deep nesting and a wrong top-level type too.
    put(root, `${EXP}/zz-bytes.json`, new Uint8Array([0xff, 0xfe, 0x00, 0x7b, 0x22]));
    put(root, `${EXP}/zz-deep.json`, '['.repeat(200000) + ']'.repeat(200000));
    put(root, `${EXP}/zz-string.json`, '"just a string"');
    const d = discover({ platform: createFixturePlatform({ root }), ...quiet });
    const loaded = new Set(d.apiLayers.map((l) => l.manifestPath));
    const errors = d.diagnostics.filter((x) => x.severity === 'error' && x.file.startsWith(EXP));
    const files = [...samples.keys()].map((i) => `${EXP}/m${String(i).padStart(3, '0')}.json`).concat(['zz-bytes', 'zz-deep', 'zz-string'].map((f) => `${EXP}/${f}.json`));
    for (const f of files) {
      const errs = errors.filter((e) => e.file === f).length;
      const dupWarnings = d.diagnostics.filter((x) => x.file === f && x.field === 'api_layer.name' && /duplicate/.test(x.reason)).length;
      // Exactly one outcome per file: loaded, rejected with one error, or a duplicate name.
      expect(Number(loaded.has(f)) + errs + dupWarnings, f).toBe(1);
    }
    for (const good of expectedGood) {
      const isDup = d.diagnostics.some((x) => x.file === good && /duplicate/.test(x.reason));
      expect(loaded.has(good) || isDup, good).toBe(true);
    }
  });

  it('XR-LM-5: a huge manifest is rejected by size without being read whole; a large valid one under the limit loads', () => {
    const big = JSON.stringify({
      file_format_version: '1.0.0',
      api_layer: { name: 'XR_APILAYER_big', library_path: 'libbig.so', api_version: '1.0', implementation_version: '1', description: 'x'.repeat(3_000_000) },
    });
    put(root, '/big/openxr/1/api_layers/explicit.d/big.json', big);
    const platform = createFixturePlatform({ root, env: { XDG_DATA_DIRS: '/big' } });
    const ok = discover({ platform, ...quiet });
    expect(ok.apiLayers.map((l) => l.name)).toEqual(['XR_APILAYER_big']);
    const capped = discover({ platform, maxManifestBytes: 1_000_000, ...quiet });
    expect(capped.apiLayers).toEqual([]);
    expect(capped.diagnostics).toContainEqual(expect.objectContaining({ severity: 'error', reason: expect.stringMatching(/more than the 1000000 allowed/) }));
  });
});
