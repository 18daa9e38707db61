// The loader policy in code (createLoader({ layers, drivers })) against the Khronos Vulkan loader
// 1.4.359 given the equivalent environment variables (docs/conformance.md, "Policy in code and the
// Khronos environment"): layers.enable ↔ VK_LOADER_LAYERS_ENABLE, layers.disable ↔
// VK_LOADER_LAYERS_DISABLE (globs, ~implicit~, ~explicit~, ~all~), layers.allow ↔
// VK_LOADER_LAYERS_ALLOW, layers.order ↔ VK_INSTANCE_LAYERS naming every layer, layers.safe ↔
// VK_LOADER_LAYERS_DISABLE=~implicit~, drivers.select / drivers.disable ↔ VK_LOADER_DRIVERS_SELECT /
// VK_LOADER_DRIVERS_DISABLE. The Khronos side creates an instance through test/native/vk_enumerate;
// copies of the probe layer log the chain they are entered in, copies of the probe driver log that
// they were used, and Mesa lavapipe (beside them) shows by its physical device. Our side is the
// plan createLoader() makes over the same tree with the policy in code and none of those variables.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { VulkanError } from '../../lib/vulkan/errors.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import type { VulkanDiscoveryOptions } from '../../lib/vulkan/discovery/context.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { LAVAPIPE_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { makeTempRoot, put, vkDriverManifest, vkLayerManifest } from '../unit/vulkan/fixtures.js';

const enumerate = path.join(testNativeDir, 'vk_enumerate/vk_enumerate');
const probeLayer = path.join(testNativeDir, 'vk_discovery_probe_layer/libvk_discovery_probe_layer.so');
const probeDriver = path.join(testNativeDir, 'vk_discovery_probe_driver/libvk_discovery_probe_driver.so');
const k359 = khronosVulkanLoaders().find((l) => l.version === '1.4.359');
const skip =
  k359 === undefined
    ? 'Khronos Vulkan loader 1.4.359 declared absent'
    : (k359.missing ??
      missingSystemComponent({
        'test/native vk_enumerate': [enumerate],
        'test/native vk_discovery_probe_layer': [probeLayer],
        'test/native vk_discovery_probe_driver': [probeDriver],
        'Mesa lavapipe (mesa-vulkan-drivers)': [LAVAPIPE_MANIFEST],
      }));

let T = '';
let cleanup = (): void => {};
let n = 0;
const at = (p: string): string => path.join(T, p);

/** A probe library copy named for what it stands for (the log names the library, so its folder names the layer or driver). */
function probeCopy(from: string, name: string): string {
  const lib = at(`libs/${name}/${path.basename(from)}`);
  if (!existsSync(lib)) {
    mkdirSync(path.dirname(lib), { recursive: true });
    copyFileSync(from, lib);
  }
  return lib;
}

/**
 * The tree: each layer alone in its folder (so the search order alone orders them; within one
 * folder the Khronos loader follows readdir order): three implicit layers (one also needs its
 * enable variable) and three explicit ones; three probe drivers in one folder and lavapipe.
 */
function tree(): void {
  const layer = (folder: string, name: string, extra: object = {}): void =>
    void put('/', at(`${folder}/${name}.json`), vkLayerManifest({ name, library_path: probeCopy(probeLayer, name), ...extra }));
  layer('home/.config/vulkan/implicit_layer.d', 'VK_LAYER_T_overlay', { disable_environment: { DISABLE_T_OVERLAY: '1' } });
  layer('xdgconf/vulkan/implicit_layer.d', 'VK_LAYER_T_select', { disable_environment: { DISABLE_T_SELECT: '1' } });
  layer('data/vulkan/implicit_layer.d', 'VK_LAYER_T_gated', { enable_environment: { ENABLE_T_GATED: '1' }, disable_environment: { DISABLE_T_GATED: '1' } });
  layer('home/.config/vulkan/explicit_layer.d', 'VK_LAYER_T_validation');
  layer('xdgconf/vulkan/explicit_layer.d', 'VK_LAYER_T_api_dump');
  layer('data/vulkan/explicit_layer.d', 'VK_LAYER_T_capture');
  for (const d of ['alpha', 'beta', 'gamma']) put('/', at(`icd/${d}_icd.json`), vkDriverManifest(probeCopy(probeDriver, `${d}_icd.json`)));
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: at('home'),
    XDG_CONFIG_DIRS: at('xdgconf'),
    XDG_DATA_DIRS: at('data'),
    VK_DRIVER_FILES: `${at('icd')}:${LAVAPIPE_MANIFEST}`,
    ...extra,
  };
}

interface Outcome {
  /** vkCreateInstance's result (0, or the VkResult it failed with). */
  result: number;
  /** The layers in the chain, application side first. */
  chain: string[];
  /** The drivers used (manifest file names), sorted. */
  drivers: string[];
}

/** vkCreateInstance with `requested` through 1.4.359 with `variables` set. */
function khronos(variables: Record<string, string>, requested: readonly string[]): Outcome {
  const out = at(`out-${++n}.json`);
  const log = at(`log-${n}.txt`);
  const args = ['--loader', k359!.library!, '--out', out, '--devices', ...requested.flatMap((l) => ['--layer', l])];
  execFileSync(enumerate, args, { env: { ...env(variables), PROBE_LOG: log }, stdio: ['ignore', 'ignore', 'ignore'] });
  const answer = JSON.parse(readFileSync(out, 'utf8')) as { create: { result: number }; devices?: { list: string[] } };
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
  const libs = (prefix: string): string[] => lines.filter((l) => l.startsWith(prefix)).map((l) => path.basename(path.dirname(l.slice(prefix.length))));
  const drivers = [...new Set(libs('vk-driver-create '))];
  if ((answer.devices?.list ?? []).some((d) => d.startsWith('llvmpipe'))) drivers.push(path.basename(LAVAPIPE_MANIFEST));
  return { result: answer.create.result, chain: libs('vk-layer-create '), drivers: drivers.sort() };
}

/** Our plan for the same request, with the policy in code and the environment without the Khronos variables. */
function ours(policy: Pick<VulkanDiscoveryOptions, 'layers' | 'drivers'>, requested: readonly string[], extra: Record<string, string> = {}): Outcome {
  const loader = createLoader({ platform: createLinuxPlatform({ env: env(extra), elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {}, ...policy });
  try {
    const plan = loader.planInstance({ enabledLayerNames: [...requested] });
    return { result: 0, chain: plan.layers.map((l) => l.name), drivers: plan.drivers.map((d) => path.basename(d.manifestPath)).sort() };
  } catch (e) {
    if (e instanceof VulkanError) return { result: e.resultValue, chain: [], drivers: [] };
    throw e;
  }
}

interface Case {
  policy: Pick<VulkanDiscoveryOptions, 'layers' | 'drivers'>;
  variables: Record<string, string>;
  requested?: string[];
  /** The chain both must build (checked on the Khronos side, so the case tests what it says). */
  chain?: string[];
  drivers?: string[];
  result?: number;
}

const ALL_DRIVERS = ['alpha_icd.json', 'beta_icd.json', 'gamma_icd.json', path.basename(LAVAPIPE_MANIFEST)].sort();
const IMPLICIT_ON = ['VK_LAYER_T_overlay', 'VK_LAYER_T_select'];

function same(c: Case): Outcome {
  const requested = c.requested ?? [];
  const k = khronos(c.variables, requested);
  const o = ours(c.policy, requested);
  const what = JSON.stringify(c.policy);
  expect(k.result, `1.4.359 with ${JSON.stringify(c.variables)}`).toBe(c.result ?? 0);
  if (c.chain) expect(k.chain, `1.4.359 with ${JSON.stringify(c.variables)}`).toEqual(c.chain);
  expect(k.drivers, `1.4.359 with ${JSON.stringify(c.variables)}`).toEqual(c.result ? [] : (c.drivers ?? ALL_DRIVERS));
  expect(o, `ours with ${what}`).toEqual(k);
  return k;
}

describe.skipIf(skip !== null)('the loader policy in code against the Khronos Vulkan loader 1.4.359 given the equivalent variables', () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-vkpolicy-diff-'));
    tree();
  });
  afterAll(() => cleanup());

  it('VK-PO-2: layers.enable ↔ VK_LOADER_LAYERS_ENABLE: explicit layers after the implicit ones and before the application\'s, an implicit layer off for want of its enable variable on; globs, any case', () => {
    same({ policy: {}, variables: {}, requested: ['VK_LAYER_T_validation'], chain: [...IMPLICIT_ON, 'VK_LAYER_T_validation'] });
    same({ policy: { layers: { enable: ['*api_dump'] } }, variables: { VK_LOADER_LAYERS_ENABLE: '*api_dump' }, requested: ['VK_LAYER_T_validation'], chain: [...IMPLICIT_ON, 'VK_LAYER_T_api_dump', 'VK_LAYER_T_validation'] });
    same({ policy: { layers: { enable: ['VK_LAYER_T_gated'] } }, variables: { VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_gated' }, chain: ['VK_LAYER_T_overlay', 'VK_LAYER_T_select', 'VK_LAYER_T_gated'] });
    same({ policy: { layers: { enable: ['vk_layer_t_CAP*', 'VK_LAYER_T_VALIDATION'] } }, variables: { VK_LOADER_LAYERS_ENABLE: 'vk_layer_t_CAP*,VK_LAYER_T_VALIDATION' }, chain: [...IMPLICIT_ON, 'VK_LAYER_T_validation', 'VK_LAYER_T_capture'] });
    same({ policy: { layers: { enable: ['*t_*'] } }, variables: { VK_LOADER_LAYERS_ENABLE: '*t_*' }, requested: ['VK_LAYER_T_api_dump'] });
  });

  it('VK-PO-1: layers.disable ↔ VK_LOADER_LAYERS_DISABLE: ~implicit~, ~explicit~ (a request is VK_ERROR_LAYER_NOT_PRESENT), ~all~, globs', () => {
    same({ policy: { layers: { disable: ['~implicit~'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '~implicit~' }, requested: ['VK_LAYER_T_validation'], chain: ['VK_LAYER_T_validation'] });
    same({ policy: { layers: { disable: ['~explicit~'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '~explicit~' }, requested: ['VK_LAYER_T_validation'], result: -6 });
    same({ policy: { layers: { disable: ['~explicit~'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '~explicit~' }, chain: IMPLICIT_ON });
    same({ policy: { layers: { disable: ['~all~'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '~all~' }, chain: [] });
    same({ policy: { layers: { disable: ['*'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '*' }, requested: ['VK_LAYER_T_capture'], result: -6 });
    same({ policy: { layers: { disable: ['*overlay', 'vk_layer_t_API*'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '*overlay,vk_layer_t_API*' }, requested: ['VK_LAYER_T_capture'], chain: ['VK_LAYER_T_select', 'VK_LAYER_T_capture'] });
    same({ policy: { layers: { disable: ['*api_dump*'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '*api_dump*' }, requested: ['VK_LAYER_T_api_dump'], result: -6 });
  });

  it('VK-PO-1: layers.allow ↔ VK_LOADER_LAYERS_ALLOW keeps what disable takes out; layers.enable ↔ VK_LOADER_LAYERS_ENABLE wins over disable', () => {
    same({
      policy: { layers: { disable: ['~all~'], allow: ['*select', 'VK_LAYER_T_validation'] } },
      variables: { VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: '*select,VK_LAYER_T_validation' },
      requested: ['VK_LAYER_T_validation'],
      chain: ['VK_LAYER_T_select', 'VK_LAYER_T_validation'],
    });
    same({ policy: { layers: { disable: ['~all~'], allow: ['*select'] } }, variables: { VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ALLOW: '*select' }, requested: ['VK_LAYER_T_validation'], result: -6 });
    same({ policy: { layers: { allow: ['*'] } }, variables: { VK_LOADER_LAYERS_ALLOW: '*' }, chain: IMPLICIT_ON });
    same({
      policy: { layers: { disable: ['~implicit~', '*capture'], enable: ['VK_LAYER_T_overlay', 'VK_LAYER_T_capture'] } },
      variables: { VK_LOADER_LAYERS_DISABLE: '~implicit~,*capture', VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_overlay,VK_LAYER_T_capture' },
      chain: ['VK_LAYER_T_overlay', 'VK_LAYER_T_capture'],
    });
  });

  it('VK-PO-4: layers.order ↔ VK_INSTANCE_LAYERS naming every layer of the chain in that order (1.4.359 places implicit layers where it names them)', () => {
    const order = ['VK_LAYER_T_api_dump', 'VK_LAYER_T_select', 'VK_LAYER_T_validation', 'VK_LAYER_T_overlay'];
    same({ policy: { layers: { order } }, variables: { VK_INSTANCE_LAYERS: order.join(':') }, requested: ['VK_LAYER_T_validation', 'VK_LAYER_T_api_dump'], chain: order });
  });

  it('VK-PO-3: safe mode ↔ VK_LOADER_LAYERS_DISABLE=~implicit~ while the application names no implicit layer; one it names is loaded (deliberate: ~implicit~ makes the request VK_ERROR_LAYER_NOT_PRESENT)', () => {
    same({ policy: { layers: { safe: true } }, variables: { VK_LOADER_LAYERS_DISABLE: '~implicit~' }, requested: ['VK_LAYER_T_capture'], chain: ['VK_LAYER_T_capture'] });
    const requested = ['VK_LAYER_T_select', 'VK_LAYER_T_capture'];
    expect(khronos({ VK_LOADER_LAYERS_DISABLE: '~implicit~' }, requested).result).toBe(-6);
    expect(ours({ layers: { safe: true } }, requested).chain).toEqual(requested);
  });

  it('VK-PO-5: drivers.select ↔ VK_LOADER_DRIVERS_SELECT, drivers.disable ↔ VK_LOADER_DRIVERS_DISABLE (globs over manifest file names; select keeps only its matches, disable spares what select names)', () => {
    same({ policy: { drivers: { select: ['*lvp*'] } }, variables: { VK_LOADER_DRIVERS_SELECT: '*lvp*' }, drivers: [path.basename(LAVAPIPE_MANIFEST)] });
    same({ policy: { drivers: { select: ['alpha*', 'GAMMA_icd.json'] } }, variables: { VK_LOADER_DRIVERS_SELECT: 'alpha*,GAMMA_icd.json' }, drivers: ['alpha_icd.json', 'gamma_icd.json'] });
    same({ policy: { drivers: { disable: ['*_icd.json'] } }, variables: { VK_LOADER_DRIVERS_DISABLE: '*_icd.json' }, drivers: [path.basename(LAVAPIPE_MANIFEST)] });
    same({ policy: { drivers: { disable: ['beta*', '*lvp*'] } }, variables: { VK_LOADER_DRIVERS_DISABLE: 'beta*,*lvp*' }, drivers: ['alpha_icd.json', 'gamma_icd.json'] });
    same({ policy: { drivers: { select: ['*a_icd*'], disable: ['gamma*'] } }, variables: { VK_LOADER_DRIVERS_SELECT: '*a_icd*', VK_LOADER_DRIVERS_DISABLE: 'gamma*' }, drivers: ['alpha_icd.json', 'beta_icd.json', 'gamma_icd.json'] });
  });

  it('VK-PO-2: deliberate difference: layers.enable turns on an implicit layer its disable_environment turns off; VK_LOADER_LAYERS_ENABLE does not (1.4.359 gives disable_environment the last word)', () => {
    const k = khronos({ DISABLE_T_OVERLAY: '1', VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_overlay' }, []);
    expect(k.chain).toEqual(['VK_LAYER_T_select']);
    expect(ours({ layers: { enable: ['VK_LAYER_T_overlay'] } }, [], { DISABLE_T_OVERLAY: '1' }).chain).toEqual(['VK_LAYER_T_overlay', 'VK_LAYER_T_select']);
  });
});
