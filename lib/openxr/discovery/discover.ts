// discover(): everything the OpenXR loader decides before any library is loaded.
import { createHostPlatform } from '../../core/platform/host.js';
import { invalidArgument } from '../../core/errors.js';
import type { Platform } from '../../core/platform/platform.js';
import { createContext, type DiscoveryContext, type DiscoveryOptions } from './context.js';
import type { Diagnostic } from './diagnostics.js';
import { discoverApiLayers, type DiscoveredApiLayer } from './layer-discovery.js';
import { splitEnableApiLayers } from './layer-policy.js';
import { discoverRuntime, type ApplicationRuntimeChoice, type DiscoveredRuntime } from './runtime-discovery.js';

export interface DiscoveryResult {
  /** The active runtime, or null (then `runtimeUnavailableReason` says why). */
  readonly runtime: DiscoveredRuntime | null;
  readonly runtimeUnavailableReason?: string;
  /** Every usable layer: implicit first, then explicit, each in search order. */
  readonly apiLayers: readonly DiscoveredApiLayer[];
  /** XR_ENABLE_API_LAYERS, split as the loader splits it. */
  readonly enableApiLayers: readonly string[];
  /** Layers createLoader({ layers: { disable } }) took out; absent when none. */
  readonly policyDisabled?: readonly { readonly name: string; readonly kind: 'implicit' | 'explicit'; readonly manifestPath: string; readonly reason: string }[];
  readonly searched: {
    readonly runtime: readonly string[];
    readonly implicitLayers: readonly string[];
    readonly explicitLayers: readonly string[];
  };
  /** Every problem found, in the order found. */
  readonly diagnostics: readonly Diagnostic[];
  readonly platform: { readonly os: Platform['os']; readonly arch: string; readonly elevated: boolean };
}

export function resolvePlatform(options: DiscoveryOptions): Platform {
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'an object (or nothing)', options);
  return options.platform ?? createHostPlatform();
}

/** With `runtimeChoice`, the runtime is the one the application chose instead of the active one. */
export function discoverWith(ctx: DiscoveryContext, runtimeChoice?: ApplicationRuntimeChoice): DiscoveryResult {
  const rt = discoverRuntime(ctx, runtimeChoice);
  const layers = discoverApiLayers(ctx);
  const enableApiLayers = splitEnableApiLayers(ctx.platform.env.get('XR_ENABLE_API_LAYERS'), ctx.platform.pathSeparator);
  return {
    runtime: rt.runtime,
    ...(rt.unavailableReason !== undefined ? { runtimeUnavailableReason: rt.unavailableReason } : {}),
    apiLayers: layers.layers,
    enableApiLayers,
    searched: { runtime: rt.searched, implicitLayers: layers.searched.implicit, explicitLayers: layers.searched.explicit },
    diagnostics: ctx.diagnostics,
    platform: { os: ctx.platform.os, arch: ctx.platform.arch, elevated: ctx.platform.elevated },
  };
}

/** Never throws: every problem is in `diagnostics`. */
export function discover(options: DiscoveryOptions = {}): DiscoveryResult {
  const platform = resolvePlatform(options);
  return discoverWith(createContext(platform, options));
}
