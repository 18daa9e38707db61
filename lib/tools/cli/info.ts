// `khronos-loader info openxr`: formats what discover() returns. No decisions are taken here.
import { formatDiagnostic } from '../../openxr/discovery/diagnostics.js';
import type { DiscoveryResult } from '../../openxr/discovery/discover.js';
import type { DiscoveredApiLayer } from '../../openxr/discovery/layer-discovery.js';
import { BUNDLED_RUNTIME_HINT } from '../doctor/openxr/no-runtime.js';
import { formatPlanDecisions } from './info-vulkan.js';
import { formatSandbox, type SandboxReport } from '../../core/sandbox.js';

function layerLines(l: DiscoveredApiLayer): string[] {
  const lines = [
    `  ${l.name}`,
    `    kind:            ${l.kind}`,
    `    manifest:        ${l.manifestPath} (found via ${l.source})`,
    `    library:         ${l.libraryPath}${l.libraryPathKind === 'bare' ? ' (bare name: the system library search decides)' : l.libraryPathKind === 'relative' ? ` (relative "${l.libraryPathInManifest}" from the manifest's folder)` : ''}`,
    `    api_version:     ${l.apiVersion}`,
    `    implementation:  ${l.implementationVersion}`,
    `    description:     ${l.description}`,
    `    default:         ${l.kind === 'implicit' ? (l.enabledByDefault ? 'ON' : 'OFF') : 'off'} — ${l.enabledReason}`,
  ];
  if (l.instanceExtensions.length) {
    lines.push(`    extensions:      ${l.instanceExtensions.map((e) => `${e.name} v${e.extensionVersion}`).join(', ')}`);
  }
  if (l.negotiateFunctionName !== 'xrNegotiateLoaderApiLayerInterface') lines.push(`    negotiate:       ${l.negotiateFunctionName}`);
  return lines;
}

export function formatOpenXrInfo(d: DiscoveryResult, planDecisions?: readonly string[], sandbox: SandboxReport | null = null): string {
  const out: string[] = [];
  out.push(`OpenXR (${d.platform.os}, ${d.platform.arch}${d.platform.elevated ? ', elevated: user environment overrides ignored' : ''})`);
  out.push('');
  out.push(d.runtime?.source === 'application' ? 'Runtime (chosen by the application, instead of the active one):' : 'Active runtime:');
  if (d.runtime) {
    const r = d.runtime;
    if (r.name !== undefined) out.push(`  name:      ${r.name}`);
    out.push(`  manifest:  ${r.manifestPath}`);
    out.push(`  library:   ${r.libraryPath}${r.libraryPathKind === 'bare' ? ' (bare name: the system library search decides)' : ''}${r.libraryExists === false ? ' — MISSING' : ''}`);
    out.push(`  why:       ${r.reason}`);
    if (r.negotiateFunctionName !== 'xrNegotiateLoaderRuntimeInterface') out.push(`  negotiate: ${r.negotiateFunctionName}`);
  } else {
    const manifestBroken = d.diagnostics.some((x) => x.code === 'XR_ERROR_RUNTIME_UNAVAILABLE' && x.file !== 'active runtime');
    if (manifestBroken) out.push(`  No usable OpenXR runtime: ${d.runtimeUnavailableReason ?? 'the active runtime manifest is unusable'}.`);
    else {
      out.push('  No OpenXR runtime is installed: no active runtime manifest was found.');
      if (d.searched.runtime.length) out.push('  looked for:', ...d.searched.runtime.map((s) => `    ${s}`));
      out.push(`  Without one, ${BUNDLED_RUNTIME_HINT}; \`khronos-loader runtimes\` lists the runtimes installed.`);
    }
  }
  out.push('');
  const implicit = d.apiLayers.filter((l) => l.kind === 'implicit');
  const explicit = d.apiLayers.filter((l) => l.kind === 'explicit');
  out.push(`Implicit API layers (${implicit.length}):`);
  if (implicit.length === 0) out.push('  none');
  for (const l of implicit) out.push(...layerLines(l));
  out.push('');
  out.push(`Explicit API layers (${explicit.length}):`);
  if (explicit.length === 0) out.push('  none');
  for (const l of explicit) out.push(...layerLines(l));
  if (d.enableApiLayers.length) {
    out.push('');
    out.push(`XR_ENABLE_API_LAYERS asks for: ${d.enableApiLayers.map((n) => JSON.stringify(n)).join(', ')}`);
  }
  out.push(...formatPlanDecisions(planDecisions));
  out.push(...formatSandbox(sandbox, 'openxr'));
  out.push('');
  out.push(`Problems (${d.diagnostics.length}):`);
  if (d.diagnostics.length === 0) out.push('  none');
  for (const p of d.diagnostics) out.push(`  ${p.severity}: ${formatDiagnostic(p)}`);
  return out.join('\n') + '\n';
}
