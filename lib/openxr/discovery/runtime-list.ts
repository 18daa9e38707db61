// Runtime enumeration: every OpenXR runtime manifest that can be found, not only the active one
// (the current loader specification's "Runtime Enumeration", which the seeds predate). On Windows
// the HKLM ...\OpenXR\<major>\AvailableRuntimes values (DWORD 0: available; non-zero: the runtime
// asks not to be listed); on Linux every runtime manifest in the openxr/<major> folders under the
// XDG configuration and data folders; everywhere the active runtime and XR_RUNTIME_JSON. Only
// manifests are read: no runtime library is loaded here (XR-RD-6).
import { jsonFilesIn } from '../../core/folder-listing.js';
import { parseJsonObject } from '../../core/json.js';
import { resolveLibraryPath, type LibraryPathKind } from '../../core/library-path.js';
import { pathOps } from '../../core/platform/platform.js';
import { readManifestBytes } from '../../core/read-manifest.js';
import { envFolders, joinSearchPath, sysconfFolders, type SearchFolder } from '../../core/search-path.js';
import { createContext, type DiscoveryContext, type DiscoveryOptions } from './context.js';
import { resolvePlatform } from './discover.js';
import { formatDiagnostic, type Diagnostic } from './diagnostics.js';
import { OPENXR_MAJOR_VERSION, parseRuntimeManifest } from './manifest.js';
import { discoverRuntime, windowsOpenXrKey, type RuntimeDiscoveryResult, type RuntimeSource } from './runtime-discovery.js';

/** Where a listed manifest was found. */
export type ListedRuntimeSource = RuntimeSource | 'XDG_DATA_HOME' | 'XDG_DATA_DIRS' | 'AvailableRuntimes';

export interface ListedRuntime {
  /** The manifest's `runtime.name`, else its file name without `.json` (of the real file, symlinks followed). */
  readonly name: string;
  readonly nameFrom: 'manifest' | 'file name';
  /** The manifest to choose it by path (createLoader({ runtime }), XR_RUNTIME_JSON). */
  readonly manifestPath: string;
  readonly source: ListedRuntimeSource;
  /** Every place this same file was found (an active_runtime.json link and its target are one runtime). */
  readonly foundAt: readonly { readonly path: string; readonly source: ListedRuntimeSource }[];
  /** Where the native side would load the library from; null when the manifest cannot be read. */
  readonly libraryPath: string | null;
  readonly libraryPathKind: LibraryPathKind | null;
  /** false when the library file is missing; undefined for a bare name (the system search decides) or no manifest. */
  readonly libraryExists: boolean | undefined;
  readonly negotiateFunctionName: string | null;
  /** Whether applications started now get this runtime. */
  readonly active: boolean;
  /** Why it is, or is not, the active runtime. */
  readonly activeReason: string;
  /** Windows: the AvailableRuntimes value is non-zero (listed only with includeDisabled). */
  readonly disabled: boolean;
  readonly disabledReason?: string;
  /** false when a problem stops the loader from using it (an error among `problems`). */
  readonly usable: boolean;
  readonly problems: readonly Diagnostic[];
}

export interface ListRuntimesOptions {
  /** Windows: also list the AvailableRuntimes entries whose value is non-zero (marked `disabled`). */
  readonly includeDisabled?: boolean;
}

export interface RuntimeListing {
  readonly runtimes: readonly ListedRuntime[];
  /** Every folder, registry key and file looked at, in order. */
  readonly searched: readonly string[];
}

interface Found {
  readonly path: string;
  readonly source: ListedRuntimeSource;
  /** Windows: the AvailableRuntimes value, when it is not DWORD 0. */
  readonly disabledReason?: string;
  readonly problem?: Diagnostic;
}

const RUNTIME_FOLDER = `openxr/${OPENXR_MAJOR_VERSION}`;
const NEGOTIATE = 'xrNegotiateLoaderRuntimeInterface';

/** The Linux folders runtime manifests are installed in, in precedence order (that of active_runtime.json, then the data folders). */
function linuxFolders(ctx: DiscoveryContext): SearchFolder<ListedRuntimeSource>[] {
  const home = ctx.secureEnv('HOME');
  const configHome = ctx.secureEnv('XDG_CONFIG_HOME') || (home ? `${home}/.config` : undefined);
  const dataHome = ctx.secureEnv('XDG_DATA_HOME') || (home ? `${home}/.local/share` : undefined);
  return [
    ...(configHome ? [{ path: joinSearchPath(configHome, RUNTIME_FOLDER), source: 'XDG_CONFIG_HOME' as const }] : []),
    ...envFolders<ListedRuntimeSource>(ctx, 'XDG_CONFIG_DIRS', '/etc/xdg', RUNTIME_FOLDER, 'XDG_CONFIG_DIRS'),
    ...sysconfFolders<ListedRuntimeSource>(ctx, RUNTIME_FOLDER, { sysconfdir: 'SYSCONFDIR', extraSysconfdir: 'EXTRASYSCONFDIR' }),
    ...(dataHome ? [{ path: joinSearchPath(dataHome, RUNTIME_FOLDER), source: 'XDG_DATA_HOME' as const }] : []),
    ...envFolders<ListedRuntimeSource>(ctx, 'XDG_DATA_DIRS', '/usr/local/share:/usr/share', RUNTIME_FOLDER, 'XDG_DATA_DIRS'),
  ];
}

/** HKLM\...\OpenXR\<major>\AvailableRuntimes: each value's name is a manifest path; DWORD 0 lists it. */
function windowsAvailable(ctx: DiscoveryContext, searched: string[]): Found[] {
  const key = `${windowsOpenXrKey(ctx)}\\AvailableRuntimes`;
  const where = `HKEY_LOCAL_MACHINE\\${key}`;
  searched.push(where);
  const values = ctx.platform.registry?.values('HKLM', key);
  if (values === undefined) {
    ctx.log('info', `listRuntimes - no registry key ${where}: no runtime registered itself for enumeration`);
    return [];
  }
  return values.map((v): Found => {
    const field = `${where}\\${v.name}`;
    if (v.type !== 'REG_DWORD' || typeof v.data !== 'number') {
      return {
        path: v.name,
        source: 'AvailableRuntimes',
        disabledReason: `the registry value is ${v.type}, not a DWORD 0, so it does not make the runtime available`,
        problem: { severity: 'warning', file: v.name, field, reason: `is ${v.type}; the specification asks for a DWORD (0: available, non-zero: disabled)` },
      };
    }
    if (v.data !== 0) return { path: v.name, source: 'AvailableRuntimes', disabledReason: `the runtime disabled itself: its AvailableRuntimes value is ${v.data}, not 0` };
    return { path: v.name, source: 'AvailableRuntimes' };
  });
}

/** The manifests of the folders, sorted within each folder. */
function linuxFound(ctx: DiscoveryContext, searched: string[]): Found[] {
  const out: Found[] = [];
  for (const folder of linuxFolders(ctx)) {
    searched.push(folder.path);
    ctx.log('info', `listRuntimes - looking for runtime manifests in ${folder.path} (${folder.source})`);
    for (const f of jsonFilesIn(ctx, folder)) out.push({ path: f.file, source: f.source });
  }
  return out;
}

interface ReadManifest {
  readonly name?: string;
  readonly libraryPath: string | null;
  readonly libraryPathKind: LibraryPathKind | null;
  readonly libraryExists: boolean | undefined;
  readonly negotiateFunctionName: string | null;
  readonly problems: Diagnostic[];
}

/**
 * Reads one candidate. A file found only by listing a folder may be JSON without a `runtime`
 * object (an unrelated file): then undefined. A file named as a runtime (the active one, a
 * registry value) must be a runtime manifest.
 */
function readCandidate(ctx: DiscoveryContext, file: string, namedAsRuntime: boolean): ReadManifest | undefined {
  const broken = (d: Diagnostic): ReadManifest => ({
    libraryPath: null,
    libraryPathKind: null,
    libraryExists: undefined,
    negotiateFunctionName: null,
    problems: [{ ...d, code: 'XR_ERROR_RUNTIME_UNAVAILABLE' }],
  });
  const bytes = readManifestBytes(ctx, file);
  if ('error' in bytes) return broken(bytes.error);
  const json = parseJsonObject(file, bytes.data, { comments: true });
  // Broken JSON in a runtime folder is most likely a broken runtime manifest: list it with why.
  if ('error' in json) return broken(json.error);
  if (!('runtime' in json.root) && !namedAsRuntime) {
    ctx.log('info', `listRuntimes - ${file} has no "runtime" object: not a runtime manifest, skipped`);
    return undefined;
  }
  const parsed = parseRuntimeManifest(file, bytes.data);
  if (!parsed.ok) return broken(parsed.error);
  const m = parsed.manifest;
  const p = pathOps(ctx.platform);
  const canonical = ctx.platform.fs.realpath(file) ?? file;
  const lib = resolveLibraryPath(ctx.platform, p.dirname(canonical), m.library_path);
  const problems: Diagnostic[] = [...parsed.warnings];
  if (lib.exists === false) {
    problems.push({ severity: 'error', file, field: 'runtime.library_path', reason: `the library ${lib.path} does not exist; the runtime cannot be loaded`, code: 'XR_ERROR_RUNTIME_UNAVAILABLE' });
  }
  return {
    ...(m.name !== undefined ? { name: m.name } : {}),
    libraryPath: lib.path,
    libraryPathKind: lib.kind,
    libraryExists: lib.exists,
    negotiateFunctionName: m.functions[NEGOTIATE] ?? NEGOTIATE,
    problems,
  };
}

const ACTIVE_FILE = /^active_runtime(\.[^.]+)?\.json$/i;

/**
 * The active-runtime search as a listing sees it: no active runtime, or a broken one, is a fact
 * to list (each entry carries its own problems), not an error to print, so its lines are info.
 */
function listingView(ctx: DiscoveryContext): DiscoveryContext {
  const view: DiscoveryContext = {
    ...ctx,
    diagnostics: [],
    log: (_level, message, command, category) => ctx.log('info', message, command, category),
    report: (d) => {
      view.diagnostics.push(d);
      view.log('info', formatDiagnostic(d));
    },
  };
  return view;
}

function activeWords(active: RuntimeDiscoveryResult): string {
  const c = active.chosenManifest;
  if (c) return `not the active runtime (the active one is ${c.path}: ${c.reason})`;
  return `not the active runtime (no runtime is active: ${active.unavailableReason ?? 'none found'})`;
}

/** Every runtime manifest found on the context's platform, the active one first. Never throws. */
export function listRuntimesWith(ctx: DiscoveryContext, options: ListRuntimesOptions = {}): RuntimeListing {
  const { platform } = ctx;
  const p = pathOps(platform);
  const active = discoverRuntime(listingView(ctx));
  const searched: string[] = [...active.searched];
  const found: Found[] = [];
  if (active.chosenManifest) found.push({ path: active.chosenManifest.path, source: active.chosenManifest.source });
  if (platform.os === 'windows') found.push(...windowsAvailable(ctx, searched));
  else if (platform.os === 'linux') found.push(...linuxFound(ctx, searched));

  // One entry per real file, in the order first found.
  const keyOf = (file: string): string => {
    const real = platform.fs.realpath(file) ?? file;
    return platform.os === 'windows' ? real.toLowerCase() : real;
  };
  const groups = new Map<string, Found[]>();
  for (const f of found) {
    const key = keyOf(f.path);
    const group = groups.get(key);
    // The active manifest is also met again in its folder: once is enough.
    if (group === undefined) groups.set(key, [f]);
    else if (!group.some((g) => g.path === f.path && g.source === f.source)) group.push(f);
  }
  const activeKey = active.chosenManifest ? keyOf(active.chosenManifest.path) : undefined;

  const runtimes: ListedRuntime[] = [];
  const names = new Map<string, string>();
  for (const [key, group] of groups) {
    const first = group[0] as Found;
    // Named by a runtime-specific file rather than an active_runtime link to it, where there is one.
    const shown = group.find((f) => !ACTIVE_FILE.test(p.basename(f.path))) ?? first;
    const registered = group.filter((f) => f.source === 'AvailableRuntimes');
    const disabledReason = registered.length > 0 && registered.every((f) => f.disabledReason !== undefined) ? registered[0]?.disabledReason : undefined;
    const isActive = key === activeKey;
    // The active runtime is in force whatever its registration says, so it is always listed.
    if (disabledReason !== undefined && !isActive && options.includeDisabled !== true) continue;
    const read = readCandidate(ctx, shown.path, isActive || registered.length > 0);
    if (read === undefined) continue;
    const problems = [...group.flatMap((f) => (f.problem ? [f.problem] : [])), ...read.problems];
    const realName = p.basename(platform.fs.realpath(shown.path) ?? shown.path).replace(/\.json$/i, '');
    const name = read.name ?? realName;
    const disabled = disabledReason !== undefined;
    const earlier = names.get(name);
    if (earlier !== undefined && !disabled) {
      problems.push({ severity: 'warning', file: shown.path, field: 'runtime.name', reason: `${earlier} is listed before it with the same name "${name}"; choosing by name gives that one` });
    } else if (!disabled) names.set(name, shown.path);
    runtimes.push({
      name,
      nameFrom: read.name !== undefined ? 'manifest' : 'file name',
      manifestPath: shown.path,
      source: shown.source,
      foundAt: group.map((f) => ({ path: f.path, source: f.source })),
      libraryPath: read.libraryPath,
      libraryPathKind: read.libraryPathKind,
      libraryExists: read.libraryExists,
      negotiateFunctionName: read.negotiateFunctionName,
      active: isActive,
      activeReason: isActive ? (active.chosenManifest?.reason ?? '') : activeWords(active),
      disabled,
      ...(disabledReason !== undefined ? { disabledReason } : {}),
      usable: !problems.some((d) => d.severity === 'error'),
      problems,
    });
  }
  ctx.log('info', `listRuntimes - ${runtimes.length} runtime manifest(s) found`);
  return { runtimes, searched };
}

/**
 * Every runtime manifest found (the active one first), each with its name, library, whether it is
 * active and why, and its problems. Never throws: a broken manifest is an entry with problems.
 */
export function listRuntimes(options: DiscoveryOptions & ListRuntimesOptions = {}): ListedRuntime[] {
  const platform = resolvePlatform(options);
  return [...listRuntimesWith(createContext(platform, { ...options, command: options.command ?? 'listRuntimes' }), options).runtimes];
}
