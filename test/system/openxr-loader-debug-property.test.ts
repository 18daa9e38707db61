// XR_LOADER_DEBUG as a loader property (XR-LI-2): initializeLoader({ properties: { XR_LOADER_DEBUG } })
// against the Khronos OpenXR loader 1.1.61 (test/native/xr_enumerate --init --init-property). The
// Khronos loader builds its logger once, from the environment, at its first message, which
// xrInitializeLoaderKHR logs before it stores the properties: the property never changes what is
// printed, the environment variable does. Compared: whether each loader printed Info/Verbose lines
// (the Khronos loader prints them to stdout, this one to its logWriter), for the same tree and
// environment, with the same calls (init, enumerate, create).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { khronosOpenXrLoaders, missingXrProbes, xrProbes } from '../helpers/khronos-openxr-loaders.js';
import { layerManifest, makeTempRoot, put, runtimeManifest } from '../unit/openxr/fixtures.js';

const { enumerate: probe, runtime: probeRuntime, layer: probeLayer } = xrProbes;
const k161 = khronosOpenXrLoaders().find((l) => l.version === '1.1.61');
const skip = k161 === undefined ? 'Khronos OpenXR loader 1.1.61 declared absent' : (k161.missing ?? missingXrProbes());

let T = '';
let cleanup = (): void => {};
let n = 0;

function copy(from: string, to: string): string {
  mkdirSync(path.dirname(to), { recursive: true });
  copyFileSync(from, to);
  return to;
}

function env(debug: string | undefined): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.join(T, 'home'),
    XDG_CONFIG_DIRS: path.join(T, 'xdgconf'),
    XDG_DATA_DIRS: path.join(T, 'data'),
    PROBE_LOG: path.join(T, 'probe.log'),
    ...(debug !== undefined && { XR_LOADER_DEBUG: debug }),
  };
}

const INFO_OR_VERBOSE = /^(Info|Verbose) \[GENERAL \| /;

/** The Info and Verbose lines the Khronos loader printed for init (with `property`), enumerate and create. */
function khronosLines(debug: string | undefined, property: string | undefined): string[] {
  const args = ['--out', path.join(T, `out-${++n}.json`), '--init', ...(property !== undefined ? ['--init-property', `XR_LOADER_DEBUG=${property}`] : []), '--create', '--layer', 'XR_APILAYER_TEST_A'];
  const r = spawnSync(probe, args, { env: { ...env(debug), ...k161!.env }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => INFO_OR_VERBOSE.test(l));
}

/** The same calls through this loader: initializeLoader (with `property`), enumerate, create. */
function ourLines(debug: string | undefined, property: string | undefined): string[] {
  let printed = '';
  const loader = createLoader({
    platform: createLinuxPlatform({ env: env(debug), elevated: false }),
    sysconfdir: '/etc',
    extraSysconfdir: null,
    runtimeExtensions: nativeRuntimeExtensions,
    logWriter: (text) => {
      printed += text;
    },
  });
  loader.initializeLoader(property !== undefined ? { properties: { XR_LOADER_DEBUG: property } } : {});
  expect(loader.enumerateApiLayerProperties().map((l) => l.layerName)).toEqual(['XR_APILAYER_TEST_A']);
  loader.enumerateInstanceExtensionProperties();
  loader.createInstance({ applicationName: 'kl-debug-property', enabledApiLayerNames: ['XR_APILAYER_TEST_A'] }).destroy();
  return printed.split('\n').filter((l) => INFO_OR_VERBOSE.test(l));
}

describe.skipIf(skip !== null)('XR_LOADER_DEBUG as a loader property against the Khronos OpenXR loader 1.1.61', () => {
  beforeAll(() => {
    ({ root: T, cleanup } = makeTempRoot('kl-xr-debug-prop-'));
    put(T, 'xdgconf/openxr/1/active_runtime.json', runtimeManifest(copy(probeRuntime, path.join(T, 'rt', 'libprobe_runtime.so'))));
    put(T, 'data/openxr/1/api_layers/explicit.d/A.json', layerManifest({ name: 'XR_APILAYER_TEST_A', library_path: copy(probeLayer, path.join(T, 'libs', 'A', 'libprobe_layer.so')) }));
  });
  afterAll(() => cleanup());

  it('XR-LI-2: the property alone prints nothing more (both loaders), while the same value in the environment prints its lines', () => {
    expect(khronosLines(undefined, 'all')).toEqual([]);
    expect(ourLines(undefined, 'all')).toEqual([]);
    expect(khronosLines(undefined, 'info')).toEqual([]);
    expect(ourLines(undefined, 'info')).toEqual([]);
    // The control: the environment variable does print, on both sides.
    expect(khronosLines('all', undefined).length).toBeGreaterThan(0);
    expect(ourLines('all', undefined).length).toBeGreaterThan(0);
  });

  it('XR-LI-2: the environment decides even when a property says otherwise ("none" and "error" do not silence XR_LOADER_DEBUG=all or =info)', () => {
    // Compared on the Info lines: this loader has no counterpart of the Khronos loader's Verbose
    // "Entering loader trampoline" lines (the Khronos side's are checked as the oracle's own).
    for (const debug of ['all', 'info']) {
      for (const property of ['none', 'error']) {
        const k = khronosLines(debug, property);
        const o = ourLines(debug, property);
        expect(k.some((l) => l.startsWith('Info ')), `${debug} / ${property}`).toBe(true);
        expect(o.some((l) => l.startsWith('Info ')), `${debug} / ${property}`).toBe(true);
        expect(k.some((l) => l.startsWith('Verbose ')), `${debug} / ${property}`).toBe(debug === 'all');
      }
    }
  });
});
