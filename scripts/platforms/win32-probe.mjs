// Run by node.exe under wine (scripts/test-platforms.ts), inside the project that installed the
// packed tarball: one probe per run, its answer as JSON on stdout. Plain JavaScript, so the
// Windows Node needs nothing but the installed package.
//   node win32-probe.mjs <package folder> load
//   node win32-probe.mjs <package folder> registry <key under HKCU>
//   node win32-probe.mjs <package folder> library <dll path> <missing dll path>
//   node win32-probe.mjs <package folder> openxr <explicit layer name>
//   node win32-probe.mjs <package folder> vulkan <explicit layer name>
//   node win32-probe.mjs <package folder> vulkan-driver <application name>
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageDir, probe, ...args] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(packageDir, 'dist', file)).href);
const { loadNativeAddon } = await load('core/native/load.js');
const addon = loadNativeAddon();

function libraryError(run) {
  try {
    run();
    return null;
  } catch (error) {
    return { code: error.code, path: error.path, symbol: error.symbol, reason: error.reason };
  }
}

const probes = {
  async load() {
    const nodeGypBuild = createRequire(path.join(packageDir, 'package.json'))('node-gyp-build');
    return { platform: process.platform, arch: process.arch, napi: addon.napiVersion, file: nodeGypBuild.path(packageDir) };
  },
  async registry([key]) {
    return { key: addon.windowsRegistryReadKey('HKCU', key), missing: addon.windowsRegistryReadKey('HKCU', `${key}\\none`) };
  },
  async library([dll, missingDll]) {
    const library = new addon.NativeLibrary(dll);
    const found = typeof library.symbolAddress('xrNegotiateLoaderRuntimeInterface') === 'bigint';
    const absent = library.symbolAddress('xrNoSuchFunction');
    const missingSymbol = libraryError(() => library.requireSymbolAddress('xrNoSuchFunction'));
    const open = addon.openLibraryCount();
    library.close();
    const missingFile = libraryError(() => new addon.NativeLibrary(missingDll));
    return { found, absent, missingSymbol, missingFile, openWhileHeld: open, openAfterClose: addon.openLibraryCount() };
  },
  async openxr([layerName]) {
    const { discover, createLoader } = await load('openxr/index.js');
    const found = discover({ logWriter: () => {} });
    const instance = createLoader().createInstance({ applicationName: 'win32 probe', enabledApiLayerNames: [layerName], enabledExtensionNames: ['XR_MND_headless'] });
    try {
      return {
        elevated: found.platform.elevated,
        runtime: found.runtime && { source: found.runtime.source, manifestPath: found.runtime.manifestPath, libraryPath: found.runtime.libraryPath },
        apiLayers: found.apiLayers.map((l) => ({ name: l.name, source: l.source })),
        runtimeName: instance.getProperties().runtimeName,
        instanceLayers: instance.apiLayerNames,
      };
    } finally {
      instance.destroy();
    }
  },
  async vulkan([layerName]) {
    const { discover } = await load('vulkan/discovery/discover.js');
    const found = discover({ logWriter: () => {} });
    const layer = found.layers.find((l) => l.name === layerName);
    const { loadToolsAddon } = await load('tools/native/addon.js');
    const probe = layer?.library && loadToolsAddon().vulkanProbeLayer({ name: layer.name, libraryPath: layer.library, manifestPath: layer.manifestPath });
    return { elevated: found.platform?.elevated, layers: found.layers.map((l) => ({ name: l.name, source: l.source })), library: layer?.library ?? null, probe: probe ?? null };
  },
  async 'vulkan-driver'([applicationName]) {
    const { createLoader } = await load('vulkan/loader.js');
    const loader = createLoader({ logWriter: () => {} });
    const found = {
      driverFiles: process.env.VK_DRIVER_FILES ?? null,
      drivers: loader.discovery.drivers.map((d) => ({ manifestPath: d.manifestPath, source: d.source, libraryPath: d.libraryPath, selected: d.selected })),
    };
    let instance;
    try {
      instance = loader.createInstance({ applicationName });
    } catch (error) {
      return { ...found, physicalDevices: [], instanceError: error.message };
    }
    try {
      return { ...found, physicalDevices: instance.enumeratePhysicalDevices().map((d) => ({ deviceName: d.properties.deviceName, driverVersion: d.properties.driverVersion })) };
    } finally {
      instance.destroy();
    }
  },
};

const run = probes[probe];
if (run === undefined) throw new Error(`win32-probe: unknown probe ${probe}`);
process.stdout.write(`${JSON.stringify(await run(args), (_, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
