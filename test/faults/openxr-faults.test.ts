// Fault injection, OpenXR: the "_faults" builds of the test runtime and test layer
// fail the Nth call of a chosen command, answer success with a NULL pointer from
// xrGetInstanceProcAddr, change their counts between the two calls of the two-call idiom, or die
// (SIGABRT, SIGSEGV) or hang in negotiation, as KL_FAULT_* choose (fault-env.ts). The loader turns
// each into a typed error or a diagnostic, leaves no library of a failed instance mapped, and
// this process lives. Crashes and hangs run where the doctor isolates them: its probe child.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { flushLoaderLog } from '../../lib/core/native/load.js';
import { doctor, type DoctorReport } from '../../lib/tools/doctor/index.js';
import { createInstanceFromPlan, type Instance } from '../../lib/openxr/api/instance.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { openXrErrorFrom } from '../helpers/errors.js';
import { freshTrace, layerDir, layerManifest, mappedLibraries, runtimeLibrary, testPlan } from '../openxr-native/helpers.js';
import { makeFixture } from '../doctor/fixture.js';
import { faultEnv, withFault, type Fault } from './fault-env.js';
import { sanitizerEnv } from '../helpers/sanitizer-env.js';

const RUNTIME = 'kl_test_runtime_faults';
const LAYER = 'XR_APILAYER_KLTEST_faults';

function faultLibrariesMapped(): string[] {
  return [...mappedLibraries()].filter((p) => p.includes('kl_test_runtime_faults') || p.includes('kl_test_layer_faults'));
}

function create(layers: readonly string[] = []): Instance {
  return createInstanceFromPlan(testPlan(layers, RUNTIME), { applicationName: 'faults', enabledExtensionNames: ['XR_MND_headless'] });
}

/** destroy(), which may report the failure of the chain's xrDestroyInstance as `result` (and must unload all the same). */
function destroyMayReport(instance: Instance, result: string): void {
  try {
    instance.destroy();
  } catch (e) {
    expect(e).toBeInstanceOf(OpenXrError);
    expect((e as OpenXrError).result).toBe(result);
  }
}

let records: LogRecord[] = [];
const listener = (r: LogRecord): void => void records.push(r);
loaderLog.on('record', listener);
// Every native record emitted so far delivered to the listener.
const settle = flushLoaderLog;
afterEach(async () => {
  await settle(); // records of this test's native calls arrive asynchronously: not into the next test
  records = [];
  delete process.env.KL_TEST_TRACE;
});

describe('OpenXR: a failing call becomes a typed error, and a failed instance leaves nothing mapped', () => {
  it('XR-RN-2, XR-CI-7: a runtime whose negotiation fails is rejected with XR_ERROR_RUNTIME_UNAVAILABLE and unloaded', () => {
    const e = withFault({ in: 'runtime', command: 'negotiate', kind: 'fail' }, () => openXrErrorFrom(() => create()));
    expect([e.result, e.resultValue]).toEqual(['XR_ERROR_RUNTIME_UNAVAILABLE', -51]);
    expect(e.message).toContain(runtimeLibrary(RUNTIME));
    expect(e.message).toMatch(/xrNegotiateLoaderRuntimeInterface returned -6 instead of XR_SUCCESS/);
    expect(faultLibrariesMapped()).toEqual([]);
  });

  it('XR-CI-4, NODE-2: the runtime\'s xrCreateInstance failing gives its result as an OpenXrError; the runtime is unloaded', () => {
    const e = withFault({ in: 'runtime', command: 'xrCreateInstance', kind: 'fail' }, () => openXrErrorFrom(() => create()));
    expect([e.result, e.resultValue]).toEqual(['XR_ERROR_RUNTIME_FAILURE', -2]);
    expect(e.message).toMatch(/the runtime's xrCreateInstance returned -2/);
    expect(faultLibrariesMapped()).toEqual([]);
    // The same library, loaded again without the fault, works.
    const instance = create();
    expect(instance.getProperties().runtimeName).toBe('khronos-loader test runtime');
    instance.destroy();
    expect(faultLibrariesMapped()).toEqual([]);
  });

  it('XR-LN-1, XR-CI-7: a requested layer whose negotiation fails fails the creation; neither it nor the runtime stays mapped', () => {
    const e = withFault({ in: 'layer', command: 'negotiate', kind: 'fail' }, () => openXrErrorFrom(() => create([LAYER])));
    expect(e.result).toBe('XR_ERROR_API_LAYER_NOT_PRESENT');
    expect(e.message).toContain(layerManifest(LAYER));
    expect(faultLibrariesMapped()).toEqual([]);
  });

  it('XR-CI-3, XR-CI-7: the layer\'s xrCreateApiLayerInstance failing gives its result; layer and runtime are unloaded', () => {
    const e = withFault({ in: 'layer', command: 'xrCreateApiLayerInstance', kind: 'fail' }, () => openXrErrorFrom(() => create([LAYER])));
    expect([e.result, e.resultValue]).toEqual(['XR_ERROR_INITIALIZATION_FAILED', -6]);
    expect(e.message).toMatch(/xrCreateApiLayerInstance of XR_APILAYER_KLTEST_faults returned -6/);
    expect(faultLibrariesMapped()).toEqual([]);
  });

  it('NODE-2: only the Nth call fails (xrGetInstanceProperties, 2nd of 3), through a layer; the calls before and after work', () => {
    withFault({ in: 'runtime', command: 'xrGetInstanceProperties', kind: 'fail', nth: 2 }, () => {
      const instance = create([LAYER]);
      expect(instance.getProperties().runtimeName).toBe('khronos-loader test runtime');
      const e = openXrErrorFrom(() => instance.getProperties());
      expect([e.result, e.resultValue]).toEqual(['XR_ERROR_RUNTIME_FAILURE', -2]);
      expect(e.message).toMatch(/xrGetInstanceProperties/);
      expect(instance.getProperties().runtimeName).toBe('khronos-loader test runtime');
      instance.destroy();
    });
    expect(faultLibrariesMapped()).toEqual([]);
  });

  it('XR-CI-7: a failing xrDestroyInstance still unloads the runtime, and the failure is reported', async () => {
    const instance = create();
    withFault({ in: 'runtime', command: 'xrDestroyInstance', kind: 'fail' }, () => destroyMayReport(instance, 'XR_ERROR_RUNTIME_FAILURE'));
    expect(instance.isDestroyed).toBe(true);
    expect(faultLibrariesMapped()).toEqual([]);
  });
});

describe('OpenXR: NULL pointers from xrGetInstanceProcAddr', () => {
  it('XR-CI-4: a runtime that answers success and NULL for xrCreateInstance fails the creation with a reason; nothing stays mapped', async () => {
    const e = withFault({ in: 'runtime', command: 'xrCreateInstance', kind: 'null', nth: 0 }, () => openXrErrorFrom(() => create()));
    expect(e.result).toBe('XR_ERROR_RUNTIME_FAILURE');
    await settle();
    expect(records.some((r) => r.level === 'error' && r.message.includes('the runtime does not provide xrCreateInstance'))).toBe(true);
    expect(faultLibrariesMapped()).toEqual([]);
  });

  for (const where of ['runtime', 'layer'] as const) {
    it(`XR-CI-5, NODE-2: a NULL xrGetInstanceProperties from the ${where} makes that call XR_ERROR_FUNCTION_UNSUPPORTED; the instance still works`, () => {
      withFault({ in: where, command: 'xrGetInstanceProperties', kind: 'null', nth: 0 }, () => {
        const instance = create(where === 'layer' ? [LAYER] : []);
        const e = openXrErrorFrom(() => instance.getProperties());
        expect(e.result).toBe('XR_ERROR_FUNCTION_UNSUPPORTED');
        expect(e.message).toMatch(/xrGetInstanceProperties/);
        expect(typeof instance.getSystem()).toBe('object');
        instance.destroy();
      });
      expect(faultLibrariesMapped()).toEqual([]);
    });
  }

  it('XR-CI-7: a NULL xrDestroyInstance is reported and the runtime is unloaded all the same', async () => {
    withFault({ in: 'runtime', command: 'xrDestroyInstance', kind: 'null', nth: 0 }, () => {
      destroyMayReport(create(), 'XR_ERROR_FUNCTION_UNSUPPORTED');
    });
    await settle();
    expect(records.some((r) => r.level === 'error' && r.message.includes('xrDestroyInstance'))).toBe(true);
    expect(faultLibrariesMapped()).toEqual([]);
  });
});

describe('OpenXR: counts that change between the two calls of the two-call idiom', () => {
  const cases: [Fault['kind'], string][] = [
    ['count-grow', 'the list grew: the loader asks again and passes the extension on'],
    ['count-shrink', 'the list shrank: the loader keeps what was written'],
    ['count-lie', 'a count above the capacity with success: the loader reads no more than it gave room for'],
  ];
  for (const [kind, what] of cases) {
    it(`XR-CI-4: xrEnumerateInstanceExtensionProperties ${kind} at instance creation — ${what}`, async () => {
      const trace = freshTrace();
      withFault({ in: 'runtime', command: 'xrEnumerateInstanceExtensionProperties', kind, nth: 2 }, () => create().destroy());
      // The runtime's list is XR_MND_headless, XR_KHR_composition_layer_depth, XR_EXT_hand_tracking; shrunk, the first two.
      expect(trace()).toContain('runtime:xrCreateInstance:faults:XR_MND_headless');
      const calls = trace().filter((l) => l === 'runtime:xrEnumerateInstanceExtensionProperties:(null)').length;
      expect(calls).toBe(kind === 'count-grow' ? 4 : 2);
      await settle();
      expect(records.filter((r) => r.level === 'warn' || r.level === 'error')).toEqual([]);
      expect(faultLibrariesMapped()).toEqual([]);
    });
  }

  it('XR-CI-4: a list that grows at every call is given up after a few tries, with a diagnostic; the instance is created without runtime extensions', async () => {
    const trace = freshTrace();
    withFault({ in: 'runtime', command: 'xrEnumerateInstanceExtensionProperties', kind: 'count-grow', nth: 0 }, () => create().destroy());
    expect(trace()).toContain('runtime:xrCreateInstance:faults');
    await settle();
    expect(records.some((r) => r.level === 'warn' && /xrEnumerateInstanceExtensionProperties returned -11/.test(r.message))).toBe(true);
    expect(faultLibrariesMapped()).toEqual([]);
  });
});

describe('OpenXR: crashes and hangs in negotiation, isolated in the doctor\'s probe child', () => {
  const TIMEOUT_MS = 1500;
  function run(fault: Fault, withLayer: boolean): Promise<DoctorReport> {
    const f = makeFixture({
      runtimeLibrary: runtimeLibrary(RUNTIME),
      layers: withLayer ? [{ name: LAYER, libraryPath: path.join(layerDir, 'libkl_test_layer_faults.so') }] : [],
    });
    return doctor({ env: { ...f.env, ...faultEnv(fault), ...sanitizerEnv({ deliberateCrash: true }) }, ...f.discovery, timeoutMs: TIMEOUT_MS, logWriter: () => undefined });
  }

  for (const [kind, signal] of [['abort', 'SIGABRT'], ['segv', 'SIGSEGV']] as const) {
    it(`XR-RN-2: a runtime that dies of ${signal} in negotiation is reported as crashed; this process lives`, async () => {
      const r = await run({ in: 'runtime', command: 'negotiate', kind }, false);
      const rt = r.components.find((c) => c.kind === 'runtime');
      expect(rt?.status).toBe('broken');
      expect(rt?.problems[0]).toMatchObject({ stage: 'crash', what: `crashed with ${signal} during negotiation` });
      expect(rt?.problems[0]?.why.file).toBe(runtimeLibrary(RUNTIME));
    });
  }

  it('XR-RN-2: a runtime that hangs in negotiation is killed after the timeout and reported', async () => {
    const r = await run({ in: 'runtime', command: 'negotiate', kind: 'hang' }, false);
    const rt = r.components.find((c) => c.kind === 'runtime');
    expect(rt?.problems.map((p) => [p.stage, p.what])).toEqual([['timeout', 'did not return within 1.5 s']]);
  });

  it('XR-LN-1: a layer that aborts in negotiation is reported as crashed; the runtime beside it is ok', async () => {
    const r = await run({ in: 'layer', command: 'negotiate', kind: 'abort' }, true);
    const layer = r.components.find((c) => c.name === LAYER);
    expect(layer?.problems[0]).toMatchObject({ stage: 'crash', what: 'crashed with SIGABRT during negotiation' });
    expect(r.components.find((c) => c.kind === 'runtime')?.status).toBe('ok');
  });
});
