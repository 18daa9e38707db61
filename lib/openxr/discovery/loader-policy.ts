// XR-PO-1: the OpenXR loader policy in code, createLoader({ layers }) (docs/usage.md, "Loader
// policy in code"): layers it disables leave the discovery (not enumerated, not loadable, a
// request for one is XR_ERROR_API_LAYER_NOT_PRESENT); enable, safe mode and order act when the
// chain is resolved (layer-policy.ts). Read after the environment, so where it speaks it wins.
import { policyDisables, type LayerPolicy } from '../../core/loader-policy.js';
import type { DiscoveryResult } from './discover.js';

/** The discovery as the policy leaves it: the layers it disables moved to `policyDisabled`. */
export function applyLayerPolicyToDiscovery(d: DiscoveryResult, policy: LayerPolicy): DiscoveryResult {
  const out = d.apiLayers.filter((l) => policyDisables(policy, l.name, l.kind));
  if (out.length === 0) return d;
  return {
    ...d,
    apiLayers: d.apiLayers.filter((l) => !out.includes(l)),
    policyDisabled: out.map((l) => ({ name: l.name, kind: l.kind, manifestPath: l.manifestPath, reason: 'disabled by createLoader({ layers: { disable } }): not enumerated, and a request for it is XR_ERROR_API_LAYER_NOT_PRESENT' })),
  };
}
