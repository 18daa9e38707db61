// createLoader({ runtime }) for real: two loaders in one process, each on the runtime it chose
// (the bundled simulated runtime by path, the project's test runtime by its listed name), both
// instances alive at once, each reaching its own runtime; the environment is never touched.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { listRuntimes } from '../../lib/openxr/discovery/runtime-list.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { openXrErrorFrom } from '../helpers/errors.js';
import { freshTrace, runtimeManifest } from './helpers.js';

let home = '';
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'kl-runtime-choice-'));
});
afterEach(() => {
  delete process.env.KL_TEST_TRACE;
  rmSync(home, { recursive: true, force: true });
});

const quiet = { logWriter: () => {} };

describe('two loaders, two runtimes, one process', () => {
  it('NODE-5: the simulated runtime (by path) and the test runtime (by name) each serve their own instance, side by side', () => {
    // The test runtime is installed for this user only; XR_RUNTIME_JSON names nothing usable.
    const folder = path.join(home, 'config/openxr/1');
    mkdirSync(folder, { recursive: true });
    copyFileSync(runtimeManifest(), path.join(folder, 'kl_test_runtime.json'));
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_CONFIG_DIRS: path.join(home, 'none'),
      XDG_DATA_HOME: path.join(home, 'none'),
      XDG_DATA_DIRS: path.join(home, 'none'),
      XR_RUNTIME_JSON: path.join(home, 'no-such-runtime.json'),
    };
    const platform = createLinuxPlatform({ env });
    expect(listRuntimes({ platform, ...quiet }).map((r) => r.name)).toEqual(['no-such-runtime', 'kl_test_runtime']);
    const trace = freshTrace();
    const processEnvBefore = { ...process.env };

    const simulated = createLoader({ platform, runtime: simulatedRuntime(), ...quiet });
    const test = createLoader({ platform, runtime: 'kl_test_runtime', ...quiet });
    const a = simulated.createInstance({ applicationName: 'choice-simulated', enabledExtensionNames: ['XR_MND_headless'] });
    const b = test.createInstance({ applicationName: 'choice-test', enabledExtensionNames: ['XR_MND_headless'] });
    try {
      expect(a.getProperties().runtimeName).toMatch(/simulated/i);
      expect(b.getProperties().runtimeName).toBe('khronos-loader test runtime');
      expect(a.getSystem('head-mounted-display').getProperties().systemName).toBe('khronos-loader simulated HMD');
      // Calls on the first instance after the second exists still reach the first runtime.
      expect(a.getProperties().runtimeName).toMatch(/simulated/i);
      // Only the test runtime saw the test loader's instance; the simulated one never reached it.
      expect(trace().filter((l) => l.startsWith('runtime:xrCreateInstance:'))).toEqual(['runtime:xrCreateInstance:choice-test:XR_MND_headless']);
      // Two xrGetInstanceProperties on the simulated loader's instance, one here: only this one reached the test runtime.
      expect(trace().filter((l) => l === 'runtime:xrGetInstanceProperties')).toHaveLength(1);
    } finally {
      b.destroy();
      a.destroy();
    }
    expect(process.env).toEqual(processEnvBefore);
    // A loader that chose nothing gets the environment's runtime, which here is unusable.
    expect(openXrErrorFrom(() => createLoader({ platform, ...quiet }).planInstance()).result).toBe('XR_ERROR_RUNTIME_UNAVAILABLE');
  });
});
