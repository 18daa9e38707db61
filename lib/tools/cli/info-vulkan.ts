// `khronos-loader info vulkan`: formats what vulkan.discover() returns. No decisions are taken here.
import { formatVulkanDiagnostic } from '../../vulkan/discovery/diagnostic.js';
import type { VulkanDiscoveryResult, VulkanLayerInfo } from '../../vulkan/discovery/discover.js';
import { formatVulkanVersion } from '../../vulkan/discovery/api-version.js';
import type { ProcessVulkanLoaderState } from '../../vulkan/api/process-loader.js';
import { formatSandbox, type SandboxReport } from '../../core/sandbox.js';

function vulkanLayerLines(l: VulkanLayerInfo): string[] {
  const state = !l.available ? 'UNAVAILABLE' : l.enabled ? 'ON' : 'off';
  const lines = [
    `  ${l.name}`,
    `    kind:            ${l.kind}${l.components ? ' meta layer' : ''}${l.isOverride ? ' (the override layer)' : ''}`,
    `    manifest:        ${l.manifestPath} (file format ${l.fileFormatVersion}, found via ${l.source})`,
  ];
  if (l.library !== undefined) lines.push(`    library:         ${l.library}${l.libraryExists === false ? ' — MISSING' : ''}`);
  if (l.components) lines.push(`    components:      ${l.components.join(', ')}`);
  lines.push(
    `    api_version:     ${l.apiVersion}`,
    `    implementation:  ${l.implementationVersion}`,
    `    description:     ${l.description}`,
    `    state:           ${state} — ${l.reason}`,
  );
  if (l.instanceExtensions.length) lines.push(`    instance ext.:   ${l.instanceExtensions.map((e) => `${e.extensionName} v${e.specVersion}`).join(', ')}`);
  if (l.deviceExtensions.length) lines.push(`    device ext.:     ${l.deviceExtensions.map((e) => `${e.extensionName} v${e.specVersion}`).join(', ')}`);
  return lines;
}

/** Which libvulkan.so.1 the process holds: a runtime that links against it (Monado) calls that one. */
export function formatProcessVulkanLoader(state: ProcessVulkanLoaderState): string {
  switch (state.kind) {
    case 'none':
      return "none loaded (an application can make it this package's loader before it loads a runtime that links against it, as demo --vulkan does)";
    case 'this-package':
      return `this package's Vulkan loader (${state.path ?? '?'})`;
    case 'other':
      return `${state.path ?? '?'} — not this package's: a runtime linked against libvulkan.so.1 calls it, not this loader`;
  }
}

/** The plan's decisions, each rule named (VK-PO-*, XR-PO-*): what an application asking for no layers gets. */
export function formatPlanDecisions(decisions: readonly string[] | undefined): string[] {
  if (decisions === undefined) return [];
  return ['', 'Plan for an application asking for no layers (which rule decided each):', ...(decisions.length ? decisions.map((x) => `  ${x}`) : ['  nothing to decide'])];
}

export function formatVulkanInfo(d: VulkanDiscoveryResult, processLoader?: ProcessVulkanLoaderState, planDecisions?: readonly string[], sandbox: SandboxReport | null = null): string {
  const out: string[] = [];
  out.push(`Vulkan (${d.platform.os}, ${d.platform.arch}${d.platform.elevated ? ', elevated: user environment overrides ignored' : ''})`);
  out.push('');
  out.push(`Settings file: ${d.settingsFile ? `${d.settingsFile.file} (settings for ${d.settingsFile.appliesTo})` : 'none in force'}`);
  if (processLoader !== undefined) out.push(`libvulkan.so.1 in this process: ${formatProcessVulkanLoader(processLoader)}`);
  out.push('');
  out.push(`Drivers (${d.drivers.length}):`);
  if (d.drivers.length === 0) out.push('  none found', ...d.searched.drivers.map((s) => `    looked in ${s}`));
  for (const x of d.drivers) {
    out.push(`  ${x.manifestPath}`);
    out.push(`    library:         ${x.libraryPath}${x.libraryExists === false ? ' — MISSING' : ''}`);
    out.push(`    api_version:     ${formatVulkanVersion(x.apiVersion)}${x.isPortabilityDriver ? ' (portability driver)' : ''}`);
    out.push(`    state:           ${x.selected ? 'selected' : 'not used'} — ${x.reason}`);
  }
  for (const kind of ['implicit', 'explicit'] as const) {
    const layers = d.layers.filter((l) => l.kind === kind);
    out.push('');
    out.push(`${kind === 'implicit' ? 'Implicit' : 'Explicit'} layers (${layers.length}):`);
    if (layers.length === 0) out.push('  none');
    for (const l of layers) out.push(...vulkanLayerLines(l));
  }
  if (d.overrideLayer) out.push('', `Override layer in force: ${d.overrideLayer}${d.blacklistedLayers.length ? ` (blacklists ${d.blacklistedLayers.join(', ')})` : ''}`);
  if (d.androidLayerLibraries.length) out.push('', 'Android layer libraries:', ...d.androidLayerLibraries.map((l) => `  ${l.path} (${l.source})`));
  out.push(...formatPlanDecisions(planDecisions));
  out.push(...formatSandbox(sandbox, 'vulkan'));
  out.push('');
  out.push(`Problems (${d.diagnostics.length}):`);
  if (d.diagnostics.length === 0) out.push('  none');
  for (const p of d.diagnostics) out.push(`  ${p.severity}: ${formatVulkanDiagnostic(p)}`);
  return out.join('\n') + '\n';
}
