// What a Vulkan probe's outcome means for the report: the problem lines (what, why, fix) and,
// when the library negotiated, what it negotiated.
import { VkResult } from '../../../generated/vulkan.js';
import type { NativeVulkanProbeResult } from '../../native/addon.js';
import { afterwardsProblem, nameResultCodes, processProblems } from '../probe-problems.js';
import type { Problem } from '../report.js';
import type { ProbeOutcome } from '../run-probes.js';
import type { VulkanComponentDraft } from './static-checks.js';
import type { VulkanNegotiationSummary } from './report.js';

const RESULT_NAMES = new Map<number, string>();
for (const [name, code] of Object.entries(VkResult)) if (!RESULT_NAMES.has(code)) RESULT_NAMES.set(code, name);

/** "returned -9" → "returned VK_ERROR_INCOMPATIBLE_DRIVER (-9)". */
export function nameVkResults(reason: string): string {
  return nameResultCodes(reason, RESULT_NAMES);
}

function what(c: VulkanComponentDraft): string {
  return c.kind === 'driver' ? 'the driver' : c.layerKind === 'implicit' ? 'the implicit layer' : 'the layer';
}

/** How to keep a misbehaving library out of the way until it is fixed. */
function workaround(c: VulkanComponentDraft): string {
  if (c.kind === 'driver') return `leave it out with VK_LOADER_DRIVERS_DISABLE=${c.manifestPath.split('/').pop() ?? ''}, or remove ${c.manifestPath}`;
  if (c.layerKind === 'implicit') return `set VK_LOADER_LAYERS_DISABLE=${c.name} (or the layer's disable_environment variable), or remove ${c.manifestPath}`;
  return `do not enable it (application, VK_INSTANCE_LAYERS or VK_LOADER_LAYERS_ENABLE), or remove ${c.manifestPath}`;
}

/** The symbol a native rejection names, for the report's "why". */
function namedSymbol(reason: string): string | undefined {
  return /\b(vk_icd\w+|vk\w*(?:Negotiate|GetInstanceProcAddr|GetDeviceProcAddr)\w*|kl\w+)\b/.exec(reason)?.[1];
}

export function vulkanProbeProblems(c: VulkanComponentDraft, outcome: ProbeOutcome<NativeVulkanProbeResult>): { problems: Problem[]; negotiated?: VulkanNegotiationSummary } {
  const lib = c.libraryPath ?? '';
  if (outcome.kind !== 'answered') return { problems: processProblems({ name: c.name, libraryPath: lib, workaround: workaround(c) }, outcome) };
  const r = outcome.result;
  const problems: Problem[] = [];
  if (outcome.afterwards) problems.push(afterwardsProblem(what(c), c.name, lib, outcome.afterwards, outcome.output));
  if (r.ok) {
    if (r.devicesError) {
      problems.push({
        severity: 'warning',
        stage: 'negotiate',
        what: 'the driver negotiated, but an instance of it alone lists no physical devices',
        why: { file: lib, reason: nameVkResults(r.devicesError) },
        fix: `check that the device this driver serves is present and its kernel driver loaded; otherwise report it to the driver's vendor`,
      });
    }
    return {
      problems,
      negotiated: {
        interfaceVersion: r.interfaceVersion ?? 0,
        ...(r.apiVersion !== undefined ? { apiVersion: r.apiVersion } : {}),
        ...(r.devices ? { devices: r.devices } : {}),
      },
    };
  }
  const reason = nameVkResults(r.reason);
  if (r.stage === 'load') {
    problems.push({
      severity: 'error',
      stage: 'load',
      what: `${what(c)}'s library cannot be loaded`,
      why: { file: lib, field: c.kind === 'driver' ? 'ICD.library_path' : 'library_path', reason },
      fix: /cannot open shared object file/.test(reason) ? `a library it depends on is missing: \`ldd ${lib}\` shows which; install it` : `check the library with \`ldd -r ${lib}\`, or reinstall the component`,
    });
  } else {
    const symbol = namedSymbol(reason);
    problems.push({
      severity: 'error',
      stage: 'negotiate',
      what: `${what(c)} failed negotiation: ${reason}`,
      why: { file: lib, ...(symbol ? { symbol } : {}), reason },
      fix: `update ${c.name} to a version that supports ${c.kind === 'driver' ? 'the loader/driver interface (versions 0 to 7)' : 'the loader/layer interface (versions 0 to 2)'}; meanwhile ${workaround(c)}`,
    });
  }
  return { problems };
}
