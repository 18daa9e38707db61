// doctorVulkan(): every Vulkan driver and layer manifest checked statically, then each library
// loaded and negotiated in a child process of its own. The test drivers and layers
// (test/native/vulkan_test_driver, vulkan_test_layers) fail negotiation, answer a version that is
// too new, crash; manifests point at nothing or at a file that is not a library. The doctor must
// report each with file, symbol and reason and carry on (and so must this vitest process).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctorVulkan, formatVulkanDoctorReport, type VulkanComponentReport, type VulkanDoctorReport } from '../../lib/tools/doctor/index.js';
import { repoRoot, testNativeDir } from '../helpers/paths.js';
import { DEVICE_SELECT_MANIFEST, LAVAPIPE_MANIFEST, missingLavapipeStack } from '../helpers/vulkan-lavapipe.js';

const TIMEOUT_MS = 3000;
const driverLibrary = (name: string): string => path.join(testNativeDir, 'vulkan_test_driver', `lib${name}.so`);
const layerLibrary = (name: string): string => path.join(testNativeDir, 'vulkan_test_layers', `lib${name}.so`);

interface VkFixtureLayer {
  readonly name: string;
  readonly libraryPath: string;
  readonly implicit?: boolean;
}

interface VkFixture {
  readonly root: string;
  readonly env: Record<string, string>;
  driverManifest(libraryFile: string): string;
}

/** Driver manifests in VK_DRIVER_FILES, layers in VK_LAYER_PATH / VK_IMPLICIT_LAYER_PATH, nothing from the system. */
function makeVkFixture(drivers: readonly string[], layers: readonly VkFixtureLayer[] = [], env: Record<string, string> = {}): VkFixture {
  const root = mkdtempSync(path.join(os.tmpdir(), 'kl-vkdoctor-'));
  for (const d of ['icd', 'icd/libs', 'explicit', 'implicit', 'home']) mkdirSync(path.join(root, d));
  // Relative library paths are relative to the manifest's folder.
  writeFileSync(path.join(root, 'icd/libs/not-elf.so'), '#!/bin/sh\necho this is not a shared library\n');
  const manifests = drivers.map((lib, i) => {
    const file = path.join(root, 'icd', `${i}-${path.basename(lib, '.so')}.json`);
    writeFileSync(file, JSON.stringify({ file_format_version: '1.0.1', ICD: { library_path: lib, api_version: '1.3.0' } }));
    return [lib, file] as const;
  });
  for (const l of layers) {
    const layer: Record<string, unknown> = { name: l.name, type: 'GLOBAL', library_path: l.libraryPath, api_version: '1.3.0', implementation_version: '1', description: `doctor fixture layer ${l.name}` };
    if (l.implicit) layer.disable_environment = { [`DISABLE_${l.name}`]: '1' };
    writeFileSync(path.join(root, l.implicit ? 'implicit' : 'explicit', `${l.name}.json`), JSON.stringify({ file_format_version: '1.1.2', layer }));
  }
  return {
    root,
    env: {
      HOME: path.join(root, 'home'),
      XDG_DATA_DIRS: path.join(root, 'nothing'),
      XDG_CONFIG_DIRS: path.join(root, 'nothing'),
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      VK_DRIVER_FILES: manifests.map(([, file]) => file).join(':'),
      VK_LAYER_PATH: path.join(root, 'explicit'),
      VK_IMPLICIT_LAYER_PATH: path.join(root, 'implicit'),
      ...env,
    },
    driverManifest: (lib) => manifests.find(([l]) => l === lib)?.[1] ?? '',
  };
}

function run(f: VkFixture, env: Record<string, string> = {}): Promise<VulkanDoctorReport> {
  return doctorVulkan({ env: { ...f.env, ...env }, sysconfdir: path.join(f.root, 'nothing'), extraSysconfdir: null, timeoutMs: TIMEOUT_MS, logWriter: () => undefined });
}

function component(r: VulkanDoctorReport, name: string): VulkanComponentReport {
  const c = r.components.find((x) => x.name === name);
  if (!c) throw new Error(`no component ${name} in the report: ${r.components.map((x) => x.name).join(', ')}`);
  return c;
}

describe('doctor vulkan: drivers', () => {
  const ok = driverLibrary('kl_vk_driver_v7');
  const fails = driverLibrary('kl_vk_driver_negotiate_fails');
  const tooNew = driverLibrary('kl_vk_driver_negotiate_too_new');
  const segfault = driverLibrary('kl_vk_driver_negotiate_segfault');

  it('VK-DR-1: every selected driver is negotiated in its own process; failures name file, symbol and reason; a crash does not take the doctor down', async () => {
    const f = makeVkFixture([ok, fails, tooNew, segfault, '/nonexistent/kl-vkdoctor/libmissing.so', 'libs/not-elf.so']);
    const r = await run(f);
    expect(r.api).toBe('vulkan');
    expect(r.components.map((c) => c.kind)).toEqual(['driver', 'driver', 'driver', 'driver', 'driver', 'driver']);

    const good = component(r, 'libkl_vk_driver_v7.so');
    expect(good.status).toBe('ok');
    expect(good.inForce).toBe(true);
    expect(good.negotiated).toEqual({ interfaceVersion: 7, apiVersion: '1.3.0', devices: ['kl-v7|khronos-loader doctor'] });

    const failing = component(r, 'libkl_vk_driver_negotiate_fails.so');
    expect(failing.status).toBe('broken');
    expect(failing.problems).toHaveLength(1);
    expect(failing.problems[0]).toMatchObject({ stage: 'negotiate', why: { file: fails, symbol: 'vk_icdNegotiateLoaderICDInterfaceVersion' } });
    expect(failing.problems[0]?.why.reason).toContain(`driver ${fails} (manifest ${f.driverManifest(fails)})`);
    expect(failing.problems[0]?.why.reason).toContain('returned VK_ERROR_INCOMPATIBLE_DRIVER (-9)');
    expect(failing.problems[0]?.fix).toContain('VK_LOADER_DRIVERS_DISABLE=');

    const newer = component(r, 'libkl_vk_driver_negotiate_too_new.so');
    expect(newer.problems[0]).toMatchObject({ stage: 'negotiate', severity: 'error' });
    expect(newer.problems[0]?.why.reason).toContain('answered version 8, newer than the 7 the loader offered');

    const crashed = component(r, 'libkl_vk_driver_negotiate_segfault.so');
    expect(crashed.status).toBe('broken');
    expect(crashed.problems[0]).toMatchObject({ stage: 'crash', what: 'crashed with SIGSEGV during negotiation', why: { file: segfault } });

    const missing = component(r, 'libmissing.so');
    expect(missing.probe).toEqual({ ran: false, reason: 'the static checks found the library unloadable' });
    expect(missing.problems).toEqual([
      expect.objectContaining({ stage: 'library', what: 'the library /nonexistent/kl-vkdoctor/libmissing.so does not exist', why: expect.objectContaining({ file: f.driverManifest('/nonexistent/kl-vkdoctor/libmissing.so'), field: 'ICD.library_path' }) }),
    ]);

    const notElf = component(r, 'not-elf.so');
    expect(notElf.problems[0]).toMatchObject({ stage: 'architecture', what: `${path.join(f.root, 'icd', 'libs/not-elf.so')} is not an ELF shared library` });
    expect(notElf.probe.ran).toBe(false);

    expect(r.broken).toBe(true);
    expect(r.exitCode).toBe(1);
    const text = formatVulkanDoctorReport(r);
    expect(text).toMatch(/^\[ok\] +driver libkl_vk_driver_v7\.so \(selected\)$/m);
    expect(text).toContain('devices: kl-v7|khronos-loader doctor');
    expect(text).toMatch(/^\[BROKEN\] +driver libkl_vk_driver_negotiate_segfault\.so \(selected\)$/m);
    expect(text).toMatch(/^BROKEN: driver libkl_vk_driver_negotiate_fails\.so, /m);
  });

  it('VK-DR-1: a driver the filters leave out is reported but does not fail the verdict', async () => {
    const f = makeVkFixture([ok, fails]);
    const r = await run(f, { VK_LOADER_DRIVERS_DISABLE: path.basename(f.driverManifest(fails)) });
    const failing = component(r, 'libkl_vk_driver_negotiate_fails.so');
    expect(failing.inForce).toBe(false);
    expect(failing.status).toBe('broken');
    expect(r.exitCode).toBe(0);
    expect(formatVulkanDoctorReport(r)).toMatch(/^OK for what is in force; 1 problem elsewhere \(broken but not in force: driver libkl_vk_driver_negotiate_fails\.so\)\.$/m);
  });
});

describe('doctor vulkan: layers', () => {
  const ok = driverLibrary('kl_vk_driver_v7');
  const layers: VkFixtureLayer[] = [
    { name: 'VK_LAYER_KLTEST_a', libraryPath: layerLibrary('kl_vk_layer_a'), implicit: true },
    { name: 'VK_LAYER_KLTEST_negotiate_fails', libraryPath: layerLibrary('kl_vk_layer_negotiate_fails') },
    { name: 'VK_LAYER_KLTEST_iface1', libraryPath: layerLibrary('kl_vk_layer_iface1') },
  ];

  it('VK-LN-1: each layer negotiated in its own process; a broken explicit layer nobody enables is reported but does not fail', async () => {
    const r = await run(makeVkFixture([ok], layers));
    const implicitOk = component(r, 'VK_LAYER_KLTEST_a');
    expect(implicitOk).toMatchObject({ kind: 'layer', layerKind: 'implicit', inForce: true, status: 'ok', negotiated: { interfaceVersion: 2 } });
    expect(component(r, 'VK_LAYER_KLTEST_iface1')).toMatchObject({ inForce: false, status: 'ok', negotiated: { interfaceVersion: 1 } });
    const broken = component(r, 'VK_LAYER_KLTEST_negotiate_fails');
    expect(broken).toMatchObject({ layerKind: 'explicit', inForce: false, status: 'broken' });
    expect(broken.problems[0]).toMatchObject({ stage: 'negotiate', why: { file: layerLibrary('kl_vk_layer_negotiate_fails'), symbol: 'vkNegotiateLoaderLayerInterfaceVersion' } });
    expect(broken.problems[0]?.why.reason).toContain('VK_LAYER_KLTEST_negotiate_fails');
    expect(r.exitCode).toBe(0);
  });

  for (const variable of ['VK_INSTANCE_LAYERS', 'VK_LOADER_LAYERS_ENABLE'] as const) {
    it(`VK-LN-1: the same layer named in ${variable} is in force, and the doctor exits 1`, async () => {
      const r = await run(makeVkFixture([ok], layers), { [variable]: 'VK_LAYER_KLTEST_negotiate_fails' });
      expect(component(r, 'VK_LAYER_KLTEST_negotiate_fails')).toMatchObject({ inForce: true, status: 'broken' });
      expect(r.exitCode).toBe(1);
      expect(formatVulkanDoctorReport(r)).toMatch(/^BROKEN: explicit layer VK_LAYER_KLTEST_negotiate_fails — Vulkan applications started now will fail/m);
    });
  }

  it('VK-LN-1: `khronos-loader doctor vulkan --json` prints the report and exits 1 for a layer in force that fails', () => {
    const f = makeVkFixture([ok], layers, { VK_INSTANCE_LAYERS: 'VK_LAYER_KLTEST_negotiate_fails' });
    const cli = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'lib/tools/cli/main.ts'), 'doctor', 'vulkan', '--json', '--timeout', String(TIMEOUT_MS)], { cwd: repoRoot, env: f.env, encoding: 'utf8', timeout: 60_000 });
    expect(cli.status).toBe(1);
    const report = JSON.parse(cli.stdout) as VulkanDoctorReport;
    expect(report.api).toBe('vulkan');
    expect(report.components.find((c) => c.name === 'VK_LAYER_KLTEST_negotiate_fails')?.status).toBe('broken');
  });
});

describe('doctor vulkan: the real Debian components', () => {
  it('VK-DR-1 VK-LN-1: lavapipe, VK_LAYER_MESA_device_select (implicit) and VK_LAYER_KHRONOS_validation (enabled) are reported ok', async (ctx) => {
    const missing = missingLavapipeStack();
    if (missing) return ctx.skip(missing);
    const home = mkdtempSync(path.join(os.tmpdir(), 'kl-vkdoctor-home-'));
    const r = await doctorVulkan({
      env: { HOME: home, XDG_DATA_DIRS: '/usr/share', XDG_CONFIG_DIRS: '/etc/xdg', PATH: process.env.PATH ?? '/usr/bin:/bin', VK_DRIVER_FILES: LAVAPIPE_MANIFEST, VK_INSTANCE_LAYERS: 'VK_LAYER_KHRONOS_validation' },
      sysconfdir: '/etc',
      extraSysconfdir: null,
      timeoutMs: 20_000,
      logWriter: () => undefined,
    });
    const lavapipe = r.components.find((c) => c.manifestPath === LAVAPIPE_MANIFEST);
    expect(lavapipe).toMatchObject({ kind: 'driver', inForce: true, status: 'ok' });
    expect(lavapipe?.negotiated?.interfaceVersion).toBeGreaterThanOrEqual(5);
    expect(lavapipe?.negotiated?.devices?.some((d) => d.startsWith('llvmpipe'))).toBe(true);
    const deviceSelect = r.components.find((c) => c.manifestPath === DEVICE_SELECT_MANIFEST);
    expect(deviceSelect).toMatchObject({ name: 'VK_LAYER_MESA_device_select', layerKind: 'implicit', inForce: true, status: 'ok', negotiated: { interfaceVersion: 2 } });
    expect(component(r, 'VK_LAYER_KHRONOS_validation')).toMatchObject({ inForce: true, status: 'ok', negotiated: { interfaceVersion: 2 } });
    expect(r.exitCode).toBe(0);
  });
});
