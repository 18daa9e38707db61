// What the Vulkan doctor can tell without loading anything: discovery's diagnostics (schema,
// versions, missing libraries) attached to the driver or layer they concern, the library file's
// ELF class and machine, what is in force, and the probe job for each library.
import type { VulkanDiagnostic } from '../../../vulkan/discovery/diagnostic.js';
import type { VulkanDiscoveryState } from '../../../vulkan/discovery/discover.js';
import { layerSymbols } from '../../../vulkan/plan/instance-plan.js';
import type { VulkanLayerKind } from '../../../vulkan/discovery/layer-manifest.js';
import * as path from 'node:path';
import type { ProbeJob } from '../protocol.js';
import type { Problem } from '../report.js';
import { loadablePath, withLibraryChecks } from '../static-checks.js';
import type { VulkanComponentKind } from './report.js';

export interface VulkanComponentDraft {
  readonly kind: VulkanComponentKind;
  readonly name: string;
  readonly layerKind?: VulkanLayerKind;
  readonly manifestPath: string;
  readonly libraryPath?: string;
  readonly inForce: boolean;
  readonly inForceReason: string;
  readonly problems: Problem[];
  readonly probe: { readonly job: ProbeJob } | { readonly skip: string };
}

export interface VulkanStaticCheckResult {
  readonly components: VulkanComponentDraft[];
  readonly general: Problem[];
}

/** What to do about a Vulkan discovery diagnostic. */
export function vulkanDiagnosticFix(d: VulkanDiagnostic): string {
  const field = d.field ?? '';
  if (field.endsWith('library_path') && /does not exist|not found|missing/.test(d.reason)) return `install the library, or correct ${field} in ${d.file}`;
  if (/JSON/.test(d.reason) && !field) return `fix the JSON syntax of ${d.file}, or remove the file`;
  if (field === 'file_format_version') return `set a file_format_version the Vulkan loader knows (1.0.0 to 1.2.1) in ${d.file}`;
  if (field.endsWith('api_version')) return `set ${field} in ${d.file} to the Vulkan version the component implements (e.g. "1.3.239")`;
  if (field.endsWith('disable_environment')) return `add a "disable_environment" object to ${d.file}: an implicit layer needs one`;
  if (d.file.startsWith('environment variable ')) return 'run without elevated privileges, or configure the system-wide locations instead';
  if (/cannot be read|cannot list/.test(d.reason)) return `make ${d.file} readable by this user`;
  if (field !== '') return `correct ${field} in ${d.file}`;
  return `check ${d.file}`;
}

export function vulkanDiagnosticProblem(d: VulkanDiagnostic): Problem {
  return {
    severity: d.severity === 'error' ? 'error' : 'warning',
    stage: 'manifest',
    what: d.field ? `${d.field}: ${d.reason}` : d.reason,
    why: { file: d.file, ...(d.field ? { field: d.field } : {}), reason: d.reason + (d.code ? ` (${d.code})` : '') },
    fix: vulkanDiagnosticFix(d),
  };
}

/** Static checks over a Vulkan discovery state (its paths are host paths: the doctor loads them). */
export function vulkanStaticChecks(state: VulkanDiscoveryState, nodeArch: string = process.arch): VulkanStaticCheckResult {
  const d = state.result;
  const byFile = new Map<string, Problem[]>();
  for (const diag of d.diagnostics) {
    const list = byFile.get(diag.file) ?? [];
    list.push(vulkanDiagnosticProblem(diag));
    byFile.set(diag.file, list);
  }
  const claimed = new Set<string>();
  // Discovery's "library does not exist" warning is said again, as an error, by the library check.
  const take = (file: string): Problem[] => {
    claimed.add(file);
    return (byFile.get(file) ?? []).filter((p) => !(p.why.field?.endsWith('library_path') && /does not exist/.test(p.why.reason)));
  };

  const components: VulkanComponentDraft[] = [];
  for (const driver of d.drivers) {
    const problems = take(driver.manifestPath);
    const job: ProbeJob = {
      target: 'vulkan-driver',
      name: path.basename(driver.libraryPath),
      libraryPath: loadablePath(driver.libraryPath, driver.libraryPathKind),
      negotiateFunctionName: 'vk_icdNegotiateLoaderICDInterfaceVersion',
      manifestPath: driver.manifestPath,
    };
    components.push({
      kind: 'driver',
      name: job.name,
      manifestPath: driver.manifestPath,
      libraryPath: driver.libraryPath,
      inForce: driver.selected,
      inForceReason: driver.reason,
      problems,
      probe: withLibraryChecks(problems, driver.libraryPath, driver.libraryPathKind, driver.manifestPath, 'ICD.library_path', job, nodeArch),
    });
  }

  for (const info of d.layers) {
    const problems = take(info.manifestPath);
    const found = state.configured.find((c) => c.layer.manifestPath === info.manifestPath && c.layer.name === info.name)?.layer;
    const base = { kind: 'layer' as const, name: info.name, layerKind: info.kind, manifestPath: info.manifestPath, inForce: info.enabled, inForceReason: info.reason, problems };
    if (found === undefined || found.libraryPath === undefined || found.libraryPathKind === undefined) {
      components.push({ ...base, probe: { skip: info.components ? 'a meta layer: it has no library of its own' : 'the layer is not available' } });
      continue;
    }
    const symbols = layerSymbols(found);
    const job: ProbeJob = {
      target: 'vulkan-layer',
      name: info.name,
      libraryPath: loadablePath(found.libraryPath, found.libraryPathKind),
      negotiateFunctionName: symbols.negotiateLoaderLayerInterfaceVersion,
      manifestPath: info.manifestPath,
      getInstanceProcAddrName: symbols.getInstanceProcAddr,
      getDeviceProcAddrName: symbols.getDeviceProcAddr,
    };
    components.push({
      ...base,
      libraryPath: found.libraryPath,
      probe: withLibraryChecks(problems, found.libraryPath, found.libraryPathKind, info.manifestPath, 'library_path', job, nodeArch),
    });
  }

  const general = d.diagnostics.filter((diag) => !claimed.has(diag.file)).map(vulkanDiagnosticProblem);
  return { components, general };
}
