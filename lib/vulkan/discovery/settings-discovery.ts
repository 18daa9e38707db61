// Finding and reading the loader settings file, as the Khronos loader 1.4.359 finds it
// (LoaderSettingsFile.md, "Settings File Discovery"; its settings.c get_unix_settings_path): on
// Linux, macOS and Fuchsia the first vulkan/loader_settings.d/vk_loader_settings.json that exists
// under XDG_CONFIG_HOME, XDG_DATA_HOME, ~/.config (XDG_CONFIG_HOME unset or empty), ~/.local/share
// (XDG_DATA_HOME unset or empty), XDG_CONFIG_DIRS (/etc/xdg), SYSCONFDIR, EXTRASYSCONFDIR,
// XDG_DATA_DIRS (/usr/local/share:/usr/share); the variables are read securely, so an elevated
// process searches the system folders only. Of a ':' list that loader searches only the first
// entry (each later one is looked up with the separator in front, a path relative to the working
// directory that we never search: docs/conformance.md, "The loader settings file"); an entry of
// one character is skipped. The first path that exists wins, whatever it holds: a folder or a
// broken file there means no settings, not the next location. On Windows the value names under
// HKCU (not when elevated), then HKLM, SOFTWARE\Khronos\Vulkan\LoaderSettings.
import type { VulkanDiscoveryContext } from './context.js';
import { readJsonManifest } from './manifest-files.js';
import { parseSettingsFile, SETTINGS_FILE_NAME, type VulkanLoaderSettings } from './settings-file.js';

const REL = `vulkan/loader_settings.d/${SETTINGS_FILE_NAME}`;

export function settingsFileCandidates(ctx: VulkanDiscoveryContext): string[] {
  const { platform } = ctx;
  if (platform.os === 'windows') {
    const out: string[] = [];
    for (const hive of platform.elevated ? (['HKLM'] as const) : (['HKCU', 'HKLM'] as const)) {
      for (const v of platform.registry?.values(hive, 'SOFTWARE\\Khronos\\Vulkan\\LoaderSettings') ?? []) {
        if (v.type === 'REG_DWORD' && v.name.toLowerCase().endsWith(SETTINGS_FILE_NAME)) out.push(v.name);
      }
    }
    return out;
  }
  if (platform.os === 'android') return [];
  const fuchsia = platform.os === 'fuchsia';
  const configHome = ctx.secureEnv('XDG_CONFIG_HOME');
  const dataHome = ctx.secureEnv('XDG_DATA_HOME');
  return [
    ...userSettingsFileCandidates({ home: ctx.secureEnv('HOME'), configHome, dataHome }, platform.pathSeparator),
    ...under(ctx.secureEnv('XDG_CONFIG_DIRS') || (fuchsia ? undefined : '/etc/xdg'), platform.pathSeparator),
    ...under(ctx.sysconfdir, platform.pathSeparator),
    ...(ctx.extraSysconfdir !== null && ctx.extraSysconfdir !== ctx.sysconfdir ? under(ctx.extraSysconfdir, platform.pathSeparator) : []),
    ...under(ctx.secureEnv('XDG_DATA_DIRS') || (fuchsia ? undefined : '/usr/local/share:/usr/share'), platform.pathSeparator),
  ];
}

/**
 * The settings file under a base the Khronos loader looks in (settings.c
 * check_if_settings_path_exists): its first ':' entry, unless that is empty or one character,
 * then `sub` (HOME's ".config/") and the file's relative path.
 */
function under(base: string | undefined, separator: string, sub = ''): string[] {
  const first = base?.split(separator)[0] ?? '';
  return first.length > 1 ? [`${first.replace(/\/$/, '')}/${sub}${REL}`] : [];
}

/** The user's variables that place a settings file (each undefined or empty when unset). */
export interface UserSettingsFolders {
  readonly home: string | undefined;
  readonly configHome: string | undefined;
  readonly dataHome: string | undefined;
}

/**
 * The per-user settings file locations in search order: XDG_CONFIG_HOME, XDG_DATA_HOME, then
 * ~/.config and ~/.local/share where those are unset or empty. `khronos-loader layers vulkan`
 * writes the first of them that exists (the one in force), else the data-home one.
 */
export function userSettingsFileCandidates(user: UserSettingsFolders, separator = ':'): string[] {
  const { home, configHome } = user;
  const dataHome = dataHomeSettingsFile(user, separator);
  return [
    ...under(configHome, separator),
    ...(user.dataHome ? dataHome : []),
    ...(home && !configHome ? under(home, separator, '.config/') : []),
    ...(user.dataHome ? [] : dataHome),
  ];
}

/** The data-home settings file (XDG_DATA_HOME's, else ~/.local/share's): where vkconfig writes one. */
export function dataHomeSettingsFile(user: UserSettingsFolders, separator = ':'): string[] {
  if (user.dataHome) return under(user.dataHome, separator);
  return user.home ? under(user.home, separator, '.local/share/') : [];
}

export interface SettingsDiscoveryResult {
  readonly settings?: VulkanLoaderSettings;
  readonly searched: readonly string[];
}

/** The settings file in force, if one is found and holds valid settings. */
export function discoverSettingsFile(ctx: VulkanDiscoveryContext): SettingsDiscoveryResult {
  const searched = settingsFileCandidates(ctx);
  // What exists wins (the Khronos loader asks access(F_OK)): a folder of that name too.
  const file = searched.find((p) => ctx.platform.fs.stat(p) !== undefined);
  if (file === undefined) {
    ctx.log('info', 'No valid vk_loader_settings.json file found, no loader settings will be active');
    return { searched };
  }
  const json = readJsonManifest(ctx, file);
  if ('error' in json) {
    ctx.report(json.error);
    return { searched };
  }
  const parsed = parseSettingsFile(file, json.value, ctx.platform.executablePath);
  for (const d of parsed.diagnostics) ctx.report(d);
  if (!parsed.ok) return { searched };
  if (parsed.settings.stderrLog && parsed.settings.stderrLog.length > 0) ctx.useSettingsLog(parsed.settings.stderrLog);
  ctx.log('info', `Loader settings file ${file} is active (settings for ${parsed.settings.appliesTo})`);
  return { settings: parsed.settings, searched };
}
