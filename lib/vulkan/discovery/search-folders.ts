// VK-LD-1, VK-LD-2, VK-LD-4, VK-DR-1: where Vulkan manifests are looked for, per kind, in the
// Khronos loader's order (loader_get_data_files). Environment variables are read securely: an
// elevated process ignores them (and the per-user folders) and says so.
import { envFolders, foldersFromList, sysconfFolders, type SearchFolder } from '../../core/search-path.js';
import { pathOps } from '../../core/platform/platform.js';
import type { VulkanDiscoveryContext } from './context.js';

export type VulkanManifestKind = 'implicit_layer' | 'explicit_layer' | 'icd';

export type VulkanSearchSource =
  | 'VK_LAYER_PATH'
  | 'VK_ADD_LAYER_PATH'
  | 'VK_IMPLICIT_LAYER_PATH'
  | 'VK_ADD_IMPLICIT_LAYER_PATH'
  | 'VK_DRIVER_FILES'
  | 'VK_ICD_FILENAMES'
  | 'VK_ADD_DRIVER_FILES'
  | 'override_paths'
  | 'bundle'
  | 'XDG_CONFIG_HOME'
  | 'XDG_CONFIG_DIRS'
  | 'SYSCONFDIR'
  | 'EXTRASYSCONFDIR'
  | 'XDG_DATA_HOME'
  | 'XDG_DATA_DIRS'
  | 'registry'
  | 'android-debug'
  | 'android-app'
  | 'android-hal'
  | 'settings-file'
  | 'fuchsia-package';

/** A folder (or, from the environment variables, a single manifest file) to read. */
export type VulkanSearchEntry = SearchFolder<VulkanSearchSource>;

export const MANIFEST_FOLDER: Readonly<Record<VulkanManifestKind, string>> = {
  implicit_layer: 'vulkan/implicit_layer.d',
  explicit_layer: 'vulkan/explicit_layer.d',
  icd: 'vulkan/icd.d',
};

/** The variable that replaces the standard search, and the one that adds folders before it. */
const OVERRIDE_VARIABLES: Readonly<Record<VulkanManifestKind, { replace: readonly ('VK_LAYER_PATH' | 'VK_IMPLICIT_LAYER_PATH' | 'VK_DRIVER_FILES' | 'VK_ICD_FILENAMES')[]; add: 'VK_ADD_LAYER_PATH' | 'VK_ADD_IMPLICIT_LAYER_PATH' | 'VK_ADD_DRIVER_FILES' }>> = {
  implicit_layer: { replace: ['VK_IMPLICIT_LAYER_PATH'], add: 'VK_ADD_IMPLICIT_LAYER_PATH' },
  explicit_layer: { replace: ['VK_LAYER_PATH'], add: 'VK_ADD_LAYER_PATH' },
  icd: { replace: ['VK_DRIVER_FILES', 'VK_ICD_FILENAMES'], add: 'VK_ADD_DRIVER_FILES' },
};

/** macOS: the application bundle of an executable at X.app/Contents/MacOS/name. */
export function macosBundle(executablePath: string): string | undefined {
  const m = /^(.*\.app)\/Contents\/MacOS\/[^/]+$/.exec(executablePath);
  return m?.[1];
}

/** The standard folders of Linux, macOS (bundle first) and Fuchsia (no XDG fallbacks). */
export function standardFolders(ctx: VulkanDiscoveryContext, kind: VulkanManifestKind): VulkanSearchEntry[] {
  const { platform } = ctx;
  const rel = MANIFEST_FOLDER[kind];
  const fuchsia = platform.os === 'fuchsia';
  const out: VulkanSearchEntry[] = [];
  if (platform.os === 'macos') {
    const bundle = macosBundle(platform.executablePath);
    if (bundle !== undefined) out.push({ path: `${bundle}/Contents/Resources/${rel}`, source: 'bundle' });
    // VK_LOADER_SEARCH_ONLY_IN_BUNDLE (Khronos loader 1.4.360 and later): set to anything, no standard
    // folder outside the bundle (none at all outside an app bundle); the replacing and adding
    // variables still apply, and elevated processes do not read it (docs/conformance.md).
    if (ctx.secureEnv('VK_LOADER_SEARCH_ONLY_IN_BUNDLE') !== undefined) return out;
  }
  const home = ctx.secureEnv('HOME');
  const configHome = ctx.secureEnv('XDG_CONFIG_HOME');
  if (configHome) out.push(...foldersFromList(configHome, platform.pathSeparator, rel, 'XDG_CONFIG_HOME'));
  else if (home) out.push({ path: `${home}/.config/${rel}`, source: 'XDG_CONFIG_HOME' });
  out.push(...envFolders(ctx, 'XDG_CONFIG_DIRS', fuchsia ? undefined : '/etc/xdg', rel, 'XDG_CONFIG_DIRS'));
  out.push(...sysconfFolders(ctx, rel, { sysconfdir: 'SYSCONFDIR', extraSysconfdir: 'EXTRASYSCONFDIR' }));
  const dataHome = ctx.secureEnv('XDG_DATA_HOME');
  if (dataHome) out.push(...foldersFromList(dataHome, platform.pathSeparator, rel, 'XDG_DATA_HOME'));
  else if (home) out.push({ path: `${home}/.local/share/${rel}`, source: 'XDG_DATA_HOME' });
  out.push(...envFolders(ctx, 'XDG_DATA_DIRS', fuchsia ? undefined : '/usr/local/share:/usr/share', rel, 'XDG_DATA_DIRS'));
  // Fuchsia: a component reads its own package's data (/pkg/data), where it ships manifests such
  // as the override layer (fuchsia-gapii-packaging-vulkan-metalayer.md).
  if (fuchsia) out.push({ path: `/pkg/data/${rel}`, source: 'fuchsia-package' });
  return out;
}

export interface SearchPlan {
  readonly entries: readonly VulkanSearchEntry[];
  /** The variable or setting that replaced the standard folders, if one did. */
  readonly replacedBy?: VulkanSearchSource;
}

/**
 * The entries for one kind: a replacing variable's entries alone; else the adding variable's
 * entries, then the standard folders. `overridePaths` (the override layer's) replace the explicit
 * layer search, VK_LAYER_PATH included. `ignoreVariables`: the standard folders only (drivers
 * while the settings file's device_configurations are on: docs/conformance.md, "device_configurations").
 */
export function searchPlan(ctx: VulkanDiscoveryContext, kind: VulkanManifestKind, overridePaths?: readonly string[], ignoreVariables = false): SearchPlan {
  const sep = ctx.platform.pathSeparator;
  if (kind === 'explicit_layer' && overridePaths !== undefined && overridePaths.length > 0) {
    const layerPath = ctx.platform.env.get('VK_LAYER_PATH');
    if (layerPath) {
      ctx.log('warn', `Ignoring VK_LAYER_PATH. The Override layer is active and has override paths set, which takes priority. VK_LAYER_PATH is set to ${layerPath}`, undefined, 'layer');
    }
    return { entries: overridePaths.map((p) => ({ path: p, source: 'override_paths' as const })), replacedBy: 'override_paths' };
  }
  const vars = OVERRIDE_VARIABLES[kind];
  if (ignoreVariables) {
    return { entries: ctx.platform.os === 'windows' || ctx.platform.os === 'android' ? [] : standardFolders(ctx, kind) };
  }
  for (const name of vars.replace) {
    const value = ctx.secureEnv(name);
    if (value) return { entries: foldersFromList(value, sep, undefined, name), replacedBy: name };
  }
  const added = envFolders(ctx, vars.add, undefined, undefined, vars.add);
  if (ctx.platform.os === 'windows' || ctx.platform.os === 'android') return { entries: added };
  return { entries: [...added, ...standardFolders(ctx, kind)] };
}

/** Joins a folder and a file name with the platform's separator. */
export function inFolder(ctx: VulkanDiscoveryContext, folder: string, name: string): string {
  const p = pathOps(ctx.platform);
  return folder.endsWith(p.sep) ? folder + name : folder + p.sep + name;
}
