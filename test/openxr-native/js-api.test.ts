// The JavaScript surface: loader.createInstance, Instance, errors, function pointers, debug-utils
// messages (NODE-2, NODE-6, XR-CI-12 and the createLoader integration).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushLoaderLog } from '../../lib/core/native/load.js';
import { until } from '../helpers/until.js';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { createInstanceFromPlan } from '../../lib/openxr/api/instance.js';
import { createLoader } from '../../lib/openxr/loader.js';
import type { NativeDebugUtilsMessage } from '../../lib/openxr/native/addon.js';
import { freshTrace, layerDir, runtimeManifest, testPlan } from './helpers.js';
import { openXrErrorFrom } from '../helpers/errors.js';

const saved = { ...process.env };
beforeEach(() => {
  process.env.XR_RUNTIME_JSON = runtimeManifest();
  process.env.XR_API_LAYER_PATH = layerDir;
  delete process.env.XR_ENABLE_API_LAYERS;
});
afterEach(() => {
  for (const k of ['XR_RUNTIME_JSON', 'XR_API_LAYER_PATH', 'KL_TEST_TRACE', 'XR_ENABLE_API_LAYERS']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});


describe('loader.createInstance', () => {
  it('XR-CI-4: createLoader().createInstance builds the planned chain over the discovered runtime', () => {
    const trace = freshTrace();
    const loader = createLoader();
    const instance = loader.createInstance({
      applicationName: 'js-api',
      enabledApiLayerNames: ['XR_APILAYER_KLTEST_intercept'],
      enabledExtensionNames: ['XR_MND_headless'],
    });
    expect(instance.apiLayerNames).toEqual(['XR_APILAYER_KLTEST_intercept']);
    expect(instance.getProperties().runtimeName).toBe('khronos-loader test runtime');
    instance.destroy();
    expect(trace()).toContain('runtime:xrCreateInstance:js-api:XR_MND_headless');
  });

  it('XR-CI-4: a session destroyed with its spaces still alive: the runtime destroys them with it (child handles, as the spec has it; the test runtime leaked them), at session.destroy() and at instance.destroy(), and the JavaScript objects say so', () => {
    const trace = freshTrace();
    const instance = createLoader().createInstance({ applicationName: 'children', enabledExtensionNames: ['XR_MND_headless'] });
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const spaces = [session.createReferenceSpace('local'), session.createReferenceSpace('view')];
    const destroyedWithSession = () => trace().filter((l) => l === 'runtime:xrDestroySession:destroys a space').length;
    session.destroy();
    expect(destroyedWithSession()).toBe(2);
    const second = instance.createSession(instance.getSystem(), { headless: true });
    spaces.push(second.createReferenceSpace('stage'));
    instance.destroy();
    expect(destroyedWithSession()).toBe(3);
    expect([second.isDestroyed, ...spaces.map((s) => s.isDestroyed)]).toEqual([true, true, true, true]);
  });

  it('XR-CI-9: the runtime\'s own extension list fills enumerateInstanceExtensionProperties()', () => {
    const names = createLoader().enumerateInstanceExtensionProperties().map((e) => e.name);
    expect(names).toContain('XR_MND_headless');
    expect(names).toContain('XR_KHR_composition_layer_depth');
    expect(names).toContain('XR_EXT_debug_utils');
  });

  it('NODE-2: failures carry the XrResult name, code and a readable message', () => {
    const loader = createLoader();
    const missingExt = openXrErrorFrom(() => loader.createInstance({ applicationName: 'x', enabledExtensionNames: ['XR_KHR_not_there'] }));
    expect([missingExt.result, missingExt.resultValue]).toEqual(['XR_ERROR_EXTENSION_NOT_PRESENT', -9]);
    const emptyName = openXrErrorFrom(() => loader.createInstance({ applicationName: '' }));
    expect([emptyName.result, emptyName.resultValue]).toEqual(['XR_ERROR_NAME_INVALID', -45]);
    expect(emptyName.message).toMatch(/runtime's xrCreateInstance returned -45/);
    const missingLayer = openXrErrorFrom(() => loader.createInstance({ applicationName: 'x', enabledApiLayerNames: ['XR_APILAYER_nope'] }));
    expect(missingLayer.result).toBe('XR_ERROR_API_LAYER_NOT_PRESENT');
  });

  it('NODE-1: use after destroy throws XR_ERROR_HANDLE_INVALID and never crashes; destroy() again does nothing', () => {
    const instance = createInstanceFromPlan(testPlan(), { applicationName: 'x' });
    instance.destroy();
    expect(instance.isDestroyed).toBe(true);
    instance.destroy();
    expect(instance.isDestroyed).toBe(true);
    for (const f of [() => instance.getProperties(), () => instance.getInstanceProcAddr('xrGetSystem'), () => instance.handle]) {
      const e = openXrErrorFrom(f);
      expect([e.result, e.resultValue]).toEqual(['XR_ERROR_HANDLE_INVALID', -12]);
    }
  });

  it('NODE-6: any command\'s function pointer is available as a BigInt', () => {
    const instance = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_passthrough_0']), { applicationName: 'x' });
    for (const name of ['xrGetSystem', 'xrLocateSpace', 'xrCreateSession', 'xrGetInstanceProcAddr', 'xrDestroyInstance']) {
      const p = instance.getInstanceProcAddr(name);
      expect(typeof p).toBe('bigint');
      expect(p).toBeGreaterThan(0n);
    }
    expect(openXrErrorFrom(() => instance.getInstanceProcAddr('xrNoSuchCommand')).result).toBe('XR_ERROR_FUNCTION_UNSUPPORTED');
    instance.destroy();
  });
});

describe('XR_EXT_debug_utils in the loader', () => {
  it('XR-CI-12: messengers chained into XrInstanceCreateInfo.next receive the loader\'s messages; JavaScript gets them as log events too', async () => {
    const records: LogRecord[] = [];
    const listener = (r: LogRecord): void => void records.push(r);
    loaderLog.on('record', listener);
    const messages: NativeDebugUtilsMessage[] = [];
    const plan = testPlan(['XR_APILAYER_KLTEST_intercept']);
    const instance = createInstanceFromPlan(plan, {
      applicationName: 'du',
      enabledExtensionNames: ['XR_EXT_debug_utils'],
      onDebugMessage: (m) => messages.push(m),
    });
    instance.destroy();
    await until('the loader\'s creation messages', () => messages.some((m) => m.message.startsWith('using API layer')));
    await flushLoaderLog();
    loaderLog.off('record', listener);
    const texts = messages.map((m) => m.message);
    expect(texts).toContain(`using runtime ${plan.runtime.libraryPath}`);
    expect(texts).toContain('using API layer XR_APILAYER_KLTEST_intercept');
    expect(messages.every((m) => m.messageId === 'khronos-loader' && m.functionName === 'xrCreateInstance')).toBe(true);
    for (const t of texts) expect(records.some((r) => r.message === t)).toBe(true);
  });

  it('XR-CI-12: a rejection during creation reaches the chained messenger as an error', () => {
    const messages: NativeDebugUtilsMessage[] = [];
    expect(() =>
      createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_neg_bad_api_version']), {
        applicationName: 'du',
        enabledExtensionNames: ['XR_EXT_debug_utils'],
        onDebugMessage: (m) => messages.push(m),
      }),
    ).toThrow(OpenXrError);
    const error = messages.find((m) => m.message.includes('XR_APILAYER_KLTEST_neg_bad_api_version'));
    expect(error?.severity).toBe(0x1000); // XR_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
  });

  it('XR-CI-12: XR_EXT_debug_utils is offered even when the runtime lacks it, and is not passed to such a runtime', () => {
    const trace = freshTrace();
    const instance = createInstanceFromPlan(testPlan(), { applicationName: 'du', enabledExtensionNames: ['XR_EXT_debug_utils', 'XR_MND_headless'] });
    expect(trace()).toContain('runtime:xrCreateInstance:du:XR_MND_headless');
    // The loader implements the messenger commands at the bottom of the chain.
    expect(instance.getInstanceProcAddr('xrCreateDebugUtilsMessengerEXT')).toBeGreaterThan(0n);
    expect(instance.getInstanceProcAddr('xrSubmitDebugUtilsMessageEXT')).toBeGreaterThan(0n);
    instance.destroy();
  });

  it('XR-CI-12: without XR_EXT_debug_utils enabled its functions are not handed out (XR_ERROR_FUNCTION_UNSUPPORTED)', () => {
    const instance = createInstanceFromPlan(testPlan(), { applicationName: 'du', enabledExtensionNames: ['XR_MND_headless'] });
    try {
      for (const name of ['xrCreateDebugUtilsMessengerEXT', 'xrSubmitDebugUtilsMessageEXT', 'xrSetDebugUtilsObjectNameEXT']) {
        expect(() => instance.getInstanceProcAddr(name)).toThrow(expect.objectContaining({ result: 'XR_ERROR_FUNCTION_UNSUPPORTED' }));
      }
      // Core commands are unaffected.
      expect(instance.getInstanceProcAddr('xrLocateSpace')).toBeGreaterThan(0n);
    } finally {
      instance.destroy();
    }
  });

  it('XR-CI-12: a runtime with XR_EXT_debug_utils gets it enabled and the calls go on to it', async () => {
    const trace = freshTrace();
    const instance = createInstanceFromPlan(testPlan([], 'kl_test_runtime_debug_utils'), {
      applicationName: 'du',
      enabledExtensionNames: ['XR_EXT_debug_utils'],
    });
    expect(trace()).toContain('runtime:xrCreateInstance:du:XR_EXT_debug_utils');
    const messages: NativeDebugUtilsMessage[] = [];
    const messenger = instance.createDebugUtilsMessenger((m) => messages.push(m));
    instance.submitDebugUtilsMessage(0x1000, 1, 'from the application');
    expect(trace()).toContain('runtime:xrCreateDebugUtilsMessengerEXT');
    expect(trace()).toContain('runtime:xrSubmitDebugUtilsMessageEXT:from the application');
    await until('the runtime\'s message', () => messages.length >= 1);
    // Delivered by the runtime to the messenger it holds for the application.
    expect(messages.map((m) => m.message)).toEqual(['from the application']);
    messenger.destroy();
    expect(trace()).toContain('runtime:xrDestroyDebugUtilsMessengerEXT');
    instance.destroy();
  });

  it('XR-CI-12: without the runtime\'s support the loader itself creates messengers and delivers submitted messages', async () => {
    const trace = freshTrace();
    const instance = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_passthrough_0']), {
      applicationName: 'du',
      enabledExtensionNames: ['XR_EXT_debug_utils'],
    });
    const messages: NativeDebugUtilsMessage[] = [];
    const warnings: NativeDebugUtilsMessage[] = [];
    const all = instance.createDebugUtilsMessenger((m) => messages.push(m));
    const onlyWarnings = instance.createDebugUtilsMessenger((m) => warnings.push(m), { severities: 0x0100 });
    instance.submitDebugUtilsMessage(0x1000, 1, 'an error');
    instance.submitDebugUtilsMessage(0x0100, 1, 'a warning');
    await until('both submitted messages', () => messages.length >= 2 && warnings.length >= 1);
    expect(messages.map((m) => m.message)).toEqual(['an error', 'a warning']);
    expect(warnings.map((m) => m.message)).toEqual(['a warning']);
    // The runtime traced the creation (the trace is written), and no debug-utils call reached it.
    expect(trace()).toContain('runtime:xrCreateInstance:du');
    expect(trace().some((l) => l.includes('DebugUtils'))).toBe(false);
    onlyWarnings.destroy();
    // The loader's own messages reach the messengers the application created.
    instance.destroy();
    await until('the loader\'s xrDestroyInstance message', () => messages.some((m) => m.functionName === 'xrDestroyInstance'));
    expect(messages.at(-1)).toMatchObject({ messageId: 'khronos-loader', functionName: 'xrDestroyInstance', severity: 0x10 });
    expect(messages.at(-1)?.message).toMatch(/instance destroyed; unloading 1 API layer\(s\) and the runtime/);
    expect(() => all.destroy()).not.toThrow();
  });
});
