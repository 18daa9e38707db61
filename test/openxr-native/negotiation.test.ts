// Runtime and API layer negotiation (OpenXR Loader Design, 'Loader/Runtime Interface Negotiation'
// and 'Loader/API Layer Interface Negotiation'; XR-RN and XR-LN in docs/requirements.md).
import { afterEach, describe, expect, it } from 'vitest';
import { flushLoaderLog } from '../../lib/core/native/load.js';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { createInstanceFromPlan } from '../../lib/openxr/api/instance.js';
import { freshTrace, plannedLayer, testPlan } from './helpers.js';

const XR_MAKE_VERSION = (major: number, minor: number, patch: number): bigint =>
  (BigInt(major) << 48n) | (BigInt(minor) << 32n) | BigInt(patch);

function captureLog(): { records: LogRecord[]; settle: () => Promise<void> } {
  const records: LogRecord[] = [];
  const listener = (r: LogRecord): void => void records.push(r);
  loaderLog.on('record', listener);
  return {
    records,
    settle: async () => {
      await flushLoaderLog();
      loaderLog.off('record', listener);
    },
  };
}

function expectXrError(f: () => unknown, result: string): OpenXrError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(OpenXrError);
    expect((e as OpenXrError).result).toBe(result);
    return e as OpenXrError;
  }
  throw new Error(`expected ${result}`);
}

afterEach(() => {
  delete process.env.KL_TEST_TRACE;
});

describe('runtime negotiation', () => {
  it('XR-RN-1: the loader fills XrNegotiateLoaderInfo and the XrNegotiateRuntimeRequest header', () => {
    const trace = freshTrace();
    createInstanceFromPlan(testPlan(), { applicationName: 'rn1' }).destroy();
    const line = trace().find((l) => l.startsWith('runtime:loaderInfo:'));
    expect(line).toBeDefined();
    const [, , info, , request, , sizes] = line!.split(':');
    const [type, version, size, minIf, maxIf, minApi, maxApi] = info!.split(',');
    const [loaderInfoSize, requestSize] = sizes!.split(',');
    expect([type, version, size]).toEqual(['1', '1', loaderInfoSize]); // XR_LOADER_INTERFACE_STRUCT_LOADER_INFO
    expect([minIf, maxIf]).toEqual(['1', '1']);
    expect(BigInt(minApi!)).toBe(XR_MAKE_VERSION(1, 0, 0));
    expect(BigInt(maxApi!)).toBe(XR_MAKE_VERSION(1, 0x3ff, 0xfff));
    expect(request).toBe(`3,1,${requestSize}`); // XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST
  });

  const failures: [string, RegExp][] = [
    ['kl_test_runtime_error_result', /returned -6 instead of XR_SUCCESS/],
    ['kl_test_runtime_bad_interface_version', /runtime interface version 2 is outside \[1, 1\]/],
    ['kl_test_runtime_bad_api_version', /runtime API version 2\.0\.0 is outside/],
    ['kl_test_runtime_null_get_instance_proc_addr', /getInstanceProcAddr is null/],
    ['kl_test_runtime_bad_struct_size', /structSize changed to/],
    ['kl_test_runtime_bad_struct_type', /structType changed to 2/],
    ['kl_test_runtime_bad_struct_version', /structVersion changed to 8/],
  ];
  for (const [target, reason] of failures) {
    it(`XR-RN-2: a runtime is rejected with a logged reason (${target.replace('kl_test_runtime_', '')})`, async () => {
      const log = captureLog();
      const error = expectXrError(() => createInstanceFromPlan(testPlan([], target), { applicationName: 'rn2' }), 'XR_ERROR_RUNTIME_UNAVAILABLE');
      expect(error.resultValue).toBe(-51);
      expect(error.message).toMatch(reason);
      expect(error.message).toContain(`lib${target}.so`);
      await log.settle();
      expect(log.records.some((r) => r.source === 'openxr.negotiate' && r.level === 'error' && reason.test(r.message))).toBe(true);
    });
  }

  it('XR-RN-2: a runtime library that does not exist or lacks the negotiate symbol is rejected', () => {
    const missing = { ...testPlan(), runtime: { ...testPlan().runtime, libraryPath: '/nonexistent/libnothing.so' } };
    expect(expectXrError(() => createInstanceFromPlan(missing, { applicationName: 'x' }), 'XR_ERROR_RUNTIME_UNAVAILABLE').message).toMatch(
      /cannot load the library/,
    );
    const renamed = { ...testPlan(), runtime: { ...testPlan().runtime, negotiateFunctionName: 'notThere' } };
    expect(expectXrError(() => createInstanceFromPlan(renamed, { applicationName: 'x' }), 'XR_ERROR_RUNTIME_UNAVAILABLE').message).toMatch(
      /does not export notThere/,
    );
  });

  it('XR-RN-3: the runtime is never asked for xrEnumerateApiLayerProperties nor for a layer\'s extensions', () => {
    const trace = freshTrace();
    const instance = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_intercept']), {
      applicationName: 'rn3',
      enabledApiLayerNames: ['XR_APILAYER_KLTEST_intercept'],
    });
    instance.getProperties();
    instance.destroy();
    const lines = trace();
    expect(lines).not.toContain('runtime:xrEnumerateApiLayerProperties');
    const enumerations = lines.filter((l) => l.startsWith('runtime:xrEnumerateInstanceExtensionProperties:'));
    expect(enumerations.length).toBeGreaterThan(0);
    expect(enumerations.every((l) => l.endsWith(':(null)'))).toBe(true);
  });
});

describe('API layer negotiation', () => {
  it('XR-LN-1: the loader info and request header reach the layer, with the layer name', () => {
    const trace = freshTrace();
    createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_passthrough_0']), { applicationName: 'ln1' }).destroy();
    const line = trace().find((l) => l.startsWith('layer:XR_APILAYER_KLTEST_passthrough_0:loaderInfo:'));
    expect(line).toBeDefined();
    const parts = line!.split(':');
    const [infoSize, requestSize] = parts[7]!.split(',');
    expect(parts[3]!.split(',').slice(0, 5)).toEqual(['1', '1', infoSize, '1', '1']);
    expect(parts[5]).toBe(`2,1,${requestSize}`); // XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST
    expect(trace()).not.toContain('layer:XR_APILAYER_KLTEST_passthrough_0:negotiate-rejects-loader');
  });

  it('XR-LN-1: a negotiate function renamed in the manifest\'s "functions" is looked up by that name', () => {
    const plan = testPlan(['XR_APILAYER_KLTEST_renamed']);
    expect(plan.apiLayers[0]!.negotiateFunctionName).toBe('klTestRenamedNegotiate');
    const instance = createInstanceFromPlan(plan, { applicationName: 'ln1' });
    expect(instance.apiLayerNames).toEqual(['XR_APILAYER_KLTEST_renamed']);
    instance.destroy();
  });

  const failures: [string, RegExp][] = [
    ['neg_error_result', /returned -6 instead of XR_SUCCESS/],
    ['neg_bad_interface_version', /layer interface version 2 is outside \[1, 1\]/],
    ['neg_bad_api_version', /layer API version 2\.0\.0 is outside/],
    ['neg_null_get_instance_proc_addr', /getInstanceProcAddr is null/],
    ['neg_null_create_api_layer_instance', /createApiLayerInstance is null/],
    ['neg_bad_struct_size', /structSize changed to/],
    ['neg_bad_struct_type', /structType changed to 3/],
    ['neg_bad_struct_version', /structVersion changed to 4/],
  ];
  for (const [suffix, reason] of failures) {
    const name = `XR_APILAYER_KLTEST_${suffix}`;
    it(`XR-LN-1: a layer failing negotiation (${suffix}) fails the instance when requested, and is left out when implicit`, async () => {
      const log = captureLog();
      const trace = freshTrace();
      const error = expectXrError(
        () => createInstanceFromPlan(testPlan([name]), { applicationName: 'ln1', enabledApiLayerNames: [name] }),
        'XR_ERROR_API_LAYER_NOT_PRESENT',
      );
      expect(error.message).toContain(name);
      expect(error.message).toMatch(reason);
      expect(trace().some((l) => l.startsWith('runtime:xrCreateInstance'))).toBe(false);

      const implicitPlan = { ...testPlan(['XR_APILAYER_KLTEST_intercept']), apiLayers: [plannedLayer(name, 'implicit'), plannedLayer('XR_APILAYER_KLTEST_intercept')] };
      const instance = createInstanceFromPlan(implicitPlan, { applicationName: 'ln1-implicit' });
      expect(instance.apiLayerNames).toEqual(['XR_APILAYER_KLTEST_intercept']);
      instance.destroy();
      await log.settle();
      expect(log.records.some((r) => r.source === 'openxr.negotiate' && r.level === 'error' && r.message.includes(name))).toBe(true);
      expect(log.records.some((r) => r.source === 'openxr.negotiate' && r.level === 'warn' && r.message.includes(name))).toBe(true);
    });
  }
});
