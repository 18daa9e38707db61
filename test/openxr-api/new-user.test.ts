// What a new user hits first (NODE-1, NODE-2): destroy() twice, error messages, createInstance()
// without options, names longer than XrApplicationInfo holds. Over the simulated runtime.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader, type OpenXrLoader } from '../../lib/openxr/loader.js';
import { SIMULATED_RUNTIME_LIBRARY, simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { openXrErrorFrom } from '../helpers/errors.js';
import { createTestInstance, type TestInstance } from './helpers.js';

let current: TestInstance | undefined;
afterEach(() => {
  current?.dispose();
  current = undefined;
});

function loader(): OpenXrLoader {
  return createLoader({ platform: createLinuxPlatform({ env: { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: '' } }) });
}

function runtimeMapped(): boolean {
  return readFileSync('/proc/self/maps', 'utf8').includes(SIMULATED_RUNTIME_LIBRARY);
}

function occurrences(text: string, word: string): number {
  return text.split(word).length - 1;
}

describe('destroy() twice', () => {
  it('NODE-1: a second destroy() of an instance, session, space, action set, action or messenger does nothing; other calls still throw XR_ERROR_HANDLE_INVALID', () => {
    current = createTestInstance({ passthroughLayers: 1 });
    const { instance } = current;
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const set = instance.createActionSet({ name: 'set', localizedName: 'Set' });
    const action = set.createAction({ name: 'select', localizedName: 'Select', type: 'boolean' });

    for (const handle of [local, action, set, session]) {
      handle.destroy();
      expect(handle.isDestroyed).toBe(true);
      expect(() => handle.destroy()).not.toThrow();
      expect(openXrErrorFrom(() => handle.handle).result).toBe('XR_ERROR_HANDLE_INVALID');
    }
    // Children of a destroyed parent: destroy() does nothing either.
    const session2 = instance.createSession(instance.getSystem(), { headless: true });
    const view = session2.createReferenceSpace('view');
    instance.destroy();
    expect(instance.isDestroyed).toBe(true);
    for (const handle of [view, session2, instance]) {
      expect(() => handle.destroy()).not.toThrow();
      expect(handle.isDestroyed).toBe(true);
    }
    expect(openXrErrorFrom(() => instance.getProperties()).result).toBe('XR_ERROR_HANDLE_INVALID');
  });
});

describe('error messages', () => {
  it('NODE-2: a message names its XrResult once', () => {
    current = createTestInstance();
    const { instance } = current;
    const session = instance.createSession(instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    session.destroy();
    const spaceError = openXrErrorFrom(() => local.handle);
    instance.destroy();
    const instanceError = openXrErrorFrom(() => instance.getProperties());
    expect(instanceError.message).toBe('XR_ERROR_HANDLE_INVALID: the OpenXR instance has been destroyed');
    for (const e of [spaceError, instanceError, openXrErrorFrom(() => instance.handle)]) {
      expect(occurrences(e.message, 'XR_ERROR_HANDLE_INVALID'), e.message).toBe(1);
    }
  });
});

describe('createInstance() options', () => {
  it('createInstance() without options, or without an applicationName string, throws a TypeError saying applicationName is required', () => {
    const l = loader();
    const create = l.createInstance.bind(l) as (options?: unknown) => unknown;
    for (const options of [undefined, null, 'app', {}, { applicationName: 7 }, { applicationName: null }]) {
      expect(() => create(options), JSON.stringify(options)).toThrow(TypeError);
      expect(() => create(options)).toThrow(/applicationName/);
    }
    expect(runtimeMapped()).toBe(false);
  });
});

describe('names longer than XrApplicationInfo holds', () => {
  it('an applicationName or engineName over 127 UTF-8 bytes, or with a NUL, fails with XR_ERROR_NAME_INVALID before the runtime loads; 127 bytes work', () => {
    const l = loader();
    const euro = '\u20ac'; // 3 bytes in UTF-8
    const refused = [
      { applicationName: 'a'.repeat(128) },
      { applicationName: euro.repeat(43) }, // 43 characters, 129 bytes
      { applicationName: 'app', engineName: 'e'.repeat(128) },
      { applicationName: 'app\0hidden' },
    ];
    for (const options of refused) {
      const e = openXrErrorFrom(() => l.createInstance({ ...options, enabledExtensionNames: ['XR_MND_headless'] }));
      expect([e.result, e.resultValue]).toEqual(['XR_ERROR_NAME_INVALID', -45]);
      expect(e.message).toMatch(options.engineName ? /engineName/ : /applicationName/);
      expect(occurrences(e.message, 'XR_ERROR_NAME_INVALID')).toBe(1);
      expect(runtimeMapped()).toBe(false);
    }
    expect(openXrErrorFrom(() => l.createInstance({ applicationName: 'a'.repeat(128) })).message).toMatch(/128 bytes .* at most 127 \(XR_MAX_APPLICATION_NAME_SIZE - 1\)/);
    for (const options of [{ applicationName: 'a'.repeat(127), engineName: 'e'.repeat(127) }, { applicationName: euro.repeat(42) }]) {
      const instance = l.createInstance({ ...options, enabledExtensionNames: ['XR_MND_headless'] });
      expect(instance.isDestroyed).toBe(false);
      instance.destroy();
    }
  });
});
