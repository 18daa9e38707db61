// Finding and reading the loader settings file (LoaderSettingsFile.md; settings.c
// get_unix_settings_path): on Linux, macOS and Fuchsia the first vulkan/loader_settings.d/
// vk_loader_settings.json under XDG_CONFIG_HOME, XDG_DATA_HOME, ~/.config, ~/.local/share,
// XDG_CONFIG_DIRS, SYSCONFDIR, EXTRASYSCONFDIR, XDG_DATA_DIRS (variables read securely); on Windows
// the value names under HKCU (not when elevated), then HKLM, SOFTWARE\Khronos\Vulkan\LoaderSettings.
import { splitPathList } from '../../core/search-path.js';
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
  const sep = platform.pathSeparator;
  const fuchsia = platform.os === 'fuchsia';
  const under = (list: string | undefined): string[] => (list ? splitPathList(list, sep).map((d) => `${d.replace(/\/$/, '')}/${REL}`) : []);
  const configHome = ctx.secureEnv('XDG_CONFIG_HOME');
  const dataHome = ctx.secureEnv('XDG_DATA_HOME');
  const home = ctx.secureEnv('HOME');
  return [
    ...under(configHome),
    ...under(dataHome),
    ...(home && !configHome ? under(`${home}/.config`) : []),
    ...(home && !dataHome ? under(`${home}/.local/share`) : []),
    ...under(ctx.secureEnv('XDG_CONFIG_DIRS') || (fuchsia ? undefined : '/etc/xdg')),
    ...under(ctx.sysconfdir),
    ...(ctx.extraSysconfdir !== null && ctx.extraSysconfdir !== ctx.sysconfdir ? under(ctx.extraSysconfdir) : []),
    ...under(ctx.secureEnv('XDG_DATA_DIRS') || (fuchsia ? undefined : '/usr/local/share:/usr/share')),
  ];
}

export interface SettingsDiscoveryResult {
  readonly settings?: VulkanLoaderSettings;
  readonly searched: readonly string[];
}

/** The settings file in force, if one is found and holds valid settings. */
export function discoverSettingsFile(ctx: VulkanDiscoveryContext): SettingsDiscoveryResult {
  const searched = settingsFileCandidates(ctx);
  const file = searched.find((p) => ctx.platform.fs.stat(p)?.kind === 'file');
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
