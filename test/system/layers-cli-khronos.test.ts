// What `khronos-loader layers vulkan` and `runtimes --set-active` write, read back by the Khronos
// loaders themselves: the Khronos Vulkan loader (1.4.309, or the one KHRONOS_LOADER_VK_KHRONOS_CURRENT
// names) creates an instance with the written vk_loader_settings.json and its VK_LOADER_DEBUG=layer
// callstack must be the chain the command printed; Debian's Khronos OpenXR loader reads the written
// active_runtime.json (its XR_LOADER_DEBUG lines name the file and the runtime library).
// The Vulkan layers are the real ones installed here (validation, Mesa overlay and device select,
// Intel nullhw) on lavapipe; each loader runs in a child process (koffi), so its environment is the scenario's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../lib/tools/cli/main.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { missingSystemComponent } from '../helpers/system.js';
import { repoRoot } from '../helpers/paths.js';

const current = khronosVulkanLoaders().find((l) => l.version === '1.4.309');
const k359 = khronosVulkanLoaders().find((l) => l.version === '1.4.359');
const LVP = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const LAYERS = ['/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', '/usr/share/vulkan/explicit_layer.d/VkLayer_MESA_overlay.json', '/usr/share/vulkan/explicit_layer.d/VkLayer_INTEL_nullhw.json'];
const vkSkip = current?.missing ?? missingSystemComponent({ 'lavapipe (mesa-vulkan-drivers)': [LVP], 'the Vulkan layers (vulkan-validationlayers, mesa-vulkan-drivers)': LAYERS });
const XR_LOADER = '/usr/lib/x86_64-linux-gnu/libopenxr_loader.so.1';
const xrSkip = missingSystemComponent({ "Debian's Khronos OpenXR loader 1.0.20 (libopenxr-loader1)": [XR_LOADER] });

let T = '';
beforeEach(() => {
  T = mkdtempSync(path.join(tmpdir(), 'kl-layers-cli-'));
});
afterEach(() => rmSync(T, { recursive: true, force: true }));

/** The scenario's environment: its own user folders, the system's layer folders, lavapipe only. */
function env(): Record<string, string> {
  for (const d of ['home', 'config', 'data-home', 'no-config-dirs']) mkdirSync(path.join(T, d), { recursive: true });
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.join(T, 'home'),
    XDG_CONFIG_HOME: path.join(T, 'config'),
    XDG_DATA_HOME: path.join(T, 'data-home'),
    XDG_CONFIG_DIRS: path.join(T, 'no-config-dirs'),
    XDG_DATA_DIRS: '/usr/share',
    VK_DRIVER_FILES: LVP,
  };
}

async function cli(args: string[], e: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: e });
  return { code, stdout, stderr };
}

/** vkCreateInstance (no layers asked for) through the Khronos loader in a child: the layer callstack it logs, application side first. */
const VK_CHILD = `
const koffi = require(${JSON.stringify(path.join(repoRoot, 'node_modules/koffi'))});
const lib = koffi.load(process.argv[1]);
const create = lib.func('int vkCreateInstance(void*, void*, _Out_ void**)');
const destroy = lib.func('void vkDestroyInstance(void*, void*)');
const info = Buffer.alloc(64); info.writeUInt32LE(1, 0);
const out = [null];
const r = create(info, null, out);
if (r === 0) destroy(out[0], null);
process.stdout.write(String(r));
`;

function khronosVulkanChain(library: string, e: Record<string, string>): { result: string; chain: string[] } {
  const r = spawnSync(process.execPath, ['-e', VK_CHILD, library], { env: { ...e, VK_LOADER_DEBUG: 'layer' }, encoding: 'utf8', timeout: 60_000 });
  const lines = r.stderr.split('\n');
  const start = lines.findIndex((l) => l.includes('vkCreateInstance layer callstack setup to:'));
  expect(start, r.stderr).toBeGreaterThanOrEqual(0);
  const chain: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.includes('<Drivers>')) break;
    const m = /\s(VK_LAYER_\w+)\s*$/.exec(l);
    if (m) chain.push(m[1]!);
  }
  return { result: r.stdout, chain };
}

interface LayersJson {
  file: string;
  written: boolean;
  settingsInForce: { file: string; appliesTo: string } | null;
  chain: { name: string }[];
}

describe.skipIf(vkSkip !== null)('khronos-loader layers vulkan, read by the Khronos Vulkan loader', () => {
  it('CLI: enable, disable and order for every application: the Khronos loader builds the chain the command printed', async () => {
    const e = env();
    const r = await cli(['layers', 'vulkan', '--enable', 'VK_LAYER_KHRONOS_validation,VK_LAYER_MESA_overlay', '--disable', 'VK_LAYER_MESA_device_select', '--order', 'VK_LAYER_MESA_overlay', '--json'], e);
    expect(r.code, r.stderr).toBe(0);
    const said = JSON.parse(r.stdout) as LayersJson;
    expect(said.file).toBe(path.join(T, 'data-home/vulkan/loader_settings.d/vk_loader_settings.json'));
    expect(said.settingsInForce?.file).toBe(said.file);
    expect(said.chain.map((l) => l.name)).toEqual(['VK_LAYER_MESA_overlay', 'VK_LAYER_KHRONOS_validation']);
    const k = khronosVulkanChain(current!.library!, e);
    expect(k.chain).toEqual(said.chain.map((l) => l.name));
    expect(k.result).toBe('0');
    // The file is the Khronos format: one global settings object, "on"/"off" entries and where the rest go.
    const written = JSON.parse(readFileSync(said.file, 'utf8')) as { file_format_version: string; settings_array: { layers: { control: string; name?: string }[] }[] };
    expect(written.file_format_version).toBe('1.0.0');
    expect(written.settings_array[0]!.layers.map((x) => `${x.control}${x.name ? ` ${x.name}` : ''}`)).toEqual([
      'on VK_LAYER_MESA_overlay',
      'on VK_LAYER_KHRONOS_validation',
      'off VK_LAYER_MESA_device_select',
      'unordered_layer_location',
    ]);
  });

  it('CLI: --app edits one application\'s settings (app_keys), the global ones stay; the Khronos loader agrees for that executable', async () => {
    const e = env();
    expect((await cli(['layers', 'vulkan', '--enable', 'VK_LAYER_KHRONOS_validation'], e)).code).toBe(0);
    const node = realpathSync(process.execPath);
    const r = await cli(['layers', 'vulkan', '--app', node, '--enable', 'VK_LAYER_INTEL_nullhw', '--disable', 'VK_LAYER_KHRONOS_validation', '--json'], e);
    expect(r.code, r.stderr).toBe(0);
    const said = JSON.parse(r.stdout) as LayersJson;
    expect(said.settingsInForce?.appliesTo).toBe(node);
    expect(said.chain.map((l) => l.name)).toContain('VK_LAYER_INTEL_nullhw');
    expect(said.chain.map((l) => l.name)).not.toContain('VK_LAYER_KHRONOS_validation');
    // The child is this same node executable, so the Khronos loader picks the same settings object.
    expect(khronosVulkanChain(current!.library!, e).chain).toEqual(said.chain.map((l) => l.name));
    const global = await cli(['layers', 'vulkan', '--json'], e);
    expect((JSON.parse(global.stdout) as LayersJson).chain.map((l) => l.name)).toContain('VK_LAYER_KHRONOS_validation');
  });

  it('CLI: a layer that is not installed is refused (exit 1) and nothing is written', async () => {
    const e = env();
    const r = await cli(['layers', 'vulkan', '--enable', 'VK_LAYER_NOT_INSTALLED'], e);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('khronos-loader layers vulkan: no layer named "VK_LAYER_NOT_INSTALLED" is installed (a manifest in the standard folders or VK_LAYER_PATH); nothing written\n');
    expect(() => readFileSync(path.join(T, 'data-home/vulkan/loader_settings.d/vk_loader_settings.json'))).toThrow();
  });
});

describe.skipIf(vkSkip !== null || k359 === undefined || k359.missing !== null)('khronos-loader layers vulkan, read by the Khronos Vulkan loader 1.4.359', () => {
  it('VK-SF-2: CLI: with a settings file already in force in $XDG_CONFIG_HOME (1.4.359 looks there first), the command edits that one; 1.4.359 builds the chain it printed, and the data-home file is not written', async () => {
    const e = env();
    const dataHome = path.join(T, 'data-home/vulkan/loader_settings.d/vk_loader_settings.json');
    // No file yet: the data-home one is written, and 1.4.359 reads it.
    const first = JSON.parse((await cli(['layers', 'vulkan', '--enable', 'VK_LAYER_INTEL_nullhw', '--json'], e)).stdout) as LayersJson;
    expect(first.file).toBe(dataHome);
    expect(khronosVulkanChain(k359!.library!, e).chain).toEqual(first.chain.map((l) => l.name));
    // A file in $XDG_CONFIG_HOME comes first for 1.4.359 (and for us): it is the one in force, so the one edited.
    const configHome = path.join(T, 'config/vulkan/loader_settings.d/vk_loader_settings.json');
    mkdirSync(path.dirname(configHome), { recursive: true });
    writeFileSync(configHome, JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers: [{ control: 'on', name: 'VK_LAYER_MESA_overlay', path: LAYERS[1] }, { control: 'unordered_layer_location' }] }] }));
    const before = readFileSync(dataHome, 'utf8');
    const r = await cli(['layers', 'vulkan', '--enable', 'VK_LAYER_KHRONOS_validation', '--order', 'VK_LAYER_KHRONOS_validation', '--json'], e);
    expect(r.code, r.stderr).toBe(0);
    const said = JSON.parse(r.stdout) as LayersJson;
    expect(said.file).toBe(configHome);
    expect(said.settingsInForce?.file).toBe(configHome);
    // The file's layers in its order, then the rest (Mesa's implicit device_select) where unordered_layer_location is.
    expect(said.chain.map((l) => l.name).slice(0, 2)).toEqual(['VK_LAYER_KHRONOS_validation', 'VK_LAYER_MESA_overlay']);
    const k = khronosVulkanChain(k359!.library!, e);
    expect(k.result).toBe('0');
    expect(k.chain).toEqual(said.chain.map((l) => l.name));
    expect(readFileSync(dataHome, 'utf8')).toBe(before);
  });
});

/** xrEnumerateInstanceExtensionProperties through Debian's Khronos OpenXR loader in a child, XR_LOADER_DEBUG=all. */
const XR_CHILD = `
const koffi = require(${JSON.stringify(path.join(repoRoot, 'node_modules/koffi'))});
const lib = koffi.load(process.argv[1]);
const f = lib.func('int xrEnumerateInstanceExtensionProperties(const char*, uint32_t, _Out_ uint32_t*, void*)');
const n = [0];
process.stdout.write(String(f(null, 0, n, null)));
`;

describe.skipIf(xrSkip !== null)('khronos-loader runtimes --set-active, read by the Khronos OpenXR loader', () => {
  it('CLI: --set-active writes the user\'s active_runtime.json (the previous one kept); the Khronos loader uses it', async () => {
    const e = env();
    const lib = (name: string): string => {
      const p = path.join(T, 'runtimes', name, `libopenxr_${name}.so`);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, 'not a library');
      return p;
    };
    // Two installed runtimes (manifests in an XDG data folder), one with a relative library_path.
    const data = path.join(T, 'xdg-data/openxr/1');
    mkdirSync(data, { recursive: true });
    lib('first');
    lib('second');
    writeFileSync(path.join(data, 'first.json'), JSON.stringify({ file_format_version: '1.0.0', runtime: { name: 'First', library_path: path.join(T, 'runtimes/first/libopenxr_first.so') } }));
    writeFileSync(path.join(data, 'second.json'), JSON.stringify({ file_format_version: '1.0.0', runtime: { name: 'Second', library_path: '../../../runtimes/second/libopenxr_second.so' } }));
    const xe = { ...e, XDG_DATA_DIRS: path.join(T, 'xdg-data') };
    const active = path.join(T, 'config/openxr/1/active_runtime.json');
    const first = await cli(['runtimes', '--set-active', 'First', '--json'], xe);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as { setActive: unknown }).setActive).toEqual({ file: active, previous: null, runtime: 'First', manifestPath: path.join(data, 'first.json') });
    const second = await cli(['runtimes', '--set-active', 'Second'], xe);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`Active runtime for this user: Second (${path.join(data, 'second.json')}), written to ${active}; the one it replaces is kept as ${active}.previous`);
    expect((JSON.parse(readFileSync(`${active}.previous`, 'utf8')) as { runtime: { name: string } }).runtime.name).toBe('First');
    // The relative library_path is made absolute in the copy.
    const secondLib = path.join(T, 'runtimes/second/libopenxr_second.so');
    expect((JSON.parse(readFileSync(active, 'utf8')) as { runtime: { library_path: string } }).runtime.library_path).toBe(secondLib);
    const r = spawnSync(process.execPath, ['-e', XR_CHILD, XR_LOADER], { env: { ...xe, XR_LOADER_DEBUG: 'all' }, encoding: 'utf8', timeout: 60_000 });
    const log = r.stdout + r.stderr;
    expect(log, log).toContain(active);
    expect(log, log).toContain(secondLib);
    // Ours reads the same file and agrees.
    const ours = await cli(['runtimes', '--json'], xe);
    const listed = (JSON.parse(ours.stdout) as { runtimes: { name: string; active: boolean }[] }).runtimes.filter((x) => x.active).map((x) => x.name);
    expect(listed).toEqual(['Second']);
    const unknown = await cli(['runtimes', '--set-active', 'Third'], xe);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--set-active must be a runtime name that `khronos-loader runtimes` lists ("Second", "First"), got "Third"');
  });
});
