// Shared by the typed-API tests: an instance over the simulated runtime (optionally with the
// bundled pass-through layers), through createLoader with its own environment copy.
import { createHostPlatform } from '../../lib/core/platform/host.js';
import { createPassthroughLayers, type PassthroughLayerSet } from '../../lib/openxr/bundled-layers.js';
import { createLoader } from '../../lib/openxr/loader.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import type { Session } from '../../lib/openxr/api/session.js';

export interface TestInstance {
  readonly instance: Instance;
  readonly layers: PassthroughLayerSet | undefined;
  dispose(): void;
}

export function createTestInstance(options: { passthroughLayers?: number; headless?: boolean; extensions?: readonly string[] } = {}): TestInstance {
  const layers = options.passthroughLayers ? createPassthroughLayers(options.passthroughLayers) : undefined;
  const env = { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: layers?.folder ?? '' };
  // This process's platform (Windows under wine in test:platforms), configured through its own
  // environment copy: never elevated, since wine runs every process elevated and the elevated
  // rules (which ignore XR_RUNTIME_JSON) are discovery's tests, not these.
  const loader = createLoader({ platform: createHostPlatform({ env, elevated: false }), runtimeExtensions: nativeRuntimeExtensions });
  const instance = loader.createInstance({
    applicationName: 'openxr-api test',
    enabledApiLayerNames: layers?.names ?? [],
    enabledExtensionNames: options.extensions ?? (options.headless === false ? [] : ['XR_MND_headless']),
  });
  return {
    instance,
    layers,
    dispose() {
      if (!instance.isDestroyed) instance.destroy();
      layers?.dispose();
    },
  };
}

/** Polls events until the session reaches `state` (frames run meanwhile when it is running). */
export async function runUntil(session: Session, predicate: () => boolean, maxFrames = 200): Promise<void> {
  for (let i = 0; i < maxFrames && !predicate(); i++) {
    session.instance.pollEvents();
    if (predicate()) return;
    if (session.state === 'ready' && !session.isRunning) session.beginSession();
    if (!session.isRunning) continue;
    await session.waitFrame();
    session.beginFrame();
    session.endFrame();
  }
  session.instance.pollEvents();
  if (!predicate()) throw new Error(`condition not reached within ${maxFrames} frames (state ${session.state})`);
}
