// The bundled pass-through layer (native/bundled/layers/passthrough_layer.cc) in real chains: stacked
// copies forward every call unchanged, and with several instances live each call still finds
// its own instance's next entity (the layer's handle map).
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPassthroughLayers, PASSTHROUGH_LAYER_PREFIX } from '../../lib/openxr/bundled-layers.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { POSE_FLOATS } from '../../lib/openxr/index.js';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import { testNativeDir } from '../helpers/paths.js';

const layers = createPassthroughLayers(3);
afterAll(() => layers.dispose());

/**
 * A second, different runtime: the project's test runtime (test/native), whose reference spaces
 * have fixed poses and whose handles mean nothing to the simulated runtime.
 */
const testRuntime = path.join(testNativeDir, 'openxr_test_runtime/kl_test_runtime.json');

function loaderWithLayers(runtimeManifest = simulatedRuntime()) {
  const env: Record<string, string | undefined> = { ...process.env, XR_RUNTIME_JSON: runtimeManifest, XR_API_LAYER_PATH: layers.folder };
  delete env.XR_ENABLE_API_LAYERS;
  return createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions, logWriter: () => {} });
}

/** A headless session with LOCAL and VIEW spaces; `at(time)` locates the head. */
function headTracker(instance: Instance) {
  const session = instance.createSession(instance.getSystem('head-mounted-display'), { headless: true });
  const local = session.createReferenceSpace('local');
  const view = session.createReferenceSpace('view');
  const out = new Float32Array(POSE_FLOATS);
  return {
    at(time: number): number[] {
      expect(view.locate(local, time, out)).toBeGreaterThan(0);
      return Array.from(out);
    },
  };
}

describe('the bundled pass-through layer', () => {
  it('XR-CI-11: three stacked copies are enabled in order and forward calls unchanged', () => {
    const loader = loaderWithLayers();
    expect(loader.enumerateApiLayerProperties().map((l) => l.layerName)).toEqual(layers.names);
    const options = { applicationName: 'passthrough test', enabledExtensionNames: ['XR_MND_headless'] };
    const plain = loader.createInstance(options);
    const layered = loader.createInstance({ ...options, enabledApiLayerNames: layers.names });
    try {
      expect(layered.apiLayerNames).toEqual([`${PASSTHROUGH_LAYER_PREFIX}_1`, `${PASSTHROUGH_LAYER_PREFIX}_2`, `${PASSTHROUGH_LAYER_PREFIX}_3`]);
      const time = 7_000_000_000;
      // The scripted head motion is a pure function of time: same answer with and without layers.
      expect(headTracker(layered).at(time)).toEqual(headTracker(plain).at(time));
    } finally {
      layered.destroy();
      plain.destroy();
    }
  });

  it('XR-CI-11: with two layered instances live, calls on either instance\'s handles reach its chain', () => {
    // Two distinguishable chains through the same layer libraries: one instance on the simulated
    // runtime, one on the test runtime. A call routed down the other instance's chain would meet a
    // runtime that does not know its handles, or answer with the other runtime's pose.
    const options = { applicationName: 'passthrough test', enabledExtensionNames: ['XR_MND_headless'], enabledApiLayerNames: layers.names };
    const time = 3_000_000_000;
    const expected = (runtime: string): number[] => {
      const plain = loaderWithLayers(runtime).createInstance({ ...options, enabledApiLayerNames: [] });
      try {
        return headTracker(plain).at(time);
      } finally {
        plain.destroy();
      }
    };
    const simulatedHead = expected(simulatedRuntime());
    const testHead = expected(testRuntime);
    expect(testHead).not.toEqual(simulatedHead);
    const first = loaderWithLayers().createInstance(options);
    const second = loaderWithLayers(testRuntime).createInstance(options);
    try {
      const firstHead = headTracker(first);
      const secondHead = headTracker(second);
      expect(firstHead.at(time)).toEqual(simulatedHead);
      expect(secondHead.at(time)).toEqual(testHead);
      expect(firstHead.at(time)).toEqual(simulatedHead);
      first.destroy();
      // Back to one live instance: the layer's fast path again.
      expect(secondHead.at(time)).toEqual(testHead);
    } finally {
      if (!first.isDestroyed) first.destroy();
      second.destroy();
    }
  });
});
