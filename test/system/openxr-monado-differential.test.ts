// Differential on Monado: each Khronos OpenXR loader (Debian's 1.0.20 and the current 1.1.61, through
// test/native/xr_script, which links libopenxr_loader.so.1 by its soname) and this
// package's loader (through its typed API) drive the same scripted sequence on Monado, a runtime
// neither side wrote, and must agree on what the runtime answered: instance and system properties,
// view configurations, reference space types, extensions, session states, locate results at the
// same XrTimes, actions and a suggested binding for the simple controller. Then the Khronos
// api_dump and core_validation layers run above Monado under both loaders: core_validation
// reports nothing for the sequence (and does report a deliberately invalid handle, so silence
// means something), api_dump sees the same commands.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { ENVIRONMENT_BLEND_MODES, REFERENCE_SPACE_TYPES, VIEW_CONFIGURATION_TYPES, VIEW_FLOATS } from '../../lib/openxr/api/types.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { openXrCommands } from '../../lib/openxr/commands.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { applyProcessEnv, MONADO_PROCESS_ENV, monadoManifestPath } from '../helpers/openxr-runtimes.js';
import { testNativeDir } from '../helpers/paths.js';
import { khronosOpenXrLoaders, type KhronosOpenXrLoader } from '../helpers/khronos-openxr-loaders.js';
import { missingSystemComponent } from '../helpers/system.js';

const script = path.join(testNativeDir, 'xr_script/xr_script');
const LAYERS = '/usr/share/openxr/1/api_layers/explicit.d';
const manifest = monadoManifestPath();
const skip = missingSystemComponent({
  'Monado (scripts/build-monado.sh builds it into build/monado; or set KHRONOS_LOADER_MONADO_JSON)': [manifest],
  'test/native xr_script (needs libopenxr-dev)': [script],
  'openxr-layer-apidump': [path.join(LAYERS, 'XrApiLayer_api_dump.x86_64-linux-gnu.json')],
  'openxr-layer-corevalidation': [path.join(LAYERS, 'XrApiLayer_core_validation.x86_64-linux-gnu.json')],
});

/** The same XrTimes through both loaders (Monado's XrTime counts from its instance's start). */
const TIMES = [1_000_000_000, 2_000_000_000, 3_500_000_000];
const PAIRS = ['view-in-local', 'stage-in-local', 'local-in-view', 'grip-in-local'] as const;

interface Located {
  what: string;
  time: number;
  flags: number;
  pose: number[];
  fov?: number[];
}
interface Answer {
  extensions: Array<{ name: string; extensionVersion: number }>;
  instance: { runtimeName: string; runtimeVersion: string };
  system: {
    vendorId: number;
    systemName: string;
    graphicsProperties: { maxSwapchainImageWidth: number; maxSwapchainImageHeight: number; maxLayerCount: number };
    trackingProperties: { orientationTracking: boolean; positionTracking: boolean };
  };
  viewConfigurations: Array<{ type: number; views: number[][]; blendModes: number[] }>;
  referenceSpaces: number[];
  states: string[];
  locate: Located[];
  actions: { badSuggest: number; suggest: number; attach: number; sync: number; selectActive: boolean; gripActive: boolean; profile: string };
  requestExit: number;
  invalidHandle?: number;
}

let T = '';

function runKhronos(loader: KhronosOpenXrLoader, extraEnv: Record<string, string>, args: string[] = []): Answer {
  const out = path.join(T, `khronos-${loader.version}-${Object.keys(extraEnv).join('-') || 'plain'}.json`);
  execFileSync(script, ['--out', out, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: T, ...definedOnly(MONADO_PROCESS_ENV), XR_RUNTIME_JSON: manifest, ...loader.env, ...extraEnv },
    stdio: 'ignore',
  });
  return JSON.parse(readFileSync(out, 'utf8')) as Answer;
}

function definedOnly(vars: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(vars).filter((e): e is [string, string] => e[1] !== undefined));
}

function code(f: () => unknown): number {
  try {
    f();
    return 0;
  } catch (error) {
    if (error instanceof OpenXrError) return error.resultValue;
    throw error;
  }
}

/** The scripted sequence through this package's loader, answered in xr_script's shape. */
function runOurs(extraEnv: Record<string, string>, options: { invalidHandle?: boolean } = {}): Answer {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: T, XR_RUNTIME_JSON: manifest, XR_API_LAYER_PATH: LAYERS, ...extraEnv };
  const loader = createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions, logWriter: () => {} });
  const extensions = loader.enumerateInstanceExtensionProperties();
  const instance = loader.createInstance({ applicationName: 'monado differential', enabledExtensionNames: ['XR_MND_headless', 'XR_KHR_convert_timespec_time'] });
  try {
    const props = instance.getProperties();
    const system = instance.getSystem('head-mounted-display');
    const sp = system.getProperties();
    const viewConfigurations = system.viewConfigurations().map((type) => {
      const name = type as keyof typeof VIEW_CONFIGURATION_TYPES;
      return {
        type: VIEW_CONFIGURATION_TYPES[name],
        views: system.viewConfigurationViews(name).map((v) => [v.recommendedImageRectWidth, v.maxImageRectWidth, v.recommendedImageRectHeight, v.maxImageRectHeight, v.recommendedSwapchainSampleCount, v.maxSwapchainSampleCount]),
        blendModes: system.environmentBlendModes(name).map((m) => ENVIRONMENT_BLEND_MODES[m as keyof typeof ENVIRONMENT_BLEND_MODES]),
      };
    });
    const set = instance.createActionSet({ name: 'gameplay', localizedName: 'Gameplay' });
    const hands = ['/user/hand/left', '/user/hand/right'];
    const select = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean', subactionPaths: hands });
    const grip = set.createAction({ name: 'grip', localizedName: 'Grip', type: 'pose', subactionPaths: hands });
    const profile = '/interaction_profiles/khr/simple_controller';
    const badSuggest = code(() => instance.suggestBindings(profile, [{ action: select, path: '/user/hand/left/input/nope/click' }]));
    const suggest = code(() =>
      instance.suggestBindings(profile, [
        { action: select, path: '/user/hand/left/input/select/click' },
        { action: grip, path: '/user/hand/left/input/grip/pose' },
      ]),
    );
    const session = instance.createSession(system, { headless: true });
    const referenceSpaces = session.referenceSpaceTypes().map((t) => REFERENCE_SPACE_TYPES[t as keyof typeof REFERENCE_SPACE_TYPES]);
    const attach = code(() => session.attachActionSets([set]));
    const states: string[] = [];
    session.on('stateChanged', (s) => states.push(s));
    for (let round = 0; round < 100 && session.state !== 'focused'; round++) {
      if (instance.pollEvent() === null && !session.isRunning) break;
      if (session.state === 'ready' && !session.isRunning) session.beginSession('primary-stereo');
    }
    const spaces = {
      local: session.createReferenceSpace('local'),
      view: session.createReferenceSpace('view'),
      stage: session.createReferenceSpace('stage'),
      grip: session.createActionSpace(grip, '/user/hand/left'),
    };
    const pairs = { 'view-in-local': [spaces.view, spaces.local], 'stage-in-local': [spaces.stage, spaces.local], 'local-in-view': [spaces.local, spaces.view], 'grip-in-local': [spaces.grip, spaces.local] } as const;
    const locate: Located[] = [];
    const pose = new Float32Array(7);
    const views = new Float32Array(2 * VIEW_FLOATS);
    for (const time of TIMES) {
      for (const what of PAIRS) {
        const [space, base] = pairs[what];
        const flags = space.locate(base, time, pose);
        locate.push({ what, time, flags, pose: Array.from(pose) });
      }
      const flags = session.locateViews(spaces.local, time, views);
      for (let v = 0; v < 2; v++) {
        const o = v * VIEW_FLOATS;
        locate.push({ what: `view${v}-in-local`, time, flags, pose: Array.from(views.subarray(o, o + 7)), fov: Array.from(views.subarray(o + 7, o + 11)) });
      }
    }
    const sync = session.syncActions([set]) ? 0 : 8;
    const bound = session.currentInteractionProfile('/user/hand/left');
    const actions = {
      badSuggest,
      suggest,
      attach,
      sync,
      selectActive: select.getBoolean('/user/hand/left').isActive,
      gripActive: grip.getPose('/user/hand/left').isActive,
      profile: bound ?? '',
    };
    // xr_script's --invalid-handle: xrLocateSpace with an XrSpace never created, through the generated bindings.
    const invalidHandle = options.invalidHandle ? code(() => openXrCommands(instance).xrLocateSpace(0xdead0001n, spaces.local.handle, TIMES[0]!)) : undefined;
    const requestExit = code(() => session.requestExit());
    session.destroy();
    return {
      extensions: [...extensions],
      instance: { runtimeName: props.runtimeName, runtimeVersion: String(props.runtimeVersion.packed) },
      system: { vendorId: sp.vendorId, systemName: sp.systemName, graphicsProperties: { ...sp.graphicsProperties }, trackingProperties: { ...sp.trackingProperties } },
      viewConfigurations,
      referenceSpaces,
      states,
      locate,
      actions,
      ...(invalidHandle !== undefined ? { invalidHandle } : {}),
      requestExit,
    };
  } finally {
    instance.destroy();
  }
}

/**
 * Poses through float32 on both sides. Monado's XrTime counts from each instance's start and its
 * simulated head moves with time since the device was made, so the same XrTime names a moment
 * that differs between the two runs by the difference in their setup: a few µs on a quiet machine,
 * milliseconds on a loaded one (a CI run saw 2.4e-4 in a quaternion component). The poses are
 * compared to 2 decimals, enough to tell another space, time or pose apart, and a valid
 * orientation must be a unit quaternion on both sides.
 */
function expectSameLocations(k: readonly Located[], o: readonly Located[]): void {
  expect(o.map((l) => [l.what, l.time, l.flags])).toEqual(k.map((l) => [l.what, l.time, l.flags]));
  const norm = (p: readonly number[]): number => Math.hypot(p[3]!, p[4]!, p[5]!, p[6]!);
  k.forEach((kl, i) => {
    const ol = o[i]!;
    // Orientation valid (XR_SPACE_LOCATION_ORIENTATION_VALID_BIT, XR_VIEW_STATE_ORIENTATION_VALID_BIT: 0x1).
    if ((kl.flags & 1) !== 0) {
      expect(norm(kl.pose), `${kl.what}: Khronos orientation`).toBeCloseTo(1, 4);
      expect(norm(ol.pose), `${kl.what}: our orientation`).toBeCloseTo(1, 4);
    }
    kl.pose.forEach((v, j) => expect(ol.pose[j], `${kl.what} at ${kl.time} [${j}]`).toBeCloseTo(v, 2));
    kl.fov?.forEach((v, j) => expect(ol.fov?.[j], `${kl.what} fov [${j}]`).toBeCloseTo(v, 6));
  });
}

function expectSame(k: Answer, o: Answer): void {
  // The loaders' own XR_EXT_debug_utils differs in spec version (1.0.20: 4; this loader: 5).
  const exts = (a: Answer) => a.extensions.map((e) => (e.name === 'XR_EXT_debug_utils' ? e.name : `${e.name}@${e.extensionVersion}`)).sort();
  expect(exts(o)).toEqual(exts(k));
  expect(o.instance).toEqual(k.instance);
  expect(o.system).toEqual(k.system);
  expect(o.viewConfigurations).toEqual(k.viewConfigurations);
  expect(o.referenceSpaces).toEqual(k.referenceSpaces);
  expect(o.states).toEqual(k.states);
  expectSameLocations(k.locate, o.locate);
  expect(o.actions).toEqual(k.actions);
  expect(o.requestExit).toBe(k.requestExit);
}

/** Command names api_dump printed, in first-seen order (without xrGetInstanceProcAddr, which each loader uses its own way). */
function dumpedCommands(file: string): string[] {
  const names = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => /^XrResult (xr\w+)/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined && n !== 'xrGetInstanceProcAddr');
  return [...new Set(names)];
}

for (const loader of khronosOpenXrLoaders()) describe.skipIf(skip !== null || loader.missing !== null)(`OpenXR differential on Monado vs the Khronos loader ${loader.version}${skip ? ` (skipped: ${skip})` : loader.missing ? ` (skipped: ${loader.missing})` : ''}`, () => {
  let restoreEnv = (): void => {};
  beforeAll(() => {
    T = mkdtempSync(path.join(tmpdir(), 'kl-monado-diff-'));
    restoreEnv = applyProcessEnv(MONADO_PROCESS_ENV);
  });
  afterAll(() => {
    restoreEnv();
    rmSync(T, { recursive: true, force: true });
  });

  it('XR-RD-1 XR-CI-2 XR-CI-5 XR-CI-9 NODE-3: the same sequence on Monado gives the same answers through both loaders', () => {
    const k = runKhronos(loader, {});
    // What Monado answered (so agreeing is not agreeing on nothing).
    expect(k.system.systemName).toBe('Monado: Simulated HMD');
    expect(k.states).toEqual(['idle', 'ready', 'synchronized', 'visible', 'focused']);
    expect(k.locate.find((l) => l.what === 'view-in-local')?.flags).toBe(7);
    expect(k.actions.badSuggest).toBe(-22); // XR_ERROR_PATH_UNSUPPORTED
    expect(k.locate).toHaveLength(TIMES.length * (PAIRS.length + 2));
    expectSame(k, runOurs({}));
  });

  it('XR-CI-3 XR-CI-11: core_validation above Monado reports nothing for the sequence through either loader but the invalid handle planted in the same run', () => {
    const report = (who: string) => path.join(T, `core_validation-${who}.txt`);
    const layerEnv = (who: string) => ({ XR_ENABLE_API_LAYERS: 'XR_APILAYER_LUNARG_core_validation', XR_API_LAYER_PATH: LAYERS, XR_CORE_VALIDATION_EXPORT_TYPE: 'text', XR_CORE_VALIDATION_FILE_NAME: report(who) });
    // Each run ends with an XrSpace that was never created: the layer refuses and reports it, so
    // "nothing but that" is shown in the run that reports nothing else (a missing report would not do).
    const onlyThePlanted = (who: string): void => {
      const lines = readFileSync(report(who), 'utf8').split('\n').filter((l) => /VUID|error|warning/i.test(l));
      expect(lines.some((l) => l.includes('VUID-xrLocateSpace-space-parameter')), `${who}: the planted error is reported`).toBe(true);
      expect(lines.filter((l) => !/xrLocateSpace/.test(l)), who).toEqual([]);
    };
    const k = runKhronos(loader, layerEnv('khronos'), ['--invalid-handle']);
    expect(k.invalidHandle).toBe(-12);
    onlyThePlanted('khronos');
    // The layer reads its settings from the process environment (it runs inside this one).
    const restore = applyProcessEnv({ XR_CORE_VALIDATION_EXPORT_TYPE: 'text', XR_CORE_VALIDATION_FILE_NAME: report('ours') });
    try {
      const o = runOurs({ XR_ENABLE_API_LAYERS: 'XR_APILAYER_LUNARG_core_validation' }, { invalidHandle: true });
      expectSame(k, o);
    } finally {
      restore();
    }
    onlyThePlanted('ours');
  });

  it('XR-CI-3 XR-CI-5: api_dump above Monado sees every command of the sequence through both loaders', () => {
    const dump = (who: string) => path.join(T, `api_dump-${who}.txt`);
    const k = runKhronos(loader, { XR_ENABLE_API_LAYERS: 'XR_APILAYER_LUNARG_api_dump', XR_API_LAYER_PATH: LAYERS, XR_API_DUMP_EXPORT_TYPE: 'text', XR_API_DUMP_FILE_NAME: dump('khronos') });
    const restore = applyProcessEnv({ XR_API_DUMP_EXPORT_TYPE: 'text', XR_API_DUMP_FILE_NAME: dump('ours') });
    let o: Answer;
    try {
      o = runOurs({ XR_ENABLE_API_LAYERS: 'XR_APILAYER_LUNARG_api_dump' });
    } finally {
      restore();
    }
    expectSame(k, o);
    const khronos = dumpedCommands(dump('khronos'));
    const ours = dumpedCommands(dump('ours'));
    expect(khronos).toEqual(expect.arrayContaining(['xrCreateInstance', 'xrCreateSession', 'xrLocateSpace', 'xrLocateViews', 'xrSuggestInteractionProfileBindings', 'xrSyncActions', 'xrDestroyInstance']));
    expect([...ours].sort()).toEqual([...khronos].sort());
  });
});
