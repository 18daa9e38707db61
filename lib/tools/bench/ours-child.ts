// This package's side of a benchmark row, in a child process shaped like the Khronos side's:
// `node [--import tsx] ours-child.(ts|js) '<request JSON>'`. It builds the row's chain through
// discovery and policy (from the request's environment, not its own), times the command through
// the exported trampoline and through the xrGetInstanceProcAddr pointer with the same native loop
// as the other side, and, when asked, with a second instance live and from JavaScript.
import type { Instance } from '../../openxr/api/instance.js';
import { runChildMain } from './child-process.js';
import type { OursChildRequest, OursChildResult } from './child-protocol.js';
import { measureEmptyNapiCall, measureJsLocateSpace } from './measure-js.js';
import { measureNative, measureNativePair } from './measure-native.js';
import { measurePerCall } from './measure-per-call.js';
import { createBenchInstance, createOurScenario } from './openxr-scenario.js';

const NO_LAYERS = { label: 'other', passthrough: 0, realLayers: [] } as const;

function withInstance<T>(request: OursChildRequest, config: OursChildRequest['config'], f: (instance: Instance) => T, optionalExtensions: readonly string[] = []): T {
  const instance = createBenchInstance(request.env, config, optionalExtensions);
  try {
    return f(instance);
  } finally {
    instance.destroy();
  }
}

function trampolineAndPointer(request: OursChildRequest, instance: Instance) {
  const scenario = createOurScenario(instance, request.command);
  try {
    return { ...measureNativePair(scenario, request.plan), pointerOrigin: scenario.pointerOrigin };
  } finally {
    scenario.destroy();
  }
}

function trampolineOnly(request: OursChildRequest, instance: Instance) {
  const scenario = createOurScenario(instance, request.command);
  try {
    return measureNative(scenario, 'trampoline', request.plan);
  } finally {
    scenario.destroy();
  }
}

function attempt<T>(f: () => T): T | { error: string } {
  try {
    return f();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function run(request: OursChildRequest): OursChildResult {
  const { apiLayerNames, trampoline, pointer, pointerOrigin } = withInstance(request, request.config, (instance) => ({
    apiLayerNames: [...instance.apiLayerNames],
    ...trampolineAndPointer(request, instance),
  }));
  const result: { -readonly [K in keyof Extract<OursChildResult, { ok: true }>]: Extract<OursChildResult, { ok: true }>[K] } = {
    ok: true,
    apiLayerNames,
    trampoline,
    pointer,
    pointerOrigin,
  };
  if (request.severalLive) {
    // The other instance is live while this one is timed: the trampolines find the table by handle.
    result.severalLive = attempt(() =>
      withInstance(request, NO_LAYERS, () => withInstance(request, request.config, (instance) => trampolineOnly(request, instance))),
    );
  }
  if (request.js) {
    result.emptyNapiCall = measureEmptyNapiCall(request.plan);
    result.js = attempt(() => withInstance(request, request.config, (instance) => measureJsLocateSpace(instance, 1_000_000_000, request.plan)));
    result.perCall = attempt(() => withInstance(request, request.config, (instance) => measurePerCall(instance), ['XR_EXT_hand_tracking']));
  }
  return result;
}

runChildMain<OursChildRequest, OursChildResult>(run, (error) => ({ ok: false, error: `ours-child: ${error}` }));
