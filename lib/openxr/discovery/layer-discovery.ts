// XR-LD-1..7, XR-LM-1..5: finding API layer manifests. Manifests are read; libraries never are.
import { jsonFilesInFolders } from '../../core/folder-listing.js';
import { resolveLibraryPath, type LibraryPathKind } from '../../core/library-path.js';
import { pathOps } from '../../core/platform/platform.js';
import { readManifestBytes } from '../../core/read-manifest.js';
import { envFolders, foldersFromList, joinSearchPath, splitPathList, sysconfFolders, type SearchFolder } from '../../core/search-path.js';
import type { DiscoveryContext } from './context.js';
import { implicitLayerState } from './layer-policy.js';
import {
  OPENXR_MAJOR_VERSION,
  parseApiLayerManifest,
  xrMakeVersion,
  type ApiLayerKind,
  type ApiLayerManifest,
  type ExtensionProperty,
} from './manifest.js';
import { windowsOpenXrKey } from './runtime-discovery.js';

export type LayerSource =
  | 'XR_API_LAYER_PATH'
  | 'XDG_CONFIG_DIRS'
  | 'SYSCONFDIR'
  | 'EXTRASYSCONFDIR'
  | 'XDG_DATA_DIRS'
  | 'XDG_DATA_HOME'
  | 'registry'
  | 'android-assets'
  | 'android-system';

export interface DiscoveredApiLayer {
  readonly name: string;
  readonly kind: ApiLayerKind;
  readonly manifestPath: string;
  readonly source: LayerSource;
  readonly file_format_version: string;
  readonly libraryPath: string;
  readonly libraryPathKind: LibraryPathKind;
  readonly libraryPathInManifest: string;
  /** "major.minor" as in the manifest. */
  readonly apiVersion: string;
  /** XR_MAKE_VERSION(major, minor, 0): XrApiLayerProperties.specVersion. */
  readonly specVersion: number;
  /** XrApiLayerProperties.layerVersion. */
  readonly implementationVersion: number;
  readonly description: string;
  readonly instanceExtensions: readonly ExtensionProperty[];
  readonly functions: Readonly<Record<string, string>>;
  readonly negotiateFunctionName: string;
  readonly enableEnvironment?: string;
  readonly disableEnvironment?: string;
  /** Implicit: on unless its environment says otherwise. Explicit: always false (on only when asked for). */
  readonly enabledByDefault: boolean;
  /** Why it is on or off by default, in words. */
  readonly enabledReason: string;
}

type Folder = SearchFolder<LayerSource>;

const NEGOTIATE = 'xrNegotiateLoaderApiLayerInterface';

function relativeFolder(kind: ApiLayerKind): string {
  return `openxr/${OPENXR_MAJOR_VERSION}/api_layers/${kind}.d`;
}

/** The Linux folders, in the Khronos loader's order (manifest_file.cpp ReadDataFilesInSearchPaths). */
function linuxFolders(ctx: DiscoveryContext, kind: ApiLayerKind): Folder[] {
  const sep = ctx.platform.pathSeparator;
  const rel = relativeFolder(kind);
  const out: Folder[] = [];
  out.push(...envFolders(ctx, 'XDG_CONFIG_DIRS', '/etc/xdg', rel, 'XDG_CONFIG_DIRS'));
  out.push(...sysconfFolders(ctx, rel, { sysconfdir: 'SYSCONFDIR', extraSysconfdir: 'EXTRASYSCONFDIR' }));
  out.push(...envFolders(ctx, 'XDG_DATA_DIRS', '/usr/local/share:/usr/share', rel, 'XDG_DATA_DIRS'));
  const dataHome = ctx.secureEnv('XDG_DATA_HOME');
  const home = ctx.secureEnv('HOME');
  if (dataHome) out.push(...foldersFromList(dataHome, sep, rel, 'XDG_DATA_HOME'));
  else if (home) out.push({ path: joinSearchPath(home, `.local/share/${rel}`), source: 'XDG_DATA_HOME' });
  return out;
}

// XR-LD-5
/** The specification's order: implicit product, odm, oem, system, vendor; explicit product, oem, vendor, system, odm. */
export const ANDROID_LAYER_PARTITIONS: Readonly<Record<ApiLayerKind, readonly string[]>> = {
  implicit: ['/product', '/odm', '/oem', '/system', '/vendor'],
  explicit: ['/product', '/oem', '/vendor', '/system', '/odm'],
};

/** XR_API_LAYER_PATH replaces the standard explicit search; it is never honoured when elevated. */
function overrideFolders(ctx: DiscoveryContext, kind: ApiLayerKind): Folder[] | undefined {
  if (kind !== 'explicit') return undefined;
  const value = ctx.secureEnv('XR_API_LAYER_PATH');
  if (!value) return undefined;
  ctx.log('info', `Using XR_API_LAYER_PATH (${value}) instead of the standard explicit API layer folders`);
  return splitPathList(value, ctx.platform.pathSeparator).map((d) => ({ path: d, source: 'XR_API_LAYER_PATH' as const }));
}

interface ManifestRef {
  file: string;
  source: LayerSource;
  /** Android assets are read through the asset manager, not the file system. */
  asset?: boolean;
}

function windowsManifests(ctx: DiscoveryContext, kind: ApiLayerKind, out: ManifestRef[]): void {
  const key = `${windowsOpenXrKey(ctx)}\\ApiLayers\\${kind === 'implicit' ? 'Implicit' : 'Explicit'}`;
  // A high-integrity process must not act on what a medium-integrity one can write (HKCU).
  const hives = ctx.platform.elevated ? (['HKLM'] as const) : (['HKLM', 'HKCU'] as const);
  let anyKey = false;
  for (const hive of hives) {
    const values = ctx.platform.registry?.values(hive, key);
    if (values === undefined) continue;
    anyKey = true;
    for (const v of values) {
      const where = `${hive === 'HKLM' ? 'HKEY_LOCAL_MACHINE' : 'HKEY_CURRENT_USER'}\\${key}`;
      if (v.type !== 'REG_DWORD' || typeof v.data !== 'number') {
        ctx.report({ severity: 'warning', file: v.name, field: where, reason: `the registry value is ${v.type}, not a DWORD; skipped` });
        continue;
      }
      if (v.data !== 0) {
        ctx.log('info', `Skipping ${v.name}: its registry value under ${where} is ${v.data}, not 0`);
        continue;
      }
      const st = ctx.platform.fs.stat(v.name);
      if (st?.kind !== 'file' || !v.name.toLowerCase().endsWith('.json')) {
        ctx.report({ severity: 'warning', file: v.name, field: where, reason: 'the registry names a manifest that does not exist or is not a .json file' });
        continue;
      }
      out.push({ file: v.name, source: 'registry' });
    }
  }
  if (!anyKey) {
    ctx.log(
      'warn',
      `ReadLayerDataFilesInRegistry - failed to read registry location ApiLayers\\${kind === 'implicit' ? 'Implicit' : 'Explicit'} in ${ctx.platform.elevated ? 'HKEY_LOCAL_MACHINE' : 'either HKEY_LOCAL_MACHINE or HKEY_CURRENT_USER'}`,
    );
  }
}

function androidAssets(ctx: DiscoveryContext, kind: ApiLayerKind, out: ManifestRef[]): void {
  const assets = ctx.platform.android?.assets;
  if (!assets) return;
  const dir = `${relativeFolder(kind)}/`;
  const names = assets.list(dir);
  if (!names) return;
  for (const n of [...names].filter((x) => x.endsWith('.json')).sort()) out.push({ file: dir + n, source: 'android-assets', asset: true });
}

/** The manifest files for one kind of layer, in search order. */
export function findApiLayerManifests(ctx: DiscoveryContext, kind: ApiLayerKind): { files: ManifestRef[]; folders: string[] } {
  const files: ManifestRef[] = [];
  const folders: string[] = [];
  const override = overrideFolders(ctx, kind);
  const scan = (list: Folder[]): void => {
    // The same folder listed twice (e.g. /usr/share in XDG_DATA_DIRS twice) is searched once.
    const found = jsonFilesInFolders(ctx, list);
    files.push(...found.files);
    folders.push(...found.searched);
  };
  if (override) {
    scan(override);
    return { files, folders };
  }
  switch (ctx.platform.os) {
    case 'linux':
    case 'macos':
    case 'fuchsia':
      scan(linuxFolders(ctx, kind));
      break;
    case 'windows':
      windowsManifests(ctx, kind, files);
      break;
    case 'android':
      androidAssets(ctx, kind, files);
      scan(ANDROID_LAYER_PARTITIONS[kind].map((part) => ({ path: `${part}/etc/${relativeFolder(kind)}`, source: 'android-system' as const })));
      break;
  }
  return { files, folders };
}

function loadLayer(ctx: DiscoveryContext, ref: ManifestRef, kind: ApiLayerKind): DiscoveredApiLayer | undefined {
  let data: Uint8Array;
  if (ref.asset) {
    const bytes = ctx.platform.android?.assets?.read(ref.file);
    if (!bytes) {
      ctx.report({ severity: 'error', file: ref.file, reason: 'the APK asset cannot be read' });
      return undefined;
    }
    data = bytes;
  } else {
    const r = readManifestBytes(ctx, ref.file);
    if ('error' in r) {
      ctx.report(r.error);
      return undefined;
    }
    data = r.data;
  }
  const parsed = parseApiLayerManifest(ref.file, data, kind);
  if (!parsed.ok) {
    ctx.report(parsed.error);
    return undefined;
  }
  for (const w of parsed.warnings) ctx.report(w);
  const m: ApiLayerManifest = parsed.manifest;
  const p = pathOps(ctx.platform);
  // Layers packaged in an APK keep their libraries in the application's native library folder.
  const baseDir = ref.asset ? (ctx.platform.android?.nativeLibraryDir ?? '/') : p.dirname(ref.file);
  const lib = resolveLibraryPath(ctx.platform, baseDir, m.library_path);
  if (lib.exists === false) {
    ctx.report({ severity: 'error', file: ref.file, field: 'api_layer.library_path', reason: `the library ${lib.path} does not exist; layer skipped` });
    return undefined;
  }
  const state =
    kind === 'implicit'
      ? implicitLayerState(ctx.platform.env, m)
      : { enabled: false, reason: 'explicit: on only when the application or XR_ENABLE_API_LAYERS asks for it' };
  return {
    name: m.name,
    kind,
    manifestPath: ref.file,
    source: ref.source,
    file_format_version: m.file_format_version,
    libraryPath: lib.path,
    libraryPathKind: lib.kind,
    libraryPathInManifest: lib.inManifest,
    apiVersion: m.api_version,
    specVersion: xrMakeVersion(m.apiVersionMajor, m.apiVersionMinor, 0),
    implementationVersion: m.implementation_version,
    description: m.description,
    instanceExtensions: m.instance_extensions,
    functions: m.functions,
    negotiateFunctionName: m.functions[NEGOTIATE] ?? NEGOTIATE,
    ...(m.enable_environment !== undefined ? { enableEnvironment: m.enable_environment } : {}),
    ...(m.disable_environment !== undefined ? { disableEnvironment: m.disable_environment } : {}),
    enabledByDefault: state.enabled,
    enabledReason: state.reason,
  };
}

export interface ApiLayerDiscoveryResult {
  /** Every usable layer, implicit first, each in search order; duplicates removed (first wins). */
  readonly layers: readonly DiscoveredApiLayer[];
  /** The folders searched, per kind, in order. */
  readonly searched: { readonly implicit: readonly string[]; readonly explicit: readonly string[] };
}

/**
 * Implicit layers, then explicit ones, each in search order. A name seen twice keeps its first
 * layer; the rest become diagnostics. An implicit layer its environment turns off is listed (off)
 * but does not claim its name, as the Khronos loader treats it as absent.
 */
export function discoverApiLayers(ctx: DiscoveryContext): ApiLayerDiscoveryResult {
  const layers: DiscoveredApiLayer[] = [];
  const searched = { implicit: [] as string[], explicit: [] as string[] };
  const owner = new Map<string, DiscoveredApiLayer>();
  const seenFiles = new Set<string>();
  for (const kind of ['implicit', 'explicit'] as const) {
    const { files, folders } = findApiLayerManifests(ctx, kind);
    searched[kind].push(...folders);
    for (const ref of files) {
      const real = ref.asset ? `asset:${ref.file}` : (ctx.platform.fs.realpath(ref.file) ?? ref.file);
      if (seenFiles.has(real)) {
        ctx.log('debug', `Skipping ${ref.file}: the same manifest file was already read`);
        continue;
      }
      seenFiles.add(real);
      const layer = loadLayer(ctx, ref, kind);
      if (!layer) continue;
      const first = owner.get(layer.name);
      if (first) {
        ctx.report({
          severity: 'warning',
          file: layer.manifestPath,
          field: 'api_layer.name',
          reason: `duplicate layer name ${layer.name}: already provided by ${first.manifestPath} (found first); this one is ignored`,
        });
        continue;
      }
      const active = kind === 'explicit' || layer.enabledByDefault;
      if (active) owner.set(layer.name, layer);
      else if (layers.some((l) => l.name === layer.name)) {
        ctx.report({ severity: 'warning', file: layer.manifestPath, field: 'api_layer.name', reason: `duplicate layer name ${layer.name}; ignored` });
        continue;
      }
      if (kind === 'implicit' && !layer.enabledByDefault) ctx.log('info', `Implicit layer ${layer.manifestPath} is disabled: ${layer.enabledReason}`);
      layers.push(layer);
    }
  }
  return { layers, searched };
}
