// What the OpenXR doctor can tell without loading anything: every discovery diagnostic, attached to
// the component it concerns, with what to do about it; whether each library file is there and
// loadable here (../static-checks.ts). Also decides what is "in force"
// and which libraries the probes should load.
import * as path from 'node:path';
import type { Diagnostic } from '../../../openxr/discovery/diagnostics.js';
import type { DiscoveryResult } from '../../../openxr/discovery/discover.js';
import { implicitLayerState } from '../../../openxr/discovery/layer-policy.js';
import type { ApiLayerKind } from '../../../openxr/discovery/manifest.js';
import { parseApiLayerManifest } from '../../../openxr/discovery/manifest.js';
import type { Platform } from '../../../core/platform/platform.js';
import type { ProbeJob } from '../protocol.js';
import type { Problem } from '../report.js';
import { loadablePath, withLibraryChecks } from '../static-checks.js';
import type { ComponentKind } from './report.js';
import { BUNDLED_RUNTIME_HINT, INSTALL_RUNTIME_FIX, NO_ACTIVE_RUNTIME_NAME } from './no-runtime.js';

/** A component before probing: the report entry's static part. */
export interface ComponentDraft {
  readonly kind: ComponentKind;
  readonly name: string;
  readonly layerKind?: ApiLayerKind;
  readonly manifestPath: string;
  readonly libraryPath?: string;
  readonly inForce: boolean;
  readonly inForceReason: string;
  /** api_version of a layer manifest ("major.minor"), compared with what the layer negotiates. */
  readonly manifestApiVersion?: string;
  /** For implicit layers: the variable that turns it off (for fixes). */
  readonly disableEnvironment?: string;
  readonly problems: Problem[];
  /** The library to load in a child process, or why it is not loaded. */
  readonly probe: { readonly job: ProbeJob } | { readonly skip: string };
}

export interface StaticCheckResult {
  readonly components: ComponentDraft[];
  readonly general: Problem[];
}

/** What to do about a discovery diagnostic. */
export function diagnosticFix(d: Diagnostic): string {
  const field = d.field ?? '';
  if (d.file === 'active runtime') return `${INSTALL_RUNTIME_FIX}; without one, ${BUNDLED_RUNTIME_HINT}`;
  if (field.endsWith('library_path') && /does not exist/.test(d.reason)) {
    return `install the library, or correct ${field} in ${d.file}`;
  }
  if (/^not valid JSON/.test(d.reason) || /not a JSON object/.test(d.reason)) return `fix the JSON syntax of ${d.file}, or remove the file`;
  if (field === 'file_format_version') return `set "file_format_version": "1.0.0" in ${d.file} (the only version the OpenXR loader specification defines)`;
  if (/duplicate layer name/.test(d.reason)) return `remove one of the manifests declaring this layer name, or rename one of the layers`;
  if (field.endsWith('disable_environment')) return `add a "disable_environment" variable name to ${d.file}: an implicit layer without one is never loaded`;
  if (field.endsWith('api_version')) return `set ${field} in ${d.file} to the OpenXR version the layer implements ("1.0" for OpenXR 1.0)`;
  if (d.file.startsWith('environment variable ')) return 'run without elevated privileges, or configure the system-wide locations instead';
  if (/cannot be read|cannot list/.test(d.reason)) return `make ${d.file} readable by this user`;
  if (field !== '') return `correct ${field} in ${d.file}`;
  return `check ${d.file}`;
}

export function diagnosticProblem(d: Diagnostic): Problem {
  return {
    severity: d.severity === 'error' ? 'error' : 'warning',
    stage: 'manifest',
    what: d.file === 'active runtime' ? 'no active OpenXR runtime' : d.field ? `${d.field}: ${d.reason}` : d.reason,
    why: { file: d.file, ...(d.field ? { field: d.field } : {}), reason: d.reason + (d.code ? ` (${d.code})` : '') },
    fix: diagnosticFix(d),
  };
}

function readLayerManifest(platform: Platform, file: string, kind: ApiLayerKind): ReturnType<typeof parseApiLayerManifest> | undefined {
  const r = platform.fs.readFile(file, 16 * 1024 * 1024);
  if ('error' in r) return undefined;
  return parseApiLayerManifest(file, r.data, kind);
}

/** Static checks over a discovery result. `platform` is the one discovery ran on (its paths are host paths: the doctor loads them). */
export function staticChecks(d: DiscoveryResult, platform: Platform, nodeArch: string = process.arch): StaticCheckResult {
  const components: ComponentDraft[] = [];
  const general: Problem[] = [];
  const enabled = new Set(d.enableApiLayers);
  const byFile = new Map<string, Diagnostic[]>();
  for (const diag of d.diagnostics) {
    const list = byFile.get(diag.file) ?? [];
    list.push(diag);
    byFile.set(diag.file, list);
  }
  const claimed = new Set<string>();
  const take = (file: string): Problem[] => {
    claimed.add(file);
    return (byFile.get(file) ?? []).map(diagnosticProblem);
  };

  // The active runtime.
  if (d.runtime) {
    const r = d.runtime;
    const problems = take(r.manifestPath);
    const libraryPath = loadablePath(r.libraryPath, r.libraryPathKind);
    const job: ProbeJob = { target: 'runtime', name: path.basename(r.libraryPath), libraryPath, negotiateFunctionName: r.negotiateFunctionName, manifestPath: r.manifestPath };
    components.push({
      kind: 'runtime',
      name: path.basename(r.libraryPath),
      manifestPath: r.manifestPath,
      libraryPath,
      inForce: true,
      inForceReason: `the active runtime: ${r.reason}`,
      problems,
      probe: withLibraryChecks(problems, libraryPath, r.libraryPathKind, r.manifestPath, 'runtime.library_path', job, nodeArch),
    });
  } else {
    const runtimeDiags = d.diagnostics.filter((x) => x.code === 'XR_ERROR_RUNTIME_UNAVAILABLE');
    for (const x of runtimeDiags) claimed.add(x.file);
    const manifestPath = runtimeDiags.find((x) => x.file !== 'active runtime')?.file ?? '';
    // No runtime manifest named at all (none installed, or none made active) is not a broken
    // runtime: a warning, as `runtimes --check` sees it (no-runtime.ts); a named one that cannot
    // be used stays an error.
    const noActiveRuntime = manifestPath === '';
    const problems = runtimeDiags.map(diagnosticProblem).map((p) => (noActiveRuntime ? { ...p, severity: 'warning' as const } : p));
    if (problems.length === 0) {
      problems.push({
        severity: noActiveRuntime ? 'warning' : 'error',
        stage: 'manifest',
        what: 'no usable OpenXR runtime',
        why: { file: 'active runtime', reason: d.runtimeUnavailableReason ?? 'no active runtime manifest' },
        fix: `${INSTALL_RUNTIME_FIX}; without one, ${BUNDLED_RUNTIME_HINT}`,
      });
    }
    components.push({
      kind: 'runtime',
      name: NO_ACTIVE_RUNTIME_NAME,
      manifestPath,
      inForce: true,
      inForceReason: 'every OpenXR application needs the active runtime',
      problems,
      probe: { skip: 'there is no usable runtime manifest' },
    });
  }

  // Usable API layers.
  for (const l of d.apiLayers) {
    const problems = take(l.manifestPath);
    const libraryPath = loadablePath(l.libraryPath, l.libraryPathKind);
    const fromEnv = enabled.has(l.name);
    const inForce = (l.kind === 'implicit' && l.enabledByDefault) || fromEnv;
    const job: ProbeJob = { target: 'api-layer', name: l.name, libraryPath, negotiateFunctionName: l.negotiateFunctionName, manifestPath: l.manifestPath };
    components.push({
      kind: 'api-layer',
      name: l.name,
      layerKind: l.kind,
      manifestPath: l.manifestPath,
      libraryPath,
      inForce,
      inForceReason: fromEnv ? 'named in XR_ENABLE_API_LAYERS' : l.enabledReason,
      manifestApiVersion: l.apiVersion,
      ...(l.disableEnvironment !== undefined ? { disableEnvironment: l.disableEnvironment } : {}),
      problems,
      probe: withLibraryChecks(problems, libraryPath, l.libraryPathKind, l.manifestPath, 'api_layer.library_path', job, nodeArch),
    });
  }

  // Layer manifests discovery could not use (malformed, library missing, duplicates).
  const implicitDirs = new Set(d.searched.implicitLayers);
  const explicitDirs = new Set(d.searched.explicitLayers);
  const found = new Set(d.apiLayers.map((l) => l.name));
  for (const [file, diags] of byFile) {
    if (claimed.has(file)) continue;
    const dir = path.dirname(file);
    const layerKind: ApiLayerKind | undefined = implicitDirs.has(dir) ? 'implicit' : explicitDirs.has(dir) ? 'explicit' : undefined;
    if (!file.endsWith('.json') || layerKind === undefined) continue;
    const problems = take(file);
    const parsed = readLayerManifest(platform, file, layerKind);
    const manifest = parsed?.ok ? parsed.manifest : undefined;
    const duplicate = diags.every((x) => /duplicate layer name/.test(x.reason));
    const name = manifest?.name ?? path.basename(file);
    const fromEnv = manifest !== undefined && enabled.has(manifest.name) && !found.has(manifest.name);
    const implicitOn = manifest !== undefined && layerKind === 'implicit' && !duplicate && implicitLayerState(platform.env, manifest).enabled;
    components.push({
      kind: manifest !== undefined && !duplicate ? 'api-layer' : 'manifest',
      name,
      layerKind,
      manifestPath: file,
      ...(manifest ? { libraryPath: manifest.library_path } : {}),
      // An unusable implicit layer is left out and the application still runs; one that
      // XR_ENABLE_API_LAYERS asks for makes xrCreateInstance fail.
      inForce: fromEnv,
      inForceReason: fromEnv
        ? 'named in XR_ENABLE_API_LAYERS (instance creation fails with XR_ERROR_API_LAYER_NOT_PRESENT)'
        : implicitOn
          ? 'an implicit layer that would be on, but the loader leaves it out'
          : duplicate
            ? 'ignored: another manifest provides this layer name'
            : 'not used',
      ...(manifest?.disable_environment !== undefined ? { disableEnvironment: manifest.disable_environment } : {}),
      problems,
      probe: { skip: problems.some((p) => p.why.field === 'api_layer.library_path' && /does not exist/.test(p.why.reason)) ? 'the library is missing' : 'the manifest is unusable' },
    });
    for (const n of manifest && enabled.has(manifest.name) ? [manifest.name] : []) found.add(n);
  }

  // Names XR_ENABLE_API_LAYERS asks for that nothing provides.
  for (const n of d.enableApiLayers) {
    if (found.has(n)) continue;
    found.add(n);
    components.push({
      kind: 'api-layer',
      name: n,
      manifestPath: '',
      inForce: true,
      inForceReason: 'named in XR_ENABLE_API_LAYERS',
      problems: [
        {
          severity: 'error',
          stage: 'manifest',
          what: `XR_ENABLE_API_LAYERS names ${JSON.stringify(n)}, but no API layer manifest provides it`,
          why: { file: 'environment variable XR_ENABLE_API_LAYERS', reason: 'xrCreateInstance fails with XR_ERROR_API_LAYER_NOT_PRESENT' },
          fix: `install the layer (its manifest goes in an explicit.d folder, or a folder named in XR_API_LAYER_PATH), or remove ${JSON.stringify(n)} from XR_ENABLE_API_LAYERS`,
        },
      ],
      probe: { skip: 'no manifest' },
    });
  }

  for (const [file] of byFile) if (!claimed.has(file)) general.push(...take(file));
  return { components, general };
}
