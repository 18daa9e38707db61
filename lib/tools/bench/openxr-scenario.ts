// One benchmark configuration's OpenXR setup through this package's loader: the runtime and the
// API layers a row asks for (copies of the bundled pass-through layer, and real layers found by
// the usual discovery), an instance with XR_MND_headless, then a native scenario for a command.
// The same configuration as environment variables for another loader (the Khronos side).
import path from 'node:path';
import { loadToolsAddon, type NativeOpenXrBenchScenario } from '../native/addon.js';
import { createLoader } from '../../openxr/loader.js';
import { discover } from '../../openxr/discovery/discover.js';
import { nativeInstanceOf, type Instance } from '../../openxr/api/instance.js';
import { nativeRuntimeExtensions } from '../../openxr/native/plan.js';
import { createHostPlatform } from '../../core/platform/host.js';
import type { BenchCommandName } from './openxr-commands.js';
import { InvalidArgumentError } from '../../core/errors.js';

/** A row of the benchmark: which layers sit between the application and the runtime. */
export interface LayerConfig {
  readonly label: string;
  /** Copies of the bundled pass-through layer (nearest the application first). */
  readonly passthrough: number;
  /** Real layers by name (found by discovery in the caller's environment). */
  readonly realLayers: readonly string[];
}

/** What every row of one run shares. */
export interface BenchEnvironment {
  /** XR_RUNTIME_JSON for both loaders. */
  readonly runtimeManifest: string;
  /** Where createPassthroughLayers wrote the copies (needed when a row has pass-through layers). */
  readonly passthroughFolder?: string;
  /** The pass-through layers' names, nearest the application first. */
  readonly passthroughNames: readonly string[];
  /** The environment the user runs with (default process.env); never modified. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
}

export function layerCount(config: LayerConfig): number {
  return config.passthrough + config.realLayers.length;
}

/** The manifest folders of real layers, found as the loader finds them; throws for a name no manifest has. */
export function realLayerFolders(names: readonly string[], baseEnv: Readonly<Record<string, string | undefined>> = process.env): string[] {
  if (names.length === 0) return [];
  const found = discover({ platform: createHostPlatform({ env: baseEnv }), logWriter: () => undefined }).apiLayers;
  return names.map((name) => {
    const layer = found.find((l) => l.name === name);
    if (!layer) {
      throw new InvalidArgumentError(`layer names must name API layers found on this machine (khronos-loader info openxr lists them), got ${name}, which was not found`, 'layers');
    }
    return path.dirname(layer.manifestPath);
  });
}

/** The layers of a row, nearest the application first: the real ones, then the pass-through copies. */
export function enabledLayerNames(env: BenchEnvironment, config: LayerConfig): string[] {
  if (config.passthrough > env.passthroughNames.length) {
    throw new InvalidArgumentError(`config.passthrough must be at most the ${env.passthroughNames.length} pass-through layers the run made, got ${config.passthrough}`, 'config.passthrough');
  }
  return [...config.realLayers, ...env.passthroughNames.slice(0, config.passthrough)];
}

/**
 * The environment variables that make a loader (this one or Khronos's) build the row's chain:
 * XR_RUNTIME_JSON, XR_API_LAYER_PATH (the pass-through folder and the real layers' folders) and
 * XR_ENABLE_API_LAYERS, over the base environment.
 */
export function configEnvironment(env: BenchEnvironment, config: LayerConfig): Record<string, string> {
  const base = env.baseEnv ?? process.env;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) out[k] = v;
  out.XR_RUNTIME_JSON = env.runtimeManifest;
  const folders = [
    ...(config.passthrough > 0 && env.passthroughFolder !== undefined ? [env.passthroughFolder] : []),
    ...realLayerFolders(config.realLayers, base),
  ];
  if (folders.length > 0) out.XR_API_LAYER_PATH = [...new Set(folders)].join(':');
  const names = enabledLayerNames(env, config);
  if (names.length > 0) out.XR_ENABLE_API_LAYERS = names.join(':');
  else delete out.XR_ENABLE_API_LAYERS;
  return out;
}

/**
 * An instance of this package's loader for the row (XR_MND_headless, API 1.0), with those of
 * `optionalExtensions` the runtime offers (the per-call reads enable XR_EXT_hand_tracking where
 * there is one, so handTracker.locate is timed).
 */
export function createBenchInstance(env: BenchEnvironment, config: LayerConfig, optionalExtensions: readonly string[] = []): Instance {
  const loader = createLoader({
    platform: createHostPlatform({ env: configEnvironment(env, config) }),
    runtimeExtensions: nativeRuntimeExtensions,
    logWriter: (text) => process.stderr.write(text),
  });
  const offered = optionalExtensions.length === 0 ? [] : loader.enumerateInstanceExtensionProperties().map((e) => e.name);
  const optional = optionalExtensions.filter((name) => offered.includes(name));
  return loader.createInstance({ applicationName: 'khronos-loader bench', enabledExtensionNames: ['XR_MND_headless', ...optional] });
}

/**
 * The native scenario for `command` on `instance` (a headless session and what the command
 * needs). Action commands need an instance whose session has not attached action sets yet.
 */
export function createOurScenario(instance: Instance, command: BenchCommandName): NativeOpenXrBenchScenario {
  return new (loadToolsAddon().OpenXrBenchScenario)({ command, instance: nativeInstanceOf(instance) });
}
