// SANDBOX: Flatpak, Snap and Steam's pressure-vessel told from fixture roots and environments;
// which host manifest folders they hide, and what info prints.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { detectSandbox, formatSandbox } from '../../../lib/core/sandbox.js';
import { formatOpenXrInfo } from '../../../lib/tools/cli/info.js';
import { createLoader } from '../../../lib/openxr/loader.js';
import { makeTempRoot, put } from '../openxr/fixtures.js';

let root = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ root, cleanup } = makeTempRoot('kl-sandbox-'));
});
afterEach(() => cleanup());

const platform = (env: Record<string, string> = {}) => createFixturePlatform({ root, env: { HOME: '/home/u', ...env } });

describe('sandboxes', () => {
  it('SANDBOX: no sandbox on a plain root', () => {
    put(root, '/usr/share/vulkan/icd.d/lvp.json', '{}');
    expect(detectSandbox(platform())).toBeNull();
  });

  it('SANDBOX: Flatpak from /.flatpak-info: its application, the host folders it hides (the host copy under /run/host when exposed) and what exposes them', () => {
    put(root, '/.flatpak-info', '[Application]\nname=org.example.XrApp\nruntime=runtime/org.freedesktop.Platform/x86_64/24.08\n\n[Instance]\nflatpak-version=1.16.0\n');
    put(root, '/run/host/usr/share/vulkan/implicit_layer.d/x.json', '{}');
    const r = detectSandbox(platform({ FLATPAK_ID: 'org.example.XrApp', XDG_CONFIG_HOME: '/home/u/.var/app/org.example.XrApp/config' }));
    expect(r?.kind).toBe('flatpak');
    expect(r?.app).toBe('org.example.XrApp');
    expect(r?.evidence).toEqual(['/.flatpak-info', 'FLATPAK_ID']);
    expect(r?.hidden.find((h) => h.folder === '/usr/share/vulkan')?.inside).toBe("the Flatpak runtime's own /usr/share/vulkan; the host's is at /run/host/usr/share/vulkan, where no loader looks");
    expect(r?.hidden.find((h) => h.folder === '/etc/vulkan')?.inside).toBe("the Flatpak runtime's own /etc/vulkan (the host's is not visible)");
    expect(r?.hidden.find((h) => h.folder === '/home/u/.config/openxr/1')?.inside).toBe("XDG_CONFIG_HOME is /home/u/.var/app/org.example.XrApp/config here, so the host's ~/.config/openxr/1 (the active runtime) is not read");
    expect(r?.exposes.join('\n')).toContain('flatpak override --user --filesystem=xdg-config/openxr:ro --env=XR_RUNTIME_JSON=/home/u/.config/openxr/1/active_runtime.json org.example.XrApp');
    expect(r?.exposes.join('\n')).toContain('org.freedesktop.Platform.VulkanLayer.<name>');
  });

  it('SANDBOX: Snap from SNAP: the snap name, the real home\'s OpenXR folder hidden, the interfaces that expose', () => {
    const r = detectSandbox(platform({ SNAP: '/snap/xrapp/12', SNAP_NAME: 'xrapp', SNAP_USER_DATA: '/home/u/snap/xrapp/12', SNAP_REAL_HOME: '/home/u', HOME: '/home/u/snap/xrapp/12' }));
    expect(r?.kind).toBe('snap');
    expect(r?.app).toBe('xrapp');
    expect(r?.hidden.map((h) => h.folder)).toContain('/home/u/.config/openxr/1');
    expect(r?.hidden.find((h) => h.folder === '/usr/share/openxr/1')?.inside).toBe("the base snap's own /usr/share/openxr/1 (the host's is not visible)");
    expect(r?.exposes.join('\n')).toMatch(/personal-files plug .*snap connect xrapp:<plug>/);
  });

  it('SANDBOX: pressure-vessel from /run/pressure-vessel or its variables; Steam app id; the host /usr under /run/host', () => {
    expect(detectSandbox(platform({ PRESSURE_VESSEL_RUNTIME: 'scout', SteamAppId: '570' }))).toMatchObject({ kind: 'pressure-vessel', app: '570', evidence: ['PRESSURE_VESSEL_RUNTIME'] });
    put(root, '/run/pressure-vessel/ldso/runtime-ld.so.cache', '');
    put(root, '/run/host/usr/share/openxr/1/openxr_monado.json', '{}');
    const r = detectSandbox(platform());
    expect(r?.evidence).toEqual(['/run/pressure-vessel']);
    expect(r?.hidden.find((h) => h.folder === '/usr/share/openxr/1')?.inside).toBe("the Steam Runtime container's own /usr/share/openxr/1; the host's is at /run/host/usr/share/openxr/1, where no loader looks");
    expect(r?.exposes.join('\n')).toContain('PRESSURE_VESSEL_IMPORT_OPENXR_1_RUNTIMES=1');
  });

  it('SANDBOX: info openxr prints the sandbox section with the OpenXR folders only', () => {
    put(root, '/.flatpak-info', '[Application]\nname=org.example.XrApp\n');
    const p = platform({ XDG_CONFIG_HOME: '/home/u/.var/app/org.example.XrApp/config' });
    const loader = createLoader({ platform: p, logWriter: () => {}, runtimeExtensions: () => [] });
    const text = formatOpenXrInfo(loader.discover(), undefined, detectSandbox(p));
    const section = text.slice(text.indexOf('Sandbox:'));
    expect(section.split('\n')[0]).toBe('Sandbox: Flatpak, application org.example.XrApp (told by /.flatpak-info)');
    expect(section).toContain('    /etc/xdg/openxr/1: ');
    expect(section).not.toContain('/usr/share/vulkan');
    expect(formatSandbox(null, 'vulkan')).toEqual([]);
  });
});
