// SANDBOX: whether the process runs inside Flatpak, Snap or Steam's container runtime
// (pressure-vessel), told from the injected Platform alone (its file-system root and environment),
// which host manifest folders that hides, and what exposes them (docs/usage.md, "Inside Flatpak,
// Snap and Steam's container runtime"). Pure: never throws, reads no real disk of its own.
import type { Platform } from './platform/platform.js';

export type SandboxKind = 'flatpak' | 'snap' | 'pressure-vessel';

/** A host folder the loaders search that the sandbox does not show as the host has it. */
export interface HiddenHostFolder {
  readonly api: 'openxr' | 'vulkan';
  /** The host path (as the loader would search it outside the sandbox). */
  readonly folder: string;
  /** What is at that path inside instead, or where the host's copy is, if anywhere. */
  readonly inside: string;
}

export interface SandboxReport {
  readonly kind: SandboxKind;
  /** What told us (a file, a variable). */
  readonly evidence: readonly string[];
  /** The sandboxed application (Flatpak id, snap name, Steam app id), when known. */
  readonly app?: string;
  readonly hidden: readonly HiddenHostFolder[];
  /** What makes the hidden folders visible, one line each. */
  readonly exposes: readonly string[];
}

const SYSTEM_FOLDERS: readonly { api: 'openxr' | 'vulkan'; folder: string }[] = [
  { api: 'vulkan', folder: '/usr/share/vulkan' },
  { api: 'vulkan', folder: '/usr/local/share/vulkan' },
  { api: 'vulkan', folder: '/etc/vulkan' },
  { api: 'openxr', folder: '/usr/share/openxr/1' },
  { api: 'openxr', folder: '/usr/local/share/openxr/1' },
  { api: 'openxr', folder: '/etc/xdg/openxr/1' },
  { api: 'openxr', folder: '/etc/openxr/1' },
];

/** The variables pressure-vessel sets or reads (the environment cannot be listed through the Platform). */
const PRESSURE_VESSEL_VARIABLES = [
  'PRESSURE_VESSEL_RUNTIME',
  'PRESSURE_VESSEL_RUNTIME_BASE',
  'PRESSURE_VESSEL_VARIABLE_DIR',
  'PRESSURE_VESSEL_FILESYSTEMS_RO',
  'PRESSURE_VESSEL_FILESYSTEMS_RW',
  'PRESSURE_VESSEL_IMPORT_VULKAN_LAYERS',
  'PRESSURE_VESSEL_IMPORT_OPENXR_1_RUNTIMES',
  'PRESSURE_VESSEL_COPY_RUNTIME',
  'PRESSURE_VESSEL_GRAPHICS_PROVIDER',
  'PRESSURE_VESSEL_SHELL',
];

function text(platform: Platform, p: string): string | undefined {
  const r = platform.fs.readFile(p, 64 * 1024);
  return 'data' in r ? new TextDecoder().decode(r.data) : undefined;
}

/** A key of a GKeyFile (ini) section, as /.flatpak-info is written. */
function iniValue(ini: string, section: string, key: string): string | undefined {
  let inSection = false;
  for (const raw of ini.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inSection = line === `[${section}]`;
    else if (inSection && line.startsWith(`${key}=`)) return line.slice(key.length + 1);
  }
  return undefined;
}

const exists = (platform: Platform, p: string): boolean => platform.fs.stat(p) !== undefined;

/** Where the host's own copy of `folder` is visible inside (under /run/host), or undefined. */
function hostCopy(platform: Platform, folder: string): string | undefined {
  const p = `/run/host${folder}`;
  return exists(platform, p) ? p : undefined;
}

function hiddenFolders(platform: Platform, home: string | undefined, userConfig: string | undefined, own: string): HiddenHostFolder[] {
  const out: HiddenHostFolder[] = SYSTEM_FOLDERS.map(({ api, folder }) => {
    const copy = hostCopy(platform, folder);
    return { api, folder, inside: copy !== undefined ? `the ${own}'s own ${folder}; the host's is at ${copy}, where no loader looks` : `the ${own}'s own ${folder} (the host's is not visible)` };
  });
  // The user's active OpenXR runtime and Vulkan settings live in the host home's folders.
  if (home !== undefined && userConfig !== undefined) {
    out.push({ api: 'openxr', folder: `${home}/.config/openxr/1`, inside: `XDG_CONFIG_HOME is ${userConfig} here, so the host's ~/.config/openxr/1 (the active runtime) is not read` });
  }
  return out;
}

/** The sandbox this platform is in, or null. */
export function detectSandbox(platform: Platform): SandboxReport | null {
  if (platform.os !== 'linux') return null;
  const env = platform.env;
  const home = env.get('HOME');
  if (platform.fs.stat('/.flatpak-info')?.kind === 'file') {
    const info = text(platform, '/.flatpak-info') ?? '';
    const app = iniValue(info, 'Application', 'name') ?? env.get('FLATPAK_ID');
    const hostHome = app !== undefined && home !== undefined ? home : undefined;
    const config = env.get('XDG_CONFIG_HOME');
    return {
      kind: 'flatpak',
      evidence: ['/.flatpak-info', ...(env.get('FLATPAK_ID') !== undefined ? ['FLATPAK_ID'] : [])],
      ...(app !== undefined ? { app } : {}),
      hidden: hiddenFolders(platform, hostHome, config, 'Flatpak runtime'),
      exposes: [
        'Vulkan drivers come from the GL extension (org.freedesktop.Platform.GL.*), not the host\'s icd.d',
        'Vulkan layers: install them as Flatpak extensions (org.freedesktop.Platform.VulkanLayer.<name>, seen under /usr/lib/extensions/vulkan/<name>/share/vulkan); or VK_ADD_LAYER_PATH / VK_ADD_IMPLICIT_LAYER_PATH pointing at a folder you expose',
        `OpenXR: \`flatpak override --user --filesystem=xdg-config/openxr:ro --env=XR_RUNTIME_JSON=${home ?? '$HOME'}/.config/openxr/1/active_runtime.json ${app ?? '<app-id>'}\` exposes the host's active runtime (XDG_CONFIG_HOME inside is ~/.var/app/<id>/config, so the loader needs XR_RUNTIME_JSON to find it); its library and IPC socket must be visible too (Monado: --filesystem=xdg-run/monado_comp_ipc)`,
        'host folders exposed with --filesystem=host-os appear under /run/host: point VK_ADD_LAYER_PATH, VK_ADD_DRIVER_FILES or XR_API_LAYER_PATH there',
      ],
    };
  }
  const snap = env.get('SNAP');
  if (snap !== undefined && snap !== '') {
    const app = env.get('SNAP_INSTANCE_NAME') ?? env.get('SNAP_NAME');
    const userData = env.get('SNAP_USER_DATA');
    const realHome = env.get('SNAP_REAL_HOME');
    return {
      kind: 'snap',
      evidence: ['SNAP', ...(app !== undefined ? ['SNAP_NAME'] : [])],
      ...(app !== undefined ? { app } : {}),
      hidden: hiddenFolders(platform, realHome ?? home, userData !== undefined ? `${userData}/.config` : env.get('XDG_CONFIG_HOME'), 'base snap'),
      exposes: [
        'Vulkan drivers: connect the graphics interface (opengl, or graphics-core22 with a mesa content snap)',
        'Vulkan layers and OpenXR runtimes installed on the host: a system-files interface plug for their manifest and library folders, or VK_ADD_LAYER_PATH / XR_RUNTIME_JSON pointing at a folder the snap can read',
        `OpenXR's active runtime (~/.config/openxr/1): a personal-files plug for it (\`snap connect ${app ?? '<snap>'}:<plug>\`); the snap's HOME is ${home ?? '$SNAP_USER_DATA'}`,
      ],
    };
  }
  const pvVars = PRESSURE_VESSEL_VARIABLES.filter((n) => env.get(n) !== undefined);
  if (env.get('container') === 'pressure-vessel') pvVars.push('container=pressure-vessel');
  if (pvVars.length > 0 || exists(platform, '/run/pressure-vessel')) {
    const app = env.get('SteamAppId') ?? env.get('STEAM_COMPAT_APP_ID');
    return {
      kind: 'pressure-vessel',
      evidence: [...(exists(platform, '/run/pressure-vessel') ? ['/run/pressure-vessel'] : []), ...pvVars],
      ...(app !== undefined ? { app } : {}),
      hidden: hiddenFolders(platform, undefined, undefined, 'Steam Runtime container'),
      exposes: [
        'pressure-vessel imports the host\'s Vulkan drivers and layers itself (PRESSURE_VESSEL_IMPORT_VULKAN_LAYERS=1, the default) and points VK_DRIVER_FILES / VK_ADD_LAYER_PATH at its copies under /run/pressure-vessel',
        'host OpenXR runtimes: PRESSURE_VESSEL_IMPORT_OPENXR_1_RUNTIMES=1 (newer Steam Runtimes), or XR_RUNTIME_JSON pointing into a folder the container shares',
        'other host folders: PRESSURE_VESSEL_FILESYSTEMS_RO=/path (or STEAM_COMPAT_MOUNTS) shares them; the host\'s /usr is at /run/host/usr',
      ],
    };
  }
  return null;
}

/** The report as lines for `info` and `doctor`. */
export function formatSandbox(report: SandboxReport | null, api: 'openxr' | 'vulkan'): string[] {
  if (report === null) return [];
  const name = { flatpak: 'Flatpak', snap: 'Snap', 'pressure-vessel': "Steam's container runtime (pressure-vessel)" }[report.kind];
  const out = ['', `Sandbox: ${name}${report.app !== undefined ? `, application ${report.app}` : ''} (told by ${report.evidence.join(', ')})`];
  const hidden = report.hidden.filter((h) => h.api === api);
  if (hidden.length) out.push('  host manifest folders not seen as the host has them:', ...hidden.map((h) => `    ${h.folder}: ${h.inside}`));
  out.push('  what exposes them:', ...report.exposes.map((x) => `    ${x}`));
  return out;
}
