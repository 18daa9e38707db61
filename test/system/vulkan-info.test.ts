// `khronos-loader info vulkan` on this machine, with the Debian packages (vulkan-validationlayers,
// mesa-vulkan-drivers), and VK_LOADER_DEBUG in the Khronos format.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { createFixturePlatform } from '../../lib/core/platform/fixture.js';
import { discover } from '../../lib/vulkan/discovery/discover.js';
import { createLoader } from '../../lib/vulkan/loader.js';
import { formatVkLoaderRecord, vkLoaderDebugBits } from '../../lib/vulkan/discovery/vk-loader-debug.js';
import { repoRoot } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { makeTempRoot, put, vkLayerManifest } from '../unit/vulkan/fixtures.js';

const skip = missingSystemComponent({
  'vulkan-validationlayers': ['/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json'],
  'mesa-vulkan-drivers (device select layer)': ['/usr/share/vulkan/implicit_layer.d/VkLayer_MESA_device_select.json'],
  'mesa-vulkan-drivers (lavapipe)': ['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/share/vulkan/icd.d/lvp_icd.aarch64.json'],
});

function cli(args: string[], env: Record<string, string> = {}): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'lib/tools/cli/main.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, ...env } });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe.skipIf(skip !== null)(`khronos-loader info vulkan on this machine${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('lists VK_LAYER_KHRONOS_validation (explicit), VK_LAYER_MESA_device_select (implicit, on), the lavapipe driver and the process\'s libvulkan.so.1', () => {
    const { stdout, stderr, status } = cli(['info', 'vulkan'], { VK_LOADER_DEBUG: 'all' });
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Vulkan \(/);
    expect(stdout).toMatch(/Explicit layers[\s\S]*VK_LAYER_KHRONOS_validation\n\s+kind:\s+explicit/);
    expect(stdout).toMatch(/Implicit layers[\s\S]*VK_LAYER_MESA_device_select\n\s+kind:\s+implicit[\s\S]*?state:\s+ON/);
    expect(stdout).toMatch(/lvp_icd\.[a-z0-9_]+\.json\n\s+library:\s+\S*libvulkan_lvp\.so/);
    // Which libvulkan.so.1 the process holds (the CLI loads none).
    expect(stdout).toMatch(/\nlibvulkan\.so\.1 in this process: none loaded \(an application can make it this package's loader/);
    // The report, not the loader's stderr lines about the same things.
    expect(stderr).not.toMatch(/\[Vulkan Loader\]/);
  });

  it('--json gives the discover() result', () => {
    const { stdout, status } = cli(['info', 'vulkan', '--json']);
    expect(status).toBe(0);
    const d = JSON.parse(stdout) as ReturnType<typeof discover>;
    expect(d.layers.find((l) => l.name === 'VK_LAYER_KHRONOS_validation')?.kind).toBe('explicit');
    expect(d.layers.find((l) => l.name === 'VK_LAYER_MESA_device_select')).toMatchObject({ kind: 'implicit', enabled: true });
    expect(d.drivers.some((x) => /libvulkan_lvp\.so$/.test(x.libraryPath) && x.selected)).toBe(true);
    expect((d as unknown as { processVulkanLoader: unknown }).processVulkanLoader).toEqual({ kind: 'none', path: null });
  });
});

describe('VK_LOADER_DEBUG', () => {
  it('NODE-7: levels as the Khronos loader reads them (comma list, prefixes, layer/driver categories, all)', () => {
    expect(vkLoaderDebugBits(['error'])).toBe(8);
    expect(vkLoaderDebugBits(['warn', 'info'])).toBe(4 | 1);
    expect(vkLoaderDebugBits(['layer'])).toBe(32);
    expect(vkLoaderDebugBits(['driver'])).toBe(64);
    expect(vkLoaderDebugBits(['icd'])).toBe(64);
    expect(vkLoaderDebugBits(['a'])).toBe(0xffffffff);
    expect(vkLoaderDebugBits(['nonsense', ''])).toBe(0);
  });

  it('NODE-7: the Khronos line format, header padded to 32 columns', () => {
    expect(formatVkLoaderRecord({ level: 'warn', source: 'vulkan', category: 'layer', message: 'Layer "X" force enabled' })).toBe(
      '[Vulkan Loader] WARNING | LAYER: Layer "X" force enabled\n',
    );
    expect(formatVkLoaderRecord({ level: 'error', source: 'vulkan', message: 'm' })).toBe('[Vulkan Loader] ERROR:          m\n');
  });

  it('NODE-7, VK-LF-1, VK-LF-2: the forced-enable and disabled warnings (spec text) goes to stderr under VK_LOADER_DEBUG=warn and to loaderLog listeners always', () => {
    const { root, cleanup } = makeTempRoot('kl-vkdebug-');
    try {
      put(root, '/usr/share/vulkan/explicit_layer.d/a.json', vkLayerManifest({ name: 'VK_LAYER_T_forced', library_path: 'liba.so' }));
      const heard: LogRecord[] = [];
      const listener = (r: LogRecord): void => void heard.push(r);
      loaderLog.on('record', listener);
      const printed = (value: string | undefined): string => {
        let text = '';
        const env: Record<string, string> = { HOME: '/home/me', VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_T_*' };
        if (value !== undefined) env['VK_LOADER_DEBUG'] = value;
        discover({ platform: createFixturePlatform({ root, env }), logWriter: (t) => (text += t) });
        return text;
      };
      expect(printed('warn')).toContain(`[Vulkan Loader] WARNING | LAYER: Layer "VK_LAYER_T_forced" force enabled due to env var 'VK_LOADER_LAYERS_ENABLE'\n`);
      expect(printed('error')).not.toContain('force enabled');
      expect(printed('layer')).toContain('force enabled');
      expect(printed(undefined)).toBe('');
      let disabled = '';
      discover({ platform: createFixturePlatform({ root, env: { HOME: '/home/me', VK_LOADER_LAYERS_DISABLE: '*forced', VK_LOADER_DEBUG: 'warn' } }), logWriter: (t) => (disabled += t) });
      expect(disabled).toBe(`[Vulkan Loader] WARNING | LAYER: Layer "VK_LAYER_T_forced" disabled because name matches filter of env var 'VK_LOADER_LAYERS_DISABLE'\n`);
      loaderLog.off('record', listener);
      expect(heard.some((r) => r.category === 'layer' && r.level === 'warn' && /force enabled/.test(r.message))).toBe(true);
    } finally {
      cleanup();
    }
  });

  it('NODE-7: under VK_LOADER_DEBUG=layer the search and the planned call stack are told as the Khronos loader tells them', () => {
    const { root, cleanup } = makeTempRoot('kl-vkdebug-');
    try {
      put(root, '/usr/share/vulkan/explicit_layer.d/a.json', vkLayerManifest({ name: 'VK_LAYER_T_a', library_path: '/usr/lib/liba.so' }));
      let text = '';
      const loader = createLoader({ platform: createFixturePlatform({ root, env: { HOME: '/home/me', VK_LOADER_DEBUG: 'layer' } }), logWriter: (t) => (text += t) });
      expect(text).toContain('[Vulkan Loader] DEBUG | LAYER:  Searching for explicit layer manifest files\n');
      expect(text).toContain('LAYER:        /usr/share/vulkan/explicit_layer.d/a.json\n');
      text = '';
      loader.planInstance({ enabledLayerNames: ['VK_LAYER_T_a'] });
      expect(text.split('\n').map((l) => l.slice(32).trimEnd()).filter(Boolean)).toEqual([
        'vkCreateInstance layer callstack setup to:',
        '   <Application>',
        '     ||',
        '   <Loader>',
        '     ||',
        '   VK_LAYER_T_a',
        '           Type: Explicit',
        '           Manifest: /usr/share/vulkan/explicit_layer.d/a.json',
        '           Library:  /usr/lib/liba.so',
        '     ||',
        '   <Drivers>',
      ]);
    } finally {
      cleanup();
    }
  });
});
