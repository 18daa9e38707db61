// VK_LOADER_DEBUG's create-info lines (VK-DBG-1), against the Khronos Vulkan loader 1.4.359 (the first
// release that prints them) on the real driver (lavapipe): for each vkCreateInstance it logs at INFO
// the application and engine names and versions, the API version, the requested layers and the
// requested extensions. The Khronos side is test/native/vk_enumerate (its stderr), ours is
// createLoader().createInstance() with the same environment and a logWriter. The lines are compared
// whole, header included ("[Vulkan Loader] INFO:" padded to 32 characters), in order.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader, vkMakeApiVersion, VulkanError } from '../../lib/vulkan/index.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { missingRealDriver, missingValidation, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';

const enumerate = path.join(testNativeDir, 'vk_enumerate/vk_enumerate');
const k359 = khronosVulkanLoaders().find((l) => l.version === '1.4.359');
const skip =
  k359 === undefined
    ? 'Khronos Vulkan loader 1.4.359 declared absent'
    : (k359.missing ?? missingRealDriver() ?? missingValidation() ?? missingSystemComponent({ 'test/native vk_enumerate': [enumerate] }));

const home = mkdtempSync(path.join(tmpdir(), 'kl-vkdbg-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface CreateInfo {
  applicationName?: string;
  applicationVersion?: number;
  engineName?: string;
  engineVersion?: number;
  apiVersion?: number;
  layers: string[];
  extensions: string[];
}

const baseEnv = (debug: string): Record<string, string> => ({
  HOME: home,
  XDG_DATA_DIRS: '/usr/share',
  XDG_CONFIG_DIRS: '/etc/xdg',
  VK_DRIVER_FILES: REAL_DRIVER_MANIFEST,
  VK_LOADER_DEBUG: debug,
});

/**
 * The create-info block of a VK_LOADER_DEBUG output: the "vkCreateInstance: applicationName" line,
 * then the layer count line and its names, then the extension count line and its names, read by
 * the counts the lines give. Empty when the output has no such line.
 */
function createInfoBlock(output: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => / vkCreateInstance: applicationName: /.test(l));
  if (start < 0) return [];
  const block = [lines[start]!];
  let i = start + 1;
  for (const what of ['layer', 'extension']) {
    const head = lines[i] ?? '';
    const m = new RegExp(` vkCreateInstance: Requested (\\d+) instance ${what}\\(s\\):$`).exec(head);
    if (!m) return [...block, head];
    const count = Number(m[1]);
    block.push(...lines.slice(i, i + 1 + count));
    i += 1 + count;
  }
  return block;
}

function khronosLines(info: CreateInfo, debug: string): { block: string[]; result: number } {
  const args = ['--loader', k359!.library!, '--create', '--out', path.join(home, 'out.json')];
  if (info.applicationName !== undefined) args.push('--app-name', info.applicationName);
  if (info.applicationVersion !== undefined) args.push('--app-version', String(info.applicationVersion));
  if (info.engineName !== undefined) args.push('--engine-name', info.engineName);
  if (info.engineVersion !== undefined) args.push('--engine-version', String(info.engineVersion));
  if (info.apiVersion !== undefined) args.push('--api-version', String(info.apiVersion));
  for (const l of info.layers) args.push('--layer', l);
  for (const e of info.extensions) args.push('--extension', e);
  const run = spawnSync(enumerate, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...baseEnv(debug) }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const out = JSON.parse(readFileSync(path.join(home, 'out.json'), 'utf8')) as { create: { result: number } };
  return { block: createInfoBlock(run.stderr), result: out.create.result };
}

function ourLines(info: CreateInfo, debug: string): { block: string[]; result: number } {
  let printed = '';
  const loader = createLoader({
    platform: createLinuxPlatform({ env: baseEnv(debug), elevated: false }),
    sysconfdir: '/etc',
    extraSysconfdir: null,
    logWriter: (text) => {
      printed += text;
    },
  });
  let result = 0;
  try {
    loader
      .createInstance({
        applicationName: info.applicationName ?? '',
        ...(info.applicationVersion !== undefined && { applicationVersion: info.applicationVersion }),
        ...(info.engineName !== undefined && { engineName: info.engineName }),
        ...(info.engineVersion !== undefined && { engineVersion: info.engineVersion }),
        ...(info.apiVersion !== undefined && { apiVersion: info.apiVersion }),
        enabledLayerNames: info.layers,
        enabledExtensionNames: info.extensions,
      })
      .destroy();
  } catch (err) {
    if (!(err instanceof VulkanError)) throw err;
    result = err.resultValue;
  }
  return { block: createInfoBlock(printed), result };
}

describe.skipIf(skip !== null)('VK_LOADER_DEBUG create-info lines against the Khronos loader 1.4.359 on the real driver', () => {
  it('VK-DBG-1: names, versions, API version, the requested layers and extensions: the same lines, in the same order', () => {
    const info: CreateInfo = {
      applicationName: 'kl-create-info',
      applicationVersion: 4242,
      engineName: 'kl-engine',
      engineVersion: 0xfffffffe,
      apiVersion: vkMakeApiVersion(0, 1, 3, 250),
      layers: ['VK_LAYER_KHRONOS_validation'],
      extensions: ['VK_EXT_debug_utils', 'VK_KHR_get_physical_device_properties2'],
    };
    const k = khronosLines(info, 'info');
    const o = ourLines(info, 'info');
    expect(k.result).toBe(0);
    expect(o.result).toBe(0);
    expect(k.block).toEqual([
      '[Vulkan Loader] INFO:           vkCreateInstance: applicationName: "kl-create-info", applicationVersion: 4242, engineName: "kl-engine", engineVersion: 4294967294, apiVersion: 1.3.250',
      '[Vulkan Loader] INFO:           vkCreateInstance: Requested 1 instance layer(s):',
      '[Vulkan Loader] INFO:              VK_LAYER_KHRONOS_validation',
      '[Vulkan Loader] INFO:           vkCreateInstance: Requested 2 instance extension(s):',
      '[Vulkan Loader] INFO:              VK_EXT_debug_utils',
      '[Vulkan Loader] INFO:              VK_KHR_get_physical_device_properties2',
    ]);
    expect(o.block).toEqual(k.block);
  });

  it('VK-DBG-1: no engine name, no layers, no extensions: empty names and counts of 0', () => {
    const info: CreateInfo = { applicationName: 'kl-bare', apiVersion: vkMakeApiVersion(0, 1, 1, 0), layers: [], extensions: [] };
    const k = khronosLines(info, 'info');
    const o = ourLines(info, 'info');
    expect(k.block).toHaveLength(3);
    expect(k.block[0]).toContain('engineName: "", engineVersion: 0, apiVersion: 1.1.0');
    expect(o.block).toEqual(k.block);
  });

  it('VK-DBG-1: a layer that is not there: the lines come first, then VK_ERROR_LAYER_NOT_PRESENT from both', () => {
    const info: CreateInfo = { applicationName: 'kl-absent', layers: ['VK_LAYER_KL_not_installed', 'VK_LAYER_KHRONOS_validation'], extensions: ['VK_KHR_surface'] };
    const k = khronosLines(info, 'info');
    const o = ourLines(info, 'info');
    expect(k.result).toBe(-6);
    expect(o.result).toBe(-6);
    expect(k.block.slice(1)).toEqual([
      '[Vulkan Loader] INFO:           vkCreateInstance: Requested 2 instance layer(s):',
      '[Vulkan Loader] INFO:              VK_LAYER_KL_not_installed',
      '[Vulkan Loader] INFO:              VK_LAYER_KHRONOS_validation',
      '[Vulkan Loader] INFO:           vkCreateInstance: Requested 1 instance extension(s):',
      '[Vulkan Loader] INFO:              VK_KHR_surface',
    ]);
    expect(o.block).toEqual(k.block);
  });

  it('VK-DBG-1: printed for "all" and "info", not for "warn,error,layer,driver" (INFO records only)', () => {
    const info: CreateInfo = { applicationName: 'kl-levels', layers: [], extensions: ['VK_EXT_debug_utils'] };
    for (const debug of ['all', 'inf', 'warn,error,layer,driver']) {
      const k = khronosLines(info, debug);
      const o = ourLines(info, debug);
      expect(k.block.length > 0, debug).toBe(debug !== 'warn,error,layer,driver');
      expect(o.block, debug).toEqual(k.block);
    }
  });
});
