// VK_LUNARG_direct_driver_loading (VK-DR-3) beside the Khronos loader 1.4.309: a driver library
// handed to vkCreateInstance directly, with no manifest on any search path (VK_DRIVER_FILES and
// VK_ICD_FILENAMES name an empty folder, the XDG folders are empty), and beside a manifest driver
// (a copy of test/native's topology driver). Direct loading needs loader/driver interface 7 with
// vk_icdNegotiateLoaderICDInterfaceVersion answered by vk_icdGetInstanceProcAddr: the direct driver
// is test/native's interface-7 driver (kl_vk_driver_v7_gipa). The real driver (lavapipe) is handed
// over too: Debian 12's (Mesa 22.3) negotiates interface 5 and answers the negotiation only as an
// export, so both loaders refuse it there; a Mesa that speaks 7 is found by both. Ours through
// createLoader().createInstance({ directDrivers }) and through the exported C functions
// (test/native/vk_direct_driver in this process, the VkDirectDriverLoadingListLUNARG built in C);
// the Khronos loader through the same C code in a child process with the same environment.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { addonBinaryPath } from '../../lib/core/native/load.js';
import { createLoader, type VulkanLoader } from '../../lib/vulkan/loader.js';
import { publishVulkanPlan } from '../../lib/vulkan/api/index.js';
import { VulkanError } from '../../lib/vulkan/errors.js';
import { InvalidArgumentError } from '../../lib/core/errors.js';
import { khronosVulkanLoaders } from '../helpers/khronos-vulkan-loaders.js';
import { testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { missingRealDriver, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { makeTempRoot, vkDriverManifest } from '../unit/vulkan/fixtures.js';
import { mappedLibraries } from '../vulkan-native/helpers.js';

interface Koffi {
  load(path: string): { func(prototype: string): (...args: unknown[]) => unknown };
}
const koffi = createRequire(import.meta.url)('koffi') as Koffi;

const helperLibrary = path.join(testNativeDir, 'vk_direct_driver/libkl_vk_direct_driver.so');
const helperProgram = path.join(testNativeDir, 'vk_direct_driver/vk_direct_driver');
const topologyDriver = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_topology.so');
// Interface 7 with vk_icdNegotiateLoaderICDInterfaceVersion only through vk_icdGetInstanceProcAddr, as direct loading asks for it.
const gipaDriver = path.join(testNativeDir, 'vulkan_test_driver/libkl_vk_driver_v7_gipa.so');
const khronos = khronosVulkanLoaders().find((l) => l.version === '1.4.309');
const skip =
  missingRealDriver() ??
  khronos?.missing ??
  missingSystemComponent({ 'test/native vk_direct_driver': [helperLibrary, helperProgram], 'test/native kl_vk_driver_topology': [topologyDriver], 'test/native kl_vk_driver_v7_gipa': [gipaDriver] });
const VK_API_VERSION_1_1 = (1 << 22) | (1 << 12);
const VK_ERROR_INCOMPATIBLE_DRIVER = -9;

type Mode = 'none' | 'exclusive' | 'inclusive' | 'unenabled' | 'report';

let root = '';
let cleanup = (): void => {};
let realLibrary = '';
let directLibrary = '';
let envs: Record<'empty' | 'manifest' | 'disabled', Record<string, string>>;

beforeAll(() => {
  if (skip) return;
  ({ root, cleanup } = makeTempRoot('kl-vk-direct-'));
  const manifest = JSON.parse(readFileSync(REAL_DRIVER_MANIFEST, 'utf8')) as { ICD: { library_path: string } };
  realLibrary = manifest.ICD.library_path;
  directLibrary = path.join(root, 'direct', 'libkl_vk_direct.so');
  mkdirSync(path.dirname(directLibrary), { recursive: true });
  copyFileSync(gipaDriver, directLibrary);
  for (const d of ['home', 'none', 'empty', 'topology']) mkdirSync(path.join(root, d), { recursive: true });
  const lib = path.join(root, 'topology', 'libkl_vk_driver_topology.so');
  copyFileSync(topologyDriver, lib);
  writeFileSync(`${lib}.topology`, 'device manifest-gpu 2 10 20\n');
  writeFileSync(path.join(root, 'topology', 'driver.json'), vkDriverManifest(lib));
  const base = { HOME: path.join(root, 'home'), XDG_CONFIG_DIRS: path.join(root, 'none'), XDG_DATA_DIRS: path.join(root, 'none') };
  const empty = path.join(root, 'empty');
  envs = {
    empty: { ...base, VK_DRIVER_FILES: empty, VK_ICD_FILENAMES: empty },
    manifest: { ...base, VK_DRIVER_FILES: path.join(root, 'topology', 'driver.json') },
    disabled: { ...base, VK_DRIVER_FILES: path.join(root, 'topology', 'driver.json'), VK_LOADER_DRIVERS_DISABLE: '*' },
  };
});
afterAll(() => cleanup());

const loaderFor = (env: Record<string, string>): VulkanLoader =>
  createLoader({ platform: createLinuxPlatform({ env, elevated: false }), sysconfdir: '/etc', extraSysconfdir: null, logWriter: () => {} });

/** The report of test/native/vk_direct_driver: "listed=<n> create=<VkResult> devices=<a>;<b>". */
function khronosReport(env: Record<string, string>, mode: Mode, library = directLibrary): string {
  return execFileSync(helperProgram, [khronos?.library ?? '', library, mode], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
}

function exportedReport(env: Record<string, string>, mode: Mode, library = directLibrary): string {
  const loader = loaderFor(env);
  publishVulkanPlan(loader.planInstance(mode === 'none' || mode === 'unenabled' || mode === 'report' ? {} : { enabledExtensionNames: ['VK_LUNARG_direct_driver_loading'] }));
  const run = koffi.load(helperLibrary).func('int kl_vk_direct_driver_run(const char*, int, const char*, const char*, _Out_ char* report, size_t)');
  const buffer = Buffer.alloc(4096);
  const rc = run(addonBinaryPath(), 1, library, mode, buffer, buffer.length) as number;
  const report = buffer.toString('utf8', 0, buffer.indexOf(0));
  expect(rc, report).toBe(0);
  return report;
}

/** The same report from the typed API ('unenabled' has no typed form: directDrivers enables the extension). */
function typedReport(env: Record<string, string>, mode: Exclude<Mode, 'unenabled' | 'report'>, library = directLibrary): string {
  const loader = loaderFor(env);
  const listed = loader.enumerateInstanceExtensionProperties().find((e) => e.extensionName === 'VK_LUNARG_direct_driver_loading')?.specVersion ?? 0;
  const options = { applicationName: 'kl-direct', apiVersion: VK_API_VERSION_1_1, ...(mode !== 'none' && { directDrivers: { mode, libraries: [library] } }) };
  let instance;
  try {
    instance = loader.createInstance(options);
  } catch (e) {
    if (e instanceof VulkanError) return `listed=${listed} create=${e.resultValue} devices=`;
    throw e;
  }
  try {
    return `listed=${listed} create=0 devices=${instance.enumeratePhysicalDevices().map((d) => d.properties.deviceName).join(';')}`;
  } finally {
    instance.destroy();
  }
}

describe.skipIf(skip)('VK_LUNARG_direct_driver_loading against the Khronos loader 1.4.309', () => {
  it('VK-DR-3: with no manifest anywhere, vkCreateInstance finds no driver in either loader; both list the extension (spec version 1)', () => {
    expect(loaderFor(envs.empty).discovery.drivers).toEqual([]);
    const k = khronosReport(envs.empty, 'none');
    expect(k).toBe(`listed=1 create=${VK_ERROR_INCOMPATIBLE_DRIVER} devices=`);
    expect(exportedReport(envs.empty, 'none')).toBe(k);
    expect(typedReport(envs.empty, 'none')).toBe(k);
  });

  it.each(['exclusive', 'inclusive'] as const)('VK-DR-3: %s: the driver library handed over directly, no manifest anywhere, is found and its device listed', (mode) => {
    const k = khronosReport(envs.empty, mode);
    expect(k).toBe('listed=1 create=0 devices=kl-v7-gipa|kl-direct');
    expect(exportedReport(envs.empty, mode)).toBe(k);
    expect(typedReport(envs.empty, mode)).toBe(k);
  });

  it('VK-DR-3: the real driver (lavapipe) handed over directly, no manifest anywhere: the same answer as the Khronos loader (found where it speaks interface 7, refused below)', () => {
    const k = khronosReport(envs.empty, 'exclusive', realLibrary);
    expect(k).toMatch(k.includes('create=0') ? /^listed=1 create=0 devices=[^;]+$/ : new RegExp(`^listed=1 create=${VK_ERROR_INCOMPATIBLE_DRIVER} devices=$`));
    expect(exportedReport(envs.empty, 'exclusive', realLibrary)).toBe(k);
    expect(typedReport(envs.empty, 'exclusive', realLibrary)).toBe(k);
  });

  it('VK-DR-3: exclusive hides the manifest driver; inclusive adds the direct driver to it, in the Khronos device order', () => {
    const exclusive = khronosReport(envs.manifest, 'exclusive');
    expect(exclusive).not.toContain('manifest-gpu');
    expect(exportedReport(envs.manifest, 'exclusive')).toBe(exclusive);
    expect(typedReport(envs.manifest, 'exclusive')).toBe(exclusive);
    const inclusive = khronosReport(envs.manifest, 'inclusive');
    expect(inclusive.split('devices=')[1]?.split(';')).toHaveLength(2);
    expect(inclusive).toContain('manifest-gpu');
    expect(exportedReport(envs.manifest, 'inclusive')).toBe(inclusive);
    expect(typedReport(envs.manifest, 'inclusive')).toBe(inclusive);
  });

  it('VK-DR-3: a list chained without enabling the extension is ignored (only the manifest driver), as Khronos does', () => {
    const k = khronosReport(envs.manifest, 'unenabled');
    expect(k).toBe('listed=1 create=0 devices=manifest-gpu');
    expect(exportedReport(envs.manifest, 'unenabled')).toBe(k);
  });

  it('VK-IE-4: the loader\'s warning about that list reaches a VkDebugReportCallbackCreateInfoEXT in the create-info chain with the Khronos loader\'s flags (WARNING), object type (INSTANCE), object (the instance) and layer prefix', () => {
    const k = khronosReport(envs.manifest, 'report');
    expect(k).toBe('listed=1 create=0 devices=manifest-gpu reports=2:1:1:Loader Message');
    expect(exportedReport(envs.manifest, 'report')).toBe(k);
  });

  it('VK-DR-3: VK_LOADER_DRIVERS_DISABLE does not apply to a direct driver (inclusive: the manifest driver goes, the direct one stays)', () => {
    const k = khronosReport(envs.disabled, 'inclusive');
    expect(k).toBe('listed=1 create=0 devices=kl-v7-gipa|kl-direct');
    expect(exportedReport(envs.disabled, 'inclusive')).toBe(k);
    expect(typedReport(envs.disabled, 'inclusive')).toBe(k);
  });
});

describe.skipIf(skip)('directDrivers in the typed API', () => {
  it('VK-DR-3: the library is held while the instance lives and unloaded after destroy()', () => {
    const dir = path.join(root, 'direct-copy');
    mkdirSync(dir, { recursive: true });
    const lib = path.join(dir, 'libkl_vk_direct_copy.so');
    copyFileSync(gipaDriver, lib);
    const instance = loaderFor(envs.empty).createInstance({ applicationName: 'kl-direct', directDrivers: { mode: 'exclusive', libraries: [lib] } });
    expect(instance.enumeratePhysicalDevices().map((d) => d.properties.deviceName)).toEqual(['kl-v7-gipa|kl-direct']);
    expect(mappedLibraries('libkl_vk_direct_copy.so')).toEqual([lib]);
    instance.destroy();
    expect(mappedLibraries('libkl_vk_direct_copy.so')).toEqual([]);
  });

  it('VK-DR-3: a missing library or one without vk_icdGetInstanceProcAddr is a VulkanError naming the file and the symbol; a wrong mode an InvalidArgumentError', () => {
    const loader = loaderFor(envs.empty);
    const missingLib = path.join(root, 'no-such-driver.so');
    const create = (directDrivers: unknown) => () => loader.createInstance({ applicationName: 'kl-direct', directDrivers: directDrivers as never });
    expect(create({ mode: 'exclusive', libraries: [missingLib] })).toThrowError(expect.objectContaining({ code: 'VK_ERROR_INCOMPATIBLE_DRIVER', message: expect.stringContaining(missingLib) }));
    expect(create({ mode: 'exclusive', libraries: [helperLibrary] })).toThrowError(
      expect.objectContaining({ code: 'VK_ERROR_INCOMPATIBLE_DRIVER', message: expect.stringMatching(new RegExp(`${helperLibrary.replace(/[.]/g, '\\.')}.*vk_icdGetInstanceProcAddr`)) }),
    );
    expect(create({ mode: 'sometimes', libraries: [realLibrary] })).toThrowError(InvalidArgumentError);
    expect(create({ mode: 'inclusive', libraries: [] })).toThrowError(/options\.directDrivers\.libraries/);
  });
});
