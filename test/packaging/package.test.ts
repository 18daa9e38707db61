// What a user gets from `npm install khronos-loader`: the packed tarball, installed into a fresh
// project with install scripts disabled (npm 11's default for dependencies), must load its
// prebuilt addon and run its CLI. The pack happens in a copy of the tree so this test never
// disturbs the checkout's own build.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';
import { baselineViolations, readElfVersions } from '../../scripts/platforms/elf-versions.js';
import { missingPrebuildFiles, SHIPPED_PLATFORMS } from '../../scripts/platforms/shipped-prebuilds.js';
import { missingRealDriver, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { missingPrints, readerEnv, readmeBlocks, usesVulkan } from '../helpers/readme-blocks.js';

const npm = 'npm';
/** The prebuild npm pack ships from this machine (linux-x64 here, linux-arm64 on the release workflow's arm64 runner). */
const host = `${process.platform}-${process.arch}`;
let work: string;
let tarball: string;
let packedFiles: string[];
let packedSize: { size: number; unpackedSize: number };
let consumer: string;
/** Where the copy that was packed lived: a path of the build machine, like repoRoot. */
let source: string;

/** The platforms whose addon the tarball holds, sorted ("linux-x64", or every one after prebuild:all). */
function packedPlatforms(): string {
  return packedFiles.flatMap((f) => /^prebuilds\/([^/]+)\/khronos-loader\.node$/.exec(f)?.[1] ?? []).sort().join(', ');
}

function copyTree(to: string): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && !f.startsWith('node_modules/'));
  for (const file of files) {
    const target = path.join(to, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      copyFileSync(path.join(repoRoot, file), target);
    } catch (error) {
      // A file deleted in the working tree but still tracked is simply not part of the copy.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(to, 'node_modules'), 'dir');
}

describe('BUILD: the npm package', () => {
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'kl-pack-'));
    source = path.join(work, 'source');
    copyTree(source);
    // What prepack does (the npm-scripts test checks it still is), run here so that `npm pack`
    // need not also run `prepare`, a second, unshipped source build: the TypeScript build and
    // this machine's prebuild (scripts/prebuild.ts). KHRONOS_LOADER_PACK_PREBUILDS=1 (CI, after
    // npm run prebuild:all): the checkout's prebuilds/<host> is packed instead of building it again.
    const prebuilt = process.env.KHRONOS_LOADER_PACK_PREBUILDS === '1';
    for (const script of prebuilt ? ['build:ts'] : ['build:ts', 'prebuild:host']) {
      execFileSync(npm, ['run', script], { cwd: source, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    if (prebuilt) {
      const built = path.join(repoRoot, 'prebuilds', host);
      if (!existsSync(path.join(built, 'khronos-loader.node'))) throw new Error(`KHRONOS_LOADER_PACK_PREBUILDS=1 but ${built} has no addon: run npm run prebuild:host (or prebuild:all) first`);
      // Every platform prebuild:all made is packed, as the release workflow packs them all.
      for (const platform of SHIPPED_PLATFORMS) {
        const folder = path.join(repoRoot, 'prebuilds', platform);
        if (existsSync(folder)) cpSync(folder, path.join(source, 'prebuilds', platform), { recursive: true });
      }
    }
    const output = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: source,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const parsed = JSON.parse(output) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
    const first = parsed[0];
    if (first === undefined) throw new Error('npm pack reported nothing');
    tarball = path.join(work, first.filename);
    packedFiles = first.files.map((f) => f.path).sort();
    packedSize = { size: first.size, unpackedSize: first.unpackedSize };

    consumer = path.join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module' }));
    execFileSync(npm, ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: consumer,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }, 900_000);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('BUILD: the tarball holds the compiled JS and types, native sources, CMakeLists.txt, the prebuild and the README, and no tests', () => {
    expect(packedFiles).toContain('package.json');
    expect(packedFiles).toContain('README.md');
    expect(packedFiles).toContain('CMakeLists.txt');
    expect(packedFiles).toContain('dist/index.js');
    expect(packedFiles).toContain('dist/index.d.ts');
    expect(packedFiles).toContain('dist/openxr/index.js');
    expect(packedFiles).toContain('dist/vulkan/index.js');
    expect(packedFiles).toContain('dist/tools/cli/main.js');
    expect(packedFiles).toContain('native/common/dynamic_library.cc');
    expect(packedFiles).toContain(`prebuilds/${host}/khronos-loader.node`);
    expect(packedFiles).toContain(`prebuilds/${host}/khronos_loader_tools.node`);
    // The shared libraries that ship beside the addon: the simulated runtime and the bundled layer.
    expect(packedFiles).toContain(`prebuilds/${host}/libkhronos_simxr.so`);
    expect(packedFiles).toContain(`prebuilds/${host}/libkhronos_layer_passthrough.so`);
    // The bundled pass-through Vulkan layer ships the same way (bench vulkan stacks copies of it).
    expect(packedFiles).toContain(`prebuilds/${host}/libkhronos_vk_layer_passthrough.so`);
    // The process-wide Vulkan loader (SONAME libvulkan.so.1) that provideProcessVulkanLoader() loads.
    expect(packedFiles).toContain(`prebuilds/${host}/libkhronos_vulkan_process_loader.so`);
    expect(packedFiles.filter((f) => f.startsWith('test/') || f.startsWith('lib/') || f.startsWith('scripts/'))).toEqual([]);
    expect(packedFiles.filter((f) => f.startsWith('build/') || f.startsWith('node_modules/'))).toEqual([]);
    // The install check, and what a source build needs besides native/: the portability CMake module.
    expect(packedFiles).toContain('install.cjs');
    // The examples ship: their TypeScript, compiled JavaScript, and the shaders (source and SPIR-V)
    // that `bench vulkan --command record` and the compute example load from the installed package.
    for (const file of ['examples/compute.ts', 'examples/frame-loop.ts', 'dist/examples/compute.js', 'dist/examples/frame-loop.js', 'examples/shaders/saxpy.comp', 'examples/shaders/saxpy.spv']) {
      expect(packedFiles).toContain(file);
    }
    expect(packedFiles).toContain('LICENSE');
    // The Khronos registries' notices for the code generated from them.
    expect(packedFiles).toContain('NOTICE');
    // Every file the README links to ships, so its links hold in node_modules too.
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\(([^)#:]+?)(?:#[^)]*)?\)/g)].map((m) => m[1] ?? '').filter((l) => !l.startsWith('http'));
    expect(linked.length).toBeGreaterThan(5);
    expect(linked.filter((l) => !packedFiles.includes(l))).toEqual([]);
    expect(packedFiles).toContain('cmake/GlibcBaseline.cmake');
    expect(packedFiles.filter((f) => /\.test\.[cm]?[jt]s$/.test(f) || f.endsWith('.tgz'))).toEqual([]);
  });

  it('BUILD: after prebuild:all (CI), the tarball holds every shipped platform\'s prebuild, as the release publishes it', () => {
    expect(missingPrebuildFiles(packedFiles, [host as (typeof SHIPPED_PLATFORMS)[number]])).toEqual([]);
    if (process.env.KHRONOS_LOADER_PACK_PREBUILDS === '1') expect(missingPrebuildFiles(packedFiles)).toEqual([]);
  });

  it('BUILD: every shipped source map carries the TypeScript it maps to (lib/ does not ship)', () => {
    const installed = path.join(consumer, 'node_modules/khronos-loader');
    const maps = packedFiles.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    const without = maps.filter((file) => {
      const map = JSON.parse(readFileSync(path.join(installed, file), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      return map.sourcesContent?.length !== map.sources.length || map.sourcesContent.some((content) => typeof content !== 'string' || content === '');
    });
    expect(without).toEqual([]);
  });

  it('BUILD: the examples ship runnable: examplePath and the exports resolve the SPIR-V, the compiled compute example runs from the installed package', () => {
    const installed = path.join(consumer, 'node_modules/khronos-loader');
    const script = "import { examplePath } from 'khronos-loader'; console.log(examplePath('shaders/saxpy.spv'));";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' }).trim();
    expect(out).toBe(path.join(realpathSync(installed), 'examples/shaders/saxpy.spv'));
    const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('khronos-loader/examples/shaders/saxpy.spv'))"], { cwd: consumer, encoding: 'utf8' }).trim();
    expect(resolved.endsWith('/node_modules/khronos-loader/examples/shaders/saxpy.spv')).toBe(true);
    const noDriver = missingRealDriver();
    if (noDriver !== null) return void process.stdout.write(`[package] compute example not run: ${noDriver}\n`);
    const example = path.join(installed, 'dist/examples/compute.js');
    const ran = execFileSync(process.execPath, [example, '--elements', '65536', '--repeats', '1'], { cwd: consumer, encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: REAL_DRIVER_MANIFEST } });
    expect(ran).toMatch(/check against JavaScript: correct/);
  });

  it('DOCS: every README program block runs as written against the installed package (plain node, no TypeScript)', () => {
    const noDriver = missingRealDriver();
    const blocks = readmeBlocks().filter((b) => b.language === 'js' && (noDriver === null || !usesVulkan(b)));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const env = readerEnv(mkdtempSync(path.join(work, 'home-')), REAL_DRIVER_MANIFEST);
    for (const block of blocks) {
      const file = path.join(consumer, `readme-${block.line}.mjs`);
      writeFileSync(file, block.code);
      const run = spawnSync(process.execPath, [file], { cwd: consumer, env, encoding: 'utf8', timeout: 60_000 });
      const report = `README.md line ${block.line}: exit ${run.status} signal ${run.signal}\n${run.stdout}\n${run.stderr}`;
      expect(run.status, report).toBe(0);
      expect(missingPrints(block, run.stdout), report).toEqual([]);
    }
  });

  it('BUILD: the tarball size is reported and stays small', () => {
    process.stdout.write(`[package] ${path.basename(tarball)}: ${(packedSize.size / 1024).toFixed(0)} KiB packed, ${(packedSize.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packedFiles.length} files\n`);
    expect(statSync(tarball).size).toBe(packedSize.size);
    // One platform's binaries, the compiled JS and the native sources: a few MiB at most.
    expect(packedSize.size).toBeLessThan(8 * 1024 * 1024);
  });

  it('BUILD: no shipped file names a path of the build machine (its checkout, the packed copy, /work/)', () => {
    const installed = path.join(consumer, 'node_modules/khronos-loader');
    const machinePaths = [repoRoot, source, '/work/'];
    const offenders: string[] = [];
    for (const file of packedFiles) {
      const bytes = readFileSync(path.join(installed, file));
      for (const p of machinePaths) if (bytes.includes(p)) offenders.push(`${file} names ${p}`);
    }
    expect(offenders).toEqual([]);
  });

  it('BUILD: every shipped ELF file loads on glibc 2.28: no symbol version newer than GLIBC_2.28, no GLIBCXX_/CXXABI_ need', () => {
    const installed = path.join(consumer, 'node_modules/khronos-loader');
    const elfFiles: string[] = [];
    const violations: string[] = [];
    for (const file of packedFiles) {
      const result = readElfVersions(file, readFileSync(path.join(installed, file)));
      if (result.kind !== 'elf') continue;
      elfFiles.push(file);
      violations.push(...baselineViolations(file, result.needs));
    }
    expect(elfFiles).toContain(`prebuilds/${host}/khronos-loader.node`);
    expect(elfFiles).toContain(`prebuilds/${host}/libkhronos_simxr.so`);
    expect(violations).toEqual([]);
  });

  it('BUILD: installed with install scripts off, the package loads its prebuilt addon through node-gyp-build', () => {
    const script = [
      "const m = await import('khronos-loader');",
      "const { createRequire } = await import('node:module');",
      "const require = createRequire(import.meta.url);",
      "const dir = require('node:path').dirname(require.resolve('khronos-loader/package.json'));",
      "console.log(JSON.stringify({ napi: m.nativeInfo().napiVersion, file: require('node-gyp-build').path(dir) }));",
    ].join('\n');
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' });
    const info = JSON.parse(output) as { napi: number; file: string };
    expect(info.napi).toBeGreaterThanOrEqual(8);
    expect(info.file.endsWith(`node_modules/khronos-loader/prebuilds/${host}/khronos-loader.node`)).toBe(true);
  });

  it('BUILD: the bin runs from the installed package', () => {
    const output = execFileSync(path.join(consumer, 'node_modules/.bin/khronos-loader'), ['info', 'openxr', '--json'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toHaveProperty('apiLayers');
  });

  it('BUILD: bench runs its measuring children from the installed package', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    const output = execFileSync(bin, ['bench', 'openxr', '--layers', '0,1', '--iterations', '2000', '--repeats', '1', '--json'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    const result = JSON.parse(output) as { rows: { layers: number; cells: Record<string, { wall?: { median: number } }> }[] };
    expect(result.rows.map((r) => r.layers)).toEqual([0, 1]);
    for (const row of result.rows) expect(row.cells['ours-trampoline']?.wall?.median).toBeGreaterThan(0);
  });

  it('`khronos-loader runtimes` lists the package\'s simulated runtime registered in ~/.config/openxr/1/ by its name, and --check loads it', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    const home = path.join(work, 'home');
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_DIRS: path.join(home, 'none'), XDG_DATA_DIRS: path.join(home, 'none') };
    const simxr = execFileSync(process.execPath, ['--input-type=module', '-e', "import { simulatedRuntime } from 'khronos-loader/openxr'; process.stdout.write(simulatedRuntime());"], {
      cwd: consumer,
      encoding: 'utf8',
      env,
    });
    const folder = path.join(home, '.config/openxr/1');
    mkdirSync(folder, { recursive: true });
    symlinkSync(simxr, path.join(folder, 'khronos_simxr.json'));
    const text = execFileSync(bin, ['runtimes'], { cwd: consumer, encoding: 'utf8', env });
    expect(text).toMatch(/^ {2}khronos-loader simulated runtime \(simxr\)$/m);
    const checked = JSON.parse(execFileSync(bin, ['runtimes', '--check', '--json'], { cwd: consumer, encoding: 'utf8', env })) as {
      runtimes: { name: string; check?: { status: string; negotiated?: { runtimeName?: string } } }[];
    };
    const entry = checked.runtimes.find((r) => r.name === 'khronos-loader simulated runtime (simxr)');
    expect(entry?.check?.status).toBe('ok');
    expect(entry?.check?.negotiated?.runtimeName).toMatch(/simulated/i);
  });

  it('BUILD: doctor runs its probe children from the installed package', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    // The runtime that ships in the package is on every machine: the doctor must load and
    // negotiate it in a probe child, whatever else is installed.
    const simxr = execFileSync(process.execPath, ['--input-type=module', '-e', "import { simulatedRuntime } from 'khronos-loader/openxr'; process.stdout.write(simulatedRuntime());"], {
      cwd: consumer,
      encoding: 'utf8',
    });
    const result = spawnSync(bin, ['doctor', 'openxr', '--json'], { cwd: consumer, encoding: 'utf8', env: { ...process.env, XR_RUNTIME_JSON: simxr } });
    // Exit 0 or 1 depends on this machine's API layers; a crash or a usage error is neither.
    expect([0, 1], result.stderr).toContain(result.status);
    const report = JSON.parse(result.stdout) as { components: { kind: string; name: string; status: string; probe: { ran: boolean }; negotiated?: { extensions?: { name: string }[] } }[] };
    const runtime = report.components.find((c) => c.kind === 'runtime');
    expect(runtime).toMatchObject({ name: 'libkhronos_simxr.so', status: 'ok', probe: { ran: true } });
    // Only the probe child, having negotiated with the runtime, can know its extensions.
    expect(runtime?.negotiated?.extensions?.map((e) => e.name)).toContain('XR_MND_headless');
  });
  it('BUILD: the demo runs from the installed package (npx khronos-loader demo)', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    const output = execFileSync(bin, ['demo', '--seconds', '1', '--json'], { cwd: consumer, encoding: 'utf8' });
    const result = JSON.parse(output) as { frames: number; rendered: number; runtimeManifest: string };
    expect(result.rendered).toBeGreaterThan(0);
    expect(result.frames).toBeGreaterThanOrEqual(result.rendered);
  });

  it('BUILD: on a platform without a prebuild, the CLI prints one message (the platforms that exist, how to build from source) and no stack trace', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    // node-gyp-build resolves for npm_config_platform/npm_config_arch: a platform nobody ships.
    const env = { ...process.env, npm_config_platform: 'freebsd', npm_config_arch: 'riscv64' };
    const result = spawnSync(bin, ['demo', '--seconds', '1'], { cwd: consumer, encoding: 'utf8', env });
    expect(result.status).toBe(1);
    const installed = realpathSync(path.join(consumer, 'node_modules/khronos-loader'));
    // The demo names itself first, as for every failure it reports.
    expect(result.stderr).toBe(
      `demo failed: khronos-loader has no prebuilt binary for freebsd-riscv64 (prebuilt: ${packedPlatforms()}).\n` +
        'Build it from source in the package folder (needs CMake and a C++20 compiler):\n' +
        `  cd ${installed} && npm install --no-save cmake-js node-addon-api && npx cmake-js build\n`,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('BUILD: with install scripts on, install.cjs fails the install on a platform without a prebuild and passes on this one', () => {
    const installed = path.join(consumer, 'node_modules/khronos-loader');
    const missing = spawnSync(process.execPath, ['install.cjs'], {
      cwd: installed,
      encoding: 'utf8',
      env: { ...process.env, npm_config_platform: 'darwin', npm_config_arch: 'arm64' },
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`khronos-loader has no prebuilt binary for darwin-arm64 (prebuilt: ${packedPlatforms()}).`);
    expect(missing.stderr).toContain('npx cmake-js build');
    expect(missing.stderr).not.toMatch(/^\s+at /m);
    const here = spawnSync(process.execPath, ['install.cjs'], { cwd: installed, encoding: 'utf8' });
    expect(here.status, here.stderr).toBe(0);
    expect(here.stderr).toBe('');
  });

  for (const moduleResolution of ['node16', 'bundler'] as const) {
    it(`BUILD: a TypeScript consumer (moduleResolution ${moduleResolution}) typechecks against the published types`, () => {
      const project = path.join(work, `ts-consumer-${moduleResolution}`);
      mkdirSync(project, { recursive: true });
      symlinkSync(path.join(consumer, 'node_modules'), path.join(project, 'node_modules'), 'dir');
      writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'ts-consumer', version: '1.0.0', type: 'module', private: true }));
      writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: moduleResolution === 'node16' ? 'node16' : 'esnext',
            moduleResolution,
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
            // The consumer's own @types/node: the repository's, as a project would have it installed.
            typeRoots: [path.join(repoRoot, 'node_modules/@types')],
          },
          files: ['consumer.ts'],
        }),
      );
      writeFileSync(
        path.join(project, 'consumer.ts'),
        [
          "import { openxr, loaderLog, PrebuildMissingError, type LogRecord } from 'khronos-loader';",
          "import { createLoader, simulatedRuntime, POSE_FLOATS, type Session } from 'khronos-loader/openxr';",
          "import { discover, VK_API_VERSION_1_1 } from 'khronos-loader/vulkan';",
          'const found: string | undefined = openxr.discover().runtime?.manifestPath;',
          'loaderLog.on(\'record\', (r: LogRecord) => console.log(r.level, r.message));',
          'const manifest: string = simulatedRuntime();',
          'const pose = new Float32Array(POSE_FLOATS);',
          'const layers: readonly string[] = discover().layers.map((l) => l.name);',
          'const api: number = VK_API_VERSION_1_1;',
          'function frames(session: Session): void { session.on(\'stateChanged\', (s) => console.log(s)); }',
          'const error: unknown = new Error();',
          'if (error instanceof PrebuildMissingError) console.log(error.available.join(\', \'));',
          'console.log(found, manifest, pose, layers, api, frames, createLoader);',
          '// @ts-expect-error: a string is not a loader option object',
          "createLoader('wrong');",
          '',
        ].join('\n'),
      );
      const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
      const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
      expect(result.stdout + result.stderr).toBe('');
      expect(result.status).toBe(0);
    });
  }
});
