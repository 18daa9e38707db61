// VK-DR-1: the driver (ICD) manifest, read as the Khronos loader reads it (loader_parse_icd_manifest):
// { "file_format_version", "ICD": { "library_path", "api_version", "library_arch", "is_portability_driver" } }.
import { parseVulkanVersion, type VulkanVersion } from './api-version.js';
import type { VulkanDiagnostic } from './diagnostic.js';
import { describeJson, isJsonObject, member } from './json-value.js';

export interface VulkanDriverManifest {
  readonly file_format_version: string;
  readonly library_path: string;
  readonly library_arch?: '32' | '64';
  /** "0.0.0" when the manifest has none (the loader warns and goes on). */
  readonly api_version: string;
  readonly apiVersion: VulkanVersion;
  readonly is_portability_driver: boolean;
}

export type DriverManifestParse =
  | { readonly ok: true; readonly manifest: VulkanDriverManifest; readonly diagnostics: readonly VulkanDiagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly VulkanDiagnostic[] };

export function parseDriverManifest(file: string, root: unknown, pointerBits: 32 | 64): DriverManifestParse {
  const diagnostics: VulkanDiagnostic[] = [];
  const fail = (field: string | undefined, reason: string, severity: 'error' | 'info' = 'error'): DriverManifestParse => {
    diagnostics.push({ severity, file, ...(field ? { field } : {}), reason });
    return { ok: false, diagnostics };
  };
  if (!isJsonObject(root)) return fail(undefined, `the top level is ${describeJson(root)}, not a JSON object`);
  const ffv = member(root, 'file_format_version');
  if (typeof ffv !== 'string') return fail('file_format_version', `required string, found ${describeJson(ffv)}; driver skipped`);
  const format = parseVulkanVersion(ffv);
  if (format.major !== 1 || format.minor !== 0 || format.patch > 1) {
    diagnostics.push({ severity: 'info', file, field: 'file_format_version', reason: `unknown driver manifest version ${ffv}; read as 1.0.1` });
  }
  const icd = member(root, 'ICD');
  if (!isJsonObject(icd)) return fail('ICD', `required object, found ${describeJson(icd)}; driver skipped`);
  const lib = member(icd, 'library_path');
  if (typeof lib !== 'string' || lib === '') return fail('ICD.library_path', `required non-empty string, found ${describeJson(lib)}; driver skipped`);
  let library_arch: '32' | '64' | undefined;
  const arch = member(icd, 'library_arch');
  if (arch !== undefined) {
    if (arch === '32' || arch === '64') library_arch = arch;
    else diagnostics.push({ severity: 'warning', file, field: 'ICD.library_arch', reason: `"${String(arch)}" is not "32" or "64"; ignored` });
    if (library_arch !== undefined && Number(library_arch) !== pointerBits) {
      return fail('ICD.library_arch', `the driver library is ${library_arch}-bit and this process is ${pointerBits}-bit; driver skipped`, 'info');
    }
  }
  // Without api_version the Khronos loader skips the driver; with a value that is not a string it
  // says it skips it but goes on with version 0 (both 1.3.239 and 1.4.309), which is what this does.
  let api_version = '0.0.0';
  const api = member(icd, 'api_version');
  if (api === undefined) return fail('ICD.api_version', 'required string, missing; driver skipped');
  if (typeof api === 'string') api_version = api;
  else diagnostics.push({ severity: 'warning', file, field: 'ICD.api_version', reason: `should be a string, found ${describeJson(api)}; taken as 0.0.0` });
  const portability = member(icd, 'is_portability_driver');
  if (portability !== undefined && typeof portability !== 'boolean') {
    diagnostics.push({ severity: 'warning', file, field: 'ICD.is_portability_driver', reason: `should be true or false, found ${describeJson(portability)}; taken as false` });
  }
  return {
    ok: true,
    manifest: {
      file_format_version: ffv,
      library_path: lib,
      ...(library_arch !== undefined ? { library_arch } : {}),
      api_version,
      apiVersion: parseVulkanVersion(api_version),
      is_portability_driver: portability === true,
    },
    diagnostics,
  };
}
