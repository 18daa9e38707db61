// `khronos-loader layers openxr` (tag CLI): the chain it says an application gets, checked by the
// Khronos OpenXR loader 1.1.61 creating an instance over the same fixture tree and environment
// (test/native/xr_enumerate; probe layers log their negotiation, so the chain it really built is
// observed), and each layer's on/off state with the rule that decided it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import type { LayerPolicyOptions } from '../../lib/core/loader-policy.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { runCli } from '../../lib/tools/cli/main.js';
import type { OpenXrLayersReport } from '../../lib/tools/cli/layers-openxr-cli.js';
import { khronosOpenXrLoaders, missingXrProbes, xrProbes } from '../helpers/khronos-openxr-loaders.js';
import { layerManifest, makeTempRoot, put, runtimeManifest, type LayerSpec } from '../unit/openxr/fixtures.js';

const { enumerate: probe, runtime: probeRuntime, layer: probeLayer } = xrProbes;
const k161 = khronosOpenXrLoaders().find((l) => l.version === '1.1.61');
const skip = k161 === undefined ? 'Khronos OpenXR loader 1.1.61 declared absent' : (k161.missing ?? missingXrProbes());

const EXPLICIT = 'data/openxr/1/api_layers/explicit.d';
const IMPLICIT = 'data/openxr/1/api_layers/implicit.d';
const IMPLICIT_HOME = 'home/.local/share/openxr/1/api_layers/implicit.d';
const IMPLICIT_CONFIG = 'xdgconf/openxr/1/api_layers/implicit.d';
const EXPLICIT_CONFIG = 'xdgconf/openxr/1/api_layers/explicit.d';

let T = '';
let cleanup = (): void => {};
let n = 0;

function copy(from: string, to: string): string {
  mkdirSync(path.dirname(to), { recursive: true });
  copyFileSync(from, to);
  return to;
}

function layer(folder: string, file: string, spec: Omit<LayerSpec, 'library_path'>): void {
  put(T, path.join(folder, file), layerManifest({ ...spec, library_path: copy(probeLayer, path.join(T, 'libs', spec.name, 'libprobe_layer.so')) }));
}

/**
 * The tree: a runtime; explicit layers A, B and C, C twice (the copy in XDG_CONFIG_DIRS found first); three implicit
 * layers, each alone in its folder so the search order alone decides their order (within one folder
 * the Khronos loader follows readdir order): one on unless its disable variable is set, a second
 * one like it, and one that also needs its enable variable.
 */
function tree(): void {
  put(T, 'xdgconf/openxr/1/active_runtime.json', runtimeManifest(copy(probeRuntime, path.join(T, 'rt', 'libprobe_runtime.so'))));
  for (const x of ['A', 'B', 'C']) layer(EXPLICIT, `${x}.json`, { name: `XR_APILAYER_TEST_${x}` });
  layer(EXPLICIT_CONFIG, 'C.json', { name: 'XR_APILAYER_TEST_C' });
  layer(IMPLICIT_HOME, 'always.json', { name: 'XR_APILAYER_TEST_always', disable_environment: 'DISABLE_TEST_ALWAYS' });
  layer(IMPLICIT, 'off.json', { name: 'XR_APILAYER_TEST_switchable', disable_environment: 'DISABLE_TEST_SWITCHABLE' });
  layer(IMPLICIT_CONFIG, 'gated.json', { name: 'XR_APILAYER_TEST_gated', enable_environment: 'ENABLE_TEST_GATED', disable_environment: 'DISABLE_TEST_GATED' });
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(T, 'home'), XDG_CONFIG_DIRS: path.join(T, 'xdgconf'), XDG_DATA_DIRS: path.join(T, 'data'), ...extra };
}

/** The chain the Khronos loader 1.1.61 builds for xrCreateInstance with `layers`: the layers in negotiation order (application side first). */
function khronosChain(e: Record<string, string>, layers: readonly string[]): { result: number; chain: string[] } {
  const out = path.join(T, `out-${++n}.json`);
  const log = path.join(T, `log-${n}.txt`);
  const args = ['--out', out, '--create', ...layers.flatMap((l) => ['--layer', l])];
  execFileSync(probe, args, { env: { ...e, ...k161!.env, PROBE_LOG: log }, stdio: ['ignore', 'ignore', 'ignore'] });
  const answer = JSON.parse(readFileSync(out, 'utf8')) as { create: { result: number } };
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
  const chain = lines.filter((l) => l.startsWith('layer-negotiate ')).map((l) => l.slice('layer-negotiate '.length).split(' ')[0]!);
  return { result: answer.create.result, chain };
}

async function cli(args: string[], e: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['layers', 'openxr', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: e });
  return { code, stdout, stderr };
}

async function report(e: Record<string, string>, request: readonly string[] = []): Promise<{ code: number; report: OpenXrLayersReport }> {
  const r = await cli([...(request.length ? ['--request', request.join(',')] : []), '--json'], e);
  expect(r.stderr).toBe('');
  return { code: r.code, report: JSON.parse(r.stdout) as OpenXrLayersReport };
}

describe.skipIf(skip !== null)('khronos-loader layers openxr against the Khronos OpenXR loader 1.1.61', () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-layers-xr-'));
    tree();
  });
  afterAll(() => cleanup());

  it('CLI: layers openxr: the chain it prints for no layers asked for is the one 1.1.61 builds, each layer with its rule', async () => {
    const e = env();
    const { code, report: r } = await report(e);
    expect(code).toBe(0);
    const k = khronosChain(e, []);
    expect(k.result).toBe(0);
    expect(r.chain?.map((l) => l.name)).toEqual(k.chain);
    expect([...(r.chain ?? [])].map((l) => l.name).sort()).toEqual(['XR_APILAYER_TEST_always', 'XR_APILAYER_TEST_switchable']);
    expect(r.chain?.every((l) => l.origin === 'implicit')).toBe(true);
    const byManifest = new Map(r.layers.map((l) => [path.relative(T, l.manifestPath), l]));
    expect(byManifest.get(path.join(IMPLICIT_HOME, 'always.json'))?.state).toBe('on');
    expect(byManifest.get(path.join(IMPLICIT_CONFIG, 'gated.json'))).toMatchObject({ state: 'off', reason: expect.stringContaining('ENABLE_TEST_GATED') });
    expect(byManifest.get(path.join(EXPLICIT, 'A.json'))).toMatchObject({ state: 'off', reason: expect.stringContaining('explicit') });
    // Two manifests of one name: the first found is the layer, the other is a problem saying so.
    const copies = r.layers.filter((l) => l.name === 'XR_APILAYER_TEST_C').map((l) => path.relative(T, l.manifestPath));
    expect(copies).toEqual([path.join(EXPLICIT_CONFIG, 'C.json')]);
    expect(r.problems.filter((p) => p.includes(path.join(T, EXPLICIT, 'C.json')))).toEqual([expect.stringMatching(/duplicate layer name XR_APILAYER_TEST_C/)]);
  });

  it('CLI: layers openxr: the environment moves it as it moves 1.1.61 (a disable variable, an enable variable, XR_ENABLE_API_LAYERS), and --request adds the application\'s', async () => {
    const implicitOn = khronosChain(env(), []).chain;
    const cases: { extra: Record<string, string>; request: string[]; expected: string[] }[] = [
      { extra: { DISABLE_TEST_SWITCHABLE: '1' }, request: [], expected: ['XR_APILAYER_TEST_always'] },
      { extra: { ENABLE_TEST_GATED: '1' }, request: [], expected: ['XR_APILAYER_TEST_always', 'XR_APILAYER_TEST_gated', 'XR_APILAYER_TEST_switchable'] },
      { extra: { XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_B' }, request: ['XR_APILAYER_TEST_A'], expected: [...implicitOn, 'XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_A'] },
    ];
    for (const c of cases) {
      const e = env(c.extra);
      const { code, report: r } = await report(e, c.request);
      const k = khronosChain(e, c.request);
      expect(code, JSON.stringify(c.extra)).toBe(0);
      expect(k.result, JSON.stringify(c.extra)).toBe(0);
      expect(r.chain?.map((l) => l.name), JSON.stringify(c.extra)).toEqual(k.chain);
      // The layers, whatever the order of the implicit ones (it is the search order: compared above); the asked-for ones last.
      expect([...k.chain].sort(), JSON.stringify(c.extra)).toEqual([...c.expected].sort());
      expect(k.chain.slice(k.chain.length - c.request.length), JSON.stringify(c.extra)).toEqual(c.request);
    }
    const { report: withEnv } = await report(env({ XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_B' }), ['XR_APILAYER_TEST_A']);
    expect(withEnv.chain?.find((l) => l.name === 'XR_APILAYER_TEST_B')?.reason).toBe('listed in XR_ENABLE_API_LAYERS');
    expect(withEnv.chain?.find((l) => l.name === 'XR_APILAYER_TEST_A')?.reason).toBe('requested by the application');
    expect(withEnv.layers.find((l) => l.name === 'XR_APILAYER_TEST_B')?.state).toBe('on');
  });

  it('CLI: layers openxr: a layer asked for that is not there: 1.1.61 fails with XR_ERROR_API_LAYER_NOT_PRESENT, the command exits 1 and names it', async () => {
    const e = env({ XR_ENABLE_API_LAYERS: 'XR_APILAYER_TEST_missing' });
    const k = khronosChain(e, []);
    expect(k.result).toBe(-36);
    const { code, report: r } = await report(e);
    expect(code).toBe(1);
    expect(r.chain).toBeNull();
    expect(r.error).toContain('XR_APILAYER_TEST_missing');
    const text = await cli([], e);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('none: ');
    expect(text.stdout).toMatch(/^ {2}XR_APILAYER_TEST_always \(implicit\): off — /m);
  });

  it('CLI: layers openxr: the text form lists the chain in order and every layer with its state and manifest', async () => {
    const r = await cli([], env({ DISABLE_TEST_SWITCHABLE: '1' }));
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Chain for an application asking for no layers (application side first):');
    expect(lines[1]).toMatch(/^ {2}0 XR_APILAYER_TEST_always \(implicit\) — /);
    expect(lines[2]).toBe('');
    expect(r.stdout).toMatch(/^ {2}XR_APILAYER_TEST_switchable \(implicit\): off — .*DISABLE_TEST_SWITCHABLE/m);
    expect(r.stdout).toMatch(/^Problems \(1\):\n {2}warning: .*duplicate layer name XR_APILAYER_TEST_C/m);
  });
});

/** Our chain for `request` with the policy in code over the same tree (no Khronos variable set): names, or the error's result. */
function policyChain(layers: LayerPolicyOptions, request: readonly string[], extra: Record<string, string> = {}): { result: number; chain: string[] } {
  const loader = createLoader({ platform: createLinuxPlatform({ env: env(extra), elevated: false }), layers, logWriter: () => {} });
  try {
    return { result: 0, chain: loader.resolveEnabledLayers(request).map((e) => e.layer.name) };
  } catch (e) {
    if (e instanceof OpenXrError) return { result: e.resultValue, chain: [] };
    throw e;
  }
}

describe.skipIf(skip !== null)('the OpenXR loader policy in code against the Khronos OpenXR loader 1.1.61 given the equivalent variables', () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-policy-xr-'));
    tree();
  });
  afterAll(() => cleanup());

  it('XR-PO-2: layers.enable ↔ XR_ENABLE_API_LAYERS: explicit layers after the implicit ones and before the application\'s, in the order listed; one the application also asks for takes enable\'s place', () => {
    const cases: [string[], string[]][] = [
      [['XR_APILAYER_TEST_B'], ['XR_APILAYER_TEST_A']],
      [['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_A'], []],
      // (not C: 1.1.61 loads both manifests of that name, a difference of its own, XR-LD-7)
      [['XR_APILAYER_TEST_A'], ['XR_APILAYER_TEST_B', 'XR_APILAYER_TEST_A']],
    ];
    for (const [enable, request] of cases) {
      const k = khronosChain(env({ XR_ENABLE_API_LAYERS: enable.join(':') }), request);
      expect(k.result, enable.join()).toBe(0);
      const rest = request.filter((n) => !enable.includes(n));
      expect(k.chain.slice(-(enable.length + rest.length)), enable.join()).toEqual([...enable, ...rest]);
      expect(policyChain({ enable }, request), enable.join()).toEqual(k);
    }
  });

  it('XR-PO-2: layers.enable of an implicit layer ↔ its enable_environment set: on, in the implicit pass where the loader found it', () => {
    const k = khronosChain(env({ ENABLE_TEST_GATED: '1' }), []);
    expect([...k.chain].sort()).toEqual(['XR_APILAYER_TEST_always', 'XR_APILAYER_TEST_gated', 'XR_APILAYER_TEST_switchable']);
    expect(policyChain({ enable: ['XR_APILAYER_TEST_gated'] }, [])).toEqual(k);
    expect(policyChain({ enable: ['*_GATED'] }, [])).toEqual(k);
  });

  it('XR-PO-1: layers.disable of an implicit layer ↔ its disable_environment set; of an explicit layer, a request for it fails as 1.1.61 fails for a layer it does not have (XR_ERROR_API_LAYER_NOT_PRESENT)', () => {
    const k = khronosChain(env({ DISABLE_TEST_SWITCHABLE: '1', DISABLE_TEST_ALWAYS: '1' }), ['XR_APILAYER_TEST_A']);
    expect(k).toEqual({ result: 0, chain: ['XR_APILAYER_TEST_A'] });
    expect(policyChain({ disable: ['~implicit~'] }, ['XR_APILAYER_TEST_A'])).toEqual(k);
    expect(policyChain({ disable: ['*switchable', 'XR_APILAYER_TEST_ALWAYS'] }, ['XR_APILAYER_TEST_A'])).toEqual(k);
    const missing = khronosChain(env(), ['XR_APILAYER_TEST_missing']);
    expect(missing.result).toBe(-36);
    expect(policyChain({ disable: ['XR_APILAYER_TEST_A'] }, ['XR_APILAYER_TEST_A']).result).toBe(missing.result);
  });

  it('XR-PO-1, XR-PO-2: deliberate: layers.enable turns on an implicit layer whose disable_environment is set (1.1.61 has no variable that overrides it)', () => {
    const k = khronosChain(env({ DISABLE_TEST_SWITCHABLE: '1' }), []);
    expect(k.chain).toEqual(['XR_APILAYER_TEST_always']);
    expect([...policyChain({ enable: ['XR_APILAYER_TEST_switchable'] }, [], { DISABLE_TEST_SWITCHABLE: '1' }).chain].sort()).toEqual(['XR_APILAYER_TEST_always', 'XR_APILAYER_TEST_switchable']);
  });
});
