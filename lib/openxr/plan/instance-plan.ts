// planInstance(): what the native side needs to create an instance, decided from one discovery
// result: the runtime, the enabled API layers in order (application side first), the requested
// extensions and who provides each, and why. Pure: it reads nothing but its arguments (and asks
// the provider it is given; XR-CI-1, XR-CI-2), and throws the exact XrResult error when the request cannot be met.
import { OpenXrError } from '../errors.js';
import type { DiscoveryResult } from '../discovery/discover.js';
import { checkRequestedExtensions } from '../discovery/extensions.js';
import { resolveEnabledLayers } from '../discovery/layer-policy.js';
import type { ExtensionProperty } from '../discovery/manifest.js';
import type { DiscoveredRuntime } from '../discovery/runtime-discovery.js';
import type { InstancePlan } from './plan.js';
import { NO_LAYER_POLICY, type LayerPolicy } from '../../core/loader-policy.js';

/** Answers the runtime's own instance extensions (the native side loads the runtime to ask it). */
export type RuntimeExtensionProvider = (runtime: DiscoveredRuntime) => readonly ExtensionProperty[];

export interface PlanInstanceRequest {
  readonly enabledApiLayerNames?: readonly string[];
  readonly enabledExtensionNames?: readonly string[];
  /** The runtime's extension list when already known (else the loader's provider is asked, if any). */
  readonly runtimeExtensions?: readonly ExtensionProperty[];
}

/** The active runtime of a discovery result, or XR_ERROR_RUNTIME_UNAVAILABLE saying why there is none. */
export function requireRuntime(d: DiscoveryResult): DiscoveredRuntime {
  if (!d.runtime) throw new OpenXrError('XR_ERROR_RUNTIME_UNAVAILABLE', d.runtimeUnavailableReason ?? 'no active runtime');
  if (d.runtime.libraryExists === false) {
    throw new OpenXrError('XR_ERROR_RUNTIME_UNAVAILABLE', `the runtime library ${d.runtime.libraryPath} (from ${d.runtime.manifestPath}) does not exist`);
  }
  return d.runtime;
}

/**
 * The instance plan for `request` from `d` (discovered for xrCreateInstance). The runtime's
 * extension list comes from the request, else from `provider` when given, else it is left
 * to the runtime to check.
 */
export function planInstance(d: DiscoveryResult, request: PlanInstanceRequest = {}, provider?: RuntimeExtensionProvider, policy: LayerPolicy = NO_LAYER_POLICY): InstancePlan {
  const decisions: string[] = [];
  const runtime = requireRuntime(d);
  decisions.push(`runtime ${runtime.manifestPath}: ${runtime.reason}`);
  for (const l of d.policyDisabled ?? []) decisions.push(`layer ${l.name} (${l.kind}, ${l.manifestPath}) not loaded: ${l.reason}`);
  const enabled = resolveEnabledLayers(d.apiLayers, d.enableApiLayers, request.enabledApiLayerNames ?? [], policy, (m) => decisions.push(m));
  for (const e of enabled) decisions.push(`layer ${e.layer.name} (${e.layer.kind}, ${e.layer.manifestPath}): ${e.reason}`);
  const runtimeExtensions = request.runtimeExtensions ?? (provider ? provider(runtime) : undefined);
  const requestedExtensions = request.enabledExtensionNames ?? [];
  const { checks, missing } = checkRequestedExtensions(
    requestedExtensions,
    enabled.map((e) => e.layer),
    runtimeExtensions,
  );
  if (missing.length > 0) {
    throw new OpenXrError(
      'XR_ERROR_EXTENSION_NOT_PRESENT',
      `extension${missing.length > 1 ? 's' : ''} ${missing.join(', ')} provided by neither the runtime nor an enabled API layer`,
    );
  }
  for (const c of checks) {
    decisions.push(
      c.providedBy.length
        ? `extension ${c.name}: provided by ${c.providedBy.join(', ')}`
        : `extension ${c.name}: left to the runtime to check (its extension list is not known yet)`,
    );
  }
  return {
    runtime: {
      manifestPath: runtime.manifestPath,
      libraryPath: runtime.libraryPath,
      libraryPathKind: runtime.libraryPathKind,
      negotiateFunctionName: runtime.negotiateFunctionName,
      reason: runtime.reason,
      source: runtime.source,
    },
    apiLayers: enabled.map((e) => ({
      name: e.layer.name,
      kind: e.layer.kind,
      origin: e.origin,
      manifestPath: e.layer.manifestPath,
      libraryPath: e.layer.libraryPath,
      libraryPathKind: e.layer.libraryPathKind,
      negotiateFunctionName: e.layer.negotiateFunctionName,
      reason: e.reason,
    })),
    enabledExtensionNames: [...requestedExtensions],
    extensions: checks,
    decisions,
  };
}
