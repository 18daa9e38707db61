// XR-RD-1..5: which runtime manifest is active, and what it says. Only the manifest is read:
// the runtime library is loaded later, by the native side, when it is needed (XR-RD-6).
import { resolveLibraryPath, type LibraryPathKind } from '../../core/library-path.js';
import { pathOps } from '../../core/platform/platform.js';
import { readManifestBytes } from '../../core/read-manifest.js';
import { splitPathList } from '../../core/search-path.js';
import type { DiscoveryContext } from './context.js';
import type { Diagnostic } from './diagnostics.js';
import { OPENXR_MAJOR_VERSION, parseRuntimeManifest, type ExtensionProperty } from './manifest.js';

export type RuntimeSource =
  | 'XR_RUNTIME_JSON'
  | 'XDG_CONFIG_HOME'
  | 'XDG_CONFIG_DIRS'
  | 'SYSCONFDIR'
  | 'EXTRASYSCONFDIR'
  | 'registry'
  | 'android-system'
  | 'macos-global'
  /** createLoader({ runtime }): the application's choice, for that loader only. */
  | 'application';

/** A runtime the application chose for one loader (createLoader({ runtime })), by path or by name. */
export interface ApplicationRuntimeChoice {
  readonly manifestPath: string;
  /** What the application passed: the path itself, or the name listRuntimes() gave. */
  readonly requested: string;
  readonly by: 'path' | 'name';
}

export interface DiscoveredRuntime {
  readonly manifestPath: string;
  readonly source: RuntimeSource;
  /** Why this manifest is the active one, in words. */
  readonly reason: string;
  /** The manifest's `runtime.name`, when it has one. */
  readonly name?: string;
  readonly file_format_version: string;
  readonly libraryPath: string;
  readonly libraryPathKind: LibraryPathKind;
  readonly libraryPathInManifest: string;
  /** false when the library file is missing (loading would fail); undefined for a bare name. */
  readonly libraryExists: boolean | undefined;
  readonly negotiateFunctionName: string;
  readonly functions: Readonly<Record<string, string>>;
  readonly instanceExtensions: readonly ExtensionProperty[];
}

export interface RuntimeDiscoveryResult {
  readonly runtime: DiscoveredRuntime | null;
  /** Every candidate location looked at, in order. */
  readonly searched: readonly string[];
  /** When no runtime: why not, in words. */
  readonly unavailableReason?: string;
  /** The manifest chosen as the active one, also when it turned out unusable (then `runtime` is null). */
  readonly chosenManifest?: { readonly path: string; readonly source: RuntimeSource; readonly reason: string };
}

interface Candidate {
  path: string;
  source: RuntimeSource;
  reason: string;
}

const NEGOTIATE = 'xrNegotiateLoaderRuntimeInterface';

/** active_runtime.<arch>.json, then active_runtime.json, in `dir` (which ends without a separator). */
function findActiveRuntimeIn(ctx: DiscoveryContext, desc: string, prefix: string, searched: string[]): string | undefined {
  const { platform } = ctx;
  ctx.log('info', `Looking for active_runtime.${platform.arch}.json or active_runtime.json in ${desc}: ${prefix}`);
  for (const name of [`active_runtime.${platform.arch}.json`, 'active_runtime.json']) {
    const candidate = `${prefix}${OPENXR_MAJOR_VERSION}/${name}`;
    searched.push(candidate);
    // "Exists" as the Khronos loader checks it: anything at that path, symlinks followed.
    if (platform.fs.stat(candidate) !== undefined) return candidate;
  }
  return undefined;
}

function linuxCandidate(ctx: DiscoveryContext, searched: string[]): Candidate | undefined {
  const rel = 'openxr/';
  const home = ctx.secureEnv('HOME');
  const configHome = ctx.secureEnv('XDG_CONFIG_HOME');
  ctx.log('info', `Looking for active_runtime.${ctx.platform.arch}.json or active_runtime.json`);
  let base: string | undefined;
  let homeWhy = 'XDG_CONFIG_HOME';
  if (configHome) base = configHome;
  else if (home) {
    base = `${home}/.config`;
    homeWhy = 'XDG_CONFIG_HOME (unset, so $HOME/.config)';
  }
  if (base !== undefined) {
    const found = findActiveRuntimeIn(ctx, 'XDG_CONFIG_HOME', `${base}/${rel}`, searched);
    if (found) return { path: found, source: 'XDG_CONFIG_HOME', reason: `first found, in the user's configuration folder (${homeWhy}: ${base})` };
  }
  const dirsVar = ctx.secureEnv('XDG_CONFIG_DIRS');
  const dirs = dirsVar ? dirsVar : '/etc/xdg';
  for (const dir of splitPathList(dirs, ctx.platform.pathSeparator)) {
    const found = findActiveRuntimeIn(ctx, 'an entry of XDG_CONFIG_DIRS', `${dir}/${rel}`, searched);
    if (found) {
      return {
        path: found,
        source: 'XDG_CONFIG_DIRS',
        reason: `first found, in ${dir} (${dirsVar ? 'an entry of XDG_CONFIG_DIRS' : 'XDG_CONFIG_DIRS unset, so /etc/xdg'})`,
      };
    }
  }
  const found = findActiveRuntimeIn(ctx, 'compiled-in SYSCONFDIR', `${ctx.sysconfdir}/${rel}`, searched);
  if (found) return { path: found, source: 'SYSCONFDIR', reason: `first found, in the system configuration folder SYSCONFDIR (${ctx.sysconfdir})` };
  if (ctx.extraSysconfdir !== null && ctx.extraSysconfdir !== ctx.sysconfdir) {
    const extra = findActiveRuntimeIn(ctx, 'compiled-in EXTRASYSCONFDIR', `${ctx.extraSysconfdir}/${rel}`, searched);
    if (extra) return { path: extra, source: 'EXTRASYSCONFDIR', reason: `first found, in EXTRASYSCONFDIR (${ctx.extraSysconfdir})` };
  }
  return undefined;
}

/** HKLM\SOFTWARE\Khronos\OpenXR\<major>, value ActiveRuntime; a 32-bit process on 64-bit Windows reads the WOW6432Node view. */
export function windowsOpenXrKey(ctx: DiscoveryContext): string {
  const wow = ctx.platform.pointerBits === 32 && ctx.platform.registry?.os64Bit === true;
  return wow ? `SOFTWARE\\WOW6432Node\\Khronos\\OpenXR\\${OPENXR_MAJOR_VERSION}` : `SOFTWARE\\Khronos\\OpenXR\\${OPENXR_MAJOR_VERSION}`;
}

function windowsCandidate(ctx: DiscoveryContext, searched: string[]): Candidate | undefined {
  const key = windowsOpenXrKey(ctx);
  const where = `HKEY_LOCAL_MACHINE\\${key}`;
  searched.push(`${where}\\ActiveRuntime`);
  const values = ctx.platform.registry?.values('HKLM', key);
  if (values === undefined) {
    ctx.log('warn', `ReadRuntimeDataFilesInRegistry - failed to open registry key ${where}`);
    return undefined;
  }
  const v = values.find((x) => x.name.toLowerCase() === 'activeruntime');
  if (v === undefined || (v.type !== 'REG_SZ' && v.type !== 'REG_EXPAND_SZ') || typeof v.data !== 'string') {
    ctx.log('warn', 'ReadRuntimeDataFilesInRegistry - failed to read registry value ActiveRuntime');
    return undefined;
  }
  const st = ctx.platform.fs.stat(v.data);
  if (st?.kind !== 'file') {
    ctx.report({ severity: 'error', file: v.data, field: `${where}\\ActiveRuntime`, reason: 'the registry names a runtime manifest that does not exist', code: 'XR_ERROR_RUNTIME_UNAVAILABLE' });
    return undefined;
  }
  if (!v.data.toLowerCase().endsWith('.json')) {
    ctx.report({ severity: 'error', file: v.data, field: `${where}\\ActiveRuntime`, reason: 'the registry runtime path is not a .json file', code: 'XR_ERROR_RUNTIME_UNAVAILABLE' });
    return undefined;
  }
  return { path: v.data, source: 'registry', reason: `named by the registry value ${where}\\ActiveRuntime` };
}

/** The Khronos loader's fallback on Android (the runtime broker is not modelled): system partitions in this order. */
export const ANDROID_RUNTIME_PARTITIONS = ['/product', '/odm', '/oem', '/vendor', '/system'] as const;

function androidCandidate(ctx: DiscoveryContext, searched: string[]): Candidate | undefined {
  for (const part of ANDROID_RUNTIME_PARTITIONS) {
    const found = findActiveRuntimeIn(ctx, `the ${part} partition`, `${part}/etc/openxr/`, searched);
    if (found) return { path: found, source: 'android-system', reason: `first found among the system partitions, in ${part}` };
  }
  return undefined;
}

function applicationCandidate(ctx: DiscoveryContext, choice: ApplicationRuntimeChoice, searched: string[]): Candidate {
  const asked = choice.by === 'name' ? `the runtime named "${choice.requested}" in listRuntimes()` : 'its manifest path';
  const override = ctx.platform.env.get('XR_RUNTIME_JSON');
  // The application's own choice is narrower than the user's override, so it wins; say so.
  if (override) ctx.log('info', `RuntimeManifestFile::FindManifestFiles - XR_RUNTIME_JSON (${override}) is not used: the application chose the runtime`);
  ctx.log('info', `RuntimeManifestFile::FindManifestFiles - using runtime file ${choice.manifestPath}, chosen by the application (${asked})`);
  searched.push(choice.manifestPath);
  return {
    path: choice.manifestPath,
    source: 'application',
    reason: `chosen by the application for this loader (createLoader({ runtime }), by ${asked}); the active runtime and XR_RUNTIME_JSON are not used`,
  };
}

/** The active runtime, or with `choice` the runtime the application chose for this loader. */
export function discoverRuntime(ctx: DiscoveryContext, choice?: ApplicationRuntimeChoice): RuntimeDiscoveryResult {
  const searched: string[] = [];
  const { platform } = ctx;
  let candidate: Candidate | undefined;
  const override = choice ? undefined : ctx.secureEnv('XR_RUNTIME_JSON');
  if (choice) candidate = applicationCandidate(ctx, choice, searched);
  else if (override) {
    ctx.log('info', `RuntimeManifestFile::FindManifestFiles - using environment variable override runtime file ${override}`);
    searched.push(override);
    candidate = { path: override, source: 'XR_RUNTIME_JSON', reason: 'named by the XR_RUNTIME_JSON environment variable (no search is made then)' };
  } else {
    switch (platform.os) {
      case 'linux':
        candidate = linuxCandidate(ctx, searched);
        break;
      case 'windows':
        candidate = windowsCandidate(ctx, searched);
        break;
      case 'android':
        candidate = androidCandidate(ctx, searched);
        break;
      case 'macos': {
        const found = findActiveRuntimeIn(ctx, 'the global runtime folder', '/usr/local/share/openxr/', searched);
        if (found) candidate = { path: found, source: 'macos-global', reason: 'found in /usr/local/share/openxr' };
        break;
      }
      case 'fuchsia':
        break;
    }
    if (candidate) ctx.log('info', `RuntimeManifestFile::FindManifestFiles - using runtime file ${candidate.path}`);
  }
  if (!candidate) {
    const reason = `no active runtime manifest found (looked for ${searched.length ? searched.join(', ') : 'nothing: no search location on this platform'})`;
    ctx.log('error', 'RuntimeManifestFile::FindManifestFiles - failed to determine active runtime file path for this environment');
    ctx.diagnostics.push({ severity: 'error', file: 'active runtime', reason, code: 'XR_ERROR_RUNTIME_UNAVAILABLE' });
    return { runtime: null, searched, unavailableReason: reason };
  }

  ctx.log('info', `RuntimeManifestFile::CreateIfValid - attempting to load ${candidate.path}`);
  const chosenManifest = { path: candidate.path, source: candidate.source, reason: candidate.reason };
  const which = candidate.source === 'application' ? 'the runtime manifest the application chose' : 'the active runtime manifest';
  const unavailable = (d: Diagnostic): RuntimeDiscoveryResult => {
    ctx.report({ ...d, code: 'XR_ERROR_RUNTIME_UNAVAILABLE' });
    return { runtime: null, searched, chosenManifest, unavailableReason: `${which} ${candidate.path} is unusable: ${d.field ? `${d.field} ` : ''}${d.reason}` };
  };
  const bytes = readManifestBytes(ctx, candidate.path);
  if ('error' in bytes) return unavailable(bytes.error);
  const parsed = parseRuntimeManifest(candidate.path, bytes.data);
  if (!parsed.ok) return unavailable(parsed.error);
  for (const w of parsed.warnings) ctx.report(w);

  // Relative library paths start from the real manifest file, not from a symlink to it.
  const p = pathOps(platform);
  const canonical = platform.fs.realpath(candidate.path) ?? candidate.path;
  const lib = resolveLibraryPath(platform, p.dirname(canonical), parsed.manifest.library_path);
  if (lib.exists === false) {
    ctx.report({
      severity: 'error',
      file: candidate.path,
      field: 'runtime.library_path',
      reason: `the library ${lib.path} does not exist; the runtime cannot be loaded`,
      code: 'XR_ERROR_RUNTIME_UNAVAILABLE',
    });
  }
  const m = parsed.manifest;
  return {
    runtime: {
      manifestPath: candidate.path,
      source: candidate.source,
      reason: candidate.reason,
      ...(m.name !== undefined ? { name: m.name } : {}),
      file_format_version: m.file_format_version,
      libraryPath: lib.path,
      libraryPathKind: lib.kind,
      libraryPathInManifest: lib.inManifest,
      libraryExists: lib.exists,
      negotiateFunctionName: m.functions[NEGOTIATE] ?? NEGOTIATE,
      functions: m.functions,
      instanceExtensions: m.instance_extensions,
    },
    searched,
    chosenManifest,
  };
}
